// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/timens-json.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "config.h"
#include "report/compare-format.h"

static const struct compare_row *find_row(const struct compare_result *cr,
					  const struct cell *c)
{
	for (size_t i = 0; i < cr->nrows; i++)
		if (streq(cr->rows[i].name, c->name) &&
		    streq(cr->rows[i].path, catalog_paths[c->path]))
			return &cr->rows[i];
	return NULL;
}

static json_t *round_medians_json(const struct cell_result *r)
{
	double *m = timing_round_medians(r);
	json_t *a = json_numbers(m, r->nrounds);

	free(m);
	return a;
}

/* [lo, hi], or null when the interval does not reach 95 % (or is none). */
static json_t *ci95_json(double lo, double hi, double coverage)
{
	if (!stats_ci_honours(coverage, 0.95))
		return json_null();
	return json_pack("[o, o]", json_number(lo), json_number(hi));
}

/* The figure in ns beside the metric's: the median ns when judged in core cycles. */
static double side_ns(const struct compare_side *s, bool core)
{
	return core ? s->ns_median : s->sum.median;
}

/*
 * A side's centre is the figure diff_pct is the ratio of (compare's:
 * the namespace's is the host's median times the paired Hodges-Lehmann
 * ratio), in the metric's unit; its own median of the round medians is
 * beside it, with the interval of that median.
 */
static json_t *side_json(const struct compare_side *s, const struct cell_result *r,
			 bool core)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o}",
			 "center", json_number(s->center),
			 "center_ci95", ci95_json(s->center_lo, s->center_hi,
						  s->center_coverage),
			 "median", json_number(s->sum.median),
			 "median_ci95", ci95_json(s->sum.median_lo, s->sum.median_hi,
						  s->sum.median_ci_coverage),
			 "median_ci_coverage", json_number(s->sum.median_ci_coverage),
			 "median_ns", json_number(side_ns(s, core)),
			 "round_robust_cv_pct", json_number(s->sum.robust_cv_pct),
			 "batches", (json_int_t)r->n, "repetitions", (json_int_t)r->nrounds,
			 "round_medians_ns", round_medians_json(r));
}

/* 100 * (b / a - 1) of two figures printed, or NaN. */
static double ratio_pct(double a, double b)
{
	return a > 0 && isfinite(b) ? 100.0 * (b / a - 1.0) : NAN;
}

static json_t *cell_json(const struct compare_row *row, const struct cell *c,
			 const struct timens_report *b, size_t i, bool core)
{
	const struct compare_diff *d = &row->diffs[1];

	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:[o, o], s:o, s:o, s:o, s:o, s:b,"
			 " s:s, s:o}",
			 "name", c->name, "path", catalog_paths[c->path],
			 "host", side_json(&row->sides[0], &b->side[TR_HOST].res[i], core),
			 "timens", side_json(&row->sides[1], &b->side[TR_TIMENS].res[i],
					     core),
			 "diff_pct", json_number(d->change_pct),
			 "diff_ci95_pct", json_number(d->change_lo_pct), json_number(d->change_hi_pct),
			 "p", json_number(d->p), "p_adjusted", json_number(d->p_adjusted),
			 "floor_pct", json_number(d->floor_pct), "mde_pct", json_number(d->mde_pct),
			 "significant", d->significant, "verdict", d->verdict,
			 "ns_diff_pct", json_number(ratio_pct(side_ns(&row->sides[0], core),
							      side_ns(&row->sides[1], core))));
}

int timens_json_print(FILE *f, const struct timens_report *b,
		      const struct compare_result *cr, const struct stored_run *runs,
		      const struct env_info *env)
{
	_cleanup_strbuf_ struct strbuf centre = STRBUF_INIT;
	json_t *cells = json_array(), *j;
	int rc;

	for (size_t i = 0; i < b->ncells; i++) {
		const struct compare_row *row = find_row(cr, &b->cells[i]);

		if (row && row->diffs[1].valid)
			json_array_append_new(cells, cell_json(row, &b->cells[i], b, i,
							       cr->metric == METRIC_CORE_CYCLES));
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:i, s:i, s:o, s:b,"
		      " s:{s:I, s:I}, s:{s:f, s:f}, s:o, s:o}",
		      "tool", "clockbench " CLOCKBENCH_VERSION, "command", "timens",
		      "started", runs[0].started, "status", runs[0].status,
		      "elapsed_s", runs[0].elapsed_s, "nested", env->in_time_namespace,
		      "repetitions", (int)b->done, "cpu", b->cpu,
		      "offsets", timens_offsets_to_json(b->off),
		      "significance_from_compare", true,
		      "runs", "host", (json_int_t)runs[TR_HOST].id,
		      "timens", (json_int_t)runs[TR_TIMENS].id,
		      "boundary_ns", "host", b->side[TR_HOST].boundary_ns,
		      "timens", b->side[TR_TIMENS].boundary_ns,
		      "environment", env_to_json(env), "cells", cells);
	json_object_set_new(j, "metric", json_string(compare_metric_name(cr->metric)));
	json_object_set_new(j, "unit", json_string(cr->unit));
	compare_centres_phrase(cr, &centre);
	json_object_set_new(j, "center", json_string(centre.buf));
	json_object_set_new(j, "labels", json_pack("{s:s, s:s}",
			    "host", runs[TR_HOST].label, "timens", runs[TR_TIMENS].label));
	json_object_set_new(j, "quality", json_pack("{s:O, s:O}",
			    "host", runs[TR_HOST].quality, "timens", runs[TR_TIMENS].quality));
	rc = json_print(f, j);
	json_decref(j);
	return rc;
}

