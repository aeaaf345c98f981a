// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/hotplug-table.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/stats.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/cpu-accounting.h"
#include "report/output.h"
#include "report/summary-figures.h"
#include "results/resolution.h"
#include "results/run-facts.h"

static const char *const directions[] = { "offline", "online" };

bool hotplug_table_applies(const struct stored_run *r)
{
	char name[32];

	if (!r->command || !streq(r->command, "hotplug"))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		snprintf(name, sizeof(name), "%s-sys", directions[i]);
		if (!stored_run_cell(r, directions[i]) || !stored_run_cell(r, name))
			return false;
	}
	return true;
}

/* The median of cell name of r in seconds, NaN when r has none. */
static double cell_median(const struct stored_run *r, const char *name)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;

	if (!c || !c->n)
		return NAN;
	stored_cell_summarize(r, c, c->values, &s);
	return s.median;
}

/*
 * The unit of the transitions: what figure_seconds_unit() chooses for the
 * quicker direction's median, so that neither reads as 0.000.
 */
static const char *transitions_unit(const struct stored_run *r, double *scale)
{
	double off = cell_median(r, "offline"), on = cell_median(r, "online");

	return figure_seconds_unit(isnan(off) ? on : isnan(on) ? off : fmin(off, on),
				   scale);
}

/* A row: label, then the figures of cell name of r times scale (none: '-'). */
static void add_row(struct table *t, const char *label, const struct stored_run *r,
		    const char *name, double scale)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;

	table_add_text(t, label);
	if (!c) {
		summary_table_add(t, NULL, scale, 3);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	summary_table_add(t, &s, scale, 3);
}

