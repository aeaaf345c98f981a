// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each command's settings both ways, from one table per struct: a field's
 * name is its key (KEY() takes the one for the other), and the same row
 * encodes and decodes it, so that no key is written under one name and
 * read under another. What a row cannot say (a constant "mode", lists of
 * objects, the CPU accounting) is written out beside the table.
 * test-run-settings.c holds every encoder to the store's format and
 * decodes each field back.
 */
#include "results/run-settings.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "basic/json.h"
#include "basic/util.h"

/* ---- a table of keys ------------------------------------------------- */

enum key_kind {
	KEY_TEXT,		/* const char *: null when NULL */
	KEY_TEXT_IF,		/* const char *: absent when NULL */
	KEY_TEXT_EMPTY,		/* const char *: "" when NULL (and "" decodes as NULL) */
	KEY_COUNT,		/* double: an integer, null when not finite */
	KEY_COUNT_IF,		/* double: an integer, absent when not finite */
	KEY_REAL,		/* double: a real, null when not finite */
	KEY_FLAG,		/* bool */
	KEY_FLAG_IF,		/* bool: absent when false */
	KEY_TRISTATE,		/* int: 1 true, 0 false, -1 absent (unknown) */
	KEY_WORDS,		/* struct run_words: an array of texts */
	KEY_WORDS_IF,		/* struct run_words: absent when empty */
	KEY_VALUE,		/* const json_t *: as it is, absent when NULL */
};

struct key {
	const char *name;
	enum key_kind kind;
	size_t at;		/* the field's offset */
};

/* The field of type's named field is stored under the field's name. */
#define KEY(type, field, kind) { #field, kind, offsetof(type, field) }

/* Through void *: the offset is the field's, so is its alignment. */
static const void *field_of(const void *s, size_t at)
{
	return (const char *)s + at;
}

static void *field_in(void *s, size_t at)
{
	return (char *)s + at;
}

static json_t *words_json(const struct run_words *w)
{
	json_t *a = json_array();

	for (size_t i = 0; i < w->n; i++)
		json_array_append_new(a, json_string(w->word[i]));
	return a;
}

/* Whether x converts to a JSON integer: a decoded count can be anything a
 * file or a guest wrote (1e300), and its conversion would be undefined. */
static bool fits_integer(double x)
{
	return x >= -0x1p63 && x < 0x1p63;
}

/* The value k gives field p, or NULL when the key is left out. Each case
 * reads the field as its own type: no more bytes than it has. */
static json_t *key_json(const struct key *k, const void *p)
{
	const char *const *text = p;
	const double *x = p;
	const bool *flag = p;
	const int *tristate = p;
	json_t *const *value = p;

	switch (k->kind) {
	case KEY_TEXT:
		return *text ? json_string(*text) : json_null();
	case KEY_TEXT_IF:
		return *text ? json_string(*text) : NULL;
	case KEY_TEXT_EMPTY:
		return json_string(*text ? *text : "");
	case KEY_COUNT:
		return fits_integer(*x) ? json_integer((json_int_t)*x) : json_null();
	case KEY_COUNT_IF:
		return fits_integer(*x) ? json_integer((json_int_t)*x) : NULL;
	case KEY_REAL:
		return json_number(*x);
	case KEY_FLAG:
		return json_boolean(*flag);
	case KEY_FLAG_IF:
		return *flag ? json_true() : NULL;
	case KEY_TRISTATE:
		return *tristate >= 0 ? json_boolean(*tristate) : NULL;
	case KEY_WORDS:
		return words_json(p);
	case KEY_WORDS_IF:
		return ((const struct run_words *)p)->n ? words_json(p) : NULL;
	case KEY_VALUE:
		return *value ? json_incref(*value) : NULL;
	}
	return NULL;
}

static void encode_keys(json_t *o, const void *s, const struct key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_t *v = key_json(&keys[i], field_of(s, keys[i].at));

		if (v)
			json_object_set_new(o, keys[i].name, v);
	}
}

