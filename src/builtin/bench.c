// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench bench: the cost of every time API through the vDSO, libc and
 * the raw syscall, in ns and cycles per call, with robust statistics.
 */
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "builtin/builtin.h"
#include "probe/catalog.h"
#include "probe/cell-filter.h"
#include "probe/cycles.h"
#include "probe/env.h"
#include "report/output.h"
#include "basic/progress.h"
#include "results/record.h"
#include "results/run.h"
#include "probe/timing.h"
#include "basic/util.h"

void usage_bench(FILE *f)
{
	fputs("usage: clockbench bench [<options>]\n"
	      "\n"
	      "Measure every time API through the vDSO, libc and the raw system call:\n"
	      "ns, cycles and core cycles per call, median with its 95% confidence\n"
	      "interval; core cycles do not move with the core's frequency.\n"
	      "\n"
	      "  --api LIST        APIs: clock_gettime, clock_getres, gettimeofday, time,\n"
	      "                    getcpu, getrandom, times, getrusage (default: all)\n"
	      "  --clock LIST      clocks by name (monotonic, realtime-coarse, ...) or id\n"
	      "  --path LIST       vdso, libc, syscall (default: all)\n"
	      "  --cpu N           pin to CPU N (default: the last CPU of the affinity mask)\n"
	      "  --budget TIME     wall time per cell, e.g. 0.5 or 200ms (default 250ms)\n"
	      "  --quick           short budget: a few seconds for the whole catalog\n"
	      "  --precision PCT   stop a cell when its CI half-width is within PCT % of\n"
	      "                    the median (default 1)\n"
	      "  --rounds N        spread each cell over N interleaved rounds (default\n"
	      "                    10, --quick 5)\n"
	      "  --counter WHICH   cycle counter: auto, perf, arch, none (default auto)\n"
	      "  --format FMT      table, json, csv, tap (default table)\n"
	      "  --samples         with --format json: every batch's per-call figures\n"
	      "  --list            print the cells that would run, and why some cannot\n"
	      RECORD_USAGE
	      "  -h, --help        this text\n"
	      "\n"
	      "The run is saved with its raw samples and environment (see 'clockbench\n"
	      "runs' and 'clockbench compare'); an interrupted run is saved with the\n"
	      "cells that finished and status interrupted.\n"
	      "\n"
	      "Exit status: 0 on success, 1 when the run cannot be saved, 2 on a usage\n"
	      "error, 128+N when stopped by signal N.\n", f);
}

struct bench_options {
	struct catalog_filter filter;
	struct timing_config cfg;
	int cpu;
	enum output_format format;
	enum cycle_request counter;
	bool list;
	bool samples;
	struct store_options store;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* ---- options -------------------------------------------------------- */

enum {
	OPT_API = 256, OPT_CLOCK, OPT_PATH, OPT_CPU, OPT_BUDGET, OPT_QUICK,
	OPT_PRECISION, OPT_COUNTER, OPT_FORMAT, OPT_SAMPLES, OPT_LIST, OPT_ROUNDS,
};

static const struct option bench_longopts[] = {
	{ "api", required_argument, NULL, OPT_API },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "samples", no_argument, NULL, OPT_SAMPLES },
	{ "list", no_argument, NULL, OPT_LIST },
	RECORD_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static enum cycle_request parse_counter(const char *arg)
{
	static const char *const names[] = { "auto", "perf", "arch", "none" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (streq(arg, names[i]))
			return (enum cycle_request)i;
	usage_error("unknown counter '%s' (auto, perf, arch, none)", arg);
}

static void parse_bench_options(int argc, char **argv, struct bench_options *o)
{
	double budget = 0, precision = 0;
	long rounds = 0;
	bool quick = false;
	int opt, fmt;

	memset(o, 0, sizeof(*o));
	catalog_filter_all(&o->filter);
	o->cpu = -1;
	o->format = FORMAT_TABLE;
	o->counter = CYCLES_REQ_AUTO;

	while ((opt = getopt_long(argc, argv, ":h", bench_longopts, NULL)) != -1) {
		switch (opt) {
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
			budget = cell_filter_parse_budget(optarg);
			break;
		case OPT_QUICK:
			quick = true;
			break;
		case OPT_PRECISION:
			if (!parse_double(optarg, &precision) || precision <= 0 ||
			    precision >= 100)
				usage_error("invalid --precision '%s': expected a "
					    "percentage between 0 and 100", optarg);
			break;
		case OPT_ROUNDS:
			if (!parse_int(optarg, 1, 1000, &rounds))
				usage_error("invalid --rounds '%s': expected a number from "
					    "1 to 1000", optarg);
			break;
		case OPT_COUNTER:
			o->counter = parse_counter(optarg);
			break;
		case OPT_FORMAT:
			fmt = output_format_by_name(optarg);
			if (fmt < 0)
				usage_error("unknown format '%s' (table, json, csv, tap)",
					    optarg);
			o->format = (enum output_format)fmt;
			break;
		case OPT_SAMPLES:
			o->samples = true;
			break;
		case OPT_LIST:
			o->list = true;
			break;
		case 'h':
			usage_bench(stdout);
			exit(0);
		default:
			if (store_parse_option(opt, optarg, &o->store))
				break;
			usage_bad_option(opt, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);

	if (quick)
		timing_config_quick(&o->cfg);
	else
		timing_config_default(&o->cfg);
	if (budget > 0)
		o->cfg.budget_s = budget;
	if (o->cfg.min_time_s > o->cfg.budget_s)
		o->cfg.min_time_s = o->cfg.budget_s;
	if (precision > 0)
		o->cfg.rel_ci = precision / 100;
	if (rounds > 0)
		o->cfg.rounds = (unsigned)rounds;
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
}

/* ---- running -------------------------------------------------------- */

static void print_cell_list(const struct catalog *cat)
{
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];

		printf("%-32s %-7s %s%s%s\n", c->name, catalog_paths[c->path],
		       c->status == CELL_OK ? "runs" :
		       c->status == CELL_NA ? "n/a" : "unsupported",
		       c->status == CELL_OK ? "" : ": ", c->status == CELL_OK ? "" : c->why);
	}
}

static void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static size_t count_runnable(const struct bench_run *run)
{
	size_t n = 0;

	for (size_t i = 0; i < run->ncells; i++)
		n += run->cells[i].cell.status == CELL_OK;
	return n;
}

/*
 * Round-robin: round 1 of every cell, then round 2 of every cell, ... so
 * that a slow phase of the machine is spread over all cells.
 */
static void measure_cells(struct bench_run *run, const struct cycle_counter *cc)
{
	unsigned rounds = run->cfg.rounds ? run->cfg.rounds : 1;
	struct progress prog;
	size_t step = 0;
	char what[128];

	progress_init(&prog, count_runnable(run) * rounds);
	for (unsigned k = 0; k < rounds && !stop_signal; k++) {
		disturb_round_begin(&run->disturb);
		for (size_t i = 0; i < run->ncells && !stop_signal; i++) {
			struct bench_cell *bc = &run->cells[i];

			if (bc->cell.status != CELL_OK)
				continue;
			snprintf(what, sizeof(what), "%s %s, round %u/%u", bc->cell.name,
				 catalog_paths[bc->cell.path], k + 1, rounds);
			progress_update(&prog, step++, what);
			if (k == 0)
				timing_prepare(&bc->cell, cc, &run->cfg, &bc->res);
			timing_round(&bc->cell, cc, &run->cfg, &run->cal, &bc->res);
			disturb_note(&run->disturb, &bc->res);
			bc->measured = true;
		}
		disturb_round_end(&run->disturb);
	}
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].measured)
			timing_summarize(&run->cells[i].res);
	progress_done(&prog);
	run->interrupted = stop_signal != 0;
	quality_of_bench(run);
}

