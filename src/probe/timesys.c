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

static void add(long *nrs, size_t max, size_t *n, long nr)
{
	if (*n < max)
		nrs[(*n)++] = nr;
}

/* clock_gettime and, where the ABI has it, its 64-bit time variant. */
static void add_clock_gettime(long *nrs, size_t max, size_t *n)
{
	add(nrs, max, n, SYS_clock_gettime);
#ifdef SYS_clock_gettime64
	add(nrs, max, n, SYS_clock_gettime64);
#endif
}

static void add_gettimeofday(long *nrs, size_t max, size_t *n)
{
#ifdef SYS_gettimeofday
	add(nrs, max, n, SYS_gettimeofday);
#endif
	add_clock_gettime(nrs, max, n);
}

size_t timesys_for_api(enum api api, long *nrs, size_t max)
{
	size_t n = 0;

	switch (api) {
	case API_CLOCK_GETTIME:
		add_clock_gettime(nrs, max, &n);
		break;
	case API_CLOCK_GETRES:
		add(nrs, max, &n, SYS_clock_getres);
#ifdef SYS_clock_getres_time64
		add(nrs, max, &n, SYS_clock_getres_time64);
#endif
		break;
	case API_GETTIMEOFDAY:
		add_gettimeofday(nrs, max, &n);
		break;
	case API_TIME:
#ifdef SYS_time
		add(nrs, max, &n, SYS_time);
#endif
		add_gettimeofday(nrs, max, &n);
		break;
	case API_GETCPU:
		add(nrs, max, &n, SYS_getcpu);
		break;
	case API_GETRANDOM:
		add(nrs, max, &n, SYS_getrandom);
		break;
	case API_TIMES:
		add(nrs, max, &n, SYS_times);
		break;
	case API_GETRUSAGE:
		add(nrs, max, &n, SYS_getrusage);
		break;
#if CATALOG_TIME64
	case API_CLOCK_GETTIME64:
		add(nrs, max, &n, SYS_clock_gettime64);
		break;
	case API_CLOCK_GETRES64:
		add(nrs, max, &n, SYS_clock_getres_time64);
		break;
#endif
	default:
		break;
	}
	return n;
}
