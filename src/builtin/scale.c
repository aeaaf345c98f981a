// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench scale: how a time call's cost grows with the threads of the
 * process (seed 001, mmtests' poundtime). N threads share a fixed number of
 * calls; the wall time of the job, the CPU time per call and the user and
 * system time are reported for each N, over repetitions.
 */
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "probe/catalog.h"
#include "probe/cell-filter.h"
#include "probe/cycles.h"
#include "probe/env.h"
#include "basic/progress.h"
#include "results/record.h"
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

static void print_default_series(FILE *f)
{
	unsigned v[64];
	size_t n = scale_default_series((unsigned)online_cpus(), v, ARRAY_SIZE(v));

	for (size_t i = 0; i < n && i < ARRAY_SIZE(v); i++)
		fprintf(f, "%s%u", i ? " " : "", v[i]);
}

void usage_scale(FILE *f)
{
	fputs("usage: clockbench scale [<options>]\n"
	      "\n"
	      "N threads share a fixed number of calls of times() and\n"
	      "clock_gettime(CLOCK_PROCESS_CPUTIME_ID), as mmtests' poundtime does:\n"
	      "elapsed seconds, CPU ns per call, user and system time per thread\n"
	      "count, with repetitions and their statistics.\n"
	      "\n"
	      "  --threads LIST      thread counts: numbers and ranges, e.g. 2,4,8 or\n"
	      "                      2-16 (1 to 4096); default: mmtests' large-stride\n"
	      "                      series from 2 to 4 x CPUs, here: ", f);
	print_default_series(f);
	fputs("\n"
	      "  --calls N           calls shared by the threads of one run, rounded\n"
	      "                      up to a multiple of 8 (default 5000000)\n"
	      "  --repetitions N     runs per cell and thread count (default 5)\n"
	      "  --api LIST          APIs (default: times,clock_gettime)\n"
	      "  --clock LIST        clocks of clock_gettime and clock_getres\n"
	      "                      (default: process-cputime)\n"
	      "  --path LIST         vdso, libc, syscall (default: libc, as poundtime)\n"
	      "  --idle-threads LIST instead: the cost of one call while N idle threads\n"
	      "                      exist, e.g. 0,64,128 (0 to 4096), measured like\n"
	      "                      bench on one CPU\n"
	      "  --cpu N             with --idle-threads: the CPU to measure on\n"
	      "                      (default: the last CPU of the affinity mask)\n"
	      "  --budget TIME       with --idle-threads: wall time per cell and count\n"
	      "                      (default 250ms)\n"
	      "  --format FMT        table, json, csv (default table)\n"
	      "  --list              print the cells that would run\n"
	      RECORD_USAGE
	      "  -h, --help          this text\n"
	      "\n"
	      "The run is saved: cells such as times-threads-8 hold the repetitions'\n"
	      "elapsed seconds, so 'clockbench compare --style mmtests A B' prints the\n"
	      "mmtests table. An interrupted run is saved with what finished.\n"
	      "\n"
	      "Exit status: 0 on success, 1 when nothing can run or the run cannot be\n"
	      "saved, 2 on a usage error, 128+N when stopped by signal N.\n", f);
}

struct scale_options {
	struct catalog_filter filter;
	unsigned *counts;
	size_t ncounts;
	bool idle;
	uint64_t calls;
	unsigned repetitions;
	int cpu;
	double budget;
	enum scale_format format;
	bool list;
	struct store_options store;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* ---- options -------------------------------------------------------- */

enum {
	OPT_THREADS = 256, OPT_CALLS, OPT_REPETITIONS, OPT_API, OPT_CLOCK,
	OPT_PATH, OPT_IDLE, OPT_CPU, OPT_BUDGET, OPT_FORMAT, OPT_LIST,
};

static const struct option scale_longopts[] = {
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "calls", required_argument, NULL, OPT_CALLS },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "api", required_argument, NULL, OPT_API },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "idle-threads", required_argument, NULL, OPT_IDLE },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list", no_argument, NULL, OPT_LIST },
	RECORD_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse_counts(const char *opt, const char *arg, unsigned min,
			 struct scale_options *o)
{
	char why[128];

	free(o->counts);
	if (!scale_parse_counts(arg, min, SCALE_MAX_THREADS, &o->counts,
				&o->ncounts, why, sizeof(why)))
		usage_error("invalid %s '%s': %s", opt, arg, why);
}