static void key_decode(const struct key *k, const json_t *o, void *p)
{
	const json_t *v = json_member(o, k->name);

	switch (k->kind) {
	case KEY_TEXT:
	case KEY_TEXT_IF:
	case KEY_TEXT_EMPTY:
		*(const char **)p = json_text_at(o, k->name);
		break;
	case KEY_COUNT:
	case KEY_COUNT_IF:
	case KEY_REAL:
		*(double *)p = json_number_at(o, k->name);
		break;
	case KEY_FLAG:
	case KEY_FLAG_IF:
		*(bool *)p = json_is_true(v);
		break;
	case KEY_TRISTATE:
		*(int *)p = json_is_boolean(v) ? json_is_true(v) : -1;
		break;
	case KEY_WORDS:
	case KEY_WORDS_IF:
		run_words_decode(o, k->name, p);
		break;
	case KEY_VALUE:
		*(const json_t **)p = v;
		break;
	}
}

static void decode_keys(const json_t *o, void *s, const struct key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		key_decode(&keys[i], o, field_in(s, keys[i].at));
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

/* ---- bench ----------------------------------------------------------- */

static const struct key method_keys[] = {
	KEY(struct bench_method, budget_s, KEY_REAL),
	KEY(struct bench_method, min_time_s, KEY_REAL),
	KEY(struct bench_method, warmup_s, KEY_REAL),
	KEY(struct bench_method, target_batch_ns, KEY_REAL),
	KEY(struct bench_method, rel_ci, KEY_REAL),
	KEY(struct bench_method, min_samples, KEY_COUNT),
	KEY(struct bench_method, max_samples, KEY_COUNT),
	KEY(struct bench_method, rounds, KEY_COUNT),
	KEY(struct bench_method, steady_tol, KEY_REAL),
	KEY(struct bench_method, boundary_ns, KEY_REAL),
	KEY(struct bench_method, boundary_cycles, KEY_REAL),
};

static const struct key counter_keys[] = {
	KEY(struct bench_counter, unit, KEY_TEXT),
	KEY(struct bench_counter, source, KEY_TEXT),
};

static const struct key overhead_keys[] = {
	KEY(struct bench_overhead, ns_per_call, KEY_REAL),
	KEY(struct bench_overhead, cycles_per_call, KEY_REAL),
};

static const struct key ruler_keys[] = {
	KEY(struct bench_ruler, nops, KEY_COUNT),
	KEY(struct bench_ruler, ns_per_call, KEY_REAL),
	KEY(struct bench_ruler, cycles_per_call, KEY_REAL),
};

/* Counted in instructions, the timings are gone: only the counts stay. */
static const struct key counted_keys[] = {
	KEY(struct bench_overhead, instructions_per_call, KEY_REAL),
};

static const struct key counted_ruler_keys[] = {
	KEY(struct bench_ruler, nops, KEY_COUNT),
	KEY(struct bench_ruler, instructions_per_call, KEY_REAL),
};

/* An object of s's keys. */
static json_t *object_of(const void *s, const struct key *keys, size_t n)
{
	json_t *o = json_object();

	encode_keys(o, s, keys, n);
	return o;
}

json_t *bench_overhead_json(const struct bench_overhead *h)
{
	json_t *o = h->counted ? object_of(h, counted_keys, ARRAY_SIZE(counted_keys)) :
		    object_of(h, overhead_keys, ARRAY_SIZE(overhead_keys));

	if (h->ruler.measured)
		json_object_set_new(o, "ruler", h->counted ?
			object_of(&h->ruler, counted_ruler_keys, ARRAY_SIZE(counted_ruler_keys)) :
			object_of(&h->ruler, ruler_keys, ARRAY_SIZE(ruler_keys)));
	return o;
}

static const struct key core_reference_keys[] = {
	KEY(struct core_reference, instruction, KEY_TEXT),
	KEY(struct core_reference, cycles_per_op, KEY_REAL),
	KEY(struct core_reference, latency_from, KEY_TEXT),
	KEY(struct core_reference, validated, KEY_FLAG),
	KEY(struct core_reference, ops, KEY_COUNT),
	KEY(struct core_reference, reading_core_cycles, KEY_REAL),
	KEY(struct core_reference, share_pct, KEY_REAL),
};

static const struct key core_cycles_keys[] = {
	KEY(struct core_cycles_settings, time_base, KEY_TEXT_EMPTY),
	KEY(struct core_cycles_settings, time_base_ghz, KEY_REAL),
	KEY(struct core_cycles_settings, boundary_core_cycles, KEY_REAL),
	KEY(struct core_cycles_settings, reading_boundary_core_cycles, KEY_REAL),
	KEY(struct core_cycles_settings, calibration_ghz, KEY_REAL),
	KEY(struct core_cycles_settings, pmu_cycles_per_op, KEY_REAL),
};

json_t *core_cycles_json(const struct core_cycles_settings *c)
{
	json_t *o = json_object();

	if (!c->source || streq(c->source, "none")) {
		json_object_set_new(o, "source", json_string("none"));
		return o;
	}
	json_object_set_new(o, "source", json_string(c->source));
	json_object_set_new(o, "reference", object_of(&c->reference, core_reference_keys,
						      ARRAY_SIZE(core_reference_keys)));
	encode_keys(o, c, core_cycles_keys, ARRAY_SIZE(core_cycles_keys));
	return o;
}

static bool core_cycles_decode(const json_t *c, struct core_cycles_settings *s)
{
	const json_t *core = json_member(c, "core_cycles");

	s->source = json_text_at(core, "source");
	decode_keys(json_member(core, "reference"), &s->reference, core_reference_keys,
		    ARRAY_SIZE(core_reference_keys));
	decode_keys(core, s, core_cycles_keys, ARRAY_SIZE(core_cycles_keys));
	return json_is_object(core);
}

json_t *bench_settings_json(const struct bench_settings *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "method", object_of(&s->method, method_keys,
						   ARRAY_SIZE(method_keys)));
	json_object_set_new(o, "cycle_counter", object_of(&s->cycle_counter, counter_keys,
							  ARRAY_SIZE(counter_keys)));
	json_object_set_new(o, "harness_overhead", bench_overhead_json(&s->overhead));
	if (s->core_cycles)
		json_object_set_new(o, "core_cycles", core_cycles_json(s->core_cycles));
	return o;
}

