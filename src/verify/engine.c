// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measuring loops behind the time-based checks, written against
 * reader callbacks so that unit tests can drive them with clocks that
 * misbehave on purpose: brackets, single-thread and cross-CPU
 * monotonicity, the observed step of a clock, and REALTIME step detection.
 */
#include "verify/verify.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "probe/timing.h"

/* How often the loops look at the clock that bounds them. */
#define DEADLINE_EVERY 64

static uint64_t deadline_after(double seconds)
{
	return verify_now_ns() + (uint64_t)(seconds * 1e9);
}

/* ---- brackets ------------------------------------------------------------ */

enum bracket_verdict bracket_judge(const struct timespec *before,
				   const struct timespec *mid,
				   const struct timespec *after)
{
	if (!ts_normalized(before) || !ts_normalized(mid) || !ts_normalized(after))
		return BRACKET_DENORMAL;
	if (ts_cmp(mid, before) < 0)
		return BRACKET_EARLY;
	if (ts_cmp(mid, after) > 0)
		return BRACKET_LATE;
	return BRACKET_OK;
}

static void note_broken(struct bracket_stats *st, enum bracket_verdict verdict,
			const struct timespec t[3])
{
	int64_t out = 0;

	if (verdict == BRACKET_EARLY)
		out = ts_ns(&t[0]) - ts_ns(&t[1]);
	else if (verdict == BRACKET_LATE)
		out = ts_ns(&t[1]) - ts_ns(&t[2]);
	if (!st->broken++) {
		st->first_verdict = verdict;
		memcpy(st->first, t, sizeof(st->first));
	}
	if (out > st->worst_ns)
		st->worst_ns = out;
}

void bracket_run(vread_fn ref, void *ref_arg, vread_fn test, void *test_arg,
		 double seconds, unsigned long min_reads, struct bracket_stats *st)
{
	uint64_t deadline = deadline_after(seconds);

	memset(st, 0, sizeof(*st));
	for (;;) {
		struct timespec t[3];
		enum bracket_verdict verdict;
		int e;

		if ((e = ref(ref_arg, &t[0])) || (e = test(test_arg, &t[1])) ||
		    (e = ref(ref_arg, &t[2]))) {
			st->read_error = e;
			return;
		}
		st->reads++;
		verdict = bracket_judge(&t[0], &t[1], &t[2]);
		if (verdict != BRACKET_OK)
			note_broken(st, verdict, t);
		if (st->reads % DEADLINE_EVERY == 0 && st->reads >= min_reads &&
		    verify_now_ns() >= deadline)
			return;
	}
}

/* ---- one thread ------------------------------------------------------------ */

void mono_note(struct mono_stats *st, const struct timespec *prev,
	       const struct timespec *cur)
{
	int64_t back;

	if (!ts_normalized(cur)) {
		st->denormal++;
		return;
	}
	if (ts_cmp(cur, prev) >= 0)
		return;
	back = ts_ns(prev) - ts_ns(cur);
	st->backward++;
	if (back > st->max_back_ns) {
		st->max_back_ns = back;
		st->back_prev = *prev;
		st->back_cur = *cur;
		st->back_at = st->reads;
	}
}

static double seconds_since(uint64_t start_ns, uint64_t now_ns)
{
	return (double)(now_ns - start_ns) / 1e9;
}

/*
 * One read of a run of reads (mono_run's, gran_run's): counted in *reads
 * when it succeeds; when it fails, its errno goes to *read_error and
 * false ends the run.
 */
static inline bool counted_read(vread_fn rd, void *arg, struct timespec *ts,
				unsigned long *reads, int *read_error)
{
	int e = rd(arg, ts);

	if (e) {
		*read_error = e;
		return false;
	}
	(*reads)++;
	return true;
}

void mono_run(vread_fn rd, void *arg, double seconds, unsigned long min_reads,
	      struct mono_stats *st)
{
	uint64_t start = verify_now_ns(), now;
	uint64_t deadline = start + (uint64_t)(seconds * 1e9);
	struct timespec prev, cur;

