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
#include "results/record.h"
#include "results/store.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

static const struct command_usage runs_usage = {
	.name = "runs",
	.description =
	"List the runs in the results database, oldest first: id, start time\n"
	"(UTC), command, label, host, kernel, status and measured/total cells.",
	.footer =
	"Exit status: 0 on success (also when no run matches), 1 on an error,\n"
	"2 on a usage error.",
};

static const char *const runs_formats[] = { "table", "json", NULL };

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

/* ---- output --------------------------------------------------------- */

enum { COL_ID, COL_STARTED, COL_COMMAND, COL_LABEL, COL_HOST, COL_KERNEL,
       COL_STATUS, COL_CELLS, NCOLS };

static const char *const col_names[NCOLS] = {
	"id", "started (UTC)", "command", "label", "host", "kernel", "status",
	"cells",
};

struct row {
	char id[24];
	char started[24];
	char cells[48];
	const struct stored_run *run;
};

static size_t cells_ok(const struct stored_run *run)
{
	size_t n = 0;

	for (size_t i = 0; i < run->ncells; i++)
		n += streq(run->cells[i].status, "ok");
	return n;
}

static void make_row(struct row *r, const struct stored_run *run)
{
	snprintf(r->id, sizeof(r->id), "%lld", (long long)run->id);
	/* "2026-11-30T13:50:02Z" reads as "2026-11-30 13:50:02". */
	snprintf(r->started, sizeof(r->started), "%.10s %.8s", run->started,
		 strlen(run->started) > 11 ? run->started + 11 : "");
	snprintf(r->cells, sizeof(r->cells), "%zu/%zu", cells_ok(run), run->ncells);
	r->run = run;
}

static const char *row_field(const struct row *r, int col)
{
	const char *label = r->run->label;

	switch (col) {
	case COL_ID: return r->id;
	case COL_STARTED: return r->started;
	case COL_COMMAND: return r->run->command;
	case COL_LABEL: return *label ? label : "-";
	case COL_HOST: return r->run->host;
	case COL_KERNEL: return r->run->kernel;
	case COL_STATUS: return r->run->status;
	case COL_CELLS: return r->cells;
	}
	return "";
}

/*
 * Numbers right-aligned, text left-aligned; no trailing blanks. Every
 * field escaped and capped (basic/text.h): a stored host name of 100 MB
 * is one cut cell, not 100 MB of padding on every row.
 */
static void print_field(int col, size_t width, const char *v)
{
	if (col == COL_ID) {
		text_put_cell(stdout, v, TEXT_CELL_MAX, width, TEXT_RIGHT);
		return;
	}
	fputs("  ", stdout);
	if (col == NCOLS - 1) {
		text_put(stdout, v, TEXT_CELL_MAX);
		putchar('\n');
	} else {
		text_put_cell(stdout, v, TEXT_CELL_MAX, width, TEXT_LEFT);
	}
}

static void print_table(const struct stored_run *runs, size_t n)
{
	struct row *rows = xcalloc(n, sizeof(*rows));
	size_t width[NCOLS];

	for (int c = 0; c < NCOLS; c++)
		width[c] = text_width(col_names[c], TEXT_CELL_MAX);
	for (size_t i = 0; i < n; i++) {
		make_row(&rows[i], &runs[i]);
		for (int c = 0; c < NCOLS; c++) {
			size_t w = text_width(row_field(&rows[i], c), TEXT_CELL_MAX);

			if (w > width[c])
				width[c] = w;
		}
	}
	for (int c = 0; c < NCOLS; c++)
		print_field(c, width[c], col_names[c]);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < NCOLS; c++)
			print_field(c, width[c], row_field(&rows[i], c));
	free(rows);
}

/* The export object of each run without its environment, config and cells. */
static void print_json(const struct stored_run *runs, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = stored_run_to_json(&runs[i]);

		json_object_del(o, "environment");
		json_object_del(o, "config");
		json_object_set_new(o, "cells_total", json_integer((json_int_t)runs[i].ncells));
		json_object_set_new(o, "cells_ok",
				    json_integer((json_int_t)cells_ok(&runs[i])));
		json_array_append_new(arr, o);
	}
	json_dumpf(arr, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(arr);
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
	const json_t *v = run->config ? json_object_get(run->config, "verdict") : NULL;

	return json_is_string(v) ? json_string_value(v) : "";
}

/* ---- --problems -------------------------------------------------------- */

/*
 * Keep runs[i] where keep(runs, n, i) holds, in place, freeing the others:
 * the count kept.
 */
static size_t keep_runs(struct stored_run *runs, size_t n,
			bool (*keep)(const struct stored_run *, size_t, size_t,
				     const void *),
			const void *arg)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (!keep(runs, n, i, arg)) {
			stored_run_free(&runs[i]);
			continue;
		}
		if (kept != i)
			runs[kept] = runs[i];
		kept++;
	}
	return kept;
}

/* Runs come oldest first: the newest of a host is the last with its name. */
static bool newest_of_its_host(const struct stored_run *runs, size_t n,
			       size_t i, const void *arg)
{
	for (size_t k = i + 1; k < n; k++)
		if (streq(runs[k].host, runs[i].host))
			return false;
	return true;
}

