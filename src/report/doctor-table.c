// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/doctor-table.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/util.h"

/* ---- the table --------------------------------------------------------- */

/* A cost per call: "24.2 ns", written as the figure; NaN: missing. */
static void add_ns(struct table *t, double ns)
{
	char buf[48];

	figure_fixed(buf, sizeof(buf) - 3, ns, 1);
	table_add_real_shown(t, ns, strcat(buf, " ns"));
}

/*
 * The findings, one line a finding (scripts read --quiet's): no titles,
 * the cause last, with the userspace call that would do the same.
 */
static struct table *findings_table(void)
{
	struct table *t = table_new();

	table_add_column(t, "ns_per_call", "cost", TABLE_REAL, NULL);
	table_add_text_columns(t, "severity", "name", "path", "verdict",
			       "cause", NULL);
	table_set_titles(t, false);
	return t;
}

static void add_finding(struct table *t, const struct doctor_report_finding *f)
{
	_cleanup_strbuf_ struct strbuf cause = STRBUF_INIT;
	char eq[48];

	add_ns(t, f->ns);
	table_add_text(t, f->severity);
	table_add_text(t, f->cell->name);
	table_add_text(t, f->path);
	table_add_text(t, f->verdict);
	strbuf_adds(&cause, f->cause_label);
	if (f->equiv) {
		figure_fixed(eq, sizeof(eq), f->equiv_ns, 1);
		strbuf_addf(&cause, "; in userspace: %s %s %s%s", f->equiv->name,
			    catalog_paths[f->equiv->path], eq,
			    isfinite(f->equiv_ns) ? " ns" : "");
	}
	table_add_text(t, cause.buf);
}

/* The findings (only the problems when only is true). */
static void print_findings(FILE *out, const struct doctor_report *d, bool only)
{
	struct table *t = findings_table();

	for (size_t i = 0; i < d->nfindings; i++)
		if (!only || d->findings[i].problem)
			add_finding(t, &d->findings[i]);
	if (table_rows(t))
		table_print(out, t, FORMAT_TABLE);
	table_free(t);
}

static void print_headline(FILE *out, const struct doctor_report *d)
{
	size_t n = d->userspace + d->kernel + d->unsupported + d->unknown;

	if (d->healthy)
		fprintf(out, "clockbench doctor: healthy: every hres and coarse clock read "
			"checked is served in userspace\n");
	else
		fprintf(out, "clockbench doctor: %zu problem%s: hres or coarse clock reads "
			"enter the kernel\n", d->problems, d->problems == 1 ? "" : "s");
	fprintf(out, "%zu calls checked: %zu userspace, %zu kernel, %zu unsupported",
		n, d->userspace, d->kernel, d->unsupported);
	if (d->unknown)
		fprintf(out, ", %zu unknown (probe failed)", d->unknown);
	fprintf(out, "; %zu problems, %zu findings, %zu notes; %.1f s\n",
		d->problems, d->findings_count, d->notes, d->elapsed_s);
}

static void print_details(FILE *out, const struct doctor_report *d)
{
	fprintf(out, "\ndetails:\n");
	for (size_t i = 0; i < d->nfindings; i++) {
		const struct doctor_report_finding *f = &d->findings[i];

		fprintf(out, "%s %s: %s: %s\n", f->cell->name, f->path, f->verdict,
			f->observed);
		fprintf(out, "    cause: %s: %s\n", f->cause_label, f->evidence);
		if (f->advice[0])
			fprintf(out, "    advice: %s\n", f->advice);
	}
}

/* A list under a heading of its own: no titles, indented. */
static struct table *listed(struct table *t)
{
	table_set_titles(t, false);
	table_set_indent(t, 2);
	return t;
}

