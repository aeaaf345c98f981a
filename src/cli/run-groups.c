// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/run-groups.h"

#include <stdio.h>
#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/compare.h"
#include "results/run-text.h"

static int load_group(struct store *st, const char *spec, struct compare_group *g,
		      char *err, size_t errlen)
{
	int64_t *ids = NULL;
	size_t n = 0;

	struct strbuf shown = STRBUF_INIT;

	strbuf_add_text(&shown, spec, TEXT_CELL_MAX);
	g->spec = strbuf_detach(&shown);
	if (store_resolve(st, spec, &ids, &n, err, errlen) != 0)
		return -1;
	g->runs = xcalloc(n ? n : 1, sizeof(*g->runs));
	for (size_t i = 0; i < n; i++) {
		if (store_load_run(st, ids[i], &g->runs[i], err, errlen) != 0) {
			free(ids);
			return -1;
		}
		/* What plot and report draw and write is text already escaped. */
		stored_run_escape_text(&g->runs[i], TEXT_LINE_MAX);
		g->nruns++;
	}
	free(ids);
	return 0;
}

int run_groups_load(struct store *st, char *const *specs, size_t nspecs,
		    struct compare_group **groups, size_t *ngroups, char *err,
		    size_t errlen)
{
	*groups = xcalloc(nspecs ? nspecs : 1, sizeof(**groups));
	*ngroups = nspecs;
	for (size_t g = 0; g < nspecs; g++)
		if (load_group(st, specs[g], &(*groups)[g], err, errlen) != 0)
			return -1;
	return 0;
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
	const json_t *mode = r->config ? json_object_get(r->config, "mode") : NULL;

	if (!streq(json_string_value(mode), "timens"))
		return NULL;
	return json_string_value(json_object_get(r->config, "side"));
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
			struct stored_run *out, char *err, size_t errlen)
{
	for (int64_t d = -1; d <= 1; d += 2) {
		struct stored_run h;
		bool match;

		if (store_load_run_header(st, r->id + d, &h, err, errlen) != 0)
			continue;
		match = partners(r, &h);
		stored_run_free(&h);
		if (match) {
			int rc = store_load_run(st, r->id + d, out, err, errlen);

			if (rc == 0)
				stored_run_escape_text(out, TEXT_LINE_MAX);
			return rc;
		}
	}
	err[0] = '\0';
	return 1;
}

int run_groups_add_timens_partners(struct store *st, struct compare_group **groups,
				   size_t *ngroups, char *err, size_t errlen)
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
			rc = find_partner(st, r, add->runs, err, errlen);
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

int run_groups_load_sides(struct store *st, char *const *specs, size_t nspecs,
			  enum timens_partners partners,
			  struct compare_group **groups, size_t *ngroups,
			  char *err, size_t errlen)
{
	if (run_groups_load(st, specs, nspecs, groups, ngroups, err, errlen))
		return -1;
	if (partners == PARTNERS_NEVER ||
	    (partners == PARTNERS_WHEN_TIMENS &&
	     !run_is_timens_side(&(*groups)[0].runs[0])))
		return 0;
	return run_groups_add_timens_partners(st, groups, ngroups, err, errlen);
}
