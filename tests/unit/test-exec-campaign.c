// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of src/scenario/exec-campaign.c (the -L/-P parameter, the
 * commands built from the options: substitution, labels, --prepare, the
 * usage errors) and src/scenario/exec-record.c (what a campaign's runs
 * warrant a warning of, on figures made here so that every verdict is
 * known beforehand).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/compare.h"
#include "scenario/exec-campaign.h"
#include "scenario/exec-record.h"

static void test_parameter_list(void **state)
{
	struct exec_campaign e = EXEC_CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(exec_parameter_list(&e.o, "v=a,b c,d", &err), 0);
	assert_string_equal(e.o.param, "v");
	assert_int_equal(e.o.nvalues, 3);
	assert_string_equal(e.o.values[1], "b c");
	assert_null(e.o.values[3]);
	/* One parameter per invocation: its values make the commands. */
	assert_int_equal(exec_parameter_scan(&e.o, "n=1..2", &err), -1);
	assert_string_equal(err.buf, "one -L or -P per run (already: v)");
	exec_campaign_free(&e);
	strbuf_release(&err);
}

static void test_parameter_list_refused(void **state)
{
	static const char *const bad[] = {
		"v", "=a", "1v=a", "v-w=a", "v=", "v=a,b\x1b[31m",
	};
	static const char *const why[] = {
		"invalid -L 'v': expected NAME=V1,V2,... (NAME: letters, digits, _)",
		"invalid -L '=a': expected NAME=V1,V2,... (NAME: letters, digits, _)",
		"invalid -L '1v=a': expected NAME=V1,V2,... (NAME: letters, digits, _)",
		"invalid -L 'v-w=a': expected NAME=V1,V2,... (NAME: letters, digits, _)",
		"invalid -L 'v=': no values",
		"invalid -L: a value cannot hold control characters",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct exec_campaign e = EXEC_CAMPAIGN_INIT;
		struct strbuf err = STRBUF_INIT;

		assert_int_equal(exec_parameter_list(&e.o, bad[i], &err), -1);
		assert_string_equal(err.buf, why[i]);
		exec_campaign_free(&e);
		strbuf_release(&err);
	}
}

