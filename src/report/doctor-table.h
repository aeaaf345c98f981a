/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `doctor` prints of its findings: the headline, the findings
 * costliest first with their details, every verdict, the static probe and
 * the facts; as a table or as one JSON document. The doctor engine's
 * verdicts, causes and severities reach it already named (the words of
 * doctor/doctor.h), in the plain structs below: report/ does not include
 * the engines.
 */
#ifndef CLOCKBENCH_DOCTOR_TABLE_H
#define CLOCKBENCH_DOCTOR_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probe/catalog.h"
#include "probe/env.h"

/* A line of the summary: a kernel verdict (or a note) and its story. */
struct doctor_report_finding {
	const struct cell *cell;	/* the cell, or the libc cell of a
					 * static-probe result */
	const char *path;		/* "libc", "static-libc"... */
	const char *severity, *verdict;
	const char *cause, *cause_label;	/* its id and its words */
	bool problem;			/* of severity "problem" */
	const char *observed, *evidence, *advice;
	double ns;			/* NAN: not measured */
	const struct cell *equiv;	/* userspace equivalent, or NULL */
	double equiv_ns;		/* NAN: not measured */
};

/* A call checked (one selected by --api/--clock/--path). */
struct doctor_report_cell {
	const struct cell *cell;
	const char *verdict, *cause, *cause_label, *severity;
	bool kernel;			/* the verdict is "kernel" */
	unsigned long calls, entries;
	const char *syscalls;		/* "clock_gettime,..." */
	const char *error;		/* why unsupported or unknown */
};

struct doctor_report_static_result {
	const char *name, *verdict;
	double ns;
	const char *syscalls;		/* "-" when none */
};

/* The statically linked helper's answers. */
struct doctor_report_static {
	bool ran;
	const char *path, *skip_reason, *libc;
	bool vdso;
	const struct doctor_report_static_result *results;
	size_t n;
};

struct doctor_report_facts {
	const char *clocksource, *clocksources;
	const char *clocksource_vdso;	/* "yes", "conditional", "no", "unknown" */
	const char *clocksource_rule;	/* the rule behind it, or NULL */
	const char *vdso_monotonic;	/* the vDSO's CLOCK_MONOTONIC verdict */
	const char *tsc_hint;
	bool have_vdso;
	const char *vdso_error;
	const bool *vdso_exports;	/* [API_COUNT] */
	const char *interposer[API_COUNT];	/* "" when not interposed */
	const char *libc_name, *libc_version;
	bool static_binary, in_timens;
};

struct doctor_report {
	bool quiet;			/* --quiet: the problems only */
	bool healthy;
	int exit_status;
	size_t userspace, kernel, unsupported, unknown;	/* verdicts */
	size_t problems, findings_count, notes;		/* severities */
	const struct doctor_report_finding *findings;	/* costliest first */
	size_t nfindings;
	const struct doctor_report_cell *cells;
	size_t ncells;
	struct doctor_report_static stat;
	struct doctor_report_facts facts;
	const struct env_info *env;
	double elapsed_s;
};

void doctor_table_print(FILE *f, const struct doctor_report *d);

/* 0, or -1 when the document could not be built. */
int doctor_json_print(FILE *f, const struct doctor_report *d);

#endif
