// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-header.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/env.h"
#include "probe/system.h"
#include "results/compare.h"
#include "results/quality.h"
#include "results/run-facts.h"

/* ---- reading the stored JSON: a missing member is absent, never an error */

static const char *text_of(const json_t *o, const char *key)
{
	const json_t *v = json_member(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

static int int_of(const json_t *o, const char *key, int absent)
{
	const json_t *v = json_member(o, key);
	json_int_t x;

	if (!json_is_integer(v))
		return absent;
	x = json_integer_value(v);
	return x < INT_MIN ? INT_MIN : x > INT_MAX ? INT_MAX : (int)x;
}

/* A stored text into a field of a live structure, escaped. */
static void copy_text(char *buf, size_t len, const json_t *o, const char *key)
{
	text_copy(buf, len, text_of(o, key), TEXT_LINE_MAX);
}

/* ---- the stored run as the structures the live printers read ---------- */

/* The words of a stored array, space-separated as /sys gives them, escaped. */
static void copy_words(char *buf, size_t len, const json_t *arr)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const json_t *w;
	size_t i;

	json_array_foreach((json_t *)arr, i, w)
		if (json_is_string(w)) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_adds(&sb, json_string_value(w));
		}
	text_copy(buf, len, sb.len ? sb.buf : "", TEXT_LINE_MAX);
}

/* The CPU flags set in a stored {"constant_tsc": true, ...}. */
static void set_flags(struct env_info *env, const json_t *flags)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *k;
	json_t *v;

	if (!json_is_object(flags))
		return;
	json_object_foreach((json_t *)flags, k, v)
		if (json_is_true(v)) {
			strbuf_adds(&sb, k);
			strbuf_addch(&sb, ' ');
		}
	/* Matches whole known names only: a stored key is never printed. */
	env_parse_cpu_flags(env, sb.len ? sb.buf : "");
}

/*
 * The stored environment (env_to_json()'s) as env_print(), its one
 * formatter, reads it, every text escaped. Of the vDSO's symbols only
 * their count is kept: nothing is allocated.
 */
static void env_of(const json_t *j, struct env_info *env)
{
	const json_t *libc = json_member(j, "libc"), *ns = json_member(j, "time_namespace");
	const json_t *vdso = json_member(j, "vdso"), *step = json_member(j, "counter_step");

	memset(env, 0, sizeof(*env));
	copy_text(env->kernel_release, sizeof(env->kernel_release), j, "kernel_release");
	copy_text(env->kernel_version, sizeof(env->kernel_version), j, "kernel_version");
	copy_text(env->machine, sizeof(env->machine), j, "machine");
	copy_text(env->clocksource, sizeof(env->clocksource), j, "clocksource");
	copy_words(env->clocksources, sizeof(env->clocksources),
		   json_member(j, "available_clocksources"));
	copy_text(env->cpu_model, sizeof(env->cpu_model), j, "cpu_model");
	set_flags(env, json_member(j, "cpu_flags"));
	copy_text(env->hypervisor, sizeof(env->hypervisor), j, "hypervisor");
	copy_text(env->libc_name, sizeof(env->libc_name), libc, "name");
	copy_text(env->libc_version, sizeof(env->libc_version), libc, "version");
	env->ncpus_online = int_of(j, "ncpus_online", 0);
	env->time_ns_known = json_true_at(ns, "known");
	env->in_time_namespace = json_true_at(ns, "non_root");
	env->cpu = int_of(j, "cpu", -1);
	env->have_vdso = json_true_at(vdso, "available");
	copy_text(env->vdso_error, sizeof(env->vdso_error), vdso, "error");
	env->nvdso_symbols = json_array_size(json_member(vdso, "symbols"));
	env->counter_step = json_number_at(step, "step");
	copy_text(env->counter_unit, sizeof(env->counter_unit), step, "unit");
	env->clock_step_ns = json_number_at(step, "clock_step_ns");
}