	memset(st, 0, sizeof(*st));
	if (!counted_read(rd, arg, &prev, &st->reads, &st->read_error))
		return;
	for (;;) {
		if (!counted_read(rd, arg, &cur, &st->reads, &st->read_error)) {
			st->seconds = seconds_since(start, verify_now_ns());
			return;
		}
		mono_note(st, &prev, &cur);
		prev = cur;
		if (st->reads % DEADLINE_EVERY || st->reads < min_reads)
			continue;
		if ((now = verify_now_ns()) >= deadline) {
			st->seconds = seconds_since(start, now);
			return;
		}
	}
}

/* ---- the observed step ----------------------------------------------------- */

void gran_run(vread_fn rd, void *arg, double min_s, double max_s,
	      unsigned long min_steps, struct gran_stats *st)
{
	uint64_t start = verify_now_ns();
	uint64_t min_end = start + (uint64_t)(min_s * 1e9);
	uint64_t max_end = start + (uint64_t)(max_s * 1e9);
	struct timespec prev, cur;

	memset(st, 0, sizeof(*st));
	if (!counted_read(rd, arg, &prev, &st->reads, &st->read_error))
		return;
	for (;;) {
		int64_t step;
		uint64_t now;

		if (!counted_read(rd, arg, &cur, &st->reads, &st->read_error))
			return;
		step = ts_ns(&cur) - ts_ns(&prev);
		if (step > 0) {
			if (!st->steps++ || step < st->min_step_ns)
				st->min_step_ns = step;
		}
		prev = cur;
		if (st->reads % DEADLINE_EVERY)
			continue;
		now = verify_now_ns();
		if (now >= max_end || (st->steps >= min_steps && now >= min_end))
			return;
	}
}

bool gran_step_is_read_cost(const struct gran_stats *st)
{
	/* steps counts the reads (after the first) that saw the clock move. */
	return st->reads > 1 && st->steps * 2 > st->reads - 1;
}

/* ---- the step of a clock that moves on every read --------------------------------- */

#define LATTICE_MAX_NS 100.0
#define LATTICE_SCAN_NS 0.002	/* finer than 1 ns over the 100 multiples of 4096 ns */
#define LATTICE_SHARE 0.99
#define LATTICE_MULTIPLE_SHARE 0.005
#define LATTICE_MIN_MULTIPLES 4

/* The differences within LATTICE_TOLERANCE_NS of a multiple of q. Whole
 * ns truncate both times, so k steps of exactly q ns differ by kq within
 * 1 ns; a clock's steps that vary by a fraction of a ns (kvm-clock's,
 * from the TSC scaled) need the half ns more. */
static unsigned long lattice_within(const unsigned long *hist, const size_t *bins,
				    size_t nbins, double q)
{
	unsigned long within = 0;

	for (size_t i = 0; i < nbins; i++) {
		double d = (double)bins[i], k = floor(d / q + 0.5);

		if (k >= 1 && fabs(d - k * q) <= LATTICE_TOLERANCE_NS)
			within += hist[bins[i]];
	}
	return within;
}

/* The multiples of q that hold at least LATTICE_MULTIPLE_SHARE of total. */
static unsigned lattice_multiples(const unsigned long *hist, size_t len, double q,
				  unsigned long total)
{
	unsigned n = 0;

	for (double k = 1; k * q + LATTICE_TOLERANCE_NS < (double)len; k++) {
		unsigned long held = 0;

		for (long d = (long)ceil(k * q - LATTICE_TOLERANCE_NS);
		     d <= (long)floor(k * q + LATTICE_TOLERANCE_NS); d++)
			held += d > 0 ? hist[d] : 0;
		n += (double)held >= LATTICE_MULTIPLE_SHARE * (double)total;
	}
	return n;
}

void lattice_fit_histogram(const unsigned long *hist, size_t len, struct lattice *out)
{
	size_t *bins = xcalloc(len, sizeof(*bins)), nbins = 0;
	double hi = 0, lo = 0;

	memset(out, 0, sizeof(*out));
	for (size_t d = 1; d < len; d++)
		if (hist[d]) {
			bins[nbins++] = d;
			out->deltas += hist[d];
		}
	/* The widest passing spacing, and the run of spacings that pass with
	 * it: its middle is the estimate. */
	for (double q = LATTICE_MAX_NS; q >= LATTICE_MIN_NS && out->deltas; q -= LATTICE_SCAN_NS) {
		bool pass = (double)lattice_within(hist, bins, nbins, q) >=
			    LATTICE_SHARE * (double)out->deltas;

		if (pass && !hi)
			hi = q;
		if (pass)
			lo = q;
		else if (hi)
			break;
	}
	if (hi) {
		out->step_ns = (hi + lo) / 2;
		out->share = (double)lattice_within(hist, bins, nbins, out->step_ns) /
			     (double)out->deltas;
		out->multiples = lattice_multiples(hist, len, out->step_ns, out->deltas);
		out->found = out->multiples >= LATTICE_MIN_MULTIPLES;
	}
	free(bins);
}

