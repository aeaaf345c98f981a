/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each command records of its own settings (a run's "config"), one
 * struct per command. The command fills its struct and encodes it here
 * when it records a run; the loader decodes the same keys back into the
 * same struct (run_facts()), so both directions of every key are written
 * side by side in run-settings.c and tests/unit/test-run-settings.c holds
 * them to each other. The keys and their JSON types are the ones these
 * runs always had: the store's format does not change.
 *
 * Unknown, as decoded: a text NULL, a number NAN, a list empty. A text is
 * the writer's while it encodes, and the run's own (valid while its config
 * is) once decoded.
 */
#ifndef CLOCKBENCH_RUN_SETTINGS_H
#define CLOCKBENCH_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probe/cpu-accounting.h"
#include "probe/timens.h"

/* A list of texts (a command line's words, arms' labels). */
struct run_words {
	const char **word;	/* n of them; NULL when none */
	size_t n;
	bool whole;		/* decoded: every element was a text, none left out */
};

/* A list of counts (scale's thread counts). */
struct run_counts {
	unsigned *count;	/* NULL when none */
	size_t n;
	bool whole;		/* decoded: every element was a count that fits */
};

/* The CPU time the threads of one stored cell of scale used, per repetition. */
struct run_cpu_time {
	const char *cell, *path;	/* the stored cell's name and path */
	double *user_s, *sys_s;	/* n each; NAN where one was not a number */
	size_t n;
};

/* A problem doctor found. */
struct run_problem {
	const char *cell, *path;
	const char *cause;	/* its id, as doctor --format json names it */
	const char *why;	/* its words */
};

/* bench: how it measured (config "method"). */
struct bench_method {
	double budget_s, min_time_s, warmup_s, target_batch_ns, rel_ci;
	double min_samples, max_samples, rounds;
	double steady_tol;		/* the warm-up's bound */
	double boundary_ns, boundary_cycles;
};

/* The cycle counter the cells' cycles came from (config "cycle_counter"). */
struct bench_counter {
	const char *unit;		/* "TSC ticks", "cycles" or "none" */
	const char *source;		/* how it was read, in words */
};

/* The harness's own cost per call (config "harness_overhead"): the empty
 * function, and the ruler (nops more) when it was measured. Under
 * `kernels --exact` both are counted in instructions instead. */
struct bench_ruler {
	bool measured;
	double nops, ns_per_call, cycles_per_call, instructions_per_call;
};
struct bench_overhead {
	bool recorded;			/* decoded: the config has one */
	bool counted;			/* in instructions (--exact) */
	double ns_per_call, cycles_per_call, instructions_per_call;
	struct bench_ruler ruler;
};

/*
 * How core cycles were measured (config "core_cycles"), by bench and by
 * scale --idle: perf's cycle counter, or a chain of instructions of known
 * latency (the reference) timed against the time base.
 */
struct core_reference {
	const char *instruction;	/* "imul r64, r64" */
	double cycles_per_op;		/* its latency */
	const char *latency_from;	/* where that latency comes from */
	bool validated;			/* checked on hardware */
	double ops;			/* the chain's length */
	double reading_core_cycles, share_pct;	/* a reading's cost, its share */
};
struct core_cycles_settings {
	const char *source;		/* "perf", "reference"; NULL or "none": none */
	struct core_reference reference;
	const char *time_base;		/* its unit, "" when none */
	double time_base_ghz, boundary_core_cycles, reading_boundary_core_cycles;
	double calibration_ghz, pmu_cycles_per_op;
};
json_t *core_cycles_json(const struct core_cycles_settings *c);

struct bench_settings {
	struct bench_method method;
	struct bench_counter cycle_counter;
	struct bench_overhead overhead;
	const struct core_cycles_settings *core_cycles;	/* NULL: not recorded */
};

/* hotplug */
struct hotplug_settings {
	double cpu, cycles;	/* the CPU taken off and on, how many times */
	double pause_s;		/* between the transitions */
	int trace;		/* 1 the states traced, 0 not, -1 unknown */
	const char *tracing;	/* how they were, or "off" */
	const struct cpu_accounting *accounting;	/* NULL: not recorded */
};

/* doctor */
struct doctor_settings {
	const char *verdict;	/* "healthy" or "problems" */
	const char *clocksource;
	bool problems_known;	/* decoded: the config has a list of them */
	const struct run_problem *problems;
	size_t nproblems;
};

/* One arm of ab. */
struct ab_settings {
	const char *condition;	/* "timens", "clocksource", "cpu", "env", ... */
	const char *arm;	/* this arm's label */
	const char *value;	/* its value (--env's, --prefix's, a clocksource) */
	struct run_words arms;	/* every arm's label, in order */
	const char *interleave;	/* the invocation whose rounds the arms share */
	double repetitions, budget_s, target_batch_ns, cpu;
};

/* One side of timens. */
struct timens_settings {
	const char *side;	/* "host" or "timens" */
	const char *interleave, *paired_with;	/* the other side's label */
	double repetitions, cpu, budget_s, target_batch_ns, boundary_ns;
	struct timens_offsets offsets;
	bool offsets_known;		/* else null */
	bool nested;		/* the host side was itself in a namespace */
};

/* One command of exec. */
struct exec_settings {
	struct run_words command;	/* its words as given */
	const char *command_line;	/* as one line */
	const char *program;		/* what ran */
	bool shell;			/* --shell */
	const char *prepare;		/* --prepare, NULL when none */
	double runs, warmup;		/* -n, --warmup */
	bool ignore_failure, show_output;
	double harness_wall_median_s;	/* the harness's own, NAN unmeasured */
	const struct cpu_accounting *accounting;	/* NULL: not recorded */
	/* With several commands (interleave non-NULL): */
	const char *interleave;
	struct run_words commands;	/* their labels */
	const char *order;		/* "A B B A ...", "sequence", "random" */
	double seed;			/* random's, NAN otherwise */
	/* With --parameter: */
	const char *parameter, *value;
};

/* scale, one run: threads sharing calls, or one thread beside idle ones. */
struct scale_settings {
	bool idle;			/* "idle" mode, else "threads" */
	struct run_counts threads;	/* the counts of threads, or of idle threads */
	double ncpus;
	/* threads */
	double calls, repetitions;
	const char *series;
	const struct run_cpu_time *cpu_time;	/* per stored cell */
	size_t ncpu_time;
	const struct cpu_accounting *accounting;	/* NULL: not recorded */
	/* idle */
	double cpu, budget_s, target_batch_ns, rounds, boundary_ns;
	const struct core_cycles_settings *core_cycles;	/* NULL: not recorded */
};

/*
 * What a boot of `kernels` adds to the environment of each run it stores
 * (environment.vm): the machine qemu made, and the guest's own command.
 */
struct run_boot {
	bool booted;			/* decoded: the run came from a guest */
	const char *campaign;		/* the `kernels` invocation */
	const char *kernel_name, *image, *booted_as;
	const char *arch, *accel, *accel_reason, *qemu;
	double cpus, memory_mb, boot_wall_s, boot, position;
	bool emulated;			/* under TCG: its timings an emulator's */
	bool exact;			/* counted under icount (--exact) */
	const char *icount;		/* qemu's -icount then */
	const char *append, *kernel_append;	/* the command line's, the kernel's */
	const json_t *guest;		/* the guest's facts (vm/guest.c) */
	struct run_words guest_argv;	/* the guest's own command line */
};
json_t *run_boot_json(const struct run_boot *b);
void run_boot_decode(const json_t *env, struct run_boot *b);
void run_boot_release(struct run_boot *b);

/* Each as a config object (NULL only when out of memory: jansson's). */
json_t *bench_settings_json(const struct bench_settings *s);
/* Its harness_overhead object alone (kernels --exact counts it again). */
json_t *bench_overhead_json(const struct bench_overhead *h);
json_t *hotplug_settings_json(const struct hotplug_settings *s);
json_t *doctor_settings_json(const struct doctor_settings *s);
json_t *ab_settings_json(const struct ab_settings *s);
json_t *timens_settings_json(const struct timens_settings *s);
json_t *exec_settings_json(const struct exec_settings *s);
json_t *scale_settings_json(const struct scale_settings *s);

/*
 * Each from a config (an object, or NULL: all unknown). What is allocated
 * (lists) is the caller's to release with run_settings_release().
 */
struct run_settings {
	struct bench_settings bench;
	struct hotplug_settings hotplug;
	struct doctor_settings doctor;
	struct ab_settings ab;
	struct timens_settings timens;
	struct exec_settings exec;
	struct scale_settings scale;
	/* Decoded once, shared by the commands that record them. */
	bool accounting_known;
	struct cpu_accounting accounting;
	bool core_cycles_known;
	struct core_cycles_settings core_cycles;
	bool accounting_sampled;	/* user/sys tick-sampled */
	double estimate_below_s;	/* below it, an estimate; 0 unknown */
};
void run_settings_decode(const json_t *config, struct run_settings *s);
void run_settings_release(struct run_settings *s);

/* The texts of the array under key of o (none when it is not an array). */
void run_words_decode(const json_t *o, const char *key, struct run_words *w);

#endif
