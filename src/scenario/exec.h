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
 * (unquoted | & ; < > ( ) $ ` * ?, or ~ opening a word) is refused, since
 * the words run without one: NULL with the reason in err. Otherwise a
 * NULL-terminated array of at least one word (exec_free_words()).
 */
char **exec_split_words(const char *line, char *err, size_t errlen);
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
 * program that does nothing, next to the running binary (or
 * $CLOCKBENCH_EMPTY_PROGRAM); /bin/true when it is not installed. Returns
 * what it is, for the report: "clockbench-empty (static, does nothing)", or
 * dynamically linked when the toolchain could not link it statically.
 */
const char *exec_empty_program(char *path, size_t len);

/* "exited with status 3", "was killed by signal 9 (Killed)". */
void exec_describe_status(int status, char *buf, size_t len);

#endif
