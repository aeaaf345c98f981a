/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/: runs as data: a bench run, the store, recording a run,
 * comparing runs (its layer: src/meson.build).
 *
 * The results store: every run of a measuring command, with its raw
 * samples and its environment, in an SQLite file or, given a
 * postgresql:// URL, on a PostgreSQL server (a fleet's store): the same
 * schema, versions and behaviour on both (store-backend.h).
 *
 * A run is generic: a list of cells, each with a name (and optional path,
 * api, clock), a status and the raw samples of its primary metric (ns per
 * call for bench, seconds for the scenarios), optionally with cycles per
 * sample. Statistics are recomputed from the samples when needed, so they
 * can change without touching the data.
 *
 * Concurrency: each run is written in one transaction, so concurrent
 * writers wait instead of failing (SQLite: WAL mode and a busy timeout of
 * 30 s, or $CLOCKBENCH_BUSY_TIMEOUT) and a reader never sees half a run;
 * a run's uuid is unique, so a run sent twice is stored once.
 */
#ifndef CLOCKBENCH_STORE_H
#define CLOCKBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "basic/strbuf.h"
#include "results/store-access.h"

struct store;

/*
 * What makes a cell's core cycles again from its other samples
 * (results/core-replay.h), when they were measured against the core-speed
 * reference: the reading of the reference before each batch, and the
 * figures of the calibration that turned readings and batches into core
 * cycles. The store keeps these rather than the core cycles themselves.
 */
struct stored_reference {
	double *readings;	/* per sample, in time-base units; NULL: none */
	bool base_is_values;	/* batches timed by the clock (values), else by
				 * the cycle counter (cycles) */
	double base_boundary;	/* taken off each batch: boundary_cycles or _ns */
	double reading_core;	/* a reading's length, core cycles */
	double batch_boundary_core;	/* a batch's clock reads, core cycles */
};

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
	struct stored_reference ref;
	uint64_t batch_calls;	/* calls per sample, 0 when not applicable */
	/*
	 * The round (repetition) each sample was taken in, or NULL. Rounds
	 * interleave the cells over the whole run, so the spread of the
	 * per-round medians shows how the machine drifted during the run:
	 * compare uses them as its samples.
	 */
	uint32_t *rounds;
	uint32_t nrounds;	/* number of distinct rounds, 0 when rounds is NULL */
	/*
	 * Loaded as a digest (store_load_run_digest(), results/digest.h):
	 * values, cycles and core_cycles then hold one median per round, and
	 * median_* are the medians of all samples (NaN for a metric absent).
	 */
	bool digest;
	double median_values, median_cycles, median_core;
};

struct run_facts;

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
	/*
	 * env and config decoded into fields on the first run_facts() call
	 * (results/run-facts.h), or NULL; freed with the run.
	 */
	struct run_facts *facts;
};

/*
 * What clockbench itself writes, and so the most an imported run may hold:
 * import refuses a value beyond these, naming it, so that a file cannot
 * make show or compare allocate or loop beyond what a real run needs.
 * Text must also be free of control characters (every command prints it).
 */
enum {
	STORE_ROUNDS_MAX = 1000,	/* --rounds, --repetitions: rounds 0 to 999 */
	STORE_SAMPLES_MAX = 1000000,	/* one cell: bench's max_samples, exec -n */
	STORE_CELLS_MAX = 100000,	/* one run: cells x thread counts, hotplug */
	STORE_TEXT_MAX = 255,		/* host, kernel, label, cell name, reason */
	STORE_NAME_MAX = 64,		/* command, path, api, clock, status, units */
	STORE_JSON_TEXT_MAX = 65536,	/* a key or string of environment, config */
	STORE_JSON_MAX = 1 << 20,	/* environment, config or quality, whole */
};
#define STORE_BATCH_CALLS_MAX (1ull << 40)	/* calls a sample: scale --calls */

