// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind timens: seed 000's question, how far apart are host and namespace.
 * Per pair of runs that one `clockbench timens` saved: left, ns per call
 * of each clock and path on the host and in the namespace with their
 * 95 % CIs; right, the change with its CI and verdict, as compare judges
 * it (the same rows, in the same order).
 */
#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"
#include "results/run-facts.h"

#define HOST_COLOUR "#0072B2"
#define TIMENS_COLOUR "#E69F00"

static const char *side_of(const struct stored_run *r)
{
	const struct run_facts *f = run_facts(r);

	return streq(f->mode, "timens") ? f->settings.timens.side : NULL;
}

/* The namespace run saved with host run h, or NULL. */
static const struct stored_run *partner_of(const struct plot_input *in,
					   const struct stored_run *h)
{
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		if (streq(side_of(r), "timens") && streq(r->started, h->started) &&
		    streq(r->host, h->host))
			return r;
	}
	return NULL;
}

/* The host runs that have their namespace run: how many, into hosts. */
static size_t timens_pairs(const struct plot_input *in,
			   const struct stored_run **hosts)
{
	size_t n = plot_nruns(in), np = 0;

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		if (streq(side_of(r), "host") && partner_of(in, r))
			hosts[np++] = r;
	}
	return np;
}

static bool timens_fits(const struct plot_input *in, struct strbuf *why)
{
	const struct stored_run **hosts = xcalloc(plot_nruns(in), sizeof(*hosts));
	size_t n = timens_pairs(in, hosts);

	free(hosts);
	if (n)
		return true;
	strbuf_addf(why, "it needs both runs of one clockbench timens (host and "
		    "namespace side), and run %lld is %s",
		    (long long)plot_run(in, 0)->id, side_of(plot_run(in, 0)) ?
		    "one side only" : "not a timens run");
	return false;
}

static const struct stored_cell *cell_of(const struct stored_run *r,
					 const struct compare_row *row)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (streq(r->cells[i].name, row->name) && streq(r->cells[i].path, row->path) &&
		    r->cells[i].values && r->cells[i].n)
			return &r->cells[i];
	return NULL;
}

/* One side's bars in the rows of the comparison; the lowest CI bound. */
static double side_block(struct gp *gp, const struct plot_input *in,
			 const struct compare_result *cr, const struct stored_run *r,
			 double offset, unsigned *block)
{
	double lowest = INFINITY;
	size_t y = 0;

	*block = gp_block(gp, "run %lld (%s): y, median, ci95_lo, ci95_hi (ns)",
			  (long long)r->id, side_of(r));
	for (size_t i = 0; i < cr->nrows; i++) {
		const struct stored_cell *c;
		struct summary s;

		if (!cr->rows[i].diffs[1].valid || !plot_row_selected(in, &cr->rows[i]))
			continue;
		if ((c = cell_of(r, &cr->rows[i]))) {
			stats_summarize_copy(c->values, c->n, &s);
			gp_row(gp, "%.3f %.6g %.6g %.6g", (double)y + offset, s.median,
			       s.median_lo, s.median_hi);
			lowest = fmin(lowest, s.median_lo > 0 ? s.median_lo : lowest);
		}
		y++;
	}
	return lowest;
}

