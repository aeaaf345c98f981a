// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench ab: two or more conditions that can be switched at run time,
 * alternated repetition by repetition in one invocation (A B B A ...) and
 * compared round by round: a drift of the machine touches every arm alike
 * and cancels in each pair. The conditions: the clocksource, a time
 * namespace, the CPU, and the process's environment or command prefix
 * (another LD_PRELOAD, another C library). Every arm is saved as a run of
 * its own, so that `clockbench compare` reads them again, paired.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "builtin/builtin.h"
#include "cli/cell-filter.h"
#include "cli/measure.h"
#include "probe/catalog.h"
#include "probe/clocksource.h"
#include "probe/guard.h"
#include "probe/timens.h"
#include "results/compare-session.h"
#include "results/run-settings.h"
#include "report/compare-format.h"
#include "scenario/exec.h"
#include "scenario/interleave.h"

#define DEFAULT_ROUNDS 20
#define DEFAULT_BUDGET_S 0.1
#define DAY_NS (86400LL * 1000000000LL)

static const struct command_usage ab_usage = {
	.name = "ab",
	.synopsis = "--clocksource A,B | --timens | --cpus A,B | --env VAR=VALUE... |\n"
		    "--prefix 'CMD ARGS'... [<options>]",
	.description =
	"Measure the same cells under two or more conditions in one invocation,\n"
	"alternating them repetition by repetition (A B B A A B ...), and compare\n"
	"each arm with the first round by round (paired: Wilcoxon's signed-rank\n"
	"test on the log ratios of the interleaved repetitions). One kind of\n"
	"condition per invocation; each value (or each --env, --prefix) is an arm,\n"
	"and --env and --prefix add a base arm without them.",
	.footer =
	"Every arm runs in a process of its own, forked (or executed, for --env\n"
	"and --prefix) after the batch sizes were chosen, pinned to one CPU, and\n"
	"is saved as a run under its label; 'clockbench compare A B' pairs the\n"
	"rounds of the runs of one ab invocation again. --clocksource switches\n"
	"the system's clocksource before each arm's repetition (root); it is put\n"
	"back afterwards, also when clockbench is killed.\n"
	"\n"
	"Exit status: 0 on success, 1 on an error, 2 on a usage error, 3 when\n"
	"--fail-on caught a change, 4 when the condition cannot be switched here\n"
	"(not root, no time namespaces), 128+N when stopped by signal N.",
};

static const char *const ab_formats[] = { "table", "json", NULL };

enum ab_condition { AB_NONE, AB_CLOCKSOURCE, AB_TIMENS, AB_CPUS, AB_ENV, AB_PREFIX };

static const char *const condition_names[] = {
	[AB_NONE] = "", [AB_CLOCKSOURCE] = "clocksource", [AB_TIMENS] = "timens",
	[AB_CPUS] = "cpu", [AB_ENV] = "env", [AB_PREFIX] = "prefix",
};

struct ab_arm {
	char label[65];		/* its saved run's: ab-1a2b3c4d-tsc, or --labels */
	char name[272];		/* in the tables: tsc, cpu0, base, or --labels */
	char value[256];	/* the clocksource, CPU, VAR=VALUE or prefix */
	char **argv;		/* INTERLEAVE_EXEC */
	char *env[2];		/* INTERLEAVE_EXEC: the one VAR=VALUE, NULL-terminated */
	int cpu;		/* --cpus: its CPU */
};

struct ab_options {
	struct catalog_filter filter;
	struct timing_options timing;
	struct timing_config cfg;
	enum ab_condition condition;
	char **values;		/* of the condition, one per arm (base excluded) */
	size_t nvalues;
	const char *labels;
	int cpu;
	int style;
	int fail_on;
	bool list;
	int worker[2];		/* --worker IN,OUT: an exec'd arm */
};

struct ab {
	struct ab_options o;
	struct ab_arm arms[INTERLEAVE_MAX_SIDES];
	size_t narms;
	struct interleave_bench bench;
	struct cell *cells;
	size_t ncells;
	unsigned done;
	char interleave[37];
	char self[PATH_MAX];	/* this binary, for the exec'd arms */
};

/* ---- options -------------------------------------------------------- */

