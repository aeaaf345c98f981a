/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics: robust summaries of timing samples and the two-sample tests
 * used to tell a real change from noise. Distribution functions come from
 * R's standalone math library (libRmath); results follow R's conventions
 * (quantile type 7, wilcox.test, p.adjust) so they can be checked in R.
 *
 * Inputs are expected to be finite. NaN sorts last and never crashes, but
 * gives unspecified results. Empty samples give NaN where no value exists.
 * Not thread-safe: libRmath's Wilcoxon functions share a static cache.
 */
#ifndef CLOCKBENCH_STATS_H
#define CLOCKBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
	size_t n;
	double min, max;
	double median;
	double median_lo, median_hi;	/* 95 % distribution-free CI of the median */
	double mean;
	double stddev;			/* sample (n - 1); 0 for n = 1 */
	double cv_pct;			/* 100 * stddev / mean */
	double p99;
	double mad;			/* median absolute deviation, unscaled */
	/*
	 * |x - median| / (1.4826 MAD) > 5, both sides. When MAD is 0 (over half
	 * the values equal the median, common with quantised timings) the scale
	 * is sqrt(pi/2) times the mean absolute deviation from the median
	 * instead; 0 outliers when all values are equal.
	 */
	size_t outliers;
};

/* Sort an array of doubles in place, ascending, NaN last. */
void stats_sort(double *x, size_t n);

/*
 * Quantile q in [0,1] of sorted data (linear interpolation, R type 7).
 * q outside [0,1] is clamped; NaN for n = 0.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * Ranks (1-based, lo <= hi) of the order statistics that bound a
 * distribution-free confidence interval of the median at the given level
 * (e.g. 0.95), from the binomial(n, 1/2) distribution: [x_(k), x_(n-k+1)]
 * with the largest k such that P(B <= k - 1) <= (1 - level) / 2, so the
 * coverage is at least level. For n too small to reach the level (n < 6 at
 * 95 %), or level outside (0, 1), returns lo = 1, hi = n; n = 0 gives 0, 0.
 */
void stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi);

/*
 * Summarise x[0..n) (n >= 1; n = 0 gives NaN fields). x is sorted in place
 * as a side effect.
 */
void stats_summarize(double *x, size_t n, struct summary *s);

/* Mann-Whitney U (two-sided). */
struct mwu_result {
	double u;		/* U statistic of the first sample */
	double p;		/* two-sided p-value */
	bool exact;		/* exact distribution (small n, no ties) */
};
/*
 * Exact p-value from the Wilcoxon distribution (Rmath pwilcox) when both
 * samples have fewer than 50 values and there are no ties; otherwise the
 * normal approximation with tie correction and continuity correction (as R's
 * wilcox.test does). p is NaN when a sample is empty, and 1 when every value
 * is tied (where R gives NaN).
 */
void stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			struct mwu_result *r);

/*
 * Hodges-Lehmann estimate of the shift y - x (median of all pairwise
 * differences) and its distribution-free confidence interval at the given
 * level, from the Mann-Whitney critical values. Returns false when the
 * samples are too small for the level (lo/hi then span all differences).
 * Exact (qwilcox) when R's wilcox.test would be; otherwise the order
 * statistics that R's normal-approximation root lands on (R reports them
 * to its uniroot tolerance). The nx * ny differences are never stored:
 * O(nx + ny) memory, O((nx + ny) * 64) time per bound. Empty input: NaN.
 */
bool stats_hodges_lehmann(const double *x, size_t nx, const double *y,
			  size_t ny, double level, double *est, double *lo,
			  double *hi);

/* Cliff's delta: P(y > x) - P(y < x), in [-1, 1]; NaN for an empty sample. */
double stats_cliffs_delta(const double *x, size_t nx, const double *y,
			  size_t ny);

/*
 * Adjusted p-values, in place (same order as given), as R's p.adjust:
 * monotone, capped at 1. NaN entries stay NaN and do not count (R's NA).
 */
void stats_holm(double *p, size_t n);
void stats_benjamini_hochberg(double *p, size_t n);

/* Geometric mean of positive values (0 if any value is <= 0, NaN if n = 0). */
double stats_geomean(const double *x, size_t n);

/*
 * Student's t two-sample test with pooled variance, as ministat does:
 * difference of means (y - x), the half-width of its confidence interval at
 * the given level, and whether that interval excludes 0. Needs nx, ny >= 1
 * and nx + ny >= 3; otherwise the fields that cannot be computed are NaN
 * and significant is false.
 */
struct ttest_result {
	double diff;		/* mean(y) - mean(x) */
	double halfwidth;	/* CI half-width of diff */
	double pooled_sd;
	bool significant;
};
void stats_student_t(const double *x, size_t nx, const double *y, size_t ny,
		     double level, struct ttest_result *r);

#endif
