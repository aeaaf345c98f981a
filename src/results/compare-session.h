/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one door to a verdict. Every command that judges runs (compare,
 * report and its mail, plot, ab, timens, exec, kernels) builds its
 * comparisons through a session, so that any two of them give the same
 * verdicts for the same runs: the groups read by one loader
 * (results/run-groups.h), the history of runs like the base read the same
 * way from the store, the same options, and the same choice of cells.
 *
 * A session is opened on runs of the store named by selectors (compare,
 * report, plot), or on groups a command holds already, the runs it has
 * just measured and saved (ab, timens, exec, kernels): those are
 * borrowed. The history is read from the store the first time a
 * comparison is built, and only when it can be used (compare_build()
 * judges one run against one by it).
 *
 *	struct compare_session s;
 *
 *	if (compare_session_open(&s, st, &sel, &opts, err) == 0 &&
 *	    compare_session_build(&s, &result, err) == 0) {
 *		... print result ...
 *		compare_free(&result);
 *	}
 *	compare_session_close(&s);
 */
#ifndef CLOCKBENCH_COMPARE_SESSION_H
#define CLOCKBENCH_COMPARE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "results/compare.h"
#include "results/run-groups.h"

struct compare_session {
	struct compare_group *groups;
	size_t ngroups;
	/*
	 * opts.history: the history the caller gave, else the one read
	 * from st (NULL until then, and without a store).
	 */
	struct compare_options opts;
	/* Only rows whose "name" or "name/path" matches (fnmatch); NULL: all. */
	const char *cells;
	/* Where the history is read from; NULL: no history. */
	struct store *st;
	long history_max;
	/* private */
	struct compare_group history;
	bool history_read;
	bool owns_groups;
};

/*
 * The runs sel names, read and grouped into s (zeroed, or a session
 * opened before: what it held is released),
 * judged with opts (compare_options_default() when NULL) and a history of
 * up to history_max runs from st (COMPARE_HISTORY_DEFAULT for compare's
 * policy, 0 for none). 0, -1 with err, or RUN_GROUPS_TOO_MANY with err.
 * s is to be closed in every case.
 */
int compare_session_open(struct compare_session *s, struct store *st,
			 const struct run_selection *sel,
			 const struct compare_options *opts, long history_max,
			 struct strbuf *err);

/*
 * A session on groups the caller keeps (its runs just measured), with
 * opts and a history from st as above (st may be NULL: none).
 */
void compare_session_adopt(struct compare_session *s, struct compare_group *groups,
			   size_t ngroups, const struct compare_options *opts,
			   struct store *st, long history_max);

/*
 * The comparison of the session's groups (the first is the base): 0, or
 * -1 with err (r then needs no compare_free()) when they cannot be
 * compared or no chosen cell is measured in the base and another group.
 */
int compare_session_build(struct compare_session *s, struct compare_result *r,
			  struct strbuf *err);

/* The same for some of them (a timens pair of a report's runs). */
int compare_session_build_groups(struct compare_session *s,
				 struct compare_group *groups, size_t ngroups,
				 struct compare_result *r, struct strbuf *err);

/*
 * The comparison of the sides of an interleaved campaign just measured
 * (ab, timens, exec): side i is runs[i], under the name the caller gave
 * groups[i].spec; groups stay the caller's as long as r, which borrows
 * them. No history is read: interleaved rounds carry their own noise.
 * paired: round k of every side ran together. 0, or -1 with err.
 */
int compare_session_sides(struct compare_group *groups, size_t nsides,
			  struct stored_run *runs, bool paired,
			  struct compare_result *r, struct strbuf *err);

/* Whether row is one of the chosen cells. */
bool compare_session_selects(const struct compare_session *s,
			     const struct compare_row *row);

/* What s holds (its own groups, the history); s can be opened again. */
void compare_session_close(struct compare_session *s);

#endif
