// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time namespace checks: a child in a new namespace with MONOTONIC
 * +10 days and BOOTTIME +20 days must read exactly the host's clocks plus
 * those offsets, on every path, after fork, after fork+execve and after
 * vfork+execve, from its main thread and from a new thread; /proc/uptime
 * and /proc/stat follow; timers, sleeps and futexes take their deadlines
 * in namespace time; REALTIME and TAI do not move.
 *
 * How tight: the parent reads a clock through the raw syscall, writes a
 * request down a pipe, the child reads the clock and answers, then the
 * parent reads again. The pipe orders the three reads, so the child's
 * reading minus the offset must lie inside the parent's window, with no
 * tolerance at all: the window (tens of microseconds, the pipe's round
 * trip) is the bound, and it is reported. The clocks are the same
 * timekeeper's, so nothing but the offset separates them.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/error.h"
#include "probe/timens.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

extern char **environ;

#define DAY_NS (86400LL * 1000000000LL)
/* The offsets of the kernel's own timens tests, as the issue asks. */
static const struct timens_offsets test_offsets = {
	.monotonic_ns = 10 * DAY_NS,
	.boottime_ns = 20 * DAY_NS,
};

/* Rounds per point; each is an independent window. */
#define ROUNDS 3
/* A child that does not answer within this is taken as hung. */
#define REPLY_TIMEOUT_MS 10000

enum ns_mode {
	MODE_FORK,		/* fork() into the namespace */
	MODE_EXEC,		/* fork(), then execve() of clockbench */
	MODE_VFORK_EXEC,	/* vfork() from the unsharing process, execve() */
	MODE_SETNS,		/* a running process setns()es into a new one */
	MODE_SETNS_BACK,	/* ... and back into the one it came from */
	MODE_COUNT,
};

static const char *const mode_names[MODE_COUNT] = {
	"fork", "exec", "vfork-exec", "setns", "setns-back",
};

/* The clocks read in the namespace, with the offset each must show. */
struct ns_clock {
	const char *name;	/* catalog name */
	int offset;		/* 0 none, 1 monotonic, 2 boottime */
};

static const struct ns_clock ns_clocks[] = {
	{ "monotonic", 1 },
	{ "monotonic-coarse", 1 },
	{ "monotonic-raw", 1 },
	{ "boottime", 2 },
	{ "boottime-alarm", 2 },
	{ "realtime", 0 },
	{ "realtime-coarse", 0 },
	{ "tai", 0 },
};

/* ---- the protocol -------------------------------------------------------- */

enum probe_cmd {
	CMD_READ = 'R',		/* read clock through path, main thread */
	CMD_THREAD_READ = 'T',	/* the same from a new thread */
	CMD_PROC = 'P',		/* /proc/uptime and /proc/stat btime */
	CMD_TIMERS = 'S',	/* timers, sleeps, futexes */
	CMD_FROZEN = 'F',	/* try to change the offsets now */
	CMD_ENTER = 'E',	/* setns() into a new namespace with the offsets */
	CMD_LEAVE = 'L',	/* setns() back into the one it came from */
	CMD_QUIT = 'Q',
};

struct probe_req {
	int cmd;
	int clock;
	int path;
};

struct probe_reading {
	struct vres res;
	struct timespec ts;
};

struct probe_proc {
	int err;
	struct timespec uptime;	/* centiseconds, as /proc/uptime prints */
	long long btime;
};

/* Timer tests: a static list, so that their points can be listed. */
enum timer_kind { TK_TIMER_CREATE, TK_TIMERFD, TK_NANOSLEEP, TK_FUTEX, TK_INTERRUPTED };

struct timer_test {
	const char *name;	/* point name below timens/ */
	enum timer_kind kind;
	clockid_t clock;
};

static const struct timer_test timer_tests[] = {
	{ "timer-create/monotonic", TK_TIMER_CREATE, CLOCK_MONOTONIC },
	{ "timer-create/boottime", TK_TIMER_CREATE, CLOCK_BOOTTIME },
	{ "timer-create/boottime-alarm", TK_TIMER_CREATE, CLOCK_BOOTTIME_ALARM },
	{ "timerfd/monotonic", TK_TIMERFD, CLOCK_MONOTONIC },
	{ "timerfd/boottime", TK_TIMERFD, CLOCK_BOOTTIME },
	{ "timerfd/boottime-alarm", TK_TIMERFD, CLOCK_BOOTTIME_ALARM },
	{ "clock-nanosleep/monotonic", TK_NANOSLEEP, CLOCK_MONOTONIC },
	{ "clock-nanosleep/boottime", TK_NANOSLEEP, CLOCK_BOOTTIME },
	{ "futex/monotonic", TK_FUTEX, CLOCK_MONOTONIC },
	{ "futex/realtime", TK_FUTEX, CLOCK_REALTIME },
	{ "clock-nanosleep-interrupted/monotonic", TK_INTERRUPTED, CLOCK_MONOTONIC },
	{ "clock-nanosleep-interrupted/boottime", TK_INTERRUPTED, CLOCK_BOOTTIME },
	{ "clock-nanosleep-interrupted/boottime-alarm", TK_INTERRUPTED, CLOCK_BOOTTIME_ALARM },
};
#define NTIMER_TESTS ARRAY_SIZE(timer_tests)

enum { TR_PASS, TR_FAIL, TR_SKIP };

struct timer_result {
	int result;
	char msg[200];
};

struct probe_timers {
	struct timer_result r[NTIMER_TESTS];
};

