// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench doctor: for every time call, prove whether it enters the
 * kernel (a seccomp trap in a child), say why when it does, what it costs
 * next to the call that does the same job in userspace, and what to do.
 * Exit status 3 when an hres or coarse clock read enters the kernel, so that
 * a fleet can run it as a health check; the verdicts are saved as a run, so
 * that `clockbench runs --command doctor --problems` lists the fleet's
 * hosts whose clocks fall back to the kernel.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "basic/options.h"
#include "builtin/builtin.h"
#include "cli/cell-filter.h"
#include "probe/catalog.h"
#include "probe/cycles.h"
#include "doctor/doctor.h"
#include "probe/env.h"
#include "results/record.h"
#include "report/output.h"
#include "probe/timing.h"
#include "basic/util.h"

static const struct command_usage doctor_usage = {
	.name = "doctor",
	.description =
	"Prove, for every time API, clock and path, whether the call enters the\n"
	"kernel: each call runs in a child under a seccomp filter that traps the\n"
	"API's system calls (no root needed). Every kernel verdict of the vdso and\n"
	"libc paths gets a cause with its evidence, its cost in ns per call next\n"
	"to the userspace equivalent, and advice.",
	.footer =
	"Exit status: 0 when every hres and coarse clock read (clock_gettime,\n"
	"gettimeofday, time) is served in userspace through the vdso and libc\n"
	"paths; 3 when one enters the kernel; 1 when a call could not be probed;\n"
	"2 on a usage error.",
};

static const char *const doctor_formats[] = { "table", "json", NULL };

enum doctor_format { DOCTOR_TABLE, DOCTOR_JSON };

struct doctor_options {
	struct catalog_filter filter;
	int format;		/* enum doctor_format */
	bool quiet;
	bool no_cost;
	struct store_options store;
};

/* One cell of the catalog with what doctor found out about it. */
struct doctor_row {
	const struct cell *cell;
	struct doctor_probe probe;
	enum doctor_cause cause;
	enum doctor_severity severity;
	bool selected;		/* passes --api/--clock/--path */
	bool measured;
	double ns;		/* median ns per call, when measured */
};

/* A line of the summary: a kernel verdict (or a note) and its story. */
struct finding {
	struct doctor_row *row;		/* the cell, or the libc cell of a
					 * static-probe result */
	const struct doctor_static_result *stat;	/* static probe, or NULL */
	const char *path;
	enum doctor_verdict verdict;
	enum doctor_severity severity;
	enum doctor_cause cause;
	char evidence[768];
	char advice[640];
	char observed[160];
	double ns;			/* NAN: not measured */
	struct doctor_row *equiv;	/* userspace equivalent, or NULL */
};

struct doctor_ctx {
	struct doctor_options opt;
	struct catalog cat;
	struct env_info env;
	struct doctor_facts facts;
	struct doctor_static stat;
	struct doctor_row *rows;
	size_t nrows;
	struct finding *findings;
	size_t nfindings, findings_cap;
	size_t verdicts[VERDICT_UNKNOWN + 1];	/* over the selected rows */
	size_t by_severity[SEVERITY_PROBLEM + 1];
	double elapsed_s;
};

/* ---- options -------------------------------------------------------- */

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_doctor_options(int argc, char **argv, struct doctor_options *o)
{
	struct option_def options[] = {
		CELL_FILTER_OPTIONS(&o->filter,
			"APIs: clock_gettime, clock_getres, gettimeofday, time,\n"
			"getcpu, getrandom, times, getrusage (default: all)",
			"clocks by name (monotonic, realtime-coarse, ...) or id",
			"vdso, libc, syscall (default: all)"),
		OPT_FORMAT(0, &o->format, doctor_formats,
			   "table or json (default table)"),
		OPT_BOOL('q', "quiet", &o->quiet, "print only the problems, one line each"),
		OPT_BOOL(0, "no-cost", &o->no_cost,
			 "classify only; do not measure the cost of findings"),
		STORE_SAVE_OPTIONS(&o->store),
		OPT_END(),
	};
	int n;

	catalog_filter_all(&o->filter);
	n = parse_options(argc, argv, &doctor_usage, options, 0);
	if (n < 0)
		return n;
	if (n > 0)
		return options_fail("unexpected argument '%s'", argv[0]);
	return 0;
}

