// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench compare BASE OTHER...: compare stored runs, with statistics
 * that separate a real change from noise, in the table styles of the
 * mailing list.
 */
#include <string.h>

#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

static const struct command_usage compare_usage = {
	.name = "compare",
	.synopsis = "[<options>] BASE OTHER...",
	.description =
	"Compare stored runs cell by cell against BASE. BASE and OTHER are run\n"
	"ids or labels; a label naming several runs makes them replicates, and\n"
	"then every group is reduced to one median per run.",
	.footer =
	"Verdicts: better, worse (significant), ~ (no significant change),\n"
	"noisy (not significant and the data are noisy), few (too few samples\n"
	"for a verdict). A change is significant when the adjusted Mann-Whitney\n"
	"p-value is below alpha and the 95% CI of the change (Hodges-Lehmann)\n"
	"lies beyond +-threshold.\n"
	"\n"
	"Exit status: 0 on success, 1 when a run cannot be read, 2 on a usage\n"
	"error, 3 when --fail-on caught a change (for CI and 'git bisect run',\n"
	"whose exit 125 clockbench never uses).",
};

static const char *const correction_names[] = { "holm", "bh", "none", NULL };

struct compare_cli {
	struct compare_options opts;
	int style;		/* enum compare_style */
	int format;		/* enum compare_format */
	int fail_on;		/* enum compare_gate */
	long history;		/* the most runs of history (--history) */
	struct store_options store;
};

static int metric_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	int v = compare_metric_by_name(arg);

	if (v <= METRIC_AUTO) {
		strbuf_addf(err, "unknown metric '%s' (core-cycles, ns, cycles, "
			    "seconds)", arg);
		return -1;
	}
	*(enum compare_metric *)opt->value = (enum compare_metric)v;
	return 0;
}

static int correction_option(const struct option_def *opt, const char *arg,
			     struct strbuf *err)
{
	/* The order of enum compare_correction. */
	for (int i = 0; correction_names[i]; i++)
		if (streq(arg, correction_names[i])) {
			*(enum compare_correction *)opt->value = (enum compare_correction)i;
			return 0;
		}
	options_unknown_choice(err, "correction", arg, correction_names);
	return -1;
}

