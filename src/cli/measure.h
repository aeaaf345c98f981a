/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runner of the measuring commands (bench, scale, timens, hotplug,
 * exec): what they share is written once here, and a command only says
 * what it measures, how it prints it and what it saves.
 *
 * measure_run() first checks that the store can take the runs (unless
 * --no-save or nothing is recorded: record_check()), then installs the
 * stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the command finishes its
 * current step, prints and saves what it has, status "interrupted"),
 * takes the start time, calls measure(), builds the stored runs with
 * record(), saves them (a run the store refuses is spooled), prints with
 * print() (which may print the stored runs: they have their ids by then)
 * and returns the exit status: 0; 1 when the store is unusable (nothing is
 * measured) or measuring, printing or saving failed; 128+N when stopped
 * by signal N.
 */
#ifndef CLOCKBENCH_MEASURE_H
#define CLOCKBENCH_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "basic/options.h"
#include "probe/env.h"
#include "probe/timing.h"
#include "results/record.h"

struct measure;

struct measure_ops {
	const char *command;	/* "bench": the stored runs' command */
	/*
	 * Measure, checking measure_stopped() between steps. 0, or -1 with
	 * the error printed: nothing is then printed or saved.
	 */
	int (*measure)(struct measure *m);
	/*
	 * Write the results to f in m->format: 0, or -1 with the reason
	 * printed (the runner itself reports a stream that failed).
	 */
	int (*print)(struct measure *m, FILE *f);
	/*
	 * Fill stored run k, begun by the runner (uuid, label, host, kernel,
	 * environment, start time), with its cells and config; false when
	 * there is no run k. NULL: the command saves nothing.
	 */
	bool (*record)(struct measure *m, size_t k, struct stored_run *run);
};

/*
 * Defines NAME_ops for the command NAME from its NAME_measure(),
 * NAME_print() and NAME_record(): a command's runner is named after it,
 * and the name is written once.
 */
#define MEASURE_OPS(name)						\
	static const struct measure_ops name##_ops = {			\
		.command = #name,					\
		.measure = name##_measure,				\
		.print = name##_print,					\
		.record = name##_record,				\
	}

struct measure {
	const struct measure_ops *ops;
	void *ctx;			/* the command's own state */
	struct store_options store;	/* STORE_SAVE_OPTIONS */
	int format;			/* the command's --format: enum output_format */
	struct env_info env;		/* filled by measure() (env_collect) */
	bool have_env;
	struct timespec started;	/* CLOCK_REALTIME at the start */
	double elapsed_s;
	int stop_signal;		/* what stopped the run, or 0 */
	int status;			/* set by print(): the exit status when
					 * all went well (ab --fail-on), or 0 */
	struct stored_run *runs;	/* what record() built, for print() */
	size_t nruns;
};

/* Run m (ops and ctx set, options parsed) and return the exit status. */
int measure_run(struct measure *m);

/* True once a stop signal arrived during measure_run(). */
bool measure_stopped(void);
/* The flag behind measure_stopped(), for loops that wait on children. */
volatile sig_atomic_t *measure_stop_flag(void);

/* ---- measuring under a guard --------------------------------------------- */

struct guard;

/* A measuring command that changes machine state (ab, hotplug). */
struct guarded_run {
	const char *lock;	/* "clocksource": /run/lock/clockbench-clocksource.lock */
	const char *changing;	/* "switching the clocksource", for messages */
	/*
	 * Record in g, under the lock, the state to put back: 0, or the exit
	 * status with the error printed.
	 */
	int (*record)(struct measure *m, struct guard *g);
	const char *pidfile;	/* the measuring process's pid goes there, or NULL */
};

/*
 * Run m in the guard's supervised child (guard.h, graceful: a stop signal
 * lets the command finish its step, print and save), holding r->lock so
 * that one clockbench at a time changes that state. The child and its
 * restorer inherit the lock: it is held until the state is back, whichever
 * process dies. Says on stderr what was restored, and when the measuring
 * process was killed. Returns the exit status.
 */
int measure_run_guarded(struct measure *m, const struct guarded_run *r);

/* ---- timing settings ---------------------------------------------------- */

/* --budget, --quick, --rounds and --precision, as the user gave them. */
struct timing_options {
	double budget_s;	/* 0: the default */
	bool quick;
	long rounds;		/* 0: the default */
	double precision_pct;	/* 0: the default */
};

#define TIMING_BUDGET_OPTION(t, help) \
	OPT_DURATION(0, "budget", "TIME", &(t)->budget_s, help)
#define TIMING_QUICK_OPTION(t) \
	OPT_BOOL(0, "quick", &(t)->quick, \
		 "short budget (40ms) and 5 rounds: good to a few percent")
#define TIMING_ROUNDS_OPTION(t, name, help) \
	OPT_INT(0, name, "N", &(t)->rounds, 1, 1000, help)
#define TIMING_PRECISION_OPTION(t) \
	OPT_DOUBLE(0, "precision", "PCT", &(t)->precision_pct, 1e-6, 99, \
		   "stop a cell when its CI half-width is within PCT % of\n" \
		   "the median (default 1)")

/* The timing configuration these options ask for. */
void timing_options_apply(const struct timing_options *t,
			  struct timing_config *cfg);

/* ---- small things several commands print ---------------------------------- */

/*
 * The lines of --list: "name  path  runs", or "n/a: why" or
 * "unsupported: why" for a cell the catalogue cannot run, or "n/a: why"
 * for one that why_not (may be NULL) rules out for this command.
 */
void measure_print_cell_list(const struct catalog *cat,
			     const char *(*why_not)(const struct cell *));

/*
 * "# saved as A, B: clockbench compare A B" (the labels of m's runs, the
 * line that compares them again, shell-quoted), or "# labels A, B (not
 * saved)" under --no-save: what names this invocation's runs later.
 */
void measure_print_labels(FILE *f, const struct measure *m);

/*
 * Whether the sides of an interleaved campaign (ab, timens, exec) that
 * stopped after done repetitions can be compared: from two on. When
 * not, the error says so.
 */
bool measure_enough_repetitions(size_t done);

#endif
