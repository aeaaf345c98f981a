// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "probe/catalog.h"
#include "scenario/interleave.h"
#include "probe/timens.h"
#include "basic/util.h"

#define S_NS NSEC_PER_SEC_I64

/* ---- offsets --------------------------------------------------------- */

static void test_parse_offset(void **state)
{
	int64_t ns;

	assert_true(timens_parse_offset("+10d", &ns));
	assert_true(ns == 10 * 86400 * S_NS);
	assert_true(timens_parse_offset("20d", &ns));
	assert_true(ns == 20 * 86400 * S_NS);
	assert_true(timens_parse_offset("-3600", &ns));
	assert_true(ns == -3600 * S_NS);
	assert_true(timens_parse_offset("90m", &ns));
	assert_true(ns == 5400 * S_NS);
	assert_true(timens_parse_offset("2h", &ns));
	assert_true(ns == 7200 * S_NS);
	assert_true(timens_parse_offset("0", &ns));
	assert_true(ns == 0);
	assert_true(timens_parse_offset("36500d", &ns));
}

static void test_parse_offset_rejects(void **state)
{
	static const char *const bad[] = {
		"", "+", "-", "d", "10x", "10dd", "1.5d", " 10d", "10d ", "--1",
		"36501d", "99999999999999999999", "0x10", "1e3",
	};
	int64_t ns = 42;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (timens_parse_offset(bad[i], &ns))
			fail_msg("'%s' was accepted", bad[i]);
	assert_true(ns == 42);
}

static void test_format_offset(void **state)
{
	char buf[32];

	timens_format_offset(10 * 86400 * S_NS, buf, sizeof(buf));
	assert_string_equal(buf, "+10d");
	timens_format_offset(-3600 * S_NS, buf, sizeof(buf));
	assert_string_equal(buf, "-1h");
	timens_format_offset(90 * S_NS, buf, sizeof(buf));
	assert_string_equal(buf, "+90s");
	timens_format_offset(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	timens_format_offset(1500000000, buf, sizeof(buf));
	assert_string_equal(buf, "+1.500000000s");
}

/* ---- the wire format: what the parent accepts ------------------------ */

struct wire {
	int fd[2];
};

static void wire_open(struct wire *w)
{
	assert_int_equal(pipe(w->fd), 0);
}

static void wire_put(struct wire *w, const void *p, size_t len)
{
	assert_int_equal(write(w->fd[1], p, len), (ssize_t)len);
}

/* A frame whose cycles and core cycles, when flagged, repeat the ns. */
static void put_frame_core(struct wire *w, uint32_t magic, uint32_t cell,
			   uint32_t round, uint32_t has_cycles, uint32_t has_core,
			   const double *ns, uint64_t n)
{
	struct interleave_frame f = { .magic = magic, .cell = cell, .round = round,
			      .has_cycles = has_cycles, .has_core = has_core, .n = n };

	wire_put(w, &f, sizeof(f));
	if (ns)
		wire_put(w, ns, n * sizeof(double));
	if (ns && has_cycles)
		wire_put(w, ns, n * sizeof(double));
	if (ns && has_core)
		wire_put(w, ns, n * sizeof(double));
}

static void put_frame(struct wire *w, uint32_t magic, uint32_t cell,
		      uint32_t round, uint32_t has_cycles, const double *ns,
		      uint64_t n)
{
	put_frame_core(w, magic, cell, round, has_cycles, 0, ns, n);
}

/* Read one round of ncells from what was written, then the writer closed. */
static int read_back(struct wire *w, uint32_t round, struct cell_result *res,
		     size_t ncells, struct strbuf *err)
{
	int rc;

	close(w->fd[1]);
	rc = interleave_read_round(w->fd[0], round, res, ncells, 2000, err);
	close(w->fd[0]);
	return rc;
}

static void free_results(struct cell_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cell_result_free(&res[i]);
}

static void test_round_accepted(void **state)
{
	static const double a[] = { 24.1, 24.0, 23.9 }, b[] = { 2.3, 2.4 };
	struct cell_result res[2];
	struct wire w;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(res, 0, sizeof(res));
	wire_open(&w);
	put_frame(&w, INTERLEAVE_MAGIC, 0, 3, 1, a, 3);
	put_frame(&w, INTERLEAVE_MAGIC, 1, 3, 0, b, 2);
	assert_int_equal(read_back(&w, 3, res, 2, &err), 0);
	assert_int_equal(res[0].n, 3);
	assert_int_equal(res[1].n, 2);
	assert_non_null(res[0].cycles);
	assert_null(res[1].cycles);
	assert_true(res[0].ns[2] == 23.9 && res[0].cycles[1] == 24.0);
	assert_int_equal(res[0].rounds[0], 3);
	assert_int_equal(res[1].nrounds, 4);

	/* A second round appends. */
	wire_open(&w);
	put_frame(&w, INTERLEAVE_MAGIC, 0, 4, 1, a, 1);
	put_frame(&w, INTERLEAVE_MAGIC, 1, 4, 0, b, 1);
	assert_int_equal(read_back(&w, 4, res, 2, &err), 0);
	assert_int_equal(res[0].n, 4);
	assert_int_equal(res[0].rounds[3], 4);
	assert_int_equal(res[0].nrounds, 5);
	free_results(res, 2);
}

/* Each bad stream is refused with a reason that names the problem. */
static void assert_refused(void (*write_bad)(struct wire *), const char *reason)
{
	struct cell_result res[2];
	struct wire w;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(res, 0, sizeof(res));
	wire_open(&w);
	write_bad(&w);
	assert_int_equal(read_back(&w, 0, res, 2, &err), -1);
	if (!strstr(err.buf, reason))
		fail_msg("reason '%s' lacks '%s'", err.buf, reason);
	free_results(res, 2);
}

static const double good[] = { 10, 11 };

static void bad_magic(struct wire *w)
{
	put_frame(w, 0xdeadbeef, 0, 0, 0, good, 2);
}

static void wrong_cell(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 1, 0, 0, good, 2);
}

