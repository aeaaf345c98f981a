/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a stored cell's samples can tell apart, from what its run keeps:
 * the clock's step (the environment's counter_step, cycles_arch_step())
 * over the calls of a batch, and for core cycles also the share of a
 * reference reading that step is (the settings' core_cycles). The same
 * figures bench widens its intervals by (probe/timing.h), so that bench's
 * table, its JSON and show agree on a run's intervals and modes.
 */
#ifndef CLOCKBENCH_RESOLUTION_H
#define CLOCKBENCH_RESOLUTION_H

#include "basic/stats.h"
#include "results/store.h"

/*
 * The resolution of one sample of x, which is c->values (ns per call),
 * c->cycles or c->core_cycles. 0 when the run does not say (a run stored
 * before the step was recorded, a cell without batches): the interval is
 * then not widened.
 */
double stored_cell_resolution(const struct stored_run *r,
			      const struct stored_cell *c, const double *x);

/* stats_summarize_quantised() of a copy of x[0..c->n) at that resolution. */
void stored_cell_summarize(const struct stored_run *r,
			   const struct stored_cell *c, const double *x,
			   struct summary *s);

#endif
