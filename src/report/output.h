/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report/: presenting runs and comparisons (tables, JSON, CSV, TAP,
 * compare's styles; its layer: src/meson.build).
 *
 * Output formats of a bench run: an aligned table for people, JSON and CSV
 * for programs, TAP for kselftest-style harnesses, each printed from the
 * run as stored by its one printer.
 */
#ifndef CLOCKBENCH_OUTPUT_H
#define CLOCKBENCH_OUTPUT_H

#include <stdio.h>
#include <jansson.h>

#include "basic/json.h"
#include "basic/options.h"

#include "results/store.h"
#include "basic/stats.h"

/*
 * stdout flushed and its error flag read: 0, or -1 with "write error on
 * standard output: No space left on device" printed (once: the flag is
 * cleared). main runs it after every command; a process that ends with
 * _exit() (a guarded measurement's child) runs it itself.
 */
int output_flush_stdout(void);

/* bench's and show's --format (OPT_FORMAT). */
extern const char *const output_format_names[];

/*
 * {"n":..,"min":..,"median":..,"median_ci95":[lo,hi],...}: the figures of
 * a summary. median_ci95 is null when the samples are too few for a 95 %
 * CI (n < 6); median_ci_coverage is the real coverage of [median_lo,
 * median_hi] ([min, max] then). Undefined figures are null.
 */
json_t *summary_to_json(const struct summary *s);

/*
 * A median's CI for a table, values times scale: "[1.234, 1.567]", or
 * "[1.234, 1.567] 75%" with its real coverage when that is short of 95 %.
 */
void format_median_ci(char *buf, size_t len, const struct summary *s,
		      double scale, int decimals);

/*
 * A bound of an interval rounded outward to the decimals printed (lo
 * down, hi up), so that the printed interval holds the computed one and
 * is never a point when the computed one is not.
 */
double ci_bound_outward(double x, int decimals, bool up);

/* Whether a summary's median CI may be printed as a 95 % CI. */
bool median_ci_is_95(const struct summary *s);

/* The first cell of r named name, or NULL. */
const struct stored_cell *stored_run_cell(const struct stored_run *r,
					  const char *name);

/*
 * Writes the run as stored: its table (report/run-table.h) under the
 * header of how it was measured (report/run-header.h), CSV
 * (report/run-csv.h), TAP (report/run-tap.h) or JSON (report/run-json.h);
 * with_samples adds the raw samples to the JSON.
 * Returns 0, or -1 when the stream has failed so far (not flushed).
 */
int output_bench(FILE *f, enum output_format fmt, const struct stored_run *stored,
		 bool with_samples);

#endif
