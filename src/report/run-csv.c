// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-csv.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "basic/figure.h"
#include "basic/stats.h"
#include "basic/text.h"
#include "report/summary-figures.h"
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
		fprintf(f, "%.2f,%.2f,%.2f,", core.median, core.median_lo,
			core.median_hi);
	} else {
		fputs(",,,", f);
	}
	/* The table's flag: the batches' ns per call fall into two modes. */
	fputs(s.bimodal ? "true\n" : "false\n", f);
}

void run_csv_print(FILE *f, const struct stored_run *r)
{
	fputs("name,api,clock,path,status,reason,n,batch_calls,ns_median,"
	      "ns_ci95_lo,ns_ci95_hi,ns_min,ns_mean,ns_round_robust_cv_pct,ns_p99,"
	      "cycles_median,cycles_unit,core_cycles_median,core_cycles_ci95_lo,"
	      "core_cycles_ci95_hi,bimodal\n", f);
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
			fputs(",,,,,,,,,,,,,,,\n", f);
	}
}

/* ---- every sample (export --format csv) ----------------------------- */

/*
 * RFC 4180, and no raw control character to reach a terminal: the one
 * CSV field writer (basic/text.h).
 */
static void csv_field(FILE *f, const char *s)
{
	text_put_csv(f, s);
}

/* The shortest text that reads back as exactly x; empty when not finite. */
static void csv_number(FILE *f, double x)
{
	char buf[32];

	figure_shortest(buf, sizeof(buf), x);
	fputs(buf, f);
}

void run_samples_csv_print(FILE *f, const struct stored_run *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		for (size_t k = 0; c->values && k < c->n; k++) {
			csv_field(f, r->uuid);
			fprintf(f, ",%lld,", (long long)r->id);
			csv_field(f, r->label);
			fputc(',', f);
			csv_field(f, c->name);
			fputc(',', f);
			csv_field(f, c->path);
			fputc(',', f);
			csv_field(f, c->unit);
			fprintf(f, ",%zu,", k);
			csv_number(f, c->values[k]);
			fputc(',', f);
			if (c->cycles)
				csv_number(f, c->cycles[k]);
			fputc(',', f);
			if (c->rounds)
				fprintf(f, "%" PRIu32, c->rounds[k]);
			fputc(',', f);
			if (c->core_cycles)
				csv_number(f, c->core_cycles[k]);
			fputc('\n', f);
		}
	}
}

void run_samples_csv_header(FILE *f)
{
	fputs("run_uuid,run_id,label,cell,path,unit,index,value,cycles,round,"
	      "core_cycles\n", f);
}