/* Where runs go: --db, else $CLOCKBENCH_DB, else XDG data home. */
void store_default_path(char *buf, size_t len);
/*
 * Whether a --db names a PostgreSQL server: a postgresql:// or postgres://
 * URL (the scheme in any case), or a key=value connection string that
 * libpq reads ("host=db1 dbname=fleet").
 */
bool store_is_url(const char *db);
/*
 * db as messages show it (malloc'd): a URL or connection string without
 * any password, however it was spelt (password=, %70assword=, a raw '@'
 * in the password, sslpassword=).
 */
char *store_display_name(const char *db);
/* 0 when libpq can parse url; else -1 with the reason ("missing "=" after ..."). */
int store_check_url(const char *url, struct strbuf *err);
/* A --db that is a symbolic link leads to a store: 0, or -1 with why. */
int store_check_link(const char *path, struct strbuf *err);

/*
 * store_open() is store_open_access(path, STORE_WRITE, ...). Both check the
 * file; UPDATE and WRITE migrate an older schema (enum store_access:
 * results/store-access.h).
 */
struct store *store_open_access(const char *path, enum store_access access,
				struct strbuf *err);
/*
 * What a reader of st should be told, or NULL: a read-only store whose
 * write-ahead log could not be read ("the latest runs may be missing").
 */
const char *store_warning(const struct store *st);

/*
 * Open (creating when absent) and migrate to the current schema. Refuses a
 * file that is not SQLite, is corrupt, or has a newer schema, leaving it
 * untouched; the reason goes to err. Returns NULL on failure.
 */
struct store *store_open(const char *path, struct strbuf *err);
void store_close(struct store *st);
/* What messages call it: its path, or its URL without a password. */
const char *store_name(const struct store *st);

/* A new random (version 4) uuid, "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx". */
void store_new_uuid(char out[37]);

/*
 * Whether a run could be saved now, without waiting: 0 yes; 1 another
 * process holds the write lock (err says so); -1 it cannot be written.
 */
int store_probe_write(struct store *st, struct strbuf *err);

/* A new uuid and the start time (now), where they are still empty. */
void stored_run_fill_defaults(struct stored_run *run);

/* Save in one transaction; fills run->id (and uuid when empty). 0 or -1. */
int store_save_run(struct store *st, struct stored_run *run, struct strbuf *err);
/*
 * 0; STORE_DAMAGED when this run's stored data cannot be read back (err
 * names the run; the others may be fine); -1 when the store failed.
 */
#define STORE_DAMAGED 1
int store_load_run(struct store *st, int64_t id, struct stored_run *run,
		   struct strbuf *err);
/*
 * store_load_run() without the samples, for listings: every field is
 * filled except cells[].values, cycles and core_cycles, which stay NULL
 * (n is kept).
 */
int store_load_run_header(struct store *st, int64_t id, struct stored_run *run,
			  struct strbuf *err);
/*
 * store_load_run() with each cell measured in rounds as its digest
 * (results/digest.h): what compare needs, without reading the samples of
 * those cells (a run saved before schema 3 is read whole and reduced).
 */
int store_load_run_digest(struct store *st, int64_t id, struct stored_run *run,
			  struct strbuf *err);
/* 0 deleted, 1 no such run, -1 error. */
int store_delete_run(struct store *st, int64_t id, struct strbuf *err);

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
		    int64_t **ids, size_t *n, struct strbuf *err);

/*
 * A run as listings show it: its row without its environment, quality or
 * cells (run.env, run.quality and run.cells are NULL), how many cells it
 * has and how many of them are "ok", and whether its timings are emulated
 * (booted under qemu's TCG: environment.vm.emulated).
 */
struct run_summary {
	struct stored_run run;
	size_t cells, cells_ok;
	bool emulated;
};

/*
 * The runs store_find_runs() finds, as summaries, oldest first, read in one
 * statement whatever their number (no samples, no per-run queries); with
 * config, run.config is read too (else NULL). A run whose stored JSON is
 * damaged is left out and named to damaged (may be NULL). 0, or -1 with
 * err.
 */
