// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of src/stats.c. Reference values were computed independently
 * in R 4.2.2 (r-base-core, a development tool only), with the R expression
 * next to each value; the rest are checked against brute-force O(n^2)
 * computations in this file. Values are printed in R with
 * sprintf("%.17g", v). Test data that R must reproduce bit for bit comes
 * from the Park-Miller generator below, defined in R as:
 *
 *   pm <- function(seed, n) { s <- seed; u <- numeric(n)
 *     for (i in 1:n) { s <- (s * 16807) %% 2147483647
 *       u[i] <- s / 2147483647 }; u }
 *
 * (all intermediate values are integers below 2^53, so R's doubles and C's
 * integers agree exactly).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/util.h"

/* |actual - expected| <= tol * max(1, |expected|) */
#define assert_close(actual, expected, tol)                                   \
	do {                                                                  \
		double a_ = (actual), e_ = (expected);                        \
		if (!(fabs(a_ - e_) <= (tol) * fmax(1, fabs(e_))))            \
			fail_msg("%s = %.17g, expected %.17g (tol %g)",       \
				 #actual, a_, e_, (double)(tol));             \
	} while (0)

/* |actual - expected| <= rel * |expected|, for tiny p-values. */
#define assert_rel(actual, expected, rel)                                     \
	do {                                                                  \
		double a_ = (actual), e_ = (expected);                        \
		if (!(fabs(a_ - e_) <= (rel) * fabs(e_)))                     \
			fail_msg("%s = %.17g, expected %.17g (rel %g)",       \
				 #actual, a_, e_, (double)(rel));             \
	} while (0)

/* Differences of rounding order between R's code and ours. */
#define TIGHT 1e-13
/* R's large-sample wilcox.test CI and estimate come from uniroot(tol=1e-4). */
#define UNIROOT_TOL 2e-4

static void park_miller(uint64_t seed, double *u, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 16807 % 2147483647;
		u[i] = (double)seed / 2147483647.0;
	}
}

/* R: offset + 10 * pm(seed, n)^2 -- skewed like timings, no ties. */
static void skewed_sample(uint64_t seed, double offset, double *x, size_t n)
{
	park_miller(seed, x, n);
	for (size_t i = 0; i < n; i++)
		x[i] = offset + 10 * (x[i] * x[i]);
}

/* R: offset + floor(8 * pm(seed, n)^2) -- integer nanoseconds, many ties. */
static void quantised_sample(uint64_t seed, double offset, double *x,
			     size_t n)
{
	park_miller(seed, x, n);
	for (size_t i = 0; i < n; i++)
		x[i] = offset + floor(8 * (x[i] * x[i]));
}

/* ---------------------------------------------------------------------- */

static void test_sort(void **state)
{
	double x[] = { 3, -1, NAN, 2.5, -INFINITY, 2.5, 0 };

	(void)state;
	stats_sort(x, ARRAY_SIZE(x));
	assert_true(x[0] == -INFINITY);
	assert_true(x[1] == -1 && x[2] == 0 && x[3] == 2.5 && x[4] == 2.5);
	assert_true(x[5] == 3);
	assert_true(isnan(x[6]));	/* NaN sorts last */
	stats_sort(x, 0);
}

static void test_quantile_type7(void **state)
{
	double x[] = { 3.1, 1.4, 1.5, 9.2, 6.5, 3.5, 8.9, 7.9 };
	double y[] = { 0.25, 0.75, 1.25, 2.0, 3.5, 7.0, 12.5, 40.0, 41.0,
		       100.0, 250.0 };
	const double q[] = { 0, 0.1, 0.25, 0.5, 0.9, 0.99, 1 };
	/* R: quantile(c(3.1,1.4,1.5,9.2,6.5,3.5,8.9,7.9),
	 *             c(0,0.1,0.25,0.5,0.9,0.99,1), type=7) */
	const double want[] = { 1.3999999999999999, 1.47, 2.7000000000000002,
				5, 8.9900000000000002, 9.1790000000000003,
				9.1999999999999993 };
	const double qy[] = { 0.01, 0.33, 0.5, 0.66, 0.99 };
	/* R: quantile(c(0.25,0.75,1.25,2,3.5,7,12.5,40,41,100,250),
	 *             c(0.01,0.33,0.5,0.66,0.99), type=7) */
	const double want_y[] = { 0.30000000000000004, 2.4500000000000011, 7,
				  29.000000000000014, 235.00000000000006 };

	(void)state;
	stats_sort(x, ARRAY_SIZE(x));
	for (size_t i = 0; i < ARRAY_SIZE(q); i++)
		assert_close(stats_quantile_sorted(x, ARRAY_SIZE(x), q[i]),
			     want[i], TIGHT);
	for (size_t i = 0; i < ARRAY_SIZE(qy); i++)
		assert_close(stats_quantile_sorted(y, ARRAY_SIZE(y), qy[i]),
			     want_y[i], TIGHT);

	/* Single value, out-of-range q, empty input, NaN q. */
	assert_true(stats_quantile_sorted(x, 1, 0.7) == x[0]);
	assert_true(stats_quantile_sorted(x, ARRAY_SIZE(x), -1) == x[0]);
	assert_true(stats_quantile_sorted(x, ARRAY_SIZE(x), 2) == x[7]);
	assert_true(isnan(stats_quantile_sorted(x, 0, 0.5)));
	assert_true(isnan(stats_quantile_sorted(x, ARRAY_SIZE(x), NAN)));
}

/*
 * Rule: [x_(k), x_(n-k+1)] with k the largest such that
 * P(Bin(n, 1/2) <= k - 1) <= 0.025, so coverage 1 - 2 P(...) >= 0.95.
 * R: n <- N; max(c(1, which(pbinom((1:n) - 1, n, 0.5) <= 0.025)))
 * For these n, k also equals qbinom(0.025, n, 0.5) (0 for n = 5 -> 1).
 */
static void test_median_ci_ranks(void **state)
{
	static const struct {
		size_t n, lo, hi;
	} cases[] = {
		{ 5, 1, 5 },		/* too small: coverage only 0.9375 */
		{ 6, 1, 6 },		/* 1 - 2 * pbinom(0, 6, .5) = 0.96875 */
		{ 10, 2, 9 },		/* coverage 0.9785156 */
		{ 12, 3, 10 },
		{ 20, 6, 15 },		/* coverage 0.9586105 */
		{ 100, 40, 61 },	/* coverage 0.9647998 */
		{ 1000, 469, 532 },	/* coverage 0.9537088 */
	};
	size_t lo, hi;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		stats_median_ci_ranks(cases[i].n, 0.95, &lo, &hi);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
	}
	stats_median_ci_ranks(1, 0.95, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 1);
	stats_median_ci_ranks(0, 0.95, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 0);
	/* A level near 0 shrinks the interval towards the median.
	 * R: max(which(pbinom((1:7) - 1, 7, 0.5) <= (1 - 1e-9) / 2))  # 3
	 *    max(which(pbinom((1:8) - 1, 8, 0.5) <= (1 - 1e-9) / 2))  # 4 */
	stats_median_ci_ranks(7, 1e-9, &lo, &hi);
	assert_int_equal(lo, 3);
	assert_int_equal(hi, 5);
	stats_median_ci_ranks(8, 1e-9, &lo, &hi);
	assert_int_equal(lo, 4);
	assert_int_equal(hi, 5);
}

