// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/scale-doc.h"

#include <math.h>
#include <string.h>

#include "basic/json.h"
#include "basic/util.h"
#include "config.h"
#include "report/summary-figures.h"
#include "report/quality-text.h"
#include "results/quality.h"
#include "results/record.h"

/* Idle mode: the extra cost over the first count, per extra thread. */
static bool idle_delta(const struct scale_doc *r, const struct scale_doc_cell *c,
		       size_t k, double *delta, double *per_thread)
{
	const struct cell_result *base = &c->idle[0], *res = &c->idle[k];

	if (k == 0 || !base->n || !res->n || r->counts[k] == r->counts[0])
		return false;
	*delta = res->ns_sum.median - base->ns_sum.median;
	*per_thread = *delta / (double)(r->counts[k] - r->counts[0]);
	return true;
}

/* ---- the header ---------------------------------------------------------- */

static void print_counts(FILE *f, const struct scale_doc *r)
{
	for (size_t k = 0; k < r->ncounts; k++)
		fprintf(f, " %u", r->counts[k]);
}

/* An idle-mode run's quality: its warm-up and what disturbed its rounds. */
static void idle_quality(const struct timing_calibration *cal,
			 const struct warmup_report *warmup,
			 const struct disturb_tracker *disturb, struct run_quality *q)
{
	memset(q, 0, sizeof(*q));
	q->core_source = cal->core_source;
	q->warmup = warmup->windows ? warmup : NULL;
	q->rounds = disturb->rounds;
	q->nrounds = disturb->nrounds;
	q->ref_vs_pmu_pct = NAN;
	quality_summarize(q);
}

static void print_idle_quality(FILE *f, const struct scale_doc *r)
{
	struct run_quality q;

	idle_quality(r->cal, r->warmup, r->disturb, &q);
	quality_text_print(f, NULL, &q, r->cfg->steady_tol);
}

/* What user-s and sys-s are worth: per repetition, per thread. */
static void print_accounting(FILE *f, const struct scale_doc *r)
{
	char note[1024];

	cpu_accounting_note(r->acct, note, sizeof(note));
	fprintf(f, "# user-s, sys-s (the threads' sums): %s\n", note);
}

/* "# disturbance, median repetition: ...", and the ones marked. */
static void print_disturbance(FILE *f, const struct scale_doc *r)
{
	size_t marked = 0;

	if (!r->nreps)
		return;
	/* Scale's header gives no wait for a CPU: NAN leaves it out. */
	quality_text_disturbance(f, "repetition", r->involuntary, NAN, r->runnable,
				 r->steal_ms);
	for (unsigned k = 0; k < r->nreps; k++)
		marked += r->disturbed[k];
	fprintf(f, "; %zu of %u repetitions disturbed far beyond the others%s",
		marked, r->nreps, marked ? ":" : "");
	for (unsigned k = 0, named = 0; k < r->nreps; k++)
		if (r->disturbed[k])
			fprintf(f, "%s %u", named++ ? "," : "", k + 1);
	fputc('\n', f);
}

void scale_doc_header(FILE *f, const struct scale_doc *r)
{
	char when[64];
	struct tm tm;

	gmtime_r(&r->started.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "# clockbench %s scale, %s, %.1f s%s\n", CLOCKBENCH_VERSION,
		when, r->elapsed_s, r->interrupted ? ", INTERRUPTED" : "");
	env_print(r->env, f, "# ");
	if (!r->idle) {
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

/* ---- JSON ----------------------------------------------------------- */

static json_t *summary_or_null(const struct summary *s)
{
	return s->n ? summary_to_json(s) : json_null();
}

static json_t *threads_point_json(const struct scale_doc *r, size_t k,
				  const struct scale_doc_point *p)
{
	json_t *samples = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(samples, json_pack("{s:o, s:o, s:o}",
			"elapsed_s", json_number(p->elapsed_s[i]),
			"user_s", json_number(p->user_s[i]),
			"sys_s", json_number(p->sys_s[i])));
	return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "threads", (json_int_t)r->counts[k],
			 "calls_per_thread",
			 (json_int_t)p->calls_per_thread,
			 "n", (json_int_t)p->n,
			 "elapsed_s", summary_or_null(p->elapsed),
			 "ns_per_call", summary_or_null(p->ns_per_call),
			 "user_s", summary_or_null(p->user),
			 "sys_s", summary_or_null(p->sys),
			 "samples", samples);
}

static json_t *idle_point_json(const struct scale_doc *r,
			       const struct scale_doc_cell *c, size_t k)
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

static json_t *cell_json(const struct scale_doc *r, const struct scale_doc_cell *c)
{
	json_t *points = json_array();
	const struct cell *cl = c->cell;

	for (size_t k = 0; k < r->ncounts; k++)
		json_array_append_new(points, !r->idle ?
				      threads_point_json(r, k, &c->points[k]) :
				      idle_point_json(r, c, k));
	return json_pack("{s:s, s:s, s:s?, s:s, s:o}", "name", cl->name,
			 "api", catalog_apis[cl->api].name,
			 "clock", cl->clock ? cl->clock->name : NULL,
			 "path", catalog_paths[cl->path], "points", points);
}

json_t *scale_doc_idle_quality_json(const struct timing_calibration *cal,
				    const struct warmup_report *warmup,
				    const struct disturb_tracker *disturb)
{
	struct run_quality q;

	idle_quality(cal, warmup, disturb, &q);
	return record_quality(&q, NULL);
}

static json_t *report_json(const struct scale_doc *r)
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
		      "mode", !r->idle ? "threads" : "idle",
		      "started", when, "interrupted", r->interrupted,
		      "elapsed_s", r->elapsed_s, "ncpus", r->ncpus);
	if (!r->idle) {
		json_object_set_new(o, "calls", json_integer((json_int_t)r->calls));
		json_object_set_new(o, "repetitions", json_integer(r->repetitions));
		json_object_set_new(o, "threads", json_counts(r->counts, r->ncounts));
		json_object_set_new(o, "series", json_string(r->series));
		json_object_set_new(o, "cpu_accounting", cpu_accounting_to_json(r->acct));
		json_object_set(o, "disturbance", r->disturbance);
	} else {
		json_object_set_new(o, "idle_threads", json_counts(r->counts, r->ncounts));
		json_object_set_new(o, "cpu", json_integer(r->cpu));
		json_object_set_new(o, "budget_s", json_number(r->cfg->budget_s));
		json_object_set_new(o, "boundary_ns", json_number(r->cal->boundary_ns));
		json_object_set_new(o, "core_cycles", record_core_cycles_config(r->cal, r->cfg));
		json_object_set_new(o, "quality", scale_doc_idle_quality_json(r->cal, r->warmup, r->disturb));
	}
	json_object_set_new(o, "environment", env_to_json(r->env));
	json_object_set_new(o, "cells", cells);
	return o;
}

void scale_doc_json_print(FILE *f, const struct scale_doc *d)
{
	json_t *j = report_json(d);

	json_print(f, j);
	json_decref(j);
}
