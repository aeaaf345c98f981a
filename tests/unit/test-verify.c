// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "probe/timens.h"
#include "report/verify-text.h"
#include "verify/verify.h"

static struct timespec ts(time_t s, long ns)
{
	struct timespec t = { s, ns };

	return t;
}

/* ---- small helpers ----------------------------------------------------- */

static void test_timespec_helpers(void **state)
{
	char buf[32];
	struct timespec a = ts(5, 10), b = ts(5, 11), c = ts(6, 0);

	assert_true(ts_normalized(&a));
	assert_false(ts_normalized(&(struct timespec){ 1, 1000000000L }));
	assert_false(ts_normalized(&(struct timespec){ 1, -1 }));
	assert_false(ts_normalized(&(struct timespec){ -1, 0 }));
	assert_int_equal(ts_cmp(&a, &b), -1);
	assert_int_equal(ts_cmp(&c, &b), 1);
	assert_int_equal(ts_cmp(&a, &a), 0);
	assert_int_equal(ts_ns(&c), 6000000000LL);
	ts_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "5.000000010");
}

static void test_pattern_matches(void **state)
{
	const char *name = "abi/clock-gettime-monotonic/ts-null/vdso";

	assert_true(verify_pattern_matches("abi", name));
	assert_true(verify_pattern_matches("abi/", name));
	assert_true(verify_pattern_matches("abi/clock-gettime*", name));
	assert_true(verify_pattern_matches("*monotonic*", name));
	assert_true(verify_pattern_matches("abi/*/vdso", name));
	assert_true(verify_pattern_matches(name, name));
	assert_false(verify_pattern_matches("ab", name));
	assert_false(verify_pattern_matches("abi/clock-gettime", name));
	assert_false(verify_pattern_matches("*/libc", name));
	assert_false(verify_pattern_matches("", name));
}

static void test_exit_status(void **state)
{
	struct verify_totals t = { 0 };

	assert_int_equal(verify_exit_status(&t), 4);	/* nothing ran */
	t.skip = 3;
	assert_int_equal(verify_exit_status(&t), 4);	/* all skipped */
	t.xfail = 1;
	assert_int_equal(verify_exit_status(&t), 0);
	t.pass = 5;
	assert_int_equal(verify_exit_status(&t), 0);
	t.error = 1;
	assert_int_equal(verify_exit_status(&t), 1);
	t.error = 0;
	t.fail = 1;
	assert_int_equal(verify_exit_status(&t), 1);
}

