/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Timing whole commands (clockbench exec): finding the program as execvp
 * would, once, spawning it with its output discarded, an empty program
 * that measures the harness itself, and hyperfine's outlier rule, so
 * that its users read the same warning.
 */
#ifndef CLOCKBENCH_EXEC_H
#define CLOCKBENCH_EXEC_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

#include "basic/strbuf.h"

/*
 * Where execvp() would find name, searching path_env (PATH; NULL: the
 * libc default) unless name holds a '/'. Returns 0 with the file in out,
 * -ENOENT when there is none, -EACCES when there are only files that
 * cannot be executed (or directories).
 */
int exec_lookup(const char *name, const char *path_env, char *out, size_t len);

/*
 * argv joined by spaces. quote: each word single-quoted for the shell when
 * it holds anything but [A-Za-z0-9_./=:,+@%-] (for showing the command);
 * otherwise verbatim (the text of a --shell command). malloc'd.
 */
char *exec_join_argv(char *const *argv, bool quote);

/*
 * w as one word of a /bin/sh line (malloc'd): verbatim when it holds only
 * [A-Za-z0-9_./=:,+@%-], else single-quoted ('it'\''s'). The one quoting
 * of exec for a shell line.
 */
char *exec_shell_quote(const char *w);

/*
 * line split into words as sh splits a simple command: blanks separate,
 * '...' is literal, "..." keeps \\ \" \$ \` escapes, a backslash outside
 * quotes takes the next character literally. What only a shell can do
 * (unquoted | & ; < > ( ) $ ` * ?, ~ opening a word, or a newline, which
 * ends a command there) is refused, since
 * the words run without one: NULL with the reason in err (which names no
 * option: the caller says how to get a shell). Otherwise a
 * NULL-terminated array of at least one word (exec_free_words()).
 */
char **exec_split_words(const char *line, struct strbuf *err);
void exec_free_words(char **words);
size_t exec_count_words(char *const *words);

/* s with every "{name}" replaced by value (malloc'd); *hits: how many. */
char *exec_substitute(const char *s, const char *name, const char *value,
		      size_t *hits);

/*
 * hyperfine's outlier rule: |x - median| / MAD > 14.826 (a modified
 * z-score above 10; MAD unscaled). With MAD 0, every value off the median
 * counts. The number of such values in x[0..n).
 */
#define EXEC_OUTLIER_MADS 14.826
size_t exec_outliers(const double *x, size_t n);

/* How the child's standard streams are set up. */
struct exec_io {
	int devnull;		/* an open /dev/null */
	bool show_output;	/* stdout and stderr stay the terminal's */
};

struct exec_result {
	double wall_s;		/* spawned to reaped, CLOCK_MONOTONIC */
	double user_s, sys_s;	/* the child's, from wait4() */
	int status;		/* wait status */
	int exec_errno;		/* the exec failed with this, or 0 */
	/* What disturbed it: the child's own context switches (wait4()). */
	long involuntary, voluntary;
	long long migrations;	/* the child's, -1 unknown (no CONFIG_SCHED_DEBUG) */
	/*
	 * The time it waited, runnable, for a CPU (run_delay of
	 * /proc/PID/schedstat): what a busy neighbour on its CPU costs it.
	 * NAN unknown (no CONFIG_SCHED_INFO).
	 */
	double wait_s;
};

/*
 * What disturbed one run of a command (exec) or one repetition (scale),
 * read between runs, never during one.
 */
struct exec_disturb {
	double wall_s;
	long involuntary, voluntary;	/* context switches */
	long long migrations;		/* -1 unknown */
	double wait_ms;			/* runnable, waiting for a CPU; NAN unknown */
	double steal_ms;		/* of all CPUs; NAN unknown */
	long runnable;			/* other tasks runnable at its start, -1 unknown */
	bool disturbed;			/* far beyond the others */
};

/* The medians over a set of runs, each figure over the runs that know it. */
struct exec_disturb_medians {
	double involuntary, runnable, steal_ms, wait_ms;
	size_t runs;
};
void exec_disturb_medians(const struct exec_disturb *runs, size_t n,
			  struct exec_disturb_medians *d);

