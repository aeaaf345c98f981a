// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/verify-text.h"

#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "config.h"

/* ---- TAP ------------------------------------------------------------------- */

/* "140" or "167-168": a watch, or the shortest and longest, in ms. */
static void range_ms(double min_s, double max_s, char *buf, size_t len)
{
	long lo = (long)(min_s * 1e3 + 0.5), hi = (long)(max_s * 1e3 + 0.5);

	if (lo == hi)
		snprintf(buf, len, "%ld", lo);
	else
		snprintf(buf, len, "%ld-%ld", lo, hi);
}

/* "1.4 %": a watch as a share of inconsistency-check's. */
static void share_text(double seconds, double long_watch, char *buf, size_t len)
{
	double pct = seconds / long_watch * 100;

	snprintf(buf, len, "%.*f %%", pct < 1 ? 2 : 1, pct);
}

/* Whether a watch of this kind is in the plan (planned) or reported. */
static bool watch_counts(const struct verify_watch *w, bool planned,
			 enum verify_watch_kind kind)
{
	return w->kind == kind && (planned ? w->planned : w->ran) > 0;
}

/* "140 ms by monotonic/..., 167-168 ms by cross-cpu/...": the watches for a
 * step back, planned (each group's budget) or reported; false: none. */
static bool print_step_back_watches(FILE *f, const struct verify_report *r,
				    bool planned, const char *lead)
{
	char ms[48];
	bool any = false;

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (!watch_counts(w, planned, VERIFY_WATCH_STEP_BACK))
			continue;
		if (planned)
			range_ms(w->budget_s, w->budget_s, ms, sizeof(ms));
		else
			range_ms(w->min_s, w->max_s, ms, sizeof(ms));
		fprintf(f, "%s %s ms by %s/*", any ? "," : lead, ms, w->group);
		any = true;
	}
	if (any)
		fputc('\n', f);
	return any;
}

/* "monotonic/... 1.4 %, cross-cpu/... at most 1.7 %": only the groups whose
 * watch is the kind inconsistency-check makes; false: none. */
static bool print_selftest_shares(FILE *f, const struct verify_report *r,
				  bool planned, const char *lead)
{
	char pct[32], ms_lo[16], ms_hi[16];
	bool any = false;

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];
		double s = planned ? w->budget_s : w->max_s;
		bool range;

		if (!w->vs_inconsistency_check ||
		    !watch_counts(w, planned, VERIFY_WATCH_STEP_BACK))
			continue;
		range_ms(w->min_s, w->min_s, ms_lo, sizeof(ms_lo));
		range_ms(w->max_s, w->max_s, ms_hi, sizeof(ms_hi));
		range = !planned && !streq(ms_lo, ms_hi);
		share_text(s, r->long_watch_s, pct, sizeof(pct));
		fprintf(f, "%s %s/* %s%s", any ? "," : lead, w->group,
			range ? "at most " : "", pct);
		any = true;
	}
	return any;
}

/* "raw-skew/... fits MONOTONIC's rate ... from 333 ms of samples a check". */
static void print_rate_watches(FILE *f, const struct verify_report *r, bool planned)
{
	char ms[48];

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (!watch_counts(w, planned, VERIFY_WATCH_RATE))
			continue;
		if (planned) {
			range_ms(w->budget_s, w->budget_s, ms, sizeof(ms));
			fprintf(f, "# %s/* fits MONOTONIC's rate against MONOTONIC_RAW "
				"from %s ms of samples a check\n", w->group, ms);
		} else {
			range_ms(w->min_s, w->max_s, ms, sizeof(ms));
			fprintf(f, "# %s/* fitted MONOTONIC's rate against MONOTONIC_RAW "
				"from samples spanning %s ms a check\n", w->group, ms);
		}
	}
}

/*
 * "# each clock is watched for a step back 140 ms by monotonic/..., ...",
 * then what share that is of inconsistency-check's watch, for the groups
 * that watch as it does, then the rate fits: the plan.
 */
static void print_watch_times(FILE *f, const struct verify_report *r)
{
	double total = r->timed_total_s;
	char lead[128];

	print_step_back_watches(f, r, true, "# each clock is watched for a step back");
	snprintf(lead, sizeof(lead), "# against the %.0f s inconsistency-check watches "
		 "each clock by default:", r->long_watch_s);
	if (print_selftest_shares(f, r, true, lead))
		fprintf(f, "%s\n", r->long_run ? "" : " (--long watches as long)");
	print_rate_watches(f, r, true);
	if (r->long_run && total < 120)
		fprintf(f, "# --long: the time-based checks take about %.0f s\n", total);
	else if (r->long_run)
		fprintf(f, "# --long: the time-based checks take about %.0f min\n",
			total / 60);
}

void verify_text_header(FILE *f, const struct verify_report *r)
{
	const struct env_info *env = r->env;

	tap_write_plan(f, r->planned);
	fprintf(f, "# clockbench %s verify: kernel %s, clocksource %s, %d CPUs, "
		"time namespace %s\n", CLOCKBENCH_VERSION, env->kernel_release,
		env->clocksource, env->ncpus_online,
		env->in_time_namespace ? "non-root" : "root");
	if (r->timed) {
		fprintf(f, "# %u time-based checks share --duration %.3g s\n", r->timed,
			r->duration_s);
		print_watch_times(f, r);
	}
	if (r->held_back)
		fprintf(f, "# %u checks that change machine-wide state (the clocksource, "
			"the adjtimex frequency) are skipped: run with --destructive\n",
			r->held_back);
	else if (r->destructive)
		fprintf(f, "# --destructive: the checks that change machine-wide state "
			"run, and put it back\n");
	if (r->fault)
		fprintf(f, "# fault injection: %s=%s\n", r->fault_env, r->fault);
	for (int api = 0; api < API_COUNT; api++)
		if (r->interposer[api][0])
			fprintf(f, "# the libc path goes through %s, which interposes "
				"%s()\n", r->interposer[api], catalog_apis[api].name);
	fflush(f);
}

