// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/run-facts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "basic/json.h"
#include "basic/util.h"

/* quality "rounds": [{"round": k, "core_ghz": x}, ..]; a round without
 * its number is the one at its place. */
static void round_speeds_of(const json_t *quality, struct run_facts *f)
{
	const json_t *a = json_member(quality, "rounds"), *e;
	size_t i;

	if (!json_array_size(a))
		return;
	f->round_speeds = xcalloc(json_array_size(a), sizeof(*f->round_speeds));
	json_array_foreach(a, i, e) {
		const json_t *k = json_object_get(e, "round");
		double ghz = json_number_at(e, "core_ghz");
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

	f->machine = json_text_at(env, "machine");
	f->cpu_model = json_text_at(env, "cpu_model");
	f->hypervisor = json_is_string(hv) ? (*json_string_value(hv) ?
					      json_string_value(hv) : "none") : NULL;
	f->clocksource = json_text_at(env, "clocksource");
	f->cmdline = json_text_at(env, "cmdline");
	f->libc_name = json_text_at(libc, "name");
	f->libc_version = json_text_at(libc, "version");
	f->ncpus = json_is_integer(ncpus) ? (long)json_integer_value(ncpus) : 0;
	f->time_namespace_known = json_true_at(ns, "known");
	f->in_time_namespace = json_true_at(ns, "non_root");
}

static void decode_invocation(const json_t *env, struct run_facts *f)
{
	const json_t *step = json_object_get(env, "counter_step");

	f->invocation = json_text_at(env, "invocation");
	f->version = json_text_at(env, "clockbench_version");
	run_words_decode(env, "argv", &f->argv);
	f->argv_masked = json_is_false(json_object_get(env, "argv_exact"));
	f->clock_step_ns = json_number_at(step, "clock_step_ns");
	f->counter_step = json_number_at(step, "step");
	f->counter_unit = json_text_at(step, "unit");
}

/* What every command may record, and each command's own settings. */
static void decode_settings(const json_t *config, struct run_facts *f)
{
	f->mode = json_text_at(config, "mode");
	f->interleave = json_text_at(config, "interleave");
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
	run_boot_decode(json_is_object(run->env) ? run->env : NULL, &f->boot);
	decode_invocation(json_is_object(run->env) ? run->env : NULL, f);
	decode_settings(json_is_object(run->config) ? run->config : NULL, f);
	f->quality_summary = json_text_at(run->quality, "summary");
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
	run_boot_release(&f->boot);
	free(f->round_speeds);
	free(f->argv.word);
	free(f);
	run->facts = NULL;
}
