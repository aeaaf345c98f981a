// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for clockbench verify: preloaded with LD_PRELOAD, it rounds
 * the C library's clock_gettime(CLOCK_MONOTONIC) down to whole 10 us, a
 * clock that still reports a 1 ns resolution but moves in steps far coarser
 * than a read costs. verify's resolution/step message must say that the
 * step it saw is the clock's own, not the cost of a read.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <time.h>

#define STEP_NS 10000L

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	int rc;

	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
								    "clock_gettime");
	rc = real(id, ts);
	if (rc == 0 && id == CLOCK_MONOTONIC)
		ts->tv_nsec -= ts->tv_nsec % STEP_NS;
	return rc;
}
