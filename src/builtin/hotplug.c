// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench hotplug: how long taking a CPU offline and back online takes
 * (seed 003: `time echo 0 > /sys/devices/system/cpu/cpu1/online`), repeated
 * with statistics, and which hotplug states the time goes to, from the
 * cpuhp trace events. It runs under the guard (probe/guard.h): the CPU's
 * online state, the tracing instance and tracefs's mount are recorded by
 * the supervisor and put back whichever of the two processes dies.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/cpu-accounting.h"
#include "probe/env.h"
#include "probe/guard.h"
#include "scenario/hotplug.h"
#include "report/hotplug-table.h"
#include "basic/progress.h"
#include "results/record.h"
#include "results/run-settings.h"
#include "basic/util.h"
#include "probe/vdso.h"

static const struct command_usage hotplug_usage = {
	.name = "hotplug",
	.synopsis = "[--cpu N] [--cycles K] [<options>]",
	.description =
	"Take a CPU offline and back online K times and time every transition\n"
	"(wall time, and the user and system time of the writing thread). With\n"
	"tracefs, the cpuhp trace events give the time of every hotplug state,\n"
	"so a table shows which steps cost most. Needs root.",
	.footer =
	"The CPU always ends online and tracing as it was: a supervising process\n"
	"and the measuring process watch each other, and the survivor restores\n"
	"both; SIGINT or SIGTERM are forwarded to the measuring process (it\n"
	"finishes the transition under way and reports what it measured). Tracing\n"
	"runs in a private tracefs instance, removed afterwards; tracefs is\n"
	"mounted when it is not, and unmounted again. Instances left by dead\n"
	"clockbench processes are removed first.\n"
	"\n"
	"Exit status: 0 on success, 1 on a runtime error (including a CPU that is\n"
	"not hot-pluggable, offline, or the last online CPU), 2 on a usage error\n"
	"(such as no such CPU), 4 when not root (skipped), 128+N when stopped by\n"
	"signal N.",
};

static const char *const hotplug_formats[] = { "table", "json", NULL };

struct hotplug_options {
	long cpu;		/* -1: default */
	long cycles;
	double pause_s;
	bool no_trace;
	long top;
	const char *pidfile;
};

/* One direction of the transitions: its samples and per-state times. */
struct direction {
	const char *name;	/* "offline", "online" */
	double *wall, *user, *sys;
	size_t n;
	struct state_table states;
};

struct hotplug_run {
	struct hotplug_options o;
	char tracing_dir[PATH_MAX];	/* where tracefs is or will be mounted */
	bool tracefs_mounted;		/* before the run */
	char instance[64];		/* clockbench-hotplug-<supervisor pid> */
	struct hotplug_guard guarded;	/* what the guard's actions undo */
	struct hotplug_tracing tracing;
	struct hotplug_states names;
	struct direction dir[2];	/* offline, online */
	struct measure *m;		/* the runner's view: env, interrupted */
};

/* ---- options -------------------------------------------------------- */

static int pause_option(const struct option_def *opt, const char *arg,
			struct strbuf *err)
{
	if (streq(arg, "0") || parse_duration(arg, opt->value))
		return 0;
	strbuf_addf(err, "invalid --pause '%s': expected a duration such as 0, "
		    "100ms or 1s", arg);
	return -1;
}

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_hotplug_options(int argc, char **argv, struct hotplug_options *o,
				 struct measure *m)
{
	struct option_def options[] = {
		OPT_INT(0, "cpu", "N", &o->cpu, 0, 1 << 20,
			"the CPU to cycle (default: the highest-numbered CPU\n"
			"that can be taken offline)"),
		OPT_INT(0, "cycles", "K", &o->cycles, 1, 100000,
			"offline/online cycles (default 20)"),
		OPT_CALLBACK(0, "pause", "TIME", &o->pause_s, pause_option,
			     "wait TIME after each transition, e.g. 100ms (default 0)"),
		OPT_BOOL(0, "no-trace", &o->no_trace,
			 "time the transitions only, without tracefs"),
		OPT_INT(0, "top", "N", &o->top, 1, 1000,
			"hotplug states shown and saved per direction (default 10)"),
		OPT_FORMAT(0, &m->format, hotplug_formats,
			   "table or json (default table)"),
		OPT_STRING(0, "pidfile", "FILE", &o->pidfile,
			   "write the measuring process's pid to FILE"),
		STORE_SAVE_OPTIONS(&m->store),
		OPT_END(),
	};
	int n;

