// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/run-facts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "basic/util.h"

/* The text under key of o, NULL when absent, not a string, or empty. */
static const char *text_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_is_object(o) ? json_object_get(o, key) : NULL);

	return s && *s ? s : NULL;
}

/* The number under key of o, NAN when absent or not a number. */
static double number_of(const json_t *o, const char *key)
{
	const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The texts of the array under key of o; none when it is not an array. */
static void words_of(const json_t *o, const char *key, struct run_words *w)
{
	const json_t *a = json_is_object(o) ? json_object_get(o, key) : NULL, *e;
	size_t i;

	w->whole = true;
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
static void counts_of(const json_t *o, const char *key, struct run_counts *c)
{
	const json_t *a = json_is_object(o) ? json_object_get(o, key) : NULL, *e;
	size_t i;

	c->whole = true;
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

/* An array of numbers as doubles (n of them; 0 for one that is not). */
static double *numbers_of(const json_t *a, size_t n)
{
	double *x = xcalloc(n ? n : 1, sizeof(*x));

	for (size_t i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(a, i));
	return x;
}

/* scale's "cpu_time": [{"name", "user_s": [..], "sys_s": [..]}, ..]; a cell
 * whose two lists differ in length has none (user_s and sys_s NULL). */
static void cpu_time_of(const json_t *config, struct run_facts *f)
{
	const json_t *a = json_object_get(config, "cpu_time"), *e;
	size_t i;

	if (!json_array_size(a))
		return;
	f->cpu_time = xcalloc(json_array_size(a), sizeof(*f->cpu_time));
	f->ncpu_time = json_array_size(a);
	json_array_foreach(a, i, e) {
		struct run_cpu_time *t = &f->cpu_time[i];
		const json_t *user = json_object_get(e, "user_s");
		const json_t *sys = json_object_get(e, "sys_s");

		t->cell = text_of(e, "name");
		if (!json_is_array(user) || !json_is_array(sys) ||
		    json_array_size(user) != json_array_size(sys))
			continue;
		t->n = json_array_size(user);
		t->user_s = numbers_of(user, t->n);
		t->sys_s = numbers_of(sys, t->n);
	}
}

static void problems_of(const json_t *config, struct run_facts *f)
{
	const json_t *a = json_object_get(config, "problems"), *e;
	size_t i;

	f->problems_known = json_is_array(a);
	if (!json_array_size(a))
		return;
	f->problems = xcalloc(json_array_size(a), sizeof(*f->problems));
	f->nproblems = json_array_size(a);
	json_array_foreach(a, i, e) {
		f->problems[i].cell = text_of(e, "cell");
		f->problems[i].path = text_of(e, "path");
		f->problems[i].cause = text_of(e, "cause");
	}
}

/* quality "rounds": [{"round": k, "core_ghz": x}, ..]; a round without
 * its number is the one at its place. */
static void round_speeds_of(const json_t *quality, struct run_facts *f)
{
	const json_t *a = json_is_object(quality) ? json_object_get(quality, "rounds") : NULL, *e;
	size_t i;

	if (!json_array_size(a))
		return;
	f->round_speeds = xcalloc(json_array_size(a), sizeof(*f->round_speeds));
	json_array_foreach(a, i, e) {
		const json_t *k = json_object_get(e, "round");
		double ghz = number_of(e, "core_ghz");
		json_int_t round = json_is_integer(k) ? json_integer_value(k) : (json_int_t)i;

		if (round < 0 || !(ghz > 0))
			continue;
		f->round_speeds[f->nround_speeds++] = (struct run_round_speed){
			.round = round, .core_ghz = ghz };
	}
}

static void decode_machine(const json_t *env, struct run_facts *f)
{
	const json_t *libc = json_object_get(env, "libc");
	const json_t *hv = json_object_get(env, "hypervisor");
	const json_t *ns = json_object_get(env, "time_namespace");
	const json_t *ncpus = json_object_get(env, "ncpus_online");

	f->machine = text_of(env, "machine");
	f->cpu_model = text_of(env, "cpu_model");
	f->hypervisor = json_is_string(hv) ? (*json_string_value(hv) ?
					      json_string_value(hv) : "none") : NULL;
	f->clocksource = text_of(env, "clocksource");
	f->cmdline = text_of(env, "cmdline");
	f->libc_name = text_of(libc, "name");
	f->libc_version = text_of(libc, "version");
	f->ncpus = json_is_integer(ncpus) ? (long)json_integer_value(ncpus) : 0;
	f->time_namespace_known = json_is_true(json_object_get(ns, "known"));
	f->in_time_namespace = json_is_true(json_object_get(ns, "non_root"));
}

static void decode_vm(const json_t *env, struct run_facts *f)
{
	const json_t *vm = json_object_get(env, "vm");

	f->booted = json_is_object(vm);
	f->emulated = json_is_true(json_object_get(vm, "emulated"));
	f->exact = json_is_true(json_object_get(vm, "exact"));
	f->accel = text_of(vm, "accel");
	f->arch = text_of(vm, "arch");
	f->campaign = text_of(vm, "campaign");
}

static void decode_invocation(const json_t *env, struct run_facts *f)
{
	const json_t *step = json_object_get(env, "counter_step");

	f->invocation = text_of(env, "invocation");
	words_of(env, "argv", &f->argv);
	f->argv_masked = json_is_false(json_object_get(env, "argv_exact"));
	f->clock_step_ns = number_of(step, "clock_step_ns");
	f->counter_step = number_of(step, "step");
	f->counter_unit = text_of(step, "unit");
}

static void decode_settings(const json_t *config, struct run_facts *f)
{
	const json_t *trace = json_object_get(config, "trace");
	const json_t *acct = json_object_get(config, "cpu_accounting");
	const json_t *below = json_object_get(acct, "estimate_below_s");

	f->mode = text_of(config, "mode");
	f->interleave = text_of(config, "interleave");
	f->side = text_of(config, "side");
	f->trace = json_is_boolean(trace) ? json_is_true(trace) : -1;
	f->cpu_time_sampled = json_is_true(json_object_get(acct, "sampled"));
	f->cpu_time_estimate_below_s = json_is_number(below) ? json_number_value(below) : 0;
	f->cpu_accounting_known = cpu_accounting_from_json(acct, &f->cpu_accounting);
}

/* What each command records of its own settings. */
static void decode_commands(const json_t *config, struct run_facts *f)
{
	const json_t *method = json_object_get(config, "method");
	const json_t *core = json_object_get(config, "core_cycles");

	f->budget_s = number_of(method, "budget_s");
	f->rounds = number_of(method, "rounds");
	f->core_cycles_source = text_of(core, "source");
	f->core_calibration_ghz = number_of(core, "calibration_ghz");
	f->reading_core_cycles = number_of(json_object_get(core, "reference"),
					   "reading_core_cycles");
	counts_of(config, "threads", &f->threads);
	counts_of(config, "idle_threads", &f->idle_threads);
	f->calls = number_of(config, "calls");
	f->repetitions = number_of(config, "repetitions");
	cpu_time_of(config, f);
	f->cpu = number_of(config, "cpu");
	f->cycles = number_of(config, "cycles");
	words_of(config, "command", &f->command);
	f->prepare = json_string_value(json_object_get(config, "prepare"));
	f->shell = json_is_true(json_object_get(config, "shell"));
	f->runs = number_of(config, "runs");
	f->condition = text_of(config, "condition");
	f->value = text_of(config, "value");
	words_of(config, "arms", &f->arms);
	f->verdict = text_of(config, "verdict");
	f->doctor_clocksource = text_of(config, "clocksource");
	problems_of(config, f);
}

const struct run_facts *run_facts(const struct stored_run *run)
{
	struct run_facts *f;

	if (run->facts)
		return run->facts;
	f = xcalloc(1, sizeof(*f));
	/* An object that is not there reads as empty: json_object_get(NULL). */
	decode_machine(json_is_object(run->env) ? run->env : NULL, f);
	decode_vm(json_is_object(run->env) ? run->env : NULL, f);
	decode_invocation(json_is_object(run->env) ? run->env : NULL, f);
	decode_settings(json_is_object(run->config) ? run->config : NULL, f);
	decode_commands(json_is_object(run->config) ? run->config : NULL, f);
	f->quality_summary = text_of(run->quality, "summary");
	round_speeds_of(run->quality, f);
	/* A cache of what the run holds: filling it changes no fact of it. */
	((struct stored_run *)run)->facts = f;
	return f;
}

void run_facts_forget(struct stored_run *run)
{
	struct run_facts *f = run->facts;

	if (!f)
		return;
	for (size_t i = 0; i < f->ncpu_time; i++) {
		free(f->cpu_time[i].user_s);
		free(f->cpu_time[i].sys_s);
	}
	free(f->cpu_time);
	free(f->problems);
	free(f->round_speeds);
	free(f->argv.word);
	free(f->command.word);
	free(f->arms.word);
	free(f->threads.count);
	free(f->idle_threads.count);
	free(f);
	run->facts = NULL;
}
