// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics for timing samples. The tests follow R's conventions
 * (quantile type 7, wilcox.test, p.adjust) so that every number can be
 * checked against R; the distribution functions come from libRmath.
 *
 * libRmath keeps a static cache for the Wilcoxon distribution, so these
 * functions are not thread-safe; the cache is released after each use.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

#include "basic/stats.h"
#include "basic/util.h"

/* R's wilcox.test uses the exact distribution below this many per side. */
#define EXACT_WILCOX_LIMIT 50

/* Level of the median CI in struct summary. */
#define SUMMARY_LEVEL 0.95

/* Scale factors making MAD and mean absolute deviation estimate sigma. */
#define MAD_TO_SIGMA STATS_MAD_TO_SIGMA
#define MEANAD_TO_SIGMA 1.2533141373155003	/* sqrt(pi / 2) */
#define OUTLIER_Z 5.0

/* ---------------------------------------------------------------------- */
/* Sorting and order statistics                                           */

/* Total order, NaN last: qsort must never see an inconsistent comparator. */
static int cmp_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static int cmp_double_qsort(const void *a, const void *b)
{
	return cmp_double(*(const double *)a, *(const double *)b);
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), cmp_double_qsort);
}

double *stats_sorted_copy(const double *x, size_t n)
{
	double *copy = xcalloc(n ? n : 1, sizeof(*copy));

	if (n)
		memcpy(copy, x, n * sizeof(*copy));
	stats_sort(copy, n);
	return copy;
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (n == 0 || isnan(q))
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];

	h = (double)(n - 1) * q;
	lo = (size_t)h;
	frac = h - (double)lo;
	if (frac == 0 || lo + 1 >= n || sorted[lo + 1] == sorted[lo])
		return sorted[lo];
	/* Same arithmetic as R, so results agree to the last bit. */
	return (1 - frac) * sorted[lo] + frac * sorted[lo + 1];
}

/* ---------------------------------------------------------------------- */
/* Median and its confidence interval                                     */

/* [x_(k), x_(n-k+1)] misses the median with probability 2 P(B <= k - 1). */
static bool median_ci_covers(size_t n, size_t k, double tail)
{
	return pbinom((double)k - 1, (double)n, 0.5, 1, 0) <= tail;
}

void stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi)
{
	size_t k = 1, kmax = (n + 1) / 2;
	double tail = (1 - level) / 2;

	if (n == 0) {
		*lo = *hi = 0;
		return;
	}
	if (level > 0 && level < 1) {
		double guess = qbinom(tail, (double)n, 0.5, 1, 0);

		if (guess >= 1)
			k = guess < (double)kmax ? (size_t)guess : kmax;
		/* qbinom lands within one of the answer; settle exactly. */
		while (k > 1 && !median_ci_covers(n, k, tail))
			k--;
		while (k < kmax && median_ci_covers(n, k + 1, tail))
			k++;
	}
	*lo = k;
	*hi = n - k + 1;
}

double stats_median_ci_coverage(size_t n, size_t lo)
{
	if (n == 0 || lo == 0 || lo > n)
		return NAN;
	return fmax(0, 1 - 2 * pbinom((double)lo - 1, (double)n, 0.5, 1, 0));
}

/* A hair of slack: the coverage is a sum of binomial terms. */
bool stats_ci_honours(double coverage, double level)
{
	return coverage >= level - 1e-12;
}

/* ---------------------------------------------------------------------- */
/* Summary                                                                */

/* Mean with one correction pass, as R's mean() does. */
static double mean_of(const double *x, size_t n)
{
	double sum = 0, mean, resid = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		resid += x[i] - mean;
	return mean + resid / (double)n;
}

static double sum_sq_dev(const double *x, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss;
}

/* A single value shows no spread: 0 rather than an undefined NaN. */
static double sample_stddev(const double *x, size_t n, double mean)
{
	if (n < 2)
		return 0;
	return sqrt(sum_sq_dev(x, n, mean) / (double)(n - 1));
}

static double coeff_var_pct(double stddev, double mean)
{
	if (stddev == 0)
		return 0;
	return 100 * stddev / mean;
}

/*
 * Robust scale of the deviations from the median: 1.4826 MAD, or, when
 * more than half the values equal the median (MAD 0, common with
 * quantised timings), sqrt(pi/2) times the mean absolute deviation, the
 * usual fallback of the modified z-score. 0 only when all values are equal.
 */
