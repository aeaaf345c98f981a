// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench plot RUN... [--kind KIND] [-o FILE]: a chart of stored runs,
 * drawn by gnuplot from a script and a data file left beside the picture.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "basic/text.h"
#include "builtin/builtin.h"
#include "cli/stored-runs.h"
#include "chart/gnuplot.h"
#include "basic/outfile.h"
#include "chart/plot.h"
#include "results/compare.h"
#include "results/record.h"

static const struct command_usage plot_usage = {
	.name = "plot",
	.synopsis = "[<options>] <run>...",
	.description =
	"Draw stored runs with gnuplot. A run is an id, a label (every run with\n"
	"it: for compare, one group of replicates) or a uuid. The picture is SVG\n"
	"or PNG by the extension of -o; beside it go the gnuplot script and its\n"
	"data (NAME.gp, NAME.dat): edit the script and run `gnuplot NAME.gp`.\n"
	"\n"
	"Kinds: cells (ns and cycles per call, by path), distribution (a\n"
	"histogram per cell), rounds (the drift round by round), scale (seconds\n"
	"against threads), compare (change with CI per cell, BASE against each\n"
	"OTHER), hotplug (latency per cycle and the hotplug states), timens\n"
	"(host against namespace).",
	.footer =
	"Exit status: 0 on success, 1 on an error (an unknown run, gnuplot\n"
	"missing or failing, an output that cannot be written), 2 on a usage\n"
	"error (also: a kind the runs cannot give).",
	.no_args = NO_RUN_GIVEN,
};

struct plot_options {
	struct store_options store;
	int kind;		/* -1: the runs' own */
	const char *output;
	const char *cells;
	bool force;
	long size[2];
	char **specs;
	size_t nspecs;
};

/* --size WxH, in pixels. */
static int size_option(const struct option_def *opt, const char *arg,
		       struct strbuf *err)
{
	long *wh = opt->value;
	const char *x = strchr(arg, 'x');
	size_t len = x ? (size_t)(x - arg) : 0;
	char w[16] = "";

	if (x && len < sizeof(w))
		memcpy(w, arg, len);
	if (!x || len >= sizeof(w) || !parse_int(w, 100, 10000, &wh[0]) ||
	    !parse_int(x + 1, 100, 10000, &wh[1])) {
		strbuf_addf(err, "invalid --size '%s': WIDTHxHEIGHT in pixels, "
			    "100 to 10000 each, e.g. 1200x800", arg);
		return -1;
	}
	return 0;
}

