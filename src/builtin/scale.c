// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench scale: how a time call's cost grows with the threads of the
 * process (seed 001, mmtests' poundtime). N threads share a fixed number of
 * calls; the wall time of the job, the CPU time per call and the user and
 * system time are reported for each N, over repetitions.
 */
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/catalog.h"
#include "cli/cell-filter.h"
#include "probe/cycles.h"
#include "probe/env.h"
#include "basic/progress.h"
#include "results/record.h"
#include "scenario/exec.h"
#include "scenario/scale-report.h"
#include "scenario/scale.h"
#include "probe/timing.h"
#include "basic/util.h"

#define DEFAULT_CALLS 5000000ull
#define DEFAULT_REPETITIONS 5

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static const struct command_usage scale_usage = {
	.name = "scale",
	.description =
	"N threads share a fixed number of calls of times() and\n"
	"clock_gettime(CLOCK_PROCESS_CPUTIME_ID), as mmtests' poundtime does:\n"
	"elapsed seconds, CPU ns per call, user and system time per thread\n"
	"count, with repetitions and their statistics.",
	.footer =
	"The run is saved: cells such as times-threads-8 hold the repetitions'\n"
	"elapsed seconds, so 'clockbench compare --style mmtests A B' prints the\n"
	"mmtests table. An interrupted run is saved with what finished.\n"
	"\n"
	"Exit status: 0 on success, 1 when nothing can run or the run cannot be\n"
	"saved, 2 on a usage error, 128+N when stopped by signal N.",
};

static const char *const scale_formats[] = { "table", "json", "csv", NULL };

struct scale_options {
	struct catalog_filter filter;
	unsigned *counts;
	size_t ncounts;
	bool idle;
	uint64_t calls;
	long repetitions;
	int cpu;
	struct timing_options timing;
	bool list;
};

struct scale {
	struct scale_options o;
	struct catalog cat;
	struct scale_report r;
};

/* ---- options -------------------------------------------------------- */

static int counts_option(const struct option_def *opt, const char *arg,
			 unsigned min, struct strbuf *err)
{
	struct scale_options *o = opt->value;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	free(o->counts);
	o->counts = NULL;
	if (!scale_parse_counts(arg, min, SCALE_MAX_THREADS, &o->counts,
				&o->ncounts, &why)) {
		strbuf_addf(err, "invalid --%s '%s': %s", opt->long_name, arg, why.buf);
		return -1;
	}
	return 0;
}

static int threads_option(const struct option_def *opt, const char *arg,
			  struct strbuf *err)
{
	return counts_option(opt, arg, 1, err);
}

static int idle_option(const struct option_def *opt, const char *arg,
		       struct strbuf *err)
{
	((struct scale_options *)opt->value)->idle = true;
	return counts_option(opt, arg, 0, err);
}

static int calls_option(const struct option_def *opt, const char *arg,
			struct strbuf *err)
{
	uint64_t calls;

	if (!parse_u64(arg, &calls) || calls == 0 || calls > (1ull << 40)) {
		strbuf_addf(err, "invalid --calls '%s': expected a number from 1 "
			    "to 2^40", arg);
		return -1;
	}
	*(uint64_t *)opt->value = scale_round_calls(calls);
	return 0;
}

/* poundtime's calls: times() and the process CPU clock, through libc. */
static void default_filter(struct catalog_filter *f)
{
	cell_filter_none(f);
	f->api[API_TIMES] = true;
	f->api[API_CLOCK_GETTIME] = true;
	f->clock[CLOCK_PROCESS_CPUTIME_ID] = true;
	f->path[PATH_LIBC] = true;
}

static void default_series_help(struct strbuf *sb)
{
	unsigned v[64];
	size_t n = scale_default_series((unsigned)online_cpus(), v, ARRAY_SIZE(v));

	strbuf_adds(sb, "thread counts: numbers and ranges, e.g. 2,4,8 or\n"
		    "2-16 (1 to 4096); default: mmtests' large-stride\n"
		    "series from 2 to 4 x CPUs, here:");
	for (size_t i = 0; i < n && i < ARRAY_SIZE(v); i++)
		strbuf_addf(sb, " %u", v[i]);
}

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_scale_options(int argc, char **argv, struct scale_options *o,
			       struct measure *m)
{
	_cleanup_strbuf_ struct strbuf threads_help = STRBUF_INIT;
	bool threads_given = false;
	struct option_def options[] = {
		{ .type = OPTION_CALLBACK, .long_name = "threads", .arg_name = "LIST",
		  .value = o, .callback = threads_option, .seen = &threads_given },
		OPT_CALLBACK(0, "calls", "N", &o->calls, calls_option,
			     "calls shared by the threads of one run, rounded\n"
			     "up to a multiple of 8 (default 5000000)"),
		OPT_INT(0, "repetitions", "N", &o->repetitions, 1, 1000,
			"runs per cell and thread count (default 5)"),
		CELL_FILTER_OPTIONS(&o->filter,
			"APIs (default: times,clock_gettime)",
			"clocks of clock_gettime and clock_getres\n"
			"(default: process-cputime)",
			"vdso, libc, syscall (default: libc, as poundtime)"),
		OPT_CALLBACK(0, "idle-threads", "LIST", o, idle_option,
			     "instead: the cost of one call while N idle threads\n"
			     "exist, e.g. 0,64,128 (0 to 4096), measured like\n"
			     "bench on one CPU"),
		CPU_OPTION(&o->cpu, "with --idle-threads: the CPU to measure on\n"
			   "(default: the last CPU of the affinity mask)"),
		TIMING_BUDGET_OPTION(&o->timing,
			"with --idle-threads: wall time per cell and count\n"
			"(default 250ms)"),
		OPT_FORMAT(0, &m->format, scale_formats,
			   "table, json, csv (default table)"),
		OPT_BOOL(0, "list", &o->list, "print the cells that would run"),
		STORE_SAVE_OPTIONS(&m->store),
		OPT_END(),
	};
	int n;

	default_series_help(&threads_help);
	options[0].help = threads_help.buf;
	default_filter(&o->filter);
	o->calls = DEFAULT_CALLS;
	o->repetitions = DEFAULT_REPETITIONS;
	o->cpu = -1;
	n = parse_options(argc, argv, &scale_usage, options, OPTIONS_NO_ARGS);
	if (n < 0)
		return n;
	if (threads_given && o->idle)
		return options_fail("--threads and --idle-threads measure different "
				  "things: give one");
	if (!o->idle && (o->cpu >= 0 || o->timing.budget_s > 0))
		return options_fail("--cpu and --budget go with --idle-threads");
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
	return 0;
}

/* ---- cells ---------------------------------------------------------- */

/* Why c cannot be shared by threads, or NULL when it can run. */
static const char *cell_unusable(const struct cell *c)
{
	if (c->status != CELL_OK)
		return c->why;
	/* One opaque state for all threads would be a data race. */
	if (c->state)
		return "the vDSO getrandom state is per thread";
	return NULL;
}

/* The runnable cells into r; prints why the others are left out. */
static int pick_cells(const struct catalog *cat, struct scale_report *r)
{
	r->cells = xcalloc(cat->ncells ? cat->ncells : 1, sizeof(*r->cells));
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];
		const char *why = cell_unusable(c);

		if (why) {
			warn_msg("%s %s not measured: %s", c->name,
				 catalog_paths[c->path], why);
			continue;
		}
		r->cells[r->ncells++].cell = *c;
	}
	if (!r->ncells) {
		error_msg("no cell can run (see 'clockbench scale --list')");
		return -1;
	}
	return 0;
}

