/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec's tables, printed from the runs as stored: per command its wall,
 * user and system times (n, min, median with its 95 % CI, mean, robust CV,
 * max, outliers), or for several commands a wall row each, in one unit
 * chosen for the first command's median.
 */
#ifndef CLOCKBENCH_EXEC_TABLE_H
#define CLOCKBENCH_EXEC_TABLE_H

#include <stdio.h>

#include "results/store.h"

/* A unit that suits a median wall time of median_s: s, ms or us, and its scale. */
const char *exec_table_unit(double median_s, double *scale);

/* The median of r's wall times in seconds, NaN when it has none. */
double exec_table_wall_median(const struct stored_run *r);

/* One command's run: the heading and its wall, user and sys rows. */
void exec_table_print_command(FILE *f, const struct stored_run *r,
			      const char *unit, double scale);

/*
 * Several commands' runs: the heading and a wall row per run, labelled
 * labels[i], and with param (its values[i]) when a parameter list made
 * them (param may be NULL).
 */
void exec_table_print_commands(FILE *f, const struct stored_run *runs, size_t n,
			       const char *const *labels, const char *param,
			       const char *const *values, const char *unit,
			       double scale);

#endif