/* ---------------------------------------------------------------------- */

static void test_mwu_exact(void **state)
{
	const double x[] = { 1.1, 2.2, 3.3 };
	const double y[] = { 4.4, 5.5, 6.6, 7.7 };
	const double a[] = { 0.8, 1.9, 3.7, 4.1, 6.2 };
	const double b[] = { 1.2, 2.5, 4.6, 5.3, 7.4, 8.8 };
	struct mwu_result r;

	(void)state;
	stats_mann_whitney(x, 3, y, 4, &r);
	assert_true(r.exact);
	/* R: w <- wilcox.test(c(1.1,2.2,3.3), c(4.4,5.5,6.6,7.7));
	 *    w$statistic; w$p.value */
	assert_close(r.u, 0, 0);
	assert_rel(r.p, 0.057142857142857141, TIGHT);

	stats_mann_whitney(a, 5, b, 6, &r);
	assert_true(r.exact);
	/* R: wilcox.test(c(0.8,1.9,3.7,4.1,6.2),
	 *                c(1.2,2.5,4.6,5.3,7.4,8.8))  -> W = 9 */
	assert_close(r.u, 9, 0);
	assert_close(r.p, 0.32900432900432897, TIGHT);

	/* Upper tail. R: wilcox.test(c(1.2,2.5,4.6,5.3,7.4,8.8),
	 *                            c(0.8,1.9,3.7,4.1,6.2))  -> W = 21 */
	stats_mann_whitney(b, 6, a, 5, &r);
	assert_close(r.u, 21, 0);
	assert_close(r.p, 0.32900432900432897, TIGHT);
}

