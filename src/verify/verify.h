/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify/: the engine and the checks of clockbench verify (its layer:
 * src/meson.build).
 *
 * clockbench verify: correctness and ABI checks of every time API, clock
 * id and path, reported with kselftest's TAP conventions.
 *
 * A check group (bracket, monotonic, abi, ...) is a function that walks its
 * points. Each point starts with vpoint(), which names it and decides
 * whether it runs: the same walk counts the points (for the TAP plan),
 * lists them (--list) and runs them, so names never drift between the
 * three. A point ends with exactly one of vpass(), vfail(), vskip() or
 * verror(); vdiag() adds the lines that explain a failure.
 *
 * Every call goes through the vcall_*() wrappers, which also apply the
 * test-only fault injection (CLOCKBENCH_FAULT).
 */
#ifndef CLOCKBENCH_VERIFY_H
#define CLOCKBENCH_VERIFY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <jansson.h>

#include "basic/strbuf.h"
#include "probe/catalog.h"
#include "basic/util.h"

/* ---- options and entry points ---------------------------------------- */

enum verify_format {
	VERIFY_TAP,
	VERIFY_JSON,
};

struct verify_options {
	char **patterns;	/* --check globs; NULL or empty: everything */
	size_t npatterns;
	double duration_s;	/* shared by the time-based checks */
	enum verify_format format;
	bool list;
	bool long_run;		/* --long: watch as long as the selftests do */
	bool destructive;	/* --destructive: run the checks that change
				 * machine-wide state (kselftest's
				 * run_destructive_tests) */
};

/* The default of --duration: keeps a whole run within about 25 s. */
#define VERIFY_DEFAULT_DURATION 20.0
/* --long: how long each monotonic, cross-cpu, clocksource-switch and
 * raw-skew check watches its clock (inconsistency-check's 10 s per clock). */
#define VERIFY_LONG_WATCH 10.0
#define VERIFY_MAX_DURATION 3600.0

/* Run (or list) the checks; returns the exit status (0, 1, 2 or 4). */
int verify_main(const struct verify_options *opt);

/*
 * The hidden `verify --timens-probe=IN,OUT`: serve clock readings to the
 * parent over two pipes, from inside a time namespace (after execve).
 */
int verify_timens_probe(int in_fd, int out_fd);

/* ---- fault injection (tests only) ------------------------------------ */

enum fault_kind {
	FAULT_NONE,
	FAULT_CLOCK_BACK,	/* the path's time readings lag by shift_ns */
	FAULT_ERRNO,		/* the path's errors carry EPERM instead */
	FAULT_CPU_WRONG,	/* the path's getcpu reports the next CPU */
};

struct verify_fault {
	enum fault_kind kind;
	enum path path;
	int64_t shift_ns;
	unsigned long every;	/* only every Nth read (or getcpu); 0 all */
	int cpu;		/* only reads on this CPU; -1 any */
};

/* The environment variable that carries a fault ("vdso-clock-back-1ms"). */
#define VERIFY_FAULT_ENV "CLOCKBENCH_FAULT"

/*
 * Parse "PATH-errno", "PATH-clock-back-DURATION[-every-N][-cpu-K]" or
 * "PATH-getcpu-wrong[-every-N]" (PATH: vdso, libc, syscall): every read of
 * the path lags by DURATION, or only every Nth read of it (a step back and
 * forth, as a faulty interposer makes), or only the reads made on CPU K (a
 * clock that is behind on one CPU); or the path's getcpu reports the next
 * CPU (every Nth call). NULL or "" means no fault. Returns 0, or -1 with
 * the reason.
 */
int verify_parse_fault(const char *spec, struct verify_fault *f, struct strbuf *err);

/* Whether the call about to be made through p is one a fault of this kind
 * alters. */
bool verify_fault_hits(const struct verify_fault *f, enum fault_kind kind, enum path p);

/* ---- the run context --------------------------------------------------- */

enum vmode {
	VMODE_COUNT,	/* count the selected points */
	VMODE_LIST,	/* print their names */
	VMODE_RUN,
};

/* The time-based groups share --duration in these proportions. */
enum vtimed {
	VT_NONE,
	VT_BRACKET,
	VT_MONOTONIC,
	VT_CROSS_CPU,
	VT_GRANULARITY,
	VT_CLOCKSOURCE,
	VT_RATE,
	VT_FREQ,
	VT_MIGRATE,
	VT_COUNT,
};

