// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/timesys.h"

#include <sys/syscall.h>

/* Every time system call this architecture has, by name. */
static const struct {
	long nr;
	const char *name;
} time_syscalls[] = {
	{ SYS_clock_gettime, "clock_gettime" },
	{ SYS_clock_getres, "clock_getres" },
#ifdef SYS_clock_gettime64
	{ SYS_clock_gettime64, "clock_gettime64" },
#endif
#ifdef SYS_clock_getres_time64
	{ SYS_clock_getres_time64, "clock_getres_time64" },
#endif
#ifdef SYS_gettimeofday
	{ SYS_gettimeofday, "gettimeofday" },
#endif
#ifdef SYS_time
	{ SYS_time, "time" },
#endif
	{ SYS_getcpu, "getcpu" },
	{ SYS_getrandom, "getrandom" },
	{ SYS_times, "times" },
	{ SYS_getrusage, "getrusage" },
};

#define N_TIME_SYSCALLS (sizeof(time_syscalls) / sizeof(time_syscalls[0]))

const char *timesys_name(long nr)
{
	for (size_t i = 0; i < N_TIME_SYSCALLS; i++) {
		if (time_syscalls[i].nr == nr)
			return time_syscalls[i].name;
	}
	return NULL;
}

#define CALLS(...)							\
	{ .nr = (const long[]){ __VA_ARGS__ },				\
	  .n = sizeof((const long[]){ __VA_ARGS__ }) / sizeof(long) }

/*
 * Each API's own system call, then those a C library may build it on
 * instead: musl's gettimeofday calls clock_gettime; glibc's time()
 * without a vDSO time() reads CLOCK_REALTIME_COARSE; a 64-bit time_t on a
 * 32-bit architecture tries clock_gettime64 first. CATALOG_NO_SYSCALL
 * (a call this architecture lacks) is skipped.
 */
static const struct {
	const long *nr;
	size_t n;
} api_calls[API_COUNT] = {
	[API_CLOCK_GETTIME] = CALLS(SYS_clock_gettime, TIMESYS_CLOCK_GETTIME64),
	[API_CLOCK_GETRES] = CALLS(SYS_clock_getres, TIMESYS_CLOCK_GETRES_TIME64),
	[API_GETTIMEOFDAY] = CALLS(TIMESYS_GETTIMEOFDAY, SYS_clock_gettime,
				   TIMESYS_CLOCK_GETTIME64),
	[API_TIME] = CALLS(TIMESYS_TIME, TIMESYS_GETTIMEOFDAY, SYS_clock_gettime,
			   TIMESYS_CLOCK_GETTIME64),
	[API_GETCPU] = CALLS(SYS_getcpu),
	[API_GETRANDOM] = CALLS(SYS_getrandom),
	[API_TIMES] = CALLS(SYS_times),
	[API_GETRUSAGE] = CALLS(SYS_getrusage),
#if CATALOG_TIME64
	[API_CLOCK_GETTIME64] = CALLS(SYS_clock_gettime64),
	[API_CLOCK_GETRES64] = CALLS(SYS_clock_getres_time64),
#endif
};

size_t timesys_for_api(enum api api, long *nrs, size_t max)
{
	size_t n = 0;

	if (api < 0 || api >= API_COUNT)
		return 0;
	for (size_t i = 0; i < api_calls[api].n && n < max; i++)
		if (api_calls[api].nr[i] != CATALOG_NO_SYSCALL)
			nrs[n++] = api_calls[api].nr[i];
	return n;
}