int store_list_runs(struct store *st, const struct run_filter *f, bool config,
		    struct run_summary **runs, size_t *n,
		    void (*damaged)(const char *reason), struct strbuf *err);
void run_summaries_free(struct run_summary *runs, size_t n);

/*
 * A run spec from the command line: a run id ("12"), a uuid, a label
 * ("before", every run with it, oldest first), or a selector of the runs
 * of a host, a kernel, a label or a command, "host=vm1", "kernel=6.18*",
 * several joined by ',' ("host=vm1,label=nightly"; the values are
 * patterns as in run_filter). 0, or -1 with "no run or label 'x'".
 */
int store_resolve(struct store *st, const char *spec, int64_t **ids, size_t *n,
		  struct strbuf *err);

/* 1 with *id when a run with uuid is stored, 0 when not, -1. */
int store_find_uuid(struct store *st, const char *uuid, int64_t *id,
		    struct strbuf *err);

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
/*
 * Validates every field against the limits above; on error names it
 * ("cells[3].samples[2]: expected a number, got a string").
 */
int stored_run_from_json(const json_t *j, struct stored_run *run,
			 struct strbuf *err);
/*
 * The same in pieces, for files read a cell at a time: every field of the
 * run object but "cells" (run->cells stays empty), and cell idx of it.
 * The reader passes the whole run to stored_run_check() afterwards.
 */
int stored_run_header_from_json(const json_t *j, struct stored_run *run,
				struct strbuf *err);
int stored_cell_from_json(const json_t *j, size_t idx, struct stored_cell *c,
			  struct strbuf *err);

/*
 * The one gate of a run that comes from elsewhere: import, pull, push,
 * the spool and a foreign store file all pass it, since a store can hold
 * what an export file could not (a crafted file, a fleet database written
 * by anyone). Checks every field against the limits above and the rules
 * of the JSON reader (uuid form, label rules, sizes of every text field
 * and of the environment, config and quality, no control characters);
 * 0, or -1 with the field named ("label: '1': a label cannot be a
 * number: that reads as a run id"). store_import_run() calls it.
 */
int stored_run_check(const struct stored_run *run, struct strbuf *err);

/*
 * Import merges: a run whose uuid is already stored is skipped (returns 1,
 * run->id set to the stored run's id).
 */
int store_import_run(struct store *st, struct stored_run *run, struct strbuf *err);

/*
 * Several runs in one transaction, all of them or none: next(ctx, run, err)
 * gives each in turn (1; 0 after the last; -1 with err), each passes the
 * gate, and a run whose uuid is stored already is an error here (a batch
 * is new runs: a guest's boot). 0 with their ids in ids[0..*n); -1 with
 * err and nothing stored (*n = 0), also past max runs.
 */
typedef int (*store_run_source)(void *ctx, struct stored_run *run, struct strbuf *err);
int store_import_batch(struct store *st, store_run_source next, void *ctx,
		       int64_t *ids, size_t max, size_t *n, struct strbuf *err);

/*
 * Checks of what users type. A label is 1 to 64 printable bytes, not a
 * number (that reads as a run id) and not starting with '-'; err says
 * what is wrong. A date is a prefix of "2026-11-30T13:50:02Z" cut after
 * the year, month, day, minute or second (' ' may stand for 'T').
 */
bool store_label_valid(const char *label, struct strbuf *err);
bool store_date_valid(const char *date);

/*
 * The default label of a run of one invocation: "COMMAND-ID8-PART", ID8 the
 * first 8 hex digits of the invocation's uuid (store_new_uuid), so that the
 * runs of two invocations never share a label and compare never pools them
 * as replicates. false when it did not fit in len (out is then cut).
 */
bool store_invocation_label(char *out, size_t len, const char *command,
			    const char *invocation, const char *part);

#endif