static double robust_scale(double mad, const double *dev, size_t n)
{
	if (mad > 0)
		return MAD_TO_SIGMA * mad;
	return MEANAD_TO_SIGMA * mean_of(dev, n);
}

static size_t count_outliers(const double *dev, size_t n, double scale)
{
	size_t count = 0;

	if (!(scale > 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (dev[i] / scale > OUTLIER_Z)
			count++;
	return count;
}

static void summarize_spread(const double *sorted, size_t n,
			     struct summary *s)
{
	_cleanup_free_ double *dev = xcalloc(n, sizeof(*dev));

	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(sorted[i] - s->median);
	stats_sort(dev, n);
	s->mad = stats_quantile_sorted(dev, n, 0.5);
	s->outliers = count_outliers(dev, n, robust_scale(s->mad, dev, n));
}

/* The one definition of the robust CV (see stats.h). */
static double robust_cv_of(double mad, double median)
{
	if (mad == 0)
		return 0;
	if (median == 0)
		return NAN;
	return 100 * MAD_TO_SIGMA * mad / fabs(median);
}

static void summary_undefined(struct summary *s)
{
	s->min = s->max = s->median = NAN;
	s->median_lo = s->median_hi = s->median_ci_coverage = NAN;
	s->mean = s->stddev = s->cv_pct = s->robust_cv_pct = NAN;
	s->p99 = s->mad = NAN;
}

void stats_summarize(double *x, size_t n, struct summary *s)
{
	size_t lo, hi;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0) {
		summary_undefined(s);
		return;
	}
	stats_sort(x, n);
	s->min = x[0];
	s->max = x[n - 1];
	s->median = stats_quantile_sorted(x, n, 0.5);
	stats_median_ci_ranks(n, SUMMARY_LEVEL, &lo, &hi);
	s->median_lo = x[lo - 1];
	s->median_hi = x[hi - 1];
	s->median_ci_coverage = stats_median_ci_coverage(n, lo);
	s->p99 = stats_quantile_sorted(x, n, 0.99);
	s->mean = mean_of(x, n);
	s->stddev = sample_stddev(x, n, s->mean);
	s->cv_pct = coeff_var_pct(s->stddev, s->mean);
	summarize_spread(x, n, s);
	s->robust_cv_pct = robust_cv_of(s->mad, s->median);
}

void stats_summarize_copy(const double *x, size_t n, struct summary *s)
{
	_cleanup_free_ double *copy = stats_sorted_copy(x, n);

	stats_summarize(copy, n, s);
}

/* ---------------------------------------------------------------------- */
/* Quantised values: resolution, two modes, a counter's step              */

/* The median and the robust spread (1.4826 MAD) of sorted[0..n), n >= 1. */
static void median_and_spread(const double *sorted, size_t n, double *median,
			      double *spread)
{
	_cleanup_free_ double *dev = xmalloc(n * sizeof(*dev));

	*median = stats_quantile_sorted(sorted, n, 0.5);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(sorted[i] - *median);
	stats_sort(dev, n);
	*spread = MAD_TO_SIGMA * stats_quantile_sorted(dev, n, 0.5);
}

/*
 * Otsu's split of sorted[0..n): the size k of the lower group, each group
 * at least min_side values, that maximises the between-group sum of
 * squares k (n - k) / n (mean_low - mean_high)^2, which is the same as
 * leaving the least within. Values are taken from the first so that the
 * sums stay small.
 */
static size_t otsu_split(const double *sorted, size_t n, size_t min_side)
{
	double total = 0, below = 0, best = -1;
	size_t best_k = n / 2;

	for (size_t i = 0; i < n; i++)
		total += sorted[i] - sorted[0];
	for (size_t k = 1; k < n; k++) {
		double above, between;

		below += sorted[k - 1] - sorted[0];
		if (k < min_side || n - k < min_side)
			continue;
		above = total - below;
		between = (double)k * (double)(n - k) *
			  pow(below / (double)k - above / (double)(n - k), 2);
		if (between > best) {
			best = between;
			best_k = k;
		}
	}
	return best_k;
}

bool stats_bimodal(const double *sorted, size_t n, double min_spread, double *low,
		   double *high)
{
	size_t trim = (size_t)((double)n * STATS_BIMODAL_TRIM), m, k;
	double med_low, med_high, s_low, s_high, spread;
	const double *x = sorted + trim;

	if (low)
		*low = NAN;
	if (high)
		*high = NAN;
	if (n < 20)
		return false;
	m = n - 2 * trim;
	k = otsu_split(x, m, m / 10 ? m / 10 : 1);
	median_and_spread(x, k, &med_low, &s_low);
	median_and_spread(x + k, m - k, &med_high, &s_high);
	if (low)
		*low = med_low;
	if (high)
		*high = med_high;
	s_low = fmax(s_low, min_spread);
	s_high = fmax(s_high, min_spread);
	spread = sqrt((s_low * s_low + s_high * s_high) / 2);
	if (!(spread > 0))	/* two groups of equal values each */
		return med_high > med_low;
	return med_high - med_low > STATS_BIMODAL_SEPARATION * spread;
}

void stats_summarize_quantised(double *x, size_t n, double resolution,
			       struct summary *s)
{
	stats_summarize(x, n, s);
	if (n == 0)
		return;
	s->resolution = resolution > 0 ? resolution : 0;
	s->median_lo -= s->resolution;
	s->median_hi += s->resolution;
	s->bimodal = stats_bimodal(x, n, s->resolution, NULL, NULL);
}

/* Clusters of sorted[0..n): runs of values at most one unit apart. */
#define STEP_CLUSTER_GAP 1.0
/* A cluster counts when it holds this share of the values, at least 3. */
#define STEP_SUPPORT_SHARE 0.01
#define STEP_SUPPORT_MIN 3
/* The step is kept when this share of the values sits on its lattice. */
#define STEP_FIT_SHARE 0.9
/* A step smaller than this is not told from every value being possible. */
#define STEP_MIN 4.0

/* The centres of the clusters that hold at least support values. */
static size_t supported_centres(const double *sorted, size_t n, size_t support,
				double *centre)
{
	size_t nc = 0, start = 0;
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		if (i > start && sorted[i] - sorted[i - 1] > STEP_CLUSTER_GAP) {
			if (i - start >= support)
				centre[nc++] = sum / (double)(i - start);
			start = i;
			sum = 0;
		}
		sum += sorted[i];
	}
	if (n - start >= support)
		centre[nc++] = sum / (double)(n - start);
	return nc;
}