/* The clocks that matter to a change of clocksource, namespace or libc. */
static void default_filter(struct catalog_filter *f)
{
	static const clockid_t clocks[] = {
		CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME,
		CLOCK_TAI, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE,
	};

	cell_filter_none(f);
	f->api[API_CLOCK_GETTIME] = f->api[API_GETTIMEOFDAY] = f->api[API_TIME] = true;
	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++)
		f->clock[clocks[i]] = true;
	for (int p = 0; p < PATH_COUNT; p++)
		f->path[p] = true;
}

/* One kind of condition per run; --env and --prefix may repeat. */
static int set_condition(struct ab_options *o, enum ab_condition c,
			 const char *opt, struct strbuf *err)
{
	if (o->condition != AB_NONE && o->condition != c) {
		strbuf_addf(err, "--%s: one kind of condition per run (already: "
			    "--%s)", opt, o->condition == AB_CPUS ? "cpus" :
			    condition_names[o->condition]);
		return -1;
	}
	o->condition = c;
	return 0;
}

static void add_values(struct ab_options *o, char **items, size_t n)
{
	o->values = xrealloc(o->values, (o->nvalues + n + 1) * sizeof(char *));
	for (size_t i = 0; i < n; i++)
		o->values[o->nvalues++] = xstrdup(items[i]);
	o->values[o->nvalues] = NULL;
}

/* --clocksource and --cpus: a comma list, each item an arm. */
static int list_option(const struct option_def *opt, const char *arg,
		       struct strbuf *err)
{
	struct ab_options *o = opt->value;
	enum ab_condition c = streq(opt->long_name, "cpus") ? AB_CPUS : AB_CLOCKSOURCE;
	_cleanup_free_ char **items = NULL;
	size_t n;

	if (set_condition(o, c, opt->long_name, err))
		return -1;
	items = split_list(arg, &n);
	if (n < 2) {
		strbuf_addf(err, "invalid --%s '%s': expected at least two values, "
			    "such as A,B", opt->long_name, arg);
		return -1;
	}
	add_values(o, items, n);
	return 0;
}

/* --env VAR=VALUE and --prefix CMD: one arm each, beside a base arm. */
static int repeat_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	struct ab_options *o = opt->value;
	bool env = streq(opt->long_name, "env");
	char *items[1] = { (char *)arg };

	if (set_condition(o, env ? AB_ENV : AB_PREFIX, opt->long_name, err))
		return -1;
	if (env && (!strchr(arg, '=') || arg[0] == '=')) {
		strbuf_addf(err, "invalid --env '%s': expected VAR=VALUE", arg);
		return -1;
	}
	if (!env && !*arg) {
		strbuf_adds(err, "empty --prefix command");
		return -1;
	}
	if (!env) {
		/* Split as exec's -c is, run without a shell: say now what cannot. */
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		char **words = exec_split_words(arg, &why);

		exec_free_words(words);
		if (!words) {
			strbuf_addf(err, "invalid --prefix '%s': %s (the prefix "
				    "runs without a shell)", arg, why.buf);
			return -1;
		}
	}
	add_values(o, items, 1);
	return 0;
}

static int timens_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	return set_condition(opt->value, AB_TIMENS, "timens", err);
}

/*
 * 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). Long only because
 * the table has an entry per option.
 */
