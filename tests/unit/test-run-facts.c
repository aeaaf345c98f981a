// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of results/run-facts.c: a run's JSON decoded once into fields,
 * as the run recorded them, and whatever an imported file put there (wrong
 * types, lists of the wrong length, counts out of range) read as unknown,
 * never as a crash or a figure made up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <jansson.h>

#include "results/run-facts.h"

struct fixture {
	struct stored_run run;
};

/* A run of env, config and quality (each taken; NULL for none). */
static const struct run_facts *facts_of(struct fixture *f, json_t *env, json_t *config,
					json_t *quality)
{
	memset(&f->run, 0, sizeof(f->run));
	f->run.env = env;
	f->run.config = config;
	f->run.quality = quality;
	return run_facts(&f->run);
}

static void release(struct fixture *f)
{
	run_facts_forget(&f->run);
	json_decref(f->run.env);
	json_decref(f->run.config);
	json_decref(f->run.quality);
}

/* Decoded once: the second call returns the same fields, not a new decode. */
static void test_decoded_once(void **state)
{
	struct fixture f;
	const struct run_facts *a = facts_of(&f, json_pack("{s:s}", "invocation", "u-1"),
					     NULL, NULL);

	(void)state;
	assert_ptr_equal(run_facts(&f.run), a);
	assert_string_equal(a->invocation, "u-1");
	release(&f);
}

/* Nothing recorded: every text NULL, every number NAN, every list empty. */
static void test_nothing_recorded(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL, NULL, NULL);

	(void)state;
	assert_null(r->invocation);
	assert_null(r->argv.word);
	assert_true(r->argv.whole);
	assert_true(isnan(r->settings.bench.method.budget_s) && isnan(r->settings.scale.calls) &&
		    isnan(r->settings.hotplug.cpu) && isnan(r->settings.exec.runs));
	assert_true(isnan(r->clock_step_ns));
	assert_int_equal(r->settings.scale.threads.n, 0);
	assert_int_equal(r->settings.scale.ncpu_time, 0);
	assert_false(r->settings.doctor.problems_known);
	assert_false(r->settings.accounting_known);
	assert_int_equal(r->settings.hotplug.trace, -1);
	assert_null(r->quality_summary);
	assert_int_equal(r->nround_speeds, 0);
	release(&f);
}

/* A command line's words: the texts kept, a word that is not one marks the
 * list as not whole, argv_exact false as masked. */
static void test_words(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f,
		json_pack("{s:[s, i, s], s:b}", "argv", "bench", 7, "--quick", "argv_exact", 0),
		json_pack("{s:[s, s], s:s, s:b, s:i}", "command", "sh", "-c",
			  "prepare", "sync", "shell", 1, "runs", 30),
		NULL);

	(void)state;
	assert_int_equal(r->argv.n, 2);
	assert_string_equal(r->argv.word[0], "bench");
	assert_string_equal(r->argv.word[1], "--quick");
	assert_null(r->argv.word[2]);
	assert_false(r->argv.whole);
	assert_true(r->argv_masked);
	assert_int_equal(r->settings.exec.command.n, 2);
	assert_true(r->settings.exec.command.whole);
	assert_string_equal(r->settings.exec.prepare, "sync");
	assert_true(r->settings.exec.shell);
	assert_true(r->settings.exec.runs == 30);
	release(&f);
}

/* scale's counts stay in step with its cells: one for each element, a
 * negative or fractional one 0 and the list not whole; an idle run's are
 * its idle threads'. */
static void test_counts(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL,
		json_pack("{s:s, s:[i, i, i], s:[i], s:i}", "mode", "threads",
			  "threads", 1, 2, 4, "idle_threads", 9, "calls", 5000000),
		NULL);
	const struct run_counts *c = &r->settings.scale.threads;

	(void)state;
	assert_false(r->settings.scale.idle);
	assert_int_equal(c->n, 3);
	assert_true(c->whole);
	assert_int_equal(c->count[2], 4);
	assert_true(r->settings.scale.calls == 5000000);
	release(&f);
	r = facts_of(&f, NULL, json_pack("{s:s, s:[i], s:[i, f, i]}", "mode", "idle",
					 "threads", 1, "idle_threads", -1, 2.5, 8), NULL);
	c = &r->settings.scale.threads;
	assert_true(r->settings.scale.idle);
	assert_int_equal(c->n, 3);
	assert_false(c->whole);
	assert_int_equal(c->count[0], 0);
	assert_int_equal(c->count[1], 0);
	assert_int_equal(c->count[2], 8);
	release(&f);
}

