// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compact encoding of samples: every double back bit for bit whatever
 * model the encoder picks, the model that fits what bench records, and a
 * damaged blob refused, never read beyond.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basic/util.h"
#include "results/codec.h"

static double from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* Encode, decode, compare the bytes; the blob's model and size out. */
static const char *round_trip(const double *x, size_t n, uint64_t calls,
			      size_t *bytes)
{
	static char model[16];
	void *blob = codec_encode(x, n, calls, bytes);
	double *back;

	assert_non_null(blob);
	assert_int_equal(codec_decode(blob, *bytes, n, &back), 0);
	assert_memory_equal(x, back, n * sizeof(double));
	snprintf(model, sizeof(model), "%s", codec_model(blob, *bytes, n));
	free(back);
	free(blob);
	return model;
}

static void test_any_double_comes_back(void **state)
{
	const double odd[] = {
		0.1, -0.0, 0.0, 1e-310, DBL_MAX, DBL_MIN, -DBL_MAX, INFINITY,
		-INFINITY, from_bits(0x7ff8000000012345ull), from_bits(0xfff0000000000001ull),
		1.0 / 3.0, 12345678.901234567,
	};
	size_t bytes;

	round_trip(odd, ARRAY_SIZE(odd), 0, &bytes);
	round_trip(odd, ARRAY_SIZE(odd), 977, &bytes);
	round_trip(odd, 1, 1, &bytes);
}

/* What bench records: (ticks - boundary) / calls, boundary a median. */
static double *batch_values(size_t n, double boundary, unsigned calls,
			    unsigned seed)
{
	double *x = xmalloc(n * sizeof(double));

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		long ticks = 20000 + rand() % 300 + (rand() % 50 == 0 ? rand() % 90000 : 0);
		double v = ((double)ticks - boundary) / calls;

		x[i] = v < 0 ? 0 : v;
	}
	return x;
}

static void test_batch_durations_are_ticks(void **state)
{
	const double boundaries[] = { 50.0, 52.5, 0.0 };
	size_t n = 20000, bytes;

	for (size_t b = 0; b < ARRAY_SIZE(boundaries); b++) {
		double *x = batch_values(n, boundaries[b], 1333, (unsigned)b);

		assert_string_equal(round_trip(x, n, 1333, &bytes), "ticks");
		/* 300 likely tick counts: well under 2 bytes a sample. */
		assert_true(bytes < 2 * n);
		free(x);
	}
}

/* A value the formula cannot give is kept as its bits, in place. */
static void test_ticks_with_exceptions(void **state)
{
	size_t n = 5000, bytes;
	double *x = batch_values(n, 50.0, 700, 7);

	x[10] = 0.1;
	x[11] = -0.0;
	x[4000] = from_bits(0x7ff8000000000042ull);
	assert_string_equal(round_trip(x, n, 700, &bytes), "ticks");
	free(x);
}

/* Few distinct values that are not ticks: a dictionary. */
static void test_repeated_values_make_a_dictionary(void **state)
{
	size_t n = 30000, bytes;
	double *x = xmalloc(n * sizeof(double));

	srand(3);
	for (size_t i = 0; i < n; i++)
		x[i] = 60.0 + sqrt((double)(rand() % 2000)) / 7.0;
	assert_string_equal(round_trip(x, n, 123, &bytes), "dict");
	assert_true(bytes < 3 * n);
	free(x);
}

/* Values with nothing to exploit cost their bits, not more. */
static void test_noise_stays_bits(void **state)
{
	size_t n = 4000, bytes;
	double *x = xmalloc(n * sizeof(double));

	srand(5);
	for (size_t i = 0; i < n; i++)
		x[i] = from_bits(((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 7) ^
				 0x3ff0000000000000ull);
	assert_string_equal(round_trip(x, n, 0, &bytes), "bits");
	assert_true(bytes <= 8 * n + 2);
	free(x);
}

/* Every truncation, a wrong count, a flipped byte: an error, no crash. */
static void test_damaged_blobs_refused(void **state)
{
	size_t n = 3000, bytes;
	double *x = batch_values(n, 50.0, 900, 11), *back;
	unsigned char *blob = codec_encode(x, n, 900, &bytes);

	for (size_t len = 0; len < bytes; len++)
		assert_int_equal(codec_decode(blob, len, n, &back), -1);
	assert_int_equal(codec_decode(blob, bytes, n - 1, &back), -1);
	assert_int_equal(codec_decode(blob, bytes, n + 1, &back), -1);
	assert_null(back);
	blob[0] = 9;
	assert_int_equal(codec_decode(blob, bytes, n, &back), -1);
	free(blob);

	/* Uncompressed payloads, damaged inside: a count beyond the samples. */
	{
		const unsigned char dict[] = { 0, 2, 5, 1, 1, 0, 0 };
		const unsigned char ticks[] = { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3 };

		assert_int_equal(codec_decode(dict, sizeof(dict), 2, &back), -1);
		assert_int_equal(codec_decode(ticks, sizeof(ticks), 2, &back), -1);
	}
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_any_double_comes_back),
		cmocka_unit_test(test_batch_durations_are_ticks),
		cmocka_unit_test(test_ticks_with_exceptions),
		cmocka_unit_test(test_repeated_values_make_a_dictionary),
		cmocka_unit_test(test_noise_stays_bits),
		cmocka_unit_test(test_damaged_blobs_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
