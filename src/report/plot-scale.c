// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind scale: seed 001's curves. Per API a panel of the median seconds
 * the threads needed for their fixed share of calls, against the number
 * of threads, one line per run with its 95 % CI as a band; or, for
 * --idle-threads runs, ns per call against the idle threads beside it.
 */
#include <stdlib.h>
#include <string.h>

#include "basic/util.h"
#include "report/palette.h"
#include "report/plot-internal.h"

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
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		for (size_t k = 0; k < r->ncells; k++)
			if (is_scale_cell(in, r, &r->cells[k]))
				return true;
	}
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
		plot_summarize(c->values, c->n, &pts[n++].s);
	}
	qsort(pts, n, sizeof(*pts), by_count);
	return n;
}

/* The calls the threads shared, from the run's config (0 when unknown). */
static long long scale_calls(const struct stored_run *r)
{
	const json_t *calls = r->config ? json_object_get(r->config, "calls") : NULL;

	return json_is_integer(calls) ? (long long)json_integer_value(calls) : 0;
}

static void panel_axes(struct gp *gp, const struct scale_panel *p, long lo, long hi,
		       long long calls)
{
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;
	const struct stored_cell *c = p->example;

	strbuf_addf(&title, "%s(%s)%s%s", *c->api ? c->api : p->base, c->clock,
		    *c->path ? ", " : "", c->path);
	plot_panel_title(gp, title.buf);
	if (hi >= 8 * (lo > 0 ? lo : 1))
		gp_cmd(gp, "set logscale x 2");
	else
		gp_cmd(gp, "unset logscale x");
	gp_cmd(gp, "set format x '%%g'\nset xrange [%g:%g]", lo > 0 ? lo * 0.9 : -0.5,
	       hi * 1.1 + 0.5);
	gp_cmd(gp, "set xtics ()");
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

/* A thread count as an x tic, once (seen: " 2 8 ", the counts so far). */
static void add_tic(struct gp_clause *tics, struct strbuf *seen, long count)
{
	char tic[32];

	snprintf(tic, sizeof(tic), " %ld ", count);
	if (strstr(seen->buf, tic))
		return;
	gp_addf(tics, seen->len ? ", %ld" : "set xtics add (%ld", count);
	strbuf_addf(seen, "%s", seen->len ? tic + 1 : tic);
}

static void draw_scale_panel(struct gp *gp, const struct plot_input *in,
			     const struct scale_panel *p, bool first)
{
	size_t n = plot_nruns(in), most = 1;
	struct gp_clause cmd = GP_CLAUSE_INIT, tics = GP_CLAUSE_INIT;
	_cleanup_strbuf_ struct strbuf seen = STRBUF_INIT;
	long lo = -1, hi = 0;
	long long calls = 0;
	size_t drawn = 0;

	for (size_t i = 0; i < n; i++)
		most = plot_run(in, i)->ncells > most ? plot_run(in, i)->ncells : most;
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
			add_tic(&tics, &seen, pts[k].count);
			lo = lo < 0 || pts[k].count < lo ? pts[k].count : lo;
			hi = pts[k].count > hi ? pts[k].count : hi;
		}
		if (drawn++)
			gp_addf(&cmd, ", \\\n  ");
		gp_addf(&cmd, "cb_data index %u using 1:3:4 with filledcurves "
			"fs transparent solid 0.18 noborder lc rgb %s notitle, \\\n  "
			"cb_data index %u using 1:2 with linespoints lw 2 dt %d pt %d "
			"ps 1.2 lc rgb %s title %s", b, palette_series(i), b, palette_dash(i),
			palette_point(i), palette_series(i), first ? name : "");
		free(pts);
	}
	panel_axes(gp, p, lo, hi, calls);
	gp_addf(&tics, ")");
	gp_cmd_clause(gp, &tics);
	plot_key(gp, first);
	gp_cmd_clause(gp, &cmd);
}

static int scale_draw(struct gp *gp, const struct plot_input *in,
		      const char *output, enum gp_format format, struct strbuf *err)
{
	struct scale_panel panels[MAX_PANELS];
	size_t np = scale_panels(in, panels);
	int cols = np >= 2 ? 2 : 1;

	plot_begin(gp, in, output, format,
		   "Cost against threads (mmtests poundtime): one line per run",
		   (int)((np + (size_t)cols - 1) / (size_t)cols), cols, 380, 90, 40);
	for (size_t i = 0; i < np; i++)
		draw_scale_panel(gp, in, &panels[i], i == 0);
	plot_end(gp);
	(void)err;
	return 0;
}

const struct plot_kind_ops plot_scale_ops = {
	.name = "scale",
	.caption = "Cost against threads",
	.fits = scale_fits,
	.draw = scale_draw,
};