/* ---- observing and explaining --------------------------------------- */

static bool row_selected(const struct catalog_filter *f, const struct cell *c)
{
	return f->api[c->api] && f->path[c->path] && (!c->clock || f->clock[c->clock->id]);
}

static struct doctor_row *find_row(struct doctor_ctx *d, enum api api,
				   const struct clock_info *clock, enum path path)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cell *c = d->rows[i].cell;

		if (c->api == api && c->clock == clock && c->path == path)
			return &d->rows[i];
	}
	return NULL;
}

static struct doctor_row *find_row_by_name(struct doctor_ctx *d, const char *name,
					   enum path path)
{
	for (size_t i = 0; i < d->nrows; i++) {
		if (streq(d->rows[i].cell->name, name) && d->rows[i].cell->path == path)
			return &d->rows[i];
	}
	return NULL;
}

/* Every cell is probed, selected or not: equivalents need verdicts too. */
static void probe_all(struct doctor_ctx *d)
{
	d->nrows = d->cat.ncells;
	d->rows = xcalloc(d->nrows, sizeof(*d->rows));
	for (size_t i = 0; i < d->nrows; i++) {
		struct doctor_row *r = &d->rows[i];

		r->cell = &d->cat.cells[i];
		r->selected = row_selected(&d->opt.filter, r->cell);
		doctor_probe_cell(r->cell, &r->probe);
	}
}

static void explain_all(struct doctor_ctx *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		struct doctor_row *r = &d->rows[i];
		const struct cell *c = r->cell;
		struct doctor_row *v = find_row(d, c->api, c->clock, PATH_VDSO);
		enum doctor_verdict vdso_v = v ? v->probe.verdict : VERDICT_UNKNOWN;

		r->cause = doctor_attribute(c, r->probe.verdict, vdso_v, &d->facts);
		r->severity = doctor_severity(c, r->probe.verdict, r->cause);
		if (r->selected)
			d->verdicts[r->probe.verdict]++;
	}
}

static struct finding *new_finding(struct doctor_ctx *d, struct doctor_row *r,
				   enum doctor_cause cause, enum doctor_severity sev)
{
	struct finding *f;

	grow_array((void **)&d->findings, &d->findings_cap, d->nfindings + 1,
		   sizeof(*d->findings));
	f = &d->findings[d->nfindings++];
	memset(f, 0, sizeof(*f));
	f->row = r;
	f->path = catalog_paths[r->cell->path];
	f->verdict = r->probe.verdict;
	f->cause = cause;
	f->severity = sev;
	f->ns = NAN;
	doctor_evidence(f->evidence, sizeof(f->evidence), cause, r->cell, &d->facts);
	doctor_advice(f->advice, sizeof(f->advice), cause, r->cell, &d->facts);
	d->by_severity[sev]++;
	return f;
}

static void describe_observation(struct finding *f)
{
	const struct doctor_probe *p = &f->row->probe;

	if (f->verdict == VERDICT_KERNEL)
		snprintf(f->observed, sizeof(f->observed),
			 "%lu calls made %lu system calls (%s)", p->calls,
			 p->entries, p->syscalls);
	else
		snprintf(f->observed, sizeof(f->observed),
			 "%lu calls made no system call", p->calls);
}

/* The userspace-served call that does the same job, if there is one. */
static struct doctor_row *userspace_equivalent(struct doctor_ctx *d,
					       const struct cell *c,
					       enum doctor_cause cause)
{
	struct doctor_equivalent eq;
	struct doctor_row *r;

	if (!doctor_equivalent(c, cause, &eq))
		return NULL;
	r = find_row(d, eq.api, eq.clock, eq.path);
	return r && r->probe.verdict == VERDICT_USERSPACE ? r : NULL;
}

