// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guard (guard.h): recorded machine state, a supervised child that may
 * change it, and restoring whatever happens to either process.
 */
#include "probe/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/catalog.h"

volatile sig_atomic_t guard_stop_signal;

/* The signals a supervisor forwards and a child stops on. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSTOP_SIGNALS ARRAY_SIZE(stop_signals)

void guard_init(struct guard *g)
{
	memset(g, 0, sizeof(*g));
}

static struct guard_item *new_item(struct guard *g, enum guard_kind kind,
				   const char *what, struct strbuf *err)
{
	struct guard_item *it;

	if (g->n >= GUARD_MAX_ITEMS) {
		strbuf_setf(err, "the guard holds at most %d items", GUARD_MAX_ITEMS);
		return NULL;
	}
	it = &g->items[g->n];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	snprintf(it->what, sizeof(it->what), "%s", what);
	return it;
}

/* ---- system calls only: what restoring may use ---------------------------- */

/* The first line of path, trimmed, into buf; 0 or -errno. */
static int read_first_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t end = 0;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	while (end < (size_t)n && buf[end] != '\n')
		end++;
	while (end > 0 && buf[end - 1] == ' ')
		end--;
	buf[end] = '\0';
	return 0;
}

static int write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

static int read_timex(struct guard_timex *t)
{
	struct timex tx;

	memset(&tx, 0, sizeof(tx));
	if (adjtimex(&tx) < 0)
		return -errno;
	t->freq = tx.freq;
	t->tick = tx.tick;
	t->status = tx.status;
	return 0;
}

/* The status bits adjtimex lets a caller set. */
static int writable_status(int status)
{
	return status & ~STA_RONLY;
}

static void restore_file(struct guard_item *it)
{
	char now[GUARD_VALUE_MAX];
	int rc;

	it->found[0] = '\0';
	rc = read_first_line(it->path, it->found, sizeof(it->found));

	if (rc == 0 && strcmp(it->found, it->value) == 0)
		return;

	it->repaired = true;
	rc = write_value(it->path, it->value);
	if (rc == 0)
		rc = read_first_line(it->path, now, sizeof(now));
	/* sysfs may take a value and keep another (an unusable clocksource). */
	if (rc == 0 && strcmp(now, it->value) != 0)
		rc = -EAGAIN;
	it->error = -rc;
}

static void restore_timex(struct guard_item *it)
{
	struct timex tx;
	int rc = read_timex(&it->found_tx);

	if (rc) {
		it->error = -rc;
		return;
	}
	memset(&tx, 0, sizeof(tx));
	if (it->found_tx.freq != it->tx.freq)
		tx.modes |= ADJ_FREQUENCY;
	if (it->found_tx.tick != it->tx.tick)
		tx.modes |= ADJ_TICK;
	if (writable_status(it->found_tx.status) != writable_status(it->tx.status))
		tx.modes |= ADJ_STATUS;
	if (!tx.modes)
		return;
	it->repaired = true;
	tx.freq = it->tx.freq;
	tx.tick = it->tx.tick;
	tx.status = it->tx.status;
	it->error = adjtimex(&tx) < 0 ? errno : 0;
}

int guard_restore(struct guard *g)
{
	int failed = 0;

	for (size_t i = 0; i < g->n; i++) {
		struct guard_item *it = &g->items[i];
		int rc;

		it->repaired = false;
		it->error = 0;
		switch (it->kind) {
		case GUARD_FILE:
			restore_file(it);
			break;
		case GUARD_ADJTIMEX:
			restore_timex(it);
			break;
		case GUARD_ACTION:
			rc = it->action(it->arg);
			it->repaired = rc != 0;
			it->error = rc < 0 ? (errno ? errno : EIO) : 0;
			break;
		}
		failed |= it->error != 0;
	}
	return failed ? -1 : 0;
}

bool guard_repaired(const struct guard *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->items[i].repaired)
			return true;
	return false;
}

