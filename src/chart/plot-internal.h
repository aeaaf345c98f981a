/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the chart kinds (plot-*.c) share: the runs flattened, the cells
 * chosen, titles and layout; the documents (document/) read the same
 * flattened runs. Not for use elsewhere.
 */
#ifndef CLOCKBENCH_PLOT_INTERNAL_H
#define CLOCKBENCH_PLOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/stats.h"
#include "basic/strbuf.h"
#include "chart/gnuplot.h"
#include "chart/plot.h"
#include "results/compare.h"
#include "results/store.h"

/* A kind: whether the runs fit it, and its chart. */
struct plot_kind_ops {
	const char *name;
	const char *caption;
	bool (*fits)(const struct plot_input *in, struct strbuf *why);
	int (*draw)(struct gp *gp, const struct plot_input *in, const char *output,
		    enum gp_format format, struct strbuf *err);
};

/*
 * Defines plot_KIND_ops from the kind's own KIND_fits() and KIND_draw(): a
 * kind is named after its functions, and the name is written once.
 */
#define PLOT_KIND(kind, text)						\
	const struct plot_kind_ops plot_##kind##_ops = {		\
		.name = #kind,						\
		.caption = text,					\
		.fits = kind##_fits,					\
		.draw = kind##_draw,					\
	}

extern const struct plot_kind_ops plot_cells_ops, plot_distribution_ops,
	plot_rounds_ops, plot_scale_ops, plot_compare_ops, plot_hotplug_ops,
	plot_timens_ops;

/* The runs of every group, in order. */
size_t plot_nruns(const struct plot_input *in);
const struct stored_run *plot_run(const struct plot_input *in, size_t i);

/* A cell with samples, chosen by --cell. */
bool plot_selected(const struct plot_input *in, const struct stored_cell *c);

/* Whether a kind's test takes a cell of a run of in: whether it fits. */
typedef bool plot_cell_test(const struct plot_input *in, const struct stored_run *r,
			    const struct stored_cell *c);
bool plot_has_cell(const struct plot_input *in, plot_cell_test *takes);

/*
 * A run for people, never its id in this store (which means nothing to a
 * reader of the chart): its label, else "bench of 2026-12-01T10:00:00Z";
 * with ", run 2 of 3" when other runs of in have that name, numbered in
 * the order they started.
 */
void plot_run_name(const struct plot_input *in, const struct stored_run *r,
		   char *buf, size_t len);
/*
 * The same as a chart draws it: a label's letter ("A, run 2 of 3") when
 * in has a label too long to draw (plot_lettered()), the title naming
 * each letter's label in full.
 */
void plot_chart_name(const struct plot_input *in, const struct stored_run *r,
		     char *buf, size_t len);
/* Whether in's labels are drawn as letters: one is too long to draw. */
bool plot_lettered(const struct plot_input *in);
/* A label as charts of in draw it: itself, or its letter. */
void plot_label_alias(const struct plot_input *in, const char *label, char *buf,
		      size_t len);

/*
 * A run's series (its colour, dash and point shape): a label's runs, the
 * boots of one kernel, are one series; an unlabelled run is its own.
 * Numbered 0, 1, ... in the order of in's runs.
 */
size_t plot_series(const struct plot_input *in, const struct stored_run *r);
/* Whether r is its series' first run in in (the one that goes in the key). */
bool plot_series_first(const struct plot_input *in, const struct stored_run *r);
/* The series for the key: "A (3 runs)", or the run's chart name. */
void plot_series_name(const struct plot_input *in, const struct stored_run *r,
		      char *buf, size_t len);
/* "clock-gettime-monotonic vdso", or the name alone without a path. */
void plot_cell_label(const char *name, const char *path, char *buf, size_t len);

/*
 * Chart title: what it shows, then the runs: how many, when, kernels,
 * hosts and labels ("2 bench runs, 2026-12-01T10:00:00Z to
 * 2026-12-01T10:05:00Z · kernel 6.18.44 · host vm · labels before, after").
 */
void plot_title_text(const struct plot_input *in, const char *what,
		     struct strbuf *sb);

/*
 * A chart's grid of panels, rows x cols; in pixels, a panel's height and
 * the room left of the panels (tic labels) and right of them (a key).
 * plot_begin() sets the picture's width, a panel's and the tics' font.
 */
struct plot_grid {
	int rows, cols;
	int panel_height, left_px, right_px;
	/*
	 * The most lines a panel's title takes (plot_panel_title_wrap()): the
	 * room above each panel. 0 or fewer than 2: two lines.
	 */
	int title_lines;
	int width;
	double panel_px;
	int tic_pt;	/* the tics' font size: the terminal's */
};

/*
 * The picture's width and a panel's (grid->width, grid->panel_px), as
 * plot_begin() sets them: for a chart that measures its panels' titles
 * (plot_panel_title_wrap()) before it begins.
 */
void plot_grid_measure(const struct plot_input *in, struct plot_grid *grid);

/*
 * Start the chart: gp_chart(), the grid of panels with the title above
 * them, wrapped to the picture's width (and with the letters' labels when
 * plot_lettered()), and the shared style.
 */
void plot_begin(struct gp *gp, const struct plot_input *in, const char *output,
		enum gp_format format, const char *what, struct plot_grid *grid);
void plot_end(struct gp *gp);

/* How wide chars characters of a font of points are, in pixels (an estimate). */
double plot_text_px(size_t chars, int points);
/* How many characters of a font of points fit in px pixels (8 at least). */
size_t plot_text_fits(double px, int points);
/*
 * text into out with its spaces turned into line breaks where a line
 * would pass width characters (its own newlines kept); the lines.
 */
size_t plot_wrap(const char *text, size_t width, struct strbuf *out);

/*
 * The key: one line under the chart's title, drawn with the first panel;
 * later panels draw none.
 */
void plot_key(struct gp *gp, bool first);
/* The key in the line under the title, centred at x (a screen fraction). */
void plot_key_at(struct gp *gp, double x);

/* ytics with text labels at 0, 1, ..., n - 1, first at the top. */
void plot_ytics(struct gp *gp, const char *const *labels, size_t n);

/* A panel's title (the next plot command's), wrapped to the panel. */
void plot_panel_title(struct gp *gp, const struct plot_grid *grid, const char *title);
/* title wrapped as plot_panel_title() draws it (grid measured), into out: its lines. */
size_t plot_panel_title_wrap(const struct plot_grid *grid, const char *title,
			     struct strbuf *out);

/* Smallest power of ten at or below x (x > 0). */
double plot_floor10(double x);

/* ---- forest plots (plot-compare.c), also drawn by kind timens ---- */

/* A compare row chosen by --cell. */
bool plot_row_selected(const struct plot_input *in, const struct compare_row *row);
/*
 * The comparison of groups (some of in's) through in's session
 * (compare's options without one); -1 with err when it fails or no chosen
 * cell is in two groups.
 */
int plot_compare_build(const struct plot_input *in, struct compare_group *groups,
		       size_t ngroups, struct compare_result *r, struct strbuf *err);
/* The most rows a panel of r shows. */
size_t plot_forest_rows(const struct plot_input *in, const struct compare_result *r);
/*
 * Group g of r against the base: change with CI per row, by verdict; the
 * verdicts' key centred at key_x (0: no key), the rows named or not.
 */
void plot_forest_panel(struct gp *gp, const struct plot_input *in,
		       const struct plot_grid *grid, const struct compare_result *r,
		       size_t g, const char *title, double key_x, bool names);

/* The core cycles of each of c's samples, or NULL when it has none. */
const double *plot_core_cycles(const struct stored_cell *c);

#endif