static int parse_ab_options(int argc, char **argv, struct ab_options *o,
			    struct measure *m)
{
	struct option_def options[] = {
		OPT_CALLBACK(0, "clocksource", "A,B", o, list_option,
			     "switch the system's clocksource (root), e.g. tsc,kvm-clock"),
		OPT_CALLBACK_FLAG(0, "timens", o, timens_option,
				  "the host against a new time namespace (root)"),
		OPT_CALLBACK(0, "cpus", "A,B", o, list_option,
			     "run each arm on its own CPU, e.g. 0,1"),
		OPT_CALLBACK(0, "env", "VAR=VALUE", o, repeat_option,
			     "an arm with VAR=VALUE in its environment, e.g.\n"
			     "LD_PRELOAD=./lib.so (repeat for more arms)"),
		OPT_CALLBACK(0, "prefix", "CMD", o, repeat_option,
			     "an arm started through CMD (split at blanks), e.g.\n"
			     "'/opt/glibc/lib/ld-linux-x86-64.so.2 --library-path\n"
			     "/opt/glibc/lib' (repeat for more arms)"),
		OPT_STRING(0, "labels", "LIST", &o->labels,
			   "labels of the arms' saved runs (default ab-ID-VALUE,\n"
			   "ID: 8 hex digits of this invocation; VALUE: the\n"
			   "value, cpuN, base, env-1, prefix-1, ...)"),
		CELL_FILTER_OPTIONS(&o->filter,
			"APIs (default: clock_gettime, gettimeofday, time)",
			"clocks (default: the hres and coarse clocks)",
			"vdso, libc, syscall (default: all)"),
		TIMING_BUDGET_OPTION(&o->timing,
			"wall time per cell and arm, spread over the\n"
			"repetitions (default 100ms)"),
		TIMING_QUICK_OPTION(&o->timing),
		TIMING_PRECISION_OPTION(&o->timing),
		OPT_INT(0, "repetitions", "N", &o->timing.rounds, 2, 1000,
			"repetitions per arm (default 20)"),
		CPU_OPTION(&o->cpu, "pin to CPU N (default: the last CPU of the\n"
			   "affinity mask; not with --cpus)"),
		OPT_CHOICE(0, "style", "STYLE", &o->style, compare_style_names,
			   "table (default), mmtests, ratio, summary, ministat,\n"
			   "changes"),
		OPT_FORMAT(0, &m->format, ab_formats,
			   "table (default), json (compare's)"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 3 when an arm is significantly worse, better or\n"
			   "either (change) than the first"),
		OPT_BOOL(0, "list", &o->list, "print the cells that would run"),
		STORE_SAVE_SIDES_OPTIONS(&m->store),
		{ .type = OPTION_CALLBACK, .long_name = "worker", .arg_name = "IN,OUT",
		  .value = o->worker, .callback = options_descriptor_pair,
		  .flags = OPTION_HIDDEN },
		OPT_END(),
	};
	int n;

	default_filter(&o->filter);
	o->timing.rounds = DEFAULT_ROUNDS;
	o->timing.budget_s = 0;
	o->cpu = -1;
	o->worker[0] = o->worker[1] = -1;
	n = parse_options(argc, argv, &ab_usage, options, OPTIONS_NO_ARGS);
	if (n < 0)
		return n;
	if (o->worker[0] >= 0 || o->list)
		return 0;
	if (o->condition == AB_NONE)
		return options_fail("no condition to switch: give --clocksource, "
				    "--timens, --cpus, --env or --prefix");
	if (o->condition == AB_CPUS && o->cpu >= 0)
		return options_fail("--cpu and --cpus exclude each other");
	if (!o->timing.quick && o->timing.budget_s == 0)
		o->timing.budget_s = DEFAULT_BUDGET_S;
	timing_options_apply(&o->timing, &o->cfg);
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
	return 0;
}

/* ---- the arms ------------------------------------------------------- */

/*
 * The prefix's words (split as sh would, checked when the option was
 * read), then this binary and "ab": an exec'd arm's command.
 */
static char **exec_argv(const char *prefix, const char *self)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char **words = prefix ? exec_split_words(prefix, &why) : NULL;
	size_t n = words ? exec_count_words(words) : 0;
	char **argv = xcalloc(n + 3, sizeof(char *));

	memcpy(argv, words ? words : argv, n * sizeof(char *));
	free(words);	/* the words themselves now belong to argv */
	argv[n++] = xstrdup(self);
	argv[n++] = xstrdup("ab");
	return argv;
}

/* The arms' labels: --labels, or made from the values. */
static int label_arms(struct ab *a)
{
	_cleanup_free_ char **labels = NULL;
	size_t n = 0;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (a->o.labels) {
		labels = split_list(a->o.labels, &n);
		if (n != a->narms)
			return options_fail("--labels names %zu arms, the condition "
					    "has %zu", n, a->narms);
	}
	for (size_t i = 0; i < a->narms; i++) {
		struct ab_arm *arm = &a->arms[i];

		if (labels) {
			snprintf(arm->label, sizeof(arm->label), "%s", labels[i]);
			snprintf(arm->name, sizeof(arm->name), "%s", labels[i]);
		}
		if (!store_label_valid(arm->label, &why))
			return options_fail("invalid label '%s' of arm %zu: %s (name the "
					    "arms with --labels)", arm->label, i + 1, why.buf);
		for (size_t j = 0; j < i; j++)
			if (streq(arm->label, a->arms[j].label))
				return options_fail("two arms are labelled '%s' (name "
						    "them with --labels)", arm->label);
	}
	return 0;
}

