// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for clockbench verify: preloaded with LD_PRELOAD, it makes the
 * C library's clock_gettime(CLOCK_MONOTONIC_RAW) return the same time on
 * every call, as a libfaketime-style interposer that stops a clock does;
 * every other clock goes to libc (with CLOCKBENCH_FREEZE_ALL set, every
 * clock stands still). verify's own deadlines and reference reads must not
 * read the clock through libc, or its checks never end, or fail on paths
 * that are not libc's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	void *p = ts;

	/* glibc declares ts nonnull: hide it from the compiler to test it. */
	__asm__("" : "+r"(p));
	if ((id == CLOCK_MONOTONIC_RAW || getenv("CLOCKBENCH_FREEZE_ALL")) && p) {
		ts->tv_sec = 1000;
		ts->tv_nsec = 0;
		return 0;
	}
	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
								    "clock_gettime");
	return real(id, ts);
}