int lattice_run(vread_fn rd, void *arg, unsigned long pairs, struct lattice *out)
{
	unsigned long *hist = xcalloc(LATTICE_HIST_NS, sizeof(*hist));
	static volatile unsigned spin;
	int e = 0;

	for (unsigned long i = 0; i < pairs && !e; i++) {
		struct timespec a, b;
		int64_t d;

		if ((e = rd(arg, &a)))
			break;
		/* 0 to 255 stores: the pair's spacing spreads over a few hundred ns. */
		for (unsigned long j = 0; j < i % 256; j++)
			spin++;
		if ((e = rd(arg, &b)))
			break;
		d = ts_ns(&b) - ts_ns(&a);
		if (d > 0 && d < LATTICE_HIST_NS)
			hist[d]++;
	}
	if (!e)
		lattice_fit_histogram(hist, LATTICE_HIST_NS, out);
	free(hist);
	return e;
}

/*
 * A coarse clock moves when the timekeeper accumulates whole ticks: its
 * steps are whole multiples of the resolution (NTP changes a tick by 500
 * ppm at most, 10 % is generous). A tick can be accumulated late, so the
 * smallest step of a busy VM may be two ticks, even three; more than
 * COARSE_MAX_TICKS means the clock is not stepping per tick.
 */
#define COARSE_MAX_TICKS 4

static bool coarse_step_agrees(int64_t res_ns, int64_t step_ns, struct strbuf *why)
{
	int64_t ticks = (step_ns + res_ns / 2) / res_ns;

	if (ticks < 1 || llabs(step_ns - ticks * res_ns) > res_ns / 10) {
		strbuf_setf(why, "a coarse clock steps by whole ticks of its resolution "
			    "(%lld ns) but the finest step seen between two reads is %lld ns",
			    (long long)res_ns, (long long)step_ns);
		return false;
	}
	if (ticks > COARSE_MAX_TICKS) {
		strbuf_setf(why, "the finest step seen between two reads, %lld ns, is "
			    "%lld ticks of %lld ns: the clock does not step per tick",
			    (long long)step_ns, (long long)ticks, (long long)res_ns);
		return false;
	}
	strbuf_setf(why, "the finest step seen between two reads is %lld ns, %lld "
		    "whole tick%s of its resolution (%lld ns, %.0f Hz), as a coarse clock "
		    "steps", (long long)step_ns, (long long)ticks, ticks > 1 ? "s" : "",
		    (long long)res_ns, 1e9 / (double)res_ns);
	return true;
}

/* Steps of a high-resolution clock are read costs, far below a tick. */
#define FINE_STEP_LIMIT_NS 100000

/*
 * A step of a clock that moves between ticks: at least floor_ns (what
 * floor names: the reported resolution, or the API's unit), far below a
 * tick. below says why a finer step is wrong.
 */
static bool fine_step_agrees(int64_t floor_ns, int64_t step_ns, const char *floor,
			     const char *below, struct strbuf *why)
{
	int64_t limit = floor_ns > FINE_STEP_LIMIT_NS ? floor_ns : FINE_STEP_LIMIT_NS;

	if (step_ns >= floor_ns && step_ns <= limit) {
		strbuf_setf(why, "the finest step seen between two reads is %lld ns: "
			    "not below %s (%lld ns), not above %lld ns (a clock that moves "
			    "between ticks)", (long long)step_ns, floor, (long long)floor_ns,
			    (long long)limit);
		return true;
	}
	if (step_ns < floor_ns)
		strbuf_setf(why, "the finest step seen between two reads, %lld ns, is "
			    "below %lld ns (%s: %s)", (long long)step_ns,
			    (long long)floor_ns, floor, below);
	else
		strbuf_setf(why, "the finest step seen between two reads, %lld ns, is "
			    "above %lld ns (a clock with a fine resolution moves between "
			    "ticks)", (long long)step_ns, (long long)limit);
	return false;
}

