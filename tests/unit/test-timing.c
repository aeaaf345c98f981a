// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>

#include "probe/catalog.h"
#include "probe/cycles.h"
#include "probe/reference.h"
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
	/* A round's 8 ms can end, by one wait for the CPU, before the
	 * minimum; 200 ms cannot, and the CI rule still ends it early. */
	cfg.budget_s = 1;
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
	/* It sampled the whole budget... */
	assert_true(r.elapsed_s >= 0.05);
	/*
	 * ... and stopped there. Not a bound on the wall time (a loaded machine
	 * stretches it by its waits), but what the loop guarantees: every batch
	 * of a round but its last ended within the round's share of the budget,
	 * and each lasted at least the fastest batch.
	 */
	assert_true(r.n < cfg.max_samples);
	assert_true((double)(r.n - r.nrounds) * r.ns_sum.min * (double)r.batch_calls <=
		    cfg.budget_s * 1e9);
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


/* ---- core cycles from the reference ---------------------------------- */

/*
 * A made-up machine: a 2 GHz counter, readings of 400 instructions of 3
 * cycles plus 60 cycles of clock reads, batches whose clock reads cost 80.
 */
static void synthetic_cal(struct timing_calibration *cal)
{
	memset(cal, 0, sizeof(*cal));
	cal->core_source = CORE_REFERENCE;
	cal->base_per_ns = 2.0;
	cal->ref_ops = 400;
	cal->ref_op_cycles = 3;
	cal->ref_boundary_core = 60;
	cal->batch_boundary_core = 80;
}

#define READING_CORE (400 * 3 + 60)
#define CALLS 200
#define TRUE_CORE 50.0
/* Counter ticks of a batch of CALLS calls of TRUE_CORE cycles at speed. */
#define BATCH_TICKS(speed) ((CALLS * TRUE_CORE + 80) * (speed))

static void test_reading_and_batch_arithmetic(void **state)
{
	struct timing_calibration cal;

	synthetic_cal(&cal);
	assert_float_equal(timing_reading_speed(&cal, READING_CORE * 0.75), 0.75, 1e-12);
	/* The boundary comes off in core cycles, then the calls share the rest. */
	assert_float_equal(timing_core_per_call(&cal, BATCH_TICKS(0.5), 0.5, CALLS),
			   TRUE_CORE, 1e-9);
	assert_float_equal(timing_core_per_call(&cal, 10, 0.5, CALLS), 0, 0);
}

static void test_one_bad_reading_moves_nothing(void **state)
{
	double speeds[9] = { 0.5, 0.5, 0.5, 0.5, 5.0, 0.5, 0.5, 0.5, 0.5 };

	/* A reading preempted for 10x its length is left out of every window. */
	for (size_t i = 0; i < 9; i++)
		assert_float_equal(timing_speed_beside(speeds, 9, i), 0.5, 1e-12);
	assert_true(isnan(timing_speed_beside(speeds, 9, 9)));
}

/* Twice the ticks per cycle for batches 20-39: a slow phase of the core. */
static double phase_speed(size_t i)
{
	return i >= 20 && i < 40 ? 1.0 : 0.5;
}

static void test_slow_phase_is_normalised(void **state)
{
	enum { N = 60 };
	double readings[N], bases[N], core[N], ghz;
	struct timing_calibration cal;

	synthetic_cal(&cal);
	for (size_t i = 0; i < N; i++) {
		readings[i] = READING_CORE * phase_speed(i);
		bases[i] = BATCH_TICKS(phase_speed(i));
	}
	bases[10] *= 3;		/* a preempted batch */
	readings[30] *= 4;	/* a preempted reading, inside the phase */
	ghz = timing_derive_round(&cal, CALLS, readings, bases, N, core);
	for (size_t i = 0; i < N; i++) {
		bool near_step = (i >= 16 && i < 24) || (i >= 36 && i < 44);

		if (i == 10)
			assert_true(core[i] > 2 * TRUE_CORE);
		else if (!near_step)
			assert_float_equal(core[i], TRUE_CORE, 1e-9);
	}
	/* The round's speed: the fast majority, 2 GHz / 0.5 ticks per cycle. */
	assert_float_equal(ghz, 4.0, 1e-9);
}

/* A counter that ticks in steps of 26, read at a random phase (AMD's TSC). */
static double quantised(double ticks, unsigned *seed)
{
	double phase;

	*seed = *seed * 1103515245u + 12345u;
	phase = (double)(*seed >> 8 & 0xffff) / 65536.0 * 26;
	return floor((phase + ticks) / 26) * 26 - floor(phase / 26) * 26;
}

