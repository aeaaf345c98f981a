// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for clockbench verify: preloaded with LD_PRELOAD, it makes
 * every 1000th call of the C library's clock_gettime() return a time 2 ms
 * in the past, whatever the clock, the way a faulty interposer (or
 * libfaketime misconfigured) would. verify's libc path must see it, as a
 * program's calls do. Like a sanitizer's interceptor, it also stops a NULL
 * timespec (abort) before libc sees it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define EVERY 1000
#define BACK_NS 2000000L

static atomic_ulong calls;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	int rc;

	void *p = ts;

	/* glibc declares ts nonnull: hide it from the compiler to test it. */
	__asm__("" : "+r"(p));
	if (!p)
		abort();
	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
								    "clock_gettime");
	rc = real(id, ts);
	if (rc == 0 && atomic_fetch_add(&calls, 1) % EVERY == EVERY - 1) {
		ts->tv_nsec -= BACK_NS;
		if (ts->tv_nsec < 0) {
			ts->tv_nsec += 1000000000L;
			ts->tv_sec--;
		}
	}
	return rc;
}
