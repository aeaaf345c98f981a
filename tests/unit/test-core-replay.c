// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "probe/catalog.h"
#include "probe/cycles.h"
#include "probe/timing.h"
#include "results/core-replay.h"
#include "results/record.h"

static double *copy(const double *x, size_t n)
{
	double *c = xmalloc(n * sizeof(double));

	memcpy(c, x, n * sizeof(double));
	return c;
}

/* A cell's samples as bench records them (results/record.c). */
static void stored_from(struct stored_cell *sc, const struct cell_result *r,
			const struct timing_calibration *cal)
{
	struct stored_reference figures = record_reference_figures(cal);

	memset(sc, 0, sizeof(*sc));
	sc->n = r->n;
	sc->batch_calls = r->batch_calls;
	sc->values = copy(r->ns, r->n);
	sc->cycles = r->cycles ? copy(r->cycles, r->n) : NULL;
	sc->core_cycles = copy(r->core, r->n);
	sc->rounds = xmalloc(r->n * sizeof(uint32_t));
	memcpy(sc->rounds, r->rounds, r->n * sizeof(uint32_t));
	sc->nrounds = r->nrounds;
	record_reference(sc, r, &figures);
}

static void stored_free(struct stored_cell *sc)
{
	free(sc->values);
	free(sc->cycles);
	free(sc->core_cycles);
	free(sc->rounds);
	free(sc->ref.readings);
	memset(sc, 0, sizeof(*sc));
}

/* What a load has before the blob: the cell without its core cycles. */
static void loaded_without_core(struct stored_cell *to, const struct stored_cell *from)
{
	*to = *from;
	to->values = copy(from->values, from->n);
	to->cycles = from->cycles ? copy(from->cycles, from->n) : NULL;
	to->core_cycles = NULL;
	to->rounds = xmalloc(from->n * sizeof(uint32_t));
	memcpy(to->rounds, from->rounds, from->n * sizeof(uint32_t));
	memset(&to->ref, 0, sizeof(to->ref));
}

/* The empty cell measured for real, in three rounds, timed as requested. */
static void measure(enum cycle_request req, struct stored_cell *sc)
{
	struct timing_config cfg;
	struct timing_calibration cal;
	struct cycle_counter cc;
	struct cell_result r;
	struct cell c;

	cycles_open(&cc, req);
	timing_config_quick(&cfg);
	cfg.budget_s = 0.06;
	cfg.rounds = 3;
	timing_calibrate(&cc, &cal);
	if (cal.core_source != CORE_REFERENCE) {
		cycles_close(&cc);
		skip();	/* the PMU gives the core cycles: nothing to replay */
	}
	/* Under qemu-user the counter is too coarse for a calibration. */
	if (!(timing_reading_core(&cal) > 0) || !isfinite(cal.batch_boundary_core)) {
		cycles_close(&cc);
		skip();
	}
	catalog_overhead_cell(&c);
	timing_measure(&c, &cc, &cfg, &cal, &r);
	assert_non_null(r.readings);
	assert_int_equal(r.nrounds, 3);
	stored_from(sc, &r, &cal);
	assert_true(sc->ref.base_is_values == (r.cycles == NULL || !cal.base_arch));
	cell_result_free(&r);
	cycles_close(&cc);
}

static void assert_replays_back(const struct stored_cell *sc)
{
	struct stored_cell back;
	size_t bytes;
	void *blob = core_replay_encode(sc, &bytes);

	assert_non_null(blob);
	loaded_without_core(&back, sc);
	assert_int_equal(core_replay_decode(blob, bytes, &back), 0);
	assert_memory_equal(back.core_cycles, sc->core_cycles, sc->n * sizeof(double));
	assert_memory_equal(back.ref.readings, sc->ref.readings, sc->n * sizeof(double));
	assert_true(back.ref.reading_core == sc->ref.reading_core);
	assert_true(back.ref.batch_boundary_core == sc->ref.batch_boundary_core);
	assert_true(back.ref.base_boundary == sc->ref.base_boundary);
	assert_int_equal(back.ref.base_is_values, sc->ref.base_is_values);
	stored_free(&back);
	free(blob);
}

/* Batches timed by the cycle counter: their durations are in the cycles. */
static void test_measured_cell_replays_bit_for_bit(void **state)
{
	struct stored_cell sc;

	measure(CYCLES_REQ_AUTO, &sc);
	assert_replays_back(&sc);
	stored_free(&sc);
}

/* Without a counter the clock is the time base: durations in the values. */
static void test_clock_timed_cell_replays_bit_for_bit(void **state)
{
	struct stored_cell sc;

	measure(CYCLES_REQ_NONE, &sc);
	assert_true(sc.ref.base_is_values);
	assert_null(sc.cycles);
	assert_replays_back(&sc);
	stored_free(&sc);
}

/*
 * A synthetic cell: n batches in three rounds, readings of about 630
 * ticks with a slow phase (the core at two thirds of its speed) in the
 * middle round and a preempted reading now and then; batches of about
 * 24,000 ticks less a boundary of 37.5, 800 calls each.
 */
static void synthetic(struct stored_cell *sc, size_t n)
{
	uint64_t x = 88172645463325252ull;

	memset(sc, 0, sizeof(*sc));
	sc->n = n;
	sc->batch_calls = 800;
	sc->values = xmalloc(n * sizeof(double));
	sc->cycles = xmalloc(n * sizeof(double));
	sc->rounds = xmalloc(n * sizeof(uint32_t));
	sc->nrounds = 3;
	sc->ref = (struct stored_reference){
		.readings = xmalloc(n * sizeof(double)),
		.base_boundary = 37.5,
		.reading_core = 300.0 + 1.0 / 3,
		.batch_boundary_core = 44.25,
	};
	for (size_t i = 0; i < n; i++) {
		bool slow = i * 3 / n == 1;
		uint64_t k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sc->rounds[i] = (uint32_t)(i * 3 / n);
		sc->ref.readings[i] = (double)((slow ? 945 : 630) + x % 23 +
					       (i % 97 == 5 ? 5000 : 0));
		k = (slow ? 36000 : 24000) + (x >> 20) % 400;
		sc->cycles[i] = ((double)k - 37.5) / 800;
		sc->values[i] = sc->cycles[i] / 2.1;
	}
}

