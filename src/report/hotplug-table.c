// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/hotplug-table.h"

#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/stats.h"
#include "basic/table.h"
#include "basic/util.h"
#include "probe/cpu-accounting.h"
#include "report/output.h"
#include "report/summary-figures.h"
#include "results/resolution.h"

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

/* A row: label, then the figures of cell name of r in ms (none: '-'). */
static void add_row(struct table *t, const char *label, const struct stored_run *r,
		    const char *name)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;

	table_add_text(t, label);
	if (!c) {
		summary_table_add(t, NULL, 1e3, 3);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	summary_table_add(t, &s, 1e3, 3);
}

void hotplug_table_print(FILE *f, const struct stored_run *r)
{
	struct table *t = table_new();
	char label[32], name[32];

	table_add_column(t, "transition", NULL, TABLE_TEXT, "ms");
	summary_table_columns(t);
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		const char *d = directions[i];

		add_row(t, d, r, d);
		/* Indented: a share of the transition above, not one of its own. */
		snprintf(label, sizeof(label), "  %s user", d);
		snprintf(name, sizeof(name), "%s-user", d);
		add_row(t, label, r, name);
		snprintf(label, sizeof(label), "  %s sys", d);
		snprintf(name, sizeof(name), "%s-sys", d);
		add_row(t, label, r, name);
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

/* ---- what hotplug prints after a run ---------------------------------- */

static void summarize(const double *x, size_t n, struct summary *s)
{
	_cleanup_free_ double *copy = xmalloc((n ? n : 1) * sizeof(double));

	if (n)
		memcpy(copy, x, n * sizeof(double));
	stats_summarize(copy, n, s);
}

/* The legend from this machine, the table from the run as stored. */
static void print_transitions(FILE *f, const struct stored_run *stored)
{
	fprintf(f, "# [95%% CI] of the median, with its real coverage when the cycles "
		"are too few for 95%%; rCV: robust CV, 100 * 1.4826 MAD / median\n");
	cpu_accounting_print_note(f, "# ");
	hotplug_table_print(f, stored);
}

static double median_of(const double *x, size_t n)
{
	struct summary s;

	summarize(x, n, &s);
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

/* The top states of direction d, in ms, largest mean first. */
static struct table *states_table(const struct hotplug_report *h,
				  const struct hotplug_report_direction *d, double wall)
{
	struct table *t = table_new();

	table_add_column(t, "state", NULL, TABLE_INT, NULL);
	table_add_column(t, "name", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "function", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "median", NULL, TABLE_REAL, NULL);
	table_add_column(t, "mean", NULL, TABLE_REAL, NULL);
	table_add_column(t, "share", NULL, TABLE_REAL, NULL);
	table_add_column(t, "failed", "", TABLE_TEXT, NULL);
	for (size_t i = 0; i < d->nstates && i < h->top; i++) {
		const struct hotplug_state_line *r = &d->states[i];

		table_add_int(t, r->step);
		table_add_text(t, r->name);
		table_add_text(t, r->fn);
		table_add_real(t, median_of(r->values, d->ncycles) * 1e3, 3);
		table_add_real(t, r->mean_s * 1e3, 3);
		add_percent(t, wall > 0 ? 100 * r->mean_s / wall : 0);
		table_add_text(t, r->failed ? "(failed)" : "");
	}
	return t;
}

static void print_states(FILE *f, const struct hotplug_report *h,
			 const struct hotplug_report_direction *d)
{
	double wall = mean_of(d->wall, d->n), traced = 0;
	size_t shown = d->nstates < h->top ? d->nstates : h->top;
	struct table *t = states_table(h, d, wall);
	char traced_ms[32], wall_ms[32], share[32];

	for (size_t i = 0; i < d->nstates; i++)
		traced += d->states[i].mean_s;
	fprintf(f, "\n%s: time per hotplug state (self time per cycle, ms; top %zu of %zu)\n",
		d->name, shown, d->nstates);
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
	figure_fixed(traced_ms, sizeof(traced_ms), traced * 1e3, 3);
	figure_fixed(wall_ms, sizeof(wall_ms), wall * 1e3, 3);
	figure_fixed(share, sizeof(share), wall > 0 ? 100 * traced / wall : 0, 0);
	fprintf(f, "traced: %s ms of %s ms mean wall time (%s%%); the rest is "
		"the sysfs write around the hotplug steps\n", traced_ms, wall_ms, share);
}

void hotplug_report_print(FILE *f, const struct hotplug_report *h,
			  const struct stored_run *stored)
{
	fprintf(f, "# clockbench hotplug: CPU %ld, %zu of %ld cycles%s\n", h->cpu,
		h->dir[1].n, h->cycles, h->interrupted ? " (interrupted)" : "");
	fprintf(f, "# tracing: %s\n", h->tracing);
	env_print(h->env, f, "# ");
	print_transitions(f, stored);
	if (h->lost)
		fprintf(f, "# the trace buffer dropped %" PRIu64 " events: per-state "
			"times are incomplete\n", h->lost);
	for (int i = 0; i < 2 && h->dir[i].ncycles; i++)
		print_states(f, h, &h->dir[i]);
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

	summarize(d->wall, d->n, &w);
	summarize(d->user, d->n, &u);
	summarize(d->sys, d->n, &s);
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
