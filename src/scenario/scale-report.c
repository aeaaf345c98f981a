// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/scale-report.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "basic/json.h"
#include "results/record.h"
#include "results/run-settings.h"
#include "report/scale-doc.h"
#include "report/scale-table.h"
#include "basic/util.h"

/* ---- statistics ----------------------------------------------------- */

static void summarize_point(struct scale_point *p, uint64_t calls)
{
	size_t n = p->n ? p->n : 1;
	double *elapsed = xmalloc(n * sizeof(double));
	double *user = xmalloc(n * sizeof(double));
	double *sys = xmalloc(n * sizeof(double));
	double *per_call = xmalloc(n * sizeof(double));

	for (size_t i = 0; i < p->n; i++) {
		const struct scale_sample *s = &p->samples[i];

		elapsed[i] = s->elapsed_s;
		user[i] = s->user_s;
		sys[i] = s->sys_s;
		per_call[i] = (s->user_s + s->sys_s) * 1e9 / (double)calls;
	}
	stats_summarize(elapsed, p->n, &p->elapsed);
	stats_summarize(user, p->n, &p->user);
	stats_summarize(sys, p->n, &p->sys);
	stats_summarize(per_call, p->n, &p->ns_per_call);
	free(elapsed);
	free(user);
	free(sys);
	free(per_call);
}

void scale_report_summarize(struct scale_report *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < r->ncounts; k++) {
			if (r->mode == SCALE_THREADS)
				summarize_point(&r->cells[i].points[k], r->calls);
			else if (r->cells[i].idle[k].n)
				timing_summarize(&r->cells[i].idle[k]);
		}
}

/* ---- printing (report/scale-doc.h) ----------------------------------- */

/* What report/scale-doc.c prints, and what holds it. */
struct scale_printout {
	struct scale_doc doc;
	struct scale_doc_cell *cells;
	struct scale_doc_point *points;	/* ncells x ncounts */
	double *samples;		/* 3 per repetition of every point */
	bool *disturbed;
};

static void describe_point(struct scale_doc_point *out, const struct scale_report *r,
			   size_t k, const struct scale_point *p, double *samples)
{
	for (size_t i = 0; i < p->n; i++) {
		samples[i] = p->samples[i].elapsed_s;
		samples[p->n + i] = p->samples[i].user_s;
		samples[2 * p->n + i] = p->samples[i].sys_s;
	}
	*out = (struct scale_doc_point){
		.n = p->n, .elapsed_s = samples, .user_s = samples + p->n,
		.sys_s = samples + 2 * p->n, .elapsed = &p->elapsed,
		.ns_per_call = &p->ns_per_call, .user = &p->user, .sys = &p->sys,
		.calls_per_thread = scale_thread_calls(r->calls, r->counts[k], 0),
	};
}

static void describe_cells(struct scale_printout *out, const struct scale_report *r)
{
	size_t nsamples = 0, at = 0;

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; r->mode == SCALE_THREADS && k < r->ncounts; k++)
			nsamples += 3 * r->cells[i].points[k].n;
	out->cells = xcalloc(r->ncells + 1, sizeof(*out->cells));
	out->points = xcalloc(r->ncells * r->ncounts + 1, sizeof(*out->points));
	out->samples = xcalloc(nsamples + 1, sizeof(double));
	for (size_t i = 0; i < r->ncells; i++) {
		const struct scale_cell *c = &r->cells[i];
		struct scale_doc_point *points = out->points + i * r->ncounts;

		out->cells[i] = (struct scale_doc_cell){
			.cell = &c->cell, .points = points, .idle = c->idle,
		};
		for (size_t k = 0; r->mode == SCALE_THREADS && k < r->ncounts; k++) {
			describe_point(&points[k], r, k, &c->points[k], out->samples + at);
			at += 3 * c->points[k].n;
		}
	}
}

