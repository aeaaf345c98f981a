// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kinds that look inside a cell's samples:
 *
 * distribution: a histogram per cell of the samples up to their 99th
 * percentile, on a log count axis so that a second mode of a few percent
 * shows, the samples above p99 as one open, bold bar at the right (the
 * tail), the median and its 95 % CI marked. Several runs share the bins.
 *
 * rounds: per run, each cell's round medians in time order, as a change
 * against the cell's own median, with the median over the cells: a slow
 * phase of the machine moves every cell at once and stands out, a cell of
 * its own does not. The core's speed per round goes on the right axis
 * when the run kept it.
 */
#include <math.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"

#define BINS 40
#define MAX_PANELS 60

/* ---- distribution ------------------------------------------------------ */

static bool has_samples(const struct plot_input *in, const struct stored_run *r,
			const struct stored_cell *c)
{
	return plot_selected(in, c) && c->n >= 2;
}

static bool distribution_fits(const struct plot_input *in, struct strbuf *why)
{
	if (plot_has_cell(in, has_samples))
		return true;
	strbuf_addf(why, "run %lld has no %scell with two samples or more",
		    (long long)plot_run(in, 0)->id, in->cells ? "matching " : "");
	return false;
}

/* A panel: one (name, path) and that cell in each run that has it. */
struct dist_panel {
	const char *name, *path, *unit;
	const struct stored_cell **cells;	/* per run, or NULL */
};

static size_t collect_panels(const struct plot_input *in, struct dist_panel *p)
{
	size_t n = plot_nruns(in), np = 0;

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		for (size_t k = 0; k < r->ncells; k++) {
			const struct stored_cell *c = &r->cells[k];
			size_t j = 0;

			if (!has_samples(in, r, c))
				continue;
			while (j < np && !(streq(p[j].name, c->name) &&
					   streq(p[j].path, c->path)))
				j++;
			if (j == np && np == MAX_PANELS)
				continue;
			if (j == np) {
				p[np].name = c->name;
				p[np].path = c->path;
				p[np].unit = c->unit;
				p[np++].cells = xcalloc(n, sizeof(*p->cells));
			}
			p[j].cells[i] = c;
		}
	}
	return np;
}

/* The bins every run of a panel shares: from the lowest sample to the highest p99. */
static void panel_range(const struct dist_panel *p, size_t nruns, double *lo,
			double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < nruns; i++) {
		const struct stored_cell *c = p->cells[i];
		double *s;

		if (!c)
			continue;
		s = stats_sorted_copy(c->values, c->n);
		*lo = fmin(*lo, s[0]);
		*hi = fmax(*hi, stats_quantile_sorted(s, c->n, 0.99));
		free(s);
	}
	if (!(*hi > *lo))
		*hi = *lo + fmax(fabs(*lo) * 0.01, 1e-9);
}

/*
 * Histogram block and tail block of one run's cell; the tail count. most:
 * raised to the tallest bar's count.
 */
static size_t write_histogram(struct gp *gp, const struct stored_cell *c,
			      double lo, double hi, unsigned *block, size_t *most)
{
	size_t counts[BINS] = { 0 }, tail = 0;
	double w = (hi - lo) / BINS;

	for (size_t i = 0; i < c->n; i++) {
		double x = c->values[i];

		if (x > hi) {
			tail++;
			continue;
		}
		counts[(size_t)fmin(BINS - 1, fmax(0, (x - lo) / w))]++;
	}
	*block = gp_block(gp, "%s %s: bin centre, samples", c->name, c->path);
	for (size_t b = 0; b < BINS; b++) {
		if (counts[b])
			gp_row(gp, "%.8g %zu", lo + w * ((double)b + 0.5), counts[b]);
		*most = counts[b] > *most ? counts[b] : *most;
	}
	*most = tail > *most ? tail : *most;
	gp_block(gp, "%s %s: above p99 (the tail), samples", c->name, c->path);
	gp_row(gp, "%.8g %zu", hi + 2 * w, tail ? tail : 0);
	return tail;
}

#define MARK_PT 8		/* the median's text */
#define MARK_LINE_PX 11

/*
 * The median's text at line (0: the top) of the panel, prefixed by whose
 * it is (or ""): on one line when the panel has the room, else two, so
 * that it never runs left over the y axis. The lines it took.
 */