/* ---- the child's side ---------------------------------------------------- */

static struct probe_reading probe_read(const struct verify *v, int clock, int path)
{
	struct probe_reading r;

	memset(&r, 0, sizeof(r));
	r.res = vcall_gettime(v, (enum path)path, clock, &r.ts);
	return r;
}

struct thread_read {
	const struct verify *v;
	int clock, path;
	struct probe_reading r;
};

static void *thread_read_main(void *p)
{
	struct thread_read *t = p;

	t->r = probe_read(t->v, t->clock, t->path);
	return NULL;
}

static struct probe_reading probe_thread_read(const struct verify *v, int clock,
					      int path)
{
	struct thread_read t = { v, clock, path, { { 0 }, { 0 } } };
	pthread_t tid;
	int e = pthread_create(&tid, NULL, thread_read_main, &t);

	if (e) {
		t.r.res = (struct vres){ -1, true, e };
		return t.r;
	}
	pthread_join(tid, NULL);
	return t.r;
}

static int read_btime(long long *btime)
{
	_cleanup_free_ char *stat = read_text_file("/proc/stat", 1 << 20);
	const char *p = stat ? strstr(stat, "\nbtime ") : NULL;

	if (!p || sscanf(p, "\nbtime %lld", btime) != 1)
		return -1;
	return 0;
}

static int read_uptime(struct timespec *up)
{
	char line[128];
	unsigned long sec, centi;

	if (!read_line_file("/proc/uptime", line, sizeof(line)) ||
	    sscanf(line, "%lu.%2lu", &sec, &centi) != 2)
		return -1;
	up->tv_sec = (time_t)sec;
	up->tv_nsec = (long)centi * 10000000L;
	return 0;
}

static struct probe_proc probe_proc(void)
{
	struct probe_proc r;

	memset(&r, 0, sizeof(r));
	if (read_uptime(&r.uptime) != 0 || read_btime(&r.btime) != 0)
		r.err = errno ? errno : EIO;
	return r;
}

static void tr_set(struct timer_result *t, int result, const char *fmt, ...)
	_printf_(3, 4);
static void tr_set(struct timer_result *t, int result, const char *fmt, ...)
{
	va_list ap;

	t->result = result;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
}

/* An armed timer, absolute or relative, must report about an hour left. */
#define HOUR_S 3600
#define HOUR_SLACK_S 60

