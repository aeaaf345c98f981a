// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sleep checks (timers/nanosleep and nsleep-lat): on every clock that
 * can sleep, absolute and relative clock_nanosleep (and nanosleep) never
 * end before their deadline, read on the same clock, at lengths from 0 to
 * 10 ms; how late they end is reported, and an unreasonable lateness
 * fails; a sleep cut short by a signal reports a remaining time no longer
 * than what was asked and no shorter than what it did not sleep. A sleep
 * still running 5 s past its length is stopped by a signal and fails.
 */
#include "verify/verify.h"
#include "probe/interpose.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The lengths tried, each absolute and relative, SLEEP_REPEATS times. */
static const int64_t sleep_lengths_ns[] = { 0, 1, 1000, 100000, 1000000, 10000000 };
/* --long adds these, up to the selftest's order of magnitude. */
static const int64_t long_lengths_ns[] = { 100000000, 1000000000 };
#define SLEEP_REPEATS 3
#define MAX_SLEEPS 64

/* nsleep-lat's limit: a sleep that is this late on average is not sane. */
#define UNREASONABLE_LATENESS_NS 40000000LL

/* The clocks the selftests sleep on. */
static const char *const sleep_clocks[] = {
	"realtime", "monotonic", "boottime", "tai", "realtime-alarm", "boottime-alarm",
};

struct sleeper {
	const struct verify *v;
	enum path path;		/* libc or syscall */
	clockid_t id;
	bool nanosleep;		/* nanosleep(2): relative, on MONOTONIC */
};

/* The clock read through the same path as the sleep. */
static int now(const struct sleeper *s, struct timespec *ts)
{
	struct vres r = vcall_gettime(s->v, s->path, s->nanosleep ? CLOCK_MONOTONIC : s->id,
				      ts);

	return r.failed ? (r.err ? r.err : EIO) : 0;
}

/* One sleep through the path; 0 or the errno it ended with. */
static int do_sleep(const struct sleeper *s, bool abs, const struct timespec *t,
		    struct timespec *rem)
{
	long rc;

	if (s->nanosleep) {
		rc = s->path == PATH_LIBC ? nanosleep(t, rem) :
		     syscall(SYS_nanosleep, t, rem);
		return rc ? errno : 0;
	}
	if (s->path == PATH_LIBC)
		return clock_nanosleep(s->id, abs ? TIMER_ABSTIME : 0, t, rem);
	rc = syscall(SYS_clock_nanosleep, s->id, abs ? TIMER_ABSTIME : 0, t, rem);
	return rc ? errno : 0;
}

static struct timespec ns_to_ts(int64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };

	return t;
}

static struct timeval ns_to_tv(int64_t ns)
{
	struct timeval t = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) / 1000 };

	return t;
}

/*
 * An absolute sleep ends when the kernel's clock reaches a deadline that
 * was read through the path. A path whose clock lies (an LD_PRELOAD
 * interposer that stops or shifts libc's clock) can put that deadline
 * anywhere: libc's MONOTONIC stopped at 1000 s, on a machine up for 600 s,
 * made verify sleep 400 s. A deadline further ahead of the kernel's own
 * reading than this is not slept on; the path's clock is what failed.
 */
#define DEADLINE_AHEAD_LIMIT_NS 100000000LL

/*
 * A sleep that has not ended this long after its length is stopped by a
 * signal and fails its point: a kernel whose sleeps never end, or an
 * interposer that stretches libc's, must not stall verify.
 */
#define SLEEP_OVERRUN_LIMIT_S 5

struct sleep_stats {
	size_t n;
	int64_t late_ns[MAX_SLEEPS];	/* end - deadline, each sleep */
	int64_t early_ns;		/* the earliest end before a deadline, 0 */
	int64_t early_len_ns;		/* its length */
	bool early_abs;
	int64_t ahead_ns;		/* the path's reading ahead of the kernel's */
	bool overrun;			/* a sleep the watchdog stopped: */
	int64_t overrun_len_ns;		/* its length */
	bool overrun_abs;
	int error;
};

/* How far the path's reading start is ahead of the kernel's own clock. */
static int64_t ahead_of_kernel(const struct sleeper *s, const struct timespec *start)
{
	struct timespec own;

	if (verify_own_gettime(s->id, &own))
		return 0;
	return ts_ns(start) - ts_ns(&own);
}

static volatile sig_atomic_t alarm_fired;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

/*
 * do_sleep() with SIGALRM due after alarm_in, its handler installed
 * without SA_RESTART so that the sleep ends with EINTR; the timer and the
 * old handler are put back after. *fired (unless NULL): whether it came.
 */
static int sleep_with_alarm(const struct sleeper *s, bool abs, const struct timespec *t,
			    struct timespec *rem, struct timeval alarm_in, bool *fired)
{
	struct itimerval it = { .it_value = alarm_in }, off = { 0 };
	struct sigaction sa, old;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, &old);
	alarm_fired = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	e = do_sleep(s, abs, t, rem);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	if (fired)
		*fired = alarm_fired;
	return e;
}

