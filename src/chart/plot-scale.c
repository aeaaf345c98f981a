// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind scale: seed 001's curves. Per API a panel of the median seconds
 * the threads needed for their fixed share of calls, against the number
 * of threads, one line per run with its 95 % CI as a band; or, for
 * --idle-threads runs, ns per call against the idle threads beside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"
#include "results/run-facts.h"

#define MAX_PANELS 8

/* "times-threads-8" -> base "times", mode "threads", count 8. */
static bool parse_scale_name(const char *name, char *base, size_t len,
			     const char **mode, long *count)
{
	static const char *const modes[] = { "-threads-", "-idle-" };

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		const char *at = strstr(name, modes[m]), *next;

		while (at && (next = strstr(at + 1, modes[m])))
			at = next;
		if (!at || at == name ||
		    !parse_int(at + strlen(modes[m]), 0, 1000000, count))
			continue;
		snprintf(base, len, "%.*s", (int)(at - name), name);
		*mode = m == 0 ? "threads" : "idle";
		return true;
	}
	return false;
}

static bool is_scale_cell(const struct plot_input *in, const struct stored_run *r,
			  const struct stored_cell *c)
{
	char base[128];
	const char *mode;
	long count;

	return streq(r->command, "scale") && plot_selected(in, c) &&
	       parse_scale_name(c->name, base, sizeof(base), &mode, &count);
}

static bool scale_fits(const struct plot_input *in, struct strbuf *why)
{
	if (plot_has_cell(in, is_scale_cell))
		return true;
	strbuf_addf(why, "run %lld is a %s run: kind scale draws clockbench scale runs",
		    (long long)plot_run(in, 0)->id, plot_run(in, 0)->command);
	return false;
}

/* A panel: one API (cell base name) and mode, across the runs. */
struct scale_panel {
	char base[128];
	const char *mode;
	const struct stored_cell *example;	/* for its api, clock, unit */
};

static size_t scale_panels(const struct plot_input *in, struct scale_panel *p)
{
	size_t n = plot_nruns(in), np = 0;

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		for (size_t k = 0; k < r->ncells; k++) {
			struct scale_panel cand = { .example = &r->cells[k] };
			size_t j = 0;
			long count;

			if (!is_scale_cell(in, r, &r->cells[k]))
				continue;
			parse_scale_name(r->cells[k].name, cand.base, sizeof(cand.base),
					 &cand.mode, &count);
			while (j < np && !(streq(p[j].base, cand.base) &&
					   streq(p[j].mode, cand.mode)))
				j++;
			if (j == np && np < MAX_PANELS)
				p[np++] = cand;
		}
	}
	return np;
}

struct scale_point {
	long count;
	struct summary s;
};

static int by_count(const void *a, const void *b)
{
	long x = ((const struct scale_point *)a)->count;
	long y = ((const struct scale_point *)b)->count;

	return (x > y) - (x < y);
}

/* Run r's points of panel p, sorted by count; how many. */
static size_t panel_points(const struct plot_input *in, const struct stored_run *r,
			   const struct scale_panel *p, struct scale_point *pts)
{
	size_t n = 0;

	for (size_t k = 0; k < r->ncells; k++) {
		const struct stored_cell *c = &r->cells[k];
		char base[128];
		const char *mode;
		long count;

		if (!is_scale_cell(in, r, c) ||
		    !parse_scale_name(c->name, base, sizeof(base), &mode, &count) ||
		    !streq(base, p->base) || !streq(mode, p->mode))
			continue;
		pts[n].count = count;
		stats_summarize_copy(c->values, c->n, &pts[n++].s);
	}
	qsort(pts, n, sizeof(*pts), by_count);
	return n;
}

/* The calls the threads shared, from the run's config (0 when unknown). */
static long long scale_calls(const struct stored_run *r)
{
	double calls = run_facts(r)->settings.scale.calls;

	return calls >= 1 && calls < 0x1p63 ? (long long)calls : 0;
}

/* The x axis: what is drawn where, and whether it is a log axis. */
struct scale_axis {
	double lo, hi;		/* the range */
	bool log;
};

