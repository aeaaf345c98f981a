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
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* ---- while being migrated ----------------------------------------------------- */

/*
 * A reader thread calls getcpu over and over while the main thread moves
 * it from CPU to CPU with sched_setaffinity (which returns once the thread
 * is off the CPUs it may no longer use). A generation counter, odd while a
 * move is under way, brackets each read: a read with the same even
 * generation before and after it happened entirely while the thread was
 * pinned to one CPU, and must report that CPU. Every read must report a
 * CPU of the mask (vdsotest's getcpu verify, which moves itself).
 */
enum migrating_reader { MR_PATH, MR_SCHED_GETCPU };

struct migration {
	const struct verify *v;
	enum path path;
	enum migrating_reader how;
	atomic_int tid;
	atomic_ulong gen;		/* odd while the reader is being moved */
	atomic_int pinned_cpu;		/* valid while gen is even */
	atomic_ulong reads;
	atomic_bool stop;
	/* Written by the reader only, read after it is joined: */
	unsigned long judged, wrong;
	int first_wrong_cpu, first_want_cpu;
	unsigned long first_wrong_gen;
	int read_error;
	int outside_cpu;		/* a CPU outside the mask, or -1 */
	int unpinned_cpu;		/* a CPU hotplug broke the pinning to, or -1 */
};

static int migrating_read(const struct migration *m, unsigned *cpu)
{
	unsigned node;

	if (m->how == MR_SCHED_GETCPU) {
		int c = sched_getcpu();

		if (c < 0)
			return errno;
		*cpu = (unsigned)c;
		return 0;
	}
	return read_path(m->v, m->path, cpu, &node);
}

static void note_read(struct migration *m, unsigned long g1, unsigned long g2,
		      int want, unsigned cpu)
{
	if ((int)cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &m->v->cpus))
		m->outside_cpu = (int)cpu;
	if (g1 != g2 || (g1 & 1))
		return;
	m->judged++;
	if ((int)cpu == want)
		return;
	if (!m->wrong++) {
		m->first_wrong_cpu = (int)cpu;
		m->first_want_cpu = want;
		m->first_wrong_gen = g1;
	}
}

static void *migrating_reader_main(void *arg)
{
	struct migration *m = arg;

	atomic_store(&m->tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&m->stop)) {
		unsigned long g1 = atomic_load(&m->gen), g2;
		int want = atomic_load(&m->pinned_cpu);
		unsigned cpu = ~0u;
		int e = migrating_read(m, &cpu);

		g2 = atomic_load(&m->gen);
		if (e) {
			m->read_error = e;
			break;
		}
		note_read(m, g1, g2, want, cpu);
		atomic_fetch_add(&m->reads, 1);
	}
	return NULL;
}

/* Reads the reader makes on each CPU before it is moved on. */
#define READS_PER_STAY 200

/* Move the reader to cpu, then let it read there a while. */
static int move_reader(struct migration *m, int cpu, uint64_t deadline)
{
	cpu_set_t one;
	unsigned long start;

	/* Only this thread writes gen: odd from here until the move is done
	 * (and stays odd if it failed, so that no read is judged). */
	unsigned long moving = atomic_load(&m->gen) | 1;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	atomic_store(&m->gen, moving);
	if (sched_setaffinity(atomic_load(&m->tid), sizeof(one), &one) != 0)
		return errno;
	atomic_store(&m->pinned_cpu, cpu);
	atomic_store(&m->gen, moving + 1);
	start = atomic_load(&m->reads);
	while (atomic_load(&m->reads) - start < READS_PER_STAY && verify_now_ns() < deadline &&
	       !m->read_error)
		sched_yield();
	/* A CPU taken offline meanwhile makes the kernel move the thread
	 * elsewhere and widen its mask: then its reads prove nothing. */
	if (sched_getaffinity(atomic_load(&m->tid), sizeof(one), &one) == 0 &&
	    (CPU_COUNT(&one) != 1 || !CPU_ISSET(cpu, &one)))
		m->unpinned_cpu = cpu;
	return 0;
}

static unsigned long migrate_round_robin(struct verify *v, struct migration *m,
					 const int *cpus, size_t n, int *offline)
{
	uint64_t deadline = verify_now_ns() + (uint64_t)(vbudget(v) * 1e9);
	unsigned long moves = 0;

	*offline = -1;
	for (size_t i = 0; verify_now_ns() < deadline && !m->read_error; i = (i + 1) % n) {
		int e = move_reader(m, cpus[i], deadline);

		if (e && verify_cpu_went_offline(cpus[i], e))
			*offline = cpus[i];
		else if (!e)
			moves++;
	}
	return moves;
}

static void migrating_point(struct verify *v, enum path p, enum migrating_reader how)
{
	struct migration m = { .v = v, .path = p, .how = how, .outside_cpu = -1,
			       .unpinned_cpu = -1 };
	int cpus[CPU_SETSIZE], offline;
	char list[256];
	size_t n = verify_cpu_list(v, cpus, ARRAY_SIZE(cpus), list, sizeof(list));
	unsigned long moves;
	pthread_t tid;

	if (n < 2) {
		vskip(v, "needs two CPUs in the affinity mask (allowed: %s)", list);
		return;
	}
	atomic_init(&m.gen, 1);
	if (pthread_create(&tid, NULL, migrating_reader_main, &m) != 0) {
		verror(v, "cannot start the reader thread");
		return;
	}
	while (!atomic_load(&m.tid))
		sched_yield();
	moves = migrate_round_robin(v, &m, cpus, n, &offline);
	atomic_store(&m.stop, true);
	pthread_join(tid, NULL);
	if (m.read_error)
		vfail(v, "a read failed with %s", errno_name(m.read_error));
	else if ((m.wrong || m.outside_cpu >= 0) && m.unpinned_cpu >= 0)
		vskip(v, "CPU %d went offline during the check (CPU hotplug): the kernel "
		      "moved the reader off it", m.unpinned_cpu);
	else if (m.outside_cpu >= 0)
		vfail(v, "a read reported CPU %d, outside the affinity mask %s",
		      m.outside_cpu, list);
	else if (m.wrong)
		vfail(v, "%lu of %lu reads made while pinned reported another CPU: the "
		      "first said CPU %d while pinned to CPU %d (move %lu)", m.wrong,
		      m.judged, m.first_wrong_cpu, m.first_want_cpu, m.first_wrong_gen / 2);
	else if (!moves)
		vskip(v, "the reader could not be moved (CPU %d offline)", offline);
	else
		vpass(v, "%lu reads while the thread was moved %lu times round CPUs %s; "
		      "each of the %lu made between two moves reported the CPU it was "
		      "pinned to", (unsigned long)atomic_load(&m.reads), moves, list,
		      m.judged);
}

static void verify_getcpu_migrating(struct verify *v)
{
	for (int p = 0; p < PATH_COUNT; p++) {
		if (!verify_path_by_design(API_GETCPU, p) ||
		    !vpoint(v, VT_MIGRATE, "getcpu/migrating/%s", catalog_paths[p]))
			continue;
		if (verify_path_missing(v, API_GETCPU, p))
			vskip(v, "%s", verify_path_missing(v, API_GETCPU, p));
		else
			migrating_point(v, (enum path)p, MR_PATH);
	}
	if (vpoint(v, VT_MIGRATE, "getcpu/migrating/sched_getcpu"))
		migrating_point(v, PATH_LIBC, MR_SCHED_GETCPU);
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
	verify_getcpu_migrating(v);
}