static void test_parse_fault(void **state)
{
	struct verify_fault f;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(verify_parse_fault(NULL, &f, &err), 0);
	assert_int_equal(f.kind, FAULT_NONE);
	assert_int_equal(verify_parse_fault("", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_NONE);

	assert_int_equal(verify_parse_fault("vdso-clock-back-1ms", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_CLOCK_BACK);
	assert_int_equal(f.path, PATH_VDSO);
	assert_int_equal(f.shift_ns, 1000000);
	assert_int_equal(verify_parse_fault("libc-clock-back-2s", &f, &err), 0);
	assert_int_equal(f.path, PATH_LIBC);
	assert_int_equal(f.shift_ns, 2000000000LL);
	assert_int_equal(verify_parse_fault("syscall-errno", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_ERRNO);
	assert_int_equal(f.path, PATH_SYSCALL);

	assert_int_equal(verify_parse_fault("vdso", &f, &err), -1);
	assert_int_equal(verify_parse_fault("kernel-errno", &f, &err), -1);
	assert_non_null(strstr(err.buf, "unknown path 'kernel'"));
	assert_int_equal(verify_parse_fault("vdso-clock-back-", &f, &err), -1);
	assert_int_equal(verify_parse_fault("vdso-clock-back-0", &f, &err), -1);
	assert_int_equal(verify_parse_fault("vdso-clock-back-2h", &f, &err), -1);
	assert_int_equal(verify_parse_fault("vdso-frob", &f, &err), -1);
}

static void test_parse_intermittent_fault(void **state)
{
	struct verify_fault f;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(verify_parse_fault("vdso-clock-back-1ms", &f, &err), 0);
	assert_int_equal(f.every, 0);
	assert_int_equal(f.cpu, -1);
	assert_int_equal(verify_parse_fault("libc-clock-back-2ms-every-1000", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_CLOCK_BACK);
	assert_int_equal(f.shift_ns, 2000000);
	assert_int_equal(f.every, 1000);
	assert_int_equal(f.cpu, -1);
	assert_int_equal(verify_parse_fault("syscall-clock-back-500us-cpu-1", &f, &err), 0);
	assert_int_equal(f.shift_ns, 500000);
	assert_int_equal(f.every, 0);
	assert_int_equal(f.cpu, 1);
	assert_int_equal(verify_parse_fault("vdso-clock-back-1ms-cpu-0-every-3", &f, &err), 0);
	assert_int_equal(f.cpu, 0);
	assert_int_equal(f.every, 3);

	static const char *const bad[] = {
		"vdso-clock-back-1ms-", "vdso-clock-back-1ms-every", "vdso-clock-back-1ms-every-0",
		"vdso-clock-back-1ms-every-x", "vdso-clock-back-1ms-cpu--1",
		"vdso-clock-back-1ms-cpu-99999", "vdso-clock-back-1ms-every-2-every-3",
		"vdso-clock-back-1ms-sometimes-2", "vdso-clock-back-every-2",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		assert_int_equal(verify_parse_fault(bad[i], &f, &err), -1);
		assert_non_null(strstr(err.buf, "PATH-clock-back-DURATION[-every-N][-cpu-K]"));
	}
	assert_int_equal(verify_parse_fault("vdso-getcpu-wrong", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_CPU_WRONG);
	assert_int_equal(f.every, 0);
	assert_int_equal(verify_parse_fault("libc-getcpu-wrong-every-7", &f, &err), 0);
	assert_int_equal(f.kind, FAULT_CPU_WRONG);
	assert_int_equal(f.every, 7);
	assert_int_equal(verify_parse_fault("libc-getcpu-wrongly", &f, &err), -1);
	assert_int_equal(verify_parse_fault("libc-getcpu-wrong-", &f, &err), -1);
}

/* Every Nth read of the faulty path is hit; other paths never are. */
static void test_fault_hits_every(void **state)
{
	struct verify_fault f = { FAULT_CLOCK_BACK, PATH_VDSO, 1000, 4, -1 };
	unsigned hits = 0, first = 0;

	for (unsigned i = 1; i <= 40; i++) {
		assert_false(verify_fault_hits(&f, FAULT_CLOCK_BACK, PATH_SYSCALL));
		if (verify_fault_hits(&f, FAULT_CLOCK_BACK, PATH_VDSO) && !hits++)
			first = i;
	}
	assert_int_equal(hits, 10);
	assert_true(first >= 1 && first <= 4);
}

/* A one-CPU fault hits the reads made there only (pinned: the CPU cannot
 * change under the test). */
static void test_fault_hits_one_cpu(void **state)
{
	struct verify_fault f = { FAULT_CLOCK_BACK, PATH_LIBC, 1000, 0, -1 };
	cpu_set_t one, orig;
	int cpu = sched_getcpu();

	assert_int_equal(sched_getaffinity(0, sizeof(orig), &orig), 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	f.cpu = cpu;
	assert_true(verify_fault_hits(&f, FAULT_CLOCK_BACK, PATH_LIBC));
	assert_false(verify_fault_hits(&f, FAULT_CLOCK_BACK, PATH_VDSO));
	f.cpu = cpu + 1;
	assert_false(verify_fault_hits(&f, FAULT_CLOCK_BACK, PATH_LIBC));
	assert_int_equal(sched_setaffinity(0, sizeof(orig), &orig), 0);
}

/* ---- brackets ------------------------------------------------------------ */

static void test_bracket_judge(void **state)
{
	struct timespec lo = ts(10, 100), mid = ts(10, 200), hi = ts(10, 300);

	assert_int_equal(bracket_judge(&lo, &mid, &hi), BRACKET_OK);
	assert_int_equal(bracket_judge(&lo, &lo, &lo), BRACKET_OK);
	assert_int_equal(bracket_judge(&mid, &lo, &hi), BRACKET_EARLY);
	assert_int_equal(bracket_judge(&lo, &hi, &mid), BRACKET_LATE);
	assert_int_equal(bracket_judge(&lo, &(struct timespec){ 10, 1000000000L }, &hi),
			 BRACKET_DENORMAL);
}

/*
 * A fake clock: every read is 10 ns after the one before. The "test"
 * path lags by lag_ns on its read number lag_at (counting from 1).
 */
struct fake_clock {
	int64_t now;
	unsigned long test_reads;
	unsigned long lag_at;
	int64_t lag_ns;
	unsigned long fail_at;
};

static void set_ns(struct timespec *t, int64_t ns)
{
	t->tv_sec = (time_t)(ns / 1000000000LL);
	t->tv_nsec = (long)(ns % 1000000000LL);
}

static int fake_ref(void *arg, struct timespec *t)
{
	struct fake_clock *f = arg;

	f->now += 10;
	set_ns(t, f->now);
	return 0;
}

static int fake_test(void *arg, struct timespec *t)
{
	struct fake_clock *f = arg;

	f->test_reads++;
	if (f->fail_at && f->test_reads == f->fail_at)
		return EINVAL;
	f->now += 10;
	set_ns(t, f->now - (f->test_reads == f->lag_at ? f->lag_ns : 0));
	return 0;
}

static void test_bracket_run_clean(void **state)
{
	struct fake_clock f = { .now = 1000000000LL };
	struct bracket_stats st;

	bracket_run(fake_ref, &f, fake_test, &f, 0, 1000, &st);
	assert_true(st.reads >= 1000);
	assert_int_equal(st.broken, 0);
	assert_int_equal(st.read_error, 0);
}

static void test_bracket_run_catches_a_lagging_read(void **state)
{
	struct fake_clock f = { .now = 1000000000LL, .lag_at = 500, .lag_ns = 1000000 };
	struct bracket_stats st;

	bracket_run(fake_ref, &f, fake_test, &f, 0, 1000, &st);
	assert_int_equal(st.broken, 1);
	assert_int_equal(st.first_verdict, BRACKET_EARLY);
	/* 1 ms back, minus the 10 ns the fake clock moved meanwhile. */
	assert_int_equal(st.worst_ns, 1000000 - 10);
	assert_int_equal(ts_ns(&st.first[0]) - ts_ns(&st.first[1]), 1000000 - 10);
	assert_true(ts_cmp(&st.first[0], &st.first[2]) < 0);
}

static void test_bracket_run_stops_on_error(void **state)
{
	struct fake_clock f = { .now = 1000000000LL, .fail_at = 5 };
	struct bracket_stats st;

	bracket_run(fake_ref, &f, fake_test, &f, 0, 1000, &st);
	assert_int_equal(st.read_error, EINVAL);
	assert_int_equal(st.reads, 4);
}

/* ---- monotonicity ------------------------------------------------------------ */

static void test_mono_note(void **state)
{
	struct mono_stats st;
	struct timespec a = ts(1, 500), b = ts(1, 400), c = ts(0, 999999000);

	memset(&st, 0, sizeof(st));
	mono_note(&st, &a, &a);
	assert_int_equal(st.backward, 0);
	mono_note(&st, &a, &b);
	assert_int_equal(st.backward, 1);
	assert_int_equal(st.max_back_ns, 100);
	mono_note(&st, &b, &c);
	assert_int_equal(st.backward, 2);
	assert_int_equal(st.max_back_ns, 1400);
	assert_int_equal(ts_ns(&st.back_prev), ts_ns(&b));
	assert_int_equal(ts_ns(&st.back_cur), ts_ns(&c));
	mono_note(&st, &c, &(struct timespec){ 1, 1000000000L });
	assert_int_equal(st.denormal, 1);
}

static void test_mono_run_catches_a_step_back(void **state)
{
	struct fake_clock f = { .now = 5000, .lag_at = 300, .lag_ns = 25 };
	struct mono_stats st;

	mono_run(fake_test, &f, 0, 1000, &st);
	assert_true(st.reads >= 1000);
	assert_int_equal(st.backward, 1);
	assert_int_equal(st.max_back_ns, 15);
	/* Where: the read that lagged, counted from 1. */
	assert_int_equal(st.back_at, 300);
	f = (struct fake_clock){ .now = 5000 };
	mono_run(fake_test, &f, 0, 1000, &st);
	assert_int_equal(st.backward, 0);
}

/* The watch mono_run reports is from before its first read to after its
 * last: at least the time it was given, which its deadline guarantees. */
static void test_mono_run_reports_its_watch(void **state)
{
	struct fake_clock f = { .now = 5000 };
	struct mono_stats st;

	mono_run(fake_test, &f, 0.02, 1000, &st);
	assert_true(st.seconds >= 0.02);
	/* A read that fails ends the watch there, and it is still reported. */
	f = (struct fake_clock){ .now = 5000, .fail_at = 2000 };
	mono_run(fake_test, &f, 60, 1000, &st);
	assert_int_equal(st.read_error, EINVAL);
	assert_int_equal(st.reads, 1999);
	assert_true(st.seconds > 0 && st.seconds < 60);
}

/* ---- granularity ---------------------------------------------------------------- */

/* A coarse fake: moves by 4 ms every third read. */
static int fake_coarse(void *arg, struct timespec *t)
{
	struct fake_clock *f = arg;

	if (++f->test_reads % 3 == 0)
		f->now += 4000000;
	set_ns(t, f->now);
	return 0;
}

static void test_gran_run(void **state)
{
	struct fake_clock f = { .now = 1000000000LL };
	struct gran_stats st;

	gran_run(fake_coarse, &f, 0, 10, 16, &st);
	assert_true(st.steps >= 16);
	assert_int_equal(st.min_step_ns, 4000000);
}

static void test_granularity_agrees(void **state)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	/* Coarse: whole ticks of the resolution, at most four. */
	assert_true(granularity_agrees(4000000, 4000000, CLOCK_KIND_COARSE, &why));
	assert_true(granularity_agrees(4000000, 4000100, CLOCK_KIND_COARSE, &why));
	assert_true(granularity_agrees(4000000, 8000000, CLOCK_KIND_COARSE, &why));
	assert_false(granularity_agrees(4000000, 3000000, CLOCK_KIND_COARSE, &why));
	assert_false(granularity_agrees(4000000, 10000000, CLOCK_KIND_COARSE, &why));
	assert_non_null(strstr(why.buf, "whole ticks"));
	assert_false(granularity_agrees(4000000, 20000000, CLOCK_KIND_COARSE, &why));
	assert_false(granularity_agrees(4000000, 30, CLOCK_KIND_COARSE, &why));
	/* Fine: at least the resolution, far below a tick. */
	assert_true(granularity_agrees(1, 25, CLOCK_KIND_HRES, &why));
	assert_true(granularity_agrees(1000, 1000, CLOCK_KIND_HRES, &why));
	assert_false(granularity_agrees(1, 4000000, CLOCK_KIND_HRES, &why));
	assert_false(granularity_agrees(1000, 500, CLOCK_KIND_HRES, &why));
	assert_false(granularity_agrees(0, 500, CLOCK_KIND_HRES, &why));
	/* The messages say what was measured, not that it is the resolution. */
	assert_true(granularity_agrees(1, 20, CLOCK_KIND_HRES, &why));
	assert_string_equal(why.buf, "the finest step seen between two reads is 20 ns: not "
			    "below the reported resolution (1 ns), not above 100000 ns (a "
			    "clock that moves between ticks)");
	assert_false(granularity_agrees(1000, 500, CLOCK_KIND_HRES, &why));
	assert_non_null(strstr(why.buf, "500 ns, is below 1000 ns (the reported resolution"));
	assert_true(granularity_agrees(4000000, 8000000, CLOCK_KIND_COARSE, &why));
	assert_string_equal(why.buf, "the finest step seen between two reads is 8000000 ns, 2 "
			    "whole ticks of its resolution (4000000 ns, 250 Hz), as a coarse "
			    "clock steps");
}

/* gettimeofday's microsecond is its unit, named so, not a resolution. */
static void test_unit_step_agrees(void **state)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	assert_true(unit_step_agrees(1000, 1000, "gettimeofday's unit", &why));
	assert_string_equal(why.buf, "the finest step seen between two reads is 1000 ns: "
			    "not below gettimeofday's unit (1000 ns), not above 100000 ns "
			    "(a clock that moves between ticks)");
	assert_null(strstr(why.buf, "resolution"));
	assert_true(unit_step_agrees(1000, 3000, "gettimeofday's unit", &why));
	assert_false(unit_step_agrees(1000, 500, "gettimeofday's unit", &why));
	assert_string_equal(why.buf, "the finest step seen between two reads, 500 ns, is "
			    "below 1000 ns (gettimeofday's unit: no two times it gives "
			    "differ by less)");
	assert_false(unit_step_agrees(1000, 4000000, "gettimeofday's unit", &why));
	assert_non_null(strstr(why.buf, "is above 100000 ns"));
}

/* A clock that steps by step_ns, read in pairs step_ns * 2 to 30 apart:
 * the differences as whole ns truncate them. */
static void fill_quantized(unsigned long *hist, double step_ns, double phase)
{
	for (int i = 0; i < 4000; i++) {
		double a = phase + i * 0.37, gap = 20 + (i % 280);
		long ta = (long)(floor(a / step_ns) * step_ns);
		long tb = (long)(floor((a + gap) / step_ns) * step_ns);

		hist[tb - ta]++;
	}
}

static void test_lattice_fit(void **state)
{
	unsigned long *hist = calloc(LATTICE_HIST_NS, sizeof(*hist));
	struct lattice l;

	/* kvm-clock here: about 10.02 ns a step. */
	fill_quantized(hist, 10.02, 0.3);
	lattice_fit_histogram(hist, LATTICE_HIST_NS, &l);
	assert_true(l.found);
	assert_true(fabs(l.step_ns - 10.02) < 0.1);
	assert_true(l.share >= 0.99);
	assert_true(l.multiples >= 20);
	assert_int_equal(l.deltas, 4000);
	/* A clock that moves by the ns: every difference from 20 to 299. */
	memset(hist, 0, LATTICE_HIST_NS * sizeof(*hist));
	for (int d = 20; d < 300; d++)
		hist[d] = 10;
	lattice_fit_histogram(hist, LATTICE_HIST_NS, &l);
	assert_false(l.found);
	assert_true(l.step_ns == 0);
	/* A step finer than the lattices it looks for: not found either. */
	memset(hist, 0, LATTICE_HIST_NS * sizeof(*hist));
	fill_quantized(hist, 2.5, 0.1);
	lattice_fit_histogram(hist, LATTICE_HIST_NS, &l);
	assert_false(l.found);
	/* Two tight read costs, 20 and 30 ns, on a fine clock: they fit a 10 ns
	 * lattice, but two multiples cannot tell it from a quantized clock. */
	memset(hist, 0, LATTICE_HIST_NS * sizeof(*hist));
	hist[20] = hist[21] = hist[30] = hist[31] = 1000;
	lattice_fit_histogram(hist, LATTICE_HIST_NS, &l);
	assert_false(l.found);
	assert_true(l.step_ns > 0);
	assert_int_equal(l.multiples, 2);
	/* Nothing counted. */
	memset(hist, 0, LATTICE_HIST_NS * sizeof(*hist));
	lattice_fit_histogram(hist, LATTICE_HIST_NS, &l);
	assert_false(l.found);
	assert_int_equal(l.deltas, 0);
	free(hist);
}

/* Counts, not times: which of the step and a read's cost the step is. */
static void test_gran_step_is_read_cost(void **state)
{
	struct gran_stats st = { .reads = 1001, .steps = 1000, .min_step_ns = 20 };

	assert_true(gran_step_is_read_cost(&st));
	st.steps = 501;
	assert_true(gran_step_is_read_cost(&st));
	st.steps = 500;
	assert_false(gran_step_is_read_cost(&st));
	st.steps = 40;		/* gettimeofday: most reads see the same us */
	assert_false(gran_step_is_read_cost(&st));
	st.reads = 1;
	st.steps = 0;
	assert_false(gran_step_is_read_cost(&st));
}

/* ---- REALTIME steps ----------------------------------------------------------------- */

static void test_rt_offset(void **state)
{
	struct rt_offset a, b, c;

	rt_offset_from(1000, 5000000000LL, 3000, &a);
	assert_int_equal(a.off_ns, 5000000000LL - 2000);
	assert_int_equal(a.unc_ns, 1001);
	/* The same offset read later, within the read jitter. */
	rt_offset_from(2001000, 5002000500LL, 2002000, &b);
	assert_false(rt_offset_stepped(&a, &b, 0));
	/* Set back by 10 ms. */
	rt_offset_from(4001000, 4994001500LL, 4002000, &c);
	assert_true(rt_offset_stepped(&a, &c, 1000000));
}

static void test_step_watch(void **state)
{
	struct step_watch w, off;
	struct timespec r, m0, m1;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	step_watch_begin(&w);
	assert_false(step_watch_end(&w, &why));
	if (geteuid() != 0) {
		skip();
		return;
	}
	/*
	 * Set REALTIME to what it already is (plus the time the read took):
	 * a step of well under a microsecond, which the kernel still
	 * reports to TFD_TIMER_CANCEL_ON_SET timers. A watch begun for a
	 * clock that does not follow REALTIME reports nothing of it.
	 */
	step_watch_begin(&w);
	step_watch_begin_if(&off, false);
	clock_gettime(CLOCK_MONOTONIC, &m0);
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m1);
	r.tv_nsec += (long)(ts_ns(&m1) - ts_ns(&m0));
	if (r.tv_nsec >= 1000000000L) {
		r.tv_sec++;
		r.tv_nsec -= 1000000000L;
	}
	assert_int_equal(clock_settime(CLOCK_REALTIME, &r), 0);
	assert_true(step_watch_end(&w, &why));
	assert_non_null(strstr(why.buf, "CLOCK_REALTIME was set"));
	strbuf_reset(&why);
	assert_false(step_watch_end(&off, &why));
	assert_int_equal(why.len, 0);
}

/* ---- across CPUs ------------------------------------------------------------------- */

struct shared_fake {
	atomic_long now;
	atomic_ulong reads;
	unsigned long back_at;
};

static int fake_shared(void *arg, struct timespec *t)
{
	struct shared_fake *f = arg;
	unsigned long n = atomic_fetch_add(&f->reads, 1) + 1;
	long now = atomic_fetch_add(&f->now, 10) + 10;

	set_ns(t, now - (n == f->back_at ? 35 : 0));
	return 0;
}

static void test_xcpu_catches_a_step_back(void **state)
{
	struct shared_fake f = { .back_at = 101 };
	struct xcpu_config cfg = {
		.ncpus = 3, .pin = false, .read = fake_shared, .arg = &f,
		.seconds = 60, .max_exchanges = 1000,
	};
	struct xcpu_result res;

	atomic_init(&f.now, 1000000);
	atomic_init(&f.reads, 0);
	assert_int_equal(xcpu_run(&cfg, &res), 0);
	assert_int_equal(res.exchanges, 1000);
	assert_int_equal(res.backward, 1);
	assert_int_equal(res.max_back_ns, 25);
	/* Read 101 was by thread 100 % 3, after thread 99 % 3. */
	assert_int_equal(res.back_to_cpu, 1);
	assert_int_equal(res.back_from_cpu, 0);
	assert_int_equal(res.back_at, 101);
}

static void test_xcpu_clean_run(void **state)
{
	struct shared_fake f = { .back_at = 0 };
	struct xcpu_config cfg = {
		.ncpus = 2, .pin = false, .read = fake_shared, .arg = &f,
		.seconds = 60, .max_exchanges = 500,
	};
	struct xcpu_result res;

	atomic_init(&f.now, 0);
	atomic_init(&f.reads, 0);
	assert_int_equal(xcpu_run(&cfg, &res), 0);
	assert_int_equal(res.exchanges, 500);
	assert_int_equal(res.backward, 0);
}

/* The watch starts at the first read, once the threads are up: a run
 * stopped by its deadline watched at least its seconds. */
static void test_xcpu_reports_its_watch(void **state)
{
	struct shared_fake f = { .back_at = 0 };
	struct xcpu_config cfg = {
		.ncpus = 2, .pin = false, .read = fake_shared, .arg = &f,
		.seconds = 0.02,
	};
	struct xcpu_result res;

	atomic_init(&f.now, 0);
	atomic_init(&f.reads, 0);
	assert_int_equal(xcpu_run(&cfg, &res), 0);
	assert_true(res.seconds >= 0.02);
	cfg.seconds = 60;
	cfg.max_exchanges = 100;
	assert_int_equal(xcpu_run(&cfg, &res), 0);
	assert_int_equal(res.exchanges, 100);
	assert_true(res.seconds > 0 && res.seconds < 60);
}

static int real_monotonic(void *arg, struct timespec *t)
{
	(void)arg;
	return clock_gettime(CLOCK_MONOTONIC, t) ? errno : 0;
}

/* The real clock, handed between two pinned CPUs, never goes back. */
static void test_xcpu_pinned_monotonic(void **state)
{
	cpu_set_t set;
	int cpus[2], n = 0;
	struct xcpu_config cfg = {
		.cpus = cpus, .ncpus = 2, .pin = true, .read = real_monotonic,
		.seconds = 0.2, .max_exchanges = 20000,
	};
	struct xcpu_result res;

	sched_getaffinity(0, sizeof(set), &set);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	if (n < 2) {
		skip();
		return;
	}
	assert_int_equal(xcpu_run(&cfg, &res), 0);
	assert_int_equal(res.pin_error, 0);
	assert_true(res.exchanges > 100);
	assert_int_equal(res.backward, 0);
}

/* ---- rates ------------------------------------------------------------------------------ */

static void test_rate_fit(void **state)
{
	struct rate_sample s[5];
	struct rate_fit fit;

	/* 250 ppm: 250 ns more every ms, plus one sample 40 ns off the line. */
	for (int i = 0; i < 5; i++)
		s[i] = (struct rate_sample){ i * 1e-3, i * 250.0 };
	s[2].offset_ns += 40;
	rate_fit_samples(s, 5, &fit);
	assert_int_equal(fit.n, 5);
	assert_true(fabs(fit.ppm - 250.0) < 0.01);
	assert_true(fit.max_ns > 30 && fit.max_ns < 40);
	assert_true(fabs(fit.span_s - 4e-3) < 1e-12);
	rate_fit_samples(s, 1, &fit);
	assert_true(fit.ppm == 0);
}

/* A clock derived from the real MONOTONIC_RAW, running 100 ppm fast. */
static int raw_ref(void *arg, struct timespec *t)
{
	(void)arg;
	return clock_gettime(CLOCK_MONOTONIC_RAW, t) ? errno : 0;
}

static int fast_clock(void *arg, struct timespec *t)
{
	int64_t *base = arg;
	struct timespec raw;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
	ns = ts_ns(&raw) - *base;
	set_ns(t, *base + ns + ns / 10000);
	return 0;
}

static void test_rate_measure(void **state)
{
	struct timespec now;
	struct rate_fit fit;
	int64_t base;

	clock_gettime(CLOCK_MONOTONIC_RAW, &now);
	base = ts_ns(&now);
	assert_int_equal(rate_measure(raw_ref, NULL, fast_clock, &base, 0.05, &fit), 0);
	assert_int_equal(fit.n, RATE_SAMPLES);
	assert_true(fabs(fit.ppm - 100.0) < 1.0);
	assert_true(fit.span_s > 0.04);
	assert_int_equal(rate_measure(raw_ref, NULL, raw_ref, NULL, 0.02, &fit), 0);
	assert_true(fabs(fit.ppm) < 1.0);
}

/* ---- threads side by side ------------------------------------------------------------ */

static void test_span_overlap(void **state)
{
	/* One after another: none overlaps; touching is not overlapping. */
	struct thread_span serial[3] = { { 0, 10 }, { 10, 20 }, { 25, 30 } };
	/* Two pairs, apart: every span overlaps one other, two at once. */
	struct thread_span pairs[4] = { { 0, 10 }, { 5, 15 }, { 100, 110 }, { 105, 120 } };
	/* All contain the instant 50 (the last start): all four at once. */
	struct thread_span all[4] = { { 0, 60 }, { 20, 51 }, { 50, 90 }, { 10, 200 } };
	/* A long span under three short ones that do not meet. */
	struct thread_span nested[4] = { { 0, 100 }, { 10, 20 }, { 30, 40 }, { 50, 60 } };
	struct span_overlap o;

	span_overlap(serial, 3, &o);
	assert_int_equal(o.overlapping, 0);
	assert_int_equal(o.most_at_once, 1);
	span_overlap(pairs, 4, &o);
	assert_int_equal(o.overlapping, 4);
	assert_int_equal(o.most_at_once, 2);
	span_overlap(all, 4, &o);
	assert_int_equal(o.overlapping, 4);
	assert_int_equal(o.most_at_once, 4);
	span_overlap(nested, 4, &o);
	assert_int_equal(o.overlapping, 4);
	assert_int_equal(o.most_at_once, 2);
	span_overlap(serial, 1, &o);
	assert_int_equal(o.overlapping, 0);
	assert_int_equal(o.most_at_once, 1);
}

/* ---- the watch lines ---------------------------------------------------------------- */

/* Four watchers as verify has them: two that watch for a step back as
 * inconsistency-check does, one that does while switching, one rate fit. */
static void sample_watches(struct verify_watch w[4])
{
	w[0] = (struct verify_watch){ .group = "monotonic", .vs_inconsistency_check = true,
		.planned = 3, .budget_s = 0.140, .ran = 3, .min_s = 0.1401,
		.max_s = 0.1404, .total_s = 0.4206 };
	w[1] = (struct verify_watch){ .group = "cross-cpu", .vs_inconsistency_check = true,
		.planned = 2, .budget_s = 0.1667, .ran = 2, .min_s = 0.167,
		.max_s = 0.1682, .total_s = 0.3352 };
	w[2] = (struct verify_watch){ .group = "clocksource-switch", .planned = 1,
		.budget_s = 1.0, .ran = 1, .min_s = 1.002, .max_s = 1.002,
		.total_s = 1.002 };
	w[3] = (struct verify_watch){ .group = "raw-skew", .kind = VERIFY_WATCH_RATE,
		.planned = 3, .budget_s = 0.3333, .ran = 3, .min_s = 0.350,
		.max_s = 0.359, .total_s = 1.06 };
}

static char *print_to_string(void (*print)(FILE *, const struct verify_report *),
			     const struct verify_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, r);
	fclose(f);
	return buf;
}

/* After the run: each group's reported watches; the share of the
 * selftest's 10 s only for the groups that watch as it does. */
static void test_watched_lines(void **state)
{
	struct verify_watch w[4];
	struct verify_report r = { .long_watch_s = 10, .watch = w, .nwatch = 4 };
	char *text;

	sample_watches(w);
	text = print_to_string(verify_text_watched, &r);
	assert_string_equal(text,
		"# counting only the reads that test it, each clock was watched for a "
		"step back 140 ms by monotonic/*, 167-168 ms by cross-cpu/*, 1002 ms by "
		"clocksource-switch/*\n"
		"# against inconsistency-check's 10 s: monotonic/* 1.4 %, cross-cpu/* at "
		"most 1.7 %\n"
		"# raw-skew/* fitted MONOTONIC's rate against MONOTONIC_RAW from samples "
		"spanning 350-359 ms a check\n");
	free(text);
	/* A group whose points reported no watch is not named. */
	w[0].ran = 0;
	w[3].ran = 0;
	text = print_to_string(verify_text_watched, &r);
	assert_null(strstr(text, "monotonic/"));
	assert_null(strstr(text, "raw-skew/"));
	assert_non_null(strstr(text, "# against inconsistency-check's 10 s: cross-cpu/* "
			       "at most 1.7 %\n"));
	free(text);
}

static void print_header(FILE *f, const struct verify_report *r)
{
	verify_text_header(f, r);
}

/* The plan: each group's budget, and the same split by kind. */
static void test_watch_plan_lines(void **state)
{
	struct verify_watch w[4];
	struct env_info env;
	struct verify_report r = { .planned = 9, .timed = 9, .duration_s = 1,
				   .long_watch_s = 10, .watch = w, .nwatch = 4,
				   .env = &env };
	char *text;

	memset(&env, 0, sizeof(env));
	for (int api = 0; api < API_COUNT; api++)
		r.interposer[api] = "";
	sample_watches(w);
	text = print_to_string(print_header, &r);
	assert_non_null(strstr(text, "\n# each clock is watched for a step back 140 ms by "
			       "monotonic/*, 167 ms by cross-cpu/*, 1000 ms by "
			       "clocksource-switch/*\n# against the 10 s inconsistency-check "
			       "watches each clock by default: monotonic/* 1.4 %, cross-cpu/* "
			       "1.7 % (--long watches as long)\n# raw-skew/* fits MONOTONIC's "
			       "rate against MONOTONIC_RAW from 333 ms of samples a check\n"));
	/* No rate fit is compared with inconsistency-check. */
	assert_null(strstr(text, "raw-skew/* 3"));
	free(text);
}

/* JSON: a point's watch when it reported one; the groups' figures. */
static void test_watched_json(void **state)
{
	json_t *p = verify_json_point(1, "monotonic/x/vdso", VRESULT_PASS, "m", NULL,
				      0.2, 0.15);

	assert_true(json_real_value(json_object_get(p, "elapsed_s")) == 0.2);
	assert_true(json_real_value(json_object_get(p, "watched_s")) == 0.15);
	json_decref(p);
	p = verify_json_point(2, "bracket/x/vdso", VRESULT_PASS, "m", NULL, 0.2, -1);
	assert_null(json_object_get(p, "watched_s"));
	json_decref(p);
}

/* ---- background ------------------------------------------------------------------------ */

/* A kernel change is cited from the project's table, marked as background. */
static void test_background(void **state)
{
	const struct verify_background *b = verify_background("vdso-getres-aux");
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	assert_non_null(b);
	assert_string_equal(b->commit, "cd3557a7618b");
	verify_background_text("vdso-getres-aux", &text);
	assert_ptr_equal(strstr(text.buf, "background, not tested by verify: since kernel "
				"commit cd3557a7618b (\"vdso/gettimeofday: Add support for "
				"auxiliary clocks\", v6.17), the vDSO's clock_getres "),
			 text.buf);
	assert_null(verify_background("no-such-topic"));
	strbuf_reset(&text);
	verify_background_text("no-such-topic", &text);
	assert_string_equal(text.buf, "");
}

/* ---- ABI judgement -------------------------------------------------------------------- */

static struct abi_outcome returned(long ret, int err)
{
	struct abi_outcome o = { .kind = ABI_RETURNED, .res = { ret, ret < 0, err } };

	return o;
}

static struct abi_outcome signaled(int sig)
{
	struct abi_outcome o = { .kind = ABI_SIGNALED, .sig = sig };

	return o;
}

static void test_abi_outcome(void **state)
{
	struct abi_outcome vdso_efault = returned(-EFAULT, EFAULT);
	struct abi_outcome sys_efault = returned(-1, EFAULT);
	struct abi_outcome segv = signaled(SIGSEGV);
	struct abi_outcome ok = returned(0, 0);
	struct abi_outcome lost = { .kind = ABI_LOST, .status = 1 };

	/* The vDSO: -EFAULT or a crash; never -1. */
	assert_true(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EFAULT, 0, &vdso_efault));
	assert_true(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EFAULT, 0, &segv));
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EFAULT, 0, &sys_efault));
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EFAULT, 0, &ok));
	/* libc: -1 with errno, or a crash in the vDSO below it. */
	assert_true(abi_outcome_ok(PATH_LIBC, ABI_EXPECT_EFAULT, 0, &sys_efault));
	assert_true(abi_outcome_ok(PATH_LIBC, ABI_EXPECT_EFAULT, 0, &segv));
	/* The syscall never crashes: the kernel checks the pointer. */
	assert_true(abi_outcome_ok(PATH_SYSCALL, ABI_EXPECT_EFAULT, 0, &sys_efault));
	assert_false(abi_outcome_ok(PATH_SYSCALL, ABI_EXPECT_EFAULT, 0, &segv));
	assert_false(abi_outcome_ok(PATH_SYSCALL, ABI_EXPECT_EFAULT, 0, &vdso_efault));
	/* EINVAL in each convention. */
	struct abi_outcome vdso_einval = returned(-EINVAL, EINVAL);
	struct abi_outcome einval = returned(-1, EINVAL);
	struct abi_outcome eperm = returned(-1, EPERM);

	assert_true(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EINVAL, EINVAL, &vdso_einval));
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EINVAL, EINVAL, &einval));
	assert_true(abi_outcome_ok(PATH_LIBC, ABI_EXPECT_EINVAL, EINVAL, &einval));
	assert_false(abi_outcome_ok(PATH_LIBC, ABI_EXPECT_EINVAL, EINVAL, &vdso_einval));
	assert_false(abi_outcome_ok(PATH_SYSCALL, ABI_EXPECT_EINVAL, EINVAL, &eperm));
	assert_false(abi_outcome_ok(PATH_SYSCALL, ABI_EXPECT_EINVAL, EINVAL, &segv));
	/* Allowed NULLs succeed. */
	assert_true(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_OK, 0, &ok));
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_OK, 0, &segv));
	/* A child that vanished never passes. */
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_OK, 0, &lost));
	assert_false(abi_outcome_ok(PATH_VDSO, ABI_EXPECT_EFAULT, 0, &lost));
}