/*
 * do_sleep() with a watchdog due SLEEP_OVERRUN_LIMIT_S after len: 0, the
 * errno, or ETIMEDOUT when the watchdog had to end the sleep.
 */
static int watched_sleep(const struct sleeper *s, bool abs, const struct timespec *t,
			 int64_t len)
{
	struct timeval limit = ns_to_tv(len);
	bool fired;
	int e;

	limit.tv_sec += SLEEP_OVERRUN_LIMIT_S;
	e = sleep_with_alarm(s, abs, t, NULL, limit, &fired);
	return fired ? ETIMEDOUT : e;
}

/* Sleep once for len; note how late (or early) it ended. */
static void sleep_once(const struct sleeper *s, bool abs, int64_t len,
		       struct sleep_stats *st)
{
	struct timespec start, end, arg;
	int64_t deadline, late, ahead;
	int e;

	if ((e = now(s, &start))) {
		st->error = e;
		return;
	}
	deadline = ts_ns(&start) + len;
	if (abs && (ahead = ahead_of_kernel(s, &start)) > DEADLINE_AHEAD_LIMIT_NS) {
		st->ahead_ns = ahead;
		return;
	}
	arg = ns_to_ts(abs ? deadline : len);
	e = watched_sleep(s, abs, &arg, len);
	if (e == ETIMEDOUT) {
		st->overrun = true;
		st->overrun_len_ns = len;
		st->overrun_abs = abs;
		return;
	}
	if (e || (e = now(s, &end))) {
		st->error = e;
		return;
	}
	late = ts_ns(&end) - deadline;
	if (late < 0 && -late > st->early_ns) {
		st->early_ns = -late;
		st->early_len_ns = len;
		st->early_abs = abs;
	}
	if (st->n < MAX_SLEEPS)
		st->late_ns[st->n++] = late;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Whether a sleep went wrong in a way that ends the series. */
static bool sleep_series_stopped(const struct sleep_stats *st)
{
	return st->error || st->ahead_ns || st->overrun;
}

static void sleep_series(const struct sleeper *s, const int64_t *lens, size_t nlens,
			 struct sleep_stats *st)
{
	/* nanosleep(2) has no absolute form. */
	int forms = s->nanosleep ? 1 : 2;

