// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-table.h"

#include <math.h>

#include "basic/stats.h"
#include "basic/text.h"
#include "basic/util.h"
#include "report/summary-figures.h"
#include "report/textplot.h"
#include "results/compare.h"
#include "results/resolution.h"

/* The widths of bench's columns, which a longer name or path widens. */
#define NAME_WIDTH 32
#define PATH_WIDTH 7

static bool measured(const struct stored_cell *c)
{
	return c->values && c->n > 0;
}

/*
 * The figure of every measured cell per call: "ns" (bench's kind of run),
 * "instructions" (one counted under kernels --exact), or NULL when the
 * cells are in another unit (scale's, exec's seconds).
 */
static const char *per_call_unit(const struct stored_run *r)
{
	const char *unit = NULL;

	for (size_t i = 0; i < r->ncells; i++) {
		const char *u = r->cells[i].unit;

		if (!measured(&r->cells[i]))
			continue;
		if (!(streq(u, "ns") || streq(u, "instructions")) || (unit && !streq(u, unit)))
			return NULL;
		unit = u;
	}
	return unit ? unit : "ns";
}

/* The first column's title: "ns/call", "instr/call" or "median". */
static const char *figure_title(const char *per_call)
{
	return !per_call ? "median" : streq(per_call, "ns") ? "ns/call" : "instr/call";
}

static size_t column_width(const struct stored_run *r, bool path, size_t least)
{
	size_t w = least;

	for (size_t i = 0; i < r->ncells; i++) {
		size_t len = text_width(path ? r->cells[i].path : r->cells[i].name,
					TEXT_CELL_MAX);

		if (len > w)
			w = len;
	}
	return w;
}

/* The unit of the first cell with cycles ("TSC ticks", "cycles"), or "". */
static const char *cycles_unit(const struct stored_run *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (measured(&r->cells[i]) && r->cells[i].cycles &&
		    r->cells[i].cycles_unit)
			return r->cells[i].cycles_unit;
	return "";
}

/* The coarsest per-call resolution of the run's cells, in ns. */
static double max_ns_resolution(const struct stored_run *r)
{
	double most = 0;

	for (size_t i = 0; i < r->ncells; i++)
		if (measured(&r->cells[i]))
			most = fmax(most, stored_cell_resolution(r, &r->cells[i],
								 r->cells[i].values));
	return most;
}

static void print_legend(FILE *f, const struct stored_run *r, const char *per_call)
{
	const char *unit = cycles_unit(r);
	bool counts = per_call && streq(per_call, "instructions");
	double step = per_call && !counts ? max_ns_resolution(r) : 0;

	if (counts)
		fputs("# instr/call: guest instructions retired per call, counted under "
		      "qemu's icount (kernels --exact), not a time; the harness's loop "
		      "is in each figure (its empty call's count is above)\n", f);
	fprintf(f, "# %s: median over n %s, 95%% CI of the median ('-' "
		"when too few for 95%%); rCV%%: robust CV of the round medians, 100 "
		"* 1.4826 MAD / median (of the %s with one round), the spread "
		"compare judges by; %s", per_call ? figure_title(per_call) :
		"median, in the cell's unit", per_call ? "batches" : "samples",
		per_call ? "batches" : "samples",
		per_call && !counts ? "p99 includes preempted batches; " : "");
	if (*unit) {
		fputs("cycles: median ", f);
		text_put(f, unit, TEXT_CELL_MAX);
		fputs(" per call; ", f);
	}
	fputs(counts ? "no cycles or core cycles: a count has no speed\n" :
	      "core: median core cycles per call\n", f);
	if (step > 0)
		fprintf(f, "# the CI is widened by one counter step per batch (%.4f "
			"ns/call at most here), the least the counter tells apart; "
			"'bimodal': the batches fall into two modes, the median is the "
			"one of whichever holds more\n", step);
}

/* The median of one of c's metrics (cycles, core cycles), or "-". */
static void print_metric_median(FILE *f, const struct stored_run *r,
				const struct stored_cell *c, const double *x)
{
	struct summary s;

	if (!x) {
		fprintf(f, " %9s", "-");
		return;
	}
	stored_cell_summarize(r, c, x, &s);
	fprintf(f, " %9.1f", s.median);
}

static void print_figures(FILE *f, const struct stored_run *r,
			  const struct stored_cell *c)
{
	struct summary s;

	stored_cell_summarize(r, c, c->values, &s);
	fprintf(f, "%9.2f  ", s.median);
	if (median_ci_is_95(&s))
		fprintf(f, "%9.2f %9.2f", ci_bound_outward(s.median_lo, 2, false),
			ci_bound_outward(s.median_hi, 2, true));
	else
		fprintf(f, "%9s %9s", "-", "-");
	fprintf(f, " %9.2f %9.2f %6.2f %9.2f", s.min, s.mean,
		compare_cell_robust_cv_pct(c), s.p99);
	print_metric_median(f, r, c, c->cycles);
	print_metric_median(f, r, c, c->core_cycles);
	fprintf(f, " %7zu%s\n", s.n, s.bimodal ? "  bimodal" : "");
}

/* Why a cell has no figures: "n/a: the kernel vDSO has no times()". */
static void print_status(FILE *f, const struct stored_cell *c)
{
	text_put(f, *c->status ? c->status : "not measured", TEXT_CELL_MAX);
	if (c->reason && *c->reason) {
		fputs(": ", f);
		text_put(f, c->reason, TEXT_LINE_MAX);
	}
	fputc('\n', f);
}

void run_table_print(FILE *f, const struct stored_run *r,
		     const struct run_table_options *opts)
{
	const char *per_call = per_call_unit(r);
	bool histogram = opts && opts->histogram;
	size_t nw = column_width(r, false, NAME_WIDTH);
	size_t pw = column_width(r, true, PATH_WIDTH);

	print_legend(f, r, per_call);
	fprintf(f, "%-*s %-*s ", (int)nw, "name", (int)pw, "path");
	if (!per_call)
		fprintf(f, "%-4s ", "unit");
	fprintf(f, "%9s  %9s %9s %9s %9s %6s %9s %9s %9s %7s\n",
		figure_title(per_call), "ci95-lo", "ci95-hi", "min",
		"mean", "rCV%", "p99", "cycles", "core", "n");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		text_put_cell(f, c->name, TEXT_CELL_MAX, nw, TEXT_LEFT);
		fputc(' ', f);
		text_put_cell(f, c->path, TEXT_CELL_MAX, pw, TEXT_LEFT);
		fputc(' ', f);
		if (!measured(c)) {
			print_status(f, c);
			continue;
		}
		if (!per_call) {
			text_put_cell(f, c->unit, TEXT_CELL_MAX, 4, TEXT_LEFT);
			fputc(' ', f);
		}
		print_figures(f, r, c);
		if (histogram)
			textplot_histogram(f, c->values, c->n, "    ");
	}
}
