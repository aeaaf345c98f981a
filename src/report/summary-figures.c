// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/summary-figures.h"

#include <math.h>
#include <stdio.h>

#include "basic/json.h"

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

void format_median_ci(char *buf, size_t len, const struct summary *s,
		      double scale, int decimals)
{
	int w = snprintf(buf, len, "[%.*f, %.*f]", decimals, s->median_lo * scale,
			 decimals, s->median_hi * scale);

	if (!median_ci_is_95(s) && w >= 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, " %.0f%%",
			 100.0 * s->median_ci_coverage);
}
