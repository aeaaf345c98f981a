// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/timing.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "basic/util.h"
#include "probe/reference.h"

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
		.steady_window_s = 0.01,
		.steady_tol = 0.02,
		.steady_need = 2,
		.steady_max_s = 0.5,
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
	cfg->steady_max_s = 0.1;
}

const char *core_source_name(enum core_source s)
{
	switch (s) {
	case CORE_NONE: return "none";
	case CORE_REFERENCE: return "reference";
	case CORE_PERF: return "perf";
	}
	return "?";
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
	uint64_t base;		/* in the reference's time base */
};

/* The reference's time base: the architecture's counter, else the clock. */
static inline uint64_t base_read(bool arch)
{
	return arch ? cycles_arch_read() : now_ns();
}

static bool base_is_arch(const struct cycle_counter *cc)
{
	return cycles_arch_unit() && cc->source != CYCLES_NONE;
}

/*
 * One timed batch. The clock is read outside the cycle counter so that the
 * counter brackets only the calls; both boundaries are calibrated away.
 * With the PMU as counter the time base is read as well, for the reference.
 */
static inline struct batch run_batch(const struct cell *c,
				     const struct cycle_counter *cc,
				     unsigned long n)
{
	bool perf = cc->source == CYCLES_PERF;
	uint64_t t0, t1, c0, c1, a0 = 0, a1 = 0;

	t0 = now_ns();
	if (perf)
		a0 = base_read(cycles_arch_unit() != NULL);
	c0 = cycles_read(cc);
	c->loop(c, n);
	c1 = cycles_read(cc);
	if (perf)
		a1 = base_read(cycles_arch_unit() != NULL);
	t1 = now_ns();
	return (struct batch){ t1 - t0, c1 - c0,
		perf ? a1 - a0 : cc->source == CYCLES_ARCH ? c1 - c0 : t1 - t0 };
}

/*
 * Keep the chain from starting before the first read has completed: the
 * reads order only what comes before them, and a chain overlapping a
 * counter read of some 30 cycles would look a few percent short.
 */
