// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench bench: the cost of every time API through the vDSO, libc and
 * the raw syscall, in ns and cycles per call, with robust statistics.
 */
#include <string.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/progress.h"
#include "basic/util.h"
#include "builtin/builtin.h"
#include "cli/cell-filter.h"
#include "cli/measure.h"
#include "probe/catalog.h"
#include "probe/cycles.h"
#include "report/output.h"
#include "results/run.h"

static const struct command_usage bench_usage = {
	.name = "bench",
	.description =
	"Measure every time API through the vDSO, libc and the raw system call:\n"
	"ns, cycles and core cycles per call, median with its 95% confidence\n"
	"interval; core cycles do not move with the core's frequency.",
	.footer =
	"The run is saved with its raw samples and environment (see 'clockbench\n"
	"runs' and 'clockbench compare'); an interrupted run is saved with the\n"
	"cells that finished and status interrupted.\n"
	"\n"
	"Exit status: 0 on success, 1 when the run cannot be saved, 2 on a usage\n"
	"error, 128+N when stopped by signal N.",
};

static const char *const counter_names[] = { "auto", "perf", "arch", "none", NULL };

struct bench {
	struct catalog cat;
	struct cycle_counter cc;
	struct bench_run run;
	int cpu;
	bool samples;
};

/*
 * Round-robin: round 1 of every cell, then round 2 of every cell, ... so
 * that a slow phase of the machine is spread over all cells.
 */
static void measure_cells(struct bench_run *run, const struct cycle_counter *cc)
{
	unsigned rounds = run->cfg.rounds ? run->cfg.rounds : 1;
	struct progress prog;
	size_t step = 0, runnable = 0;
	char what[128];

	for (size_t i = 0; i < run->ncells; i++)
		runnable += run->cells[i].cell.status == CELL_OK;
	progress_init(&prog, runnable * rounds);
	for (unsigned k = 0; k < rounds && !measure_stopped(); k++) {
		disturb_round_begin(&run->disturb);
		for (size_t i = 0; i < run->ncells && !measure_stopped(); i++) {
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

static int bench_measure(struct measure *m)
{
	struct bench *b = m->ctx;
	struct bench_run *run = &b->run;
	struct cell overhead;

	run->cells = xcalloc(b->cat.ncells, sizeof(*run->cells));
	run->ncells = b->cat.ncells;
	for (size_t i = 0; i < b->cat.ncells; i++)
		run->cells[i].cell = b->cat.cells[i];
	run->cycles_unit = b->cc.unit;
	snprintf(run->cycles_note, sizeof(run->cycles_note), "%s", b->cc.note);

	system_collect(&run->system, b->cpu, b->cc.source == CYCLES_PERF);
	disturb_tracker_init(&run->disturb, b->cpu);
	timing_calibrate_batches(&b->cc, &run->cal, &run->cfg);
	warm_up(run, &b->cc);
	catalog_overhead_cell(&overhead);
	timing_measure(&overhead, &b->cc, &run->cfg, &run->cal, &run->overhead);
	catalog_ruler_cell(&overhead);
	timing_measure_like(&overhead, &b->cc, &run->cfg, &run->cal, &run->overhead,
			    &run->ruler);
	measure_cells(run, &b->cc);

	env_collect(&m->env, b->cat.have_vdso ? &b->cat.vdso : NULL,
		    b->cat.vdso_error, b->cpu);
	env_set_counter_step(&m->env, run->cal.arch_step, run->cal.clock_step_ns);
	m->have_env = true;
	return 0;
}

static int bench_print(struct measure *m, FILE *f)
{
	struct bench *b = m->ctx;

	/* The run as the store keeps it: show prints the same lines. */
	return output_bench(f, (enum output_format)m->format, &m->runs[0], b->samples);
}

static bool bench_record(struct measure *m, size_t k, struct stored_run *run)
{
	struct bench *b = m->ctx;

	if (k > 0)
		return false;
	record_bench_cells(run, &b->run);
	return true;
}

MEASURE_OPS(bench);

static void free_bench(struct bench *b)
{
	for (size_t i = 0; i < b->run.ncells; i++)
		cell_result_free(&b->run.cells[i].res);
	cell_result_free(&b->run.overhead);
	cell_result_free(&b->run.ruler);
	disturb_tracker_free(&b->run.disturb);
	free(b->run.cells);
	cycles_close(&b->cc);
	catalog_free(&b->cat);
}

/* Pin and open the counter: 0, or 1 with the reason printed. */
static int bench_setup(struct bench *b, int counter)
{
	if (b->cpu < 0 || timing_pin_cpu(b->cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", b->cpu);
		return 1;
	}
	if (cycles_open(&b->cc, (enum cycle_request)counter) != 0) {
		error_msg("cycle counter unavailable: %s", b->cc.note);
		return 1;
	}
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	struct catalog_filter filter;
	struct timing_options timing = { 0 };
	struct bench b = { .cpu = -1, .cc = { .perf_fd = -1 } };
	struct measure m = { .ops = &bench_ops, .ctx = &b, .format = FORMAT_TABLE };
	int counter = CYCLES_REQ_AUTO, n, rc;
	bool list = false;
	struct option_def options[] = {
		CELL_FILTER_OPTIONS(&filter,
			"APIs: clock_gettime, clock_getres, gettimeofday, time,\n"
			"getcpu, getrandom, times, getrusage (default: all)",
			"clocks by name (monotonic, realtime-coarse, ...) or id",
			"vdso, libc, syscall (default: all)"),
		CPU_OPTION(&b.cpu, "pin to CPU N (default: the last CPU of the affinity mask)"),
		TIMING_BUDGET_OPTION(&timing, "wall time per cell, e.g. 0.5 or 200ms (default 250ms)"),
		TIMING_QUICK_OPTION(&timing),
		TIMING_PRECISION_OPTION(&timing),
		TIMING_ROUNDS_OPTION(&timing, "rounds",
			"spread each cell over N interleaved rounds (default\n"
			"10, --quick 5)"),
		OPT_CHOICE(0, "counter", "WHICH", &counter, counter_names,
			   "cycle counter: auto, perf, arch, none (default auto)"),
		OPT_FORMAT(0, &m.format, output_format_names,
			   "table, json, csv, tap (default table)"),
		OPT_BOOL(0, "samples", &b.samples,
			 "with --format json: every batch's per-call figures"),
		OPT_BOOL(0, "list", &list,
			 "print the cells that would run, and why some cannot"),
		STORE_SAVE_OPTIONS(&m.store),
		OPT_END(),
	};

	catalog_filter_all(&filter);
	n = parse_options(argc, argv, &bench_usage, options, OPTIONS_NO_ARGS);
	if (n < 0)
		return parse_options_status(n);
	if (options_checking())
		return 0;
	timing_options_apply(&timing, &b.run.cfg);
	if (b.cpu < 0)
		b.cpu = timing_default_cpu();

	catalog_build(&b.cat, &filter);
	if (list) {
		measure_print_cell_list(&b.cat, NULL);
		catalog_free(&b.cat);
		return 0;
	}
	rc = bench_setup(&b, counter);
	if (!rc)
		rc = measure_run(&m);
	free_bench(&b);
	return rc;
}