/*
 * Mark the runs disturbed far beyond the medians d: switches more than
 * EXEC_DISTURB_SWITCH_FACTOR times the median's plus
 * EXEC_DISTURB_SWITCH_EXTRA; a steal of more than a tick and more than
 * EXEC_DISTURB_STEAL_SHARE of every CPU's time during the run; more than
 * twice the median's runnable tasks and a CPU's worth on top (the count
 * moves by a few from run to run on a busy machine: no disturbance); or a
 * wait for a CPU of EXEC_DISTURB_WAIT_SHARE of the run and more than
 * EXEC_DISTURB_SWITCH_FACTOR times the median's plus
 * EXEC_DISTURB_WAIT_EXTRA_MS. Returns how many are marked.
 */
#define EXEC_DISTURB_SWITCH_FACTOR 4
#define EXEC_DISTURB_SWITCH_EXTRA 4
#define EXEC_DISTURB_STEAL_SHARE 0.05
#define EXEC_DISTURB_WAIT_SHARE 0.25
#define EXEC_DISTURB_WAIT_EXTRA_MS 1.0
size_t exec_mark_disturbed(struct exec_disturb *runs, size_t n,
			   const struct exec_disturb_medians *d);

/*
 * The runs' disturbance as saved in a run's quality: "runs" (an array per
 * figure), "disturbed" (the marked runs, numbered from 1) and "machine"
 * (runnable_median, steal_pct: of every CPU's time, wait_pct: the median
 * run's share of its time waiting for a CPU), which compare reads to tell
 * that two runs' machines differed.
 */
json_t *exec_disturb_json(const struct exec_disturb *runs, size_t n);

/* A run's disturbance from the machine before and after it, and its result. */
struct exec_machine;
void exec_disturb_fill(struct exec_disturb *d, const struct exec_result *r,
		       const struct exec_machine *before,
		       const struct exec_machine *after);

/* "12 345 6": run_delay (345 ns) in seconds, NAN when the text is not one. */
double exec_parse_run_delay(const char *schedstat);

/*
 * The machine around a run, read between runs only: the tasks runnable
 * besides clockbench (/proc/loadavg's fourth field, minus this process)
 * and the steal of all CPUs so far (USER_HZ ticks); -1 unknown.
 */
struct exec_machine {
	long runnable;
	long long steal_ticks;
};
void exec_machine_take(struct exec_machine *m);
/* "cpu  1 2 3 4 5 6 7 8 ...": the all-CPU steal, -1 when the text has none. */
long long exec_parse_total_steal(const char *proc_stat);
/* "0.52 0.58 0.59 3/467 12345": runnable tasks (3), -1 when not one. */
long exec_parse_runnable(const char *loadavg);

/*
 * Start program (a path: resolved once, by exec_lookup(), never searched
 * again) with argv, stdin from /dev/null, by posix_spawn: the cheapest
 * start Linux offers (vfork semantics), so that the time is the
 * command's, not a copy of clockbench's address space. Wait for it;
 * while waiting, a signal that interrupts the wait is passed to the child
 * as *forward (when non-zero). 0 (exec_errno set when the program could
 * not be executed), or -1 with errno when it could not be started.
 */
int exec_run(const char *program, char *const *argv, const struct exec_io *io,
	     const volatile sig_atomic_t *forward, struct exec_result *r);

/*
 * The program that measures the harness: clockbench-empty, a static
 * program that does nothing, next to the running binary (no variable
 * names another: it would run as whoever runs exec); /bin/true when it is
 * not installed. Returns
 * what it is, for the report: "clockbench-empty (static, does nothing)", or
 * dynamically linked when the toolchain could not link it statically.
 */
const char *exec_empty_program(char *path, size_t len);

/* "exited with status 3", "was killed by signal 9 (Killed)". */
void exec_describe_status(int status, char *buf, size_t len);

#endif
