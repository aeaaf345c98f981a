// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/run-groups.h"

#include <stdio.h>
#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/compare.h"
#include "results/run-facts.h"
#include "results/run-text.h"

static int load_run(struct store *st, int64_t id, enum run_load load, bool shown,
		    struct stored_run *run, struct strbuf *err)
{
	int rc = load == RUNS_DIGEST ? store_load_run_digest(st, id, run, err) :
		 store_load_run(st, id, run, err);

	if (rc == 0 && shown)
		stored_run_escape_text(run, TEXT_LINE_MAX);
	return rc;
}

int run_group_add(struct store *st, int64_t id, enum run_load load, bool shown,
		  struct compare_group *g, size_t *cap, struct strbuf *err)
{
	grow_array((void **)&g->runs, cap, g->nruns + 1, sizeof(*g->runs));
	if (load_run(st, id, load, shown, &g->runs[g->nruns], err) != 0)
		return -1;
	g->nruns++;
	return 0;
}

static int load_group(struct store *st, const int64_t *ids, size_t n,
		      const struct run_selection *sel, struct compare_group *g,
		      struct strbuf *err)
{
	size_t cap = 0;

	for (size_t i = 0; i < n; i++)
		if (run_group_add(st, ids[i], sel->load, sel->shown, g, &cap, err) != 0)
			return -1;
	return 0;
}

/*
 * Every spec resolved before a run is read, so that too many runs are
 * refused at once rather than after minutes of decoding samples.
 */
static int resolve_all(struct store *st, char *const *specs, size_t nspecs,
		       int64_t **ids, size_t *n, size_t *total, struct strbuf *err)
{
	*total = 0;
	for (size_t g = 0; g < nspecs; g++) {
		if (store_resolve(st, specs[g], &ids[g], &n[g], err) != 0)
			return -1;
		*total += n[g];
	}
	return 0;
}

/* A group's name: the spec as given, escaped and capped when shown. */
static char *group_spec(const char *spec, bool shown)
{
	struct strbuf sb = STRBUF_INIT;

	if (!shown)
		return xstrdup(spec);
	strbuf_add_text(&sb, spec, TEXT_CELL_MAX);
	return strbuf_detach(&sb);
}

static int read_specs(struct store *st, const struct run_selection *sel,
		      struct compare_group **groups, size_t *ngroups,
		      struct strbuf *err)
{
	size_t nspecs = sel->nspecs;
	int64_t **ids = xcalloc(nspecs ? nspecs : 1, sizeof(*ids));
	size_t *n = xcalloc(nspecs ? nspecs : 1, sizeof(*n)), total;
	int rc = -1;

	*groups = xcalloc(nspecs ? nspecs : 1, sizeof(**groups));
	*ngroups = nspecs;
	for (size_t g = 0; g < nspecs; g++)
		(*groups)[g].spec = group_spec(sel->specs[g], sel->shown);
	if (resolve_all(st, sel->specs, nspecs, ids, n, &total, err) != 0)
		goto out;
	if (sel->load == RUNS_WHOLE && total > RUN_GROUPS_WHOLE_MAX) {
		strbuf_setf(err, "%zu runs given, at most %d are read with their "
			    "samples", total, RUN_GROUPS_WHOLE_MAX);
		rc = RUN_GROUPS_TOO_MANY;
		goto out;
	}
	rc = 0;
	for (size_t g = 0; g < nspecs && !rc; g++)
		rc = load_group(st, ids[g], n[g], sel, &(*groups)[g], err) ? -1 : 0;
out:
	for (size_t g = 0; g < nspecs; g++)
		free(ids[g]);
	free(ids);
	free(n);
	return rc;
}

void run_groups_free(struct compare_group *groups, size_t ngroups)
{
	for (size_t g = 0; g < ngroups; g++) {
		for (size_t k = 0; k < groups[g].nruns; k++)
			stored_run_free(&groups[g].runs[k]);
		free(groups[g].runs);
		free(groups[g].spec);
	}
	free(groups);
}

/* "host" or "timens" for a side of clockbench timens, else NULL. */
static const char *timens_side(const struct stored_run *r)
{
	const struct run_facts *f = run_facts(r);

	return f->mode && streq(f->mode, "timens") ? f->settings.timens.side : NULL;
}

static bool partners(const struct stored_run *a, const struct stored_run *b)
{
	const char *sa = timens_side(a), *sb = timens_side(b);

	return sa && sb && !streq(sa, sb) && streq(a->started, b->started) &&
	       streq(a->host, b->host);
}

static bool partner_loaded(const struct compare_group *groups, size_t n,
			   const struct stored_run *r)
{
	for (size_t g = 0; g < n; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (partners(r, &groups[g].runs[k]))
				return true;
	return false;
}

/* The partner of r among its neighbouring ids, loaded into out: 0, 1 none. */
static int find_partner(struct store *st, const struct stored_run *r,
			const struct run_selection *sel, struct stored_run *out,
			struct strbuf *err)
{
	for (int64_t d = -1; d <= 1; d += 2) {
		struct stored_run h;
		bool match;

		if (store_load_run_header(st, r->id + d, &h, err) != 0)
			continue;
		match = partners(r, &h);
		stored_run_free(&h);
		if (match)
			return load_run(st, r->id + d, sel->load, sel->shown, out, err);
	}
	strbuf_reset(err);
	return 1;
}

/* For each side given without the other: the other, as a group of its own. */
static int add_timens_partners(struct store *st, const struct run_selection *sel,
			       struct compare_group **groups, size_t *ngroups,
			       struct strbuf *err)
{
	size_t given = *ngroups;

	for (size_t g = 0; g < given; g++)
		for (size_t k = 0; k < (*groups)[g].nruns; k++) {
			const struct stored_run *r = &(*groups)[g].runs[k];
			struct compare_group *add;
			char spec[32];
			int rc;

			if (!timens_side(r) || partner_loaded(*groups, *ngroups, r))
				continue;
			*groups = xrealloc(*groups, (*ngroups + 1) * sizeof(**groups));
			add = &(*groups)[(*ngroups)++];
			memset(add, 0, sizeof(*add));
			add->runs = xcalloc(1, sizeof(*add->runs));
			rc = find_partner(st, r, sel, add->runs, err);
			if (rc < 0)
				return -1;
			if (rc > 0) {
				free(add->runs);
				(*ngroups)--;
				continue;
			}
			add->nruns = 1;
			snprintf(spec, sizeof(spec), "%lld", (long long)add->runs[0].id);
			add->spec = xstrdup(spec);
		}
	return 0;
}

bool run_is_timens_side(const struct stored_run *r)
{
	return r && timens_side(r) != NULL;
}

int run_groups_read(struct store *st, const struct run_selection *sel,
		    struct compare_group **groups, size_t *ngroups,
		    struct strbuf *err)
{
	int rc = read_specs(st, sel, groups, ngroups, err);

	if (rc)
		return rc;
	if (sel->partners == PARTNERS_NEVER ||
	    (sel->partners == PARTNERS_WHEN_TIMENS &&
	     !run_is_timens_side(&(*groups)[0].runs[0])))
		return 0;
	return add_timens_partners(st, sel, groups, ngroups, err);
}
