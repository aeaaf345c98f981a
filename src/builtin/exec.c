// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench exec: run a command repeatedly and report its wall, user and
 * system time with robust statistics (seed 003's `time echo 0 > ...`, done
 * many times instead of picking "a representative run"). The run is saved,
 * so `clockbench compare` tells whether two commands, or one command on
 * two kernels, differ beyond noise.
 *
 * Several commands (-c, or one command over a parameter list, -L/-P) run
 * in one invocation, alternated run by run in ab's order (A B B A ..., or
 * a seeded shuffle of each repetition: balanced_order_at()), so that a machine
 * that changes half-way touches every command alike; each is saved as a
 * run of its own and they are compared round by round, paired, by
 * compare's machinery, as `ab` does.
 *
 * The campaign itself (building the commands, running them) is
 * scenario/exec-campaign.c's, what it was as data (the stored runs, the
 * report's figures, what the runs warrant a warning of)
 * scenario/exec-record.c's; this file is the options, the runner's glue
 * (cli/measure.h) and the printing.
 */
#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/env.h"
#include "probe/vdso.h"
#include "report/compare-format.h"
#include "report/exec-report.h"
#include "report/output.h"
#include "results/compare-session.h"
#include "scenario/exec-campaign.h"
#include "scenario/exec-record.h"

static const struct command_usage exec_usage = {
	.name = "exec",
	.synopsis = "[<options>] [--] COMMAND [ARGS...]\n"
		    "[<options>] -c 'CMD1 ARGS' -c 'CMD2 ARGS' [-c ...]\n"
		    "[<options>] -L NAME=V1,V2,... | -P NAME=LO..HI[..STEP] -c 'CMD {NAME}'",
	.description =
	"Run COMMAND repeatedly (no shell; found in PATH once, started by\n"
	"posix_spawn) and report its wall, user and system time: median with its\n"
	"95% confidence interval, mean, robust CV, min, max and outliers. Its\n"
	"output goes to /dev/null. An empty program, started the same way, tells\n"
	"what the harness itself costs.\n"
	"\n"
	"Several commands (-c, each one command line split into words as sh\n"
	"would, run without a shell unless --shell; or one command over the\n"
	"values of -L or -P, substituted for {NAME}) are alternated run by run\n"
	"(A B B A ..., or --order random: a seeded shuffle of each repetition),\n"
	"each saved as a run under its label, and compared with the first round\n"
	"by round (paired: Wilcoxon's signed-rank test on the log ratios of the\n"
	"alternated runs), with ab's and compare's verdicts.",
	.footer =
	"user and sys are what the kernel accounts: with tick sampling (most\n"
	"kernels), a run's split between them is an estimate below one tick of\n"
	"CPU time (user + sys is exact); the header says which the kernel does.\n"
	"\n"
	"Outliers in the table are values more than 5 robust standard deviations\n"
	"(1.4826 MAD) from the median; a warning, as hyperfine gives, follows when\n"
	"a wall time lies more than 14.8 MAD from the median. The run is saved\n"
	"with cells wall, user and sys (seconds); compare two runs with\n"
	"'clockbench compare'.\n"
	"\n"
	"Every run's disturbance is kept: the command's involuntary context\n"
	"switches, migrations and wait for a CPU, the steal of all CPUs, and the\n"
	"tasks runnable besides clockbench when it started. A run disturbed far\n"
	"beyond the others (4 times the median's switches and 4 more; a steal\n"
	"above a tick and above 5% of the CPUs' time during it; more than twice\n"
	"the median run's runnable tasks and a CPU's worth on top; a wait for a\n"
	"CPU of a quarter of the run, 4 times the median's and 1 ms more) is\n"
	"named.\n"
	"\n"
	"Default labels of several commands are exec-ID-K (ID: 8 hex digits of\n"
	"this invocation, K: the command's number, or NAME=VALUE with -L/-P), so\n"
	"that runs of two invocations never pool as replicates of one label.\n"
	"\n"
	"Exit status: 0 on success, 1 when a command fails (exits non-zero or\n"
	"is killed, without --ignore-failure), cannot run, or the run cannot be\n"
	"saved, 2 on a usage error (also: command not found), 3 when --fail-on\n"
	"caught a change, 128+N when stopped by signal N.",
};

static const char *const exec_formats[] = { "table", "json", NULL };
static const char *const exec_orders[] = { "abba", "random", "sequence", NULL };