static void bars_panel(struct gp *gp, const struct plot_input *in,
		       const struct plot_grid *grid, const struct compare_result *cr,
		       const struct stored_run *const *side, bool first)
{
	const char *colours[] = { HOST_COLOUR, TIMENS_COLOUR };
	const char *titles[] = { "host", "time namespace" };
	struct gp_clause cmd = GP_CLAUSE_INIT;
	unsigned blocks[2];
	double base = INFINITY;
	char name[96], other[96], title[256];

	for (int s = 0; s < 2; s++)
		base = fmin(base, side_block(gp, in, cr, side[s], s ? 0.18 : -0.18,
					     &blocks[s]));
	base = plot_floor10(base / 2);
	for (int s = 0; s < 2; s++) {
		gp_addf(&cmd, s ? ", \\\n  " : "plot ");
		gp_addf(&cmd, "cb_data index %u using 2:1:(%g):2:($1-0.16):($1+0.16) "
			"with boxxyerror fs solid 1 border lc rgb '#333333' fc rgb %s "
			"title %s, \\\n  cb_data index %u using 2:1:3:4 with xerrorbars "
			"pt 0 lw 1.5 lc rgb '#555555' notitle, \\\n  cb_data index %u using "
			"($4*1.1):1:(sprintf('%%.4g', $2)) with labels left font ',8' notitle",
			blocks[s], base, colours[s], first ? titles[s] : "", blocks[s],
			blocks[s]);
	}
	plot_chart_name(in, side[0], name, sizeof(name));
	plot_chart_name(in, side[1], other, sizeof(other));
	snprintf(title, sizeof(title), "%s and %s, kernel %s: ns per call", name,
		 other, side[0]->kernel);
	plot_panel_title(gp, grid, title);
	gp_cmd(gp, "set logscale x\nset xrange [%g:*]\nset format x '%%g'", base);
	gp_cmd(gp, "set xlabel 'ns per call (log scale); bar: median, whisker: 95 %% CI'");
	if (first)
		plot_key_at(gp, 0.3);
	else
		gp_cmd(gp, "unset key");
	gp_cmd_clause(gp, &cmd);
}

/* The rows' labels: the cells both sides have, in compare's order. */
static const char **row_labels(const struct plot_input *in,
			       const struct compare_result *cr, char (*buf)[128],
			       size_t *n)
{
	const char **labels = xcalloc(cr->nrows + 1, sizeof(char *));

	*n = 0;
	for (size_t i = 0; i < cr->nrows; i++)
		if (cr->rows[i].diffs[1].valid && plot_row_selected(in, &cr->rows[i])) {
			plot_cell_label(cr->rows[i].name, cr->rows[i].path, buf[*n],
					sizeof(buf[*n]));
			labels[*n] = buf[*n];
			(*n)++;
		}
	return labels;
}

static int draw_pair(struct gp *gp, const struct plot_input *in,
		     const struct plot_grid *grid, const struct stored_run *host,
		     bool first, struct strbuf *err)
{
	const struct stored_run *side[2] = { host, partner_of(in, host) };
	struct compare_group groups[2] = {
		{ .spec = (char *)"host", .runs = (struct stored_run *)side[0], .nruns = 1 },
		{ .spec = (char *)"timens", .runs = (struct stored_run *)side[1], .nruns = 1 },
	};
	struct compare_result cr;
	char (*buf)[128];
	const char **labels;
	size_t n;

	if (plot_compare_build(in, groups, 2, &cr, err) != 0)
		return -1;
	buf = xcalloc(cr.nrows + 1, sizeof(*buf));
	labels = row_labels(in, &cr, buf, &n);
	plot_ytics(gp, labels, n);
	bars_panel(gp, in, grid, &cr, side, first);
	plot_forest_panel(gp, in, grid, &cr, 1, "in the namespace: change per call",
			  first ? 0.72 : 0, false);
	free(labels);
	free(buf);
	compare_free(&cr);
	return 0;
}

static int timens_draw(struct gp *gp, const struct plot_input *in,
		       const char *output, enum gp_format format, struct strbuf *err)
{
	const struct stored_run **hosts = xcalloc(plot_nruns(in), sizeof(*hosts));
	size_t np = timens_pairs(in, hosts);
	struct plot_grid grid = { .rows = (int)np, .cols = 2, .left_px = 300, .right_px = 40 };
	struct compare_result cr;
	struct compare_group groups[2] = {
		{ .spec = (char *)"host", .runs = (struct stored_run *)hosts[0], .nruns = 1 },
		{ .spec = (char *)"timens", .nruns = 1,
		  .runs = (struct stored_run *)partner_of(in, hosts[0]) },
	};
	int rc = 0;

	if (plot_compare_build(in, groups, 2, &cr, err) != 0) {
		free(hosts);
		return -1;
	}
	grid.panel_height = 40 + 24 * (int)plot_forest_rows(in, &cr);
	compare_free(&cr);
	plot_begin(gp, in, output, format,
		   "Host against a time namespace: cost per call and its change", &grid);
	for (size_t i = 0; i < np && rc == 0; i++)
		rc = draw_pair(gp, in, &grid, hosts[i], i == 0, err);
	plot_end(gp);
	free(hosts);
	return rc;
}

PLOT_KIND(timens, "Host against a time namespace");
