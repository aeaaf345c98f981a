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

#include "results/store.h"

/* A text the run does not record is NULL, never "". */
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

	/* A boot of `kernels` (environment.vm) */
	bool booted;			/* the run came from a guest */
	bool emulated;			/* under TCG: its timings an emulator's */
	bool exact;			/* counted under icount (--exact) */
	const char *accel;		/* "tcg", "kvm" */
	const char *arch;		/* the guest's architecture */
	const char *campaign;		/* the `kernels` invocation */

	/* Settings (config) */
	const char *mode;		/* "timens" for a side of timens */
	const char *interleave;		/* the invocation whose rounds it shares */
	const char *side;		/* timens: "host" or "timens" */
	int trace;			/* hotplug: 1 traced, 0 not, -1 unknown */
	bool cpu_time_sampled;		/* user/sys tick-sampled */
	double cpu_time_estimate_below_s;	/* below it, an estimate; 0 unknown */
};

/* run's facts, decoded on the first call and kept with the run. */
const struct run_facts *run_facts(const struct stored_run *run);

/* Forget what was decoded (run's env or config changed, or was replaced). */
void run_facts_forget(struct stored_run *run);

#endif
