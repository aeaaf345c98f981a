// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench timens: what a time namespace costs each clock (seed 000).
 * The same cells on the host and inside a new time namespace, repetitions
 * interleaved, then the seed's summary (host, inside timens, diff %,
 * stdev %) with compare's significance verdict. Saves two runs.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/catalog.h"
#include "cli/cell-filter.h"
#include "results/compare-session.h"
#include "report/compare-format.h"
#include "report/compare-glance.h"
#include "report/timens-json.h"
#include "config.h"
#include "probe/env.h"
#include "results/record.h"
#include "results/run-settings.h"
#include "results/store.h"
#include "scenario/interleave.h"
#include "probe/timens.h"
#include "probe/timing.h"
#include "basic/util.h"

/* report/timens-json.h names the sides as the engine orders them. */
_Static_assert(INTERLEAVE_HOST == (int)TR_HOST && INTERLEAVE_TIMENS == (int)TR_TIMENS &&
	       INTERLEAVE_SIDES == (int)TR_SIDES, "timens: the sides' order");

#define DAY_NS (86400LL * NSEC_PER_SEC_I64)
/*
 * Many short repetitions: the load of a shared machine drifts over seconds,
 * so the repetition medians of both sides spread by a percent or two; with
 * 20 per side the test still sees a 3 % change through that.
 */
#define DEFAULT_REPETITIONS 20

static const struct command_usage timens_usage = {
	.name = "timens",
	.description =
	"Measure clock reads on the host and inside a new time namespace, with\n"
	"host and namespace repetitions interleaved, and report what the\n"
	"namespace costs each clock with a significance verdict. Needs root\n"
	"(CAP_SYS_ADMIN) to create the namespace.",
	.footer =
	"Both sides run in child processes forked after the batch sizes were\n"
	"chosen, pinned to one CPU; repetitions alternate host, timens, timens,\n"
	"host, ... so a linear drift of the machine cancels. The verdict is\n"
	"compare's (see clockbench-compare(1)); CV is the spread of the\n"
	"per-repetition medians of each side.\n"
	"\n"
	"Inside a non-root time namespace the \"host\" side would itself be\n"
	"namespaced, so timens refuses (exit 4) unless --allow-nested is given.\n"
	"\n"
	"Exit status: 0 on success, 1 on an error, 2 on a usage error, 4 when a\n"
	"time namespace cannot be created here (skip), 128+N when stopped by\n"
	"signal N.",
};

static const char *const timens_formats[] = { "table", "json", "tap", NULL };

struct timens_options {
	struct catalog_filter filter;
	struct timing_options timing;
	struct timing_config cfg;
	struct timens_offsets off;
	int cpu;
	int style;		/* enum compare_style */
	bool allow_nested;
	bool list;
	const char *label[INTERLEAVE_SIDES];
	char default_label[INTERLEAVE_SIDES][65];	/* timens-ID-host, timens-ID-timens */
	char interleave[37];	/* names this pair of runs: compare pairs rounds */
};

/* ---- options -------------------------------------------------------- */

/* The clocks a time namespace touches, and their neighbours. */
static void default_filter(struct catalog_filter *f)
{
	static const clockid_t clocks[] = {
		CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
		CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,
		CLOCK_TAI,
	};

	cell_filter_none(f);
	f->api[API_CLOCK_GETTIME] = true;
	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++)
		f->clock[clocks[i]] = true;
	f->path[PATH_VDSO] = true;
	f->path[PATH_SYSCALL] = true;
}

static int offset_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	if (!timens_parse_offset(arg, opt->value)) {
		strbuf_addf(err, "invalid --%s '%s': expected [+-]N with an optional "
			    "unit s, m, h or d, within 100 years", opt->long_name, arg);
		return -1;
	}
	return 0;
}

