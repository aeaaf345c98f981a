/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The core-speed reference: a chain of dependent instructions whose latency
 * in core cycles is documented for the architecture. Timed with the
 * architecture's counter (TSC, CNTVCT, ...), which runs at a fixed rate, it
 * tells how many counter ticks a core cycle lasts right now: the core's
 * speed, without a PMU. A batch timed in ticks beside it converts to core
 * cycles, a figure that does not move when the core's frequency does.
 *
 * Each instruction needs the result of the one before, so the chain runs at
 * the instruction's latency whatever the core's width; the loop around it
 * runs in parallel on other ports. The chains:
 *
 *   x86-64, i386  imul reg, reg   3 cycles  Intel since Nehalem, AMD since
 *                                           Zen (the vendors' optimisation
 *                                           manuals); checked here against
 *                                           a 1-cycle add chain (ratio 3.00)
 *   aarch64, arm  add reg, reg    1 cycle   Arm Cortex-A and Neoverse
 *                                           software optimisation guides
 *   riscv64       add reg, reg    1 cycle   SiFive U7, T-Head C9xx manuals
 *   ppc64         add reg, reg    2 cycles  POWER9 (GCC's power9 model);
 *                                           POWER10 not checked
 *
 * Only the x86 figure was validated on hardware by clockbench (bench/
 * reference-check); the others are the documentation's. A wrong latency
 * scales every core-cycle figure of a machine by one factor, which cancels
 * in every comparison made on that machine.
 */
#ifndef CLOCKBENCH_REFERENCE_H
#define CLOCKBENCH_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

struct reference_info {
	const char *insn;	/* "imul r64, r64" */
	double cycles_per_op;	/* latency of one instruction of the chain */
	const char *source;	/* where that latency comes from */
	bool validated;		/* checked on hardware (bench/reference-check) */
};

/* The chain of this build's architecture. */
const struct reference_info *reference_info(void);

/* The chain's unroll factor: lengths are multiples of it. */
#define REFERENCE_UNROLL 8

/* Run ops instructions of the chain (rounded down to the unroll). */
uint64_t reference_chain(unsigned long ops);

/*
 * A chain of dependent register adds, 1 cycle each on every core the
 * references above name: the yardstick bench/reference-check holds the
 * reference against.
 */
uint64_t reference_add_chain(unsigned long ops);

#endif
