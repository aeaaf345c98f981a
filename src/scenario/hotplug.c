// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU hotplug on the machine: which CPUs can be cycled, the writes to
 * cpuN/online, a private tracefs instance with the cpuhp events, and the
 * supervisor that restores all of it after the measuring process ends,
 * however it ends.
 */
#include "scenario/hotplug.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"

#define TRACEFS_MAGIC 0x74726163
#define TRACE_MAX (16u << 20)

/* ---- cpulists and CPU checks ---------------------------------------- */

bool cpulist_parse(const char *list, int cpu, bool *has, int *count)
{
	const char *p = list;

	*has = false;
	*count = 0;
	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		errno = 0;
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || errno)
			return false;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || errno)
				return false;
		}
		*count += (int)(hi - lo + 1);
		*has |= cpu >= lo && cpu <= hi;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return false;
	}
	return true;
}

static bool cpu_in_list(const char *root, const char *file, int cpu, int *count)
{
	char path[PATH_MAX], list[4096];
	bool has;

	snprintf(path, sizeof(path), "%s/%s", root, file);
	if (!read_line_file(path, list, sizeof(list)) ||
	    !cpulist_parse(list, cpu, &has, count))
		return false;
	return has;
}

static void online_path(const char *root, int cpu, char *path, size_t len)
{
	snprintf(path, len, "%s/cpu%d/online", root, cpu);
}

enum hotplug_verdict hotplug_check_cpu(const char *root, int cpu, char *why,
				       size_t len)
{
	char path[PATH_MAX], present[256] = "";
	int count, online;

	snprintf(path, sizeof(path), "%s/present", root);
	read_line_file(path, present, sizeof(present));
	if (cpu < 0 || !cpu_in_list(root, "present", cpu, &count)) {
		snprintf(why, len, "no such CPU %d (present: %s)", cpu,
			 *present ? present : "unknown");
		return HOTPLUG_NO_SUCH_CPU;
	}
	online_path(root, cpu, path, sizeof(path));
	if (access(path, F_OK) != 0) {
		snprintf(why, len, "CPU %d is not hot-pluggable (no %s)", cpu, path);
		return HOTPLUG_NOT_HOTPLUGGABLE;
	}
	online = hotplug_read_online(root, cpu);
	if (online != 1) {
		snprintf(why, len, "CPU %d is offline; bring it online first "
			 "(echo 1 > %s)", cpu, path);
		return HOTPLUG_OFFLINE;
	}
	if (!cpu_in_list(root, "online", cpu, &count) || count < 2) {
		snprintf(why, len, "CPU %d is the last online CPU", cpu);
		return HOTPLUG_LAST_ONLINE;
	}
	snprintf(why, len, "CPU %d can be taken offline", cpu);
	return HOTPLUG_USABLE;
}

int hotplug_default_cpu(const char *root)
{
	char path[PATH_MAX], list[4096], why[256];
	bool has;
	int count;

	snprintf(path, sizeof(path), "%s/present", root);
	if (!read_line_file(path, list, sizeof(list)) ||
	    !cpulist_parse(list, 0, &has, &count))
		return -1;
	for (int cpu = 4095; cpu >= 0; cpu--)
		if (cpulist_parse(list, cpu, &has, &count) && has &&
		    hotplug_check_cpu(root, cpu, why, sizeof(why)) == HOTPLUG_USABLE)
			return cpu;
	return -1;
}

int hotplug_read_online(const char *root, int cpu)
{
	char path[PATH_MAX], v[16];

	online_path(root, cpu, path, sizeof(path));
	errno = 0;
	if (!read_line_file(path, v, sizeof(v)))
		return errno ? -errno : -EIO;
	return streq(v, "1") ? 1 : streq(v, "0") ? 0 : -EINVAL;
}

