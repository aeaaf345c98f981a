/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tables of a scale run, printed from the run as stored: a block per
 * cell, a row per thread count. With threads sharing the calls: the
 * repetitions' median elapsed seconds with its 95 % CI, their robust CV,
 * the change against the first count, the CPU ns per call and the median
 * user and system seconds. With idle threads: the batches' median ns per
 * call with its CI, the robust CV of the round medians, the extra cost over
 * the first count in all and per idle thread, core cycles. What scale
 * prints under its header, and show for a scale run; and as CSV.
 */
#ifndef CLOCKBENCH_SCALE_TABLE_H
#define CLOCKBENCH_SCALE_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/store.h"

/*
 * Whether r is a scale run these tables can show: its config names the
 * mode and the counts, and its cells are a run of counts per cell, each
 * named NAME-threads-N (or NAME-idle-N) in the config's order.
 */
bool scale_table_applies(const struct stored_run *r);

/* The blocks of r, which scale_table_applies(). */
void scale_table_print(FILE *f, const struct stored_run *r);

/*
 * The same figures as CSV, a row per cell and count, with the cell's api,
 * clock and path: scale's --format csv.
 */
void scale_csv_print(FILE *f, const struct stored_run *r);

#endif
