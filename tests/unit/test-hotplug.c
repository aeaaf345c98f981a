// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the hotplug module: reading the cpuhp events with
 * libtracefs and libtraceevent, and the per-state accounting, on a tracefs
 * tree captured on this kind of machine (tests/data/cpuhp-tracefs: one
 * `echo 0` and one `echo 1` to cpu1/online with the cpuhp events on in a
 * tracefs instance, trace clock mono; the event formats, each CPU's raw
 * ring-buffer pages as trace_pipe_raw gave them, and the /proc/kallsyms
 * lines of the callbacks), the state names, the per-state table,
 * cpulists, the sysfs checks on a fake CPU directory, the guard's restore
 * steps and the removal of dead runs' instances on a fake tracing tree.
 *
 * The kernel's own text of the same transitions (tests/data/cpuhp-
 * offline.trace and cpuhp-online.trace, read before the raw pages) is what
 * every decoded event must match. The expected times were computed
 * independently with a short Python script from the events as decoded
 * (in ns; regular expressions, enter/exit pairing per task, each
 * interval's self time = its duration minus the intervals of other tasks
 * whose innermost enclosing interval it is), and agree with the same
 * script on the kernel's text to the microsecond, e.g. takedown_cpu
 * 7906.963451 - 7906.961617 = 1.834 ms.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "probe/guard.h"
#include "scenario/hotplug.h"

#define assert_near(actual, expected, tol)                                    \
	do {                                                                  \
		double a_ = (actual), e_ = (expected);                        \
		if (!(fabs(a_ - e_) <= (tol)))                                \
			fail_msg("%s = %.9g, expected %.9g", #actual, a_, e_);\
	} while (0)

static const char *data_path(const char *name, char *path, size_t len)
{
	const char *dir = getenv("CLOCKBENCH_TEST_DATA");

	snprintf(path, len, "%s/%s", dir ? dir : "tests/data", name);
	return path;
}

static char *data_file(const char *name)
{
	char path[PATH_MAX];
	char *text;

	data_path(name, path, sizeof(path));
	text = read_text_file(path, 1 << 20);
	if (!text)
		fail_msg("cannot read %s", path);
	return text;
}

/* ---- reading the captured tree ---------------------------------------- */

#define SKIP_WITHOUT_LIBTRACEFS()                                              \
	do {                                                                   \
		if (!HAVE_LIBTRACEFS)                                          \
			skip();                                                \
	} while (0)

/* The events of one captured transition ("offline", "online") for CPU cpu. */
static ssize_t read_captured(const char *which, unsigned int cpu,
			     struct cpuhp_event **ev, uint64_t *lost)
{
	char dir[PATH_MAX], kallsyms[PATH_MAX];
	struct hotplug_tracing t = { 0 };
	ssize_t n;

	data_path("cpuhp-tracefs", dir, sizeof(dir));
	data_path("cpuhp-tracefs/kallsyms", kallsyms, sizeof(kallsyms));
	if (hotplug_tracing_open(&t, dir, which, kallsyms) != 0)
		fail_msg("cannot open %s/instances/%s: %s", dir, which, t.note);
	n = hotplug_trace_read(&t, cpu, ev);
	*lost = t.lost;
	hotplug_tracing_stop(&t);
	return n;
}

/* The event as the kernel prints it after "comm-pid [cpu] flags ". */
static void format_event(const struct cpuhp_event *e, char *buf, size_t len)
{
	/* trace output rounds the timestamp to the microsecond */
	uint64_t us = (e->ts_ns + 500) / 1000;
	int n = snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 ": ", us / 1000000,
			 us % 1000000);

	if (e->kind == CPUHP_EXIT)
		snprintf(buf + n, len - (size_t)n, "cpuhp_exit:  cpu: %04u  state: %3d "
			 "step: %3d ret: %d", e->cpu, e->target, e->step, e->ret);
	else
		snprintf(buf + n, len - (size_t)n, "%s: cpu: %04u target: %3d step: "
			 "%3d (%s)", e->kind == CPUHP_ENTER ? "cpuhp_enter" :
			 "cpuhp_multi_enter", e->cpu, e->target, e->step, e->fn);
}

