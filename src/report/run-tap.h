/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run of cells in ns per call as TAP 13 (kselftest's conventions),
 * printed from the run as stored: a test point per cell, ok with its
 * figures, or skipped with the reason it was not measured; the totals
 * line last. bench's --format tap.
 */
#ifndef CLOCKBENCH_RUN_TAP_H
#define CLOCKBENCH_RUN_TAP_H

#include <stdio.h>

#include "results/store.h"

void run_tap_print(FILE *f, const struct stored_run *r);

#endif
