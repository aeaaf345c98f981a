// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-json.h"

#include <math.h>
#include <string.h>

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "config.h"
#include "report/summary-figures.h"
#include "results/compare.h"
#include "results/resolution.h"

/* Statistics of x, one of c's metrics, at the resolution r recorded. */
static json_t *summary_of(const struct stored_run *r, const struct stored_cell *c,
			  const double *x)
{
	struct summary s;

	stored_cell_summarize(r, c, x, &s);
	return summary_to_json(&s);
}

static json_t *round_medians_json(const struct stored_cell *c, const double *x)
{
	_cleanup_free_ double *m = xmalloc((c->nrounds ? c->nrounds : 1) * sizeof(double));
	size_t n = compare_round_medians(c, x, m);

	return json_numbers(m, n);
}

/* Each round's core speed: its median core cycles over its median ns. */
static json_t *round_ghz_json(const struct stored_cell *c)
{
	size_t cap = c->nrounds ? c->nrounds : 1;
	_cleanup_free_ double *core = xmalloc(cap * sizeof(double));
	_cleanup_free_ double *ns = xmalloc(cap * sizeof(double));
	size_t n = compare_round_medians(c, c->core_cycles, core);
	json_t *a = json_array();

	compare_round_medians(c, c->values, ns);
	for (size_t k = 0; k < n; k++)
		json_array_append_new(a, json_number(core[k] / ns[k]));
	return a;
}

static void add_statistics(json_t *cj, const struct stored_run *r,
			   const struct stored_cell *c)
{
	bool rounds = c->rounds && c->nrounds >= 1;

	json_object_set_new(cj, "summary", summary_of(r, c, c->values));
	json_object_set_new(cj, "round_robust_cv_pct",
			    json_number(compare_cell_robust_cv_pct(c)));
	if (rounds)
		json_object_set_new(cj, "round_medians", round_medians_json(c, c->values));
	if (c->cycles) {
		json_t *cy = summary_of(r, c, c->cycles);

		json_object_set_new(cy, "unit", json_string(c->cycles_unit));
		json_object_set_new(cj, "cycles", cy);
	}
	if (c->core_cycles) {
		json_object_set_new(cj, "core_cycles", summary_of(r, c, c->core_cycles));
		if (rounds && streq(c->unit, "ns")) {
			json_object_set_new(cj, "round_medians_core_cycles",
					    round_medians_json(c, c->core_cycles));
			json_object_set_new(cj, "round_ghz", round_ghz_json(c));
		}
	}
}

json_t *runs_json_new(void)
{
	return json_pack("{s:i, s:s, s:[]}", "clockbench_export", STORE_EXPORT_VERSION,
			 "tool", "clockbench " CLOCKBENCH_VERSION, "runs");
}

void runs_json_add(json_t *doc, const struct stored_run *r, bool samples)
{
	json_array_append_new(json_object_get(doc, "runs"), run_to_json(r, samples));
}

json_t *run_to_json(const struct stored_run *r, bool samples)
{
	static const char *const sample_keys[] = {
		"samples", "samples_cycles", "samples_core_cycles", "samples_round",
		"reference",
	};
	json_t *o = stored_run_to_json(r);
	json_t *cells = json_object_get(o, "cells");

	json_object_set_new(o, "tool", json_string("clockbench " CLOCKBENCH_VERSION));
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		json_t *cj = json_array_get(cells, i);

		for (size_t k = 0; !samples && k < ARRAY_SIZE(sample_keys); k++)
			json_object_del(cj, sample_keys[k]);
		json_object_set_new(cj, "n", json_integer((json_int_t)c->n));
		json_object_set_new(cj, "rounds", json_integer(c->nrounds));
		if (c->values && c->n > 0)
			add_statistics(cj, r, c);
	}
	return o;
}
