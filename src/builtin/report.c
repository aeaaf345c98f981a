// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench report RUN... [-o DIR|FILE.html] [--format mail]: everything
 * about stored runs in one self-contained HTML file (or, with -o DIR, that
 * file as DIR/index.html beside the charts, their script and data), or the
 * summary for a mailing-list post in plain text.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "basic/text.h"
#include "builtin/builtin.h"
#include "cli/stored-runs.h"
#include "chart/gnuplot.h"
#include "document/html.h"
#include "document/mail.h"
#include "basic/outfile.h"
#include "chart/plot.h"
#include "results/compare.h"
#include "results/record.h"

static const struct command_usage report_usage = {
	.name = "report",
	.synopsis = "[<options>] <run>...",
	.description =
	"Everything about stored runs in one HTML file that needs nothing else\n"
	"(charts inline as SVG, no script, no fetch): the summary for a mailing\n"
	"list, the comparison (two groups or more, as compare takes them), the\n"
	"charts that fit the runs, every run's statistics and the environment.\n"
	"-o DIR writes DIR/index.html beside the charts, their gnuplot script\n"
	"and data; -o FILE.html the file alone. --format mail writes the summary\n"
	"as plain text wrapped at 72 columns instead.",
	.footer =
	"Exit status: 0 on success, 1 on an error (an unknown run, gnuplot\n"
	"missing or failing, an output that cannot be written), 2 on a usage\n"
	"error.",
	.no_args = NO_RUN_GIVEN,
};

static const char *const report_formats[] = { "html", "mail", NULL };

struct report_options {
	struct store_options store;
	int format;		/* enum output_format: html or mail */
	const char *output;
	const char *cells;
	bool force;
	bool all_cells;
	char **specs;
	size_t nspecs;
};

