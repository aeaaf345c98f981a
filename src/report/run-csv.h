/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs as CSV (RFC 4180), printed from the run as stored. A run of cells
 * in ns per call: a header, then a row per cell with every field, the
 * unmeasured cells' figures empty (bench's --format csv). Any run: a row
 * per sample (export's).
 */
#ifndef CLOCKBENCH_RUN_CSV_H
#define CLOCKBENCH_RUN_CSV_H

#include <stdio.h>

#include "results/store.h"

void run_csv_print(FILE *f, const struct stored_run *r);

/*
 * Every sample of a run, a row each (export's --format csv): the run's
 * uuid, id and label, the cell, path and unit, the sample's index, value,
 * cycles, round and core cycles, each number in the shortest text that
 * reads back as exactly it. The header once, then each run's rows.
 */
void run_samples_csv_header(FILE *f);
void run_samples_csv_print(FILE *f, const struct stored_run *r);

#endif
