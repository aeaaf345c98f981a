/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scale's header (when, the environment, how the counts were chosen, what
 * user-s and sys-s are worth, what disturbed the repetitions, or in idle
 * mode the warm-up and the run's quality) above the tables of the run as
 * stored (report/scale-table.h), and scale's JSON document. The scenario's
 * figures reach it as these plain structs: report/ does not include
 * scenario/.
 */
#ifndef CLOCKBENCH_SCALE_DOC_H
#define CLOCKBENCH_SCALE_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "basic/stats.h"
#include "probe/catalog.h"
#include "probe/cpu-accounting.h"
#include "probe/disturb.h"
#include "probe/env.h"
#include "probe/timing.h"

/* Threads mode: one cell at one thread count, its repetitions. */
struct scale_doc_point {
	size_t n;
	const double *elapsed_s, *user_s, *sys_s;	/* one per repetition */
	const struct summary *elapsed, *ns_per_call, *user, *sys;
	uint64_t calls_per_thread;
};

struct scale_doc_cell {
	const struct cell *cell;
	const struct scale_doc_point *points;	/* threads mode: one per count */
	const struct cell_result *idle;		/* idle mode: one per count */
};

struct scale_doc {
	bool idle;			/* idle mode: N idle threads, one calling */
	uint64_t calls;			/* shared by the threads of one run */
	unsigned repetitions;
	const unsigned *counts;		/* thread (or idle thread) counts */
	size_t ncounts;
	const char *series;		/* how the counts were chosen */
	int ncpus;
	int cpu;			/* idle mode: the CPU measured on */
	const struct timing_config *cfg;	/* idle mode */
	const struct timing_calibration *cal;	/* idle mode */
	const struct warmup_report *warmup;	/* idle mode */
	const struct disturb_tracker *disturb;	/* idle mode: each round's */
	const struct scale_doc_cell *cells;
	size_t ncells;
	const struct cpu_accounting *acct;	/* threads mode */
	/* Threads mode: what disturbed each repetition. */
	unsigned nreps;
	double involuntary, runnable, steal_ms;	/* medians; NAN unknown */
	const bool *disturbed;		/* far beyond the others, per repetition */
	json_t *disturbance;		/* all of it for JSON (borrowed), or NULL */
	const struct env_info *env;
	struct timespec started;
	double elapsed_s;
	bool interrupted;
};

/* The header lines the table starts with. */
void scale_doc_header(FILE *f, const struct scale_doc *d);

/* An idle-mode run's quality (results/record.h): in both as well. */
json_t *scale_doc_idle_quality_json(const struct timing_calibration *cal,
				    const struct warmup_report *warmup,
				    const struct disturb_tracker *disturb);

/* The JSON document. */
void scale_doc_json_print(FILE *f, const struct scale_doc *d);

#endif
