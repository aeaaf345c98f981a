/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run of cells in ns per call as CSV (RFC 4180), printed from the run as
 * stored: a header, then a row per cell with every field, the unmeasured
 * cells' figures empty. bench's --format csv.
 */
#ifndef CLOCKBENCH_RUN_CSV_H
#define CLOCKBENCH_RUN_CSV_H

#include <stdio.h>

#include "results/store.h"

void run_csv_print(FILE *f, const struct stored_run *r);

#endif
