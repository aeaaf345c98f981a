/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What clockbench scale measured, and how it is shown and kept: handed to
 * report/ (report/scale-doc.h, report/scale-table.h) for the table, JSON
 * and CSV outputs, and the stored run that 'clockbench compare --style
 * mmtests' turns into seed 001's table.
 */
#ifndef CLOCKBENCH_SCALE_REPORT_H
#define CLOCKBENCH_SCALE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "probe/catalog.h"
#include "probe/cpu-accounting.h"
#include "probe/disturb.h"
#include "probe/env.h"
#include "results/record.h"
#include "scenario/exec.h"
#include "scenario/scale.h"
#include "basic/options.h"
#include "basic/stats.h"
#include "probe/timing.h"

enum scale_mode {
	SCALE_THREADS,	/* N threads share the calls */
	SCALE_IDLE,	/* one thread calls while N threads sleep */
};

/* One cell at one thread count: its repetitions and their statistics. */
struct scale_point {
	struct scale_sample *samples;	/* one per repetition done */
	size_t n;
	struct summary elapsed;		/* seconds */
	struct summary ns_per_call;	/* (user + sys) CPU ns per call */
	struct summary user, sys;	/* seconds */
};

struct scale_cell {
	struct cell cell;
	struct scale_point *points;	/* SCALE_THREADS: one per count */
	struct cell_result *idle;	/* SCALE_IDLE: one per count */
};

struct scale_report {
	enum scale_mode mode;
	uint64_t calls;			/* shared by the threads of one run */
	unsigned repetitions;
	unsigned *counts;		/* thread (or idle thread) counts */
	size_t ncounts;
	const char *series;		/* how the counts were chosen */
	int ncpus;
	int cpu;			/* SCALE_IDLE: the CPU measured on */
	struct timing_config cfg;	/* SCALE_IDLE */
	struct timing_calibration cal;	/* SCALE_IDLE */
	const char *cycles_unit;	/* SCALE_IDLE: "TSC ticks", ... or "none" */
	struct warmup_report warmup;	/* SCALE_IDLE: before the first round */
	struct disturb_tracker disturb;	/* SCALE_IDLE: what each round suffered */
	struct scale_cell *cells;
	size_t ncells;
	struct cpu_accounting acct;	/* SCALE_THREADS: what user-s, sys-s are worth */
	/*
	 * SCALE_THREADS: what disturbed each repetition (every count and
	 * cell once): the process's switches, the steal of all CPUs and the
	 * tasks runnable besides it at the repetition's start.
	 */
	struct exec_disturb *reps;
	unsigned nreps;
	struct env_info env;		/* borrowed */
	struct timespec started;
	double elapsed_s;
	bool interrupted;
};

/* Fill the summaries of every point (SCALE_THREADS) or result (IDLE). */
void scale_report_summarize(struct scale_report *r);

/*
 * Write r in fmt: the table's header from r, its cells from stored, the
 * run as it is saved (report/scale-table.h), as the CSV; JSON from r. 0,
 * or -1 when the stream fails.
 */
int scale_report_print(FILE *f, const struct scale_report *r,
		       enum output_format fmt, const struct stored_run *stored);

/*
 * The stored run: per cell and count, "times-threads-8" with the
 * repetitions' elapsed seconds (unit "s", rounds = repetition), or
 * "times-idle-64" with the batches' ns per call (unit "ns", rounds = the
 * timing rounds). User and system times go in the run's config.
 */
void scale_report_add_cells(const struct scale_report *r, struct stored_run *out);

void scale_report_free(struct scale_report *r);

#endif