static void bench_decode(const json_t *c, struct bench_settings *s)
{
	const json_t *h = json_member(c, "harness_overhead");
	const json_t *ruler = json_member(h, "ruler");
	struct bench_overhead *o = &s->overhead;

	decode_keys(json_member(c, "method"), &s->method, method_keys, ARRAY_SIZE(method_keys));
	decode_keys(json_member(c, "cycle_counter"), &s->cycle_counter, counter_keys,
		    ARRAY_SIZE(counter_keys));
	decode_keys(h, o, overhead_keys, ARRAY_SIZE(overhead_keys));
	decode_keys(h, o, counted_keys, ARRAY_SIZE(counted_keys));
	o->recorded = json_is_object(h);
	o->counted = json_member(h, "instructions_per_call") != NULL;
	o->ruler.measured = json_is_object(ruler);
	decode_keys(ruler, &o->ruler, ruler_keys, ARRAY_SIZE(ruler_keys));
	decode_keys(ruler, &o->ruler, counted_ruler_keys, ARRAY_SIZE(counted_ruler_keys));
}

/* ---- hotplug --------------------------------------------------------- */

static const struct key hotplug_keys[] = {
	KEY(struct hotplug_settings, cpu, KEY_COUNT),
	KEY(struct hotplug_settings, cycles, KEY_COUNT),
	KEY(struct hotplug_settings, pause_s, KEY_REAL),
	KEY(struct hotplug_settings, trace, KEY_TRISTATE),
	KEY(struct hotplug_settings, tracing, KEY_TEXT),
};

/* The CPU accounting, which hotplug, exec and scale record alike. */
static void add_accounting(json_t *o, const struct cpu_accounting *a)
{
	if (a)
		json_object_set_new(o, "cpu_accounting", cpu_accounting_to_json(a));
}

json_t *hotplug_settings_json(const struct hotplug_settings *s)
{
	json_t *o = json_object();

	encode_keys(o, s, hotplug_keys, ARRAY_SIZE(hotplug_keys));
	add_accounting(o, s->accounting);
	return o;
}

/* ---- doctor ---------------------------------------------------------- */

static const struct key doctor_keys[] = {
	KEY(struct doctor_settings, verdict, KEY_TEXT),
	KEY(struct doctor_settings, clocksource, KEY_TEXT),
};

static const struct key problem_keys[] = {
	KEY(struct run_problem, cell, KEY_TEXT),
	KEY(struct run_problem, path, KEY_TEXT),
	KEY(struct run_problem, cause, KEY_TEXT),
	KEY(struct run_problem, why, KEY_TEXT),
};

