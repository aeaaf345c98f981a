// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/scale.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "basic/util.h"

/* ---- the series ----------------------------------------------------- */

struct counts {
	unsigned *v;
	size_t n, cap;
};

static void counts_add(struct counts *c, unsigned x)
{
	grow_array((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = x;
}

/* What seq(1) prints for "seq from step to": nothing when from > to. */
static void counts_add_seq(struct counts *c, uint64_t from, uint64_t step,
			   uint64_t to)
{
	for (uint64_t x = from; x <= to && x <= UINT_MAX; x += step)
		counts_add(c, (unsigned)x);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Sort, drop duplicates and what lies outside [min, max]. */
static void counts_normalize(struct counts *c, unsigned min, unsigned max)
{
	size_t k = 0;

	if (c->n)
		qsort(c->v, c->n, sizeof(*c->v), cmp_unsigned);
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i] < min || c->v[i] > max)
			continue;
		if (k && c->v[k - 1] == c->v[i])
			continue;
		c->v[k++] = c->v[i];
	}
	c->n = k;
}

/* The branches of mmtests' gen_large(), before sorting. */
static void large_stride(struct counts *c, uint64_t min, uint64_t max,
			 uint64_t ncpus)
{
	if (max > ncpus * 8) {
		uint64_t last_stride = max > ncpus * 2 ? (max - ncpus * 2) / 8 : 0;

		counts_add_seq(c, min, 3, 8);
		counts_add_seq(c, 12, 9, 32);
		counts_add_seq(c, 48, 31, ncpus);
		counts_add_seq(c, ncpus * 2, last_stride ? last_stride : 31, max);
	} else if (max > 32) {
		counts_add_seq(c, min, 3, 8);
		counts_add_seq(c, 12, 9, 32);
		counts_add_seq(c, 48, 31, max);
	} else if (max > 8) {
		counts_add_seq(c, min, 2, 8);
		counts_add_seq(c, 12, 6, max);
	} else {
		counts_add_seq(c, min, 2, max);
	}
}

size_t scale_stride_series(unsigned min, unsigned max, unsigned ncpus,
			   unsigned *out, size_t cap)
{
	struct counts c = { 0 };
	size_t n;

	if (min < 1 || max < min)
		return 0;
	if (ncpus < 1)
		ncpus = 1;
	counts_add(&c, min);
	counts_add(&c, max);
	large_stride(&c, min, max, ncpus);
	counts_normalize(&c, min, max);
	n = c.n;
	if (out)
		memcpy(out, c.v, (n < cap ? n : cap) * sizeof(*out));
	free(c.v);
	return n;
}

size_t scale_default_series(unsigned ncpus, unsigned *out, size_t cap)
{
	unsigned max;

	if (ncpus < 1)
		ncpus = 1;
	max = ncpus > SCALE_MAX_THREADS / 4 ? SCALE_MAX_THREADS : 4 * ncpus;
	return scale_stride_series(2, max, ncpus, out, cap);
}

/* ---- parsing -------------------------------------------------------- */

static bool parse_count(const char *s, size_t len, unsigned min, unsigned max,
			unsigned *v, struct strbuf *why)
{
	char buf[32];
	long x;

	if (len == 0 || len >= sizeof(buf)) {
		strbuf_setf(why, "'%.*s' is not a number", (int)len, s);
		return false;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!parse_int(buf, LONG_MIN, LONG_MAX, &x)) {
		strbuf_setf(why, "'%s' is not a number", buf);
		return false;
	}
	if (x < (long)min || x > (long)max) {
		strbuf_setf(why, "%s is out of range (%u to %u)", buf, min, max);
		return false;
	}
	*v = (unsigned)x;
	return true;
}

/* One item: "N" or "A-B". A leading '-' is a (bad) negative number. */
static bool parse_item(const char *s, size_t len, unsigned min, unsigned max,
		       struct counts *c, struct strbuf *why)
{
	const char *dash = len > 1 ? memchr(s + 1, '-', len - 1) : NULL;
	unsigned a, b;

	if (!dash) {
		if (!parse_count(s, len, min, max, &a, why))
			return false;
		counts_add(c, a);
		return true;
	}
	if (!parse_count(s, (size_t)(dash - s), min, max, &a, why) ||
	    !parse_count(dash + 1, len - (size_t)(dash - s) - 1, min, max, &b, why))
		return false;
	if (b < a) {
		strbuf_setf(why, "descending range '%.*s'", (int)len, s);
		return false;
	}
	counts_add_seq(c, a, 1, b);
	return true;
}