static size_t median_text(struct gp *gp, const struct plot_grid *grid,
			  const char *prefix, const struct summary *s,
			  const char *more, size_t line, const char *colour)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	/* Small text is drawn wider than 0.7 em: a tenth to spare. */
	size_t fits = plot_text_fits(grid->panel_px * 0.9 - 8, MARK_PT), lines;

	strbuf_addf(&text, "%s%smedian %.4g [%.4g, %.4g]", prefix, *prefix ? ": " : "",
		    s->median, s->median_lo, s->median_hi);
	lines = text.len + strlen(more) + 3 > fits ? 2 : 1;
	strbuf_addf(&text, "%s%s", lines == 2 ? "\n" : " · ", more);
	gp_cmd(gp, "set label %s at graph 0.99, graph %.3f right front font ',%d' "
	       "tc rgb %s", text.buf,
	       1 - (6 + MARK_LINE_PX * ((double)line + 0.5)) / grid->panel_height,
	       MARK_PT, colour);
	return lines;
}

/*
 * Median and CI marks for a run's cell; the median's text when prefix is
 * not NULL, from line on. The lines of text it took.
 */
static size_t mark_median(struct gp *gp, const struct plot_grid *grid,
			  const struct stored_cell *c, const char *prefix, size_t line,
			  const char *colour, size_t tail, double hi)
{
	struct summary s;
	double *sorted = stats_sorted_copy(c->values, c->n);
	char band[8], more[96];
	size_t lines = 0;

	stats_summarize_copy(c->values, c->n, &s);
	palette_tint(colour, 0.25, band);
	gp_cmd(gp, "set object rect from %.8g, graph 0 to %.8g, graph 1 behind "
	       "fc rgb %s fs solid 1 noborder", s.median_lo, s.median_hi, band);
	gp_cmd(gp, "set arrow from %.8g, graph 0 to %.8g, graph 1 nohead front "
	       "lw 1.5 dt 2 lc rgb %s", s.median, s.median, colour);
	snprintf(more, sizeof(more), "%.1f %% > %.4g, max %.4g",
		 100.0 * (double)tail / (double)c->n, hi, sorted[c->n - 1]);
	if (prefix)
		lines = median_text(gp, grid, prefix, &s, more, line, colour);
	free(sorted);
	return lines;
}

/*
 * A log axis from 0.8 to above the tallest bar by as much as the medians'
 * text needs, so that the text sits over the bars, not on them.
 */
static void count_range(struct gp *gp, const struct plot_grid *grid, size_t most,
			size_t lines)
{
	double share = (12.0 + MARK_LINE_PX * (double)lines) / grid->panel_height;
	double top = log10(most > 1 ? (double)most : 1) - log10(0.8);

	share = share < 0.6 ? share : 0.6;
	gp_cmd(gp, "set logscale y\nset yrange [0.8:%.4g]",
	       0.8 * pow(10, top / (1 - share)) * 1.05);
}

/*
 * slots[k]: shown run k's series (plot_series()); names[k]: its key
 * entry, "" for a series already in the key.
 */
static void plot_panel_series(struct gp *gp, const unsigned *blocks,
			      const size_t *slots, size_t nshown,
			      const char *const *names, const char *path)
{
	struct gp_clause cmd = GP_CLAUSE_INIT;

	gp_addf(&cmd, "plot ");
	for (size_t k = 0; k < nshown; k++) {
		const char *colour = nshown > 1 ? palette_series(slots[k]) :
				     palette_path(path);
		char fill[8];

		/* Opaque fills: transparency makes large charts slow to print. */
		palette_tint(colour, 0.6, fill);
		if (k)
			gp_addf(&cmd, ", \\\n  ");
		if (nshown > 1)
			gp_addf(&cmd, "cb_data index %u using 1:2 with histeps lw 2 "
				"dt %d lc rgb %s title %s", blocks[k], palette_dash(slots[k]),
				colour, names[k]);
		else
			gp_addf(&cmd, "cb_data index %u using 1:2 with boxes "
				"fs solid 1 border lc rgb '#333333' fc rgb %s notitle",
				blocks[k], fill);
		/* The tail: an open box, drawn bold, unlike any bin. */
		gp_addf(&cmd, ", \\\n  cb_data index %u using 1:($2 > 0 ? $2 : NaN) "
			"with boxes fs empty border lc rgb %s lw 2.5 lc rgb %s notitle",
			blocks[k] + 1, colour, colour);
	}
	gp_cmd_clause(gp, &cmd);
}

/* 1, 2 or 5 times a power of ten, at least x: a tic step people read. */
static double nice_step(double x)
{
	double p = plot_floor10(x);

	return x <= p ? p : x <= 2 * p ? 2 * p : x <= 5 * p ? 5 * p : 10 * p;
}

