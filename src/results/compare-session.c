// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/compare-session.h"

#include <stdio.h>
#include <string.h>

#include "basic/error.h"
#include "basic/util.h"

static void session_init(struct compare_session *s,
			 const struct compare_options *opts, struct store *st,
			 long history_max)
{
	memset(s, 0, sizeof(*s));
	if (opts)
		s->opts = *opts;
	else
		compare_options_default(&s->opts);
	s->st = st;
	s->history_max = history_max;
}

int compare_session_open(struct compare_session *s, struct store *st,
			 const struct run_selection *sel,
			 const struct compare_options *opts, long history_max,
			 struct strbuf *err)
{
	compare_session_close(s);
	session_init(s, opts, st, history_max);
	s->owns_groups = true;
	return run_groups_read(st, sel, &s->groups, &s->ngroups, err);
}

void compare_session_adopt(struct compare_session *s, struct compare_group *groups,
			   size_t ngroups, const struct compare_options *opts,
			   struct store *st, long history_max)
{
	session_init(s, opts, st, history_max);
	s->groups = groups;
	s->ngroups = ngroups;
}

int compare_session_sides(struct compare_group *groups, size_t nsides,
			  struct stored_run *runs, bool paired,
			  struct compare_result *r, struct strbuf *err)
{
	struct compare_options opts;
	struct compare_session s;
	int rc;

	for (size_t i = 0; i < nsides; i++) {
		groups[i].runs = &runs[i];
		groups[i].nruns = 1;
	}
	compare_options_default(&opts);
	opts.paired = paired;
	compare_session_adopt(&s, groups, nsides, &opts, NULL, 0);
	rc = compare_session_build(&s, r, err);
	compare_session_close(&s);
	return rc;
}

/*
 * The history, read once for the session's own groups: what compare_build()
 * needs of it (one run against one, runs like the base) is decided there
 * for whichever groups a comparison takes. Rounds interleaved with the
 * other side's carry their own noise, so a paired session reads none.
 */
static int read_history(struct compare_session *s, struct strbuf *err)
{
	if (s->history_read || s->opts.history)
		return 0;
	s->history_read = true;
	if (!s->st || s->opts.paired || s->ngroups < 2)
		return 0;
	if (compare_history_load(s->st, s->groups, s->ngroups, s->history_max,
				 &s->history, err) != 0)
		return -1;
	s->opts.history = &s->history;
	return 0;
}

bool compare_session_selects(const struct compare_session *s,
			     const struct compare_row *row)
{
	return compare_cell_matches(s->cells, row->name, row->path);
}

/* Whether a chosen row is measured in the base and in another group. */
static bool any_chosen_diff(const struct compare_session *s,
			    const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].valid &&
			    compare_session_selects(s, &r->rows[i]))
				return true;
	return false;
}

/*
 * A run in the base and in another group is compared with itself
 * (`compare 6.1 6.1`): its verdicts say nothing. Said, not refused.
 */
static void warn_shared_runs(const struct compare_group *groups, size_t ngroups)
{
	for (size_t g = 1; g < ngroups; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			for (size_t b = 0; b < groups[0].nruns; b++)
				if (groups[g].runs[k].id == groups[0].runs[b].id &&
				    groups[0].runs[b].id > 0) {
					warn_msg("run %lld is on both sides (%s and %s): "
						 "it is compared with itself",
						 (long long)groups[0].runs[b].id,
						 groups[0].spec, groups[g].spec);
					return;
				}
}

int compare_session_build_groups(struct compare_session *s,
				 struct compare_group *groups, size_t ngroups,
				 struct compare_result *r, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	if (read_history(s, err) != 0)
		return -1;
	s->opts.cells = s->cells;
	if (compare_build(r, groups, ngroups, &s->opts, err) != 0) {
		compare_free(r);
		return -1;
	}
	warn_shared_runs(groups, ngroups);
	if (any_chosen_diff(s, r))
		return 0;
	strbuf_addf(err, "no cell %sis measured in the base and another group in "
		    "the metric '%s': nothing to compare",
		    s->cells ? "that matches --cell " : "", compare_metric_name(r->metric));
	compare_free(r);
	return -1;
}

int compare_session_build(struct compare_session *s, struct compare_result *r,
			  struct strbuf *err)
{
	return compare_session_build_groups(s, s->groups, s->ngroups, r, err);
}

void compare_session_close(struct compare_session *s)
{
	if (s->owns_groups)
		run_groups_free(s->groups, s->ngroups);
	compare_group_release(&s->history);
	memset(s, 0, sizeof(*s));
}