void hotplug_table_print(FILE *f, const struct stored_run *r)
{
	struct table *t = table_new();
	char label[32], name[32];
	double scale;
	const char *unit = transitions_unit(r, &scale);

	table_add_column(t, "transition", NULL, TABLE_TEXT, unit);
	summary_table_columns(t);
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		const char *d = directions[i];

		add_row(t, d, r, d, scale);
		/* Indented: a share of the transition above, not one of its own. */
		snprintf(label, sizeof(label), "  %s user", d);
		snprintf(name, sizeof(name), "%s-user", d);
		add_row(t, label, r, name, scale);
		snprintf(label, sizeof(label), "  %s sys", d);
		snprintf(name, sizeof(name), "%s-sys", d);
		add_row(t, label, r, name, scale);
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

/* ---- what hotplug prints after a run ---------------------------------- */

/*
 * The legend, and what user and sys are worth on the machine that ran r
 * (from its config: a run made before it was recorded says nothing), as
 * hotplug marks its tick-sampled estimates; the note's sources are the
 * run's text, escaped.
 */
static void print_legend(FILE *f, const struct stored_run *r)
{
	const struct run_facts *facts = run_facts(r);
	char note[1024];

	fprintf(f, "# [95%% CI] of the median, with its real coverage when the cycles "
		"are too few for 95%%; rCV: robust CV, 100 * 1.4826 MAD / median\n");
	if (!facts->settings.accounting_known)
		return;
	cpu_accounting_note(&facts->settings.accounting, note, sizeof(note));
	fputs("# ", f);
	text_put(f, note, TEXT_LINE_MAX);
	fputc('\n', f);
}

static double median_of(const double *x, size_t n)
{
	struct summary s;

	stats_summarize_copy(x, n, &s);
	return s.median;
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / (double)n : 0;
}

/* x as "12.3%". */
static void add_percent(struct table *t, double x)
{
	char buf[40];

	figure_fixed(buf, sizeof(buf) - 1, x, 1);
	table_add_real_shown(t, x, strcat(buf, "%"));
}

/* A state's row, in seconds: from the run as measured or as stored. */
struct state_row {
	int step;			/* with fn: unknown in a stored run */
	const char *name, *fn;
	double median_s, mean_s;
	bool failed;
};

/*
 * One direction's states as a table prints them: the rows shown, largest
 * mean first; all the states traced (0: the rows alone are known, as in a
 * stored run, which keeps the top ones without their step and function);
 * the mean wall time and the sum of the mean self times of the states
 * known (all traced, or the rows), in seconds.
 */
struct states_view {
	const char *direction;
	const struct state_row *rows;
	size_t nrows, nstates;
	double wall, traced;
};

/* The states of v, times scale, largest mean first. */
static struct table *states_table(const struct states_view *v, double scale)
{
	bool measured = v->nstates > 0;
	struct table *t = table_new();

	if (measured)
		table_add_column(t, "state", NULL, TABLE_INT, NULL);
	table_add_column(t, "name", NULL, TABLE_TEXT, NULL);
	if (measured)
		table_add_column(t, "function", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "median", NULL, TABLE_REAL, NULL);
	table_add_column(t, "mean", NULL, TABLE_REAL, NULL);
	table_add_column(t, "share", NULL, TABLE_REAL, NULL);
	if (measured)
		table_add_column(t, "failed", "", TABLE_TEXT, NULL);
	for (size_t i = 0; i < v->nrows; i++) {
		const struct state_row *r = &v->rows[i];

		if (measured)
			table_add_int(t, r->step);
		table_add_text(t, r->name);
		if (measured)
			table_add_text(t, r->fn);
		table_add_real(t, r->median_s * scale, 3);
		table_add_real(t, r->mean_s * scale, 3);
		add_percent(t, v->wall > 0 ? 100 * r->mean_s / v->wall : 0);
		if (measured)
			table_add_text(t, r->failed ? "(failed)" : "");
	}
	return t;
}

/* The heading, the table and the traced line, in the unit of the largest state. */
static void print_states(FILE *f, const struct states_view *v)
{
	double scale;
	const char *unit = figure_seconds_unit(v->nrows ? v->rows[0].mean_s : v->wall,
					       &scale);
	struct table *t = states_table(v, scale);
	char traced[32], wall[32], share[32];

	if (v->nstates)
		fprintf(f, "\n%s: time per hotplug state (self time per cycle, %s; "
			"top %zu of %zu)\n", v->direction, unit, v->nrows, v->nstates);
	else
		fprintf(f, "\n%s: time per hotplug state (self time per cycle, %s; "
			"the top %zu, as the run stored them)\n", v->direction, unit,
			v->nrows);
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
	figure_fixed(traced, sizeof(traced), v->traced * scale, 3);
	figure_fixed(wall, sizeof(wall), v->wall * scale, 3);
	figure_fixed(share, sizeof(share), v->wall > 0 ? 100 * v->traced / v->wall : 0, 0);
	if (v->nstates)
		fprintf(f, "traced: %s %s of %s %s mean wall time (%s%%); the rest is "
			"the sysfs write around the hotplug steps\n", traced, unit,
			wall, unit, share);
	else
		fprintf(f, "these %zu: %s %s of %s %s mean wall time (%s%%); the rest is "
			"the states not stored and the sysfs write around the hotplug "
			"steps\n", v->nrows, traced, unit, wall, unit, share);
}

/* The top states of direction d as measured. */
static void print_measured_states(FILE *f, const struct hotplug_report *h,
				  const struct hotplug_report_direction *d)
{
	size_t shown = d->nstates < h->top ? d->nstates : h->top;
	_cleanup_free_ struct state_row *rows = xcalloc(shown + 1, sizeof(*rows));
	struct states_view v = {
		.direction = d->name, .rows = rows, .nrows = shown,
		.nstates = d->nstates, .wall = mean_of(d->wall, d->n),
	};

	for (size_t i = 0; i < d->nstates; i++)
		v.traced += d->states[i].mean_s;
	for (size_t i = 0; i < shown; i++) {
		const struct hotplug_state_line *l = &d->states[i];

		rows[i] = (struct state_row){
			.step = l->step, .name = l->name, .fn = l->fn,
			.median_s = median_of(l->values, d->ncycles),
			.mean_s = l->mean_s, .failed = l->failed,
		};
	}
	print_states(f, &v);
}

void hotplug_report_print(FILE *f, const struct hotplug_report *h,
			  const struct stored_run *stored)
{
	fprintf(f, "# clockbench hotplug: CPU %ld, %zu of %ld cycles%s\n", h->cpu,
		h->dir[1].n, h->cycles, h->interrupted ? " (interrupted)" : "");
	fprintf(f, "# tracing: %s\n", h->tracing);
	env_print(h->env, f, "# ");
	print_legend(f, stored);
	hotplug_table_print(f, stored);
	if (h->lost)
		fprintf(f, "# the trace buffer dropped %" PRIu64 " events: per-state "
			"times are incomplete\n", h->lost);
	for (int i = 0; i < 2 && h->dir[i].ncycles; i++)
		print_measured_states(f, h, &h->dir[i]);
}

/* ---- show: the run as stored ------------------------------------------ */

/* The state of cell name in direction dir ("state:NAME:dir"), or NULL. */
static const char *state_of(const char *name, const char *dir, size_t *len)
{
	size_t n = strlen(name), d = strlen(dir);

	if (strncmp(name, "state:", 6) != 0 || n < 6 + 1 + d + 1 ||
	    name[n - d - 1] != ':' || !streq(name + n - d, dir))
		return NULL;
	*len = n - 6 - d - 1;
	return name + 6;
}

static int by_mean_desc(const void *a, const void *b)
{
	const struct state_row *x = a, *y = b;

	if (x->mean_s != y->mean_s)
		return x->mean_s < y->mean_s ? 1 : -1;
	return x->step - y->step;	/* the order stored */
}

/* The stored states of direction dir, largest mean first. */
static void print_stored_states(FILE *f, const struct stored_run *r, const char *dir)
{
	const struct stored_cell *wall = stored_run_cell(r, dir);
	_cleanup_free_ struct state_row *rows = xcalloc(r->ncells + 1, sizeof(*rows));
	_cleanup_free_ char **names = xcalloc(r->ncells + 1, sizeof(*names));
	struct states_view v = {
		.direction = dir, .rows = rows,
		.wall = wall ? mean_of(wall->values, wall->n) : 0,
	};
	const char *state;
	size_t len;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		struct summary s;

		state = state_of(c->name, dir, &len);
		if (!state || !c->n)
			continue;
		names[v.nrows] = xstrndup(state, len);
		stored_cell_summarize(r, c, c->values, &s);
		rows[v.nrows] = (struct state_row){
			.step = (int)v.nrows, .name = names[v.nrows],
			.median_s = s.median, .mean_s = mean_of(c->values, c->n),
		};
		v.traced += rows[v.nrows].mean_s;
		v.nrows++;
	}
	qsort(rows, v.nrows, sizeof(*rows), by_mean_desc);
	if (v.nrows)
		print_states(f, &v);
	for (size_t i = 0; i < v.nrows; i++)
		free(names[i]);
}

