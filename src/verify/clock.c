// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clock checks of clockbench verify: brackets, monotonicity on one
 * thread and across CPUs, resolution, and consistency between APIs.
 */
#include "verify/verify.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <unistd.h>

/* Every check reads at least this often, whatever --duration says. */
#define MIN_READS 1000
/* Fixed-count loops of the checks that are not time-based. */
#define CONSISTENCY_ROUNDS 2000
#define GETRES_ROUNDS 1000

/* ---- subjects: what a point reads ---------------------------------------- */

struct subject {
	enum api api;
	const struct clock_info *clock;	/* clock_gettime only */
	char name[64];			/* "clock-gettime-monotonic" */
};

/* A clock read through api (clock_gettime, clock_getres). */
static struct subject clock_subject(enum api api, const struct clock_info *ci)
{
	struct subject s = { api, ci, "" };

	snprintf(s.name, sizeof(s.name), "%s-%s", catalog_apis[api].label, ci->name);
	return s;
}

static struct subject api_subject(enum api api)
{
	struct subject s = { api, NULL, "" };

	snprintf(s.name, sizeof(s.name), "%s", catalog_apis[api].label);
	return s;
}

/* Clocks that follow CLOCK_REALTIME, so that setting the time moves them. */
static bool realtime_family(const struct subject *s)
{
	if (s->api == API_GETTIMEOFDAY || s->api == API_TIME)
		return true;
	if (s->api != API_CLOCK_GETTIME)
		return false;
	switch (s->clock->id) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_TAI:
		return true;
	default:
		return false;
	}
}

/* The point "<group>/<subject>/<path>" (see vpoint_path): true when it
 * is to run now. */
static bool subject_point(struct verify *v, enum vtimed timed, const char *group,
			  const struct subject *s, enum path p)
{
	return vpoint_path(v, timed, s->api, s->clock, p, "%s/%s", group, s->name);
}

/* ---- readers --------------------------------------------------------------- */

struct reader {
	const struct verify *v;
	enum api api;
	enum path path;
	clockid_t id;
};

static struct reader make_reader(const struct verify *v, const struct subject *s,
				 enum path p)
{
	struct reader r = { v, s->api, p, s->clock ? s->clock->id : 0 };

	return r;
}

static int result_errno(const struct vres *r)
{
	return r->failed ? (r->err ? r->err : EIO) : 0;
}