/*
 * How far below the tail's tic (">p99") the last number may stand, in
 * the axis' units (span across the panel), so that the two do not touch
 * ("50>p99"): half of each, a number of up to six characters, and a gap.
 */
static double tail_room(const struct plot_grid *grid, double span)
{
	double px = (plot_text_px(strlen(">p99"), grid->tic_pt) +
		     plot_text_px(6, grid->tic_pt)) / 2 + 6;

	return px / grid->panel_px * span;
}

static void draw_distribution_panel(struct gp *gp, const struct plot_input *in,
				    const struct plot_grid *grid,
				    const struct dist_panel *p, bool first)
{
	size_t nruns = plot_nruns(in), nshown = 0, *slots = xcalloc(nruns, sizeof(size_t));
	size_t most = 1, lines = 0, texts = 0;
	unsigned *blocks = xcalloc(nruns, sizeof(unsigned));
	char **names = xcalloc(nruns, sizeof(char *)), title[160], buf[96];
	double lo, hi, w, step;

	panel_range(p, nruns, &lo, &hi);
	w = (hi - lo) / BINS;
	gp_cmd(gp, "unset object\nunset arrow\nunset label");
	for (size_t i = 0; i < nruns; i++) {
		const struct stored_cell *c = p->cells[i];
		size_t tail;

		const struct stored_run *r = plot_run(in, i);
		bool text;

		if (!c)
			continue;
		tail = write_histogram(gp, c, lo, hi, &blocks[nshown], &most);
		plot_series_name(in, r, buf, sizeof(buf));
		names[nshown] = xstrdup(plot_series_first(in, r) ? buf : "");
		slots[nshown] = plot_series(in, r);
		/* The text of three series at most: one line each names whose. */
		text = plot_series_first(in, r) && texts++ < 3;
		if (text && r->label && *r->label)
			plot_label_alias(in, r->label, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%s", names[nshown]);
		lines += mark_median(gp, grid, c, !text ? NULL : nruns == 1 ? "" : buf, lines,
				     nruns > 1 ? palette_series(slots[nshown]) : "#000000",
				     tail, hi);
		nshown++;
	}
	plot_cell_label(p->name, p->path, title, sizeof(title));
	plot_panel_title(gp, grid, title);
	gp_cmd(gp, "set boxwidth %.8g absolute", w);
	gp_cmd(gp, "set xrange [%.8g:%.8g]", lo - w, hi + 3.5 * w);
	step = nice_step((hi - lo) / 4);
	gp_cmd(gp, "set xtics %.8g, %.8g, %.8g", ceil(lo / step) * step, step,
	       fmin(hi, hi + 2 * w - tail_room(grid, hi - lo + 4.5 * w)));
	gp_cmd(gp, "set xtics add ('>p99' %.8g)", hi + 2 * w);
	count_range(gp, grid, most, lines);
	gp_cmd(gp, "set xlabel %s", streq(p->unit, "ns") ? "ns per call" : p->unit);
	gp_cmd(gp, "set ylabel 'samples (log)'");
	plot_key(gp, first);
	plot_panel_series(gp, blocks, slots, nshown, (const char *const *)names, p->path);
	for (size_t k = 0; k < nshown; k++)
		free(names[k]);
	free(names);
	free(blocks);
	free(slots);
}

static int distribution_draw(struct gp *gp, const struct plot_input *in,
			     const char *output, enum gp_format format,
			     struct strbuf *err)
{
	struct dist_panel *panels = xcalloc(MAX_PANELS, sizeof(*panels));
	size_t np = collect_panels(in, panels);
	struct plot_grid grid = {
		.cols = np >= 3 ? 3 : (int)np, .panel_height = 220, .left_px = 80,
		.right_px = 40,
	};

	grid.rows = (int)((np + (size_t)grid.cols - 1) / (size_t)grid.cols);
	plot_begin(gp, in, output, format,
		   "Distribution of the samples: median (dashed) with its 95 % CI (shaded); "
		   "open bar: the samples above p99", &grid);
	for (size_t i = 0; i < np; i++) {
		draw_distribution_panel(gp, in, &grid, &panels[i], i == 0);
		free(panels[i].cells);
	}
	plot_end(gp);
	free(panels);
	(void)err;
	return 0;
}

PLOT_KIND(distribution, "Distribution of the samples");

/* ---- rounds ------------------------------------------------------------ */

static bool has_rounds(const struct plot_input *in, const struct stored_cell *c)
{
	return plot_selected(in, c) && c->rounds && c->nrounds >= 2;
}

static bool run_has_rounds(const struct plot_input *in, const struct stored_run *r)
{
	for (size_t k = 0; k < r->ncells; k++)
		if (has_rounds(in, &r->cells[k]))
			return true;
	return false;
}

static bool rounds_fits(const struct plot_input *in, struct strbuf *why)
{
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++)
		if (run_has_rounds(in, plot_run(in, i)))
			return true;
	strbuf_addf(why, "run %lld has no %scell measured in two rounds or more",
		    (long long)plot_run(in, 0)->id, in->cells ? "matching " : "");
	return false;
}

