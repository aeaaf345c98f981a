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
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "probe/env.h"
#include "scenario/exec.h"
#include "report/output.h"
#include "basic/progress.h"
#include "results/record.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "probe/vdso.h"

void usage_exec(FILE *f)
{
	fputs("usage: clockbench exec [<options>] [--] COMMAND [ARGS...]\n"
	      "\n"
	      "Run COMMAND repeatedly (fork and execvp, no shell) and report its wall,\n"
	      "user and system time: median with its 95% confidence interval, mean,\n"
	      "robust CV, min, max and outliers. Its output goes to /dev/null.\n"
	      "\n"
	      "  -n, --runs N          timed runs (default 10)\n"
	      "  -w, --warmup N        untimed runs first (default 0)\n"
	      "  -p, --prepare CMD     run CMD with /bin/sh -c before every run, untimed\n"
	      "      --shell           run COMMAND ARGS... as one /bin/sh -c command line\n"
	      "      --show-output     leave the command's stdout and stderr alone\n"
	      "  -i, --ignore-failure  time runs that exit non-zero instead of stopping\n"
	      "      --format FMT      table or json (default table)\n"
	      RECORD_USAGE
	      "  -h, --help            this text\n"
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
	      "by signal N.\n", f);
}

struct exec_options {
	long runs, warmup;
	const char *prepare;
	bool shell, show_output, ignore_failure, json;
	char **command;		/* argv of COMMAND (NULL-terminated) */
	struct store_options store;
};

