// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench export RUN...: stored runs with every raw sample, as JSON that
 * `clockbench import` reads back, or as one CSV row per sample.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

void usage_export(FILE *f)
{
	fputs("usage: clockbench export [<options>] <run>...\n"
	      "       clockbench export [<options>] --all\n"
	      "\n"
	      "Write stored runs with all their raw samples to standard output.\n"
	      "A run is an id (12), a label (every run with it) or a uuid.\n"
	      "\n"
	      "  --format FMT      json (default): {\"clockbench_export\": 1, \"runs\": [...]},\n"
	      "                    which 'clockbench import' reads on another machine;\n"
	      "                    csv: one row per sample: run_uuid, run_id, label,\n"
	      "                    cell, path, unit, index, value, cycles, round,\n"
	      "                    core_cycles\n"
	      "  --all             every run in the database\n"
	      RECORD_DB_USAGE
	      "  -h, --help        this text\n"
	      "\n"
	      "Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	      "2 on a usage error.\n", f);
}

enum { OPT_FORMAT = 256, OPT_ALL };

struct export_options {
	struct store_options store;
	bool csv;
	bool all;
	char **specs;
	size_t nspecs;
};

static void parse_export_options(int argc, char **argv, struct export_options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "db", required_argument, NULL, OPT_STORE_DB },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_FORMAT:
			if (!streq(optarg, "json") && !streq(optarg, "csv"))
				usage_error("unknown format '%s' (json, csv)", optarg);
			o->csv = streq(optarg, "csv");
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case 'h':
			usage_export(stdout);
			exit(0);
		default:
			if (store_parse_option(opt, optarg, &o->store))
				break;
			usage_bad_option(opt, argv);
		}
	}
	o->specs = argv + optind;
	o->nspecs = (size_t)(argc - optind);
	if (o->all && o->nspecs)
		usage_error("--all and a run ('%s') exclude each other", o->specs[0]);
	if (!o->all && !o->nspecs)
		usage_error("no run given (an id, a label or a uuid, or --all)");
}

/* ---- CSV ------------------------------------------------------------ */

/* RFC 4180: quote fields holding separators or quotes, double the quotes. */
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* The shortest text that reads back as exactly x. */
static void csv_number(double x)
{
	char buf[32];

	if (!isfinite(x))
		return;		/* an empty field */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	fputs(buf, stdout);
}

static void csv_run(const struct stored_run *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		for (size_t k = 0; c->values && k < c->n; k++) {
			printf("%s,%lld,", r->uuid, (long long)r->id);
			csv_field(r->label);
			putchar(',');
			csv_field(c->name);
			putchar(',');
			csv_field(c->path);
			putchar(',');
			csv_field(c->unit);
			printf(",%zu,", k);
			csv_number(c->values[k]);
			putchar(',');
			if (c->cycles)
				csv_number(c->cycles[k]);
			putchar(',');
			if (c->rounds)
				printf("%" PRIu32, c->rounds[k]);
			putchar(',');
			if (c->core_cycles)
				csv_number(c->core_cycles[k]);
			putchar('\n');
		}
	}
}

/* ---- JSON, streamed one run at a time -------------------------------- */

static void json_begin(void)
{
	printf("{\"clockbench_export\":%d,\"tool\":\"clockbench %s\",\"runs\":[\n",
	       STORE_EXPORT_VERSION, CLOCKBENCH_VERSION);
}

static void json_run(const struct stored_run *r, bool first)
{
	json_t *j = stored_run_to_json(r);

	if (!first)
		fputs(",\n", stdout);
	/* Default precision: 17 significant digits read back bit-exact. */
	json_dumpf(j, stdout, JSON_COMPACT);
	json_decref(j);
}

static void json_end(void)
{
	fputs("\n]}\n", stdout);
}

static int find_ids(struct store *st, const struct export_options *o,
		    int64_t **ids, size_t *n)
{
	char err[PATH_MAX + 256];
	struct run_filter all;

	if (!o->all)
		return record_resolve_specs(st, o->specs, o->nspecs, ids, n);
	memset(&all, 0, sizeof(all));
	if (store_find_runs(st, &all, ids, n, err, sizeof(err)) == 0)
		return 0;
	error_msg("%s", err);
	return -1;
}

int cmd_export(int argc, char **argv)
{
	char err[PATH_MAX + 256];
	struct export_options o;
	struct stored_run run;
	struct store *st;
	int64_t *ids;
	size_t n;
	int rc = 1;

	parse_export_options(argc, argv, &o);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	if (find_ids(st, &o, &ids, &n))
		goto out;
	if (o.csv)
		puts("run_uuid,run_id,label,cell,path,unit,index,value,cycles,round,"
		     "core_cycles");
	else
		json_begin();
	for (size_t i = 0; i < n; i++) {
		if (store_load_run(st, ids[i], &run, err, sizeof(err))) {
			error_msg("%s", err);
			goto out_ids;
		}
		if (o.csv)
			csv_run(&run);
		else
			json_run(&run, i == 0);
		stored_run_free(&run);
	}
	if (!o.csv)
		json_end();
	rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	if (rc)
		error_msg("cannot write the export: %m");
out_ids:
	free(ids);
out:
	store_close(st);
	return rc;
}