/* Unknown (null) is negative in a system_report. */
static double known_of(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* The stored pre-flight report (system_to_json()'s) as system_print() reads it. */
static void system_of(const json_t *j, struct system_report *s)
{
	const json_t *turbo = json_member(j, "turbo"), *load = json_member(j, "load");

	memset(s, 0, sizeof(*s));
	s->cpu = int_of(j, "cpu", -1);
	s->ncpus = int_of(j, "ncpus", 0);
	copy_text(s->governor, sizeof(s->governor), j, "governor");
	copy_text(s->driver, sizeof(s->driver), j, "driver");
	s->turbo = json_is_boolean(turbo) ? json_is_true(turbo) : -1;
	copy_text(s->turbo_source, sizeof(s->turbo_source), j, "turbo_source");
	copy_text(s->smt_control, sizeof(s->smt_control), j, "smt_control");
	s->smt_siblings = int_of(j, "smt_siblings", 0);
	copy_text(s->isolated, sizeof(s->isolated), j, "isolcpus");
	copy_text(s->nohz_full, sizeof(s->nohz_full), j, "nohz_full");
	s->cpu_isolated = json_true_at(j, "cpu_isolated");
	s->cpu_nohz_full = json_true_at(j, "cpu_nohz_full");
	for (size_t i = 0; i < ARRAY_SIZE(s->load); i++)
		s->load[i] = known_of(json_array_get(load, i));
	s->steal_pct = known_of(json_member(j, "steal_pct_since_boot"));
	s->pmu = json_true_at(j, "pmu");
}

/* The stored warm-up (warmup_to_json()'s) as quality_warmup_line() reads it. */
static void warmup_of(const json_t *j, struct warmup_report *w)
{
	memset(w, 0, sizeof(*w));
	copy_text(w->cell, sizeof(w->cell), j, "cell");
	w->windows = (unsigned)int_of(j, "windows", 0);
	w->window_s = json_number_at(j, "window_s");
	w->elapsed_s = json_number_at(j, "elapsed_s");
	w->steady = json_true_at(j, "steady");
	w->first_ghz = json_number_at(j, "first_ghz");
	w->last_ghz = json_number_at(j, "last_ghz");
	w->first_cell = json_number_at(j, "first_core_cycles");
	w->last_cell = json_number_at(j, "last_core_cycles");
}

/* ---- the lines --------------------------------------------------------- */

/* x to decimals (a negative count: %g), or "-" when the run lacks it. */
static void put_figure(FILE *f, int decimals, double x)
{
	if (!isfinite(x))
		fputc('-', f);
	else if (decimals < 0)
		fprintf(f, "%g", x);
	else
		fprintf(f, "%.*f", decimals, x);
}

/* A stored text escaped, or "-" when the run lacks it. */
static void put_text(FILE *f, const char *s)
{
	text_put(f, *s ? s : "-", TEXT_LINE_MAX);
}

static void print_first_line(FILE *f, const struct stored_run *r)
{
	char started[64];

	text_copy(started, sizeof(started), r->started, 32);
	fputs("# clockbench ", f);
	put_text(f, text_of(r->env, "clockbench_version"));
	fputc(' ', f);
	put_text(f, r->command ? r->command : "");
	fprintf(f, ", %.10s %.8s UTC, ", started,
		strlen(started) > 11 ? started + 11 : "");
	put_figure(f, 1, r->elapsed_s);
	fprintf(f, " s%s\n", r->status && streq(r->status, "interrupted") ?
		", INTERRUPTED" : "");
}

static void print_counter_line(FILE *f, const struct stored_run *r)
{
	const struct bench_counter *counter = &run_facts(r)->settings.bench.cycle_counter;

	fputs("# cycles: ", f);
	put_text(f, counter->unit ? counter->unit : "");
	fputs(" (", f);
	put_text(f, counter->source ? counter->source : "");
	fputs(")\n", f);
}

/* How core cycles were measured: the reference, its length and its share. */
static void print_core_line(FILE *f, const struct core_cycles_settings *core)
{
	const struct core_reference *ref = &core->reference;
	double reading_us = ref->reading_core_cycles / core->calibration_ghz / 1000;

	fprintf(f, "# core cycles: %s; the reference, ",
		core->source && streq(core->source, "perf") ?
		"the PMU's, the reference beside them" :
		"batch ticks at the speed of the reference around each batch");
	if (ref->ops >= 0 && ref->ops < 0x1p53)
		fprintf(f, "%.0f", ref->ops);
	else
		fputc('-', f);
	fputs(" dependent ", f);
	put_text(f, ref->instruction ? ref->instruction : "");
	fputs(" of ", f);
	put_figure(f, -1, ref->cycles_per_op);
	fputs(" cycles, read for ", f);
	put_figure(f, 2, reading_us);
	fputs(" us before every batch (", f);
	put_figure(f, 1, ref->share_pct);
	fputs(" % of the time)\n", f);
}

/* Core cycles, the warm-up and the quality: none of them without core cycles. */
static void print_core_lines(FILE *f, const struct stored_run *r)
{
	const struct run_facts *facts = run_facts(r);
	const struct run_settings *s = &facts->settings;
	const json_t *warmup = json_member(r->quality, "warmup");
	const char *summary = facts->quality_summary;
	struct warmup_report w;
	char line[512];

	if (s->core_cycles.source && streq(s->core_cycles.source, "none"))
		return;
	if (s->core_cycles_known)
		print_core_line(f, &s->core_cycles);
	if (json_is_object(warmup)) {
		warmup_of(warmup, &w);
		quality_warmup_line(&w, s->bench.method.steady_tol, line, sizeof(line));
		fprintf(f, "# warm-up: %s\n", line);
	}
	if (summary) {
		fputs("# quality: ", f);
		text_put(f, summary, TEXT_LINE_MAX);
		fputc('\n', f);
	}
}

void run_header_print(FILE *f, const struct stored_run *r)
{
	const json_t *system = json_member(r->quality, "system");
	const struct bench_overhead *overhead = &run_facts(r)->settings.bench.overhead;
	struct system_report sys;
	struct env_info env;

	print_first_line(f, r);
	env_of(r->env, &env);
	env_print(&env, f, "# ");
	if (json_is_object(system)) {
		system_of(system, &sys);
		system_print(&sys, f, "# ");
	}
	/* A count has no counter or core speed: its clock counted instructions. */
	if (stored_run_exact(r))
		fputs("# counted: guest instructions retired per call under qemu's "
		      "icount (kernels --exact), the guest's counter one tick an "
		      "instruction; no cycles, no core speed\n", f);
	else {
		print_counter_line(f, r);
		print_core_lines(f, r);
	}
	fputs("# harness overhead: ", f);
	if (overhead->counted) {
		put_figure(f, 2, overhead->instructions_per_call);
		fputs(" instructions/call (an empty function through the same loop, "
		      "counted; not subtracted)\n", f);
		if (overhead->ruler.measured) {
			fprintf(f, "# the instrument's check: the same loop through a "
				"function of %.0f nops more counted ", overhead->ruler.nops);
			put_figure(f, 2, overhead->ruler.instructions_per_call -
					 overhead->instructions_per_call);
			fputs(" instructions more per call\n", f);
		}
		return;
	}
	put_figure(f, 2, overhead->ns_per_call);
	fputs(" ns/call (an empty function through the same loop; not subtracted)\n", f);
}