static void test_mwu_normal_ties(void **state)
{
	const double x[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double y[] = { 3, 4, 4, 5, 5, 6, 7, 7, 8 };
	struct mwu_result r;

	(void)state;
	stats_mann_whitney(x, ARRAY_SIZE(x), y, ARRAY_SIZE(y), &r);
	assert_false(r.exact);
	/* R: wilcox.test(c(1,2,2,3,3,3,4,5), c(3,4,4,5,5,6,7,7,8))
	 *    -> W = 7.5 (with continuity correction) */
	assert_close(r.u, 7.5, 0);
	assert_rel(r.p, 0.0063731338380858754, TIGHT);
}

static void test_mwu_normal_large(void **state)
{
	double a[60], b[70], qa[200], qb[200];
	struct mwu_result r;

	(void)state;
	skewed_sample(12345, 100, a, ARRAY_SIZE(a));
	skewed_sample(67890, 100.5, b, ARRAY_SIZE(b));
	stats_mann_whitney(a, ARRAY_SIZE(a), b, ARRAY_SIZE(b), &r);
	assert_false(r.exact);	/* n >= 50, no ties */
	/* R: wilcox.test(100 + 10 * pm(12345, 60)^2,
	 *                100.5 + 10 * pm(67890, 70)^2)  -> W = 1876 */
	assert_close(r.u, 1876, 0);
	assert_close(r.p, 0.29658842539466029, TIGHT);

	quantised_sample(111, 20, qa, ARRAY_SIZE(qa));
	quantised_sample(222, 21, qb, ARRAY_SIZE(qb));
	stats_mann_whitney(qa, ARRAY_SIZE(qa), qb, ARRAY_SIZE(qb), &r);
	/* R: wilcox.test(20 + floor(8 * pm(111, 200)^2),
	 *                21 + floor(8 * pm(222, 200)^2))  -> W = 13856 */
	assert_close(r.u, 13856, 0);
	assert_rel(r.p, 6.9265095295403249e-08, TIGHT);
}

static void test_mwu_edges(void **state)
{
	const double one[] = { 1 }, two[] = { 2 };
	const double same[] = { 5, 5, 5 };
	struct mwu_result r;

	(void)state;
	/* R: wilcox.test(1, 2)$p.value == 1 */
	stats_mann_whitney(one, 1, two, 1, &r);
	assert_true(r.exact);
	assert_close(r.u, 0, 0);
	assert_close(r.p, 1, 0);

	/* All tied: R returns NaN (0/0); we report no evidence, p = 1. */
	stats_mann_whitney(same, 3, same, 2, &r);
	assert_false(r.exact);
	assert_close(r.p, 1, 0);

	/* Empty sample: no test. */
	stats_mann_whitney(one, 1, two, 0, &r);
	assert_true(isnan(r.p));
	stats_mann_whitney(NULL, 0, two, 1, &r);
	assert_true(isnan(r.p));
}

/* ---------------------------------------------------------------------- */

static void test_hl_exact_small(void **state)
{
	const double x[] = { 10.3, 11.1, 9.7, 10.8, 12.4, 10.05, 11.6 };
	const double y[] = { 11.9, 12.7, 10.9, 13.2, 12.15, 11.45, 14.0,
			     12.95 };
	double est, lo, hi;

	(void)state;
	/* R: x <- c(10.3,11.1,9.7,10.8,12.4,10.05,11.6)
	 *    y <- c(11.9,12.7,10.9,13.2,12.15,11.45,14.0,12.95)
	 *    w <- wilcox.test(y, x, conf.int=TRUE)   # exact test
	 *    w$estimate; w$conf.int */
	assert_true(stats_hodges_lehmann(x, 7, y, 8, 0.95, &est, &lo, &hi));
	assert_close(est, 1.5999999999999996, TIGHT);
	assert_close(lo, 0.34999999999999964, TIGHT);
	assert_close(hi, 2.8999999999999986, TIGHT);

	/* R: wilcox.test(y, x, conf.int=TRUE, conf.level=0.9)$conf.int */
	assert_true(stats_hodges_lehmann(x, 7, y, 8, 0.90, &est, &lo, &hi));
	assert_close(lo, 0.59999999999999964, TIGHT);
	assert_close(hi, 2.4500000000000011, TIGHT);
}

static void test_hl_not_achievable(void **state)
{
	const double x[] = { 1, 2, 3 }, y[] = { 4.5, 5.5, 6.5 };
	double est, lo, hi;

	(void)state;
	/* R: wilcox.test(c(4.5,5.5,6.5), c(1,2,3), conf.int=TRUE)
	 *    -> "Requested conf.level not achievable", estimate 3.5,
	 *    CI 1.5 5.5 (all differences) at conf.level 0.9 */
	assert_false(stats_hodges_lehmann(x, 3, y, 3, 0.95, &est, &lo, &hi));
	assert_close(est, 3.5, 0);
	assert_close(lo, 1.5, 0);
	assert_close(hi, 5.5, 0);

	assert_false(stats_hodges_lehmann(x, 0, y, 3, 0.95, &est, &lo, &hi));
	assert_true(isnan(est) && isnan(lo) && isnan(hi));

	/* n = 1 per side: the only difference. */
	assert_false(stats_hodges_lehmann(x, 1, y, 1, 0.95, &est, &lo, &hi));
	assert_close(est, 3.5, 0);
	assert_close(lo, 3.5, 0);
	assert_close(hi, 3.5, 0);
}

static void test_hl_normal_200(void **state)
{
	double a[200], b[200];
	double est, lo, hi;

	(void)state;
	skewed_sample(12345, 100, a, ARRAY_SIZE(a));
	skewed_sample(67890, 100.5, b, ARRAY_SIZE(b));
	assert_true(stats_hodges_lehmann(a, 200, b, 200, 0.95, &est, &lo,
					 &hi));
	/* R: a <- 100 + 10 * pm(12345, 200)^2
	 *    b <- 100.5 + 10 * pm(67890, 200)^2
	 *    w <- wilcox.test(b, a, conf.int=TRUE, exact=FALSE)
	 *    w$estimate; w$conf.int   (uniroot, tol.root = 1e-4) */
	assert_close(est, 0.37767845507145725, UNIROOT_TOL);
	assert_close(lo, -0.059170574368466088, UNIROOT_TOL);
	assert_close(hi, 0.68337859275061796, UNIROOT_TOL);
	/*
	 * With a tight root R lands on the pairwise differences themselves:
	 * R: wilcox.test(b, a, conf.int=TRUE, exact=FALSE,
	 *                tol.root=1e-13)$conf.int
	 *    -> -0.05919029442093672 0.68342988578296959
	 * which are d[17734] and d[40000 - 17734 + 1] of
	 * R: d <- sort(outer(b, a, "-"))
	 *    d[17734]; d[22267]  -> -0.059190294420957912 0.68342988578297081
	 * The estimate is on R's zero plateau (d[20000], d[20001]); we return
	 * its midpoint. R: median(d) -> 0.37766843898313596
	 */
	assert_close(lo, -0.05919029442093672, 1e-12);
	assert_close(hi, 0.68342988578296959, 1e-12);
	assert_close(lo, -0.059190294420957912, 0);
	assert_close(hi, 0.68342988578297081, 0);
	assert_close(est, 0.37766843898313596, 0);
}

static void test_hl_normal_ties(void **state)
{
	double a[200], b[200];
	double est, lo, hi;

	(void)state;
	quantised_sample(111, 20, a, ARRAY_SIZE(a));
	quantised_sample(222, 21, b, ARRAY_SIZE(b));
	assert_true(stats_hodges_lehmann(a, 200, b, 200, 0.95, &est, &lo,
					 &hi));
	/* R: a <- 20 + floor(8 * pm(111, 200)^2)
	 *    b <- 21 + floor(8 * pm(222, 200)^2)
	 *    w <- wilcox.test(b, a, conf.int=TRUE)  # normal: ties
	 *    -> estimate 1.0000762823983675,
	 *       CI 0.99999797046704542 1.0000529947463781 (uniroot near 1)
	 *    median(outer(b, a, "-")) == 1 */
	assert_close(est, 1.0000762823983675, UNIROOT_TOL);
	assert_close(lo, 0.99999797046704542, UNIROOT_TOL);
	assert_close(hi, 1.0000529947463781, UNIROOT_TOL);
	/* R: wilcox.test(b, a, conf.int=TRUE, tol.root=1e-13)
	 *    -> estimate 1.0000000000000553,
	 *       CI 0.99999999999995193 1.0000000000000178 */
	assert_true(est == 1 && lo == 1 && hi == 1);
}

/* Quarter-nanosecond steps: many ties, yet distinct CI bounds. */
static void test_hl_normal_quarter_ties(void **state)
{
	double a[150], b[180];
	double est, lo, hi;
	struct mwu_result r;

	(void)state;
	park_miller(555, a, ARRAY_SIZE(a));
	park_miller(666, b, ARRAY_SIZE(b));
	for (size_t i = 0; i < ARRAY_SIZE(a); i++)
		a[i] = 20 + floor(40 * (a[i] * a[i])) / 4;
	for (size_t j = 0; j < ARRAY_SIZE(b); j++)
		b[j] = 20.5 + floor(40 * (b[j] * b[j])) / 4;
	/* R: a <- 20 + floor(40 * pm(555, 150)^2) / 4
	 *    b <- 20.5 + floor(40 * pm(666, 180)^2) / 4
	 *    w <- wilcox.test(b, a, conf.int=TRUE, tol.root=1e-13)
	 *    -> estimate 0.50000000000003519,
	 *       CI 0.25000000000001088 1.0000000000000193
	 *    wilcox.test(b, a, conf.int=TRUE, conf.level=0.8,
	 *                tol.root=1e-13)$conf.int
	 *    -> 0.49999999999997824 0.99999999999999245
	 *    median(outer(b, a, "-")) -> 0.5 */
	assert_true(stats_hodges_lehmann(a, 150, b, 180, 0.95, &est, &lo,
					 &hi));
	assert_close(est, 0.5, 0);
	assert_close(lo, 0.25, 0);
	assert_close(hi, 1, 0);
	assert_true(stats_hodges_lehmann(a, 150, b, 180, 0.8, &est, &lo,
					 &hi));
	assert_close(lo, 0.5, 0);
	assert_close(hi, 1, 0);

	/* R: wilcox.test(a, b)  -> W = 10748 */
	stats_mann_whitney(a, 150, b, 180, &r);
	assert_close(r.u, 10748, 0);
	assert_rel(r.p, 0.001406633604858936, TIGHT);
}

/* A heavy tie in one sample shrinks sigma: the bounds move. */
static void test_hl_normal_one_sided_ties(void **state)
{
	double a[150], b[180];
	double est, lo, hi;
	struct mwu_result r;

	(void)state;
	park_miller(555, a, ARRAY_SIZE(a));
	for (size_t i = 0; i < ARRAY_SIZE(a); i++)
		a[i] = a[i] < 0.6 ? 20 : 20 + 10 * (a[i] * a[i]);
	skewed_sample(666, 20.5, b, ARRAY_SIZE(b));
	/* R: u <- pm(555, 150); a <- ifelse(u < 0.6, 20, 20 + 10 * u^2)
	 *    b <- 20.5 + 10 * pm(666, 180)^2          # 97 values of a are 20
	 *    w <- wilcox.test(b, a, conf.int=TRUE, tol.root=1e-13)
	 *    -> estimate 1.4216132855184624,
	 *       CI 1.0954399462486095 1.8170040644015555
	 *    median(outer(b, a, "-")) -> 1.4216132855184362 */
	assert_true(stats_hodges_lehmann(a, 150, b, 180, 0.95, &est, &lo,
					 &hi));
	assert_close(est, 1.4216132855184362, TIGHT);
	assert_close(lo, 1.0954399462486095, 1e-12);
	assert_close(hi, 1.8170040644015555, 1e-12);

	/* R: wilcox.test(a, b)  -> W = 7356 */
	stats_mann_whitney(a, 150, b, 180, &r);
	assert_close(r.u, 7356, 0);
	assert_rel(r.p, 5.5538580444452354e-13, TIGHT);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Selection without storing the differences vs sorting all of them. */
static void test_hl_vs_brute_force(void **state)
{
	enum { NX = 37, NY = 52 };
	double x[NX], y[NY], d[NX * NY];
	double est, lo, hi, median;

	(void)state;
	park_miller(4242, x, NX);
	park_miller(777, y, NY);
	/* Negative, zero and repeated differences. */
	for (size_t i = 0; i < NX; i++)
		x[i] = round(x[i] * 40) / 4 - 5;
	for (size_t j = 0; j < NY; j++)
		y[j] = round(y[j] * 40) / 4 - 4;
	for (size_t i = 0; i < NX; i++)
		for (size_t j = 0; j < NY; j++)
			d[i * NY + j] = y[j] - x[i];
	qsort(d, NX * NY, sizeof(d[0]), cmp_dbl);
	median = (d[NX * NY / 2 - 1] + d[NX * NY / 2]) / 2;

	stats_hodges_lehmann(x, NX, y, NY, 0.95, &est, &lo, &hi);
	assert_true(est == median);
	assert_true(lo >= d[0] && hi <= d[NX * NY - 1]);
	assert_true(lo <= est && est <= hi);
	/* Bounds are actual differences. */
	assert_non_null(bsearch(&lo, d, NX * NY, sizeof(d[0]), cmp_dbl));
	assert_non_null(bsearch(&hi, d, NX * NY, sizeof(d[0]), cmp_dbl));
}

/* 20000 per side: 4e8 differences (3.2 GB) that must never be stored. */
static void test_hl_large_memory_light(void **state)
{
	enum { N = 20000 };
	double *x = xcalloc(N, sizeof(*x)), *y = xcalloc(N, sizeof(*y));
	double est, lo, hi;

	(void)state;
	quantised_sample(31337, 20, x, N);
	quantised_sample(4711, 23, y, N);
	assert_true(stats_hodges_lehmann(x, N, y, N, 0.95, &est, &lo, &hi));
	assert_true(lo <= est && est <= hi);
	assert_true(est >= 2 && est <= 4);
	assert_true(hi - lo <= 1);
	free(x);
	free(y);
}

/* ---------------------------------------------------------------------- */

static double cliffs_brute(const double *x, size_t nx, const double *y,
			   size_t ny)
{
	long long sum = 0;

	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			sum += (y[j] > x[i]) - (y[j] < x[i]);
	return (double)sum / ((double)nx * (double)ny);
}

static void test_cliffs_delta(void **state)
{
	const double x[] = { 1, 2, 3 }, y[] = { 2, 4 };
	const double a[] = { 1, 2, 2.5, 3, 4 }, b[] = { 1.5, 2.5, 2.5, 9 };
	double rx[300], ry[250];

	(void)state;
	/* By hand: y=2 beats 1, loses to 3; y=4 beats all: (4 - 1) / 6.
	 * R: mean(sign(outer(c(2,4), c(1,2,3), "-"))) == 0.5 */
	assert_close(stats_cliffs_delta(x, 3, y, 2), 0.5, 0);
	/* R: mean(sign(outer(c(1.5,2.5,2.5,9), c(1,2,2.5,3,4), "-"))) */
	assert_close(stats_cliffs_delta(a, 5, b, 4), 0.10000000000000001, 0);
	assert_close(stats_cliffs_delta(y, 2, x, 3), -0.5, 0);
	assert_close(stats_cliffs_delta(x, 3, x, 3), 0, 0);

	quantised_sample(99, 20, rx, ARRAY_SIZE(rx));
	skewed_sample(98, 20.5, ry, ARRAY_SIZE(ry));
	assert_close(stats_cliffs_delta(rx, 300, ry, 250),
		     cliffs_brute(rx, 300, ry, 250), 0);
	skewed_sample(97, 20, rx, ARRAY_SIZE(rx));
	assert_close(stats_cliffs_delta(rx, 300, ry, 250),
		     cliffs_brute(rx, 300, ry, 250), 0);

	assert_true(isnan(stats_cliffs_delta(x, 0, y, 2)));
}

/* ---------------------------------------------------------------------- */

static void test_p_adjust(void **state)
{
	const double p[] = { 0.01, NAN, 0.04, 0.03, 0.005, 0.5, 0.04 };
	/* R: p <- c(0.01, NA, 0.04, 0.03, 0.005, 0.5, 0.04)
	 *    p.adjust(p, "holm") */
	const double holm[] = { 0.050000000000000003, NAN, 0.12, 0.12,
				0.029999999999999999, 0.5, 0.12 };
	/* R: p.adjust(p, "BH") */
	const double bh[] = { 0.029999999999999999, NAN, 0.048000000000000001,
			      0.048000000000000001, 0.029999999999999999, 0.5,
			      0.048000000000000001 };
	double h[ARRAY_SIZE(p)], f[ARRAY_SIZE(p)];
	double big[] = { 0.9, 0.6, 0.8 };
	double big2[] = { 0.9, 0.6, 0.8 };

	(void)state;
	memcpy(h, p, sizeof(p));
	memcpy(f, p, sizeof(p));
	stats_holm(h, ARRAY_SIZE(h));
	stats_benjamini_hochberg(f, ARRAY_SIZE(f));
	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		if (isnan(p[i])) {
			assert_true(isnan(h[i]) && isnan(f[i]));
			continue;
		}
		assert_close(h[i], holm[i], TIGHT);
		assert_close(f[i], bh[i], TIGHT);
	}

	/* Capped at 1 and monotone. R: p.adjust(c(0.9,0.6,0.8), "holm")
	 * -> 1 1 1; p.adjust(c(0.9,0.6,0.8), "BH") -> 0.9 0.9 0.9 */
	stats_holm(big, 3);
	stats_benjamini_hochberg(big2, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_close(big[i], 1, 0);
		assert_close(big2[i], 0.90000000000000002, TIGHT);
	}
	stats_holm(NULL, 0);
	stats_benjamini_hochberg(NULL, 0);
}

/* ---------------------------------------------------------------------- */

static void test_student_t(void **state)
{
	const double x[] = { 21.2, 20.9, 21.5, 22.0, 21.1, 20.8 };
	const double y[] = { 22.1, 21.9, 22.6, 22.3, 21.7, 22.8, 22.0 };
	const double y2[] = { 21.3, 20.7, 21.6, 21.9, 21.0, 21.2 };
	struct ttest_result r;

	(void)state;
	/* R: x <- c(21.2,20.9,21.5,22.0,21.1,20.8)
	 *    y <- c(22.1,21.9,22.6,22.3,21.7,22.8,22.0)
	 *    t <- t.test(y, x, var.equal=TRUE)
	 *    mean(y) - mean(x); diff(t$conf.int) / 2
	 *    sqrt(((6-1)*var(x) + (7-1)*var(y)) / 11)   # p = 0.0017 */
	stats_student_t(x, 6, y, 7, 0.95, &r);
	assert_close(r.diff, 0.94999999999999929, 1e-12);
	assert_close(r.halfwidth, 0.50824417503308061, 1e-12);
	assert_close(r.pooled_sd, 0.41505749875496478, 1e-12);
	assert_true(r.significant);

	/* R: diff(t.test(y, x, var.equal=TRUE, conf.level=0.99)$conf.int)/2 */
	stats_student_t(x, 6, y, 7, 0.99, &r);
	assert_close(r.halfwidth, 0.71718251395975174, 1e-12);

	/* R: y2 <- c(21.3,20.7,21.6,21.9,21.0,21.2)
	 *    t <- t.test(y2, x, var.equal=TRUE)   # p = 0.897 */
	stats_student_t(x, 6, y2, 6, 0.95, &r);
	assert_close(r.diff, 0.033333333333331439, 1e-12);
	assert_close(r.halfwidth, 0.55827119556795379, 1e-12);
	assert_false(r.significant);

	/* Too few values for a variance: no interval, no claim. */
	stats_student_t(x, 1, y, 1, 0.95, &r);
	assert_close(r.diff, 0.9, TIGHT);
	assert_true(isnan(r.halfwidth));
	assert_false(r.significant);
	stats_student_t(x, 0, y, 3, 0.95, &r);
	assert_true(isnan(r.diff));
	assert_false(r.significant);
}

static void test_geomean(void **state)
{
	const double a[] = { 1, 2, 4, 8 };
	const double b[] = { 0.5, 3, 7.25, 110 };
	const double c[] = { 3, 0, 2 };

	(void)state;
	/* R: exp(mean(log(c(1,2,4,8)))) */
	assert_close(stats_geomean(a, 4), 2.8284271247461898, TIGHT);
	/* R: exp(mean(log(c(0.5,3,7.25,110)))) */
	assert_close(stats_geomean(b, 4), 5.8810583410677477, TIGHT);
	assert_close(stats_geomean(c, 3), 0, 0);
	assert_close(stats_geomean(a, 1), 1, 0);
	assert_true(isnan(stats_geomean(a, 0)));
}

/* ---------------------------------------------------------------------- */

static void test_summarize(void **state)
{
	double x[] = { 10.1, 10.3, 9.9, 10.0, 10.2, 10.4, 9.8, 10.1, 10.0,
		       55.0, 10.2, 9.9 };
	struct summary s;

	(void)state;
	stats_summarize(x, ARRAY_SIZE(x), &s);
	/* R: x <- c(10.1,10.3,9.9,10.0,10.2,10.4,9.8,10.1,10.0,55.0,10.2,9.9)
	 *    n <- 12; k <- max(which(pbinom((1:n)-1, n, .5) <= .025))  # 3
	 *    s <- sort(x)
	 *    min(x); max(x); median(x); s[k]; s[n-k+1]; mean(x); sd(x)
	 *    100*sd(x)/mean(x); quantile(x, .99, type=7); mad(x, constant=1)
	 *    sum(abs(x - median(x)) / (1.4826 * mad(x, constant=1)) > 5) */
	assert_int_equal(s.n, 12);
	assert_close(s.min, 9.8000000000000007, 0);
	assert_close(s.max, 55, 0);
	assert_close(s.median, 10.1, TIGHT);
	assert_close(s.median_lo, 9.9000000000000004, 0);
	assert_close(s.median_hi, 10.300000000000001, 0);
	assert_close(s.mean, 13.824999999999999, TIGHT);
	assert_close(s.stddev, 12.967941239842197, TIGHT);
	assert_close(s.cv_pct, 93.800659962692222, TIGHT);
	assert_close(s.p99, 50.094000000000023, TIGHT);
	assert_close(s.mad, 0.14999999999999947, TIGHT);
	assert_int_equal(s.outliers, 1);
	/* R: 100 * mad(x) / median(x)  (mad's constant is 1.4826) */
	assert_close(s.robust_cv_pct, 2.2018811881188038, TIGHT);
	/* R: 1 - 2 * pbinom(3 - 1, 12, .5) */
	assert_close(s.median_ci_coverage, 0.9614257812500000, TIGHT);
	/* Sorted in place. */
	assert_true(x[0] == s.min && x[11] == s.max);
}

/* MAD 0: the scale falls back to sqrt(pi/2) times the mean deviation. */
static void test_summarize_mad_zero(void **state)
{
	double x[] = { 20, 21, 20, 20, 500, 20, 21, 20, 20 };
	struct summary s;

	(void)state;
	stats_summarize(x, ARRAY_SIZE(x), &s);
	/* R: x <- c(20,21,20,20,500,20,21,20,20)
	 *    mad(x, constant=1); mean(x); sd(x); quantile(x, .99, type=7)
	 *    d <- abs(x - median(x)); sum(d / (sqrt(pi/2) * mean(d)) > 5)
	 *    -> 0, 73.5555..., 159.917..., 461.68, 1 (500; the 21s are not) */
	assert_close(s.mad, 0, 0);
	assert_close(s.median, 20, 0);
	assert_close(s.mean, 73.555555555555557, TIGHT);
	assert_close(s.stddev, 159.91725290842692, TIGHT);
	assert_close(s.p99, 461.67999999999995, TIGHT);
	assert_int_equal(s.outliers, 1);
}

static void test_summarize_edges(void **state)
{
	double one[] = { 42.5 };
	double same[] = { 7, 7, 7, 7, 7, 7, 7 };
	struct summary s;

	(void)state;
	stats_summarize(one, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.min == 42.5 && s.max == 42.5 && s.median == 42.5);
	assert_true(s.median_lo == 42.5 && s.median_hi == 42.5);
	assert_true(s.mean == 42.5 && s.p99 == 42.5);
	assert_true(s.stddev == 0 && s.cv_pct == 0);	/* R's sd(42.5) is NA */
	assert_true(s.mad == 0);
	assert_int_equal(s.outliers, 0);

	stats_summarize(same, ARRAY_SIZE(same), &s);
	assert_true(s.median == 7 && s.median_lo == 7 && s.median_hi == 7);
	assert_true(s.stddev == 0 && s.cv_pct == 0 && s.mad == 0);
	assert_int_equal(s.outliers, 0);

	stats_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median) && isnan(s.mean));
	assert_int_equal(s.outliers, 0);
}

