// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each command's settings both ways: its encoder and, right below it, its
 * decoder, so that a key written is a key read (test-run-settings.c
 * encodes, decodes and compares every field).
 */
#include "results/run-settings.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basic/json.h"
#include "basic/util.h"

/* ---- the pieces ------------------------------------------------------ */

/* A text, or null for none (as jansson's "s?" always wrote it). */
static json_t *text_json(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A count the settings hold as a number: an integer, null when unknown. */
static json_t *count_json(double x)
{
	return isfinite(x) ? json_integer((json_int_t)x) : json_null();
}

/* A real the settings hold: json_real, as "s:f" wrote it (null when not finite). */
static json_t *real_json(double x)
{
	return json_number(x);
}

static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v);
}

static json_t *words_json(const struct run_words *w)
{
	json_t *a = json_array();

	for (size_t i = 0; i < w->n; i++)
		json_array_append_new(a, json_string(w->word[i]));
	return a;
}

static json_t *counts_json(const struct run_counts *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->n; i++)
		json_array_append_new(a, json_integer(c->count[i]));
	return a;
}

static json_t *doubles_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_number(x[i]));
	return a;
}

void run_words_decode(const json_t *o, const char *key, struct run_words *w)
{
	const json_t *a = json_member(o, key), *e;
	size_t i;

	*w = (struct run_words){ .whole = true };
	if (!json_array_size(a))
		return;
	w->word = xcalloc(json_array_size(a) + 1, sizeof(*w->word));
	json_array_foreach(a, i, e) {
		if (json_is_string(e))
			w->word[w->n++] = json_string_value(e);
		else
			w->whole = false;
	}
}

/* The counts of the array under key of o: one for each element (0 for one
 * that is not a count), so that they stay in step with the run's cells. */
static void counts_decode(const json_t *o, const char *key, struct run_counts *c)
{
	const json_t *a = json_member(o, key), *e;
	size_t i;

	*c = (struct run_counts){ .whole = true };
	if (!json_array_size(a))
		return;
	c->count = xcalloc(json_array_size(a), sizeof(*c->count));
	c->n = json_array_size(a);
	json_array_foreach(a, i, e) {
		json_int_t v = json_is_integer(e) ? json_integer_value(e) : -1;

		if (v < 0 || v > UINT_MAX)
			c->whole = false;
		else
			c->count[i] = (unsigned)v;
	}
}

/* An array of numbers as doubles (n of them; NAN for one that is not). */
static double *numbers_decode(const json_t *a, size_t n)
{
	double *x = xcalloc(n ? n : 1, sizeof(*x));

	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, i);

		x[i] = json_is_number(e) ? json_number_value(e) : NAN;
	}
	return x;
}

/* ---- hotplug --------------------------------------------------------- */

json_t *hotplug_settings_json(const struct hotplug_settings *s)
{
	json_t *o = json_object();

	set(o, "cpu", count_json(s->cpu));
	set(o, "cycles", count_json(s->cycles));
	set(o, "pause_s", real_json(s->pause_s));
	if (s->trace >= 0)
		set(o, "trace", json_boolean(s->trace));
	set(o, "tracing", text_json(s->tracing));
	if (s->accounting)
		set(o, "cpu_accounting", cpu_accounting_to_json(s->accounting));
	return o;
}

static void hotplug_decode(const json_t *c, struct hotplug_settings *s)
{
	const json_t *trace = json_object_get(c, "trace");

	s->cpu = json_number_at(c, "cpu");
	s->cycles = json_number_at(c, "cycles");
	s->pause_s = json_number_at(c, "pause_s");
	s->trace = json_is_boolean(trace) ? json_is_true(trace) : -1;
	s->tracing = json_text_at(c, "tracing");
}

/* ---- doctor ---------------------------------------------------------- */

json_t *doctor_settings_json(const struct doctor_settings *s)
{
	json_t *o = json_object(), *problems = json_array();

	for (size_t i = 0; i < s->nproblems; i++) {
		const struct run_problem *p = &s->problems[i];
		json_t *e = json_object();

		set(e, "cell", text_json(p->cell));
		set(e, "path", text_json(p->path));
		set(e, "cause", text_json(p->cause));
		set(e, "why", text_json(p->why));
		json_array_append_new(problems, e);
	}
	set(o, "verdict", text_json(s->verdict));
	set(o, "clocksource", text_json(s->clocksource));
	set(o, "problems", problems);
	return o;
}

