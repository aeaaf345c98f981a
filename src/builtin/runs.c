// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench runs: the runs in the results database, oldest first, with
 * filters by label, kernel, host, command, date and verdict; --problems:
 * the hosts whose newest doctor run found clocks served by the kernel.
 */
#include <fnmatch.h>
#include <limits.h>
#include <string.h>

#include "builtin/builtin.h"
#include "report/runs-list.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/error.h"
#include "basic/json.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/run-facts.h"

static const struct command_usage runs_usage = {
	.name = "runs",
	.description =
	"List the runs in the results database, oldest first: id, start time\n"
	"(UTC), command, label, host, kernel, status and measured/total cells.",
	.footer =
	"Exit status: 0 on success (also when no run matches), 1 on an error,\n"
	"2 on a usage error.",
};

static const char *const runs_formats[] = { "table", "json", "csv", "markdown", NULL };

static int date_option(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	if (!store_date_valid(arg)) {
		strbuf_addf(err, "invalid --%s '%s': expected a UTC date YYYY-MM-DD, "
			    "optionally with THH:MM or THH:MM:SS", opt->long_name, arg);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

/* What runs lists beside the store's own filter. */
struct runs_options {
	const char *verdict;	/* --verdict PATTERN, or NULL */
	bool problems;		/* --problems */
	int format;
};

/* A run's verdict: doctor's "healthy" or "problems", in its config. */
static const char *run_verdict(const struct stored_run *run)
{
	const char *v = run_facts(run)->settings.doctor.verdict;

	return v ? v : "";
}

/* ---- --problems -------------------------------------------------------- */

/* Keep runs[i] where keep[i], in place, freeing the others: the count kept. */
static size_t keep_runs(struct run_summary *runs, size_t n, const bool *keep)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (!keep[i]) {
			stored_run_free(&runs[i].run);
			continue;
		}
		if (kept != i)
			runs[kept] = runs[i];
		kept++;
	}
	return kept;
}

static const struct run_summary *sorted_runs;

/* By host, then by position: the runs of a host together, oldest first. */
static int by_host(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	int c = strcmp(sorted_runs[i].run.host, sorted_runs[k].run.host);

	return c ? c : (i > k) - (i < k);
}

/*
 * Runs come oldest first: keep[i] when runs[i] is the newest of its host.
 * Sorted rather than searched, so that a fleet of many runs stays fast.
 */
static void newest_of_each_host(const struct run_summary *runs, size_t n,
				bool *keep)
{
	size_t *order = xcalloc(n ? n : 1, sizeof(*order));

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sorted_runs = runs;
	qsort(order, n, sizeof(*order), by_host);
	sorted_runs = NULL;
	for (size_t i = 0; i < n; i++)
		keep[order[i]] = i + 1 == n ||
			!streq(runs[order[i]].run.host, runs[order[i + 1]].run.host);
	free(order);
}

/* "clock-gettime-monotonic vdso: clocksource; time libc: interposed" */
static void problem_causes(const struct stored_run *run, struct strbuf *sb)
{
	const struct doctor_settings *d = &run_facts(run)->settings.doctor;

	for (size_t i = 0; i < d->nproblems; i++)
		strbuf_addf(sb, "%s%s %s: %s", i ? "; " : "", d->problems[i].cell ?: "?",
			    d->problems[i].path ?: "?", d->problems[i].cause ?: "?");
}

/* The run's problems as doctor recorded them, or null. */
static json_t *problems_json(const struct doctor_settings *d)
{
	json_t *list = json_array();

	if (!d->problems_known) {
		json_decref(list);
		return json_null();
	}
	for (size_t i = 0; i < d->nproblems; i++)
		json_array_append_new(list, json_pack("{s:s?, s:s?, s:s?}",
			"cell", d->problems[i].cell, "path", d->problems[i].path,
			"cause", d->problems[i].cause));
	return list;
}

static void print_problems_json(const struct run_summary *runs, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = &runs[i].run;

		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:I, s:s?, s:o}",
			"host", r->host, "kernel", r->kernel,
			"started", r->started, "id", (json_int_t)r->id,
			"clocksource", run_facts(r)->settings.doctor.clocksource,
			"problems", problems_json(&run_facts(r)->settings.doctor)));
	}
	json_print(stdout, arr);
	json_decref(arr);
}

