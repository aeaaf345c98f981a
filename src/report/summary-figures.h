/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A summary's figures as every printer shows them: its JSON object, its
 * median's CI for a table, the CI's bounds rounded outward. Below the
 * printers that take them: a run's (report/run-*.h, which report/output.h
 * dispatches to) and the scenarios' tables and documents.
 */
#ifndef CLOCKBENCH_SUMMARY_FIGURES_H
#define CLOCKBENCH_SUMMARY_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "basic/stats.h"
#include "basic/table.h"

/*
 * {"n":..,"min":..,"median":..,"median_ci95":[lo,hi],...}: the figures of
 * a summary. median_ci95 is null when the samples are too few for a 95 %
 * CI (n < 6); median_ci_coverage is the real coverage of [median_lo,
 * median_hi] ([min, max] then). Undefined figures are null.
 */
json_t *summary_to_json(const struct summary *s);

/*
 * A summary as a row of a table (exec's, hotplug's): the columns n, min,
 * median, [95% CI] ("[1.234, 1.567]", or "[1.234, 1.567] 75%" with its
 * real coverage when that is short of 95 %), mean, rCV (shown "12.3%"),
 * max and outl, added after the row's own first columns.
 */
void summary_table_columns(struct table *t);

/*
 * s's figures in those columns, times scale, with decimals decimals; s
 * NULL: a row with none (the run did not record that cell).
 */
void summary_table_add(struct table *t, const struct summary *s, double scale,
		       int decimals);

/*
 * A bound of an interval rounded outward to the decimals printed (lo
 * down, hi up), so that the printed interval holds the computed one and
 * is never a point when the computed one is not.
 */
double ci_bound_outward(double x, int decimals, bool up);

/* Whether a summary's median CI may be printed as a 95 % CI. */
bool median_ci_is_95(const struct summary *s);

#endif
