// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "probe/catalog.h"
#include "scenario/scale.h"
#include "basic/util.h"

/* ---- the series ------------------------------------------------------ */

static void assert_series(unsigned min, unsigned max, unsigned ncpus,
			  const unsigned *want, size_t nwant)
{
	unsigned got[64];
	size_t n = scale_stride_series(min, max, ncpus, got, ARRAY_SIZE(got));

	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
}

#define SERIES(min, max, ncpus, ...) do {					\
		static const unsigned want[] = { __VA_ARGS__ };			\
		assert_series(min, max, ncpus, want, ARRAY_SIZE(want));		\
	} while (0)

/*
 * poundtime's defaults, 2 to 4 x CPUs; the expected lists are what mmtests'
 * bin/generate-stride-range --stride-large prints for these CPU counts.
 * 32 CPUs gives the rows of seed 001.
 */
static void test_default_series_matches_mmtests(void **state)
{
	SERIES(2, 4, 1, 2, 4);
	SERIES(2, 8, 2, 2, 4, 6, 8);
	SERIES(2, 12, 3, 2, 4, 6, 8, 12);
	SERIES(2, 16, 4, 2, 4, 6, 8, 12, 16);
	SERIES(2, 24, 6, 2, 4, 6, 8, 12, 18, 24);
	SERIES(2, 32, 8, 2, 4, 6, 8, 12, 18, 24, 30, 32);
	SERIES(2, 48, 12, 2, 5, 8, 12, 21, 30, 48);
	SERIES(2, 64, 16, 2, 5, 8, 12, 21, 30, 48, 64);
	SERIES(2, 96, 24, 2, 5, 8, 12, 21, 30, 48, 79, 96);
	SERIES(2, 128, 32, 2, 5, 8, 12, 21, 30, 48, 79, 110, 128);
	SERIES(2, 192, 48, 2, 5, 8, 12, 21, 30, 48, 79, 110, 141, 172, 192);
	SERIES(2, 256, 64, 2, 5, 8, 12, 21, 30, 48, 79, 110, 141, 172, 203, 234, 256);
	SERIES(2, 512, 128, 2, 5, 8, 12, 21, 30, 48, 79, 110, 141, 172, 203, 234,
	       265, 296, 327, 358, 389, 420, 451, 482, 512);
}

static void test_default_series_uses_four_times_cpus(void **state)
{
	unsigned got[16];
	size_t n = scale_default_series(32, got, ARRAY_SIZE(got));

	assert_int_equal(n, 10);
	assert_int_equal(got[0], 2);
	assert_int_equal(got[9], 128);
	n = scale_default_series(2, got, ARRAY_SIZE(got));
	assert_int_equal(n, 4);
	assert_int_equal(got[3], 8);
	/* The count without a buffer, to size one. */
	assert_int_equal(scale_default_series(64, NULL, 0), 14);
}

/* Beyond 8 x CPUs mmtests strides from 2 x CPUs in eighths of the rest. */
static void test_series_far_beyond_the_cpus(void **state)
{
	SERIES(2, 128, 2, 2, 4, 5, 8, 12, 19, 21, 30, 34, 49, 64, 79, 94, 109,
	       124, 128);
	SERIES(1, 100, 4, 1, 4, 7, 8, 12, 19, 21, 30, 41, 52, 63, 74, 85, 96, 100);
	SERIES(5, 40, 32, 5, 8, 12, 21, 30, 40);
}

static void test_series_bad_bounds(void **state)
{
	unsigned got[4];

	assert_int_equal(scale_stride_series(0, 8, 2, got, 4), 0);
	assert_int_equal(scale_stride_series(9, 8, 2, got, 4), 0);
	SERIES(3, 3, 2, 3);
	/* A short buffer gets the first values; the count is the whole. */
	assert_int_equal(scale_stride_series(2, 128, 32, got, 4), 10);
	assert_int_equal(got[3], 12);
}