bool scale_parse_counts(const char *arg, unsigned min, unsigned max,
			unsigned **out, size_t *n, struct strbuf *why)
{
	struct counts c = { 0 };
	const char *p = arg;

	*out = NULL;
	*n = 0;
	if (!arg || !*arg) {
		strbuf_setf(why, "empty list");
		return false;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t ilen = comma ? (size_t)(comma - p) : strlen(p);

		if (!parse_item(p, ilen, min, max, &c, why)) {
			free(c.v);
			return false;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	counts_normalize(&c, min, max);
	*out = c.v;
	*n = c.n;
	return true;
}

/* ---- shares of the calls -------------------------------------------- */

uint64_t scale_round_calls(uint64_t total)
{
	uint64_t units = total / CELL_UNROLL + (total % CELL_UNROLL != 0);

	return (units ? units : 1) * CELL_UNROLL;
}

uint64_t scale_thread_calls(uint64_t total, unsigned nthreads, unsigned i)
{
	uint64_t units = scale_round_calls(total) / CELL_UNROLL;

	if (nthreads == 0 || i >= nthreads)
		return 0;
	return (units / nthreads + (i < units % nthreads)) * CELL_UNROLL;
}

/* ---- the workers ---------------------------------------------------- */

/*
 * The gate holds the workers until all exist (or tells them to leave when
 * one could not be created); then the barrier releases them together.
 */
struct scale_start {
	pthread_mutex_t lock;
	pthread_cond_t open;
	bool opened, abort;
	pthread_barrier_t barrier;
};

/* A worker's own slot; a cache line each, so the end writes do not share. */
struct worker {
	const struct cell *cell;
	uint64_t calls;
	struct scale_start *start;
	uint64_t t0, t1;
	struct rusage ru0, ru1;
} __attribute__((aligned(64)));

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct scale_start *s = w->start;
	bool abort;

	pthread_mutex_lock(&s->lock);
	while (!s->opened)
		pthread_cond_wait(&s->open, &s->lock);
	abort = s->abort;
	pthread_mutex_unlock(&s->lock);
	if (abort)
		return NULL;

	pthread_barrier_wait(&s->barrier);
	getrusage(RUSAGE_THREAD, &w->ru0);
	w->t0 = now_ns();
	if (w->calls)
		w->cell->loop(w->cell, w->calls);
	w->t1 = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru1);
	return NULL;
}

static double tv_diff_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static void collect(const struct worker *w, unsigned n, struct scale_sample *out)
{
	uint64_t first = UINT64_MAX, last = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < n; i++) {
		if (w[i].t0 < first)
			first = w[i].t0;
		if (w[i].t1 > last)
			last = w[i].t1;
		out->user_s += tv_diff_s(&w[i].ru0.ru_utime, &w[i].ru1.ru_utime);
		out->sys_s += tv_diff_s(&w[i].ru0.ru_stime, &w[i].ru1.ru_stime);
	}
	out->elapsed_s = n && last > first ? (double)(last - first) / 1e9 : 0;
}

/* Small stacks: the loops need little, and thousands of threads may run. */
static void small_stack_attr(pthread_attr_t *attr)
{
	pthread_attr_init(attr);
	pthread_attr_setstacksize(attr, 256 * 1024);
}

static void open_gate(struct scale_start *s, bool abort)
{
	pthread_mutex_lock(&s->lock);
	s->opened = true;
	s->abort = abort;
	pthread_cond_broadcast(&s->open);
	pthread_mutex_unlock(&s->lock);
}

int scale_run(const struct cell *c, unsigned nthreads, uint64_t total,
	      struct scale_sample *out)
{
	struct scale_start start = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.open = PTHREAD_COND_INITIALIZER,
	};
	struct worker *w = NULL;
	pthread_t *tid = xcalloc(nthreads ? nthreads : 1, sizeof(*tid));
	pthread_attr_t attr;
	unsigned created = 0;
	int err = 0;

	if (nthreads == 0) {
		free(tid);
		errno = EINVAL;
		return -1;
	}
	if (posix_memalign((void **)&w, 64, nthreads * sizeof(*w)))
		fatal("out of memory");
	memset(w, 0, nthreads * sizeof(*w));
	small_stack_attr(&attr);
	for (unsigned i = 0; i < nthreads; i++) {
		w[i].cell = c;
		w[i].calls = scale_thread_calls(total, nthreads, i);
		w[i].start = &start;
		err = pthread_create(&tid[i], &attr, worker_main, &w[i]);
		if (err)
			break;
		created++;
	}
	pthread_attr_destroy(&attr);
	if (!err)
		pthread_barrier_init(&start.barrier, NULL, nthreads);
	open_gate(&start, err != 0);
	for (unsigned i = 0; i < created; i++)
		pthread_join(tid[i], NULL);
	if (!err) {
		pthread_barrier_destroy(&start.barrier);
		collect(w, nthreads, out);
	}
	free(tid);
	free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* ---- idle threads --------------------------------------------------- */

void idle_pool_init(struct idle_pool *p)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->parked, NULL);
}

static void *idle_main(void *arg)
{
	struct idle_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	p->nparked++;
	pthread_cond_signal(&p->parked);
	while (!p->stopping)
		pthread_cond_wait(&p->wake, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int idle_pool_grow(struct idle_pool *p, unsigned n)
{
	pthread_attr_t attr;
	int err = 0;

	if (n > p->cap) {
		p->threads = xrealloc(p->threads, n * sizeof(*p->threads));
		p->cap = n;
	}
	small_stack_attr(&attr);
	while (p->nthreads < n) {
		err = pthread_create(&p->threads[p->nthreads], &attr, idle_main, p);
		if (err)
			break;
		p->nthreads++;
	}
	pthread_attr_destroy(&attr);
	/* Measure only once every thread is asleep, not still starting. */
	pthread_mutex_lock(&p->lock);
	while (p->nparked < p->nthreads)
		pthread_cond_wait(&p->parked, &p->lock);
	pthread_mutex_unlock(&p->lock);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

void idle_pool_stop(struct idle_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	p->nthreads = 0;
	p->nparked = 0;
	p->stopping = false;
}

void idle_pool_destroy(struct idle_pool *p)
{
	idle_pool_stop(p);
	free(p->threads);
	pthread_cond_destroy(&p->parked);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	memset(p, 0, sizeof(*p));
}