int hotplug_open_online(const char *root, int cpu)
{
	char path[PATH_MAX];
	int fd;

	online_path(root, cpu, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int hotplug_write_online(int fd, bool online)
{
	/* EBUSY: another hotplug operation holds the lock for a moment. */
	for (int tries = 0; tries < 100; tries++) {
		if (pwrite(fd, online ? "1" : "0", 1, 0) == 1)
			return 0;
		if (errno != EINTR && errno != EBUSY && errno != EAGAIN)
			return -errno;
		if (errno != EINTR)
			sleep_s(0.05);
	}
	return -EBUSY;
}

/* ---- tracefs -------------------------------------------------------- */

static bool is_tracefs(const char *path)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && sf.f_type == TRACEFS_MAGIC;
}

static int write_file(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	int fd, rc = 0;
	size_t len = strlen(value);

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (len && write(fd, value, len) != (ssize_t)len)
		rc = -errno;
	close(fd);
	return rc;
}

static bool mount_tracefs(struct hotplug_tracing *t, struct hotplug_restore *r,
			  const char *mountpoint)
{
	snprintf(r->mountpoint, sizeof(r->mountpoint), "%s", mountpoint);
	if (is_tracefs(mountpoint))
		return true;
	if (mount("nodev", mountpoint, "tracefs", 0, NULL) != 0) {
		snprintf(t->note, sizeof(t->note), "cannot mount tracefs at %s: %s",
			 mountpoint, strerror(errno));
		return false;
	}
	r->mounted_tracefs = true;
	return true;
}

static bool make_instance(struct hotplug_tracing *t, struct hotplug_restore *r)
{
	char dir[sizeof(r->instance)];

	snprintf(dir, sizeof(dir), "%s/instances/clockbench-hotplug-%d",
		 r->mountpoint, (int)getpid());
	/* Recorded first: a mkdir that succeeds is then always undone. */
	snprintf(r->instance, sizeof(r->instance), "%s", dir);
	if (mkdir(dir, 0700) != 0) {
		snprintf(t->note, sizeof(t->note), "cannot create the tracing "
			 "instance %s: %s", dir, strerror(errno));
		r->instance[0] = '\0';
		return false;
	}
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	return true;
}

static bool enable_cpuhp_events(struct hotplug_tracing *t)
{
	int rc = write_file(t->dir, "events/cpuhp/enable", "1");

	if (rc == -ENOENT) {
		snprintf(t->note, sizeof(t->note), "the kernel has no cpuhp "
			 "trace events (no events/cpuhp in tracefs)");
		return false;
	}
	if (rc) {
		snprintf(t->note, sizeof(t->note), "cannot enable the cpuhp "
			 "events: %s", strerror(-rc));
		return false;
	}
	return write_file(t->dir, "tracing_on", "1") == 0;
}

void hotplug_tracing_setup(struct hotplug_tracing *t, struct hotplug_restore *r,
			   const char *mountpoint)
{
	memset(t, 0, sizeof(*t));
	if (!mount_tracefs(t, r, mountpoint) || !make_instance(t, r) ||
	    !enable_cpuhp_events(t))
		return;
	/* "mono" orders events of different CPUs; "local" may not. */
	if (write_file(t->dir, "trace_clock", "mono") == 0)
		snprintf(t->note, sizeof(t->note), "cpuhp events in tracefs "
			 "instance %s, clock mono", t->dir);
	else
		snprintf(t->note, sizeof(t->note), "cpuhp events in tracefs "
			 "instance %s, clock local (mono unavailable)", t->dir);
	t->active = true;
}

int hotplug_trace_clear(const struct hotplug_tracing *t)
{
	return write_file(t->dir, "trace", "");
}

char *hotplug_trace_read(const struct hotplug_tracing *t)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/trace", t->dir);
	return read_text_file(path, TRACE_MAX);
}

/* ---- restoring ------------------------------------------------------ */

static int restore_cpu(struct hotplug_restore *r)
{
	int online = hotplug_read_online(r->root, r->cpu), fd, rc;

	if (online == 1 || r->cpu < 0)
		return 0;
	fd = hotplug_open_online(r->root, r->cpu);
	rc = fd < 0 ? fd : hotplug_write_online(fd, true);
	if (fd >= 0)
		close(fd);
	if (rc) {
		error_msg("CPU %d is offline and cannot be brought back online: %s",
			  r->cpu, strerror(-rc));
		return -1;
	}
	warn_msg("CPU %d was left offline: brought it back online", r->cpu);
	return 0;
}

