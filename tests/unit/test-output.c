// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of report/output.c (bench's table, CSV, TAP and JSON),
 * scenario/scale-report.c (scale's table, JSON, CSV and stored cells) and
 * basic/progress.c, on runs made up here, so that every figure is known.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "basic/json.h"
#include "basic/progress.h"
#include "basic/util.h"
#include "report/output.h"
#include "report/scale-table.h"
#include "results/record.h"
#include "scenario/scale-report.h"

/* Whatever fn writes to a FILE, as a string. */
static char *written(void (*fn)(FILE *f, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, ctx);
	fclose(f);
	return buf;
}

/* ---- a bench run of two cells: one measured, one n/a ------------------ */

static double ns[] = { 20.0, 20.5, 19.5, 20.25, 19.75, 21.0, 20.0, 20.0 };
static uint32_t rounds[] = { 0, 0, 0, 0, 1, 1, 1, 1 };

struct fixture {
	struct bench_cell cells[2];
	struct bench_run run;
};

/* Two modes, 20 and 30 ns, six batches of each in each of two rounds. */
static double two_modes[] = {
	20.0, 20.1, 19.9, 20.0, 20.2, 19.8, 30.0, 30.1, 29.9, 30.0, 30.2, 29.8,
	20.0, 20.1, 19.9, 20.0, 20.2, 19.8, 30.0, 30.1, 29.9, 30.0, 30.2, 29.8,
};
static uint32_t two_modes_rounds[] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* The run, its measured cell's batches x[0..n) in rounds[0..n). */
static void make_run_of(struct fixture *fx, double *x, uint32_t *rnd, size_t n)
{
	struct cell_result *r = &fx->cells[0].res;

	memset(fx, 0, sizeof(*fx));
	strcpy(fx->cells[0].cell.name, "clock-gettime-monotonic");
	fx->cells[0].cell.api = API_CLOCK_GETTIME;
	fx->cells[0].cell.path = PATH_VDSO;
	fx->cells[0].cell.clock = catalog_clock_by_name("monotonic");
	fx->cells[0].measured = true;
	r->ns = x;
	r->rounds = rnd;
	r->n = n;
	r->nrounds = 2;
	r->batch_calls = 500;
	timing_summarize(r);

	strcpy(fx->cells[1].cell.name, "times");
	fx->cells[1].cell.api = API_TIMES;
	fx->cells[1].cell.path = PATH_VDSO;
	fx->cells[1].cell.status = CELL_NA;
	strcpy(fx->cells[1].cell.why, "the kernel's vDSO has no times()");

	fx->run.cells = fx->cells;
	fx->run.ncells = 2;
	fx->run.cycles_unit = "none";
	fx->run.started.tv_sec = 1796133002;	/* 2026-12-01T13:50:02Z */
	fx->run.elapsed_s = 1.5;
	snprintf(fx->run.env.hostname, sizeof(fx->run.env.hostname), "vm1");
	snprintf(fx->run.env.kernel_release, sizeof(fx->run.env.kernel_release),
		 "6.18.44");
}

static void make_run(struct fixture *fx)
{
	make_run_of(fx, ns, rounds, ARRAY_SIZE(ns));
}

static void free_run(struct fixture *fx)
{
	/* The samples are static: only what the summaries allocated. */
	fx->cells[0].res.ns = NULL;
	fx->cells[0].res.rounds = NULL;
	cell_result_free(&fx->cells[0].res);
}

struct output_call {
	struct fixture *fx;
	enum output_format fmt;
	struct stored_run *stored;
	int rc;
};

static void call_output(FILE *f, void *ctx)
{
	struct output_call *c = ctx;

	c->rc = output_bench(f, c->fmt, c->stored, false);
}

static char *output_of(struct fixture *fx, enum output_format fmt,
		       struct stored_run *stored)
{
	struct output_call c = { fx, fmt, stored, -1 };
	char *out = written(call_output, &c);

	assert_int_equal(c.rc, 0);
	return out;
}

/* Every format but the table's header is printed from the run as stored. */
static char *stored_output_of(struct fixture *fx, enum output_format fmt)
{
	struct store_options o = { 0 };
	struct stored_run sr;
	char *out;

	record_from_bench(&fx->run, &o, &sr);
	out = output_of(fx, fmt, &sr);
	stored_run_free(&sr);
	return out;
}

static void test_table(void **state)
{
	/* Kept by record_command_line(), as main's argv: static. */
	static char prog[] = "clockbench", cmd[] = "bench", *argv[] = { prog, cmd, NULL };
	struct fixture fx;
	char *out;

	/* The version the header cites is the one the run recorded, with argv. */
	record_command_line(2, argv);
	make_run(&fx);
	out = stored_output_of(&fx, FORMAT_TABLE);
	assert_non_null(strstr(out, "# clockbench " CLOCKBENCH_VERSION " bench, 2026-12-01 13:50:02 UTC, 1.5 s\n"
				    "# kernel: 6.18.44 () \n"));
	/* Neither core cycles, nor a warm-up, nor a quality: none measured. */
	assert_non_null(strstr(out, "# cycles: none (-)\n# harness overhead: - ns/call"));
	assert_non_null(strstr(out, "\nname                     path  ns/call  ci95-lo"));
	/* The median of the eight batches is 20.00; two rounds. */
	assert_non_null(strstr(out, "\nclock-gettime-monotonic  vdso    20.00"));
	/* Why it has no figures, right after its name and path. */
	assert_non_null(strstr(out, "\ntimes                    vdso  n/a: "
				    "the kernel's vDSO has no times()\n"));
	free(out);
	free_run(&fx);
}

static void test_csv(void **state)
{
	struct fixture fx;
	char *out, *row;

	make_run(&fx);
	out = stored_output_of(&fx, FORMAT_CSV);
	assert_true(strncmp(out, "name,api,clock,path,status,reason,n,batch_calls,"
			    "ns_median,", strlen("name,api,clock,path,status,"
						 "reason,n,batch_calls,ns_median,")) == 0);
	row = strstr(out, "\nclock-gettime-monotonic,clock_gettime,monotonic,vdso,ok,,8,500,20.000,");
	assert_non_null(row);
	assert_non_null(strstr(out, "\ntimes,times,,vdso,n/a,the kernel's vDSO has no times(),"));
	free(out);
	free_run(&fx);
}

/* Issue 20: the table and the JSON flagged a bimodal cell; CSV and TAP did not. */
static void test_csv_and_tap_flag_bimodal(void **state)
{
	static const char header_end[] = ",core_cycles_ci95_hi,bimodal\n";
	struct fixture fx;
	char *out, *eol;

	make_run(&fx);
	out = stored_output_of(&fx, FORMAT_CSV);
	eol = strchr(out, '\n');
	assert_non_null(eol);
	assert_true(eol + 1 - out >= (ptrdiff_t)strlen(header_end));
	assert_memory_equal(eol + 1 - strlen(header_end), header_end, strlen(header_end));
	/* Not bimodal: false at the end of its row; n/a: an empty field. */
	assert_non_null(strstr(out, "\nclock-gettime-monotonic,"));
	assert_non_null(strstr(strstr(out, "\nclock-gettime-monotonic,"), ",false\ntimes,"));
	assert_non_null(strstr(out, "has no times(),,,,,,,,,,,,,,,\n"));
	free(out);
	out = stored_output_of(&fx, FORMAT_TAP);
	assert_null(strstr(out, "bimodal"));
	free(out);
	free_run(&fx);

	make_run_of(&fx, two_modes, two_modes_rounds, ARRAY_SIZE(two_modes));
	out = stored_output_of(&fx, FORMAT_CSV);
	assert_non_null(strstr(strstr(out, "\nclock-gettime-monotonic,"), ",true\ntimes,"));
	free(out);
	out = stored_output_of(&fx, FORMAT_TAP);
	/* A diagnostic right after the cell's line, before the next test point. */
	assert_non_null(strstr(out, "n 24)\n# clock-gettime-monotonic vdso: bimodal: "
				    "the batches fall into two modes"));
	assert_non_null(strstr(out, "two modes, the median is the one of whichever holds more\nok 2 times"));
	free(out);
	free_run(&fx);
}

static void test_tap(void **state)
{
	struct fixture fx;
	char *out;

	make_run(&fx);
	out = stored_output_of(&fx, FORMAT_TAP);
	assert_true(strncmp(out, "TAP version 13\n1..2\n", 20) == 0);
	assert_non_null(strstr(out, "ok 1 clock-gettime-monotonic vdso: 20.00 ns/call ("));
	assert_non_null(strstr(out, "ok 2 times vdso # SKIP the kernel's vDSO has no times()\n"));
	assert_non_null(strstr(out, "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0\n"));
	free(out);
	free_run(&fx);
}

/*
 * JSON is the stored run's, in export's envelope: the figures are
 * recomputed from its samples.
 */
static void test_json_is_the_stored_run(void **state)
{
	struct store_options o = { .label = "before" };
	struct stored_run sr;
	struct fixture fx;
	json_t *doc, *j, *cell;
	char *out;

	make_run(&fx);
	record_from_bench(&fx.run, &o, &sr);
	out = output_of(&fx, FORMAT_JSON, &sr);
	doc = json_loads(out, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(doc, "clockbench_export")),
			 STORE_EXPORT_VERSION);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 1);
	j = json_array_get(json_object_get(doc, "runs"), 0);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "label")), "before");
	assert_string_equal(json_string_value(json_object_get(j, "command")), "bench");
	cell = json_array_get(json_object_get(j, "cells"), 0);
	assert_true(json_real_value(json_object_get(json_object_get(cell, "summary"),
						    "median")) == 20.0);
	assert_int_equal(json_array_size(json_object_get(cell, "round_medians")), 2);
	assert_null(json_object_get(cell, "samples"));
	json_decref(doc);
	free(out);
	stored_run_free(&sr);
	free_run(&fx);
}