static void add_cell_findings(struct doctor_ctx *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		struct doctor_row *r = &d->rows[i];
		struct finding *f;

		if (!r->selected || r->severity == SEVERITY_NONE)
			continue;
		f = new_finding(d, r, r->cause, r->severity);
		describe_observation(f);
		f->equiv = userspace_equivalent(d, r->cell, r->cause);
	}
}

/* Inside a time namespace the vDSO is slower but stays in userspace. */
static void add_timens_note(struct doctor_ctx *d)
{
	const struct clock_info *mono = catalog_clock_by_name("monotonic");
	struct doctor_row *r = find_row(d, API_CLOCK_GETTIME, mono, PATH_VDSO);
	struct finding *f;

	if (!d->facts.in_timens || !r || !r->selected ||
	    r->probe.verdict != VERDICT_USERSPACE)
		return;
	f = new_finding(d, r, CAUSE_TIMENS, SEVERITY_NOTE);
	describe_observation(f);
}

/* A static binary's libc entering the kernel: a finding of its own. */
static void add_static_findings(struct doctor_ctx *d)
{
	for (size_t i = 0; i < d->stat.n; i++) {
		const struct doctor_static_result *s = &d->stat.results[i];
		struct doctor_row *r = find_row_by_name(d, s->name, PATH_LIBC);
		struct finding *f;

		if (s->verdict != VERDICT_KERNEL || !r || !r->selected)
			continue;
		f = new_finding(d, r, CAUSE_STATIC, SEVERITY_FINDING);
		f->stat = s;
		f->path = "static-libc";
		f->verdict = s->verdict;
		f->ns = s->ns;
		snprintf(f->observed, sizeof(f->observed), "%s made %s (%s)",
			 DOCTOR_STATIC_PROBE, s->syscalls, d->stat.libc);
		snprintf(f->evidence, sizeof(f->evidence), "a statically linked "
			 "program (%s, vDSO %s) makes the %s system call for %s",
			 d->stat.libc, d->stat.vdso ? "present" : "absent",
			 s->syscalls, s->name);
		f->equiv = r->probe.verdict == VERDICT_USERSPACE ? r : NULL;
	}
}

/* ---- cost ------------------------------------------------------------ */

struct cost_meter {
	struct cycle_counter cc;
	struct timing_config cfg;
	struct timing_calibration cal;
};

static void measure_row(struct cost_meter *m, struct doctor_row *r)
{
	struct cell_result res;

	if (r->measured || r->cell->status != CELL_OK)
		return;
	memset(&res, 0, sizeof(res));
	timing_measure(r->cell, &m->cc, &m->cfg, &m->cal, &res);
	r->ns = res.ns_sum.median;
	r->measured = true;
	cell_result_free(&res);
}

/* The bench engine with its --quick budget, pinned like bench. */
static void measure_findings(struct doctor_ctx *d)
{
	struct cost_meter m;

	if (timing_pin_cpu(timing_default_cpu()) != 0)
		warn_msg("cannot pin to a CPU: %m; costs may be noisy");
	cycles_open(&m.cc, CYCLES_REQ_NONE);
	timing_config_quick(&m.cfg);
	timing_spin(0.02);
	timing_calibrate(&m.cc, &m.cal);
	for (size_t i = 0; i < d->nfindings; i++) {
		struct finding *f = &d->findings[i];

		if (!f->stat) {
			measure_row(&m, f->row);
			f->ns = f->row->ns;
		}
		if (f->equiv)
			measure_row(&m, f->equiv);
	}
	cycles_close(&m.cc);
}