/* FNV-1a of the doubles' bits, little-endian whatever the machine's order. */
static uint64_t fnv1a(const double *x, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		uint64_t u;

		memcpy(&u, &x[i], sizeof(u));
		for (int b = 0; b < 8; b++)
			h = (h ^ ((u >> (8 * b)) & 0xff)) * 1099511628211ull;
	}
	return h;
}

/*
 * The core cycles of a run saved on one machine are made on whichever
 * loads it: the bits must not depend on the architecture. The hash is of
 * the replay on x86_64; CI runs this on i386, arm64, armhf, ppc64el,
 * riscv64 and s390x. The x87 unit's double rounding changes it (an i386
 * build with -mfpmath=387 fails here), as would a fused multiply-add,
 * should one come into the replay's arithmetic.
 */
static void test_replay_is_the_same_on_every_architecture(void **state)
{
	struct stored_cell sc;
	double *core;

	synthetic(&sc, 3000);
	core = xmalloc(sc.n * sizeof(double));
	assert_int_equal(core_replay(&sc, core), 0);
	/* The slow phase is taken out: every round about 30 core cycles. */
	assert_true(fabs(core[100] / core[1500] - 1) < 0.05);
	assert_int_equal(fnv1a(core, sc.n), 0x6a2d4b4ed3afa219ull);
	free(core);
	stored_free(&sc);
}

/* The store keeps the core cycles themselves unless the replay is exact. */
static void test_inexact_replay_is_not_used(void **state)
{
	struct stored_cell sc;
	size_t bytes;
	void *blob;

	synthetic(&sc, 600);
	sc.core_cycles = xmalloc(sc.n * sizeof(double));
	assert_int_equal(core_replay(&sc, sc.core_cycles), 0);
	blob = core_replay_encode(&sc, &bytes);
	assert_non_null(blob);
	/* Readings jittering by 23 ticks: under 2 bytes a sample, of 8. */
	assert_true(bytes < 2 * sc.n);
	free(blob);
	/* One core figure a unit in the last place off. */
	sc.core_cycles[300] = nextafter(sc.core_cycles[300], INFINITY);
	assert_null(core_replay_encode(&sc, &bytes));
	assert_int_equal(bytes, 0);
	sc.core_cycles[300] = nextafter(sc.core_cycles[300], 0);
	/* A batch clamped to 0 (shorter than the boundary): no whole ticks. */
	sc.cycles[17] = 0;
	assert_null(core_replay_encode(&sc, &bytes));
	sc.cycles[17] = (24000 - 37.5) / 800;
	/* No readings (an imported run): nothing to replay from. */
	free(sc.ref.readings);
	sc.ref.readings = NULL;
	assert_null(core_replay_encode(&sc, &bytes));
	stored_free(&sc);
}

static void assert_refused(const unsigned char *blob, size_t bytes,
			   const struct stored_cell *sc)
{
	struct stored_cell back;

	loaded_without_core(&back, sc);
	assert_int_equal(core_replay_decode(blob, bytes, &back), -1);
	assert_null(back.core_cycles);
	assert_null(back.ref.readings);
	stored_free(&back);
}

/* A double as the blob holds it: little-endian. */
static void put_le(unsigned char *p, double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	for (int b = 0; b < 8; b++)
		p[b] = (unsigned char)(u >> (8 * b));
}

static void test_damaged_blob_is_refused(void **state)
{
	struct stored_cell sc, fewer;
	unsigned char *blob, *bad;
	size_t bytes;

	synthetic(&sc, 600);
	sc.core_cycles = xmalloc(sc.n * sizeof(double));
	assert_int_equal(core_replay(&sc, sc.core_cycles), 0);
	blob = core_replay_encode(&sc, &bytes);
	assert_non_null(blob);
	bad = xmalloc(bytes);
	for (size_t cut = 0; cut < bytes; cut += cut < 40 ? 1 : 97)
		assert_refused(blob, cut, &sc);
	memcpy(bad, blob, bytes);
	bad[0] = 2;		/* a format this build does not know */
	assert_refused(bad, bytes, &sc);
	memcpy(bad, blob, bytes);
	bad[1] = 2;		/* neither cycles nor values */
	assert_refused(bad, bytes, &sc);
	memcpy(bad, blob, bytes);
	put_le(bad + 10, NAN);	/* the reading's length */
	assert_refused(bad, bytes, &sc);
	put_le(bad + 10, 0);
	assert_refused(bad, bytes, &sc);
	/* A blob of another cell's sample count. */
	synthetic(&fewer, 599);
	assert_refused(blob, bytes, &fewer);
	/* Durations that are no longer whole ticks. */
	sc.cycles[3] += 1e-9;
	assert_refused(blob, bytes, &sc);
	free(bad);
	free(blob);
	stored_free(&sc);
	stored_free(&fewer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured_cell_replays_bit_for_bit),
		cmocka_unit_test(test_clock_timed_cell_replays_bit_for_bit),
		cmocka_unit_test(test_replay_is_the_same_on_every_architecture),
		cmocka_unit_test(test_inexact_replay_is_not_used),
		cmocka_unit_test(test_damaged_blob_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
