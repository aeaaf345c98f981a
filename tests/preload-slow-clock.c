// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test aid for compare: preloaded with LD_PRELOAD, it makes the C
 * library's clock_gettime() slower by a known amount, the way a careless
 * change to libc or an interposer would, while the vDSO and syscall paths
 * stay as they are. A comparison must then find the libc clock_gettime
 * cells slower and nothing else.
 *
 * The delay is a dependent chain after the real call, fed by its result.
 * Its length is calibrated
 * when the library is loaded: CLOCKBENCH_SLOWDOWN_PCT percent (default 4)
 * of the real clock_gettime(CLOCK_MONOTONIC) on this CPU, both timed in
 * the same moment so that a slow phase of the core slows both alike. The
 * same loop follows every clock, so the cheap coarse clocks slow by
 * several times that percentage. CLOCKBENCH_SLOWDOWN_VERBOSE=1 prints the
 * calibration to stderr.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime;
static unsigned long spin_iterations;

#define CALIBRATION_BATCHES 15
#define CALLS_PER_BATCH 2000
#define SPINS_PER_BATCH 100000

/*
 * A dependent chain that starts from the value the call returned, so that
 * it cannot run beside the call's own tail (out of order) and hide in it:
 * every iteration waits for the one before, and the first for the call.
 * The empty asm keeps the compiler from folding the chain.
 */
static void spin(long seed, unsigned long n)
{
	unsigned long x = (unsigned long)seed;

	for (unsigned long i = 0; i < n; i++) {
		x = x * 3 + 1;
		__asm__ __volatile__("" : "+r"(x));
	}
	__asm__ __volatile__("" : : "r"(x));
}

static uint64_t raw_ns(void)
{
	struct timespec ts;

	real_clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Median duration of a batch of calls (spin = 0) or of spin iterations. */
static double median_batch_ns(int spinning)
{
	uint64_t t[CALIBRATION_BATCHES];
	struct timespec ts;

	for (int b = 0; b < CALIBRATION_BATCHES; b++) {
		uint64_t t0 = raw_ns();

		if (spinning)
			spin(b, SPINS_PER_BATCH);
		else
			for (int i = 0; i < CALLS_PER_BATCH; i++)
				real_clock_gettime(CLOCK_MONOTONIC, &ts);
		t[b] = raw_ns() - t0;
	}
	qsort(t, CALIBRATION_BATCHES, sizeof(t[0]), cmp_u64);
	return (double)t[CALIBRATION_BATCHES / 2];
}

static double slowdown_pct(void)
{
	const char *s = getenv("CLOCKBENCH_SLOWDOWN_PCT");
	char *end;
	double pct;

	if (!s || !*s)
		return 4.0;
	pct = strtod(s, &end);
	return *end || !(pct >= 0 && pct <= 1000) ? 4.0 : pct;
}

__attribute__((constructor)) static void calibrate(void)
{
	double call_ns, spin_ns, pct = slowdown_pct();

	real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	if (!real_clock_gettime)
		abort();
	median_batch_ns(0);	/* warm up the core and the caches */
	call_ns = median_batch_ns(0) / CALLS_PER_BATCH;
	spin_ns = median_batch_ns(1) / SPINS_PER_BATCH;
	spin_iterations = spin_ns > 0 ? (unsigned long)lround(pct / 100 * call_ns / spin_ns) : 0;
	if (getenv("CLOCKBENCH_SLOWDOWN_VERBOSE"))
		fprintf(stderr, "preload-slow-clock: clock_gettime %.2f ns, spin "
			"%.3f ns per iteration, %lu iterations (+%.2f ns, %.1f%%)\n",
			call_ns, spin_ns, spin_iterations,
			(double)spin_iterations * spin_ns,
			100.0 * (double)spin_iterations * spin_ns / call_ns);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int rc = real_clock_gettime(id, ts);

	spin(ts->tv_nsec, spin_iterations);
	return rc;
}