/* Costliest first; unmeasured findings after, the worst severity first. */
static int by_cost(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	bool ma = !isnan(a->ns), mb = !isnan(b->ns);

	if (ma != mb)
		return ma ? -1 : 1;
	if (ma && a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (int)b->severity - (int)a->severity;
}

/* ---- the table --------------------------------------------------------- */

static void format_ns(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f ns", ns);
}

static void print_finding_line(const struct finding *f)
{
	char ns[32], eq[32];

	format_ns(ns, sizeof(ns), f->ns);
	printf("%10s  %-7s  %-30s %-11s %-9s %s", ns,
	       doctor_severity_name(f->severity), f->row->cell->name, f->path,
	       doctor_verdict_name(f->verdict), doctor_cause_label(f->cause));
	if (f->equiv) {
		format_ns(eq, sizeof(eq), f->equiv->measured ? f->equiv->ns : NAN);
		printf("; in userspace: %s %s %s", f->equiv->cell->name,
		       catalog_paths[f->equiv->cell->path], eq);
	}
	printf("\n");
}

static bool is_healthy(const struct doctor_ctx *d)
{
	return d->by_severity[SEVERITY_PROBLEM] == 0;
}

static void print_headline(const struct doctor_ctx *d)
{
	size_t n = 0;

	for (int v = 0; v <= VERDICT_UNKNOWN; v++)
		n += d->verdicts[v];
	if (is_healthy(d))
		printf("clockbench doctor: healthy: every hres and coarse clock read "
		       "checked is served in userspace\n");
	else
		printf("clockbench doctor: %zu problem%s: hres or coarse clock reads "
		       "enter the kernel\n", d->by_severity[SEVERITY_PROBLEM],
		       d->by_severity[SEVERITY_PROBLEM] == 1 ? "" : "s");
	printf("%zu calls checked: %zu userspace, %zu kernel, %zu unsupported",
	       n, d->verdicts[VERDICT_USERSPACE], d->verdicts[VERDICT_KERNEL],
	       d->verdicts[VERDICT_UNSUPPORTED]);
	if (d->verdicts[VERDICT_UNKNOWN])
		printf(", %zu unknown (probe failed)", d->verdicts[VERDICT_UNKNOWN]);
	printf("; %zu problems, %zu findings, %zu notes; %.1f s\n",
	       d->by_severity[SEVERITY_PROBLEM], d->by_severity[SEVERITY_FINDING],
	       d->by_severity[SEVERITY_NOTE], d->elapsed_s);
}

static void print_details(const struct doctor_ctx *d)
{
	printf("\ndetails:\n");
	for (size_t i = 0; i < d->nfindings; i++) {
		const struct finding *f = &d->findings[i];

		printf("%s %s: %s: %s\n", f->row->cell->name, f->path,
		       doctor_verdict_name(f->verdict), f->observed);
		printf("    cause: %s: %s\n", doctor_cause_label(f->cause), f->evidence);
		if (f->advice[0])
			printf("    advice: %s\n", f->advice);
	}
}

static void print_verdicts(const struct doctor_ctx *d)
{
	printf("\nverdicts:\n");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct doctor_row *r = &d->rows[i];
		const struct doctor_probe *p = &r->probe;

		if (!r->selected)
			continue;
		printf("  %-32s %-7s %-11s ", r->cell->name, catalog_paths[r->cell->path],
		       doctor_verdict_name(p->verdict));
		if (p->verdict == VERDICT_KERNEL)
			printf("%s: %s\n", p->syscalls, doctor_cause_label(r->cause));
		else
			printf("%s\n", p->error[0] ? p->error : "-");
	}
}

static void print_static(const struct doctor_static *s)
{
	printf("\nstatic binaries: ");
	if (!s->ran) {
		printf("not checked: %s\n", s->skip_reason);
		return;
	}
	printf("%s (%s, vDSO %s)\n", s->path, s->libc, s->vdso ? "present" : "absent");
	for (size_t i = 0; i < s->n; i++)
		printf("  %-32s %-11s %8.1f ns  %s\n", s->results[i].name,
		       doctor_verdict_name(s->results[i].verdict), s->results[i].ns,
		       s->results[i].syscalls);
}

/* What the vDSO did with CLOCK_MONOTONIC: the clocksource put to the test. */
static enum doctor_verdict vdso_hres_verdict(struct doctor_ctx *d)
{
	const struct doctor_row *r = find_row(d, API_CLOCK_GETTIME,
					      catalog_clock_by_name("monotonic"),
					      PATH_VDSO);

