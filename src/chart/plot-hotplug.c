// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kind hotplug: seed 003 without picking a representative run. Above, the
 * latency of every offline and online transition in cycle order; below,
 * per run and direction, the mean time of each hotplug state as stacked
 * bars, numbered as in the key so that the order reads in greyscale too.
 * What the traced states do not cover is the grey "rest".
 */
#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "chart/palette.h"
#include "chart/plot-internal.h"

#define MAX_STATES 12	/* distinct states with a colour; the others join the rest */

static const char *const directions[] = { "offline", "online" };

static const struct stored_cell *find_cell(const struct stored_run *r,
					   const char *name)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (streq(r->cells[i].name, name) && r->cells[i].values && r->cells[i].n)
			return &r->cells[i];
	return NULL;
}

static bool is_hotplug(const struct stored_run *r)
{
	return streq(r->command, "hotplug") &&
	       (find_cell(r, "offline") || find_cell(r, "online"));
}

static bool hotplug_fits(const struct plot_input *in, struct strbuf *why)
{
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++)
		if (is_hotplug(plot_run(in, i)))
			return true;
	strbuf_addf(why, "run %lld is a %s run: kind hotplug draws clockbench "
		    "hotplug runs", (long long)plot_run(in, 0)->id,
		    plot_run(in, 0)->command);
	return false;
}

static double mean_ms(const struct stored_cell *c)
{
	double sum = 0;

	for (size_t i = 0; i < c->n; i++)
		sum += c->values[i];
	return c->n ? 1e3 * sum / (double)c->n : 0;
}

/* "state:sched:active:offline" -> "sched:active", when its direction is dir. */
static bool state_of(const struct stored_cell *c, const char *dir, char *buf,
		     size_t len)
{
	size_t n = strlen(c->name), d = strlen(dir);

	if (strncmp(c->name, "state:", 6) != 0 || n < 7 + d ||
	    c->name[n - d - 1] != ':' || strcmp(c->name + n - d, dir) != 0)
		return false;
	snprintf(buf, len, "%.*s", (int)(n - d - 7), c->name + 6);
	return c->values && c->n;
}

/* The distinct state names, in the order met (each direction's top first). */
static size_t state_names(const struct plot_input *in, char (*names)[96])
{
	size_t n = plot_nruns(in), count = 0;
	char s[96];

	for (size_t i = 0; i < n; i++)
		for (size_t d = 0; d < ARRAY_SIZE(directions); d++)
			for (size_t k = 0; k < plot_run(in, i)->ncells; k++) {
				size_t j = 0;

				if (!state_of(&plot_run(in, i)->cells[k], directions[d], s,
					      sizeof(s)))
					continue;
				while (j < count && strcmp(names[j], s))
					j++;
				if (j == count && count < MAX_STATES)
					snprintf(names[count++], sizeof(*names), "%s", s);
			}
	return count;
}

/*
 * A line per run and direction: the direction's colour and shape, the
 * run's series' dash (the runs of one label alike, named once in the key).
 */
static void latency_panel(struct gp *gp, const struct plot_input *in,
			  const struct plot_grid *grid)
{
	size_t n = plot_nruns(in), drawn = 0;
	struct gp_clause cmd = GP_CLAUSE_INIT;
	unsigned most = 1;
	char name[96], title[128];

	gp_addf(&cmd, "plot ");
	for (size_t i = 0; i < n; i++)
		for (size_t d = 0; d < ARRAY_SIZE(directions); d++) {
			const struct stored_cell *c = find_cell(plot_run(in, i), directions[d]);
			unsigned b;

			if (!c || !streq(plot_run(in, i)->command, "hotplug"))
				continue;
			plot_run_name(in, plot_run(in, i), name, sizeof(name));
			b = gp_block(gp, "%s, %s: cycle, ms", name, directions[d]);
			for (size_t k = 0; k < c->n; k++)
				gp_row(gp, "%zu %.6g", k + 1, 1e3 * c->values[k]);
			most = c->n > most ? (unsigned)c->n : most;
			if (drawn++)
				gp_addf(&cmd, ", \\\n  ");
			plot_series_name(in, plot_run(in, i), name, sizeof(name));
			snprintf(title, sizeof(title), "%s %s", directions[d], name);
			gp_addf(&cmd, "cb_data index %u using 1:2 with linespoints lw 2 "
				"dt %d pt %d lc rgb %s title %s", b,
				palette_dash(plot_series(in, plot_run(in, i))), d ? 6 : 9,
				d ? "#0072B2" : "#D55E00",
				plot_series_first(in, plot_run(in, i)) ? title : "");
		}
	plot_panel_title(gp, grid, "latency of each transition, in cycle order");
	/* Cycles are whole: no tic at 1.5 when there are few. */
	gp_cmd(gp, most <= 20 ? "set xtics 1" : "set xtics autofreq");
	gp_cmd(gp, "set xlabel 'cycle'\nset ylabel 'ms (wall)'\nset yrange [0:*]");
	gp_cmd(gp, "set key outside right top vertical");
	gp_cmd_clause(gp, &cmd);
}

static size_t index_of(char (*names)[96], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (streq(names[i], s))
			return i;
	return n;
}