static int parse_report_options(int argc, char **argv, struct report_options *o)
{
	struct option_def options[] = {
		OPT_FORMAT(0, &o->format, report_formats,
			   "html (default) or mail (plain text, 72 columns)"),
		OPT_STRING('o', "output", "DIR|FILE", &o->output,
			   "FILE.html, or a directory for index.html and the\n"
			   "charts (default clockbench-report-RUN.html; mail:\n"
			   "standard output)"),
		OPT_STRING(0, "cell", "GLOB", &o->cells,
			   "only cells whose name or name/path matches"),
		OPT_BOOL(0, "all-cells", &o->all_cells,
			 "with --format mail: a line for every cell, not only\n"
			 "the changed ones"),
		OPT_BOOL(0, "force", &o->force,
			 "with -o DIR: replace charts.gp and charts.dat even\n"
			 "when clockbench did not write them"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int n = parse_options(argc, argv, &report_usage, options, OPTIONS_NEED_ARGS);

	if (n < 0)
		return n;
	if (o->all_cells && o->format != FORMAT_MAIL)
		return options_fail("--all-cells is for --format mail (the HTML report "
				    "lists every cell)");
	if (o->output && !*o->output)
		return options_fail("empty -o");
	if (o->output && outfile_check_name("-o", o->output, &err) != 0)
		return options_fail("%s", err.buf);
	o->specs = argv;
	o->nspecs = (size_t)n;
	return 0;
}

static bool ends_with_html(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && strcasecmp(path + n - 5, ".html") == 0;
}

/* ---- the charts ----------------------------------------------------------- */

/* The report's charts, in its order; compare's forest is inside timens's. */
static const enum plot_kind report_kinds[] = {
	PLOT_TIMENS, PLOT_COMPARE, PLOT_CELLS, PLOT_SCALE, PLOT_HOTPLUG,
	PLOT_ROUNDS, PLOT_DISTRIBUTION,
};

#define REPORT_CHART_WIDTH 1000

struct charts {
	struct html_chart chart[ARRAY_SIZE(report_kinds)];
	struct strbuf svg[ARRAY_SIZE(report_kinds)];
	size_t n;
};

static bool wanted(const struct plot_input *in, enum plot_kind kind, bool timens)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	return !(kind == PLOT_COMPARE && timens) && plot_kind_fits(kind, in, &why);
}

/* Add every chart that fits to gp, in the report's order. */
static int add_charts(const struct plot_input *in, struct gp *gp, struct charts *c,
		      struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	bool timens = plot_kind_fits(PLOT_TIMENS, in, &why);
	char name[64];

	for (size_t i = 0; i < ARRAY_SIZE(report_kinds); i++) {
		if (!wanted(in, report_kinds[i], timens))
			continue;
		snprintf(name, sizeof(name), "%s.svg", plot_kind_names[report_kinds[i]]);
		if (plot_add_chart(gp, report_kinds[i], in, name, GP_SVG, err) != 0)
			return -1;
		c->chart[c->n++].kind = report_kinds[i];
	}
	return 0;
}

/* ---- the command ------------------------------------------------------------ */

/* Where the report goes: dir (made when missing) and the HTML file in it. */
struct destination {
	char *dir;
	char *html;
	bool whole_dir;		/* -o DIR: the charts' files go there too */
	bool made_dir;		/* we created dir: remove it on failure */
};

static int destination_of(const char *output, struct destination *d, struct strbuf *err)
{
	struct stat st;
	char *name;

	memset(d, 0, sizeof(*d));
	if (ends_with_html(output)) {
		gp_split_path(output, &d->dir, &name);
		free(name);
		d->html = xstrdup(output);
		if (stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
			strbuf_addf(err, "cannot write %s: %s", output, strerror(EISDIR));
			return -1;
		}
		return gp_check_dir(d->dir, err);
	}
	d->whole_dir = true;
	d->dir = xstrdup(output);
	d->html = xmalloc(strlen(output) + 16);
	sprintf(d->html, "%s/index.html", output);
	if (mkdir(output, 0777) == 0)
		d->made_dir = true;
	else if (errno != EEXIST) {
		strbuf_addf(err, "cannot write %s: %s", output, strerror(errno));
		return -1;
	}
	return gp_check_dir(d->dir, err);
}

/* A directory this run made, and failed to fill: the files it may hold, then it. */
static void remove_made_dir(const struct destination *d)
{
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
	const char *fixed[] = { "charts.gp", "charts.dat", "index.html" };

	for (size_t k = 0; plot_kind_names[k]; k++) {
		strbuf_setf(&path, "%s/%s.svg", d->dir, plot_kind_names[k]);
		unlink(path.buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		strbuf_setf(&path, "%s/%s", d->dir, fixed[i]);
		unlink(path.buf);
	}
	rmdir(d->dir);
}

static void destination_free(struct destination *d, bool failed)
{
	if (failed && d->made_dir)
		remove_made_dir(d);
	free(d->dir);
	free(d->html);
}

/*
 * Whether every file of the report can be written, before gnuplot runs:
 * with -o DIR the charts, their script and data, and index.html.
 */
static int check_files(struct gp *gp, const struct destination *d, unsigned flags,
		       size_t ncharts, struct strbuf *err)
{
	if (d->whole_dir && ncharts && gp_check_render(gp, d->dir, flags, err) != 0)
		return -1;
	return outfile_check(d->html, "", 0, 0, err);
}

/* The HTML report into d: 0, or -1 with err and nothing written. */
static int write_html(const struct plot_input *in, struct destination *d, bool force,
		      struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf html = STRBUF_INIT;
	unsigned flags = GP_KEEP_SOURCES | (force ? GP_REPLACE_SOURCES : 0);
	struct charts c = { .n = 0 };
	struct gp gp;
	int rc = -1;

	for (size_t i = 0; i < ARRAY_SIZE(c.svg); i++)
		strbuf_init(&c.svg[i]);
	gp_init(&gp, "charts");
	if (add_charts(in, &gp, &c, err) != 0 || check_files(&gp, d, flags, c.n, err) != 0 ||
	    (c.n && gp_draw(&gp, c.svg, err) != 0))
		goto out;
	for (size_t i = 0; i < c.n; i++)
		c.chart[i].svg = c.svg[i].buf;
	if (html_report(&html, in, c.chart, c.n, err) != 0)
		goto out;
	/* index.html last: it appears when everything it shows is there. */
	if (d->whole_dir && c.n && gp_write(&gp, d->dir, c.svg, flags, err) != 0)
		goto out;
	if (outfile_write(d->html, html.buf, html.len, err) != 0)
		goto out;
	text_line(stdout, "wrote %s: %zu chart%s", d->html, c.n, c.n == 1 ? "" : "s");
	rc = 0;
out:
	gp_release(&gp);
	for (size_t i = 0; i < ARRAY_SIZE(c.svg); i++)
		strbuf_release(&c.svg[i]);
	return rc;
}

static int report_html(const struct report_options *o, const struct plot_input *in)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char fallback[64], gnuplot[PATH_MAX];
	struct destination d;
	int rc;

	snprintf(fallback, sizeof(fallback), "clockbench-report-%lld.html",
		 (long long)in->groups[0].runs[0].id);
	if (!gp_find(gnuplot, sizeof(gnuplot))) {
		error_msg("%s", GP_MISSING);
		return 1;
	}
	rc = destination_of(o->output ? o->output : fallback, &d, &err) ||
	     write_html(in, &d, o->force, &err) ? 1 : 0;
	if (rc)
		error_msg("%s", err.buf);
	destination_free(&d, rc != 0);
	return rc;
}

static int report_mail(const struct report_options *o, const struct plot_input *in)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct mail_options mo = { .all_cells = o->all_cells };

	if (mail_write(in, &mo, &text, &err) != 0 ||
	    (o->output && outfile_write(o->output, text.buf, text.len, &err) != 0)) {
		error_msg("%s", err.buf);
		return 1;
	}
	/* stdout is checked by main, for every command */
	if (!o->output)
		fwrite(text.buf, 1, text.len, stdout);
	return 0;
}

/*
 * The mail's comparison reads what compare reads, digests: any number of
 * runs. The HTML report and a single group's figures need the samples.
 */
static int load_runs(struct store *st, const struct report_options *o,
		     struct compare_session *s)
{
	struct run_selection sel = {
		.specs = o->specs, .nspecs = o->nspecs, .shown = true,
		.partners = PARTNERS_WHEN_TIMENS,
		.load = o->format == FORMAT_MAIL && o->nspecs > 1 ? RUNS_DIGEST : RUNS_WHOLE,
	};

	return session_open_status(s, st, &sel, "name fewer runs, or write "
				   "--format mail or use clockbench compare, "
				   "which read any number");
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { 0 };
	struct compare_session session = { 0 };
	struct store *st;
	int rc = parse_report_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	rc = load_runs(st, &o, &session);
	if (rc == 0) {
		struct plot_input in = {
			.groups = session.groups, .ngroups = session.ngroups,
			.cells = o.cells, .session = &session,
			.width = REPORT_CHART_WIDTH,
		};

		session.cells = o.cells;
		rc = o.format == FORMAT_MAIL ? report_mail(&o, &in) : report_html(&o, &in);
	}
	compare_session_close(&session);
	store_close(st);
	return rc;
}
