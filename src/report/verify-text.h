/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What verify prints: in TAP its plan and header (the environment, how
 * --duration is shared, what is held back, the fault injected, the libc
 * path's interposers), each point with its diagnostics, and after the run
 * how long each clock was watched; or one JSON document of every point.
 * The engine's plan and results reach it as these plain structs: report/
 * does not include verify/.
 */
#ifndef CLOCKBENCH_VERIFY_TEXT_H
#define CLOCKBENCH_VERIFY_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "probe/catalog.h"
#include "probe/env.h"
#include "report/tap-write.h"

/* A point's result; an error is a failed point whose message says so. */
enum verify_result { VRESULT_PASS, VRESULT_FAIL, VRESULT_SKIP, VRESULT_ERROR,
		     VRESULT_XFAIL };

/* What a watching group's reads test. */
enum verify_watch_kind {
	VERIFY_WATCH_STEP_BACK,		/* that the clock never goes back */
	VERIFY_WATCH_RATE,		/* MONOTONIC's rate against MONOTONIC_RAW */
};

/*
 * A group of checks that watches a clock for a while. Its watches are
 * the time its reads that test the property ran, as each point reported
 * it: not the whole point (which may re-check libc's own function).
 */
struct verify_watch {
	const char *group;		/* "monotonic" */
	enum verify_watch_kind kind;
	/* A watch inconsistency-check's default 10 s compares with: one
	 * clock watched for a step back, nothing else changed. */
	bool vs_inconsistency_check;
	unsigned planned;		/* its points in the plan */
	double budget_s;		/* each one's planned watch */
	unsigned ran;			/* its points that reported a watch */
	double min_s, max_s;		/* the shortest and longest watch */
	double total_s;			/* their sum */
};

/* A group of checks, as the JSON document lists them. */
struct verify_group_info {
	const char *name, *summary;
	bool needs_root, destructive;
};

struct verify_report {
	unsigned planned;		/* points in the plan */
	unsigned timed;			/* of them time-based */
	double duration_s;		/* --duration */
	double timed_total_s;		/* what the time-based points take */
	double long_watch_s;		/* inconsistency-check's, of each clock */
	bool long_run, destructive;
	unsigned held_back;		/* destructive points skipped */
	const char *fault_env;		/* "CLOCKBENCH_FAULT" */
	const char *fault;		/* its value, or NULL: no fault injected */
	const char *interposer[API_COUNT];	/* "" when libc's own */
	const struct verify_watch *watch;
	size_t nwatch;
	const struct env_info *env;
};

/* The plan and the header lines. */
void verify_text_header(FILE *f, const struct verify_report *r);

/* A point: its diagnostics (lines, or NULL), then its line. */
void verify_text_point(FILE *f, size_t n, const char *name, enum verify_result res,
		       const char *msg, const char *diag);

/* "# each clock was watched for a step back 115-117 ms by monotonic/..., ...",
 * after the run: the watches the points reported. */
void verify_text_watched(FILE *f, const struct verify_report *r);

/* A point as the JSON document lists it; watched_s < 0: it reported no
 * watch (see struct verify_watch). */
json_t *verify_json_point(size_t n, const char *name, enum verify_result res,
			  const char *msg, const char *diag, double elapsed_s,
			  double watched_s);

/*
 * The document: the points (as verify_json_point made them), the totals,
 * the exit status, the groups and what the watchers took.
 */
void verify_json_print(FILE *f, const struct verify_report *r, json_t *points,
		       const struct tap_totals *tot, int exit_status,
		       double elapsed_s, const struct verify_group_info *groups,
		       size_t ngroups);

#endif
