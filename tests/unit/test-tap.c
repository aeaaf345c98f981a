// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of results/tap.c: verify's test points read back, with their
 * directives, and the lines that are none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "results/tap.h"

static void test_points_and_directives(void **state)
{
	static const char text[] =
		"TAP version 13\n"
		"1..5\n"
		"# clockbench verify: kernel 6.1\n"
		"ok 1 monotonic/clock-gettime-realtime/vdso: 66 reads, largest backward step 0 ns\n"
		"not ok 2 timens/vfork/offsets: vfork: Invalid argument\n"
		"ok 3 random/getrandom/vdso # SKIP no __vdso_getrandom in this vDSO\n"
		"ok 4 abi/clock-getres-aux/vdso # XFAIL known kernel bug\n"
		"not ok 5 sleep/nanosleep/libc: error: cannot create a timer\n"
		"ok\n"
		"not ok x broken\n"
		"# Totals: pass:2 fail:2 xfail:1 xpass:0 skip:1 error:0";
	struct tap_point *p;
	size_t n = tap_parse(text, &p);

	(void)state;
	assert_int_equal(n, 5);
	assert_string_equal(p[0].name, "monotonic/clock-gettime-realtime/vdso");
	assert_int_equal(p[0].result, TAP_PASS);
	assert_string_equal(p[0].message, "66 reads, largest backward step 0 ns");
	assert_int_equal(p[1].result, TAP_FAIL);
	assert_string_equal(p[1].message, "vfork: Invalid argument");
	assert_string_equal(p[2].name, "random/getrandom/vdso");
	assert_int_equal(p[2].result, TAP_SKIP);
	assert_string_equal(p[2].message, "no __vdso_getrandom in this vDSO");
	assert_int_equal(p[3].result, TAP_XFAIL);
	assert_string_equal(p[3].message, "known kernel bug");
	assert_int_equal(p[4].result, TAP_FAIL);
	assert_string_equal(tap_result_name(p[4].result), "fail");
	tap_points_free(p, n);
}

static void test_nothing(void **state)
{
	struct tap_point *p;

	(void)state;
	assert_int_equal(tap_parse("", &p), 0);
	assert_null(p);
	assert_int_equal(tap_parse("Bail out! no vDSO\n", &p), 0);
	tap_points_free(p, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_and_directives),
		cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