	o->cpu = -1;
	o->cycles = 20;
	o->top = 10;
	n = parse_options(argc, argv, &hotplug_usage, options, OPTIONS_NO_ARGS);
	return n < 0 ? n : 0;
}

/* ---- measuring (in the supervised child) ---------------------------- */

/* Run the writes from another CPU than the one going away. */
static void pin_away_from(int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	CPU_CLR(cpu, &set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			cpu_set_t one;

			CPU_ZERO(&one);
			CPU_SET(c, &one);
			if (sched_setaffinity(0, sizeof(one), &one) == 0)
				return;
		}
}

static void direction_init(struct direction *d, const char *name, size_t cap)
{
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->wall = xcalloc(cap, sizeof(double));
	d->user = xcalloc(cap, sizeof(double));
	d->sys = xcalloc(cap, sizeof(double));
}

static void direction_free(struct direction *d)
{
	free(d->wall);
	free(d->user);
	free(d->sys);
	state_table_free(&d->states);
}

/* The steps of the transition just made, into d's state table. */
static void account_trace(struct hotplug_run *run, struct direction *d)
{
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	_cleanup_free_ struct cpuhp_step *steps = NULL;
	ssize_t n = hotplug_trace_read(&run->tracing, (unsigned int)run->o.cpu, &ev);
	size_t nsteps;

	if (n < 0) {
		warn_msg("cannot read the trace: %m; per-state times stop here");
		run->tracing.active = false;
		return;
	}
	nsteps = cpuhp_step_times(ev, (size_t)n, &steps);
	state_table_add_cycle(&d->states, steps, nsteps);
}

/* One write to cpuN/online, timed. 0 or -errno. */
static int transition(struct hotplug_run *run, int fd, bool online)
{
	struct direction *d = &run->dir[online];
	struct rusage ru0, ru1;
	double t0, t1;
	int rc;

	if (run->tracing.active && hotplug_trace_clear(&run->tracing) != 0)
		run->tracing.active = false;
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = monotonic_s();
	rc = hotplug_write_online(fd, online);
	t1 = monotonic_s();
	getrusage(RUSAGE_THREAD, &ru1);
	if (rc)
		return rc;
	d->wall[d->n] = t1 - t0;
	d->user[d->n] = timeval_s(&ru1.ru_utime) - timeval_s(&ru0.ru_utime);
	d->sys[d->n] = timeval_s(&ru1.ru_stime) - timeval_s(&ru0.ru_stime);
	d->n++;
	if (run->tracing.active)
		account_trace(run, d);
	return 0;
}

/* A pause that a stop request cuts short. */
static void pause_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	if (s > 0 && !measure_stopped())
		nanosleep(&ts, NULL);
}

/* A transition, then the pause after it: 0, or -errno with the error said. */
static int transition_then_pause(struct hotplug_run *run, int fd, bool online)
{
	int rc = transition(run, fd, online);

	if (rc) {
		error_msg("cannot %s CPU %ld %s: %s", online ? "bring" : "take",
			  run->o.cpu, online ? "back online" : "offline", strerror(-rc));
		return rc;
	}
	pause_s(run->o.pause_s);
	return 0;
}

static int measure_cycles(struct hotplug_run *run)
{
	int fd = hotplug_open_online(HOTPLUG_SYSFS_CPU, run->o.cpu), rc = 0;
	struct progress prog;
	char what[64];

	if (fd < 0) {
		error_msg("cannot open cpu%ld/online: %s", run->o.cpu, strerror(-fd));
		return 1;
	}
	progress_init(&prog, (size_t)run->o.cycles);
	for (long k = 0; k < run->o.cycles && !measure_stopped(); k++) {
		snprintf(what, sizeof(what), "CPU %ld offline/online", run->o.cpu);
		progress_update(&prog, (size_t)k, what);
		/* Online always, even when asked to stop: the CPU must come back. */
		rc = transition_then_pause(run, fd, false);
		if (rc == 0)
			rc = transition_then_pause(run, fd, true);
		if (rc)
			break;
	}
	progress_done(&prog);
	close(fd);
	return rc ? 1 : 0;
}

/* ---- reporting ------------------------------------------------------ */

