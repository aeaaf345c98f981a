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
	run_words_decode(env, "argv", &f->argv);
	f->argv_masked = json_is_false(json_object_get(env, "argv_exact"));
	f->clock_step_ns = number_of(step, "clock_step_ns");
	f->counter_step = number_of(step, "step");
	f->counter_unit = text_of(step, "unit");
}

/* What every command may record, bench's own, and each command's settings. */
static void decode_settings(const json_t *config, struct run_facts *f)
{
	const json_t *method = json_object_get(config, "method");
	const json_t *core = json_object_get(config, "core_cycles");

	f->mode = text_of(config, "mode");
	f->interleave = text_of(config, "interleave");
	f->budget_s = number_of(method, "budget_s");
	f->rounds = number_of(method, "rounds");
	f->core_cycles_source = text_of(core, "source");
	f->core_calibration_ghz = number_of(core, "calibration_ghz");
	f->reading_core_cycles = number_of(json_object_get(core, "reference"),
					   "reading_core_cycles");
	run_settings_decode(config, &f->settings);
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
	run_settings_release(&f->settings);
	free(f->round_speeds);
	free(f->argv.word);
	free(f);
	run->facts = NULL;
}
