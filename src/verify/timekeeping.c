// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timekeeping checks of the kernel's timers selftests:
 *
 *  clocksource-switch  reads handed round every CPU stay monotonic while
 *                      the clocksource is switched under them (tsc ->
 *                      kvm-clock -> tsc here), over and over;
 *  freq-step           MONOTONIC stays monotonic and runs at the rate asked
 *                      for while the adjtimex frequency is stepped;
 *  raw-skew            MONOTONIC runs against MONOTONIC_RAW at the rate
 *                      adjtimex reports.
 *
 * The first two change machine state: they run in a child supervised by
 * probe/guard, which puts the clocksource and the adjtimex state back
 * whatever happens (also on SIGKILL of either process), and their line
 * says what was changed and what was restored.
 */
#include "verify/verify.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timex.h>
#include <unistd.h>

#include "probe/clocksource.h"
#include "probe/guard.h"

#define CURRENT_CLOCKSOURCE CLOCKSOURCE_CURRENT
#define AVAILABLE_CLOCKSOURCE CLOCKSOURCE_AVAILABLE

#define MAX_CLOCKSOURCES 8
#define CS_NAME_MAX 32

/* A reader of one clock through one path, for the engines. */
struct tk_reader {
	const struct verify *v;
	enum path path;
	clockid_t id;
};

static int tk_read(void *arg, struct timespec *ts)
{
	const struct tk_reader *r = arg;
	struct vres res = vcall_gettime(r->v, r->path, r->id, ts);

	return res.failed ? (res.err ? res.err : EIO) : 0;
}

/* Shared with the guarded child: what it measured. */
static void *shared_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The guarded child's end: why it ended early, if it did. A killed child
 * is an error of the point, named with what the guard restored.
 */
static bool guard_outcome_ok(struct verify *v, const struct guard *g, int status,
			     const char *err)
{
	char restored[600];

	guard_describe(g, restored, sizeof(restored));
	if (status < 0) {
		verror(v, "%s; restored %s", err, restored);
		return false;
	}
	if (status > 128) {
		verror(v, "the measuring process was killed by signal %d (%s); restored %s",
		       status - 128, strsignal(status - 128), restored);
		return false;
	}
	if (status > 0) {
		verror(v, "the measuring process failed (exit status %d); restored %s",
		       status, restored);
		return false;
	}
	return true;
}

/* A stop signal (Ctrl-C) the supervisor forwarded: now that the state is
 * back, let it do what it would have done. */
static void honour_stop_signal(const struct guard *g)
{
	if (!g->stop_signal)
		return;
	fflush(NULL);
	signal(g->stop_signal, SIG_DFL);
	raise(g->stop_signal);
}

/* ---- clocksource-switch ---------------------------------------------------- */

struct clocksources {
	char name[MAX_CLOCKSOURCES][CS_NAME_MAX];
	size_t n;
	char current[CS_NAME_MAX];
};

/* The available clocksources and the current one; false with why. */
static bool read_clocksources(struct clocksources *cs, struct strbuf *why)
{
	char line[512], *save = NULL;

	memset(cs, 0, sizeof(*cs));
	if (!read_line_file(AVAILABLE_CLOCKSOURCE, line, sizeof(line)) ||
	    !read_line_file(CURRENT_CLOCKSOURCE, cs->current, sizeof(cs->current))) {
		strbuf_setf(why, "cannot read %s: %s", CLOCKSOURCE_DIR, strerror(errno));
		return false;
	}
	for (char *t = strtok_r(line, " ", &save); t && cs->n < MAX_CLOCKSOURCES;
	     t = strtok_r(NULL, " ", &save))
		snprintf(cs->name[cs->n++], CS_NAME_MAX, "%s", t);
	return true;
}

struct switch_result {
	struct xcpu_result x;
	int xcpu_rc;
	unsigned long switches;		/* writes that took */
	unsigned long cycles;		/* there and back again */
	int write_error;		/* errno of a write that failed */
	char refused[CS_NAME_MAX];	/* a clocksource the kernel did not take */
	char kept[CS_NAME_MAX];		/* what it kept instead */
};

