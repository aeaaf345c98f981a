// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of what stats.c knows about quantised timings: the step of a
 * counter found from differences of its reads, an interval never narrower
 * than the counter's step allows, and two modes flagged rather than given
 * a point interval. The data is synthetic and deterministic (Park-Miller).
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
#include "report/summary-figures.h"

/* Uniform in (0, 1), deterministic. */
static double uniform(uint64_t *seed)
{
	*seed = *seed * 16807 % 2147483647;
	return (double)*seed / 2147483647.0;
}

/* Normal(0, 1) by Box-Muller, deterministic. */
static double normal(uint64_t *seed)
{
	double u = uniform(seed), v = uniform(seed);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

enum { READS = 4096 };

/*
 * Differences of pairs of reads of a counter that shows floor(t / step)
 * steps of size step, then rounds to whole units (a scaled guest TSC),
 * the pairs between 30 and 300 units apart.
 */
static void counter_differences(double step, double *d, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		double t0 = 1e6 * uniform(&seed), t1 = t0 + 30 + 270 * uniform(&seed);
		double r0 = floor(floor(t0 / step) * step);
		double r1 = floor(floor(t1 / step) * step);

		d[i] = r1 - r0;
	}
}

static void test_counter_step_26(void **state)
{
	double *d = xmalloc(READS * sizeof(double));

	(void)state;
	counter_differences(26, d, READS, 7);
	assert_true(fabs(stats_counter_step(d, READS) - 26) < 0.05);
	free(d);
}

/* A guest's TSC, the host's scaled: 10 ns steps of 24.5 ticks (this VM). */
static void test_counter_step_not_whole(void **state)
{
	double *d = xmalloc(READS * sizeof(double));

	(void)state;
	counter_differences(24.5, d, READS, 11);
	assert_true(fabs(stats_counter_step(d, READS) - 24.5) < 0.05);
	free(d);
}

/*
 * kvm-clock under bhyve (this kind of machine): ns computed from a scaled
 * TSC on 10.02 ns steps, and each difference a unit either side of the
 * lattice (29, 30 and 31 for three steps: 10 %, 60 % and 20 % of them).
 * The lattice is the step; a tolerance of exactly one unit found it in
 * one call of five and answered 1 in the others.
 */
static void test_counter_step_read_jitter(void **state)
{
	double *d = xmalloc(READS * sizeof(double));
	uint64_t seed = 23;

	(void)state;
	counter_differences(10.02, d, READS, 29);
	for (size_t i = 0; i < READS; i++) {
		double u = uniform(&seed);

		d[i] += u < 0.12 ? -1 : u > 0.75 ? 1 : 0;
	}
	assert_true(fabs(stats_counter_step(d, READS) - 10.02) < 0.05);
	free(d);
}

static void test_counter_step_1(void **state)
{
	double *d = xmalloc(READS * sizeof(double));

	(void)state;
	counter_differences(1, d, READS, 13);
	assert_true(stats_counter_step(d, READS) == 1);
	/* Back-to-back reads that take 18 to 40 ticks: still a step of 1. */
	for (size_t i = 0; i < READS; i++)
		d[i] = 18 + (double)(i * 7 % 23);
	assert_true(stats_counter_step(d, READS) == 1);
	free(d);
}

/*
 * One odd difference (a read that came out 1 tick after the previous, or
 * one 13 ticks off the lattice) decides nothing: neither the smallest
 * difference nor the gcd of all of them is the step.
 */
static void test_counter_step_outlier(void **state)
{
	double *d = xmalloc(READS * sizeof(double));

	(void)state;
	counter_differences(26, d, READS, 17);
	d[100] = 1;
	d[200] = 13;
	d[300] = 1e6;
	d[400] = 0;
	assert_true(fabs(stats_counter_step(d, READS) - 26) < 0.05);
	/* ... and a few at every odd value do not make a step of 26 either. */
	counter_differences(1, d, READS, 19);
	for (size_t i = 0; i < 8; i++)
		d[i] = 26 * (double)(i + 1);
	assert_true(stats_counter_step(d, READS) == 1);
	free(d);
}

static void test_counter_step_too_few(void **state)
{
	double d[10] = { 26, 52, 26, 52, 78, 26, 52, 26, 52, 78 };

	(void)state;
	assert_true(stats_counter_step(d, 10) == 1);
	assert_true(stats_counter_step(d, 0) == 1);
}

/*
 * Batches of 456 calls timed with a clock of 10 ns steps: each batch's
 * per-call figure is a multiple of 10/456 ns, and with the true spread
 * below one step most fall on one value. The median's interval must not
 * shrink to that point: it is at least one step either side of it.
 */
static void test_interval_not_narrower_than_step(void **state)
{
	enum { N = 2000 };
	const double q = 10.0 / 456;
	double *x = xmalloc(N * sizeof(double));
	struct summary plain, s;
	uint64_t seed = 23;

	(void)state;
	for (size_t i = 0; i < N; i++)
		x[i] = round((21.66 + 0.004 * normal(&seed)) / q) * q;
	stats_summarize(x, N, &plain);
	/* What the landed tree printed: an interval of zero width. */
	assert_true(plain.median_hi - plain.median_lo == 0);
	stats_summarize_quantised(x, N, q, &s);
	assert_true(s.median == plain.median);
	assert_true(s.median_lo <= s.median - q);
	assert_true(s.median_hi >= s.median + q);
	assert_true(s.resolution == q);
	assert_false(s.bimodal);
	/* And never narrower than two steps, whatever the data. */
	for (size_t i = 0; i < N; i++)
		x[i] = 5.0;
	stats_summarize_quantised(x, N, 0.25, &s);
	assert_true(s.median_hi - s.median_lo >= 2 * 0.25);
	free(x);
}

