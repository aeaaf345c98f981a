// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/scale-report.h"

#include <math.h>
#include <string.h>

#include <jansson.h>

#include "config.h"
#include "report/output.h"
#include "report/scale-table.h"
#include "basic/util.h"
#include "results/quality.h"

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

/* Idle mode: the extra cost over the first count, per extra thread. */
static bool idle_delta(const struct scale_report *r, const struct scale_cell *c,
		       size_t k, double *delta, double *per_thread)
{
	const struct cell_result *base = &c->idle[0], *res = &c->idle[k];

	if (k == 0 || !base->n || !res->n || r->counts[k] == r->counts[0])
		return false;
	*delta = res->ns_sum.median - base->ns_sum.median;
	*per_thread = *delta / (double)(r->counts[k] - r->counts[0]);
	return true;
}

/* ---- table ---------------------------------------------------------- */

static void print_counts(FILE *f, const struct scale_report *r)
{
	for (size_t k = 0; k < r->ncounts; k++)
		fprintf(f, " %u", r->counts[k]);
}

static void idle_quality(const struct scale_report *r, struct run_quality *q)
{
	memset(q, 0, sizeof(*q));
	q->core_source = r->cal.core_source;
	q->warmup = r->warmup.windows ? &r->warmup : NULL;
	q->rounds = r->disturb.rounds;
	q->nrounds = r->disturb.nrounds;
	q->ref_vs_pmu_pct = NAN;
	quality_summarize(q);
}

static void print_idle_quality(FILE *f, const struct scale_report *r)
{
	struct run_quality q;
	char line[512];

	idle_quality(r, &q);
	if (q.warmup) {
		quality_warmup_line(q.warmup, r->cfg.steady_tol, line, sizeof(line));
		fprintf(f, "# warm-up: %s\n", line);
	}
	quality_summary_line(&q, line, sizeof(line));
	fprintf(f, "# quality: %s\n", line);
}

/* What user-s and sys-s are worth: per repetition, per thread. */
static void print_accounting(FILE *f, const struct scale_report *r)
{
	char note[1024];

	cpu_accounting_note(&r->acct, note, sizeof(note));
	fprintf(f, "# user-s, sys-s (the threads' sums): %s\n", note);
}

/* "# disturbance, median repetition: ...", and the ones marked. */
static void print_disturbance(FILE *f, const struct scale_report *r)
{
	struct exec_disturb_medians d;
	size_t marked = 0;

	if (!r->nreps)
		return;
	exec_disturb_medians(r->reps, r->nreps, &d);
	fprintf(f, "# disturbance, median repetition: %.0f involuntary switches, ",
		d.involuntary);
	if (isfinite(d.runnable))
		fprintf(f, "%.0f other tasks runnable at its start, ", d.runnable);
	if (isfinite(d.steal_ms))
		fprintf(f, "%.0f ms stolen", d.steal_ms);
	else
		fputs("steal unknown", f);
	for (unsigned k = 0; k < r->nreps; k++)
		marked += r->reps[k].disturbed;
	fprintf(f, "; %zu of %u repetitions disturbed far beyond the others%s",
		marked, r->nreps, marked ? ":" : "");
	for (unsigned k = 0, named = 0; k < r->nreps; k++)
		if (r->reps[k].disturbed)
			fprintf(f, "%s %u", named++ ? "," : "", k + 1);
	fputc('\n', f);
}

static void print_header(FILE *f, const struct scale_report *r)
{
	char when[64];
	struct tm tm;

	gmtime_r(&r->started.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "# clockbench %s scale, %s, %.1f s%s\n", CLOCKBENCH_VERSION,
		when, r->elapsed_s, r->interrupted ? ", INTERRUPTED" : "");
	env_print(&r->env, f, "# ");
	if (r->mode == SCALE_THREADS) {
		fprintf(f, "# %llu calls of each cell shared by N threads, %u "
			"repetitions; threads:", (unsigned long long)r->calls,
			r->repetitions);
		print_counts(f, r);
		fprintf(f, " (%s)\n", r->series);
		fputs("# elapsed: first thread's start to last thread's end, median "
		      "of the repetitions and its 95% CI ('-' when too few for "
		      "95%); rCV%: their robust CV, 100 * 1.4826 MAD / median\n"
		      "# change: elapsed vs the first thread count, positive = "
		      "slower; ns/call: (user + sys) CPU time per call\n", f);
		print_accounting(f, r);
		print_disturbance(f, r);
		return;
	}
	fprintf(f, "# one thread on CPU %d calls while N idle threads exist; "
		"idle threads:", r->cpu);
	print_counts(f, r);
	fputs("\n# ns/call: median over the batches and its 95% CI; rCV%: robust "
	      "CV of the round medians; ns/thread: the extra cost over the first "
	      "count, per extra thread; core: median core cycles per call\n", f);
	print_idle_quality(f, r);
}

