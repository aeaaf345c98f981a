// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/run-facts.h"

#include <stdlib.h>

#include "basic/util.h"

/* The text under key of o, NULL when absent, not a string, or empty. */
static const char *text_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_is_object(o) ? json_object_get(o, key) : NULL);

	return s && *s ? s : NULL;
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
	decode_settings(json_is_object(run->config) ? run->config : NULL, f);
	/* A cache of what the run holds: filling it changes no fact of it. */
	((struct stored_run *)run)->facts = f;
	return f;
}

void run_facts_forget(struct stored_run *run)
{
	free(run->facts);
	run->facts = NULL;
}