/* A spread well above the step: the interval is the usual one, plus a step. */
static void test_interval_widened_by_step_only(void **state)
{
	enum { N = 1000 };
	double *x = xmalloc(N * sizeof(double));
	double *y = xmalloc(N * sizeof(double));
	struct summary plain, s;
	uint64_t seed = 29;

	(void)state;
	for (size_t i = 0; i < N; i++)
		x[i] = y[i] = 100 + 2 * normal(&seed);
	stats_summarize(x, N, &plain);
	stats_summarize_quantised(y, N, 0.01, &s);
	assert_true(fabs(s.median_lo - (plain.median_lo - 0.01)) < 1e-12);
	assert_true(fabs(s.median_hi - (plain.median_hi + 0.01)) < 1e-12);
	assert_false(s.bimodal);
	free(x);
	free(y);
}

/*
 * The cell of the issue: 70 % of the batches at 2.77 ns, 30 % at 3.9 ns,
 * each mode tight and quantised, so the plain interval is the point
 * [2.77, 2.77]. Flagged, and not a point.
 */
static void test_bimodal_cell_flagged(void **state)
{
	enum { N = 3000 };
	const double q = 10.0 / 3600;
	double *x = xmalloc(N * sizeof(double));
	struct summary plain, s;
	uint64_t seed = 31;

	(void)state;
	for (size_t i = 0; i < N; i++) {
		double v = uniform(&seed) < 0.7 ? 2.77 : 3.9;

		x[i] = round((v + 0.0005 * normal(&seed)) / q) * q;
	}
	stats_summarize(x, N, &plain);
	assert_true(plain.median_hi - plain.median_lo < 2 * q);
	stats_summarize_quantised(x, N, q, &s);
	assert_true(s.bimodal);
	assert_true(s.median_hi - s.median_lo >= 2 * q - 1e-12);
	assert_true(fabs(s.median - 2.77) < 0.01);
	free(x);
}

/* Unimodal shapes a timing takes are not flagged; two clear modes are. */
static void test_bimodal_rule(void **state)
{
	enum { N = 3000 };
	double *x = xmalloc(N * sizeof(double));
	double low, high;
	uint64_t seed = 37;

	(void)state;
	for (int shape = 0; shape < 5; shape++) {
		for (size_t i = 0; i < N; i++) {
			double z = normal(&seed), u = uniform(&seed);

			switch (shape) {
			case 0: x[i] = 20 + 0.2 * z; break;		/* normal */
			case 1: x[i] = 20 * exp(0.3 * z); break;	/* log-normal */
			case 2: x[i] = 20 - 3 * log(u); break;		/* exponential tail */
			case 3: x[i] = 20 + 0.2 * z;			/* preempted batches */
				if (u < 0.08)
					x[i] *= 1 + 5 * uniform(&seed);
				break;
			default: x[i] = u; break;			/* uniform */
			}
		}
		stats_sort(x, N);
		assert_false(stats_bimodal(x, N, 0, &low, &high));
	}
	for (size_t i = 0; i < N; i++)
		x[i] = uniform(&seed) < 0.4 ? 30 + 0.3 * normal(&seed) :
		       33.4 + 0.3 * normal(&seed);
	stats_sort(x, N);
	assert_true(stats_bimodal(x, N, 0, &low, &high));
	assert_true(fabs(low - 30) < 0.2 && fabs(high - 33.4) < 0.2);
	/* Two neighbouring steps of a quantised value are one mode. */
	for (size_t i = 0; i < N; i++)
		x[i] = i % 3 ? 21.66 : 21.68;
	stats_sort(x, N);
	assert_false(stats_bimodal(x, N, 0.02, NULL, NULL));
	/* Too few values to tell. */
	assert_false(stats_bimodal(x, 19, 0, NULL, NULL));
	free(x);
}

/*
 * The table prints two decimals: an interval of 3.4189 to 3.4212 ns would
 * print as the point [3.42, 3.42]. Rounded outward it holds the computed
 * interval; a bound already on the printed grid stays as it is.
 */
static void test_printed_interval_rounds_outward(void **state)
{
	(void)state;
	assert_true(ci_bound_outward(3.4189, 2, false) == 3.41);
	assert_true(ci_bound_outward(3.4212, 2, true) == 3.43);
	assert_true(ci_bound_outward(21.66, 2, false) == 21.66);
	assert_true(ci_bound_outward(21.66, 2, true) == 21.66);
	assert_true(ci_bound_outward(-0.004, 2, false) == -0.01);
	assert_true(isnan(ci_bound_outward(NAN, 2, true)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_step_26),
		cmocka_unit_test(test_counter_step_not_whole),
		cmocka_unit_test(test_counter_step_read_jitter),
		cmocka_unit_test(test_counter_step_1),
		cmocka_unit_test(test_counter_step_outlier),
		cmocka_unit_test(test_counter_step_too_few),
		cmocka_unit_test(test_interval_not_narrower_than_step),
		cmocka_unit_test(test_interval_widened_by_step_only),
		cmocka_unit_test(test_bimodal_cell_flagged),
		cmocka_unit_test(test_bimodal_rule),
		cmocka_unit_test(test_printed_interval_rounds_outward),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
