// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tightloop: the plainest possible measurement of the vDSO's
 * clock_gettime, independent of clockbench's own code, to check the figure
 * clockbench reports. The vDSO is found through the dynamic loader
 * (dlopen("linux-vdso.so.1")), not clockbench's ELF parser; the loop is
 * timed as a whole with CLOCK_MONOTONIC_RAW.
 *
 * usage: tightloop [CLOCK_ID [CALLS [LOOPS]]]
 * Times LOOPS loops of CALLS calls each (default 2001 x 1000, about 25 us
 * per loop) and prints "median M mean A min N": the median loop's ns per
 * call, the ns per call over all loops together, and the fastest loop's.
 * The mean includes every interrupt and every moment the hypervisor took
 * the CPU; the median loop is one that nothing interrupted.
 */
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	clockid_t id = argc > 1 ? (clockid_t)atoi(argv[1]) : CLOCK_MONOTONIC;
	long calls = argc > 2 ? atol(argv[2]) : 1000;
	int repeats = argc > 3 ? atoi(argv[3]) : 2001;
	void *vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	clock_gettime_fn fn;
	double *per_call, total = 0;
	struct timespec ts;

	if (!vdso || calls <= 0 || repeats <= 0 || repeats > 100000) {
		fprintf(stderr, "tightloop: %s\n", vdso ? "bad arguments" : dlerror());
		return 1;
	}
	fn = (clock_gettime_fn)dlsym(vdso, "__vdso_clock_gettime");
	if (!fn)
		fn = (clock_gettime_fn)dlsym(vdso, "__kernel_clock_gettime");
	if (!fn) {
		fprintf(stderr, "tightloop: no clock_gettime in the vDSO\n");
		return 1;
	}
	per_call = calloc((size_t)repeats, sizeof(double));
	if (!per_call)
		return 1;
	for (long i = 0; i < calls; i++)	/* warm up */
		fn(id, &ts);
	for (int r = 0; r < repeats; r++) {
		double t0 = now();

		for (long i = 0; i < calls; i++)
			fn(id, &ts);
		per_call[r] = (now() - t0) / (double)calls;
		total += per_call[r];
	}
	qsort(per_call, (size_t)repeats, sizeof(double), cmp_double);
	printf("median %.3f mean %.3f min %.3f\n", per_call[repeats / 2],
	       total / repeats, per_call[0]);
	free(per_call);
	return 0;
}
