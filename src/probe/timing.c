// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/timing.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "basic/util.h"

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
		.rounds = 10,
	};
}

void timing_config_quick(struct timing_config *cfg)
{
	timing_config_default(cfg);
	cfg->budget_s = 0.04;
	cfg->min_time_s = 0.005;
	cfg->warmup_s = 0.002;
	cfg->min_samples = 30;
	cfg->rounds = 5;
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

static void summarize_copy(const double *x, size_t n, struct summary *s)
{
	double *scratch = xmalloc((n ? n : 1) * sizeof(double));

	memcpy(scratch, x, n * sizeof(double));
	stats_summarize(scratch, n, s);
	free(scratch);
}

/* Keep one batch's per-call figures; the arrays grow together. */
static void record_batch(struct cell_result *r, struct batch b,
			 const struct timing_calibration *cal, bool with_cycles)
{
	double calls = (double)r->batch_calls;
	double ns = ((double)b.ns - cal->boundary_ns) / calls;
	double cyc = ((double)b.cycles - cal->boundary_cycles) / calls;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->ns = xrealloc(r->ns, r->cap * sizeof(double));
		r->rounds = xrealloc(r->rounds, r->cap * sizeof(uint32_t));
		if (with_cycles)
			r->cycles = xrealloc(r->cycles, r->cap * sizeof(double));
	}
	if (with_cycles)
		r->cycles[r->n] = cyc < 0 ? 0 : cyc;
	r->rounds[r->n] = r->nrounds;
	r->ns[r->n++] = ns < 0 ? 0 : ns;
}

void timing_prepare(const struct cell *c, const struct cycle_counter *cc,
		    const struct timing_config *cfg, struct cell_result *r)
{
	uint64_t start = now_ns();

	r->batch_calls = choose_batch_calls(c, cc, cfg->target_batch_ns);
	r->elapsed_s += (double)(now_ns() - start) / 1e9;
}

/* A round's share of a per-cell figure. */
static double share(double whole, unsigned rounds)
{
	return whole / (rounds ? rounds : 1);
}

void timing_round(const struct cell *c, const struct cycle_counter *cc,
		  const struct timing_config *cfg,
		  const struct timing_calibration *cal, struct cell_result *r)
{
	bool with_cycles = cc->source != CYCLES_NONE;
	uint64_t start = now_ns(), budget_ns, min_ns;
	size_t first = r->n, min_samples, next_check;
	double *scratch = NULL;
	size_t scratch_cap = 0;

	warm_up(c, cc, r->batch_calls, share(cfg->warmup_s, cfg->rounds));
	budget_ns = (uint64_t)(share(cfg->budget_s, cfg->rounds) * 1e9);
	min_ns = (uint64_t)(share(cfg->min_time_s, cfg->rounds) * 1e9);
	min_samples = (size_t)share((double)cfg->min_samples, cfg->rounds) + 1;
	next_check = first + min_samples;
	for (;;) {
		uint64_t elapsed;

		record_batch(r, run_batch(c, cc, r->batch_calls), cal, with_cycles);
		elapsed = now_ns() - start;
		if (elapsed >= budget_ns || r->n >= cfg->max_samples)
			break;
		if (r->n < next_check || elapsed < min_ns)
			continue;
		/* Checking sorts every batch so far: do it at geometric steps. */
		grow_array((void **)&scratch, &scratch_cap, r->n, sizeof(double));
		if (median_converged(r->ns, r->n, cfg->rel_ci, scratch)) {
			r->converged = true;
			break;
		}
		next_check = r->n + (r->n - first) / 8 + 16;
	}
	free(scratch);
	r->nrounds++;
	r->elapsed_s += (double)(now_ns() - start) / 1e9;
}

void timing_summarize(struct cell_result *r)
{
	summarize_copy(r->ns, r->n, &r->ns_sum);
	if (r->cycles)
		summarize_copy(r->cycles, r->n, &r->cycles_sum);
}

int timing_measure(const struct cell *c, const struct cycle_counter *cc,
		   const struct timing_config *cfg,
		   const struct timing_calibration *cal, struct cell_result *r)
{
	memset(r, 0, sizeof(*r));
	timing_prepare(c, cc, cfg, r);
	for (unsigned i = 0; i < (cfg->rounds ? cfg->rounds : 1); i++)
		timing_round(c, cc, cfg, cal, r);
	timing_summarize(r);
	return 0;
}

double *timing_round_medians(const struct cell_result *r)
{
	double *med = xcalloc(r->nrounds ? r->nrounds : 1, sizeof(double));
	double *x = xmalloc((r->n ? r->n : 1) * sizeof(double));

	for (uint32_t k = 0; k < r->nrounds; k++) {
		size_t m = 0;

		for (size_t i = 0; i < r->n; i++)
			if (r->rounds[i] == k)
				x[m++] = r->ns[i];
		stats_sort(x, m);
		med[k] = m ? stats_quantile_sorted(x, m, 0.5) : 0;
	}
	free(x);
	return med;
}

void cell_result_free(struct cell_result *r)
{
	free(r->ns);
	free(r->cycles);
	free(r->rounds);
	memset(r, 0, sizeof(*r));
}
