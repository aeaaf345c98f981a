// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/exec-table.h"

#include <math.h>

#include "basic/figure.h"
#include "basic/stats.h"
#include "basic/table.h"
#include "basic/util.h"
#include "report/output.h"
#include "report/summary-figures.h"
#include "results/resolution.h"

const char *exec_table_unit(double median_s, double *scale)
{
	return figure_seconds_unit(median_s, scale);
}

double exec_table_wall_median(const struct stored_run *r)
{
	const struct stored_cell *c = stored_run_cell(r, "wall");
	struct summary s;

	if (!c || !c->n)
		return NAN;
	stored_cell_summarize(r, c, c->values, &s);
	return s.median;
}

/*
 * A table whose rows are labelled under head (with the time's unit), then
 * the parameter's value under its name when a parameter list made the
 * commands (param NULL: none), then a summary's figures.
 */
static struct table *new_table(const char *head, const char *unit, const char *param)
{
	struct table *t = table_new();

	table_add_column(t, "label", head, TABLE_TEXT, unit);
	if (param)
		table_add_column(t, "value", param, TABLE_TEXT, NULL);
	summary_table_columns(t);
	return t;
}

/* The figures of cell name of r, times scale; none when r has no such cell. */
static void add_figures(struct table *t, const struct stored_run *r,
			const char *name, double scale)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;

	if (!c) {
		summary_table_add(t, NULL, scale, 3);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	summary_table_add(t, &s, scale, 3);
}

static void print_table(FILE *f, struct table *t)
{
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

void exec_table_print_command(FILE *f, const struct stored_run *r,
			      const char *unit, double scale)
{
	static const char *const rows[] = { "wall", "user", "sys" };
	struct table *t = new_table("time", unit, NULL);

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		table_add_text(t, rows[i]);
		add_figures(t, r, rows[i], scale);
	}
	print_table(f, t);
}

void exec_table_print_commands(FILE *f, const struct stored_run *runs, size_t n,
			       const char *const *labels, const char *param,
			       const char *const *values, const char *unit,
			       double scale)
{
	struct table *t = new_table("wall", unit, param);

	for (size_t i = 0; i < n; i++) {
		table_add_text(t, labels[i]);
		if (param)
			table_add_text(t, values[i]);
		add_figures(t, &runs[i], "wall", scale);
	}
	print_table(f, t);
}
