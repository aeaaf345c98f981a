/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec's campaign (clockbench exec): the commands one invocation times,
 * built from its command line, and their repetitions. The lower pieces
 * (finding a program, splitting and quoting, spawning, the outlier rule,
 * a run's disturbance) are scenario/exec.h's; this is what exec does with
 * them:
 *
 *   - the commands: every -c line, or the argv after --, once per value
 *     of -L/-P ({NAME} substituted), each found in PATH once, with its
 *     --prepare and the label its run is saved under;
 *   - the repetitions: every command once per repetition, in
 *     basic/order.h's order (A B B A ..., a seeded shuffle, or as given),
 *     so that a machine that changes half-way touches every command alike;
 *     the empty program timed among them, for what the harness costs;
 *   - the runs disturbed far beyond the others, marked once the last
 *     has run (the medians they are judged by are the whole invocation's).
 *
 * What a finished campaign was, as data (its stored runs, report's plain
 * structs, the warnings), is scenario/exec-record.h's: running it needs
 * none of that. The engine prints nothing but the progress line
 * (basic/progress.h): its errors come back in err, and the command says
 * them.
 */
#ifndef CLOCKBENCH_EXEC_CAMPAIGN_H
#define CLOCKBENCH_EXEC_CAMPAIGN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "probe/cpu-accounting.h"
#include "results/store.h"
#include "scenario/exec.h"

/* Most commands one invocation alternates (the order engine's bound). */
#define EXEC_MAX_COMMANDS 32
/* Rounds of a stored run are 0 .. STORE_ROUNDS_MAX - 1. */
#define EXEC_MAX_PAIRED_RUNS STORE_ROUNDS_MAX
/*
 * The largest --seed: 2^53 (a double holds it exactly, as the option
 * parser's bounds are doubles), or what a long holds on a 32-bit build.
 */
#define EXEC_SEED_MAX (LONG_MAX < (1LL << 53) ? LONG_MAX : (long)(1LL << 53))

/* Harness runs: as many as the command's, from 5 to 50. */
#define EXEC_HARNESS_RUNS_MIN 5
#define EXEC_HARNESS_RUNS_MAX 50

/* --order: the names of exec's option table, in this order. */
enum exec_order { EXEC_ORDER_ABBA, EXEC_ORDER_RANDOM, EXEC_ORDER_SEQUENCE };

/* Shell lines given one option each, in order (-c, --prepare). */
struct exec_lines {
	const char **line;
	size_t n;
};

/*
 * What the command line asks of the campaign, filled by exec's option
 * table; the strings are borrowed from argv but for param and values
 * (exec_parameter_list(), exec_parameter_scan()) and the two lists, which
 * exec_campaign_free() frees.
 */
struct exec_options {
	long runs, warmup;
	struct exec_lines prepares;	/* --prepare: one for all, or one per command */
	struct exec_lines lines;	/* -c */
	const char *labels;
	const char *param;	/* -L/-P: NAME */
	char **values;		/* its values, NULL-terminated (one allocation) */
	size_t nvalues;
	int order;		/* enum exec_order */
	long seed;		/* --seed, 0: chosen */
	int fail_on;		/* enum compare_gate */
	bool shell, show_output, ignore_failure;
	char **command;		/* argv of COMMAND after --, or NULL */
};

struct exec_samples {
	double *wall, *user, *sys;
	size_t n;
};

/* No command ran before (the first run of all). */
#define EXEC_AFTER_NONE SIZE_MAX

/* One command of the alternation. */
struct exec_command {
	char *text;		/* the command as shown (and, --shell, as run) */
	char **words;		/* its words (owned), or NULL with --shell */
	char *shell_argv[4];	/* --shell: /bin/sh -c text */
	char **argv;		/* what runs: words or shell_argv */
	char program[PATH_MAX];	/* found once, or /bin/sh */
	char *prepare;		/* its --prepare (owned), or NULL */
	const char *value;	/* its -L/-P value, or NULL */
	char label[129];
	struct exec_samples s;
	struct exec_disturb *reps;	/* one per timed run */
	size_t *after;		/* per timed run: the command run just before, or NONE */
};

/* The empty program, timed as the command is: the harness's own cost. */
struct exec_harness {
	char program[PATH_MAX];
	const char *what;	/* "clockbench-empty (static, does nothing)" */
	double *wall;
	size_t n;
	bool failed;		/* it did not run cleanly: no figure (n is 0) */
};

struct exec_campaign {
	struct exec_options o;
	struct exec_io io;
	struct exec_command *cmds;
	size_t ncmds;
	size_t done;		/* complete repetitions of every command */
	uint64_t seed;		/* --order random */
	size_t last;		/* the command that ran last, or EXEC_AFTER_NONE */
	char interleave[37];	/* this invocation's id, in every run's config */
	struct exec_harness harness;
	struct cpu_accounting acct;
	const volatile sig_atomic_t *stop;	/* while running: asked to stop */
};

/* A campaign before exec_campaign_make(): nothing open, nothing run yet. */
#define EXEC_CAMPAIGN_INIT { .io = { .devnull = -1 }, .last = EXEC_AFTER_NONE }

/*
 * -L NAME=V1,V2,... and -P NAME=LO..HI[..STEP] (integers, STEP > 0) into
 * o->param and o->values. NAME is a C identifier, so that {NAME} in a
 * command cannot be anything else; a value holds no control character
 * (it is printed and saved); a scan gives at most EXEC_MAX_COMMANDS
 * values. 0, or -1 with the reason in err (also for a second -L or -P).
 */
int exec_parameter_list(struct exec_options *o, const char *arg, struct strbuf *err);
int exec_parameter_scan(struct exec_options *o, const char *arg, struct strbuf *err);

/*
 * The commands of e->o (filled by the option table): every template times
 * every value, each found as execvp() would find it, once, so that no run
 * walks PATH again; their --prepare and labels (--labels, or with several
 * commands exec-ID-K: label_given says --label named the one run). Also
 * the invocation's id and --order random's seed (chosen when --seed is
 * not given). 0, or -1 with the usage error in err: exec_campaign_free()
 * either way.
 */
int exec_campaign_make(struct exec_campaign *e, bool label_given, struct strbuf *err);

/*
 * Ready to run: /dev/null opened for the commands' streams, the samples'
 * arrays for e->o.runs timed runs, the empty program found. 0, or -1 with
 * the reason in err.
 */
int exec_campaign_start(struct exec_campaign *e, struct strbuf *err);

/*
 * Warm-up runs, the harness's runs, then the timed runs, every command
 * once per repetition in the order asked for; then the runs disturbed far
 * beyond the invocation's others are marked. A run stops after the step
 * it is in when *stop is set (the runs so far kept, e->done the complete
 * repetitions). 0, or -1 with the reason in err when a command failed or
 * could not run (a stop that came with the failure makes it 0, the
 * failure still in err). The empty program's failure is no error, the
 * command's runs do not depend on it: e->harness.failed.
 */
int exec_campaign_run(struct exec_campaign *e, const volatile sig_atomic_t *stop,
		      struct strbuf *err);

/*
 * The medians of the disturbance over every timed run of the invocation,
 * whatever the command: what marks a run disturbed (exec_campaign_run())
 * and what the report says the runs suffered (scenario/exec-record.h).
 */
void exec_campaign_disturbance_medians(const struct exec_campaign *e,
				       struct exec_disturb_medians *d);

/*
 * Everything e holds (begun as EXEC_CAMPAIGN_INIT), its options' lists
 * too; /dev/null closed when open.
 */
void exec_campaign_free(struct exec_campaign *e);

#endif
