// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timekeeping checks of the kernel's timers selftests:
 *
 *  clocksource-switch  reads handed round every CPU stay monotonic while
 *                      the clocksource is switched under them (tsc ->
 *                      kvm-clock -> tsc here), over and over;
 *  freq-step           MONOTONIC stays monotonic and runs at the rate asked
 *                      for while the adjtimex frequency is stepped;
 *  raw-skew            MONOTONIC runs against MONOTONIC_RAW at the rate
 *                      adjtimex reports.
 *
 * The first two change machine state: they run in a child supervised by
 * probe/guard, which puts the clocksource and the adjtimex state back
 * whatever happens (also on SIGKILL of either process), and their line
 * says what was changed and what was restored.
 */
#include "verify/verify.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probe/guard.h"

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"
#define CURRENT_CLOCKSOURCE CLOCKSOURCE_DIR "/current_clocksource"
#define AVAILABLE_CLOCKSOURCE CLOCKSOURCE_DIR "/available_clocksource"

#define MAX_CLOCKSOURCES 8
#define CS_NAME_MAX 32

/* A reader of one clock through one path, for the engines. */
struct tk_reader {
	const struct verify *v;
	enum path path;
	clockid_t id;
};

static int tk_read(void *arg, struct timespec *ts)
{
	const struct tk_reader *r = arg;
	struct vres res = vcall_gettime(r->v, r->path, r->id, ts);

	return res.failed ? (res.err ? res.err : EIO) : 0;
}

/* Shared with the guarded child: what it measured. */
static void *shared_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The guarded child's end: why it ended early, if it did. A killed child
 * is an error of the point, named with what the guard restored.
 */
static bool guard_outcome_ok(struct verify *v, const struct guard *g, int status,
			     const char *err)
{
	char restored[600];

	guard_describe(g, restored, sizeof(restored));
	if (status < 0) {
		verror(v, "%s; restored %s", err, restored);
		return false;
	}
	if (status > 128) {
		verror(v, "the measuring process was killed by signal %d (%s); restored %s",
		       status - 128, strsignal(status - 128), restored);
		return false;
	}
	if (status > 0) {
		verror(v, "the measuring process failed (exit status %d); restored %s",
		       status, restored);
		return false;
	}
	return true;
}

/* A stop signal (Ctrl-C) the supervisor forwarded: now that the state is
 * back, let it do what it would have done. */
static void honour_stop_signal(const struct guard *g)
{
	if (!g->stop_signal)
		return;
	fflush(NULL);
	signal(g->stop_signal, SIG_DFL);
	raise(g->stop_signal);
}

/* ---- clocksource-switch ---------------------------------------------------- */

struct clocksources {
	char name[MAX_CLOCKSOURCES][CS_NAME_MAX];
	size_t n;
	char current[CS_NAME_MAX];
};

/* The available clocksources and the current one; false with why. */
static bool read_clocksources(struct clocksources *cs, char *why, size_t len)
{
	char line[512], *save = NULL;

	memset(cs, 0, sizeof(*cs));
	if (!read_line_file(AVAILABLE_CLOCKSOURCE, line, sizeof(line)) ||
	    !read_line_file(CURRENT_CLOCKSOURCE, cs->current, sizeof(cs->current))) {
		snprintf(why, len, "cannot read %s: %s", CLOCKSOURCE_DIR, strerror(errno));
		return false;
	}
	for (char *t = strtok_r(line, " ", &save); t && cs->n < MAX_CLOCKSOURCES;
	     t = strtok_r(NULL, " ", &save))
		snprintf(cs->name[cs->n++], CS_NAME_MAX, "%s", t);
	return true;
}

struct switch_result {
	struct xcpu_result x;
	int xcpu_rc;
	unsigned long switches;		/* writes that took */
	unsigned long cycles;		/* there and back again */
	int write_error;		/* errno of a write that failed */
	char refused[CS_NAME_MAX];	/* a clocksource the kernel did not take */
	char kept[CS_NAME_MAX];		/* what it kept instead */
	double seconds;
};