/*
 * The spacing of centres that are multiples of it, least squares. Each
 * centre's multiple is counted from its neighbour's: the closest pair can
 * be a few percent short of the step (clusters a unit wide), which is
 * harmless across one gap and wrong by one step at the 30th multiple.
 */
static double lattice_spacing(const double *centre, size_t nc)
{
	double closest = INFINITY, num = 0, den = 0, k = 0;

	for (size_t j = 1; j < nc; j++)
		closest = fmin(closest, centre[j] - centre[j - 1]);
	for (size_t j = 0; j < nc; j++) {
		k += round((centre[j] - (j ? centre[j - 1] : 0)) / closest);
		num += centre[j] * k;
		den += k * k;
	}
	return den > 0 ? num / den : NAN;
}

/*
 * The share of x[0..n) within 1 + q / 10 of a multiple (>= 1) of q: a
 * tenth of the step for the lattice's own error, and one unit because a
 * clock computed from a scaled counter (kvm-clock: 29, 30 and 31 ns for
 * three of its 10.02 ns steps) reads a unit either side of it.
 */
static double lattice_fit(const double *x, size_t n, double q)
{
	double tol = STEP_CLUSTER_GAP + q / 10;
	size_t fit = 0;

	for (size_t i = 0; i < n; i++) {
		double k = round(x[i] / q);

		if (k >= 1 && fabs(x[i] - k * q) <= tol)
			fit++;
	}
	return n ? (double)fit / (double)n : 0;
}

double stats_counter_step(const double *d, size_t n)
{
	_cleanup_free_ double *x = xmalloc((n ? n : 1) * sizeof(*x));
	_cleanup_free_ double *centre = xmalloc((n ? n : 1) * sizeof(*centre));
	size_t m = 0, support, nc;
	double q;

	for (size_t i = 0; i < n; i++)
		if (d[i] > 0)
			x[m++] = d[i];
	if (m < 16)
		return 1;
	stats_sort(x, m);
	support = (size_t)((double)m * STEP_SUPPORT_SHARE);
	if (support < STEP_SUPPORT_MIN)
		support = STEP_SUPPORT_MIN;
	nc = supported_centres(x, m, support, centre);
	if (nc < 2)
		return 1;
	q = lattice_spacing(centre, nc);
	if (!(q >= STEP_MIN) || lattice_fit(x, m, q) < STEP_FIT_SHARE)
		return 1;
	return q;
}