static void test_quantised_counter_is_unbiased(void **state)
{
	enum { N = 2001 };
	double *readings = malloc(N * sizeof(double)), *bases = malloc(N * sizeof(double));
	double *core = malloc(N * sizeof(double)), med;
	struct timing_calibration cal;
	unsigned seed = 1;

	synthetic_cal(&cal);
	for (size_t i = 0; i < N; i++) {
		readings[i] = quantised(READING_CORE * 0.55, &seed);
		bases[i] = quantised(BATCH_TICKS(0.55), &seed);
	}
	timing_derive_round(&cal, CALLS, readings, bases, N, core);
	stats_sort(core, N);
	med = stats_quantile_sorted(core, N, 0.5);
	/* Each reading is off by up to 26 of 693 ticks; the windows average it. */
	assert_true(fabs(med / TRUE_CORE - 1) < 0.005);
	free(readings);
	free(bases);
	free(core);
}

/*
 * Batches of 456 calls timed with a clock of 10 ns steps, the true cost
 * spread far less than a step: most batches land on one value. The cell's
 * interval is still at least a step either side of its median, for ns and
 * for core cycles (the core figure: the batch's step at the core's speed
 * and the reading's share of a step).
 */
static void test_summary_never_narrower_than_the_step(void **state)
{
	enum { N = 2000 };
	struct cell_result r = { .batch_calls = 456, .n = N };
	double q = 10.0 / 456;

	(void)state;
	r.ns = malloc(N * sizeof(double));
	r.core = malloc(N * sizeof(double));
	for (size_t i = 0; i < N; i++) {
		r.ns[i] = round((21.66 + (double)(i % 3) * 0.002) / q) * q;
		r.core[i] = round((65.0 + (double)(i % 3) * 0.006) / (3 * q)) * 3 * q;
	}
	r.ns_resolution = q;
	r.core_resolution = 3 * q;
	r.reading_resolution = 0.001;
	timing_summarize(&r);
	assert_true(r.ns_sum.median_lo <= r.ns_sum.median - q);
	assert_true(r.ns_sum.median_hi >= r.ns_sum.median + q);
	assert_true(r.core_sum.median_hi - r.core_sum.median_lo >=
		    2 * (3 * q + 0.001 * 65.0) - 1e-9);
	assert_false(r.ns_sum.bimodal);
	cell_result_free(&r);
}

/* Batches last ten steps of the clock over the precision, at least. */
static void test_batches_fit_the_clock_step(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal = { .clock_step_ns = 10 };

	(void)state;
	timing_config_default(&cfg);
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(cfg.target_batch_ns == 10000);	/* 10 ns at 1 %: as it was */
	cal.clock_step_ns = 1;				/* most Intel machines */
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(cfg.target_batch_ns == 10000);
	cal.clock_step_ns = 100;			/* a coarse clock */
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(fabs(cfg.target_batch_ns - 100000) < 1e-6);
	timing_config_default(&cfg);
	cfg.rel_ci = 0.001;				/* --precision 0.1 */
	cal.clock_step_ns = 10;
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(fabs(cfg.target_batch_ns - 100000) < 1e-6);
	/* --precision 0.0001: no batch beyond BATCH_MAX_NS. */
	cfg.rel_ci = 1e-6;
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(cfg.target_batch_ns == BATCH_MAX_NS);
	/* Readings of 3 us (9000 core cycles at 3 GHz): batches of 30 us. */
	timing_config_default(&cfg);
	cal.ref_ops = 3000;
	cal.ref_op_cycles = 3;
	cal.ghz = 3;
	timing_config_fit_resolution(&cfg, &cal);
	assert_true(fabs(cfg.target_batch_ns - BATCH_PER_READING * 3000) < 1e-6);
}

static void test_pmu_cycles_are_the_core_cycles(void **state)
{
	enum { N = 30 };
	double readings[N], bases[N], pmu[N], core[N], est[N];
	struct timing_calibration cal;
	struct cell_result r;

	synthetic_cal(&cal);
	cal.core_source = CORE_PERF;
	for (size_t i = 0; i < N; i++) {
		/* Suppose the chain's true latency were 3.3 cycles, not 3. */
		readings[i] = (400 * 3.3 + 60) * 0.5;
		bases[i] = BATCH_TICKS(0.5);
		pmu[i] = TRUE_CORE;
	}
	timing_round_core(&cal, CALLS, readings, bases, pmu, N, core, est);
	memset(&r, 0, sizeof(r));
	r.n = N;
	r.core = core;
	r.core_est = est;
	for (size_t i = 0; i < N; i++)
		assert_float_equal(core[i], TRUE_CORE, 0);
	/* (10080 * 1260 / 1380 - 80) / 200 = 45.617: the estimate reads 8.77 % low. */
	assert_float_equal(timing_reference_vs_pmu_pct(&r), -8.765, 0.001);
	r.core_est = NULL;
	assert_true(isnan(timing_reference_vs_pmu_pct(&r)));
}