static enum scale_format parse_format(const char *arg)
{
	if (streq(arg, "table"))
		return SCALE_FORMAT_TABLE;
	if (streq(arg, "json"))
		return SCALE_FORMAT_JSON;
	if (streq(arg, "csv"))
		return SCALE_FORMAT_CSV;
	usage_error("unknown format '%s' (table, json, csv)", arg);
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

static void parse_one(int opt, struct scale_options *o, const char *prog_opt,
		      bool *threads_given)
{
	uint64_t calls;
	long v;

	switch (opt) {
	case OPT_THREADS:
		parse_counts("--threads", optarg, 1, o);
		*threads_given = true;
		break;
	case OPT_IDLE:
		parse_counts("--idle-threads", optarg, 0, o);
		o->idle = true;
		break;
	case OPT_CALLS:
		if (!parse_u64(optarg, &calls) || calls == 0 || calls > (1ull << 40))
			usage_error("invalid --calls '%s': expected a number from 1 "
				    "to 2^40", optarg);
		o->calls = scale_round_calls(calls);
		break;
	case OPT_REPETITIONS:
		if (!parse_int(optarg, 1, 1000, &v))
			usage_error("invalid --repetitions '%s': expected a number "
				    "from 1 to 1000", optarg);
		o->repetitions = (unsigned)v;
		break;
	case OPT_API:
		cell_filter_parse_apis(optarg, &o->filter);
		break;
	case OPT_CLOCK:
		cell_filter_parse_clocks(optarg, &o->filter);
		break;
	case OPT_PATH:
		cell_filter_parse_paths(optarg, &o->filter);
		break;
	case OPT_CPU:
		o->cpu = cell_filter_parse_cpu(optarg);
		break;
	case OPT_BUDGET:
		o->budget = cell_filter_parse_budget(optarg);
		break;
	case OPT_FORMAT:
		o->format = parse_format(optarg);
		break;
	case OPT_LIST:
		o->list = true;
		break;
	default:
		if (store_parse_option(opt, optarg, &o->store))
			break;
		usage_error("unknown option '%s' (see 'clockbench scale --help')",
			    prog_opt);
	}
}

static void parse_scale_options(int argc, char **argv, struct scale_options *o)
{
	bool threads_given = false;
	int opt;

	memset(o, 0, sizeof(*o));
	default_filter(&o->filter);
	o->calls = DEFAULT_CALLS;
	o->repetitions = DEFAULT_REPETITIONS;
	o->cpu = -1;
	while ((opt = getopt_long(argc, argv, ":h", scale_longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage_scale(stdout);
			exit(0);
		}
		if (opt == ':' || opt == '?')
			usage_bad_option(opt, argv);
		parse_one(opt, o, argv[optind - 1], &threads_given);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (threads_given && o->idle)
		usage_error("--threads and --idle-threads measure different things: "
			    "give one");
	if (!o->idle && (o->cpu >= 0 || o->budget > 0))
		usage_error("--cpu and --budget go with --idle-threads");
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
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

static void print_cell_list(const struct catalog *cat)
{
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];
		const char *why = cell_unusable(c);

		printf("%-32s %-7s %s%s%s\n", c->name, catalog_paths[c->path],
		       why ? "n/a" : "runs", why ? ": " : "", why ? why : "");
	}
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

static void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* ---- N threads share the calls -------------------------------------- */

/*
 * Repetition-major order: repetition 1 of every count and cell, then
 * repetition 2, ... so a slow phase of the machine touches every point a
 * little instead of one point a lot.
 */
static int run_threads(struct scale_report *r)
{
	struct progress prog;
	size_t step = 0;
	char what[160];

	for (size_t i = 0; i < r->ncells; i++) {
		r->cells[i].points = xcalloc(r->ncounts, sizeof(struct scale_point));
		for (size_t k = 0; k < r->ncounts; k++)
			r->cells[i].points[k].samples =
				xcalloc(r->repetitions, sizeof(struct scale_sample));
	}
	progress_init(&prog, r->repetitions * r->ncounts * r->ncells);
	for (unsigned rep = 0; rep < r->repetitions && !stop_signal; rep++)
		for (size_t k = 0; k < r->ncounts && !stop_signal; k++)
			for (size_t i = 0; i < r->ncells && !stop_signal; i++) {
				struct scale_cell *c = &r->cells[i];
				struct scale_point *p = &c->points[k];

				snprintf(what, sizeof(what), "%s %s, %u threads, "
					 "repetition %u/%u", c->cell.name,
					 catalog_paths[c->cell.path], r->counts[k],
					 rep + 1, r->repetitions);
				progress_update(&prog, step++, what);
				if (scale_run(&c->cell, r->counts[k], r->calls,
					      &p->samples[p->n]) != 0) {
					progress_done(&prog);
					error_msg("cannot start %u threads: %m",
						  r->counts[k]);
					return -1;
				}
				p->n++;
			}
	progress_done(&prog);
	return 0;
}

/* ---- one call among N idle threads ---------------------------------- */

static int idle_round(struct scale_report *r, const struct cycle_counter *cc,
		      struct idle_pool *pool, unsigned round,
		      struct progress *prog, size_t *step)
{
	char what[160];

	disturb_round_begin(&r->disturb);
	for (size_t k = 0; k < r->ncounts && !stop_signal; k++) {
		if (idle_pool_grow(pool, r->counts[k]) != 0) {
			error_msg("cannot start %u idle threads: %m", r->counts[k]);
			return -1;
		}
		for (size_t i = 0; i < r->ncells && !stop_signal; i++) {
			struct scale_cell *c = &r->cells[i];
			struct cell_result *res = &c->idle[k];

			snprintf(what, sizeof(what), "%s %s, %u idle threads, "
				 "round %u/%u", c->cell.name,
				 catalog_paths[c->cell.path], r->counts[k],
				 round + 1, r->cfg.rounds);
			progress_update(prog, (*step)++, what);
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
	timing_calibrate(&cc, &r->cal);
	if (r->ncells)
		timing_warm_up(&r->cells[0].cell, &cc, &r->cfg, &r->cal, &r->warmup);
	disturb_tracker_init(&r->disturb, r->cpu);
	idle_pool_init(&pool);
	progress_init(&prog, r->cfg.rounds * r->ncounts * r->ncells);
	for (unsigned k = 0; k < r->cfg.rounds && !stop_signal && !rc; k++)
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
	r->repetitions = o->repetitions;
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
	timing_config_default(&r->cfg);
	if (o->budget > 0) {
		r->cfg.budget_s = o->budget;
		if (r->cfg.min_time_s > o->budget)
			r->cfg.min_time_s = o->budget;
	}
}

static int save_report(const struct scale_report *r, const struct store_options *o)
{
	struct stored_run sr;
	int rc;

	if (o->no_save)
		return 0;
	scale_report_to_stored(r, o, &sr);
	rc = record_save(o, &sr);
	stored_run_free(&sr);
	return rc;
}

static int measure(struct scale_report *r)
{
	uint64_t start = now_ns();
	int rc;

	clock_gettime(CLOCK_REALTIME, &r->started);
	install_stop_handlers();
	if (r->mode == SCALE_THREADS) {
		timing_spin(0.05);
		rc = run_threads(r);
	} else {
		rc = run_idle(r, CYCLES_REQ_AUTO);
	}
	r->elapsed_s = (double)(now_ns() - start) / 1e9;
	r->interrupted = stop_signal != 0;
	return rc;
}

int cmd_scale(int argc, char **argv)
{
	struct scale_options o;
	struct scale_report r;
	struct catalog cat;
	int rc = 0;

	parse_scale_options(argc, argv, &o);
	catalog_build(&cat, &o.filter);
	if (o.list) {
		print_cell_list(&cat);
		catalog_free(&cat);
		free(o.counts);
		return 0;
	}
	setup_report(&o, &r);
	if (pick_cells(&cat, &r) != 0 || measure(&r) != 0) {
		scale_report_free(&r);
		catalog_free(&cat);
		return 1;
	}
	env_collect(&r.env, cat.have_vdso ? &cat.vdso : NULL, cat.vdso_error,
		    r.mode == SCALE_IDLE ? r.cpu : -1);
	scale_report_summarize(&r);
	if (scale_report_print(stdout, &r, o.format) != 0) {
		error_msg("cannot write the results: %m");
		rc = 1;
	}
	if (save_report(&r, &o.store) != 0)
		rc = 1;
	if (r.interrupted)
		rc = 128 + (int)stop_signal;
	scale_report_free(&r);
	catalog_free(&cat);
	return rc;
}