void hotplug_table_print_run(FILE *f, const struct stored_run *r)
{
	print_legend(f, r);
	hotplug_table_print(f, r);
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++)
		print_stored_states(f, r, directions[i]);
}

static json_t *states_to_json(const struct hotplug_report *h,
			      const struct hotplug_report_direction *d)
{
	double wall = mean_of(d->wall, d->n);
	json_t *a = json_array();

	for (size_t i = 0; i < d->nstates && i < h->top; i++) {
		const struct hotplug_state_line *r = &d->states[i];

		json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:f, s:f, s:f, s:b}",
			"state", r->step, "name", r->name,
			"function", r->fn, "median_s", median_of(r->values, d->ncycles),
			"mean_s", r->mean_s, "share_pct",
			wall > 0 ? 100 * r->mean_s / wall : 0.0, "failed", r->failed));
	}
	return a;
}

static json_t *direction_to_json(const struct hotplug_report *h,
				 const struct hotplug_report_direction *d)
{
	struct summary w, u, s;

	stats_summarize_copy(d->wall, d->n, &w);
	stats_summarize_copy(d->user, d->n, &u);
	stats_summarize_copy(d->sys, d->n, &s);
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "unit", "s",
			 "wall", summary_to_json(&w), "user", summary_to_json(&u),
			 "sys", summary_to_json(&s), "states", states_to_json(h, d));
}

int hotplug_report_json_print(FILE *f, const struct hotplug_report *h)
{
	json_t *j = json_pack("{s:i, s:I, s:I, s:b, s:{s:b, s:s, s:I}, s:o, s:o, s:o}",
		"cpu", (int)h->cpu, "cycles", (json_int_t)h->cycles,
		"completed", (json_int_t)h->dir[1].n, "interrupted", h->interrupted,
		"tracing", "active", h->dir[0].ncycles > 0,
		"note", h->tracing,
		"lost_events", (json_int_t)h->lost,
		"offline", direction_to_json(h, &h->dir[0]),
		"online", direction_to_json(h, &h->dir[1]),
		"environment", env_to_json(h->env));

	if (!j)
		return -1;
	json_print(f, j);
	json_decref(j);
	return 0;
}