static int read_cpu_totals(const struct reader *r, struct timespec *ts)
{
	static long hz;
	long ret;

	if (r->api == API_TIMES) {
		struct tms t;

		ret = r->path == PATH_LIBC ? (long)times(&t) : syscall(SYS_times, &t);
		if (ret == -1)
			return errno;
		if (!hz)
			hz = sysconf(_SC_CLK_TCK);
		int64_t ns = (int64_t)(t.tms_utime + t.tms_stime) * (1000000000LL / hz);
		ts->tv_sec = (time_t)(ns / 1000000000LL);
		ts->tv_nsec = (long)(ns % 1000000000LL);
		return 0;
	}
	struct rusage ru;

	ret = r->path == PATH_LIBC ? getrusage(RUSAGE_SELF, &ru) :
	      syscall(SYS_getrusage, RUSAGE_SELF, &ru);
	if (ret == -1)
		return errno;
	ts->tv_sec = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec;
	ts->tv_nsec = (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
	return 0;
}

/* Any subject as a timespec: gettimeofday in us, time in whole seconds. */
static int read_subject(void *arg, struct timespec *ts)
{
	const struct reader *r = arg;
	struct timeval tv;
	struct vres res;

	switch (r->api) {
	case API_CLOCK_GETTIME:
		res = vcall_gettime(r->v, r->path, r->id, ts);
		break;
	case API_GETTIMEOFDAY:
		res = vcall_gettimeofday(r->v, r->path, &tv, NULL);
		/* An out-of-range tv_usec stays out of range in tv_nsec. */
		ts->tv_sec = tv.tv_sec;
		ts->tv_nsec = tv.tv_usec * 1000L;
		break;
	case API_TIME:
		res = vcall_time(r->v, r->path, NULL);
		ts->tv_sec = (time_t)res.ret;
		ts->tv_nsec = 0;
		break;
	case API_TIMES:
	case API_GETRUSAGE:
		return read_cpu_totals(r, ts);
	default:
		return ENOSYS;
	}
	return result_errno(&res);
}

/*
 * A timespec as ts_format() writes it, by value: ts_text(&ts).s is an
 * argument of a message, alive until the end of the call.
 */
struct ts_text {
	char s[32];
};

static struct ts_text ts_text(const struct timespec *ts)
{
	struct ts_text t;

	ts_format(ts, t.s, sizeof(t.s));
	return t;
}

/* ---- interposers ------------------------------------------------------------ */

/* Whether the same check passes on a context's subject: the re-run below. */
typedef bool (*recheck_fn)(const struct verify *own, const struct subject *s,
			   double seconds);

/* The APIs whose libc path verify can also call past an interposer. */
static bool has_own_libc(enum api api)
{
	return api == API_CLOCK_GETTIME || api == API_GETTIMEOFDAY || api == API_TIME;
}

/*
 * A libc point failed. When a library interposes the function, name it,
 * and run the same check on libc's own function: if that passes, the
 * interposer is the cause. The text (starting "; ") goes to why; empty
 * when nothing interposes.
 */
static void blame_interposer(const struct verify *v, const struct subject *s,
			     enum path p, recheck_fn recheck, struct strbuf *why)
{
	const char *fn = catalog_apis[s->api].name;
	const char *who = verify_libc_interposer(v, s->api);
	struct verify own;

	strbuf_reset(why);
	if (p != PATH_LIBC || !*who)
		return;
	if (!has_own_libc(s->api)) {
		strbuf_setf(why, "; %s() is interposed by %s", fn, who);
		return;
	}
	own = *v;
	own.libc_own = true;
	if (recheck(&own, s, vbudget(v)))
		strbuf_setf(why, "; %s() is interposed by %s, and libc's own %s() "
			    "passes the same check: the interposer is the cause", fn, who, fn);
	else
		strbuf_setf(why, "; %s() is interposed by %s, but libc's own %s() "
			    "fails the same check too", fn, who, fn);
}

/* ---- bracket ----------------------------------------------------------------- */

static const char *verdict_text(enum bracket_verdict verdict)
{
	switch (verdict) {
	case BRACKET_EARLY: return "is earlier than the syscall read taken before it";
	case BRACKET_LATE: return "is later than the syscall read taken after it";
	case BRACKET_DENORMAL: return "is not a normalized timespec";
	default: return "is inside its bracket";
	}
}

static bool bracket_recheck(const struct verify *own, const struct subject *s,
			    double seconds)
{
	struct reader ref = make_reader(own, s, PATH_SYSCALL);
	struct reader test = make_reader(own, s, PATH_LIBC);
	struct bracket_stats st;

	bracket_run(read_subject, &ref, read_subject, &test, seconds, MIN_READS, &st);
	return !st.read_error && !st.broken;
}

static void bracket_point(struct verify *v, const struct subject *s, enum path p)
{
	struct reader ref = make_reader(v, s, PATH_SYSCALL);
	struct reader test = make_reader(v, s, p);
	const char *pname = catalog_paths[p];
	struct bracket_stats st;
	struct step_watch w;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf blame = STRBUF_INIT;
	bool stepped;

	step_watch_begin_if(&w, realtime_family(s));
	bracket_run(read_subject, &ref, read_subject, &test, vbudget(v), MIN_READS, &st);
	stepped = step_watch_end(&w, &why);
	if (st.read_error) {
		vfail(v, "a read failed with %s after %lu good reads",
		      errno_name(st.read_error), st.reads);
		return;
	}
	if (!st.broken) {
		vpass(v, "%lu %s reads, each between the two syscall reads around it",
		      st.reads, pname);
		return;
	}
	vdiag(v, "first broken bracket: syscall %s, %s %s, syscall %s",
	      ts_text(&st.first[0]).s, pname, ts_text(&st.first[1]).s,
	      ts_text(&st.first[2]).s);
	vdiag(v, "the %s read %s", pname, verdict_text(st.first_verdict));
	if (stepped && st.first_verdict != BRACKET_DENORMAL) {
		vdiag(v, "%s", why.buf);
		vpass(v, "%lu of %lu reads outside their bracket, explained by a "
		      "REALTIME step, not counted", st.broken, st.reads);
		return;
	}
	blame_interposer(v, s, p, bracket_recheck, &blame);
	vfail(v, "%lu of %lu %s reads outside their syscall bracket, the worst by "
	      "%lld ns%s", st.broken, st.reads, pname, (long long)st.worst_ns, blame.buf);
}

/* The subjects a walk visits: clock_gettime per clock, then others. */
static size_t list_subjects(struct subject *out, size_t cap, bool with_cpu_totals,
			    bool skip_thread_clock)
{
	size_t n = 0;

	for_each_clock(ci) {
		if (skip_thread_clock && ci->id == CLOCK_THREAD_CPUTIME_ID)
			continue;
		if (n < cap)
			out[n++] = clock_subject(API_CLOCK_GETTIME, ci);
	}
	if (n + 2 <= cap) {
		out[n++] = api_subject(API_GETTIMEOFDAY);
		out[n++] = api_subject(API_TIME);
	}
	if (with_cpu_totals && n + 2 <= cap) {
		out[n++] = api_subject(API_TIMES);
		out[n++] = api_subject(API_GETRUSAGE);
	}
	return n;
}

void verify_bracket(struct verify *v)
{
	struct subject subj[24];
	size_t n = list_subjects(subj, ARRAY_SIZE(subj), false, false);
	static const enum path paths[] = { PATH_VDSO, PATH_LIBC };
	const char *why;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(paths); k++) {
			if (!subject_point(v, VT_BRACKET, "bracket", &subj[i], paths[k]))
				continue;
			if ((why = verify_unreadable(v, subj[i].api, subj[i].clock,
						     PATH_SYSCALL)))
				vskip(v, "no raw system call to bracket with: %s", why);
			else
				bracket_point(v, &subj[i], paths[k]);
		}
	}
}