static int side_label_option(const struct option_def *opt, const char *arg,
			     struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!store_label_valid(arg, &why)) {
		strbuf_addf(err, "invalid --%s '%s': %s", opt->long_name, arg, why.buf);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

static int no_label_option(const struct option_def *opt, const char *arg,
			   struct strbuf *err)
{
	strbuf_adds(err, "timens saves two runs: name them with --host-label "
		    "and --timens-label, not --label");
	return -1;
}

/*
 * The invocation's id, and the labels not given: they name the invocation,
 * so that a second timens never pools its runs with this one's.
 */
static void default_labels(struct timens_options *o)
{
	store_new_uuid(o->interleave);
	for (int s = 0; s < INTERLEAVE_SIDES; s++) {
		if (o->label[s])
			continue;
		store_invocation_label(o->default_label[s], sizeof(o->default_label[s]),
				       "timens", o->interleave, interleave_side_names[s]);
		o->label[s] = o->default_label[s];
	}
}

/*
 * 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). Long only because
 * the table has an entry per option.
 */
static int parse_timens_options(int argc, char **argv, struct timens_options *o,
				struct measure *m)
{
	struct option_def options[] = {
		CELL_FILTER_OPTIONS(&o->filter, "APIs (default: clock_gettime)",
			"clocks (default: realtime, monotonic,\n"
			"monotonic-raw, boottime, tai and the coarse\n"
			"clocks)",
			"vdso, libc, syscall (default: vdso,syscall)"),
		OPT_INT(0, "repetitions", "N", &o->timing.rounds, 2, 1000,
			"repetitions per side (default 20, at least 2)"),
		TIMING_BUDGET_OPTION(&o->timing,
			"wall time per cell and side, spread over the\n"
			"repetitions (default 250ms)"),
		TIMING_QUICK_OPTION(&o->timing),
		OPT_CALLBACK(0, "monotonic-offset", "T", &o->off.monotonic_ns,
			     offset_option,
			     "the namespace's MONOTONIC offset: [+-]N[s|m|h|d]\n"
			     "(default +10d)"),
		OPT_CALLBACK(0, "boottime-offset", "T", &o->off.boottime_ns,
			     offset_option, "the namespace's BOOTTIME offset (default +20d)"),
		CPU_OPTION(&o->cpu, "pin to CPU N (default: the last CPU of the\n"
			   "affinity mask)"),
		OPT_CHOICE(0, "style", "STYLE", &o->style, compare_style_names,
			   "summary (default: per cell rows centre, diff %,\n"
			   "rCV %, mde %, as the time-namespace patch\n"
			   "series posted avg, diff %, stdev %), table,\n"
			   "mmtests, ratio, ministat, changes"),
		OPT_FORMAT(0, &m->format, timens_formats,
			   "table (default), json, tap (a point per cell:\n"
			   "ok with the change and verdict, SKIP where a\n"
			   "side was not measured)"),
		OPT_CALLBACK(0, "host-label", "LABEL", &o->label[INTERLEAVE_HOST],
			     side_label_option,
			     "label of the saved host run (default\n"
			     "timens-ID-host, ID: 8 hex digits of this invocation)"),
		OPT_CALLBACK(0, "timens-label", "LABEL", &o->label[INTERLEAVE_TIMENS],
			     side_label_option,
			     "label of the saved namespace run (default\n"
			     "timens-ID-timens)"),
		OPT_BOOL(0, "allow-nested", &o->allow_nested,
			 "run even when clockbench itself is already in a\n"
			 "non-root time namespace (see below)"),
		OPT_BOOL(0, "list", &o->list, "print the cells that would run"),
		STORE_SAVE_SIDES_OPTIONS(&m->store),
		{ .type = OPTION_CALLBACK, .long_name = "label", .arg_name = "LABEL",
		  .callback = no_label_option, .flags = OPTION_HIDDEN },
		OPT_END(),
	};
	int n;

	default_filter(&o->filter);
	o->off.monotonic_ns = 10 * DAY_NS;
	o->off.boottime_ns = 20 * DAY_NS;
	o->timing.rounds = DEFAULT_REPETITIONS;
	o->cpu = -1;
	o->style = STYLE_SUMMARY;
	n = parse_options(argc, argv, &timens_usage, options, OPTIONS_NO_ARGS);
	if (n < 0)
		return n;
	default_labels(o);
	if (streq(o->label[INTERLEAVE_HOST], o->label[INTERLEAVE_TIMENS]))
		return options_fail("--host-label and --timens-label must differ ('%s')",
				  o->label[INTERLEAVE_HOST]);
	timing_options_apply(&o->timing, &o->cfg);
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
	return 0;
}

/* ---- preconditions -------------------------------------------------- */

/* The cells that can run, copied; says why the others are left out. */
static struct cell *runnable_cells(const struct catalog *cat, size_t *n)
{
	struct cell *cells = xcalloc(cat->ncells ? cat->ncells : 1, sizeof(*cells));

	*n = 0;
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];

		if (c->status != CELL_OK) {
			warn_msg("%s %s not measured: %s", c->name,
				 catalog_paths[c->path], c->why);
			continue;
		}
		cells[(*n)++] = *c;
	}
	return cells;
}

