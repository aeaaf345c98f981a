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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/error.h"
#include "basic/options.h"
#include "builtin/builtin.h"
#include "cli/cell-filter.h"
#include "probe/catalog.h"
#include "probe/cycles.h"
#include "doctor/doctor.h"
#include "probe/env.h"
#include "results/record.h"
#include "results/run-settings.h"
#include "report/doctor-table.h"
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
	n = parse_options(argc, argv, &doctor_usage, options, OPTIONS_NO_ARGS);
	return n < 0 ? n : 0;
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

/* ---- printing ---------------------------------------------------------- */

static bool is_healthy(const struct doctor_ctx *d)
{
	return d->by_severity[SEVERITY_PROBLEM] == 0;
}

/* What the vDSO did with CLOCK_MONOTONIC: the clocksource put to the test. */
static enum doctor_verdict vdso_hres_verdict(struct doctor_ctx *d)
{
	const struct doctor_row *r = find_row(d, API_CLOCK_GETTIME,
					      catalog_clock_by_name("monotonic"),
					      PATH_VDSO);

	return r ? r->probe.verdict : VERDICT_UNKNOWN;
}

static int exit_status(const struct doctor_ctx *d)
{
	if (!is_healthy(d))
		return EXIT_PROBLEM;
	return d->verdicts[VERDICT_UNKNOWN] ? 1 : 0;
}

/* What report/doctor-table.c prints, the engine's words already named. */
struct doctor_printout {
	struct doctor_report rep;
	struct doctor_report_finding *findings;
	struct doctor_report_cell *cells;
	struct doctor_report_static_result stat[DOCTOR_STATIC_MAX];
};

static void name_finding(struct doctor_report_finding *o, const struct finding *f)
{
	*o = (struct doctor_report_finding){
		.cell = f->row->cell, .path = f->path,
		.severity = doctor_severity_name(f->severity),
		.verdict = doctor_verdict_name(f->verdict),
		.cause = doctor_cause_id(f->cause),
		.cause_label = doctor_cause_label(f->cause),
		.problem = f->severity == SEVERITY_PROBLEM,
		.observed = f->observed, .evidence = f->evidence,
		.advice = f->advice, .ns = f->ns,
		.equiv = f->equiv ? f->equiv->cell : NULL,
		.equiv_ns = f->equiv && f->equiv->measured ? f->equiv->ns : NAN,
	};
}

static void name_cell(struct doctor_report_cell *o, const struct doctor_row *r)
{
	const struct doctor_probe *p = &r->probe;

	*o = (struct doctor_report_cell){
		.cell = r->cell, .verdict = doctor_verdict_name(p->verdict),
		.cause = doctor_cause_id(r->cause),
		.cause_label = doctor_cause_label(r->cause),
		.severity = doctor_severity_name(r->severity),
		.kernel = p->verdict == VERDICT_KERNEL,
		.calls = p->calls, .entries = p->entries,
		.syscalls = p->syscalls, .error = p->error,
	};
}

static void name_static(struct doctor_printout *out, const struct doctor_static *s)
{
	for (size_t i = 0; i < s->n; i++)
		out->stat[i] = (struct doctor_report_static_result){
			.name = s->results[i].name,
			.verdict = doctor_verdict_name(s->results[i].verdict),
			.ns = s->results[i].ns, .syscalls = s->results[i].syscalls,
		};
	out->rep.stat = (struct doctor_report_static){
		.ran = s->ran, .path = s->path, .skip_reason = s->skip_reason,
		.libc = s->libc, .vdso = s->vdso, .results = out->stat, .n = s->n,
	};
}

static void name_facts(struct doctor_report_facts *o, struct doctor_ctx *d)
{
	const struct doctor_facts *f = &d->facts;
	const char *how;
	enum clocksource_vdso cap = doctor_clocksource_vdso(f->clocksource, &how);

	*o = (struct doctor_report_facts){
		.clocksource = f->clocksource, .clocksources = f->clocksources,
		.clocksource_vdso = doctor_clocksource_vdso_name(cap),
		.clocksource_rule = how,
		.vdso_monotonic = doctor_verdict_name(vdso_hres_verdict(d)),
		.tsc_hint = f->tsc_hint, .have_vdso = f->have_vdso,
		.vdso_error = f->vdso_error, .vdso_exports = f->vdso_exports,
		.libc_name = f->libc_name, .libc_version = f->libc_version,
		.static_binary = f->static_binary, .in_timens = f->in_timens,
	};
	for (int api = 0; api < API_COUNT; api++)
		o->interposer[api] = f->interposer[api];
}

/* The table or the JSON document (report/doctor-table.h). */
static void print_report(struct doctor_ctx *d)
{
	struct doctor_printout out = {
		.findings = xcalloc(d->nfindings + 1, sizeof(*out.findings)),
		.cells = xcalloc(d->nrows + 1, sizeof(*out.cells)),
	};
	struct doctor_report *rep = &out.rep;

	for (size_t i = 0; i < d->nfindings; i++)
		name_finding(&out.findings[i], &d->findings[i]);
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].selected)
			name_cell(&out.cells[rep->ncells++], &d->rows[i]);
	name_static(&out, &d->stat);
	name_facts(&rep->facts, d);
	rep->quiet = d->opt.quiet;
	rep->healthy = is_healthy(d);
	rep->exit_status = exit_status(d);
	rep->userspace = d->verdicts[VERDICT_USERSPACE];
	rep->kernel = d->verdicts[VERDICT_KERNEL];
	rep->unsupported = d->verdicts[VERDICT_UNSUPPORTED];
	rep->unknown = d->verdicts[VERDICT_UNKNOWN];
	rep->problems = d->by_severity[SEVERITY_PROBLEM];
	rep->findings_count = d->by_severity[SEVERITY_FINDING];
	rep->notes = d->by_severity[SEVERITY_NOTE];
	rep->findings = out.findings;
	rep->nfindings = d->nfindings;
	rep->cells = out.cells;
	rep->env = &d->env;
	rep->elapsed_s = d->elapsed_s;
	if (d->opt.format == FORMAT_JSON) {
		if (doctor_json_print(stdout, rep) != 0)
			fatal("cannot build the JSON report");
	} else {
		doctor_table_print(stdout, rep);
	}
	free(out.findings);
	free(out.cells);
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
	struct run_problem *problems = xcalloc(d->nfindings + 1, sizeof(*problems));
	struct doctor_settings s = {
		.verdict = is_healthy(d) ? "healthy" : "problems",
		.clocksource = d->facts.clocksource, .problems = problems,
	};
	json_t *config;

	for (size_t i = 0; i < d->nfindings; i++) {
		const struct finding *f = &d->findings[i];

		if (f->severity == SEVERITY_PROBLEM)
			problems[s.nproblems++] = (struct run_problem){
				.cell = f->row->cell->name, .path = f->path,
				.cause = doctor_cause_id(f->cause),
				.why = doctor_cause_label(f->cause) };
	}
	config = doctor_settings_json(&s);
	free(problems);
	return config;
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
	if (options_checking())
		return 0;
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

	print_report(&d);
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