static void test_abi_format(void **state)
{
	struct abi_outcome segv = signaled(SIGSEGV);
	struct abi_outcome sys = returned(-1, EFAULT);
	char buf[96];

	abi_expect_format(PATH_VDSO, ABI_EXPECT_EFAULT, 0, buf, sizeof(buf));
	assert_string_equal(buf, "-EFAULT or SIGSEGV");
	abi_expect_format(PATH_SYSCALL, ABI_EXPECT_EINVAL, EINVAL, buf, sizeof(buf));
	assert_string_equal(buf, "-1 with errno EINVAL");
	abi_expect_format(PATH_VDSO, ABI_EXPECT_EINVAL, EINVAL, buf, sizeof(buf));
	assert_string_equal(buf, "-EINVAL");
	abi_outcome_format(PATH_VDSO, &segv, buf, sizeof(buf));
	assert_string_equal(buf, "SIGSEGV");
	abi_outcome_format(PATH_SYSCALL, &sys, buf, sizeof(buf));
	assert_string_equal(buf, "-1 (errno EFAULT)");
}

static void test_abi_pointer_combinations(void **state)
{
	static const char *const gtod[] = { "tv", "tz" };
	static const char *const getcpu[] = { "cpu", "node", "cache" };
	enum abi_ptr ptr[ABI_MAX_ARGS] = { ABI_PTR_VALID, ABI_PTR_VALID, ABI_PTR_VALID };
	char note[256], name[128];

	assert_int_equal(abi_pointers_expect(API_GETTIMEOFDAY, ptr, 2, gtod, note,
					     sizeof(note)), ABI_EXPECT_OK);
	assert_string_equal(note, "");
	abi_pointers_name(ptr, 2, gtod, name, sizeof(name));
	assert_string_equal(name, "all-valid");

	/* NULL where the API allows it is no fault, wherever it is. */
	ptr[0] = ABI_PTR_NULL;
	ptr[1] = ABI_PTR_NULL;
	assert_int_equal(abi_pointers_expect(API_GETTIMEOFDAY, ptr, 2, gtod, note,
					     sizeof(note)), ABI_EXPECT_OK);
	assert_string_equal(note, " (tv is NULL: not wanted; tz is NULL: not wanted)");
	abi_pointers_name(ptr, 2, gtod, name, sizeof(name));
	assert_string_equal(name, "tv-null+tz-null");

	/* One unwritable pointer faults the call, whatever the others are. */
	ptr[1] = ABI_PTR_READ_ONLY;
	assert_int_equal(abi_pointers_expect(API_GETTIMEOFDAY, ptr, 2, gtod, note,
					     sizeof(note)), ABI_EXPECT_EFAULT);
	assert_string_equal(note, " (tv is NULL: not wanted; tz is a read-only page and "
			    "must be written)");
	ptr[0] = ABI_PTR_VALID;
	abi_pointers_name(ptr, 2, gtod, name, sizeof(name));
	assert_string_equal(name, "tz-read-only");

	/* getcpu ignores its cache, whatever it points to. */
	for (enum abi_ptr k = ABI_PTR_VALID; k < ABI_PTR_KINDS; k++) {
		enum abi_ptr c[3] = { ABI_PTR_NULL, ABI_PTR_VALID, k };

		assert_int_equal(abi_pointers_expect(API_GETCPU, c, 3, getcpu, note,
						     sizeof(note)), ABI_EXPECT_OK);
		c[1] = ABI_PTR_STRADDLE;
		assert_int_equal(abi_pointers_expect(API_GETCPU, c, 3, getcpu, note,
						     sizeof(note)), ABI_EXPECT_EFAULT);
	}
	enum abi_ptr c[3] = { ABI_PTR_UINTPTR_MAX, ABI_PTR_NULL, ABI_PTR_PROT_NONE };

	abi_pointers_name(c, 3, getcpu, name, sizeof(name));
	assert_string_equal(name, "cpu-uintptr-max+node-null+cache-prot-none");
	/* clock_gettime must write its one pointer; clock_getres may take NULL. */
	c[0] = ABI_PTR_NULL;
	assert_int_equal(abi_pointers_expect(API_CLOCK_GETTIME, c, 1, getcpu, note,
					     sizeof(note)), ABI_EXPECT_EFAULT);
	assert_int_equal(abi_pointers_expect(API_CLOCK_GETRES, c, 1, getcpu, note,
					     sizeof(note)), ABI_EXPECT_OK);
	assert_int_equal(abi_arg_use(API_GETCPU, 2), ABI_ARG_IGNORED);
	assert_int_equal(abi_arg_use(API_GETRANDOM, 0), ABI_ARG_WRITTEN);
}

