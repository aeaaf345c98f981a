/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording runs: what every measuring command does to keep its run in the
 * results store. The store options (--db, --label, --no-save), a stored run
 * built from a bench run or cell by cell, and the save itself.
 *
 * A measuring command adds STORE_SAVE_OPTIONS to its option table and at
 * the end:
 *
 *	record_begin(&sr, "scale", &o.store, &env, &started);
 *	record_add_cell(&sr, "times-threads-8", "s", samples, n);
 *	record_finish(&sr, elapsed_s, interrupted);
 *	rc = record_save(&o.store, &sr);
 *	stored_run_free(&sr);
 *
 * (the runner of the measuring commands, cli/measure.h, does all but the
 * cells).
 */
#ifndef CLOCKBENCH_RECORD_H
#define CLOCKBENCH_RECORD_H

#include <stdbool.h>
#include <time.h>

#include "basic/options.h"
#include "probe/env.h"
#include "results/run.h"
#include "results/store.h"

struct store_options {
	const char *db;		/* --db PATH, or NULL: store_default_path() */
	const char *label;	/* --label, or NULL */
	bool no_save;		/* --no-save */
};

/* The --db option: a non-empty path, or a URL libpq can parse. */
option_callback store_option_db;
/* The --label option: a valid label (store_label_valid()). */
option_callback store_option_label;

#define STORE_DB_OPTION(o) \
	OPT_CALLBACK(0, "db", "PATH", &(o)->db, store_option_db, \
		     "results database, a file or a postgresql:// URL (default:\n" \
		     "$CLOCKBENCH_DB, else $XDG_DATA_HOME/clockbench/results.db)")

/* What a measuring command takes to save its run. */
#define STORE_SAVE_OPTIONS(o) \
	STORE_DB_OPTION(o), \
	OPT_CALLBACK(0, "label", "LABEL", &(o)->label, store_option_label, \
		     "save the run under LABEL, e.g. before, after"), \
	OPT_BOOL(0, "no-save", &(o)->no_save, "do not save the run")

/* The same for a command that saves a run per side, labelled its own way. */
#define STORE_SAVE_SIDES_OPTIONS(o) \
	STORE_DB_OPTION(o), \
	OPT_BOOL(0, "no-save", &(o)->no_save, "do not save the runs")

/*
 * The database path for o (--db, else store_default_path()); *create_dirs
 * tells whether it is the XDG default, the only place whose missing
 * directories clockbench creates.
 */
const char *record_db_path(const struct store_options *o, char *buf, size_t len,
			   bool *create_dirs);

/*
 * Open the database for o, creating the default location's directories
 * when access is STORE_WRITE. Prints the error and returns NULL on failure.
 * path (may be NULL) gets the path used.
 */
struct store *record_open(const struct store_options *o,
			  enum store_access access, char *path, size_t len);

/*
 * Before measuring: whether o's store (created when absent) can take the
 * run, so that a path that cannot hold it fails before the measurement,
 * not after. 0 also when it is locked by another process (a warning says
 * so: the run is spooled if it stays locked); -1 with the error printed.
 * 0 at once with --no-save.
 */
int record_check(const struct store_options *o);

/*
 * The command line of this process, kept (main's argc and argv, before any
 * option parsing reorders argv) so that every run it records says how it
 * was made. Called once, first thing in main().
 */
void record_command_line(int argc, char **argv);

/*
 * Start a run of command: uuid, label, host, kernel, environment and start
 * time filled, status complete, no cells. The environment holds "argv",
 * the words after `clockbench` as given (record_command_line()), less a
 * --db and its value (where the run is kept, maybe with a password), and
 * "clockbench_version", and "invocation", a uuid shared by the runs this
 * process records; "argv_exact": false when a word held a control
 * character, masked as every stored text is.
 */
void record_begin(struct stored_run *run, const char *command,
		  const struct store_options *o, const struct env_info *env,
		  const struct timespec *started);

/* run's environment replaced by env's, as record_begin() writes it (timens's
 * namespace side: the same machine, inside the namespace). */
void record_set_env(struct stored_run *run, const struct env_info *env,
		    const struct store_options *o);

/*
 * The command line of this process (its "argv", "invocation",
 * "clockbench_version", as record_begin() puts them) into env, replacing
 * what env held: for runs made elsewhere on its behalf (kernels' guests).
 */
void record_add_command_line(json_t *env, const struct store_options *o);

/* Append a cell with a copy of its n samples in unit; status "ok". */
struct stored_cell *record_add_cell(struct stored_run *run, const char *name,
				    const char *unit, const double *values,
				    size_t n);

/* Set the wall time and status ("interrupted" when interrupted). */
void record_finish(struct stored_run *run, double elapsed_s, bool interrupted);

/*
 * Save run unless --no-save, then print "saved run N to PATH" on stderr
 * and import the runs spooled for that store (results/spool.h). When the
 * store cannot take it, the run is spooled and the error says where and
 * how to import it. 0 when saved or not wanted; -1 with the error printed.
 */
int record_save(const struct store_options *o, struct stored_run *run);

/*
 * The runs that command-line specs (ids, labels, uuids) name, each once,
 * in the order given. Prints the first error and returns -1.
 */
int record_resolve_specs(struct store *st, char *const *specs, size_t nspecs,
			 int64_t **ids, size_t *n);

/* How core cycles were measured, for a stored run's config; as JSON. */
struct core_cycles_settings;
void record_core_cycles(const struct timing_calibration *cal,
			const struct timing_config *cfg, struct core_cycles_settings *out);
json_t *record_core_cycles_config(const struct timing_calibration *cal,
				  const struct timing_config *cfg);
/*
 * What makes a cell's core cycles again (results/core-replay.h): the
 * figures of the calibration (readings NULL), and sc->ref as those with
 * r's readings, which must be set.
 */
struct stored_reference record_reference_figures(const struct timing_calibration *cal);
void record_reference(struct stored_cell *sc, const struct cell_result *r,
		      const struct stored_reference *figures);
/* The run's quality with the pre-flight report (sys may be NULL). */
json_t *record_quality(const struct run_quality *q, const struct system_report *sys);

/* A bench run's cells, samples and settings added to a begun run. */
void record_bench_cells(struct stored_run *out, const struct bench_run *b);
/* A bench run as a stored run: record_begin(), the cells, record_finish(). */
void record_from_bench(const struct bench_run *b, const struct store_options *o,
		       struct stored_run *out);

#endif
