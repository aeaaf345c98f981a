// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for clockbench verify: preloaded with LD_PRELOAD, it makes the
 * C library's clock_gettime(CLOCK_MONOTONIC_RAW) return the same time on
 * every call, as a libfaketime-style interposer that stops a clock does;
 * every other clock goes to libc (with CLOCKBENCH_FREEZE_ALL set, every
 * clock stands still). verify's own deadlines and reference reads must not
 * read the clock through libc, or its checks never end, or fail on paths
 * that are not libc's.
 *
 * Each clock stops at 1000 s, or, with CLOCKBENCH_FREEZE_AHEAD_S=N, at its
 * first reading plus N seconds: a clock stopped in its own future, whatever
 * the machine's uptime. With CLOCKBENCH_SLEEP_FOREVER set, libc's
 * clock_nanosleep() and nanosleep() wait for a signal however short the
 * sleep asked; with CLOCKBENCH_SLEEP_THROUGH_SIGNALS set, they sleep on
 * after a signal until the whole time has passed, and succeed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int (*real)(clockid_t, struct timespec *);

/* Where clock id stands still: 1000 s, or ahead of its first reading. */
static struct timespec stopped_at(clockid_t id)
{
	static struct timespec at[16];
	const char *ahead = getenv("CLOCKBENCH_FREEZE_AHEAD_S");
	struct timespec ts = { 1000, 0 };

	if (!ahead || id < 0 || id >= 16)
		return ts;
	if (!at[id].tv_sec && real(id, &at[id]) == 0)
		at[id].tv_sec += atol(ahead);
	return at[id];
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	void *p = ts;

	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
								    "clock_gettime");
	/* glibc declares ts nonnull: hide it from the compiler to test it. */
	__asm__("" : "+r"(p));
	if ((id == CLOCK_MONOTONIC_RAW || getenv("CLOCKBENCH_FREEZE_ALL")) && p) {
		*ts = stopped_at(id);
		return 0;
	}
	return real(id, ts);
}

int clock_nanosleep(clockid_t id, int flags, const struct timespec *t,
		    struct timespec *rem)
{
	static int (*real_sleep)(clockid_t, int, const struct timespec *,
				 struct timespec *);

	if (getenv("CLOCKBENCH_SLEEP_FOREVER")) {
		pause();
		return EINTR;
	}
	if (!real_sleep)
		real_sleep = (int (*)(clockid_t, int, const struct timespec *,
				      struct timespec *))dlsym(RTLD_NEXT, "clock_nanosleep");
	if (getenv("CLOCKBENCH_SLEEP_THROUGH_SIGNALS") && !(flags & TIMER_ABSTIME)) {
		struct timespec left = *t;
		int e;

		while ((e = real_sleep(id, 0, &left, &left)) == EINTR)
			;
		return e;
	}
	return real_sleep(id, flags, t, rem);
}

int nanosleep(const struct timespec *t, struct timespec *rem)
{
	int e = clock_nanosleep(CLOCK_MONOTONIC, 0, t, rem);

	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}