/* 0 to go on, or the exit status: EXIT_SKIP with the reason printed. */
static int check_can_run(const struct env_info *env, bool allow_nested)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (env->in_time_namespace && !allow_nested) {
		fprintf(stderr, "clockbench timens: skip: clockbench runs inside a "
			"non-root time namespace, so its \"host\" side would be "
			"namespaced too (use --allow-nested to measure anyway)\n");
		return EXIT_SKIP;
	}
	if (env->in_time_namespace)
		warn_msg("running inside a non-root time namespace: the \"host\" "
			 "figures are not the host's");
	if (!timens_supported(&why)) {
		fprintf(stderr, "clockbench timens: skip: cannot create a time "
			"namespace: %s\n", why.buf);
		return EXIT_SKIP;
	}
	return 0;
}

/* ---- measuring ------------------------------------------------------ */

static int start_sides(struct interleave_bench *b)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	for (int s = 0; s < INTERLEAVE_SIDES; s++) {
		if (interleave_start(b, (enum interleave_side_id)s, &err) == 0)
			continue;
		if (errno == ERANGE)
			error_msg("%s: an offset must not take the namespace's "
				  "MONOTONIC or BOOTTIME below zero", err.buf);
		else
			error_msg("%s", err.buf);
		return -1;
	}
	return 0;
}

/* ---- the runs ------------------------------------------------------- */

static json_t *side_config(const struct timens_options *o,
			   const struct interleave_bench *b, enum interleave_side_id s,
			   bool nested)
{
	return timens_settings_json(&(struct timens_settings){
		.side = interleave_side_names[s], .interleave = o->interleave,
		.paired_with = o->label[s == INTERLEAVE_HOST ? INTERLEAVE_TIMENS : INTERLEAVE_HOST],
		.repetitions = o->cfg.rounds, .cpu = o->cpu,
		.budget_s = o->cfg.budget_s, .target_batch_ns = b->cfg.target_batch_ns,
		.boundary_ns = b->side[s].boundary_ns, .offsets = b->off, .offsets_known = true,
		.nested = nested,
	});
}

/* Side s as a stored run, begun by the runner under the side's label; the
 * namespace side's environment says where it ran. */
static void build_run(struct stored_run *run, const struct measure *m,
		      const struct timens_options *o, const struct interleave_bench *b,
		      enum interleave_side_id s)
{
	free(run->label);
	run->label = xstrdup(o->label[s]);
	interleave_record_side(b, s, run);
	run->config = side_config(o, b, s, m->env.in_time_namespace);
	if (s == INTERLEAVE_TIMENS) {
		struct env_info inside = m->env;

		inside.time_namespace_offsets = &b->off;
		record_set_env(run, &inside, &m->store);
	}
}

/* ---- reporting ------------------------------------------------------ */

static void print_header(FILE *f, const struct timens_options *o,
			 const struct interleave_bench *b, unsigned done,
			 double elapsed_s, bool interrupted)
{
	char mono[32], boot[32];

	timens_format_offset(b->off.monotonic_ns, mono, sizeof(mono));
	timens_format_offset(b->off.boottime_ns, boot, sizeof(boot));
	fprintf(f, "# clockbench %s timens: %zu cells, %u of %u repetitions per side, "
		"%.1f s%s\n", CLOCKBENCH_VERSION, b->ncells, done, o->cfg.rounds,
		elapsed_s, interrupted ? ", INTERRUPTED" : "");
	fprintf(f, "# namespace offsets: monotonic %s, boottime %s; CPU %d; order "
		"host, timens, timens, host, ...\n", mono, boot, o->cpu);
	fprintf(f, "# clock-read overhead per batch: host %.1f ns, timens %.1f ns "
		"(each side subtracts its own)\n", b->side[INTERLEAVE_HOST].boundary_ns,
		b->side[INTERLEAVE_TIMENS].boundary_ns);
	interleave_print_quality(f, b);
}

/*
 * What the tables call side s: its label when given, else host or timens
 * (the default labels share the invocation's prefix; the header and the
 * last line name them).
 */
static const char *side_name(const struct timens_options *o, enum interleave_side_id s)
{
	return o->label[s] == o->default_label[s] ? interleave_side_names[s] : o->label[s];
}

