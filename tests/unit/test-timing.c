// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <string.h>

#include "probe/catalog.h"
#include "probe/cycles.h"
#include "probe/timing.h"
#include "basic/util.h"

/*
 * A cell whose every tenth batch is held up by 200 us, as a batch is when
 * another task takes the CPU: the median must not move, the mean must.
 */
static unsigned long batches_run;

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/*
 * Each call waits 100 ns of wall time: a cost that does not change with the
 * CPU's speed, unlike an empty loop, whose cost here varies by tens of
 * percent with the other vCPU's load.
 */
static void loop_with_preemption(const struct cell *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		spin_ns(100);
	if (n && ++batches_run % 10 == 0)
		spin_ns(200000);
}

static void quick_config(struct timing_config *cfg)
{
	timing_config_quick(cfg);
	cfg->budget_s = 0.2;
	cfg->min_samples = 200;
	cfg->rel_ci = 0.001;	/* run the whole budget */
}

static void test_overhead_cell(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct cell c;
	struct cell_result r;

	cycles_open(&cc, CYCLES_REQ_AUTO);
	timing_config_quick(&cfg);
	timing_calibrate(&cc, &cal);
	assert_true(cal.boundary_ns > 0);
	catalog_overhead_cell(&c);
	timing_measure(&c, &cc, &cfg, &cal, &r);
	assert_true(r.n >= cfg.min_samples);
	assert_int_equal(r.batch_calls % CELL_UNROLL, 0);
	assert_true(r.ns_sum.min <= r.ns_sum.median);
	assert_true(r.ns_sum.median <= r.ns_sum.p99);
	assert_true(r.ns_sum.median_lo <= r.ns_sum.median);
	assert_true(r.ns_sum.median <= r.ns_sum.median_hi);
	/* An empty call is a few ns at most, even under a sanitizer. */
	assert_true(r.ns_sum.median < 50.0);
	if (cc.source != CYCLES_NONE) {
		assert_non_null(r.cycles);
		assert_int_equal(r.cycles_sum.n, r.n);
	}
	cell_result_free(&r);
	cycles_close(&cc);
}

static void test_median_ignores_preempted_batches(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct cell preempted;
	struct cell_result r;

	cycles_open(&cc, CYCLES_REQ_NONE);
	quick_config(&cfg);
	timing_calibrate(&cc, &cal);
	memset(&preempted, 0, sizeof(preempted));
	preempted.loop = loop_with_preemption;
	timing_measure(&preempted, &cc, &cfg, &cal, &r);

	/*
	 * One batch in ten is 20x slower: the mean triples, while the median
	 * stays with the undisturbed batches, near the fastest.
	 */
	assert_true(r.ns_sum.mean > 2 * r.ns_sum.median);
	assert_true(r.ns_sum.median >= 100);
	assert_true(r.ns_sum.median < 1.3 * r.ns_sum.min);
	assert_true(r.ns_sum.outliers >= r.n / 20);
	cell_result_free(&r);
}

static void test_budget_bounds_the_cell(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct cell c;
	struct cell_result r;

	cycles_open(&cc, CYCLES_REQ_NONE);
	quick_config(&cfg);
	cfg.budget_s = 0.05;
	cfg.min_samples = SIZE_MAX / 2;	/* never stop on the CI rule */
	timing_calibrate(&cc, &cal);
	catalog_overhead_cell(&c);
	timing_measure(&c, &cc, &cfg, &cal, &r);
	assert_false(r.converged);
	/* Sampling stops at the budget; batch sizing and warm-up add little. */
	assert_true(r.elapsed_s >= 0.05);
	assert_true(r.elapsed_s < 0.5);
	cell_result_free(&r);
}

static void test_pinning(void **state)
{
	char allowed[64];
	int cpu = timing_default_cpu();

	assert_true(cpu >= 0);
	assert_true(timing_cpu_allowed(cpu, allowed, sizeof(allowed)));
	assert_true(strlen(allowed) > 0);
	assert_false(timing_cpu_allowed(CPU_SETSIZE + 5, allowed, sizeof(allowed)));
	assert_int_equal(timing_pin_cpu(cpu), 0);
	assert_int_equal(sched_getcpu(), cpu);
	errno = 0;
	assert_int_equal(timing_pin_cpu(-1), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_cycle_counter_named(void **state)
{
	struct cycle_counter cc;

	assert_int_equal(cycles_open(&cc, CYCLES_REQ_AUTO), 0);
	assert_non_null(cc.unit);
	assert_true(strlen(cc.note) > 0);
	if (cc.source == CYCLES_ARCH) {
		uint64_t a = cycles_read(&cc), b;

		spin_ns(100000);
		b = cycles_read(&cc);
		assert_true(b > a);
		assert_non_null(strstr(cc.unit, cycles_arch_counter_name()));
	}
	cycles_close(&cc);
	assert_int_equal(cycles_open(&cc, CYCLES_REQ_NONE), 0);
	assert_int_equal(cc.source, CYCLES_NONE);
	assert_true(cycles_read(&cc) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overhead_cell),
		cmocka_unit_test(test_median_ignores_preempted_batches),
		cmocka_unit_test(test_budget_bounds_the_cell),
		cmocka_unit_test(test_pinning),
		cmocka_unit_test(test_cycle_counter_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