double stats_robust_cv_pct(const double *x, size_t n)
{
	struct summary s;

	stats_summarize_copy(x, n, &s);
	return s.robust_cv_pct;
}

double stats_median_se(const double *x, size_t n)
{
	struct summary s;

	if (n == 0)
		return NAN;
	stats_summarize_copy(x, n, &s);
	return MEANAD_TO_SIGMA * MAD_TO_SIGMA * s.mad / sqrt((double)n);
}

/* ---------------------------------------------------------------------- */
/* Ties                                                                   */

/* Sum of t^3 - t over the groups of t equal values of a sorted array. */
static double tie_term_sorted(const double *sorted, size_t n)
{
	double term = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && sorted[j] == sorted[i]; j++)
			;
		term += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			(double)(j - i);
	}
	return term;
}

/* Whether two sorted arrays share a value. */
static bool sorted_intersect(const double *a, size_t na, const double *b,
			     size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		if (a[i] == b[j])
			return true;
		if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return false;
}

/* ---------------------------------------------------------------------- */
/* Mann-Whitney U                                                         */

struct tagged_value {
	double v;
	bool in_x;
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(((const struct tagged_value *)a)->v,
			  ((const struct tagged_value *)b)->v);
}

struct rank_stats {
	double rank_sum_x;	/* sum of the mid-ranks of x */
	double tie_term;	/* sum of t^3 - t over tie groups */
	bool ties;
};

static struct tagged_value *tag_samples(const double *x, size_t nx,
					const double *y, size_t ny)
{
	struct tagged_value *all = xcalloc(nx + ny, sizeof(*all));

	for (size_t i = 0; i < nx; i++)
		all[i] = (struct tagged_value){ .v = x[i], .in_x = true };
	for (size_t j = 0; j < ny; j++)
		all[nx + j] = (struct tagged_value){ .v = y[j], .in_x = false };
	return all;
}

/* Mid-ranks of the combined sample, as R's rank() gives them. */
static void rank_combined(const double *x, size_t nx, const double *y,
			  size_t ny, struct rank_stats *rs)
{
	_cleanup_free_ struct tagged_value *all = tag_samples(x, nx, y, ny);
	size_t n = nx + ny;

	qsort(all, n, sizeof(*all), cmp_tagged);
	*rs = (struct rank_stats){ 0 };
	for (size_t i = 0, j; i < n; i = j) {
		double t, mid_rank;
		size_t from_x = 0;

		for (j = i; j < n && cmp_double(all[j].v, all[i].v) == 0; j++)
			from_x += all[j].in_x;
		t = (double)(j - i);
		mid_rank = ((double)i + 1 + (double)j) / 2;
		rs->rank_sum_x += mid_rank * (double)from_x;
		rs->tie_term += t * t * t - t;
		rs->ties |= j - i > 1;
	}
}

static bool use_exact_wilcox(size_t nx, size_t ny, bool ties)
{
	return nx < EXACT_WILCOX_LIMIT && ny < EXACT_WILCOX_LIMIT && !ties;
}

/* Smaller tail doubled, from the tail R's wilcox.test picks. */
static double mwu_exact_p(double u, size_t nx, size_t ny)
{
	double m = (double)nx, n = (double)ny, p;

	if (u > m * n / 2)
		p = pwilcox(u - 1, m, n, 0, 0);
	else
		p = pwilcox(u, m, n, 1, 0);
	wilcox_free();
	return fmin(2 * p, 1);
}

static double rank_sum_sigma(double m, double n, double tie_term)
{
	return sqrt((m * n / 12) *
		    ((m + n + 1) - tie_term / ((m + n) * (m + n - 1))));
}

/* Normal approximation with tie and continuity corrections. */
static double mwu_normal_p(double u, size_t nx, size_t ny, double tie_term)
{
	double m = (double)nx, n = (double)ny;
	double sigma = rank_sum_sigma(m, n, tie_term);
	double z = u - m * n / 2;
	double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;

	/* Every value tied: the samples cannot differ (R gives NaN). */
	if (!(sigma > 0))
		return 1;
	z = (z - correction) / sigma;
	return fmin(1, 2 * fmin(pnorm(z, 0, 1, 1, 0), pnorm(z, 0, 1, 0, 0)));
}

void stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			struct mwu_result *r)
{
	struct rank_stats rs;
	double m = (double)nx;

	*r = (struct mwu_result){ .u = 0, .p = NAN, .exact = false };
	if (nx == 0 || ny == 0)
		return;
	rank_combined(x, nx, y, ny, &rs);
	r->u = rs.rank_sum_x - m * (m + 1) / 2;
	r->exact = use_exact_wilcox(nx, ny, rs.ties);
	if (r->exact)
		r->p = mwu_exact_p(r->u, nx, ny);
	else
		r->p = mwu_normal_p(r->u, nx, ny, rs.tie_term);
}

/* ---------------------------------------------------------------------- */
/* Order statistics of the pairwise differences y[j] - x[i]               */

/*
 * The nx * ny differences are never stored (up to 4e8 of them in
 * practice). The k-th smallest is found by bisection on the bit pattern of
 * the candidate double, counting the differences <= it in O(nx + ny); at
 * most 64 steps, and the result is exactly one of the differences.
 */
struct pair_diffs {
	const double *x, *y;	/* both sorted */
	size_t nx, ny;
};

/* Keys that sort like the doubles they encode (NaN excepted). */
static uint64_t double_key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static double key_double(uint64_t key)
{
	uint64_t u = key >> 63 ? key & ~(UINT64_C(1) << 63) : ~key;
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/*
 * For a given y[j], the x[i] with y[j] - x[i] <= d form a suffix of x that
 * grows as y[j] decreases, so one sweep counts them all.
 */
static uint64_t count_diffs_le(const struct pair_diffs *pd, double d)
{
	uint64_t count = 0;
	size_t i = pd->nx;

	for (size_t j = pd->ny; j-- > 0;) {
		while (i > 0 && pd->y[j] - pd->x[i - 1] <= d)
			i--;
		count += pd->nx - i;
	}
	return count;
}

/* k-th smallest difference, 1 <= k <= nx * ny. */
static double kth_diff(const struct pair_diffs *pd, uint64_t k)
{
	uint64_t lo = double_key(pd->y[0] - pd->x[pd->nx - 1]);
	uint64_t hi = double_key(pd->y[pd->ny - 1] - pd->x[0]);

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (count_diffs_le(pd, key_double(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return key_double(lo) + 0.0;	/* -0.0 becomes 0.0 */
}

static double median_diff(const struct pair_diffs *pd, uint64_t n)
{
	if (n % 2)
		return kth_diff(pd, n / 2 + 1);
	return (kth_diff(pd, n / 2) + kth_diff(pd, n / 2 + 1)) / 2;
}

/* ---------------------------------------------------------------------- */
/* Hodges-Lehmann shift and its confidence interval                       */

/* Rank of the lower CI bound from the exact Wilcoxon quantile, 0 if none. */
static uint64_t hl_exact_rank(double alpha, size_t nx, size_t ny)
{
	double q = qwilcox(alpha / 2, (double)nx, (double)ny, 1, 0);

	wilcox_free();
	return q >= 1 ? (uint64_t)q : 0;
}

/*
 * R's large-sample interval solves, with uniroot, for the shift d at which
 * the continuity-corrected z of the rank sum of (x + d, y) crosses the
 * normal quantile. Away from the differences themselves that z only sees
 * the ties within each sample, and it jumps at the differences, so the root
 * is the difference of rank ceil(N/2 - 1/2 - z sigma); computed directly.
 */
static uint64_t hl_normal_rank(double alpha, const struct pair_diffs *pd)
{
	double m = (double)pd->nx, n = (double)pd->ny;
	double ties = tie_term_sorted(pd->x, pd->nx) +
		      tie_term_sorted(pd->y, pd->ny);
	double sigma = rank_sum_sigma(m, n, ties);
	double z = qnorm(alpha / 2, 0, 1, 0, 0);
	double rank = ceil(m * n / 2 - 0.5 - z * sigma);

	return rank >= 1 ? (uint64_t)rank : 0;
}

static bool hl_has_ties(const struct pair_diffs *pd)
{
	return tie_term_sorted(pd->x, pd->nx) > 0 ||
	       tie_term_sorted(pd->y, pd->ny) > 0 ||
	       sorted_intersect(pd->x, pd->nx, pd->y, pd->ny);
}

static uint64_t hl_ci_rank(double level, const struct pair_diffs *pd)
{
	double alpha = 1 - level;

	if (!(level > 0 && level < 1))
		return 0;
	if (use_exact_wilcox(pd->nx, pd->ny, hl_has_ties(pd)))
		return hl_exact_rank(alpha, pd->nx, pd->ny);
	return hl_normal_rank(alpha, pd);
}

bool stats_hodges_lehmann(const double *x, size_t nx, const double *y,
			  size_t ny, double level, double *est, double *lo,
			  double *hi)
{
	_cleanup_free_ double *xs = NULL;
	_cleanup_free_ double *ys = NULL;
	struct pair_diffs pd;
	uint64_t n, k;

	if (nx == 0 || ny == 0) {
		*est = *lo = *hi = NAN;
		return false;
	}
	xs = stats_sorted_copy(x, nx);
	ys = stats_sorted_copy(y, ny);
	pd = (struct pair_diffs){ .x = xs, .y = ys, .nx = nx, .ny = ny };
	n = (uint64_t)nx * ny;
	k = hl_ci_rank(level, &pd);

	*est = median_diff(&pd, n);
	*lo = kth_diff(&pd, k ? k : 1);
	*hi = kth_diff(&pd, k ? n - k + 1 : n);
	return k > 0;
}

/* ---------------------------------------------------------------------- */
/* Cliff's delta                                                          */

double stats_cliffs_delta(const double *x, size_t nx, const double *y,
			  size_t ny)
{
	_cleanup_free_ double *xs = NULL;
	_cleanup_free_ double *ys = NULL;
	uint64_t greater = 0, less = 0;
	size_t below = 0, not_above = 0;

	if (nx == 0 || ny == 0)
		return NAN;
	xs = stats_sorted_copy(x, nx);
	ys = stats_sorted_copy(y, ny);
	/* Sweep y upwards; x[0..below) < y[j] and x[not_above..nx) > y[j]. */
	for (size_t j = 0; j < ny; j++) {
		while (below < nx && xs[below] < ys[j])
			below++;
		while (not_above < nx && xs[not_above] <= ys[j])
			not_above++;
		greater += below;
		less += nx - not_above;
	}
	return ((double)greater - (double)less) / ((double)nx * (double)ny);
}

/* ---------------------------------------------------------------------- */
/* Multiple comparisons                                                   */

struct indexed_p {
	double p;
	size_t idx;
};

static int cmp_indexed_p(const void *a, const void *b)
{
	const struct indexed_p *pa = a, *pb = b;
	int c = cmp_double(pa->p, pb->p);

	return c ? c : (pa->idx > pb->idx) - (pa->idx < pb->idx);
}

/* The non-NaN p-values, ascending; NaN ones are left alone (R's NA). */
static struct indexed_p *sorted_valid_p(const double *p, size_t n, size_t *m)
{
	struct indexed_p *v = xcalloc(n, sizeof(*v));

	*m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			v[(*m)++] = (struct indexed_p){ .p = p[i], .idx = i };
	qsort(v, *m, sizeof(*v), cmp_indexed_p);
	return v;
}

void stats_holm(double *p, size_t n)
{
	size_t m;
	_cleanup_free_ struct indexed_p *v = sorted_valid_p(p, n, &m);
	double running_max = -INFINITY;

	for (size_t i = 0; i < m; i++) {
		running_max = fmax(running_max, (double)(m - i) * v[i].p);
		p[v[i].idx] = fmin(1, running_max);
	}
}

void stats_benjamini_hochberg(double *p, size_t n)
{
	size_t m;
	_cleanup_free_ struct indexed_p *v = sorted_valid_p(p, n, &m);
	double running_min = INFINITY;

	for (size_t i = m; i-- > 0;) {
		double scaled = (double)m / (double)(i + 1) * v[i].p;

		running_min = fmin(running_min, scaled);
		p[v[i].idx] = fmin(1, running_min);
	}
}

/* ---------------------------------------------------------------------- */
/* Means                                                                  */

double stats_geomean(const double *x, size_t n)
{
	double log_sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return 0;
		log_sum += log(x[i]);
	}
	/* Logs keep long products of large or small ratios in range. */
	return exp(log_sum / (double)n);
}

void stats_student_t(const double *x, size_t nx, const double *y, size_t ny,
		     double level, struct ttest_result *r)
{
	double mx, my, df;

	*r = (struct ttest_result){ .diff = NAN, .halfwidth = NAN,
				    .pooled_sd = NAN, .significant = false };
	if (nx == 0 || ny == 0)
		return;
	mx = mean_of(x, nx);
	my = mean_of(y, ny);
	r->diff = my - mx;
	if (nx + ny < 3 || !(level > 0 && level < 1))
		return;

	df = (double)(nx + ny - 2);
	r->pooled_sd = sqrt((sum_sq_dev(x, nx, mx) + sum_sq_dev(y, ny, my)) /
			    df);
	r->halfwidth = qt((1 + level) / 2, df, 1, 0) * r->pooled_sd *
		       sqrt(1.0 / (double)nx + 1.0 / (double)ny);
	r->significant = fabs(r->diff) > r->halfwidth;
}

/* ---------------------------------------------------------------------- */
/* Ratios of replicated runs: Student's t on the logarithms               */

/* The logarithms of x, or NULL when a value is not positive (or NaN). */
static double *logs_of(const double *x, size_t n)
{
	double *l = xcalloc(n ? n : 1, sizeof(*l));

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			free(l);
			return NULL;
		}
		l[i] = log(x[i]);
	}
	return l;
}

static void log_t_undefined(struct log_t_result *r)
{
	*r = (struct log_t_result){ .ratio = NAN, .lo = NAN, .hi = NAN,
				    .p = NAN, .df = NAN, .se = NAN,
				    .tcrit = NAN, .floored = false };
}

/* Two-sided p of t = d / se; a spread of 0 decides by d alone. */
static double t_p_value(double d, double se, double df)
{
	if (!(se > 0))
		return d == 0 ? 1 : 0;
	return fmin(1, 2 * pt(-fabs(d) / se, df, 1, 0));
}

/* Ratio, interval and p of a difference d of logs with standard error se. */
static void log_t_finish(struct log_t_result *r, double d, double se, double level)
{
	r->se = se;
	r->tcrit = qt((1 + level) / 2, r->df, 1, 0);
	r->ratio = exp(d);
	r->lo = exp(d - r->tcrit * r->se);
	r->hi = exp(d + r->tcrit * r->se);
	r->p = t_p_value(d, r->se, r->df);
}

bool stats_log_t_test(const double *x, size_t nx, const double *y, size_t ny,
		      double level, double min_var, struct log_t_result *r)
{
	_cleanup_free_ double *lx = NULL;
	_cleanup_free_ double *ly = NULL;
	double mx, my, var;

	log_t_undefined(r);
	if (nx == 0 || ny == 0 || nx + ny < 3 || !(level > 0 && level < 1))
		return false;
	lx = logs_of(x, nx);
	ly = logs_of(y, ny);
	if (!lx || !ly)
		return false;
	mx = mean_of(lx, nx);
	my = mean_of(ly, ny);
	r->df = (double)(nx + ny - 2);
	var = (sum_sq_dev(lx, nx, mx) + sum_sq_dev(ly, ny, my)) / r->df;
	if (var < min_var) {
		var = min_var;
		r->floored = true;
	}
	log_t_finish(r, my - mx, sqrt(var * (1.0 / (double)nx + 1.0 / (double)ny)),
		     level);
	return true;
}

bool stats_log_t_history(double base, double other, const double *hist,
			 size_t nhist, double level, double min_var,
			 struct log_t_result *r)
{
	_cleanup_free_ double *lh = NULL;
	double var;

	log_t_undefined(r);
	if (nhist < 2 || !(base > 0) || !(other > 0) || !(level > 0 && level < 1))
		return false;
	lh = logs_of(hist, nhist);
	if (!lh)
		return false;
	r->df = (double)(nhist - 1);
	var = sum_sq_dev(lh, nhist, mean_of(lh, nhist)) / r->df;
	if (var < min_var) {
		var = min_var;
		r->floored = true;
	}
	/* Each of the two runs is one draw from the runs' spread. */
	log_t_finish(r, log(other) - log(base), sqrt(2 * var), level);
	return true;
}

/* ---------------------------------------------------------------------- */
/* Paired rounds: Wilcoxon's signed-rank test on log ratios                */

static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

/*
 * V, the sum of the ranks of |d| over the positive d (average ranks for
 * ties), and the tie term of its variance, sum(t^3 - t) / 48.
 */
static double signed_rank_v(const double *d, size_t n, double *tie_term,
			    bool *ties)
{
	_cleanup_free_ double *a = xmalloc(n * sizeof(double));
	double v = 0;

	memcpy(a, d, n * sizeof(double));
	qsort(a, n, sizeof(double), cmp_abs);
	*tie_term = 0;
	*ties = false;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && fabs(a[j + 1]) == fabs(a[i]))
			j++;
		for (size_t k = i; k <= j; k++)
			if (a[k] > 0)
				v += (double)(i + j + 2) / 2;	/* ranks i+1..j+1 */
		if (j > i) {
			double t = (double)(j - i + 1);

			*ties = true;
			*tie_term += (t * t * t - t) / 48;
		}
		i = j + 1;
	}
	return v;
}