/*
 * A log axis when the counts span 8 times or more (1 2 4 ... 128 evenly
 * spread, not crowded at the left), unless a count is 0 (--idle-threads
 * 0,64,128), which a log axis cannot place.
 */
static struct scale_axis scale_axis_of(long lo, long hi)
{
	struct scale_axis a = { .log = lo > 0 && hi >= 8 * lo };

	a.lo = lo > 0 ? lo * 0.9 : -0.5;
	a.hi = hi * 1.1 + 0.5;
	return a;
}

/* Where x falls along the axis, 0 (left) to 1 (right). */
static double axis_at(const struct scale_axis *a, double x)
{
	if (a->log)
		return log(x / a->lo) / log(a->hi / a->lo);
	return (x - a->lo) / (a->hi - a->lo);
}

/* The pixels a count's number needs, and a gap to the next. */
static double tic_px(long count, int points)
{
	char digits[24];

	return plot_text_px((size_t)snprintf(digits, sizeof(digits), "%ld", count),
			    points) + 6;
}

/*
 * Which counts[0..n) (ascending) get their number under the axis: the
 * first and the last, and from the left each that clears the previous
 * one shown and the last. Numbers that touch read as one ("110128" for
 * 110 and 128 at 32 CPUs' series 2 5 8 ... 79 110 128); the others keep
 * an unlabelled tic, and every point is drawn.
 */
static void tics_shown(const long *counts, size_t n, const struct scale_axis *a,
		       const struct plot_grid *grid, bool *shown)
{
	size_t last = 0;
	int pt = grid->tic_pt;

	for (size_t i = 0; i < n; i++) {
		double at = axis_at(a, (double)counts[i]) * grid->panel_px;
		double before = axis_at(a, (double)counts[last]) * grid->panel_px;
		double end = axis_at(a, (double)counts[n - 1]) * grid->panel_px;

		shown[i] = i == 0 || i == n - 1 ||
			   (at - before >= (tic_px(counts[i], pt) + tic_px(counts[last], pt)) / 2 &&
			    end - at >= (tic_px(counts[i], pt) + tic_px(counts[n - 1], pt)) / 2);
		if (shown[i])
			last = i;
	}
}

static void scale_tics(struct gp *gp, const struct plot_grid *grid, const long *counts,
		       size_t n, const struct scale_axis *a)
{
	bool *shown = xcalloc(n + 1, sizeof(bool));
	struct gp_clause tics = GP_CLAUSE_INIT;

	tics_shown(counts, n, a, grid, shown);
	gp_cmd(gp, "set xtics ()");
	gp_addf(&tics, "set xtics add (");
	for (size_t i = 0; i < n; i++) {
		if (i)
			gp_addf(&tics, ", ");
		if (shown[i])
			gp_addf(&tics, "%ld", counts[i]);
		else
			gp_addf(&tics, "%s %ld 1", "", counts[i]);
	}
	gp_addf(&tics, ")");
	gp_cmd_clause(gp, &tics);
	free(shown);
}

static void panel_axes(struct gp *gp, const struct plot_grid *grid,
		       const struct scale_panel *p, const long *counts, size_t n,
		       long long calls)
{
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;
	const struct stored_cell *c = p->example;
	struct scale_axis a = scale_axis_of(n ? counts[0] : 0, n ? counts[n - 1] : 0);

	strbuf_addf(&title, "%s(%s)%s%s", *c->api ? c->api : p->base, c->clock,
		    *c->path ? ", " : "", c->path);
	plot_panel_title(gp, grid, title.buf);
	if (a.log)
		gp_cmd(gp, "set logscale x 2");
	else
		gp_cmd(gp, "unset logscale x");
	gp_cmd(gp, "set format x '%%g'\nset xrange [%g:%g]", a.lo, a.hi);
	scale_tics(gp, grid, counts, n, &a);
	gp_cmd(gp, "set yrange [0:*]");
	if (streq(p->mode, "threads")) {
		gp_cmd(gp, "set xlabel 'threads sharing the calls'");
		if (calls)
			gp_cmd(gp, "set ylabel 'seconds for %lld calls (median, 95 %% CI)'", calls);
		else
			gp_cmd(gp, "set ylabel 'seconds (median, 95 %% CI)'");
	} else {
		gp_cmd(gp, "set xlabel 'idle threads in the process'");
		gp_cmd(gp, "set ylabel 'ns per call (median, 95 %% CI)'");
	}
}