bool granularity_agrees(int64_t res_ns, int64_t step_ns, enum clock_kind kind,
			struct strbuf *why)
{
	if (res_ns <= 0) {
		strbuf_setf(why, "the reported resolution %lld ns is not positive",
			    (long long)res_ns);
		return false;
	}
	if (kind == CLOCK_KIND_COARSE)
		return coarse_step_agrees(res_ns, step_ns, why);
	return fine_step_agrees(res_ns, step_ns, "the reported resolution",
				"the clock moved by less than it says it can", why);
}

bool unit_step_agrees(int64_t unit_ns, int64_t step_ns, const char *unit,
		      struct strbuf *why)
{
	return fine_step_agrees(unit_ns, step_ns, unit, "no two times it gives differ "
				"by less", why);
}

/* ---- rates ------------------------------------------------------------------- */

void rate_fit_samples(const struct rate_sample *s, size_t n, struct rate_fit *fit)
{
	double sx = 0, sy = 0, sxy = 0, sxx = 0, r2 = 0, a, b, den;

	memset(fit, 0, sizeof(*fit));
	fit->n = n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		sx += s[i].t_s;
		sy += s[i].offset_ns;
		sxy += s[i].t_s * s[i].offset_ns;
		sxx += s[i].t_s * s[i].t_s;
	}
	den = sxx - sx * sx / (double)n;
	b = den > 0 ? (sxy - sx * sy / (double)n) / den : 0;
	a = (sy - b * sx) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double r = fabs(s[i].offset_ns - (a + b * s[i].t_s));

		r2 += r * r;
		if (r > fit->max_ns)
			fit->max_ns = r;
	}
	fit->ppm = b / 1000.0;		/* ns per s is ppb */
	fit->span_s = s[n - 1].t_s - s[0].t_s;
	fit->sd_ns = sqrt(r2 / (double)n);
}

/* Reads per sample; the one with the shortest reference window counts. */
#define RATE_READS 8

static int rate_sample(vread_fn ref, void *ref_arg, vread_fn clk, void *clk_arg,
		       int64_t *ref_ns, int64_t *off_ns)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < RATE_READS; i++) {
		struct timespec r1, c, r2;
		int e;

		if ((e = ref(ref_arg, &r1)) || (e = clk(clk_arg, &c)) ||
		    (e = ref(ref_arg, &r2)))
			return e;
		if (ts_ns(&r2) - ts_ns(&r1) >= best)
			continue;
		best = ts_ns(&r2) - ts_ns(&r1);
		*ref_ns = ts_ns(&r1) + best / 2;
		*off_ns = ts_ns(&c) - *ref_ns;
	}
	return 0;
}

int rate_measure(vread_fn ref, void *ref_arg, vread_fn clk, void *clk_arg,
		 double seconds, struct rate_fit *fit)
{
	struct rate_sample s[RATE_SAMPLES];
	struct timespec gap = { 0, (long)(seconds * 1e9 / RATE_SAMPLES) };
	int64_t ref0 = 0, off0 = 0;

	if (gap.tv_nsec >= 1000000000L) {
		gap.tv_sec = gap.tv_nsec / 1000000000L;
		gap.tv_nsec %= 1000000000L;
	}
	for (size_t i = 0; i < RATE_SAMPLES; i++) {
		int64_t r = 0, o = 0;
		int e = rate_sample(ref, ref_arg, clk, clk_arg, &r, &o);

		if (e)
			return e;
		if (!i) {
			ref0 = r;
			off0 = o;
		}
		s[i].t_s = (double)(r - ref0) / 1e9;
		s[i].offset_ns = (double)(o - off0);
		nanosleep(&gap, NULL);
	}
	rate_fit_samples(s, RATE_SAMPLES, fit);
	return 0;
}

/* ---- threads side by side ------------------------------------------------------ */

/* Spans that only touch (one ends as the other starts) do not overlap. */
static bool spans_overlap(const struct thread_span *a, const struct thread_span *b)
{
	return a->start_ns < b->end_ns && b->start_ns < a->end_ns;
}