static void doctor_decode(const json_t *c, struct doctor_settings *s)
{
	const json_t *a = json_object_get(c, "problems"), *e;
	struct run_problem *p;
	size_t i;

	s->verdict = json_text_at(c, "verdict");
	s->clocksource = json_text_at(c, "clocksource");
	s->problems_known = json_is_array(a);
	if (!json_array_size(a))
		return;
	s->problems = p = xcalloc(json_array_size(a), sizeof(*p));
	s->nproblems = json_array_size(a);
	json_array_foreach(a, i, e)
		p[i] = (struct run_problem){ .cell = json_text_at(e, "cell"),
			.path = json_text_at(e, "path"), .cause = json_text_at(e, "cause"),
			.why = json_text_at(e, "why") };
}

/* ---- ab -------------------------------------------------------------- */

json_t *ab_settings_json(const struct ab_settings *s)
{
	json_t *o = json_object();

	set(o, "mode", json_string("ab"));
	set(o, "condition", text_json(s->condition));
	set(o, "arm", text_json(s->arm));
	set(o, "value", text_json(s->value));
	set(o, "arms", words_json(&s->arms));
	set(o, "interleave", text_json(s->interleave));
	/* What compare's readers are told of the rounds: the arms alternate. */
	set(o, "order", json_string("A B B A ..."));
	set(o, "repetitions", count_json(s->repetitions));
	set(o, "budget_s", real_json(s->budget_s));
	set(o, "target_batch_ns", real_json(s->target_batch_ns));
	set(o, "cpu", count_json(s->cpu));
	return o;
}

static void ab_decode(const json_t *c, struct ab_settings *s)
{
	s->condition = json_text_at(c, "condition");
	s->arm = json_text_at(c, "arm");
	s->value = json_text_at(c, "value");
	run_words_decode(c, "arms", &s->arms);
	s->interleave = json_text_at(c, "interleave");
	s->repetitions = json_number_at(c, "repetitions");
	s->budget_s = json_number_at(c, "budget_s");
	s->target_batch_ns = json_number_at(c, "target_batch_ns");
	s->cpu = json_number_at(c, "cpu");
}

/* ---- timens ---------------------------------------------------------- */

json_t *timens_settings_json(const struct timens_settings *s)
{
	json_t *o = json_object();

	set(o, "mode", json_string("timens"));
	set(o, "side", text_json(s->side));
	set(o, "interleave", text_json(s->interleave));
	set(o, "paired_with", text_json(s->paired_with));
	set(o, "repetitions", count_json(s->repetitions));
	set(o, "cpu", count_json(s->cpu));
	set(o, "budget_s", real_json(s->budget_s));
	set(o, "target_batch_ns", real_json(s->target_batch_ns));
	set(o, "boundary_ns", real_json(s->boundary_ns));
	set(o, "order", json_string("host, timens, timens, host, ..."));
	set(o, "offsets", timens_offsets_to_json(&s->offsets));
	set(o, "nested", json_boolean(s->nested));
	return o;
}

static void timens_decode(const json_t *c, struct timens_settings *s)
{
	const json_t *off = json_object_get(c, "offsets");
	double mono = json_number_at(off, "monotonic_s"), boot = json_number_at(off, "boottime_s");

	s->side = json_text_at(c, "side");
	s->interleave = json_text_at(c, "interleave");
	s->paired_with = json_text_at(c, "paired_with");
	s->repetitions = json_number_at(c, "repetitions");
	s->cpu = json_number_at(c, "cpu");
	s->budget_s = json_number_at(c, "budget_s");
	s->target_batch_ns = json_number_at(c, "target_batch_ns");
	s->boundary_ns = json_number_at(c, "boundary_ns");
	/* Whole seconds of at most years: exact in a double and an int64_t. */
	s->offsets_known = fabs(mono) < 1e12 && fabs(boot) < 1e12;
	if (s->offsets_known)
		s->offsets = (struct timens_offsets){ .monotonic_ns = llround(mono * 1e9),
						      .boottime_ns = llround(boot * 1e9) };
	s->nested = json_true_at(c, "nested");
}

/* ---- exec ------------------------------------------------------------ */

json_t *exec_settings_json(const struct exec_settings *s)
{
	json_t *o = json_object();

	set(o, "command", words_json(&s->command));
	set(o, "command_line", text_json(s->command_line));
	set(o, "shell", json_boolean(s->shell));
	set(o, "prepare", text_json(s->prepare));
	set(o, "runs", count_json(s->runs));
	set(o, "warmup", count_json(s->warmup));
	set(o, "ignore_failure", json_boolean(s->ignore_failure));
	set(o, "show_output", json_boolean(s->show_output));
	set(o, "program", text_json(s->program));
	set(o, "harness_wall_median_s", json_number(s->harness_wall_median_s));
	if (s->accounting)
		set(o, "cpu_accounting", cpu_accounting_to_json(s->accounting));
	if (s->interleave) {
		set(o, "interleave", json_string(s->interleave));
		set(o, "commands", words_json(&s->commands));
		set(o, "order", text_json(s->order));
		if (isfinite(s->seed))
			set(o, "seed", count_json(s->seed));
	}
	if (s->value) {
		set(o, "parameter", text_json(s->parameter));
		set(o, "value", json_string(s->value));
	}
	return o;
}

