// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The getcpu check: pinned to each CPU of the affinity mask in turn, every
 * path (vDSO, libc's getcpu and sched_getcpu, the raw syscall, and x86's
 * legacy vsyscall page where it is mapped) reports that CPU and the node
 * sysfs gives it.
 */
#include "verify/verify.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <string.h>

/* Reads per path and CPU: a stale per-CPU value would show on a later one. */
#define GETCPU_READS 100

/* The NUMA node sysfs shows under cpuN ("node0"), or -1. */
static int sysfs_node(int cpu)
{
	char path[64];
	struct dirent *e;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "node%d", &node) == 1)
			break;
	closedir(d);
	return node;
}

#if defined(__x86_64__)
/* The vsyscall page's getcpu, when the kernel maps the page. */
typedef long (*vsyscall_getcpu_fn)(unsigned *, unsigned *, void *);
#define VSYSCALL_GETCPU 0xffffffffff600800UL

static bool vsyscall_mapped(void)
{
	_cleanup_free_ char *maps = read_text_file("/proc/self/maps", 1 << 22);

	return maps && strstr(maps, "[vsyscall]");
}
#endif

struct cpu_report {
	char text[512];
	size_t used;
	bool ok;
};

static void report_add(struct cpu_report *r, const char *fmt, ...) _printf_(2, 3);
static void report_add(struct cpu_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->used >= sizeof(r->text))
		return;
	va_start(ap, fmt);
	r->used += (size_t)vsnprintf(r->text + r->used, sizeof(r->text) - r->used,
				     fmt, ap);
	va_end(ap);
}

/* Judge one path's answers against the CPU and node it must report. */
static void judge_reads(struct verify *v, struct cpu_report *rep, const char *label,
			int cpu, int node, int (*read)(const struct verify *, enum path,
						       unsigned *, unsigned *),
			enum path p)
{
	for (int i = 0; i < GETCPU_READS; i++) {
		unsigned c = ~0u, n = ~0u;
		int e = read(v, p, &c, &n);

		if (e) {
			vdiag(v, "%s failed: %s", label, errno_name(e));
			rep->ok = false;
			return;
		}
		if ((int)c != cpu || (node >= 0 && (int)n != node)) {
			vdiag(v, "%s reported cpu %u node %u, expected cpu %d node %d",
			      label, c, n, cpu, node);
			rep->ok = false;
			return;
		}
		if (i == 0 && n != ~0u)
			report_add(rep, "%s%s cpu %u node %u", rep->used ? ", " : "",
				   label, c, n);
		else if (i == 0)
			report_add(rep, "%s%s cpu %u", rep->used ? ", " : "", label, c);
	}
}

static int read_path(const struct verify *v, enum path p, unsigned *cpu,
		     unsigned *node)
{
	struct vres r = vcall_getcpu(v, p, cpu, node, NULL);

	return r.failed ? (r.err ? r.err : EIO) : 0;
}

static int read_sched_getcpu(const struct verify *v, enum path p, unsigned *cpu,
			     unsigned *node)
{
	int c = sched_getcpu();

	(void)v;
	(void)p;
	if (c < 0)
		return errno;
	*cpu = (unsigned)c;
	*node = ~0u;
	return 0;
}

#if defined(__x86_64__)
static int read_vsyscall(const struct verify *v, enum path p, unsigned *cpu,
			 unsigned *node)
{
	long ret = ((vsyscall_getcpu_fn)VSYSCALL_GETCPU)(cpu, node, NULL);

	(void)v;
	(void)p;
	return ret ? (int)-ret : 0;
}
#endif

static void cpu_point(struct verify *v, int cpu)
{
	struct cpu_report rep = { .ok = true };
	unsigned sys_cpu, sys_node;
	int node = sysfs_node(cpu);
	cpu_set_t one;
	const char *why;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0) {
		if (verify_cpu_went_offline(cpu, errno))
			vskip(v, "CPU %d was offline when the check pinned to it "
			      "(CPU hotplug since the run started)", cpu);
		else
			verror(v, "cannot pin to CPU %d: %s", cpu, errno_name(errno));
		return;
	}
	/* Without sysfs, the nodes must at least agree with the syscall's. */
	if (node < 0 && read_path(v, PATH_SYSCALL, &sys_cpu, &sys_node) == 0)
		node = (int)sys_node;
	for (int p = 0; p < PATH_COUNT; p++) {
		if (!verify_path_by_design(API_GETCPU, p))
			continue;
		if ((why = verify_path_missing(v, API_GETCPU, p))) {
			vdiag(v, "%s: not checked: %s", catalog_paths[p], why);
			continue;
		}
		judge_reads(v, &rep, catalog_paths[p], cpu, node, read_path, p);
	}
	/* sched_getcpu reports no node; glibc serves it from rseq. */
	judge_reads(v, &rep, "sched_getcpu", cpu, -1, read_sched_getcpu, PATH_LIBC);
#if defined(__x86_64__)
	if (vsyscall_mapped())
		judge_reads(v, &rep, "vsyscall", cpu, node, read_vsyscall, PATH_VDSO);
	else
		vdiag(v, "vsyscall: no [vsyscall] page in this process");
#endif
	if (rep.ok)
		vpass(v, "%s", rep.text);
	else
		vfail(v, "a path did not report CPU %d node %d", cpu, node);
}

void verify_getcpu(struct verify *v)
{
	bool pinned = false;

	if (v->cpus_error) {
		if (vpoint(v, VT_NONE, "getcpu/affinity"))
			verror(v, "sched_getaffinity: %s", errno_name(v->cpus_error));
		return;
	}
	/* Every CPU of the mask, whatever gaps it has. */
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &v->cpus) || !vpoint(v, VT_NONE, "getcpu/cpu%d", cpu))
			continue;
		pinned = true;
		cpu_point(v, cpu);
	}
	if (pinned)
		sched_setaffinity(0, sizeof(v->cpus), &v->cpus);
}