/* The n(n+1)/2 Walsh averages of d, sorted (malloc'd). */
static double *walsh_averages(const double *d, size_t n, size_t *m)
{
	double *w = xmalloc(n * (n + 1) / 2 * sizeof(double));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	stats_sort(w, k);
	*m = k;
	return w;
}

/*
 * Ranks (1-based) of the Walsh averages that bound the CI: qsignrank's
 * critical value when exact, the normal quantile otherwise (R's uniroot
 * lands between the same order statistics).
 */
static size_t signed_rank_ci_rank(size_t n, size_t m, double level, bool exact,
				  double tie_term)
{
	double alpha = 1 - level, q;

	if (exact) {
		q = qsignrank(alpha / 2, (double)n, 1, 0);
		signrank_free();
	} else {
		double sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24 - tie_term);

		/* The first order statistic past the normal critical value. */
		q = floor((double)m / 2 - qnorm(1 - alpha / 2, 0, 1, 1, 0) * sd) + 1;
	}
	if (q < 1)
		q = 1;
	return q > (double)m ? m : (size_t)q;
}

static double signed_rank_p(double v, size_t n, bool exact, double tie_term)
{
	double mean = (double)n * (n + 1) / 4, p, z, sd;

	if (exact) {
		p = v > mean ? psignrank(v - 1, (double)n, 0, 0) :
			       psignrank(v, (double)n, 1, 0);
		signrank_free();
		return fmin(1, 2 * p);
	}
	sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24 - tie_term);
	if (!(sd > 0))
		return 1;
	z = v - mean;
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sd;
	return fmin(1, 2 * pnorm(-fabs(z), 0, 1, 1, 0));
}

