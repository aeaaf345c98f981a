// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/quality.h"

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "results/run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void quality_summarize(struct run_quality *q)
{
	q->top_ghz = NAN;
	q->slow_rounds = 0;
	q->slowest_share = NAN;
	q->involuntary = 0;
	q->migrations = 0;
	q->steal_ms = 0;
	for (unsigned k = 0; k < q->nrounds; k++) {
		const struct round_quality *r = &q->rounds[k];

		if (isfinite(r->ghz) && !(r->ghz <= q->top_ghz))
			q->top_ghz = r->ghz;
		q->involuntary += r->involuntary;
		q->migrations = r->migrations < 0 || q->migrations < 0 ? -1 :
				q->migrations + r->migrations;
		q->steal_ms += r->steal_ms;	/* NAN once one is unknown */
	}
	for (unsigned k = 0; k < q->nrounds && isfinite(q->top_ghz); k++) {
		double share = q->rounds[k].ghz / q->top_ghz;

		if (!isfinite(share))
			continue;
		q->slow_rounds += share < QUALITY_SLOW_SHARE;
		if (!(share >= q->slowest_share))
			q->slowest_share = share;
	}
	if (!q->nrounds)
		q->migrations = -1;
}

static size_t speed_part(const struct run_quality *q, char *buf, size_t len)
{
	int pct = (int)lround(100 * QUALITY_SLOW_SHARE);

	if (!isfinite(q->top_ghz))
		return (size_t)snprintf(buf, len, "the core's speed is unknown");
	if (!q->slow_rounds)
		return (size_t)snprintf(buf, len, "%s%u round%s ran within %d %% of the "
					"top frequency (%.2f GHz)", q->nrounds > 1 ? "all " : "",
					q->nrounds, q->nrounds == 1 ? "" : "s", 100 - pct,
					q->top_ghz);
	return (size_t)snprintf(buf, len, "%u of %u rounds ran at under %d %% of the "
				"top frequency (%.2f GHz, slowest %.0f %%)", q->slow_rounds,
				q->nrounds, pct, q->top_ghz, 100 * q->slowest_share);
}

static const char *normalised_part(const struct run_quality *q)
{
	switch (q->core_source) {
	case CORE_REFERENCE: return "figures normalised to core cycles";
	case CORE_PERF: return "core cycles from the PMU";
	case CORE_NONE: break;
	}
	return "figures not normalised";
}

static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	*used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
}

void quality_summary_line(const struct run_quality *q, char *buf, size_t len)
{
	size_t used;

	if (!len)
		return;
	used = speed_part(q, buf, len);
	add(buf, len, &used, "; %s", normalised_part(q));
	if (isfinite(q->ref_vs_pmu_pct))
		add(buf, len, &used, " (the reference reads %+.1f %% against them)",
		    q->ref_vs_pmu_pct);
	add(buf, len, &used, "; %ld involuntary context switch%s", q->involuntary,
	    q->involuntary == 1 ? "" : "es");
	if (q->migrations >= 0)
		add(buf, len, &used, ", %lld migration%s", q->migrations,
		    q->migrations == 1 ? "" : "s");
	if (isfinite(q->steal_ms))
		add(buf, len, &used, ", %.0f ms stolen", q->steal_ms);
}

void quality_warmup_line(const struct warmup_report *w, double tol, char *buf,
			 size_t len)
{
	int ms = (int)lround(1000 * w->window_s);
	char pct[16] = "-";	/* a stored run that did not record it */

	if (isfinite(tol))
		snprintf(pct, sizeof(pct), "%ld", lround(100 * tol));
	if (w->steady)
		snprintf(buf, len, "steady after %u windows of %d ms (%.2f s): %s and "
			 "the reference within %s %% from one window to the next; "
			 "core %.2f GHz", w->windows, ms, w->elapsed_s, w->cell, pct,
			 w->last_ghz);
	else
		snprintf(buf, len, "not steady after %u windows of %d ms (%.2f s, the "
			 "bound): %s %.1f -> %.1f core cycles, core %.2f -> %.2f GHz",
			 w->windows, ms, w->elapsed_s, w->cell, w->first_cell,
			 w->last_cell, w->first_ghz, w->last_ghz);
}

