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

#include "report/tap-write.h"
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

/*
 * A '#' of a name or message (a label from a run, a message from a guest)
 * is no directive: written escaped, read back as given.
 */
static void test_hash_is_no_directive(void **state)
{
	static const char message[] = "label x # SKIP y, path C:\\tmp";
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);
	struct tap_point *p;

	(void)state;
	assert_non_null(f);
	tap_write_point(f, 1, "cell#1", TAP_PASS, message);
	tap_write_point(f, 2, "cell", TAP_FAIL, "# XFAIL spoofed");
	tap_write_point(f, 3, "cell", TAP_SKIP, "why # it was skipped");
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "ok 1 cell\\#1: label x \\# SKIP y, path C:\\\\tmp\n"));
	n = tap_parse(buf, &p);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].result, TAP_PASS);
	assert_string_equal(p[0].message, message);
	assert_int_equal(p[1].result, TAP_FAIL);
	assert_string_equal(p[1].message, "# XFAIL spoofed");
	assert_int_equal(p[2].result, TAP_SKIP);
	assert_string_equal(p[2].message, "why # it was skipped");
	tap_points_free(p, n);
	free(buf);
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
		cmocka_unit_test(test_hash_is_no_directive),
		cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
