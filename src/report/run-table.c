// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-table.h"

#include <math.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "report/summary-figures.h"
#include "report/textplot.h"
#include "results/compare.h"
#include "results/resolution.h"

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

/* The median of one of c's metrics (cycles, core cycles); missing without it. */
static void add_metric_median(struct table *t, const struct stored_run *r,
			      const struct stored_cell *c, const double *x)
{
	struct summary s;

	if (!x) {
		table_add_missing(t);
		return;
	}
	stored_cell_summarize(r, c, x, &s);
	table_add_real(t, s.median, 1);
}

static void add_figures(struct table *t, const struct stored_run *r,
			const struct stored_cell *c)
{
	struct summary s;
	bool ci;

	stored_cell_summarize(r, c, c->values, &s);
	ci = median_ci_is_95(&s);
	table_add_real(t, s.median, 2);
	table_add_real(t, ci ? ci_bound_outward(s.median_lo, 2, false) : NAN, 2);
	table_add_real(t, ci ? ci_bound_outward(s.median_hi, 2, true) : NAN, 2);
	table_add_real(t, s.min, 2);
	table_add_real(t, s.mean, 2);
	table_add_real(t, compare_cell_robust_cv_pct(c), 2);
	table_add_real(t, s.p99, 2);
	add_metric_median(t, r, c, c->cycles);
	add_metric_median(t, r, c, c->core_cycles);
	table_add_int(t, (int64_t)s.n);
	table_add_text(t, s.bimodal ? "bimodal" : "");
}

/* Why a cell has no figures, across them: "n/a: the kernel vDSO has no times()". */
static void add_status(struct table *t, const struct stored_cell *c)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	strbuf_adds(&why, *c->status ? c->status : "not measured");
	if (c->reason && *c->reason)
		strbuf_addf(&why, ": %s", c->reason);
	table_add_span(t, why.buf);
}

/* c's histogram, a line under its row each. */
static void add_histogram(struct table *t, const struct stored_cell *c)
{
	char *buf = NULL, *line, *next;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		fatal("out of memory");
	textplot_histogram(mem, c->values, c->n, "    ");
	if (fclose(mem) != 0)
		fatal("out of memory");
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		table_add_detail(t, "%s", line);
	}
	free(buf);
}

static struct table *new_table(const char *per_call)
{
	static const char *const figures[][2] = {
		{ "ci95_lo", "ci95-lo" }, { "ci95_hi", "ci95-hi" }, { "min", NULL },
		{ "mean", NULL }, { "robust_cv_pct", "rCV%" }, { "p99", NULL },
		{ "cycles", NULL }, { "core", NULL },
	};
	struct table *t = table_new();

	table_add_text_columns(t, "name", "path", NULL);
	if (!per_call)
		table_add_column(t, "unit", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "median", figure_title(per_call), TABLE_REAL, NULL);
	for (size_t k = 0; k < ARRAY_SIZE(figures); k++)
		table_add_column(t, figures[k][0], figures[k][1], TABLE_REAL, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	/* "bimodal" where it is, else nothing. */
	table_add_column(t, "bimodal", "", TABLE_TEXT, NULL);
	return t;
}

void run_table_print(FILE *f, const struct stored_run *r,
		     const struct run_table_options *opts)
{
	const char *per_call = per_call_unit(r);
	bool histogram = opts && opts->histogram;
	struct table *t = new_table(per_call);

	print_legend(f, r, per_call);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		table_add_text(t, c->name);
		table_add_text(t, c->path);
		if (!measured(c)) {
			add_status(t, c);
			continue;
		}
		if (!per_call)
			table_add_text(t, c->unit);
		add_figures(t, r, c);
		if (histogram)
			add_histogram(t, c);
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}
