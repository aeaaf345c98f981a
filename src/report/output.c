// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/output.h"

#include <math.h>
#include <string.h>

#include "config.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/reference.h"

const char *const output_format_names[] = { "table", "json", "csv", "tap", NULL };

int output_format_by_name(const char *name)
{
	for (int i = 0; output_format_names[i]; i++)
		if (streq(name, output_format_names[i]))
			return i;
	return -1;
}

/* ---- JSON ----------------------------------------------------------- */

json_t *json_real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

bool median_ci_is_95(const struct summary *s)
{
	return stats_ci_honours(s->median_ci_coverage, 0.95);
}

json_t *summary_to_json(const struct summary *s)
{
	json_t *o = json_pack("{s:I, s:o, s:o}", "n", (json_int_t)s->n,
			      "min", json_real_or_null(s->min),
			      "median", json_real_or_null(s->median));

	json_object_set_new(o, "median_ci95", median_ci_is_95(s) ?
			    json_pack("[o, o]", json_real_or_null(s->median_lo),
				      json_real_or_null(s->median_hi)) : json_null());
	json_object_set_new(o, "median_ci_coverage",
			    json_real_or_null(s->median_ci_coverage));
	json_object_set_new(o, "mean", json_real_or_null(s->mean));
	json_object_set_new(o, "stddev_pct", json_real_or_null(s->cv_pct));
	json_object_set_new(o, "robust_cv_pct", json_real_or_null(s->robust_cv_pct));
	json_object_set_new(o, "p99", json_real_or_null(s->p99));
	json_object_set_new(o, "max", json_real_or_null(s->max));
	json_object_set_new(o, "mad", json_real_or_null(s->mad));
	json_object_set_new(o, "outliers", json_integer((json_int_t)s->outliers));
	return o;
}

void format_median_ci(char *buf, size_t len, const struct summary *s,
		      double scale, int decimals)
{
	int w = snprintf(buf, len, "[%.*f, %.*f]", decimals, s->median_lo * scale,
			 decimals, s->median_hi * scale);

	if (!median_ci_is_95(s) && w >= 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, " %.0f%%",
			 100.0 * s->median_ci_coverage);
}

double cell_robust_cv_pct(const struct cell_result *r)
{
	double *med, cv;

	if (r->nrounds < 2)
		return r->ns_sum.robust_cv_pct;
	med = timing_round_medians(r);
	cv = stats_robust_cv_pct(med, r->nrounds);
	free(med);
	return cv;
}

static const char *status_name(enum cell_status st)
{
	switch (st) {
	case CELL_OK: return "ok";
	case CELL_NA: return "n/a";
	case CELL_UNSUPPORTED: return "unsupported";
	}
	return "?";
}

static json_t *doubles_to_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(x[i]));
	return a;
}

static json_t *round_medians_to_json(const struct cell_result *r)
{
	double *med = timing_round_medians(r);
	json_t *a = doubles_to_json(med, r->nrounds);

	free(med);
	return a;
}

static json_t *cell_to_json(const struct bench_cell *bc, const char *unit,
			    bool with_samples)
{
	const struct cell *c = &bc->cell;
	json_t *o = json_pack("{s:s, s:s, s:s}", "name", c->name,
			      "api", catalog_apis[c->api].name,
			      "path", catalog_paths[c->path]);

	if (c->clock) {
		json_object_set_new(o, "clock", json_string(c->clock->name));
		json_object_set_new(o, "clock_id", json_integer(c->clock->id));
	}
	json_object_set_new(o, "status", json_string(bc->measured ? "ok" :
			    c->status == CELL_OK ? "not reached" : status_name(c->status)));
	if (c->status != CELL_OK)
		json_object_set_new(o, "reason", json_string(c->why));
	if (c->status == CELL_UNSUPPORTED)
		json_object_set_new(o, "errno", json_string(errno_name(c->err)));
	if (!bc->measured)
		return o;
	json_object_set_new(o, "batch_calls", json_integer((json_int_t)bc->res.batch_calls));
	json_object_set_new(o, "converged", json_boolean(bc->res.converged));
	json_object_set_new(o, "elapsed_s", json_real(bc->res.elapsed_s));
	json_object_set_new(o, "ns", summary_to_json(&bc->res.ns_sum));
	json_object_set_new(o, "round_medians_ns", round_medians_to_json(&bc->res));
	json_object_set_new(o, "round_robust_cv_pct",
			    json_real_or_null(cell_robust_cv_pct(&bc->res)));
	if (bc->res.core) {
		double *med = timing_round_medians_of(&bc->res, bc->res.core);

		json_object_set_new(o, "core_cycles", summary_to_json(&bc->res.core_sum));
		json_object_set_new(o, "round_medians_core_cycles",
				    doubles_to_json(med, bc->res.nrounds));
		json_object_set_new(o, "round_ghz", doubles_to_json(bc->res.round_ghz,
								     bc->res.nrounds));
		free(med);
	}
	if (bc->res.cycles) {
		json_t *cy = summary_to_json(&bc->res.cycles_sum);

		json_object_set_new(cy, "unit", json_string(unit));
		json_object_set_new(o, "cycles", cy);
	}
	if (with_samples) {
		json_object_set_new(o, "samples_ns", doubles_to_json(bc->res.ns, bc->res.n));
		if (bc->res.cycles)
			json_object_set_new(o, "samples_cycles",
					    doubles_to_json(bc->res.cycles, bc->res.n));
		if (bc->res.core)
			json_object_set_new(o, "samples_core_cycles",
					    doubles_to_json(bc->res.core, bc->res.n));
	}
	return o;
}