/* An error is a failed point whose message says so. */
static void print_tap_error(FILE *f, size_t n, const char *name, const char *msg)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "error: %s", msg);
	tap_write_point(f, n, name, TAP_FAIL, line.buf);
}

void verify_text_point(FILE *f, size_t n, const char *name, enum verify_result res,
		       const char *msg, const char *diag)
{
	const char *p = diag;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		fprintf(f, "# %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
	switch (res) {
	case VRESULT_PASS:
		tap_write_point(f, n, name, TAP_PASS, msg);
		break;
	case VRESULT_FAIL:
		tap_write_point(f, n, name, TAP_FAIL, msg);
		break;
	case VRESULT_SKIP:
		tap_write_point(f, n, name, TAP_SKIP, msg);
		break;
	case VRESULT_ERROR:
		print_tap_error(f, n, name, msg);
		break;
	case VRESULT_XFAIL:
		tap_write_point(f, n, name, TAP_XFAIL, msg);
		break;
	}
	fflush(f);
}

/* After the run: the watches the points reported, against
 * inconsistency-check's where comparable, and the rate fits' spans. */
void verify_text_watched(FILE *f, const struct verify_report *r)
{
	char lead[128];

	print_step_back_watches(f, r, false, "# counting only the reads that test "
				"it, each clock was watched for a step back");
	snprintf(lead, sizeof(lead), "# against inconsistency-check's %.0f s:",
		 r->long_watch_s);
	if (print_selftest_shares(f, r, false, lead))
		fputc('\n', f);
	print_rate_watches(f, r, false);
}

/* ---- JSON ------------------------------------------------------------------ */

json_t *verify_json_point(size_t n, const char *name, enum verify_result res,
			  const char *msg, const char *diag, double elapsed_s,
			  double watched_s)
{
	static const char *const names[] = { "pass", "fail", "skip", "error", "xfail" };
	json_t *details = json_array();
	const char *p = diag;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		json_array_append_new(details, json_stringn(p, (size_t)(nl - p)));
		p = nl + 1;
	}
	json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:o, s:f}", "n", (json_int_t)n,
			      "name", name, "result", names[res], "message", msg,
			      "details", details, "elapsed_s", elapsed_s);

	/* The reads that test the group's property: elapsed_s may hold more. */
	if (watched_s >= 0)
		json_object_set_new(o, "watched_s", json_real(watched_s));
	return o;
}

/* {"monotonic": {"min_s": .., "max_s": .., "total_s": .., ...}, ...}: the
 * points' watched_s per group, what the watch lines print. */
static json_t *watched_to_json(const struct verify_report *r)
{
	static const char *const kinds[] = {
		[VERIFY_WATCH_STEP_BACK] = "step back", [VERIFY_WATCH_RATE] = "rate",
	};
	json_t *o = json_object();

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (w->ran)
			json_object_set_new(o, w->group, json_pack(
				"{s:f, s:f, s:f, s:i, s:s, s:b}", "min_s", w->min_s,
				"max_s", w->max_s, "total_s", w->total_s,
				"checks", (int)w->ran, "watches_for", kinds[w->kind],
				"vs_inconsistency_check", w->vs_inconsistency_check));
	}
	return o;
}

/* What each group checks, and which need root. */
static json_t *groups_to_json(const struct verify_group_info *groups, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:b, s:b}",
						   "name", groups[i].name,
						   "summary", groups[i].summary,
						   "needs_root", groups[i].needs_root,
						   "destructive", groups[i].destructive));
	return a;
}

void verify_json_print(FILE *f, const struct verify_report *r, json_t *points,
		       const struct tap_totals *tot, int exit_status,
		       double elapsed_s, const struct verify_group_info *groups,
		       size_t ngroups)
{
	json_t *root;

	root = json_pack("{s:s, s:s, s:o, s:{s:I, s:I, s:i, s:i, s:I, s:I}, s:f, s:f, s:o}",
			 "tool", "clockbench verify", "version", CLOCKBENCH_VERSION,
			 "checks", json_incref(points),
			 "totals", "pass", (json_int_t)tot->pass,
			 "fail", (json_int_t)tot->fail, "xfail", (int)tot->xfail, "xpass", 0,
			 "skip", (json_int_t)tot->skip,
			 "error", (json_int_t)tot->error,
			 "duration_s", r->duration_s, "elapsed_s", elapsed_s,
			 "environment", env_to_json(r->env));
	json_object_set_new(root, "exit_status", json_integer(exit_status));
	json_object_set_new(root, "groups", groups_to_json(groups, ngroups));
	json_object_set_new(root, "destructive", json_boolean(r->destructive));
	json_object_set_new(root, "watched", watched_to_json(r));
	json_object_set_new(root, "inconsistency_check_watch_s",
			    json_real(r->long_watch_s));
	if (r->fault)
		json_object_set_new(root, "fault", json_string(r->fault));
	json_print(f, root);
	json_decref(root);
}