/* count into the ascending counts[0..*n), once. */
static void add_count(long *counts, size_t *n, long count)
{
	size_t i = 0;

	while (i < *n && counts[i] < count)
		i++;
	if (i < *n && counts[i] == count)
		return;
	memmove(counts + i + 1, counts + i, (*n - i) * sizeof(*counts));
	counts[i] = count;
	(*n)++;
}

/*
 * One line with its band per run, coloured by series: the runs of one
 * label (boots of one kernel) share colour, dash and shape, and the key
 * names the label once.
 */
static void scale_series(struct gp_clause *cmd, const struct plot_input *in,
			 const struct stored_run *r, unsigned b, bool first)
{
	size_t s = plot_series(in, r);
	char name[128];

	plot_series_name(in, r, name, sizeof(name));
	gp_addf(cmd, "cb_data index %u using 1:3:4 with filledcurves "
		"fs transparent solid 0.18 noborder lc rgb %s notitle, \\\n  "
		"cb_data index %u using 1:2 with linespoints lw 2 dt %d pt %d "
		"ps 1.2 lc rgb %s title %s", b, palette_series(s), b, palette_dash(s),
		palette_point(s), palette_series(s),
		first && plot_series_first(in, r) ? name : "");
}

static void draw_scale_panel(struct gp *gp, const struct plot_input *in,
			     const struct plot_grid *grid, const struct scale_panel *p,
			     bool first)
{
	size_t n = plot_nruns(in), most = 1, ncounts = 0, drawn = 0;
	struct gp_clause cmd = GP_CLAUSE_INIT;
	long long calls = 0;
	long *counts;

	for (size_t i = 0; i < n; i++)
		most = plot_run(in, i)->ncells > most ? plot_run(in, i)->ncells : most;
	counts = xcalloc(most * n + 1, sizeof(*counts));
	gp_addf(&cmd, "plot ");
	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);
		struct scale_point *pts = xcalloc(most, sizeof(*pts));
		size_t np = panel_points(in, r, p, pts);
		char name[96];
		unsigned b;

		if (!np) {
			free(pts);
			continue;
		}
		calls = calls ? calls : scale_calls(r);
		plot_run_name(in, r, name, sizeof(name));
		b = gp_block(gp, "%s, %s %s: count, median, ci95_lo, ci95_hi", name,
			     p->base, p->mode);
		for (size_t k = 0; k < np; k++) {
			gp_row(gp, "%ld %.6g %.6g %.6g", pts[k].count, pts[k].s.median,
			       pts[k].s.median_lo, pts[k].s.median_hi);
			add_count(counts, &ncounts, pts[k].count);
		}
		if (drawn++)
			gp_addf(&cmd, ", \\\n  ");
		scale_series(&cmd, in, r, b, first);
		free(pts);
	}
	panel_axes(gp, grid, p, counts, ncounts, calls);
	plot_key(gp, first);
	gp_cmd_clause(gp, &cmd);
	free(counts);
}

static int scale_draw(struct gp *gp, const struct plot_input *in,
		      const char *output, enum gp_format format, struct strbuf *err)
{
	struct scale_panel panels[MAX_PANELS];
	size_t np = scale_panels(in, panels);
	struct plot_grid grid = {
		.cols = np >= 2 ? 2 : 1, .panel_height = 380, .left_px = 90, .right_px = 40,
	};

	grid.rows = (int)((np + (size_t)grid.cols - 1) / (size_t)grid.cols);
	plot_begin(gp, in, output, format,
		   "Cost against threads (mmtests poundtime): one line per run", &grid);
	for (size_t i = 0; i < np; i++)
		draw_scale_panel(gp, in, &grid, &panels[i], i == 0);
	plot_end(gp);
	(void)err;
	return 0;
}

PLOT_KIND(scale, "Cost against threads");
