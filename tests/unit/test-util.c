// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/util.h"

static void test_parse_u64(void **state)
{
	uint64_t v = 0;

	assert_true(parse_u64("0", &v));
	assert_int_equal(v, 0);
	assert_true(parse_u64("18446744073709551615", &v));
	assert_true(v == UINT64_MAX);
	assert_false(parse_u64("18446744073709551616", &v));
	assert_false(parse_u64("-1", &v));
	assert_false(parse_u64("12abc", &v));
	assert_false(parse_u64("", &v));
	assert_false(parse_u64(" 1", &v));
}

static void test_parse_int(void **state)
{
	long v = 0;

	assert_true(parse_int("-5", -10, 10, &v));
	assert_int_equal(v, -5);
	assert_false(parse_int("11", -10, 10, &v));
	assert_false(parse_int("1.5", -10, 10, &v));
	assert_false(parse_int("9999999999999999999999", 0, 10, &v));
}

static void test_parse_double(void **state)
{
	double v = 0;

	assert_true(parse_double("1.25", &v));
	assert_true(v == 1.25);
	assert_false(parse_double("nan", &v));
	assert_false(parse_double("inf", &v));
	assert_false(parse_double("1.5x", &v));
	assert_false(parse_double("", &v));
}

static void test_parse_duration(void **state)
{
	double s = 0;

	assert_true(parse_duration("1.5", &s));
	assert_true(s == 1.5);
	assert_true(parse_duration("200ms", &s));
	assert_true(s > 0.1999999 && s < 0.2000001);
	assert_true(parse_duration("3s", &s));
	assert_true(s == 3.0);
	assert_true(parse_duration("2us", &s));
	assert_true(s > 1.999e-6 && s < 2.001e-6);
	assert_true(parse_duration("1m", &s));
	assert_true(s == 60.0);
	assert_false(parse_duration("0", &s));
	assert_false(parse_duration("0ms", &s));
	assert_false(parse_duration("-1", &s));
	assert_false(parse_duration("abc", &s));
	assert_false(parse_duration("ms", &s));
	assert_false(parse_duration("", &s));
	assert_false(parse_duration("5 parsecs", &s));
}

static void test_split_list(void **state)
{
	size_t n = 0;
	char **v = split_list(" a,,b ,c", &n);

	assert_int_equal(n, 3);
	assert_string_equal(v[0], "a");
	assert_string_equal(v[1], "b ");
	assert_string_equal(v[2], "c");
	assert_null(v[3]);
	free(v);

	v = split_list(",,", &n);
	assert_int_equal(n, 0);
	assert_null(v[0]);
	free(v);
}

static void test_read_line_file(void **state)
{
	char path[] = "/tmp/clockbench-util-XXXXXX";
	int fd = mkstemp(path);
	char buf[16];
	char *text;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "kvm-clock  \nsecond\n", 19), 19);
	close(fd);
	assert_true(read_line_file(path, buf, sizeof(buf)));
	assert_string_equal(buf, "kvm-clock");
	text = read_text_file(path, 1024);
	assert_non_null(text);
	assert_string_equal(text, "kvm-clock  \nsecond\n");
	free(text);
	unlink(path);
	assert_false(read_line_file(path, buf, sizeof(buf)));
	assert_null(read_text_file(path, 1024));
}

static void test_grow_array(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	grow_array((void **)&a, &cap, 1, sizeof(int));
	assert_true(cap >= 1);
	grow_array((void **)&a, &cap, 1000, sizeof(int));
	assert_true(cap >= 1000);
	a[999] = 7;
	assert_int_equal(a[999], 7);
	free(a);
}

static void test_now_ns_advances(void **state)
{
	uint64_t a = now_ns(), b = now_ns();

	assert_true(b >= a);
	assert_true(a > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_split_list),
		cmocka_unit_test(test_read_line_file),
		cmocka_unit_test(test_grow_array),
		cmocka_unit_test(test_now_ns_advances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
