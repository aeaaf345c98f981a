// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-tap.h"

#include "basic/stats.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "report/summary-figures.h"
#include "report/tap-write.h"
#include "results/resolution.h"

/* "NAME PATH", escaped: a stored text never breaks the stream's lines. */
static void add_name(struct strbuf *sb, const struct stored_cell *c)
{
	strbuf_add_text(sb, c->name, TEXT_CELL_MAX);
	strbuf_addch(sb, ' ');
	strbuf_add_text(sb, c->path, TEXT_CELL_MAX);
}

static void add_median(struct strbuf *sb, const struct stored_run *r,
		       const struct stored_cell *c, const double *x,
		       const char *unit)
{
	struct summary s;

	if (!x)
		return;
	stored_cell_summarize(r, c, x, &s);
	strbuf_addf(sb, " %.1f ", s.median);
	strbuf_add_text(sb, unit, TEXT_CELL_MAX);
	strbuf_adds(sb, "/call");
}

/*
 * "20.42 ns/call (95% CI 20.40-20.42, n 7676) 53.0 TSC ticks/call ...";
 * true when the cell's ns are bimodal.
 */
static bool add_figures(struct strbuf *sb, const struct stored_run *r,
			const struct stored_cell *c)
{
	struct summary s;

	stored_cell_summarize(r, c, c->values, &s);
	strbuf_addf(sb, "%.2f ns/call (", s.median);
	if (median_ci_is_95(&s))
		strbuf_addf(sb, "95%% CI %.2f-%.2f, ", s.median_lo, s.median_hi);
	strbuf_addf(sb, "n %zu)", s.n);
	add_median(sb, r, c, c->cycles, c->cycles_unit ? c->cycles_unit : "");
	add_median(sb, r, c, c->core_cycles, "core cycles");
	return s.bimodal;
}

/* The table's flag, as a diagnostic after the cell's line. */
static void put_bimodal(FILE *f, const char *name)
{
	fprintf(f, "# %s: bimodal: the batches fall into two modes, the median "
		"is the one of whichever holds more\n", name);
}

void run_tap_print(FILE *f, const struct stored_run *r)
{
	struct tap_totals t = { 0 };

	tap_write_plan(f, r->ncells);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		_cleanup_strbuf_ struct strbuf name = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
		bool measured = c->values && c->n > 0, bimodal = false;

		add_name(&name, c);
		if (measured)
			bimodal = add_figures(&msg, r, c);
		else
			strbuf_add_text(&msg, c->reason && *c->reason ? c->reason :
					c->status, TEXT_LINE_MAX);
		tap_write_point(f, i + 1, name.buf, measured ? TAP_PASS : TAP_SKIP,
				msg.buf);
		if (bimodal)
			put_bimodal(f, name.buf);
		if (measured)
			t.pass++;
		else
			t.skip++;
	}
	tap_write_totals(f, &t);
}