struct exec_samples {
	double *wall, *user, *sys;
	size_t n;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* ---- options -------------------------------------------------------- */

enum { OPT_SHELL = 256, OPT_SHOW_OUTPUT, OPT_FORMAT };

static const struct option exec_longopts[] = {
	{ "runs", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "prepare", required_argument, NULL, 'p' },
	{ "shell", no_argument, NULL, OPT_SHELL },
	{ "show-output", no_argument, NULL, OPT_SHOW_OUTPUT },
	{ "ignore-failure", no_argument, NULL, 'i' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	RECORD_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse_exec_option(int opt, const char *arg, char **argv,
			      struct exec_options *o)
{
	switch (opt) {
	case 'n':
		if (!parse_int(arg, 1, 1000000, &o->runs))
			usage_error("invalid --runs '%s': expected a number from 1 to "
				    "1000000", arg);
		break;
	case 'w':
		if (!parse_int(arg, 0, 1000000, &o->warmup))
			usage_error("invalid --warmup '%s': expected a number from 0 "
				    "to 1000000", arg);
		break;
	case 'p':
		if (!*arg)
			usage_error("empty --prepare command");
		o->prepare = arg;
		break;
	case OPT_SHELL:
		o->shell = true;
		break;
	case OPT_SHOW_OUTPUT:
		o->show_output = true;
		break;
	case 'i':
		o->ignore_failure = true;
		break;
	case OPT_FORMAT:
		if (!streq(arg, "table") && !streq(arg, "json"))
			usage_error("unknown format '%s' (table, json)", arg);
		o->json = streq(arg, "json");
		break;
	default:
		if (store_parse_option(opt, arg, &o->store))
			break;
		usage_bad_option(opt, argv);
	}
}

/* Exits 2 unless the command can be found as execvp() would find it. */
static void check_command(const struct exec_options *o)
{
	char path[4096];
	int rc;

	if (o->shell) {
		if (!*o->command[0])
			usage_error("empty command");
		return;
	}
	rc = exec_lookup(o->command[0], getenv("PATH"), path, sizeof(path));
	if (rc == -ENOENT)
		usage_error("command not found: %s", o->command[0]);
	if (rc == -EACCES)
		usage_error("command not executable: %s (permission denied)",
			    o->command[0]);
}

static void parse_exec_options(int argc, char **argv, struct exec_options *o)
{
	int opt;

	memset(o, 0, sizeof(*o));
	o->runs = 10;
	/* '+': options end at COMMAND, whose own options are its own. */
	while ((opt = getopt_long(argc, argv, "+:hn:w:p:i", exec_longopts,
				  NULL)) != -1) {
		if (opt == 'h') {
			usage_exec(stdout);
			exit(0);
		}
		parse_exec_option(opt, optarg, argv, o);
	}
	if (optind >= argc)
		usage_error("no command given (clockbench exec [<options>] -- "
			    "COMMAND [ARGS...])");
	o->command = argv + optind;
	check_command(o);
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

	if (exec_run(argv, io, &stop_signal, &r) != 0) {
		error_msg("cannot run the --prepare command: %m");
		return -1;
	}
	if (stop_signal)
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
	if (exec_run(argv, io, &stop_signal, r) != 0) {
		error_msg("cannot run %s: %m", o->command[0]);
		return -1;
	}
	if (stop_signal)
		return -1;
	if (r->exec_errno) {
		error_msg("cannot execute %s: %s", argv[0], strerror(r->exec_errno));
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

static int run_all(const struct exec_options *o, const struct exec_io *io,
		   struct exec_samples *s)
{
	_cleanup_free_ char *shell_line = NULL;
	_cleanup_free_ char **shell_argv = exec_argv(o, &shell_line);
	char **argv = shell_argv ? shell_argv : o->command;
	struct progress prog;
	struct exec_result r;
	int rc = 0;

	progress_init(&prog, (size_t)(o->warmup + o->runs));
	for (long i = 0; i < o->warmup + o->runs && !stop_signal; i++) {
		long run = i < o->warmup ? -(i + 1) : i - o->warmup + 1;

		progress_update(&prog, (size_t)i, i < o->warmup ? "warm-up" : "run");
		if (run_command(o, argv, io, run, &r) != 0) {
			rc = stop_signal ? 0 : -1;
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

static void print_table(const struct exec_options *o, const struct exec_samples *s,
			const char *cmdline)
{
	struct summary w;
	const char *unit;
	char head[32];
	double k;

	summarize(s->wall, s->n, &w);
	unit = pick_unit(w.median, &k);
	printf("# clockbench exec: %s\n", cmdline);
	printf("# %zu runs (%ld warm-up)%s%s, output %s\n", s->n, o->warmup,
	       o->shell ? ", through /bin/sh -c" : ", no shell",
	       o->prepare ? ", with --prepare" : "",
	       o->show_output ? "shown" : "discarded");
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

static json_t *config_json(const struct exec_options *o, const char *cmdline)
{
	json_t *argv = json_array();

	for (char **a = o->command; *a; a++)
		json_array_append_new(argv, json_string(*a));
	return json_pack("{s:o, s:s, s:b, s:s?, s:I, s:I, s:b, s:b}",
			 "command", argv, "command_line", cmdline,
			 "shell", o->shell, "prepare", o->prepare,
			 "runs", (json_int_t)o->runs, "warmup", (json_int_t)o->warmup,
			 "ignore_failure", o->ignore_failure,
			 "show_output", o->show_output);
}

static void print_json(const struct exec_options *o, const struct exec_samples *s,
		       const char *cmdline, bool interrupted)
{
	struct summary w, u, y;
	json_t *j;

	summarize(s->wall, s->n, &w);
	summarize(s->user, s->n, &u);
	summarize(s->sys, s->n, &y);
	j = json_pack("{s:o, s:I, s:b, s:s, s:o, s:o, s:o, s:I, s:{s:o, s:o, s:o}}",
		      "config", config_json(o, cmdline), "completed", (json_int_t)s->n,
		      "interrupted", interrupted, "unit", "s",
		      "wall", summary_to_json(&w), "user", summary_to_json(&u),
		      "sys", summary_to_json(&y), "hyperfine_outliers",
		      (json_int_t)exec_outliers(s->wall, s->n), "times",
		      "wall", doubles_json(s->wall, s->n),
		      "user", doubles_json(s->user, s->n),
		      "sys", doubles_json(s->sys, s->n));
	json_dumpf(j, stdout, JSON_INDENT(2));
	putchar('\n');
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

static int save_run(const struct exec_options *o, const struct exec_samples *s,
		    const char *cmdline, const struct timespec *started,
		    double elapsed_s, bool interrupted)
{
	struct stored_run sr;
	struct env_info env;
	struct vdso_image img;
	char err[128];
	int rc;

	env_collect(&env, vdso_self(&img, err, sizeof(err)) == 0 ? &img : NULL,
		    err, -1);
	record_begin(&sr, "exec", &o->store, &env, started);
	record_add_cell(&sr, "wall", "s", s->wall, s->n);
	record_add_cell(&sr, "user", "s", s->user, s->n);
	record_add_cell(&sr, "sys", "s", s->sys, s->n);
	sr.config = config_json(o, cmdline);
	record_finish(&sr, elapsed_s, interrupted);
	rc = record_save(&o->store, &sr);
	stored_run_free(&sr);
	env_free(&env);
	return rc;
}

/* ---- the command ---------------------------------------------------- */

static void install_stop_handlers(void)
{
	struct sigaction sa;

	/* No SA_RESTART: a wait for the command ends, and it gets the signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int report(const struct exec_options *o, const struct exec_samples *s,
		  const struct timespec *started, double elapsed_s)
{
	_cleanup_free_ char *cmdline = exec_join_argv(o->command, !o->shell);
	bool interrupted = stop_signal != 0;
	int rc = 0;

	if (o->json)
		print_json(o, s, cmdline, interrupted);
	else
		print_table(o, s, cmdline);
	if (fflush(stdout) != 0) {
		error_msg("cannot write the results: %m");
		rc = 1;
	}
	warn_noise(o, s);
	if (save_run(o, s, cmdline, started, elapsed_s, interrupted) != 0)
		rc = 1;
	return rc;
}

int cmd_exec(int argc, char **argv)
{
	struct exec_options o;
	struct exec_samples s;
	struct exec_io io;
	struct timespec started;
	double start;
	int rc;

	parse_exec_options(argc, argv, &o);
	io.show_output = o.show_output;
	io.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (io.devnull < 0) {
		error_msg("cannot open /dev/null: %m");
		return 1;
	}
	memset(&s, 0, sizeof(s));
	s.wall = xcalloc((size_t)o.runs, sizeof(double));
	s.user = xcalloc((size_t)o.runs, sizeof(double));
	s.sys = xcalloc((size_t)o.runs, sizeof(double));

	install_stop_handlers();
	clock_gettime(CLOCK_REALTIME, &started);
	start = mono_s();
	rc = run_all(&o, &io, &s) != 0 ? 1 : 0;
	if (!rc && s.n == 0 && stop_signal)
		error_msg("stopped before the first timed run");
	else if (!rc && report(&o, &s, &started, mono_s() - start) != 0)
		rc = 1;
	if (stop_signal)
		rc = 128 + stop_signal;

	close(io.devnull);
	free(s.wall);
	free(s.user);
	free(s.sys);
	return rc;
}