/*
 * The header from what was measured, then the blocks of the cells from the
 * run as stored (report/scale-table.h), as show prints them.
 */
static void print_table(FILE *f, const struct scale_report *r,
			const struct stored_run *stored)
{
	print_header(f, r);
	scale_table_print(f, stored);
}

/* ---- JSON ----------------------------------------------------------- */

static json_t *counts_json(const struct scale_report *r)
{
	json_t *a = json_array();

	for (size_t k = 0; k < r->ncounts; k++)
		json_array_append_new(a, json_integer(r->counts[k]));
	return a;
}

static json_t *summary_or_null(const struct summary *s)
{
	return s->n ? summary_to_json(s) : json_null();
}

static json_t *threads_point_json(const struct scale_report *r, size_t k,
				  const struct scale_point *p)
{
	json_t *samples = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(samples, json_pack("{s:o, s:o, s:o}",
			"elapsed_s", json_number(p->samples[i].elapsed_s),
			"user_s", json_number(p->samples[i].user_s),
			"sys_s", json_number(p->samples[i].sys_s)));
	return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "threads", (json_int_t)r->counts[k],
			 "calls_per_thread",
			 (json_int_t)scale_thread_calls(r->calls, r->counts[k], 0),
			 "n", (json_int_t)p->n,
			 "elapsed_s", summary_or_null(&p->elapsed),
			 "ns_per_call", summary_or_null(&p->ns_per_call),
			 "user_s", summary_or_null(&p->user),
			 "sys_s", summary_or_null(&p->sys),
			 "samples", samples);
}

static json_t *idle_point_json(const struct scale_report *r,
			       const struct scale_cell *c, size_t k)
{
	const struct cell_result *res = &c->idle[k];
	double delta = NAN, per_thread = NAN;
	json_t *medians = json_array();

	if (res->n) {
		double *m = timing_round_medians(res);

		for (uint32_t i = 0; i < res->nrounds; i++)
			json_array_append_new(medians, json_number(m[i]));
		free(m);
	}
	idle_delta(r, c, k, &delta, &per_thread);
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "idle_threads", (json_int_t)r->counts[k],
			 "batch_calls", (json_int_t)res->batch_calls,
			 "ns", summary_or_null(&res->ns_sum),
			 "core_cycles", res->core ? summary_or_null(&res->core_sum) :
						    json_null(),
			 "round_medians_ns", medians,
			 "delta_ns", json_number(delta),
			 "ns_per_idle_thread", json_number(per_thread));
}

static json_t *cell_json(const struct scale_report *r, const struct scale_cell *c)
{
	json_t *points = json_array();
	const struct cell *cl = &c->cell;

	for (size_t k = 0; k < r->ncounts; k++)
		json_array_append_new(points, r->mode == SCALE_THREADS ?
				      threads_point_json(r, k, &c->points[k]) :
				      idle_point_json(r, c, k));
	return json_pack("{s:s, s:s, s:s?, s:s, s:o}", "name", cl->name,
			 "api", catalog_apis[cl->api].name,
			 "clock", cl->clock ? cl->clock->name : NULL,
			 "path", catalog_paths[cl->path], "points", points);
}

static json_t *idle_quality_json(const struct scale_report *r)
{
	struct run_quality q;

	idle_quality(r, &q);
	return record_quality(&q, NULL);
}

