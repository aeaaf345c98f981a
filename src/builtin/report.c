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

#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "basic/text.h"
#include "builtin/builtin.h"
#include "cli/run-groups.h"
#include "report/gnuplot.h"
#include "report/html.h"
#include "report/mail.h"
#include "report/outfile.h"
#include "report/plot.h"
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
};

static const char *const report_formats[] = { "html", "mail", NULL };

struct report_options {
	struct store_options store;
	int format;		/* index in report_formats */
	const char *output;
	const char *cells;
	char **specs;
	size_t nspecs;
};

static int parse_report_options(int argc, char **argv, struct report_options *o)
{
	struct option_def options[] = {
		OPT_CHOICE(0, "format", "FMT", &o->format, report_formats,
			   "html (default) or mail (plain text, 72 columns)"),
		OPT_STRING('o', "output", "DIR|FILE", &o->output,
			   "FILE.html, or a directory for index.html and the\n"
			   "charts (default clockbench-report-RUN.html; mail:\n"
			   "standard output)"),
		OPT_STRING(0, "cell", "GLOB", &o->cells,
			   "only cells whose name or name/path matches"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n = parse_options(argc, argv, &report_usage, options, 0);

	if (n < 0)
		return n;
	if (n == 0)
		return options_fail("no run given (an id, a label or a uuid)");
	if (o->output && !*o->output)
		return options_fail("empty -o");
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

/* Draw every chart that fits into dir (one gnuplot run) and read them back. */
static int draw_charts(const struct plot_input *in, const char *dir,
		       struct charts *c, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT, path = STRBUF_INIT;
	bool timens = plot_kind_fits(PLOT_TIMENS, in, &why);
	struct gp gp;
	char name[64];
	int rc = 0;

	gp_init(&gp, "charts");
	for (size_t i = 0; i < ARRAY_SIZE(report_kinds) && !rc; i++) {
		if (!wanted(in, report_kinds[i], timens))
			continue;
		snprintf(name, sizeof(name), "%s.svg", plot_kind_names[report_kinds[i]]);
		rc = plot_add_chart(&gp, report_kinds[i], in, name, GP_SVG, err);
		if (rc == 0)
			c->chart[c->n++].kind = report_kinds[i];
	}
	if (!rc && c->n)
		rc = gp_render(&gp, dir, true, err);
	for (size_t i = 0; i < c->n && !rc; i++) {
		strbuf_setf(&path, "%s/%s.svg", dir, plot_kind_names[c->chart[i].kind]);
		if (outfile_read(path.buf, &c->svg[i]) != 0) {
			strbuf_addf(err, "cannot read %s: %s", path.buf, strerror(errno));
			rc = -1;
		}
		c->chart[i].svg = c->svg[i].buf;
	}
	gp_release(&gp);
	return rc;
}

/* ---- where it goes ---------------------------------------------------------- */

/* A directory of our own beside the output, for the files in the making. */
static char *make_workdir(const char *dir, struct strbuf *err)
{
	char *work = xmalloc(strlen(dir) + 32);

	sprintf(work, "%s/.clockbench-report-XXXXXX", dir);
	if (!mkdtemp(work)) {
		strbuf_addf(err, "cannot write in %s: %s", dir, strerror(errno));
		free(work);
		return NULL;
	}
	return work;
}

/* Move the files made in work into dir, index.html last; 0 or -1. */
static int move_into(const char *work, const char *dir, const struct charts *c,
		     struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	const char *fixed[] = { "charts.gp", "charts.dat", "index.html" };

	for (size_t i = 0; i < c->n + ARRAY_SIZE(fixed); i++) {
		char name[64];

		if (i < c->n)
			snprintf(name, sizeof(name), "%s.svg", plot_kind_names[c->chart[i].kind]);
		else
			snprintf(name, sizeof(name), "%s", fixed[i - c->n]);
		strbuf_setf(&from, "%s/%s", work, name);
		strbuf_setf(&to, "%s/%s", dir, name);
		if (access(from.buf, F_OK) == 0 && rename(from.buf, to.buf) != 0) {
			strbuf_addf(err, "cannot write %s: %s", to.buf, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Remove what is left in work (only files we made), then work itself. */
static void remove_workdir(char *work)
{
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
	const char *fixed[] = { "charts.gp", "charts.dat", "index.html" };

	if (!work)
		return;
	for (size_t k = 0; plot_kind_names[k]; k++) {
		strbuf_setf(&path, "%s/%s.svg", work, plot_kind_names[k]);
		unlink(path.buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		strbuf_setf(&path, "%s/%s", work, fixed[i]);
		unlink(path.buf);
	}
	rmdir(work);
	free(work);
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

static void destination_free(struct destination *d, bool failed)
{
	if (failed && d->made_dir)
		rmdir(d->dir);
	free(d->dir);
	free(d->html);
}

/* The HTML report into d: 0, or -1 with err and nothing left behind. */
static int write_html(const struct plot_input *in, struct destination *d,
		      struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf html = STRBUF_INIT, path = STRBUF_INIT;
	struct charts c = { .n = 0 };
	char *work = make_workdir(d->dir, err);
	int rc = -1;

	for (size_t i = 0; i < ARRAY_SIZE(c.svg); i++)
		strbuf_init(&c.svg[i]);
	if (!work || draw_charts(in, work, &c, err) != 0 ||
	    html_report(&html, in, c.chart, c.n, err) != 0)
		goto out;
	if (d->whole_dir) {
		strbuf_setf(&path, "%s/index.html", work);
		rc = outfile_write(path.buf, html.buf, html.len, err) ||
		     move_into(work, d->dir, &c, err) ? -1 : 0;
	} else {
		rc = outfile_write(d->html, html.buf, html.len, err);
	}
	if (rc == 0)
		text_line(stdout, "wrote %s: %zu chart%s", d->html, c.n, c.n == 1 ? "" : "s");
out:
	remove_workdir(work);
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
	     write_html(in, &d, &err) ? 1 : 0;
	if (rc)
		error_msg("%s", err.buf);
	destination_free(&d, rc != 0);
	return rc;
}

static int report_mail(const struct report_options *o, const struct plot_input *in)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	if (mail_summary(in, &text, &err) != 0 ||
	    (o->output && outfile_write(o->output, text.buf, text.len, &err) != 0)) {
		error_msg("%s", err.buf);
		return 1;
	}
	if (!o->output && (fwrite(text.buf, 1, text.len, stdout) != text.len ||
			   fflush(stdout) != 0)) {
		error_msg("cannot write the summary: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * The runs of o read into in (anew), as load says: 0, or the exit status.
 */
static int load_runs(struct store *st, const struct report_options *o,
		     enum run_load load, struct plot_input *in)
{
	char err[512];
	int rc;

	run_groups_free(in->groups, in->ngroups);
	in->groups = NULL;
	in->ngroups = 0;
	rc = run_groups_load_sides(st, o->specs, o->nspecs, PARTNERS_WHEN_TIMENS,
				   load, &in->groups, &in->ngroups, err, sizeof(err));
	if (rc == RUN_GROUPS_TOO_MANY)
		return usage_fail("%s: name fewer runs, or write --format mail or use "
				  "clockbench compare, which read any number", err);
	if (rc)
		error_msg("%s", err);
	return rc ? 1 : 0;
}

/*
 * The mail's comparison reads what compare reads, digests: any number of
 * runs. The HTML report and a single group's figures need the samples.
 */
static int load_for_format(struct store *st, const struct report_options *o,
			   struct plot_input *in)
{
	if (o->format == 1 && o->nspecs > 1)
		return load_runs(st, o, RUNS_DIGEST, in);
	return load_runs(st, o, RUNS_WHOLE, in);
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { 0 };
	struct plot_input in = { 0 };
	struct store *st;
	int rc = parse_report_options(argc, argv, &o);

	if (rc < 0)
		return parse_options_status(rc);
	st = record_open(&o.store, STORE_READ, NULL, 0);
	if (!st)
		return 1;
	rc = load_for_format(st, &o, &in);
	if (rc)
		goto out;
	in.cells = o.cells;
	in.width = REPORT_CHART_WIDTH;
	rc = o.format == 1 ? report_mail(&o, &in) : report_html(&o, &in);
out:
	run_groups_free(in.groups, in.ngroups);
	store_close(st);
	return rc;
}