bool stats_signed_rank_log(const double *x, const double *y, size_t n,
			   double level, struct paired_result *r)
{
	_cleanup_free_ double *lx = NULL, *ly = NULL, *d = NULL, *w = NULL;
	double v, tie_term, z;
	size_t m, k, nd;
	bool ties, zeros = false;

	*r = (struct paired_result){ NAN, NAN, NAN, NAN, NAN, false };
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	lx = logs_of(x, n);
	ly = logs_of(y, n);
	if (!lx || !ly)
		return false;
	/* As R: pairs that did not differ at all take no part. */
	d = xmalloc(n * sizeof(double));
	nd = 0;
	for (size_t i = 0; i < n; i++) {
		if (ly[i] == lx[i])
			zeros = true;
		else
			d[nd++] = ly[i] - lx[i];
	}
	if (nd == 0) {
		*r = (struct paired_result){ 1, 1, 1, 1, 0, false };
		return true;
	}
	n = nd;
	v = signed_rank_v(d, n, &tie_term, &ties);
	r->exact = n < 50 && !ties && !zeros;
	r->p = signed_rank_p(v, n, r->exact, tie_term);
	w = walsh_averages(d, n, &m);
	k = signed_rank_ci_rank(n, m, level, r->exact, tie_term);
	r->ratio = exp(stats_quantile_sorted(w, m, 0.5));
	r->lo = exp(w[k - 1]);
	r->hi = exp(w[m - k]);
	z = qnorm((1 + level) / 2, 0, 1, 1, 0);
	r->se = (log(r->hi) - log(r->lo)) / (2 * z);
	return true;
}

bool stats_geomean_ci(const double *x, size_t n, double level, double min_var,
		      double *center, double *lo, double *hi)
{
	_cleanup_free_ double *l = logs_of(x, n);
	double m, var, half;

	*center = *lo = *hi = NAN;
	if (!l || n == 0)
		return false;
	m = mean_of(l, n);
	*center = exp(m);
	if (n < 2 || !(level > 0 && level < 1))
		return false;
	var = fmax(sum_sq_dev(l, n, m) / (double)(n - 1), min_var);
	half = qt((1 + level) / 2, (double)(n - 1), 1, 0) * sqrt(var / (double)n);
	*lo = exp(m - half);
	*hi = exp(m + half);
	return true;
}

double stats_mde(double se, double df, double level, double power)
{
	if (!(df >= 1) || !isfinite(se) || !(level > 0 && level < 1) ||
	    !(power > 0 && power < 1))
		return NAN;
	return (qt((1 + level) / 2, df, 1, 0) + qt(power, df, 1, 0)) * se;
}