struct verify_totals {
	unsigned pass, fail, xfail, skip, error;
};

struct verify {
	enum vmode mode;
	const struct verify_options *opt;
	struct catalog cat;
	struct verify_fault fault;
	void *vdso_fn[API_COUNT];		/* from the catalog's vdso cells */
	char vdso_why[API_COUNT][192];		/* why a vdso path is missing */
	char libc_interposer[API_COUNT][160];	/* who answers libc's name, or "" */
	bool libc_own;		/* the libc path skips interposers (a copy's) */
	cpu_set_t cpus;		/* the affinity mask at the start, for every walk */
	int cpus_error;		/* errno of sched_getaffinity, 0 */

	/* selection and budgets */
	bool *pattern_used;
	unsigned counted[VT_COUNT];		/* selected points per group */
	double budget_s[VT_COUNT];		/* per point */
	enum vtimed cur_timed;
	bool group_destructive;			/* the group being walked */
	unsigned held_back;	/* destructive points skipped: no --destructive */
	/* The watches the clock watchers' points reported (vwatched): how
	 * long the reads that test the group's property ran, per group. */
	double watched_min_s[VT_COUNT], watched_max_s[VT_COUNT];
	double watched_total_s[VT_COUNT];
	unsigned watched_n[VT_COUNT];

	/* output */
	FILE *out;
	json_t *results;			/* JSON format */
	unsigned n;				/* points reported */
	struct verify_totals tot;
	char name[160];				/* the open point */
	bool open;
	char *diag;				/* lines of the open point */
	size_t diag_len, diag_cap;
	uint64_t point_start_ns;
	double point_watch_s;			/* the open point's vwatched() */
	bool point_watched;
};

/*
 * Start a point named by fmt. Returns true when it should run now; false
 * when it is not selected, or the run is only counting or listing.
 */
bool vpoint(struct verify *v, enum vtimed timed, const char *fmt, ...) _printf_(3, 4);
/*
 * The same for a point that reads api's clock (NULL for an API without
 * clocks) through path p: named by fmt, then "/" and the path. Only a
 * path that exists by design for api has the point. One whose catalog
 * cell is not OK here is skipped with the cell's reason, so false.
 */
bool vpoint_path(struct verify *v, enum vtimed timed, enum api api,
		 const struct clock_info *clock, enum path p, const char *fmt, ...)
	_printf_(6, 7);
/* Results: the message says what was expected and what was seen. */
void vpass(struct verify *v, const char *fmt, ...) _printf_(2, 3);
void vfail(struct verify *v, const char *fmt, ...) _printf_(2, 3);
void vskip(struct verify *v, const char *fmt, ...) _printf_(2, 3);
void verror(struct verify *v, const char *fmt, ...) _printf_(2, 3);
/* An expected failure: the message says what was seen and why it is
 * expected (what verify read, not a cause it did not test). */
void vxfail(struct verify *v, const char *fmt, ...) _printf_(2, 3);
/* A diagnostic line of the open point, printed before its result. */
void vdiag(struct verify *v, const char *fmt, ...) _printf_(2, 3);
/* Seconds the open time-based point may take. */
double vbudget(const struct verify *v);
/*
 * How long the open point's reads that test its group's property ran (a
 * monotonic point's reads, not the re-check of libc's own function after
 * a failure): what the watch lines and JSON's watched report. Calls add
 * up, for a point that watches in several loops.
 */
void vwatched(struct verify *v, double seconds);

/*
 * Set up the calls of a context (catalog, vDSO entry points, the fault
 * from CLOCKBENCH_FAULT) without running anything: what verify_main() and
 * the re-executed namespace probe share. Returns 0, or -1 with a reason
 * (a malformed fault).
 */
int verify_context_init(struct verify *v, const struct verify_options *opt,
			struct strbuf *err);
void verify_context_free(struct verify *v);

/*
 * The CPUs of the affinity mask the run started with (gaps and all), as
 * numbers and as a list ("0,2,5"). The walks use this snapshot, not the
 * mask of the moment, so that counting, listing and running agree even if
 * a CPU goes offline meanwhile.
 */
size_t verify_cpu_list(const struct verify *v, int *cpus, size_t cap, char *list,
		       size_t len);
/* Whether pinning to cpu, a CPU of the snapshot, failed with err because
 * the CPU was offline at that moment (taken down since the run started). */
