/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scenario/: the mailing-list scenarios (scale, timens, hotplug, exec) and
 * the interleaving engine (interleave.h); its layer: src/meson.build.
 *
 * Thread scaling, as mmtests' poundtime measures it (seed 001): N threads
 * share a fixed total number of calls, and the wall time of the whole job
 * is reported for each N. times() and the process CPU clock sum the CPU
 * time of every thread of the process, so their cost grows with N.
 *
 * The pure parts (the thread-count series, list parsing, the share of
 * calls of each thread) are separate from the workers so they can be
 * tested exactly.
 */
#ifndef CLOCKBENCH_SCALE_H
#define CLOCKBENCH_SCALE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "probe/catalog.h"

/* The most threads one run may start ("always allowing up to 128"). */
#define SCALE_MAX_THREADS 4096

/*
 * mmtests' "large stride" series of thread counts from min to max for a
 * machine with ncpus CPUs (bin/generate-stride-range --stride-large, the
 * series its threads_large_stride_begin shellpack loop walks):
 *
 *   max > 8 * ncpus: min, min+3, .. <= 8; 12, 21, 30; 48, 48+31, .. <= ncpus;
 *                    then 2*ncpus in steps of (max - 2*ncpus) / 8 up to max
 *                    (a step of 31 when that is <= 0)
 *   max > 32:        min, min+3, .. <= 8; 12, 21, 30; 48, 48+31, .. <= max
 *   max > 8:         min, min+2, .. <= 8; 12, 18, .. <= max
 *   otherwise:       min, min+2, .. <= max
 *
 * and always min and max themselves; sorted, without duplicates, and kept
 * within [min, max]. poundtime runs it from 2 to 4 x ncpus: on 32 CPUs,
 * 2 5 8 12 21 30 48 79 110 128 (the seed's rows); on 2 CPUs, 2 4 6 8.
 *
 * Writes up to cap counts to out and returns how many there are (which
 * may exceed cap; then only cap were written). 0 when min < 1 or max < min.
 */
size_t scale_stride_series(unsigned min, unsigned max, unsigned ncpus,
			   unsigned *out, size_t cap);

/* poundtime's default: scale_stride_series(2, 4 * ncpus, ncpus). */
size_t scale_default_series(unsigned ncpus, unsigned *out, size_t cap);

/*
 * Parse a list of thread counts: comma-separated numbers and inclusive
 * ranges A-B ("2,4,8", "2-16", "1-4,8,64"), each value in [min, max].
 * The result is sorted and without duplicates (*out is malloc'd). Returns
 * false with a one-line reason in why for an empty list, a value that is
 * not a number or out of range, or a descending range.
 */
bool scale_parse_counts(const char *arg, unsigned min, unsigned max,
			unsigned **out, size_t *n, struct strbuf *why);

/*
 * The calls thread i of nthreads makes when they share total calls: the
 * total is split in whole loop unrolls (CELL_UNROLL calls), the first
 * threads taking one unroll more when it does not divide evenly, so every
 * share is a multiple of CELL_UNROLL and the shares add up to total
 * rounded up to a multiple of CELL_UNROLL.
 */
uint64_t scale_thread_calls(uint64_t total, unsigned nthreads, unsigned i);

/* total rounded up to a whole number of unrolls (at least one). */
uint64_t scale_round_calls(uint64_t total);

/* One repetition of a cell with N threads. */
struct scale_sample {
	double elapsed_s;	/* first thread's start to last thread's end */
	double user_s;		/* user and system CPU time of the workers */
	double sys_s;
};

/*
 * Run total calls of cell c shared by nthreads threads. The threads are
 * created first and held at a gate; once all exist they meet on a
 * pthread barrier and start together. Each one reads its own start and end
 * time and CPU usage (getrusage(RUSAGE_THREAD)) into its own slot: nothing
 * is shared while the calls run. Returns 0, or -1 with errno when a thread
 * cannot be created (the ones created are stopped and joined first).
 */
int scale_run(const struct cell *c, unsigned nthreads, uint64_t total,
	      struct scale_sample *out);

/*
 * Threads that exist and do nothing: each blocks on a condition variable
 * until the pool is stopped. Used to measure how a call's cost depends on
 * the number of threads in the process.
 */
struct idle_pool {
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* the pool is stopping */
	pthread_cond_t parked;	/* one more thread is waiting */
	unsigned nparked;
	bool stopping;
	pthread_t *threads;
	unsigned nthreads;
	unsigned cap;
};

void idle_pool_init(struct idle_pool *p);
/*
 * Grow the pool to n threads and wait until every one of them is blocked.
 * Returns 0, or -1 with errno when a thread cannot be created.
 */
int idle_pool_grow(struct idle_pool *p, unsigned n);
/* Wake and join every thread; the pool can grow again afterwards. */
void idle_pool_stop(struct idle_pool *p);
void idle_pool_destroy(struct idle_pool *p);

#endif
