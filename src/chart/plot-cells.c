// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind cells: the cost of every API per path, one horizontal bar per path
 * with the 95 % CI of the median as a whisker, on a log axis so that vDSO
 * calls at 2-30 ns and syscalls at 0.1-1.5 us share one chart; beside it
 * the same in cycles when the run counted them. One row of panels per run.
 */
#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"

static const char *const path_order[] = { "vdso", "libc", "syscall", "" };

/* The rows (names) and bars (paths) of one run's panel. */
struct cells_layout {
	char **names;
	size_t nnames;
	const char *paths[ARRAY_SIZE(path_order)];
	size_t npaths;
};

static bool is_ns_cell(const struct plot_input *in, const struct stored_run *r,
		       const struct stored_cell *c)
{
	return plot_selected(in, c) && streq(c->unit, "ns");
}

static size_t find_name(const struct cells_layout *l, const char *name)
{
	for (size_t i = 0; i < l->nnames; i++)
		if (streq(l->names[i], name))
			return i;
	return SIZE_MAX;
}

/* The slot of a path in path_order; unknown paths share the last. */
static size_t path_index(const char *path)
{
	for (size_t p = 0; p + 1 < ARRAY_SIZE(path_order); p++)
		if (streq(path, path_order[p]))
			return p;
	return ARRAY_SIZE(path_order) - 1;
}

static void cells_layout_of(const struct plot_input *in,
			    const struct stored_run *r, struct cells_layout *l)
{
	bool have[ARRAY_SIZE(path_order)] = { false };

	memset(l, 0, sizeof(*l));
	l->names = xcalloc(r->ncells + 1, sizeof(char *));
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];

		if (!is_ns_cell(in, r, c))
			continue;
		if (find_name(l, c->name) == SIZE_MAX)
			l->names[l->nnames++] = c->name;
		have[path_index(c->path)] = true;
	}
	for (size_t p = 0; p < ARRAY_SIZE(path_order); p++)
		if (have[p])
			l->paths[l->npaths++] = path_order[p];
}

/* Which bar of its row a cell is. */
static size_t path_slot(const struct cells_layout *l, const char *path)
{
	for (size_t p = 0; p < l->npaths; p++)
		if (path_index(l->paths[p]) == path_index(path))
			return p;
	return 0;
}

static bool cells_fits(const struct plot_input *in, struct strbuf *why)
{
	if (plot_has_cell(in, is_ns_cell))
		return true;
	strbuf_addf(why, "run %lld (%s) has no %scells measured in ns per call: "
		    "kind cells draws bench and timens runs",
		    (long long)plot_run(in, 0)->id, plot_run(in, 0)->command,
		    in->cells ? "matching " : "");
	return false;
}

/* The values a panel shows: ns, or cycles (core cycles when kept). */
static const double *panel_values(const struct stored_cell *c, bool cycles)
{
	if (!cycles)
		return c->values;
	return plot_core_cycles(c) ? plot_core_cycles(c) : c->cycles;
}

static const char *cycles_unit(const struct stored_run *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		if (plot_core_cycles(&r->cells[i]))
			return "core cycles";
		if (r->cells[i].cycles && *r->cells[i].cycles_unit)
			return r->cells[i].cycles_unit;
	}
	return NULL;
}

/* One data block per path: y, median, CI low, CI high. Returns the lowest CI. */
static double write_bars(struct gp *gp, const struct plot_input *in,
			 const struct stored_run *r, const struct cells_layout *l,
			 bool cycles, unsigned *blocks)
{
	double half = 0.8 / (double)l->npaths, lowest = INFINITY;

	for (size_t p = 0; p < l->npaths; p++) {
		blocks[p] = gp_block(gp, "run %lld, %s path: y median ci95_lo ci95_hi (%s)",
				     (long long)r->id, *l->paths[p] ? l->paths[p] : "other",
				     cycles ? "cycles per call" : "ns per call");
		for (size_t i = 0; i < r->ncells; i++) {
			const struct stored_cell *c = &r->cells[i];
			const double *v = panel_values(c, cycles);
			struct summary s;
			double y;

			if (!is_ns_cell(in, r, c) || !v || path_slot(l, c->path) != p)
				continue;
			stats_summarize_copy(v, c->n, &s);
			y = (double)find_name(l, c->name) - 0.4 + half * ((double)p + 0.5);
			gp_row(gp, "%.4f %.6g %.6g %.6g", y, s.median, s.median_lo, s.median_hi);
			if (s.median_lo > 0 && s.median_lo < lowest)
				lowest = s.median_lo;
		}
	}
	return lowest;
}