static int report(const struct timens_options *o, const struct interleave_bench *b,
		  struct stored_run *runs, const struct env_info *env,
		  unsigned done, enum output_format format)
{
	struct compare_group groups[INTERLEAVE_SIDES];
	struct compare_result cr;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (int s = 0; s < INTERLEAVE_SIDES; s++)
		groups[s].spec = (char *)side_name(o, (enum interleave_side_id)s);
	if (compare_session_sides(groups, INTERLEAVE_SIDES, runs, false, &cr, &err) != 0) {
		error_msg("cannot compare the sides: %s", err.buf);
		return -1;
	}
	if (format == FORMAT_JSON) {
		struct timens_report t = {
			.cells = b->cells, .ncells = b->ncells, .off = &b->off,
			.done = done, .cpu = o->cpu,
		};

		for (int s = 0; s < INTERLEAVE_SIDES; s++) {
			t.side[s].res = b->side[s].res;
			t.side[s].boundary_ns = b->side[s].boundary_ns;
		}
		rc = timens_json_print(stdout, &t, &cr, runs, env);
	} else if (format == FORMAT_TAP) {
		/* The stream first; how it was measured as diagnostics after. */
		rc = compare_print(stdout, &cr, STYLE_TABLE, FORMAT_TAP);
		print_header(stdout, o, b, done, runs[0].elapsed_s,
			     streq(runs[0].status, "interrupted"));
	} else {
		print_header(stdout, o, b, done, runs[0].elapsed_s,
			     streq(runs[0].status, "interrupted"));
		rc = compare_print(stdout, &cr, (enum compare_style)o->style,
				   FORMAT_TABLE);
		compare_print_timens_glance(stdout, &cr);
	}
	compare_free(&cr);
	return rc;
}

/* ---- the command ---------------------------------------------------- */

struct timens_cmd {
	struct timens_options o;
	struct interleave_bench bench;
	struct cell *cells;
	size_t ncells;
	unsigned done;
};

static int timens_measure(struct measure *m)
{
	struct timens_cmd *t = m->ctx;
	int rc;

	if (timing_pin_cpu(t->o.cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", t->o.cpu);
		return -1;
	}
	interleave_init(&t->bench, t->cells, t->ncells, &t->o.cfg, &t->o.off,
		    CYCLES_REQ_AUTO);
	rc = start_sides(&t->bench);
	if (rc == 0) {
		struct interleave_hooks hooks = { .stopped = measure_stopped };
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		rc = interleave_run(&t->bench, &hooks, &t->done, &err);
		if (rc)
			error_msg("%s", err.buf);
	}
	if (rc == 0) {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		if (interleave_stop(&t->bench, &err) != 0)
			warn_msg("%s", err.buf);
		interleave_summarize(&t->bench);
	}
	return rc;
}

static bool timens_record(struct measure *m, size_t k, struct stored_run *run)
{
	struct timens_cmd *t = m->ctx;

	if (k >= INTERLEAVE_SIDES)
		return false;
	build_run(run, m, &t->o, &t->bench, (enum interleave_side_id)k);
	return true;
}

/* After the runs were saved, so that the report names their ids. */
static int timens_print(struct measure *m, FILE *f)
{
	struct timens_cmd *t = m->ctx;

	if (!measure_enough_repetitions(t->done))
		return -1;
	if (report(&t->o, &t->bench, m->runs, &m->env, t->done,
		   (enum output_format)m->format))
		return -1;
	if (m->format == FORMAT_TABLE)
		measure_print_labels(stdout, m);
	return 0;
}

MEASURE_OPS(timens);

int cmd_timens(int argc, char **argv)
{
	struct timens_cmd t = { 0 };
	struct measure m = { .ops = &timens_ops, .ctx = &t };
	struct catalog cat;
	int rc = parse_timens_options(argc, argv, &t.o, &m);

	if (rc < 0)
		return parse_options_status(rc);
	if (options_checking())
		return 0;
	catalog_build(&cat, &t.o.filter);
	if (t.o.list) {
		measure_print_cell_list(&cat, NULL);
		catalog_free(&cat);
		return 0;
	}
	env_collect(&m.env, cat.have_vdso ? &cat.vdso : NULL, cat.vdso_error, t.o.cpu);
	m.have_env = true;
	rc = check_can_run(&m.env, t.o.allow_nested);
	t.cells = runnable_cells(&cat, &t.ncells);
	if (rc == 0 && t.ncells == 0) {
		error_msg("no cell can run (see 'clockbench timens --list')");
		rc = 1;
	}
	if (rc == 0)
		rc = measure_run(&m);
	else
		env_free(&m.env);
	interleave_free(&t.bench);
	free(t.cells);
	catalog_free(&cat);
	return rc;
}