/* ---- options -------------------------------------------------------- */

/* -c and --prepare: a shell line, kept in order, never empty. */
static int shell_line_option(const struct option_def *opt, const char *arg,
			     struct strbuf *err)
{
	struct exec_lines *l = opt->value;

	if (!*arg) {
		strbuf_addf(err, "--%s: the command is empty", opt->long_name);
		return -1;
	}
	l->line = xrealloc(l->line, (l->n + 1) * sizeof(*l->line));
	l->line[l->n++] = arg;
	return 0;
}

static int list_param_option(const struct option_def *opt, const char *arg,
			     struct strbuf *err)
{
	return exec_parameter_list(opt->value, arg, err);
}

static int range_param_option(const struct option_def *opt, const char *arg,
			      struct strbuf *err)
{
	return exec_parameter_scan(opt->value, arg, err);
}

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_exec_options(int argc, char **argv, struct exec_options *o,
			      struct measure *m)
{
	struct option_def options[] = {
		OPT_INT('n', "runs", "N", &o->runs, 1, 1000000,
			"timed runs of each command (default 10)"),
		OPT_INT('w', "warmup", "N", &o->warmup, 0, 1000000,
			"untimed runs of each command first (default 0)"),
		OPT_CALLBACK('p', "prepare", "CMD", &o->prepares, shell_line_option,
			     "run CMD with /bin/sh -c before every run, untimed\n"
			     "(once: for every command; or once per command)"),
		OPT_CALLBACK('c', "command", "'CMD ARGS'", &o->lines, shell_line_option,
			     "a command to time, split into words as sh would\n"
			     "(repeat: the commands alternate and are compared)"),
		OPT_CALLBACK('L', "parameter-list", "NAME=V1,V2", o, list_param_option,
			     "one command per value, substituted for {NAME}"),
		OPT_CALLBACK('P', "parameter-scan", "NAME=LO..HI[..STEP]", o,
			     range_param_option,
			     "one command per integer from LO to HI, for {NAME}"),
		OPT_STRING(0, "labels", "LIST", &o->labels,
			   "labels of the commands' saved runs (default exec-ID-K)"),
		OPT_CHOICE(0, "order", "ORDER", &o->order, exec_orders,
			   "abba (default: A B B A ...), random (a seeded\n"
			   "shuffle of each repetition) or sequence (A B, A B:\n"
			   "for commands that must run in order, as offline\n"
			   "then online)"),
		OPT_INT(0, "seed", "N", &o->seed, 1, EXEC_SEED_MAX,
			"the seed of --order random (default: chosen, printed)"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 3 when a command is significantly worse,\n"
			   "better or either (change) than the first"),
		OPT_BOOL(0, "shell", &o->shell,
			 "run each command as one /bin/sh -c command line"),
		OPT_BOOL(0, "show-output", &o->show_output,
			 "leave the command's stdout and stderr alone"),
		OPT_BOOL('i', "ignore-failure", &o->ignore_failure,
			 "time runs that exit non-zero instead of stopping"),
		OPT_FORMAT(0, &m->format, exec_formats,
			   "table or json (default table)"),
		STORE_SAVE_OPTIONS(&m->store),
		OPT_END(),
	};
	int n;

	o->runs = 10;
	/* Options end at COMMAND, whose own options are its own. */
	n = parse_options(argc, argv, &exec_usage, options, OPTIONS_STOP_AT_ARG);
	if (n < 0)
		return n;
	if (n > 0 && o->lines.n)
		return options_fail("give the command after -- or with -c, not both");
	if (n == 0 && !o->lines.n)
		return options_fail("no command given (clockbench exec [<options>] -- "
				  "COMMAND [ARGS...], or -c 'COMMAND ARGS')");
	if (n > 0) {
		argv[n] = NULL;
		o->command = argv;
	}
	return 0;
}

/* ---- measuring ------------------------------------------------------ */

static int exec_measure(struct measure *m)
{
	struct exec_campaign *e = m->ctx;
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = exec_campaign_run(e, measure_stop_flag(), &err);

	if (e->harness.failed)
		warn_msg("the empty program %s did not run cleanly: no figure "
			 "for the harness", e->harness.program);
	/* A failure that a stop made moot is said all the same. */
	if (err.len)
		error_msg("%s", err.buf);
	if (rc != 0)
		return -1;
	if (e->cmds[0].s.n == 0 && measure_stopped()) {
		error_msg("stopped before the first timed run");
		return -1;
	}
	strbuf_reset(&err);
	env_collect(&m->env, vdso_self(&img, &err) == 0 ? &img : NULL, err.buf, -1);
	m->have_env = true;
	return 0;
}