	return r ? r->probe.verdict : VERDICT_UNKNOWN;
}

static void print_facts(struct doctor_ctx *d)
{
	const struct doctor_facts *f = &d->facts;
	const char *how;
	enum clocksource_vdso cap = doctor_clocksource_vdso(f->clocksource, &how);
	enum doctor_verdict seen = vdso_hres_verdict(d);

	printf("\nenvironment:\n");
	env_print(&d->env, stdout, "# ");
	printf("# clocksource vDSO-capable: %s%s%s", doctor_clocksource_vdso_name(cap),
	       how ? ": " : "", how ? how : "");
	if (seen == VERDICT_USERSPACE || seen == VERDICT_KERNEL)
		printf("; here the vDSO's CLOCK_MONOTONIC is %s",
		       seen == VERDICT_USERSPACE ? "served in userspace" :
		       "a system call");
	printf("\n");
	if (f->tsc_hint[0])
		printf("# tsc: %s\n", f->tsc_hint);
	printf("# binary: %s\n", f->static_binary ? "static" : "dynamic");
}

static void print_table(struct doctor_ctx *d)
{
	if (d->opt.quiet) {
		for (size_t i = 0; i < d->nfindings; i++) {
			if (d->findings[i].severity == SEVERITY_PROBLEM)
				print_finding_line(&d->findings[i]);
		}
		return;
	}
	print_headline(d);
	if (d->nfindings) {
		printf("\nfindings, costliest first:\n");
		for (size_t i = 0; i < d->nfindings; i++)
			print_finding_line(&d->findings[i]);
		print_details(d);
	}
	print_verdicts(d);
	print_static(&d->stat);
	print_facts(d);
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

static json_t *finding_json(const struct finding *f)
{
	json_t *eq = json_null();

	if (f->equiv)
		eq = json_pack("{s:s, s:s, s:o}", "name", f->equiv->cell->name,
			       "path", catalog_paths[f->equiv->cell->path], "ns_per_call",
			       json_number(f->equiv->measured ? f->equiv->ns : NAN));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
			 "name", f->row->cell->name, "path", f->path,
			 "severity", doctor_severity_name(f->severity),
			 "verdict", doctor_verdict_name(f->verdict),
			 "cause", doctor_cause_id(f->cause),
			 "cause_label", doctor_cause_label(f->cause),
			 "observed", f->observed, "evidence", f->evidence,
			 "advice", f->advice, "ns_per_call", json_number(f->ns),
			 "userspace_equivalent", eq);
}

static json_t *row_json(const struct doctor_row *r)
{
	const struct cell *c = r->cell;
	const struct doctor_probe *p = &r->probe;

	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:s, s:I, s:I, s:o, s:s}",
			 "name", c->name, "api", catalog_apis[c->api].name,
			 "clock", c->clock ? json_string(c->clock->name) : json_null(),
			 "path", catalog_paths[c->path],
			 "verdict", doctor_verdict_name(p->verdict),
			 "cause", doctor_cause_id(r->cause),
			 "severity", doctor_severity_name(r->severity),
			 "calls", (json_int_t)p->calls,
			 "kernel_entries", (json_int_t)p->entries,
			 "syscalls", syscalls_json(p->syscalls),
			 "reason", p->error);
}

static json_t *facts_json(struct doctor_ctx *d)
{
	const struct doctor_facts *f = &d->facts;
	const char *how;
	enum clocksource_vdso cap = doctor_clocksource_vdso(f->clocksource, &how);
	json_t *exports = json_object(), *interposed = json_object();

	for (int api = 0; api < API_COUNT; api++) {
		/* The time64 calls are APIs of their own on 32-bit builds only. */
		if (!CATALOG_TIME64 && (api == API_CLOCK_GETTIME64 ||
					api == API_CLOCK_GETRES64))
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
			 "clocksource_vdso", doctor_clocksource_vdso_name(cap),
			 "clocksource_rule", how,
			 "vdso_monotonic", doctor_verdict_name(vdso_hres_verdict(d)),
			 "tsc_hint", f->tsc_hint,
			 "vdso", "available", f->have_vdso, "error", f->vdso_error,
			 "exports", exports,
			 "libc", "name", f->libc_name, "version", f->libc_version,
			 "static_binary", f->static_binary,
			 "time_namespace", f->in_timens,
			 "interposed", interposed);
}