static void describe_disturbance(struct scale_doc *d, const struct scale_report *r,
				 bool *disturbed, bool json)
{
	struct exec_disturb_medians m = { 0 };

	if (r->nreps)
		exec_disturb_medians(r->reps, r->nreps, &m);
	for (unsigned k = 0; k < r->nreps; k++)
		disturbed[k] = r->reps[k].disturbed;
	d->nreps = r->nreps;
	d->involuntary = m.involuntary;
	d->runnable = m.runnable;
	d->steal_ms = m.steal_ms;
	d->disturbed = disturbed;
	d->disturbance = json && r->mode == SCALE_THREADS ?
			 exec_disturb_json(r->reps, r->nreps) : NULL;
}

static void describe(struct scale_printout *out, const struct scale_report *r,
		     bool json)
{
	struct scale_doc *d = &out->doc;

	describe_cells(out, r);
	out->disturbed = xcalloc(r->nreps + 1, sizeof(bool));
	*d = (struct scale_doc){
		.idle = r->mode == SCALE_IDLE, .calls = r->calls,
		.repetitions = r->repetitions, .counts = r->counts,
		.ncounts = r->ncounts, .series = r->series, .ncpus = r->ncpus,
		.cpu = r->cpu, .cfg = &r->cfg, .cal = &r->cal, .warmup = &r->warmup,
		.disturb = &r->disturb, .cells = out->cells, .ncells = r->ncells,
		.acct = &r->acct, .env = &r->env, .started = r->started,
		.elapsed_s = r->elapsed_s, .interrupted = r->interrupted,
	};
	describe_disturbance(d, r, out->disturbed, json);
}

static void printout_free(struct scale_printout *out)
{
	json_decref(out->doc.disturbance);
	free(out->cells);
	free(out->points);
	free(out->samples);
	free(out->disturbed);
}

int scale_report_print(FILE *f, const struct scale_report *r,
		       enum output_format fmt, const struct stored_run *stored)
{
	struct scale_printout out;

