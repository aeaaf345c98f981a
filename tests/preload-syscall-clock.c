// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for clockbench doctor: preloaded with LD_PRELOAD, it replaces
 * the C library's clock_gettime() with the raw system call, as a libc
 * without vDSO support (or a careless interposer) would. doctor must then
 * report the libc path as entering the kernel and exit 3.
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int clock_gettime(clockid_t id, struct timespec *ts)
{
	return (int)syscall(SYS_clock_gettime, id, ts);
}
