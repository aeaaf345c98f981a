/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparing runs: for every cell present in the runs, the value of each
 * group of runs, the change against the base group, and a verdict that
 * separates a real change from noise.
 *
 * A group is what one command-line spec names: one run, or several runs
 * with one label. With one run per group, the samples are the run's round
 * medians when it was measured in rounds (bench, timens), else its raw
 * samples (per-repetition seconds). Interleaved rounds (ab, timens) are
 * paired: Wilcoxon signed-rank. One separate run against another, in
 * rounds or not, is judged by a history of runs like the base (the
 * comparison session reads it: results/compare-session.h), and without
 * one gets no verdict: its rounds or samples cannot say how far whole
 * runs move. Raw samples of runs measured together: Mann-Whitney with the
 * Hodges-Lehmann CI of the shift; when these sample sizes cannot reach
 * alpha with ranks (3 repetitions against 3 cannot go below p = 0.1),
 * Student's t on the logarithms, which can, decides instead; `few` when
 * no test can.
 *
 * Every change is the ratio of the two centres shown (compare_side):
 * each centre is the estimator of the test that judged the cell.
 *
 * As soon as a group holds several runs, the runs are the replicates:
 * each run contributes one value, the median of its round medians (a
 * slow round does not move it), and the test is Student's t on the logs
 * of those values with the variance between the runs (stats_log_t_test):
 * the exact test of a nested design, so a boot-to-boot or run-to-run
 * difference is part of the noise, as it should be, yet 3 runs against 3
 * reach a verdict on a clear change. The variance is never taken below
 * what each run's rounds say its value is good to.
 *
 * The verdict: a change is significant when its p-value, adjusted across
 * the cells of one comparison (Benjamini-Hochberg by default: when nothing
 * changed it guards as well as Holm, and when a change touches many cells,
 * as a kernel change does, it still sees them), is below alpha AND the
 * 95 % CI of the change lies entirely beyond +-floor percent. The floor
 * is the threshold (many samples make even a 0.3 % drift "significant";
 * the threshold is the smallest change worth reporting), and for a single
 * run judged on its round medians the larger of that and the rounds'
 * robust CV: two runs differ by about as much as their rounds do.
 *
 * Every spread here is the robust CV of stats.h (1.4826 MAD / median).
 */
#ifndef CLOCKBENCH_COMPARE_H
#define CLOCKBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "basic/stats.h"
#include "basic/strbuf.h"
#include "results/sides.h"
#include "results/store.h"

enum compare_metric {
	METRIC_AUTO,	/* core-cycles when every run has them, else the unit
			 * of the base's first measured cell */
	METRIC_NS,
	METRIC_CYCLES,
	METRIC_SECONDS,
	METRIC_CORE_CYCLES,	/* per call, frequency-invariant (timing.h) */
	/*
	 * Guest instructions per call, counted under qemu's icount (kernels
	 * --exact): never a time, never compared with one.
	 */
	METRIC_INSTRUCTIONS,
};

enum compare_correction {
	CORRECT_HOLM,
	CORRECT_BH,
	CORRECT_NONE,
};

struct compare_options {
	enum compare_metric metric;
	double alpha;		/* 0.05 */
	double threshold_pct;	/* smallest change reported as significant: 1 */
	double noise_pct;	/* a robust CV above this: noisy */
	enum compare_correction correction;
	/*
	 * The groups are single runs whose rounds were interleaved (ab,
	 * timens): round k of each was measured next to round k of the
	 * others. compare_build() also finds that in the runs' configs
	 * ("interleave": the same id in each).
	 */
	bool paired;
	/*
	 * Runs like the base's, in no group: the same host, command, kernel
	 * and clocksource (compare_history_matches()). Two single runs
	 * cannot show how far this machine moves between runs; with at least
	 * COMPARE_HISTORY_MIN of these, the spread of their values is that
	 * noise (TEST_LOG_T_HISTORY). NULL or empty: none.
	 */
	const struct compare_group *history;
	/*
	 * Let --fail-on catch changes between emulated timings (runs booted
	 * under TCG by `kernels`, environment.vm.emulated). An emulated
	 * timing is never judged against one from hardware, asked or not.
	 */
	bool judge_emulated;
	/*
	 * Only the cells whose name or "name/path" matches this glob are
	 * compared (and counted by the correction), or NULL for every cell:
	 * compare, report and plot --cell.
	 */
	const char *cells;
};
void compare_options_default(struct compare_options *o);

/* Whether the cell name (on path, "" for none) matches the glob cells (NULL: all). */
bool compare_cell_matches(const char *cells, const char *name, const char *path);