struct switch_job {
	const struct verify *v;
	struct tk_reader reader;
	const int *cpus;
	size_t ncpus;
	double seconds;
	const struct clocksources *cs;
	struct switch_result *res;	/* shared memory */
	atomic_bool stop;
};

/* Write a clocksource and check that the kernel took it; 0 or errno. */
static int set_clocksource(const char *name, struct switch_result *res)
{
	char now[CS_NAME_MAX];
	FILE *f = fopen(CURRENT_CLOCKSOURCE, "we");

	if (!f)
		return errno;
	if (fputs(name, f) < 0 || fclose(f) != 0)
		return errno ? errno : EIO;
	if (!read_line_file(CURRENT_CLOCKSOURCE, now, sizeof(now)))
		return errno ? errno : EIO;
	if (!streq(now, name)) {
		snprintf(res->refused, sizeof(res->refused), "%s", name);
		snprintf(res->kept, sizeof(res->kept), "%s", now);
		return EAGAIN;
	}
	return 0;
}

/*
 * Between switches the readers get a while on each clocksource, so that
 * they cross both the switches and the steady state after them (and the
 * machine's other users are not stopped 10,000 times a second).
 */
#define SWITCH_DWELL_NS 1000000L

/* One cycle goes through every other clocksource and back to the first. */
static void *switcher_main(void *arg)
{
	struct switch_job *j = arg;
	const struct clocksources *cs = j->cs;
	const struct timespec dwell = { 0, SWITCH_DWELL_NS };

	while (!atomic_load(&j->stop) && !j->res->write_error) {
		for (size_t i = 0; i <= cs->n && !j->res->write_error; i++) {
			const char *next = i < cs->n ? cs->name[i] : cs->current;

			if (i < cs->n && streq(next, cs->current))
				continue;
			j->res->write_error = set_clocksource(next, j->res);
			if (!j->res->write_error)
				j->res->switches++;
			nanosleep(&dwell, NULL);
		}
		if (!j->res->write_error)
			j->res->cycles++;
	}
	return NULL;
}

/* In the guarded child: readers on every CPU, the switcher beside them. */
static int switch_child(void *arg)
{
	struct switch_job *j = arg;
	struct xcpu_config cfg = {
		.cpus = j->cpus, .ncpus = j->ncpus, .pin = true, .read = tk_read,
		.arg = &j->reader, .seconds = j->seconds,
	};
	uint64_t start = now_ns();
	pthread_t tid;

	atomic_init(&j->stop, false);
	if (pthread_create(&tid, NULL, switcher_main, j) != 0)
		return 3;
	j->res->xcpu_rc = xcpu_run(&cfg, &j->res->x);
	atomic_store(&j->stop, true);
	pthread_join(tid, NULL);
	j->res->seconds = (double)(now_ns() - start) / 1e9;
	return 0;
}

/* "tsc -> kvm-clock -> tsc": one cycle of the switcher. */
static void cycle_text(const struct clocksources *cs, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", cs->current);

	for (size_t i = 0; i < cs->n && used < len; i++)
		if (!streq(cs->name[i], cs->current))
			used += (size_t)snprintf(buf + used, len - used, " -> %s",
						 cs->name[i]);
	if (used < len)
		snprintf(buf + used, len - used, " -> %s", cs->current);
}

