/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU hotplug: taking a CPU offline and back through sysfs, the cpuhp trace
 * events that time every hotplug step, and the guard items that put
 * everything back (the CPU online, tracefs as it was) whatever happens to
 * the supervisor or the process that measures (probe/guard.h).
 *
 * The accounting (hotplug-trace.c) is pure functions on events; the trace
 * reading (hotplug-tracefs.c, libtracefs and libtraceevent) takes the
 * tracing directory as a parameter, and the system pieces (hotplug.c) the
 * sysfs CPU directory, so both are tested on captured trees.
 */
#ifndef CLOCKBENCH_HOTPLUG_H
#define CLOCKBENCH_HOTPLUG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "basic/strbuf.h"

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
enum hotplug_verdict hotplug_check_cpu(const char *root, int cpu, struct strbuf *why);
/* The highest-numbered usable CPU, or -1. */
int hotplug_default_cpu(const char *root);

/* 1 online, 0 offline, or -errno. */
int hotplug_read_online(const char *root, int cpu);
/* Write "1" or "0" to cpuN/online; 0 or -errno (EINTR and EBUSY retried). */
int hotplug_write_online(int fd, bool online);
int hotplug_open_online(const char *root, int cpu);

/* ---- guarding the machine (hotplug.c) ------------------------------ */

struct guard;

#define HOTPLUG_INSTANCE_PREFIX "clockbench-hotplug-"

/*
 * What a run may change besides the CPU, recorded by the supervisor before
 * the measuring process makes the change, so that the guard's restore
 * undoes exactly that with system calls only: the tracing instance is
 * removed, and tracefs (or the debugfs that libtracefs mounts when tracefs
 * cannot be) is unmounted when it was not mounted before.
 */
struct hotplug_guard {
	char instance[PATH_MAX];	/* the instance's directory */
	char tracing_on[PATH_MAX + 16];	/* and its files, made in advance */
	char cpuhp_enable[PATH_MAX + 32];
	struct hotplug_mount {
		const char *path;
		long magic;		/* statfs f_type */
		bool was_mounted;
	} mounts[2];
};

/*
 * Add to g: cpuN/online under root (the CPU must end as it is now,
 * online), and when tracing_dir is not NULL, the instance name under it
 * and, unless tracefs is mounted already, the mounts. hg must outlive guard_run(). 0, or -1 with err.
 */
int hotplug_guard_add(struct guard *g, struct hotplug_guard *hg, const char *root,
		      int cpu, const char *tracing_dir, bool mounted, const char *name,
		      struct strbuf *err);

/* ---- tracing (hotplug-tracefs.c: libtracefs, libtraceevent) ---------- */

/* True when clockbench was built with libtracefs and libtraceevent. */
bool hotplug_tracing_built(void);

/*
 * Where tracefs is (*mounted true) or where a run will mount it
 * (HOTPLUG_TRACEFS), into dir.
 */
void hotplug_tracing_where(char *dir, size_t len, bool *mounted);

/*
 * Remove the instances HOTPLUG_INSTANCE_PREFIX-PID of the tracefs mounted
 * at dir whose PID is gone (or is no clockbench now): left by clockbench
 * processes that died. Each is said in report, one line each (also one
 * that cannot be removed); returns how many were removed, or -1.
 */
int hotplug_remove_stale_instances(const char *dir, struct strbuf *report);

struct hotplug_trace;		/* libtracefs's instance and event parser */

/* Tracing of one run: a private tracefs instance with the cpuhp events on. */
struct hotplug_tracing {
	bool active;
	char note[1024];		/* why tracing is off, or how it runs */
	uint64_t lost;			/* events the ring buffer dropped */
	struct hotplug_trace *trace;
};

/*
 * Mount tracefs when it is not (libtracefs), expecting it at dir; remove
 * the instances of dead runs (hotplug_remove_stale_instances(), said in
 * stale); create the instance name there with the cpuhp events on and
 * trace clock "mono" (so timestamps of different CPUs compare). The
 * global tracing state is never touched. On failure tracing stays off,
 * t->note says why, and whatever was made is undone.
 */
void hotplug_tracing_start(struct hotplug_tracing *t, const char *dir,
			   const char *name, struct strbuf *stale);

/*
 * Read an existing instance name of the tracing directory dir (a real
 * tracefs or a captured tree), function names from kallsyms (a file in
 * /proc/kallsyms format). 0, or -1 with t->note.
 */
int hotplug_tracing_open(struct hotplug_tracing *t, const char *dir,
			 const char *name, const char *kallsyms);

/* Empty the instance's buffer; 0 or -1. */
int hotplug_trace_clear(struct hotplug_tracing *t);

/*
 * The cpuhp events for CPU cpu read (and consumed) from the instance's
 * per-CPU buffers, in timestamp order, as a malloc'd array (*out, may be
 * NULL when none); dropped events are added to t->lost. The count, or -1.
 */
ssize_t hotplug_trace_read(struct hotplug_tracing *t, unsigned int cpu,
			   struct cpuhp_event **out);

/*
 * Undo hotplug_tracing_start(): the instance removed, tracefs unmounted
 * when it mounted it. Also frees what hotplug_tracing_open() allocated.
 */
void hotplug_tracing_stop(struct hotplug_tracing *t);

#endif