/* ---- one thread ---------------------------------------------------------------- */

static bool monotonic_recheck(const struct verify *own, const struct subject *s,
			      double seconds)
{
	struct reader r = make_reader(own, s, PATH_LIBC);
	struct mono_stats st;

	mono_run(read_subject, &r, seconds, MIN_READS, &st);
	return !st.read_error && !st.denormal && !st.backward;
}

static void monotonic_point(struct verify *v, const struct subject *s, enum path p)
{
	struct reader r = make_reader(v, s, p);
	struct mono_stats st;
	struct step_watch w;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf blame = STRBUF_INIT;
	bool stepped;

	step_watch_begin_if(&w, realtime_family(s));
	mono_run(read_subject, &r, vbudget(v), MIN_READS, &st);
	if (st.reads)
		vwatched(v, st.seconds);
	stepped = step_watch_end(&w, &why);
	if (st.read_error) {
		vfail(v, "a read failed with %s after %lu good reads",
		      errno_name(st.read_error), st.reads);
		return;
	}
	if (st.denormal) {
		vfail(v, "%lu of %lu reads are not normalized timespecs",
		      st.denormal, st.reads);
		return;
	}
	if (!st.backward) {
		vpass(v, "%lu reads over %.3f s, largest backward step 0 ns", st.reads,
		      st.seconds);
		return;
	}
	vdiag(v, "largest backward step: read %lu %s, read %lu %s", st.back_at - 1,
	      ts_text(&st.back_prev).s, st.back_at, ts_text(&st.back_cur).s);
	if (stepped) {
		vdiag(v, "%s", why.buf);
		vpass(v, "went backwards %lu times (up to %lld ns), explained by a "
		      "REALTIME step", st.backward, (long long)st.max_back_ns);
		return;
	}
	blame_interposer(v, s, p, monotonic_recheck, &blame);
	vfail(v, "went backwards %lu times in %lu reads over %.3f s, by up to %lld ns "
	      "at read %lu%s", st.backward, st.reads, st.seconds, (long long)st.max_back_ns,
	      st.back_at, blame.buf);
}

void verify_monotonic(struct verify *v)
{
	struct subject subj[24];
	size_t n = list_subjects(subj, ARRAY_SIZE(subj), true, false);

	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PATH_COUNT; p++)
			if (subject_point(v, VT_MONOTONIC, "monotonic", &subj[i], p))
				monotonic_point(v, &subj[i], p);
}

/* ---- across CPUs ---------------------------------------------------------------- */

static bool cross_cpu_recheck(const struct verify *own, const struct subject *s,
			      double seconds)
{
	struct reader r = make_reader(own, s, PATH_LIBC);
	int cpus[CPU_SETSIZE];
	char cpulist[256];
	struct xcpu_config cfg = {
		.cpus = cpus, .pin = true, .read = read_subject, .arg = &r,
		.seconds = seconds,
	};
	struct xcpu_result res;

	cfg.ncpus = verify_cpu_list(own, cpus, ARRAY_SIZE(cpus), cpulist, sizeof(cpulist));
	return xcpu_run(&cfg, &res) == 0 && !res.pin_error && !res.read_error &&
	       !res.backward;
}

