/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A one-line progress report on stderr, only when stderr is a terminal:
 * the step, the time elapsed and an estimate of the time left from the
 * steps done. A step can take long (scale's 128 threads, a long exec
 * command, verify's durations): a helper thread redraws the line once a
 * second meanwhile, so that the clock moves and the estimate counts down.
 * The thread only sleeps and writes to stderr; it exists only while a
 * terminal watches.
 */
#ifndef CLOCKBENCH_PROGRESS_H
#define CLOCKBENCH_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool enabled;
	size_t total;
	uint64_t start_ns;
	/* The last update, redrawn by the helper thread. */
	size_t done;
	uint64_t update_ns;
	char what[96];
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t ticker;
	bool ticking, stop;
};

void progress_init(struct progress *p, size_t total);
/* "[ 12/84] clock-gettime-monotonic vdso  3.1 s elapsed, ~9 s left" */
void progress_update(struct progress *p, size_t done, const char *what);
/* Erase the line and stop the helper; a second call does nothing. */
void progress_done(struct progress *p);

/*
 * The estimate of the time left: total - done steps at the pace of the
 * done ones, less what the current step has taken already (since_s), never
 * below 0; NAN before the first step is done (nothing to go by).
 */
double progress_left_s(size_t done, size_t total, double elapsed_s, double since_s);

#endif