bool verify_cpu_went_offline(int cpu, int err);

/* Whether a path exists for api on this architecture at all (times has
 * no vDSO entry anywhere; arm64 has no vDSO time or getcpu). */
bool verify_path_by_design(enum api api, enum path path);
/* Why the path cannot be used here (no vDSO, symbol missing), or NULL. */
const char *verify_path_missing(const struct verify *v, enum api api, enum path path);
/* The file that interposes the libc function of api ("" when none). */
const char *verify_libc_interposer(const struct verify *v, enum api api);
/* The catalog cell of api/clock/path (clock NULL for clockless APIs). */
const struct cell *verify_cell(const struct verify *v, enum api api,
			       const struct clock_info *clock, enum path path);
/* Why that cell cannot be read here (the catalog's reason), or NULL. */
const char *verify_unreadable(const struct verify *v, enum api api,
			      const struct clock_info *clock, enum path path);

/*
 * verify's own clock (deadlines, how long a point took): the vDSO or the
 * raw syscall, never the C library's clock_gettime, which an interposer
 * can stop. verify_own_gettime returns 0 or the errno.
 */
int verify_own_gettime(clockid_t id, struct timespec *ts);
uint64_t verify_now_ns(void);

/* ---- calls through one path ------------------------------------------- */

/*
 * The outcome of one call in its path's convention: the vDSO returns
 * -errno, libc and the raw syscall return -1 and set errno. failed and err
 * normalise that (err is the errno either way).
 */
struct vres {
	long ret;
	bool failed;
	int err;
};

struct vres vcall_gettime(const struct verify *v, enum path p, clockid_t id,
			  struct timespec *ts);
struct vres vcall_getres(const struct verify *v, enum path p, clockid_t id,
			 struct timespec *ts);
struct vres vcall_gettimeofday(const struct verify *v, enum path p,
			       struct timeval *tv, void *tz);
/* ret holds the time; t may be NULL. */
struct vres vcall_time(const struct verify *v, enum path p, time_t *t);
struct vres vcall_getcpu(const struct verify *v, enum path p, unsigned *cpu,
			 unsigned *node, void *cache);
/* state: the vDSO path's opaque state (NULL for libc and syscall). */
struct vres vcall_getrandom(const struct verify *v, enum path p, void *buf,
			    size_t len, unsigned flags, void *state,
			    size_t state_len);

/* "0", "-EINVAL", "-1 (errno EFAULT)": an outcome as the path returned it. */
void vres_format(enum path p, const struct vres *r, char *buf, size_t len);

/* ---- pure logic, unit-tested -------------------------------------------- */

static inline int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/* "1234.000000567" */
void ts_format(const struct timespec *ts, char *buf, size_t len);
/* 0 <= tv_nsec < 1e9 and tv_sec >= 0, as vdsotest's verify checks. */
bool ts_normalized(const struct timespec *ts);
int ts_cmp(const struct timespec *a, const struct timespec *b);

/* Whether a --check pattern selects a name: a glob over the whole name,
 * or a leading part of it ("abi" and "abi/clock-gettime*" select
 * "abi/clock-gettime-monotonic/ts-null/vdso"). */
bool verify_pattern_matches(const char *pattern, const char *name);

/* kselftest's exit status: 0 all passed, 1 any failure or error, 4 all
 * skipped (or nothing ran). */
int verify_exit_status(const struct verify_totals *t);

/* A reader of one clock through one path, for the engines below. */
typedef int (*vread_fn)(void *arg, struct timespec *ts);

enum bracket_verdict {
	BRACKET_OK,
	BRACKET_DENORMAL,	/* a read is not a valid timespec */
	BRACKET_EARLY,		/* the read is before the first reference */
	BRACKET_LATE,		/* the read is after the second reference */
};

enum bracket_verdict bracket_judge(const struct timespec *before,
				   const struct timespec *mid,
				   const struct timespec *after);

struct bracket_stats {
	unsigned long reads;
	unsigned long broken;		/* reads outside their bracket */
	int64_t worst_ns;		/* furthest outside, in ns */
	enum bracket_verdict first_verdict;
	struct timespec first[3];	/* before, read, after of the first */
	int read_error;			/* errno of a failed read, 0 if none */
};

/*
 * Read ref, test, ref over and over for seconds (at least min_reads
 * times) and judge every test read against the two reference reads
 * around it.
 */
