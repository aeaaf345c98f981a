// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench runs: the runs in the results database, oldest first, with
 * filters by label, kernel, host, command and date.
 */
#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "builtin/builtin.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

void usage_runs(FILE *f)
{
	fputs("usage: clockbench runs [<options>]\n"
	      "\n"
	      "List the runs in the results database, oldest first: id, start time\n"
	      "(UTC), command, label, host, kernel, status and measured/total cells.\n"
	      "\n"
	      "  --label PATTERN   runs with this label (* ? [...] match as in the shell)\n"
	      "  --kernel PATTERN  runs on this kernel release, e.g. '6.18*'\n"
	      "  --host PATTERN    runs on this host\n"
	      "  --command PATTERN runs of this command: bench, ...\n"
	      "  --since DATE      runs started at or after DATE: YYYY-MM-DD, optionally\n"
	      "                    with THH:MM or THH:MM:SS (UTC)\n"
	      "  --until DATE      runs started at or before DATE (a day includes all of it)\n"
	      "  --format FMT      table (default) or json\n"
	      RECORD_DB_USAGE
	      "  -h, --help        this text\n"
	      "\n"
	      "Exit status: 0 on success (also when no run matches), 1 on an error,\n"
	      "2 on a usage error.\n", f);
}

enum { OPT_LABEL = 256, OPT_KERNEL, OPT_HOST, OPT_COMMAND, OPT_SINCE, OPT_UNTIL,
       OPT_FORMAT };

struct runs_options {
	struct run_filter filter;
	struct store_options store;
	bool json;
};

static const char *date_option(const char *name, const char *arg)
{
	if (!store_date_valid(arg))
		usage_error("invalid --%s '%s': expected a UTC date YYYY-MM-DD, "
			    "optionally with THH:MM or THH:MM:SS", name, arg);
	return arg;
}

static void parse_runs_options(int argc, char **argv, struct runs_options *o)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "command", required_argument, NULL, OPT_COMMAND },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "db", required_argument, NULL, OPT_STORE_DB },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_LABEL:
			o->filter.label = optarg;
			break;
		case OPT_KERNEL:
			o->filter.kernel = optarg;
			break;
		case OPT_HOST:
			o->filter.host = optarg;
			break;
		case OPT_COMMAND:
			o->filter.command = optarg;
			break;
		case OPT_SINCE:
			o->filter.since = date_option("since", optarg);
			break;
		case OPT_UNTIL:
			o->filter.until = date_option("until", optarg);
			break;
		case OPT_FORMAT:
			if (!streq(optarg, "table") && !streq(optarg, "json"))
				usage_error("unknown format '%s' (table, json)", optarg);
			o->json = streq(optarg, "json");
			break;
		case 'h':
			usage_runs(stdout);
			exit(0);
		default:
			if (store_parse_option(opt, optarg, &o->store))
				break;
			usage_bad_option(opt, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
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

/* Numbers right-aligned, text left-aligned; no trailing blanks. */
static void print_field(int col, int width, const char *v)
{
	if (col == COL_ID)
		printf("%*s", width, v);
	else if (col == NCOLS - 1)
		printf("  %s\n", v);
	else
		printf("  %-*s", width, v);
}

static void print_table(const struct stored_run *runs, size_t n)
{
	struct row *rows = xcalloc(n, sizeof(*rows));
	int width[NCOLS];

	for (int c = 0; c < NCOLS; c++)
		width[c] = (int)strlen(col_names[c]);
	for (size_t i = 0; i < n; i++) {
		make_row(&rows[i], &runs[i]);
		for (int c = 0; c < NCOLS; c++) {
			int w = (int)strlen(row_field(&rows[i], c));

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

static bool filtered(const struct run_filter *f)
{
	return f->label || f->kernel || f->host || f->command || f->since ||
	       f->until;
}

int cmd_runs(int argc, char **argv)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	struct stored_run *runs = NULL;
	struct runs_options o;
	struct store *st;
	int64_t *ids = NULL;
	size_t n = 0, loaded = 0;
	int rc = 1;

	parse_runs_options(argc, argv, &o);
	st = record_open(&o.store, STORE_READ, path, sizeof(path));
	if (!st)
		return 1;
	if (store_find_runs(st, &o.filter, &ids, &n, err, sizeof(err))) {
		error_msg("%s", err);
		goto out;
	}
	runs = xcalloc(n, sizeof(*runs));
	for (; loaded < n; loaded++) {
		if (store_load_run_header(st, ids[loaded], &runs[loaded], err,
					  sizeof(err))) {
			error_msg("%s", err);
			goto out;
		}
	}
	if (o.json)
		print_json(runs, n);
	else if (n)
		print_table(runs, n);
	else
		fprintf(stderr, "%s in %s\n", filtered(&o.filter) ?
			"no run matches" : "no runs", path);
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