/* ---- scale -------------------------------------------------------------- */

static void make_scale(struct scale_report *r, struct scale_cell *c,
		       struct scale_point *p, struct scale_sample s[2][3],
		       unsigned *counts)
{
	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	strcpy(c->cell.name, "times");
	c->cell.api = API_TIMES;
	c->cell.path = PATH_LIBC;
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 3; i++)
			s[k][i] = (struct scale_sample){
				.elapsed_s = (k + 1) * (1.0 + 0.01 * i),
				.user_s = 0.5 * (k + 1), .sys_s = 0.25 * (k + 1),
			};
		p[k] = (struct scale_point){ .samples = s[k], .n = 3 };
	}
	c->points = p;
	counts[0] = 2;
	counts[1] = 8;
	r->mode = SCALE_THREADS;
	r->calls = 1000000;
	r->repetitions = 3;
	r->counts = counts;
	r->ncounts = 2;
	r->series = "as given";
	r->ncpus = 2;
	r->cells = c;
	r->ncells = 1;
	r->cycles_unit = "none";
	scale_report_summarize(r);
}

struct scale_call {
	const struct scale_report *r;
	enum output_format fmt;
	const struct stored_run *stored;
};

static void call_scale(FILE *f, void *ctx)
{
	const struct scale_call *c = ctx;

	assert_int_equal(scale_report_print(f, c->r, c->fmt, c->stored), 0);
}