json_t *doctor_settings_json(const struct doctor_settings *s)
{
	json_t *o = json_object(), *problems = json_array();

	for (size_t i = 0; i < s->nproblems; i++) {
		json_t *e = json_object();

		encode_keys(e, &s->problems[i], problem_keys, ARRAY_SIZE(problem_keys));
		json_array_append_new(problems, e);
	}
	encode_keys(o, s, doctor_keys, ARRAY_SIZE(doctor_keys));
	json_object_set_new(o, "problems", problems);
	return o;
}

static void doctor_decode(const json_t *c, struct doctor_settings *s)
{
	const json_t *a = json_member(c, "problems");
	struct run_problem *p;

	decode_keys(c, s, doctor_keys, ARRAY_SIZE(doctor_keys));
	s->problems_known = json_is_array(a);
	if (!json_array_size(a))
		return;
	s->problems = p = xcalloc(json_array_size(a), sizeof(*p));
	s->nproblems = json_array_size(a);
	for (size_t i = 0; i < s->nproblems; i++)
		decode_keys(json_array_get(a, i), &p[i], problem_keys, ARRAY_SIZE(problem_keys));
}

/* ---- ab -------------------------------------------------------------- */

/* Two tables around "order", in the order ab has always stored its keys. */
static const struct key ab_keys[] = {
	KEY(struct ab_settings, condition, KEY_TEXT),
	KEY(struct ab_settings, arm, KEY_TEXT),
	KEY(struct ab_settings, value, KEY_TEXT),
	KEY(struct ab_settings, arms, KEY_WORDS),
	KEY(struct ab_settings, interleave, KEY_TEXT),
};

static const struct key ab_rounds_keys[] = {
	KEY(struct ab_settings, repetitions, KEY_COUNT),
	KEY(struct ab_settings, budget_s, KEY_REAL),
	KEY(struct ab_settings, target_batch_ns, KEY_REAL),
	KEY(struct ab_settings, cpu, KEY_COUNT),
};

json_t *ab_settings_json(const struct ab_settings *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "mode", json_string("ab"));
	encode_keys(o, s, ab_keys, ARRAY_SIZE(ab_keys));
	/* What compare's readers are told of the rounds: the arms alternate. */
	json_object_set_new(o, "order", json_string("A B B A ..."));
	encode_keys(o, s, ab_rounds_keys, ARRAY_SIZE(ab_rounds_keys));
	return o;
}

/* ---- timens ---------------------------------------------------------- */

/* The largest offset that is a count of ns in an int64_t (2^63 ns). */
#define TIMENS_OFFSET_MAX_S 9.2e9

static const struct key timens_keys[] = {
	KEY(struct timens_settings, side, KEY_TEXT),
	KEY(struct timens_settings, interleave, KEY_TEXT),
	KEY(struct timens_settings, paired_with, KEY_TEXT),
	KEY(struct timens_settings, repetitions, KEY_COUNT),
	KEY(struct timens_settings, cpu, KEY_COUNT),
	KEY(struct timens_settings, budget_s, KEY_REAL),
	KEY(struct timens_settings, target_batch_ns, KEY_REAL),
	KEY(struct timens_settings, boundary_ns, KEY_REAL),
};

/* After "order" and "offsets", where timens has always stored it. */
static const struct key timens_nested_keys[] = {
	KEY(struct timens_settings, nested, KEY_FLAG),
};

json_t *timens_settings_json(const struct timens_settings *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "mode", json_string("timens"));
	encode_keys(o, s, timens_keys, ARRAY_SIZE(timens_keys));
	json_object_set_new(o, "order", json_string("host, timens, timens, host, ..."));
	json_object_set_new(o, "offsets", s->offsets_known ?
			    timens_offsets_to_json(&s->offsets) : json_null());
	encode_keys(o, s, timens_nested_keys, ARRAY_SIZE(timens_nested_keys));
	return o;
}

static void timens_decode(const json_t *c, struct timens_settings *s)
{
	const json_t *off = json_member(c, "offsets");
	double mono = json_number_at(off, "monotonic_s"), boot = json_number_at(off, "boottime_s");

	decode_keys(c, s, timens_keys, ARRAY_SIZE(timens_keys));
	decode_keys(c, s, timens_nested_keys, ARRAY_SIZE(timens_nested_keys));
	/* As ns in an int64_t: within about 292 years either way. */
	s->offsets_known = fabs(mono) < TIMENS_OFFSET_MAX_S && fabs(boot) < TIMENS_OFFSET_MAX_S;
	if (s->offsets_known)
		s->offsets = (struct timens_offsets){ .monotonic_ns = llround(mono * 1e9),
						      .boottime_ns = llround(boot * 1e9) };
}