/* The run as report/hotplug-table.c prints it; lines: 2 x the states. */
static void describe_run(const struct hotplug_run *run, struct hotplug_report *h,
			 struct hotplug_state_line *lines)
{
	*h = (struct hotplug_report){
		.cpu = run->o.cpu, .cycles = run->o.cycles, .top = (size_t)run->o.top,
		.interrupted = run->m->stop_signal != 0,
		.tracing = !run->o.no_trace ? run->tracing.note : "off (--no-trace)",
		.lost = run->tracing.lost, .env = &run->m->env,
	};
	for (int i = 0; i < 2; i++) {
		const struct direction *d = &run->dir[i];
		const struct state_table *t = &d->states;

		for (size_t k = 0; k < t->nrows; k++)
			lines[k] = (struct hotplug_state_line){
				.step = t->rows[k].step,
				.name = hotplug_state_name(&run->names, t->rows[k].step),
				.fn = t->rows[k].fn, .values = t->rows[k].values,
				.mean_s = t->rows[k].mean_s, .failed = t->rows[k].failed,
			};
		h->dir[i] = (struct hotplug_report_direction){
			.name = d->name, .wall = d->wall, .user = d->user,
			.sys = d->sys, .n = d->n, .states = lines,
			.nstates = t->nrows, .ncycles = t->ncycles,
		};
		lines += t->nrows;
	}
}

/* ---- saving --------------------------------------------------------- */

static void add_state_cells(struct stored_run *sr, const struct hotplug_run *run,
			    const struct direction *d)
{
	const struct state_table *t = &d->states;
	char name[160];

	for (size_t i = 0; i < t->nrows && i < (size_t)run->o.top; i++) {
		const char *state = hotplug_state_name(&run->names, t->rows[i].step);

		if (streq(state, "?"))
			snprintf(name, sizeof(name), "state:step-%d:%s",
				 t->rows[i].step, d->name);
		else
			snprintf(name, sizeof(name), "state:%s:%s", state, d->name);
		record_add_cell(sr, name, "s", t->rows[i].values, t->ncycles);
	}
}

static bool hotplug_record(struct measure *m, size_t k, struct stored_run *sr)
{
	const struct hotplug_run *run = m->ctx;
	struct cpu_accounting acct;
	char name[64];

	if (k > 0)
		return false;
	for (int i = 0; i < 2; i++) {
		const struct direction *d = &run->dir[i];

		record_add_cell(sr, d->name, "s", d->wall, d->n);
		snprintf(name, sizeof(name), "%s-user", d->name);
		record_add_cell(sr, name, "s", d->user, d->n);
		snprintf(name, sizeof(name), "%s-sys", d->name);
		record_add_cell(sr, name, "s", d->sys, d->n);
	}
	for (int i = 0; i < 2; i++)
		add_state_cells(sr, run, &run->dir[i]);
	/* Below a tick its user/sys are estimates: compare says so. */
	cpu_accounting_probe(&acct);
	sr->config = hotplug_settings_json(&(struct hotplug_settings){
		.cpu = run->o.cpu, .cycles = (double)run->o.cycles,
		.pause_s = run->o.pause_s, .trace = !run->o.no_trace,
		.tracing = !run->o.no_trace ? run->tracing.note : "off",
		.accounting = &acct,
	});
	return true;
}

/* In the measuring process: dead runs' instances first, then our own. */
static void start_tracing(struct hotplug_run *run)
{
	_cleanup_strbuf_ struct strbuf report = STRBUF_INIT;
	const char *line, *nl;

	hotplug_tracing_start(&run->tracing, run->tracing_dir, run->instance, &report);
	for (line = report.buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(stderr, "%s: %.*s\n", program_context(), (int)(nl - line), line);
	}
	if (!run->tracing.active)
		warn_msg("no per-state times: %s", run->tracing.note);
}

static int hotplug_measure(struct measure *m)
{
	struct hotplug_run *run = m->ctx;
	int rc;

	if (!run->o.no_trace)
		start_tracing(run);
	pin_away_from((int)run->o.cpu);
	rc = measure_cycles(run);
	hotplug_tracing_stop(&run->tracing);
	for (int i = 0; i < 2; i++)
		state_table_rank(&run->dir[i].states);
	if (run->dir[1].n == 0) {
		if (!rc)
			error_msg("stopped before the first cycle completed");
		return -1;
	}
	return 0;
}

static int hotplug_print(struct measure *m, FILE *f)
{
	const struct hotplug_run *run = m->ctx;
	_cleanup_free_ struct hotplug_state_line *lines =
		xcalloc(run->dir[0].states.nrows + run->dir[1].states.nrows + 1,
			sizeof(*lines));
	struct hotplug_report h;

	describe_run(run, &h, lines);
	if (m->format == FORMAT_JSON) {
		if (hotplug_report_json_print(f, &h) == 0)
			return 0;
		error_msg("cannot build the JSON document");
		return -1;
	}
	hotplug_report_print(f, &h, &m->runs[0]);
	return 0;
}

