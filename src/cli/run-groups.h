/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runs a command line names, loaded (whole, or as compare reads them)
 * and grouped as compare groups them: one group per spec (an id, a uuid,
 * or a label and every run with it). For the commands that read stored runs in groups: plot, report.
 * Their text (and the specs) comes escaped and capped (results/run-text.h):
 * what those commands write from it needs no escaping of its own but its
 * format's (HTML entities, gnuplot quotes).
 */
#ifndef CLOCKBENCH_RUN_GROUPS_H
#define CLOCKBENCH_RUN_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

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
	/* What compare reads (store_load_run_digest()): any number of runs. */
	RUNS_DIGEST,
};

#define RUN_GROUPS_WHOLE_MAX 20
/* Returned when RUNS_WHOLE would read more: a usage error (exit 2). */
#define RUN_GROUPS_TOO_MANY 2

/*
 * 0, -1 with the reason ("no run or label 'x'") in err, or
 * RUN_GROUPS_TOO_MANY with err saying so, before any run is read.
 */
int run_groups_load(struct store *st, char *const *specs, size_t nspecs,
		    enum run_load load, struct compare_group **groups,
		    size_t *ngroups, struct strbuf *err);

/*
 * clockbench timens saves its two sides as two runs: for each side given
 * without the other, add the other (same start, the next or previous id)
 * as a group of its own. 0, or -1 with the reason in err.
 */
int run_groups_add_timens_partners(struct store *st, enum run_load load,
				   struct compare_group **groups, size_t *ngroups,
				   struct strbuf *err);

/* Whether r is one side of a clockbench timens run. */
bool run_is_timens_side(const struct stored_run *r);

/* When run_groups_load_sides() adds the other side of a timens run. */
enum timens_partners {
	PARTNERS_NEVER,
	PARTNERS_WHEN_TIMENS,	/* when the first run given is a timens side */
	PARTNERS_ALWAYS,
};

/*
 * run_groups_load(), then run_groups_add_timens_partners() as partners
 * says: what plot and report read. 0, -1 or RUN_GROUPS_TOO_MANY with the
 * reason in err.
 */
int run_groups_load_sides(struct store *st, char *const *specs, size_t nspecs,
			  enum timens_partners partners, enum run_load load,
			  struct compare_group **groups, size_t *ngroups,
			  struct strbuf *err);

/*
 * run_groups_load_sides() into *groups anew (what they held is freed), for
 * a command to return: 0; 2 with a usage error when RUNS_WHOLE would read
 * too many runs, err followed by instead ("or write --format mail ..."); 1
 * with the error printed otherwise.
 */
int run_groups_reload(struct store *st, char *const *specs, size_t nspecs,
		      enum timens_partners partners, enum run_load load,
		      const char *instead, struct compare_group **groups,
		      size_t *ngroups);

void run_groups_free(struct compare_group *groups, size_t ngroups);

#endif