static void call_scale_table(FILE *f, void *ctx)
{
	scale_table_print(f, ctx);
}

static void test_scale_report(void **state)
{
	struct scale_sample s[2][3];
	struct scale_point p[2];
	struct scale_cell c;
	struct scale_report r;
	struct stored_run sr;
	unsigned counts[2];
	struct scale_call call = { &r, FORMAT_CSV, &sr };
	char *out;
	json_t *j;

	make_scale(&r, &c, p, s, counts);
	/* Elapsed: the median of 1.00, 1.01, 1.02 and of twice those. */
	assert_true(p[0].elapsed.median == 1.01 && p[1].elapsed.median == 2.02);
	/* The CSV is printed from the stored run, as the table. */
	memset(&sr, 0, sizeof(sr));
	scale_report_add_cells(&r, &sr);
	sr.command = xstrdup("scale");
	out = written(call_scale, &call);
	assert_non_null(strstr(out, "\ntimes,times,,libc,2,3,1.01"));
	assert_non_null(strstr(out, "\ntimes,times,,libc,8,3,2.02"));
	free(out);
	call.fmt = FORMAT_JSON;
	out = written(call_scale, &call);
	j = json_loads(out, 0, NULL);
	assert_non_null(j);
	json_decref(j);
	free(out);
	/* Stored: a cell per count, the repetitions' seconds. */
	assert_int_equal(sr.ncells, 2);
	assert_string_equal(sr.cells[1].name, "times-threads-8");
	assert_string_equal(sr.cells[1].unit, "s");
	assert_int_equal(sr.cells[1].n, 3);
	assert_true(sr.cells[1].values[2] == 2.04);
	/* Its table, from the stored run: what scale and show print. */
	assert_true(scale_table_applies(&sr));
	out = written(call_scale_table, &sr);
	assert_non_null(strstr(out, "\ntimes (libc)\nthreads  elapsed-s"));
	assert_non_null(strstr(out, "\n      2      1.010 "));
	assert_non_null(strstr(out, "  +0.0%    750.0   0.500  0.250  3\n"));
	assert_non_null(strstr(out, "\n      8      2.020 "));
	assert_non_null(strstr(out, "  +100.0%   1500.0   1.000  0.500  3\n"));
	free(out);
	/* A count an interrupted run did not reach: a row of '-', a note why. */
	sr.cells[1].n = 0;
	out = written(call_scale_table, &sr);
	assert_non_null(strstr(out, "\n      8          -        -        -     -       -"));
	assert_non_null(strstr(out, "\n# 8 threads: not reached, the run was interrupted\n"));
	free(out);
	/* In the CSV: n 0 and every figure empty, as before the table model. */
	call.fmt = FORMAT_CSV;
	out = written(call_scale, &call);
	assert_non_null(strstr(out, "\ntimes,times,,libc,8,0,,,,,,,\n"));
	free(out);
	sr.cells[1].n = 3;
	/* A cell whose name does not carry its count: not a scale table. */
	free(sr.cells[1].name);
	sr.cells[1].name = xstrdup("times-threads-9");
	assert_false(scale_table_applies(&sr));
	stored_run_free(&sr);
}

