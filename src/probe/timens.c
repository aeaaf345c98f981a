// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/timens.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/catalog.h"
#include "basic/util.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

extern char **environ;

/* ---- offsets text --------------------------------------------------- */

static void split_ns(int64_t ns, long long *sec, long *nsec)
{
	long long s = ns / NSEC_PER_SEC_I64;
	long long r = ns % NSEC_PER_SEC_I64;

	if (r < 0) {	/* the kernel wants 0 <= nsec < 1e9 */
		s--;
		r += NSEC_PER_SEC_I64;
	}
	*sec = s;
	*nsec = (long)r;
}

int timens_format_offsets(const struct timens_offsets *off, char *buf, size_t len)
{
	long long ms, bs;
	long mn, bn;
	int n;

	split_ns(off->monotonic_ns, &ms, &mn);
	split_ns(off->boottime_ns, &bs, &bn);
	n = snprintf(buf, len, "monotonic %lld %ld\nboottime %lld %ld\n",
		     ms, mn, bs, bn);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int timens_parse_offsets(const char *text, struct timens_offsets *off)
{
	bool have_mono = false, have_boot = false;
	const char *p = text;

	memset(off, 0, sizeof(*off));
	if (!p)
		return -1;
	while (*p) {
		char name[16];
		long long sec;
		long nsec;
		int used;

		if (sscanf(p, " %15s %lld %ld%n", name, &sec, &nsec, &used) != 3 ||
		    nsec < 0 || nsec >= NSEC_PER_SEC_I64)
			return -1;
		if (streq(name, "monotonic") || streq(name, "1")) {
			off->monotonic_ns = sec * NSEC_PER_SEC_I64 + nsec;
			have_mono = true;
		} else if (streq(name, "boottime") || streq(name, "7")) {
			off->boottime_ns = sec * NSEC_PER_SEC_I64 + nsec;
			have_boot = true;
		} else {
			return -1;
		}
		p += used;
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
	}
	return have_mono || have_boot ? 0 : -1;
}

int timens_self_offsets(struct timens_offsets *off, struct strbuf *err)
{
	_cleanup_free_ char *text = read_text_file("/proc/self/timens_offsets", 4096);

	memset(off, 0, sizeof(*off));
	if (!text) {
		strbuf_setf(err, "cannot read /proc/self/timens_offsets: %s",
			    strerror(errno));
		return -1;
	}
	if (timens_parse_offsets(text, off) != 0) {
		strbuf_setf(err, "cannot parse /proc/self/timens_offsets");
		return -1;
	}
	return 0;
}

/* ---- the helper ----------------------------------------------------- */

/* What the helper tells its parent once the child is running. */
struct helper_report {
	int err;		/* 0: the child is in the namespace */
	char msg[200];
};

static void report(int fd, int err, const char *fmt, ...) _printf_(3, 4);
static void report(int fd, int err, const char *fmt, ...)
{
	struct helper_report r;
	va_list ap;

	memset(&r, 0, sizeof(r));
	r.err = err;
	va_start(ap, fmt);
	vsnprintf(r.msg, sizeof(r.msg), fmt, ap);
	va_end(ap);
	(void)!write(fd, &r, sizeof(r));
}

static int write_offsets(const struct timens_offsets *off, int report_fd)
{
	char text[128];
	ssize_t n;
	int fd;

	if (timens_format_offsets(off, text, sizeof(text)) != 0) {
		report(report_fd, EINVAL, "offsets do not fit the buffer");
		return -1;
	}
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		report(report_fd, errno, "open /proc/self/timens_offsets: %s",
		       errno_name(errno));
		return -1;
	}
	/* The kernel takes every line of one write() at once. */
	n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text)) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		report(report_fd, e, "writing the offsets to /proc/self/timens_offsets: %s",
		       errno_name(e));
		return -1;
	}
	close(fd);
	return 0;
}

static int enter_new_namespace(const struct timens_offsets *off, int report_fd)
{
	if (unshare(CLONE_NEWTIME) != 0) {
		int e = errno;

		report(report_fd, e, "unshare(CLONE_NEWTIME) failed with %s%s",
		       errno_name(e), e == EPERM ? ": needs CAP_SYS_ADMIN (root)" :
		       e == EINVAL ? ": kernel without CONFIG_TIME_NS" : "");
		return -1;
	}
	return write_offsets(off, report_fd);
}

/* Inherited descriptors would keep the caller's pipes open after the
 * child died; the helper needs none of them. */
static void close_inherited_fds(void)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
#endif
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
}

static _noreturn_ void helper_wait_and_exit(pid_t child, int extra_status)
{
	int status;

	close_inherited_fds();
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	if (extra_status)
		_exit(extra_status);
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	_exit(128 + WTERMSIG(status));
}

static _noreturn_ void helper_fork(const struct timens_offsets *off,
				   int (*fn)(void *), void *arg, int report_fd)
{
	pid_t child;

	if (enter_new_namespace(off, report_fd) != 0)
		_exit(127);
	child = fork();
	if (child < 0) {
		report(report_fd, errno, "fork into the namespace: %s",
		       errno_name(errno));
		_exit(127);
	}
	if (child == 0) {
		close(report_fd);
		_exit(fn(arg) & 0xff);
	}
	report(report_fd, 0, "ok");
	helper_wait_and_exit(child, 0);
}