static json_t *static_json(const struct doctor_static *s)
{
	json_t *results = json_array();

	for (size_t i = 0; i < s->n; i++) {
		const struct doctor_static_result *r = &s->results[i];

		json_array_append_new(results, json_pack(
			"{s:s, s:s, s:f, s:o}", "name", r->name,
			"verdict", doctor_verdict_name(r->verdict), "ns_per_call", r->ns,
			"syscalls", syscalls_json(streq(r->syscalls, "-") ? "" : r->syscalls)));
	}
	return json_pack("{s:b, s:s, s:s, s:s, s:b, s:o}", "ran", s->ran,
			 "path", s->path, "skip_reason", s->skip_reason,
			 "libc", s->libc, "vdso", s->vdso, "results", results);
}

static int exit_status(const struct doctor_ctx *d)
{
	if (!is_healthy(d))
		return EXIT_PROBLEM;
	return d->verdicts[VERDICT_UNKNOWN] ? 1 : 0;
}

static void print_json(struct doctor_ctx *d)
{
	json_t *findings = json_array(), *cells = json_array(), *root;

	for (size_t i = 0; i < d->nfindings; i++) {
		if (!d->opt.quiet || d->findings[i].severity == SEVERITY_PROBLEM)
			json_array_append_new(findings, finding_json(&d->findings[i]));
	}
	for (size_t i = 0; i < d->nrows; i++) {
		if (d->rows[i].selected)
			json_array_append_new(cells, row_json(&d->rows[i]));
	}
	root = json_pack("{s:b, s:i, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:o, s:o, "
			 "s:o, s:o, s:o, s:f}",
			 "healthy", is_healthy(d), "exit_status", exit_status(d),
			 "summary",
			 "userspace", (json_int_t)d->verdicts[VERDICT_USERSPACE],
			 "kernel", (json_int_t)d->verdicts[VERDICT_KERNEL],
			 "unsupported", (json_int_t)d->verdicts[VERDICT_UNSUPPORTED],
			 "unknown", (json_int_t)d->verdicts[VERDICT_UNKNOWN],
			 "problems", (json_int_t)d->by_severity[SEVERITY_PROBLEM],
			 "findings", (json_int_t)d->by_severity[SEVERITY_FINDING],
			 "notes", (json_int_t)d->by_severity[SEVERITY_NOTE],
			 "findings", findings, "cells", cells,
			 "facts", facts_json(d),
			 "static_probe", static_json(&d->stat),
			 "environment", env_to_json(&d->env),
			 "elapsed_s", d->elapsed_s);
	if (!root)
		fatal("cannot build the JSON report");
	json_print(stdout, root);
	json_decref(root);
}

/* ---- the run --------------------------------------------------------- */

/*
 * A cell per call checked: its cost when measured, its verdict and cause
 * in the reason ("kernel: clocksource"), unsupported ones as such.
 */
static void record_row(struct stored_run *sr, const struct doctor_row *r)
{
	struct stored_cell *c = record_add_cell(sr, r->cell->name, "ns", &r->ns,
						r->measured ? 1 : 0);
	char reason[160];

	free(c->path);
	c->path = xstrdup(catalog_paths[r->cell->path]);
	free(c->api);
	c->api = xstrdup(catalog_apis[r->cell->api].name);
	free(c->clock);
	c->clock = xstrdup(r->cell->clock ? r->cell->clock->name : "");
	if (r->probe.verdict == VERDICT_UNSUPPORTED) {
		free(c->status);
		c->status = xstrdup("unsupported");
	}
	snprintf(reason, sizeof(reason), "%s%s%s", doctor_verdict_name(r->probe.verdict),
		 r->probe.verdict == VERDICT_KERNEL ? ": " : "",
		 r->probe.verdict == VERDICT_KERNEL ? doctor_cause_id(r->cause) : "");
	free(c->reason);
	c->reason = xstrdup(reason);
}

