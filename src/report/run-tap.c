// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-tap.h"

#include "basic/stats.h"
#include "basic/text.h"
#include "report/output.h"
#include "results/resolution.h"

/* "NAME PATH", escaped: a stored text never breaks the stream's lines. */
static void put_name(FILE *f, const struct stored_cell *c)
{
	text_put(f, c->name, TEXT_CELL_MAX);
	fputc(' ', f);
	text_put(f, c->path, TEXT_CELL_MAX);
}

static void put_median(FILE *f, const struct stored_run *r,
		       const struct stored_cell *c, const double *x,
		       const char *unit)
{
	struct summary s;

	if (!x)
		return;
	stored_cell_summarize(r, c, x, &s);
	fprintf(f, " %.1f ", s.median);
	text_put(f, unit, TEXT_CELL_MAX);
	fputs("/call", f);
}

static void put_point(FILE *f, const struct stored_run *r,
		      const struct stored_cell *c)
{
	struct summary s;

	stored_cell_summarize(r, c, c->values, &s);
	fprintf(f, ": %.2f ns/call (", s.median);
	if (median_ci_is_95(&s))
		fprintf(f, "95%% CI %.2f-%.2f, ", s.median_lo, s.median_hi);
	fprintf(f, "n %zu)", s.n);
	put_median(f, r, c, c->cycles, c->cycles_unit ? c->cycles_unit : "");
	put_median(f, r, c, c->core_cycles, "core cycles");
	fputc('\n', f);
}

void run_tap_print(FILE *f, const struct stored_run *r)
{
	size_t pass = 0, skip = 0;

	fputs("TAP version 13\n", f);
	fprintf(f, "1..%zu\n", r->ncells);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		fprintf(f, "ok %zu ", i + 1);
		put_name(f, c);
		if (c->values && c->n > 0) {
			put_point(f, r, c);
			pass++;
			continue;
		}
		fputs(" # SKIP ", f);
		text_put(f, c->reason && *c->reason ? c->reason : c->status,
			 TEXT_LINE_MAX);
		fputc('\n', f);
		skip++;
	}
	fprintf(f, "# Totals: pass:%zu fail:0 xfail:0 xpass:0 skip:%zu error:0\n",
		pass, skip);
}