MEASURE_OPS(hotplug);

/* ---- setting up (in the supervisor) --------------------------------- */

/* A usage error for no such CPU, or not root: the exit status; else 0. */
static int check_cpu(const struct hotplug_options *o)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (o->cpu >= 0 && hotplug_check_cpu(HOTPLUG_SYSFS_CPU, (int)o->cpu, &why) ==
	    HOTPLUG_NO_SUCH_CPU)
		return usage_fail("invalid --cpu %ld: %s", o->cpu, why.buf);
	if (geteuid() != 0) {
		fprintf(stderr, "%s: skipped: needs root to take a CPU offline "
			"(writes %s/cpuN/online)\n", program_context(),
			HOTPLUG_SYSFS_CPU);
		return EXIT_SKIP;
	}
	return 0;
}

/*
 * Under the lock (another run's CPU may be offline until then): the CPU
 * asked for can be cycled, or the default one. 0, or 1 with the error said.
 */
static int pick_cpu(struct hotplug_options *o)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (o->cpu < 0) {
		o->cpu = hotplug_default_cpu(HOTPLUG_SYSFS_CPU);
		if (o->cpu >= 0)
			return 0;
		error_msg("no CPU here can be taken offline (none is "
			  "hot-pluggable, or only one is online)");
		return 1;
	}
	if (hotplug_check_cpu(HOTPLUG_SYSFS_CPU, (int)o->cpu, &why) == HOTPLUG_USABLE)
		return 0;
	error_msg("%s", why.buf);
	return 1;
}

static void collect_env(struct measure *m)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	bool have_vdso = vdso_self(&img, &err) == 0;

	env_collect(&m->env, have_vdso ? &img : NULL, err.buf, -1);
	m->have_env = true;
}

static void load_state_names(struct hotplug_states *names)
{
	_cleanup_free_ char *text =
		read_text_file(HOTPLUG_SYSFS_CPU "/hotplug/states", 1 << 16);

	hotplug_states_parse(text ? text : "", names);
}

/* Under the guard's lock: the state a run may change, recorded. */
static int record_state(struct measure *m, struct guard *g)
{
	struct hotplug_run *run = m->ctx;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	/* A build without libtracefs changes nothing in tracefs. */
	bool trace = !run->o.no_trace && hotplug_tracing_built();

	if (pick_cpu(&run->o) != 0)
		return 1;
	if (trace)
		hotplug_tracing_where(run->tracing_dir, sizeof(run->tracing_dir),
				      &run->tracefs_mounted);
	snprintf(run->instance, sizeof(run->instance), HOTPLUG_INSTANCE_PREFIX "%d",
		 (int)getpid());
	if (hotplug_guard_add(g, &run->guarded, HOTPLUG_SYSFS_CPU, (int)run->o.cpu,
			      trace ? run->tracing_dir : NULL, run->tracefs_mounted,
			      run->instance, &err) == 0)
		return 0;
	error_msg("%s", err.buf);
	return 1;
}

int cmd_hotplug(int argc, char **argv)
{
	struct hotplug_run run = { 0 };
	struct measure m = { .ops = &hotplug_ops, .ctx = &run };
	struct guarded_run guarded = {
		.lock = "hotplug",
		.changing = "taking a CPU offline",
		.record = record_state,
	};
	int rc = parse_hotplug_options(argc, argv, &run.o, &m);

	if (rc < 0)
		return parse_options_status(rc);
	/* The guest's CPUs are not the host's: check_cpu() is the guest's. */
	if (options_checking())
		return 0;
	rc = check_cpu(&run.o);
	if (rc)
		return rc;
	run.m = &m;
	guarded.pidfile = run.o.pidfile;
	collect_env(&m);
	load_state_names(&run.names);
	direction_init(&run.dir[0], "offline", (size_t)run.o.cycles);
	direction_init(&run.dir[1], "online", (size_t)run.o.cycles);

	rc = measure_run_guarded(&m, &guarded);

	for (int i = 0; i < 2; i++)
		direction_free(&run.dir[i]);
	hotplug_states_free(&run.names);
	env_free(&m.env);	/* the supervisor's copy; the child freed its own */
	return rc;
}