/* Every event decoded from the raw pages is the kernel's line, in order. */
static void check_against_text(const char *which)
{
	char name[64], want[256], pid[32];
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	const char *line, *end;
	uint64_t lost = 1;
	ssize_t n = read_captured(which, 1, &ev, &lost);

	snprintf(name, sizeof(name), "cpuhp-%s.trace", which);
	text = data_file(name);
	assert_int_equal(n, 106);
	assert_true(lost == 0);
	line = text;
	for (ssize_t i = 0; i < n; i++) {
		while (*line == '#')
			line = strchr(line, '\n') + 1;
		end = strchr(line, '\n');
		format_event(&ev[i], want, sizeof(want));
		snprintf(pid, sizeof(pid), "-%d ", ev[i].pid);
		/* The line ends with the event, and names its task's pid. */
		if ((size_t)(end - line) < strlen(want) ||
		    strncmp(end - strlen(want), want, strlen(want)) != 0 ||
		    !memmem(line, (size_t)(end - line), pid, strlen(pid)))
			fail_msg("event %zd: %s\nkernel: %.*s", i, want,
				 (int)(end - line), line);
		line = end + 1;
	}
}

static void test_read_offline(void **state)
{
	SKIP_WITHOUT_LIBTRACEFS();
	check_against_text("offline");
}

static void test_read_online(void **state)
{
	SKIP_WITHOUT_LIBTRACEFS();
	check_against_text("online");
}

/* Another CPU's events are not ours; a missing instance is said. */
static void test_read_other_cpu(void **state)
{
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	struct hotplug_tracing t = { 0 };
	char dir[PATH_MAX];
	uint64_t lost;

	SKIP_WITHOUT_LIBTRACEFS();
	assert_int_equal(read_captured("offline", 2, &ev, &lost), 0);
	data_path("cpuhp-tracefs", dir, sizeof(dir));
	assert_int_equal(hotplug_tracing_open(&t, dir, "nonesuch", NULL), -1);
	assert_non_null(strstr(t.note, "no tracing instance"));
	hotplug_tracing_stop(&t);
}

/* A copy of the capture with one file replaced by text (or removed: NULL). */
static void damaged_capture(char *dir, size_t len, const char *file, const char *text)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX], path[2 * PATH_MAX];
	FILE *f;

	data_path("cpuhp-tracefs", src, sizeof(src));
	snprintf(dir, len, "/tmp/clockbench-test-hotplug-%ld", (long)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -r '%s' '%s'", dir, src, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%.4000s/%.200s", dir, file);
	assert_int_equal(unlink(path), 0);
	if (text) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		assert_int_equal(fclose(f), 0);
	}
}

static void remove_capture(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A tracefs whose files are missing or garbage: refused, the file named. */
static void test_damaged_tracefs(void **state)
{
	struct hotplug_tracing t = { 0 };
	char dir[PATH_MAX], kallsyms[4096 + 32];

	(void)state;
	SKIP_WITHOUT_LIBTRACEFS();
	damaged_capture(dir, sizeof(dir), "events/header_page", NULL);
	assert_int_equal(hotplug_tracing_open(&t, dir, "offline", NULL), -1);
	assert_non_null(strstr(t.note, "cannot read "));
	assert_non_null(strstr(t.note, "/events/header_page"));
	hotplug_tracing_stop(&t);
	remove_capture(dir);

	/* An event's format missing: no cpuhp events. */
	memset(&t, 0, sizeof(t));
	damaged_capture(dir, sizeof(dir), "events/cpuhp/cpuhp_exit/format", NULL);
	assert_int_equal(hotplug_tracing_open(&t, dir, "offline", NULL), -1);
	assert_non_null(strstr(t.note, "the kernel has no cpuhp trace events"));
	hotplug_tracing_stop(&t);

	memset(&t, 0, sizeof(t));
	snprintf(kallsyms, sizeof(kallsyms), "%.4000s/no-such-kallsyms", dir);
	damaged_capture(dir, sizeof(dir), "kallsyms", NULL);
	assert_int_equal(hotplug_tracing_open(&t, dir, "offline", kallsyms), -1);
	assert_non_null(strstr(t.note, "cannot read "));
	hotplug_tracing_stop(&t);
	remove_capture(dir);
}

static struct cpuhp_step *find_step(struct cpuhp_step *s, size_t n, int step)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].step == step)
			return &s[i];
	fail_msg("no step %d", step);
	return NULL;
}

static size_t steps_of(const char *which, struct cpuhp_step **steps)
{
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	uint64_t lost;
	ssize_t n = read_captured(which, 1, &ev, &lost);

	assert_true(n > 0);
	return cpuhp_step_times(ev, (size_t)n, steps);
}

static double sum_self(const struct cpuhp_step *s, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += s[i].self_s;
	return sum;
}

