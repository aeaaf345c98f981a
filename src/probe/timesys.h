/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system calls behind each time API: what a seccomp probe must trap to
 * see whether a call of the API entered the kernel, and their names.
 *
 * An API's set holds its own system call and those a C library may build it
 * on (musl's gettimeofday calls clock_gettime; glibc's time() without a vDSO
 * time() reads CLOCK_REALTIME_COARSE; 32-bit builds with a 64-bit time_t try
 * clock_gettime64 first), and nothing else: the probe must not trap what the
 * child needs to report back and exit.
 */
#ifndef CLOCKBENCH_TIMESYS_H
#define CLOCKBENCH_TIMESYS_H

#include <stddef.h>
#include <sys/syscall.h>

#include "probe/catalog.h"

/*
 * The time system calls only some architectures have, CATALOG_NO_SYSCALL
 * elsewhere: arm64, riscv64 and the other asm-generic ABIs have no time(2)
 * and their 32-bit ones no gettimeofday(2) (the C library builds those on
 * clock_gettime); only 32-bit architectures have the y2038 calls.
 */
#ifdef SYS_time
#define TIMESYS_TIME SYS_time
#else
#define TIMESYS_TIME CATALOG_NO_SYSCALL
#endif
#ifdef SYS_gettimeofday
#define TIMESYS_GETTIMEOFDAY SYS_gettimeofday
#else
#define TIMESYS_GETTIMEOFDAY CATALOG_NO_SYSCALL
#endif
#ifdef SYS_clock_gettime64
#define TIMESYS_CLOCK_GETTIME64 SYS_clock_gettime64
#define TIMESYS_CLOCK_GETRES_TIME64 SYS_clock_getres_time64
#else
#define TIMESYS_CLOCK_GETTIME64 CATALOG_NO_SYSCALL
#define TIMESYS_CLOCK_GETRES_TIME64 CATALOG_NO_SYSCALL
#endif

/*
 * Fill nrs (room for max) with the API's system calls; returns how many.
 * The sets are a table of their own, not the catalogue's rows, because
 * clockbench-static-probe links this file without the catalogue.
 */
size_t timesys_for_api(enum api api, long *nrs, size_t max);

/* "clock_gettime" for a time system call's number, NULL for others. */
const char *timesys_name(long nr);

#endif