/* ---- the one JSON writer ----------------------------------------------- */

/* NaN and both infinities are null (json_real() would give NULL: no key). */
static void test_json_number_rule(void **state)
{
	static const double undefined[] = { NAN, INFINITY, -INFINITY };
	json_t *o = json_object();
	json_t *v;

	for (size_t i = 0; i < ARRAY_SIZE(undefined); i++) {
		v = json_number(undefined[i]);
		assert_non_null(v);
		assert_true(json_is_null(v));
		json_decref(v);
	}
	assert_int_equal(json_object_set_new(o, "x", json_number(INFINITY)), 0);
	assert_true(json_is_null(json_object_get(o, "x")));
	json_decref(o);
	v = json_number(-0.25);
	assert_true(json_is_real(v) && json_real_value(v) == -0.25);
	json_decref(v);
}

/* Every double json_print() writes reads back as itself. */
static void test_json_print_round_trips(void **state)
{
	static const double x[] = {
		23.306818181818183, 0.1, 1.0 / 3, 2.0 / 3 * 1e-300, 6.02214076e23,
		4.9e-324, 1.7976931348623157e308, 980.99999999999989,
	};
	json_t *a = json_array(), *back;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		json_array_append_new(a, json_number(x[i]));
	assert_int_equal(json_print(f, a), 0);
	fclose(f);
	assert_non_null(strstr(text, "23.306818181818183"));
	assert_true(len > 0 && text[len - 1] == '\n');
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		assert_true(json_real_value(json_array_get(back, i)) == x[i]);
	json_decref(back);
	json_decref(a);
	free(text);
}

/* ---- progress --------------------------------------------------------- */

static void test_progress_only_on_a_terminal(void **state)
{
	char path[] = "/tmp/clockbench-progress-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	struct progress p;
	char *text;

	assert_true(fd >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	progress_init(&p, 3);		/* not a terminal: silent */
	progress_update(&p, 0, "first");
	progress_done(&p);
	p.enabled = true;		/* as on a terminal */
	progress_update(&p, 1, "second cell");
	progress_done(&p);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	text = read_text_file(path, 1 << 16);
	unlink(path);
	assert_non_null(text);
	assert_null(strstr(text, "first"));
	assert_non_null(strstr(text, "\r\033[K[  2/3] second cell"));
	assert_non_null(strstr(text, "s elapsed, ~"));
	/* progress_done() erases the line. */
	assert_true(strcmp(text + strlen(text) - 4, "\r\033[K") == 0);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_tap),
		cmocka_unit_test(test_csv_and_tap_flag_bimodal),
		cmocka_unit_test(test_json_is_the_stored_run),
		cmocka_unit_test(test_scale_report),
		cmocka_unit_test(test_json_number_rule),
		cmocka_unit_test(test_json_print_round_trips),
		cmocka_unit_test(test_progress_only_on_a_terminal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
