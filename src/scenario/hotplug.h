/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU hotplug: taking a CPU offline and back through sysfs, the cpuhp trace
 * events that time every hotplug step, and the supervisor that puts
 * everything back (the CPU online, tracefs as it was) whatever happens to
 * the process that measures.
 *
 * The trace pieces (hotplug-trace.c) are pure functions on text, so they
 * are tested on captured traces; the system pieces (hotplug.c) take the
 * sysfs CPU directory as a parameter, so they are tested on a fake tree.
 */
#ifndef CLOCKBENCH_HOTPLUG_H
#define CLOCKBENCH_HOTPLUG_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOTPLUG_SYSFS_CPU "/sys/devices/system/cpu"
#define HOTPLUG_TRACEFS "/sys/kernel/tracing"

/* ---- cpuhp trace events (hotplug-trace.c) --------------------------- */

enum cpuhp_kind {
	CPUHP_ENTER,		/* cpuhp_enter: a state's callback starts */
	CPUHP_MULTI_ENTER,	/* cpuhp_multi_enter: one instance's callback */
	CPUHP_EXIT,		/* cpuhp_exit: the callback returned */
};

struct cpuhp_event {
	enum cpuhp_kind kind;
	int pid;		/* the task that ran the callback */
	unsigned int cpu;	/* the CPU being plugged */
	int step;		/* the state whose callback ran */
	int target;		/* enter: the target state; exit: state after */
	int ret;		/* exit: the callback's return value */
	uint64_t ts_ns;		/* trace timestamp */
	char fn[64];		/* enter: the callback's symbol */
};

/*
 * One line of a tracefs `trace` file ("comm-pid [cpu] flags secs.usecs:
 * cpuhp_enter: cpu: 0001 target: 144 step: 236 (fn)"): true when it is a
 * well-formed cpuhp event, which then fills ev.
 */
bool cpuhp_parse_line(const char *line, struct cpuhp_event *ev);

/*
 * Every cpuhp event of text for CPU cpu, in trace order, as a malloc'd
 * array (*out, may be NULL when none). *lost gets the events the ring
 * buffer dropped, from the "entries-in-buffer/entries-written" header
 * (0 when absent).
 */
size_t cpuhp_parse_trace(const char *text, unsigned int cpu,
			 struct cpuhp_event **out, uint64_t *lost);

/* The time one transition spent in one hotplug state. */
struct cpuhp_step {
	int step;
	char fn[64];		/* the first callback seen for the state */
	double self_s;		/* minus the steps other tasks ran inside it */
	double total_s;		/* enter to exit, summed over instances */
	unsigned int calls;	/* callbacks run (instances of a multi state) */
	bool failed;		/* a callback returned an error */
};

/*
 * Pair each enter with its exit (same task, same step) and charge every
 * state its self time: a step that waits for steps run by another task
 * (the control task's cpuhp_kick_ap_work and cpuhp_bringup_ap enclose the
 * hotplug thread's steps on the CPU itself) is charged its duration minus
 * theirs, so the states add up to the traced time once. Unpaired events are
 * ignored. Returns the states in ascending step order (malloc'd *out).
 */
size_t cpuhp_step_times(const struct cpuhp_event *ev, size_t n,
			struct cpuhp_step **out);

/* The names of /sys/devices/system/cpu/hotplug/states, by state number. */
struct hotplug_states {
	char **names;		/* names[step], NULL where undefined */
	size_t count;		/* highest step + 1 */
};

/* Parse "%3d: name" lines; unparsable lines are skipped. */
void hotplug_states_parse(const char *text, struct hotplug_states *s);
/* The state's name, or "?" when unknown. */
const char *hotplug_state_name(const struct hotplug_states *s, int step);
void hotplug_states_free(struct hotplug_states *s);

/* Per-state self time of one direction, one value per cycle. */
struct state_row {
	int step;
	char fn[64];
	double *values;		/* seconds per cycle, 0 where not seen */
	double mean_s;		/* set by state_table_rank() */
	bool failed;
};

struct state_table {
	struct state_row *rows;	/* ascending step until state_table_rank() */
	size_t nrows;
	size_t ncycles;
	size_t cap;		/* capacity of every row's values */
};