struct switch_job {
	const struct verify *v;
	struct tk_reader reader;
	const int *cpus;
	size_t ncpus;
	double seconds;
	const struct clocksources *cs;
	struct switch_result *res;	/* shared memory */
	atomic_bool stop;
};

/* Write a clocksource and check that the kernel took it; 0 or errno. */
static int set_clocksource(const char *name, struct switch_result *res)
{
	char now[CS_NAME_MAX];
	FILE *f = fopen(CURRENT_CLOCKSOURCE, "we");

	if (!f)
		return errno;
	if (fputs(name, f) < 0 || fclose(f) != 0)
		return errno ? errno : EIO;
	if (!read_line_file(CURRENT_CLOCKSOURCE, now, sizeof(now)))
		return errno ? errno : EIO;
	if (!streq(now, name)) {
		snprintf(res->refused, sizeof(res->refused), "%s", name);
		snprintf(res->kept, sizeof(res->kept), "%s", now);
		return EAGAIN;
	}
	return 0;
}

/*
 * Between switches the readers get a while on each clocksource, so that
 * they cross both the switches and the steady state after them (and the
 * machine's other users are not stopped 10,000 times a second).
 */
#define SWITCH_DWELL_NS 1000000L

/* One cycle goes through every other clocksource and back to the first. */
static void *switcher_main(void *arg)
{
	struct switch_job *j = arg;
	const struct clocksources *cs = j->cs;
	const struct timespec dwell = { 0, SWITCH_DWELL_NS };

	while (!atomic_load(&j->stop) && !j->res->write_error) {
		for (size_t i = 0; i <= cs->n && !j->res->write_error; i++) {
			const char *next = i < cs->n ? cs->name[i] : cs->current;

			if (i < cs->n && streq(next, cs->current))
				continue;
			j->res->write_error = set_clocksource(next, j->res);
			if (!j->res->write_error)
				j->res->switches++;
			nanosleep(&dwell, NULL);
		}
		if (!j->res->write_error)
			j->res->cycles++;
	}
	return NULL;
}

/* In the guarded child: readers on every CPU, the switcher beside them. */
static int switch_child(void *arg)
{
	struct switch_job *j = arg;
	struct xcpu_config cfg = {
		.cpus = j->cpus, .ncpus = j->ncpus, .pin = true, .read = tk_read,
		.arg = &j->reader, .seconds = j->seconds,
	};
	pthread_t tid;

	atomic_init(&j->stop, false);
	if (pthread_create(&tid, NULL, switcher_main, j) != 0)
		return 3;
	j->res->xcpu_rc = xcpu_run(&cfg, &j->res->x);
	atomic_store(&j->stop, true);
	pthread_join(tid, NULL);
	return 0;
}

/* "tsc -> kvm-clock -> tsc": one cycle of the switcher. */
static void cycle_text(const struct clocksources *cs, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", cs->current);

	for (size_t i = 0; i < cs->n && used < len; i++)
		if (!streq(cs->name[i], cs->current))
			used += (size_t)snprintf(buf + used, len - used, " -> %s",
						 cs->name[i]);
	if (used < len)
		snprintf(buf + used, len - used, " -> %s", cs->current);
}