/* Warm up on the first cell to be measured: its path is the hot one. */
static void warm_up(struct bench_run *run, const struct cycle_counter *cc)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].cell.status == CELL_OK) {
			timing_warm_up(&run->cells[i].cell, cc, &run->cfg, &run->cal,
				       &run->warmup);
			return;
		}
}

static void free_run(struct bench_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		cell_result_free(&run->cells[i].res);
	cell_result_free(&run->overhead);
	disturb_tracker_free(&run->disturb);
	free(run->cells);
	env_free(&run->env);
}

int cmd_bench(int argc, char **argv)
{
	struct bench_options o;
	struct bench_run run;
	struct catalog cat;
	struct cycle_counter cc;
	struct cell overhead;
	uint64_t start;
	int rc = 0;

	parse_bench_options(argc, argv, &o);
	catalog_build(&cat, &o.filter);
	if (o.list) {
		print_cell_list(&cat);
		catalog_free(&cat);
		return 0;
	}
	if (o.cpu < 0 || timing_pin_cpu(o.cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", o.cpu);
		catalog_free(&cat);
		return 1;
	}
	if (cycles_open(&cc, o.counter) != 0) {
		error_msg("cycle counter unavailable: %s", cc.note);
		catalog_free(&cat);
		return 1;
	}

	memset(&run, 0, sizeof(run));
	run.cfg = o.cfg;
	run.cycles_unit = cc.unit;
	snprintf(run.cycles_note, sizeof(run.cycles_note), "%s", cc.note);
	run.ncells = cat.ncells;
	run.cells = xcalloc(cat.ncells, sizeof(*run.cells));
	for (size_t i = 0; i < cat.ncells; i++)
		run.cells[i].cell = cat.cells[i];
	clock_gettime(CLOCK_REALTIME, &run.started);
	install_stop_handlers();

	system_collect(&run.system, o.cpu, cc.source == CYCLES_PERF);
	disturb_tracker_init(&run.disturb, o.cpu);
	start = now_ns();
	timing_calibrate(&cc, &run.cal);
	warm_up(&run, &cc);
	catalog_overhead_cell(&overhead);
	timing_measure(&overhead, &cc, &run.cfg, &run.cal, &run.overhead);
	measure_cells(&run, &cc);
	run.elapsed_s = (double)(now_ns() - start) / 1e9;

	env_collect(&run.env, cat.have_vdso ? &cat.vdso : NULL, cat.vdso_error, o.cpu);
	if (output_bench(stdout, &run, o.format, o.samples) != 0) {
		error_msg("cannot write the results: %m");
		rc = 1;
	}
	if (record_save_bench(&o.store, &run) != 0)
		rc = 1;
	if (run.interrupted)
		rc = 128 + (int)stop_signal;

	free_run(&run);
	cycles_close(&cc);
	catalog_free(&cat);
	return rc;
}