/* One reading before every batch: the share of the measuring time it takes. */
static double reference_share_pct(const struct timing_calibration *cal,
				  const struct timing_config *cfg)
{
	double reading_ns = ((double)cal->ref_ops * cal->ref_op_cycles +
			     cal->ref_boundary_core) / cal->ghz;

	return 100 * reading_ns / (reading_ns + cfg->target_batch_ns);
}

static json_t *figure(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *core_cycles_to_json(const struct timing_calibration *cal,
			    const struct timing_config *cfg)
{
	const struct reference_info *ri = reference_info();

	if (cal->core_source == CORE_NONE)
		return json_pack("{s:s}", "source", "none");
	return json_pack("{s:s, s:{s:s, s:f, s:s, s:b, s:I, s:o, s:o}, s:s, s:o,"
			 " s:o, s:o, s:o, s:o}",
			 "source", core_source_name(cal->core_source),
			 "reference", "instruction", ri->insn,
			 "cycles_per_op", ri->cycles_per_op, "latency_from", ri->source,
			 "validated", ri->validated, "ops", (json_int_t)cal->ref_ops,
			 "reading_core_cycles", figure((double)cal->ref_ops *
						       cal->ref_op_cycles +
						       cal->ref_boundary_core),
			 "share_pct", figure(reference_share_pct(cal, cfg)),
			 "time_base", cal->base_unit,
			 "time_base_ghz", figure(cal->base_per_ns),
			 "boundary_core_cycles", figure(cal->batch_boundary_core),
			 "reading_boundary_core_cycles", figure(cal->ref_boundary_core),
			 "calibration_ghz", figure(cal->ghz),
			 "pmu_cycles_per_op", figure(cal->pmu_op_cycles));
}

json_t *bench_run_to_json(const struct bench_run *run, bool with_samples)
{
	json_t *cells = json_array(), *j;
	char when[64];
	struct tm tm;

	gmtime_r(&run->started.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (size_t i = 0; i < run->ncells; i++)
		json_array_append_new(cells, cell_to_json(&run->cells[i],
							  run->cycles_unit, with_samples));
	j = json_pack("{s:s, s:s, s:s, s:b, s:f, s:o, s:{s:f, s:f, s:f, s:f, s:I, s:I},"
			 " s:{s:s, s:s}, s:{s:f, s:f, s:o}, s:o}",
			 "tool", "clockbench " CLOCKBENCH_VERSION,
			 "command", "bench",
			 "started", when,
			 "interrupted", run->interrupted,
			 "elapsed_s", run->elapsed_s,
			 "environment", env_to_json(&run->env),
			 "method",
			 "budget_s", run->cfg.budget_s,
			 "target_batch_ns", run->cfg.target_batch_ns,
			 "rel_ci", run->cfg.rel_ci,
			 "boundary_ns", run->cal.boundary_ns,
			 "min_samples", (json_int_t)run->cfg.min_samples,
			 "rounds", (json_int_t)run->cfg.rounds,
			 "cycle_counter", "unit", run->cycles_unit,
			 "source", run->cycles_note,
			 "harness_overhead",
			 "ns_per_call", run->overhead.ns_sum.median,
			 "cycles_per_call", run->overhead.cycles_sum.median,
			 "ns", summary_to_json(&run->overhead.ns_sum),
			 "cells", cells);
	json_object_set_new(j, "core_cycles", core_cycles_to_json(&run->cal, &run->cfg));
	json_object_set_new(j, "quality", quality_to_json(&run->quality));
	json_object_set_new(j, "system", system_to_json(&run->system));
	return j;
}

/* ---- table ---------------------------------------------------------- */

/* How the core cycles were had, the warm-up and the run's quality. */
static void print_core_header(FILE *f, const struct bench_run *run)
{
	const struct timing_calibration *cal = &run->cal;
	const struct reference_info *ri = reference_info();
	char line[512];

	if (cal->core_source == CORE_NONE)
		return;
	fprintf(f, "# core cycles: %s; the reference, %lu dependent %s of %g cycles, "
		"read for %.2f us before every batch (%.1f %% of the time)\n",
		cal->core_source == CORE_PERF ? "the PMU's, the reference beside them" :
		"batch ticks at the speed of the reference around each batch",
		cal->ref_ops, ri->insn, ri->cycles_per_op,
		((double)cal->ref_ops * cal->ref_op_cycles + cal->ref_boundary_core) /
		cal->ghz / 1000, reference_share_pct(cal, &run->cfg));
	if (run->warmup.windows) {
		quality_warmup_line(&run->warmup, run->cfg.steady_tol, line, sizeof(line));
		fprintf(f, "# warm-up: %s\n", line);
	}
	quality_summary_line(&run->quality, line, sizeof(line));
	fprintf(f, "# quality: %s\n", line);
}

static void print_table_header(FILE *f, const struct bench_run *run)
{
	char when[64];
	struct tm tm;

	gmtime_r(&run->started.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "# clockbench %s bench, %s, %.1f s%s\n", CLOCKBENCH_VERSION,
		when, run->elapsed_s, run->interrupted ? ", INTERRUPTED" : "");
	env_print(&run->env, f, "# ");
	system_print(&run->system, f, "# ");
	fprintf(f, "# cycles: %s (%s)\n", run->cycles_unit, run->cycles_note);
	print_core_header(f, run);
	fprintf(f, "# harness overhead: %.2f ns/call (an empty function through "
		"the same loop; not subtracted)\n", run->overhead.ns_sum.median);
	fprintf(f, "# ns/call: median over n batches, 95%% CI of the median ('-' "
		"when too few for 95%%); rCV%%: robust CV of the round medians, 100 "
		"* 1.4826 MAD / median (of the batches with one round), the spread "
		"compare judges by; p99 includes preempted batches; core: median "
		"core cycles per call\n");
}

static void print_table_row(FILE *f, const struct bench_cell *bc)
{
	const struct cell *c = &bc->cell;
	const struct summary *s = &bc->res.ns_sum;

	fprintf(f, "%-32s %-7s ", c->name, catalog_paths[c->path]);
	if (!bc->measured) {
		fprintf(f, "%s: %s\n", c->status == CELL_UNSUPPORTED ?
			"unsupported" : c->status == CELL_NA ? "n/a" : "not reached",
			c->status == CELL_OK ? "the run was interrupted" : c->why);
		return;
	}
	fprintf(f, "%9.2f  ", s->median);
	if (median_ci_is_95(s))
		fprintf(f, "%9.2f %9.2f", s->median_lo, s->median_hi);
	else
		fprintf(f, "%9s %9s", "-", "-");
	fprintf(f, " %9.2f %9.2f %6.2f %9.2f", s->min, s->mean,
		cell_robust_cv_pct(&bc->res), s->p99);
	if (bc->res.cycles)
		fprintf(f, " %9.1f", bc->res.cycles_sum.median);
	else
		fprintf(f, " %9s", "-");
	if (bc->res.core)
		fprintf(f, " %9.1f", bc->res.core_sum.median);
	else
		fprintf(f, " %9s", "-");
	fprintf(f, " %7zu\n", s->n);
}

static void output_table(FILE *f, const struct bench_run *run)
{
	print_table_header(f, run);
	fprintf(f, "%-32s %-7s %9s  %9s %9s %9s %9s %6s %9s %9s %9s %7s\n", "name",
		"path", "ns/call", "ci95-lo", "ci95-hi", "min", "mean", "rCV%",
		"p99", "cycles", "core", "n");
	for (size_t i = 0; i < run->ncells; i++)
		print_table_row(f, &run->cells[i]);
}

/* ---- CSV ------------------------------------------------------------ */

/* RFC 4180, escaped: the one CSV field writer (basic/text.h). */
static void csv_field(FILE *f, const char *s)
{
	text_put_csv(f, s);
}

static void output_csv(FILE *f, const struct bench_run *run)
{
	fputs("name,api,clock,path,status,reason,n,batch_calls,ns_median,"
	      "ns_ci95_lo,ns_ci95_hi,ns_min,ns_mean,ns_round_robust_cv_pct,ns_p99,"
	      "cycles_median,cycles_unit,core_cycles_median,core_cycles_ci95_lo,"
	      "core_cycles_ci95_hi\n", f);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct bench_cell *bc = &run->cells[i];
		const struct cell *c = &bc->cell;
		const struct summary *s = &bc->res.ns_sum;

		fprintf(f, "%s,%s,%s,%s,%s,", c->name, catalog_apis[c->api].name,
			c->clock ? c->clock->name : "", catalog_paths[c->path],
			bc->measured ? "ok" : status_name(c->status));
		csv_field(f, bc->measured ? "" : c->why);
		if (!bc->measured) {
			fputs(",,,,,,,,,,,,,,\n", f);
			continue;
		}
		fprintf(f, ",%zu,%lu,%.3f,", s->n, bc->res.batch_calls, s->median);
		if (median_ci_is_95(s))
			fprintf(f, "%.3f,%.3f,", s->median_lo, s->median_hi);
		else
			fputs(",,", f);
		fprintf(f, "%.3f,%.3f,%.2f,%.3f,", s->min, s->mean,
			cell_robust_cv_pct(&bc->res), s->p99);
		if (bc->res.cycles)
			fprintf(f, "%.2f,%s,", bc->res.cycles_sum.median,
				run->cycles_unit);
		else
			fputs(",,", f);
		if (bc->res.core)
			fprintf(f, "%.2f,%.2f,%.2f\n", bc->res.core_sum.median,
				bc->res.core_sum.median_lo, bc->res.core_sum.median_hi);
		else
			fputs(",,\n", f);
	}
}

/* ---- TAP (kselftest conventions) ------------------------------------ */

static void output_tap(FILE *f, const struct bench_run *run)
{
	size_t pass = 0, skip = 0;

	fputs("TAP version 13\n", f);
	fprintf(f, "1..%zu\n", run->ncells);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct bench_cell *bc = &run->cells[i];
		const struct cell *c = &bc->cell;

		if (!bc->measured) {
			fprintf(f, "ok %zu %s %s # SKIP %s\n", i + 1, c->name,
				catalog_paths[c->path],
				c->status == CELL_OK ? "not reached: interrupted" : c->why);
			skip++;
			continue;
		}
		fprintf(f, "ok %zu %s %s: %.2f ns/call (", i + 1, c->name,
			catalog_paths[c->path], bc->res.ns_sum.median);
		if (median_ci_is_95(&bc->res.ns_sum))
			fprintf(f, "95%% CI %.2f-%.2f, ", bc->res.ns_sum.median_lo,
				bc->res.ns_sum.median_hi);
		fprintf(f, "n %zu)", bc->res.ns_sum.n);
		if (bc->res.cycles)
			fprintf(f, " %.1f %s/call", bc->res.cycles_sum.median,
				run->cycles_unit);
		if (bc->res.core)
			fprintf(f, " %.1f core cycles/call", bc->res.core_sum.median);
		fputc('\n', f);
		pass++;
	}
	fprintf(f, "# Totals: pass:%zu fail:0 xfail:0 xpass:0 skip:%zu error:0\n",
		pass, skip);
}

int output_bench(FILE *f, const struct bench_run *run, enum output_format fmt,
		 bool with_samples)
{
	json_t *j;

	switch (fmt) {
	case FORMAT_TABLE:
		output_table(f, run);
		break;
	case FORMAT_CSV:
		output_csv(f, run);
		break;
	case FORMAT_TAP:
		output_tap(f, run);
		break;
	case FORMAT_JSON:
		j = bench_run_to_json(run, with_samples);
		json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
		fputc('\n', f);
		json_decref(j);
		break;
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
