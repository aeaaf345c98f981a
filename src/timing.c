// SPDX-License-Identifier: GPL-2.0-or-later
#include "timing.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

void timing_config_default(struct timing_config *cfg)
{
	*cfg = (struct timing_config){
		.budget_s = 0.25,
		.min_time_s = 0.1,
		.warmup_s = 0.005,
		.target_batch_ns = 10000,
		.rel_ci = 0.01,
		.min_samples = 100,
		.max_samples = 1000000,
	};
}

void timing_config_quick(struct timing_config *cfg)
{
	timing_config_default(cfg);
	cfg->budget_s = 0.04;
	cfg->min_time_s = 0.005;
	cfg->warmup_s = 0.002;
	cfg->min_samples = 30;
}

void timing_spin(double seconds)
{
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);

	while (now_ns() < end)
		__asm__ __volatile__("" ::: "memory");
}

/* ---- CPU affinity --------------------------------------------------- */

int timing_pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int timing_default_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

/* "0-3,6": the mask as the kernel's cpulist format. */
static void format_cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int last = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 last > cpu ? "%s%d-%d" : "%s%d",
						 used ? "," : "", cpu, last);
		cpu = last;
	}
}

bool timing_cpu_allowed(int cpu, char *allowed, size_t len)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		snprintf(allowed, len, "unknown");
		return false;
	}
	format_cpu_list(&set, allowed, len);
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);
}

/* ---- batches -------------------------------------------------------- */

struct batch {
	uint64_t ns;
	uint64_t cycles;
};

/*
 * One timed batch. The clock is read outside the cycle counter so that the
 * counter brackets only the calls; both boundaries are calibrated away.
 */
static inline struct batch run_batch(const struct cell *c,
				     const struct cycle_counter *cc,
				     unsigned long n)
{
	uint64_t t0, t1, c0, c1;

	t0 = now_ns();
	c0 = cycles_read(cc);
	c->loop(c, n);
	c1 = cycles_read(cc);
	t1 = now_ns();
	return (struct batch){ t1 - t0, c1 - c0 };
}

static double median_of(double *x, size_t n)
{
	stats_sort(x, n);
	return stats_quantile_sorted(x, n, 0.5);
}

void timing_calibrate(const struct cycle_counter *cc,
		      struct timing_calibration *cal)
{
	enum { N = 2001 };
	struct cell empty;
	double *ns = xmalloc(N * sizeof(double));
	double *cyc = xmalloc(N * sizeof(double));

	catalog_overhead_cell(&empty);
	for (size_t i = 0; i < N; i++) {
		struct batch b = run_batch(&empty, cc, 0);

		ns[i] = (double)b.ns;
		cyc[i] = (double)b.cycles;
	}
	cal->boundary_ns = median_of(ns, N);
	cal->boundary_cycles = median_of(cyc, N);
	free(ns);
	free(cyc);
}

/* Fastest of a few batches: one preempted batch must not skew the sizing. */
static double fastest_batch_ns(const struct cell *c,
			       const struct cycle_counter *cc, unsigned long n)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		struct batch b = run_batch(c, cc, n);

		if (b.ns < best)
			best = b.ns;
	}
	return (double)best;
}

/*
 * Double the batch until it lasts at least a quarter of the target, then
 * scale it to the target. Rounds to the loop's unroll factor.
 */
static unsigned long choose_batch_calls(const struct cell *c,
					const struct cycle_counter *cc,
					double target_ns)
{
	unsigned long n = CELL_UNROLL;
	double per_call;

	for (;;) {
		double ns = fastest_batch_ns(c, cc, n);

		if (ns >= target_ns / 4 || n >= (1ul << 24)) {
			per_call = ns / (double)n;
			break;
		}
		n *= 2;
	}
	if (per_call <= 0)
		per_call = 0.1;
	n = (unsigned long)(target_ns / per_call);
	n -= n % CELL_UNROLL;
	return n < CELL_UNROLL ? CELL_UNROLL : n;
}