/* a and b hold the same figure: equal, or both NaN (no value exists). */
static void assert_same_figure(double a, double b)
{
	assert_true(a == b || (isnan(a) && isnan(b)));
}

static void assert_same_summary(const struct summary *a, const struct summary *b)
{
	assert_int_equal(a->n, b->n);
	assert_same_figure(a->min, b->min);
	assert_same_figure(a->max, b->max);
	assert_same_figure(a->median, b->median);
	assert_same_figure(a->median_lo, b->median_lo);
	assert_same_figure(a->median_hi, b->median_hi);
	assert_same_figure(a->median_ci_coverage, b->median_ci_coverage);
	assert_same_figure(a->mean, b->mean);
	assert_same_figure(a->stddev, b->stddev);
	assert_same_figure(a->cv_pct, b->cv_pct);
	assert_same_figure(a->robust_cv_pct, b->robust_cv_pct);
	assert_same_figure(a->p99, b->p99);
	assert_same_figure(a->mad, b->mad);
	assert_int_equal(a->outliers, b->outliers);
	assert_same_figure(a->resolution, b->resolution);
	assert_int_equal(a->bimodal, b->bimodal);
}

/*
 * The copy's summary is stats_summarize()'s, and the samples keep their
 * order: callers pair them by index afterwards (rounds, exec's runs). The
 * values are out of order, with a tie and one far out, so that a sort in
 * place would show.
 */