static void wrong_round(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 7, 0, good, 2);
}

static void too_many(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, NULL, (uint64_t)INTERLEAVE_MAX_SAMPLES + 1);
}

static void no_samples(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, NULL, 0);
}

static void bad_cycles_flag(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 2, good, 2);
}

static void bad_core_flag(struct wire *w)
{
	put_frame_core(w, INTERLEAVE_MAGIC, 0, 0, 0, 3, good, 2);
}

static void core_not_a_number(struct wire *w)
{
	struct interleave_frame f = { .magic = INTERLEAVE_MAGIC, .has_core = 1, .n = 2 };
	const double x[] = { 10, INFINITY };

	wire_put(w, &f, sizeof(f));
	wire_put(w, good, sizeof(good));
	wire_put(w, x, sizeof(x));
}

/* Readings without core cycles: nothing they could be the readings of. */
static void readings_without_core(struct wire *w)
{
	struct interleave_frame f = { .magic = INTERLEAVE_MAGIC, .has_readings = 1, .n = 2 };

	wire_put(w, &f, sizeof(f));
	wire_put(w, good, sizeof(good));
	wire_put(w, good, sizeof(good));
}

static void readings_not_a_number(struct wire *w)
{
	struct interleave_frame f = { .magic = INTERLEAVE_MAGIC, .has_core = 1, .has_readings = 1, .n = 2 };
	const double x[] = { 630, NAN };

	wire_put(w, &f, sizeof(f));
	wire_put(w, good, sizeof(good));
	wire_put(w, good, sizeof(good));
	wire_put(w, x, sizeof(x));
}

static void not_a_number(struct wire *w)
{
	const double x[] = { 10, NAN };

	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, x, 2);
}

static void negative(struct wire *w)
{
	const double x[] = { -1, 3 };

	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, x, 2);
}

static void truncated_values(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, NULL, 2);
	wire_put(w, good, sizeof(double));
}

static void truncated_header(struct wire *w)
{
	struct interleave_frame f = { .magic = INTERLEAVE_MAGIC, .n = 2 };

	wire_put(w, &f, sizeof(f) / 2);
}