static void test_offline_states(void **state)
{
	_cleanup_free_ struct cpuhp_step *s = NULL;
	struct cpuhp_step *st;
	size_t n;

	SKIP_WITHOUT_LIBTRACEFS();
	n = steps_of("offline", &s);
	assert_int_equal(n, 44);
	for (size_t i = 1; i < n; i++)
		assert_true(s[i - 1].step < s[i].step);
	st = find_step(s, n, 144);
	assert_string_equal(st->fn, "takedown_cpu");
	assert_near(st->self_s, 1.833532e-3, 1e-12);
	assert_near(st->total_s, 1.833532e-3, 1e-12);
	/* The control task waits for the hotplug thread: charged the rest. */
	st = find_step(s, n, 236);
	assert_string_equal(st->fn, "cpuhp_kick_ap_work");
	assert_near(st->total_s, 61.383962e-3, 1e-12);
	assert_near(st->self_s, 5.006280e-3, 1e-12);
	/* A multi-instance state: nine callbacks, their times summed. */
	st = find_step(s, n, 24);
	assert_int_equal(st->calls, 9);
	assert_near(st->self_s, 26.199e-6, 1e-12);
	assert_false(st->failed);
	/* Every traced nanosecond once. */
	assert_near(sum_self(s, n), 64.577195e-3, 1e-12);
}

static void test_online_states(void **state)
{
	_cleanup_free_ struct cpuhp_step *s = NULL;
	struct cpuhp_step *st;
	size_t n;

	SKIP_WITHOUT_LIBTRACEFS();
	n = steps_of("online", &s);
	assert_int_equal(n, 40);
	st = find_step(s, n, 83);
	assert_string_equal(st->fn, "cpuhp_bringup_ap");
	assert_near(st->total_s, 5.776500e-3, 1e-12);
	assert_near(st->self_s, 3.555077e-3, 1e-12);
	st = find_step(s, n, 82);
	assert_near(st->self_s, 2.652190e-3, 1e-12);
	st = find_step(s, n, 54);
	assert_int_equal(st->calls, 14);
	assert_near(sum_self(s, n), 8.524041e-3, 1e-12);
}

static struct cpuhp_event ev_at(enum cpuhp_kind kind, int pid, int step,
				uint64_t us, int ret)
{
	struct cpuhp_event e = { .kind = kind, .pid = pid, .cpu = 1,
				 .step = step, .ret = ret,
				 .ts_ns = us * 1000 };

	snprintf(e.fn, sizeof(e.fn), "fn%d", step);
	return e;
}

/* Unpaired events are ignored; a failed callback is flagged. */
static void test_pairing(void **state)
{
	struct cpuhp_event ev[] = {
		ev_at(CPUHP_EXIT, 1, 9, 5, 0),		/* exit before any enter */
		ev_at(CPUHP_ENTER, 1, 10, 10, 0),
		ev_at(CPUHP_ENTER, 2, 20, 12, 0),	/* another task, nested */
		ev_at(CPUHP_EXIT, 2, 20, 15, -16),
		ev_at(CPUHP_EXIT, 1, 10, 30, 0),
		ev_at(CPUHP_ENTER, 1, 30, 40, 0),	/* never exits */
		ev_at(CPUHP_EXIT, 1, 31, 50, 0),	/* wrong step */
	};
	_cleanup_free_ struct cpuhp_step *s = NULL;
	size_t n = cpuhp_step_times(ev, ARRAY_SIZE(ev), &s);

	assert_int_equal(n, 2);
	assert_int_equal(s[0].step, 10);
	assert_near(s[0].total_s, 20e-6, 1e-12);
	assert_near(s[0].self_s, 17e-6, 1e-12);
	assert_false(s[0].failed);
	assert_int_equal(s[1].step, 20);
	assert_near(s[1].self_s, 3e-6, 1e-12);
	assert_true(s[1].failed);
}

/* ---- names and the table -------------------------------------------- */

static void test_state_names(void **state)
{
	_cleanup_free_ char *text = data_file("cpuhp-states.txt");
	struct hotplug_states names;

	hotplug_states_parse(text, &names);
	assert_string_equal(hotplug_state_name(&names, 144), "cpu:teardown");
	assert_string_equal(hotplug_state_name(&names, 236), "online");
	assert_string_equal(hotplug_state_name(&names, 0), "offline");
	assert_string_equal(hotplug_state_name(&names, 2), "?");
	assert_string_equal(hotplug_state_name(&names, 237), "?");
	assert_string_equal(hotplug_state_name(&names, -1), "?");
	hotplug_states_free(&names);

	hotplug_states_parse("garbage\n  7: a b\nx: y\n", &names);
	assert_int_equal(names.count, 8);
	assert_string_equal(hotplug_state_name(&names, 7), "a b");
	hotplug_states_free(&names);
}

