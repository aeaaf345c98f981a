// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench exec: run a command repeatedly and report its wall, user and
 * system time with robust statistics (seed 003's `time echo 0 > ...`, done
 * many times instead of picking "a representative run"). The run is saved,
 * so `clockbench compare` tells whether two commands, or one command on
 * two kernels, differ beyond noise.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/cpu-accounting.h"
#include "probe/env.h"
#include "scenario/exec.h"
#include "report/output.h"
#include "basic/progress.h"
#include "results/record.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "probe/vdso.h"

static const struct command_usage exec_usage = {
	.name = "exec",
	.synopsis = "[<options>] [--] COMMAND [ARGS...]",
	.description =
	"Run COMMAND repeatedly (no shell; found in PATH once, started by\n"
	"posix_spawn) and report its wall, user and system time: median with its\n"
	"95% confidence interval, mean, robust CV, min, max and outliers. Its\n"
	"output goes to /dev/null. An empty program, started the same way, tells\n"
	"what the harness itself costs.",
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
	"Exit status: 0 on success, 1 when the command fails (exits non-zero or\n"
	"is killed, without --ignore-failure), cannot run, or the run cannot be\n"
	"saved, 2 on a usage error (also: command not found), 128+N when stopped\n"
	"by signal N.",
};

static const char *const exec_formats[] = { "table", "json", NULL };

struct exec_options {
	long runs, warmup;
	const char *prepare;
	bool shell, show_output, ignore_failure;
	char **command;		/* argv of COMMAND (NULL-terminated) */
	char program[PATH_MAX];	/* what runs: COMMAND found once, or /bin/sh */
};

struct exec_samples {
	double *wall, *user, *sys;
	size_t n;
};

/* The empty program, timed as the command is: the harness's own cost. */
struct exec_harness {
	char program[PATH_MAX];
	const char *what;	/* "clockbench-empty (static, does nothing)" */
	double *wall;
	size_t n;
};

struct exec_cmd {
	struct exec_options o;
	struct exec_io io;
	struct exec_samples s;
	struct exec_harness harness;
	struct cpu_accounting acct;
	char *cmdline;
};

/* Harness runs: as many as the command's, from 5 to 50. */
#define HARNESS_RUNS_MIN 5
#define HARNESS_RUNS_MAX 50

/* ---- options -------------------------------------------------------- */

/*
 * 0 when the command can be found as execvp() would find it; found here,
 * once, into o->program: no run walks PATH again.
 */
static int check_command(struct exec_options *o)
{
	int rc;

	if (o->shell) {
		snprintf(o->program, sizeof(o->program), "/bin/sh");
		return *o->command[0] ? 0 : options_fail("empty command");
	}
	rc = exec_lookup(o->command[0], getenv("PATH"), o->program, sizeof(o->program));
	if (rc == -ENOENT)
		return options_fail("command not found: %s", o->command[0]);
	if (rc == -EACCES)
		return options_fail("command not executable: %s (permission denied)",
				  o->command[0]);
	return 0;
}

static int prepare_option(const struct option_def *opt, const char *arg,
			  struct strbuf *err)
{
	if (!*arg) {
		strbuf_adds(err, "empty --prepare command");
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_exec_options(int argc, char **argv, struct exec_options *o,
			      struct measure *m)
{
	struct option_def options[] = {
		OPT_INT('n', "runs", "N", &o->runs, 1, 1000000,
			"timed runs (default 10)"),
		OPT_INT('w', "warmup", "N", &o->warmup, 0, 1000000,
			"untimed runs first (default 0)"),
		OPT_CALLBACK('p', "prepare", "CMD", &o->prepare, prepare_option,
			     "run CMD with /bin/sh -c before every run, untimed"),
		OPT_BOOL(0, "shell", &o->shell,
			 "run COMMAND ARGS... as one /bin/sh -c command line"),
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
	if (n == 0)
		return options_fail("no command given (clockbench exec [<options>] -- "
				  "COMMAND [ARGS...])");
	argv[n] = NULL;
	o->command = argv;
	return check_command(o);
}

/* ---- running -------------------------------------------------------- */

/* The argv to execute: COMMAND itself, or /bin/sh -c "COMMAND ARGS". */
static char **exec_argv(const struct exec_options *o, char **shell_line)
{
	char **v;

	*shell_line = NULL;
	if (!o->shell)
		return NULL;
	*shell_line = exec_join_argv(o->command, false);
	v = xcalloc(4, sizeof(char *));
	v[0] = (char *)"/bin/sh";
	v[1] = (char *)"-c";
	v[2] = *shell_line;
	return v;
}

static int run_prepare(const struct exec_options *o, const struct exec_io *io)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)o->prepare, NULL };
	struct exec_result r;
	char how[128];