/* ---- exec ------------------------------------------------------------ */

static const struct key exec_keys[] = {
	KEY(struct exec_settings, command, KEY_WORDS),
	KEY(struct exec_settings, command_line, KEY_TEXT),
	KEY(struct exec_settings, shell, KEY_FLAG),
	KEY(struct exec_settings, prepare, KEY_TEXT),
	KEY(struct exec_settings, runs, KEY_COUNT),
	KEY(struct exec_settings, warmup, KEY_COUNT),
	KEY(struct exec_settings, ignore_failure, KEY_FLAG),
	KEY(struct exec_settings, show_output, KEY_FLAG),
	KEY(struct exec_settings, program, KEY_TEXT),
	KEY(struct exec_settings, harness_wall_median_s, KEY_REAL),
};

/* With several commands: written when interleave is. */
static const struct key exec_interleave_keys[] = {
	KEY(struct exec_settings, interleave, KEY_TEXT),
	KEY(struct exec_settings, commands, KEY_WORDS),
	KEY(struct exec_settings, order, KEY_TEXT),
	KEY(struct exec_settings, seed, KEY_COUNT_IF),
};

/* With --parameter: written when value is. */
static const struct key exec_parameter_keys[] = {
	KEY(struct exec_settings, parameter, KEY_TEXT),
	KEY(struct exec_settings, value, KEY_TEXT),
};

json_t *exec_settings_json(const struct exec_settings *s)
{
	json_t *o = json_object();

	encode_keys(o, s, exec_keys, ARRAY_SIZE(exec_keys));
	add_accounting(o, s->accounting);
	if (s->interleave)
		encode_keys(o, s, exec_interleave_keys, ARRAY_SIZE(exec_interleave_keys));
	if (s->value)
		encode_keys(o, s, exec_parameter_keys, ARRAY_SIZE(exec_parameter_keys));
	return o;
}

static void exec_decode(const json_t *c, struct exec_settings *s)
{
	decode_keys(c, s, exec_keys, ARRAY_SIZE(exec_keys));
	decode_keys(c, s, exec_interleave_keys, ARRAY_SIZE(exec_interleave_keys));
	decode_keys(c, s, exec_parameter_keys, ARRAY_SIZE(exec_parameter_keys));
}

/* ---- scale ----------------------------------------------------------- */

static const struct key scale_keys[] = {
	KEY(struct scale_settings, ncpus, KEY_COUNT),
};

static const struct key scale_threads_keys[] = {
	KEY(struct scale_settings, calls, KEY_COUNT),
	KEY(struct scale_settings, repetitions, KEY_COUNT),
	KEY(struct scale_settings, series, KEY_TEXT),
};

static const struct key scale_idle_keys[] = {
	KEY(struct scale_settings, cpu, KEY_COUNT),
	KEY(struct scale_settings, budget_s, KEY_REAL),
	KEY(struct scale_settings, target_batch_ns, KEY_REAL),
	KEY(struct scale_settings, rounds, KEY_COUNT),
	KEY(struct scale_settings, boundary_ns, KEY_REAL),
};

static json_t *cpu_time_json(const struct scale_settings *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->ncpu_time; i++) {
		const struct run_cpu_time *t = &s->cpu_time[i];

		json_array_append_new(a, json_pack("{s:s?, s:s?, s:o, s:o}",
			"name", t->cell, "path", t->path,
			"user_s", json_numbers(t->user_s, t->n),
			"sys_s", json_numbers(t->sys_s, t->n)));
	}
	return a;
}

json_t *scale_settings_json(const struct scale_settings *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "mode", json_string(s->idle ? "idle" : "threads"));
	json_object_set_new(o, s->idle ? "idle_threads" : "threads", json_counts(s->threads.count, s->threads.n));
	encode_keys(o, s, scale_keys, ARRAY_SIZE(scale_keys));
	if (s->idle) {
		encode_keys(o, s, scale_idle_keys, ARRAY_SIZE(scale_idle_keys));
		if (s->core_cycles)
			json_object_set_new(o, "core_cycles", core_cycles_json(s->core_cycles));
		return o;
	}
	encode_keys(o, s, scale_threads_keys, ARRAY_SIZE(scale_threads_keys));
	json_object_set_new(o, "cpu_time", cpu_time_json(s));
	add_accounting(o, s->accounting);
	return o;
}

