// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench show RUN...: a stored run's metadata, environment and
 * settings, and per cell the statistics recomputed from its raw samples.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "basic/options.h"
#include "builtin/builtin.h"
#include "report/output.h"
#include "report/run-json.h"
#include "results/compare.h"
#include "report/textplot.h"
#include "results/record.h"
#include "results/resolution.h"
#include "basic/stats.h"
#include "basic/text.h"
#include "results/store.h"
#include "basic/util.h"

static const struct command_usage show_usage = {
	.name = "show",
	.synopsis = "[<options>] <run>...",
	.description =
	"Show stored runs: when and where each ran, its environment and\n"
	"settings, and per cell the median with its 95% CI, min, mean, sd%,\n"
	"p99, cycles and n, recomputed from the raw samples.\n"
	"A run is an id (12), a label (every run with it) or a uuid.",
	.footer =
	"Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	"2 on a usage error.",
};

static const char *const show_formats[] = { "table", "json", NULL };

struct show_options {
	struct store_options store;
	int format;		/* index in show_formats */
	bool samples;
	bool histogram;
	char **specs;
	size_t nspecs;
};

/* The runs to show and how: 0, or a usage error's (or --help's) status. */
/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_show_options(int argc, char **argv, struct show_options *o)
{
	struct option_def options[] = {
		OPT_FORMAT(0, &o->format, show_formats,
			   "table (default) or json (as export writes runs)"),
		OPT_BOOL(0, "samples", &o->samples, "with json: include every raw sample"),
		OPT_BOOL(0, "histogram", &o->histogram,
			 "with the table: a text histogram of each cell's samples"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &show_usage, options, 0);

	if (n < 0)
		return n;
	if (n == 0)
		return options_fail("no run given (an id, a label or a uuid)");
	if (o->samples && o->format != 1)
		return options_fail("--samples needs --format json");
	if (o->histogram && o->format != 0)
		return options_fail("--histogram goes with the table, not --format json");
	o->specs = argv;
	o->nspecs = (size_t)n;
	return 0;
}

/* Statistics of a copy: stats_summarize() sorts its input. */
static void summarize(const double *x, size_t n, struct summary *s)
{
	double *copy = xmalloc(n * sizeof(double));

	memcpy(copy, x, n * sizeof(double));
	stats_summarize(copy, n, s);
	free(copy);
}

static bool measured(const struct stored_cell *c)
{
	return c->values && c->n > 0;
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
		char sub[256];

		json_array_foreach(v, i, e) {
			snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
			print_value(sub, e, depth + 1);
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
	if (stored_run_emulated(r))
		puts("# EMULATED timings: booted by clockbench kernels under qemu's TCG, "
		     "they compare code paths on one emulator, not hardware costs");
	puts("# environment:");
	print_object("", r->env, 0);
	if (r->config) {
		puts("# config:");
		print_object("", r->config, 0);
	}
	if (json_is_string(json_object_get(r->quality, "summary")))
		print_text_line("quality", json_string_value(json_object_get(r->quality,
									     "summary")));
}

static size_t name_width(const struct stored_run *r, bool path)
{
	size_t w = 4;	/* strlen("name"), strlen("path") */

	for (size_t i = 0; i < r->ncells; i++) {
		size_t len = text_width(path ? r->cells[i].path : r->cells[i].name,
					TEXT_CELL_MAX);

		if (len > w)
			w = len;
	}
	return w;
}

static void print_cell(const struct stored_run *r, const struct stored_cell *c,
		       size_t nw, size_t pw)
{
	struct summary s, cy;

	text_put_cell(stdout, c->name, TEXT_CELL_MAX, nw, TEXT_LEFT);
	fputs("  ", stdout);
	text_put_cell(stdout, c->path, TEXT_CELL_MAX, pw, TEXT_LEFT);
	fputs("  ", stdout);
	if (!measured(c)) {
		text_put(stdout, c->status, TEXT_CELL_MAX);
		if (*c->reason) {
			fputs(": ", stdout);
			text_put(stdout, c->reason, TEXT_LINE_MAX);
		}
		putchar('\n');
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	text_put_cell(stdout, c->unit, TEXT_CELL_MAX, 4, TEXT_LEFT);
	printf(" %10.2f ", s.median);
	if (median_ci_is_95(&s))
		printf("%10.2f %10.2f", ci_bound_outward(s.median_lo, 2, false),
		       ci_bound_outward(s.median_hi, 2, true));
	else
		printf("%10s %10s", "-", "-");
	printf(" %10.2f %10.2f %6.2f %10.2f", s.min, s.mean,
	       compare_cell_robust_cv_pct(c), s.p99);
	if (c->cycles) {
		summarize(c->cycles, c->n, &cy);
		printf(" %9.1f", cy.median);
	} else {
		printf(" %9s", "-");
	}
	if (c->core_cycles) {
		summarize(c->core_cycles, c->n, &cy);
		printf(" %9.1f", cy.median);
	} else {
		printf(" %9s", "-");
	}
	printf(" %7zu %4zu%s\n", s.n, s.outliers, s.bimodal ? "  bimodal" : "");
}

static void print_run_table(const struct stored_run *r, bool histogram)
{
	size_t nw = name_width(r, false), pw = name_width(r, true);
	const char *cycles_unit = "";

	print_header(r);
	for (size_t i = 0; i < r->ncells && !*cycles_unit; i++)
		if (r->cells[i].cycles)
			cycles_unit = r->cells[i].cycles_unit;
	printf("# median over n samples with its 95%% CI ('-' when too few for "
	       "95%%), rCV%%: robust CV of the round medians (of the samples "
	       "without rounds), out: outliers%s", *cycles_unit ? "; cycles: " : "");
	text_put(stdout, cycles_unit, TEXT_CELL_MAX);
	puts("; core: core cycles");
	printf("%-*s  %-*s  %-4s %10s %10s %10s %10s %10s %6s %10s %9s %9s %7s %4s\n",
	       (int)nw, "name", (int)pw, "path", "unit", "median", "ci95-lo", "ci95-hi",
	       "min", "mean", "rCV%", "p99", "cycles", "core", "n", "out");
	for (size_t i = 0; i < r->ncells; i++) {
		print_cell(r, &r->cells[i], nw, pw);
		if (histogram && measured(&r->cells[i]))
			textplot_histogram(stdout, r->cells[i].values, r->cells[i].n,
					   "    ");
	}
}

/* ---- JSON ----------------------------------------------------------- */


int cmd_show(int argc, char **argv)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct show_options o = { 0 };
	struct stored_run run;
	json_t *arr = NULL;
	struct store *st;
	int64_t *ids;
	size_t n;
	bool json;
	int rc = parse_show_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	rc = 1;
	json = o.format == 1;
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	if (record_resolve_specs(st, o.specs, o.nspecs, &ids, &n))
		goto out;
	if (json)
		arr = runs_json_new();
	for (size_t i = 0; i < n; i++) {
		if (store_load_run(st, ids[i], &run, &err)) {
			error_msg("%s", err.buf);
			goto out;
		}
		if (json) {
			runs_json_add(arr, &run, o.samples);
		} else {
			if (i)
				putchar('\n');
			print_run_table(&run, o.histogram);
		}
		stored_run_free(&run);
	}
	if (arr) {
		json_print(stdout, arr);
	}
	rc = 0;		/* stdout is checked by main, for every command */
out:
	json_decref(arr);
	free(ids);
	store_close(st);
	return rc;
}
