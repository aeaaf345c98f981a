/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cell's digest: what compare reads of a cell measured in rounds instead
 * of its samples. Per metric (the primary values, cycles, core cycles) the
 * median of each round that has samples and the median of all samples,
 * computed as compare computes them (stats_sort, stats_quantile_sorted),
 * so a comparison from digests is the comparison from samples, bit for
 * bit. The store keeps it beside the samples (schema 3): compare of 20 runs
 * reads some 20 KB a run instead of the megabytes of its samples.
 *
 * A digested cell (stored_cell.digest) holds in values, cycles and
 * core_cycles one median per round with samples, rounds[i] = i, n of them;
 * nrounds stays the run's; median_* are the medians of all samples.
 */
#ifndef CLOCKBENCH_DIGEST_H
#define CLOCKBENCH_DIGEST_H

#include <stddef.h>

#include "results/store.h"

/* Cells measured in at least two rounds have one. */
bool digest_applies(const struct stored_cell *c);

/* The digest blob of c (digest_applies()): malloc'd, *bytes long. */
void *digest_encode(const struct stored_cell *c, size_t *bytes);

/*
 * c, loaded without its samples (n, nrounds and the strings set), made a
 * digested cell from blob. 0, or -1 when the blob does not fit the cell.
 */
int digest_apply(struct stored_cell *c, const void *blob, size_t bytes);

/* A cell with its samples made a digested cell in place. */
void digest_reduce(struct stored_cell *c);

#endif
