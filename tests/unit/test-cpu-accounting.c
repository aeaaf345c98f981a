// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of probe/cpu-accounting.c: what user/sys figures are worth. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cpu-accounting.h"

static const char tick_config[] =
	"CONFIG_HAVE_VIRT_CPU_ACCOUNTING_GEN=y\n"
	"CONFIG_TICK_CPU_ACCOUNTING=y\n"
	"# CONFIG_VIRT_CPU_ACCOUNTING_GEN is not set\n"
	"CONFIG_HZ_250=y\n"
	"CONFIG_HZ=250\n";

static void test_tick_config(void **state)
{
	struct cpu_accounting a = { 0 };
	char note[512];

	assert_true(cpu_accounting_from_config(tick_config, "/proc/config.gz", &a));
	assert_int_equal(a.mode, ACCT_TICK);
	assert_false(a.mode_inferred);
	assert_int_equal(a.hz, 250);
	assert_true(cpu_accounting_sampled(&a));
	assert_true(fabs(cpu_accounting_tick_s(&a) - 0.004) < 1e-12);
	cpu_accounting_note(&a, note, sizeof(note));
	assert_string_equal(note, "user and sys come from tick sampling "
			    "(CONFIG_TICK_CPU_ACCOUNTING, /proc/config.gz; HZ 250, "
			    "CONFIG_HZ in /proc/config.gz): below 4 ms of CPU time the "
			    "split between them is an estimate (time no tick fell in "
			    "counts as user); user + sys is exact");
}

static void test_gen_and_native(void **state)
{
	struct cpu_accounting a = { 0 };
	char note[512];

	assert_true(cpu_accounting_from_config("CONFIG_VIRT_CPU_ACCOUNTING_GEN=y\n"
					       "CONFIG_HZ=1000\n", "/boot/config-6.1", &a));
	assert_int_equal(a.mode, ACCT_VIRT_GEN);
	assert_true(cpu_accounting_sampled(&a));
	snprintf(a.nohz_full, sizeof(a.nohz_full), "1-3");
	cpu_accounting_note(&a, note, sizeof(note));
	assert_non_null(strstr(note, "tick sampling except on the nohz_full CPUs 1-3"));
	assert_non_null(strstr(note, "below 1 ms of CPU time"));

	memset(&a, 0, sizeof(a));
	assert_true(cpu_accounting_from_config("CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y\n",
					       "/boot/config-6.1", &a));
	assert_int_equal(a.mode, ACCT_VIRT_NATIVE);
	assert_false(cpu_accounting_sampled(&a));
	cpu_accounting_note(&a, note, sizeof(note));
	assert_non_null(strstr(note, "measured at every user/kernel crossing"));
}

static void test_no_config(void **state)
{
	struct cpu_accounting a = { 0 };
	char note[512];

	assert_false(cpu_accounting_from_config("# nothing\nCONFIG_HZ_PERIODIC=y\n",
						"x", &a));
	assert_int_equal(a.mode, ACCT_UNKNOWN);
	/* Inferred: said to be probable. */
	a.mode = ACCT_TICK;
	a.mode_inferred = true;
	snprintf(a.mode_source, sizeof(a.mode_source), "no kernel config");
	a.hz = 100;
	a.hz_inferred = true;
	snprintf(a.hz_source, sizeof(a.hz_source), "USER_HZ (sysconf)");
	cpu_accounting_note(&a, note, sizeof(note));
	assert_non_null(strstr(note, "user and sys probably come from tick sampling"));
	assert_non_null(strstr(note, "HZ 100, probably; USER_HZ (sysconf)"));
}

/* On this machine: a mode, a positive HZ, and JSON that says the same. */
static void test_probe(void **state)
{
	struct cpu_accounting a;
	json_t *j;

	cpu_accounting_probe(&a);
	assert_int_not_equal(a.mode, ACCT_UNKNOWN);
	assert_true(a.hz > 0);
	j = cpu_accounting_to_json(&a);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "hz")), a.hz);
	json_decref(j);
}

/*
 * A run's config read back: the same note as the machine that ran it
 * wrote, whatever the reader's kernel; a mode it does not know, none.
 */
static void test_from_json(void **state)
{
	struct cpu_accounting a = { 0 }, b;
	char note_a[512], note_b[512];
	json_t *j;

	assert_true(cpu_accounting_from_config(tick_config, "/proc/config.gz", &a));
	j = cpu_accounting_to_json(&a);
	assert_true(cpu_accounting_from_json(j, &b));
	assert_int_equal(b.mode, ACCT_TICK);
	assert_int_equal(b.hz, 250);
	assert_true(cpu_accounting_sampled(&b));
	cpu_accounting_note(&a, note_a, sizeof(note_a));
	cpu_accounting_note(&b, note_b, sizeof(note_b));
	assert_string_equal(note_a, note_b);
	json_decref(j);

	j = json_pack("{s:s, s:i}", "mode", "sundial", "hz", 100);
	assert_false(cpu_accounting_from_json(j, &b));
	assert_int_equal(b.hz, 0);
	json_decref(j);
	assert_false(cpu_accounting_from_json(NULL, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_config),
		cmocka_unit_test(test_gen_and_native),
		cmocka_unit_test(test_no_config),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_from_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