static void cross_cpu_point(struct verify *v, const struct subject *s, enum path p,
			    const int *cpus, size_t ncpus, const char *cpulist)
{
	struct reader r = make_reader(v, s, p);
	struct xcpu_config cfg = {
		.cpus = cpus, .ncpus = ncpus, .pin = true,
		.read = read_subject, .arg = &r, .seconds = vbudget(v),
	};
	struct xcpu_result res;
	struct step_watch w;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf blame = STRBUF_INIT;
	bool stepped;

	step_watch_begin_if(&w, realtime_family(s));
	if (xcpu_run(&cfg, &res) != 0) {
		verror(v, "cannot start one thread per CPU: %s", strerror(errno));
		step_watch_end(&w, &why);
		return;
	}
	stepped = step_watch_end(&w, &why);
	if (res.exchanges)
		vwatched(v, res.seconds);
	if (res.pin_error && verify_cpu_went_offline(res.pin_cpu, res.pin_error)) {
		vskip(v, "CPU %d was offline when the check pinned to it (CPU hotplug "
		      "since the run started)", res.pin_cpu);
		return;
	}
	if (res.pin_error) {
		verror(v, "cannot pin a thread to CPU %d: %s", res.pin_cpu,
		       errno_name(res.pin_error));
		return;
	}
	if (res.read_error) {
		vfail(v, "a read failed with %s", errno_name(res.read_error));
		return;
	}
	if (!res.backward) {
		vpass(v, "%lu reads handed round CPUs %s over %.3f s, largest backward "
		      "step 0 ns", res.exchanges, cpulist, res.seconds);
		return;
	}
	vdiag(v, "CPU %d read %s, then CPU %d read %s", res.back_from_cpu,
	      ts_text(&res.back_prev).s, res.back_to_cpu, ts_text(&res.back_cur).s);
	if (stepped) {
		vdiag(v, "%s", why.buf);
		vpass(v, "largest backward step %lld ns, explained by a REALTIME step",
		      (long long)res.max_back_ns);
		return;
	}
	blame_interposer(v, s, p, cross_cpu_recheck, &blame);
	vfail(v, "largest backward step %lld ns, from CPU %d's read to CPU %d's at "
	      "exchange %lu (%lu of %lu reads over %.3f s went backwards)%s",
	      (long long)res.max_back_ns, res.back_from_cpu, res.back_to_cpu,
	      res.back_at, res.backward, res.exchanges, res.seconds, blame.buf);
}

void verify_cross_cpu(struct verify *v)
{
	struct subject subj[24];
	/* A thread's CPU clock is its own: nothing to hand between threads. */
	size_t n = list_subjects(subj, ARRAY_SIZE(subj), false, true);
	int cpus[CPU_SETSIZE];
	char cpulist[256];
	size_t ncpus = verify_cpu_list(v, cpus, ARRAY_SIZE(cpus), cpulist, sizeof(cpulist));

	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < PATH_COUNT; p++) {
			if (!subject_point(v, VT_CROSS_CPU, "cross-cpu", &subj[i], p))
				continue;
			if (ncpus < 2)
				vskip(v, "needs two CPUs in the affinity mask (allowed: %s)",
				      cpulist);
			else
				cross_cpu_point(v, &subj[i], p, cpus, ncpus, cpulist);
		}
	}
}

/* ---- resolution ----------------------------------------------------------------- */

static void getres_point(struct verify *v, const struct clock_info *ci, enum path p)
{
	struct timespec ref, first, res;
	struct vres r;

	r = vcall_getres(v, PATH_SYSCALL, ci->id, &first);
	if (r.failed) {
		vfail(v, "the syscall failed with %s", errno_name(r.err));
		return;
	}
	for (unsigned i = 0; i < GETRES_ROUNDS; i++) {
		char got[48];

		r = vcall_getres(v, PATH_SYSCALL, ci->id, &ref);
		if (r.failed || ts_cmp(&ref, &first) != 0) {
			vfail(v, "the kernel's resolution changed from %s to %s",
			      ts_text(&first).s, ts_text(&ref).s);
			return;
		}
		memset(&res, 0xa5, sizeof(res));
		r = vcall_getres(v, p, ci->id, &res);
		if (r.failed) {
			vres_format(p, &r, got, sizeof(got));
			vfail(v, "%s clock_getres returned %s", catalog_paths[p], got);
			return;
		}
		if (ts_cmp(&res, &ref) != 0) {
			struct ts_text want = ts_text(&ref), seen = ts_text(&res);

			vdiag(v, "syscall %s s, %s %s s", want.s, catalog_paths[p], seen.s);
			vfail(v, "%s resolution %s s differs from the syscall's %s s",
			      catalog_paths[p], seen.s, want.s);
			return;
		}
	}
	if (!ts_normalized(&first) || ts_ns(&first) <= 0) {
		vfail(v, "the resolution %s s is not a positive normalized timespec",
		      ts_text(&first).s);
		return;
	}
	vpass(v, "%lld ns on %u calls, as the syscall reports",
	      (long long)ts_ns(&first), GETRES_ROUNDS);
}

/* How long a step check reads: long enough to see sixteen ticks of a
 * coarse clock (res_ns), at most the budget unless a tick needs more. */
static void step_times(const struct verify *v, int64_t res_ns, double *min_s,
		       double *max_s)
{
	*min_s = vbudget(v) < 0.01 ? vbudget(v) : 0.01;
	*max_s = vbudget(v);
	if (*max_s < 40e-9 * (double)res_ns)
		*max_s = 40e-9 * (double)res_ns;
}

/* A failed read or a clock that never moved fails the point. */
static bool step_measured(struct verify *v, const struct gran_stats *st, double max_s)
{
	if (st->read_error) {
		vfail(v, "a read failed with %s", errno_name(st->read_error));
		return false;
	}
	if (!st->steps) {
		vfail(v, "the clock never moved in %lu reads (%.3f s)", st->reads, max_s);
		return false;
	}
	return true;
}

