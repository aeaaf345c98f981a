// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench verify: the run context, point selection, TAP and JSON
 * output, the calls through each path (with fault injection), and the
 * driver that counts, lists or runs the check groups.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/progress.h"
#include "basic/strbuf.h"
#include "basic/json.h"
#include "probe/env.h"
#include "probe/vdso-call.h"
#include "probe/interpose.h"
#include "report/tap-write.h"
#include "report/verify-text.h"

const struct verify_group verify_groups[] = {
	{ "bracket", "a vDSO or libc read lies between two raw-syscall reads",
	  verify_bracket, false, false },
	{ "monotonic", "one thread never sees a clock go backwards, on each path",
	  verify_monotonic, false, false },
	{ "cross-cpu", "reads passed between threads pinned to every CPU never go "
	  "backwards", verify_cross_cpu, false, false },
	{ "resolution", "clock_getres agrees across paths; the finest step seen "
	  "between two reads is no finer than it (and whole ticks on coarse "
	  "clocks)", verify_resolution, false, false },
	{ "consistency", "gettimeofday, time, TAI and BOOTTIME agree with their "
	  "reference clocks", verify_consistency, false, false },
	{ "getcpu", "every path reports the CPU it is pinned to, and its node",
	  verify_getcpu, false, false },
	{ "abi", "invalid clock ids and bad pointers get EINVAL, EFAULT or SIGSEGV "
	  "as each path's convention says", verify_abi, false, false },
	{ "timens", "a new time namespace offsets MONOTONIC and BOOTTIME, and "
	  "nothing else, on every path", verify_timens, true, false },
	{ "getrandom", "getrandom returns the bytes asked for, writes nothing past "
	  "them, and consecutive draws differ, also in concurrent threads",
	  verify_getrandom, false, false },
	{ "time64", "on 32-bit builds, the y2038 clock_gettime64 and clock_getres64 "
	  "agree with the 32-bit calls", verify_time64, false, false },
	{ "clocksource-switch", "reads handed round every CPU stay monotonic while "
	  "the clocksource is switched under them (restored after; --destructive)",
	  verify_clocksource_switch, true, true },
	{ "raw-skew", "MONOTONIC runs against MONOTONIC_RAW at the rate adjtimex "
	  "reports", verify_raw_skew, false, false },
	{ "freq-step", "MONOTONIC stays monotonic and follows adjtimex frequency "
	  "steps (restored after; --destructive)", verify_freq_step, true, true },
	{ "sleep", "sleeps on every clock never end early, and end reasonably late",
	  verify_sleep, false, false },
};
const size_t verify_ngroups = ARRAY_SIZE(verify_groups);

/* Shares of --duration; a group that is not selected gives its share away. */
static const double timed_weight[VT_COUNT] = {
	[VT_BRACKET] = 0.20,
	[VT_MONOTONIC] = 0.30,
	[VT_CROSS_CPU] = 0.30,
	[VT_GRANULARITY] = 0.10,
	[VT_CLOCKSOURCE] = 0.10,
	[VT_RATE] = 0.05,
	[VT_FREQ] = 0.10,
	[VT_MIGRATE] = 0.05,
};

/* The groups --long stretches to VERIFY_LONG_WATCH per check. */
static bool watched_long(enum vtimed t)
{
	return t == VT_MONOTONIC || t == VT_CROSS_CPU || t == VT_CLOCKSOURCE ||
	       t == VT_RATE;
}

/* ---- pure helpers ------------------------------------------------------ */

void ts_format(const struct timespec *ts, char *buf, size_t len)
{
	snprintf(buf, len, "%lld.%09ld", (long long)ts->tv_sec, (long)ts->tv_nsec);
}

bool ts_normalized(const struct timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L;
}

int ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

bool verify_pattern_matches(const char *pattern, const char *name)
{
	size_t plen = strlen(pattern);
	char prefix[256];

	if (!plen)
		return false;
	if (fnmatch(pattern, name, 0) == 0)
		return true;
	/* A pattern that names a leading part selects everything below it. */
	if (plen + 3 > sizeof(prefix))
		return false;
	snprintf(prefix, sizeof(prefix), "%s%s*", pattern,
		 pattern[plen - 1] == '/' ? "" : "/");
	return fnmatch(prefix, name, 0) == 0;
}

int verify_exit_status(const struct verify_totals *t)
{
	if (t->fail || t->error)
		return 1;
	if (!t->pass && !t->xfail)
		return EXIT_SKIP;
	return 0;
}

/* ---- fault injection ----------------------------------------------------- */

