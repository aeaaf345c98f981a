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

/*
 * The one dispersion of clockbench: the robust CV, 100 * 1.4826 MAD /
 * |median| (R: 100 * mad(x) / median(x)). Every noise gate, change floor
 * and spread column uses it, so that two tables of one run agree.
 *
 * Why MAD, not the standard deviation or the IQR: whole rounds of a run
 * fall into slow phases of the machine (a lower core frequency, a busy
 * neighbour). The standard deviation has no breakdown point, so one slow
 * round of ten decides it; the IQR (type 7) breaks once 3 of 10 values
 * are off on one side; the MAD holds until half of them are. The round
 * medians 34.5 33.8 34.5 26.0 26.0 26.0 30.2 27.9 26.0 26.1 of one run
 * here give a CV of 13.1 %, an IQR/1.349 of 18.9 % and a robust CV of
 * 5.5 %. The price, an efficiency of 37 % for normal data, is paid in the
 * spread columns only: the tests themselves use ranks or the replicates'
 * own variance. When more than half the values equal the median the MAD
 * is 0 and so is the robust CV: the typical values do not spread.
 */
#define STATS_MAD_TO_SIGMA 1.4826

struct summary {
	size_t n;
	double min, max;
	double median;
	double median_lo, median_hi;	/* distribution-free CI of the median */
	/*
	 * The exact coverage of [median_lo, median_hi]: at least 0.95, or
	 * less when n < 6 and the interval is [min, max] (n = 3: 0.75). Say
	 * it, or print no interval, whenever it is below the level claimed.
	 */
	double median_ci_coverage;
	double mean;
	double stddev;			/* sample (n - 1); 0 for n = 1 */
	double cv_pct;			/* 100 * stddev / mean (classical) */
	double robust_cv_pct;		/* 100 * 1.4826 MAD / |median| */
	double p99;
	double mad;			/* median absolute deviation, unscaled */
	/*
	 * |x - median| / (1.4826 MAD) > 5, both sides. When MAD is 0 (over half
	 * the values equal the median, common with quantised timings) the scale
	 * is sqrt(pi/2) times the mean absolute deviation from the median
	 * instead; 0 outliers when all values are equal.
	 */
	size_t outliers;
	/*
	 * Set by stats_summarize_quantised(): the resolution of one value
	 * (the counter's step over the calls of a batch; 0: not known), and
	 * whether the values fall into two modes (stats_bimodal()).
	 */
	double resolution;
	bool bimodal;
};

/* Sort an array of doubles in place, ascending, NaN last. */
void stats_sort(double *x, size_t n);
/* x[0..n) sorted into a new array (malloc'd; one element when n is 0), x
 * left in its order: the samples of a stored run keep theirs. */
double *stats_sorted_copy(const double *x, size_t n);

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
 * The exact coverage of [x_(lo), x_(n-lo+1)] as a CI of the median:
 * 1 - 2 P(Bin(n, 1/2) <= lo - 1). NaN for n = 0 or lo outside 1..n/2+.
 */
double stats_median_ci_coverage(size_t n, size_t lo);

/* Whether an interval of this coverage may be printed as a level CI. */
bool stats_ci_honours(double coverage, double level);

/*
 * Summarise x[0..n) (n >= 1; n = 0 gives NaN fields). x is sorted in place
 * as a side effect.
 */
void stats_summarize(double *x, size_t n, struct summary *s);

/*
 * stats_summarize() of a copy of x[0..n): the caller's samples keep their
 * order, which means something to them (a run's rounds are paired with
 * another run's by index, exec's runs with the command run before each).
 * x may be NULL when n is 0.
 */
void stats_summarize_copy(const double *x, size_t n, struct summary *s);

/*
 * stats_summarize() of values that are quantised: each value is a
 * difference of two reads of a counter that advances in steps, divided
 * by a count, so it is off its true value by less than resolution (one
 * step over the count) either way. Every order statistic of the values
 * is then within resolution of the true one, and [median_lo - resolution,
 * median_hi + resolution] covers the true median whenever [median_lo,
 * median_hi] would have covered it without the quantisation: the interval
 * is widened by that much, so it is never narrower than the counter can
 * tell (without it, most values on one step give a CI of zero width).
 * Chosen over a smoothed quantile estimator (Harrell-Davis): its interval
 * from the same values also shrinks towards a point when most of them are
 * equal, and it would move the median, which this leaves as it was.
 * When the values are bimodal (stats_bimodal()), s->bimodal says so: the
 * median is then the one of whichever mode holds more values this time,
 * and another run may find it in the other mode. The interval stays the
 * one of this run's median (spanning both modes made it a fifth of the
 * median wide for most cells of a loaded machine, where a second mode is
 * common and rarely moves the median).
 */
void stats_summarize_quantised(double *x, size_t n, double resolution,
			       struct summary *s);

/*
 * Whether sorted[0..n) falls into two modes: the split into a lower and a
 * higher group, each at least a tenth of the values, that leaves the least
 * squared deviation within the groups (Otsu's split), computed without
 * the STATS_BIMODAL_TRIM share of the values at either end (preempted
 * batches); bimodal when the groups' medians are more than
 * STATS_BIMODAL_SEPARATION times their robust spread apart (the root mean
 * square of the two 1.4826 MADs, each at least min_spread: no spread below the
 * counter's resolution is seen). A normal sample gives about 3, two
 * modes as far apart as 2.8 and 3.9 ns with a spread of a few percent
 * each give 10 and more. The groups' medians go to *low, *high (either
 * may be NULL). Needs n >= 20.
 */
