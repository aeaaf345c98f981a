/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A guard for checks and benchmarks that change machine state (the
 * clocksource, the adjtimex frequency, a CPU's online state): record each
 * piece of state first, run the code that changes it in a supervised
 * child, and put everything back whatever happens to either process.
 *
 *	struct guard g;
 *	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
 *	char line[512];
 *
 *	guard_init(&g);
 *	if (guard_add_file(&g, CLOCKSOURCE_CURRENT, "current_clocksource",
 *			   &err) ||
 *	    guard_add_adjtimex(&g, &err))
 *		return skip(err.buf);
 *	status = guard_run(&g, measure, ctx, &err);
 *	guard_describe(&g, line, sizeof(line));
 *	// "restored current_clocksource tsc; adjtimex ... (found ..., put back)"
 *
 * The two processes watch each other:
 *  - the supervisor (the caller of guard_run) waits for the child and
 *    restores when it ends, however it ends: it returns, exits, crashes,
 *    or is killed with SIGKILL. SIGINT, SIGTERM, SIGHUP and SIGQUIT that
 *    reach the supervisor meanwhile are forwarded to the child.
 *  - the child gets SIGTERM when the supervisor dies (PR_SET_PDEATHSIG),
 *    even of SIGKILL. It then starts a restorer process and exits; the
 *    restorer waits until every thread of the child is gone, so that none
 *    can change the state again, restores, and exits.
 *
 * Restoring compares each item with its record and writes back only what
 * differs, so it is idempotent and says what it had to repair. It uses
 * nothing but system calls (it may run in a signal handler's descendant).
 *
 * Library code: errors are returned, nothing here exits the caller.
 */
#ifndef CLOCKBENCH_GUARD_H
#define CLOCKBENCH_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "basic/strbuf.h"

#define GUARD_MAX_ITEMS 8
#define GUARD_VALUE_MAX 128

/* The child's exit status when it left because its supervisor died. */
#define GUARD_EXIT_ORPHANED 125

enum guard_kind {
	GUARD_FILE,		/* a file's first line (sysfs, procfs) */
	GUARD_ADJTIMEX,		/* the adjtimex frequency, tick and status */
	GUARD_ACTION,		/* a restore step of the caller's own */
};

/* What adjtimex state is recorded and put back. */
struct guard_timex {
	long freq;		/* scaled ppm (16.16), as struct timex */
	long tick;		/* us per clock tick */
	int status;		/* STA_* bits */
};

struct guard_item {
	enum guard_kind kind;
	char what[64];			/* "current_clocksource", for messages */
	char path[256];			/* GUARD_FILE */
	char value[GUARD_VALUE_MAX];	/* GUARD_FILE: the recorded value */
	struct guard_timex tx;		/* GUARD_ADJTIMEX: the recorded state */
	int (*action)(void *arg);	/* GUARD_ACTION: 0 or -1 */
	void *arg;
	/* Set by guard_restore(): */
	bool repaired;			/* it differed from the record */
	char found[GUARD_VALUE_MAX];	/* GUARD_FILE: what was there instead */
	struct guard_timex found_tx;	/* GUARD_ADJTIMEX: likewise */
	int error;			/* errno of a failed restore, 0 */
};

struct guard {
	struct guard_item items[GUARD_MAX_ITEMS];
	size_t n;
	/*
	 * Options, set before guard_run():
	 * graceful: a stop signal (forwarded by the supervisor, or sent to
	 * the child) only sets guard_stop_signal, and the function is
	 * expected to notice it and return; otherwise the child exits at
	 * once with 128 + the signal.
	 * pidfile: the child's pid is written there (a test aid), or NULL.
	 */
	bool graceful;
	const char *pidfile;
	/* Set by guard_run(): */
	pid_t child;
	int stop_signal;		/* a signal the supervisor forwarded, 0 */
	int child_signal;		/* the signal that killed the child, 0 */
};

/* An empty guard. */
void guard_init(struct guard *g);

/*
 * Record the first line of path (trimmed), which restoring writes back.
 * what names it in messages. Returns 0, or -1 with the reason in err
 * (the file cannot be read, the guard is full).
 */
int guard_add_file(struct guard *g, const char *path, const char *what,
		   struct strbuf *err);

/* Record the adjtimex frequency, tick and status. 0, or -1 with err. */
int guard_add_adjtimex(struct guard *g, struct strbuf *err);

/*
 * A restore step of the caller's own (bring a CPU back online, remove a
 * tracing instance), run on every restore: restore(arg) returns 0 when
 * there was nothing to undo, 1 when it undid something, -1 with errno set
 * when it failed. It must be idempotent and use only system calls (it
 * runs in the restorer process too).
 */
int guard_add_action(struct guard *g, const char *what, int (*restore)(void *arg),
		     void *arg, struct strbuf *err);

/*
 * Run fn(arg) in a supervised child, then restore. fn must not block the
 * stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) in all of its threads:
 * they are how the child learns that its supervisor died. Returns the child's
 * exit status (fn's return value, 0..255), 128 + the signal that killed
 * it, or -1 when the child could not be started (with the reason in err;
 * state is restored then too). The supervisor's signal dispositions and
 * mask are as before when it returns; g->stop_signal tells whether a stop
 * signal arrived meanwhile, for the caller to act on, and g->child_signal
 * whether the child was killed (128 + N may also be a graceful child's
 * own exit status after stop signal N).
 */
int guard_run(struct guard *g, int (*fn)(void *arg), void *arg,
	      struct strbuf *err);

/*
 * Put back every item that differs from its record; set each item's
 * repaired, found and error. Returns 0, or -1 when something could not be
 * restored. Uses only system calls.
 */
int guard_restore(struct guard *g);

/* Whether the last restore had to repair anything. */
bool guard_repaired(const struct guard *g);

/*
 * The state as restored, one line: "current_clocksource tsc; adjtimex
 * frequency +0.000 ppm, tick 10000 us, status 0x40", with "(found
 * kvm-clock, put back)" after an item that had to be repaired and
 * "(could not restore: EBUSY)" after one that failed.
 */
void guard_describe(const struct guard *g, char *buf, size_t len);

/*
 * One clockbench at a time changes a piece of machine state: what a second
 * one recorded as "the state to put back" could be the first one's change.
 * Take the lock of name (/run/lock/clockbench-NAME.lock), waiting up to
 * timeout_s and saying so on stderr ("waiting for another clockbench to
 * finish CHANGING"): the descriptor, not close-on-exec, so that children
 * and restorers hold it until the state is back; or -1 with the reason in
 * err.
 */
int guard_lock(const char *name, const char *changing, double timeout_s,
	       struct strbuf *err);

/* In the child of a graceful guard: the stop signal received, or 0. */
extern volatile sig_atomic_t guard_stop_signal;

#endif