static void exec_decode(const json_t *c, struct exec_settings *s)
{
	run_words_decode(c, "command", &s->command);
	s->command_line = json_text_at(c, "command_line");
	s->program = json_text_at(c, "program");
	s->shell = json_true_at(c, "shell");
	s->prepare = json_string_value(json_object_get(c, "prepare"));
	s->runs = json_number_at(c, "runs");
	s->warmup = json_number_at(c, "warmup");
	s->ignore_failure = json_true_at(c, "ignore_failure");
	s->show_output = json_true_at(c, "show_output");
	s->harness_wall_median_s = json_number_at(c, "harness_wall_median_s");
	s->interleave = json_text_at(c, "interleave");
	run_words_decode(c, "commands", &s->commands);
	s->order = json_text_at(c, "order");
	s->seed = json_number_at(c, "seed");
	s->parameter = json_text_at(c, "parameter");
	s->value = json_text_at(c, "value");
}

/* ---- scale ----------------------------------------------------------- */

static json_t *cpu_time_json(const struct scale_settings *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->ncpu_time; i++) {
		const struct run_cpu_time *t = &s->cpu_time[i];
		json_t *e = json_object();

		set(e, "name", text_json(t->cell));
		set(e, "path", text_json(t->path));
		set(e, "user_s", doubles_json(t->user_s, t->n));
		set(e, "sys_s", doubles_json(t->sys_s, t->n));
		json_array_append_new(a, e);
	}
	return a;
}

json_t *scale_settings_json(const struct scale_settings *s)
{
	json_t *o = json_object();

	set(o, "mode", json_string(s->idle ? "idle" : "threads"));
	set(o, s->idle ? "idle_threads" : "threads", counts_json(&s->threads));
	set(o, "ncpus", count_json(s->ncpus));
	if (!s->idle) {
		set(o, "calls", count_json(s->calls));
		set(o, "repetitions", count_json(s->repetitions));
		set(o, "series", text_json(s->series));
		set(o, "cpu_time", cpu_time_json(s));
		if (s->accounting)
			set(o, "cpu_accounting", cpu_accounting_to_json(s->accounting));
		return o;
	}
	set(o, "cpu", count_json(s->cpu));
	set(o, "budget_s", json_number(s->budget_s));
	set(o, "target_batch_ns", json_number(s->target_batch_ns));
	set(o, "rounds", count_json(s->rounds));
	set(o, "boundary_ns", json_number(s->boundary_ns));
	if (s->core_cycles)
		json_object_set(o, "core_cycles", (json_t *)s->core_cycles);
	return o;
}

/* "cpu_time": [{"name", "path", "user_s": [..], "sys_s": [..]}, ..]; a cell
 * whose two lists differ in length has none (user_s and sys_s NULL). */
static void cpu_time_decode(const json_t *c, struct scale_settings *s)
{
	const json_t *a = json_object_get(c, "cpu_time"), *e;
	struct run_cpu_time *t;
	size_t i;

	if (!json_array_size(a))
		return;
	s->cpu_time = t = xcalloc(json_array_size(a), sizeof(*t));
	s->ncpu_time = json_array_size(a);
	json_array_foreach(a, i, e) {
		const json_t *user = json_object_get(e, "user_s");
		const json_t *sys = json_object_get(e, "sys_s");

		t[i].cell = json_text_at(e, "name");
		t[i].path = json_text_at(e, "path");
		if (!json_is_array(user) || !json_is_array(sys) ||
		    json_array_size(user) != json_array_size(sys))
			continue;
		t[i].n = json_array_size(user);
		t[i].user_s = numbers_decode(user, t[i].n);
		t[i].sys_s = numbers_decode(sys, t[i].n);
	}
}

static void scale_decode(const json_t *c, struct scale_settings *s)
{
	const char *mode = json_text_at(c, "mode");

	s->idle = mode && streq(mode, "idle");
	counts_decode(c, s->idle ? "idle_threads" : "threads", &s->threads);
	s->ncpus = json_number_at(c, "ncpus");
	s->calls = json_number_at(c, "calls");
	s->repetitions = json_number_at(c, "repetitions");
	s->series = json_text_at(c, "series");
	cpu_time_decode(c, s);
	s->cpu = json_number_at(c, "cpu");
	s->budget_s = json_number_at(c, "budget_s");
	s->target_batch_ns = json_number_at(c, "target_batch_ns");
	s->rounds = json_number_at(c, "rounds");
	s->boundary_ns = json_number_at(c, "boundary_ns");
	s->core_cycles = json_object_get(c, "core_cycles");
}