/* Median of each round's samples into m[0..nrounds) (NAN: no sample). */
static void round_medians(const struct stored_cell *c, double *m)
{
	size_t *count = xcalloc(c->nrounds, sizeof(size_t)), *at;
	double *by_round = xmalloc(c->n * sizeof(double));

	at = xcalloc(c->nrounds + 1, sizeof(size_t));
	for (size_t i = 0; i < c->n; i++)
		if (c->rounds[i] < c->nrounds)
			count[c->rounds[i]]++;
	for (uint32_t k = 0; k < c->nrounds; k++)
		at[k + 1] = at[k] + count[k];
	memset(count, 0, c->nrounds * sizeof(size_t));
	for (size_t i = 0; i < c->n; i++) {
		uint32_t k = c->rounds[i];

		if (k < c->nrounds)
			by_round[at[k] + count[k]++] = c->values[i];
	}
	for (uint32_t k = 0; k < c->nrounds; k++) {
		stats_sort(by_round + at[k], count[k]);
		m[k] = count[k] ? stats_quantile_sorted(by_round + at[k], count[k], 0.5) : NAN;
	}
	free(by_round);
	free(count);
	free(at);
}

/* The cell's round medians as % from their median, into pct; false if none. */
static bool round_changes(const struct stored_cell *c, double *pct)
{
	double *finite = xmalloc(c->nrounds * sizeof(double)), ref;
	size_t n = 0;

	round_medians(c, pct);
	for (uint32_t k = 0; k < c->nrounds; k++)
		if (isfinite(pct[k]))
			finite[n++] = pct[k];
	stats_sort(finite, n);
	ref = n ? stats_quantile_sorted(finite, n, 0.5) : NAN;
	free(finite);
	for (uint32_t k = 0; k < c->nrounds; k++)
		pct[k] = ref > 0 ? 100 * (pct[k] / ref - 1) : NAN;
	return ref > 0;
}

static uint32_t max_rounds(const struct plot_input *in, const struct stored_run *r)
{
	uint32_t most = 0;

	for (size_t k = 0; k < r->ncells; k++)
		if (has_rounds(in, &r->cells[k]) && r->cells[k].nrounds > most)
			most = r->cells[k].nrounds;
	return most;
}

/* The median over the cells of each round's change (the machine's drift). */
static unsigned write_drift(struct gp *gp, const struct stored_run *r,
			    double *changes, size_t ncells, uint32_t nrounds)
{
	double *col = xmalloc((ncells ? ncells : 1) * sizeof(double));
	unsigned block = gp_block(gp, "run %lld: round, median change of the cells (%%)",
				  (long long)r->id);

	for (uint32_t k = 0; k < nrounds; k++) {
		size_t n = 0;

		for (size_t i = 0; i < ncells; i++)
			if (isfinite(changes[i * nrounds + k]))
				col[n++] = changes[i * nrounds + k];
		stats_sort(col, n);
		if (n)
			gp_row(gp, "%u %.6g", k + 1, stats_quantile_sorted(col, n, 0.5));
	}
	free(col);
	return block;
}