static void step_point(struct verify *v, const struct subject *s, enum path p,
		       enum clock_kind kind)
{
	struct reader r = make_reader(v, s, p);
	struct gran_stats st;
	struct timespec res;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	struct vres gr = vcall_getres(v, PATH_SYSCALL, s->clock->id, &res);
	double min_s, max_s;

	if (gr.failed) {
		verror(v, "the syscall clock_getres failed: %s", errno_name(gr.err));
		return;
	}
	step_times(v, ts_ns(&res), &min_s, &max_s);
	gran_run(read_subject, &r, min_s, max_s, 16, &st);
	if (!step_measured(v, &st, max_s))
		return;
	if (!granularity_agrees(ts_ns(&res), st.min_step_ns, kind, &why)) {
		vdiag(v, "reported resolution %lld ns, smallest observed step %lld ns "
		      "over %lu steps", (long long)ts_ns(&res),
		      (long long)st.min_step_ns, st.steps);
		vfail(v, "%s", why.buf);
		return;
	}
	if (kind == CLOCK_KIND_COARSE)
		vpass(v, "%s (%lu steps)", why.buf, st.steps);
	else if (gran_step_is_read_cost(&st))
		vpass(v, "%s; %lu of %lu reads saw the clock move, so the step is the "
		      "cost of a read and bounds the clock's own step only from above",
		      why.buf, st.steps, st.reads - 1);
	else
		vpass(v, "%s; only %lu of %lu reads saw the clock move, so %lld ns is the "
		      "clock's own step", why.buf, st.steps, st.reads - 1,
		      (long long)st.min_step_ns);
}

/* gettimeofday gives CLOCK_REALTIME in whole microseconds. */
#define GETTIMEOFDAY_UNIT_NS 1000

/* Pairs of reads lattice_run makes: a few ms through the vDSO. */
#define LATTICE_PAIRS 20000

/*
 * The finest step seen (step_ns) was a read's cost: look for the clock's
 * own step in pairs of reads spaced by spins of varying length (see
 * lattice_run); the text goes on out.
 */
static void read_cost_step(struct reader *r, int64_t step_ns, struct strbuf *out)
{
	struct lattice l;
	int e = lattice_run(read_subject, r, LATTICE_PAIRS, &l);

	strbuf_addf(out, "the cost of a read; ");
	if (e) {
		strbuf_addf(out, "its pairs of reads failed with %s, so the clock steps "
			    "by at most %lld ns (a finer step is not measured)",
			    errno_name(e), (long long)step_ns);
		return;
	}
	strbuf_addf(out, "read in %d pairs with spins of varying length between "
		    "them, ", LATTICE_PAIRS);
	if (l.found)
		strbuf_addf(out, "%.2f %% of the %lu steps under %d ns were within %.1f "
			    "ns of a multiple of %.1f ns (%u multiples seen), so the clock "
			    "steps by about %.1f ns", l.share * 100, l.deltas,
			    LATTICE_HIST_NS, LATTICE_TOLERANCE_NS, l.step_ns, l.multiples,
			    l.step_ns);
	else if (l.step_ns > 0)
		strbuf_addf(out, "its %lu steps under %d ns lay near multiples of %.1f ns, "
			    "but only %u multiples held enough of them to tell, so the clock "
			    "steps by at most %lld ns (a finer step is not measured)",
			    l.deltas, LATTICE_HIST_NS, l.step_ns, l.multiples,
			    (long long)step_ns);
	else
		strbuf_addf(out, "its %lu steps under %d ns lay on no lattice of %.0f ns "
			    "or more, so the clock steps by at most %lld ns (a finer step "
			    "is not measured)", l.deltas, LATTICE_HIST_NS, LATTICE_MIN_NS,
			    (long long)step_ns);
}

/*
 * The step of the clock gettimeofday gives, which its microseconds hide:
 * CLOCK_REALTIME read back to back through clock_gettime on path p. The
 * text (what was measured, or why nothing was) goes to out.
 */
static void realtime_own_step(struct verify *v, enum path p, struct strbuf *out)
{
	struct subject rt = clock_subject(API_CLOCK_GETTIME,
					  catalog_clock_by_name("realtime"));
	struct reader r = make_reader(v, &rt, p);
	const char *why = verify_unreadable(v, rt.api, rt.clock, p), *pn = catalog_paths[p];
	struct gran_stats st;
	double min_s, max_s;

	if (why) {
		strbuf_setf(out, "the clock's own step is not measured: clock_gettime"
			    "(CLOCK_REALTIME) cannot be read through %s here (%s)", pn, why);
		return;
	}
	step_times(v, 1, &min_s, &max_s);
	gran_run(read_subject, &r, min_s, max_s, 16, &st);
	if (st.read_error || !st.steps) {
		strbuf_setf(out, "the clock's own step is not measured: clock_gettime"
			    "(CLOCK_REALTIME) through %s %s%s", pn, st.read_error ?
			    "failed with " : "never moved", st.read_error ?
			    errno_name(st.read_error) : "");
		return;
	}
	strbuf_setf(out, "the clock's own step: CLOCK_REALTIME read back to back "
		    "through %s's clock_gettime moved on %s%lu of %lu reads, by %lld ns "
		    "at the least, ", pn, gran_step_is_read_cost(&st) ? "" : "only ",
		    st.steps, st.reads - 1, (long long)st.min_step_ns);
	if (gran_step_is_read_cost(&st))
		read_cost_step(&r, st.min_step_ns, out);
	else
		strbuf_addf(out, "so %lld ns is the clock's own step",
			    (long long)st.min_step_ns);
}