void bracket_run(vread_fn ref, void *ref_arg, vread_fn test, void *test_arg,
		 double seconds, unsigned long min_reads, struct bracket_stats *st);

struct mono_stats {
	unsigned long reads;
	unsigned long backward;		/* reads earlier than the one before */
	unsigned long denormal;
	int64_t max_back_ns;
	struct timespec back_prev, back_cur;	/* the largest step */
	unsigned long back_at;		/* its later read, counted from 1 */
	int read_error;
	double seconds;			/* from before the first read to after
					 * the last: how long the clock was watched */
};

/* Note one consecutive pair (prev then cur) in st; cur is read st->reads. */
void mono_note(struct mono_stats *st, const struct timespec *prev,
	       const struct timespec *cur);
void mono_run(vread_fn rd, void *arg, double seconds, unsigned long min_reads,
	      struct mono_stats *st);

struct gran_stats {
	unsigned long reads;
	unsigned long steps;		/* reads that differ from the previous */
	int64_t min_step_ns;		/* smallest non-zero step */
	int read_error;
};

/* Read until min_steps steps were seen and min_s passed, or max_s passed. */
void gran_run(vread_fn rd, void *arg, double min_s, double max_s,
	      unsigned long min_steps, struct gran_stats *st);

/*
 * Whether the finest step seen is the cost of a read: most reads saw the
 * clock move, so the clock moves at least as often as it can be read and
 * the step bounds its own step only from above. Otherwise most reads saw
 * the same time as the one before, and the step is the clock's own. Counts
 * of reads, not times: a preempted loop cannot tip it.
 */
bool gran_step_is_read_cost(const struct gran_stats *st);

/*
 * The step of a clock that moves on every read (its finest step seen is a
 * read's cost): pairs of reads spaced by spins of varying length, so that
 * the time between them spreads over tens of ns. A clock that steps by q
 * ns gives differences within LATTICE_TOLERANCE_NS of multiples of q
 * whatever the spacing; a finer clock's spread over every ns.
 */
#define LATTICE_HIST_NS 4096
#define LATTICE_TOLERANCE_NS 1.5
/* Within 1.5 ns of a multiple of 5 ns are 3 ns in 5: a clock that moves
 * by the ns spreads 60 % of its differences there, far from 99 %. */
#define LATTICE_MIN_NS 5.0

struct lattice {
	unsigned long deltas;	/* differences counted (0 < d < LATTICE_HIST_NS) */
	bool found;
	double step_ns;		/* the spacing, when found */
	double share;		/* of the differences near a multiple of it */
	unsigned multiples;	/* multiples holding at least 0.5 % of them */
};

/* The widest lattice, of LATTICE_MIN_NS to 100 ns, that 99 % of the
 * differences (hist[d]: how many were d ns) lie near, with at least four
 * multiples populated. */
void lattice_fit_histogram(const unsigned long *hist, size_t len, struct lattice *out);
/* pairs pairs of reads; returns 0 or the errno of a failed read. */
int lattice_run(vread_fn rd, void *arg, unsigned long pairs, struct lattice *out);

/*
 * Whether an observed smallest step agrees with the reported resolution:
 * a coarse clock steps by whole ticks (multiples of the resolution within
 * 10 %, at most 4 ticks); any other clock steps by at least its resolution
 * and far less than a tick (at most max(res, 100 us)). The reason goes to
 * why.
 */
bool granularity_agrees(int64_t res_ns, int64_t step_ns, enum clock_kind kind,
			struct strbuf *why);
/*
 * The same for an API that gives the time in a unit coarser than the
 * clock's (gettimeofday's microsecond): the step must be at least the
 * unit, named unit ("gettimeofday's unit"), and far less than a tick.
 * Such a step is the unit's, which says nothing of the clock's own.
 */
bool unit_step_agrees(int64_t unit_ns, int64_t step_ns, const char *unit,
		      struct strbuf *why);

/*
 * REALTIME minus MONOTONIC, read as MONOTONIC, REALTIME, MONOTONIC: only a
 * step (settimeofday, clock_settime, ADJ_SETOFFSET, a leap second) changes
 * it, since NTP slews both clocks alike. unc_ns is half the time the three
 * reads took.
 */
struct rt_offset {
	int64_t off_ns;
	int64_t unc_ns;
};
void rt_offset_from(int64_t mono1_ns, int64_t real_ns, int64_t mono2_ns,
		    struct rt_offset *o);