	switch (fmt) {
	case FORMAT_TABLE:
		/*
		 * The header from what was measured, then the blocks of the
		 * cells from the run as stored, as show prints them.
		 */
		describe(&out, r, false);
		scale_doc_header(f, &out.doc);
		scale_table_print(f, stored);
		printout_free(&out);
		break;
	case FORMAT_CSV:
		scale_csv_print(f, stored);
		break;
	case FORMAT_JSON:
		describe(&out, r, true);
		scale_doc_json_print(f, &out.doc);
		printout_free(&out);
		break;
	default:
		fatal("a scale run is not printed as %s", format_vocabulary[fmt]);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* ---- the stored run ------------------------------------------------- */

static void set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = xstrdup(s ? s : "");
}

static struct stored_cell *add_stored_cell(struct stored_run *out,
					   const struct cell *c, const char *kind,
					   unsigned count, const char *unit,
					   const double *values, size_t n)
{
	struct stored_cell *sc;
	char name[128];

	snprintf(name, sizeof(name), "%s-%s-%u", c->name, kind, count);
	sc = record_add_cell(out, name, unit, values, n);
	set_str(&sc->path, catalog_paths[c->path]);
	set_str(&sc->api, catalog_apis[c->api].name);
	set_str(&sc->clock, c->clock ? c->clock->name : "");
	if (!n) {
		set_str(&sc->status, "not reached");
		set_str(&sc->reason, "the run was interrupted");
	}
	return sc;
}

static uint32_t *round_indexes(size_t n)
{
	uint32_t *r = xmalloc((n ? n : 1) * sizeof(*r));

	for (size_t i = 0; i < n; i++)
		r[i] = (uint32_t)i;
	return r;
}

/* The repetitions' user (or sys) seconds, malloc'd. */
static double *seconds_of(const struct scale_point *p, bool user)
{
	double *x = xmalloc((p->n ? p->n : 1) * sizeof(*x));

	for (size_t i = 0; i < p->n; i++)
		x[i] = user ? p->samples[i].user_s : p->samples[i].sys_s;
	return x;
}

/* One stored cell per count: the repetitions' elapsed seconds; their CPU
 * time goes to the config, one entry per stored cell, appended to times. */
static void store_threads_cell(const struct scale_report *r,
			       const struct scale_cell *c, struct stored_run *out,
			       struct run_cpu_time *times, size_t *ntimes)
{
	for (size_t k = 0; k < r->ncounts; k++) {
		const struct scale_point *p = &c->points[k];
		double *elapsed = xmalloc((p->n ? p->n : 1) * sizeof(double));
		struct stored_cell *sc;

		for (size_t i = 0; i < p->n; i++)
			elapsed[i] = p->samples[i].elapsed_s;
		sc = add_stored_cell(out, &c->cell, "threads", r->counts[k], "s",
				     elapsed, p->n);
		free(elapsed);
		sc->batch_calls = r->calls;
		if (p->n) {
			sc->rounds = round_indexes(p->n);
			sc->nrounds = (uint32_t)p->n;
		}
		/* The cell's texts are its own allocations: they stay put. */
		times[(*ntimes)++] = (struct run_cpu_time){
			.cell = sc->name, .path = sc->path, .n = p->n,
			.user_s = seconds_of(p, true), .sys_s = seconds_of(p, false),
		};
	}
}

/* One stored cell per count: the batches' ns per call, by timing round. */
static void store_idle_cell(const struct scale_report *r,
			    const struct scale_cell *c, struct stored_run *out)
{
	for (size_t k = 0; k < r->ncounts; k++) {
		const struct cell_result *res = &c->idle[k];
		struct stored_cell *sc;

		sc = add_stored_cell(out, &c->cell, "idle", r->counts[k], "ns",
				     res->ns, res->n);
		if (!res->n)
			continue;
		sc->batch_calls = res->batch_calls;
		sc->rounds = xmalloc(res->n * sizeof(uint32_t));
		memcpy(sc->rounds, res->rounds, res->n * sizeof(uint32_t));
		sc->nrounds = res->nrounds;
		if (res->cycles) {
			sc->cycles = xmalloc(res->n * sizeof(double));
			memcpy(sc->cycles, res->cycles, res->n * sizeof(double));
			set_str(&sc->cycles_unit, r->cycles_unit);
		}
		if (res->core) {
			sc->core_cycles = xmalloc(res->n * sizeof(double));
			memcpy(sc->core_cycles, res->core, res->n * sizeof(double));
		}
	}
}

void scale_report_add_cells(const struct scale_report *r, struct stored_run *out)
{
	bool threads = r->mode == SCALE_THREADS;
	struct run_cpu_time *times = xcalloc(threads ? r->ncells * r->ncounts + 1 : 1,
					     sizeof(*times));
	struct scale_settings s = {
		.idle = !threads, .threads = { .count = r->counts, .n = r->ncounts },
		.ncpus = r->ncpus, .cpu_time = times,
	};
	struct core_cycles_settings core_cycles;

	for (size_t i = 0; i < r->ncells; i++) {
		if (threads)
			store_threads_cell(r, &r->cells[i], out, times, &s.ncpu_time);
		else
			store_idle_cell(r, &r->cells[i], out);
	}
	if (threads) {
		s.calls = (double)r->calls;
		s.repetitions = r->repetitions;
		s.series = r->series;
		s.accounting = &r->acct;
		out->quality = exec_disturb_json(r->reps, r->nreps);
	} else {
		s.cpu = r->cpu;
		s.budget_s = r->cfg.budget_s;
		s.target_batch_ns = r->cfg.target_batch_ns;
		s.rounds = r->cfg.rounds;
		s.boundary_ns = r->cal.boundary_ns;
		record_core_cycles(&r->cal, &r->cfg, &core_cycles);
		s.core_cycles = &core_cycles;
		out->quality = scale_doc_idle_quality_json(&r->cal, &r->warmup, &r->disturb);
	}
	out->config = scale_settings_json(&s);
	for (size_t i = 0; i < s.ncpu_time; i++) {
		free(times[i].user_s);
		free(times[i].sys_s);
	}
	free(times);
}

void scale_report_free(struct scale_report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		struct scale_cell *c = &r->cells[i];

		for (size_t k = 0; c->points && k < r->ncounts; k++)
			free(c->points[k].samples);
		for (size_t k = 0; c->idle && k < r->ncounts; k++)
			cell_result_free(&c->idle[k]);
		free(c->points);
		free(c->idle);
	}
	disturb_tracker_free(&r->disturb);
	free(r->reps);
	free(r->cells);
	free(r->counts);
	memset(r, 0, sizeof(*r));
}