#define STATS_BIMODAL_SEPARATION 5.0
#define STATS_BIMODAL_TRIM 0.02
bool stats_bimodal(const double *sorted, size_t n, double min_spread, double *low,
		   double *high);

/*
 * The step of a quantised counter, from differences of pairs of its reads
 * taken a varying time apart (d[0..n), in the counter's units; not
 * modified): the spacing q of the lattice that the positive differences
 * sit on, each within one unit of a multiple of q (a guest's counter is
 * the host's scaled, so its step need not be whole: 24.5 ticks here).
 * Found from the clusters of the differences (values at most one unit
 * apart) that hold at least 1 % of them, at least 3, so that a single
 * odd difference decides nothing: q is the least-squares spacing of their
 * centres, and is kept only when 90 % of all positive differences lie
 * within max(1, q / 10) of a multiple of it and q is at least 4. Else 1:
 * a counter whose differences take every value steps by one unit (or by
 * so few that it does not matter). 1 when fewer than 16 differences are
 * positive.
 */
double stats_counter_step(const double *d, size_t n);

/*
 * The robust CV of x[0..n) (not modified): 100 * 1.4826 MAD / |median|.
 * 0 when over half the values equal the median; NaN for n = 0 or a
 * median of 0.
 */
double stats_robust_cv_pct(const double *x, size_t n);

/*
 * The standard error of the median of x[0..n) from its robust spread:
 * sqrt(pi / 2) * 1.4826 MAD / sqrt(n), the large-sample value for normal
 * data (R: sqrt(pi/2) * mad(x) / sqrt(length(x))). NaN for n = 0.
 */
double stats_median_se(const double *x, size_t n);

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

/*
 * Student's t on the logarithms, pooled variance: the test of a ratio
 * between two groups of replicates (one value per run). For a nested
 * design (runs within a group, rounds within a run) the runs' values
 * carry both the between-run and the within-run noise, so this is the
 * exact test of the group effect for normal log-values. min_var is a
 * lower bound on the pooled variance of the log-values: what the rounds
 * of each run say its value is good to, so that 3 runs that agree by
 * chance claim no more than their rounds allow (0: none; R's
 * t.test(log(y), log(x), var.equal = TRUE) when it does not bind).
 *
 * ratio = exp(mean(log y) - mean(log x)), the ratio of the geometric
 * means, with its CI at level and the two-sided p-value. Returns false,
 * with NaN fields, when a value is not positive or nx + ny < 3.
 */
struct log_t_result {
	double ratio, lo, hi;
	double p;
	double df;		/* nx + ny - 2 */
	double se;		/* standard error of log(ratio) */
	double tcrit;		/* t quantile of the CI */
	bool floored;		/* min_var, not the runs' spread, was used */
};
bool stats_log_t_test(const double *x, size_t nx, const double *y, size_t ny,
		      double level, double min_var, struct log_t_result *r);

/*
 * One run against one, judged by what runs like them vary by: hist holds
 * the values of nhist other runs of the same cell on the same machine,
 * whose variance of log(value) (at least min_var) is what one run moves
 * between runs. log(other / base) is then the difference of two draws,
 * se = sqrt(2 var), and t has nhist - 1 degrees of freedom (a prediction
 * interval for a new run). false (NaN fields) when nhist < 2 or a value is
 * not positive.
 */
bool stats_log_t_history(double base, double other, const double *hist,
			 size_t nhist, double level, double min_var,
			 struct log_t_result *r);

/*
 * Geometric mean of x (positive) with the t interval at level from the
 * variance of log(x), at least min_var. false (NaN bounds) when n < 2 or a
 * value is not positive; *center is still set for n = 1.
 */
bool stats_geomean_ci(const double *x, size_t n, double level, double min_var,
		      double *center, double *lo, double *hi);

/*
 * Paired samples on the log scale, for interleaved designs (ab, timens):
 * d_i = log(y_i / x_i), the i-th round of one condition against the i-th
 * of the other, taken next to each other in time, so that a drift of the
 * machine cancels in each difference. Wilcoxon's signed-rank test: its
 * p-value, the Hodges-Lehmann estimate (the median of the Walsh averages
 * (d_i + d_j) / 2, i <= j) and its distribution-free CI at level, as R's
 * wilcox.test(log(y), log(x), paired = TRUE, conf.int = TRUE) gives them:
 * exact below 50 pairs without ties or zeros, else the normal
 * approximation with continuity correction. Ranks, not means, so one round
 * in a slow phase moves the estimate by one Walsh average at most.
 * false (NaN fields) when n < 2 or a value is not positive.
 */
struct paired_result {
	double ratio, lo, hi;	/* exp of the estimate and of its CI */
	double p;
	double se;		/* of log(ratio), from the CI: for the MDE */
	bool exact;
};
bool stats_signed_rank_log(const double *x, const double *y, size_t n,
			   double level, struct paired_result *r);

/*
 * The minimum detectable effect of a test whose estimate has standard
 * error se and whose two-sided CI at level must exclude 0: the true effect
 * found with probability power, (t_{(1+level)/2, df} + t_{power, df}) se
 * (R: (qt((1 + level) / 2, df) + qt(power, df)) * se). df = Inf gives
 * the normal quantiles. NaN when df < 1 or se is not finite.
 */
double stats_mde(double se, double df, double level, double power);

#endif