/* A CPU arm's CPU: within the affinity mask, or a usage error. */
static int arm_cpu(const struct ab_arm *arm, int *cpu)
{
	char allowed[256];
	long v;

	if (!parse_int(arm->value, 0, 1 << 20, &v))
		return options_fail("invalid --cpus item '%s': expected a CPU number",
				    arm->value);
	if (!timing_cpu_allowed((int)v, allowed, sizeof(allowed)))
		return options_fail("CPU %ld is not in this process's affinity mask "
				    "(allowed: %s)", v, allowed);
	*cpu = (int)v;
	return 0;
}

/*
 * The arm's name, its value (cpu0; base, env-1, prefix-1 for the exec'd
 * arms), and its default label "ab-1a2b3c4d-NAME": the invocation keeps
 * the runs of two ab from pooling under one label. The arm's number stands
 * for a name too long for a label.
 */
static void default_label(const struct ab *a, struct ab_arm *arm, size_t i,
			  bool base)
{
	const char *cond = condition_names[a->o.condition];
	char number[24];

	if (base)
		snprintf(arm->name, sizeof(arm->name), i ? "%s-%zu" : "base", cond, i);
	else
		snprintf(arm->name, sizeof(arm->name), "%s%s",
			 a->o.condition == AB_CPUS ? "cpu" : "", arm->value);
	if (store_invocation_label(arm->label, sizeof(arm->label), "ab",
				   a->interleave, arm->name))
		return;
	snprintf(number, sizeof(number), "%zu", i + 1);
	store_invocation_label(arm->label, sizeof(arm->label), "ab", a->interleave,
			       number);
}

/* One arm per value; --env and --prefix start with a base arm. */
static int make_arms(struct ab *a)
{
	const struct ab_options *o = &a->o;
	bool base = o->condition == AB_ENV || o->condition == AB_PREFIX;
	size_t n = (o->condition == AB_TIMENS ? 2 : o->nvalues) + base;

	if (n > INTERLEAVE_MAX_SIDES)
		return options_fail("%zu arms: at most %d", n, INTERLEAVE_MAX_SIDES);
	a->narms = n;
	for (size_t i = 0; i < n; i++) {
		struct ab_arm *arm = &a->arms[i];
		const char *value = o->condition == AB_TIMENS ? (i ? "timens" : "host") :
				    base && i == 0 ? "" : o->values[i - base];

		snprintf(arm->value, sizeof(arm->value), "%s", value);
		default_label(a, arm, i, base);
		if (o->condition == AB_CPUS && arm_cpu(arm, &arm->cpu))
			return OPTIONS_ERROR;
		if (base) {
			arm->argv = exec_argv(o->condition == AB_PREFIX ? value : NULL,
					      a->self);
			arm->env[0] = o->condition == AB_ENV && i ? (char *)o->values[i - 1] :
				      NULL;
		}
	}
	return label_arms(a);
}

static void free_arms(struct ab *a)
{
	for (size_t i = 0; i < a->narms; i++) {
		for (char **p = a->arms[i].argv; p && *p; p++)
			free(*p);
		free(a->arms[i].argv);
	}
	for (size_t i = 0; i < a->o.nvalues; i++)
		free(a->o.values[i]);
	free(a->o.values);
}

/* The interleaving engine's (interleave.h) sides of the arms. */
static void side_specs(const struct ab *a, struct interleave_side_spec *specs)
{
	for (size_t i = 0; i < a->narms; i++) {
		struct interleave_side_spec *sp = &specs[i];

		*sp = (struct interleave_side_spec){ .name = a->arms[i].name, .how = INTERLEAVE_FORK,
					     .cpu = -1 };
		if (a->o.condition == AB_TIMENS && i == 1)
			sp->how = INTERLEAVE_IN_TIMENS;
		if (a->arms[i].argv) {
			sp->how = INTERLEAVE_EXEC;
			sp->argv = a->arms[i].argv;
			sp->env = a->arms[i].env;
		}
		if (a->o.condition == AB_CPUS)
			sp->cpu = a->arms[i].cpu;
	}
}

/* ---- clocksources ----------------------------------------------------- */