/* The plot command of one panel: bars, whiskers, the value at each bar. */
static void plot_bars(struct gp *gp, const struct cells_layout *l,
		      const unsigned *blocks, double base, bool key)
{
	struct gp_clause cmd = GP_CLAUSE_INIT;
	double half = 0.4 / (double)l->npaths * 0.9;

	gp_addf(&cmd, "plot ");
	for (size_t p = 0; p < l->npaths; p++) {
		const char *path = *l->paths[p] ? l->paths[p] : "other";

		if (p)
			gp_addf(&cmd, ", \\\n  ");
		gp_addf(&cmd, "cb_data index %u using 2:1:(%g):2:($1-%.4f):($1+%.4f) "
			"with boxxyerror fs solid 1 border lc rgb '#333333' "
			"fc rgb %s title %s, \\\n", blocks[p], base, half, half,
			palette_path(l->paths[p]), key ? path : "");
		gp_addf(&cmd, "  cb_data index %u using 2:1:3:4 with xerrorbars "
			"pt 0 lw 1.5 lc rgb '#555555' notitle, \\\n", blocks[p]);
		gp_addf(&cmd, "  cb_data index %u using ($4*1.12):1:(sprintf('%%.4g', $2)) "
			"with labels left font ',8' notitle", blocks[p]);
	}
	gp_cmd_clause(gp, &cmd);
}

static void draw_panel(struct gp *gp, const struct plot_input *in,
		       const struct plot_grid *grid, const struct stored_run *r,
		       const struct cells_layout *l, bool cycles, const char *unit,
		       bool first)
{
	const char **labels = xcalloc(l->nnames + 1, sizeof(char *));
	unsigned blocks[ARRAY_SIZE(path_order)];
	/* Half the lowest CI: a 1.0 ns bar still shows on the log axis. */
	double base = plot_floor10(write_bars(gp, in, r, l, cycles, blocks) / 2);
	_cleanup_strbuf_ struct strbuf xlabel = STRBUF_INIT;
	char name[96], title[256];

	for (size_t i = 0; i < l->nnames; i++)
		labels[i] = cycles ? "" : l->names[i];
	plot_chart_name(in, r, name, sizeof(name));
	snprintf(title, sizeof(title), "%s, kernel %s: %s per call", name, r->kernel,
		 cycles ? unit : "ns");
	plot_panel_title(gp, grid, title);
	plot_ytics(gp, labels, l->nnames);
	gp_cmd(gp, "set logscale x");
	gp_cmd(gp, "set xrange [%g:*]", base);
	gp_cmd(gp, "set format x '%%g'");
	strbuf_addf(&xlabel, "%s per call (log scale); bar: median, whisker: 95 %% CI",
		    cycles ? unit : "ns");
	gp_cmd(gp, "set xlabel %s", xlabel.buf);
	plot_key(gp, first);
	plot_bars(gp, l, blocks, base, first);
	free(labels);
}

static int cells_draw(struct gp *gp, const struct plot_input *in,
		      const char *output, enum gp_format format, struct strbuf *err)
{
	size_t n = plot_nruns(in), rows = 0, most = 1;
	struct plot_grid grid = { .left_px = 250, .right_px = 40 };
	bool cycles = false;
	struct cells_layout l;

	for (size_t i = 0; i < n; i++) {
		cells_layout_of(in, plot_run(in, i), &l);
		if (l.nnames) {
			rows++;
			most = l.nnames * l.npaths > most ? l.nnames * l.npaths : most;
		}
		cycles |= cycles_unit(plot_run(in, i)) != NULL;
		free(l.names);
	}
	grid.rows = (int)rows;
	grid.cols = cycles ? 2 : 1;
	grid.panel_height = 60 + 13 * (int)most;
	plot_begin(gp, in, output, format, "Cost per call of each API, by path", &grid);
	for (size_t i = 0, drawn = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		cells_layout_of(in, r, &l);
		if (l.nnames) {
			draw_panel(gp, in, &grid, r, &l, false, NULL, drawn++ == 0);
			if (cycles && cycles_unit(r))
				draw_panel(gp, in, &grid, r, &l, true, cycles_unit(r), false);
			else if (cycles)
				gp_cmd(gp, "set multiplot next");
		}
		free(l.names);
	}
	plot_end(gp);
	(void)err;
	return 0;
}

PLOT_KIND(cells, "Cost per call of each API, by path");