static void warm_up(const struct cell *c, const struct cycle_counter *cc,
		    unsigned long n, double seconds)
{
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);

	do
		run_batch(c, cc, n);
	while (now_ns() < end);
}

/* Is the median known to within rel of itself, with 95 % confidence? */
static bool median_converged(const double *samples, size_t n, double rel,
			     double *scratch)
{
	size_t lo, hi;
	double med, half;

	memcpy(scratch, samples, n * sizeof(double));
	stats_sort(scratch, n);
	med = stats_quantile_sorted(scratch, n, 0.5);
	stats_median_ci_ranks(n, 0.95, &lo, &hi);
	half = med - scratch[lo - 1];
	if (scratch[hi - 1] - med > half)
		half = scratch[hi - 1] - med;
	return med > 0 && half <= rel * med;
}

static void summarize_copy(const double *x, size_t n, double *scratch,
			   struct summary *s)
{
	memcpy(scratch, x, n * sizeof(double));
	stats_summarize(scratch, n, s);
}

/* Keep one batch's per-call figures; ns and cycles grow together. */
static void record_batch(struct cell_result *r, size_t *cap, struct batch b,
			 const struct timing_calibration *cal, bool with_cycles)
{
	double calls = (double)r->batch_calls;
	double ns = ((double)b.ns - cal->boundary_ns) / calls;
	double cyc = ((double)b.cycles - cal->boundary_cycles) / calls;

	if (r->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		r->ns = xrealloc(r->ns, *cap * sizeof(double));
		if (with_cycles)
			r->cycles = xrealloc(r->cycles, *cap * sizeof(double));
	}
	if (with_cycles)
		r->cycles[r->n] = cyc < 0 ? 0 : cyc;
	r->ns[r->n++] = ns < 0 ? 0 : ns;
}

int timing_measure(const struct cell *c, const struct cycle_counter *cc,
		   const struct timing_config *cfg,
		   const struct timing_calibration *cal, struct cell_result *r)
{
	bool with_cycles = cc->source != CYCLES_NONE;
	size_t cap = 0, next_check;
	uint64_t start, budget_ns, min_ns;
	double *scratch = NULL;
	size_t scratch_cap = 0;

	memset(r, 0, sizeof(*r));
	start = now_ns();
	r->batch_calls = choose_batch_calls(c, cc, cfg->target_batch_ns);
	warm_up(c, cc, r->batch_calls, cfg->warmup_s);

	budget_ns = (uint64_t)(cfg->budget_s * 1e9);
	min_ns = (uint64_t)(cfg->min_time_s * 1e9);
	next_check = cfg->min_samples;
	for (;;) {
		uint64_t elapsed;

		record_batch(r, &cap, run_batch(c, cc, r->batch_calls), cal,
			     with_cycles);
		elapsed = now_ns() - start;
		if (elapsed >= budget_ns || r->n >= cfg->max_samples)
			break;
		if (r->n < next_check || elapsed < min_ns)
			continue;
		/* Checking sorts the samples: do it at geometric steps. */
		grow_array((void **)&scratch, &scratch_cap, r->n, sizeof(double));
		if (median_converged(r->ns, r->n, cfg->rel_ci, scratch)) {
			r->converged = true;
			break;
		}
		next_check = r->n + r->n / 8 + 16;
	}
	r->elapsed_s = (double)(now_ns() - start) / 1e9;

	grow_array((void **)&scratch, &scratch_cap, r->n, sizeof(double));
	summarize_copy(r->ns, r->n, scratch, &r->ns_sum);
	if (with_cycles)
		summarize_copy(r->cycles, r->n, scratch, &r->cycles_sum);
	free(scratch);
	return 0;
}

void cell_result_free(struct cell_result *r)
{
	free(r->ns);
	free(r->cycles);
	r->ns = r->cycles = NULL;
	r->n = 0;
}