/* A sorted copy: ascending, NaN last, the caller's order untouched; n = 0
 * still gives an array to free. */
static void test_sorted_copy(void **state)
{
	const double x[] = { 3, NAN, -1, 2 };
	double *s = stats_sorted_copy(x, 4), *none = stats_sorted_copy(NULL, 0);

	(void)state;
	assert_true(s[0] == -1 && s[1] == 2 && s[2] == 3 && isnan(s[3]));
	assert_true(x[0] == 3 && isnan(x[1]) && x[2] == -1 && x[3] == 2);
	assert_non_null(none);
	free(s);
	free(none);
}

static void test_summarize_copy(void **state)
{
	const double given[] = { 36, 3.5, 27, 4.3, 3.5, 12, 0.25, 5, 480 };
	double x[ARRAY_SIZE(given)], sorted[ARRAY_SIZE(given)];
	struct summary s, expect;

	(void)state;
	memcpy(x, given, sizeof(x));
	stats_summarize_copy(x, ARRAY_SIZE(x), &s);
	assert_memory_equal(x, given, sizeof(x));
	memcpy(sorted, given, sizeof(sorted));
	stats_summarize(sorted, ARRAY_SIZE(sorted), &expect);
	assert_same_summary(&s, &expect);
	assert_true(s.median == 5 && s.min == 0.25 && s.max == 480);

	/* A part of an array, as exec's runs but the first are summarised. */
	stats_summarize_copy(x + 1, ARRAY_SIZE(x) - 1, &s);
	assert_memory_equal(x, given, sizeof(x));
	memcpy(sorted, given + 1, sizeof(sorted) - sizeof(sorted[0]));
	stats_summarize(sorted, ARRAY_SIZE(sorted) - 1, &expect);
	assert_same_summary(&s, &expect);

	/* Nothing measured: NaN figures, and no array to copy. */
	stats_summarize_copy(NULL, 0, &s);
	stats_summarize(NULL, 0, &expect);
	assert_same_summary(&s, &expect);
	assert_true(isnan(s.median));
}