/* The groups' specs in argv[0..n): n, or the exit status as negative. */
static int parse_compare_options(int argc, char **argv, struct compare_cli *o)
{
	struct option_def options[] = {
		OPT_CHOICE(0, "style", "STYLE", &o->style, compare_style_names,
			   "table (default), mmtests, ratio, summary, ministat"),
		OPT_FORMAT(0, &o->format, compare_format_names,
			   "table (default), json, csv, markdown"),
		OPT_CALLBACK(0, "metric", "M", &o->opts.metric, metric_option,
			     "core-cycles, ns, cycles, seconds (default: core-cycles\n"
			     "when every run has them, else the runs' unit)"),
		OPT_DOUBLE(0, "alpha", "A", &o->opts.alpha, 1e-9, 0.5,
			   "significance level (default 0.05)"),
		OPT_DOUBLE(0, "threshold", "PCT", &o->opts.threshold_pct, 0, 999,
			   "smallest change called significant (default 1)"),
		OPT_DOUBLE(0, "noise", "PCT", &o->opts.noise_pct, 0.001, 999,
			   "CV above which a cell is noisy (default 5)"),
		OPT_CALLBACK(0, "correction", "C", &o->opts.correction,
			     correction_option,
			     "bh (Benjamini-Hochberg, default), holm, none: across\n"
			     "the cells of one comparison"),
		OPT_INT(0, "history", "N", &o->history, 0, 1000,
			"for one run against one: the spread of up to N earlier\n"
			"runs like the base is the noise between runs (default\n"
			"20; 0: none)"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 3 when a cell is significantly worse, better,\n"
			   "or either (change); none (default) never fails"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n;

	compare_options_default(&o->opts);
	o->history = 20;
	o->style = STYLE_TABLE;
	o->format = CFORMAT_TEXT;
	n = parse_options(argc, argv, &compare_usage, options, 0);
	if (n < 0)
		return n;
	if (n < 2)
		return options_fail("need a base and at least one other run (ids "
				    "or labels)");
	return n;
}

/*
 * Load every run a spec names, as digests: compare reads the round medians
 * of each cell, not its samples. -1 with the reason on error.
 */
static int load_group(struct store *st, const char *spec, struct compare_group *g,
		      char *err, size_t errlen)
{
	int64_t *ids = NULL;
	size_t n = 0;

	g->spec = xstrdup(spec);
	if (store_resolve(st, spec, &ids, &n, err, errlen) != 0)
		return -1;
	g->runs = xcalloc(n, sizeof(*g->runs));
	for (size_t i = 0; i < n; i++) {
		if (store_load_run_digest(st, ids[i], &g->runs[i], err, errlen) != 0) {
			free(ids);
			return -1;
		}
		g->nruns++;
	}
	free(ids);
	return 0;
}

static bool in_groups(const struct compare_group *groups, size_t n, int64_t id)
{
	for (size_t g = 0; g < n; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (groups[g].runs[k].id == id)
				return true;
	return false;
}

/* A label of a run of an other side: its runs may be the change itself. */
static bool labelled_as_other(const struct compare_group *groups, size_t n,
			      const char *label)
{
	for (size_t g = 1; g < n && *label; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (streq(groups[g].runs[k].label, label))
				return true;
	return false;
}

/*
 * The history of one run against others: the newest runs (up to max) like
 * the base that no group holds and that are not labelled as an other side
 * (compare_history_matches()). Only single runs need one.
 */
static int load_history(struct store *st, const struct compare_group *groups,
			size_t ngroups, long max, struct compare_group *h,
			char *err, size_t errlen)
{
	const struct stored_run *base = &groups[0].runs[0];
	struct run_filter f = { .host = base->host, .command = base->command,
				.kernel = base->kernel };
	_cleanup_free_ int64_t *ids = NULL;
	size_t n = 0;

	h->spec = xstrdup("history");
	for (size_t g = 0; g < ngroups; g++)
		if (groups[g].nruns != 1)
			return 0;
	if (max <= 0 || store_find_runs(st, &f, &ids, &n, err, errlen) != 0)
		return max <= 0 ? 0 : -1;
	h->runs = xcalloc((size_t)max, sizeof(*h->runs));
	for (size_t i = n; i-- > 0 && h->nruns < (size_t)max;) {
		struct stored_run *run = &h->runs[h->nruns];

		if (in_groups(groups, ngroups, ids[i]))
			continue;
		/* A damaged run only leaves the history short, as runs lists it. */
		if (store_load_run_digest(st, ids[i], run, err, errlen) != 0) {
			warn_msg("%s; left out of the history", err);
			continue;
		}
		if (compare_history_matches(base, run) &&
		    !labelled_as_other(groups, ngroups, run->label))
			h->nruns++;
		else
			stored_run_free(run);
	}
	return 0;
}

static void free_groups(struct compare_group *groups, size_t n)
{
	for (size_t g = 0; g < n; g++) {
		for (size_t k = 0; k < groups[g].nruns; k++)
			stored_run_free(&groups[g].runs[k]);
		free(groups[g].runs);
		free(groups[g].spec);
	}
	free(groups);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli o = { 0 };
	struct compare_group *groups, history = { 0 };
	struct compare_result result;
	struct store *st;
	char err[512];
	size_t ngroups;
	int rc = parse_compare_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	ngroups = (size_t)rc;
	rc = 1;
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	groups = xcalloc(ngroups, sizeof(*groups));
	for (size_t g = 0; g < ngroups; g++)
		if (load_group(st, argv[g], &groups[g], err, sizeof(err)) != 0) {
			error_msg("%s", err);
			goto out;
		}
	if (load_history(st, groups, ngroups, o.history, &history, err,
			 sizeof(err)) != 0) {
		error_msg("%s", err);
		goto out;
	}
	o.opts.history = &history;
	if (compare_build(&result, groups, ngroups, &o.opts, err, sizeof(err)) != 0) {
		error_msg("%s", err);
		goto out;
	}
	rc = compare_print(stdout, &result, (enum compare_style)o.style,
			   (enum compare_format)o.format) == 0 ? 0 : 1;
	if (rc)
		error_msg("cannot write the comparison: %m");
	else if (compare_print_gate(stderr, &result, (enum compare_gate)o.fail_on))
		rc = EXIT_PROBLEM;
	compare_free(&result);
out:
	for (size_t k = 0; k < history.nruns; k++)
		stored_run_free(&history.runs[k]);
	free(history.runs);
	free(history.spec);
	free_groups(groups, ngroups);
	store_close(st);
	return rc;
}