/*
 * gettimeofday's step is its unit (or whole units, when a read costs
 * more): it says nothing of the clock's own step, which is measured
 * through clock_gettime instead.
 */
static void gettimeofday_step_point(struct verify *v, const struct subject *s,
				    enum path p)
{
	struct reader r = make_reader(v, s, p);
	struct gran_stats st;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf own = STRBUF_INIT;
	double min_s, max_s;

	step_times(v, GETTIMEOFDAY_UNIT_NS, &min_s, &max_s);
	gran_run(read_subject, &r, min_s, max_s, 16, &st);
	if (!step_measured(v, &st, max_s))
		return;
	if (!unit_step_agrees(GETTIMEOFDAY_UNIT_NS, st.min_step_ns, "gettimeofday's unit",
			      &why)) {
		vdiag(v, "smallest observed step %lld ns over %lu steps",
		      (long long)st.min_step_ns, st.steps);
		vfail(v, "%s", why.buf);
		return;
	}
	realtime_own_step(v, p, &own);
	if (st.min_step_ns == GETTIMEOFDAY_UNIT_NS)
		vpass(v, "%s; %s%lu of %lu reads saw it move, so the step is the unit's, "
		      "not the clock's; %s", why.buf, gran_step_is_read_cost(&st) ? "" :
		      "only ", st.steps, st.reads - 1, own.buf);
	else
		vpass(v, "%s; %lu of %lu reads saw it move, by %lld units at the least: "
		      "the cost of a read, in whole units; %s", why.buf, st.steps,
		      st.reads - 1, (long long)(st.min_step_ns / GETTIMEOFDAY_UNIT_NS),
		      own.buf);
}

void verify_resolution(struct verify *v)
{
	struct subject g = api_subject(API_GETTIMEOFDAY);

	for_each_clock(ci) {
		struct subject s = clock_subject(API_CLOCK_GETRES, ci);

		for (int p = 0; p < PATH_COUNT; p++)
			if (subject_point(v, VT_NONE, "resolution", &s, p))
				getres_point(v, ci, p);
	}
	for_each_clock(ci) {
		struct subject s = clock_subject(API_CLOCK_GETTIME, ci);

		for (int p = 0; p < PATH_COUNT; p++)
			if (subject_point(v, VT_GRANULARITY, "resolution/step", &s, p))
				step_point(v, &s, p, ci->kind);
	}
	for (int p = 0; p < PATH_COUNT; p++)
		if (subject_point(v, VT_GRANULARITY, "resolution/step", &g, p))
			gettimeofday_step_point(v, &g, p);
}

/* ---- consistency ------------------------------------------------------------------ */

static int sys_read(const struct verify *v, clockid_t id, struct timespec *ts)
{
	struct vres r = vcall_gettime(v, PATH_SYSCALL, id, ts);

	return result_errno(&r);
}

/*
 * A value read through a path must lie between two reference reads,
 * lo <= x <= hi, in the units the API gives (us for gettimeofday, whole
 * seconds for time): one judgement for every "A agrees with B" check.
 */
struct agree {
	unsigned long rounds, broken;
	int64_t lo, x, hi;		/* the first broken round */
	int error;
};

static void agree_note(struct agree *a, int64_t lo, int64_t x, int64_t hi)
{
	a->rounds++;
	if (lo <= x && x <= hi)
		return;
	if (!a->broken++) {
		a->lo = lo;
		a->x = x;
		a->hi = hi;
	}
}

