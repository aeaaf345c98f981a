// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/hotplug-table.h"

#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "basic/json.h"
#include "basic/stats.h"
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

/* label, then the statistics of cell name of r, in ms. */
static void print_row(FILE *f, const char *label, const struct stored_run *r,
		      const char *name)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;
	char ci[64];

	fprintf(f, "%-15s", label);
	if (!c) {
		fputs(" -\n", f);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	format_median_ci(ci, sizeof(ci), &s, 1e3, 3);
	fprintf(f, " %4zu %9.3f %9.3f  %-24s %9.3f %7.1f%% %9.3f %5zu\n",
		s.n, s.min * 1e3, s.median * 1e3, ci, s.mean * 1e3,
		s.robust_cv_pct, s.max * 1e3, s.outliers);
}

void hotplug_table_print(FILE *f, const struct stored_run *r)
{
	char label[32], name[32];

	fprintf(f, "%-15s %4s %9s %9s  %-24s %9s %8s %9s %5s\n", "transition (ms)",
		"n", "min", "median", "[95% CI]", "mean", "rCV", "max", "outl");
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		const char *d = directions[i];

		print_row(f, d, r, d);
		snprintf(label, sizeof(label), "  %s user", d);
		snprintf(name, sizeof(name), "%s-user", d);
		print_row(f, label, r, name);
		snprintf(label, sizeof(label), "  %s sys", d);
		snprintf(name, sizeof(name), "%s-sys", d);
		print_row(f, label, r, name);
	}
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

static void print_states(FILE *f, const struct hotplug_report *h,
			 const struct hotplug_report_direction *d)
{
	double wall = mean_of(d->wall, d->n), traced = 0;
	size_t shown = d->nstates < h->top ? d->nstates : h->top;

	for (size_t i = 0; i < d->nstates; i++)
		traced += d->states[i].mean_s;
	fprintf(f, "\n%s: time per hotplug state (self time per cycle, ms; top %zu of %zu)\n",
		d->name, shown, d->nstates);
	fprintf(f, "%6s  %-24s %-30s %9s %9s %7s\n", "state", "name", "function",
		"median", "mean", "share");
	for (size_t i = 0; i < shown; i++) {
		const struct hotplug_state_line *r = &d->states[i];

		fprintf(f, "%6d  %-24s %-30s %9.3f %9.3f %6.1f%%%s\n", r->step,
			r->name, r->fn, median_of(r->values, d->ncycles) * 1e3,
			r->mean_s * 1e3, wall > 0 ? 100 * r->mean_s / wall : 0,
			r->failed ? "  (failed)" : "");
	}
	fprintf(f, "traced: %.3f ms of %.3f ms mean wall time (%.0f%%); the rest is "
		"the sysfs write around the hotplug steps\n", traced * 1e3,
		wall * 1e3, wall > 0 ? 100 * traced / wall : 0);
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