static json_t *count(long long x)
{
	return x >= 0 ? json_integer(x) : json_null();
}

json_t *warmup_to_json(const struct warmup_report *w)
{
	return json_pack("{s:s, s:I, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
			 "cell", w->cell, "windows", (json_int_t)w->windows,
			 "window_s", json_number(w->window_s), "elapsed_s", json_number(w->elapsed_s),
			 "steady", w->steady, "first_ghz", json_number(w->first_ghz),
			 "last_ghz", json_number(w->last_ghz),
			 "first_core_cycles", json_number(w->first_cell),
			 "last_core_cycles", json_number(w->last_cell));
}

/* The stored warm-up (warmup_to_json()'s) as quality_warmup_line() reads it. */
void warmup_from_json(const json_t *j, struct warmup_report *w)
{
	memset(w, 0, sizeof(*w));
	json_text_copy(w->cell, sizeof(w->cell), j, "cell");
	w->windows = (unsigned)json_int_at(j, "windows", 0);
	w->window_s = json_number_at(j, "window_s");
	w->elapsed_s = json_number_at(j, "elapsed_s");
	w->steady = json_true_at(j, "steady");
	w->first_ghz = json_number_at(j, "first_ghz");
	w->last_ghz = json_number_at(j, "last_ghz");
	w->first_cell = json_number_at(j, "first_core_cycles");
	w->last_cell = json_number_at(j, "last_core_cycles");
}

static json_t *round_json(const struct run_quality *q, unsigned k)
{
	const struct round_quality *r = &q->rounds[k];

	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "round", (json_int_t)k, "core_ghz", json_number(r->ghz),
			 "of_top", json_number(r->ghz / q->top_ghz),
			 "elapsed_s", json_number(r->elapsed_s),
			 "involuntary_switches", count(r->involuntary),
			 "voluntary_switches", count(r->voluntary),
			 "steal_ms", json_number(r->steal_ms),
			 "migrations", count(r->migrations));
}

json_t *quality_to_json(const struct run_quality *q)
{
	json_t *rounds = json_array();
	char line[512];

	quality_summary_line(q, line, sizeof(line));
	for (unsigned k = 0; k < q->nrounds; k++)
		json_array_append_new(rounds, round_json(q, k));
	return json_pack("{s:s, s:s, s:o, s:f, s:I, s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "summary", line,
			 "core_cycles_from", core_source_name(q->core_source),
			 "top_ghz", json_number(q->top_ghz),
			 "slow_share", QUALITY_SLOW_SHARE,
			 "slow_rounds", (json_int_t)q->slow_rounds,
			 "slowest_share", json_number(q->slowest_share),
			 "involuntary_switches", (json_int_t)q->involuntary,
			 "migrations", count(q->migrations),
			 "steal_ms", json_number(q->steal_ms),
			 "reference_vs_pmu_pct", json_number(q->ref_vs_pmu_pct),
			 "warmup", q->warmup ? warmup_to_json(q->warmup) : json_null(),
			 "rounds", rounds);
}

/* The median over the cells of each cell's estimate against the PMU. */
static double bench_ref_vs_pmu(const struct bench_run *run)
{
	double *pct = xmalloc((run->ncells ? run->ncells : 1) * sizeof(double));
	double med = NAN;
	size_t n = 0;

	for (size_t i = 0; i < run->ncells; i++) {
		double p = run->cells[i].measured ?
			   timing_reference_vs_pmu_pct(&run->cells[i].res) : NAN;

		if (isfinite(p))
			pct[n++] = p;
	}
	if (n) {
		stats_sort(pct, n);
		med = stats_quantile_sorted(pct, n, 0.5);
	}
	free(pct);
	return med;
}

void quality_of_bench(struct bench_run *run)
{
	struct run_quality *q = &run->quality;

	memset(q, 0, sizeof(*q));
	q->core_source = run->cal.core_source;
	q->warmup = run->warmup.windows ? &run->warmup : NULL;
	q->rounds = run->disturb.rounds;
	q->nrounds = run->disturb.nrounds;
	q->ref_vs_pmu_pct = bench_ref_vs_pmu(run);
	quality_summarize(q);
}