void span_overlap(const struct thread_span *s, size_t n, struct span_overlap *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		bool any = false;
		unsigned open = 0;

		/* The most spans open at once are open at one of their starts. */
		for (size_t j = 0; j < n; j++) {
			if (j != i && spans_overlap(&s[i], &s[j]))
				any = true;
			if (s[j].start_ns <= s[i].start_ns && s[i].start_ns < s[j].end_ns)
				open++;
		}
		o->overlapping += any;
		if (open > o->most_at_once)
			o->most_at_once = open;
	}
}

/* ---- REALTIME steps ----------------------------------------------------------- */

void rt_offset_from(int64_t mono1_ns, int64_t real_ns, int64_t mono2_ns,
		    struct rt_offset *o)
{
	o->off_ns = real_ns - mono1_ns / 2 - mono2_ns / 2;
	o->unc_ns = (mono2_ns - mono1_ns) / 2 + 1;
}

bool rt_offset_stepped(const struct rt_offset *a, const struct rt_offset *b,
		       int64_t slack_ns)
{
	return llabs(b->off_ns - a->off_ns) > a->unc_ns + b->unc_ns + slack_ns;
}

static int64_t sys_clock_ns(clockid_t id)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, id, &ts);
	return ts_ns(&ts);
}

static void read_rt_offset(struct rt_offset *o)
{
	int64_t m1 = sys_clock_ns(CLOCK_MONOTONIC);
	int64_t r = sys_clock_ns(CLOCK_REALTIME);
	int64_t m2 = sys_clock_ns(CLOCK_MONOTONIC);

	rt_offset_from(m1, r, m2, o);
}

void step_watch_begin(struct step_watch *w)
{
	/* Far in the future, and still so with a 32-bit time_t (2038). */
	struct itimerspec far = { .it_value = {
		.tv_sec = sizeof(time_t) > 4 ? (time_t)(INT64_C(1) << 40) : (time_t)INT32_MAX } };

	w->watching = true;
	read_rt_offset(&w->start);
	w->tfd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	if (w->tfd >= 0 &&
	    timerfd_settime(w->tfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET,
			    &far, NULL) != 0) {
		close(w->tfd);
		w->tfd = -1;
	}
}

void step_watch_begin_if(struct step_watch *w, bool on)
{
	if (on)
		step_watch_begin(w);
	else
		w->watching = false;
}

/* The uncertainty of the offset is a few syscalls; 1 ms of slack covers
 * a preemption between them without hiding a real step of any size that
 * could break a bracket of syscall reads. */
#define STEP_SLACK_NS 1000000

bool step_watch_end(struct step_watch *w, struct strbuf *why)
{
	struct rt_offset end;
	uint64_t expirations;
	bool cancelled = false;

	if (!w->watching)
		return false;
	if (w->tfd >= 0) {
		cancelled = read(w->tfd, &expirations, sizeof(expirations)) < 0 &&
			    errno == ECANCELED;
		close(w->tfd);
		w->tfd = -1;
	}
	read_rt_offset(&end);
	if (cancelled) {
		strbuf_setf(why, "CLOCK_REALTIME was set during the check "
			    "(a TFD_TIMER_CANCEL_ON_SET timerfd was cancelled)");
		return true;
	}
	if (rt_offset_stepped(&w->start, &end, STEP_SLACK_NS)) {
		strbuf_setf(why, "CLOCK_REALTIME - CLOCK_MONOTONIC moved by %lld ns "
			    "during the check", (long long)(end.off_ns - w->start.off_ns));
		return true;
	}
	return false;
}

/* ---- across CPUs -------------------------------------------------------------- */

struct xcpu_shared {
	const struct xcpu_config *cfg;
	struct xcpu_result *res;
	_Atomic unsigned long turn;	/* whose read is next: turn % ncpus */
	atomic_bool stop;
	atomic_uint ready;		/* threads pinned and waiting */
	/* Written only by the token holder: */
	uint64_t start_ns;		/* before the first read */
	uint64_t deadline;		/* counted from start_ns */
	struct timespec last;
	int last_cpu;
	bool have_last;
};