static void judge_switch(struct verify *v, const struct switch_job *j,
			 const struct guard *g)
{
	const struct switch_result *res = j->res;
	char restored[600], cycle[200], a[32], b[32];

	guard_describe(g, restored, sizeof(restored));
	cycle_text(j->cs, cycle, sizeof(cycle));
	if (res->write_error == EAGAIN) {
		verror(v, "the kernel kept %s when asked for %s; restored %s", res->kept,
		       res->refused, restored);
		return;
	}
	if (res->x.pin_error && verify_cpu_went_offline(res->x.pin_cpu, res->x.pin_error)) {
		vskip(v, "CPU %d was offline when the check pinned to it (CPU hotplug "
		      "since the run started); restored %s", res->x.pin_cpu, restored);
		return;
	}
	if (res->write_error || res->xcpu_rc || res->x.pin_error || res->x.read_error) {
		verror(v, "%s; restored %s", res->write_error ? strerror(res->write_error) :
		       res->x.read_error ? "a read failed" : "cannot run a reader per CPU",
		       restored);
		return;
	}
	if (res->x.exchanges)
		vwatched(v, res->x.seconds);
	if (!res->x.backward) {
		vpass(v, "%lu reads handed round %zu CPUs over %.3f s, largest backward step "
		      "0 ns, while current_clocksource went %s %lu times (%lu switches); "
		      "restored %s", res->x.exchanges, j->ncpus, res->x.seconds, cycle,
		      res->cycles, res->switches, restored);
		return;
	}
	ts_format(&res->x.back_prev, a, sizeof(a));
	ts_format(&res->x.back_cur, b, sizeof(b));
	vdiag(v, "CPU %d read %s, then CPU %d read %s", res->x.back_from_cpu, a,
	      res->x.back_to_cpu, b);
	vfail(v, "largest backward step %lld ns, from CPU %d's read to CPU %d's at "
	      "exchange %lu (%lu of %lu reads went backwards), while current_clocksource "
	      "went %s %lu times (%lu switches); restored %s",
	      (long long)res->x.max_back_ns, res->x.back_from_cpu, res->x.back_to_cpu,
	      res->x.back_at, res->x.backward, res->x.exchanges, cycle, res->cycles,
	      res->switches, restored);
}

/* Whether the clocksource cannot be switched here; true with why. */
static bool switch_unavailable(const struct clocksources *cs, struct strbuf *why)
{
	if (access(CURRENT_CLOCKSOURCE, W_OK) != 0) {
		strbuf_setf(why, "switching the clocksource needs root (%s: %s)",
			    CURRENT_CLOCKSOURCE, errno_name(errno));
		return true;
	}
	if (cs->n < 2) {
		strbuf_setf(why, "only one clocksource (%s) is available",
			    cs->current);
		return true;
	}
	return false;
}

static void switch_point(struct verify *v, const struct clock_info *ci, enum path p)
{
	struct switch_job j = { .v = v, .reader = { v, p, ci->id }, .seconds = vbudget(v) };
	int cpus[CPU_SETSIZE];
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	char list[256];
	struct clocksources cs;
	struct guard g;
	int status, lock;

	if (!read_clocksources(&cs, &why) || switch_unavailable(&cs, &why)) {
		vskip(v, "%s", why.buf);
		return;
	}
	/* Inherited by the guard's child and restorer: held until all is back. */
	lock = clocksource_lock(30, &why);
	if (lock < 0) {
		vskip(v, "%s", why.buf);
		return;
	}
	guard_init(&g);
	j.cs = &cs;
	j.cpus = cpus;
	j.ncpus = verify_cpu_list(v, cpus, ARRAY_SIZE(cpus), list, sizeof(list));
	j.res = shared_alloc(sizeof(*j.res));
	if (!j.res || guard_add_file(&g, CURRENT_CLOCKSOURCE, "current_clocksource",
				     &err)) {
		verror(v, "%s", j.res ? err.buf : strerror(errno));
		if (j.res)
			munmap(j.res, sizeof(*j.res));
		close(lock);
		return;
	}
	status = guard_run(&g, switch_child, &j, &err);
	close(lock);
	if (guard_outcome_ok(v, &g, status, err.buf))
		judge_switch(v, &j, &g);
	munmap(j.res, sizeof(*j.res));
	honour_stop_signal(&g);
}

/* The clocks whose reads are watched across the switches. */
static const char *const switch_clocks[] = { "monotonic", "monotonic-raw", "boottime" };

void verify_clocksource_switch(struct verify *v)
{
	for (size_t i = 0; i < ARRAY_SIZE(switch_clocks); i++) {
		const struct clock_info *ci = catalog_clock_by_name(switch_clocks[i]);

		for (int p = 0; p < PATH_COUNT; p++)
			if (vpoint_path(v, VT_CLOCKSOURCE, API_CLOCK_GETTIME, ci, p,
					"clocksource-switch/%s-%s",
					catalog_apis[API_CLOCK_GETTIME].label, ci->name))
				switch_point(v, ci, (enum path)p);
	}
}

/* ---- rates against MONOTONIC_RAW ------------------------------------------- */

static long user_hz(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? hz : 100;
}

/* How much faster than MONOTONIC_RAW adjtimex says MONOTONIC runs, ppm:
 * the frequency offset plus what the tick length adds. */