/* Every arm's clocksource is one the kernel offers: 0 or OPTIONS_ERROR. */
static int check_clocksources(const struct ab *a)
{
	char avail[512];

	if (!read_line_file(CLOCKSOURCE_AVAILABLE, avail, sizeof(avail)))
		return options_fail("cannot read the available clocksources: %m");
	for (size_t i = 0; i < a->narms; i++) {
		if (clocksource_listed(avail, a->arms[i].value))
			continue;
		/* A VM that offers kvm-clock alone has nothing to switch to:
		 * say where a comparison of clocksources can still be made. */
		if (!strchr(avail, ' '))
			return options_fail("unknown clocksource '%s' (available: %s): "
					    "this kernel offers one clocksource, so there is "
					    "none to switch to; compare clocksources in "
					    "guests instead: clockbench kernels --kernel a=IMG "
					    "--kernel b=IMG --kernel-append b=clocksource=NAME",
					    a->arms[i].value, avail);
		return options_fail("unknown clocksource '%s' (available: %s)",
				    a->arms[i].value, avail);
	}
	return 0;
}

/* Before each arm's repetition: its clocksource, when the arms have one. */
static int before_round(void *ctx, size_t s, unsigned k, struct strbuf *err)
{
	const struct ab *a = ctx;

	if (a->o.condition != AB_CLOCKSOURCE)
		return 0;
	return clocksource_set(a->arms[s].value, err);
}

/* ---- measuring, saving, reporting -------------------------------------- */

static int ab_measure(struct measure *m)
{
	struct ab *a = m->ctx;
	struct interleave_side_spec specs[INTERLEAVE_MAX_SIDES];
	struct interleave_hooks hooks = {
		.before_round = before_round, .stopped = measure_stopped, .ctx = a,
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = 0;

	side_specs(a, specs);
	if (timing_pin_cpu(a->o.cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", a->o.cpu);
		return -1;
	}
	interleave_init_sides(&a->bench, a->cells, a->ncells, &a->o.cfg, specs, a->narms,
			  CYCLES_REQ_AUTO);
	a->bench.off = (struct timens_offsets){ 10 * DAY_NS, 20 * DAY_NS };
	for (size_t s = 0; s < a->narms && !rc; s++)
		rc = interleave_start(&a->bench, s, &err);
	if (!rc)
		rc = interleave_run(&a->bench, &hooks, &a->done, &err);
	if (rc) {
		error_msg("%s", err.buf);
		return -1;
	}
	if (interleave_stop(&a->bench, &err) != 0)
		warn_msg("%s", err.buf);
	interleave_summarize(&a->bench);
	return 0;
}

static json_t *arm_config(const struct ab *a, size_t k)
{
	const char *labels[INTERLEAVE_MAX_SIDES];

	for (size_t i = 0; i < a->narms; i++)
		labels[i] = a->arms[i].label;
	return ab_settings_json(&(struct ab_settings){
		.condition = condition_names[a->o.condition],
		.arm = a->arms[k].label, .value = a->arms[k].value,
		.arms = { .word = labels, .n = a->narms },
		.interleave = a->interleave, .repetitions = a->o.cfg.rounds,
		.budget_s = a->o.cfg.budget_s,
		.target_batch_ns = a->bench.cfg.target_batch_ns, .cpu = a->o.cpu,
	});
}

static bool ab_record(struct measure *m, size_t k, struct stored_run *run)
{
	const struct ab *a = m->ctx;

	if (k >= a->narms)
		return false;
	free(run->label);
	run->label = xstrdup(a->arms[k].label);
	interleave_record_side(&a->bench, k, run);
	run->config = arm_config(a, k);
	return true;
}

static void print_header(FILE *f, const struct ab *a, const struct measure *m)
{
	fprintf(f, "# clockbench ab: %s, %zu arms, %zu cells, %u of %u repetitions "
		"per arm, %.1f s%s\n", condition_names[a->o.condition], a->narms,
		a->ncells, a->done, a->o.cfg.rounds, m->elapsed_s,
		m->stop_signal ? ", INTERRUPTED" : "");
	for (size_t i = 0; i < a->narms; i++)
		fprintf(f, "# arm %zu: %s%s%s (label %s)\n", i + 1, a->arms[i].name,
			*a->arms[i].value ? ": " : "", a->arms[i].value,
			a->arms[i].label);
	fprintf(f, "# order A B B A ...; CPU %d\n", a->o.cpu);
	interleave_print_quality(f, &a->bench);
}

/* After the runs were saved, so that the comparison names their ids. */
static int ab_print(struct measure *m, FILE *f)
{
	struct ab *a = m->ctx;
	struct compare_group groups[INTERLEAVE_MAX_SIDES];
	struct compare_result cr;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (!measure_enough_repetitions(a->done))
		return -1;
	/* The arms' names: their labels share the invocation's prefix. */
	for (size_t i = 0; i < a->narms; i++)
		groups[i].spec = a->arms[i].name;
	if (compare_session_sides(groups, a->narms, m->runs, true, &cr, &err) != 0) {
		error_msg("cannot compare the arms: %s", err.buf);
		return -1;
	}
	if (m->format == FORMAT_TABLE)
		print_header(f, a, m);
	rc = compare_print(f, &cr, (enum compare_style)a->o.style,
			   (enum output_format)m->format);
	if (m->format == FORMAT_TABLE)
		measure_print_labels(f, m);
	fflush(f);
	if (compare_print_gate(stderr, &cr, (enum compare_gate)a->o.fail_on))
		m->status = EXIT_PROBLEM;
	compare_free(&cr);
	return rc;
}

MEASURE_OPS(ab);

/* ---- the command ---------------------------------------------------- */

/* The cells that can run in every arm, copied; the others are named. */
static int pick_cells(struct ab *a, const struct catalog *cat)
{
	a->cells = xcalloc(cat->ncells ? cat->ncells : 1, sizeof(*a->cells));
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];

		/* One getrandom state would be shared by the forks. */
		if (c->status != CELL_OK || c->state) {
			warn_msg("%s %s not measured: %s", c->name, catalog_paths[c->path],
				 c->status != CELL_OK ? c->why : "a per-process state");
			continue;
		}
		a->cells[a->ncells++] = *c;
	}
	if (!a->ncells) {
		error_msg("no cell can run (see 'clockbench ab --list')");
		return 1;
	}
	return 0;
}

