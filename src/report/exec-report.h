/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What exec prints after its runs besides the tables of the runs as
 * stored (report/exec-table.h): the header (the commands, what the harness
 * costs, what user and sys are worth, the disturbance the runs suffered),
 * or every command's figures as one JSON document with, for several
 * commands, their comparison; then, on stderr, the warnings the runs
 * warrant. The scenario's figures reach it as these plain structs:
 * report/ does not include scenario/.
 */
#ifndef CLOCKBENCH_EXEC_REPORT_H
#define CLOCKBENCH_EXEC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "probe/cpu-accounting.h"
#include "results/compare.h"
#include "results/store.h"

/* The runs disturbed far beyond the others that the header names, at most. */
#define EXEC_REPORT_NAMED 8

/* One command, as measured. */
struct exec_report_command {
	const char *label;
	const char *text;		/* the command as shown */
	const char *program;		/* found once, or /bin/sh */
	bool prepare;			/* it has a --prepare */
	const char *value;		/* its -L/-P value, or NULL */
	const double *wall, *user, *sys;	/* seconds, one per timed run */
	size_t n;
	size_t outliers;		/* hyperfine's: wall times beyond the MADs */
	json_t *config;			/* its run's config (borrowed; JSON only) */
	json_t *disturbance;		/* its runs' disturbance (borrowed; JSON only) */
};

/* A run disturbed far beyond the others: run (1-based) of label. */
struct exec_report_disturbed {
	size_t run;
	const char *label;		/* NULL: the one command */
	long involuntary, runnable;
	double wait_ms, steal_ms;	/* NAN unknown */
};

/* The medians over every timed run of the invocation; NAN unknown. */
struct exec_report_disturbance {
	double involuntary, wait_ms, runnable, steal_ms;
	size_t runs;
	size_t marked;			/* runs disturbed far beyond the others */
	struct exec_report_disturbed named[EXEC_REPORT_NAMED];
	size_t nnamed;
};

struct exec_report {
	const struct exec_report_command *cmds;
	size_t ncmds;
	size_t done;			/* complete repetitions of every command */
	long runs, warmup;
	bool shell, show_output;
	bool random;			/* --order random, with seed */
	bool sequence;			/* --order sequence: the order given */
	unsigned long long seed;
	const char *param;		/* -L/-P's NAME, or NULL */
	bool interrupted;
	/* The empty program, timed as the commands are. */
	const char *harness_program, *harness_what;
	const double *harness_wall;
	size_t harness_n;
	const struct cpu_accounting *acct;
	struct exec_report_disturbance disturbance;
};

/*
 * What one command's runs warrant a warning of, found by the engine; the
 * times in seconds, said in the unit the smallest of them reads best in,
 * as the table above the warnings does.
 */
struct exec_report_warnings {
	const char *label;		/* with several commands, else NULL */
	size_t n;			/* its timed runs */
	size_t outliers;		/* hyperfine's: wall times beyond outlier_mads */
	double outlier_mads;
	/* The first run far slower than the others, with no warm-up: */
	bool slow_first;
	double first_s, rest_median_s;
	bool first_disturbed;		/* its own record shows why, not cold caches */
	long first_involuntary;
	double first_wait_ms;		/* NAN unknown */
	/* Its runs after itself and after another command differ: */
	bool order_effect;
	size_t after_self, after_other;
	double after_self_median_s, after_other_median_s;
	/* Otherwise, its wall times in two groups far apart (low_n 0: not): */
	size_t low_n, high_n;
	double low_min_s, low_max_s, high_min_s, high_max_s;
};

/* The warnings of w on stderr, one line each, as hyperfine's users know them. */
void exec_report_warn(const struct exec_report_warnings *w);

/* One command: the header from e, the table from its run as stored. */
void exec_report_print_command(FILE *f, const struct exec_report *e,
			       const struct stored_run *run);

/* Several commands: one header, a wall row per command's run, labelled. */
void exec_report_print_commands(FILE *f, const struct exec_report *e,
				const struct stored_run *runs);

/*
 * The JSON document: one command's figures, or with cr (NULL for one
 * command) every command's and their comparison.
 */
void exec_report_json_print(FILE *f, const struct exec_report *e,
			    const struct compare_result *cr);

#endif