static double adjtimex_ppm(const struct timex *tx)
{
	return (double)tx->freq / 65536.0 + (double)(tx->tick * user_hz() - 1000000);
}

/* Whether an NTP daemon (or adjtime) is steering the clock right now. */
static bool clock_disciplined(const struct timex *tx, struct strbuf *why)
{
	if (tx->status & (STA_PLL | STA_FLL)) {
		strbuf_setf(why, "an NTP daemon disciplines the clock (adjtimex status "
			    "0x%x has STA_PLL or STA_FLL)", tx->status);
		return true;
	}
	if (tx->offset) {
		strbuf_setf(why, "the clock is being slewed (adjtimex offset %ld)",
			    tx->offset);
		return true;
	}
	return false;
}

static int read_adjtimex(struct timex *tx)
{
	memset(tx, 0, sizeof(*tx));
	return adjtimex(tx) < 0 ? errno : 0;
}

/* The raw-skew limit: the selftest's, 1 ppm (it measures over 120 s; the
 * least-delay samples and the fit make a fraction of a second enough). */
#define RAW_SKEW_MAX_PPM 1.0

static void raw_skew_point(struct verify *v, enum path p)
{
	struct tk_reader raw = { v, p, CLOCK_MONOTONIC_RAW };
	struct tk_reader mono = { v, p, CLOCK_MONOTONIC };
	struct timex tx1, tx2;
	struct rate_fit fit;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	double want;
	int e;

	if ((e = read_adjtimex(&tx1))) {
		verror(v, "adjtimex: %s", errno_name(e));
		return;
	}
	e = rate_measure(tk_read, &raw, tk_read, &mono, vbudget(v), &fit);
	if (e || (e = read_adjtimex(&tx2))) {
		vfail(v, "a read failed with %s", errno_name(e));
		return;
	}
	/* The samples the rate is fitted to: the sleeps after the last one
	 * and the adjtimex reads are no part of it. */
	vwatched(v, fit.span_s);
	want = adjtimex_ppm(&tx1);
	if (fabs(fit.ppm - want) <= RAW_SKEW_MAX_PPM) {
		vpass(v, "MONOTONIC ran %+.3f ppm against MONOTONIC_RAW over %.3f s, as "
		      "adjtimex says (%+.3f ppm, limit %.0f ppm; residuals %.0f ns sd)",
		      fit.ppm, fit.span_s, want, RAW_SKEW_MAX_PPM, fit.sd_ns);
		return;
	}
	if (clock_disciplined(&tx1, &why) || clock_disciplined(&tx2, &why) ||
	    tx1.freq != tx2.freq || tx1.tick != tx2.tick) {
		if (tx1.freq != tx2.freq || tx1.tick != tx2.tick)
			strbuf_setf(&why, "the clock was adjusted during the check "
				    "(adjtimex frequency %+.3f -> %+.3f ppm)",
				    (double)tx1.freq / 65536.0, (double)tx2.freq / 65536.0);
		vskip(v, "MONOTONIC ran %+.3f ppm against MONOTONIC_RAW, adjtimex says "
		      "%+.3f ppm, but %s", fit.ppm, want, why.buf);
		return;
	}
	vfail(v, "MONOTONIC ran %+.3f ppm against MONOTONIC_RAW over %.3f s, adjtimex "
	      "says %+.3f ppm: off by %.3f ppm (limit %.0f ppm)", fit.ppm, fit.span_s,
	      want, fit.ppm - want, RAW_SKEW_MAX_PPM);
}

/*
 * The points of a check of MONOTONIC's rate against MONOTONIC_RAW (raw-skew,
 * freq-step), one per path: named for MONOTONIC, the clock judged; skipped
 * when the reference, MONOTONIC_RAW, cannot be read.
 */
static void rate_points(struct verify *v, enum vtimed timed, const char *check,
			void (*point)(struct verify *v, enum path p))
{
	const struct clock_info *raw = catalog_clock_by_name("monotonic-raw");

	for (int p = 0; p < PATH_COUNT; p++)
		if (vpoint_path(v, timed, API_CLOCK_GETTIME, raw, p,
				"%s/clock-gettime-monotonic", check))
			point(v, (enum path)p);
}