static void judge_switch(struct verify *v, const struct switch_job *j,
			 const struct guard *g)
{
	const struct switch_result *res = j->res;
	char restored[600], cycle[200], a[32], b[32];

	guard_describe(g, restored, sizeof(restored));
	cycle_text(j->cs, cycle, sizeof(cycle));
	if (res->write_error == EAGAIN) {
		verror(v, "the kernel kept %s when asked for %s; restored %s", res->kept,
		       res->refused, restored);
		return;
	}
	if (res->write_error || res->xcpu_rc || res->x.pin_error || res->x.read_error) {
		verror(v, "%s; restored %s", res->write_error ? strerror(res->write_error) :
		       res->x.read_error ? "a read failed" : "cannot run a reader per CPU",
		       restored);
		return;
	}
	if (!res->x.backward) {
		vpass(v, "%lu reads handed round %zu CPUs over %.3f s, largest backward step "
		      "0 ns, while current_clocksource went %s %lu times (%lu switches); "
		      "restored %s", res->x.exchanges, j->ncpus, res->seconds, cycle,
		      res->cycles, res->switches, restored);
		return;
	}
	ts_format(&res->x.back_prev, a, sizeof(a));
	ts_format(&res->x.back_cur, b, sizeof(b));
	vdiag(v, "CPU %d read %s, then CPU %d read %s", res->x.back_from_cpu, a,
	      res->x.back_to_cpu, b);
	vfail(v, "largest backward step %lld ns, from CPU %d's read to CPU %d's at "
	      "exchange %lu (%lu of %lu reads went backwards), while current_clocksource "
	      "went %s %lu times (%lu switches); restored %s",
	      (long long)res->x.max_back_ns, res->x.back_from_cpu, res->x.back_to_cpu,
	      res->x.back_at, res->x.backward, res->x.exchanges, cycle, res->cycles,
	      res->switches, restored);
}

/* Why the clocksource cannot be switched here, or NULL. */
static const char *switch_unavailable(const struct clocksources *cs, char *why,
				      size_t len)
{
	if (access(CURRENT_CLOCKSOURCE, W_OK) != 0) {
		snprintf(why, len, "switching the clocksource needs root (%s: %s)",
			 CURRENT_CLOCKSOURCE, errno_name(errno));
		return why;
	}
	if (cs->n < 2) {
		snprintf(why, len, "only one clocksource (%s) is available",
			 cs->current);
		return why;
	}
	return NULL;
}

static void switch_point(struct verify *v, const struct clock_info *ci, enum path p)
{
	struct switch_job j = { .v = v, .reader = { v, p, ci->id }, .seconds = vbudget(v) };
	int cpus[CPU_SETSIZE];
	char list[256], why[300], err[160];
	struct clocksources cs;
	struct guard g;
	int status;

	if (!read_clocksources(&cs, why, sizeof(why)) ||
	    switch_unavailable(&cs, why, sizeof(why))) {
		vskip(v, "%s", why);
		return;
	}
	guard_init(&g);
	j.cs = &cs;
	j.cpus = cpus;
	j.ncpus = verify_cpu_list(v, cpus, ARRAY_SIZE(cpus), list, sizeof(list));
	j.res = shared_alloc(sizeof(*j.res));
	if (!j.res || guard_add_file(&g, CURRENT_CLOCKSOURCE, "current_clocksource",
				     err, sizeof(err))) {
		verror(v, "%s", j.res ? err : strerror(errno));
		if (j.res)
			munmap(j.res, sizeof(*j.res));
		return;
	}
	status = guard_run(&g, switch_child, &j, err, sizeof(err));
	if (guard_outcome_ok(v, &g, status, err))
		judge_switch(v, &j, &g);
	munmap(j.res, sizeof(*j.res));
	honour_stop_signal(&g);
}

/* The clocks whose reads are watched across the switches. */
static const char *const switch_clocks[] = { "monotonic", "monotonic-raw", "boottime" };

void verify_clocksource_switch(struct verify *v)
{
	for (size_t i = 0; i < ARRAY_SIZE(switch_clocks); i++) {
		const struct clock_info *ci = catalog_clock_by_name(switch_clocks[i]);

		for (int p = 0; p < PATH_COUNT; p++) {
			const struct cell *c = verify_cell(v, API_CLOCK_GETTIME, ci, p);

			if (!verify_path_by_design(API_CLOCK_GETTIME, p) ||
			    !vpoint(v, VT_CLOCKSOURCE, "clocksource-switch/%s-%s/%s",
				    catalog_apis[API_CLOCK_GETTIME].label, ci->name,
				    catalog_paths[p]))
				continue;
			if (c && c->status != CELL_OK)
				vskip(v, "%s", c->why);
			else
				switch_point(v, ci, (enum path)p);
		}
	}
}
