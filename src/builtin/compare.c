// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench compare BASE OTHER...: compare stored runs, with statistics
 * that separate a real change from noise, in the table styles of the
 * mailing list.
 */
#include <getopt.h>
#include <string.h>

#include "builtin/builtin.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

void usage_compare(FILE *f)
{
	fputs("usage: clockbench compare [<options>] BASE OTHER...\n"
	      "\n"
	      "Compare stored runs cell by cell against BASE. BASE and OTHER are run\n"
	      "ids or labels; a label naming several runs makes them replicates, and\n"
	      "then every group is reduced to one median per run.\n"
	      "\n"
	      "  --style STYLE     table (default), mmtests, ratio, summary, ministat\n"
	      "  --format FMT      text (default), json, csv, markdown\n"
	      "  --metric M        core-cycles, ns, cycles, seconds (default: core-cycles\n"
	      "                    when every run has them, else the runs' unit)\n"
	      "  --alpha A         significance level (default 0.05)\n"
	      "  --threshold PCT   smallest change called significant (default 1)\n"
	      "  --noise PCT       CV above which a cell is noisy (default 5)\n"
	      "  --correction C    bh (Benjamini-Hochberg, default), holm, none: across\n"
	      "                    the cells of one comparison\n"
	      RECORD_DB_USAGE
	      "  -h, --help        this text\n"
	      "\n"
	      "Verdicts: better, worse (significant), ~ (no significant change),\n"
	      "noisy (not significant and the data are noisy), few (too few samples\n"
	      "for a verdict). A change is significant when the adjusted Mann-Whitney\n"
	      "p-value is below alpha and the 95% CI of the change (Hodges-Lehmann)\n"
	      "lies beyond +-threshold.\n"
	      "\n"
	      "Exit status: 0 on success, 1 when a run cannot be read, 2 on a usage\n"
	      "error.\n", f);
}

struct compare_cli {
	struct compare_options opts;
	enum compare_style style;
	enum compare_format format;
	struct store_options store;
};

enum {
	OPT_STYLE = 256, OPT_FORMAT, OPT_METRIC, OPT_ALPHA, OPT_THRESHOLD,
	OPT_NOISE, OPT_CORRECTION,
};

static const struct option compare_longopts[] = {
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "correction", required_argument, NULL, OPT_CORRECTION },
	{ "db", required_argument, NULL, OPT_STORE_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static double parse_fraction_option(const char *opt, const char *arg, double lo,
				    double hi)
{
	double v;

	if (!parse_double(arg, &v) || v <= lo || v >= hi)
		usage_error("invalid --%s '%s': expected a number between %g and %g",
			    opt, arg, lo, hi);
	return v;
}

static enum compare_correction parse_correction(const char *arg)
{
	if (streq(arg, "holm"))
		return CORRECT_HOLM;
	if (streq(arg, "bh"))
		return CORRECT_BH;
	if (streq(arg, "none"))
		return CORRECT_NONE;
	usage_error("unknown correction '%s' (holm, bh, none)", arg);
}

static void parse_compare_options(int argc, char **argv, struct compare_cli *o)
{
	int opt, v;

	memset(o, 0, sizeof(*o));
	compare_options_default(&o->opts);
	o->style = STYLE_TABLE;
	o->format = CFORMAT_TEXT;
	while ((opt = getopt_long(argc, argv, ":h", compare_longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_STYLE:
			if ((v = compare_style_by_name(optarg)) < 0)
				usage_error("unknown style '%s' (table, mmtests, ratio, "
					    "summary, ministat)", optarg);
			o->style = (enum compare_style)v;
			break;
		case OPT_FORMAT:
			if ((v = compare_format_by_name(optarg)) < 0)
				usage_error("unknown format '%s' (text, json, csv, markdown)",
					    optarg);
			o->format = (enum compare_format)v;
			break;
		case OPT_METRIC:
			if ((v = compare_metric_by_name(optarg)) <= METRIC_AUTO)
				usage_error("unknown metric '%s' (core-cycles, ns, cycles, "
					    "seconds)", optarg);
			o->opts.metric = (enum compare_metric)v;
			break;
		case OPT_ALPHA:
			o->opts.alpha = parse_fraction_option("alpha", optarg, 0, 1);
			break;
		case OPT_THRESHOLD:
			if (!parse_double(optarg, &o->opts.threshold_pct) ||
			    o->opts.threshold_pct < 0 || o->opts.threshold_pct >= 1000)
				usage_error("invalid --threshold '%s': expected a "
					    "percentage >= 0", optarg);
			break;
		case OPT_NOISE:
			o->opts.noise_pct = parse_fraction_option("noise", optarg, 0, 1000);
			break;
		case OPT_CORRECTION:
			o->opts.correction = parse_correction(optarg);
			break;
		case OPT_STORE_DB:
			o->store.db = optarg;
			break;
		case 'h':
			usage_compare(stdout);
			exit(0);
		default:
			usage_bad_option(opt, argv);
		}
	}
	if (argc - optind < 2)
		usage_error("need a base and at least one other run (ids or labels)");
}

/* Load every run a spec names; -1 with the reason on error. */
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
		if (store_load_run(st, ids[i], &g->runs[i], err, errlen) != 0) {
			free(ids);
			return -1;
		}
		g->nruns++;
	}
	free(ids);
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
	struct compare_cli o;
	struct compare_group *groups;
	struct compare_result result;
	struct store *st;
	char err[512];
	size_t ngroups;
	int rc = 1;

	parse_compare_options(argc, argv, &o);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	ngroups = (size_t)(argc - optind);
	groups = xcalloc(ngroups, sizeof(*groups));
	for (size_t g = 0; g < ngroups; g++)
		if (load_group(st, argv[optind + (int)g], &groups[g], err, sizeof(err)) != 0) {
			error_msg("%s", err);
			goto out;
		}
	if (compare_build(&result, groups, ngroups, &o.opts, err, sizeof(err)) != 0) {
		error_msg("%s", err);
		goto out;
	}
	rc = compare_print(stdout, &result, o.style, o.format) == 0 ? 0 : 1;
	if (rc)
		error_msg("cannot write the comparison: %m");
	compare_free(&result);
out:
	free_groups(groups, ngroups);
	store_close(st);
	return rc;
}