static void test_state_table(void **state)
{
	struct cpuhp_step c1[] = { { .step = 5, .fn = "a", .self_s = 1 },
				   { .step = 9, .fn = "b", .self_s = 4 } };
	struct cpuhp_step c2[] = { { .step = 7, .fn = "c", .self_s = 30,
				     .failed = true } };
	struct state_table t = { 0 };

	state_table_add_cycle(&t, c1, 2);
	state_table_add_cycle(&t, c2, 1);
	for (int i = 0; i < 20; i++)	/* grows past the first capacity */
		state_table_add_cycle(&t, c1, 1);
	assert_int_equal(t.ncycles, 22);
	assert_int_equal(t.nrows, 3);
	state_table_rank(&t);
	/* 7: 30 once in 22 cycles; 5: 1 in 21 of them; 9: 4 once. */
	assert_int_equal(t.rows[0].step, 7);
	assert_near(t.rows[0].mean_s, 30.0 / 22, 1e-12);
	assert_true(t.rows[0].failed);
	assert_near(t.rows[0].values[0], 0, 0);
	assert_near(t.rows[0].values[1], 30, 0);
	assert_int_equal(t.rows[1].step, 5);
	assert_near(t.rows[1].mean_s, 21.0 / 22, 1e-12);
	assert_near(t.rows[1].values[1], 0, 0);
	assert_int_equal(t.rows[2].step, 9);
	assert_near(t.rows[2].values[21], 0, 0);
	state_table_free(&t);
}

/* ---- cpulists and the sysfs checks ---------------------------------- */

static void test_cpulist(void **state)
{
	bool has;
	int count;

	assert_true(cpulist_parse("0-1\n", 1, &has, &count));
	assert_true(has);
	assert_int_equal(count, 2);
	assert_true(cpulist_parse("0,2-3,8", 1, &has, &count));
	assert_false(has);
	assert_int_equal(count, 4);
	assert_true(cpulist_parse("", 0, &has, &count));
	assert_int_equal(count, 0);
	assert_false(cpulist_parse("1-0", 0, &has, &count));
	assert_false(cpulist_parse("a", 0, &has, &count));
	assert_false(cpulist_parse("1,,2", 0, &has, &count));
	assert_false(cpulist_parse("1 2", 0, &has, &count));
}

struct fake_sysfs {
	char root[200];
};

static void put(const struct fake_sysfs *f, const char *file, const char *value)
{
	char path[PATH_MAX + 64];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->root, file);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(value, fp);
	fclose(fp);
}

static int fake_setup(void **state)
{
	struct fake_sysfs *f = xcalloc(1, sizeof(*f));
	char dir[PATH_MAX + 16];

	snprintf(f->root, sizeof(f->root), "/tmp/clockbench-test-hotplug-XXXXXX");
	if (!mkdtemp(f->root))
		return -1;
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(dir, sizeof(dir), "%s/cpu%d", f->root, cpu);
		mkdir(dir, 0700);
	}
	put(f, "present", "0-1\n");
	put(f, "online", "0-1\n");
	put(f, "cpu1/online", "1\n");	/* cpu0 has none, as here */
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake_sysfs *f = *state;
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static void test_check_cpu(void **state)
{
	struct fake_sysfs *f = *state;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	assert_int_equal(hotplug_check_cpu(f->root, 1, &why),
			 HOTPLUG_USABLE);
	assert_int_equal(hotplug_read_online(f->root, 1), 1);
	assert_int_equal(hotplug_default_cpu(f->root), 1);

	assert_int_equal(hotplug_check_cpu(f->root, 9999, &why),
			 HOTPLUG_NO_SUCH_CPU);
	assert_non_null(strstr(why.buf, "no such CPU 9999 (present: 0-1)"));
	assert_int_equal(hotplug_check_cpu(f->root, 0, &why),
			 HOTPLUG_NOT_HOTPLUGGABLE);
	assert_non_null(strstr(why.buf, "not hot-pluggable"));

	put(f, "online", "1\n");
	put(f, "cpu0/online", "0\n");
	assert_int_equal(hotplug_check_cpu(f->root, 1, &why),
			 HOTPLUG_LAST_ONLINE);
	assert_int_equal(hotplug_check_cpu(f->root, 0, &why),
			 HOTPLUG_OFFLINE);
	assert_int_equal(hotplug_default_cpu(f->root), -1);
	assert_int_equal(hotplug_read_online(f->root, 0), 0);
	assert_int_equal(hotplug_read_online(f->root, 5), -ENOENT);
}