/* ---- parsing --------------------------------------------------------- */

static void assert_parsed(const char *arg, unsigned min, const unsigned *want,
			  size_t nwant)
{
	unsigned *got;
	size_t n;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	assert_true(scale_parse_counts(arg, min, SCALE_MAX_THREADS, &got, &n, &why));
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
	free(got);
}

#define PARSED(arg, min, ...) do {						\
		static const unsigned want[] = { __VA_ARGS__ };			\
		assert_parsed(arg, min, want, ARRAY_SIZE(want));		\
	} while (0)

static void test_parse_lists_and_ranges(void **state)
{
	PARSED("2,4,8", 1, 2, 4, 8);
	PARSED("2-6", 1, 2, 3, 4, 5, 6);
	PARSED("1-3,8,64", 1, 1, 2, 3, 8, 64);
	/* Sorted, duplicates once. */
	PARSED("8,2,4-6,5,2", 1, 2, 4, 5, 6, 8);
	PARSED("7-7", 1, 7);
	PARSED("128", 1, 128);
	PARSED("4096", 1, 4096);
	/* --idle-threads takes 0. */
	PARSED("0,64", 0, 0, 64);
}

static void assert_rejected(const char *arg, unsigned min, const char *reason)
{
	unsigned *got = (unsigned *)1;
	size_t n = 99;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	assert_false(scale_parse_counts(arg, min, SCALE_MAX_THREADS, &got, &n, &why));
	assert_null(got);
	assert_int_equal(n, 0);
	if (!strstr(why.buf, reason))
		fail_msg("'%s': reason '%s' lacks '%s'", arg, why.buf, reason);
}

static void test_parse_rejects_bad_lists(void **state)
{
	assert_rejected("", 1, "empty");
	assert_rejected("0", 1, "out of range");
	assert_rejected("abc", 1, "not a number");
	assert_rejected("2,x", 1, "'x' is not a number");
	assert_rejected("16-2", 1, "descending range '16-2'");
	assert_rejected("4097", 1, "out of range (1 to 4096)");
	assert_rejected("-3", 0, "out of range");
	assert_rejected("2-", 1, "not a number");
	assert_rejected("2,,4", 1, "not a number");
	assert_rejected("2-4-6", 1, "not a number");
	assert_rejected("99999999999999999999999", 1, "not a number");
}

/* ---- shares ---------------------------------------------------------- */

static void test_thread_calls_add_up(void **state)
{
	static const unsigned threads[] = { 1, 2, 3, 5, 7, 8, 12, 128, 4096 };
	static const uint64_t totals[] = { 8, 200000, 5000000, 5000001, 123456789 };

	for (size_t t = 0; t < ARRAY_SIZE(totals); t++)
		for (size_t k = 0; k < ARRAY_SIZE(threads); k++) {
			uint64_t sum = 0, lo = UINT64_MAX, hi = 0;

			for (unsigned i = 0; i < threads[k]; i++) {
				uint64_t c = scale_thread_calls(totals[t], threads[k], i);

				assert_int_equal(c % CELL_UNROLL, 0);
				sum += c;
				lo = c < lo ? c : lo;
				hi = c > hi ? c : hi;
			}
			assert_int_equal(sum, scale_round_calls(totals[t]));
			/* Fair: shares differ by one unroll at most. */
			assert_true(hi - lo <= CELL_UNROLL);
		}
	assert_int_equal(scale_round_calls(5000001), 5000008);
	assert_int_equal(scale_round_calls(1), 8);
	assert_int_equal(scale_thread_calls(80, 4, 4), 0);
	assert_int_equal(scale_thread_calls(80, 0, 0), 0);
}

/* ---- the workers ----------------------------------------------------- */

/* Counts calls per thread (a thread-local: no shared counter to race on). */
static __thread uint64_t calls_here;
static uint64_t calls_seen[64];
static unsigned next_slot;