static void missing_cell(struct wire *w)
{
	put_frame(w, INTERLEAVE_MAGIC, 0, 0, 0, good, 2);
}

static void test_round_refused(void **state)
{
	assert_refused(bad_magic, "magic 0xdeadbeef");
	assert_refused(wrong_cell, "expected cell 0");
	assert_refused(wrong_round, "round 7, expected cell 0 round 0");
	assert_refused(too_many, "samples");
	assert_refused(no_samples, "0 samples");
	assert_refused(bad_cycles_flag, "cycles flag 2");
	assert_refused(bad_core_flag, "core flag 3");
	assert_refused(core_not_a_number, "core cycles sample 1 is inf");
	assert_refused(readings_without_core, "readings flag 1");
	assert_refused(readings_not_a_number, "readings sample 1 is nan");
	assert_refused(not_a_number, "ns sample 1 is nan");
	assert_refused(negative, "ns sample 0 is -1");
	assert_refused(truncated_values, "closed its pipe early");
	assert_refused(truncated_header, "closed its pipe early");
	assert_refused(missing_cell, "closed its pipe early");
}

static void test_core_cycles_and_tail(void **state)
{
	static const double a[] = { 88.5, 88.0 };
	struct interleave_tail t = { .magic = INTERLEAVE_MAGIC, .round = 2,
			     .quality = { .ghz = 4.4, .elapsed_s = 0.7, .involuntary = 3,
					  .steal_ms = NAN, .migrations = -1 } };
	struct round_quality q;
	struct cell_result res[1];
	struct wire w;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(res, 0, sizeof(res));
	wire_open(&w);
	put_frame_core(&w, INTERLEAVE_MAGIC, 0, 2, 1, 1, a, 2);
	wire_put(&w, &t, sizeof(t));
	close(w.fd[1]);
	assert_int_equal(interleave_read_round(w.fd[0], 2, res, 1, 2000, &err), 0);
	assert_non_null(res[0].core);
	assert_true(res[0].core[1] == 88.0);
	assert_int_equal(interleave_read_tail(w.fd[0], 2, &q, 2000, &err), 0);
	assert_true(q.ghz == 4.4 && q.involuntary == 3 && q.migrations == -1);
	close(w.fd[0]);
	free_results(res, 1);

	/* A tail for another round, or with impossible figures, is refused. */
	wire_open(&w);
	wire_put(&w, &t, sizeof(t));
	t.quality.involuntary = -5;
	wire_put(&w, &t, sizeof(t));
	assert_int_equal(interleave_read_tail(w.fd[0], 3, &q, 2000, &err), -1);
	assert_non_null(strstr(err.buf, "round 2, expected 3"));
	assert_int_equal(interleave_read_tail(w.fd[0], 2, &q, 2000, &err), -1);
	assert_non_null(strstr(err.buf, "implausible"));
	close(w.fd[0]);
	close(w.fd[1]);
}

static void test_round_times_out(void **state)
{
	struct cell_result res[1];
	struct wire w;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(res, 0, sizeof(res));
	wire_open(&w);
	/* The writer stays open and silent. */
	assert_int_equal(interleave_read_round(w.fd[0], 0, res, 1, 100, &err), -1);
	assert_non_null(strstr(err.buf, "no answer"));
	close(w.fd[0]);
	close(w.fd[1]);
	free_results(res, 1);
}

static void test_hello_checked(void **state)
{
	struct interleave_hello h, got;
	struct wire w;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(&h, 0, sizeof(h));
	h.magic = INTERLEAVE_MAGIC;
	h.version = INTERLEAVE_VERSION;
	h.ncells = 3;
	h.pid = 1234;
	h.boundary_ns = 30.5;
	memset(h.cycles_unit, 'x', sizeof(h.cycles_unit));	/* unterminated */
	wire_open(&w);
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 3, &got, 1000, &err), 0);
	assert_int_equal(strlen(got.cycles_unit), sizeof(got.cycles_unit) - 1);
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 4, &got, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "3 cells, expected 4"));
	h.core_source = 7;
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 3, &got, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "core cycles from 7"));
	/* The figures that make the core cycles again: checked, never a pointer. */
	h.core_source = CORE_REFERENCE;
	h.ref = (struct stored_reference){ .readings = (double *)&h, .reading_core = NAN };
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 3, &got, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "a reading of nan core cycles"));
	h.ref.reading_core = 300.5;
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 3, &got, 1000, &err), 0);
	assert_null(got.ref.readings);
	assert_true(got.ref.reading_core == 300.5);
	h.version = 99;
	wire_put(&w, &h, sizeof(h));
	assert_int_equal(interleave_read_hello(w.fd[0], 3, &got, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "version 99"));
	close(w.fd[0]);
	close(w.fd[1]);
}

