// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench-static-probe: a statically linked helper of clockbench doctor.
 * A static binary carries its own copy of the C library, which may or may
 * not look up the vDSO; this helper asks that copy. Installed next to the
 * clockbench binary; doctor runs it and reads its output:
 *
 *   libc NAME VERSION
 *   vdso yes|no                  (AT_SYSINFO_EHDR in the auxiliary vector)
 *   NAME VERDICT NS SYSCALLS     (one line per call; SYSCALLS "-" if none)
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/time.h>
#include <time.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "probe/seccomp.h"
#include "probe/timesys.h"

#define PROBE_CALLS 64
#define BATCH_CALLS 1000
#define BATCHES 21

typedef void (*call_fn)(void);

static void call_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
}

static void call_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
}

static void call_monotonic_coarse(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
}

static void call_gettimeofday(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
}

static void call_time(void)
{
	(void)time(NULL);
}

static const struct {
	const char *name;
	enum api api;
	call_fn call;
} calls[] = {
	{ "clock-gettime-monotonic", API_CLOCK_GETTIME, call_monotonic },
	{ "clock-gettime-realtime", API_CLOCK_GETTIME, call_realtime },
	{ "clock-gettime-monotonic-coarse", API_CLOCK_GETTIME, call_monotonic_coarse },
	{ "gettimeofday", API_GETTIMEOFDAY, call_gettimeofday },
	{ "time", API_TIME, call_time },
};

static int run_calls(void *ctx)
{
	call_fn call = *(call_fn *)ctx;

	for (int i = 0; i < PROBE_CALLS; i++)
		call();
	return 0;
}

static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e9 + (double)(b->tv_nsec - a->tv_nsec);
}

/* The fastest of a few batches: enough to tell 25 ns from a microsecond. */
static double ns_per_call(call_fn call)
{
	double best = -1;

	for (int b = 0; b < BATCHES; b++) {
		struct timespec t0, t1;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int i = 0; i < BATCH_CALLS; i++)
			call();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns = elapsed_ns(&t0, &t1) / BATCH_CALLS;
		if (best < 0 || ns < best)
			best = ns;
	}
	return best;
}

static void print_attempts(const long *nrs, size_t n, const struct seccomp_report *rep)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const char *name = timesys_name(nrs[i]);

		if (!rep->hits[i])
			continue;
		printf("%s%s", any ? "," : "", name ? name : "other");
		any = true;
	}
	if (rep->foreign) {
		printf("%sforeign-abi", any ? "," : "");
		any = true;
	}
	if (!any)
		printf("-");
}

static int probe_call(size_t k)
{
	long nrs[SECCOMP_PROBE_MAX];
	call_fn call = calls[k].call;
	struct seccomp_probe probe = {
		.syscalls = nrs,
		.prepare = run_calls,
		.fn = run_calls,
		.ctx = &call,
	};
	struct seccomp_report rep;

	probe.nsyscalls = timesys_for_api(calls[k].api, nrs, SECCOMP_PROBE_MAX);
	if (seccomp_probe_run(&probe, &rep) != 0) {
		fprintf(stderr, "clockbench-static-probe: %s: %s\n", calls[k].name,
			rep.error);
		return -1;
	}
	printf("%s %s %.2f ", calls[k].name, rep.total ? "kernel" : "userspace",
	       ns_per_call(call));
	print_attempts(nrs, probe.nsyscalls, &rep);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: clockbench-static-probe (run by clockbench doctor)\n");
		return 2;
	}
#ifdef __GLIBC__
	printf("libc glibc %s\n", gnu_get_libc_version());
#else
	printf("libc unknown\n");
#endif
	printf("vdso %s\n", getauxval(AT_SYSINFO_EHDR) ? "yes" : "no");
	for (size_t k = 0; k < sizeof(calls) / sizeof(calls[0]); k++) {
		if (probe_call(k) != 0)
			rc = 1;
	}
	return rc;
}
