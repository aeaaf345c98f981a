// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of basic/json.c, the one JSON writer: every real reads back
 * bit for bit, in the fewest digits that do; NaN and infinities are null.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/util.h"

/* x alone in an array, as json_encode() writes it (compact). */
static char *encoded(double x)
{
	json_t *a = json_array();
	char *text;

	json_array_append_new(a, json_number(x));
	text = json_encode(a, JSON_COMPACT);
	json_decref(a);
	assert_non_null(text);
	return text;
}

/* The real between the brackets of encoded()'s text. */
static void assert_text(double x, const char *want)
{
	char *text = encoded(x), expect[64];

	snprintf(expect, sizeof(expect), "[%s]", want);
	assert_string_equal(text, expect);
	free(text);
}

/* The text reads back as x, bit for bit, by jansson and by strtod. */
static void assert_round_trip(double x)
{
	char *text = encoded(x);
	json_error_t jerr;
	json_t *back = json_loads(text, 0, &jerr);
	double y, z;

	assert_non_null(back);
	/* Still a real: an integral value is not read back as an integer. */
	assert_true(json_is_real(json_array_get(back, 0)));
	y = json_real_value(json_array_get(back, 0));
	z = strtod(text + 1, NULL);
	if (memcmp(&x, &y, sizeof(x)) || memcmp(&x, &z, sizeof(x)))
		fail_msg("%a written as %s read back as %a / %a", x, text, y, z);
	json_decref(back);
	free(text);
}

static void test_readable_digits(void **state)
{
	(void)state;
	assert_text(0.95, "0.95");
	assert_text(0.1, "0.1");
	assert_text(1e-300, "1e-300");
	assert_text(1e20, "1e20");
	assert_text(1e-5, "1e-5");
	assert_text(3.0, "3.0");
	assert_text(-0.0, "-0.0");
	assert_text(0.1 + 0.2, "0.30000000000000004");
	/* A figure that needs 17 digits keeps them (a mean of 44 batches). */
	assert_text(1025.5 / 44, "23.306818181818183");
}

static void test_bit_exact(void **state)
{
	const double values[] = {
		0.95, 0.1, 1e-300, -0.0, 0.0, 1.0, -1.5,
		9007199254740993.0,	/* 2^53 + 1: rounds to 2^53 */
		9007199254740992.0 + 2,	/* 2^53 + 2 */
		0x1.fffffffffffffp+52,	/* 2^53 - 1 */
		DBL_MAX, -DBL_MAX, DBL_MIN, DBL_EPSILON,
		DBL_TRUE_MIN, 3 * DBL_TRUE_MIN, DBL_MIN - DBL_TRUE_MIN,
		1.0 / 3, 2.0 / 3, M_PI, 5e-324, 1.7976931348623157e308,
		20.42, 160.61, 1e23, 8.41e21,
	};
	double x = 1.0;

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		assert_round_trip(values[i]);
	/* Neighbours across the whole range of exponents. */
	for (int i = 0; i < 2000; i++) {
		assert_round_trip(x);
		assert_round_trip(nextafter(x, 0));
		assert_round_trip(-nextafter(x, INFINITY));
		x *= 1.7;
		if (!isfinite(x))
			x = DBL_TRUE_MIN * 977;
	}
}

/*
 * The reference the writer must agree with: the first of "%.15g",
 * "%.16g" and "%.17g" that strtod reads back as x, in jansson's look.
 */
static void reference_text(double x, char *out, size_t size)
{
	char text[40], *e;

	for (int digits = 15; digits <= 17; digits++) {
		double y;

		snprintf(text, sizeof(text), "%.*g", digits, x);
		y = strtod(text, NULL);
		if (!memcmp(&x, &y, sizeof(x)))
			break;
	}
	e = strchr(text, 'e');
	if (!e) {
		snprintf(out, size, "%s%s", text, strchr(text, '.') ? "" : ".0");
		return;
	}
	*e = '\0';
	assert_true(snprintf(out, size, "%se%s%d", text, e[1] == '-' ? "-" : "",
			     abs(atoi(e + 1))) < (int)size);
}

static void assert_reference(double x)
{
	char want[48];

	if (!isfinite(x) || x == 0)
		return;
	reference_text(x, want, sizeof(want));
	assert_text(x, want);
}

