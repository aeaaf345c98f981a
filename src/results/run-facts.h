/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a stored run's environment and settings say, as fields: decoded
 * once, the first time a reader asks, from the run's JSON (the schema and
 * the store's format are unchanged), so that readers use names the
 * compiler checks instead of key strings. The strings are the run's own
 * (valid while its env and config are): a run's text is escaped where it
 * is printed, or at load for the commands that write documents.
 */
#ifndef CLOCKBENCH_RUN_FACTS_H
#define CLOCKBENCH_RUN_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/run-settings.h"
#include "results/store.h"

/* The core's speed in one round (quality "rounds"). */
struct run_round_speed {
	int64_t round;		/* from 0 */
	double core_ghz;	/* > 0 */
};

/* A text the run does not record is NULL, never "". A number, NAN. */
struct run_facts {
	/* The machine (environment) */
	const char *machine;		/* "x86_64" */
	const char *cpu_model;
	const char *hypervisor;		/* "" in the record (none) is "none" */
	const char *clocksource;
	const char *cmdline;		/* the kernel's command line */
	const char *libc_name, *libc_version;
	long ncpus;			/* online; 0 unknown */
	bool time_namespace_known;
	bool in_time_namespace;		/* started inside a non-root one */

	/* A boot of `kernels` (environment.vm; results/run-settings.h) */
	struct run_boot boot;

	/* The command line that made it (environment) */
	const char *invocation;		/* its uuid, shared by the runs it made */
	const char *version;		/* clockbench's that made it */
	struct run_words argv;		/* clockbench's arguments */
	bool argv_masked;		/* a control character in them was masked */

	/* The counter's step (environment.counter_step) */
	double clock_step_ns;		/* the clock's step */
	double counter_step;		/* the cycle counter's, in counter_unit */
	const char *counter_unit;

	/* Settings (config): what every command may record */
	const char *mode;		/* "timens" for a side of timens, "ab", "idle", ... */
	const char *interleave;		/* the invocation whose rounds it shares */

	/* Each command's own (results/run-settings.h, both ways) */
	struct run_settings settings;

	/* How steady the machine was (quality) */
	const char *quality_summary;	/* exec's and hotplug's one line */
	struct run_round_speed *round_speeds;	/* the rounds whose speed was kept */
	size_t nround_speeds;
};

/* run's facts, decoded on the first call and kept with the run. */
const struct run_facts *run_facts(const struct stored_run *run);

/* Forget what was decoded (run's env or config changed, or was replaced). */
void run_facts_forget(struct stored_run *run);

#endif