static void print_verdicts(FILE *out, const struct doctor_report *d)
{
	struct table *t = listed(table_new());

	table_add_text_columns(t, "name", "path", "verdict", "cause", NULL);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct doctor_report_cell *r = &d->cells[i];
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		if (r->kernel)
			strbuf_addf(&why, "%s: %s", r->syscalls, r->cause_label);
		else
			strbuf_adds(&why, r->error[0] ? r->error : "-");
		table_add_text(t, r->cell->name);
		table_add_text(t, catalog_paths[r->cell->path]);
		table_add_text(t, r->verdict);
		table_add_text(t, why.buf);
	}
	fprintf(out, "\nverdicts:\n");
	table_print(out, t, FORMAT_TABLE);
	table_free(t);
}

static void print_static(FILE *out, const struct doctor_report_static *s)
{
	struct table *t;

	fprintf(out, "\nstatic binaries: ");
	if (!s->ran) {
		fprintf(out, "not checked: %s\n", s->skip_reason);
		return;
	}
	fprintf(out, "%s (%s, vDSO %s)\n", s->path, s->libc,
		s->vdso ? "present" : "absent");
	t = listed(table_new());
	table_add_text_columns(t, "name", "verdict", NULL);
	table_add_column(t, "ns_per_call", "cost", TABLE_REAL, NULL);
	table_add_column(t, "syscalls", NULL, TABLE_TEXT, NULL);
	for (size_t i = 0; i < s->n; i++) {
		table_add_text(t, s->results[i].name);
		table_add_text(t, s->results[i].verdict);
		add_ns(t, s->results[i].ns);
		table_add_text(t, s->results[i].syscalls);
	}
	if (table_rows(t))
		table_print(out, t, FORMAT_TABLE);
	table_free(t);
}

static void print_facts(FILE *out, const struct doctor_report *d)
{
	const struct doctor_report_facts *f = &d->facts;
	const char *how = f->clocksource_rule;
	bool seen_userspace = streq(f->vdso_monotonic, "userspace");

	fprintf(out, "\nenvironment:\n");
	env_print(d->env, out, "# ");
	fprintf(out, "# clocksource vDSO-capable: %s%s%s", f->clocksource_vdso,
		how ? ": " : "", how ? how : "");
	if (seen_userspace || streq(f->vdso_monotonic, "kernel"))
		fprintf(out, "; here the vDSO's CLOCK_MONOTONIC is %s",
			seen_userspace ? "served in userspace" : "a system call");
	fprintf(out, "\n");
	if (f->tsc_hint[0])
		fprintf(out, "# tsc: %s\n", f->tsc_hint);
	fprintf(out, "# binary: %s\n", f->static_binary ? "static" : "dynamic");
}

void doctor_table_print(FILE *out, const struct doctor_report *d)
{
	if (d->quiet) {
		print_findings(out, d, true);
		return;
	}
	print_headline(out, d);
	if (d->nfindings) {
		fprintf(out, "\nfindings, costliest first:\n");
		print_findings(out, d, false);
		print_details(out, d);
	}
	print_verdicts(out, d);
	print_static(out, &d->stat);
	print_facts(out, d);
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *syscalls_json(const char *list)
{
	json_t *arr = json_array();
	_cleanup_free_ char **names = split_list(list, NULL);

	for (char **n = names; *n; n++)
		json_array_append_new(arr, json_string(*n));
	return arr;
}

static json_t *finding_json(const struct doctor_report_finding *f)
{
	json_t *eq = json_null();

	if (f->equiv)
		eq = json_pack("{s:s, s:s, s:o}", "name", f->equiv->name,
			       "path", catalog_paths[f->equiv->path], "ns_per_call",
			       json_number(f->equiv_ns));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
			 "name", f->cell->name, "path", f->path,
			 "severity", f->severity,
			 "verdict", f->verdict,
			 "cause", f->cause,
			 "cause_label", f->cause_label,
			 "observed", f->observed, "evidence", f->evidence,
			 "advice", f->advice, "ns_per_call", json_number(f->ns),
			 "userspace_equivalent", eq);
}

