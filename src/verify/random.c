// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The getrandom checks: each path returns the 1, 16, 256, 1263 or 4096
 * bytes asked for and writes nothing past them; two draws differ (of 1
 * byte, 32 draws are not all the same); the non-blocking and insecure
 * flags work; and several threads, each with its own vDSO state, draw
 * side by side (each goes on until all have drawn, and the overlap of
 * their draws is measured and reported), no draw equal to its thread's
 * previous one, no two threads' first draws equal. These catch a draw
 * that is stuck or not written; they are not a test of randomness.
 */
#include "verify/verify.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

#define CANARY 0x5a
#define GUARD 64
#define THREADS 8
#define THREAD_DRAWS 2000
/* How long a thread that has drawn THREAD_DRAWS times keeps drawing while
 * another has not drawn yet (one the scheduler has not run). */
#define THREAD_WAIT_NS 1000000000ull

/* What the vDSO's getrandom asks of the memory that holds its state. */
struct vgetrandom_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

typedef ssize_t (*vgetrandom_fn)(void *, size_t, unsigned, void *, size_t);

/* One thread's state, mapped as the kernel asks. */
struct vstate {
	void *p;
	size_t len, map_len;
};

static int vstate_alloc(const struct verify *v, struct vstate *s)
{
	vgetrandom_fn fn = (vgetrandom_fn)v->vdso_fn[API_GETRANDOM];
	struct vgetrandom_params params;
	long page = sysconf(_SC_PAGESIZE);

	memset(s, 0, sizeof(*s));
	memset(&params, 0, sizeof(params));
	if (!fn || fn(NULL, 0, 0, &params, ~0UL) != 0 || !params.size_of_opaque_state)
		return -1;
	s->len = params.size_of_opaque_state;
	s->map_len = (s->len + (size_t)page - 1) & ~((size_t)page - 1);
	s->p = mmap(NULL, s->map_len, (int)params.mmap_prot, (int)params.mmap_flags,
		    -1, 0);
	if (s->p == MAP_FAILED) {
		s->p = NULL;
		return -1;
	}
	return 0;
}

static void vstate_free(struct vstate *s)
{
	if (s->p)
		munmap(s->p, s->map_len);
	s->p = NULL;
}

static struct vres draw(const struct verify *v, enum path p, const struct vstate *s,
			void *buf, size_t len, unsigned flags)
{
	return vcall_getrandom(v, p, buf, len, flags, s ? s->p : NULL, s ? s->len : 0);
}

/* ---- fills ------------------------------------------------------------------- */

static bool all_canary(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != CANARY)
			return false;
	return true;
}

/* One draw into a canary-filled buffer: length, and no byte past it. */
static bool fill_once(struct verify *v, enum path p, const struct vstate *s,
		      unsigned char *buf, size_t n, unsigned flags)
{
	char got[64];
	struct vres r;

	memset(buf, CANARY, n + GUARD);
	r = draw(v, p, s, buf, n, flags);
	if (r.failed || (size_t)r.ret != n) {
		vres_format(p, &r, got, sizeof(got));
		vfail(v, "asked for %zu bytes, got %s", n, got);
		return false;
	}
	if (!all_canary(buf + n, GUARD)) {
		vfail(v, "wrote past the %zu bytes it was asked for", n);
		return false;
	}
	return true;
}

static void fill_point(struct verify *v, enum path p, const struct vstate *s,
		       size_t n, unsigned flags)
{
	unsigned char *a = xmalloc(n + GUARD), *b = xmalloc(n + GUARD);
	/* One byte repeats by chance: 32 draws must not all be the same. */
	unsigned draws = n < 16 ? 32 : 2;
	unsigned distinct = 0;
	unsigned char first = 0;

	for (unsigned i = 0; i < draws; i++) {
		if (!fill_once(v, p, s, i % 2 ? b : a, n, flags))
			goto out;
		if (i == 0)
			first = a[0];
		else if (n < 16 && (i % 2 ? b[0] : a[0]) != first)
			distinct++;
	}
	if (n >= 16 && (!memcmp(a, b, n) || all_canary(a, n) || all_canary(b, n))) {
		vdiag(v, "first bytes: %02x%02x%02x%02x and %02x%02x%02x%02x", a[0], a[1],
		      a[2], a[3], b[0], b[1], b[2], b[3]);
		vfail(v, "%s", all_canary(a, n) || all_canary(b, n) ?
		      "a draw left every byte as the filler it was given" :
		      "two consecutive draws are identical");
		goto out;
	}
	if (n < 16 && !distinct) {
		vfail(v, "%u consecutive 1-byte draws all gave 0x%02x", draws, first);
		goto out;
	}
	if (n < 16)
		vpass(v, "%u draws of %zu byte%s: each returned %zu and left the %d bytes "
		      "past it untouched; %u of the %u draws after the first gave a byte "
		      "other than the first's (0x%02x), so they were not all the same",
		      draws, n, n > 1 ? "s" : "", n, GUARD, distinct, draws - 1, first);
	else
		vpass(v, "%u draws of %zu bytes: each returned %zu, wrote over the 0x%02x "
		      "filler (not all %zu bytes left as it) and left the %d bytes past it "
		      "untouched; the two draws differ", draws, n, n, CANARY, n, GUARD);
out:
	free(a);
	free(b);
}