/* w: the REALTIME step watch begun before the rounds, NULL when none. */
static void agree_report(struct verify *v, const struct agree *a,
			 struct step_watch *w, const char *what, const char *unit)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	bool stepped = w && step_watch_end(w, &why);

	if (a->error) {
		vfail(v, "a read failed with %s", errno_name(a->error));
		return;
	}
	if (!a->broken) {
		vpass(v, "%lu rounds, %s", a->rounds, what);
		return;
	}
	if (a->lo == INT64_MIN)
		vdiag(v, "first disagreement: expected %lld <= %lld (%s)",
		      (long long)a->x, (long long)a->hi, unit);
	else if (a->hi == INT64_MAX)
		vdiag(v, "first disagreement: expected %lld <= %lld (%s)",
		      (long long)a->lo, (long long)a->x, unit);
	else
		vdiag(v, "first disagreement: expected %lld <= %lld <= %lld (%s)",
		      (long long)a->lo, (long long)a->x, (long long)a->hi, unit);
	if (stepped) {
		vdiag(v, "%s", why.buf);
		vpass(v, "%lu of %lu rounds disagree, explained by a REALTIME step",
		      a->broken, a->rounds);
		return;
	}
	vfail(v, "%lu of %lu rounds break '%s'", a->broken, a->rounds, what);
}

/* The path's value of one round, in the check's unit: 0 or an errno. */
typedef int (*agree_read_fn)(struct verify *v, enum path p, const void *ctx, int64_t *x);

/*
 * The rounds of a check that brackets the path's value between a
 * reference read before (clock before) and CLOCK_REALTIME after, both in
 * units of unit_ns: before <= x <= after. Through the syscall, so that the
 * reference is the kernel's own and never the path under test.
 */
static void agree_rounds(struct verify *v, enum path p, struct agree *a,
			 clockid_t before, int64_t unit_ns, agree_read_fn read,
			 const void *ctx)
{
	for (unsigned i = 0; i < CONSISTENCY_ROUNDS && !a->error; i++) {
		struct timespec t1, t2;
		int64_t x;

		if ((a->error = sys_read(v, before, &t1)) || (a->error = read(v, p, ctx, &x)) ||
		    (a->error = sys_read(v, CLOCK_REALTIME, &t2)))
			break;
		agree_note(a, ts_ns(&t1) / unit_ns, x, ts_ns(&t2) / unit_ns);
	}
}

static int read_gettimeofday_us(struct verify *v, enum path p, const void *ctx, int64_t *x)
{
	struct timeval tv;
	struct vres r = vcall_gettimeofday(v, p, &tv, NULL);

	*x = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
	return result_errno(&r);
}

static int read_time_s(struct verify *v, enum path p, const void *ctx, int64_t *x)
{
	struct vres r = vcall_time(v, p, NULL);

	*x = r.ret;
	return result_errno(&r);
}

/* CLOCK_TAI less the kernel's TAI offset (ctx: its seconds, an int). */
static int read_tai_less_offset_ns(struct verify *v, enum path p, const void *ctx, int64_t *x)
{
	struct timespec tai;
	struct vres r = vcall_gettime(v, p, CLOCK_TAI, &tai);

	*x = ts_ns(&tai) - *(const int *)ctx * 1000000000LL;
	return result_errno(&r);
}

static void gettimeofday_vs_realtime(struct verify *v, enum path p)
{
	struct agree a = { 0 };
	struct step_watch w;

	step_watch_begin(&w);
	agree_rounds(v, p, &a, CLOCK_REALTIME, 1000, read_gettimeofday_us, NULL);
	agree_report(v, &a, &w, "REALTIME before <= gettimeofday <= REALTIME after",
		     "us");
}

static void time_vs_realtime(struct verify *v, enum path p)
{
	struct agree a = { 0 };
	struct step_watch w;

	step_watch_begin(&w);
	/* time() is the seconds of the last tick: the coarse clock before. */
	agree_rounds(v, p, &a, CLOCK_REALTIME_COARSE, 1000000000, read_time_s, NULL);
	agree_report(v, &a, &w, "REALTIME_COARSE seconds before <= time() <= "
		     "REALTIME seconds after", "s");
}

static void tai_offset(struct verify *v, enum path p)
{
	struct timex tx1, tx2;
	struct agree a = { 0 };
	char what[128];
	struct step_watch w;

	memset(&tx1, 0, sizeof(tx1));
	memset(&tx2, 0, sizeof(tx2));
	if (adjtimex(&tx1) < 0) {
		verror(v, "adjtimex: %s", strerror(errno));
		return;
	}
	step_watch_begin(&w);
	agree_rounds(v, p, &a, CLOCK_REALTIME, 1, read_tai_less_offset_ns, &tx1.tai);
	if (adjtimex(&tx2) >= 0 && tx2.tai != tx1.tai) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		step_watch_end(&w, &why);
		vskip(v, "the kernel's TAI offset changed during the check (%d -> %d s)",
		      tx1.tai, tx2.tai);
		return;
	}
	snprintf(what, sizeof(what), "TAI - %d s (adjtimex's TAI offset) lies between "
		 "two REALTIME reads", tx1.tai);
	agree_report(v, &a, &w, what, "ns");
}