/* One line per host: host, kernel, newest doctor run, clocksource, causes. */
static void print_problems(const struct run_summary *runs, size_t n, int format)
{
	if (format == FORMAT_JSON) {
		print_problems_json(runs, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_strbuf_ struct strbuf causes = STRBUF_INIT, line = STRBUF_INIT;
		const struct stored_run *r = &runs[i].run;
		const char *cs = run_facts(r)->settings.doctor.clocksource;

		problem_causes(r, &causes);
		strbuf_addf(&line, "%s  %s  run %lld, %s  clocksource %s: %s",
			    r->host, r->kernel, (long long)r->id, r->started,
			    cs ? cs : "?", causes.buf);
		/* Stored strings: escaped (a host name is any text). */
		text_line(stdout, "%s", line.buf);
	}
}

static bool filtered(const struct run_filter *f)
{
	return f->label || f->kernel || f->host || f->command || f->since ||
	       f->until;
}

/* The filter and store: 0, or OPTIONS_HELP or OPTIONS_ERROR (printed). */
static int parse_runs_options(int argc, char **argv, struct run_filter *filter,
			      struct store_options *store, struct runs_options *o)
{
	struct option_def options[] = {
		OPT_STRING(0, "label", "PATTERN", &filter->label,
			   "runs with this label (* ? [...] match as in the shell)"),
		OPT_STRING(0, "kernel", "PATTERN", &filter->kernel,
			   "runs on this kernel release, e.g. '6.18*'"),
		OPT_STRING(0, "host", "PATTERN", &filter->host, "runs on this host"),
		OPT_STRING(0, "command", "PATTERN", &filter->command,
			   "runs of this command: bench, ..."),
		OPT_CALLBACK(0, "since", "DATE", &filter->since, date_option,
			     "runs started at or after DATE: YYYY-MM-DD, optionally\n"
			     "with THH:MM or THH:MM:SS (UTC)"),
		OPT_CALLBACK(0, "until", "DATE", &filter->until, date_option,
			     "runs started at or before DATE (a day includes all of it)"),
		OPT_STRING(0, "verdict", "PATTERN", &o->verdict,
			   "runs with this verdict: healthy or problems (doctor)"),
		OPT_BOOL(0, "problems", &o->problems,
			 "the hosts whose newest doctor run found clocks served\n"
			 "by the kernel, with the causes (implies --command doctor)"),
		OPT_FORMAT(0, &o->format, runs_formats,
			   "table (default), json (each run as export writes\n"
			   "it, without its cells), csv or markdown"),
		STORE_DB_OPTION(store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &runs_usage, options, OPTIONS_NO_ARGS);

	if (n == 0 && o->problems && o->format != FORMAT_TABLE && o->format != FORMAT_JSON)
		return options_fail("--problems prints a table or json, not %s",
				    format_vocabulary[o->format]);
	if (n == 0 && o->problems && !filter->command)
		filter->command = "doctor";
	return n < 0 ? n : 0;
}

static bool verdict_selected(const struct stored_run *run,
			     const struct runs_options *o)
{
	const char *v = run_verdict(run);

	return (!o->verdict || fnmatch(o->verdict, v, 0) == 0) &&
	       (!o->problems || streq(v, "problems"));
}

/* --verdict, then --problems: the runs kept, in place; their count. */
static size_t select_runs(struct run_summary *runs, size_t n,
			  const struct runs_options *o)
{
	bool *keep = xcalloc(n ? n : 1, sizeof(*keep));

	if (o->problems) {
		newest_of_each_host(runs, n, keep);
		n = keep_runs(runs, n, keep);
	}
	for (size_t i = 0; i < n; i++)
		keep[i] = verdict_selected(&runs[i].run, o);
	n = keep_runs(runs, n, keep);
	free(keep);
	return n;
}

/* A damaged run is named and left out of the list, not fatal. */
static void warn_damaged(const char *why)
{
	warn_msg("%s; not listed", why);
}

int cmd_runs(int argc, char **argv)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct run_summary *runs = NULL;
	struct run_filter filter = { 0 };
	struct store_options store = { 0 };
	struct runs_options o = { 0 };
	struct store *st;
	size_t n = 0;
	int rc = parse_runs_options(argc, argv, &filter, &store, &o);

	if (rc < 0)
		return parse_options_status(rc);
	rc = 1;
	st = record_open(&store, STORE_READ, path, sizeof(path));
	if (!st)
		return 1;
	if (store_list_runs(st, &filter, o.verdict || o.problems, &runs, &n, warn_damaged, &err)) {
		error_msg("%s", err.buf);
		goto out;
	}
	if (o.verdict || o.problems)
		n = select_runs(runs, n, &o);
	if (o.problems)
		print_problems(runs, n, o.format);
	else if (o.format == FORMAT_JSON)
		runs_list_print_json(stdout, runs, n);
	else if (n || o.format != FORMAT_TABLE)
		runs_list_print_table(stdout, runs, n, (enum output_format)o.format);
	if (!n && o.format != FORMAT_JSON)
		text_line(stderr, "%s in %s", o.problems ? "no host with problems" :
			  filtered(&filter) || o.verdict ? "no run matches" : "no runs",
			  store_name(st));
	rc = 0;		/* stdout is checked by main, for every command */
out:
	run_summaries_free(runs, n);
	store_close(st);
	return rc;
}