static void timer_remaining(struct timer_result *t, const struct timer_test *tt)
{
	long left[2];

	for (int abs = 0; abs < 2; abs++) {
		struct itimerspec its = { .it_value = { HOUR_S, 0 } };
		struct timespec now;

		verify_own_gettime(tt->clock == CLOCK_BOOTTIME_ALARM ? CLOCK_BOOTTIME :
			      tt->clock, &now);
		if (abs)
			its.it_value.tv_sec += now.tv_sec;
		if (tt->kind == TK_TIMER_CREATE) {
			struct sigevent sev = { .sigev_notify = SIGEV_NONE };
			timer_t timer;

			if (timer_create(tt->clock, &sev, &timer) != 0) {
				tr_set(t, TR_FAIL, "timer_create: %s", errno_name(errno));
				return;
			}
			if (timer_settime(timer, abs ? TIMER_ABSTIME : 0, &its, NULL) ||
			    timer_gettime(timer, &its)) {
				tr_set(t, TR_FAIL, "timer_settime/gettime: %s",
				       errno_name(errno));
				timer_delete(timer);
				return;
			}
			timer_delete(timer);
		} else {
			int fd = timerfd_create(tt->clock, TFD_CLOEXEC);

			if (fd < 0) {
				tr_set(t, TR_FAIL, "timerfd_create: %s", errno_name(errno));
				return;
			}
			if (timerfd_settime(fd, abs ? TFD_TIMER_ABSTIME : 0, &its, NULL) ||
			    timerfd_gettime(fd, &its)) {
				tr_set(t, TR_FAIL, "timerfd_settime/gettime: %s",
				       errno_name(errno));
				close(fd);
				return;
			}
			close(fd);
		}
		left[abs] = its.it_value.tv_sec;
		if (labs(left[abs] - HOUR_S) > HOUR_SLACK_S) {
			tr_set(t, TR_FAIL, "%s timer set to namespace time + %d s has "
			       "%ld s left", abs ? "an absolute" : "a relative", HOUR_S,
			       left[abs]);
			return;
		}
	}
	tr_set(t, TR_PASS, "relative and absolute timers of %d s have %ld and %ld s "
	       "left", HOUR_S, left[0], left[1]);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A sleep that never ends must not hang the check: SIGALRM cuts it. */
static void arm_guard(bool on)
{
	struct itimerval it = { .it_value = { on ? 2 : 0, 0 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the sleep gets EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

#define SLEEP_NS 20000000LL
#define SLEEP_MAX_NS 1500000000LL

static struct timespec ts_add_ns(struct timespec t, int64_t ns)
{
	int64_t total = ts_ns(&t) + ns;

	t.tv_sec = (time_t)(total / 1000000000LL);
	t.tv_nsec = (long)(total % 1000000000LL);
	return t;
}

/* The sleep must end at its deadline in namespace time: not at once (a
 * deadline taken as host time in the past), not days later. */
static void judge_sleep(struct timer_result *t, const char *what, int rc, int err,
			int expect_err, const struct timespec *start,
			const struct timespec *deadline, const struct timespec *end)
{
	int64_t slept = ts_ns(end) - ts_ns(start);

	if (rc != 0 && err != expect_err) {
		tr_set(t, TR_FAIL, "%s: %s after %lld ms (expected %s at the deadline)",
		       what, errno_name(err), (long long)(slept / 1000000),
		       expect_err ? errno_name(expect_err) : "success");
		return;
	}
	if (ts_cmp(end, deadline) < 0) {
		tr_set(t, TR_FAIL, "%s returned %lld ns before its deadline", what,
		       (long long)(ts_ns(deadline) - ts_ns(end)));
		return;
	}
	if (slept > SLEEP_MAX_NS) {
		tr_set(t, TR_FAIL, "%s slept %lld ms for a %lld ms deadline", what,
		       (long long)(slept / 1000000), SLEEP_NS / 1000000);
		return;
	}
	tr_set(t, TR_PASS, "%s woke %lld us after its deadline", what,
	       (long long)((ts_ns(end) - ts_ns(deadline)) / 1000));
}

static void sleep_test(struct timer_result *t, const struct timer_test *tt)
{
	struct timespec start, deadline, end, rel = { 0, SLEEP_NS };
	int64_t late_abs;
	int rc;

	verify_own_gettime(tt->clock, &start);
	deadline = ts_add_ns(start, SLEEP_NS);
	arm_guard(true);
	rc = clock_nanosleep(tt->clock, TIMER_ABSTIME, &deadline, NULL);
	arm_guard(false);
	verify_own_gettime(tt->clock, &end);
	judge_sleep(t, "an absolute clock_nanosleep", rc, rc, 0, &start, &deadline, &end);
	if (t->result != TR_PASS)
		return;
	late_abs = ts_ns(&end) - ts_ns(&deadline);
	verify_own_gettime(tt->clock, &start);
	deadline = ts_add_ns(start, SLEEP_NS);
	arm_guard(true);
	rc = clock_nanosleep(tt->clock, 0, &rel, NULL);
	arm_guard(false);
	verify_own_gettime(tt->clock, &end);
	judge_sleep(t, "a relative clock_nanosleep", rc, rc, 0, &start, &deadline, &end);
	if (t->result == TR_PASS)
		tr_set(t, TR_PASS, "absolute and relative %lld ms sleeps woke %lld and "
		       "%lld us after their deadlines", SLEEP_NS / 1000000,
		       (long long)(late_abs / 1000),
		       (long long)((ts_ns(&end) - ts_ns(&deadline)) / 1000));
}

static void futex_test(struct timer_result *t, const struct timer_test *tt)
{
	struct timespec start, deadline, end;
	int word = 0, op = FUTEX_WAIT_BITSET;
	long rc;
	int err;

	if (tt->clock == CLOCK_REALTIME)
		op |= FUTEX_CLOCK_REALTIME;
	verify_own_gettime(tt->clock, &start);
	deadline = ts_add_ns(start, SLEEP_NS);
	arm_guard(true);
	rc = syscall(SYS_futex, &word, op, 0, &deadline, NULL, FUTEX_BITSET_MATCH_ANY);
	err = errno;
	arm_guard(false);
	verify_own_gettime(tt->clock, &end);
	judge_sleep(t, "FUTEX_WAIT_BITSET", rc == 0 ? -1 : (int)rc,
		    rc == 0 ? 0 : err, ETIMEDOUT, &start, &deadline, &end);
}

/*
 * A sleep of an hour cut short by a signal after INTERRUPT_NS (the
 * kernel's timens/clock_nanosleep passes rem): a relative one must leave
 * an hour less the time that passed (not shifted by the namespace's
 * offset); an absolute one, in namespace time, must leave rem untouched.
 */
#define INTERRUPT_NS 20000000L
#define REM_SLACK_NS 100000000LL

static int interrupted_sleep(clockid_t clock, bool abs, struct timespec *rem,
			     int64_t *passed)
{
	struct itimerval it = { .it_value = { 0, INTERRUPT_NS / 1000 } };
	struct timespec t0, t1, req;
	struct sigaction sa;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the sleep gets EINTR */
	sigaction(SIGALRM, &sa, NULL);
	verify_own_gettime(clock == CLOCK_BOOTTIME_ALARM ? CLOCK_BOOTTIME : clock, &t0);
	req = abs ? ts_add_ns(t0, HOUR_S * 1000000000LL) :
	      (struct timespec){ HOUR_S, 0 };
	rem->tv_sec = -1;
	rem->tv_nsec = -1;
	setitimer(ITIMER_REAL, &it, NULL);
	rc = clock_nanosleep(clock, abs ? TIMER_ABSTIME : 0, &req, rem);
	verify_own_gettime(clock == CLOCK_BOOTTIME_ALARM ? CLOCK_BOOTTIME : clock, &t1);
	arm_guard(false);
	*passed = ts_ns(&t1) - ts_ns(&t0);
	return rc;
}

static void interrupted_test(struct timer_result *t, const struct timer_test *tt)
{
	struct timespec rem;
	int64_t passed, want;
	int rc = interrupted_sleep(tt->clock, false, &rem, &passed);

	want = HOUR_S * 1000000000LL - passed;
	if (rc != EINTR) {
		tr_set(t, TR_FAIL, "a relative %d s sleep signalled after %ld ms returned %s, "
		       "expected EINTR", HOUR_S, INTERRUPT_NS / 1000000,
		       rc ? errno_name(rc) : "success");
		return;
	}
	if (!ts_normalized(&rem) || ts_ns(&rem) > HOUR_S * 1000000000LL ||
	    ts_ns(&rem) < want - REM_SLACK_NS) {
		tr_set(t, TR_FAIL, "a relative %d s sleep interrupted after %.3f s left "
		       "%lld.%09ld s, expected %.3f s", HOUR_S, (double)passed / 1e9,
		       (long long)rem.tv_sec, rem.tv_nsec, (double)want / 1e9);
		return;
	}
	int64_t rel_rem = ts_ns(&rem);

	rc = interrupted_sleep(tt->clock, true, &rem, &passed);
	if (rc != EINTR || rem.tv_sec != -1 || rem.tv_nsec != -1) {
		tr_set(t, TR_FAIL, "an absolute %d s sleep signalled after %ld ms returned %s "
		       "with rem %lld.%09ld, expected EINTR and rem untouched", HOUR_S,
		       INTERRUPT_NS / 1000000, rc ? errno_name(rc) : "success",
		       (long long)rem.tv_sec, rem.tv_nsec);
		return;
	}
	tr_set(t, TR_PASS, "a relative %d s sleep interrupted after %.1f ms left %.3f s "
	       "(an hour less the time passed); an absolute one got EINTR and left rem "
	       "untouched", HOUR_S, (double)(HOUR_S * 1000000000LL - rel_rem) / 1e6,
	       (double)rel_rem / 1e9);
}

static void probe_timers(struct probe_timers *out)
{
	struct timespec ts;
	bool alarm_ok = verify_own_gettime(CLOCK_BOOTTIME_ALARM, &ts) == 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < NTIMER_TESTS; i++) {
		const struct timer_test *tt = &timer_tests[i];
		struct timer_result *t = &out->r[i];

		if (tt->clock == CLOCK_BOOTTIME_ALARM && !alarm_ok) {
			tr_set(t, TR_SKIP, "CLOCK_BOOTTIME_ALARM is not supported here "
			       "(EINVAL: alarm clocks need an RTC)");
			continue;
		}
		switch (tt->kind) {
		case TK_TIMER_CREATE:
		case TK_TIMERFD:
			timer_remaining(t, tt);
			break;
		case TK_NANOSLEEP:
			sleep_test(t, tt);
			break;
		case TK_FUTEX:
			futex_test(t, tt);
			break;
		case TK_INTERRUPTED:
			interrupted_test(t, tt);
			break;
		}
	}
}

/* Offsets are frozen once a task is inside: writing them must fail. */
static int probe_frozen(void)
{
	char text[128];
	int fd, err = 0;

	timens_format_offsets(&test_offsets, text, sizeof(text));
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The namespace a setns()ed probe came from, to go back to. */
static int probe_home_ns = -1;

/* Move this running process into a new namespace with the test offsets. */
static int probe_enter(void)
{
	char text[128];
	int fd, err = 0;

	timens_format_offsets(&test_offsets, text, sizeof(text));
	probe_home_ns = open("/proc/self/ns/time", O_RDONLY | O_CLOEXEC);
	if (probe_home_ns < 0 || unshare(CLONE_NEWTIME) != 0)
		return errno;
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err)
		return err;
	fd = open("/proc/self/ns/time_for_children", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (setns(fd, CLONE_NEWTIME) != 0)
		err = errno;
	close(fd);
	return err;
}

static int probe_leave(void)
{
	if (probe_home_ns < 0)
		return EBADF;
	return setns(probe_home_ns, CLONE_NEWTIME) != 0 ? errno : 0;
}

static bool known_request(int cmd)
{
	static const int known[] = {
		CMD_READ, CMD_THREAD_READ, CMD_PROC, CMD_TIMERS, CMD_FROZEN,
		CMD_ENTER, CMD_LEAVE, CMD_QUIT,
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (cmd == known[i])
			return true;
	return false;
}

/*
 * 1 with a request, 0 when the parent closed the pipe between two, -1
 * (said) when a request came short or cannot be served.
 */
static int read_request(int in, struct probe_req *req)
{
	ssize_t n;

	do
		n = read(in, req, 1);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return 0;
	if (n < 0 || fd_read_all(in, (char *)req + 1, sizeof(*req) - 1, -1) != 0) {
		error_msg("--timens-probe: a request came short: %m");
		return -1;
	}
	if (!known_request(req->cmd)) {
		error_msg("--timens-probe: unknown request %#x", (unsigned)req->cmd);
		return -1;
	}
	if (req->path < 0 || req->path >= PATH_COUNT) {
		error_msg("--timens-probe: request for path %d, not a path", req->path);
		return -1;
	}
	return 1;
}

static int probe_serve(const struct verify *v, int in, int out)
{
	for (;;) {
		struct probe_req req;
		struct probe_reading rd;
		struct probe_proc pp;
		struct probe_timers *pt;
		int rc = 0, frozen;

		rc = read_request(in, &req);
		if (rc <= 0)
			return rc < 0 ? 2 : 0;
		rc = 0;
		switch (req.cmd) {
		case CMD_READ:
			rd = probe_read(v, req.clock, req.path);
			rc = fd_write_all(out, &rd, sizeof(rd));
			break;
		case CMD_THREAD_READ:
			rd = probe_thread_read(v, req.clock, req.path);
			rc = fd_write_all(out, &rd, sizeof(rd));
			break;
		case CMD_PROC:
			pp = probe_proc();
			rc = fd_write_all(out, &pp, sizeof(pp));
			break;
		case CMD_TIMERS:
			pt = xcalloc(1, sizeof(*pt));
			probe_timers(pt);
			rc = fd_write_all(out, pt, sizeof(*pt));
			free(pt);
			break;
		case CMD_FROZEN:
			frozen = probe_frozen();
			rc = fd_write_all(out, &frozen, sizeof(frozen));
			break;
		case CMD_ENTER:
		case CMD_LEAVE:
			frozen = req.cmd == CMD_ENTER ? probe_enter() : probe_leave();
			rc = fd_write_all(out, &frozen, sizeof(frozen));
			break;
		case CMD_QUIT:
			return 0;
		default:	/* read_request() let no other through */
			return 2;
		}
		if (rc != 0)
			return 3;
	}
}

int verify_timens_probe(int in_fd, int out_fd)
{
	static const struct verify_options none = { .duration_s = 1 };
	struct verify v;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (verify_context_init(&v, &none, &err) != 0) {
		error_msg("%s", err.buf);
		return 2;
	}
	rc = probe_serve(&v, in_fd, out_fd);
	verify_context_free(&v);
	return rc;
}

/* ---- the parent's side --------------------------------------------------- */

struct ns_session {
	const struct verify *v;		/* for the forked child's calls */
	bool tried;
	bool running;
	int spawn_errno;		/* why it could not start */
	struct strbuf why;
	pid_t pid;
	int req_fd, rep_fd;		/* the parent's ends */
	int child_in, child_out;	/* the child's ends */
	int exit_status;		/* after stop: the helper's status */
};

struct timens_ctx {
	bool checked;
	bool supported;
	struct strbuf why;
	struct timens_offsets self;	/* offsets of the namespace we are in */
	struct ns_session s[MODE_COUNT];
	bool left_setns;		/* the setns probe went back home */
	const struct verify *v;
};

static int fork_probe(void *arg)
{
	struct ns_session *s = arg;

	close(s->req_fd);
	close(s->rep_fd);
	return probe_serve(s->v, s->child_in, s->child_out);
}

static int exec_probe(void *arg)
{
	struct ns_session *s = arg;
	char fds[64];
	char *argv[] = { (char *)"/proc/self/exe", (char *)"verify", fds, NULL };

	snprintf(fds, sizeof(fds), "--timens-probe=%d,%d", s->child_in, s->child_out);
	execve(argv[0], argv, environ);
	return TIMENS_EXIT_EXEC_FAILED;
}

static int session_ask(struct ns_session *s, const struct probe_req *req,
		       void *reply, size_t len, struct strbuf *err);
static void session_stop(struct ns_session *s);

/* A plain child in our own namespace, which moves itself later (CMD_ENTER). */
static int spawn_setns_probe(struct ns_session *s)
{
	fflush(NULL);
	s->pid = fork();
	if (s->pid < 0) {
		strbuf_setf(&s->why, "fork: %s", strerror(errno));
		return -1;
	}
	if (s->pid == 0) {
		close(s->req_fd);
		close(s->rep_fd);
		_exit(probe_serve(s->v, s->child_in, s->child_out));
	}
	return 0;
}

/* Ask a setns probe to move (CMD_ENTER or CMD_LEAVE); false with why. */
static bool setns_probe_move(struct ns_session *s, int cmd)
{
	struct probe_req req = { cmd, 0, 0 };
	int e = 0;

	if (session_ask(s, &req, &e, sizeof(e), &s->why) != 0 || e) {
		if (e)
			strbuf_setf(&s->why, "%s: %s", cmd == CMD_ENTER ?
				    "unshare(CLONE_NEWTIME), offsets and setns() into it" :
				    "setns() back into the namespace it came from",
				    errno_name(e));
		s->spawn_errno = e ? e : EIO;
		session_stop(s);
		return false;
	}
	return true;
}

static bool session_start(struct timens_ctx *tc, enum ns_mode mode)
{
	struct ns_session *s = &tc->s[mode];
	int req[2], rep[2];
	char fds[64];
	char *argv[] = { (char *)"/proc/self/exe", (char *)"verify", fds, NULL };
	int rc;

	if (s->tried)
		return s->running;
	s->tried = true;
	if (pipe(req) != 0 || pipe(rep) != 0) {
		s->spawn_errno = errno;
		strbuf_setf(&s->why, "pipe: %s", strerror(s->spawn_errno));
		return false;
	}
	/* The parent's ends must not survive an exec in the child. */
	fcntl(req[1], F_SETFD, FD_CLOEXEC);
	fcntl(rep[0], F_SETFD, FD_CLOEXEC);
	s->req_fd = req[1];
	s->rep_fd = rep[0];
	s->child_in = req[0];
	s->child_out = rep[1];
	s->v = tc->v;
	switch (mode) {
	case MODE_FORK:
		rc = timens_spawn(&test_offsets, fork_probe, s, &s->pid, &s->why);
		break;
	case MODE_EXEC:
		rc = timens_spawn(&test_offsets, exec_probe, s, &s->pid, &s->why);
		break;
	case MODE_SETNS:
		rc = spawn_setns_probe(s);
		break;
	default:
		snprintf(fds, sizeof(fds), "--timens-probe=%d,%d", s->child_in,
			 s->child_out);
		rc = timens_spawn_exec(&test_offsets, argv, &s->pid, &s->why);
		break;
	}
	s->spawn_errno = rc ? errno : 0;
	close(s->child_in);
	close(s->child_out);
	if (rc) {
		close(s->req_fd);
		close(s->rep_fd);
		return false;
	}
	s->running = true;
	return mode == MODE_SETNS ? setns_probe_move(s, CMD_ENTER) : true;
}

static void session_stop(struct ns_session *s)
{
	struct probe_req q = { CMD_QUIT, 0, 0 };
	_cleanup_strbuf_ struct strbuf ignored = STRBUF_INIT;

	if (!s->running)
		return;
	fd_write_all(s->req_fd, &q, sizeof(q));
	close(s->req_fd);
	close(s->rep_fd);
	s->exit_status = timens_wait(s->pid, &ignored);
	s->running = false;
}

/* Send a request and take its reply; -1 with a message when the child
 * is gone or silent. */
static int session_ask(struct ns_session *s, const struct probe_req *req,
		       void *reply, size_t len, struct strbuf *err)
{
	if (fd_write_all(s->req_fd, req, sizeof(*req)) != 0 ||
	    fd_read_all(s->rep_fd, reply, len, REPLY_TIMEOUT_MS) != 0) {
		strbuf_setf(err, "the child in the namespace did not answer: %s",
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* Whether the namespace points can run; skips the point when not. */
static bool ns_ready(struct verify *v, struct timens_ctx *tc)
{
	if (!tc->checked) {
		tc->checked = true;
		tc->supported = timens_supported(&tc->why);
		if (tc->supported && timens_self_offsets(&tc->self, &tc->why))
			tc->supported = false;
	}
	if (!tc->supported)
		vskip(v, "%s", tc->why.buf);
	return tc->supported;
}

/* setns-back reads from the setns probe, once it has moved back. */
static struct ns_session *session_of(struct timens_ctx *tc, enum ns_mode mode)
{
	return &tc->s[mode == MODE_SETNS_BACK ? MODE_SETNS : mode];
}

static bool session_started(struct timens_ctx *tc, enum ns_mode mode)
{
	struct ns_session *s = session_of(tc, mode);

	if (mode != MODE_SETNS_BACK)
		return session_start(tc, mode);
	if (!session_start(tc, MODE_SETNS))
		return false;
	if (!tc->left_setns) {
		tc->left_setns = true;
		return setns_probe_move(s, CMD_LEAVE);
	}
	return s->running;
}

static bool session_ready(struct verify *v, struct timens_ctx *tc, enum ns_mode mode)
{
	struct ns_session *s = session_of(tc, mode);

	if (!ns_ready(v, tc))
		return false;
	if (session_started(tc, mode))
		return true;
	if (s->spawn_errno == EPERM || s->spawn_errno == EACCES)
		vskip(v, "%s", s->why.buf);
	else if (mode == MODE_VFORK_EXEC && s->spawn_errno == EINVAL)
		/*
		 * Known behaviour, not a fault: a child sharing the parent's
		 * mm (CLONE_VM) could not enter a time namespace other than
		 * the parent's, since the vvar page is per mm, until the
		 * kernel learned to switch it at execve() ("fs/exec: switch
		 * timens when a task gets a new mm"). 6.1 still refuses.
		 */
		vxfail(v, "this kernel refuses vfork() into a new time namespace "
		       "(EINVAL: CLONE_VM with another time namespace for children); "
		       "kernels with 'fs/exec: switch timens when a task gets a new mm' "
		       "allow it");
	else
		verror(v, "cannot start a child in a new time namespace: %s", s->why.buf);
	return false;
}

static int64_t expected_offset(const struct timens_ctx *tc, enum ns_mode mode,
			       const struct ns_clock *nc)
{
	if (mode == MODE_SETNS_BACK)
		return 0;	/* home again: the clocks of the namespace we are in */
	switch (nc->offset) {
	case 1:
		return test_offsets.monotonic_ns - tc->self.monotonic_ns;
	case 2:
		return test_offsets.boottime_ns - tc->self.boottime_ns;
	default:
		return 0;
	}
}

/* One round: parent read, child read (main thread or a new one), parent read. */
static int clock_round(struct verify *v, struct ns_session *s, clockid_t id,
		       enum path p, bool thread, struct timespec out[3],
		       struct strbuf *err)
{
	struct probe_req req = { thread ? CMD_THREAD_READ : CMD_READ, id, p };
	struct probe_reading rd;
	struct vres r;
	char got[64];

	r = vcall_gettime(v, PATH_SYSCALL, id, &out[0]);
	if (r.failed) {
		strbuf_setf(err, "the parent's syscall read failed: %s",
			    errno_name(r.err));
		return -1;
	}
	if (session_ask(s, &req, &rd, sizeof(rd), err) != 0)
		return -1;
	vcall_gettime(v, PATH_SYSCALL, id, &out[2]);
	if (rd.res.failed) {
		vres_format(p, &rd.res, got, sizeof(got));
		strbuf_setf(err, "the child's %s read returned %s", catalog_paths[p], got);
		return -1;
	}
	out[1] = rd.ts;
	return 0;
}

/* A read outside the parent's window: a failure, unless REALTIME (which
 * the clocks without an offset follow) was stepped meanwhile. */
static void report_outside(struct verify *v, const struct timespec t[3], bool thread,
			   int64_t off, enum path p, struct step_watch *w)
{
	int64_t lo = ts_ns(&t[0]) + off, mid = ts_ns(&t[1]), hi = ts_ns(&t[2]) + off;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char a[32], b[32], d[32];

	ts_format(&t[0], a, sizeof(a));
	ts_format(&t[1], b, sizeof(b));
	ts_format(&t[2], d, sizeof(d));
	vdiag(v, "parent %s, child (%s) %s, parent %s; expected offset %lld ns", a,
	      thread ? "new thread" : "main thread", b, d, (long long)off);
	if (step_watch_end(w, &why)) {
		vdiag(v, "%s", why.buf);
		vpass(v, "the child's %s read was outside the parent's window, explained "
		      "by a REALTIME step", catalog_paths[p]);
		return;
	}
	vfail(v, "the child's %s read minus the offset is %lld ns %s the parent's "
	      "window", catalog_paths[p], (long long)(mid < lo ? lo - mid : mid - hi),
	      mid < lo ? "before" : "after");
}

static void clock_point(struct verify *v, struct timens_ctx *tc, enum ns_mode mode,
			const struct ns_clock *nc, enum path p)
{
	const struct clock_info *ci = catalog_clock_by_name(nc->name);
	bool rt = nc->offset == 0;	/* REALTIME, its coarse clock, TAI */
	struct step_watch w;
	int64_t off, widest = 0;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!session_ready(v, tc, mode))
		return;
	off = expected_offset(tc, mode, nc);	/* needs our own offsets, read by now */
	step_watch_begin_if(&w, rt);
	/* A first, unjudged round faults the pages in, so that the window
	 * reported is the pipe's round trip, not a page fault's. */
	for (int round = -1; round < 2 * ROUNDS; round++) {
		bool thread = round > 0 && round % 2;
		struct timespec t[3];
		int64_t lo, mid, hi;

		if (clock_round(v, session_of(tc, mode), ci->id, p, thread, t, &err)) {
			step_watch_end(&w, &why);
			vfail(v, "%s", err.buf);
			return;
		}
		lo = ts_ns(&t[0]) + off;
		mid = ts_ns(&t[1]);
		hi = ts_ns(&t[2]) + off;
		if (round >= 0 && hi - lo > widest)
			widest = hi - lo;
		if (mid < lo || mid > hi) {
			report_outside(v, t, thread, off, p, &w);
			return;
		}
	}
	step_watch_end(&w, &why);
	if (off)
		vpass(v, "child = parent %+g days, inside the parent's window of at most "
		      "%lld us (%d rounds, main thread and a new thread)",
		      (double)off / (double)DAY_NS, (long long)(widest / 1000), 2 * ROUNDS);
	else
		vpass(v, "child = parent (no offset), inside the parent's window of at "
		      "most %lld us (%d rounds, main thread and a new thread)",
		      (long long)(widest / 1000), 2 * ROUNDS);
}

/* /proc/uptime in the namespace is BOOTTIME there, to the centisecond. */
static void uptime_point(struct verify *v, struct timens_ctx *tc)
{
	struct probe_req req = { CMD_PROC, 0, 0 };
	int64_t boff, lo, hi, up;
	struct timespec b1, b2;
	struct probe_proc pp;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (!vpoint(v, VT_NONE, "timens/proc-uptime") || !session_ready(v, tc, MODE_FORK))
		return;
	boff = test_offsets.boottime_ns - tc->self.boottime_ns;
	vcall_gettime(v, PATH_SYSCALL, CLOCK_BOOTTIME, &b1);
	rc = session_ask(&tc->s[MODE_FORK], &req, &pp, sizeof(pp), &err);
	vcall_gettime(v, PATH_SYSCALL, CLOCK_BOOTTIME, &b2);
	if (rc || pp.err) {
		vfail(v, "%s", rc ? err.buf : "the child cannot read /proc/uptime");
		return;
	}
	/* /proc/uptime truncates BOOTTIME to centiseconds. */
	lo = ts_ns(&b1) + boff - 10000000LL;
	hi = ts_ns(&b2) + boff;
	up = ts_ns(&pp.uptime);
	if (up < lo || up > hi) {
		vfail(v, "/proc/uptime %.2f s in the namespace, expected BOOTTIME + "
		      "%lld s = %.2f..%.2f s", (double)up / 1e9,
		      (long long)(boff / 1000000000LL), (double)lo / 1e9, (double)hi / 1e9);
		return;
	}
	vpass(v, "/proc/uptime %.2f s = BOOTTIME + %lld s", (double)up / 1e9,
	      (long long)(boff / 1000000000LL));
}

/*
 * btime in /proc/stat is REALTIME - BOOTTIME: earlier by the boot offset.
 * Offsets are whole seconds, so it is exact.
 */
static void btime_point(struct verify *v, struct timens_ctx *tc)
{
	struct probe_req req = { CMD_PROC, 0, 0 };
	long long boff_s, btime1 = 0, btime2 = 0;
	struct probe_proc pp;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (!vpoint(v, VT_NONE, "timens/proc-stat-btime") ||
	    !session_ready(v, tc, MODE_FORK))
		return;
	boff_s = (test_offsets.boottime_ns - tc->self.boottime_ns) / 1000000000LL;
	read_btime(&btime1);
	rc = session_ask(&tc->s[MODE_FORK], &req, &pp, sizeof(pp), &err);
	read_btime(&btime2);
	if (rc || pp.err) {
		vfail(v, "%s", rc ? err.buf : "the child cannot read /proc/stat");
		return;
	}
	if (pp.btime != btime1 - boff_s && pp.btime != btime2 - boff_s) {
		vfail(v, "btime %lld in the namespace, expected the host's %lld - %lld s",
		      pp.btime, btime1, boff_s);
		return;
	}
	vpass(v, "btime %lld = the host's %lld - %lld s", pp.btime, btime1, boff_s);
}

static void timer_points(struct verify *v, struct timens_ctx *tc)
{
	struct probe_req req = { CMD_TIMERS, 0, 0 };
	struct probe_timers *pt = NULL;
	bool asked = false;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < NTIMER_TESTS; i++) {
		if (!vpoint(v, VT_NONE, "timens/%s", timer_tests[i].name) ||
		    !session_ready(v, tc, MODE_FORK))
			continue;
		if (!asked) {
			asked = true;
			pt = xcalloc(1, sizeof(*pt));
			if (session_ask(&tc->s[MODE_FORK], &req, pt, sizeof(*pt), &err)) {
				free(pt);
				pt = NULL;
			}
		}
		if (!pt)
			vfail(v, "%s", err.buf);
		else if (pt->r[i].result == TR_PASS)
			vpass(v, "%s", pt->r[i].msg);
		else if (pt->r[i].result == TR_SKIP)
			vskip(v, "%s", pt->r[i].msg);
		else
			vfail(v, "%s", pt->r[i].msg);
	}
	free(pt);
}

static void frozen_point(struct verify *v, struct timens_ctx *tc)
{
	struct probe_req req = { CMD_FROZEN, 0, 0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int e;

	if (!vpoint(v, VT_NONE, "timens/offsets-frozen") ||
	    !session_ready(v, tc, MODE_FORK))
		return;
	if (session_ask(&tc->s[MODE_FORK], &req, &e, sizeof(e), &err)) {
		vfail(v, "%s", err.buf);
		return;
	}
	if (e != EACCES) {
		vfail(v, "writing offsets after a task entered: expected EACCES, got %s",
		      e ? errno_name(e) : "success");
		return;
	}
	vpass(v, "writing offsets after a task entered fails with EACCES");
}

/* Only MONOTONIC and BOOTTIME can be offset: a REALTIME offset is refused. */
static void realtime_offset_point(struct verify *v, struct timens_ctx *tc)
{
	int status, e;
	pid_t pid;

	if (!vpoint(v, VT_NONE, "timens/realtime-offset-rejected") || !ns_ready(v, tc))
		return;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		verror(v, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		static const char text[] = "0 86400 0\n";	/* CLOCK_REALTIME */
		int fd;

		if (unshare(CLONE_NEWTIME) != 0)
			_exit(100);
		fd = open("/proc/self/timens_offsets", O_WRONLY);
		if (fd < 0)
			_exit(101);
		_exit(write(fd, text, strlen(text)) < 0 ? errno & 0x7f : 0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	e = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (e == EINVAL)
		vpass(v, "writing a CLOCK_REALTIME offset fails with EINVAL");
	else if (e == 100 || e == 101)
		verror(v, "the child could not %s", e == 100 ? "unshare(CLONE_NEWTIME)" :
		       "open /proc/self/timens_offsets");
	else
		vfail(v, "writing a CLOCK_REALTIME offset: expected EINVAL, got %s",
		      e == 0 ? "success" : e < 0 ? "a crash" : errno_name(e));
}

static void helper_point(struct verify *v, struct timens_ctx *tc)
{
	struct ns_session *s = &tc->s[MODE_VFORK_EXEC];

	if (!vpoint(v, VT_NONE, "timens/vfork-exec/helper-stays") ||
	    !session_ready(v, tc, MODE_VFORK_EXEC))
		return;
	session_stop(s);
	if (s->exit_status == TIMENS_EXIT_HELPER_MOVED)
		vfail(v, "the process that called unshare() and vfork() saw its own "
		      "MONOTONIC clock move into the new namespace");
	else if (s->exit_status == TIMENS_EXIT_EXEC_FAILED)
		vfail(v, "execve of /proc/self/exe failed in the vforked child");
	else if (s->exit_status != 0)
		vfail(v, "the namespace helper exited with status %d", s->exit_status);
	else
		vpass(v, "after unshare() and vfork()+execve() the helper's MONOTONIC "
		      "clock stayed in its own namespace");
}

void verify_timens(struct verify *v)
{
	struct timens_ctx tc;

	memset(&tc, 0, sizeof(tc));
	strbuf_init(&tc.why);
	for (int mode = 0; mode < MODE_COUNT; mode++)
		strbuf_init(&tc.s[mode].why);
	tc.v = v;
	for (int mode = 0; mode < MODE_COUNT; mode++) {
		for (size_t k = 0; k < ARRAY_SIZE(ns_clocks); k++) {
			const struct clock_info *ci = catalog_clock_by_name(ns_clocks[k].name);

			for (int p = 0; p < PATH_COUNT; p++)
				if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, ci, p,
						"timens/%s/%s", mode_names[mode],
						ns_clocks[k].name))
					clock_point(v, &tc, (enum ns_mode)mode, &ns_clocks[k],
						    (enum path)p);
		}
		if (mode == MODE_FORK) {
			uptime_point(v, &tc);
			btime_point(v, &tc);
			timer_points(v, &tc);
			frozen_point(v, &tc);
		}
		if (mode == MODE_VFORK_EXEC)
			helper_point(v, &tc);
		/* The setns probe still has to come back home. */
		if (mode != MODE_SETNS)
			session_stop(session_of(&tc, (enum ns_mode)mode));
	}
	realtime_offset_point(v, &tc);
	for (int mode = 0; mode < MODE_COUNT; mode++)
		strbuf_release(&tc.s[mode].why);
	strbuf_release(&tc.why);
}