/* Rounds of two reads through the path, first then second: first <= second. */
static void agree_in_order(struct verify *v, enum path p, struct agree *a,
			   clockid_t first, clockid_t second)
{
	for (unsigned i = 0; i < CONSISTENCY_ROUNDS && !a->error; i++) {
		struct timespec t1, t2;
		struct vres r = vcall_gettime(v, p, first, &t1);

		if ((a->error = result_errno(&r)))
			break;
		r = vcall_gettime(v, p, second, &t2);
		if ((a->error = result_errno(&r)))
			break;
		agree_note(a, ts_ns(&t1), ts_ns(&t2), INT64_MAX);
	}
}

static void boottime_ge_monotonic(struct verify *v, enum path p)
{
	struct agree a = { 0 };

	/* Read after MONOTONIC, BOOTTIME can only be further on. */
	agree_in_order(v, p, &a, CLOCK_MONOTONIC, CLOCK_BOOTTIME);
	agree_report(v, &a, NULL, "MONOTONIC <= BOOTTIME read after it", "ns");
}

static void coarse_le_fine(struct verify *v, enum path p, clockid_t coarse,
			   clockid_t fine, bool rt)
{
	struct agree a = { 0 };
	struct step_watch w;

	step_watch_begin_if(&w, rt);
	/* The coarse clock is the fine one at the last tick. */
	agree_in_order(v, p, &a, coarse, fine);
	agree_report(v, &a, &w, "a coarse read <= the fine clock read after it", "ns");
}

static void timezone_point(struct verify *v)
{
	struct timezone sys_tz, vdso_tz;
	struct timeval tv;
	struct vres r;

	memset(&vdso_tz, 0xa5, sizeof(vdso_tz));
	r = vcall_gettimeofday(v, PATH_SYSCALL, &tv, &sys_tz);
	if (r.failed) {
		vfail(v, "the syscall failed with %s", errno_name(r.err));
		return;
	}
	r = vcall_gettimeofday(v, PATH_VDSO, &tv, &vdso_tz);
	if (r.failed) {
		vfail(v, "the vDSO returned -%s", errno_name(r.err));
		return;
	}
	if (sys_tz.tz_minuteswest != vdso_tz.tz_minuteswest ||
	    sys_tz.tz_dsttime != vdso_tz.tz_dsttime) {
		vfail(v, "vdso timezone minuteswest=%d dsttime=%d, syscall "
		      "minuteswest=%d dsttime=%d", vdso_tz.tz_minuteswest,
		      vdso_tz.tz_dsttime, sys_tz.tz_minuteswest, sys_tz.tz_dsttime);
		return;
	}
	vpass(v, "minuteswest=%d dsttime=%d, as the syscall reports",
	      sys_tz.tz_minuteswest, sys_tz.tz_dsttime);
}

/* A cell a consistency point reads besides the one vpoint_path checked:
 * skips the point with its reason when it is not OK. */
static bool consistency_ready(struct verify *v, enum api api,
			      const struct clock_info *ci, enum path p)
{
	const char *why = verify_unreadable(v, api, ci, p);

	if (why) {
		vskip(v, "%s", why);
		return false;
	}
	return true;
}

void verify_consistency(struct verify *v)
{
	const struct clock_info *tai = catalog_clock_by_name("tai");
	const struct clock_info *mono = catalog_clock_by_name("monotonic");
	const struct clock_info *boot = catalog_clock_by_name("boottime");
	const struct clock_info *rtc = catalog_clock_by_name("realtime-coarse");
	const struct clock_info *mc = catalog_clock_by_name("monotonic-coarse");

	for (int p = 0; p < PATH_COUNT; p++) {
		if (vpoint_path(v, VT_NONE, API_GETTIMEOFDAY, NULL, p,
				"consistency/gettimeofday-vs-realtime"))
			gettimeofday_vs_realtime(v, p);
		if (vpoint_path(v, VT_NONE, API_TIME, NULL, p, "consistency/time-vs-realtime"))
			time_vs_realtime(v, p);
		if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, tai, p, "consistency/tai-offset"))
			tai_offset(v, p);
		if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, mono, p,
				"consistency/boottime-ge-monotonic") &&
		    consistency_ready(v, API_CLOCK_GETTIME, boot, p))
			boottime_ge_monotonic(v, p);
		if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, rtc, p,
				"consistency/realtime-coarse-le-realtime"))
			coarse_le_fine(v, p, CLOCK_REALTIME_COARSE, CLOCK_REALTIME, true);
		if (vpoint_path(v, VT_NONE, API_CLOCK_GETTIME, mc, p,
				"consistency/monotonic-coarse-le-monotonic"))
			coarse_le_fine(v, p, CLOCK_MONOTONIC_COARSE, CLOCK_MONOTONIC, false);
	}
	if (vpoint_path(v, VT_NONE, API_GETTIMEOFDAY, NULL, PATH_VDSO,
			"consistency/gettimeofday-timezone") &&
	    consistency_ready(v, API_GETTIMEOFDAY, NULL, PATH_SYSCALL))
		timezone_point(v);
}
