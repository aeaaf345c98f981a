// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU hotplug on the machine: which CPUs can be cycled, the writes to
 * cpuN/online, and the guard items that put the CPU, the tracing instance
 * and tracefs's mount back, whichever process of a run dies.
 */
#include "scenario/hotplug.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/guard.h"

#define TRACEFS_MAGIC 0x74726163

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

enum hotplug_verdict hotplug_check_cpu(const char *root, int cpu, struct strbuf *why)
{
	char path[PATH_MAX], present[256] = "";
	int count, online;

	snprintf(path, sizeof(path), "%s/present", root);
	read_line_file(path, present, sizeof(present));
	if (cpu < 0 || !cpu_in_list(root, "present", cpu, &count)) {
		strbuf_setf(why, "no such CPU %d (present: %s)", cpu,
			    *present ? present : "unknown");
		return HOTPLUG_NO_SUCH_CPU;
	}
	online_path(root, cpu, path, sizeof(path));
	if (access(path, F_OK) != 0) {
		strbuf_setf(why, "CPU %d is not hot-pluggable (no %s)", cpu, path);
		return HOTPLUG_NOT_HOTPLUGGABLE;
	}
	online = hotplug_read_online(root, cpu);
	if (online != 1) {
		strbuf_setf(why, "CPU %d is offline; bring it online first "
			    "(echo 1 > %s)", cpu, path);
		return HOTPLUG_OFFLINE;
	}
	if (!cpu_in_list(root, "online", cpu, &count) || count < 2) {
		strbuf_setf(why, "CPU %d is the last online CPU", cpu);
		return HOTPLUG_LAST_ONLINE;
	}
	strbuf_setf(why, "CPU %d can be taken offline", cpu);
	return HOTPLUG_USABLE;
}

int hotplug_default_cpu(const char *root)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char path[PATH_MAX], list[4096];
	bool has;
	int count;

	snprintf(path, sizeof(path), "%s/present", root);
	if (!read_line_file(path, list, sizeof(list)) ||
	    !cpulist_parse(list, 0, &has, &count))
		return -1;
	for (int cpu = 4095; cpu >= 0; cpu--)
		if (cpulist_parse(list, cpu, &has, &count) && has &&
		    hotplug_check_cpu(root, cpu, &why) == HOTPLUG_USABLE)
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

/* ---- the guard's restore steps: system calls only ------------------- */

#define DEBUGFS_MAGIC 0x64626720

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Best effort: removing the instance undoes it too. 0 or -1. */
static int write_zero(const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, "0", 1);
	close(fd);
	return n == 1 ? 0 : -1;
}

/* The instance gone: 0 when it was, 1 when removed here, -1 (errno). */
static int remove_instance(void *arg)
{
	const struct hotplug_guard *hg = arg;
	struct stat st;

	if (stat(hg->instance, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	/* Off first: should it stay, at least it records nothing. */
	write_zero(hg->cpuhp_enable);
	write_zero(hg->tracing_on);
	/* EBUSY while a reader still holds one of its files: wait a little. */
	for (int tries = 0; rmdir(hg->instance) != 0; tries++) {
		if (errno == ENOENT)
			break;
		if (errno != EBUSY || tries == 50)
			return -1;
		pause_ms(100);
	}
	return 1;
}

static bool mounted_at(const struct hotplug_mount *m)
{
	struct statfs sf;

	return statfs(m->path, &sf) == 0 && sf.f_type == m->magic;
}

/* What the run mounted, unmounted: 0 when nothing was, 1, or -1 (errno). */
static int unmount_ours(void *arg)
{
	const struct hotplug_guard *hg = arg;
	int rc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hg->mounts); i++) {
		const struct hotplug_mount *m = &hg->mounts[i];

		if (!m->path || m->was_mounted || !mounted_at(m))
			continue;
		/* Lazily: debugfs holds tracefs's automount below it. */
		if (umount2(m->path, MNT_DETACH) != 0)
			return -1;
		rc = 1;
	}
	return rc;
}

/* ---- recording ------------------------------------------------------ */

static void plan_mounts(struct hotplug_guard *hg)
{
	hg->mounts[0] = (struct hotplug_mount){ HOTPLUG_TRACEFS, TRACEFS_MAGIC, false };
	/* libtracefs mounts debugfs when it cannot mount tracefs. */
	hg->mounts[1] = (struct hotplug_mount){ "/sys/kernel/debug", DEBUGFS_MAGIC, false };
	hg->mounts[1].was_mounted = mounted_at(&hg->mounts[1]);
}

int hotplug_guard_add(struct guard *g, struct hotplug_guard *hg, const char *root,
		      int cpu, const char *tracing_dir, bool mounted, const char *name,
		      struct strbuf *err)
{
	char path[PATH_MAX], what[96];

	memset(hg, 0, sizeof(*hg));
	online_path(root, cpu, path, sizeof(path));
	snprintf(what, sizeof(what), "cpu%d/online", cpu);
	if (guard_add_file(g, path, what, err) != 0)
		return -1;
	if (!tracing_dir)
		return 0;
	snprintf(hg->instance, sizeof(hg->instance), "%s/instances/%s", tracing_dir,
		 name);
	snprintf(hg->tracing_on, sizeof(hg->tracing_on), "%s/tracing_on", hg->instance);
	snprintf(hg->cpuhp_enable, sizeof(hg->cpuhp_enable), "%s/events/cpuhp/enable",
		 hg->instance);
	snprintf(what, sizeof(what), "no tracing instance %s", name);
	if (guard_add_action(g, what, remove_instance, hg, err) != 0)
		return -1;
	if (mounted)
		return 0;
	plan_mounts(hg);
	return guard_add_action(g, "tracefs not mounted", unmount_ours, hg, err);
}