/* ---- N threads share the calls -------------------------------------- */

/* What a repetition's disturbance is taken from, between repetitions. */
struct repetition_watch {
	struct exec_machine machine;
	struct rusage ru;
	double t0;
};

static double mono_s(void)
{
	return (double)now_ns() / 1e9;
}

static void watch_begin(struct repetition_watch *w)
{
	exec_machine_take(&w->machine);
	if (getrusage(RUSAGE_SELF, &w->ru) != 0)
		memset(&w->ru, 0, sizeof(w->ru));
	w->t0 = mono_s();
}

/*
 * The repetition's disturbance: the switches of the whole process (its
 * finished threads included, RUSAGE_SELF), the steal of all CPUs and the
 * tasks runnable at its start. No thread's migrations or wait: they end
 * with the threads.
 */
static void watch_end(const struct repetition_watch *w, struct exec_disturb *d)
{
	struct exec_result r = { .migrations = -1, .wait_s = NAN };
	struct exec_machine after;
	struct rusage ru;

	r.wall_s = mono_s() - w->t0;
	exec_machine_take(&after);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		r.involuntary = ru.ru_nivcsw - w->ru.ru_nivcsw;
		r.voluntary = ru.ru_nvcsw - w->ru.ru_nvcsw;
	}
	exec_disturb_fill(d, &r, &w->machine, &after);
}

static void mark_disturbed(struct scale_report *r)
{
	struct exec_disturb_medians d;

	exec_disturb_medians(r->reps, r->nreps, &d);
	exec_mark_disturbed(r->reps, r->nreps, &d);
}

