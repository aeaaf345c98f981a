/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cell's core cycles made again from what the cell keeps anyway.
 *
 * Measured against the core-speed reference (probe/timing.h), the core
 * cycles of a batch are its duration in time-base units divided by the
 * core's speed beside it, which the readings of the reference around it
 * give. The durations are in the cell's cycles (or its values, without a
 * cycle counter) already, as whole ticks less a boundary, per call; the
 * readings are whole ticks too, and cost the codec about a byte each,
 * where the core cycles, each divided by a speed of its own, cost two and
 * a half. So the store keeps the readings, and the core cycles are made
 * again on load by timing_derive_round(), the function that made them in
 * the first place: bit for bit, on any machine, since it is a few IEEE
 * operations in double precision (the build neither fuses a multiply and
 * an add nor uses the x87 unit). A cell is kept this way only when the
 * replay gives its core cycles back exactly.
 */
#ifndef CLOCKBENCH_CORE_REPLAY_H
#define CLOCKBENCH_CORE_REPLAY_H

#include <stddef.h>

#include "results/store.h"

/*
 * core[0..c->n) from c->ref and c's samples (values or cycles, rounds,
 * batch_calls): 0, or -1 when c lacks something the replay needs or a
 * batch's duration is not a whole number of ticks (a clamped sample).
 */
int core_replay(const struct stored_cell *c, double *core);

/*
 * The blob that stands for c->core_cycles (malloc'd, *bytes long): c->ref
 * with its readings encoded. NULL when c has no readings or the replay
 * does not give c->core_cycles bit for bit; the store keeps the core
 * cycles themselves then.
 */
void *core_replay_encode(const struct stored_cell *c, size_t *bytes);

/*
 * Fill c->ref and c->core_cycles from such a blob, c's values, cycles,
 * rounds, n and batch_calls loaded already: 0, or -1 when the blob is
 * damaged or does not fit the cell.
 */
int core_replay_decode(const void *blob, size_t bytes, struct stored_cell *c);

#endif
