// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench show RUN...: a stored run's metadata, environment and
 * settings, and per cell the statistics recomputed from its raw samples.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "basic/error.h"
#include "basic/json.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "report/exec-table.h"
#include "report/hotplug-table.h"
#include "report/output.h"
#include "report/run-header.h"
#include "report/run-json.h"
#include "report/run-table.h"
#include "report/scale-table.h"
#include "results/compare.h"
#include "results/record.h"
#include "basic/text.h"
#include "results/store.h"
#include "basic/util.h"
#include "results/run-facts.h"

static const struct command_usage show_usage = {
	.name = "show",
	.synopsis = "[<options>] <run>...",
	.description =
	"Show stored runs: when and where each ran, its environment and\n"
	"settings, then the tables the command that made it printed,\n"
	"recomputed from the raw samples: for a bench run under bench's header\n"
	"per cell the median with its 95% CI, min, mean, rCV%, p99, cycles,\n"
	"core cycles and n; for a scale, exec or hotplug run that command's\n"
	"tables, its times in s, ms or us.\n"
	"A run is an id (12), a label (every run with it) or a uuid.",
	.footer =
	"Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	"2 on a usage error.",
	.no_args = NO_RUN_GIVEN,
};

struct show_options {
	struct store_options store;
	int format;		/* enum output_format, of output_format_names */
	bool samples;
	bool histogram;
	char **specs;
	size_t nspecs;
};

/* CSV and TAP have one header or plan: a stream holds one run. */
static bool one_run_format(int format)
{
	return format == FORMAT_CSV || format == FORMAT_TAP;
}

/* The runs to show and how: 0, or OPTIONS_HELP or OPTIONS_ERROR (printed). */
static int parse_show_options(int argc, char **argv, struct show_options *o)
{
	struct option_def options[] = {
		OPT_FORMAT(0, &o->format, output_format_names,
			   "table (default), json (as export writes runs), or\n"
			   "for one bench run csv or tap (as bench printed it)"),
		OPT_BOOL(0, "samples", &o->samples, "with json: include every raw sample"),
		OPT_BOOL(0, "histogram", &o->histogram,
			 "with the table: a text histogram of each cell's samples"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &show_usage, options, OPTIONS_NEED_ARGS);

	if (n < 0)
		return n;
	if (o->samples && o->format != FORMAT_JSON)
		return options_fail("--samples needs --format json");
	if (o->histogram && o->format != FORMAT_TABLE)
		return options_fail("--histogram goes with the table, not --format %s",
				    format_vocabulary[o->format]);
	if (n > 1 && one_run_format(o->format))
		return options_fail("--format %s shows one run, not %d",
				    format_vocabulary[o->format], n);
	o->specs = argv;
	o->nspecs = (size_t)n;
	return 0;
}

/* ---- table ---------------------------------------------------------- */

static void print_value(const char *key, const json_t *v, int depth);

/* An object of flags prints as the names that are set. */
static bool all_booleans(const json_t *obj)
{
	const char *k;
	json_t *v;

	if (json_object_size(obj) == 0)
		return false;
	json_object_foreach((json_t *)obj, k, v)
		if (!json_is_boolean(v))
			return false;
	return true;
}

static bool all_scalars(const json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_object(v) || json_is_array(v))
			return false;
	return true;
}

static void print_scalar(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		text_put(stdout, *json_string_value(v) ? json_string_value(v) : "-",
			 TEXT_LINE_MAX);
		break;
	case JSON_INTEGER:
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		printf("%g", json_real_value(v));
		break;
	case JSON_TRUE:
		fputs("yes", stdout);
		break;
	case JSON_FALSE:
		fputs("no", stdout);
		break;
	default:
		fputs("-", stdout);
	}
}

static void print_object(const char *prefix, const json_t *obj, int depth)
{
	char key[256];
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
		print_value(key, v, depth);
	}
}

/* "#   key:", the key as stored runs hold it, escaped. */
static void print_key(const char *key)
{
	fputs("#   ", stdout);
	text_put(stdout, key, TEXT_LINE_MAX);
	putchar(':');
}

/* "# key: value" lines; nested keys joined with dots. */
static void print_value(const char *key, const json_t *v, int depth)
{
	const char *k;
	size_t i;
	json_t *e;
	bool any = false;

	if (json_is_object(v) && all_booleans(v)) {
		print_key(key);
		json_object_foreach((json_t *)v, k, e)
			if (json_is_true(e)) {
				putchar(' ');
				text_put(stdout, k, TEXT_LINE_MAX);
				any = true;
			}
		puts(any ? "" : " none");
	} else if (json_is_object(v) && depth < 8) {
		print_object(key, v, depth + 1);
	} else if (json_is_array(v) && all_scalars(v)) {
		print_key(key);
		json_array_foreach(v, i, e) {
			putchar(' ');
			print_scalar(e);
		}
		puts(json_array_size(v) ? "" : " -");
	} else if (json_is_array(v) && depth < 8) {
		_cleanup_strbuf_ struct strbuf sub = STRBUF_INIT;

		json_array_foreach(v, i, e) {
			strbuf_setf(&sub, "%s[%zu]", key, i);
			print_value(sub.buf, e, depth + 1);
		}
	} else {
		print_key(key);
		putchar(' ');
		print_scalar(v);
		putchar('\n');
	}
}

