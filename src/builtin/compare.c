// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench compare BASE OTHER...: compare stored runs, with statistics
 * that separate a real change from noise, in the table styles of the
 * mailing list.
 */
#include <string.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "results/compare-session.h"
#include "report/compare-format.h"
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
	"noisy (not significant and the data are noisy), few (too few samples,\n"
	"or one run against one with nothing measuring how far runs move: no\n"
	"replicates, no history of 4 runs like the base, no interleaving). A\n"
	"change is significant when the adjusted p-value of the test named in\n"
	"the header (Mann-Whitney U; Student's t on the logs for replicates,\n"
	"few samples or a history; Wilcoxon signed-rank for interleaved rounds)\n"
	"is below alpha and its 95% CI lies beyond +-threshold. Every change\n"
	"is the ratio of the two values shown.\n"
	"\n"
	"Exit status: 0 on success, 1 when a run cannot be read, 2 on a usage\n"
	"error, 3 when --fail-on caught a change (for CI and 'git bisect run';\n"
	"compare never exits 125, bisect's \"skip\", which kernels uses for a\n"
	"kernel it could not measure).",
};

static const char *const correction_names[] = { "holm", "bh", "none", NULL };

struct compare_cli {
	struct compare_options opts;
	int style;		/* enum compare_style */
	int format;		/* enum output_format */
	int fail_on;		/* enum compare_gate */
	long history;		/* the most runs of history (--history) */
	const char *cells;	/* --cell */
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
			   "table (default), mmtests, ratio, summary, ministat,\n"
			   "changes"),
		OPT_FORMAT(0, &o->format, compare_format_names,
			   "table (default), json, csv, markdown, tap"),
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
		OPT_STRING(0, "cell", "GLOB", &o->cells,
			   "only the cells whose name or name/path matches, e.g.\n"
			   "'clock-gettime-*' or '*/vdso' (the correction counts\n"
			   "only them)"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 3 when a cell is significantly worse, better,\n"
			   "or either (change); none (default) never fails"),
		OPT_BOOL(0, "judge-emulated", &o->opts.judge_emulated,
			 "let --fail-on catch changes between emulated timings\n"
			 "(runs of `kernels` under TCG)"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n;

	compare_options_default(&o->opts);
	o->history = COMPARE_HISTORY_DEFAULT;
	o->style = STYLE_TABLE;
	n = parse_options(argc, argv, &compare_usage, options, 0);
	if (n < 0)
		return n;
	if (n < 2)
		return options_fail("need a base and at least one other run (ids "
				    "or labels)");
	return n;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli o = { 0 };
	struct compare_session session = { 0 };
	struct compare_result result;
	struct store *st;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = parse_compare_options(argc, argv, &o);
	/* What compare reads of each run: the round medians, not the samples. */
	struct run_selection sel = {
		.specs = argv, .nspecs = rc > 0 ? (size_t)rc : 0,
		.load = RUNS_DIGEST, .partners = PARTNERS_NEVER,
	};

	if (rc < 0)
		return parse_options_status(rc);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	if (compare_session_open(&session, st, &sel, &o.opts, o.history, &err) != 0) {
		error_msg("%s", err.buf);
		rc = 1;
		goto out;
	}
	session.cells = o.cells;
	if (compare_session_build(&session, &result, &err) != 0) {
		error_msg("%s", err.buf);
		rc = 1;
		goto out;
	}
	rc = compare_print(stdout, &result, (enum compare_style)o.style,
			   (enum output_format)o.format) == 0 ? 0 : 1;
	if (rc)
		error_msg("cannot write the comparison: %m");
	else if (compare_print_gate(stderr, &result, (enum compare_gate)o.fail_on))
		rc = EXIT_PROBLEM;
	compare_free(&result);
out:
	compare_session_close(&session);
	store_close(st);
	return rc;
}