static void test_parameter_scan(void **state)
{
	static const struct {
		const char *arg;
		const char *values;	/* joined by spaces, or the error */
	} cases[] = {
		{ "n=1..3", "1 2 3" },
		{ "n=0..10..5", "0 5 10" },
		{ "n=-2..1..2", "-2 0" },
		{ "n=4..4", "4" },
		{ "n=1..32", NULL },
		{ "n=1..33", "-P 'n=1..33' gives 33 values: at most 32" },
		{ "n=3..1", "invalid -P 'n=3..1': expected NAME=LO..HI[..STEP], integers, "
			    "LO <= HI, STEP > 0" },
		{ "n=1..3..0", "invalid -P 'n=1..3..0': expected NAME=LO..HI[..STEP], "
			       "integers, LO <= HI, STEP > 0" },
		{ "n=1..3..", "invalid -P 'n=1..3..': expected NAME=LO..HI[..STEP], "
			      "integers, LO <= HI, STEP > 0" },
		{ "n=1.5..3", "invalid -P 'n=1.5..3': expected NAME=LO..HI[..STEP], "
			      "integers, LO <= HI, STEP > 0" },
		{ "n=1..3x", "invalid -P 'n=1..3x': expected NAME=LO..HI[..STEP], "
			     "integers, LO <= HI, STEP > 0" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct exec_campaign e = EXEC_CAMPAIGN_INIT;
		struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
		int rc = exec_parameter_scan(&e.o, cases[i].arg, &err);

		for (size_t k = 0; rc == 0 && k < e.o.nvalues; k++)
			strbuf_addf(&got, "%s%s", k ? " " : "", e.o.values[k]);
		if (!cases[i].values)
			assert_int_equal(e.o.nvalues, EXEC_MAX_COMMANDS);
		else
			assert_string_equal(rc == 0 ? got.buf : err.buf, cases[i].values);
		exec_campaign_free(&e);
		strbuf_release(&err);
		strbuf_release(&got);
	}
}

/* A campaign of the -c lines given, made as exec makes it: 0 or -1 with err. */
static int make(struct exec_campaign *e, const char *const *lines, size_t n,
		struct strbuf *err)
{
	if (!e->o.runs)
		e->o.runs = 10;
	e->o.lines.line = xcalloc(n, sizeof(*lines));
	memcpy(e->o.lines.line, lines, n * sizeof(*lines));
	e->o.lines.n = n;
	return exec_campaign_make(e, false, err);
}

static void test_make_parameter(void **state)
{
	const char *lines[] = { "/bin/sh -c 'exit {v}'" };
	struct exec_campaign e = EXEC_CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;
	char want[64];

	(void)state;
	assert_int_equal(exec_parameter_list(&e.o, "v=0,1", &err), 0);
	assert_int_equal(make(&e, lines, 1, &err), 0);
	assert_int_equal(e.ncmds, 2);
	assert_string_equal(e.cmds[1].text, "/bin/sh -c 'exit 1'");
	assert_string_equal(e.cmds[1].program, "/bin/sh");
	assert_string_equal(e.cmds[1].words[2], "exit 1");
	assert_string_equal(e.cmds[1].value, "1");
	assert_null(e.cmds[1].prepare);
	/* Several commands: labels of this invocation, named by their value. */
	snprintf(want, sizeof(want), "exec-%.8s-v=1", e.interleave);
	assert_string_equal(e.cmds[1].label, want);
	exec_campaign_free(&e);
	strbuf_release(&err);
}

static void test_make_prepare_and_labels(void **state)
{
	const char *lines[] = { "/bin/sh -c 'exit {n}'", "/bin/sh -c ': {n}'" };
	const char *prepares[] = { "echo {n} a", "echo {n} b" };
	struct exec_campaign e = EXEC_CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(exec_parameter_scan(&e.o, "n=1..2", &err), 0);
	e.o.prepares.line = xcalloc(2, sizeof(*prepares));
	memcpy(e.o.prepares.line, prepares, sizeof(prepares));
	e.o.prepares.n = 2;
	e.o.labels = "a1,a2,b1,b2";
	/* One --prepare per template when there are as many as templates. */
	assert_int_equal(make(&e, lines, 2, &err), 0);
	assert_int_equal(e.ncmds, 4);
	assert_string_equal(e.cmds[1].prepare, "echo 2 a");
	assert_string_equal(e.cmds[2].prepare, "echo 1 b");
	assert_string_equal(e.cmds[3].text, "/bin/sh -c ': 2'");
	assert_string_equal(e.cmds[3].label, "b2");
	exec_campaign_free(&e);
	strbuf_release(&err);
}

static void test_make_refused(void **state)
{
	static const struct {
		const char *line, *list, *labels;
		bool shell;
		long runs;
		const char *why;
	} cases[] = {
		{ "/bin/sh -c {w}", "v=a,b", NULL, false, 10,
		  "no {v} in the command '/bin/sh -c {w}'" },
		{ "/bin/sh -c {v}", "v=a;b,c", NULL, true, 10,
		  "the value 'a;b' holds ';', which a shell reads as code or a blank: "
		  "in --shell a value is pasted into the line as it is, so it may "
		  "hold only letters, digits and _.,:/=+@%-; without --shell a value "
		  "is one literal word, whatever it holds" },
		{ "/bin/sh -c {v}", "v=a,b", "x,x", false, 10,
		  "two commands are labelled 'x' (name them with --labels)" },
		{ "/bin/sh -c {v}", "v=a,b", "x", false, 10,
		  "--labels names 1 commands, there are 2" },
		{ "/bin/sh -c {v}", "v=a,b", NULL, false, 1,
		  "-n 1: several commands are compared over 2 runs each at least" },
		{ "/bin/sh | cat", NULL, NULL, false, 10,
		  "cannot split -c '/bin/sh | cat': '|' needs a shell: quote it "
		  "(or use --shell)" },
		{ "/nonexistent/clockbench-test", NULL, NULL, false, 10,
		  "command not found: /nonexistent/clockbench-test" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct exec_campaign e = EXEC_CAMPAIGN_INIT;
		struct strbuf err = STRBUF_INIT;

		if (cases[i].list)
			assert_int_equal(exec_parameter_list(&e.o, cases[i].list, &err), 0);
		e.o.labels = cases[i].labels;
		e.o.shell = cases[i].shell;
		e.o.runs = cases[i].runs;
		assert_int_equal(make(&e, &cases[i].line, 1, &err), -1);
		assert_string_equal(err.buf, cases[i].why);
		exec_campaign_free(&e);
		strbuf_release(&err);
	}
}

static void test_two_groups_split(void **state)
{
	/* seed 003: offline alternated with online. */
	const double seed[] = { 0.0035, 0.0043, 0.027, 0.036 };
	const double one[] = { 0.010, 0.011, 0.012, 0.013, 0.014, 0.015 };
	/* A gap of 3, but groups spread over 4 times and 5 times themselves. */
	const double spread[] = { 0.001, 0.002, 0.004, 0.012, 0.030, 0.060 };
	const double zero[] = { 0, 0, 0.010, 0.010, 0.050, 0.050 };

	(void)state;
	assert_int_equal(exec_two_groups_split(seed, 4), 2);
	assert_int_equal(exec_two_groups_split(one, 6), 0);
	assert_int_equal(exec_two_groups_split(spread, 6), 0);
	assert_int_equal(exec_two_groups_split(zero, 6), 0);
}

/* Two commands, n timed runs each, A B B A: wall times filled by the test. */
struct two {
	struct exec_campaign e;
	struct exec_command cmds[2];
	double wall[2][12];
	struct exec_disturb reps[2][12];
	size_t after[2][12];
};

static void two_commands(struct two *t, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->e.cmds = t->cmds;
	t->e.ncmds = 2;
	t->e.o.runs = (long)n;
	for (size_t i = 0; i < 2; i++) {
		snprintf(t->cmds[i].label, sizeof(t->cmds[i].label), "%c", (int)('A' + i));
		t->cmds[i].s.wall = t->wall[i];
		t->cmds[i].s.n = n;
		t->cmds[i].reps = t->reps[i];
		t->cmds[i].after = t->after[i];
	}
	/* A B B A A B ...: what ran before each of A's and B's runs. */
	for (size_t k = 0; k < n; k++) {
		t->after[0][k] = k == 0 ? EXEC_AFTER_NONE : k % 2 ? 1 : 0;
		t->after[1][k] = k % 2 ? 1 : 0;
	}
}

static void test_warnings_order(void **state)
{
	struct two t;
	struct exec_report_warnings w;

	(void)state;
	two_commands(&t, 12);
	/* A takes 30 ms after itself and 3 ms after B: it depends on the order. */
	for (size_t k = 0; k < 12; k++) {
		t.wall[0][k] = t.after[0][k] == 0 ? 0.030 + k * 1e-4 : 0.003 + k * 1e-5;
		t.wall[1][k] = 0.005 + k * 1e-5;
	}
	exec_campaign_warnings(&t.e, 0, &w);
	assert_string_equal(w.label, "A");
	assert_true(w.order_effect);
	assert_int_equal(w.after_self, 5);
	assert_int_equal(w.after_other, 6);
	assert_true(w.after_self_median_s > 0.030 && w.after_other_median_s < 0.004);
	/* The order explains the two groups: they are not warned of again. */
	assert_int_equal(w.low_n, 0);
	/* B's runs are alike, after either. */
	exec_campaign_warnings(&t.e, 1, &w);
	assert_false(w.order_effect);
	assert_int_equal(w.low_n, 0);
	assert_int_equal(w.outliers, 0);
	assert_false(w.slow_first);
	/* With --prepare restoring the state, two groups instead. */
	t.cmds[0].prepare = (char *)"true";
	exec_campaign_warnings(&t.e, 0, &w);
	assert_false(w.order_effect);
	assert_int_equal(w.low_n, 7);
	assert_int_equal(w.high_n, 5);
	assert_float_equal(w.low_min_s, 0.003, 1e-12);
	assert_float_equal(w.high_max_s, 0.031, 1e-12);
}

static void test_warnings_first_run(void **state)
{
	struct two t;
	struct exec_report_warnings w;

	(void)state;
	two_commands(&t, 8);
	t.e.ncmds = 1;
	for (size_t k = 0; k < 8; k++)
		t.wall[0][k] = 0.010 + k * 1e-4;
	t.wall[0][0] = 0.050;
	t.reps[0][0] = (struct exec_disturb){ .involuntary = 12, .wait_ms = 7,
					      .disturbed = true };
	exec_campaign_warnings(&t.e, 0, &w);
	assert_null(w.label);
	assert_int_equal(w.n, 8);
	assert_true(w.slow_first);
	assert_float_equal(w.first_s, 0.050, 0);
	assert_float_equal(w.rest_median_s, 0.0104, 1e-12);
	assert_true(w.first_disturbed);
	assert_int_equal(w.first_involuntary, 12);
	/* Beyond 14.8 MAD of the median too: hyperfine's outlier. */
	assert_int_equal(w.outliers, 1);
	assert_float_equal(w.outlier_mads, EXEC_OUTLIER_MADS, 0);
	/* After warm-up runs a slow first run is no news. */
	t.e.o.warmup = 1;
	exec_campaign_warnings(&t.e, 0, &w);
	assert_false(w.slow_first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parameter_list),
		cmocka_unit_test(test_parameter_list_refused),
		cmocka_unit_test(test_parameter_scan),
		cmocka_unit_test(test_make_parameter),
		cmocka_unit_test(test_make_prepare_and_labels),
		cmocka_unit_test(test_make_refused),
		cmocka_unit_test(test_two_groups_split),
		cmocka_unit_test(test_warnings_order),
		cmocka_unit_test(test_warnings_first_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
