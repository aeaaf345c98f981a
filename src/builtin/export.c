// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench export RUN...: stored runs with every raw sample, as JSON that
 * `clockbench import` reads back, or as one CSV row per sample.
 */
#include <limits.h>
#include <string.h>

#include "basic/error.h"
#include "basic/json.h"
#include "basic/options.h"
#include "builtin/builtin.h"
#include "config.h"
#include "report/run-csv.h"
#include "report/run-json.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

static const struct command_usage export_usage = {
	.name = "export",
	.synopsis = "[<options>] <run>...\n[<options>] --all",
	.description =
	"Write stored runs with all their raw samples to standard output.\n"
	"A run is an id (12), a label (every run with it) or a uuid.",
	.footer =
	"Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	"2 on a usage error.",
};

static const char *const export_formats[] = { "json", "csv", NULL };

struct export_options {
	struct store_options store;
	int format;		/* index in export_formats */
	bool all;
	char **specs;
	size_t nspecs;
};

/* The positional arguments and --all: 0, or a usage error's status. */
/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_export_options(int argc, char **argv, struct export_options *o)
{
	struct option_def options[] = {
		OPT_FORMAT(0, &o->format, export_formats,
			   "json (default): {\"clockbench_export\": 1, \"runs\": [...]},\n"
			   "which 'clockbench import' reads on another machine;\n"
			   "csv: one row per sample: run_uuid, run_id, label,\n"
			   "cell, path, unit, index, value, cycles, round,\n"
			   "core_cycles"),
		OPT_BOOL(0, "all", &o->all, "every run in the database"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &export_usage, options, 0);

	if (n < 0)
		return n;
	o->specs = argv;
	o->nspecs = (size_t)n;
	if (o->all && o->nspecs)
		return options_fail("--all and a run ('%s') exclude each other",
				  o->specs[0]);
	if (!o->all && !o->nspecs)
		return options_fail("no run given (an id, a label or a uuid, or --all)");
	return 0;
}

/* ---- JSON, streamed one run at a time -------------------------------- */

static void json_begin(void)
{
	printf(RUNS_JSON_HEAD_FORMAT "\n", STORE_EXPORT_VERSION,
	       "clockbench " CLOCKBENCH_VERSION);
}

static void json_run(const struct stored_run *r, bool first)
{
	json_t *j = stored_run_to_json(r);

	if (!first)
		fputs(",\n", stdout);
	/* The numbers bench --format json writes: bit-exact, shortest. */
	json_write(stdout, j, JSON_COMPACT);
	json_decref(j);
}

static void json_end(void)
{
	fputs("\n]}\n", stdout);
}

static int find_ids(struct store *st, const struct export_options *o,
		    int64_t **ids, size_t *n)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct run_filter all;

	if (!o->all)
		return record_resolve_specs(st, o->specs, o->nspecs, ids, n);
	memset(&all, 0, sizeof(all));
	if (store_find_runs(st, &all, ids, n, &err) == 0)
		return 0;
	error_msg("%s", err.buf);
	return -1;
}

int cmd_export(int argc, char **argv)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct export_options o = { 0 };
	struct stored_run run;
	struct store *st;
	int64_t *ids;
	size_t n;
	bool csv;
	int rc = parse_export_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	rc = 1;
	csv = o.format == FORMAT_CSV;
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	if (find_ids(st, &o, &ids, &n))
		goto out;
	if (csv)
		run_samples_csv_header(stdout);
	else
		json_begin();
	for (size_t i = 0; i < n; i++) {
		if (store_load_run(st, ids[i], &run, &err)) {
			error_msg("%s", err.buf);
			goto out_ids;
		}
		if (csv)
			run_samples_csv_print(stdout, &run);
		else
			json_run(&run, i == 0);
		stored_run_free(&run);
	}
	if (!csv)
		json_end();
	rc = 0;		/* stdout is checked by main, for every command */
out_ids:
	free(ids);
out:
	store_close(st);
	return rc;
}