/* Whether the offset moved by more than both uncertainties plus slack. */
bool rt_offset_stepped(const struct rt_offset *a, const struct rt_offset *b,
		       int64_t slack_ns);

/*
 * Watch for a REALTIME step: a timerfd with TFD_TIMER_CANCEL_ON_SET (the
 * kernel cancels it whenever the clock is set) plus the offset above.
 */
struct step_watch {
	bool watching;		/* false: begun for a clock a step cannot move */
	int tfd;
	struct rt_offset start;
};
void step_watch_begin(struct step_watch *w);
/* step_watch_begin() only when on (the clock read follows REALTIME), so
 * that a point ends its watch the same way whatever clock it read. */
void step_watch_begin_if(struct step_watch *w, bool on);
/* True when REALTIME was stepped since begin; says how in why. Closes.
 * False, touching nothing, for a watch begun with on false. */
bool step_watch_end(struct step_watch *w, struct strbuf *why);

/* Cross-CPU monotonicity: threads pass a token, each read ordered after
 * the previous holder's. */
struct xcpu_config {
	const int *cpus;	/* one thread per entry, pinned when pin */
	size_t ncpus;
	bool pin;
	vread_fn read;
	void *arg;
	double seconds;
	unsigned long max_exchanges;	/* 0: no limit */
};

struct xcpu_result {
	unsigned long exchanges;
	unsigned long backward;
	int64_t max_back_ns;
	struct timespec back_prev, back_cur;
	int back_from_cpu, back_to_cpu;	/* the earlier reader, the later one */
	unsigned long back_at;		/* the exchange of the later read, from 1 */
	int read_error;
	int pin_error;			/* errno of sched_setaffinity */
	int pin_cpu;
	double seconds;			/* from before the first read to after the
					 * last (0 when none was made) */
};

int xcpu_run(const struct xcpu_config *cfg, struct xcpu_result *res);

/*
 * The rate of a clock against a reference (MONOTONIC against
 * MONOTONIC_RAW): samples of the clock's offset from the reference, each
 * the least-delay of a few reference, clock, reference reads, and the
 * least-squares line through them.
 */
struct rate_sample {
	double t_s;		/* the reference's time, from the first sample */
	double offset_ns;	/* clock - reference, from the first sample */
};

struct rate_fit {
	size_t n;
	double ppm;		/* slope: how much faster the clock runs, ppm */
	double sd_ns;		/* residuals' standard deviation */
	double max_ns;		/* the largest residual */
	double span_s;		/* from the first sample to the last */
};

/* The line through n >= 2 samples (n < 2 gives a zero fit). */
void rate_fit_samples(const struct rate_sample *s, size_t n, struct rate_fit *fit);

/* Sample for seconds (about every seconds/RATE_SAMPLES, sleeping between)
 * and fit. Returns 0, or the errno of a failed read. */
#define RATE_SAMPLES 200
int rate_measure(vread_fn ref, void *ref_arg, vread_fn clk, void *clk_arg,
		 double seconds, struct rate_fit *fit);

/*
 * Threads that ran side by side: each one's span, from before its first
 * call to after its last (verify's own clock), and how they overlapped:
 * how many spans overlap another's, and the most spans open at one
 * instant. Open is not running: a thread preempted mid-span still counts.
 */
struct thread_span {
	uint64_t start_ns, end_ns;
};

struct span_overlap {
	unsigned overlapping;		/* spans that overlap at least one other */
	unsigned most_at_once;		/* the most open at one instant */
};

void span_overlap(const struct thread_span *s, size_t n, struct span_overlap *o);

/* ABI cases: what a path must do with a bad argument. */
enum abi_expect {
	ABI_EXPECT_OK,		/* the call succeeds */
	ABI_EXPECT_EINVAL,	/* rejected id or flags (or the catalog's errno) */
	ABI_EXPECT_EFAULT,	/* bad pointer */
};

enum abi_outcome_kind {
	ABI_RETURNED,
	ABI_SIGNALED,
	ABI_LOST,		/* exited without reporting */
};

struct abi_outcome {
	enum abi_outcome_kind kind;
	struct vres res;
	int sig;
	int status;
	/* What clock_gettime or clock_getres wrote through a valid pointer
	 * when it succeeded (the resolution it claimed). */
	bool wrote_ts;
	struct timespec ts;
};