/* ---------------------------------------------------------------------- */
/* The robust dispersion                                                  */

/*
 * The round medians of one default bench run on this VM, 3 of 10 rounds in
 * a slow phase. R: x <- c(34.5,33.8,34.5,26.0,26.0,26.0,30.2,27.9,26.0,26.1)
 *   100 * mad(x) / median(x)             -> 5.49   (robust CV)
 *   100 * sd(x) / mean(x)                -> 13.09  (classical CV)
 *   100 * IQR(x) / 1.349 / median(x)     -> 18.94  (IQR-based)
 *   sqrt(pi/2) * mad(x) / sqrt(length(x)) -> 0.588  (se of the median)
 */
static void test_robust_cv(void **state)
{
	const double rounds[] = { 34.5, 33.8, 34.5, 26.0, 26.0, 26.0, 30.2,
				  27.9, 26.0, 26.1 };
	double copy[ARRAY_SIZE(rounds)];
	const double zero_mad[] = { 5, 5, 5, 9 }, zero_median[] = { -1, 0, 1 };
	struct summary s;

	(void)state;
	assert_close(stats_robust_cv_pct(rounds, ARRAY_SIZE(rounds)),
		     5.4911111111111106, TIGHT);
	assert_close(stats_median_se(rounds, ARRAY_SIZE(rounds)),
		     0.58760290514306712, TIGHT);
	/* The input is left alone; the summary carries the same figure. */
	assert_true(rounds[0] == 34.5 && rounds[9] == 26.1);
	memcpy(copy, rounds, sizeof(copy));
	stats_summarize(copy, ARRAY_SIZE(copy), &s);
	assert_true(s.robust_cv_pct == stats_robust_cv_pct(rounds, ARRAY_SIZE(rounds)));
	assert_close(s.cv_pct, 13.08552080045345, 1e-12);
	/* One value far out moves the classical CV, not the robust one. */
	memcpy(copy, rounds, sizeof(copy));
	copy[0] = 340;
	assert_true(stats_robust_cv_pct(copy, ARRAY_SIZE(copy)) ==
		    stats_robust_cv_pct(rounds, ARRAY_SIZE(rounds)));
	stats_summarize(copy, ARRAY_SIZE(copy), &s);
	assert_true(s.cv_pct > 100);

	assert_true(stats_robust_cv_pct(zero_mad, 4) == 0);
	assert_true(isnan(stats_robust_cv_pct(zero_median, 3)));
	assert_true(isnan(stats_robust_cv_pct(NULL, 0)));
	assert_true(isnan(stats_median_se(NULL, 0)));
}

/* R: 1 - 2 * pbinom(k - 1, n, 0.5) */
static void test_median_ci_coverage(void **state)
{
	static const struct {
		size_t n, k;
		double coverage;
	} cases[] = {
		{ 3, 1, 0.75 }, { 5, 1, 0.9375 }, { 6, 1, 0.96875 },
		{ 10, 2, 0.978515625 }, { 20, 6, 0.95861053466796875 },
		{ 1, 1, 0 },
	};
	double x[] = { 3, 1, 2 };
	struct summary s;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_close(stats_median_ci_coverage(cases[i].n, cases[i].k),
			     cases[i].coverage, TIGHT);
	assert_true(isnan(stats_median_ci_coverage(0, 1)));
	assert_true(isnan(stats_median_ci_coverage(4, 0)));
	/* Three samples: the "95 % CI" is [min, max] and covers 75 %. */
	stats_summarize(x, 3, &s);
	assert_true(s.median_lo == 1 && s.median_hi == 3);
	assert_close(s.median_ci_coverage, 0.75, TIGHT);
	assert_false(stats_ci_honours(s.median_ci_coverage, 0.95));
	assert_true(stats_ci_honours(0.96875, 0.95));
	assert_true(stats_ci_honours(0.95, 0.95));
}

/* One run against one, with the spread of earlier runs as the noise. */
static void test_log_t_history(void **state)
{
	const double hist[] = { 100, 101, 99.5, 100.4, 100.9 };
	struct log_t_result r;

	(void)state;
	/* R: h <- log(c(100, 101, 99.5, 100.4, 100.9)); d <- log(103 / 100)
	 *    se <- sqrt(2) * sd(h); 2 * pt(-abs(d) / se, 4)
	 *    exp(d + c(-1, 1) * qt(0.975, 4) * se) */
	assert_true(stats_log_t_history(100, 103, hist, 5, 0.95, 0, &r));
	assert_close(r.se, 0.0088413982798296615, TIGHT);
	assert_rel(r.p, 0.028749312370570133, 1e-9);
	assert_close(r.lo, 1.0050237220520986, 1e-12);
	assert_close(r.hi, 1.0555969742025701, 1e-12);
	assert_close(r.ratio, 1.03, TIGHT);
	assert_true(r.df == 4);
	assert_false(r.floored);

	/* The runs' rounds allow no better than 1e-4: se <- sqrt(2 * 1e-4) */
	assert_true(stats_log_t_history(100, 103, hist, 5, 0.95, 1e-4, &r));
	assert_true(r.floored);
	assert_rel(r.p, 0.10481615104646819, 1e-9);
	assert_close(r.lo, 0.99034089079353882, 1e-12);
	assert_close(r.hi, 1.0712472946057228, 1e-12);

	/* Not defined: one run of history, a value that is not positive. */
	assert_false(stats_log_t_history(100, 103, hist, 1, 0.95, 0, &r));
	assert_true(isnan(r.p));
	assert_false(stats_log_t_history(0, 103, hist, 5, 0.95, 0, &r));
}

