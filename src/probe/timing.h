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
	struct summary ns_sum;
	struct summary cycles_sum;	/* n == 0 when there is no counter */
	uint32_t *rounds;		/* the round of each batch */
	uint32_t nrounds;		/* rounds done */
	size_t cap;			/* allocated batches */
	double elapsed_s;		/* wall time spent on the cell */
	bool converged;			/* stopped by the CI rule, not the budget */
};

/* Per-batch cost of the timing itself, subtracted from every batch. */
struct timing_calibration {
	double boundary_ns;
	double boundary_cycles;
};

/* Measure what reading the clocks around an empty batch costs. */
void timing_calibrate(const struct cycle_counter *cc,
		      struct timing_calibration *cal);

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
void cell_result_free(struct cell_result *r);

/* Median ns per call of each round, in round order (malloc'd, nrounds). */
double *timing_round_medians(const struct cell_result *r);

/*
 * Pin the calling thread to cpu. Returns 0, or -1 with errno (EINVAL when
 * cpu is outside the affinity mask).
 */
int timing_pin_cpu(int cpu);
/* The last CPU of the current affinity mask, or -1. */
int timing_default_cpu(void);
/* Whether cpu is in the current affinity mask; fills a "0-1" list. */
bool timing_cpu_allowed(int cpu, char *allowed, size_t len);

/* Spin for seconds so the CPU leaves any idle or low-frequency state. */
void timing_spin(double seconds);

#endif