static inline void start_fence(void)
{
#if defined(__x86_64__)
	__asm__ __volatile__("lfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("isb" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* One reading of the reference, in time-base units. */
static inline double read_reference(bool arch, unsigned long ops)
{
	uint64_t b0 = base_read(arch);

	start_fence();
	reference_chain(ops);
	return (double)(base_read(arch) - b0);
}

static double median_of(double *x, size_t n)
{
	stats_sort(x, n);
	return stats_quantile_sorted(x, n, 0.5);
}

/*
 * The mean of the values within [lo, hi] times their median. A counter that
 * ticks in steps (AMD's TSC: 26 ticks, 10 ns) makes a median jump from
 * step to step; the mean of many readings is not quantised, and the band
 * keeps a preempted reading out.
 */
static double band_mean(const double *x, size_t n, double lo, double hi,
			double *scratch)
{
	double med, sum = 0;
	size_t kept = 0;

	if (!n)
		return NAN;
	memcpy(scratch, x, n * sizeof(double));
	med = median_of(scratch, n);
	for (size_t i = 0; i < n; i++)
		if (x[i] >= lo * med && x[i] <= hi * med) {
			sum += x[i];
			kept++;
		}
	return kept ? sum / (double)kept : med;
}

/* The median's neighbourhood: quantisation, never preemption. */
#define BOUNDARY_BAND_LO 0.25
#define BOUNDARY_BAND_HI 4.0

static void calibrate_boundary(const struct cycle_counter *cc,
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

/*
 * How long a reading lasts: REF_READING_NS, or REF_MIN_STEPS of the time
 * base's steps when that is longer. base_per_ns is a first estimate.
 */
static double reading_ns(const struct timing_calibration *cal, double base_per_ns)
{
	double step_ns = timing_base_step(cal) / (base_per_ns > 0 ? base_per_ns : 1);

	return fmax(REF_READING_NS, REF_MIN_STEPS * step_ns);
}

/* Instructions for a reading of about want_ns. */
static unsigned long choose_ref_ops(double want_ns)
{
	enum { PROBE_OPS = 1024 };
	uint64_t best = UINT64_MAX;
	unsigned long ops;

	for (int i = 0; i < 5; i++) {
		uint64_t t0 = now_ns(), t;

		reference_chain(PROBE_OPS);
		t = now_ns() - t0;
		if (t < best)
			best = t;
	}
	if (!best)
		best = 1;
	ops = (unsigned long)(want_ns * PROBE_OPS / (double)best);
	ops -= ops % REFERENCE_UNROLL;
	return ops < 8 * REFERENCE_UNROLL ? 8 * REFERENCE_UNROLL : ops;
}

/* The PMU's cycles per instruction of the chain: is the latency right? */
static double pmu_op_cycles(const struct cycle_counter *cc, unsigned long ops)
{
	enum { N = 101 };
	double d[N];

	for (size_t i = 0; i < N; i++) {
		uint64_t c0 = cycles_read(cc), c1, c2;

		reference_chain(0);
		c1 = cycles_read(cc);
		reference_chain(ops);
		c2 = cycles_read(cc);
		d[i] = ((double)(c2 - c1) - (double)(c1 - c0)) / (double)ops;
	}
	return median_of(d, N);
}

/*
 * Alternate empty readings E, full readings T and empty batches B. The
 * clock reads cost core cycles like any instruction, so a reading lasts
 * speed * (ops * latency + its boundary in core cycles): T - E gives the
 * speed, E and B over the speed the boundaries in core cycles.
 */
static void calibrate_reference(const struct cycle_counter *cc,
				struct timing_calibration *cal, uint64_t t0,
				uint64_t b0)
{
	enum { N = 501 };
	const struct reference_info *ri = reference_info();
	bool arch = base_is_arch(cc);
	double *e = xmalloc(N * sizeof(double)), *b = xmalloc(N * sizeof(double));
	double *k = xmalloc(N * sizeof(double)), *scratch = xmalloc(N * sizeof(double));
	struct cell empty;
	double speed;

	catalog_overhead_cell(&empty);
	cal->ref_ops = choose_ref_ops(reading_ns(cal, arch ?
		(double)(base_read(arch) - b0) / (double)(now_ns() - t0) : 1.0));
	cal->ref_op_cycles = ri->cycles_per_op;
	for (size_t i = 0; i < N; i++) {
		e[i] = read_reference(arch, 0);
		k[i] = (read_reference(arch, cal->ref_ops) - e[i]) /
		       ((double)cal->ref_ops * cal->ref_op_cycles);
		b[i] = (double)run_batch(&empty, cc, 0).base;
	}
	speed = band_mean(k, N, 1 - REF_BAND, 1 + REF_BAND, scratch);
	cal->ref_boundary_core = band_mean(e, N, BOUNDARY_BAND_LO,
					   BOUNDARY_BAND_HI, scratch) / speed;
	cal->batch_boundary_core = band_mean(b, N, BOUNDARY_BAND_LO,
					     BOUNDARY_BAND_HI, scratch) / speed;
	cal->base_per_ns = arch ? (double)(base_read(arch) - b0) /
				  (double)(now_ns() - t0) : 1.0;
	cal->ghz = cal->base_per_ns / speed;
	cal->pmu_op_cycles = cc->source == CYCLES_PERF ?
			     pmu_op_cycles(cc, cal->ref_ops) : NAN;
	cal->core_source = cc->source == CYCLES_PERF ? CORE_PERF : CORE_REFERENCE;
	free(e);
	free(b);
	free(k);
	free(scratch);
}

void timing_calibrate(const struct cycle_counter *cc,
		      struct timing_calibration *cal)
{
	bool arch = base_is_arch(cc);
	uint64_t t0 = now_ns(), b0 = base_read(arch);

	memset(cal, 0, sizeof(*cal));
	cal->base_arch = arch;
	cal->base_unit = arch ? cycles_arch_unit() : "ns";
	cal->arch_step = cycles_arch_step();
	cal->clock_step_ns = cycles_clock_step_ns();
	calibrate_boundary(cc, cal);
	calibrate_reference(cc, cal, t0, b0);
}

double timing_base_step(const struct timing_calibration *cal)
{
	return cal->base_arch ? cal->arch_step : cal->clock_step_ns;
}

void timing_config_fit_resolution(struct timing_config *cfg,
				  const struct timing_calibration *cal)
{
	double want = cfg->rel_ci > 0 ?
		      BATCH_STEPS_PER_PRECISION * cal->clock_step_ns / cfg->rel_ci : 0;
	double reading = cal->ghz > 0 ? timing_reading_core(cal) / cal->ghz : 0;

	want = fmin(fmax(want, BATCH_PER_READING * reading), BATCH_MAX_NS);
	if (want > cfg->target_batch_ns)
		cfg->target_batch_ns = want;
}

void timing_calibrate_batches(const struct cycle_counter *cc,
			      struct timing_calibration *cal,
			      struct timing_config *cfg)
{
	timing_calibrate(cc, cal);
	timing_config_fit_resolution(cfg, cal);
}

/* ---- core cycles: the pure parts ------------------------------------ */

double timing_reading_core(const struct timing_calibration *cal)
{
	return (double)cal->ref_ops * cal->ref_op_cycles + cal->ref_boundary_core;
}

double timing_reading_speed(const struct timing_calibration *cal, double reading)
{
	return reading / timing_reading_core(cal);
}

double timing_speed_beside(const double *speeds, size_t n, size_t i)
{
	double scratch[2 * REF_HALF_WINDOW + 1];
	size_t lo = i > REF_HALF_WINDOW ? i - REF_HALF_WINDOW : 0;
	size_t hi = i + REF_HALF_WINDOW + 1 < n ? i + REF_HALF_WINDOW + 1 : n;

	if (i >= n)
		return NAN;
	return band_mean(speeds + lo, hi - lo, 1 - REF_BAND, 1 + REF_BAND, scratch);
}

double timing_core_per_call(const struct timing_calibration *cal, double base,
			    double speed, unsigned long calls)
{
	double core = (base / speed - cal->batch_boundary_core) / (double)calls;

	return core > 0 ? core : 0;
}

double timing_derive_round(const struct timing_calibration *cal,
			   unsigned long calls, const double *readings,
			   const double *bases, size_t n, double *core)
{
	double *speeds = xmalloc((n ? n : 1) * sizeof(double));
	double *scratch = xmalloc((n ? n : 1) * sizeof(double));
	double round_speed;

	for (size_t i = 0; i < n; i++)
		speeds[i] = timing_reading_speed(cal, readings[i]);
	for (size_t i = 0; i < n; i++)
		core[i] = timing_core_per_call(cal, bases[i],
					       timing_speed_beside(speeds, n, i), calls);
	round_speed = band_mean(speeds, n, 1 - REF_BAND, 1 + REF_BAND, scratch);
	free(speeds);
	free(scratch);
	return n && round_speed > 0 ? cal->base_per_ns / round_speed : NAN;
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

/* The summary of a copy of x, its interval widened by resolution. */
static void summarize_copy(const double *x, size_t n, double resolution,
			   struct summary *s)
{
	double *scratch = xmalloc((n ? n : 1) * sizeof(double));

	memcpy(scratch, x, n * sizeof(double));
	stats_summarize_quantised(scratch, n, resolution, s);
	free(scratch);
}

/* Keep one batch's per-call figures; the arrays grow together. */
static void record_batch(struct cell_result *r, struct batch b,
			 const struct timing_calibration *cal, bool with_cycles)
{
	double calls = (double)r->batch_calls;
	double ns = ((double)b.ns - cal->boundary_ns) / calls;
	double cyc = ((double)b.cycles - cal->boundary_cycles) / calls;
	bool with_core = cal->core_source != CORE_NONE;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->ns = xrealloc(r->ns, r->cap * sizeof(double));
		r->rounds = xrealloc(r->rounds, r->cap * sizeof(uint32_t));
		if (with_cycles)
			r->cycles = xrealloc(r->cycles, r->cap * sizeof(double));
		if (with_core)
			r->core = xrealloc(r->core, r->cap * sizeof(double));
		if (cal->core_source == CORE_PERF)
			r->core_est = xrealloc(r->core_est, r->cap * sizeof(double));
		if (cal->core_source == CORE_REFERENCE)
			r->readings = xrealloc(r->readings, r->cap * sizeof(double));
	}
	if (with_cycles)
		r->cycles[r->n] = cyc < 0 ? 0 : cyc;
	r->rounds[r->n] = r->nrounds;
	r->ns[r->n++] = ns < 0 ? 0 : ns;
}

/* A round's reference readings and batch durations, in the time base. */
struct pairs {
	double *readings, *bases;
	size_t n, cap;
};

static void pairs_add(struct pairs *p, double reading, double base)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->readings = xrealloc(p->readings, p->cap * sizeof(double));
		p->bases = xrealloc(p->bases, p->cap * sizeof(double));
	}
	p->readings[p->n] = reading;
	p->bases[p->n++] = base;
}

static void pairs_free(struct pairs *p)
{
	free(p->readings);
	free(p->bases);
	memset(p, 0, sizeof(*p));
}

double timing_round_core(const struct timing_calibration *cal, unsigned long calls,
			 const double *readings, const double *bases,
			 const double *pmu, size_t n, double *core, double *est)
{
	bool perf = cal->core_source == CORE_PERF;
	double ghz = timing_derive_round(cal, calls, readings, bases, n,
					 perf ? est : core);

	if (perf && n)
		memcpy(core, pmu, n * sizeof(double));
	return ghz;
}

double timing_reference_vs_pmu_pct(const struct cell_result *r)
{
	double *ratio, med;
	size_t m = 0;

	if (!r->core_est || !r->core || !r->n)
		return NAN;
	ratio = xmalloc(r->n * sizeof(double));
	for (size_t i = 0; i < r->n; i++)
		if (r->core[i] > 0)
			ratio[m++] = r->core_est[i] / r->core[i];
	med = m ? median_of(ratio, m) : NAN;
	free(ratio);
	return 100 * (med - 1);
}

/* The core cycles of the round's batches (from first on) and its speed. */
static void derive_core(struct cell_result *r, size_t first,
			const struct timing_calibration *cal, const struct pairs *p)
{
	r->round_ghz = xrealloc(r->round_ghz, (r->nrounds + 1) * sizeof(double));
	r->round_ghz[r->nrounds] =
		timing_round_core(cal, r->batch_calls, p->readings, p->bases,
				  r->cycles ? r->cycles + first : NULL, p->n,
				  r->core + first, r->core_est ? r->core_est + first : NULL);
	if (r->readings)
		memcpy(r->readings + first, p->readings, p->n * sizeof(double));
}

void timing_prepare(const struct cell *c, const struct cycle_counter *cc,
		    const struct timing_config *cfg, struct cell_result *r)
{
	uint64_t start = now_ns();

	r->batch_calls = choose_batch_calls(c, cc, cfg->target_batch_ns);
	r->elapsed_s += (double)(now_ns() - start) / 1e9;
}

/*
 * What a batch's per-call figures can tell apart (see struct cell_result):
 * a step of the clock, of the cycle counter (a PMU counts single cycles),
 * and for core cycles the same step at the core's speed, over the batch's
 * calls, and the share of a reading of the reference a step is. The time
 * base and the clock step together (10 ns here), so the clock's step is
 * used for both, which is also what a stored run keeps
 * (results/resolution.h gives the same figures from it).
 */
static void set_resolutions(struct cell_result *r, const struct cycle_counter *cc,
			    const struct timing_calibration *cal)
{
	double calls = (double)r->batch_calls;

	r->ns_resolution = cal->clock_step_ns / calls;
	r->cycles_resolution = (cc->source == CYCLES_ARCH ? cal->arch_step : 1) / calls;
	r->core_resolution = 0;
	r->reading_resolution = 0;
	if (cal->core_source == CORE_PERF) {
		r->core_resolution = 1 / calls;
	} else if (cal->core_source == CORE_REFERENCE && cal->ghz > 0) {
		r->core_resolution = cal->clock_step_ns * cal->ghz / calls;
		r->reading_resolution = cal->clock_step_ns * cal->ghz /
					timing_reading_core(cal);
	}
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
	bool with_core = cal->core_source != CORE_NONE;
	uint64_t start = now_ns(), budget_ns, min_ns;
	size_t first = r->n, min_samples, next_check;
	double *scratch = NULL;
	size_t scratch_cap = 0;
	struct pairs pairs = { 0 };

	set_resolutions(r, cc, cal);
	warm_up(c, cc, r->batch_calls, share(cfg->warmup_s, cfg->rounds));
	budget_ns = (uint64_t)(share(cfg->budget_s, cfg->rounds) * 1e9);
	min_ns = (uint64_t)(share(cfg->min_time_s, cfg->rounds) * 1e9);
	min_samples = (size_t)share((double)cfg->min_samples, cfg->rounds) + 1;
	next_check = first + min_samples;
	for (;;) {
		double reading = with_core ? read_reference(cal->base_arch, cal->ref_ops) : 0;
		struct batch b = run_batch(c, cc, r->batch_calls);
		uint64_t elapsed;

		record_batch(r, b, cal, with_cycles);
		if (with_core)
			pairs_add(&pairs, reading, (double)b.base);
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
	if (with_core)
		derive_core(r, first, cal, &pairs);
	pairs_free(&pairs);
	r->nrounds++;
	r->elapsed_s += (double)(now_ns() - start) / 1e9;
}

/*
 * The resolution of a batch's core cycles: a step of the batch, and the
 * error a reading's step makes in the speed, that share of the figure.
 */
static double core_resolution(const struct cell_result *r)
{
	struct summary plain;

	summarize_copy(r->core, r->n, 0, &plain);
	return r->core_resolution + r->reading_resolution * fabs(plain.median);
}

void timing_summarize(struct cell_result *r)
{
	summarize_copy(r->ns, r->n, r->ns_resolution, &r->ns_sum);
	if (r->cycles)
		summarize_copy(r->cycles, r->n, r->cycles_resolution, &r->cycles_sum);
	if (r->core)
		summarize_copy(r->core, r->n, r->n ? core_resolution(r) : 0,
			       &r->core_sum);
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

int timing_measure_like(const struct cell *c, const struct cycle_counter *cc,
			const struct timing_config *cfg,
			const struct timing_calibration *cal,
			const struct cell_result *like, struct cell_result *r)
{
	memset(r, 0, sizeof(*r));
	r->batch_calls = like->batch_calls;
	for (unsigned i = 0; i < (cfg->rounds ? cfg->rounds : 1); i++)
		timing_round(c, cc, cfg, cal, r);
	timing_summarize(r);
	return 0;
}

/* ---- warm-up to a steady state -------------------------------------- */

void steady_rule_init(struct steady_rule *s, double tol, unsigned need)
{
	*s = (struct steady_rule){ .tol = tol, .need = need ? need : 1 };
}

static bool within(double x, double prev, double tol)
{
	return prev > 0 && x > 0 && fabs(x / prev - 1) <= tol;
}

bool steady_rule_add(struct steady_rule *s, double ref, double cell)
{
	bool agree = within(ref, s->ref, s->tol) && within(cell, s->cell, s->tol);

	s->agreed = agree ? s->agreed + 1 : 0;
	s->ref = ref;
	s->cell = cell;
	return s->agreed >= s->need;
}

/* One window: the reference's speed (GHz) and the cell's median figure. */
static void warm_up_window(const struct cell *c, const struct cycle_counter *cc,
			   const struct timing_calibration *cal, unsigned long calls,
			   uint64_t window_ns, double *ghz, double *cell)
{
	bool with_core = cal->core_source != CORE_NONE;
	uint64_t end = now_ns() + window_ns;
	struct pairs p = { 0 };
	double *core;

	do {
		double reading = with_core ? read_reference(cal->base_arch, cal->ref_ops) : 0;
		struct batch b = run_batch(c, cc, calls);

		/* Without a reference the batch's ns stand in for the cell. */
		pairs_add(&p, reading, with_core ? (double)b.base :
			  (double)b.ns / (double)calls);
	} while (now_ns() < end);
	core = xmalloc(p.n * sizeof(double));
	if (with_core) {
		*ghz = timing_derive_round(cal, calls, p.readings, p.bases, p.n, core);
	} else {
		memcpy(core, p.bases, p.n * sizeof(double));
		*ghz = 1;
	}
	*cell = median_of(core, p.n);
	free(core);
	pairs_free(&p);
}

void timing_warm_up(const struct cell *c, const struct cycle_counter *cc,
		    const struct timing_config *cfg,
		    const struct timing_calibration *cal, struct warmup_report *w)
{
	uint64_t start = now_ns(), max_ns = (uint64_t)(cfg->steady_max_s * 1e9);
	uint64_t window_ns = (uint64_t)(cfg->steady_window_s * 1e9);
	unsigned long calls = choose_batch_calls(c, cc, cfg->target_batch_ns);
	struct steady_rule rule;

	memset(w, 0, sizeof(*w));
	snprintf(w->cell, sizeof(w->cell), "%s %s", c->name, catalog_paths[c->path]);
	w->window_s = cfg->steady_window_s;
	steady_rule_init(&rule, cfg->steady_tol, cfg->steady_need);
	do {
		double ghz, cell;

		warm_up_window(c, cc, cal, calls, window_ns, &ghz, &cell);
		if (!w->windows++) {
			w->first_ghz = ghz;
			w->first_cell = cell;
		}
		w->last_ghz = ghz;
		w->last_cell = cell;
		w->steady = steady_rule_add(&rule, ghz, cell);
	} while (!w->steady && now_ns() - start < max_ns);
	w->elapsed_s = (double)(now_ns() - start) / 1e9;
}

double *timing_round_medians_of(const struct cell_result *r, const double *v)
{
	double *med = xcalloc(r->nrounds ? r->nrounds : 1, sizeof(double));
	double *x = xmalloc((r->n ? r->n : 1) * sizeof(double));

	for (uint32_t k = 0; v && k < r->nrounds; k++) {
		size_t m = 0;

		for (size_t i = 0; i < r->n; i++)
			if (r->rounds[i] == k)
				x[m++] = v[i];
		stats_sort(x, m);
		med[k] = m ? stats_quantile_sorted(x, m, 0.5) : 0;
	}
	free(x);
	return med;
}

double *timing_round_medians(const struct cell_result *r)
{
	return timing_round_medians_of(r, r->ns);
}

void cell_result_free(struct cell_result *r)
{
	free(r->ns);
	free(r->cycles);
	free(r->core);
	free(r->core_est);
	free(r->readings);
	free(r->rounds);
	free(r->round_ghz);
	memset(r, 0, sizeof(*r));
}

double timing_reference_share_pct(const struct timing_calibration *cal,
				  const struct timing_config *cfg)
{
	double reading_ns = timing_reading_core(cal) / cal->ghz;

	return 100 * reading_ns / (reading_ns + cfg->target_batch_ns);
}