/* ---------------------------------------------------------------------- */
/* Replicates: Student's t on the logarithms                              */

static void test_log_t_test(void **state)
{
	const double zero_or_less[] = { 26.0, 0 }, same[] = { 5, 5, 6 };
	const double a[] = { 26.01, 25.87, 26.20 }, b[] = { 27.10, 26.95, 27.30 };
	const double a2[] = { 100.2, 99.1 };
	const double b2[] = { 101.5, 102.9, 100.8, 103.3 };
	struct log_t_result r;

	(void)state;
	/* R: a <- c(26.01, 25.87, 26.20); b <- c(27.10, 26.95, 27.30)
	 *    t <- t.test(log(b), log(a), var.equal=TRUE)
	 *    exp(t$estimate[1] - t$estimate[2]); exp(t$conf.int); t$p.value */
	assert_true(stats_log_t_test(a, 3, b, 3, 0.95, 0, &r));
	assert_close(r.ratio, 1.0418796250452484, TIGHT);
	assert_close(r.lo, 1.0268329550558573, 1e-12);
	assert_close(r.hi, 1.0571467810218247, 1e-12);
	assert_rel(r.p, 0.001436304185006841, 1e-9);
	assert_true(r.df == 4);
	assert_false(r.floored);

	/* The rounds allow no better than a variance of 1e-4 per run value.
	 * R: d <- mean(log(b)) - mean(log(a)); se <- sqrt(1e-4 * (1/3 + 1/3))
	 *    exp(d + c(-1,1) * qt(.975, 4) * se); 2 * pt(-abs(d)/se, 4) */
	assert_true(stats_log_t_test(a, 3, b, 3, 0.95, 1e-4, &r));
	assert_true(r.floored);
	assert_close(r.se, 0.0081649658092772612, TIGHT);
	assert_close(r.lo, 1.0185263567058307, 1e-12);
	assert_close(r.hi, 1.0657683484944356, 1e-12);
	assert_rel(r.p, 0.0073609811343494673, 1e-9);

	/* Unequal sizes, another level.
	 * R: a2 <- c(100.2, 99.1); b2 <- c(101.5, 102.9, 100.8, 103.3)
	 *    t.test(log(b2), log(a2), var.equal=TRUE, conf.level=0.9) */
	assert_true(stats_log_t_test(a2, 2, b2, 4, 0.9, 0, &r));
	assert_close(r.ratio, 1.0248018002446171, TIGHT);
	assert_close(r.lo, 1.0047729605355979, 1e-12);
	assert_close(r.hi, 1.0452298887748583, 1e-12);
	assert_rel(r.p, 0.057211720506741191, 1e-9);

	/* Not defined: one run against one, a value that is not positive. */
	assert_false(stats_log_t_test(a, 1, b, 1, 0.95, 0, &r));
	assert_true(isnan(r.p) && isnan(r.ratio));
	assert_false(stats_log_t_test(zero_or_less, 2, b, 3, 0.95, 0, &r));
	assert_false(stats_log_t_test(a, 3, b, 3, 1.0, 0, &r));
	/* No spread at all: equal groups do not differ, others do. */
	assert_true(stats_log_t_test(same, 1, same, 2, 0.95, 0, &r) && r.p == 1);
	assert_true(stats_log_t_test(same, 2, same + 2, 1, 0.95, 0, &r) && r.p == 0);
}

static void test_geomean_ci_and_mde(void **state)
{
	const double b[] = { 27.10, 26.95, 27.30 };
	double c, lo, hi;

	(void)state;
	/* R: exp(mean(log(b)) + c(0, -1, 1) * qt(.975, 2) * sd(log(b)) / sqrt(3)) */
	assert_true(stats_geomean_ci(b, 3, 0.95, 0, &c, &lo, &hi));
	assert_close(c, 27.11628787154087, TIGHT);
	assert_close(lo, 26.683772687885142, 1e-12);
	assert_close(hi, 27.555813659966805, 1e-12);
	/* R: exp(mean(log(b)) + c(-1, 1) * qt(.975, 2) * sqrt(1e-4 / 3)) */
	assert_true(stats_geomean_ci(b, 3, 0.95, 1e-4, &c, &lo, &hi));
	assert_close(lo, 26.450979736426273, 1e-12);
	assert_close(hi, 27.798330166186055, 1e-12);
	/* One run: a centre, no interval. */
	assert_false(stats_geomean_ci(b, 1, 0.95, 0, &c, &lo, &hi));
	assert_close(c, 27.10, TIGHT);
	assert_true(isnan(lo) && isnan(hi));

	/* R: (qt(.975, 4) + qt(.8, 4)) * 0.01; (qnorm(.975) + qnorm(.8)) * 0.01 */
	assert_close(stats_mde(0.01, 4, 0.95, 0.8), 0.037174096824329754, TIGHT);
	assert_close(stats_mde(0.01, INFINITY, 0.95, 0.8), 0.028015852181129678,
		     TIGHT);
	assert_true(isnan(stats_mde(0.01, 0, 0.95, 0.8)));
	assert_true(isnan(stats_mde(NAN, 4, 0.95, 0.8)));
}

/* NaN is outside the contract, but must not crash or hang. */
/*
 * Paired rounds: 20 rounds of a cell 4.8 % slower on the other side, one
 * round of the base in a slow phase (25.06). Reference values from R:
 *   x <- c(20.11, 20.32, ...); y <- c(21.02, 21.25, ...)
 *   w <- wilcox.test(log(y), log(x), paired = TRUE, conf.int = TRUE)
 *   c(w$p.value, exp(w$estimate), exp(w$conf.int))
 */