/* ---- threads ------------------------------------------------------------------- */

struct rthread {
	const struct verify *v;
	atomic_int *go;
	atomic_uint *drawing;	/* threads past their first draw (or its error) */
	struct vstate state;
	unsigned char first[16];
	unsigned long draws;
	bool gave_up;		/* stopped waiting for another's first draw */
	int error;		/* errno, or -1: a repeat, -2: short */
	struct thread_span span;	/* of its draws */
	pthread_t tid;
};

/*
 * Whether to draw again: THREAD_DRAWS times, then on until every thread
 * has made its first draw (for at most THREAD_WAIT_NS), so that the
 * threads' draws overlap even when the scheduler runs them one by one.
 */
static bool rthread_draw_again(struct rthread *t, uint64_t *wait_end)
{
	if (t->draws < THREAD_DRAWS)
		return true;
	if (atomic_load(t->drawing) >= THREADS)
		return false;
	if (!*wait_end)
		*wait_end = verify_now_ns() + THREAD_WAIT_NS;
	if (t->draws % 64 || verify_now_ns() < *wait_end)
		return true;
	t->gave_up = true;
	return false;
}

/* The draws; 0, or an errno, -1 (a repeat) or -2 (a short draw). */
static int rthread_draws(struct rthread *t)
{
	unsigned char prev[16], cur[16];
	uint64_t wait_end = 0;

	while (rthread_draw_again(t, &wait_end)) {
		struct vres r = draw(t->v, PATH_VDSO, &t->state, cur, sizeof(cur), 0);

		if (!t->draws)
			atomic_fetch_add(t->drawing, 1);
		if (r.failed || r.ret != (long)sizeof(cur))
			return r.failed ? r.err : -2;
		if (!t->draws)
			memcpy(t->first, cur, sizeof(cur));
		else if (!memcmp(prev, cur, sizeof(cur)))
			return -1;
		memcpy(prev, cur, sizeof(cur));
		t->draws++;
	}
	return 0;
}

static void *rthread_main(void *p)
{
	struct rthread *t = p;

	while (!atomic_load(t->go))
		sched_yield();
	t->span.start_ns = verify_now_ns();
	t->error = rthread_draws(t);
	t->span.end_ns = verify_now_ns();
	return NULL;
}

/* "their draws overlapped in 8 of the 8 threads, up to 8 at one instant":
 * whether they drew side by side, as measured, not as released. */
static void overlap_text(struct verify *v, const struct rthread *t, struct strbuf *out)
{
	struct thread_span spans[THREADS];
	struct span_overlap o;
	int cpus[CPU_SETSIZE];
	char cpulist[256];
	size_t ncpus = verify_cpu_list(v, cpus, ARRAY_SIZE(cpus), cpulist, sizeof(cpulist));

	for (unsigned i = 0; i < THREADS; i++)
		spans[i] = t[i].span;
	span_overlap(spans, THREADS, &o);
	strbuf_setf(out, "each thread's draws, from before its first to after its "
		    "last on MONOTONIC_RAW, overlapped another thread's in %u of the %d "
		    "threads, %u of them between first and last draw at one instant "
		    "(on %zu CPU%s: not all running)", o.overlapping, THREADS,
		    o.most_at_once, ncpus, ncpus == 1 ? "" : "s");
}

/* "16 bytes 2000 to 46021 times (...)": how many draws, and why so many. */
static void draws_text(const struct rthread *t, struct strbuf *out)
{
	unsigned long least = t[0].draws, most = t[0].draws;
	bool gave_up = false;

	for (unsigned i = 0; i < THREADS; i++) {
		if (t[i].draws < least)
			least = t[i].draws;
		if (t[i].draws > most)
			most = t[i].draws;
		gave_up |= t[i].gave_up;
	}
	strbuf_setf(out, "16 bytes %lu to %lu times (%d each, then on %s)", least, most,
		    THREAD_DRAWS, gave_up ? "for 1 s, when a thread had still not drawn" :
		    "until all had drawn");
}

