// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind compare: a forest plot of compare's verdicts. Per cell, the change
 * against BASE with its 95 % CI (of the test compare names) as a
 * whisker, coloured and shaped by verdict, over a grey band: the noise
 * floor the CI had to clear. One panel per OTHER group.
 */
#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"
#include "results/compare-session.h"

static const char *const verdict_order[] = { "worse", "better", "same", "~", "noisy", "few" };

bool plot_row_selected(const struct plot_input *in, const struct compare_row *row)
{
	return compare_cell_matches(in->cells, row->name, row->path);
}

/*
 * Through the session the runs were read into, which judges as compare
 * does (its options, its history); without one (a chart drawn from runs
 * in memory), compare's options and no history.
 */
int plot_compare_build(const struct plot_input *in, struct compare_group *groups,
		       size_t ngroups, struct compare_result *r, struct strbuf *err)
{
	struct compare_session own;
	int rc;

	if (in->session)
		return compare_session_build_groups(in->session, groups, ngroups, r, err);
	compare_session_adopt(&own, in->groups, in->ngroups, NULL, NULL, 0);
	own.cells = in->cells;
	rc = compare_session_build_groups(&own, groups, ngroups, r, err);
	compare_session_close(&own);
	return rc;
}

static bool compare_fits(const struct plot_input *in, struct strbuf *why)
{
	struct compare_result r;

	if (in->ngroups < 2) {
		strbuf_adds(why, "it compares BASE with OTHER...: give two runs or labels "
			    "or more");
		return false;
	}
	if (plot_compare_build(in, in->groups, in->ngroups, &r, why) != 0)
		return false;
	compare_free(&r);
	return true;
}

/*
 * Legend-only entries (NaN draws nothing) for the verdicts any panel shows
 * of the chosen rows, so that one key serves every panel.
 */
static void verdict_key(const struct plot_input *in, const struct compare_result *r,
			struct gp_clause *cmd)
{
	for (size_t v = 0; v < ARRAY_SIZE(verdict_order); v++) {
		bool any = false;

		for (size_t i = 0; i < r->nrows && !any; i++)
			for (size_t g = 1; g < r->ngroups && !any; g++)
				any = r->rows[i].diffs[g].valid && plot_row_selected(in, &r->rows[i]) &&
				      streq(r->rows[i].diffs[g].verdict, verdict_order[v]);
		if (any)
			gp_addf(cmd, ", \\\n  NaN with points pt %d ps 1.4 lc rgb %s "
				"title %s", palette_verdict_point(verdict_order[v]),
				palette_verdict(verdict_order[v]), verdict_order[v]);
	}
	gp_addf(cmd, ", \\\n  NaN with boxes fs solid 1 noborder lc rgb '#e4e4e4' "
		"title 'noise floor'");
}

/* Rows of group g the panel shows, top first; labels into labels. */
static size_t panel_rows(const struct plot_input *in, const struct compare_result *r,
			 size_t g, const char **labels, char (*buf)[128], size_t *index)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		if (!r->rows[i].diffs[g].valid || !plot_row_selected(in, &r->rows[i]))
			continue;
		plot_cell_label(r->rows[i].name, r->rows[i].path, buf[n], sizeof(buf[n]));
		labels[n] = buf[n];
		index[n++] = i;
	}
	return n;
}

/* The data: the floor band, then one block per verdict; the plot command. */
static void forest_data(struct gp *gp, const struct compare_result *r, size_t g,
			const size_t *index, size_t n, struct gp_clause *cmd)
{
	unsigned floor_block = gp_block(gp, "group %zu: y, noise floor (%%)", g);

	for (size_t k = 0; k < n; k++)
		gp_row(gp, "%zu %.6g", k, r->rows[index[k]].diffs[g].floor_pct);
	gp_addf(cmd, "plot cb_data index %u using (0):1:(-$2):2:($1-0.32):($1+0.32) "
		"with boxxyerror fs solid 1 noborder lc rgb '#e4e4e4' notitle",
		floor_block);
	for (size_t v = 0; v < ARRAY_SIZE(verdict_order); v++) {
		unsigned b = gp_block(gp, "group %zu, verdict %s: y, change, ci95_lo, "
				      "ci95_hi (%%)", g, verdict_order[v]);
		bool any = false;

		for (size_t k = 0; k < n; k++) {
			const struct compare_diff *d = &r->rows[index[k]].diffs[g];

			if (!streq(d->verdict, verdict_order[v]) || !isfinite(d->change_pct))
				continue;
			gp_row(gp, "%zu %.6g %.6g %.6g", k, d->change_pct,
			       isfinite(d->change_lo_pct) ? d->change_lo_pct : d->change_pct,
			       isfinite(d->change_hi_pct) ? d->change_hi_pct : d->change_pct);
			any = true;
		}
		if (any)
			gp_addf(cmd, ", \\\n  cb_data index %u using 2:1:3:4 with xerrorbars "
				"pt %d ps 1.4 lw 1.5 lc rgb %s notitle", b,
				palette_verdict_point(verdict_order[v]),
				palette_verdict(verdict_order[v]));
	}
}

