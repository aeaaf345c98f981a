/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bench run: the cells measured, their raw samples and summaries, and the
 * environment they were measured in. Output formats and the results store
 * read it; only the bench command writes it.
 */
#ifndef CLOCKBENCH_RUN_H
#define CLOCKBENCH_RUN_H

#include <stdbool.h>
#include <time.h>

#include "probe/catalog.h"
#include "probe/disturb.h"
#include "probe/env.h"
#include "probe/system.h"
#include "probe/timing.h"
#include "results/quality.h"

struct bench_cell {
	struct cell cell;
	struct cell_result res;
	bool measured;		/* false: n/a, unsupported or not reached */
};

struct bench_run {
	struct env_info env;
	struct timing_config cfg;
	struct timing_calibration cal;
	const char *cycles_unit;	/* "TSC ticks", "cycles" or "none" */
	char cycles_note[160];
	struct cell_result overhead;	/* the empty function, same loop */
	struct cell_result ruler;	/* CATALOG_RULER_NOPS nops more */
	struct system_report system;	/* read before measuring */
	struct warmup_report warmup;	/* before the first round */
	struct disturb_tracker disturb;	/* what each round suffered */
	struct run_quality quality;	/* its summary (quality_of_bench) */
	struct bench_cell *cells;
	size_t ncells;
	struct timespec started;	/* CLOCK_REALTIME at the start */
	double elapsed_s;
	bool interrupted;		/* SIGINT/SIGTERM before the end */
};

#endif
