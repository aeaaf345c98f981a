// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-csv.h"

#include <inttypes.h>

#include "basic/stats.h"
#include "basic/text.h"
#include "report/output.h"
#include "results/compare.h"
#include "results/resolution.h"

/* The text fields of a row, each escaped (basic/text.h), then a comma. */
static void put_fields(FILE *f, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		text_put_csv(f, fields[i]);
		fputc(',', f);
	}
}

static void put_figures(FILE *f, const struct stored_run *r,
			const struct stored_cell *c)
{
	struct summary s, core;

	stored_cell_summarize(r, c, c->values, &s);
	fprintf(f, ",%zu,%" PRIu64 ",%.3f,", s.n, c->batch_calls, s.median);
	if (median_ci_is_95(&s))
		fprintf(f, "%.3f,%.3f,", s.median_lo, s.median_hi);
	else
		fputs(",,", f);
	fprintf(f, "%.3f,%.3f,%.2f,%.3f,", s.min, s.mean,
		compare_cell_robust_cv_pct(c), s.p99);
	if (c->cycles) {
		struct summary cy;

		stored_cell_summarize(r, c, c->cycles, &cy);
		fprintf(f, "%.2f,", cy.median);
		text_put_csv(f, c->cycles_unit ? c->cycles_unit : "");
		fputc(',', f);
	} else {
		fputs(",,", f);
	}
	if (c->core_cycles) {
		stored_cell_summarize(r, c, c->core_cycles, &core);
		fprintf(f, "%.2f,%.2f,%.2f\n", core.median, core.median_lo,
			core.median_hi);
	} else {
		fputs(",,\n", f);
	}
}

void run_csv_print(FILE *f, const struct stored_run *r)
{
	fputs("name,api,clock,path,status,reason,n,batch_calls,ns_median,"
	      "ns_ci95_lo,ns_ci95_hi,ns_min,ns_mean,ns_round_robust_cv_pct,ns_p99,"
	      "cycles_median,cycles_unit,core_cycles_median,core_cycles_ci95_lo,"
	      "core_cycles_ci95_hi\n", f);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		bool measured = c->values && c->n > 0;
		const char *fields[] = {
			c->name, c->api, c->clock, c->path,
			measured ? "ok" : c->status,
		};

		put_fields(f, fields, sizeof(fields) / sizeof(*fields));
		text_put_csv(f, measured ? "" : c->reason);
		if (measured)
			put_figures(f, r, c);
		else
			fputs(",,,,,,,,,,,,,,\n", f);
	}
}