/* ---- real children --------------------------------------------------- */

static void build_cells(struct catalog *cat)
{
	struct catalog_filter f;

	memset(&f, 0, sizeof(f));
	f.api[API_CLOCK_GETTIME] = true;
	f.clock[CLOCK_MONOTONIC] = true;
	f.clock[CLOCK_MONOTONIC_COARSE] = true;
	f.path[PATH_LIBC] = true;
	catalog_build(cat, &f);
	assert_int_equal(cat->ncells, 2);
}

static void quick_cfg(struct timing_config *cfg, unsigned rounds)
{
	timing_config_quick(cfg);
	cfg->budget_s = 0.02;
	cfg->min_time_s = 0.005;
	cfg->rounds = rounds;
}

static void run_side(enum interleave_side_id s)
{
	struct timens_offsets off = { 10 * 86400 * S_NS, 20 * 86400 * S_NS };
	struct timing_config cfg;
	struct interleave_bench b;
	struct catalog cat;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	build_cells(&cat);
	quick_cfg(&cfg, 3);
	interleave_init(&b, cat.cells, cat.ncells, &cfg, &off, CYCLES_REQ_AUTO);
	assert_true(b.batch_calls[0] % CELL_UNROLL == 0 && b.batch_calls[0] > 0);
	if (interleave_start(&b, s, &err) != 0)
		fail_msg("start: %s", err.buf);
	assert_true(b.side[s].boundary_ns > 0);
	for (unsigned k = 0; k < 3; k++)
		if (interleave_round(&b, s, k, &err) != 0)
			fail_msg("round %u: %s", k, err.buf);
	assert_int_equal(interleave_stop(&b, &err), 0);
	interleave_summarize(&b);
	for (size_t i = 0; i < cat.ncells; i++) {
		const struct cell_result *r = &b.side[s].res[i];

		assert_int_equal(r->nrounds, 3);
		assert_int_equal(r->batch_calls, b.batch_calls[i]);
		assert_int_equal(r->rounds[0], 0);
		assert_int_equal(r->rounds[r->n - 1], 2);
		assert_true(r->ns_sum.median > 0 && r->ns_sum.median < 100000);
		assert_non_null(r->core);
		assert_true(r->core_sum.median > 0);
	}
	/* Each round's disturbances and the child's warm-up came across. */
	assert_int_equal(b.side[s].nrounds, 3);
	assert_true(b.side[s].rounds[2].ghz > 0.1 && b.side[s].rounds[2].ghz < 10);
	assert_true(b.side[s].warmup.windows >= 1);
	assert_int_not_equal(b.side[s].core_source, CORE_NONE);
	/* The other side never ran. */
	assert_int_equal(b.side[!s].res[0].n, 0);
	interleave_free(&b);
	catalog_free(&cat);
}

static void test_host_side_measures(void **state)
{
	run_side(INTERLEAVE_HOST);
}

static void test_timens_side_measures(void **state)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!timens_supported(&why))
		skip();
	run_side(INTERLEAVE_TIMENS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_offset),
		cmocka_unit_test(test_parse_offset_rejects),
		cmocka_unit_test(test_format_offset),
		cmocka_unit_test(test_round_accepted),
		cmocka_unit_test(test_round_refused),
		cmocka_unit_test(test_core_cycles_and_tail),
		cmocka_unit_test(test_round_times_out),
		cmocka_unit_test(test_hello_checked),
		cmocka_unit_test(test_host_side_measures),
		cmocka_unit_test(test_timens_side_measures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