static json_t *report_json(const struct scale_report *r)
{
	json_t *cells = json_array(), *o;
	char when[64];
	struct tm tm;

	gmtime_r(&r->started.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (size_t i = 0; i < r->ncells; i++)
		json_array_append_new(cells, cell_json(r, &r->cells[i]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:f, s:i}",
		      "tool", "clockbench " CLOCKBENCH_VERSION, "command", "scale",
		      "mode", r->mode == SCALE_THREADS ? "threads" : "idle",
		      "started", when, "interrupted", r->interrupted,
		      "elapsed_s", r->elapsed_s, "ncpus", r->ncpus);
	if (r->mode == SCALE_THREADS) {
		json_object_set_new(o, "calls", json_integer((json_int_t)r->calls));
		json_object_set_new(o, "repetitions", json_integer(r->repetitions));
		json_object_set_new(o, "threads", counts_json(r));
		json_object_set_new(o, "series", json_string(r->series));
		json_object_set_new(o, "cpu_accounting", cpu_accounting_to_json(&r->acct));
		json_object_set_new(o, "disturbance", exec_disturb_json(r->reps, r->nreps));
	} else {
		json_object_set_new(o, "idle_threads", counts_json(r));
		json_object_set_new(o, "cpu", json_integer(r->cpu));
		json_object_set_new(o, "budget_s", json_number(r->cfg.budget_s));
		json_object_set_new(o, "boundary_ns", json_number(r->cal.boundary_ns));
		json_object_set_new(o, "core_cycles", record_core_cycles_config(&r->cal, &r->cfg));
		json_object_set_new(o, "quality", idle_quality_json(r));
	}
	json_object_set_new(o, "environment", env_to_json(&r->env));
	json_object_set_new(o, "cells", cells);
	return o;
}

int scale_report_print(FILE *f, const struct scale_report *r,
		       enum scale_format fmt, const struct stored_run *stored)
{
	json_t *j;

	switch (fmt) {
	case SCALE_FORMAT_TABLE:
		print_table(f, r, stored);
		break;
	case SCALE_FORMAT_CSV:
		scale_csv_print(f, stored);
		break;
	case SCALE_FORMAT_JSON:
		j = report_json(r);
		json_print(f, j);
		json_decref(j);
		break;
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

static json_t *doubles_json(const struct scale_point *p, bool user)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(a, json_number(user ? p->samples[i].user_s :
						p->samples[i].sys_s));
	return a;
}

/* One stored cell per count: the repetitions' elapsed seconds. */
static void store_threads_cell(const struct scale_report *r,
			       const struct scale_cell *c, struct stored_run *out,
			       json_t *cpu_time)
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
		json_array_append_new(cpu_time, json_pack("{s:s, s:s, s:o, s:o}",
			"name", sc->name, "path", sc->path,
			"user_s", doubles_json(p, true),
			"sys_s", doubles_json(p, false)));
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
	json_t *config, *cpu_time = json_array();

	for (size_t i = 0; i < r->ncells; i++) {
		if (r->mode == SCALE_THREADS)
			store_threads_cell(r, &r->cells[i], out, cpu_time);
		else
			store_idle_cell(r, &r->cells[i], out);
	}
	config = json_pack("{s:s, s:o, s:i}",
			   "mode", r->mode == SCALE_THREADS ? "threads" : "idle",
			   r->mode == SCALE_THREADS ? "threads" : "idle_threads",
			   counts_json(r), "ncpus", r->ncpus);
	if (r->mode == SCALE_THREADS) {
		json_object_set_new(config, "calls", json_integer((json_int_t)r->calls));
		json_object_set_new(config, "repetitions", json_integer(r->repetitions));
		json_object_set_new(config, "series", json_string(r->series));
		json_object_set_new(config, "cpu_time", cpu_time);
		json_object_set_new(config, "cpu_accounting",
				    cpu_accounting_to_json(&r->acct));
		out->quality = exec_disturb_json(r->reps, r->nreps);
	} else {
		json_decref(cpu_time);
		json_object_set_new(config, "cpu", json_integer(r->cpu));
		json_object_set_new(config, "budget_s", json_number(r->cfg.budget_s));
		json_object_set_new(config, "target_batch_ns",
				    json_number(r->cfg.target_batch_ns));
		json_object_set_new(config, "rounds", json_integer(r->cfg.rounds));
		json_object_set_new(config, "boundary_ns", json_number(r->cal.boundary_ns));
		json_object_set_new(config, "core_cycles", record_core_cycles_config(&r->cal, &r->cfg));
		out->quality = idle_quality_json(r);
	}
	out->config = config;
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