static json_t *row_json(const struct doctor_report_cell *r)
{
	const struct cell *c = r->cell;

	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:s, s:I, s:I, s:o, s:s}",
			 "name", c->name, "api", catalog_apis[c->api].name,
			 "clock", c->clock ? json_string(c->clock->name) : json_null(),
			 "path", catalog_paths[c->path],
			 "verdict", r->verdict,
			 "cause", r->cause,
			 "severity", r->severity,
			 "calls", (json_int_t)r->calls,
			 "kernel_entries", (json_int_t)r->entries,
			 "syscalls", syscalls_json(r->syscalls),
			 "reason", r->error);
}

static json_t *facts_json(const struct doctor_report_facts *f)
{
	json_t *exports = json_object(), *interposed = json_object();

	for (int api = 0; api < API_COUNT; api++) {
		/* The time64 calls are APIs of their own on 32-bit builds only. */
		if (!catalog_api_here(api))
			continue;
		json_object_set_new(exports, catalog_apis[api].name,
				    json_boolean(f->vdso_exports[api]));
		if (f->interposer[api][0])
			json_object_set_new(interposed, catalog_apis[api].name,
					    json_string(f->interposer[api]));
	}
	return json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s, s:{s:b, s:s, s:o}, "
			 "s:{s:s, s:s}, s:b, s:b, s:o}",
			 "clocksource", f->clocksource,
			 "available_clocksources", f->clocksources,
			 "clocksource_vdso", f->clocksource_vdso,
			 "clocksource_rule", f->clocksource_rule,
			 "vdso_monotonic", f->vdso_monotonic,
			 "tsc_hint", f->tsc_hint,
			 "vdso", "available", f->have_vdso, "error", f->vdso_error,
			 "exports", exports,
			 "libc", "name", f->libc_name, "version", f->libc_version,
			 "static_binary", f->static_binary,
			 "time_namespace", f->in_timens,
			 "interposed", interposed);
}

static json_t *static_json(const struct doctor_report_static *s)
{
	json_t *results = json_array();

	for (size_t i = 0; i < s->n; i++) {
		const struct doctor_report_static_result *r = &s->results[i];

		json_array_append_new(results, json_pack(
			"{s:s, s:s, s:f, s:o}", "name", r->name,
			"verdict", r->verdict, "ns_per_call", r->ns,
			"syscalls", syscalls_json(streq(r->syscalls, "-") ? "" : r->syscalls)));
	}
	return json_pack("{s:b, s:s, s:s, s:s, s:b, s:o}", "ran", s->ran,
			 "path", s->path, "skip_reason", s->skip_reason,
			 "libc", s->libc, "vdso", s->vdso, "results", results);
}

int doctor_json_print(FILE *out, const struct doctor_report *d)
{
	json_t *findings = json_array(), *cells = json_array(), *root;

	for (size_t i = 0; i < d->nfindings; i++) {
		if (!d->quiet || d->findings[i].problem)
			json_array_append_new(findings, finding_json(&d->findings[i]));
	}
	for (size_t i = 0; i < d->ncells; i++)
		json_array_append_new(cells, row_json(&d->cells[i]));
	root = json_pack("{s:b, s:i, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:o, s:o, "
			 "s:o, s:o, s:o, s:f}",
			 "healthy", d->healthy, "exit_status", d->exit_status,
			 "summary",
			 "userspace", (json_int_t)d->userspace,
			 "kernel", (json_int_t)d->kernel,
			 "unsupported", (json_int_t)d->unsupported,
			 "unknown", (json_int_t)d->unknown,
			 "problems", (json_int_t)d->problems,
			 "findings", (json_int_t)d->findings_count,
			 "notes", (json_int_t)d->notes,
			 "findings", findings, "cells", cells,
			 "facts", facts_json(&d->facts),
			 "static_probe", static_json(&d->stat),
			 "environment", env_to_json(d->env),
			 "elapsed_s", d->elapsed_s);
	if (!root)
		return -1;
	json_print(out, root);
	json_decref(root);
	return 0;
}