	for (size_t i = 0; i < nlens && !sleep_series_stopped(st); i++)
		for (int r = 0; r < SLEEP_REPEATS && !sleep_series_stopped(st); r++)
			for (int abs = 0; abs < forms && !sleep_series_stopped(st); abs++)
				sleep_once(s, abs, lens[i], st);
}

/*
 * A relative sleep of 50 ms cut short by a signal after about 5 ms must
 * end with EINTR and a remaining time in (0, 50 ms], and the time it says
 * it slept (asked - remaining) cannot exceed the time that passed.
 */
#define REM_SLEEP_NS 50000000L
#define REM_SIGNAL_NS 5000000L
/*
 * A sleeper that gets no CPU for the 45 ms between the signal and the end
 * of its sleep wakes to an expired timer, and the kernel rightly reports
 * success then: such an attempt tells nothing and is tried again.
 */
#define REM_ATTEMPTS 5

/* One attempt; *too_late when the whole sleep passed before it woke. */
static int interrupted_sleep_once(const struct sleeper *s, struct strbuf *why,
				  bool *too_late)
{
	struct timespec req = { 0, REM_SLEEP_NS }, rem = { -1, -1 }, t0, t1;
	int64_t slept, passed;
	int e;

	verify_own_gettime(CLOCK_MONOTONIC, &t0);
	e = sleep_with_alarm(s, false, &req, &rem, ns_to_tv(REM_SIGNAL_NS), NULL);
	verify_own_gettime(CLOCK_MONOTONIC, &t1);
	slept = REM_SLEEP_NS - ts_ns(&rem);
	passed = ts_ns(&t1) - ts_ns(&t0);
	*too_late = e == 0 && passed >= REM_SLEEP_NS;
	if (e != EINTR)
		strbuf_setf(why, "a 50 ms sleep interrupted after 5 ms ended with %s, "
			    "expected EINTR", e ? errno_name(e) : "success");
	else if (!ts_normalized(&rem) || ts_ns(&rem) <= 0 || ts_ns(&rem) > REM_SLEEP_NS)
		strbuf_setf(why, "a 50 ms sleep interrupted after 5 ms left %lld.%09ld s "
			    "remaining, expected (0, 0.05] s", (long long)rem.tv_sec, rem.tv_nsec);
	else if (slept > passed)
		strbuf_setf(why, "a 50 ms sleep interrupted after 5 ms says it slept "
			    "%lld ns, but only %lld ns passed", (long long)slept,
			    (long long)passed);
	else {
		strbuf_setf(why, "interrupted after %.1f ms, %.1f ms remained",
			    (double)passed / 1e6, (double)ts_ns(&rem) / 1e6);
		return 0;
	}
	return -1;
}

static int interrupted_sleep(const struct sleeper *s, struct strbuf *why)
{
	bool too_late = false;
	int attempt = 1;

	while (interrupted_sleep_once(s, why, &too_late)) {
		if (!too_late)
			return -1;
		if (attempt++ == REM_ATTEMPTS) {
			strbuf_addf(why, " (%d times, each woken only after the whole "
				    "sleep had passed)", REM_ATTEMPTS);
			return -1;
		}
	}
	return 0;
}

/* What went wrong in a series of sleeps, into why; false when nothing did. */
static bool sleep_series_failure(const struct sleep_stats *st, struct strbuf *why)
{
	if (st->error)
		strbuf_setf(why, "a sleep failed with %s", errno_name(st->error));
	else if (st->overrun)
		strbuf_setf(why, "%s sleep of %lld ns had not ended %d s after its length: "
			    "stopped by a signal", st->overrun_abs ? "an absolute" : "a relative",
			    (long long)st->overrun_len_ns, SLEEP_OVERRUN_LIMIT_S);
	else if (st->ahead_ns)
		strbuf_setf(why, "the clock read through this path is %.3f s ahead of the "
			    "kernel's own reading: an absolute sleep to a deadline read from "
			    "it would sleep that long, so none was tried",
			    (double)st->ahead_ns / 1e9);
	else if (st->early_ns)
		strbuf_setf(why, "%s sleep of %lld ns ended %lld ns before its deadline",
			    st->early_abs ? "an absolute" : "a relative",
			    (long long)st->early_len_ns, (long long)st->early_ns);
	else
		return false;
	return true;
}

/* On the libc path, which library the sleep's call really reaches. */
static void name_sleep_interposer(const struct sleeper *s, struct strbuf *why)
{
	const char *fn = s->nanosleep ? "nanosleep" : "clock_nanosleep";
	char owner[PATH_MAX];

	if (s->path == PATH_LIBC && interposer_of(fn, &s->v->cat, owner, sizeof(owner)))
		strbuf_addf(why, "; libc's %s() goes through %s", fn, owner);
}

static void sleep_point(struct verify *v, const struct sleeper *s, bool rt)
{
	struct sleep_stats st;
	struct step_watch w;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf step = STRBUF_INIT;
	bool stepped;
	int64_t med;

	memset(&st, 0, sizeof(st));
	step_watch_begin_if(&w, rt);
	sleep_series(s, sleep_lengths_ns, ARRAY_SIZE(sleep_lengths_ns), &st);
	if (v->opt->long_run)
		sleep_series(s, long_lengths_ns, ARRAY_SIZE(long_lengths_ns), &st);
	/* Ended whatever the sleeps did: it holds a timerfd open. */
	stepped = step_watch_end(&w, &step);
	if (sleep_series_failure(&st, &why) && !st.error && stepped) {
		/* A REALTIME step moves a deadline: no finding about the sleep. */
		vskip(v, "%s, but %s", why.buf, step.buf);
		return;
	}
	if (why.len) {
		name_sleep_interposer(s, &why);
		vfail(v, "%s", why.buf);
		return;
	}
	qsort(st.late_ns, st.n, sizeof(st.late_ns[0]), cmp_i64);
	med = st.late_ns[st.n / 2];
	if (med > UNREASONABLE_LATENESS_NS) {
		vfail(v, "%zu sleeps ended a median %.3f ms late (limit %.0f ms)", st.n,
		      (double)med / 1e6, UNREASONABLE_LATENESS_NS / 1e6);
		return;
	}
	if (interrupted_sleep(s, &why)) {
		name_sleep_interposer(s, &why);
		vfail(v, "%s", why.buf);
		return;
	}
	vpass(v, "%zu sleeps of 0 to %s, none early; late by a median %.1f us, at most "
	      "%.1f us; %s", st.n, v->opt->long_run ? "1 s" : "10 ms", (double)med / 1e3,
	      (double)st.late_ns[st.n - 1] / 1e3, why.buf);
}

/* Whether the clock follows REALTIME, which a step moves. */
static bool realtime_based(clockid_t id)
{
	return id == CLOCK_REALTIME || id == CLOCK_TAI || id == CLOCK_REALTIME_ALARM;
}

void verify_sleep(struct verify *v)
{
	static const enum path paths[] = { PATH_LIBC, PATH_SYSCALL };

	for (size_t i = 0; i < ARRAY_SIZE(sleep_clocks); i++) {
		const struct clock_info *ci = catalog_clock_by_name(sleep_clocks[i]);

		for (size_t k = 0; k < ARRAY_SIZE(paths); k++) {
			struct sleeper s = { v, paths[k], ci->id, false };

			/* The clock_gettime cell says whether the kernel has the id. */
			if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, ci, paths[k],
					"sleep/clock-nanosleep-%s", ci->name))
				sleep_point(v, &s, realtime_based(ci->id));
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(paths); k++) {
		struct sleeper s = { v, paths[k], CLOCK_MONOTONIC, true };

		if (vpoint(v, VT_NONE, "sleep/nanosleep/%s", catalog_paths[paths[k]]))
			sleep_point(v, &s, false);
	}
}