/* ---- recording --------------------------------------------------------------- */

int guard_add_file(struct guard *g, const char *path, const char *what,
		   struct strbuf *err)
{
	struct guard_item *it = new_item(g, GUARD_FILE, what, err);
	int rc;

	if (!it)
		return -1;
	snprintf(it->path, sizeof(it->path), "%s", path);
	rc = read_first_line(path, it->value, sizeof(it->value));
	if (rc) {
		strbuf_setf(err, "cannot read %s: %s", path, errno_name(-rc));
		return -1;
	}
	g->n++;
	return 0;
}

int guard_add_adjtimex(struct guard *g, struct strbuf *err)
{
	struct guard_item *it = new_item(g, GUARD_ADJTIMEX, "adjtimex", err);
	int rc;

	if (!it)
		return -1;
	rc = read_timex(&it->tx);
	if (rc) {
		strbuf_setf(err, "adjtimex: %s", errno_name(-rc));
		return -1;
	}
	g->n++;
	return 0;
}

int guard_add_action(struct guard *g, const char *what, int (*restore)(void *arg),
		     void *arg, struct strbuf *err)
{
	struct guard_item *it = new_item(g, GUARD_ACTION, what, err);

	if (!it)
		return -1;
	it->action = restore;
	it->arg = arg;
	g->n++;
	return 0;
}

/* ---- describing ----------------------------------------------------------------- */

static size_t describe_timex(const struct guard_timex *t, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "frequency %+.3f ppm, tick %ld us, status 0x%x",
				(double)t->freq / 65536.0, t->tick, t->status);
}

static size_t describe_item(const struct guard_item *it, char *buf, size_t len)
{
	size_t n = 0;

	switch (it->kind) {
	case GUARD_FILE:
		n = (size_t)snprintf(buf, len, "%s %s", it->what, it->value);
		if (it->repaired && n < len)
			n += (size_t)snprintf(buf + n, len - n, " (found %s, put back)",
					      it->found);
		break;
	case GUARD_ADJTIMEX:
		n = (size_t)snprintf(buf, len, "adjtimex ");
		if (n < len)
			n += describe_timex(&it->tx, buf + n, len - n);
		if (it->repaired && n < len)
			n += (size_t)snprintf(buf + n, len - n, " (found %+.3f ppm, tick "
					      "%ld, status 0x%x, put back)",
					      (double)it->found_tx.freq / 65536.0,
					      it->found_tx.tick, it->found_tx.status);
		break;
	case GUARD_ACTION:
		n = (size_t)snprintf(buf, len, "%s%s", it->what,
				     it->repaired ? " (done)" : "");
		break;
	}
	if (it->error && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (could not restore: %s)",
				      errno_name(it->error));
	return n;
}

void guard_describe(const struct guard *g, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->n && used < len; i++) {
		if (i)
			used += (size_t)snprintf(buf + used, len - used, "; ");
		if (used < len)
			used += describe_item(&g->items[i], buf + used, len - used);
	}
}

/* ---- the child ---------------------------------------------------------------------- */

/* In the child: what to restore if the supervisor dies, and who it is. */
static struct guard *child_guard;
static pid_t child_supervisor;

/* A fork that is safe in a signal handler (no atfork handlers, no locks). */
static pid_t signal_safe_fork(void)
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	return _Fork();
#else
	return fork();
#endif
}

/*
 * The supervisor is gone: nobody else will restore. A restorer process
 * waits until every thread of this process has exited (it is reparented
 * then), so that no thread can change the state after it was put back.
 */
static _noreturn_ void orphaned(void)
{
	pid_t self = getpid();

	if (signal_safe_fork() == 0) {
		struct timespec ms = { 0, 1000000 };

		while (getppid() == self)
			nanosleep(&ms, NULL);
		guard_restore(child_guard);
		_exit(0);
	}
	_exit(GUARD_EXIT_ORPHANED);
}

