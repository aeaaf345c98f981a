/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output formats of a bench run: an aligned table for people, JSON and CSV
 * for programs, TAP for kselftest-style harnesses.
 */
#ifndef CLOCKBENCH_OUTPUT_H
#define CLOCKBENCH_OUTPUT_H

#include <stdio.h>
#include <jansson.h>

#include "results/run.h"
#include "basic/stats.h"

enum output_format {
	FORMAT_TABLE,
	FORMAT_JSON,
	FORMAT_CSV,
	FORMAT_TAP,
};

/* -1 when name is not a known format. */
int output_format_by_name(const char *name);
extern const char *const output_format_names[];

/* {"n":..,"min":..,"median":..,"ci":[lo,hi],...}: the figures of a summary. */
json_t *summary_to_json(const struct summary *s);

/* How core cycles were measured: source, reference, time base, boundaries. */
json_t *core_cycles_to_json(const struct timing_calibration *cal,
			    const struct timing_config *cfg);

/* The whole run as JSON; with_samples adds every batch's per-call figures. */
json_t *bench_run_to_json(const struct bench_run *run, bool with_samples);

/* Writes the run; returns 0, or -1 when the stream fails. */
int output_bench(FILE *f, const struct bench_run *run, enum output_format fmt,
		 bool with_samples);

#endif
