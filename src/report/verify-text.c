// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/verify-text.h"

#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "config.h"

/* ---- TAP ------------------------------------------------------------------- */

/* "1.2 % of": how a watch compares with inconsistency-check's default. */
static void watch_vs_selftest(double seconds, double long_watch, char *buf,
			      size_t len)
{
	double pct = seconds / long_watch * 100;

	if (seconds >= long_watch * 0.999)
		snprintf(buf, len, "as long as");
	else
		snprintf(buf, len, "%.*f %% of", pct < 1 ? 2 : 1, pct);
}

/* "# each clock is watched 116 ms by monotonic/..., 139 ms by cross-cpu/..." */
static void print_watch_times(FILE *f, const struct verify_report *r)
{
	double longest = 0, total = r->timed_total_s;
	char vs[32];
	bool any = false;

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (!w->planned)
			continue;
		fprintf(f, "%s %.0f ms by %s/*", any ? "," : "# each clock is watched",
			w->budget_s * 1e3, w->group);
		if (w->budget_s > longest)
			longest = w->budget_s;
		any = true;
	}
	if (any) {
		watch_vs_selftest(longest, r->long_watch_s, vs, sizeof(vs));
		fprintf(f, "\n# the longest of these watches is %s the %.0f s "
			"inconsistency-check watches each clock by default%s\n", vs,
			r->long_watch_s, r->long_run ? "" :
			" (--long watches as long)");
	}
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

/* "# each clock was watched 115-117 ms by monotonic/..., ...": what the
 * watchers' points that ran took, against inconsistency-check's watch. */
void verify_text_watched(FILE *f, const struct verify_report *r)
{
	double longest = 0;
	char vs[32];
	bool any = false;

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (!w->ran)
			continue;
		fprintf(f, "%s %.0f", any ? "," : "# each clock was watched",
			w->min_s * 1e3);
		if ((long)(w->max_s * 1e3 + 0.5) != (long)(w->min_s * 1e3 + 0.5))
			fprintf(f, "-%.0f", w->max_s * 1e3);
		fprintf(f, " ms by %s/*", w->group);
		if (w->max_s > longest)
			longest = w->max_s;
		any = true;
	}
	if (!any)
		return;
	watch_vs_selftest(longest, r->long_watch_s, vs, sizeof(vs));
	fprintf(f, "; the longest is %s inconsistency-check's %.0f s\n", vs,
		r->long_watch_s);
}

/* ---- JSON ------------------------------------------------------------------ */

json_t *verify_json_point(size_t n, const char *name, enum verify_result res,
			  const char *msg, const char *diag, double elapsed_s)
{
	static const char *const names[] = { "pass", "fail", "skip", "error", "xfail" };
	json_t *details = json_array();
	const char *p = diag;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		json_array_append_new(details, json_stringn(p, (size_t)(nl - p)));
		p = nl + 1;
	}
	return json_pack("{s:I, s:s, s:s, s:s, s:o, s:f}", "n", (json_int_t)n,
			 "name", name, "result", names[res], "message", msg,
			 "details", details, "elapsed_s", elapsed_s);
}

/* {"monotonic": {"min_s": .., "max_s": ..}, ...}: the same, for JSON. */
static json_t *watched_to_json(const struct verify_report *r)
{
	json_t *o = json_object();

	for (size_t i = 0; i < r->nwatch; i++) {
		const struct verify_watch *w = &r->watch[i];

		if (w->ran)
			json_object_set_new(o, w->group,
					    json_pack("{s:f, s:f, s:i}", "min_s",
						      w->min_s, "max_s",
						      w->max_s, "checks",
						      (int)w->ran));
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