static void on_stop_signal(int sig)
{
	if (getppid() != child_supervisor)
		orphaned();
	if (child_guard->graceful)
		guard_stop_signal = sig;
	else
		_exit(128 + sig);
}

static _noreturn_ void child_main(struct guard *g, int (*fn)(void *arg), void *arg,
				  pid_t supervisor, const sigset_t *old_mask)
{
	struct sigaction sa;
	int rc;

	child_guard = g;
	child_supervisor = supervisor;
	guard_stop_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: sleeps end at once */
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	/* The supervisor may have died before PR_SET_PDEATHSIG took. */
	if (getppid() != supervisor)
		orphaned();
	rc = fn(arg);
	fflush(NULL);
	/*
	 * Orphaned while fn ran with stop handlers of its own (a measuring
	 * command stops gracefully on SIGTERM): nobody else will restore,
	 * and fn's threads are gone now that it returned.
	 */
	if (getppid() != supervisor) {
		guard_restore(g);
		_exit(GUARD_EXIT_ORPHANED);
	}
	_exit(rc & 0xff);
}

/* ---- the supervisor ------------------------------------------------------------------ */

static volatile pid_t forward_to;
static volatile sig_atomic_t forwarded;

static void forward_signal(int sig)
{
	forwarded = sig;
	if (forward_to > 0)
		kill(forward_to, sig);
}

static void write_pidfile(const char *pidfile, pid_t pid)
{
	FILE *f;

	if (!pidfile)
		return;
	f = fopen(pidfile, "we");
	if (f) {
		fprintf(f, "%d\n", (int)pid);
		fclose(f);
	}
}

/* The child's exit status, 128 + its signal (also in *sig), or -errno. */
static int wait_child(pid_t pid, int *sig)
{
	int status;

	*sig = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (!WIFSIGNALED(status))
		return -EINVAL;
	*sig = WTERMSIG(status);
	return 128 + *sig;
}

int guard_run(struct guard *g, int (*fn)(void *arg), void *arg,
	      struct strbuf *err)
{
	struct sigaction sa, saved[NSTOP_SIGNALS];
	sigset_t block, old;
	pid_t supervisor = getpid(), pid;
	int status;

	sigemptyset(&block);
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaddset(&block, stop_signals[i]);
	fflush(NULL);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid < 0) {
		strbuf_setf(err, "cannot fork the supervised process: %s",
			    strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		guard_restore(g);
		return -1;
	}
	if (pid == 0)
		child_main(g, fn, arg, supervisor, &old);

	g->child = pid;
	forward_to = pid;
	forwarded = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &saved[i]);
	write_pidfile(g->pidfile, pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	status = wait_child(pid, &g->child_signal);
	sigprocmask(SIG_BLOCK, &block, NULL);
	forward_to = 0;
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &saved[i], NULL);
	g->stop_signal = forwarded;
	guard_restore(g);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (status >= 0)
		return status;
	strbuf_setf(err, "cannot wait for the supervised process: %s",
		    strerror(-status));
	return -1;
}

int guard_lock(const char *name, const char *changing, double timeout_s,
	       struct strbuf *err)
{
	uint64_t deadline = now_ns() + (uint64_t)(timeout_s * 1e9);
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/clockbench-%s.lock",
		 access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp", name);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0) {
		strbuf_setf(err, "cannot open the lock %s: %s", path, strerror(errno));
		return -1;
	}
	for (bool told = false; flock(fd, LOCK_EX | LOCK_NB) != 0; told = true) {
		if (errno != EWOULDBLOCK || now_ns() > deadline) {
			strbuf_setf(err, "another clockbench is %s (lock %s)",
				    changing, path);
			close(fd);
			return -1;
		}
		if (!told)
			fprintf(stderr, "%s: waiting for another clockbench to finish "
				"%s\n", program_context(), changing);
		usleep(100000);
	}
	return fd;
}