/* Blocks of every cell's changes; the plot clauses go to cmd. */
static size_t write_cell_rounds(struct gp *gp, const struct plot_input *in,
				const struct stored_run *r, uint32_t nrounds,
				double *changes, struct gp_clause *cmd)
{
	const char *keyed[4] = { NULL };
	size_t nc = 0, nkeyed = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		double *pct = changes + nc * nrounds;
		bool key = true;
		unsigned b;

		for (uint32_t k = 0; k < nrounds; k++)
			pct[k] = NAN;
		if (!has_rounds(in, c) || !round_changes(c, pct))
			continue;
		b = gp_block(gp, "%s %s: round, change from the cell's median (%%)",
			     c->name, c->path);
		for (uint32_t k = 0; k < c->nrounds; k++)
			if (isfinite(pct[k]))
				gp_row(gp, "%u %.6g", k + 1, pct[k]);
		for (size_t j = 0; j < nkeyed; j++)
			key = key && !streq(keyed[j], c->path);
		if (key && nkeyed < ARRAY_SIZE(keyed))
			keyed[nkeyed++] = c->path;
		gp_addf(cmd, nc ? ", \\\n  " : "plot ");
		gp_addf(cmd, "cb_data index %u using 1:2 with lines lw 1 lc rgb %s title %s",
			b, palette_path(c->path), key ? (*c->path ? c->path : "cells") : "");
		nc++;
	}
	return nc;
}

/* The core's speed on the right axis, when the run kept it. */
static void add_speed(struct gp *gp, const struct stored_run *r, uint32_t nrounds,
		      struct gp_clause *cmd)
{
	double *ghz = xmalloc(nrounds * sizeof(double));
	unsigned b;

	gp_cmd(gp, "unset y2tics\nunset y2label");
	if (plot_round_speeds(r, ghz, nrounds)) {
		b = gp_block(gp, "run %lld: round, core GHz", (long long)r->id);
		for (uint32_t k = 0; k < nrounds; k++)
			if (isfinite(ghz[k]))
				gp_row(gp, "%u %.6g", k + 1, ghz[k]);
		gp_cmd(gp, "set y2tics nomirror\nset y2label 'core GHz'");
		gp_addf(cmd, ", \\\n  cb_data index %u using 1:2 axes x1y2 with "
			"linespoints lw 2 dt 2 pt 5 lc rgb '#009E73' title 'core GHz'", b);
	}
	free(ghz);
}

static void draw_rounds_panel(struct gp *gp, const struct plot_input *in,
			      const struct plot_grid *grid, const struct stored_run *r,
			      bool first)
{
	uint32_t nrounds = max_rounds(in, r);
	double *changes = xmalloc(r->ncells * nrounds * sizeof(double));
	struct gp_clause cmd = GP_CLAUSE_INIT;
	char name[96], title[256];
	size_t nc = write_cell_rounds(gp, in, r, nrounds, changes, &cmd);
	unsigned drift = write_drift(gp, r, changes, nc, nrounds);

	gp_addf(&cmd, ", \\\n  cb_data index %u using 1:2 with linespoints lw 3 pt 7 "
		"lc rgb '#D55E00' title 'median of the cells'", drift);
	add_speed(gp, r, nrounds, &cmd);
	plot_chart_name(in, r, name, sizeof(name));
	snprintf(title, sizeof(title), "%s, kernel %s: %zu cells, %u rounds", name,
		 r->kernel, nc, nrounds);
	plot_panel_title(gp, grid, title);
	gp_cmd(gp, "set xrange [0.5:%u.5]", nrounds);
	gp_cmd(gp, nrounds <= 30 ? "set xtics 1" : "set xtics autofreq");
	gp_cmd(gp, "set xlabel 'round, in time order (round 1 of every cell, then round 2, ...)'");
	gp_cmd(gp, "set ylabel 'round median against the cell median (%%)'");
	plot_key(gp, first);
	gp_cmd_clause(gp, &cmd);
	free(changes);
}

static int rounds_draw(struct gp *gp, const struct plot_input *in,
		       const char *output, enum gp_format format, struct strbuf *err)
{
	size_t n = plot_nruns(in), rows = 0;
	struct plot_grid grid = {
		.cols = 1, .panel_height = 300, .left_px = 120, .right_px = 92,
	};

	for (size_t i = 0; i < n; i++)
		rows += run_has_rounds(in, plot_run(in, i));
	grid.rows = (int)rows;
	/*
	 * 120 px on the left: the y label beside tics of up to six characters
	 * (a first round 140 times its cell's median reads "14000"); at 80 a
	 * five-character tic pushed the label off the picture. 92 on the
	 * right: the core's speed, "2.838", and its label.
	 */
	plot_begin(gp, in, output, format,
		   "Drift during the run: each cell's round medians, in time order", &grid);
	for (size_t i = 0, drawn = 0; i < n; i++)
		if (run_has_rounds(in, plot_run(in, i)))
			draw_rounds_panel(gp, in, &grid, plot_run(in, i), drawn++ == 0);
	plot_end(gp);
	(void)err;
	return 0;
}

PLOT_KIND(rounds, "Drift during the run, round by round");