void verify_raw_skew(struct verify *v)
{
	rate_points(v, VT_RATE, "raw-skew", raw_skew_point);
}

/* ---- freq-step ---------------------------------------------------------------- */

/* The frequency steps, each way from the frequency found. */
#define FREQ_STEP_PPM 250
#define FREQ_MAX_PPM 500		/* the kernel's MAXFREQ */
/* After a step the timekeeper's multiplier converges within a few ticks. */
#define FREQ_SETTLE_NS 50000000L
/* The selftest's limit on the rate error after a step is 10 ppm; the
 * samples here are far tighter than that, so the limit is 1 ppm. */
#define FREQ_MAX_ERROR_PPM 1.0
#define FREQ_STEPS 2

struct freq_result {
	double base_ppm;			/* the rate as found */
	long target_freq[FREQ_STEPS];		/* scaled ppm set */
	double want_ppm[FREQ_STEPS];		/* the rate change asked for */
	double got_ppm[FREQ_STEPS];		/* the rate change measured */
	double sd_ns[FREQ_STEPS];
	struct mono_stats mono;			/* MONOTONIC throughout */
	int error;				/* errno of adjtimex or a read */
	bool error_in_adjtimex;
};

struct freq_job {
	struct tk_reader mono, raw;
	long base_freq;			/* scaled ppm, as found */
	double interval_s;		/* each rate measurement */
	struct freq_result *res;	/* shared memory */
};

static void *freq_watch_main(void *arg)
{
	struct freq_job *j = arg;
	double total = (double)(FREQ_STEPS + 1) * j->interval_s +
		       (double)FREQ_STEPS * FREQ_SETTLE_NS / 1e9;

	mono_run(tk_read, &j->mono, total, 1000, &j->res->mono);
	return NULL;
}

/* base + or - the step, kept within what the kernel takes. */
static long step_target(long base, int i)
{
	long step = (long)FREQ_STEP_PPM * 65536;
	long max = (long)FREQ_MAX_PPM * 65536;
	long t = i == 0 ? base + step : base - step;

	return t > max ? max : t < -max ? -max : t;
}

static int set_frequency(long freq)
{
	struct timex tx;

	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_FREQUENCY;
	tx.freq = freq;
	return adjtimex(&tx) < 0 ? errno : 0;
}

/* Step, let it settle, measure the new rate against the one found. */
static int freq_step(struct freq_job *j, int i)
{
	const struct timespec settle = { 0, FREQ_SETTLE_NS };
	struct freq_result *res = j->res;
	struct rate_fit fit;
	int e;

	res->target_freq[i] = step_target(j->base_freq, i);
	res->want_ppm[i] = (double)(res->target_freq[i] - j->base_freq) / 65536.0;
	if ((e = set_frequency(res->target_freq[i]))) {
		res->error_in_adjtimex = true;
		return e;
	}
	nanosleep(&settle, NULL);
	if ((e = rate_measure(tk_read, &j->raw, tk_read, &j->mono, j->interval_s, &fit)))
		return e;
	res->got_ppm[i] = fit.ppm - res->base_ppm;
	res->sd_ns[i] = fit.sd_ns;
	return 0;
}

/* In the guarded child: MONOTONIC watched throughout, its rate measured as
 * found and after each step, then the frequency set back. */
static int freq_child(void *arg)
{
	struct freq_job *j = arg;
	struct freq_result *res = j->res;
	struct rate_fit fit;
	pthread_t tid;
	int e;

	if (pthread_create(&tid, NULL, freq_watch_main, j) != 0)
		return 3;
	e = rate_measure(tk_read, &j->raw, tk_read, &j->mono, j->interval_s, &fit);
	res->base_ppm = fit.ppm;
	for (int i = 0; i < FREQ_STEPS && !e; i++)
		e = freq_step(j, i);
	res->error = e;
	if (set_frequency(j->base_freq) && !res->error) {
		res->error = errno;
		res->error_in_adjtimex = true;
	}
	pthread_join(tid, NULL);
	return 0;
}