static void test_signed_rank_log(void **state)
{
	const double x[] = { 20.11, 20.32, 19.93, 20.04, 20.45, 20.27, 25.06, 20.18,
			     19.89, 20.01, 20.13, 20.36, 19.97, 20.08, 20.41, 20.22,
			     20.05, 20.19, 19.92, 20.03 };
	const double y[] = { 21.02, 21.25, 20.94, 21.13, 21.37, 20.86, 21.05, 21.41,
			     20.78, 21.16, 21.09, 21.22, 20.91, 21.18, 21.33, 20.84,
			     21.07, 21.44, 20.81, 21.12 };
	/* set.seed(1); a <- exp(rnorm(60)); b <- exp(rnorm(60, 0.1)) */
	const double a[] = { 0.53448382508532533, 1.20158716961723, 0.43360182825512328, 4.9297131517754851, 1.3902836232272209, 0.44022541161817458, 1.6281250105321625, 2.0924271440754776, 1.7785196334093709, 0.73683714072870143, 4.5348008493206917, 1.4767492752204685, 0.53727748798071817, 0.10918627753380607, 3.0800040691681732, 0.95606095355430731, 0.98394009475321176, 2.56982090751029, 2.273274254511624, 1.8110401001786509, 2.5067256299620198, 2.1861375277210668, 1.077415355322926, 0.13678407438793133, 1.8586041479418851, 0.94541741546267333, 0.85573416437853911, 0.22975255801560371, 0.61992916646390561, 1.5188319115750262, 3.8910519744832319, 0.90231849069734782, 1.4735458094160618, 0.94761683531974505, 0.2523193941649659, 0.66034387078695755, 0.67415855312454476, 0.94241137424634802, 3.00424224656533, 2.1450776419915338, 0.84829774005958702, 0.77618709959398446, 2.0076469715758836, 1.7448405893503693, 0.50220057135785134, 0.49287723264118644, 1.4399119446028315, 2.1566000367691265, 0.89373478209073376, 2.4135718035035474, 1.489001677605422, 0.54225094136003826, 1.4065215793589485, 0.32323906310188599, 4.1913534534928525, 7.2456399264617479, 0.69265622100277835, 0.35199629594725201, 1.7677713473721826, 0.87366820471102313 };
	const double b[] = { 12.202218268584126, 1.0626438461524448, 2.2028222132454163, 1.1365554562683569, 0.52556930739584418, 1.334814458123692, 0.18177990645612244, 4.7853293947454656, 1.2882095882129418, 9.7047132577942445, 1.7780362570042063, 0.5433799766593137, 2.0354691919802139, 0.4342661727337418, 0.31548838879200392, 1.4791184013346914, 0.70943111739556786, 1.1063931959521403, 1.1904618298567189, 0.61291994550166262, 0.62583486737378402, 0.9654329599286815, 3.5897659183539692, 0.24085340696202609, 2.0015986527193137, 1.5417997011536959, 3.1998368920632294, 0.81531240217619405, 1.6000242892572474, 1.4435405205539811, 0.64241547262026832, 3.6982798494098397, 3.5268411631602166, 2.2260164650297152, 5.4023468150511187, 1.931866097285724, 0.30832766673667183, 0.62296470553150451, 0.32477825725040838, 0.68838938371848701, 0.5943025907883891, 1.1527102089551264, 0.44444825231137147, 1.2943760603995023, 0.57431075512768559, 6.4707192507386697, 2.2630364557884568, 2.7460794213708968, 1.6228524261735822, 5.9427743137190232, 0.58523813046738271, 0.69652977977391006, 4.6287286397380418, 0.57654818932141894, 0.89818363020854519, 0.74616544334774704, 0.80252452110676564, 0.8360111714764944, 1.8115599614880731, 0.9255839139828651 };
	struct paired_result r;

	assert_true(stats_signed_rank_log(x, y, 20, 0.95, &r));
	assert_true(r.exact);
	assert_close(r.p, 0.000707626342773438, TIGHT);
	assert_close(r.ratio, 1.04769877738556, 1e-12);
	assert_close(r.lo, 1.04319276184590, 1e-12);
	assert_close(r.hi, 1.05160320912394, 1e-12);
	/* The first ten pairs: the slow round's difference is the largest. */
	assert_true(stats_signed_rank_log(x, y, 10, 0.95, &r));
	assert_close(r.p, 0.083984375, TIGHT);
	assert_close(r.ratio, 1.045509385783814, 1e-12);
	assert_close(r.lo, 0.942474924355237, 1e-12);
	assert_close(r.hi, 1.053332218104012, 1e-12);
	/*
	 * 60 pairs: the normal approximation. R's estimate is then the root of
	 * the approximated statistic (uniroot), ours the median of the Walsh
	 * averages, which that root approximates.
	 */
	assert_true(stats_signed_rank_log(a, b, 60, 0.95, &r));
	assert_false(r.exact);
	assert_close(r.p, 0.553442826692389, 1e-12);
	assert_rel(r.ratio, 1.101792438258971, UNIROOT_TOL);
	assert_rel(r.lo, 0.773863664479225, UNIROOT_TOL);
	assert_rel(r.hi, 1.562486648730990, UNIROOT_TOL);
	/* Nothing to test: one pair, a value that is not positive. */
	assert_false(stats_signed_rank_log(x, y, 1, 0.95, &r));
	assert_false(stats_signed_rank_log((const double[]){ 1, 0 },
					   (const double[]){ 1, 1 }, 2, 0.95, &r));
	/* Identical sides: no change, p 1. */
	assert_true(stats_signed_rank_log(x, x, 20, 0.95, &r));
	assert_true(r.ratio == 1 && r.p == 1);
}

static void test_nan_survives(void **state)
{
	double x[] = { 1, NAN, 3, 2, NAN }, y[] = { NAN, 2.5, 4, INFINITY };
	double est, lo, hi;
	struct mwu_result r;
	struct ttest_result t;
	struct summary s;

	(void)state;
	stats_mann_whitney(x, 5, y, 4, &r);
	stats_hodges_lehmann(x, 5, y, 4, 0.95, &est, &lo, &hi);
	(void)stats_cliffs_delta(x, 5, y, 4);
	stats_student_t(x, 5, y, 4, 0.95, &t);
	assert_false(t.significant);
	(void)stats_geomean(x, 5);
	stats_holm(x, 5);
	stats_summarize(y, 4, &s);
	assert_int_equal(s.n, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_quantile_type7),
		cmocka_unit_test(test_median_ci_ranks),
		cmocka_unit_test(test_mwu_exact),
		cmocka_unit_test(test_mwu_normal_ties),
		cmocka_unit_test(test_mwu_normal_large),
		cmocka_unit_test(test_mwu_edges),
		cmocka_unit_test(test_hl_exact_small),
		cmocka_unit_test(test_hl_not_achievable),
		cmocka_unit_test(test_hl_normal_200),
		cmocka_unit_test(test_hl_normal_ties),
		cmocka_unit_test(test_hl_normal_quarter_ties),
		cmocka_unit_test(test_hl_normal_one_sided_ties),
		cmocka_unit_test(test_hl_vs_brute_force),
		cmocka_unit_test(test_hl_large_memory_light),
		cmocka_unit_test(test_cliffs_delta),
		cmocka_unit_test(test_p_adjust),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_summarize_mad_zero),
		cmocka_unit_test(test_summarize_edges),
		cmocka_unit_test(test_sorted_copy),
		cmocka_unit_test(test_summarize_copy),
		cmocka_unit_test(test_robust_cv),
		cmocka_unit_test(test_median_ci_coverage),
		cmocka_unit_test(test_log_t_test),
		cmocka_unit_test(test_log_t_history),
		cmocka_unit_test(test_geomean_ci_and_mde),
		cmocka_unit_test(test_signed_rank_log),
		cmocka_unit_test(test_nan_survives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