/*
 * Whether run's timings came from an emulator: a boot of `kernels`
 * without KVM (TCG), whose figures compare code paths on one emulator,
 * not hardware costs.
 */
bool stored_run_emulated(const struct stored_run *run);

/*
 * Whether run's figures are counts: booted by `kernels --exact` under
 * qemu's icount, its cells in guest instructions per call, never times.
 */
bool stored_run_exact(const struct stored_run *run);

/* The fewest runs of history that judge a single run against another. */
#define COMPARE_HISTORY_MIN 4
/* The most runs of history a comparison reads by default (--history). */
#define COMPARE_HISTORY_DEFAULT 20

/*
 * Whether run may stand in the history of a comparison whose base is
 * base: the same host, command, kernel, clocksource and time namespace,
 * the same command line (exec) or CPU and tracing (hotplug), and some
 * cell measured. compare_build() also leaves out the compared runs
 * themselves and runs labelled like an other side.
 */
bool compare_history_matches(const struct stored_run *base,
			     const struct stored_run *run);

/* What a side's centre is: the estimator of the test that judged it. */
enum compare_center {
	CENTER_MEDIAN,		/* the median of the samples (ranks, history) */
	CENTER_GEOMEAN,		/* of the samples: Student's t on the logs */
	CENTER_RUNS_GEOMEAN,	/* replicates: of the runs' values */
	/*
	 * Paired rounds: the base's median times the Hodges-Lehmann estimate
	 * of the round-by-round ratio (the signed-rank test's estimate).
	 */
	CENTER_PAIRED,
	/*
	 * Two samples judged by ranks: the base's median times the
	 * Hodges-Lehmann ratio, the median of every other/base ratio
	 * (Mann-Whitney's estimate, the centre of its interval).
	 */
	CENTER_SHIFTED,
};

/* One spec of the command line and the runs it names. */
struct compare_group {
	char *spec;			/* "before", "12" */
	struct stored_run *runs;	/* loaded, oldest first */
	size_t nruns;
};

/* What one group shows for one cell. */
struct compare_side {
	bool present;
	/*
	 * Not present, but a run holds the cell unmeasured: its status ("n/a":
	 * a vDSO without the function), shown instead of "-". "" otherwise.
	 */
	char status[16];
	/* What the statistics use: run values, round medians or raw samples. */
	double *samples;
	size_t n;
	struct summary sum;	/* of the samples; sum.robust_cv_pct is the spread */
	/*
	 * The value shown, and the one the change is computed from (every
	 * change is the ratio of two centres, so the numbers printed agree):
	 * what center_kind says; its 95 % CI and the real coverage of that CI
	 * (below 0.95 when the samples are too few for the level; NaN when
	 * there is no interval).
	 */
	enum compare_center center_kind;
	double center, center_lo, center_hi, center_coverage;
	/*
	 * Replicates: the mean squared relative standard error of the runs'
	 * values, each from its own rounds: the least variance of log(value)
	 * the runs can have. 0 otherwise.
	 */
	double within_var;
	bool by_rounds;		/* samples are a single run's round medians */
	bool noisy;		/* robust CV above noise_pct (or many outliers) */
	bool few;		/* a single sample: no spread of its own */
	double ns_median;	/* metric core-cycles: the ns figure beside, else NAN */
};

enum compare_test {
	TEST_RANK,	/* Mann-Whitney U, Hodges-Lehmann CI */
	TEST_LOG_T,	/* Student's t on the logs, pooled variance */
	TEST_SIGNED_RANK,	/* paired rounds: Wilcoxon signed-rank on log ratios */
	TEST_LOG_T_HISTORY,	/* one run against one, t from the history's spread */
	/*
	 * Instruction counts that every boot of each side repeated exactly:
	 * no test, the difference itself (kernels --exact).
	 */
	TEST_EXACT,
};

