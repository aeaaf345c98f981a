/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Did this code enter the kernel? Run a function in a forked child under a
 * seccomp filter that traps a given set of system calls, and report which of
 * them the function attempted.
 *
 * The filter uses SECCOMP_RET_TRAP: a trapped call is not executed; the
 * kernel sends SIGSYS, whose handler counts the call by number and makes it
 * fail with EPERM where the architecture's registers are known. Everything
 * else (write, mmap, exit_group, ...) is allowed, so the child can warm up,
 * report and exit normally. Installing a filter needs no privilege: the child
 * sets PR_SET_NO_NEW_PRIVS first.
 *
 * The module depends on the C library only, so that small static helpers can
 * link it on its own.
 */
#ifndef CLOCKBENCH_SECCOMP_H
#define CLOCKBENCH_SECCOMP_H

#include <stdbool.h>
#include <stddef.h>

/* The most system calls one probe can trap. */
#define SECCOMP_PROBE_MAX 16

typedef int (*seccomp_probe_fn)(void *ctx);

struct seccomp_probe {
	const long *syscalls;	/* numbers to trap, native ABI */
	size_t nsyscalls;	/* <= SECCOMP_PROBE_MAX */
	seccomp_probe_fn prepare;	/* runs before the filter (warm-up); may be NULL */
	seccomp_probe_fn fn;	/* runs under the filter */
	void *ctx;
	unsigned int timeout_s;	/* the child is killed after this; 0: 10 s */
};

struct seccomp_report {
	unsigned long hits[SECCOMP_PROBE_MAX];	/* attempts, per syscalls[i] */
	unsigned long foreign;	/* trapped calls made through another ABI */
	unsigned long total;	/* sum of the above */
	int fn_status;		/* fn's return value */
	char error[160];	/* why the probe could not run */
};

/*
 * Fork, install the filter in the child, run prepare then fn there.
 * Returns 0 when fn ran to completion (r says what it attempted), or -1 with
 * the reason in r->error: seccomp unavailable, the child died or timed out.
 */
int seccomp_probe_run(const struct seccomp_probe *p, struct seccomp_report *r);

/* Whether this build knows how to filter on this architecture. */
bool seccomp_probe_supported(void);

#endif
