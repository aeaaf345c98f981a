/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bench run while it is measured: the cells, their raw samples and
 * summaries, the calibration and the environment, as the bench command
 * fills them. It is no second model of a run: record_from_bench()
 * (results/record.h) turns it into the one every reader uses, struct
 * stored_run, and the tables, JSON, store and comparison read only that.
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
