// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/summary-figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/util.h"

double ci_bound_outward(double x, int decimals, bool up)
{
	double scale = pow(10, decimals);
	/* 21.66 * 100 is 2165.9999...: a hair of slack keeps it 21.66. */
	double scaled = x * scale, slack = 1e-9 * fmax(1, fabs(scaled));

	if (!isfinite(x))
		return x;
	return (up ? ceil(scaled - slack) : floor(scaled + slack)) / scale;
}

bool median_ci_is_95(const struct summary *s)
{
	return stats_ci_honours(s->median_ci_coverage, 0.95);
}

json_t *summary_to_json(const struct summary *s)
{
	json_t *o = json_pack("{s:I, s:o, s:o}", "n", (json_int_t)s->n,
			      "min", json_number(s->min),
			      "median", json_number(s->median));

	json_object_set_new(o, "median_ci95", median_ci_is_95(s) ?
			    json_pack("[o, o]", json_number(s->median_lo),
				      json_number(s->median_hi)) : json_null());
	json_object_set_new(o, "median_ci_coverage",
			    json_number(s->median_ci_coverage));
	json_object_set_new(o, "mean", json_number(s->mean));
	json_object_set_new(o, "stddev_pct", json_number(s->cv_pct));
	json_object_set_new(o, "robust_cv_pct", json_number(s->robust_cv_pct));
	json_object_set_new(o, "p99", json_number(s->p99));
	json_object_set_new(o, "max", json_number(s->max));
	json_object_set_new(o, "mad", json_number(s->mad));
	json_object_set_new(o, "outliers", json_integer((json_int_t)s->outliers));
	if (s->resolution > 0)
		json_object_set_new(o, "resolution", json_real(s->resolution));
	json_object_set_new(o, "bimodal", json_boolean(s->bimodal));
	return o;
}

/* The median's CI, times scale, with its coverage when short of 95 %. */
static void format_median_ci(char *buf, size_t len, const struct summary *s,
		      double scale, int decimals)
{
	char lo[32], hi[32], coverage[32];
	int w;

	figure_fixed(lo, sizeof(lo), s->median_lo * scale, decimals);
	figure_fixed(hi, sizeof(hi), s->median_hi * scale, decimals);
	w = snprintf(buf, len, "[%s, %s]", lo, hi);
	if (median_ci_is_95(s) || w < 0 || (size_t)w >= len)
		return;
	figure_fixed(coverage, sizeof(coverage), 100.0 * s->median_ci_coverage, 0);
	snprintf(buf + w, len - (size_t)w, " %s%%", coverage);
}

static const struct {
	const char *key, *title;
	enum table_kind kind;
} summary_columns[] = {
	{ "n", NULL, TABLE_INT },
	{ "min", NULL, TABLE_REAL },
	{ "median", NULL, TABLE_REAL },
	/* Text: a CI that is not 95 % says its coverage beside it. */
	{ "ci95", "[95% CI]", TABLE_TEXT },
	{ "mean", NULL, TABLE_REAL },
	{ "robust_cv_pct", "rCV", TABLE_REAL },
	{ "max", NULL, TABLE_REAL },
	{ "outliers", "outl", TABLE_INT },
};

void summary_table_columns(struct table *t)
{
	for (size_t k = 0; k < ARRAY_SIZE(summary_columns); k++)
		table_add_column(t, summary_columns[k].key, summary_columns[k].title,
				 summary_columns[k].kind, NULL);
}

void summary_table_add(struct table *t, const struct summary *s, double scale,
		       int decimals)
{
	char ci[64], cv[40];

	if (!s) {
		for (size_t k = 0; k < ARRAY_SIZE(summary_columns); k++)
			table_add_missing(t);
		return;
	}
	format_median_ci(ci, sizeof(ci), s, scale, decimals);
	figure_fixed(cv, sizeof(cv) - 1, s->robust_cv_pct, 1);
	if (isfinite(s->robust_cv_pct))
		strcat(cv, "%");
	table_add_int(t, (int64_t)s->n);
	table_add_real(t, s->min * scale, decimals);
	table_add_real(t, s->median * scale, decimals);
	table_add_text(t, ci);
	table_add_real(t, s->mean * scale, decimals);
	table_add_real_shown(t, s->robust_cv_pct, cv);
	table_add_real(t, s->max * scale, decimals);
	table_add_int(t, (int64_t)s->outliers);
}