	if (exec_run("/bin/sh", argv, io, measure_stop_flag(), &r) != 0) {
		error_msg("cannot run the --prepare command: %m");
		return -1;
	}
	if (measure_stopped())
		return -1;
	if (r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		exec_describe_status(r.status, how, sizeof(how));
		error_msg("the --prepare command '%s' %s", o->prepare, how);
		return -1;
	}
	return 0;
}

/* Run number run (-k: warm-up run k): 0, or -1 with the error printed. */
static int run_command(const struct exec_options *o, char **argv,
		       const struct exec_io *io, long run, struct exec_result *r)
{
	char how[128];

	if (o->prepare && run_prepare(o, io) != 0)
		return -1;
	if (exec_run(o->program, argv, io, measure_stop_flag(), r) != 0) {
		error_msg("cannot run %s: %m", o->command[0]);
		return -1;
	}
	if (measure_stopped())
		return -1;
	if (r->exec_errno) {
		error_msg("cannot execute %s: %s%s", o->program, strerror(r->exec_errno),
			  r->exec_errno == ENOEXEC ? " (a script needs a #! line, or "
			  "use --shell)" : "");
		return -1;
	}
	if ((!WIFEXITED(r->status) || WEXITSTATUS(r->status)) && !o->ignore_failure) {
		exec_describe_status(r->status, how, sizeof(how));
		error_msg("the command %s in %srun %ld; use --ignore-failure to "
			  "time it anyway", how, run < 0 ? "warm-up " : "",
			  run < 0 ? -run : run);
		return -1;
	}
	return 0;
}

static size_t harness_runs(const struct exec_options *o)
{
	size_t k = (size_t)o->runs;

	return k < HARNESS_RUNS_MIN ? HARNESS_RUNS_MIN :
	       k > HARNESS_RUNS_MAX ? HARNESS_RUNS_MAX : k;
}

/*
 * The empty program k times, started, fed and reaped as the command is.
 * When it does not run cleanly, a warning and no harness figure: the
 * command's runs do not depend on it.
 */
static void run_harness(const struct exec_io *io, struct exec_harness *h, size_t k)
{
	char *argv[] = { h->program, NULL };
	struct exec_result r;

	for (size_t i = 0; i < k && !measure_stopped(); i++) {
		if (exec_run(h->program, argv, io, measure_stop_flag(), &r) != 0 ||
		    r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
			warn_msg("the empty program %s did not run cleanly: no figure "
				 "for the harness", h->program);
			h->n = 0;
			return;
		}
		h->wall[h->n++] = r.wall_s;
	}
}

/* Warm-up runs, the harness's runs, then the timed runs. */
static int run_all(struct exec_cmd *e)
{
	const struct exec_options *o = &e->o;
	struct exec_samples *s = &e->s;
	_cleanup_free_ char *shell_line = NULL;
	_cleanup_free_ char **shell_argv = exec_argv(o, &shell_line);
	char **argv = shell_argv ? shell_argv : o->command;
	struct progress prog;
	struct exec_result r;
	int rc = 0;

	progress_init(&prog, (size_t)(o->warmup + o->runs));
	for (long i = 0; i < o->warmup + o->runs && !measure_stopped(); i++) {
		long run = i < o->warmup ? -(i + 1) : i - o->warmup + 1;

		if (i == o->warmup)
			run_harness(&e->io, &e->harness, harness_runs(o));
		progress_update(&prog, (size_t)i, i < o->warmup ? "warm-up" : "run");
		if (run_command(o, argv, &e->io, run, &r) != 0) {
			rc = measure_stopped() ? 0 : -1;
			break;
		}
		if (i < o->warmup)
			continue;
		s->wall[s->n] = r.wall_s;
		s->user[s->n] = r.user_s;
		s->sys[s->n] = r.sys_s;
		s->n++;
	}
	progress_done(&prog);
	return rc;
}

/* ---- reporting ------------------------------------------------------ */

static void summarize(const double *x, size_t n, struct summary *s)
{
	_cleanup_free_ double *copy = xmalloc((n ? n : 1) * sizeof(double));

	if (n)
		memcpy(copy, x, n * sizeof(double));
	stats_summarize(copy, n, s);
}