static int64_t monotonic_ns_syscall(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC_I64 + ts.tv_nsec;
}

static int64_t monotonic_ns_libc(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC_I64 + ts.tv_nsec;
}

/*
 * Whether the helper's own clock jumped: it must not, since only its
 * children enter the namespace. Half the offset separates "stayed" from
 * "moved" whatever the scheduling delays (offsets are days).
 */
static bool helper_moved(int64_t before_sys, int64_t before_libc,
			 const struct timens_offsets *off)
{
	int64_t limit = off->monotonic_ns / 2;

	if (limit < 0)
		limit = -limit;
	if (limit == 0)
		return false;
	return llabs(monotonic_ns_syscall() - before_sys) > limit ||
	       llabs(monotonic_ns_libc() - before_libc) > limit;
}

static _noreturn_ void helper_vfork_exec(const struct timens_offsets *off,
					 char *const argv[], int report_fd)
{
	int64_t before_sys = monotonic_ns_syscall();
	int64_t before_libc = monotonic_ns_libc();
	pid_t child;

	if (enter_new_namespace(off, report_fd) != 0)
		_exit(127);
	child = vfork();
	if (child < 0) {
		report(report_fd, errno, "vfork: %s", errno_name(errno));
		_exit(127);
	}
	if (child == 0) {
		execve(argv[0], argv, environ);
		_exit(TIMENS_EXIT_EXEC_FAILED);
	}
	report(report_fd, 0, "ok");
	helper_wait_and_exit(child, helper_moved(before_sys, before_libc, off) ?
			     TIMENS_EXIT_HELPER_MOVED : 0);
}

/* ---- the caller's side ---------------------------------------------- */

struct spawn_req {
	const struct timens_offsets *off;
	int (*fn)(void *);
	void *arg;
	char *const *argv;	/* non-NULL: vfork + execve */
};

static int spawn(const struct spawn_req *req, pid_t *pid, struct strbuf *err)
{
	struct helper_report r;
	int pipefd[2];
	ssize_t n;
	pid_t helper;
	int status;

	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		strbuf_setf(err, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);	/* the helper and child must not repeat buffered output */
	helper = fork();
	if (helper < 0) {
		int e = errno;

		strbuf_setf(err, "fork: %s", strerror(e));
		close(pipefd[0]);
		close(pipefd[1]);
		errno = e;
		return -1;
	}
	if (helper == 0) {
		close(pipefd[0]);
		if (req->argv)
			helper_vfork_exec(req->off, req->argv, pipefd[1]);
		helper_fork(req->off, req->fn, req->arg, pipefd[1]);
	}
	close(pipefd[1]);
	do {
		n = read(pipefd[0], &r, sizeof(r));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == (ssize_t)sizeof(r) && r.err == 0) {
		*pid = helper;
		return 0;
	}
	while (waitpid(helper, &status, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(r)) {
		strbuf_setf(err, "the namespace helper died before reporting");
		errno = EIO;
		return -1;
	}
	r.msg[sizeof(r.msg) - 1] = '\0';
	strbuf_setf(err, "%s", r.msg);
	errno = r.err;
	return -1;
}

int timens_spawn(const struct timens_offsets *off, int (*fn)(void *), void *arg,
		 pid_t *pid, struct strbuf *err)
{
	struct spawn_req req = { .off = off, .fn = fn, .arg = arg };

	return spawn(&req, pid, err);
}

int timens_spawn_exec(const struct timens_offsets *off, char *const argv[],
		      pid_t *pid, struct strbuf *err)
{
	struct spawn_req req = { .off = off, .argv = argv };

	return spawn(&req, pid, err);
}

int timens_wait(pid_t pid, struct strbuf *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			strbuf_setf(err, "waitpid: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int timens_run_in_new(const struct timens_offsets *off, int (*fn)(void *),
		      void *arg, struct strbuf *err)
{
	pid_t pid;

	if (timens_spawn(off, fn, arg, &pid, err) != 0)
		return -1;
	return timens_wait(pid, err);
}

/* ---- support -------------------------------------------------------- */

static int probe_child(void *arg)
{
	(void)arg;
	return 0;
}

bool timens_supported(struct strbuf *why)
{
	struct timens_offsets zero = { 0, 0 };
	struct stat st;
	int rc;

	if (stat("/proc/self/ns/time", &st) != 0) {
		strbuf_setf(why, "the kernel has no time namespaces "
			    "(no /proc/self/ns/time: CONFIG_TIME_NS is off)");
		return false;
	}
	rc = timens_run_in_new(&zero, probe_child, NULL, why);
	if (rc != 0) {
		if (rc > 0)
			strbuf_setf(why, "the probe child failed");
		return false;
	}
	return true;
}

json_t *timens_offsets_to_json(const struct timens_offsets *off)
{
	return json_pack("{s:f, s:f}", "monotonic_s", (double)off->monotonic_ns / 1e9,
			 "boottime_s", (double)off->boottime_ns / 1e9);
}
