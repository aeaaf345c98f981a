/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timing engine: pin, warm up, then time many short batches of a cell's
 * calls and summarise the per-call cost of each batch.
 *
 * Why short batches: a batch lasts about target_batch_ns, far less than a
 * scheduler slice, so when another task shares the CPU most batches run
 * uninterrupted and the few that are preempted land in the tail, where the
 * median ignores them. A single long loop divided by its call count (what
 * vdsotest does) would instead report the share of the CPU it got.
 *
 * Why rounds: a cell's budget is spent in several slices (rounds), and a
 * command measures round 1 of every cell, then round 2 of every cell, and
 * so on. A slow phase of the machine (a busy neighbour, a frequency change)
 * then touches every cell a little instead of one cell a lot, and the
 * spread of the per-round medians tells how much the machine drifted during
 * the run: it is the noise a comparison between runs must beat.
 *
 * Why core cycles: the core's frequency moves under a guest (a third slower
 * for tens of milliseconds, often after idle), and every figure in ns or
 * counter ticks moves with it. Right before each batch a short reading of
 * the core-speed reference (probe/reference.h) is taken; the readings
 * around a batch tell how many counter ticks a core cycle lasted while it
 * ran, and the batch's ticks become core cycles (CORE_REFERENCE). With a
 * PMU, its cycles are the core cycles and the reference's estimate is kept
 * beside them for comparison (CORE_PERF).
 */
#ifndef CLOCKBENCH_TIMING_H
#define CLOCKBENCH_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/catalog.h"
#include "probe/cycles.h"
#include "basic/stats.h"

struct timing_config {
	double budget_s;	/* per-cell wall-clock budget */
	double min_time_s;	/* sample at least this long */
	double warmup_s;	/* per-cell warm-up */
	double target_batch_ns;	/* wanted duration of one batch */
	double rel_ci;		/* stop when the CI half-width <= rel_ci * median */
	size_t min_samples;
	size_t max_samples;
	unsigned rounds;	/* slices per cell; budget and minimums are shared */
	/* Warm-up to a steady state before the first round (timing_warm_up). */
	double steady_window_s;	/* one window */
	double steady_tol;	/* relative change allowed from window to window */
	unsigned steady_need;	/* consecutive windows that must agree */
	double steady_max_s;	/* give up after this long */
};

/* The defaults: about 20 s for the whole catalog on a quiet 2-vCPU VM. */
void timing_config_default(struct timing_config *cfg);
/* --quick: good to a few percent, a few seconds for the catalog. */
void timing_config_quick(struct timing_config *cfg);

struct cell_result {
	unsigned long batch_calls;	/* calls per batch */
	size_t n;			/* batches kept */
	double *ns;			/* per-call ns of each batch (raw) */
	double *cycles;			/* per-call cycles of each batch, or NULL */
	double *core;			/* per-call core cycles of each batch, or NULL */
	double *core_est;		/* CORE_PERF: the reference's estimate of each */
	/*
	 * CORE_REFERENCE: the reading of the reference taken right before
	 * each batch, in time-base units (whole ticks). With the batches'
	 * durations they give the core cycles again (results/core-replay.h),
	 * which is how the store keeps them.
	 */
	double *readings;
	/*
	 * What one batch's per-call figure can tell apart: the step of the
	 * clock or counter it was timed with over the batch's calls (ns,
	 * cycles, core cycles), and for core cycles also the share of a
	 * reference reading one step is. The summaries' intervals are
	 * widened by them (stats_summarize_quantised()).
	 */
	double ns_resolution, cycles_resolution, core_resolution;
	double reading_resolution;	/* relative: step / reading */
	struct summary ns_sum;
	struct summary cycles_sum;	/* n == 0 when there is no counter */
	struct summary core_sum;	/* n == 0 without core cycles */
	uint32_t *rounds;		/* the round of each batch */
	uint32_t nrounds;		/* rounds done */
	double *round_ghz;		/* the core's speed in each round, or NULL */
	size_t cap;			/* allocated batches */
	double elapsed_s;		/* wall time spent on the cell */
	bool converged;			/* stopped by the CI rule, not the budget */
};

/* Where the core cycles of a batch come from. */
enum core_source {
	CORE_NONE,		/* not measured */
	CORE_REFERENCE,		/* time-base units at the reference's speed */
	CORE_PERF,		/* the PMU's cycles */
};

const char *core_source_name(enum core_source s);	/* "reference", ... */

/*
 * Per-batch cost of the timing itself, subtracted from every batch, and
 * the reference's calibration. The reference is timed with the time base:
 * the architecture's counter, or the clock in ns where there is none.
 */