/* ---- the calls, through a real context ------------------------------------------------- */

static void test_vcall_conventions(void **state)
{
	static const struct verify_options opt = { .duration_s = 1 };
	struct verify v;
	struct timespec t;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct vres r;

	unsetenv(VERIFY_FAULT_ENV);
	assert_int_equal(verify_context_init(&v, &opt, &err), 0);
	if (verify_path_missing(&v, API_CLOCK_GETTIME, PATH_VDSO)) {
		verify_context_free(&v);
		skip();
		return;
	}
	r = vcall_gettime(&v, PATH_VDSO, -1, &t);
	assert_true(r.failed);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.err, EINVAL);
	r = vcall_gettime(&v, PATH_LIBC, -1, &t);
	assert_int_equal(r.ret, -1);
	assert_int_equal(r.err, EINVAL);
	r = vcall_gettime(&v, PATH_SYSCALL, CLOCK_MONOTONIC, &t);
	assert_false(r.failed);
	verify_context_free(&v);
}

static void test_fault_injection(void **state)
{
	static const struct verify_options opt = { .duration_s = 1 };
	struct verify v;
	struct timespec sys, vdso;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct vres r;
	int64_t back, most_back = INT64_MIN;

	setenv(VERIFY_FAULT_ENV, "vdso-clock-back-1ms", 1);
	assert_int_equal(verify_context_init(&v, &opt, &err), 0);
	if (verify_path_missing(&v, API_CLOCK_GETTIME, PATH_VDSO)) {
		verify_context_free(&v);
		unsetenv(VERIFY_FAULT_ENV);
		skip();
		return;
	}
	/*
	 * Read after the syscall, yet about 1 ms earlier: never more, and
	 * 1 ms less the time between the two reads, which a preemption can
	 * stretch past 100 us, so the closest of a few pairs is judged.
	 */
	for (int i = 0; i < 5; i++) {
		vcall_gettime(&v, PATH_SYSCALL, CLOCK_MONOTONIC, &sys);
		vcall_gettime(&v, PATH_VDSO, CLOCK_MONOTONIC, &vdso);
		back = ts_ns(&sys) - ts_ns(&vdso);
		assert_true(back <= 1000000);
		if (back > most_back)
			most_back = back;
	}
	assert_true(most_back > 900000);
	verify_context_free(&v);

	setenv(VERIFY_FAULT_ENV, "vdso-errno", 1);
	assert_int_equal(verify_context_init(&v, &opt, &err), 0);
	r = vcall_gettime(&v, PATH_VDSO, -1, &vdso);
	assert_int_equal(r.ret, -EPERM);
	r = vcall_gettime(&v, PATH_SYSCALL, -1, &vdso);
	assert_int_equal(r.err, EINVAL);
	verify_context_free(&v);

	setenv(VERIFY_FAULT_ENV, "vdso-backwards", 1);
	assert_int_equal(verify_context_init(&v, &opt, &err), -1);
	verify_context_free(&v);
	unsetenv(VERIFY_FAULT_ENV);
}