static void test_steady_rule(void **state)
{
	struct steady_rule s;

	steady_rule_init(&s, 0.02, 2);
	assert_false(steady_rule_add(&s, 4.0, 100));	/* nothing to agree with */
	assert_false(steady_rule_add(&s, 4.2, 100));	/* the core sped up 5 % */
	assert_false(steady_rule_add(&s, 4.21, 100.5));	/* one window agrees */
	assert_true(steady_rule_add(&s, 4.20, 100.2));	/* two in a row */
	/* The cell must agree too, and a disagreement starts the count again. */
	steady_rule_init(&s, 0.02, 2);
	assert_false(steady_rule_add(&s, 4.0, 100));
	assert_false(steady_rule_add(&s, 4.0, 90));
	assert_false(steady_rule_add(&s, 4.0, 90));
	assert_false(steady_rule_add(&s, 4.0, 100));
	assert_false(steady_rule_add(&s, NAN, 100));
	assert_false(steady_rule_add(&s, 4.0, 100));
	assert_false(steady_rule_add(&s, 4.0, 100));
	assert_true(steady_rule_add(&s, 4.0, 100));
}

/* The chain runs exactly ops instructions: 3^16 from imul, 1 + 3 * 16 from add. */
static void test_reference_chain_length(void **state)
{
	const struct reference_info *ri = reference_info();
	bool mul = strncmp(ri->insn, "imul", 4) == 0;

	assert_true(ri->cycles_per_op >= 1);
	assert_non_null(ri->source);
	assert_true(reference_chain(16) == (mul ? 43046721u : 49u));
	assert_true(reference_chain(20) == reference_chain(16));	/* whole unrolls */
	assert_true(reference_add_chain(16) == 49u);
	assert_true(reference_chain(0) == 1);
}

/* On this machine: every batch gets core cycles and every round a speed. */
static void test_cells_get_core_cycles(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct cell c;
	struct cell_result r;

	cycles_open(&cc, CYCLES_REQ_AUTO);
	timing_config_quick(&cfg);
	timing_calibrate(&cc, &cal);
	assert_int_not_equal(cal.core_source, CORE_NONE);
	assert_true(cal.ref_ops >= 8 * REFERENCE_UNROLL && cal.ref_ops % REFERENCE_UNROLL == 0);
	assert_true(cal.base_per_ns > 0);
	assert_true(cal.ghz > 0.1 && cal.ghz < 10);
	catalog_overhead_cell(&c);
	timing_measure(&c, &cc, &cfg, &cal, &r);
	assert_non_null(r.core);
	assert_non_null(r.round_ghz);
	assert_int_equal(r.core_sum.n, r.n);
	assert_true(r.core_sum.median > 0);
	for (uint32_t k = 0; k < r.nrounds; k++)
		assert_true(r.round_ghz[k] > 0.1 && r.round_ghz[k] < 10);
	cell_result_free(&r);
	cycles_close(&cc);
}

static void test_warm_up_is_bounded(void **state)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct warmup_report w;
	struct cell c;

	cycles_open(&cc, CYCLES_REQ_AUTO);
	timing_config_default(&cfg);
	cfg.steady_max_s = 0.1;
	timing_calibrate(&cc, &cal);
	catalog_overhead_cell(&c);
	timing_warm_up(&c, &cc, &cfg, &cal, &w);
	assert_true(w.windows >= 1);
	assert_true(!w.steady || w.windows >= cfg.steady_need + 1);
	/*
	 * Bounded by the windows it may start, not by the wall time (a loaded
	 * machine stretches each): a window lasts at least window_s and none
	 * starts after steady_max_s; one that gave up used all of it.
	 */
	assert_true(w.windows <= (unsigned)(cfg.steady_max_s / cfg.steady_window_s + 1e-9) + 1);
	assert_true(w.elapsed_s >= w.windows * cfg.steady_window_s * (1 - 1e-9));
	assert_true(w.steady || w.elapsed_s >= cfg.steady_max_s);
	assert_true(w.last_ghz > 0 && w.last_cell >= 0);
	cycles_close(&cc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overhead_cell),
		cmocka_unit_test(test_median_ignores_preempted_batches),
		cmocka_unit_test(test_budget_bounds_the_cell),
		cmocka_unit_test(test_pinning),
		cmocka_unit_test(test_cycle_counter_named),
		cmocka_unit_test(test_reading_and_batch_arithmetic),
		cmocka_unit_test(test_one_bad_reading_moves_nothing),
		cmocka_unit_test(test_slow_phase_is_normalised),
		cmocka_unit_test(test_quantised_counter_is_unbiased),
		cmocka_unit_test(test_summary_never_narrower_than_the_step),
		cmocka_unit_test(test_batches_fit_the_clock_step),
		cmocka_unit_test(test_pmu_cycles_are_the_core_cycles),
		cmocka_unit_test(test_steady_rule),
		cmocka_unit_test(test_reference_chain_length),
		cmocka_unit_test(test_cells_get_core_cycles),
		cmocka_unit_test(test_warm_up_is_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
