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

#include "basic/options.h"

#include "results/store.h"

/*
 * stdout flushed and its error flag read: 0, or -1 with "write error on
 * standard output: No space left on device" printed (once: the flag is
 * cleared). main runs it after every command; a process that ends with
 * _exit() (a guarded measurement's child) runs it itself.
 */
int output_flush_stdout(void);

/* bench's and show's --format (OPT_FORMAT). */
extern const char *const output_format_names[];

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