/* ---- time namespaces ----------------------------------------------------------------------- */

static void test_timens_offsets_text(void **state)
{
	struct timens_offsets off = { 10 * 86400LL * 1000000000LL, -1500000000LL }, back;
	char buf[128];

	assert_int_equal(timens_format_offsets(&off, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "monotonic 864000 0\nboottime -2 500000000\n");
	assert_int_equal(timens_parse_offsets(buf, &back), 0);
	assert_int_equal(back.monotonic_ns, off.monotonic_ns);
	assert_int_equal(back.boottime_ns, off.boottime_ns);
	/* What the kernel prints. */
	assert_int_equal(timens_parse_offsets("monotonic           0         0\n"
					      "boottime          200         5\n", &back), 0);
	assert_int_equal(back.monotonic_ns, 0);
	assert_int_equal(back.boottime_ns, 200000000005LL);
	assert_int_equal(timens_parse_offsets("realtime 1 0\n", &back), -1);
	assert_int_equal(timens_parse_offsets("monotonic 1 1000000000\n", &back), -1);
	assert_int_equal(timens_parse_offsets("", &back), -1);
	assert_int_equal(timens_format_offsets(&off, buf, 8), -1);
}

struct ns_arg {
	int64_t host_before;
	int64_t offset;
};

/* In the namespace: MONOTONIC must be the host's plus the offset. */
static int check_offset(void *p)
{
	const struct ns_arg *a = p;
	struct timespec now;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
	if (ts_ns(&now) < a->host_before + a->offset)
		return 1;
	if (ts_ns(&now) > a->host_before + a->offset + 60 * 1000000000LL)
		return 2;
	return 7;
}

static void test_timens_run_in_new(void **state)
{
	struct timens_offsets off = { 5 * 86400LL * 1000000000LL, 0 };
	struct timens_offsets self;
	struct ns_arg a = { 0, 0 };
	struct timespec now;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	int rc;

	if (!timens_supported(&why)) {
		/* Not root (or no time namespaces): the reason says so. */
		assert_true(why.len > 10);
		assert_int_equal(timens_run_in_new(&off, check_offset, &a, &err), -1);
		skip();
		return;
	}
	assert_int_equal(timens_self_offsets(&self, &err), 0);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
	a.host_before = ts_ns(&now);
	a.offset = off.monotonic_ns - self.monotonic_ns;
	rc = timens_run_in_new(&off, check_offset, &a, &err);
	assert_int_equal(rc, 7);
	/* The caller itself did not move. */
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
	assert_true(ts_ns(&now) < a.host_before + a.offset);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timespec_helpers),
		cmocka_unit_test(test_pattern_matches),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_parse_fault),
		cmocka_unit_test(test_parse_intermittent_fault),
		cmocka_unit_test(test_fault_hits_every),
		cmocka_unit_test(test_fault_hits_one_cpu),
		cmocka_unit_test(test_bracket_judge),
		cmocka_unit_test(test_bracket_run_clean),
		cmocka_unit_test(test_bracket_run_catches_a_lagging_read),
		cmocka_unit_test(test_bracket_run_stops_on_error),
		cmocka_unit_test(test_mono_note),
		cmocka_unit_test(test_mono_run_catches_a_step_back),
		cmocka_unit_test(test_mono_run_reports_its_watch),
		cmocka_unit_test(test_gran_run),
		cmocka_unit_test(test_granularity_agrees),
		cmocka_unit_test(test_unit_step_agrees),
		cmocka_unit_test(test_lattice_fit),
		cmocka_unit_test(test_gran_step_is_read_cost),
		cmocka_unit_test(test_rt_offset),
		cmocka_unit_test(test_step_watch),
		cmocka_unit_test(test_xcpu_catches_a_step_back),
		cmocka_unit_test(test_xcpu_clean_run),
		cmocka_unit_test(test_xcpu_reports_its_watch),
		cmocka_unit_test(test_xcpu_pinned_monotonic),
		cmocka_unit_test(test_rate_fit),
		cmocka_unit_test(test_rate_measure),
		cmocka_unit_test(test_span_overlap),
		cmocka_unit_test(test_watched_lines),
		cmocka_unit_test(test_watch_plan_lines),
		cmocka_unit_test(test_watched_json),
		cmocka_unit_test(test_background),
		cmocka_unit_test(test_abi_outcome),
		cmocka_unit_test(test_abi_format),
		cmocka_unit_test(test_abi_pointer_combinations),
		cmocka_unit_test(test_vcall_conventions),
		cmocka_unit_test(test_fault_injection),
		cmocka_unit_test(test_timens_offsets_text),
		cmocka_unit_test(test_timens_run_in_new),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
