// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/output.h"
#include "report/run-json.h"
#include "report/run-csv.h"
#include "report/run-header.h"
#include "report/run-table.h"
#include "report/run-tap.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "basic/util.h"

const char *const output_format_names[] = { "table", "json", "csv", "tap", NULL };

/* The errnos a failed write leaves: any other is no account of stdout's. */
static bool write_errno(int e)
{
	return e == ENOSPC || e == EIO || e == EDQUOT || e == EFBIG || e == EPIPE;
}

int output_flush_stdout(void)
{
	int earlier = write_errno(errno) ? errno : 0, why = 0;
	bool failed;

	errno = 0;
	if (fflush(stdout) != 0)
		why = errno;
	/*
	 * stdio drops a buffer whose write failed and keeps only the flag:
	 * the reason is then the errno that failed write left, if nothing has
	 * changed it since (a write's errno, never a stale ENOENT or EBADF).
	 */
	failed = why || ferror(stdout);
	if (!why && failed)
		why = earlier;
	if (!failed)
		return 0;
	if (why)
		error_msg("write error on standard output: %s", strerror(why));
	else
		error_msg("write error on standard output (an earlier write failed)");
	clearerr(stdout);
	return -1;
}

/* ---- JSON ----------------------------------------------------------- */

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

const struct stored_cell *stored_run_cell(const struct stored_run *r,
					  const char *name)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (streq(r->cells[i].name, name))
			return &r->cells[i];
	return NULL;
}

int output_bench(FILE *f, enum output_format fmt, const struct stored_run *stored,
		 bool with_samples)
{
	json_t *j;

	switch (fmt) {
	case FORMAT_TABLE:
		run_header_print(f, stored);
		run_table_print(f, stored, NULL);
		break;
	case FORMAT_CSV:
		run_csv_print(f, stored);
		break;
	case FORMAT_TAP:
		run_tap_print(f, stored);
		break;
	case FORMAT_JSON:
		/*
		 * The run as show and export give it: one schema for a run, and
		 * every figure to the last bit (jansson's shortest exact form),
		 * so that an import of this file is the run itself.
		 */
		j = runs_json_new();
		runs_json_add(j, stored, with_samples);
		json_print(f, j);
		json_decref(j);
		break;
	default:
		fatal("a run is not printed as %s", format_vocabulary[fmt]);
	}
	/* Flushed and checked by the caller (main, measure_run()). */
	return ferror(f) ? -1 : 0;
}
