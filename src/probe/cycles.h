/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cycle counter: CPU cycles from perf_event_open when the machine has a PMU,
 * otherwise the architecture's free-running counter (TSC on x86, CNTVCT on
 * arm64, the timebase on powerpc, rdtime on riscv). The unit is always
 * named, because a TSC tick is not a core cycle.
 */
#ifndef CLOCKBENCH_CYCLES_H
#define CLOCKBENCH_CYCLES_H

#include <stdint.h>
#include <stddef.h>

enum cycle_source {
	CYCLES_PERF,	/* PERF_COUNT_HW_CPU_CYCLES */
	CYCLES_ARCH,	/* the architecture's counter */
	CYCLES_NONE,	/* nothing usable: cycles are not reported */
};

struct cycle_counter {
	enum cycle_source source;
	const char *unit;	/* "cycles", "TSC ticks", "CNTVCT ticks", ... */
	char note[160];		/* why this source: "perf_event_open: ENOENT ..." */
	int perf_fd;
	void *perf_page;	/* mmap'd perf_event_mmap_page for rdpmc, or NULL */
};

enum cycle_request {
	CYCLES_REQ_AUTO,	/* perf, then arch, then none */
	CYCLES_REQ_PERF,
	CYCLES_REQ_ARCH,
	CYCLES_REQ_NONE,
};

/*
 * Open the counter for the calling thread. Never fails: the worst outcome is
 * CYCLES_NONE with the reason in note. Returns -1 only when an explicit
 * request (PERF or ARCH) cannot be met, with the reason in note.
 */
int cycles_open(struct cycle_counter *cc, enum cycle_request req);
void cycles_close(struct cycle_counter *cc);

/* Current count; 0 for CYCLES_NONE. */
uint64_t cycles_read(const struct cycle_counter *cc);

/* Name of the architecture counter this build reads ("TSC", ...) or NULL. */
const char *cycles_arch_counter_name(void);

/*
 * The architecture's counter now, whatever source cc uses (0 when this
 * build has none): the fixed-rate time base the core-speed reference is
 * timed with, also when cycles come from the PMU.
 */
uint64_t cycles_arch_read(void);
/* Its unit, "TSC ticks", or NULL when this build has none. */
const char *cycles_arch_unit(void);

/*
 * The step the architecture's counter advances by, in its units: 1 on
 * most Intel machines, 24.5 ticks (10 ns) on an AMD EPYC guest, whose TSC
 * is the host's scaled. Found from pairs of reads taken a varying time
 * apart, the lattice their differences sit on (stats_counter_step()). 1
 * when this build has no counter.
 */
double cycles_arch_step(void);
/* The same of the clock batches are timed with (now_ns()), in ns. */
double cycles_clock_step_ns(void);

#endif