/* 0 to go on, or the status: a skip (4) with the reason, or a usage error. */
static int check_condition(struct ab *a)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	switch (a->o.condition) {
	case AB_CLOCKSOURCE:
		if (geteuid() != 0) {
			fprintf(stderr, "%s: skip: switching the clocksource needs root\n",
				program_context());
			return EXIT_SKIP;
		}
		return 0;
	case AB_TIMENS:
		if (!timens_supported(&why)) {
			fprintf(stderr, "%s: skip: cannot create a time namespace: %s\n",
				program_context(), why.buf);
			return EXIT_SKIP;
		}
		return 0;
	case AB_ENV:
	case AB_PREFIX:
		if (!realpath("/proc/self/exe", a->self)) {
			error_msg("cannot find this program's file: %m");
			return 1;
		}
		return 0;
	case AB_CPUS:
	case AB_NONE:
		break;
	}
	return 0;
}

/* The clocksource is recorded under the guard's lock, and put back. */
static int record_clocksource(struct measure *m, struct guard *g)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (guard_add_file(g, CLOCKSOURCE_CURRENT, "current_clocksource", &err) == 0)
		return 0;
	error_msg("%s", err.buf);
	return 1;
}

static const struct guarded_run clocksource_guard = {
	.lock = "clocksource",
	.changing = "switching the clocksource",
	.record = record_clocksource,
};

int cmd_ab(int argc, char **argv)
{
	struct ab a = { 0 };
	struct measure m = { .ops = &ab_ops, .ctx = &a };
	struct catalog cat;
	int rc = parse_ab_options(argc, argv, &a.o, &m);

	if (rc < 0) {
		free_arms(&a);
		return parse_options_status(rc);
	}
	if (a.o.worker[0] >= 0)
		return interleave_worker(a.o.worker[0], a.o.worker[1]);
	catalog_build(&cat, &a.o.filter);
	if (a.o.list) {
		measure_print_cell_list(&cat, NULL);
		catalog_free(&cat);
		free_arms(&a);
		return 0;
	}
	store_new_uuid(a.interleave);
	rc = check_condition(&a);
	if (!rc)
		rc = make_arms(&a) < 0 ? EXIT_USAGE : 0;
	if (!rc && a.o.condition == AB_CLOCKSOURCE)
		rc = check_clocksources(&a) ? EXIT_USAGE : 0;
	if (!rc)
		rc = pick_cells(&a, &cat);
	if (!rc)
		rc = a.o.condition == AB_CLOCKSOURCE ?
		     measure_run_guarded(&m, &clocksource_guard) : measure_run(&m);
	interleave_free(&a.bench);
	free(a.cells);
	free_arms(&a);
	catalog_free(&cat);
	return rc;
}