/* A cell's CPU times: both lists of one length, or none for that cell. */
static void test_cpu_time(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL,
		json_pack("{s:[{s:s, s:[f, f], s:[f, f]}, {s:s, s:[f], s:[f, f]}, s]}",
			  "cpu_time", "name", "times-threads-1", "user_s", 0.5, 1.5, "sys_s", 0.25, 0.75,
			  "name", "times-threads-2", "user_s", 1.0, "sys_s", 1.0, 2.0, "junk"),
		NULL);

	(void)state;
	assert_int_equal(r->settings.scale.ncpu_time, 3);
	assert_string_equal(r->settings.scale.cpu_time[0].cell, "times-threads-1");
	assert_int_equal(r->settings.scale.cpu_time[0].n, 2);
	assert_true(r->settings.scale.cpu_time[0].user_s[1] == 1.5 && r->settings.scale.cpu_time[0].sys_s[0] == 0.25);
	assert_string_equal(r->settings.scale.cpu_time[1].cell, "times-threads-2");
	assert_null(r->settings.scale.cpu_time[1].user_s);
	assert_int_equal(r->settings.scale.cpu_time[1].n, 0);
	assert_null(r->settings.scale.cpu_time[2].cell);
	assert_null(r->settings.scale.cpu_time[2].user_s);
	release(&f);
}

/* The rounds' speeds: only a speed above 0 at a round from 0; a round
 * without its number is its place. No array is sized by a round's number. */
static void test_round_speeds(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL, NULL,
		json_pack("{s:[{s:I, s:f}, {s:i, s:f}, {s:f}, {s:i, s:i}, {s:i, s:n}]}", "rounds",
			  "round", (json_int_t)1 << 40, "core_ghz", 3.0,
			  "round", -2, "core_ghz", 3.0,
			  "core_ghz", 2.5,
			  "round", 4, "core_ghz", 0,
			  "round", 5, "core_ghz"));

	(void)state;
	assert_int_equal(r->nround_speeds, 2);
	assert_true(r->round_speeds[0].round == (int64_t)1 << 40);
	assert_true(r->round_speeds[1].round == 2 && r->round_speeds[1].core_ghz == 2.5);
	release(&f);
}

/* doctor's problems, each field a text or NULL; no list is not an empty one. */
static void test_problems(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL,
		json_pack("{s:s, s:s, s:[{s:s, s:s, s:s}, {s:i}]}", "verdict", "problems",
			  "clocksource", "hpet", "problems", "cell", "time", "path", "libc",
			  "cause", "interposed", "cell", 3),
		NULL);

	(void)state;
	assert_string_equal(r->settings.doctor.verdict, "problems");
	assert_string_equal(r->settings.doctor.clocksource, "hpet");
	assert_true(r->settings.doctor.problems_known);
	assert_int_equal(r->settings.doctor.nproblems, 2);
	assert_string_equal(r->settings.doctor.problems[0].cause, "interposed");
	assert_null(r->settings.doctor.problems[1].cell);
	release(&f);
	r = facts_of(&f, NULL, json_pack("{s:s}", "verdict", "healthy"), NULL);
	assert_false(r->settings.doctor.problems_known);
	release(&f);
}

/* Forgetting, then reading again, decodes what the run holds now. */
static void test_forget_reads_anew(void **state)
{
	struct fixture f;
	const struct run_facts *r = facts_of(&f, NULL, NULL, NULL);

	(void)state;
	assert_null(r->quality_summary);
	f.run.quality = json_pack("{s:s}", "summary", "steady");
	run_facts_forget(&f.run);
	assert_string_equal(run_facts(&f.run)->quality_summary, "steady");
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decoded_once),
		cmocka_unit_test(test_nothing_recorded),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_cpu_time),
		cmocka_unit_test(test_round_speeds),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_forget_reads_anew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