/* Add one cycle's steps; states seen before but not now get 0. */
void state_table_add_cycle(struct state_table *t, const struct cpuhp_step *s,
			   size_t n);
/* Mean over the cycles of row r. */
double state_row_mean(const struct state_table *t, const struct state_row *r);
/* Set every mean_s and order rows by it, largest first (ties: by step). */
void state_table_rank(struct state_table *t);
void state_table_free(struct state_table *t);

/* ---- sysfs and tracefs (hotplug.c) ---------------------------------- */

/* A cpulist ("0-3,8,10-11"): true when it parses; counts and membership. */
bool cpulist_parse(const char *list, int cpu, bool *has, int *count);

enum hotplug_verdict {
	HOTPLUG_USABLE,
	HOTPLUG_NO_SUCH_CPU,		/* not present */
	HOTPLUG_NOT_HOTPLUGGABLE,	/* no online file */
	HOTPLUG_OFFLINE,		/* already offline */
	HOTPLUG_LAST_ONLINE,		/* the only online CPU */
};

/* Whether CPU cpu under root (HOTPLUG_SYSFS_CPU) can be cycled; why says why not. */
enum hotplug_verdict hotplug_check_cpu(const char *root, int cpu, char *why,
				       size_t len);
/* The highest-numbered usable CPU, or -1. */
int hotplug_default_cpu(const char *root);

/* 1 online, 0 offline, or -errno. */
int hotplug_read_online(const char *root, int cpu);
/* Write "1" or "0" to cpuN/online; 0 or -errno (EINTR and EBUSY retried). */
int hotplug_write_online(int fd, bool online);
int hotplug_open_online(const char *root, int cpu);

/*
 * What the run changed on the machine, recorded before the change is made
 * (in the supervisor, which outlives the measuring process), so that
 * hotplug_restore() undoes exactly that.
 */
struct hotplug_restore {
	char root[256];			/* sysfs CPU directory */
	int cpu;			/* the CPU cycled; must end online */
	bool mounted_tracefs;		/* we mounted tracefs at mountpoint */
	char mountpoint[256];
	char instance[512];		/* the tracing instance we made, or "" */
};

/* Tracing of one run: a private tracefs instance with the cpuhp events on. */
struct hotplug_tracing {
	bool active;
	char dir[512];			/* the instance directory */
	char note[1024];		/* why tracing is off, or how it runs */
};

/*
 * Set up tracing in a private instance (instances/clockbench-hotplug-PID)
 * of tracefs at mountpoint, mounting it there when it is not mounted:
 * cpuhp events on, trace clock "mono" (so timestamps of different CPUs
 * compare). The global tracing state is never touched, and removing the
 * instance undoes everything. Every change is recorded in r first. On
 * failure tracing stays off, t->note says why, and r holds what still
 * needs undoing.
 */
void hotplug_tracing_setup(struct hotplug_tracing *t, struct hotplug_restore *r,
			   const char *mountpoint);
/* Empty the instance's buffer; 0 or -errno. */
int hotplug_trace_clear(const struct hotplug_tracing *t);
/* The instance's trace text (malloc'd), or NULL with errno set. */
char *hotplug_trace_read(const struct hotplug_tracing *t);

/*
 * Undo what r records: CPU back online (retried while busy), cpuhp events
 * off and the instance removed, tracefs unmounted when we mounted it.
 * Reports on stderr only what had to be repaired or could not be. Returns
 * 0, or -1 when something could not be restored. Idempotent.
 */
int hotplug_restore(struct hotplug_restore *r);

/*
 * Set in the measuring process to the signal that asks it to stop: it
 * finishes the transition under way, brings the CPU back online and
 * reports what it measured.
 */
extern volatile sig_atomic_t hotplug_stop_signal;

/*
 * Run measure(ctx) in a child process and return its exit status, after
 * hotplug_restore(r) in the parent, which waits for the child whatever
 * happens: SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to it (it
 * stops after the current transition), and when it dies of a signal the
 * parent says so and restores. The child also gets SIGTERM if the parent
 * dies. pidfile (or NULL) gets the child's pid, a test aid.
 */
int hotplug_supervise(struct hotplug_restore *r, int (*measure)(void *ctx),
		      void *ctx, const char *pidfile);

#endif