/*
 * What a fleet asks of a doctor run, in its config: the verdict
 * ("healthy" or "problems"), the clocksource, and each problem's cell and
 * cause (its id, as doctor --format json names it, and its words).
 */
static json_t *doctor_config(const struct doctor_ctx *d)
{
	json_t *problems = json_array();

	for (size_t i = 0; i < d->nfindings; i++) {
		const struct finding *f = &d->findings[i];

		if (f->severity == SEVERITY_PROBLEM)
			json_array_append_new(problems, json_pack("{s:s, s:s, s:s, s:s}",
				"cell", f->row->cell->name, "path", f->path,
				"cause", doctor_cause_id(f->cause),
				"why", doctor_cause_label(f->cause)));
	}
	return json_pack("{s:s, s:s, s:o}", "verdict",
			 is_healthy(d) ? "healthy" : "problems",
			 "clocksource", d->facts.clocksource, "problems", problems);
}

static int save_run(const struct doctor_ctx *d, const struct timespec *started)
{
	struct stored_run sr;
	int rc;

	if (d->opt.store.no_save)
		return 0;
	record_begin(&sr, "doctor", &d->opt.store, &d->env, started);
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].selected)
			record_row(&sr, &d->rows[i]);
	sr.config = doctor_config(d);
	record_finish(&sr, d->elapsed_s, false);
	rc = record_save(&d->opt.store, &sr);
	stored_run_free(&sr);
	return rc;
}

/* ---- the command -------------------------------------------------------- */

static void report_probe_failures(const struct doctor_ctx *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct doctor_row *r = &d->rows[i];

		if (r->selected && r->probe.verdict == VERDICT_UNKNOWN) {
			error_msg("cannot probe %s %s: %s", r->cell->name,
				  catalog_paths[r->cell->path], r->probe.error);
			return;	/* one line: the others fail the same way */
		}
	}
}

int cmd_doctor(int argc, char **argv)
{
	struct catalog_filter all;
	struct timespec started;
	struct doctor_ctx d;
	bool stdout_lost;
	uint64_t start;
	int rc;

	memset(&d, 0, sizeof(d));
	rc = parse_doctor_options(argc, argv, &d.opt);
	if (rc < 0)
		return parse_options_status(rc);
	if (record_check(&d.opt.store))
		return 1;
	clock_gettime(CLOCK_REALTIME, &started);
	start = now_ns();
	catalog_filter_all(&all);
	catalog_build(&d.cat, &all);
	env_collect(&d.env, d.cat.have_vdso ? &d.cat.vdso : NULL, d.cat.vdso_error,
		    timing_default_cpu());
	doctor_collect_facts(&d.facts, &d.cat, &d.env);

	probe_all(&d);
	explain_all(&d);
	doctor_run_static_probe(&d.stat);
	add_cell_findings(&d);
	add_static_findings(&d);
	add_timens_note(&d);
	if (!d.opt.no_cost)
		measure_findings(&d);
	if (d.nfindings)
		qsort(d.findings, d.nfindings, sizeof(*d.findings), by_cost);
	d.elapsed_s = (double)(now_ns() - start) / 1e9;

	if (d.opt.format == DOCTOR_JSON)
		print_json(&d);
	else
		print_table(&d);
	/* Before the failures on stderr; main would find it too late. */
	stdout_lost = output_flush_stdout() != 0;
	report_probe_failures(&d);
	rc = exit_status(&d);
	if (stdout_lost && rc == 0)
		rc = 1;
	/* A run not saved fails a healthy check; a problem's 3 stays. */
	if (save_run(&d, &started) && rc == 0)
		rc = 1;

	free(d.findings);
	free(d.rows);
	env_free(&d.env);
	catalog_free(&d.cat);
	return rc;
}
