// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/exec-table.h"

#include <math.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/stats.h"
#include "basic/text.h"
#include "basic/util.h"
#include "report/output.h"
#include "report/summary-figures.h"
#include "results/resolution.h"

/* The least width of the label column: "time (ms)". */
#define LABEL_WIDTH 9
/* The parameter's value column. */
#define VALUE_WIDTH 12

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

static void print_heading(FILE *f, const char *head, size_t width,
			  const char *param)
{
	fprintf(f, "%-*s", (int)width, head);
	if (param) {
		fputc(' ', f);
		text_put_cell(f, param, TEXT_CELL_MAX, VALUE_WIDTH, TEXT_LEFT);
	}
	fprintf(f, " %6s %10s %10s  %-26s %10s %8s %10s %5s\n", "n", "min",
		"median", "[95% CI]", "mean", "rCV", "max", "outl");
}

/* label, then the statistics of cell name of r, times scale. */
static void print_row(FILE *f, const char *label, size_t width,
		      const struct stored_run *r, const char *name, double scale)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;
	char ci[64];

	text_put_cell(f, label, TEXT_CELL_MAX, width, TEXT_LEFT);
	if (!c) {
		fputs(" -\n", f);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	format_median_ci(ci, sizeof(ci), &s, scale, 3);
	fprintf(f, " %6zu %10.3f %10.3f  %-26s %10.3f %7.1f%% %10.3f %5zu\n",
		s.n, s.min * scale, s.median * scale, ci, s.mean * scale,
		s.robust_cv_pct, s.max * scale, s.outliers);
}

void exec_table_print_command(FILE *f, const struct stored_run *r,
			      const char *unit, double scale)
{
	static const char *const rows[] = { "wall", "user", "sys" };
	char head[32];

	snprintf(head, sizeof(head), "time (%s)", unit);
	print_heading(f, head, LABEL_WIDTH, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		print_row(f, rows[i], LABEL_WIDTH, r, rows[i], scale);
}

void exec_table_print_commands(FILE *f, const struct stored_run *runs, size_t n,
			       const char *const *labels, const char *param,
			       const char *const *values, const char *unit,
			       double scale)
{
	size_t width = LABEL_WIDTH;
	char head[96];

	for (size_t i = 0; i < n; i++) {
		size_t w = text_width(labels[i], TEXT_CELL_MAX);

		width = w > width ? w : width;
	}
	snprintf(head, sizeof(head), "wall (%s)", unit);
	print_heading(f, head, width, param);
	for (size_t i = 0; i < n; i++) {
		if (param) {
			text_put_cell(f, labels[i], TEXT_CELL_MAX, width, TEXT_LEFT);
			fputc(' ', f);
			print_row(f, values[i], VALUE_WIDTH, &runs[i], "wall", scale);
		} else {
			print_row(f, labels[i], width, &runs[i], "wall", scale);
		}
	}
}
