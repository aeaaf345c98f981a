// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/cycles.h"

#include <errno.h>
#include <stdbool.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "basic/stats.h"
#include "basic/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/*
 * The architecture counters. Each read is ordered after the preceding
 * instructions so that a batch's end is not read before the batch ran.
 */
#if defined(__x86_64__) || defined(__i386__)
#define HAVE_ARCH_COUNTER 1
#define ARCH_COUNTER "TSC"
static inline uint64_t arch_counter_read(void)
{
#ifdef __x86_64__
	/* lfence: rdtsc waits for the batch's instructions (SSE2 on x86_64). */
	__asm__ __volatile__("lfence" ::: "memory");
#endif
	return __rdtsc();
}
#elif defined(__aarch64__)
#define HAVE_ARCH_COUNTER 1
#define ARCH_COUNTER "CNTVCT"
static inline uint64_t arch_counter_read(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
#elif defined(__powerpc__) || defined(__powerpc64__)
#define HAVE_ARCH_COUNTER 1
#define ARCH_COUNTER "timebase"
static inline uint64_t arch_counter_read(void)
{
	return __builtin_ppc_get_timebase();
}
#elif defined(__riscv) && __riscv_xlen == 64
#define HAVE_ARCH_COUNTER 1
#define ARCH_COUNTER "rdtime"
static inline uint64_t arch_counter_read(void)
{
	uint64_t v;

	__asm__ __volatile__("rdtime %0" : "=r"(v) : : "memory");
	return v;
}
#elif defined(__s390x__)
#define HAVE_ARCH_COUNTER 1
#define ARCH_COUNTER "STCKF"
/* The TOD clock: bit 51 is one microsecond, so 4096 ticks per us. STCKF
 * (store clock fast) skips STCK's uniqueness guarantee, which costs. */
static inline uint64_t arch_counter_read(void)
{
	uint64_t v;

	__asm__ __volatile__("stckf %0" : "=Q"(v) : : "cc", "memory");
	return v;
}
#else
/* No counter user space can rely on (e.g. 32-bit arm: CNTVCT may trap). */
#define ARCH_COUNTER NULL
static inline uint64_t arch_counter_read(void)
{
	return 0;
}
#endif

const char *cycles_arch_counter_name(void)
{
	return ARCH_COUNTER;
}

uint64_t cycles_arch_read(void)
{
	return arch_counter_read();
}

const char *cycles_arch_unit(void)
{
#ifdef HAVE_ARCH_COUNTER
	return ARCH_COUNTER " ticks";
#else
	return NULL;
#endif
}

/* Pairs of reads for a counter's step, a few milliseconds at most. */
#define STEP_PAIRS 2048
/* The reads of a pair are 0 to STEP_GAPS - 1 loop turns apart. */
#define STEP_GAPS 64

static uint64_t clock_read(void)
{
	return now_ns();
}

/*
 * Reads back to back are as far apart as one read costs, and that is one
 * lattice point or two; a gap that varies from pair to pair puts the
 * differences on many points, whose spacing is the step.
 */
static double step_of(uint64_t (*read)(void))
{
	_cleanup_free_ double *d = xmalloc(STEP_PAIRS * sizeof(*d));

	for (size_t i = 0; i < STEP_PAIRS; i++) {
		uint64_t a = read();

		for (volatile unsigned k = 0; k < i % STEP_GAPS; k++)
			;
		d[i] = (double)(read() - a);
	}
	return stats_counter_step(d, STEP_PAIRS);
}

double cycles_arch_step(void)
{
	return cycles_arch_unit() ? step_of(arch_counter_read) : 1;
}

double cycles_clock_step_ns(void)
{
	return step_of(clock_read);
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* Cycles of this thread, kernel included when allowed (syscalls cost there). */
static int open_perf_cycles(struct cycle_counter *cc)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_hv = 1;
	fd = perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		snprintf(cc->note, sizeof(cc->note),
			 "perf_event_open(cycles): %s", strerror(errno));
		return -1;
	}
	cc->perf_fd = fd;
	cc->source = CYCLES_PERF;
	cc->unit = "cycles";
	snprintf(cc->note, sizeof(cc->note), "perf_event_open(cycles%s)",
		 attr.exclude_kernel ? ", user only: perf_event_paranoid" : "");
	/* The mmap'd page lets x86 read the counter with rdpmc, no syscall. */
	cc->perf_page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
			     MAP_SHARED, fd, 0);
	if (cc->perf_page == MAP_FAILED)
		cc->perf_page = NULL;
	return 0;
}

static int open_arch_counter(struct cycle_counter *cc)
{
#ifdef HAVE_ARCH_COUNTER
	cc->source = CYCLES_ARCH;
	cc->unit = ARCH_COUNTER " ticks";
	return 0;
#else
	(void)cc;
	return -1;
#endif
}

int cycles_open(struct cycle_counter *cc, enum cycle_request req)
{
	char perf_note[sizeof(cc->note)] = "";

	memset(cc, 0, sizeof(*cc));
	cc->perf_fd = -1;
	cc->source = CYCLES_NONE;
	cc->unit = "none";

	if (req == CYCLES_REQ_AUTO || req == CYCLES_REQ_PERF) {
		if (open_perf_cycles(cc) == 0)
			return 0;
		if (req == CYCLES_REQ_PERF)
			return -1;
		snprintf(perf_note, sizeof(perf_note), "%s", cc->note);
	}
	if (req == CYCLES_REQ_AUTO || req == CYCLES_REQ_ARCH) {
		if (open_arch_counter(cc) == 0) {
			snprintf(cc->note, sizeof(cc->note), "%s read in user space%s%s",
				 cycles_arch_counter_name(),
				 *perf_note ? "; no PMU: " : "", perf_note);
			return 0;
		}
		snprintf(cc->note, sizeof(cc->note),
			 "no user-space cycle counter on this architecture");
		if (req == CYCLES_REQ_ARCH)
			return -1;
		return 0;
	}
	snprintf(cc->note, sizeof(cc->note), "cycles not requested");
	return 0;
}

void cycles_close(struct cycle_counter *cc)
{
	if (cc->perf_page)
		munmap(cc->perf_page, (size_t)sysconf(_SC_PAGESIZE));
	if (cc->perf_fd >= 0)
		close(cc->perf_fd);
	cc->perf_page = NULL;
	cc->perf_fd = -1;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * rdpmc through the perf mmap page, under its sequence lock. Returns false
 * when user-space reads are not allowed right now (index 0).
 */
static bool read_perf_rdpmc(const struct perf_event_mmap_page *pc,
			    uint64_t *value)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return false;
		count = (uint64_t)__rdpmc((int)idx - 1);
		/* Sign-extend from the counter width, then add the offset. */
		count <<= 64 - pc->pmc_width;
		count = (uint64_t)((int64_t)count >> (64 - pc->pmc_width));
		count += (uint64_t)pc->offset;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) != seq);
	*value = count;
	return true;
}
#else
static bool read_perf_rdpmc(const struct perf_event_mmap_page *pc,
			    uint64_t *value)
{
	(void)pc;
	(void)value;
	return false;
}
#endif

static uint64_t read_perf(const struct cycle_counter *cc)
{
	uint64_t v = 0;

	if (cc->perf_page && read_perf_rdpmc(cc->perf_page, &v))
		return v;
	if (read(cc->perf_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

uint64_t cycles_read(const struct cycle_counter *cc)
{
	switch (cc->source) {
	case CYCLES_PERF:
		return read_perf(cc);
	case CYCLES_ARCH:
		return arch_counter_read();
	case CYCLES_NONE:
		break;
	}
	return 0;
}