struct timing_calibration {
	double boundary_ns;
	double boundary_cycles;
	enum core_source core_source;
	bool base_arch;			/* the time base is the arch counter */
	const char *base_unit;		/* "TSC ticks", ..., or "ns" */
	double base_per_ns;		/* time-base units per ns: the TSC's GHz */
	unsigned long ref_ops;		/* instructions in one reading */
	double ref_op_cycles;		/* core cycles per instruction (documented) */
	double ref_boundary_core;	/* a reading's own clock reads, core cycles */
	double batch_boundary_core;	/* a batch's clock reads, core cycles */
	double ghz;			/* the core's speed while calibrating */
	double pmu_op_cycles;		/* the PMU's count per instruction, or NAN */
	/*
	 * The steps the counters advance by (cycles_arch_step()): the
	 * architecture's counter in its ticks (1 without one), the clock in
	 * ns. The batches and the reference's readings are sized so that a
	 * step is a small share of them.
	 */
	double arch_step;
	double clock_step_ns;
};

/* The time base's step in its own units (ticks, or ns without a counter). */
double timing_base_step(const struct timing_calibration *cal);

/*
 * Measure what reading the clocks around an empty batch costs, and
 * calibrate the reference: its length (about REF_READING_NS), what its
 * own clock reads cost, and the speed of the core now.
 */
void timing_calibrate(const struct cycle_counter *cc,
		      struct timing_calibration *cal);

/*
 * Lengthen cfg's batches so that the clock's step is at most a tenth of
 * the precision asked for (BATCH_STEPS_PER_PRECISION): 10 us at 1 % with
 * 10 ns steps, the default already; longer for a coarser clock or a finer
 * precision. And so that the reference's readings, as long as the counter's
 * step asks (REF_MIN_STEPS), take at most a tenth of the time
 * (BATCH_PER_READING): 30 us where the counter steps by 10 ns. Never
 * beyond BATCH_MAX_NS, nor shorter than cfg asked.
 */
void timing_config_fit_resolution(struct timing_config *cfg,
				  const struct timing_calibration *cal);

/*
 * Calibrate on cc (timing_calibrate()) and fit cfg's batches to the steps
 * found (timing_config_fit_resolution()): what every command that times
 * batches does before it sizes them (timing_prepare()), so that a batch's
 * quantum stays below the precision it reports, in bench as in timens, ab
 * and scale --idle-threads.
 */
void timing_calibrate_batches(const struct cycle_counter *cc,
			      struct timing_calibration *cal,
			      struct timing_config *cfg);

/*
 * A reading of the reference lasts about this long; batches are 10 us.
 * At least REF_MIN_STEPS steps of the time base, though: a reading is off
 * by up to a step, and on a counter of 10 ns steps 0.3 us is 30 steps, a
 * quantum of 3 % that made core cycles noisier than ns from run to run.
 */
#define REF_READING_NS 300.0
#define REF_MIN_STEPS 300.0
/*
 * A batch lasts at least this many steps of the clock over the precision
 * asked for (--precision): its quantum stays a tenth of that precision.
 */
#define BATCH_STEPS_PER_PRECISION 10.0
/*
 * ... and at least this many readings of the reference long, so that the
 * readings take at most a tenth of the measuring time however long they
 * have to be for the counter's step.
 */
#define BATCH_PER_READING 10.0
/*
 * Neither lengthens a batch beyond this: a batch must stay far shorter
 * than a scheduler slice (see the top). A finer precision than the step
 * then allows is still honest: the interval is widened by the step.
 */
#define BATCH_MAX_NS 100000.0
/* A batch's speed: the readings this many batches either side, ... */
#define REF_HALF_WINDOW 4
/* ... those within this share of their median (a preempted one is not). */
#define REF_BAND 0.15

/*
 * The pure parts of core cycles, exposed for tests.
 *
 * timing_reading_core(): a reading's length in core cycles, its
 * instructions and its own clock reads.
 * timing_reading_speed(): the time-base units per core cycle a reading of
 * cal->ref_ops instructions that lasted reading units shows.
 * timing_speed_beside(): the speed beside batch i of n, from the speeds of
 * the readings taken right before batches i - REF_HALF_WINDOW to
 * i + REF_HALF_WINDOW: those within REF_BAND of their median, averaged.
 * timing_core_per_call(): a batch of calls that lasted base units at
 * speed, in core cycles per call, its clock reads subtracted.
 * timing_derive_round(): all of it for one round of n batches, readings[i]
 * taken right before the batch that lasted bases[i]; fills core[] and
 * returns the round's speed in GHz (NAN when n is 0).
 */