static bool exec_record(struct measure *m, size_t k, struct stored_run *run)
{
	return exec_campaign_record(m->ctx, k, run);
}

/* ---- the comparison ---------------------------------------------------- */

/* The comparison of the commands' saved runs, paired; 0 or -1. */
static int build_comparison(struct measure *m, struct compare_group *groups,
			    struct compare_result *cr)
{
	struct exec_campaign *e = m->ctx;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (!measure_enough_repetitions(e->done))
		return -1;
	for (size_t i = 0; i < e->ncmds; i++)
		groups[i].spec = e->cmds[i].label;
	if (compare_session_sides(groups, e->ncmds, m->runs, true, cr, &err) != 0) {
		error_msg("cannot compare the commands: %s", err.buf);
		return -1;
	}
	return 0;
}

/* Each command's warnings, as the engine found them. */
static void warn_commands(const struct exec_campaign *e)
{
	struct exec_report_warnings w;

	for (size_t i = 0; i < e->ncmds; i++) {
		exec_campaign_warnings(e, i, &w);
		exec_report_warn(&w);
	}
}

static int print_several(struct measure *m, FILE *f)
{
	struct exec_campaign *e = m->ctx;
	_cleanup_free_ struct compare_group *groups = xcalloc(e->ncmds, sizeof(*groups));
	struct exec_report_command *cmds;
	struct compare_result cr;
	struct exec_report r;
	int rc = 0;

	if (m->nruns < e->ncmds) {
		error_msg("the commands' runs were not recorded");
		return -1;
	}
	if (build_comparison(m, groups, &cr) != 0)
		return -1;
	cmds = exec_campaign_describe(e, m->format == FORMAT_JSON, m->stop_signal != 0, &r);
	if (m->format == FORMAT_JSON) {
		exec_report_json_print(f, &r, &cr);
	} else {
		exec_report_print_commands(f, &r, m->runs);
		fputc('\n', f);
		fflush(f);
		/*
		 * The table above shows each command's own figures: under it,
		 * the changes alone, so that a command has one figure (the
		 * paired estimate would be a second one for it).
		 */
		rc = compare_print(f, &cr, STYLE_CHANGES, FORMAT_TABLE);
	}
	exec_campaign_describe_free(cmds, e->ncmds);
	fflush(f);
	warn_commands(e);
	if (compare_print_gate(stderr, &cr, (enum compare_gate)e->o.fail_on))
		m->status = EXIT_PROBLEM;
	compare_free(&cr);
	return rc;
}

static int exec_print(struct measure *m, FILE *f)
{
	struct exec_campaign *e = m->ctx;
	struct exec_report_command *cmds;
	struct exec_report r;

	if (e->ncmds > 1)
		return print_several(m, f);
	cmds = exec_campaign_describe(e, m->format == FORMAT_JSON, m->stop_signal != 0, &r);
	if (m->format == FORMAT_JSON)
		exec_report_json_print(f, &r, NULL);
	else
		exec_report_print_command(f, &r, &m->runs[0]);
	exec_campaign_describe_free(cmds, 1);
	fflush(f);
	warn_commands(e);
	return 0;
}

MEASURE_OPS(exec);

/* ---- the command ---------------------------------------------------- */

int cmd_exec(int argc, char **argv)
{
	struct exec_campaign e = EXEC_CAMPAIGN_INIT;
	struct measure m = { .ops = &exec_ops, .ctx = &e };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = parse_exec_options(argc, argv, &e.o, &m);

	/* The programs are the guest's to find: its files are not the host's. */
	if (rc == 0 && options_checking())
		return 0;
	if (rc == 0 && exec_campaign_make(&e, m.store.label != NULL, &err) != 0)
		rc = options_fail("%s", err.buf);
	if (rc < 0) {
		exec_campaign_free(&e);
		return parse_options_status(rc);
	}
	if (exec_campaign_start(&e, &err) != 0) {
		error_msg("%s", err.buf);
		exec_campaign_free(&e);
		return 1;
	}
	rc = measure_run(&m);
	exec_campaign_free(&e);
	return rc;
}
