/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What disturbed each round of a run: the core's speed (from the
 * reference, see timing.h), the context switches the measuring thread
 * suffered, the time the hypervisor stole from its CPU, and migrations.
 * A round spans every cell once, so a round is a slice of the run's time.
 *
 * Sources: getrusage(RUSAGE_THREAD) for the switches, the steal column of
 * the CPU's line in /proc/stat (USER_HZ ticks), se.nr_migrations in
 * /proc/thread-self/sched (CONFIG_SCHED_DEBUG; unknown without it). Read
 * between rounds only, never inside one.
 */
#ifndef CLOCKBENCH_DISTURB_H
#define CLOCKBENCH_DISTURB_H

#include <stddef.h>
#include <stdint.h>

#include "probe/timing.h"

struct disturb_snap {
	uint64_t ns;
	long involuntary, voluntary;	/* context switches so far */
	long long steal_ticks;		/* the CPU's steal, -1 unknown */
	long long migrations;		/* the thread's, -1 unknown */
};

struct round_quality {
	double ghz;		/* the core's speed: median of its cells; NAN unknown */
	double elapsed_s;
	long involuntary;	/* context switches in the round */
	long voluntary;
	double steal_ms;	/* NAN unknown */
	long long migrations;	/* -1 unknown */
};

void disturb_take(struct disturb_snap *s, int cpu);
void disturb_diff(const struct disturb_snap *a, const struct disturb_snap *b,
		  struct round_quality *q);

/* The parsers, exposed for tests: -1 when the text has no such figure. */
long long disturb_parse_steal(const char *proc_stat, int cpu);
long long disturb_parse_migrations(const char *sched);

/* The rounds of one run, as the command measures them. */
struct disturb_tracker {
	int cpu;
	struct disturb_snap start;	/* of the round under way */
	double *ghz;			/* its cells' speeds */
	size_t nghz, cap;
	struct round_quality *rounds;
	unsigned nrounds;
};

void disturb_tracker_init(struct disturb_tracker *t, int cpu);
void disturb_round_begin(struct disturb_tracker *t);
/* After each timing_round() of the round: its speed counts for the round. */
void disturb_note(struct disturb_tracker *t, const struct cell_result *r);
void disturb_round_end(struct disturb_tracker *t);
void disturb_tracker_free(struct disturb_tracker *t);

#endif