/* ---- a boot of kernels (environment.vm) ------------------------------- */

json_t *run_boot_json(const struct run_boot *b)
{
	json_t *o = json_object();

	set(o, "kernel_name", text_json(b->kernel_name));
	set(o, "image", text_json(b->image));
	set(o, "accel", text_json(b->accel));
	set(o, "qemu", text_json(b->qemu));
	set(o, "cpus", count_json(b->cpus));
	set(o, "memory_mb", count_json(b->memory_mb));
	set(o, "boot_wall_s", real_json(b->boot_wall_s));
	set(o, "boot", count_json(b->boot));
	set(o, "position", count_json(b->position));
	set(o, "emulated", json_boolean(b->emulated));
	if (b->booted_as)
		set(o, "booted_as", json_string(b->booted_as));
	set(o, "arch", text_json(b->arch));
	set(o, "accel_reason", json_string(b->accel_reason ? b->accel_reason : ""));
	set(o, "append", json_string(b->append ? b->append : ""));
	set(o, "kernel_append", json_string(b->kernel_append ? b->kernel_append : ""));
	if (b->exact) {
		set(o, "exact", json_true());
		set(o, "icount", text_json(b->icount));
	}
	if (b->guest)
		json_object_set(o, "guest", (json_t *)b->guest);
	set(o, "campaign", text_json(b->campaign));
	if (b->guest_argv.n)
		set(o, "guest_argv", words_json(&b->guest_argv));
	return o;
}

void run_boot_decode(const json_t *env, struct run_boot *b)
{
	const json_t *vm = json_member(env, "vm");

	memset(b, 0, sizeof(*b));
	b->booted = json_is_object(vm);
	b->campaign = json_text_at(vm, "campaign");
	b->kernel_name = json_text_at(vm, "kernel_name");
	b->image = json_text_at(vm, "image");
	b->booted_as = json_text_at(vm, "booted_as");
	b->arch = json_text_at(vm, "arch");
	b->accel = json_text_at(vm, "accel");
	b->accel_reason = json_text_at(vm, "accel_reason");
	b->qemu = json_text_at(vm, "qemu");
	b->cpus = json_number_at(vm, "cpus");
	b->memory_mb = json_number_at(vm, "memory_mb");
	b->boot_wall_s = json_number_at(vm, "boot_wall_s");
	b->boot = json_number_at(vm, "boot");
	b->position = json_number_at(vm, "position");
	b->emulated = json_true_at(vm, "emulated");
	b->exact = json_true_at(vm, "exact");
	b->icount = json_text_at(vm, "icount");
	b->append = json_text_at(vm, "append");
	b->kernel_append = json_text_at(vm, "kernel_append");
	b->guest = json_member(vm, "guest");
	run_words_decode(vm, "guest_argv", &b->guest_argv);
}

void run_boot_release(struct run_boot *b)
{
	free(b->guest_argv.word);
	memset(b, 0, sizeof(*b));
}

/* ---- a run's ---------------------------------------------------------- */

void run_settings_decode(const json_t *config, struct run_settings *s)
{
	const json_t *c = json_is_object(config) ? config : NULL;
	const json_t *acct = json_object_get(c, "cpu_accounting");

	const json_t *below = json_object_get(acct, "estimate_below_s");

	memset(s, 0, sizeof(*s));
	s->accounting_known = cpu_accounting_from_json(acct, &s->accounting);
	s->accounting_sampled = json_true_at(acct, "sampled");
	s->estimate_below_s = json_is_number(below) ? json_number_value(below) : 0;
	hotplug_decode(c, &s->hotplug);
	doctor_decode(c, &s->doctor);
	ab_decode(c, &s->ab);
	timens_decode(c, &s->timens);
	exec_decode(c, &s->exec);
	scale_decode(c, &s->scale);
	/* The commands that record it point at the one copy decoded. */
	if (s->accounting_known)
		s->hotplug.accounting = s->exec.accounting = s->scale.accounting =
			&s->accounting;
}

void run_settings_release(struct run_settings *s)
{
	for (size_t i = 0; i < s->scale.ncpu_time; i++) {
		free(s->scale.cpu_time[i].user_s);
		free(s->scale.cpu_time[i].sys_s);
	}
	free((void *)s->scale.cpu_time);
	free(s->scale.threads.count);
	free((void *)s->doctor.problems);
	free(s->ab.arms.word);
	free(s->exec.command.word);
	free(s->exec.commands.word);
	memset(s, 0, sizeof(*s));
}
