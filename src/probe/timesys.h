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

#include "probe/catalog.h"

/* Fill nrs (room for max) with the API's system calls; returns how many. */
size_t timesys_for_api(enum api api, long *nrs, size_t max);

/* "clock_gettime" for a time system call's number, NULL for others. */
const char *timesys_name(long nr);

#endif