/* A unit that suits the median wall time: s, ms or us, and its scale. */
static const char *pick_unit(double median_s, double *scale)
{
	if (median_s >= 1) {
		*scale = 1;
		return "s";
	}
	if (median_s >= 1e-3) {
		*scale = 1e3;
		return "ms";
	}
	*scale = 1e6;
	return "us";
}

static void print_row(const char *label, const double *x, size_t n, double k)
{
	struct summary s;
	char ci[64];

	summarize(x, n, &s);
	format_median_ci(ci, sizeof(ci), &s, k, 3);
	printf("%-9s %6zu %10.3f %10.3f  %-26s %10.3f %7.1f%% %10.3f %5zu\n",
	       label, s.n, s.min * k, s.median * k, ci, s.mean * k, s.robust_cv_pct,
	       s.max * k, s.outliers);
}

/* What the harness costs, in the table's unit; and what user/sys are worth. */
static void print_harness(const struct exec_cmd *e, const char *unit, double k)
{
	char note[1024];
	struct summary h;

	if (e->harness.n) {
		summarize(e->harness.wall, e->harness.n, &h);
		printf("# harness: %.3f %s a run, rCV %.1f%% (median of %zu runs of %s, "
		       "started and reaped as the command is; not subtracted)\n",
		       h.median * k, unit, h.robust_cv_pct, h.n, e->harness.what);
	} else {
		puts("# harness: not measured");
	}
	cpu_accounting_note(&e->acct, note, sizeof(note));
	printf("# %s\n", note);
}

static void print_table(const struct exec_cmd *e)
{
	const struct exec_options *o = &e->o;
	const struct exec_samples *s = &e->s;
	struct summary w;
	const char *unit;
	char head[32];
	double k;

	summarize(s->wall, s->n, &w);
	unit = pick_unit(w.median, &k);
	fputs("# clockbench exec: ", stdout);
	text_put(stdout, e->cmdline, TEXT_LINE_MAX);
	putchar('\n');
	printf("# %zu runs (%ld warm-up)%s%s, output %s; ", s->n, o->warmup,
	       o->shell ? ", through /bin/sh -c" : ", no shell",
	       o->prepare ? ", with --prepare" : "",
	       o->show_output ? "shown" : "discarded");
	text_put(stdout, o->program, TEXT_LINE_MAX);
	puts(" found once, started by posix_spawn");
	print_harness(e, unit, k);
	snprintf(head, sizeof(head), "time (%s)", unit);
	printf("# [95%% CI] of the median, with its real coverage when the runs are "
	       "too few for 95%%; rCV: robust CV, 100 * 1.4826 MAD / median\n");
	printf("%-9s %6s %10s %10s  %-26s %10s %8s %10s %5s\n", head, "n", "min",
	       "median", "[95% CI]", "mean", "rCV", "max", "outl");
	print_row("wall", s->wall, s->n, k);
	print_row("user", s->user, s->n, k);
	print_row("sys", s->sys, s->n, k);
}

static json_t *doubles_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(x[i]));
	return a;
}

/* The harness's median wall time, NAN when it was not measured. */
static double harness_median(const struct exec_harness *h)
{
	struct summary s;

	if (!h->n)
		return NAN;
	summarize(h->wall, h->n, &s);
	return s.median;
}

static json_t *config_json(const struct exec_cmd *e)
{
	const struct exec_options *o = &e->o;
	json_t *argv = json_array(), *c;

	for (char **a = o->command; *a; a++)
		json_array_append_new(argv, json_string(*a));
	c = json_pack("{s:o, s:s, s:b, s:s?, s:I, s:I, s:b, s:b}",
		      "command", argv, "command_line", e->cmdline,
		      "shell", o->shell, "prepare", o->prepare,
		      "runs", (json_int_t)o->runs, "warmup", (json_int_t)o->warmup,
		      "ignore_failure", o->ignore_failure,
		      "show_output", o->show_output);
	json_object_set_new(c, "program", json_string(o->program));
	json_object_set_new(c, "harness_wall_median_s",
			    json_number(harness_median(&e->harness)));
	json_object_set_new(c, "cpu_accounting", cpu_accounting_to_json(&e->acct));
	return c;
}

static json_t *harness_json(const struct exec_harness *h)
{
	struct summary s;

	summarize(h->wall, h->n, &s);
	return json_pack("{s:s, s:s, s:o, s:o}", "program", h->program, "what", h->what,
			 "wall", summary_to_json(&s), "times", doubles_json(h->wall, h->n));
}