#define FAULT_SYNTAX "expected PATH-errno, PATH-clock-back-DURATION[-every-N][-cpu-K] " \
	"or PATH-getcpu-wrong[-every-N]"

/* The "-every-N" and "-cpu-K" suffixes of a clock-back fault, in any order. */
static int parse_fault_limits(char *rest, struct verify_fault *f, struct strbuf *err)
{
	/* strsep, not strtok: "cpu--1" must not read as "cpu-1". */
	while (rest) {
		char *key = strsep(&rest, "-");
		char *val = rest ? strsep(&rest, "-") : NULL;
		long n;

		if (streq(key, "every") && val && parse_int(val, 1, LONG_MAX, &n) &&
		    !f->every)
			f->every = (unsigned long)n;
		else if (streq(key, "cpu") && val && parse_int(val, 0, CPU_SETSIZE - 1, &n) &&
			 f->cpu < 0)
			f->cpu = (int)n;
		else {
			strbuf_setf(err, "bad '%s%s%s': %s", key, val ? "-" : "",
				    val ? val : "", FAULT_SYNTAX);
			return -1;
		}
	}
	return 0;
}

static int parse_clock_back(const char *spec, struct verify_fault *f, struct strbuf *err)
{
	char buf[128], *limits;
	double s;

	if (strlen(spec) >= sizeof(buf)) {
		strbuf_setf(err, "too long: %s", FAULT_SYNTAX);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	limits = strchr(buf, '-');
	if (limits)
		*limits++ = '\0';
	if (!parse_duration(buf, &s) || s >= 3600 || (limits && !*limits)) {
		strbuf_setf(err, "%s", FAULT_SYNTAX);
		return -1;
	}
	f->kind = FAULT_CLOCK_BACK;
	f->shift_ns = (int64_t)(s * 1e9 + 0.5);
	return limits ? parse_fault_limits(limits, f, err) : 0;
}

int verify_parse_fault(const char *spec, struct verify_fault *f, struct strbuf *err)
{
	static const char back[] = "-clock-back-", wrong[] = "-getcpu-wrong";
	const char *dash;
	char path[16];
	int p;

	memset(f, 0, sizeof(*f));
	f->cpu = -1;
	if (!spec || !*spec)
		return 0;
	dash = strchr(spec, '-');
	if (!dash || (size_t)(dash - spec) >= sizeof(path)) {
		strbuf_setf(err, "%s", FAULT_SYNTAX);
		return -1;
	}
	memcpy(path, spec, (size_t)(dash - spec));
	path[dash - spec] = '\0';
	p = catalog_path_by_name(path);
	if (p < 0) {
		strbuf_setf(err, "unknown path '%s' (vdso, libc, syscall)", path);
		return -1;
	}
	f->path = (enum path)p;
	if (streq(dash, "-errno")) {
		f->kind = FAULT_ERRNO;
		return 0;
	}
	if (strncmp(dash, back, strlen(back)) == 0)
		return parse_clock_back(dash + strlen(back), f, err);
	if (strncmp(dash, wrong, strlen(wrong)) == 0 &&
	    (!dash[strlen(wrong)] || dash[strlen(wrong)] == '-')) {
		char limits[64];

		f->kind = FAULT_CPU_WRONG;
		if (!dash[strlen(wrong)])
			return 0;
		snprintf(limits, sizeof(limits), "%s", dash + strlen(wrong) + 1);
		return parse_fault_limits(limits, f, err);
	}
	strbuf_setf(err, "%s", FAULT_SYNTAX);
	return -1;
}

/* Reads of the faulty path so far, for "every Nth read" (all threads). */
static atomic_ulong fault_reads;

bool verify_fault_hits(const struct verify_fault *f, enum fault_kind kind, enum path p)
{
	if (f->kind != kind || f->path != p)
		return false;
	if (f->cpu >= 0 && sched_getcpu() != f->cpu)
		return false;
	if (f->every && atomic_fetch_add(&fault_reads, 1) % f->every != f->every - 1)
		return false;
	return true;
}

static void fault_shift_ts(const struct verify *v, enum path p, struct timespec *ts)
{
	int64_t ns;

	if (!verify_fault_hits(&v->fault, FAULT_CLOCK_BACK, p))
		return;
	ns = ts_ns(ts) - v->fault.shift_ns;
	ts->tv_sec = (time_t)(ns / 1000000000LL);
	ts->tv_nsec = (long)(ns % 1000000000LL);
}

static void fault_errno(const struct verify *v, enum path p, struct vres *r)
{
	if (v->fault.kind != FAULT_ERRNO || v->fault.path != p || !r->failed)
		return;
	r->err = EPERM;
	if (p == PATH_VDSO)
		r->ret = -EPERM;
}

/* ---- calls through each path ------------------------------------------- */

typedef int (*clock_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);
typedef ssize_t (*vgetrandom_fn)(void *, size_t, unsigned, void *, size_t);

/*
 * The libc path calls the C library the way a program does: by name, so
 * that whatever a program's calls go through (an LD_PRELOAD library,
 * libfaketime, a sanitizer's interceptor) is in the path too. The calls go
 * through pointers, not glibc's nonnull declarations, because the ABI
 * checks pass NULL on purpose. The second table holds libc's own
 * functions (looked up in libc.so, past any interposer): what a failure
 * of the libc path is compared with to tell whether an interposer caused it.
 */
struct libc_fns {
	int (*clock_gettime)(clockid_t, struct timespec *);
	int (*clock_getres)(clockid_t, struct timespec *);
	int (*gettimeofday)(struct timeval *, void *);
	time_t (*time)(time_t *);
	int (*getcpu)(unsigned *, unsigned *);
	ssize_t (*getrandom)(void *, size_t, unsigned);
};

static struct libc_fns libc_bound, libc_own;

#define LIBC_BIND(name) \
	do { \
		void *own_ = libc_own_symbol(#name); \
		libc_bound.name = name; \
		libc_own.name = own_ ? (__typeof__(libc_own.name))own_ : name; \
	} while (0)

static void resolve_libc(void)
{
	LIBC_BIND(clock_gettime);
	LIBC_BIND(clock_getres);
	LIBC_BIND(gettimeofday);
	LIBC_BIND(time);
	LIBC_BIND(getcpu);
	LIBC_BIND(getrandom);
}

static const struct libc_fns *libc_of(const struct verify *v)
{
	return v->libc_own ? &libc_own : &libc_bound;
}

/* The outcome of a call in the vDSO's -errno convention. */
static struct vres vdso_result(long ret)
{
	struct vres r = { ret, ret < 0, ret < 0 ? (int)-ret : 0 };

	return r;
}

/* The outcome of a call in the -1-and-errno convention. */
static struct vres errno_result(long ret)
{
	struct vres r = { ret, ret == -1, ret == -1 ? errno : 0 };

	return r;
}

static struct vres no_path(void)
{
	struct vres r = { -1, true, ENOSYS };

	return r;
}

static struct vres clock_call(const struct verify *v, enum path p, bool getres,
			      clockid_t id, struct timespec *ts)
{
	enum api api = getres ? API_CLOCK_GETRES : API_CLOCK_GETTIME;
	struct vres r;

	switch (p) {
	case PATH_VDSO: {
		clock_fn fn = (clock_fn)v->vdso_fn[api];

		if (!fn)
			return no_path();
		/* powerpc's CR0.SO error becomes -errno like everywhere else. */
		r = vdso_result(vdso_clock_call((const void *)fn, id, ts));
		break;
	}
	case PATH_LIBC:
		r = errno_result(getres ? libc_of(v)->clock_getres(id, ts) :
				 libc_of(v)->clock_gettime(id, ts));
		break;
	default:
		/* The catalogue's: the *64 call of a 64-bit time_t build. */
		r = errno_result(syscall(catalog_syscall(api), id, ts));
		break;
	}
	fault_errno(v, p, &r);
	return r;
}

struct vres vcall_gettime(const struct verify *v, enum path p, clockid_t id,
			  struct timespec *ts)
{
	struct vres r = clock_call(v, p, false, id, ts);

	if (!r.failed && ts)
		fault_shift_ts(v, p, ts);
	return r;
}

struct vres vcall_getres(const struct verify *v, enum path p, clockid_t id,
			 struct timespec *ts)
{
	return clock_call(v, p, true, id, ts);
}

struct vres vcall_gettimeofday(const struct verify *v, enum path p,
			       struct timeval *tv, void *tz)
{
	struct vres r;

	switch (p) {
	case PATH_VDSO: {
		gettimeofday_fn fn = (gettimeofday_fn)v->vdso_fn[API_GETTIMEOFDAY];

		if (!fn)
			return no_path();
		r = vdso_result(fn(tv, tz));
		break;
	}
	case PATH_LIBC:
		r = errno_result(libc_of(v)->gettimeofday(tv, tz));
		break;
	default:
#ifdef SYS_gettimeofday
		r = errno_result(syscall(SYS_gettimeofday, tv, tz));
#else
		return no_path();
#endif
		break;
	}
	fault_errno(v, p, &r);
	if (!r.failed && tv && v->fault.kind == FAULT_CLOCK_BACK) {
		struct timespec ts = { tv->tv_sec, tv->tv_usec * 1000L };

		fault_shift_ts(v, p, &ts);
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return r;
}

struct vres vcall_time(const struct verify *v, enum path p, time_t *t)
{
	struct vres r;
	time_t now;

	switch (p) {
	case PATH_VDSO: {
		time_fn fn = (time_fn)v->vdso_fn[API_TIME];

		if (!fn)
			return no_path();
		/* The vDSO's time() cannot fail: it has no error convention. */
		now = fn(t);
		r = (struct vres){ (long)now, false, 0 };
		break;
	}
	case PATH_LIBC:
		now = libc_of(v)->time(t);
		r = errno_result((long)now);
		break;
	default:
#ifdef SYS_time
		r = errno_result(syscall(SYS_time, t));
#else
		return no_path();
#endif
		break;
	}
	fault_errno(v, p, &r);
	/* A shift of whole seconds is the only one time() can show. */
	if (!r.failed && v->fault.shift_ns >= 1000000000LL &&
	    verify_fault_hits(&v->fault, FAULT_CLOCK_BACK, p)) {
		r.ret -= (long)(v->fault.shift_ns / 1000000000LL);
		if (t)
			*t = (time_t)r.ret;
	}
	return r;
}

struct vres vcall_getcpu(const struct verify *v, enum path p, unsigned *cpu,
			 unsigned *node, void *cache)
{
	struct vres r;

	switch (p) {
	case PATH_VDSO: {
		getcpu_fn fn = (getcpu_fn)v->vdso_fn[API_GETCPU];

		if (!fn)
			return no_path();
		r = vdso_result(fn(cpu, node, cache));
		break;
	}
	case PATH_LIBC:
		/* glibc's getcpu(3) has no cache argument. */
		r = errno_result(libc_of(v)->getcpu(cpu, node));
		break;
	default:
		r = errno_result(syscall(SYS_getcpu, cpu, node, cache));
		break;
	}
	fault_errno(v, p, &r);
	if (!r.failed && cpu && verify_fault_hits(&v->fault, FAULT_CPU_WRONG, p))
		*cpu += 1;
	return r;
}

struct vres vcall_getrandom(const struct verify *v, enum path p, void *buf,
			    size_t len, unsigned flags, void *state,
			    size_t state_len)
{
	struct vres r;

	switch (p) {
	case PATH_VDSO: {
		vgetrandom_fn fn = (vgetrandom_fn)v->vdso_fn[API_GETRANDOM];

		if (!fn)
			return no_path();
		r = vdso_result(fn(buf, len, flags, state, state_len));
		break;
	}
	case PATH_LIBC:
		r = errno_result(libc_of(v)->getrandom(buf, len, flags));
		break;
	default:
		r = errno_result(syscall(SYS_getrandom, buf, len, flags));
		break;
	}
	fault_errno(v, p, &r);
	return r;
}

void vres_format(enum path p, const struct vres *r, char *buf, size_t len)
{
	if (!r->failed)
		snprintf(buf, len, "%ld", r->ret);
	else if (p == PATH_VDSO)
		snprintf(buf, len, "-%s", errno_name(r->err));
	else
		snprintf(buf, len, "%ld (errno %s)", r->ret, errno_name(r->err));
}

/* ---- verify's own clock ---------------------------------------------------- */

/*
 * verify's deadlines and the times it reports read the clock through the
 * vDSO entry the catalog resolved, or the raw syscall: never through the
 * C library's clock_gettime, which an LD_PRELOAD interposer (libfaketime
 * and the like) can stop, slow or move. Such an interposer is what the
 * libc path is there to catch; it must not stall verify or change the
 * count of the libc path's calls. Set once, before any thread starts.
 */
static const void *own_vdso_clock_gettime;

int verify_own_gettime(clockid_t id, struct timespec *ts)
{
	if (own_vdso_clock_gettime &&
	    vdso_clock_call(own_vdso_clock_gettime, id, ts) == 0)
		return 0;
	return syscall(catalog_syscall(API_CLOCK_GETTIME), id, ts) == 0 ? 0 : errno;
}

uint64_t verify_now_ns(void)
{
	struct timespec ts = { 0, 0 };

	verify_own_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The vDSO's clock_gettime, when it answers MONOTONIC_RAW itself. */
static void take_own_clock(const struct verify *v)
{
	const struct cell *c = verify_cell(v, API_CLOCK_GETTIME,
					   catalog_clock_by_name("monotonic-raw"),
					   PATH_VDSO);

	own_vdso_clock_gettime = c && c->status == CELL_OK ? c->fn : NULL;
}

/* ---- paths -------------------------------------------------------------- */

/*
 * A path exists by design where the catalogue has it on this architecture:
 * the vDSO entry point, the API's own system call (none for time(2) on
 * arm64: the C library builds it on clock_gettime), and always the C
 * library's function.
 */
bool verify_path_by_design(enum api api, enum path path)
{
	switch (path) {
	case PATH_VDSO:
		return catalog_vdso_symbol(api) != NULL;
	case PATH_SYSCALL:
		return catalog_syscall(api) != CATALOG_NO_SYSCALL;
	default:
		return true;
	}
}

const char *verify_path_missing(const struct verify *v, enum api api, enum path path)
{
	if (path != PATH_VDSO)
		return NULL;
	return v->vdso_fn[api] ? NULL : v->vdso_why[api];
}

size_t verify_cpu_list(const struct verify *v, int *cpus, size_t cap, char *list,
		       size_t len)
{
	size_t n = 0, used = 0;

	list[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < cap; c++) {
		if (!CPU_ISSET(c, &v->cpus))
			continue;
		cpus[n++] = c;
		if (used < len)
			used += (size_t)snprintf(list + used, len - used, "%s%d",
						 used ? "," : "", c);
	}
	return n;
}

bool verify_cpu_went_offline(int cpu, int err)
{
	/* The CPU was in the mask at the start: EINVAL now means the kernel
	 * did not count it among the active CPUs at that moment. */
	(void)cpu;
	return err == EINVAL;
}

const char *verify_libc_interposer(const struct verify *v, enum api api)
{
	return v->libc_interposer[api];
}

static void find_interposers(struct verify *v)
{
	for (int api = 0; api < API_COUNT; api++)
		interposer_of(catalog_apis[api].name, &v->cat, v->libc_interposer[api],
			      sizeof(v->libc_interposer[api]));
}

const struct cell *verify_cell(const struct verify *v, enum api api,
			       const struct clock_info *clock, enum path path)
{
	for (size_t i = 0; i < v->cat.ncells; i++) {
		const struct cell *c = &v->cat.cells[i];

		if (c->api == api && c->path == path && c->clock == clock)
			return c;
	}
	return NULL;
}

const char *verify_unreadable(const struct verify *v, enum api api,
			      const struct clock_info *clock, enum path path)
{
	const struct cell *c = verify_cell(v, api, clock, path);

	/* The catalog has a cell for every path of every API built here:
	 * none is a walk asking for an API this build lacks (a time64 one
	 * where time_t is 64-bit). */
	if (!c)
		return "not in the catalog";
	return c->status == CELL_OK ? NULL : c->why;
}

/* The vDSO entry points come from the catalog, which resolved them once. */
static void take_vdso_functions(struct verify *v)
{
	for (int api = 0; api < API_COUNT; api++)
		snprintf(v->vdso_why[api], sizeof(v->vdso_why[api]),
			 "the vDSO has no %s() on this architecture",
			 catalog_apis[api].name);
	for (size_t i = 0; i < v->cat.ncells; i++) {
		const struct cell *c = &v->cat.cells[i];

		if (c->path != PATH_VDSO)
			continue;
		if (c->fn && !v->vdso_fn[c->api])
			v->vdso_fn[c->api] = c->fn;
		else if (c->status == CELL_NA)
			snprintf(v->vdso_why[c->api], sizeof(v->vdso_why[c->api]),
				 "%s", c->why);
	}
}

/* ---- points and output ---------------------------------------------------- */

static void diag_append(struct verify *v, const char *line)
{
	size_t n = strlen(line);

	grow_array((void **)&v->diag, &v->diag_cap, v->diag_len + n + 2, 1);
	memcpy(v->diag + v->diag_len, line, n);
	v->diag_len += n;
	v->diag[v->diag_len++] = '\n';
	v->diag[v->diag_len] = '\0';
}

static bool selected(struct verify *v, const char *name)
{
	const struct verify_options *o = v->opt;
	bool any = false;

	if (!o->npatterns)
		return true;
	for (size_t i = 0; i < o->npatterns; i++)
		if (verify_pattern_matches(o->patterns[i], name)) {
			v->pattern_used[i] = true;
			any = true;
		}
	return any;
}

bool vpoint(struct verify *v, enum vtimed timed, const char *fmt, ...)
{
	bool held_back;
	va_list ap;

	if (v->open)
		fatal("verify: point '%s' has no result", v->name);
	va_start(ap, fmt);
	vsnprintf(v->name, sizeof(v->name), fmt, ap);
	va_end(ap);
	if (!selected(v, v->name))
		return false;
	held_back = v->group_destructive && !v->opt->destructive;
	switch (v->mode) {
	case VMODE_COUNT:
		/* A point held back takes no time: its share goes to the others. */
		v->counted[held_back ? VT_NONE : timed]++;
		v->held_back += held_back;
		return false;
	case VMODE_LIST:
		fprintf(v->out, "%s%s\n", v->name, v->group_destructive ?
			" # destructive: changes machine-wide state, runs only with "
			"--destructive" : "");
		return false;
	case VMODE_RUN:
		break;
	}
	v->open = true;
	v->cur_timed = timed;
	v->diag_len = 0;
	if (v->diag)
		v->diag[0] = '\0';
	v->point_start_ns = verify_now_ns();
	v->point_watch_s = 0;
	v->point_watched = false;
	if (held_back) {
		vskip(v, VERIFY_DESTRUCTIVE_SKIP);
		return false;
	}
	return true;
}

bool vpoint_path(struct verify *v, enum vtimed timed, enum api api,
		 const struct clock_info *clock, enum path p, const char *fmt, ...)
{
	char subject[sizeof(v->name)];
	const char *why;
	va_list ap;

	if (!verify_path_by_design(api, p))
		return false;
	va_start(ap, fmt);
	vsnprintf(subject, sizeof(subject), fmt, ap);
	va_end(ap);
	if (!vpoint(v, timed, "%s/%s", subject, catalog_paths[p]))
		return false;
	if ((why = verify_unreadable(v, api, clock, p))) {
		vskip(v, "%s", why);
		return false;
	}
	return true;
}

void vdiag(struct verify *v, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	diag_append(v, line);
}

double vbudget(const struct verify *v)
{
	return v->budget_s[v->cur_timed];
}

void vwatched(struct verify *v, double seconds)
{
	v->point_watch_s += seconds;
	v->point_watched = true;
}

enum vresult {
	R_PASS = VRESULT_PASS, R_FAIL = VRESULT_FAIL, R_SKIP = VRESULT_SKIP,
	R_ERROR = VRESULT_ERROR, R_XFAIL = VRESULT_XFAIL,
};

static void note_watched(struct verify *v);
static void vresult(struct verify *v, enum vresult r, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vresult(struct verify *v, enum vresult r, const char *fmt, va_list ap)
{
	char msg[1024];

	if (!v->open)
		fatal("verify: a result without a point (after '%s')", v->name);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* One line per result: newlines would break TAP. */
	for (char *c = msg; *c; c++)
		if (*c == '\n')
			*c = ' ';
	v->n++;
	note_watched(v);
	switch (r) {
	case R_PASS: v->tot.pass++; break;
	case R_FAIL: v->tot.fail++; break;
	case R_SKIP: v->tot.skip++; break;
	case R_ERROR: v->tot.error++; break;
	case R_XFAIL: v->tot.xfail++; break;
	}
	if (v->opt->format == VERIFY_JSON)
		json_array_append_new(v->results, verify_json_point(
			v->n, v->name, (enum verify_result)r, msg, v->diag,
			(double)(verify_now_ns() - v->point_start_ns) / 1e9,
			v->point_watched ? v->point_watch_s : -1));
	else
		verify_text_point(v->out, v->n, v->name, (enum verify_result)r, msg,
				  v->diag);
	v->open = false;
}

#define DEFINE_RESULT(fn, r)					\
	void fn(struct verify *v, const char *fmt, ...)		\
	{							\
		va_list ap;					\
		va_start(ap, fmt);				\
		vresult(v, r, fmt, ap);				\
		va_end(ap);					\
	}

DEFINE_RESULT(vpass, R_PASS)
DEFINE_RESULT(vfail, R_FAIL)
DEFINE_RESULT(vskip, R_SKIP)
DEFINE_RESULT(verror, R_ERROR)
DEFINE_RESULT(vxfail, R_XFAIL)

/* ---- the driver ------------------------------------------------------------ */

static void run_groups(struct verify *v)
{
	/*
	 * A long --duration says where it is and how long is left, unless
	 * the TAP lines go to a terminal (they show it, and the line would
	 * sit among them).
	 */
	struct progress prog = { 0 };

	if (v->mode == VMODE_RUN && !isatty(fileno(v->out)))
		progress_init(&prog, verify_ngroups);
	for (size_t i = 0; i < verify_ngroups; i++) {
		progress_update(&prog, i, verify_groups[i].name);
		v->group_destructive = verify_groups[i].destructive;
		verify_groups[i].run(v);
	}
	progress_done(&prog);
	v->group_destructive = false;
}

static unsigned total_counted(const struct verify *v)
{
	unsigned n = 0;

	for (int t = 0; t < VT_COUNT; t++)
		n += v->counted[t];
	return n;
}

/* Split --duration over the selected time-based points; --long gives the
 * clock watchers their own, longer, time. */
static void plan_budgets(struct verify *v)
{
	double weight = 0;

	for (int t = VT_NONE + 1; t < VT_COUNT; t++)
		if (v->counted[t] && !(v->opt->long_run && watched_long(t)))
			weight += timed_weight[t];
	for (int t = VT_NONE + 1; t < VT_COUNT; t++) {
		if (!v->counted[t])
			continue;
		if (v->opt->long_run && watched_long(t))
			v->budget_s[t] = VERIFY_LONG_WATCH;
		else
			v->budget_s[t] = v->opt->duration_s * timed_weight[t] / weight /
					 v->counted[t];
	}
}

/*
 * The groups that watch a clock for a while, and what for. Only a watch
 * for a step back of one clock at a time, with no machine state changed,
 * is what inconsistency-check does for its 10 s: monotonic and cross-cpu.
 * clocksource-switch watches while switching (clocksource-switch.c's job),
 * raw-skew fits a rate (raw_skew.c's).
 */
static const struct {
	enum vtimed t;
	const char *group;
	enum verify_watch_kind kind;
	bool vs_inconsistency_check;
} watchers[] = {
	{ VT_MONOTONIC, "monotonic", VERIFY_WATCH_STEP_BACK, true },
	{ VT_CROSS_CPU, "cross-cpu", VERIFY_WATCH_STEP_BACK, true },
	{ VT_CLOCKSOURCE, "clocksource-switch", VERIFY_WATCH_STEP_BACK, false },
	{ VT_RATE, "raw-skew", VERIFY_WATCH_RATE, false },
};

static bool is_watcher(enum vtimed t)
{
	for (size_t i = 0; i < ARRAY_SIZE(watchers); i++)
		if (watchers[i].t == t)
			return true;
	return false;
}

/* Note the watch a watcher's point reported; a point that reported none
 * (skipped, or stopped before its reads) watched nothing. */
static void note_watched(struct verify *v)
{
	enum vtimed t = v->cur_timed;
	double seconds = v->point_watch_s;

	if (!is_watcher(t) || !v->point_watched)
		return;
	if (!v->watched_n[t]++ || seconds < v->watched_min_s[t])
		v->watched_min_s[t] = seconds;
	if (seconds > v->watched_max_s[t])
		v->watched_max_s[t] = seconds;
	v->watched_total_s[t] += seconds;
}

/* ---- what is printed (report/verify-text.h) ------------------------------- */

/* The plan, the watchers and the environment, as report/ prints them. */
static void describe(const struct verify *v, struct verify_report *r,
		     struct verify_watch watch[ARRAY_SIZE(watchers)],
		     const struct env_info *env)
{
	*r = (struct verify_report){
		.planned = total_counted(v),
		.timed = total_counted(v) - v->counted[VT_NONE],
		.duration_s = v->opt->duration_s, .long_watch_s = VERIFY_LONG_WATCH,
		.long_run = v->opt->long_run, .destructive = v->opt->destructive,
		.held_back = v->held_back, .fault_env = VERIFY_FAULT_ENV,
		.fault = v->fault.kind != FAULT_NONE ? getenv(VERIFY_FAULT_ENV) : NULL,
		.watch = watch, .nwatch = ARRAY_SIZE(watchers), .env = env,
	};
	for (int t = VT_NONE + 1; t < VT_COUNT; t++)
		r->timed_total_s += v->budget_s[t] * v->counted[t];
	for (int api = 0; api < API_COUNT; api++)
		r->interposer[api] = v->libc_interposer[api];
	for (size_t i = 0; i < ARRAY_SIZE(watchers); i++) {
		enum vtimed t = watchers[i].t;

		watch[i] = (struct verify_watch){
			.group = watchers[i].group, .kind = watchers[i].kind,
			.vs_inconsistency_check = watchers[i].vs_inconsistency_check,
			.planned = v->counted[t], .budget_s = v->budget_s[t],
			.ran = v->watched_n[t], .min_s = v->watched_min_s[t],
			.max_s = v->watched_max_s[t], .total_s = v->watched_total_s[t],
		};
	}
}

static void collect_env(const struct verify *v, struct env_info *env)
{
	env_collect(env, v->cat.have_vdso ? &v->cat.vdso : NULL,
		    v->cat.vdso_error, -1);
}

static void print_header(struct verify *v)
{
	struct verify_watch watch[ARRAY_SIZE(watchers)];
	struct verify_report r;
	struct env_info env;

	collect_env(v, &env);
	describe(v, &r, watch, &env);
	verify_text_header(v->out, &r);
	env_free(&env);
}

static void print_watched(const struct verify *v)
{
	struct verify_watch watch[ARRAY_SIZE(watchers)];
	struct verify_report r;

	describe(v, &r, watch, NULL);
	verify_text_watched(v->out, &r);
}

static void print_json(struct verify *v, double elapsed)
{
	struct verify_group_info groups[ARRAY_SIZE(verify_groups)];
	struct verify_watch watch[ARRAY_SIZE(watchers)];
	struct verify_report r;
	struct env_info env;

	for (size_t i = 0; i < verify_ngroups; i++)
		groups[i] = (struct verify_group_info){
			.name = verify_groups[i].name,
			.summary = verify_groups[i].summary,
			.needs_root = verify_groups[i].needs_root,
			.destructive = verify_groups[i].destructive,
		};
	collect_env(v, &env);
	describe(v, &r, watch, &env);
	verify_json_print(v->out, &r, v->results, &(struct tap_totals){
		.pass = v->tot.pass, .fail = v->tot.fail, .xfail = v->tot.xfail,
		.skip = v->tot.skip, .error = v->tot.error,
	}, verify_exit_status(&v->tot), elapsed, groups, verify_ngroups);
	env_free(&env);
}

int verify_context_init(struct verify *v, const struct verify_options *opt,
			struct strbuf *err)
{
	struct catalog_filter all;

	memset(v, 0, sizeof(*v));
	v->opt = opt;
	v->out = stdout;
	if (verify_parse_fault(getenv(VERIFY_FAULT_ENV), &v->fault, err))
		return -1;
	v->pattern_used = xcalloc(opt->npatterns + 1, sizeof(bool));
	if (sched_getaffinity(0, sizeof(v->cpus), &v->cpus) != 0)
		v->cpus_error = errno;
	resolve_libc();
	catalog_filter_all(&all);
	catalog_build(&v->cat, &all);
	take_vdso_functions(v);
	take_own_clock(v);
	find_interposers(v);
	return 0;
}

void verify_context_free(struct verify *v)
{
	json_decref(v->results);
	v->results = NULL;
	free(v->diag);
	v->diag = NULL;
	free(v->pattern_used);
	v->pattern_used = NULL;
	catalog_free(&v->cat);
}

int verify_main(const struct verify_options *opt)
{
	struct verify v;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	uint64_t start = verify_now_ns();
	int status;

	if (verify_context_init(&v, opt, &err) != 0)
		return usage_fail("invalid %s '%s': %s", VERIFY_FAULT_ENV,
				  getenv(VERIFY_FAULT_ENV), err.buf);
	v.mode = VMODE_COUNT;
	run_groups(&v);
	for (size_t i = 0; i < opt->npatterns; i++)
		if (!v.pattern_used[i]) {
			status = usage_fail("no check matches '%s' (see 'clockbench "
					    "verify --list')", opt->patterns[i]);
			goto out;
		}
	if (opt->list) {
		v.mode = VMODE_LIST;
		run_groups(&v);
		status = 0;
		goto out;
	}
	plan_budgets(&v);
	v.mode = VMODE_RUN;
	if (opt->format == VERIFY_JSON)
		v.results = json_array();
	else
		print_header(&v);
	run_groups(&v);
	if (opt->format == VERIFY_JSON)
		print_json(&v, (double)(verify_now_ns() - start) / 1e9);
	else {
		print_watched(&v);
		tap_write_totals(v.out, &(struct tap_totals){
			.pass = v.tot.pass, .fail = v.tot.fail, .xfail = v.tot.xfail,
			.skip = v.tot.skip, .error = v.tot.error,
		});
	}
	status = verify_exit_status(&v.tot);
out:
	/* v.out is stdout: main flushes and checks it, for every command. */
	verify_context_free(&v);
	return status;
}