static int parse_plot_options(int argc, char **argv, struct plot_options *o)
{
	struct option_def options[] = {
		OPT_CHOICE(0, "kind", "KIND", &o->kind, plot_kind_names,
			   "cells, distribution, rounds, scale, compare, hotplug,\n"
			   "timens (default: what the runs are)"),
		OPT_STRING('o', "output", "FILE", &o->output,
			   "the picture, .svg or .png (default clockbench-KIND-RUN.svg)"),
		OPT_STRING(0, "cell", "GLOB", &o->cells,
			   "only cells whose name or name/path matches, e.g.\n"
			   "'clock-gettime-*' or '*/vdso'"),
		OPT_CALLBACK(0, "size", "WxH", o->size, size_option,
			     "picture size in pixels (default: fits the panels)"),
		OPT_BOOL(0, "force", &o->force,
			 "replace NAME.gp and NAME.dat even when clockbench\n"
			 "did not write them"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int n;

	o->kind = -1;
	n = parse_options(argc, argv, &plot_usage, options, OPTIONS_NEED_ARGS);
	if (n < 0)
		return n;
	if (o->output && outfile_check_name("-o", o->output, &err) != 0)
		return options_fail("%s", err.buf);
	if (o->output && gp_format_of(o->output) < 0)
		return options_fail("-o '%s': the picture must end in .svg or .png",
				    o->output);
	o->specs = argv;
	o->nspecs = (size_t)n;
	return 0;
}

/* "cells.svg" -> "cells": the script's and data's name. */
static char *base_of(const char *name)
{
	char *base = xstrdup(name), *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return base;
}

/* Draw kind into o->output: 0, or 1 with the error printed. */
static int render(const struct plot_options *o, const struct plot_input *in,
		  enum plot_kind kind, const char *output)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char *dir, *name, *base;
	struct gp gp;
	struct stat st;
	int rc = 1;

	gp_split_path(output, &dir, &name);
	base = base_of(name);
	gp_init(&gp, base);
	if (stat(output, &st) == 0 && S_ISDIR(st.st_mode))
		strbuf_addf(&err, "cannot write %s: %s", output, strerror(EISDIR));
	else if (!gp_check_dir(dir, &err) &&
		 !plot_add_chart(&gp, kind, in, name, (enum gp_format)gp_format_of(name),
				 &err) &&
		 !gp_render(&gp, dir, GP_KEEP_SOURCES |
			    (o->force ? GP_REPLACE_SOURCES : 0), &err))
		rc = 0;
	if (rc) {
		error_msg("%s", err.buf);
	} else {
		/* A line to paste: the names quoted for the shell (-o was checked). */
		_cleanup_strbuf_ struct strbuf cd = STRBUF_INIT, gpname = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf script = STRBUF_INIT;

		gp_script_arg(&gpname, base);
		strbuf_add_sh_word(&cd, dir);
		strbuf_add_sh_word(&script, gpname.buf);
		text_line(stdout, "wrote %s; to draw it again: cd %s && gnuplot %s", output,
			  cd.buf, script.buf);
	}
	gp_release(&gp);
	free(base);
	free(name);
	free(dir);
	return rc;
}

static int plot_runs(const struct plot_options *o, struct plot_input *in,
		     enum plot_kind kind)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char output[64];

	if (!plot_kind_fits(kind, in, &why))
		return usage_fail("cannot draw kind %s: %s", plot_kind_names[kind], why.buf);
	if (!o->output) {
		snprintf(output, sizeof(output), "clockbench-%s-%lld.svg",
			 plot_kind_names[kind], (long long)in->groups[0].runs[0].id);
		return render(o, in, kind, output);
	}
	return render(o, in, kind, o->output);
}

/* The runs of o read into s (anew), as load says: 0, or the exit status. */
static int load_runs(struct store *st, const struct plot_options *o,
		     enum run_load load, struct compare_session *s)
{
	struct run_selection sel = {
		.specs = o->specs, .nspecs = o->nspecs, .load = load, .shown = true,
		.partners = o->kind == PLOT_TIMENS ? PARTNERS_ALWAYS :
			    o->kind < 0 ? PARTNERS_WHEN_TIMENS : PARTNERS_NEVER,
	};

	return session_open_status(s, st, &sel, "name fewer runs, or draw --kind "
				   "compare, which reads any number");
}

/*
 * Compare's forest reads what compare reads, digests: any number of runs.
 * Every other kind draws each run's samples (a bounded number of runs).
 * Without --kind, the runs read as digests say which kind they make.
 */
static int load_for_kind(struct store *st, const struct plot_options *o,
			 struct compare_session *s, enum plot_kind *kind)
{
	struct plot_input digests;
	int rc;

	if (o->kind >= 0 && o->kind != PLOT_COMPARE) {
		*kind = (enum plot_kind)o->kind;
		return load_runs(st, o, RUNS_WHOLE, s);
	}
	rc = load_runs(st, o, RUNS_DIGEST, s);
	if (rc)
		return rc;
	digests = (struct plot_input){ .groups = s->groups, .ngroups = s->ngroups };
	*kind = o->kind >= 0 ? (enum plot_kind)o->kind : plot_default_kind(&digests);
	return *kind == PLOT_COMPARE ? 0 : load_runs(st, o, RUNS_WHOLE, s);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_options o = { 0 };
	struct compare_session session = { 0 };
	enum plot_kind kind;
	struct store *st;
	int rc = parse_plot_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	rc = load_for_kind(st, &o, &session, &kind);
	if (rc == 0) {
		struct plot_input in = {
			.groups = session.groups, .ngroups = session.ngroups,
			.cells = o.cells, .session = &session,
			.width = (int)o.size[0], .height = (int)o.size[1],
		};

		session.cells = o.cells;
		rc = plot_runs(&o, &in, kind);
	}
	compare_session_close(&session);
	store_close(st);
	return rc;
}