static int remove_instance(struct hotplug_restore *r)
{
	if (!r->instance[0])
		return 0;
	write_file(r->instance, "events/cpuhp/enable", "0");
	write_file(r->instance, "tracing_on", "0");
	/* EBUSY while a reader still holds a file of it: wait a little. */
	for (int tries = 0; rmdir(r->instance) != 0; tries++) {
		if (errno == ENOENT)
			break;
		if (errno != EBUSY || tries == 50) {
			error_msg("cannot remove the tracing instance %s: %m "
				  "(its cpuhp events are off)", r->instance);
			return -1;
		}
		sleep_s(0.1);
	}
	r->instance[0] = '\0';
	return 0;
}

static int unmount_tracefs(struct hotplug_restore *r)
{
	if (!r->mounted_tracefs)
		return 0;
	for (int tries = 0; umount(r->mountpoint) != 0; tries++) {
		if (errno == EINVAL)	/* no longer mounted */
			break;
		if (errno != EBUSY || tries == 50) {
			error_msg("cannot unmount tracefs at %s: %m", r->mountpoint);
			return -1;
		}
		sleep_s(0.1);
	}
	r->mounted_tracefs = false;
	return 0;
}

int hotplug_restore(struct hotplug_restore *r)
{
	int rc = 0;

	rc |= restore_cpu(r);
	rc |= remove_instance(r);
	rc |= unmount_tracefs(r);
	return rc ? -1 : 0;
}

/* ---- the supervisor ------------------------------------------------- */

volatile sig_atomic_t hotplug_stop_signal;
static volatile pid_t supervised_child;

static void request_stop(int sig)
{
	hotplug_stop_signal = sig;
}

static void forward_signal(int sig)
{
	if (supervised_child > 0)
		kill(supervised_child, sig);
}

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void block_forwarded(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded_signals); i++)
		sigaddset(&set, forwarded_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void install_handler(void (*handler)(int))
{
	struct sigaction sa;

	/* No SA_RESTART: a pause between transitions ends at once. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	for (size_t i = 0; i < ARRAY_SIZE(forwarded_signals); i++)
		sigaction(forwarded_signals[i], &sa, NULL);
}

static void write_pidfile(const char *pidfile, pid_t pid)
{
	FILE *f;

	if (!pidfile)
		return;
	f = fopen(pidfile, "we");
	if (!f || fprintf(f, "%d\n", (int)pid) < 0)
		warn_msg("cannot write the pid file %s: %m", pidfile);
	if (f)
		fclose(f);
}

static _noreturn_ void run_child(int (*measure)(void *ctx), void *ctx,
				 pid_t parent, const sigset_t *old)
{
	int status;

	/* Orphaned, stop cleanly: the CPU goes back online before exit. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	install_handler(request_stop);
	if (getppid() != parent)
		hotplug_stop_signal = SIGTERM;
	sigprocmask(SIG_SETMASK, old, NULL);
	status = measure(ctx);
	fflush(NULL);
	_exit(status);
}

static int child_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	error_msg("the measuring process was killed by signal %d (%s)",
		  WTERMSIG(status), strsignal(WTERMSIG(status)));
	return 128 + WTERMSIG(status);
}

int hotplug_supervise(struct hotplug_restore *r, int (*measure)(void *ctx),
		      void *ctx, const char *pidfile)
{
	pid_t parent = getpid(), pid;
	sigset_t old;
	int status, rc;

	fflush(NULL);
	block_forwarded(&old);
	pid = fork();
	if (pid < 0) {
		error_msg("cannot fork the measuring process: %m");
		sigprocmask(SIG_SETMASK, &old, NULL);
		hotplug_restore(r);
		return 1;
	}
	if (pid == 0)
		run_child(measure, ctx, parent, &old);

	supervised_child = pid;
	install_handler(forward_signal);
	sigprocmask(SIG_SETMASK, &old, NULL);
	write_pidfile(pidfile, pid);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			error_msg("cannot wait for the measuring process: %m");
			status = 1 << 8;
			break;
		}
	}
	supervised_child = 0;
	rc = child_status(status);
	if (hotplug_restore(r) != 0)
		return 1;
	return rc;
}