/* "# what: text", the stored text escaped. */
static void print_text_line(const char *what, const char *text)
{
	printf("# %s: ", what);
	text_put(stdout, text, TEXT_LINE_MAX);
	putchar('\n');
}

/* A run bench made: shown under bench's header (report/run-header.h). */
static bool is_bench(const struct stored_run *r)
{
	return streq(r->command, "bench");
}

static void print_header(const struct stored_run *r)
{
	char started[64];

	text_copy(started, sizeof(started), r->started, 32);
	printf("# run %lld: ", (long long)r->id);
	text_put(stdout, r->command, TEXT_CELL_MAX);
	printf(", %.10s %.8s UTC, %.1f s, ", started,
	       strlen(started) > 11 ? started + 11 : "", r->elapsed_s);
	text_put(stdout, r->status, TEXT_CELL_MAX);
	putchar('\n');
	print_text_line("uuid", r->uuid);
	print_text_line("label", *r->label ? r->label : "-");
	print_text_line("host", r->host);
	print_text_line("kernel", r->kernel);
	if (stored_run_exact(r))
		puts("# EXACT counts: booted by clockbench kernels --exact under qemu's "
		     "icount, every figure is guest instructions retired per call, not "
		     "a time: the same at every boot where only the code decides it");
	else if (stored_run_emulated(r))
		puts("# EMULATED timings: booted by clockbench kernels under qemu's TCG, "
		     "they compare code paths on one emulator, not hardware costs");
	puts("# environment:");
	print_object("", r->env, 0);
	if (r->config) {
		puts("# config:");
		print_object("", r->config, 0);
	}
	if (!is_bench(r) && run_facts(r)->quality_summary)
		print_text_line("quality", run_facts(r)->quality_summary);
}

/*
 * The run's metadata and environment, then its table as the command that
 * made it printed it: scale's blocks for a scale run, exec's wall, user
 * and sys for an exec run, hotplug's transitions and stored states for a
 * hotplug run, bench's header and table for a bench run (line
 * for line what bench printed), else bench's table (and that one, with a
 * histogram under each cell, for --histogram).
 */
static void print_run_table(const struct stored_run *r, bool histogram)
{
	struct run_table_options opts = { .histogram = histogram };
	double wall = exec_table_wall_median(r), scale;

	print_header(r);
	if (!histogram && scale_table_applies(r)) {
		scale_table_print(stdout, r);
	} else if (!histogram && streq(r->command, "exec") && isfinite(wall)) {
		const char *unit = exec_table_unit(wall, &scale);

		putchar('\n');
		exec_table_print_command(stdout, r, unit, scale);
	} else if (!histogram && hotplug_table_applies(r)) {
		hotplug_table_print_run(stdout, r);
	} else {
		if (is_bench(r)) {
			putchar('\n');
			run_header_print(stdout, r);
		}
		run_table_print(stdout, r, &opts);
	}
}

/*
 * A bench run as CSV or TAP, by the printers bench uses: 0, or a usage
 * error's status for a run of another kind, whose cells are not bench's.
 */
static int print_run_as(const struct stored_run *r, enum output_format fmt)
{
	if (!is_bench(r))
		return usage_fail("--format %s shows a bench run; run %lld is from %s "
				  "(its formats: table, json)", format_vocabulary[fmt],
				  (long long)r->id, r->command);
	return output_bench(stdout, fmt, r, false) ? 1 : 0;
}

/* One loaded run printed as o asks, or added to the JSON array arr. */
static int show_run(const struct show_options *o, const struct stored_run *r,
		    bool first, json_t *arr)
{
	switch ((enum output_format)o->format) {
	case FORMAT_JSON:
		runs_json_add(arr, r, o->samples);
		return 0;
	case FORMAT_CSV:
	case FORMAT_TAP:
		return print_run_as(r, (enum output_format)o->format);
	default:	/* the table */
		break;
	}
	if (!first)
		putchar('\n');
	print_run_table(r, o->histogram);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct show_options o = { 0 };
	struct stored_run run;
	json_t *arr = NULL;
	struct store *st;
	int64_t *ids;
	size_t n;
	int rc = parse_show_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	rc = 1;
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	if (record_resolve_specs(st, o.specs, o.nspecs, &ids, &n))
		goto out;
	if (n > 1 && one_run_format(o.format)) {
		/* One spec (parse_show_options()): a label of several runs. */
		rc = usage_fail("--format %s shows one run; '%s' names %zu (give an id)",
				format_vocabulary[o.format], o.specs[0], n);
		goto out;
	}
	if (o.format == FORMAT_JSON)
		arr = runs_json_new();
	for (size_t i = 0; i < n; i++) {
		if (store_load_run(st, ids[i], &run, &err)) {
			error_msg("%s", err.buf);
			goto out;
		}
		rc = show_run(&o, &run, i == 0, arr);
		stored_run_free(&run);
		if (rc)
			goto out;
	}
	if (arr)
		json_print(stdout, arr);
	rc = 0;		/* stdout is checked by main, for every command */
out:
	json_decref(arr);
	free(ids);
	store_close(st);
	return rc;
}