/* One group against the base, for one cell. */
struct compare_diff {
	bool valid;		/* both sides present */
	enum compare_test test;
	double df;		/* TEST_LOG_T(_HISTORY): degrees of freedom; NaN otherwise */
	size_t history_runs;	/* TEST_LOG_T_HISTORY: the runs whose spread was used */
	bool spread_floored;	/* TEST_LOG_T: the rounds set the spread, not the runs */
	/*
	 * other / base: the test's estimate (Hodges-Lehmann for ranks on
	 * positive samples, the signed-rank's, t's ratio of geometric means),
	 * else the ratio of the medians.
	 */
	double ratio;
	bool ratio_hl;		/* ratio is a Hodges-Lehmann estimate: see centres */
	double change_pct;	/* 100 * (ratio - 1): positive = slower */
	double shift;		/* other - base centre, in the unit (as shown) */
	double shift_lo, shift_hi;
	double change_lo_pct, change_hi_pct;	/* its 95 % CI */
	double p, p_adjusted;
	double floor_pct;	/* the CI must clear +-floor: threshold or rounds' robust CV */
	/*
	 * The minimum detectable effect: the change this comparison finds 80 %
	 * of the time, with these spreads and the floor (before the correction
	 * across cells). NaN when no test can reach a verdict.
	 */
	double mde_pct;
	bool few;		/* no test can reach alpha with these sample sizes */
	double cliffs_delta;
	struct ttest_result ttest;	/* Student's t, for the ministat style */
	/*
	 * The test found the change, but some of one run's own rounds were
	 * where the other run is (rounds_reach() in compare.c): not
	 * significant, the verdict "noisy".
	 */
	bool rounds_span;
	/*
	 * One run against one, not interleaved, too little history: how far
	 * whole runs move on this machine is unknown (a run's rounds or
	 * samples only say how it moved within itself), so the change is
	 * shown without a verdict ("few").
	 */
	bool spread_unknown;
	/*
	 * user or sys CPU time that the kernel sampled by ticks, below a
	 * tick's worth on both sides: the runs' own records call it an
	 * estimate (config.cpu_accounting), so no verdict (few).
	 */
	bool estimate;
	bool significant;
	/*
	 * A side's timings are emulated: --fail-on passes over the change
	 * unless judge_emulated. One emulated side against one from
	 * hardware is no comparison: never significant, verdict "n/a".
	 */
	bool emulated;
	bool judge_emulated;
	/*
	 * "better", "worse", "~", "noisy", "few", "n/a"; "same" for counts
	 * (METRIC_INSTRUCTIONS) equal at every boot of both sides.
	 */
	const char *verdict;
	/*
	 * Why the verdict is what it is, in words ("adjusted p 0.12, not
	 * below 0.05"; "its 95 % CI reaches +0.11 %, inside the 1 % floor"):
	 * two cells of one change can get two verdicts, and the reader asks
	 * why. "" where the cell is not compared.
	 */
	char reason[192];
	double ns_change_pct;	/* metric core-cycles: the change in ns, else NAN */
};

enum geomean_exclusion {
	GEOMEAN_IN,
	GEOMEAN_MISSING,	/* some group has no value for the cell */
	/*
	 * A centre of 0 or below (exec's sys time of a short command, as tick
	 * accounting gives it): no geometric mean can hold it.
	 */
	GEOMEAN_NOT_POSITIVE,
	/*
	 * A tick-sampled CPU time below its threshold in some group: an
	 * estimate (exec's user time of a short command) moved an exec
	 * pair's geomean to +65 % beside a wall time at -5 %.
	 */
	GEOMEAN_ESTIMATE,
	GEOMEAN_EXCLUSIONS,
};

struct compare_row {
	char *name;
	char *path;
	struct compare_side *sides;	/* one per group */
	struct compare_diff *diffs;	/* one per group; [0] (the base) unused */
	/*
	 * Why the row is left out of every group's geomean (0: it is in), so
	 * that the geomeans' ratio is the geomean of the changes; the output
	 * says which rows and why.
	 */
	enum geomean_exclusion out_of_geomean;
};

struct compare_result {
	struct compare_options opts;
	enum compare_metric metric;	/* resolved */
	const char *unit;		/* "ns", "s", or the cycles unit */
	/*
	 * What the text styles show the figures in: seconds below one as
	 * ms or us (hotplug's 7.177e-05 s reads 71.77 us), times
	 * unit_scale; the machine formats keep unit.
	 */
	const char *unit_shown;
	double unit_scale;
	bool replicates;		/* statistics over run medians */
	/*
	 * METRIC_INSTRUCTIONS: each boot's count is one value (replicates,
	 * whatever the number of runs), and a cell that every boot of two
	 * sides counted alike is judged by the counts themselves (TEST_EXACT).
	 */
	bool exact;
	bool paired;			/* rounds paired across the groups */
	struct compare_group *groups;	/* borrowed */
	size_t ngroups;
	struct compare_row *rows;
	size_t nrows;
	double *geomean;		/* per group: geometric mean of medians */
	double *geomean_change_pct;	/* per group, vs base, over shared cells */
	size_t geomean_left_out;	/* rows out_of_geomean */
	size_t geomean_excluded[GEOMEAN_EXCLUSIONS];	/* of them, for each reason */
	/*
	 * Per group: the share of its cells that moved the same way as most
	 * did (0.5 .. 1). When nearly every cell, syscall paths and vDSO paths
	 * alike, moved together, the machine itself probably changed between
	 * the runs (a busy neighbour, another frequency): say so.
	 */
	double *same_direction;
	bool *machine_shift;
	bool *emulated;		/* per group: a run of it has emulated timings */
	/* Per group: its runs are of another architecture than the base's (n/a). */
	bool *other_arch;
	/* How many runs of the history were like the base and used. */
	size_t history_used;
	/*
	 * Per group: its runs come from different interleaved invocations
	 * (timens or ab run twice under the same label): pooled as
	 * replicates, and the output says so.
	 */
	bool *pooled_invocations;
	/*
	 * Per group (NULL for the base, and when nothing differed): what the
	 * runs' own records say differed between its machine and the base's
	 * ("load 0.1 against 1.9"), whatever the number of cells. Not for
	 * interleaved rounds, which saw one machine.
	 */
	char **machine_difference;
	/*
	 * Per group (empty for the base): the facts of its machine that
	 * differ from the base's, as its runs record them
	 * (results/sides.h): clocksource, emulation, CPU model...
	 */
	struct side_differences *side_differences;
};

