/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/: runs as data: a bench run, the store, recording a run,
 * comparing runs. Includes basic/ and probe/.
 *
 * The results store: every run of a measuring command, with its raw
 * samples and its environment, in SQLite.
 *
 * A run is generic: a list of cells, each with a name (and optional path,
 * api, clock), a status and the raw samples of its primary metric (ns per
 * call for bench, seconds for the scenarios), optionally with cycles per
 * sample. Statistics are recomputed from the samples when needed, so they
 * can change without touching the data.
 *
 * Concurrency: WAL mode and a busy timeout; each run is written in one
 * IMMEDIATE transaction, so concurrent writers wait instead of failing and
 * a reader never sees half a run.
 */
#ifndef CLOCKBENCH_STORE_H
#define CLOCKBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

struct store;

struct stored_cell {
	char *name;		/* "clock-gettime-monotonic", "times-threads-8" */
	char *path;		/* "vdso", "libc", "syscall", or "" */
	char *api;		/* "clock_gettime", or "" */
	char *clock;		/* "monotonic", or "" */
	char *status;		/* "ok", "n/a", "unsupported", "not reached" */
	char *reason;		/* why not ok, or "" */
	char *unit;		/* unit of values: "ns" (per call) or "s" */
	double *values;		/* raw samples of the primary metric */
	size_t n;
	double *cycles;		/* per-sample cycles, or NULL */
	char *cycles_unit;	/* "TSC ticks", "cycles", or "" */
	/*
	 * Per-sample core cycles (per call), or NULL: frequency-invariant,
	 * what compare judges by default (metric core-cycles).
	 */
	double *core_cycles;
	uint64_t batch_calls;	/* calls per sample, 0 when not applicable */
	/*
	 * The round (repetition) each sample was taken in, or NULL. Rounds
	 * interleave the cells over the whole run, so the spread of the
	 * per-round medians shows how the machine drifted during the run:
	 * compare uses them as its samples.
	 */
	uint32_t *rounds;
	uint32_t nrounds;	/* number of distinct rounds, 0 when rounds is NULL */
};

struct stored_run {
	int64_t id;		/* rowid; 0 before it is saved */
	char uuid[37];		/* stable across export/import */
	char *command;		/* "bench", "scale", "timens", "hotplug", "exec" */
	char *label;		/* --label, or "" */
	char *host;
	char *kernel;		/* uname -r */
	char started[32];	/* ISO 8601 UTC, "2026-11-30T13:50:02Z" */
	double elapsed_s;
	char *status;		/* "complete" or "interrupted" */
	json_t *env;		/* the environment fingerprint (owned) */
	json_t *config;		/* the command's settings (owned), or NULL */
	/*
	 * How steady the machine was (owned), or NULL: the per-round core
	 * speed, context switches, steal and migrations, the warm-up and the
	 * pre-flight system report (results/quality.h).
	 */
	json_t *quality;
	struct stored_cell *cells;
	size_t ncells;
};

/* The schema this build writes (PRAGMA user_version of its databases). */
#define STORE_SCHEMA_VERSION 2

/* Where runs go: --db, else $CLOCKBENCH_DB, else XDG data home. */
void store_default_path(char *buf, size_t len);

enum store_access {
	STORE_READ,	/* the file must exist ("no results database at ..") */
	STORE_UPDATE,	/* the file must exist; checked whole before writing */
	STORE_WRITE,	/* as UPDATE, but created when absent (its directory
			 * must exist) */
};

/*
 * store_open() is store_open_access(path, STORE_WRITE, ...). Both check the
 * file and migrate an older schema; STORE_READ never creates a file.
 */
struct store *store_open_access(const char *path, enum store_access access,
				char *err, size_t errlen);

/*
 * Open (creating when absent) and migrate to the current schema. Refuses a
 * file that is not SQLite, is corrupt, or has a newer schema, leaving it
 * untouched; the reason goes to err. Returns NULL on failure.
 */
struct store *store_open(const char *path, char *err, size_t errlen);
void store_close(struct store *st);

/* A new random (version 4) uuid, "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx". */
void store_new_uuid(char out[37]);

/* Save in one transaction; fills run->id (and uuid when empty). 0 or -1. */
int store_save_run(struct store *st, struct stored_run *run, char *err,
		   size_t errlen);
int store_load_run(struct store *st, int64_t id, struct stored_run *run,
		   char *err, size_t errlen);
/*
 * store_load_run() without the samples, for listings: every field is
 * filled except cells[].values, cycles and core_cycles, which stay NULL
 * (n is kept).
 */
int store_load_run_header(struct store *st, int64_t id, struct stored_run *run,
			  char *err, size_t errlen);
/* 0 deleted, 1 no such run, -1 error. */
int store_delete_run(struct store *st, int64_t id, char *err, size_t errlen);

struct run_filter {
	const char *label;	/* NULL: any */
	const char *kernel;
	const char *host;
	const char *command;
	const char *since;	/* ISO date or datetime prefix, inclusive */
	const char *until;
};

/* Ids of matching runs, oldest first (malloc'd array). 0 or -1. */
int store_find_runs(struct store *st, const struct run_filter *f,
		    int64_t **ids, size_t *n, char *err, size_t errlen);

/*
 * A run spec from the command line: a run id ("12") or a label ("before",
 * every run with it, oldest first). 0, or -1 with "no run or label 'x'".
 */
int store_resolve(struct store *st, const char *spec, int64_t **ids, size_t *n,
		  char *err, size_t errlen);

void stored_run_free(struct stored_run *run);
/* nrounds for a rounds array: the highest round + 1 (0 for NULL). */
uint32_t stored_cell_count_rounds(const uint32_t *rounds, size_t n);

/*
 * The export file: {"clockbench_export": STORE_EXPORT_VERSION, "runs": [..]}
 * with one stored_run_to_json() object per run.
 */
#define STORE_EXPORT_VERSION 1

/* Export format: one object per run, samples included. */
json_t *stored_run_to_json(const struct stored_run *run);
/* Validates every field; on error names it ("cells[3].values[2]: not a number"). */
int stored_run_from_json(const json_t *j, struct stored_run *run, char *err,
			 size_t errlen);

/*
 * Import merges: a run whose uuid is already stored is skipped (returns 1,
 * run->id set to the stored run's id).
 */
int store_import_run(struct store *st, struct stored_run *run, char *err,
		     size_t errlen);

/*
 * Checks of what users type. A label is 1 to 64 printable bytes, not a
 * number (that reads as a run id) and not starting with '-'; why says
 * what is wrong. A date is a prefix of "2026-11-30T13:50:02Z" cut after
 * the year, month, day, minute or second (' ' may stand for 'T').
 */
bool store_label_valid(const char *label, char *why, size_t len);
bool store_date_valid(const char *date);

#endif