/* "clock-gettime-monotonic vdso: clocksource; time libc: interposed" */
static void problem_causes(const struct stored_run *run, struct strbuf *sb)
{
	const json_t *problems = json_object_get(run->config, "problems"), *p;
	size_t i;

	json_array_foreach(problems, i, p) {
		strbuf_addf(sb, "%s%s %s: %s", i ? "; " : "",
			    json_string_value(json_object_get(p, "cell")),
			    json_string_value(json_object_get(p, "path")),
			    json_string_value(json_object_get(p, "cause")));
	}
}

static void print_problems_json(const struct stored_run *runs, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:I, s:O?, s:O?}",
			"host", runs[i].host, "kernel", runs[i].kernel,
			"started", runs[i].started, "id", (json_int_t)runs[i].id,
			"clocksource", json_object_get(runs[i].config, "clocksource"),
			"problems", json_object_get(runs[i].config, "problems")));
	json_dumpf(arr, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(arr);
}

/* One line per host: host, kernel, newest doctor run, clocksource, causes. */
static void print_problems(const struct stored_run *runs, size_t n, int format)
{
	if (format == 1) {
		print_problems_json(runs, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_strbuf_ struct strbuf causes = STRBUF_INIT, line = STRBUF_INIT;
		const char *cs = json_string_value(json_object_get(runs[i].config,
								   "clocksource"));

		problem_causes(&runs[i], &causes);
		strbuf_addf(&line, "%s  %s  run %lld, %s  clocksource %s: %s",
			    runs[i].host, runs[i].kernel, (long long)runs[i].id,
			    runs[i].started, cs ? cs : "?", causes.buf);
		printf("%s\n", line.buf);
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
		OPT_CHOICE(0, "format", "FMT", &o->format, runs_formats,
			   "table (default) or json"),
		STORE_DB_OPTION(store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &runs_usage, options, 0);

	if (n > 0)
		return options_fail("unexpected argument '%s'", argv[0]);
	if (n == 0 && o->problems && !filter->command)
		filter->command = "doctor";
	return n < 0 ? n : 0;
}

static bool verdict_selected(const struct stored_run *runs, size_t n,
			     size_t i, const void *arg)
{
	const struct runs_options *o = arg;
	const char *v = run_verdict(&runs[i]);

	return (!o->verdict || fnmatch(o->verdict, v, 0) == 0) &&
	       (!o->problems || streq(v, "problems"));
}

/* --verdict, then --problems: the runs kept, in place; their count. */
static size_t select_runs(struct stored_run *runs, size_t n,
			  const struct runs_options *o)
{
	if (o->problems)
		n = keep_runs(runs, n, newest_of_its_host, NULL);
	return keep_runs(runs, n, verdict_selected, o);
}

/* The runs to list; a damaged one is named and left out, not fatal. */
static int load_headers(struct store *st, const int64_t *ids, size_t n,
			struct stored_run *runs, size_t *loaded)
{
	char err[PATH_MAX + 256];

	for (size_t i = 0; i < n; i++) {
		int rc = store_load_run_header(st, ids[i], &runs[*loaded], err,
					       sizeof(err));

		if (rc == STORE_DAMAGED) {
			warn_msg("%s; not listed", err);
		} else if (rc) {
			error_msg("%s", err);
			return -1;
		} else {
			(*loaded)++;
		}
	}
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	struct stored_run *runs = NULL;
	struct run_filter filter = { 0 };
	struct store_options store = { 0 };
	struct runs_options o = { 0 };
	struct store *st;
	int64_t *ids = NULL;
	size_t n = 0, loaded = 0;
	int rc = parse_runs_options(argc, argv, &filter, &store, &o);

	if (rc < 0)
		return parse_options_status(rc);
	rc = 1;
	st = record_open(&store, STORE_READ, path, sizeof(path));
	if (!st)
		return 1;
	if (store_find_runs(st, &filter, &ids, &n, err, sizeof(err))) {
		error_msg("%s", err);
		goto out;
	}
	runs = xcalloc(n, sizeof(*runs));
	if (load_headers(st, ids, n, runs, &loaded))
		goto out;
	if (o.verdict || o.problems) {
		loaded = select_runs(runs, loaded, &o);
		n = loaded;	/* "no run matches" when none is left */
	}
	if (o.problems)
		print_problems(runs, loaded, o.format);
	else if (o.format == 1)
		print_json(runs, loaded);
	else if (loaded)
		print_table(runs, loaded);
	if (!n && o.format != 1)
		text_line(stderr, "%s in %s", o.problems ? "no host with problems" :
			  filtered(&filter) || o.verdict ? "no run matches" : "no runs",
			  store_name(st));
	rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	if (rc)
		error_msg("cannot write the list: %m");
out:
	for (size_t i = 0; i < loaded; i++)
		stored_run_free(&runs[i]);
	free(runs);
	free(ids);
	store_close(st);
	return rc;
}