double timing_reading_core(const struct timing_calibration *cal);
double timing_reading_speed(const struct timing_calibration *cal, double reading);
double timing_speed_beside(const double *speeds, size_t n, size_t i);
double timing_core_per_call(const struct timing_calibration *cal, double base,
			    double speed, unsigned long calls);
double timing_derive_round(const struct timing_calibration *cal,
			   unsigned long calls, const double *readings,
			   const double *bases, size_t n, double *core);
/*
 * A round's core cycles by cal->core_source: the reference's (into core),
 * or with a PMU its cycles per call (pmu, copied to core) and the
 * reference's figure into est. Returns the round's speed in GHz.
 */
double timing_round_core(const struct timing_calibration *cal, unsigned long calls,
			 const double *readings, const double *bases,
			 const double *pmu, size_t n, double *core, double *est);
/* With a PMU: the median of estimate / PMU - 1 over r's batches, %; else NAN. */
double timing_reference_vs_pmu_pct(const struct cell_result *r);

/*
 * Steady state: each window's figures (the reference's speed and a cell's
 * core cycles per call) must be within tol of the previous window's, need
 * windows in a row.
 */
struct steady_rule {
	double tol;
	unsigned need;
	double ref, cell;	/* the previous window; 0 before the first */
	unsigned agreed;	/* windows in a row that agreed */
};
void steady_rule_init(struct steady_rule *s, double tol, unsigned need);
/* Add one window's figures; true once the rule is met. */
bool steady_rule_add(struct steady_rule *s, double ref, double cell);

/* What the warm-up did, for the report. */
struct warmup_report {
	char cell[96];		/* "clock-gettime-realtime vdso" */
	unsigned windows;
	double window_s;
	double elapsed_s;
	bool steady;		/* false: stopped by steady_max_s */
	double first_ghz, last_ghz;	/* the reference, first and last window */
	double first_cell, last_cell;	/* the cell, core cycles per call */
};

/*
 * Run windows of the cell's batches, each beside a reference reading,
 * until steady_rule says steady or cfg->steady_max_s has passed.
 */
void timing_warm_up(const struct cell *c, const struct cycle_counter *cc,
		    const struct timing_config *cfg,
		    const struct timing_calibration *cal, struct warmup_report *w);

/* Choose the cell's batch size; r must be zeroed. The cell must be CELL_OK. */
void timing_prepare(const struct cell *c, const struct cycle_counter *cc,
		    const struct timing_config *cfg, struct cell_result *r);
/*
 * One round: a short warm-up, then batches until the round's share of the
 * budget is spent, or its share of the minimums is met and the median of
 * all the cell's batches so far is known to within rel_ci.
 */
void timing_round(const struct cell *c, const struct cycle_counter *cc,
		  const struct timing_config *cfg,
		  const struct timing_calibration *cal, struct cell_result *r);
/* The summaries of ns and cycles over every round. */
void timing_summarize(struct cell_result *r);

/* All of it for one cell: prepare, every round back to back, summarize. */
int timing_measure(const struct cell *c, const struct cycle_counter *cc,
		   const struct timing_config *cfg,
		   const struct timing_calibration *cal, struct cell_result *r);
/*
 * The same in batches of like's size: two cells so measured differ by
 * exactly what their calls differ by under an instruction-counting clock,
 * each batch's fixed cost (the counter's reads, the loop's entry) the
 * same share of a call in both.
 */
int timing_measure_like(const struct cell *c, const struct cycle_counter *cc,
			const struct timing_config *cfg,
			const struct timing_calibration *cal,
			const struct cell_result *like, struct cell_result *r);
void cell_result_free(struct cell_result *r);

/* Median ns per call of each round, in round order (malloc'd, nrounds). */
double *timing_round_medians(const struct cell_result *r);
/* The same of per-batch values x (r->core, r->cycles). */
double *timing_round_medians_of(const struct cell_result *r, const double *x);

/*
 * Pin the calling thread to cpu. Returns 0, or -1 with errno (EINVAL when
 * cpu is outside the affinity mask).
 */
int timing_pin_cpu(int cpu);
/* The last CPU of the current affinity mask, or -1. */
int timing_default_cpu(void);
/* Whether cpu is in the current affinity mask; fills a "0-1" list. */
bool timing_cpu_allowed(int cpu, char *allowed, size_t len);

/* The share of the measuring time the reading before every batch takes. */
double timing_reference_share_pct(const struct timing_calibration *cal,
				  const struct timing_config *cfg);

/* Spin for seconds so the CPU leaves any idle or low-frequency state. */
void timing_spin(double seconds);

#endif