static void test_same_text_as_printf(void **state)
{
	uint64_t bits = 0x9e3779b97f4a7c15ULL;

	(void)state;
	/* Any bit pattern. */
	for (int i = 0; i < 20000; i++) {
		double x;

		bits ^= bits << 13;
		bits ^= bits >> 7;
		bits ^= bits << 17;
		memcpy(&x, &bits, sizeof(x));
		assert_reference(x);
	}
	/* What clockbench writes: ratios of counts, decimals, powers of ten. */
	for (int i = 1; i < 20000; i++) {
		assert_reference(i / 44.0);
		assert_reference(i * 0.01);
		assert_reference(i * 1e-7);
		assert_reference(1e300 / i);
		assert_reference(i * 12345.678901234567);
	}
	for (int e = -320; e <= 308; e++) {
		double p = pow(10, e);

		assert_reference(p);
		assert_reference(nextafter(p, 0));
		assert_reference(nextafter(p, INFINITY));
		assert_reference(-9.5 * p);
		assert_reference(99999999999999999.0 * p);
	}
}

static void test_not_finite_is_null(void **state)
{
	json_t *o = json_object();
	char *text;

	(void)state;
	json_object_set_new(o, "nan", json_number(NAN));
	json_object_set_new(o, "inf", json_number(INFINITY));
	json_object_set_new(o, "minus_inf", json_number(-INFINITY));
	text = json_encode(o, JSON_COMPACT);
	assert_string_equal(text, "{\"nan\":null,\"inf\":null,\"minus_inf\":null}");
	free(text);
	json_decref(o);
}

static void test_strings_and_integers_untouched(void **state)
{
	json_t *o = json_object();
	char *text;

	(void)state;
	/* Strings that look like reals, with quotes and escapes in them. */
	json_object_set_new(o, "0.94999999999999996",
			    json_string("1.0000000000000001e-5 \"2.5\" \\"));
	json_object_set_new(o, "n", json_integer(9007199254740993LL));
	json_object_set_new(o, "m", json_integer(-12));
	json_object_set_new(o, "x", json_real(0.95));
	text = json_encode(o, JSON_COMPACT);
	assert_string_equal(text,
		"{\"0.94999999999999996\":\"1.0000000000000001e-5 \\\"2.5\\\" \\\\\","
		"\"n\":9007199254740993,\"m\":-12,\"x\":0.95}");
	free(text);
	json_decref(o);
}

static void test_print_indents_and_ends_line(void **state)
{
	json_t *a = json_pack("[f, f]", 0.95, -0.0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(json_print(f, a), 0);
	fclose(f);
	assert_string_equal(buf, "[\n  0.95,\n  -0.0\n]\n");
	free(buf);
	json_decref(a);
}

/*
 * The count before a parse: every member name, scalar, array and object
 * is one value; strings hide their brackets, commas and escaped quotes.
 */
static void test_text_within_counts_values(void **state)
{
	static const struct {
		const char *text;
		size_t values, depth;
	} cases[] = {
		{ "{}", 1, 1 },
		{ "{\"a\": [1, 2.5e3, true, null]}", 7, 2 },
		{ "[\"[{,}]\\\"[[\", -0.5, {\"k\": \"v\"}]", 6, 2 },
		{ "  [ [ [ ] ] ]  ", 3, 3 },
		{ "{},{},{}", 3, 1 },
	};
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *t = cases[i].text;

		assert_true(json_text_within(t, strlen(t), cases[i].values,
					     cases[i].depth, &why));
		assert_false(json_text_within(t, strlen(t), cases[i].values - 1, 64, &why));
		assert_string_equal(why.buf + strlen(why.buf) - 6, "values");
		if (cases[i].depth > 1) {
			assert_false(json_text_within(t, strlen(t), 100,
						      cases[i].depth - 1, &why));
			assert_non_null(strstr(why.buf, "is nested more than"));
		}
	}
}

/* A bomb of "{}," is refused at the limit, having read no further. */
static void test_text_within_stops_at_the_limit(void **state)
{
	const size_t len = 3u << 20;
	_cleanup_free_ char *bomb = xmalloc(len);
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < len; i++)
		bomb[i] = "{},"[i % 3];
	assert_false(json_text_within(bomb, len, 4096, 4, &why));
	assert_string_equal(why.buf, "holds more than 4096 values");
	assert_true(json_text_within(bomb, len, len / 3, 1, &why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readable_digits),
		cmocka_unit_test(test_bit_exact),
		cmocka_unit_test(test_same_text_as_printf),
		cmocka_unit_test(test_not_finite_is_null),
		cmocka_unit_test(test_strings_and_integers_untouched),
		cmocka_unit_test(test_print_indents_and_ends_line),
		cmocka_unit_test(test_text_within_counts_values),
		cmocka_unit_test(test_text_within_stops_at_the_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
