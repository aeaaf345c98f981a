/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Presenting a comparison (results/compare.h): compare's styles (a
 * benchstat-like table, mmtests, ratios, the time-namespace summary,
 * ministat) and its formats (table, JSON, CSV, Markdown), and the lines
 * naming what a --fail-on gate catches.
 */
#ifndef CLOCKBENCH_COMPARE_FORMAT_H
#define CLOCKBENCH_COMPARE_FORMAT_H

#include <stdio.h>

#include "basic/strbuf.h"
#include "basic/options.h"
#include "results/compare.h"

enum compare_style {
	STYLE_TABLE,	/* benchstat-like: value, change with CI, p, verdict */
	STYLE_MMTESTS,	/* seed 001: 2.27 ( 0.00%) 3.73 * -64.32%* */
	STYLE_RATIO,	/* seed 002: other / base in % */
	STYLE_SUMMARY,	/* seed 000: rows avg / diff % / stdev %, a column per group */
	STYLE_MINISTAT,	/* Student's t: "Difference at 95.0% confidence" */
	/*
	 * The changes alone, with why each verdict: under a table that shows
	 * each side's own figures already (exec), where a second value of a
	 * side (the paired estimate) would be a second figure for one run.
	 */
	STYLE_CHANGES,
};

/* The names of the styles in enum order, NULL-terminated. */
extern const char *const compare_style_names[];
int compare_style_by_name(const char *name);	/* -1 if unknown */
/* The formats a comparison prints in (table, json, csv, markdown). */
extern const char *const compare_format_names[];

/*
 * Name on f every cell the gate catches ("clock-gettime-monotonic vdso:
 * +4.60 % against host in timens (worse)"), then their count; returns the
 * count (0: nothing printed).
 */
size_t compare_print_gate(FILE *f, const struct compare_result *r,
			  enum compare_gate gate);

/*
 * Which cells the geomean row leaves out and why: "over 5 of 6 cells; left
 * out, not in every group: getrandom-vdso". Only when some are.
 */
void compare_geomean_note(const struct compare_result *r, struct strbuf *out);

/* Write the comparison in one of compare_format_names: 0, or -1 when the stream fails. */
int compare_print(FILE *f, const struct compare_result *r,
		  enum compare_style style, enum output_format format);

#endif
