/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of a run, printed from the run as stored: the one table that
 * bench prints for the run it has just measured and show for a run it
 * loads, so that the two cannot disagree. A row per cell: the median of
 * its samples with its 95 % CI, min, mean, the spread of its round
 * medians, p99, cycles, core cycles and n; the reason for a cell that was
 * not measured. Every text of the run is escaped (basic/text.h).
 */
#ifndef CLOCKBENCH_RUN_TABLE_H
#define CLOCKBENCH_RUN_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/store.h"

struct run_table_options {
	bool histogram;		/* a text histogram under each measured cell */
};

/*
 * The table's legend ("# ..." lines), its heading and a row per cell.
 * Cells in ns per call (bench's, ab's and timens's) head their median
 * "ns/call"; a run with cells in another unit (scale's, exec's seconds)
 * has a unit column and heads it "median". opts may be NULL.
 */
void run_table_print(FILE *f, const struct stored_run *r,
		     const struct run_table_options *opts);

#endif