static void threads_point(struct verify *v)
{
	struct rthread t[THREADS];
	_cleanup_strbuf_ struct strbuf overlap = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf draws = STRBUF_INIT;
	atomic_int go = 0;
	atomic_uint drawing = 0;
	unsigned started = 0;
	bool ok = true;

	memset(t, 0, sizeof(t));
	for (; started < THREADS; started++) {
		t[started].v = v;
		t[started].go = &go;
		t[started].drawing = &drawing;
		if (vstate_alloc(v, &t[started].state) != 0) {
			verror(v, "cannot map a vDSO getrandom state: %s", strerror(errno));
			goto out;
		}
		if (pthread_create(&t[started].tid, NULL, rthread_main, &t[started])) {
			vstate_free(&t[started].state);
			verror(v, "pthread_create failed");
			goto out;
		}
	}
	atomic_store(&go, 1);
out:
	atomic_store(&go, 1);
	for (unsigned i = 0; i < started; i++) {
		pthread_join(t[i].tid, NULL);
		vstate_free(&t[i].state);
	}
	if (started < THREADS)
		return;
	for (unsigned i = 0; i < THREADS; i++) {
		if (t[i].error) {
			vdiag(v, "thread %u: %s after %lu draws", i,
			      t[i].error == -1 ? "two consecutive draws were identical" :
			      t[i].error == -2 ? "a short draw" : errno_name(t[i].error),
			      t[i].draws);
			ok = false;
		}
		for (unsigned k = 0; k < i; k++)
			if (!memcmp(t[i].first, t[k].first, sizeof(t[i].first))) {
				vdiag(v, "threads %u and %u drew the same first 16 bytes", k, i);
				ok = false;
			}
	}
	overlap_text(v, t, &overlap);
	if (!ok) {
		vfail(v, "threads with their own states did not all draw fresh bytes; %s",
		      overlap.buf);
		return;
	}
	draws_text(t, &draws);
	vpass(v, "%d threads, each with its own state, drew %s: no draw equal to the "
	      "same thread's previous one, and the %d threads' first draws all differ; "
	      "%s", THREADS, draws.buf, THREADS, overlap.buf);
}

/* ---- the walk -------------------------------------------------------------------- */

void verify_getrandom(struct verify *v)
{
	/* 1263: the kernel selftest's odd size, ending inside a ChaCha block. */
	static const size_t sizes[] = { 1, 16, 256, 1263, 4096 };
	static const struct { unsigned flags; const char *name; } flags[] = {
		{ GRND_NONBLOCK, "nonblock" },
		{ GRND_INSECURE, "insecure" },
	};
	struct vstate state = { 0 };
	bool have_state = false;
	const char *why;

	for (int p = 0; p < PATH_COUNT; p++) {
		const char *pn = catalog_paths[p];

		if (!verify_path_by_design(API_GETRANDOM, p))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(sizes) + ARRAY_SIZE(flags); i++) {
			bool is_size = i < ARRAY_SIZE(sizes);
			size_t n = is_size ? sizes[i] : 16;

			if (is_size ? !vpoint(v, VT_NONE, "getrandom/fill-%zu/%s", n, pn) :
			    !vpoint(v, VT_NONE, "getrandom/flags-%s/%s",
				    flags[i - ARRAY_SIZE(sizes)].name, pn))
				continue;
			if ((why = verify_path_missing(v, API_GETRANDOM, p))) {
				vskip(v, "%s", why);
				continue;
			}
			if (p == PATH_VDSO && !have_state) {
				if (vstate_alloc(v, &state) != 0) {
					verror(v, "cannot map a vDSO getrandom state");
					continue;
				}
				have_state = true;
			}
			fill_point(v, p, p == PATH_VDSO ? &state : NULL, n,
				   is_size ? 0 : flags[i - ARRAY_SIZE(sizes)].flags);
		}
	}
	vstate_free(&state);
	if (verify_path_by_design(API_GETRANDOM, PATH_VDSO) &&
	    vpoint(v, VT_NONE, "getrandom/threads/vdso")) {
		if ((why = verify_path_missing(v, API_GETRANDOM, PATH_VDSO)))
			vskip(v, "%s", why);
		else
			threads_point(v);
	}
}