/* The progress line of cell c: "NAME PATH, 4 threads, repetition 2/5". */
static void show_step(struct progress *prog, size_t *step, const struct scale_cell *c,
		      unsigned count, const char *threads, const char *pass,
		      unsigned i, unsigned n)
{
	char what[160];

	snprintf(what, sizeof(what), "%s %s, %u %s, %s %u/%u", c->cell.name,
		 catalog_paths[c->cell.path], count, threads, pass, i + 1, n);
	progress_update(prog, (*step)++, what);
}

/*
 * Repetition rep of every count and cell; 0, or -1 with the error
 * printed. Repetition-major order: repetition 1 of every count and cell,
 * then repetition 2, ... so a slow phase of the machine touches every
 * point a little instead of one point a lot.
 */
static int threads_repetition(struct scale_report *r, unsigned rep,
			      struct progress *prog, size_t *step)
{
	for (size_t k = 0; k < r->ncounts && !measure_stopped(); k++)
		for (size_t i = 0; i < r->ncells && !measure_stopped(); i++) {
			struct scale_cell *c = &r->cells[i];
			struct scale_point *p = &c->points[k];

			show_step(prog, step, c, r->counts[k], "threads", "repetition",
				  rep, r->repetitions);
			if (scale_run(&c->cell, r->counts[k], r->calls,
				      &p->samples[p->n]) != 0) {
				error_msg("cannot start %u threads: %m", r->counts[k]);
				return -1;
			}
			p->n++;
		}
	return 0;
}

static int run_threads(struct scale_report *r)
{
	struct progress prog;
	size_t step = 0;
	int rc = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		r->cells[i].points = xcalloc(r->ncounts, sizeof(struct scale_point));
		for (size_t k = 0; k < r->ncounts; k++)
			r->cells[i].points[k].samples =
				xcalloc(r->repetitions, sizeof(struct scale_sample));
	}
	r->reps = xcalloc(r->repetitions ? r->repetitions : 1, sizeof(*r->reps));
	progress_init(&prog, r->repetitions * r->ncounts * r->ncells);
	for (unsigned rep = 0; rep < r->repetitions && !measure_stopped() && !rc; rep++) {
		struct repetition_watch w;

		watch_begin(&w);
		rc = threads_repetition(r, rep, &prog, &step);
		/* A repetition cut short is no repetition to judge. */
		if (!rc && !measure_stopped())
			watch_end(&w, &r->reps[r->nreps++]);
	}
	progress_done(&prog);
	mark_disturbed(r);
	return rc;
}

/* ---- one call among N idle threads ---------------------------------- */

static int idle_round(struct scale_report *r, const struct cycle_counter *cc,
		      struct idle_pool *pool, unsigned round,
		      struct progress *prog, size_t *step)
{
	disturb_round_begin(&r->disturb);
	for (size_t k = 0; k < r->ncounts && !measure_stopped(); k++) {
		if (idle_pool_grow(pool, r->counts[k]) != 0) {
			error_msg("cannot start %u idle threads: %m", r->counts[k]);
			return -1;
		}
		for (size_t i = 0; i < r->ncells && !measure_stopped(); i++) {
			struct scale_cell *c = &r->cells[i];
			struct cell_result *res = &c->idle[k];

			show_step(prog, step, c, r->counts[k], "idle threads", "round",
				  round, r->cfg.rounds);
			/* One batch size per cell: the same loop at every count. */
			if (round == 0 && k == 0)
				timing_prepare(&c->cell, cc, &r->cfg, res);
			else if (round == 0)
				res->batch_calls = c->idle[0].batch_calls;
			timing_round(&c->cell, cc, &r->cfg, &r->cal, res);
			disturb_note(&r->disturb, res);
		}
	}
	idle_pool_stop(pool);
	disturb_round_end(&r->disturb);
	return 0;
}

/*
 * Rounds interleave the counts as bench's rounds interleave cells; the
 * pool is emptied after each round and grows again count by count.
 */