struct xcpu_thread {
	struct xcpu_shared *sh;
	size_t idx;
	pthread_t tid;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Wait for the token; false when the run stopped meanwhile. */
static bool xcpu_wait_turn(struct xcpu_shared *sh, size_t idx, unsigned long *turn)
{
	unsigned spins = 0;

	for (;;) {
		*turn = atomic_load_explicit(&sh->turn, memory_order_acquire);
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return false;
		if (*turn % sh->cfg->ncpus == idx)
			return true;
		cpu_relax();
		/* Two readers on one CPU would spin a whole slice each. */
		if (++spins == 4096) {
			sched_yield();
			spins = 0;
		}
	}
}

/* One read while holding the token: compare with the previous holder's. */
static bool xcpu_take_turn(struct xcpu_shared *sh, int cpu)
{
	const struct xcpu_config *cfg = sh->cfg;
	struct xcpu_result *res = sh->res;
	struct timespec now;
	uint64_t now_ns;
	int e;

	/* The watch starts with the first read, once every thread is pinned
	 * and waiting: thread creation is no part of it. */
	if (!res->exchanges) {
		sh->start_ns = verify_now_ns();
		sh->deadline = sh->start_ns + (uint64_t)(cfg->seconds * 1e9);
	}
	if ((e = cfg->read(cfg->arg, &now))) {
		res->read_error = e;
		res->seconds = seconds_since(sh->start_ns, verify_now_ns());
		return false;
	}
	if (sh->have_last && ts_cmp(&now, &sh->last) < 0) {
		int64_t back = ts_ns(&sh->last) - ts_ns(&now);

		res->backward++;
		if (back > res->max_back_ns) {
			res->max_back_ns = back;
			res->back_prev = sh->last;
			res->back_cur = now;
			res->back_from_cpu = sh->last_cpu;
			res->back_to_cpu = cpu;
			res->back_at = res->exchanges + 1;
		}
	}
	sh->last = now;
	sh->last_cpu = cpu;
	sh->have_last = true;
	res->exchanges++;
	if (cfg->max_exchanges && res->exchanges >= cfg->max_exchanges) {
		res->seconds = seconds_since(sh->start_ns, verify_now_ns());
		return false;
	}
	if (res->exchanges % DEADLINE_EVERY || (now_ns = verify_now_ns()) < sh->deadline)
		return true;
	res->seconds = seconds_since(sh->start_ns, now_ns);
	return false;
}

static void *xcpu_thread_main(void *p)
{
	struct xcpu_thread *t = p;
	struct xcpu_shared *sh = t->sh;
	const struct xcpu_config *cfg = sh->cfg;
	int cpu = cfg->cpus ? cfg->cpus[t->idx] : (int)t->idx;
	unsigned long turn;

	if (cfg->pin && timing_pin_cpu(cpu) != 0) {
		sh->res->pin_error = errno;
		sh->res->pin_cpu = cpu;
		atomic_store(&sh->stop, true);
	}
	/* Start together, so that no thread's first read waits on a
	 * thread that is still being created. */
	atomic_fetch_add(&sh->ready, 1);
	while (atomic_load(&sh->ready) < cfg->ncpus && !atomic_load(&sh->stop))
		sched_yield();
	while (xcpu_wait_turn(sh, t->idx, &turn)) {
		bool go_on = xcpu_take_turn(sh, cpu);

		if (!go_on)
			atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
		atomic_store_explicit(&sh->turn, turn + 1, memory_order_release);
		if (!go_on)
			break;
	}
	return NULL;
}

int xcpu_run(const struct xcpu_config *cfg, struct xcpu_result *res)
{
	struct xcpu_shared sh;
	struct xcpu_thread *threads;
	size_t started = 0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (!cfg->ncpus)
		return -1;
	memset(&sh, 0, sizeof(sh));
	sh.cfg = cfg;
	sh.res = res;
	atomic_init(&sh.turn, 0);
	atomic_init(&sh.stop, false);
	threads = xcalloc(cfg->ncpus, sizeof(*threads));
	atomic_init(&sh.ready, 0);
	for (; started < cfg->ncpus; started++) {
		threads[started].sh = &sh;
		threads[started].idx = started;
		if (pthread_create(&threads[started].tid, NULL, xcpu_thread_main,
				   &threads[started]) != 0)
			break;
	}
	if (started < cfg->ncpus) {
		atomic_store(&sh.stop, true);
		rc = -1;
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i].tid, NULL);
	free(threads);
	return rc;
}
