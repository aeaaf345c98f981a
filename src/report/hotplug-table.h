/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A hotplug run's transitions, printed from the run as stored: for taking
 * the CPU offline and bringing it online, the wall, user and system times
 * of a transition in ms (n, min, median with its 95 % CI, mean, robust CV,
 * max, outliers). What hotplug prints under its header, and show for a
 * hotplug run.
 */
#ifndef CLOCKBENCH_HOTPLUG_TABLE_H
#define CLOCKBENCH_HOTPLUG_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/env.h"
#include "results/store.h"

/* Whether r is a hotplug run with its offline and online cells. */
bool hotplug_table_applies(const struct stored_run *r);

/*
 * The heading and three rows per direction, in the unit
 * figure_seconds_unit() chooses for the quicker direction's median.
 */
void hotplug_table_print(FILE *f, const struct stored_run *r);

/*
 * What show prints for a hotplug run, from its cells alone: the legend
 * and what its user and sys are worth (from its config), the transitions,
 * then per direction the states it stored (state:NAME:offline, ...),
 * largest mean first, without the step and function it did not keep.
 */
void hotplug_table_print_run(FILE *f, const struct stored_run *r);

/*
 * What hotplug prints after a run: the header, the transitions of the run
 * as stored, and from the run as measured each direction's time per
 * hotplug state (the states are not all stored: only the top ones, without
 * their step and function); or all of it as one JSON document. The
 * scenario's tables reach it as these plain structs.
 */
struct hotplug_state_line {
	int step;
	const char *name;		/* "sched:active", "?" when unknown */
	const char *fn;
	const double *values;		/* seconds per cycle, 0 where not seen */
	double mean_s;
	bool failed;
};

struct hotplug_report_direction {
	const char *name;		/* "offline", "online" */
	const double *wall, *user, *sys;	/* seconds, one per cycle */
	size_t n;
	const struct hotplug_state_line *states;	/* largest mean first */
	size_t nstates;
	size_t ncycles;			/* cycles traced; 0: no per-state times */
};

struct hotplug_report {
	long cpu, cycles;
	size_t top;			/* --top: the states shown */
	bool interrupted;
	const char *tracing;		/* how tracing ran, or why not */
	uint64_t lost;			/* events the trace buffer dropped */
	const struct env_info *env;
	struct hotplug_report_direction dir[2];	/* offline, online */
};

void hotplug_report_print(FILE *f, const struct hotplug_report *h,
			  const struct stored_run *stored);

/* 0, or -1 when the document could not be built. */
int hotplug_report_json_print(FILE *f, const struct hotplug_report *h);

#endif