static void make_dir(const char *root, const char *sub)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, sub);
	if (mkdir(path, 0700) != 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

static bool exists(const char *root, const char *sub)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, sub);
	return stat(path, &st) == 0;
}

/*
 * The guard's items on the fake tree (tracefs "mounted", so no mount
 * item): an offline CPU's file gets "1", the instance is removed, and a
 * second restore has nothing left to do.
 */
static void test_guard_restores(void **state)
{
	struct fake_sysfs *f = *state;
	struct hotplug_guard hg;
	struct guard g;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char line[1024];

	guard_init(&g);
	make_dir(f->root, "instances");
	assert_int_equal(hotplug_guard_add(&g, &hg, f->root, 1, f->root, true,
					   "clockbench-hotplug-42", &err), 0);
	assert_int_equal(g.n, 2);
	put(f, "cpu1/online", "0\n");
	make_dir(f->root, "instances/clockbench-hotplug-42");
	assert_int_equal(guard_restore(&g), 0);
	assert_int_equal(hotplug_read_online(f->root, 1), 1);
	assert_false(exists(f->root, "instances/clockbench-hotplug-42"));
	guard_describe(&g, line, sizeof(line));
	assert_string_equal(line, "cpu1/online 1 (found 0, put back); "
			    "no tracing instance clockbench-hotplug-42 (done)");
	/* Idempotent: nothing left to do. */
	assert_int_equal(guard_restore(&g), 0);
	assert_false(guard_repaired(&g));
	/* Without tracing, the CPU only. */
	guard_init(&g);
	assert_int_equal(hotplug_guard_add(&g, &hg, f->root, 1, NULL, false,
					   "clockbench-hotplug-42", &err), 0);
	assert_int_equal(g.n, 1);
}

/* A live process that calls itself clockbench, as a run would. */
static pid_t fake_clockbench(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, "clockbench");
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	return pid;
}

/* Wait (bounded: 30 s, a loaded machine may keep a new child waiting)
 * until the child has taken its name. */
static void wait_named(pid_t pid)
{
	char path[64], comm[32] = "";

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	for (int i = 0; i < 30000 && !streq(comm, "clockbench"); i++) {
		read_line_file(path, comm, sizeof(comm));
		if (!streq(comm, "clockbench"))
			usleep(1000);
	}
	assert_string_equal(comm, "clockbench");
}

/* Dead runs' instances go, a live run's and other names stay. */
static void test_stale_instances(void **state)
{
	struct fake_sysfs *f = *state;
	_cleanup_strbuf_ struct strbuf report = STRBUF_INIT;
	pid_t live = fake_clockbench();
	char mine[64], live_name[64];

	SKIP_WITHOUT_LIBTRACEFS();
	assert_true(live > 0);
	wait_named(live);
	snprintf(mine, sizeof(mine), "instances/clockbench-hotplug-%d", (int)getpid());
	snprintf(live_name, sizeof(live_name), "instances/clockbench-hotplug-%d",
		 (int)live);
	make_dir(f->root, "instances");
	make_dir(f->root, "instances/clockbench-hotplug-999999999");	/* no such pid */
	make_dir(f->root, mine);	/* alive, but no clockbench: reused */
	make_dir(f->root, live_name);
	make_dir(f->root, "instances/clockbench-hotplug-x");
	make_dir(f->root, "instances/other");
	assert_int_equal(hotplug_remove_stale_instances(f->root, &report), 2);
	kill(live, SIGKILL);
	waitpid(live, NULL, 0);
	assert_false(exists(f->root, "instances/clockbench-hotplug-999999999"));
	assert_false(exists(f->root, mine));
	assert_true(exists(f->root, live_name));
	assert_true(exists(f->root, "instances/clockbench-hotplug-x"));
	assert_true(exists(f->root, "instances/other"));
	assert_non_null(strstr(report.buf, "removed the tracing instance "
			       "clockbench-hotplug-999999999, left by clockbench "
			       "process 999999999, which is gone\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_offline),
		cmocka_unit_test(test_read_online),
		cmocka_unit_test(test_read_other_cpu),
		cmocka_unit_test(test_damaged_tracefs),
		cmocka_unit_test(test_offline_states),
		cmocka_unit_test(test_online_states),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_state_table),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test_setup_teardown(test_check_cpu, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_guard_restores, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_stale_instances, fake_setup,
						fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
