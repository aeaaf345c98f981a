/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runs a command line names, read from the store and grouped as
 * compare groups them: one group per spec (an id, a uuid, or a label and
 * every run with it). The one run loader of the commands that judge
 * stored runs; they reach it through the comparison's door
 * (results/compare-session.h).
 */
#ifndef CLOCKBENCH_RUN_GROUPS_H
#define CLOCKBENCH_RUN_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/store.h"

struct compare_group;

/* What is read of each run. */
enum run_load {
	/*
	 * Every sample, which the charts of each run and its statistics
	 * need: some 50 ms a default bench run to decode and sort, so at most
	 * RUN_GROUPS_WHOLE_MAX runs (a report of 2 x 100 runs took minutes).
	 */
	RUNS_WHOLE,
	/* What a comparison reads (store_load_run_digest()): any number of runs. */
	RUNS_DIGEST,
};

#define RUN_GROUPS_WHOLE_MAX 20
/* Returned when RUNS_WHOLE would read more: a usage error (exit 2). */
#define RUN_GROUPS_TOO_MANY 2

/* When a timens run's other side is read too (it is saved as two runs). */
enum timens_partners {
	PARTNERS_NEVER,
	PARTNERS_WHEN_TIMENS,	/* when the first run given is a timens side */
	PARTNERS_ALWAYS,
};

/* Which runs to read, and how. */
struct run_selection {
	char *const *specs;
	size_t nspecs;
	enum run_load load;
	enum timens_partners partners;
	/*
	 * Every string of a run escaped and capped as it is read
	 * (results/run-text.h), for the commands that write whole documents
	 * from them (plot's gnuplot scripts, report's HTML and mail). compare
	 * escapes each string where it prints it, and writes JSON as stored.
	 */
	bool shown;
};

/*
 * The groups sel names, a group per spec, then the other side of each
 * timens run as sel->partners says, each as a group of its own. Every
 * spec is resolved before a run is read. 0, -1 with the reason ("no run
 * or label 'x'") in err, or RUN_GROUPS_TOO_MANY with err saying so, before
 * any run is read; *groups is set in every case (run_groups_free()).
 */
int run_groups_read(struct store *st, const struct run_selection *sel,
		    struct compare_group **groups, size_t *ngroups,
		    struct strbuf *err);

/*
 * Run id of st appended to group g, read as load says (and escaped when
 * shown); *cap is g->runs' capacity. 0, or -1 with err.
 */
int run_group_add(struct store *st, int64_t id, enum run_load load, bool shown,
		  struct compare_group *g, size_t *cap, struct strbuf *err);

void run_groups_free(struct compare_group *groups, size_t ngroups);

/* Whether r is one side of a clockbench timens run. */
bool run_is_timens_side(const struct stored_run *r);

#endif
