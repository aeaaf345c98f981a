// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/sides.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/compare.h"
#include "results/run-facts.h"

/* A fact of one run, in words, into out; nothing when the run does not say. */
struct fact_def {
	const char *name;
	void (*read)(const struct stored_run *r, struct strbuf *out);
};

static void add(struct strbuf *out, const char *s)
{
	if (s)
		strbuf_adds(out, s);
}

/* Hardware, or which emulator: a TCG timing is an emulator's, not a machine's. */
static void read_emulation(const struct stored_run *r, struct strbuf *out)
{
	const struct run_facts *f = run_facts(r);

	const struct run_boot *b = &f->boot;

	if (!b->booted) {
		if (json_is_object(r->env))
			strbuf_adds(out, "not emulated");
	} else if (b->emulated) {
		strbuf_addf(out, "EMULATED (qemu %s)", b->accel ? b->accel : "tcg");
	} else {
		strbuf_addf(out, "qemu %s", b->accel ? b->accel : "?");
	}
}

static void read_clocksource(const struct stored_run *r, struct strbuf *out)
{
	add(out, run_facts(r)->clocksource);
}

static void read_hypervisor(const struct stored_run *r, struct strbuf *out)
{
	add(out, run_facts(r)->hypervisor);
}

static void read_cpu_model(const struct stored_run *r, struct strbuf *out)
{
	add(out, run_facts(r)->cpu_model);
}

/* timens's namespace side, or a run started inside a namespace. */
static void read_time_namespace(const struct stored_run *r, struct strbuf *out)
{
	const struct run_facts *f = run_facts(r);

	if (f->settings.timens.side && streq(f->settings.timens.side, "timens"))
		strbuf_adds(out, "inside one");
	else if (f->time_namespace_known)
		strbuf_adds(out, f->in_time_namespace ? "inside one" : "none");
}

/* hotplug's: its per-state figures come from tracepoints that cost time. */
static void read_tracing(const struct stored_run *r, struct strbuf *out)
{
	int trace = run_facts(r)->settings.hotplug.trace;

	if (trace >= 0)
		strbuf_adds(out, trace ? "on" : "off");
}

static bool time_option(const char *word, size_t len)
{
	static const char *const prefixes[] = {
		"tsc=", "clocksource=", "clocksource.", "nohz", "notsc", "hpet=",
		"nohpet", "highres=", "no_timer_check", "lapic_timer", "kvm-clock",
		"no-kvmclock", "time_ns", "isolcpus=", "idle=",
	};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (len >= strlen(prefixes[i]) && !strncmp(word, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The words of the kernel's command line that touch time, in order. */
static void read_time_options(const struct stored_run *r, struct strbuf *out)
{
	const char *s = run_facts(r)->cmdline;

	if (!s)
		return;
	while (*s) {
		size_t len = strcspn(s, " \t\n");

		/* Past "--": init's arguments, not the kernel's. */
		if (len == 2 && !strncmp(s, "--", 2))
			break;
		if (time_option(s, len))
			strbuf_addf(out, "%s%.*s", out->len ? " " : "", (int)len, s);
		s += len;
		s += strspn(s, " \t\n");
	}
	if (!out->len)
		strbuf_adds(out, "none");
}

static void read_libc(const struct stored_run *r, struct strbuf *out)
{
	const struct run_facts *f = run_facts(r);

	add(out, f->libc_name);
	if (out->len && f->libc_version)
		strbuf_addf(out, " %s", f->libc_version);
}

static const struct fact_def facts[] = {
	{ "timings", read_emulation },
	{ "clocksource", read_clocksource },
	{ "hypervisor", read_hypervisor },
	{ "CPU model", read_cpu_model },
	{ "time namespace", read_time_namespace },
	{ "tracing", read_tracing },
	{ "kernel time options", read_time_options },
	{ "libc", read_libc },
};

/*
 * The fact of a group: its runs' value when they agree, "mixed: a, b"
 * when they do not (at most the first two named), NULL when no run says.
 */
static char *group_fact(const struct compare_group *g, const struct fact_def *f)
{
	struct strbuf first = STRBUF_INIT, other = STRBUF_INIT;
	bool mixed = false;

	for (size_t k = 0; k < g->nruns && !mixed; k++) {
		struct strbuf one = STRBUF_INIT;

		f->read(&g->runs[k], &one);
		if (one.len && !first.len)
			strbuf_adds(&first, one.buf);
		else if (one.len && !streq(one.buf, first.buf)) {
			strbuf_adds(&other, one.buf);
			mixed = true;
		}
		strbuf_release(&one);
	}
	if (mixed) {
		struct strbuf both = STRBUF_INIT;

		strbuf_addf(&both, "mixed: %s, %s", first.buf, other.buf);
		strbuf_release(&first);
		strbuf_release(&other);
		return strbuf_detach(&both);
	}
	strbuf_release(&other);
	if (!first.len) {
		strbuf_release(&first);
		return NULL;
	}
	return strbuf_detach(&first);
}

bool clocksource_read_by_vdso(const char *cs)
{
	static const char *const by_kernel[] = {
		"hpet", "acpi_pm", "jiffies", "refined-jiffies", "pit",
	};

	for (size_t i = 0; cs && i < ARRAY_SIZE(by_kernel); i++)
		if (streq(cs, by_kernel[i]))
			return false;
	return true;
}

/* A clocksource only one side's vDSO can read: the vdso cells' whole change. */
static char *explain(const struct side_difference *d)
{
	const char *slow;
	struct strbuf sb = STRBUF_INIT;

	if (!streq(d->fact, "clocksource") ||
	    clocksource_read_by_vdso(d->base) == clocksource_read_by_vdso(d->other))
		return NULL;
	slow = clocksource_read_by_vdso(d->base) ? d->other : d->base;
	strbuf_addf(&sb, "The clocksource %s is read by the kernel, not the vDSO: on the side that "
		    "ran on it a vdso cell enters the kernel, which alone can explain "
		    "the vdso cells' change", slow);
	return strbuf_detach(&sb);
}

void sides_differ(const struct compare_group *base, const struct compare_group *other,
		  struct side_differences *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ARRAY_SIZE(facts); i++) {
		char *b = group_fact(base, &facts[i]), *o = group_fact(other, &facts[i]);
		struct side_difference *d;

		if (!b || !o || streq(b, o)) {
			free(b);
			free(o);
			continue;
		}
		grow_array((void **)&out->items, &cap, out->n + 1, sizeof(*out->items));
		d = &out->items[out->n++];
		*d = (struct side_difference){ .fact = facts[i].name, .base = b, .other = o };
		if (!out->explains)
			out->explains = explain(d);
	}
}

void side_differences_free(struct side_differences *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].base);
		free(d->items[i].other);
	}
	free(d->items);
	free(d->explains);
	memset(d, 0, sizeof(*d));
}