/*
 * Build the comparison of groups[1..] against groups[0]. Returns 0, or -1
 * with a reason (no common cells, no cell has the metric, ...).
 */
int compare_build(struct compare_result *r, struct compare_group *groups,
		  size_t ngroups, const struct compare_options *o,
		  struct strbuf *err);
void compare_free(struct compare_result *r);

/*
 * The runs of st that may be the history of groups (a comparison session
 * reads it so): into h (spec "history"), newest first, at most max; none
 * for replicates or interleaved rounds. A damaged run is left out with a
 * warning. 0, or -1 with err.
 */
int compare_history_load(struct store *st, const struct compare_group *groups,
			 size_t ngroups, long max, struct compare_group *h,
			 struct strbuf *err);
/* Free a group's runs and spec (not g itself). */
void compare_group_release(struct compare_group *g);

/* The test's name in JSON, CSV and the HTML: "signed-rank-paired". */
const char *compare_test_id(enum compare_test t);
/* Whether any valid diff of r was judged by test t. */
bool compare_test_used(const struct compare_result *r, enum compare_test t);
/*
 * The tests r used, named, in one phrase ("Wilcoxon signed-rank on the log
 * ratios of the paired rounds"; several joined by "; "): how many, 0 when
 * no cell was tested (the phrase then says so).
 */
size_t compare_tests_phrase(const struct compare_result *r, struct strbuf *out);
/*
 * What the centre shown for each side is, in a phrase: "median", "geometric
 * mean of the samples" (Student's t on the logs), "the base's median
 * times the paired Hodges-Lehmann ratio" (signed-rank).
 */
void compare_centres_phrase(const struct compare_result *r, struct strbuf *out);
/*
 * Whether some cell of r is one run against one whose between-run
 * spread nothing measures: shown, with no verdict (few).
 */
bool compare_spread_unknown(const struct compare_result *r);
/* The commands that would give such a comparison a verdict, one sentence. */
extern const char compare_verdict_hint[];

/*
 * The gate of `compare --fail-on` (and `ab --fail-on`): which significant
 * changes make the command fail, for CI and `git bisect run`.
 */
enum compare_gate {
	GATE_NONE,
	GATE_WORSE,	/* significantly slower than the base */
	GATE_BETTER,	/* significantly faster */
	GATE_CHANGE,	/* either */
};
extern const char *const compare_gate_names[];	/* enum order, NULL-terminated */

/* Whether the gate catches group g's diff of row (g >= 1). */
bool compare_gate_hit(const struct compare_diff *d, enum compare_gate gate);

/*
 * The median of x (one of c's per-sample arrays) in each of c's rounds, in
 * round order, into out (c->nrounds values at most); returns how many.
 */
size_t compare_round_medians(const struct stored_cell *c, const double *x,
			     double *out);

/*
 * The spread compare judges one stored run's cell by: the robust CV of its
 * round medians when it ran in rounds, else of its samples (primary
 * metric). NaN when the cell was not measured.
 */
double compare_cell_robust_cv_pct(const struct stored_cell *c);

const char *compare_metric_name(enum compare_metric m);
int compare_metric_by_name(const char *name);	/* -1 if unknown */

/* At least this many cells, and this share moving together: a machine shift. */
#define MACHINE_SHIFT_MIN_CELLS 10
#define MACHINE_SHIFT_SHARE 0.9

#endif