/* The kinds of pointer argument the ABI checks pass. */
enum abi_ptr {
	ABI_PTR_VALID,
	ABI_PTR_NULL,
	ABI_PTR_UINTPTR_MAX,
	ABI_PTR_PROT_NONE,
	ABI_PTR_READ_ONLY,
	ABI_PTR_STRADDLE,	/* starts in a page, ends in a PROT_NONE one */
	ABI_PTR_KINDS,
};

/* The most pointer arguments an API takes (getcpu: cpu, node, cache). */
#define ABI_MAX_ARGS 3

/* "null", "read-only": the kind as it appears in a check's name. */
extern const char *const abi_ptr_names[ABI_PTR_KINDS];

/* What an API does with one of its pointer arguments. */
enum abi_arg_use {
	ABI_ARG_WRITTEN,	/* written: anything but valid memory is EFAULT */
	ABI_ARG_NULL_OK,	/* written unless NULL, which means "not wanted" */
	ABI_ARG_IGNORED,	/* never touched (getcpu's cache) */
};

enum abi_arg_use abi_arg_use(enum api api, int arg);

/*
 * What a call of api whose pointer arguments are of these kinds must do:
 * EFAULT when any argument it writes through is not writable memory,
 * success otherwise. note gets why, per argument that is not valid
 * (" (tv is NULL: not wanted; tz is a read-only page and must be written)").
 */
enum abi_expect abi_pointers_expect(enum api api, const enum abi_ptr *ptr, int nargs,
				    const char *const *arg_names, char *note,
				    size_t len);

/* A combination's name: the arguments that are not valid, joined by '+'
 * ("tv-null+tz-read-only"), or "all-valid". */
void abi_pointers_name(const enum abi_ptr *ptr, int nargs,
		       const char *const *arg_names, char *buf, size_t len);

/* Whether the outcome is what path must do; expect_err is the errno for
 * ABI_EXPECT_EINVAL (EINVAL, or the errno the kernel gives this clock). */
bool abi_outcome_ok(enum path p, enum abi_expect expect, int expect_err,
		    const struct abi_outcome *o);
void abi_expect_format(enum path p, enum abi_expect expect, int expect_err,
		       char *buf, size_t len);
void abi_outcome_format(enum path p, const struct abi_outcome *o, char *buf,
			size_t len);

/* ---- background ----------------------------------------------------------- */

/*
 * A kernel change behind behaviour verify observes, from the table the
 * project keeps (verify/background.c): read, never tested by verify.
 */
struct verify_background {
	const char *topic;	/* the key a check looks it up by */
	const char *commit;	/* the kernel commit, abbreviated */
	const char *subject;	/* its subject line */
	const char *release;	/* the first release with it */
	const char *what;	/* what it does, as the project read it */
};

/* The entry of topic, or NULL. */
const struct verify_background *verify_background(const char *topic);
/* Append "background, not tested by verify: since kernel commit ..." to
 * out (nothing when topic has no entry). */
void verify_background_text(const char *topic, struct strbuf *out);

/* ---- the check groups --------------------------------------------------- */

void verify_bracket(struct verify *v);
void verify_monotonic(struct verify *v);
void verify_cross_cpu(struct verify *v);
void verify_resolution(struct verify *v);
void verify_consistency(struct verify *v);
void verify_getcpu(struct verify *v);
void verify_abi(struct verify *v);
void verify_timens(struct verify *v);
void verify_getrandom(struct verify *v);
void verify_time64(struct verify *v);
void verify_clocksource_switch(struct verify *v);
void verify_raw_skew(struct verify *v);
void verify_freq_step(struct verify *v);
void verify_sleep(struct verify *v);

struct verify_group {
	const char *name;
	const char *summary;
	void (*run)(struct verify *v);
	bool needs_root;
	/* Changes machine-wide state (the clocksource, the adjtimex
	 * frequency): its points run only with --destructive. */
	bool destructive;
};

/* Why a destructive point is skipped without --destructive. */
#define VERIFY_DESTRUCTIVE_SKIP "changes machine-wide state: run with --destructive"


extern const struct verify_group verify_groups[];
extern const size_t verify_ngroups;

/* The clock ids in catalog order that a point list walks. */
#define for_each_clock(ci) \
	for (const struct clock_info *ci = catalog_clocks; \
	     ci < catalog_clocks + catalog_nclocks; ci++)

#endif