static int run_idle(struct scale_report *r, enum cycle_request counter)
{
	struct cycle_counter cc;
	struct idle_pool pool;
	struct progress prog;
	size_t step = 0;
	int rc = 0;

	if (timing_pin_cpu(r->cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", r->cpu);
		return -1;
	}
	cycles_open(&cc, counter);
	r->cycles_unit = cc.unit ? cc.unit : "none";
	for (size_t i = 0; i < r->ncells; i++)
		r->cells[i].idle = xcalloc(r->ncounts, sizeof(struct cell_result));
	timing_calibrate_batches(&cc, &r->cal, &r->cfg);
	if (r->ncells)
		timing_warm_up(&r->cells[0].cell, &cc, &r->cfg, &r->cal, &r->warmup);
	disturb_tracker_init(&r->disturb, r->cpu);
	idle_pool_init(&pool);
	progress_init(&prog, r->cfg.rounds * r->ncounts * r->ncells);
	for (unsigned k = 0; k < r->cfg.rounds && !measure_stopped() && !rc; k++)
		rc = idle_round(r, &cc, &pool, k, &prog, &step);
	progress_done(&prog);
	idle_pool_destroy(&pool);
	cycles_close(&cc);
	return rc;
}

/* --idle-threads always measures the baseline of no idle thread. */
static void add_zero_count(struct scale_options *o)
{
	if (o->ncounts && o->counts[0] == 0)
		return;
	o->counts = xrealloc(o->counts, (o->ncounts + 1) * sizeof(*o->counts));
	memmove(o->counts + 1, o->counts, o->ncounts * sizeof(*o->counts));
	o->counts[0] = 0;
	o->ncounts++;
}

/* ---- the command ---------------------------------------------------- */

static void setup_report(struct scale_options *o, struct scale_report *r)
{
	memset(r, 0, sizeof(*r));
	r->mode = o->idle ? SCALE_IDLE : SCALE_THREADS;
	r->calls = o->calls;
	r->repetitions = (unsigned)o->repetitions;
	r->ncpus = online_cpus();
	r->cpu = o->cpu;
	if (o->idle)
		add_zero_count(o);
	if (!o->counts) {
		unsigned n = (unsigned)scale_default_series((unsigned)r->ncpus, NULL, 0);

		o->counts = xcalloc(n, sizeof(unsigned));
		o->ncounts = scale_default_series((unsigned)r->ncpus, o->counts, n);
		r->series = "mmtests' large-stride series, 2 to 4 x CPUs";
	} else {
		r->series = "as given";
	}
	r->counts = o->counts;
	r->ncounts = o->ncounts;
	o->counts = NULL;
	/* Only --idle-threads times batches; --quick and rounds are bench's. */
	timing_options_apply(&o->timing, &r->cfg);
}

static int scale_measure(struct measure *m)
{
	struct scale *sc = m->ctx;
	struct scale_report *r = &sc->r;
	int rc;

	if (r->mode == SCALE_THREADS) {
		cpu_accounting_probe(&r->acct);
		timing_spin(0.05);
		rc = run_threads(r);
	} else {
		rc = run_idle(r, CYCLES_REQ_AUTO);
	}
	if (rc)
		return -1;
	env_collect(&m->env, sc->cat.have_vdso ? &sc->cat.vdso : NULL,
		    sc->cat.vdso_error, r->mode == SCALE_IDLE ? r->cpu : -1);
	/* What the batches can tell apart: the stored run's intervals widen by it. */
	if (r->mode == SCALE_IDLE)
		env_set_counter_step(&m->env, r->cal.arch_step, r->cal.clock_step_ns);
	m->have_env = true;
	scale_report_summarize(r);
	return 0;
}

/* The report's copy of what the runner knows about the run. */
static void sync_report(struct scale_report *r, const struct measure *m)
{
	r->env = m->env;
	r->started = m->started;
	r->elapsed_s = m->elapsed_s;
	r->interrupted = m->stop_signal != 0;
}

static int scale_print(struct measure *m, FILE *f)
{
	struct scale *sc = m->ctx;

	sync_report(&sc->r, m);
	return scale_report_print(f, &sc->r, (enum output_format)m->format, &m->runs[0]);
}

static bool scale_record(struct measure *m, size_t k, struct stored_run *run)
{
	struct scale *sc = m->ctx;

	if (k > 0)
		return false;
	sync_report(&sc->r, m);
	scale_report_add_cells(&sc->r, run);
	return true;
}

MEASURE_OPS(scale);

int cmd_scale(int argc, char **argv)
{
	struct scale sc = { 0 };
	struct measure m = { .ops = &scale_ops, .ctx = &sc };
	int rc = parse_scale_options(argc, argv, &sc.o, &m);

	if (rc < 0) {
		free(sc.o.counts);
		return parse_options_status(rc);
	}
	if (options_checking()) {
		free(sc.o.counts);
		return 0;
	}
	catalog_build(&sc.cat, &sc.o.filter);
	if (sc.o.list) {
		measure_print_cell_list(&sc.cat, cell_unusable);
	} else {
		setup_report(&sc.o, &sc.r);
		rc = pick_cells(&sc.cat, &sc.r) ? 1 : measure_run(&m);
		scale_report_free(&sc.r);
	}
	free(sc.o.counts);
	catalog_free(&sc.cat);
	return rc;
}