void plot_forest_panel(struct gp *gp, const struct plot_input *in,
		       const struct plot_grid *grid, const struct compare_result *r,
		       size_t g, const char *title, double key_x, bool names)
{
	const char **labels = xcalloc(r->nrows + 1, sizeof(char *));
	char (*buf)[128] = xcalloc(r->nrows + 1, sizeof(*buf));
	size_t *index = xcalloc(r->nrows + 1, sizeof(size_t));
	size_t n = panel_rows(in, r, g, labels, buf, index);
	struct gp_clause cmd = GP_CLAUSE_INIT;

	if (!names)
		for (size_t k = 0; k < n; k++)
			labels[k] = "";
	plot_panel_title(gp, grid, title);
	plot_ytics(gp, labels, n);
	gp_cmd(gp, "unset logscale x\nunset arrow\nset xrange [*:*]\nset format x '%%g'");
	gp_cmd(gp, "set arrow from 0, graph 0 to 0, graph 1 nohead front lw 1.5 "
	       "lc rgb '#444444'");
	gp_cmd(gp, r->exact ? "set xlabel 'change of guest instructions per call (%%), "
	       "counted under icount; lower is fewer'" :
	       "set xlabel 'change (%%), 95 %% CI; lower is faster'");
	if (key_x > 0)
		plot_key_at(gp, key_x);
	else
		gp_cmd(gp, "unset key");
	forest_data(gp, r, g, index, n, &cmd);
	if (key_x > 0)
		verdict_key(in, r, &cmd);
	gp_cmd_clause(gp, &cmd);
	free(index);
	free(buf);
	free(labels);
}

size_t plot_forest_rows(const struct plot_input *in, const struct compare_result *r)
{
	size_t most = 0;

	for (size_t g = 1; g < r->ngroups; g++) {
		size_t n = 0;

		for (size_t i = 0; i < r->nrows; i++)
			n += r->rows[i].diffs[g].valid && plot_row_selected(in, &r->rows[i]);
		most = n > most ? n : most;
	}
	return most;
}

/*
 * A group for people: "before (5 runs)" (or "A (5 runs)" when its label
 * is lettered), or a single run's name.
 */
static void group_name(const struct plot_input *in, const struct compare_group *g,
		       char *buf, size_t len)
{
	size_t len_spec = strlen(g->spec);
	bool by_id = strspn(g->spec, "0123456789") == len_spec ||
		     (len_spec == 36 && strspn(g->spec, "0123456789abcdefABCDEF-") == 36);
	char spec[96];

	/* A run given by its id or uuid is named as the charts name it. */
	if (g->nruns == 1 && by_id) {
		plot_chart_name(in, &g->runs[0], buf, len);
		return;
	}
	plot_label_alias(in, g->spec, spec, sizeof(spec));
	snprintf(buf, len, "%s (%zu run%s)", spec, g->nruns, g->nruns == 1 ? "" : "s");
}

/*
 * What differs between the sides' machines (compare_result's
 * side_differences, as compare, the mail and the HTML name them), on a
 * line of its own: "DIFFERENT: clocksource hpet against tsc; ...", then
 * what one difference alone can explain. A reader of the picture alone
 * sees that 6.1 ran on hpet and 6.12 on tsc.
 */
static void forest_differences(const struct side_differences *d, struct strbuf *sb)
{
	if (!d->n)
		return;
	strbuf_adds(sb, "\nDIFFERENT: ");
	for (size_t i = 0; i < d->n; i++)
		strbuf_addf(sb, "%s%s %s against %s", i ? "; " : "", d->items[i].fact,
			    d->items[i].base, d->items[i].other);
	if (d->explains)
		strbuf_addf(sb, "\n%s.", d->explains);
}

/* "after (5 runs), kernel 6.19 against before (5 runs), kernel 6.18: ..." */
static void forest_title(const struct plot_input *in, const struct compare_result *r,
			 size_t g, struct strbuf *sb)
{
	char base[128], other[128];

	group_name(in, &r->groups[0], base, sizeof(base));
	group_name(in, &r->groups[g], other, sizeof(other));
	strbuf_addf(sb, "%s, kernel %s against %s, kernel %s: geomean %+.2f %%%s",
		    other, r->groups[g].runs[0].kernel, base, r->groups[0].runs[0].kernel,
		    r->geomean_change_pct[g], r->exact ? " (EXACT: instructions counted)" :
		    r->emulated[0] || r->emulated[g] ? " (EMULATED timings)" : "");
	forest_differences(&r->side_differences[g], sb);
}

static int compare_draw(struct gp *gp, const struct plot_input *in,
			const char *output, enum gp_format format, struct strbuf *err)
{
	struct plot_grid grid = { .cols = 1, .left_px = 300, .right_px = 40 };
	struct compare_result r;
	struct strbuf *titles;

	if (plot_compare_build(in, in->groups, in->ngroups, &r, err) != 0)
		return -1;
	grid.rows = (int)in->ngroups - 1;
	grid.panel_height = 40 + 17 * (int)plot_forest_rows(in, &r);
	/* Each panel's title, measured: the room above the panels fits the longest. */
	titles = xcalloc(r.ngroups, sizeof(*titles));
	plot_grid_measure(in, &grid);
	for (size_t g = 1; g < r.ngroups; g++) {
		_cleanup_strbuf_ struct strbuf wrapped = STRBUF_INIT;
		int lines;

		strbuf_init(&titles[g]);
		forest_title(in, &r, g, &titles[g]);
		lines = (int)plot_panel_title_wrap(&grid, titles[g].buf, &wrapped);
		grid.title_lines = lines > grid.title_lines ? lines : grid.title_lines;
	}
	plot_begin(gp, in, output, format,
		   "Change per cell against the base, by verdict (compare's statistics)",
		   &grid);
	for (size_t g = 1; g < r.ngroups; g++) {
		plot_forest_panel(gp, in, &grid, &r, g, titles[g].buf, g == 1 ? 0.5 : 0, true);
		strbuf_release(&titles[g]);
	}
	free(titles);
	plot_end(gp);
	compare_free(&r);
	return 0;
}

PLOT_KIND(compare, "Change per cell against the base");