static void judge_freq(struct verify *v, const struct freq_job *j, const struct guard *g)
{
	const struct freq_result *res = j->res;
	char restored[600], steps[400], back[64] = "";
	double worst = 0;
	size_t used = 0;

	guard_describe(g, restored, sizeof(restored));
	if (res->error) {
		verror(v, "%s: %s; restored %s", res->error_in_adjtimex ? "adjtimex" :
		       "a read", errno_name(res->error), restored);
		return;
	}
	for (int i = 0; i < FREQ_STEPS && used < sizeof(steps); i++) {
		double err = res->got_ppm[i] - res->want_ppm[i];

		if (fabs(err) > fabs(worst))
			worst = err;
		used += (size_t)snprintf(steps + used, sizeof(steps) - used,
					 "%s%+.3f ppm for a %+.0f ppm step", i ? ", " : "",
					 res->got_ppm[i], res->want_ppm[i]);
	}
	if (res->mono.backward)
		snprintf(back, sizeof(back), ", went backwards by up to %lld ns",
			 (long long)res->mono.max_back_ns);
	if (fabs(worst) <= FREQ_MAX_ERROR_PPM && !res->mono.backward && !res->mono.read_error) {
		vpass(v, "MONOTONIC's rate against MONOTONIC_RAW moved %s (error at most "
		      "%.3f ppm, limit %.0f ppm); %lu reads during the steps, largest "
		      "backward step 0 ns; changed the adjtimex frequency %+.3f -> %+.0f -> "
		      "%+.0f ppm and back; restored %s", steps, fabs(worst),
		      FREQ_MAX_ERROR_PPM, res->mono.reads, (double)j->base_freq / 65536.0,
		      (double)res->target_freq[0] / 65536.0,
		      (double)res->target_freq[1] / 65536.0, restored);
		return;
	}
	vfail(v, "MONOTONIC's rate against MONOTONIC_RAW moved %s (error %+.3f ppm, limit "
	      "%.0f ppm) in %lu reads%s; changed the adjtimex frequency and back; "
	      "restored %s", steps, worst, FREQ_MAX_ERROR_PPM, res->mono.reads, back,
	      restored);
}

/* Whether the frequency cannot be stepped here; true with why. */
static bool freq_unavailable(const struct timex *tx, struct strbuf *why)
{
	struct timex probe;

	/* A step to the frequency it already has tells whether we may. */
	memset(&probe, 0, sizeof(probe));
	probe.modes = ADJ_FREQUENCY;
	probe.freq = tx->freq;
	if (adjtimex(&probe) < 0) {
		strbuf_setf(why, "stepping the adjtimex frequency needs root "
			    "(CAP_SYS_TIME): %s", errno_name(errno));
		return true;
	}
	return clock_disciplined(tx, why);
}

static void freq_point(struct verify *v, enum path p)
{
	struct freq_job j = { .mono = { v, p, CLOCK_MONOTONIC },
			      .raw = { v, p, CLOCK_MONOTONIC_RAW } };
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	struct timex tx;
	struct guard g;
	int status, e;

	if ((e = read_adjtimex(&tx))) {
		verror(v, "adjtimex: %s", errno_name(e));
		return;
	}
	if (freq_unavailable(&tx, &why)) {
		vskip(v, "%s", why.buf);
		return;
	}
	j.base_freq = tx.freq;
	j.interval_s = (vbudget(v) - FREQ_STEPS * FREQ_SETTLE_NS / 1e9) / (FREQ_STEPS + 1);
	if (j.interval_s < 0.05)
		j.interval_s = 0.05;
	guard_init(&g);
	j.res = shared_alloc(sizeof(*j.res));
	if (!j.res || guard_add_adjtimex(&g, &err)) {
		verror(v, "%s", j.res ? err.buf : strerror(errno));
		if (j.res)
			munmap(j.res, sizeof(*j.res));
		return;
	}
	status = guard_run(&g, freq_child, &j, &err);
	if (guard_outcome_ok(v, &g, status, err.buf))
		judge_freq(v, &j, &g);
	munmap(j.res, sizeof(*j.res));
	honour_stop_signal(&g);
}

void verify_freq_step(struct verify *v)
{
	rate_points(v, VT_FREQ, "freq-step", freq_point);
}