static void counting_loop(const struct cell *c, unsigned long n)
{
	unsigned slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);

	(void)c;
	calls_here = 0;
	for (unsigned long i = 0; i < n; i++)
		calls_here++;
	if (slot < ARRAY_SIZE(calls_seen))
		calls_seen[slot] = calls_here;
}

static void test_run_shares_the_calls(void **state)
{
	struct cell c;
	struct scale_sample s;
	uint64_t sum = 0;

	memset(&c, 0, sizeof(c));
	c.loop = counting_loop;
	memset(calls_seen, 0, sizeof(calls_seen));
	next_slot = 0;
	assert_int_equal(scale_run(&c, 7, 1000, &s), 0);
	assert_int_equal(next_slot, 7);
	for (unsigned i = 0; i < 7; i++)
		sum += calls_seen[i];
	assert_int_equal(sum, 1000);
	assert_true(s.elapsed_s >= 0);

	errno = 0;
	assert_int_equal(scale_run(&c, 0, 1000, &s), -1);
	assert_int_equal(errno, EINVAL);
}

/* CPU time is seen: the workers' user + system time covers real calls. */
static void test_run_reports_cpu_time(void **state)
{
	struct catalog_filter f;
	struct catalog cat;
	struct scale_sample s;

	memset(&f, 0, sizeof(f));
	f.api[API_TIMES] = true;
	f.path[PATH_LIBC] = true;
	catalog_build(&cat, &f);
	assert_int_equal(cat.ncells, 1);
	assert_int_equal(scale_run(&cat.cells[0], 2, 40000, &s), 0);
	assert_true(s.elapsed_s > 0);
	assert_true(s.user_s + s.sys_s > 0);
	catalog_free(&cat);
}

/* ---- idle threads ---------------------------------------------------- */

static long threads_in_process(void)
{
	char *status = read_text_file("/proc/self/status", 1 << 16);
	const char *p = status ? strstr(status, "\nThreads:") : NULL;
	long n = p ? strtol(p + 9, NULL, 10) : -1;

	free(status);
	return n;
}

/*
 * pthread_join() returns when the kernel clears the thread's tid, which is
 * before the thread leaves the process's count in /proc: a joined thread
 * can still be counted for a moment. Wait for the count to come down to
 * @want, for at most 5 s, and return what it is then.
 */
static long threads_once_exited(long want)
{
	struct timespec start, now;
	long n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		n = threads_in_process();
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (n <= want || now.tv_sec - start.tv_sec >= 5)
			return n;
		sched_yield();
	}
}

static void test_idle_pool_grows_and_stops(void **state)
{
	struct idle_pool p;
	/* The workers of the tests before may still be on their way out. */
	long before = threads_once_exited(1);

	idle_pool_init(&p);
	assert_int_equal(idle_pool_grow(&p, 5), 0);
	assert_int_equal(threads_in_process(), before + 5);
	assert_int_equal(idle_pool_grow(&p, 12), 0);
	assert_int_equal(p.nparked, 12);
	assert_int_equal(threads_in_process(), before + 12);
	idle_pool_stop(&p);
	assert_int_equal(threads_once_exited(before), before);
	/* It grows again after a stop. */
	assert_int_equal(idle_pool_grow(&p, 3), 0);
	assert_int_equal(threads_in_process(), before + 3);
	idle_pool_destroy(&p);
	assert_int_equal(threads_once_exited(before), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_series_matches_mmtests),
		cmocka_unit_test(test_default_series_uses_four_times_cpus),
		cmocka_unit_test(test_series_far_beyond_the_cpus),
		cmocka_unit_test(test_series_bad_bounds),
		cmocka_unit_test(test_parse_lists_and_ranges),
		cmocka_unit_test(test_parse_rejects_bad_lists),
		cmocka_unit_test(test_thread_calls_add_up),
		cmocka_unit_test(test_run_shares_the_calls),
		cmocka_unit_test(test_run_reports_cpu_time),
		cmocka_unit_test(test_idle_pool_grows_and_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
