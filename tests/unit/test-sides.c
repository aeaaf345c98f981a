// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of results/sides.c: the facts of the machines that differ
 * between two groups of runs, and what one of them can explain alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <jansson.h>

#include "results/compare.h"
#include "results/run-facts.h"
#include "results/sides.h"

/* A run whose environment is env (taken). */
static void run_with(struct stored_run *r, json_t *env, json_t *config)
{
	memset(r, 0, sizeof(*r));
	r->env = env;
	r->config = config;
}

static json_t *env_of(const char *clocksource, const char *cmdline, const char *libc_version)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:{s:s, s:s}, s:{s:b, s:b}}",
			 "clocksource", clocksource, "cmdline", cmdline,
			 "cpu_model", "AMD EPYC", "hypervisor", "",
			 "libc", "name", "glibc", "version", libc_version,
			 "time_namespace", "known", 1, "non_root", 0);
}

static const struct side_difference *find(const struct side_differences *d,
					  const char *fact)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->items[i].fact, fact))
			return &d->items[i];
	return NULL;
}

static void release(struct stored_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		run_facts_forget(&runs[i]);
		json_decref(runs[i].env);
		json_decref(runs[i].config);
	}
}

/* Issue 30's pair: 6.1 on hpet against 6.12 on tsc, told apart and explained. */
static void test_clocksource_named_and_explained(void **state)
{
	struct stored_run runs[2];
	struct compare_group base = { .runs = &runs[0], .nruns = 1 };
	struct compare_group other = { .runs = &runs[1], .nruns = 1 };
	struct side_differences d;
	const struct side_difference *cs, *opts;

	(void)state;
	run_with(&runs[0], env_of("hpet", "ro quiet tsc=unstable clocksource=hpet", "2.36"), NULL);
	run_with(&runs[1], env_of("tsc", "ro quiet nohz_full=1 -- tsc=reliable", "2.36"), NULL);
	sides_differ(&base, &other, &d);
	cs = find(&d, "clocksource");
	assert_non_null(cs);
	assert_string_equal(cs->base, "hpet");
	assert_string_equal(cs->other, "tsc");
	/* Only the kernel's words that touch time; init's, past "--", not. */
	opts = find(&d, "kernel time options");
	assert_non_null(opts);
	assert_string_equal(opts->base, "tsc=unstable clocksource=hpet");
	assert_string_equal(opts->other, "nohz_full=1");
	assert_null(find(&d, "libc"));
	assert_null(find(&d, "CPU model"));
	assert_non_null(d.explains);
	assert_non_null(strstr(d.explains, "The clocksource hpet is read by the kernel"));
	side_differences_free(&d);
	release(runs, 2);
}

/* The same machine: nothing said. Unknown facts are never a difference. */
static void test_same_or_unknown_is_not_different(void **state)
{
	struct stored_run runs[3];
	struct compare_group base = { .runs = &runs[0], .nruns = 1 };
	struct compare_group same = { .runs = &runs[1], .nruns = 1 };
	struct compare_group unknown = { .runs = &runs[2], .nruns = 1 };
	struct side_differences d;

	(void)state;
	run_with(&runs[0], env_of("tsc", "quiet", "2.36"), NULL);
	run_with(&runs[1], env_of("tsc", "quiet", "2.36"), NULL);
	run_with(&runs[2], json_object(), NULL);
	sides_differ(&base, &same, &d);
	assert_int_equal(d.n, 0);
	assert_null(d.explains);
	side_differences_free(&d);
	/* An environment that says nothing but that it is not emulated. */
	sides_differ(&base, &unknown, &d);
	assert_int_equal(d.n, 0);
	side_differences_free(&d);
	release(runs, 3);
}

/* Replicates that disagree are "mixed"; TCG boots are said EMULATED; tracing. */
static void test_mixed_emulated_and_tracing(void **state)
{
	struct stored_run runs[3];
	struct compare_group base = { .runs = &runs[0], .nruns = 1 };
	struct compare_group other = { .runs = &runs[1], .nruns = 2 };
	struct side_differences d;
	const struct side_difference *f;

	(void)state;
	run_with(&runs[0], env_of("tsc", "quiet", "2.36"), json_pack("{s:b}", "trace", 1));
	run_with(&runs[1], env_of("tsc", "quiet", "2.36"), json_pack("{s:b}", "trace", 0));
	run_with(&runs[2], env_of("kvm-clock", "quiet", "2.36"), json_pack("{s:b}", "trace", 0));
	json_object_set_new(runs[1].env, "vm", json_pack("{s:b, s:s}", "emulated", 1, "accel", "tcg"));
	json_object_set_new(runs[2].env, "vm", json_pack("{s:b, s:s}", "emulated", 1, "accel", "tcg"));
	sides_differ(&base, &other, &d);
	f = find(&d, "clocksource");
	assert_non_null(f);
	assert_string_equal(f->other, "mixed: tsc, kvm-clock");
	f = find(&d, "timings");
	assert_non_null(f);
	assert_string_equal(f->base, "not emulated");
	assert_string_equal(f->other, "EMULATED (qemu tcg)");
	f = find(&d, "tracing");
	assert_non_null(f);
	assert_string_equal(f->base, "on");
	assert_string_equal(f->other, "off");
	assert_null(d.explains);	/* both clocksources are the vDSO's */
	side_differences_free(&d);
	release(runs, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clocksource_named_and_explained),
		cmocka_unit_test(test_same_or_unknown_is_not_different),
		cmocka_unit_test(test_mixed_emulated_and_tracing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