/* One bar: the states of run r in direction d stacked from 0, and the rest. */
static void stack_bar(const struct stored_run *r, size_t d, double y,
		      char (*names)[96], size_t nnames, struct strbuf *data)
{
	const struct stored_cell *wall = find_cell(r, directions[d]);
	double x = 0, total = wall ? mean_ms(wall) : 0;
	char s[96];

	for (size_t k = 0; k < r->ncells; k++) {
		const struct stored_cell *c = &r->cells[k];
		char label[24] = "";
		size_t idx;
		double w;

		if (!state_of(c, directions[d], s, sizeof(s)) ||
		    (idx = index_of(names, nnames, s)) == nnames)
			continue;
		w = mean_ms(c);
		if (total > 0 && w > 0.04 * total)
			snprintf(label, sizeof(label), "%zu", idx + 1);
		strbuf_addf(&data[idx], "%.6g %.3f %.6g %.6g %.3f %.3f \"%s\"\n",
			    x + w / 2, y, x, x + w, y - 0.35, y + 0.35, label);
		x += w;
	}
	if (total > x)
		strbuf_addf(&data[nnames], "%.6g %.3f %.6g %.6g %.3f %.3f \"\"\n",
			    (x + total) / 2, y, x, total, y - 0.35, y + 0.35);
}

/* The bars' rows: "offline, run 7", ... one per run and direction. */
static size_t bar_rows(const struct plot_input *in, char (*labels)[128],
		       char (*names)[96], size_t nnames, struct strbuf *data)
{
	size_t n = plot_nruns(in), rows = 0;
	char name[96];

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		for (size_t d = 0; d < ARRAY_SIZE(directions) && is_hotplug(r); d++) {
			if (!find_cell(r, directions[d]))
				continue;
			plot_chart_name(in, r, name, sizeof(name));
			snprintf(labels[rows], sizeof(*labels), "%s, %s", directions[d], name);
			stack_bar(r, d, (double)rows++, names, nnames, data);
		}
	}
	return rows;
}

/* A fill readable in greyscale: solid and hatched states alternate. */
static void add_fill(struct gp_clause *cmd, bool hatched)
{
	gp_addf(cmd, hatched ? "fs transparent pattern 4" : "fs solid 1");
}

/* The state's number on its segment: white on a dark fill. */
static const char *number_colour(size_t k, const char *fill)
{
	return k % 2 == 0 && palette_lightness(fill) < 55 ? "#ffffff" : "#000000";
}

static void states_plot(struct gp *gp, char (*names)[96], size_t nnames,
			struct strbuf *data)
{
	struct gp_clause cmd = GP_CLAUSE_INIT;
	size_t drawn = 0;
	char title[128];

	gp_addf(&cmd, "plot ");
	for (size_t k = 0; k <= nnames; k++) {
		const char *colour = k == nnames ? "#dddddd" : palette_series(k + 1);
		bool hatched = k < nnames && k % 2;
		unsigned b;

		if (!data[k].len)
			continue;
		b = gp_block(gp, "%s: x, y, x_lo, x_hi, y_lo, y_hi, label (ms)",
			     k == nnames ? "rest (untraced, or states not shown)" : names[k]);
		data[k].buf[--data[k].len] = '\0';	/* gp_row adds the newline */
		gp_row(gp, "%s", data[k].buf);
		if (drawn++)
			gp_addf(&cmd, ", \\\n  ");
		gp_addf(&cmd, "cb_data index %u using 1:2:3:4:5:6 with boxxyerror ", b);
		add_fill(&cmd, hatched);
		gp_addf(&cmd, " border lc rgb '#333333' fc rgb %s notitle, \\\n  "
			"NaN with boxes ", colour);
		add_fill(&cmd, hatched);
		snprintf(title, sizeof(title), "%zu %s", k + 1, k == nnames ? "rest" : names[k]);
		gp_addf(&cmd, " lc rgb %s title %s, \\\n  "
			"cb_data index %u using 1:2:7 with labels font ',9' "
			"tc rgb %s notitle", colour, title, b, number_colour(k, colour));
	}
	gp_cmd_clause(gp, &cmd);
}

static void states_panel(struct gp *gp, const struct plot_input *in,
			 const struct plot_grid *grid)
{
	size_t n = 2 * plot_nruns(in) + 1;
	char (*names)[96] = xcalloc(MAX_STATES, sizeof(*names));
	char (*labels)[128] = xcalloc(n, sizeof(*labels));
	const char **tics = xcalloc(n, sizeof(char *));
	size_t nnames = state_names(in, names), rows;
	struct strbuf *data = xcalloc(nnames + 1, sizeof(*data));

	for (size_t k = 0; k <= nnames; k++)
		strbuf_init(&data[k]);
	rows = bar_rows(in, labels, names, nnames, data);
	for (size_t i = 0; i < rows; i++)
		tics[i] = labels[i];
	plot_panel_title(gp, grid, "where the time goes: mean per hotplug state "
			 "(numbered as in the key)");
	plot_ytics(gp, tics, rows);
	gp_cmd(gp, "set xlabel 'ms (mean of the cycles)'\nunset ylabel\nset xrange [0:*]");
	gp_cmd(gp, "set key outside right top vertical");
	states_plot(gp, names, nnames, data);
	for (size_t k = 0; k <= nnames; k++)
		strbuf_release(&data[k]);
	free(data);
	free(tics);
	free(labels);
	free(names);
}

static int hotplug_draw(struct gp *gp, const struct plot_input *in,
			const char *output, enum gp_format format, struct strbuf *err)
{
	struct plot_grid grid = {
		.rows = 2, .cols = 1, .panel_height = 320, .left_px = 170, .right_px = 270,
	};

	plot_begin(gp, in, output, format,
		   "CPU hotplug: offline and online latency, and the hotplug states", &grid);
	latency_panel(gp, in, &grid);
	states_panel(gp, in, &grid);
	plot_end(gp);
	(void)err;
	return 0;
}

PLOT_KIND(hotplug, "CPU hotplug latency and states");