static void print_json(const struct exec_cmd *e, bool interrupted)
{
	const struct exec_samples *s = &e->s;
	struct summary w, u, y;
	json_t *j;

	summarize(s->wall, s->n, &w);
	summarize(s->user, s->n, &u);
	summarize(s->sys, s->n, &y);
	j = json_pack("{s:o, s:I, s:b, s:s, s:o, s:o, s:o, s:I, s:{s:o, s:o, s:o}}",
		      "config", config_json(e), "completed", (json_int_t)s->n,
		      "interrupted", interrupted, "unit", "s",
		      "wall", summary_to_json(&w), "user", summary_to_json(&u),
		      "sys", summary_to_json(&y), "hyperfine_outliers",
		      (json_int_t)exec_outliers(s->wall, s->n), "times",
		      "wall", doubles_json(s->wall, s->n),
		      "user", doubles_json(s->user, s->n),
		      "sys", doubles_json(s->sys, s->n));
	json_object_set_new(j, "harness", e->harness.n ? harness_json(&e->harness) :
			    json_null());
	json_object_set_new(j, "cpu_accounting", cpu_accounting_to_json(&e->acct));
	json_print(stdout, j);
	json_decref(j);
}

/* The warnings hyperfine users know: outliers and a slow first run. */
static void warn_noise(const struct exec_options *o, const struct exec_samples *s)
{
	size_t outliers = exec_outliers(s->wall, s->n);
	struct summary rest;

	if (outliers)
		warn_msg("%zu of %zu wall times are statistical outliers (more than "
			 "%.1f MAD from the median): the machine was not quiet. "
			 "Consider more runs, --warmup or --prepare.", outliers,
			 s->n, EXEC_OUTLIER_MADS);
	if (o->warmup || s->n < 3)
		return;
	summarize(s->wall + 1, s->n - 1, &rest);
	if (s->wall[0] > 2 * rest.median && s->wall[0] > rest.max)
		warn_msg("the first run took %.3g s, far more than the others "
			 "(median %.3g s): caches were probably cold; consider "
			 "--warmup", s->wall[0], rest.median);
}

static bool exec_record(struct measure *m, size_t k, struct stored_run *run)
{
	struct exec_cmd *e = m->ctx;

	if (k > 0)
		return false;
	record_add_cell(run, "wall", "s", e->s.wall, e->s.n);
	record_add_cell(run, "user", "s", e->s.user, e->s.n);
	record_add_cell(run, "sys", "s", e->s.sys, e->s.n);
	run->config = config_json(e);
	return true;
}

/* ---- the command ---------------------------------------------------- */

static int exec_measure(struct measure *m)
{
	struct exec_cmd *e = m->ctx;
	struct vdso_image img;
	char err[128];

	cpu_accounting_probe(&e->acct);
	if (run_all(e) != 0)
		return -1;
	if (e->s.n == 0 && measure_stopped()) {
		error_msg("stopped before the first timed run");
		return -1;
	}
	env_collect(&m->env, vdso_self(&img, err, sizeof(err)) == 0 ? &img : NULL,
		    err, -1);
	m->have_env = true;
	return 0;
}

static int exec_print(struct measure *m, FILE *f)
{
	struct exec_cmd *e = m->ctx;

	if (m->format == 1)
		print_json(e, m->stop_signal != 0);
	else
		print_table(e);
	fflush(f);
	warn_noise(&e->o, &e->s);
	return 0;
}

static const struct measure_ops exec_ops = {
	.command = "exec",
	.measure = exec_measure,
	.print = exec_print,
	.record = exec_record,
};

int cmd_exec(int argc, char **argv)
{
	struct exec_cmd e = { 0 };
	struct measure m = { .ops = &exec_ops, .ctx = &e };
	int rc = parse_exec_options(argc, argv, &e.o, &m);

	if (rc < 0)
		return parse_options_status(rc);
	e.io.show_output = e.o.show_output;
	e.io.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (e.io.devnull < 0) {
		error_msg("cannot open /dev/null: %m");
		return 1;
	}
	e.s.wall = xcalloc((size_t)e.o.runs, sizeof(double));
	e.s.user = xcalloc((size_t)e.o.runs, sizeof(double));
	e.s.sys = xcalloc((size_t)e.o.runs, sizeof(double));
	e.harness.wall = xcalloc(HARNESS_RUNS_MAX, sizeof(double));
	e.harness.what = exec_empty_program(e.harness.program, sizeof(e.harness.program));
	e.cmdline = exec_join_argv(e.o.command, !e.o.shell);

	rc = measure_run(&m);

	close(e.io.devnull);
	free(e.cmdline);
	free(e.s.wall);
	free(e.s.user);
	free(e.s.sys);
	free(e.harness.wall);
	return rc;
}