/* "cpu_time": [{"name", "path", "user_s": [..], "sys_s": [..]}, ..]; a cell
 * whose two lists differ in length has none (user_s and sys_s NULL). */
static void cpu_time_decode(const json_t *c, struct scale_settings *s)
{
	const json_t *a = json_member(c, "cpu_time"), *e;
	struct run_cpu_time *t;
	size_t i;

	if (!json_array_size(a))
		return;
	s->cpu_time = t = xcalloc(json_array_size(a), sizeof(*t));
	s->ncpu_time = json_array_size(a);
	json_array_foreach(a, i, e) {
		const json_t *user = json_member(e, "user_s");
		const json_t *sys = json_member(e, "sys_s");

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
	decode_keys(c, s, scale_keys, ARRAY_SIZE(scale_keys));
	decode_keys(c, s, scale_threads_keys, ARRAY_SIZE(scale_threads_keys));
	decode_keys(c, s, scale_idle_keys, ARRAY_SIZE(scale_idle_keys));
	cpu_time_decode(c, s);
}

/* ---- a boot of kernels (environment.vm) ------------------------------- */

static const struct key boot_keys[] = {
	KEY(struct run_boot, kernel_name, KEY_TEXT),
	KEY(struct run_boot, image, KEY_TEXT),
	KEY(struct run_boot, accel, KEY_TEXT),
	KEY(struct run_boot, qemu, KEY_TEXT),
	KEY(struct run_boot, cpus, KEY_COUNT),
	KEY(struct run_boot, memory_mb, KEY_COUNT),
	KEY(struct run_boot, boot_wall_s, KEY_REAL),
	KEY(struct run_boot, boot, KEY_COUNT),
	KEY(struct run_boot, position, KEY_COUNT),
	KEY(struct run_boot, emulated, KEY_FLAG),
	KEY(struct run_boot, booted_as, KEY_TEXT_IF),
	KEY(struct run_boot, arch, KEY_TEXT),
	KEY(struct run_boot, accel_reason, KEY_TEXT_EMPTY),
	KEY(struct run_boot, append, KEY_TEXT_EMPTY),
	KEY(struct run_boot, kernel_append, KEY_TEXT_EMPTY),
	KEY(struct run_boot, exact, KEY_FLAG_IF),
	KEY(struct run_boot, icount, KEY_TEXT_IF),
	KEY(struct run_boot, guest, KEY_VALUE),
	KEY(struct run_boot, campaign, KEY_TEXT),
	KEY(struct run_boot, guest_argv, KEY_WORDS_IF),
};

json_t *run_boot_json(const struct run_boot *b)
{
	json_t *o = json_object();

	encode_keys(o, b, boot_keys, ARRAY_SIZE(boot_keys));
	return o;
}

void run_boot_decode(const json_t *env, struct run_boot *b)
{
	const json_t *vm = json_member(env, "vm");

	memset(b, 0, sizeof(*b));
	b->booted = json_is_object(vm);
	decode_keys(vm, b, boot_keys, ARRAY_SIZE(boot_keys));
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
	const json_t *acct = json_member(c, "cpu_accounting");
	const json_t *below = json_member(acct, "estimate_below_s");

	memset(s, 0, sizeof(*s));
	s->accounting_known = cpu_accounting_from_json(acct, &s->accounting);
	s->accounting_sampled = json_true_at(acct, "sampled");
	s->estimate_below_s = json_is_number(below) ? json_number_value(below) : 0;
	bench_decode(c, &s->bench);
	decode_keys(c, &s->hotplug, hotplug_keys, ARRAY_SIZE(hotplug_keys));
	doctor_decode(c, &s->doctor);
	decode_keys(c, &s->ab, ab_keys, ARRAY_SIZE(ab_keys));
	decode_keys(c, &s->ab, ab_rounds_keys, ARRAY_SIZE(ab_rounds_keys));
	timens_decode(c, &s->timens);
	exec_decode(c, &s->exec);
	scale_decode(c, &s->scale);
	s->core_cycles_known = core_cycles_decode(c, &s->core_cycles);
	/* The commands that record them point at the one copy decoded. */
	if (s->accounting_known)
		s->hotplug.accounting = s->exec.accounting = s->scale.accounting =
			&s->accounting;
	if (s->core_cycles_known)
		s->bench.core_cycles = s->scale.core_cycles = &s->core_cycles;
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
