// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the hotplug module: the cpuhp trace parser and per-state
 * accounting on traces captured on this kind of machine (tests/data/
 * cpuhp-offline.trace and cpuhp-online.trace: one `echo 0` and one `echo 1`
 * to cpu1/online with the cpuhp events on in a tracefs instance, trace
 * clock mono), the state names, the per-state table, cpulists, and the
 * sysfs checks on a fake CPU directory.
 *
 * The expected times were computed independently from the trace files
 * with a short Python script (regular expressions, enter/exit pairing per
 * task, each interval's self time = its duration minus the intervals of
 * other tasks whose innermost enclosing interval it is), e.g. takedown_cpu
 * 2834.404654 - 2834.384503 = 20.151 ms.
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
#include <sys/stat.h>
#include <unistd.h>

#include "scenario/hotplug.h"
#include "basic/util.h"

#define assert_near(actual, expected, tol)                                    \
	do {                                                                  \
		double a_ = (actual), e_ = (expected);                        \
		if (!(fabs(a_ - e_) <= (tol)))                                \
			fail_msg("%s = %.9g, expected %.9g", #actual, a_, e_);\
	} while (0)

static char *data_file(const char *name)
{
	const char *dir = getenv("CLOCKBENCH_TEST_DATA");
	char path[PATH_MAX];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data", name);
	text = read_text_file(path, 1 << 20);
	if (!text)
		fail_msg("cannot read %s", path);
	return text;
}

/* ---- one line ------------------------------------------------------- */

static void test_parse_enter(void **state)
{
	struct cpuhp_event ev;

	assert_true(cpuhp_parse_line("     kworker/0:1-8279    [000] .....  "
		"2834.380653: cpuhp_enter: cpu: 0001 target: 144 step: 236 "
		"(cpuhp_kick_ap_work)", &ev));
	assert_int_equal(ev.kind, CPUHP_ENTER);
	assert_int_equal(ev.pid, 8279);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.target, 144);
	assert_int_equal(ev.step, 236);
	assert_string_equal(ev.fn, "cpuhp_kick_ap_work");
	assert_true(ev.ts_ns == 2834380653000ull);
}

static void test_parse_exit_and_multi(void **state)
{
	struct cpuhp_event ev;

	assert_true(cpuhp_parse_line("         cpuhp/1-20      [001] .N...  "
		"2834.384218: cpuhp_exit:  cpu: 0001  state: 234 step: 235 ret: -16",
		&ev));
	assert_int_equal(ev.kind, CPUHP_EXIT);
	assert_int_equal(ev.pid, 20);
	assert_int_equal(ev.target, 234);
	assert_int_equal(ev.step, 235);
	assert_int_equal(ev.ret, -16);

	assert_true(cpuhp_parse_line("  kworker/0:1-8279 [000] ..... 2834.405266: "
		"cpuhp_multi_enter: cpu: 0001 target:   0 step:  24 "
		"(blk_mq_hctx_notify_dead)", &ev));
	assert_int_equal(ev.kind, CPUHP_MULTI_ENTER);
	assert_int_equal(ev.step, 24);
	assert_int_equal(ev.target, 0);
	assert_string_equal(ev.fn, "blk_mq_hctx_notify_dead");
}

/* Comms with '-' and spaces, a tgid column, no flags column, ns stamps. */
static void test_parse_odd_columns(void **state)
{
	struct cpuhp_event ev;

	assert_true(cpuhp_parse_line("  my-prog x-4242 [001] d..1. 12.5: cpuhp_exit:"
		"  cpu: 0003  state: 5 step: 6 ret: 0", &ev));
	assert_int_equal(ev.pid, 4242);
	assert_int_equal(ev.cpu, 3);
	assert_true(ev.ts_ns == 12500000000ull);

	assert_true(cpuhp_parse_line("   bash-26682 (  26682) [000] ..... "
		"1.000000001: cpuhp_exit:  cpu: 0001  state: 1 step: 1 ret: 0", &ev));
	assert_int_equal(ev.pid, 26682);
	assert_true(ev.ts_ns == 1000000001ull);

	assert_true(cpuhp_parse_line("<...>-77 [001] 3.000001: cpuhp_enter: cpu: "
		"0001 target: 236 step: 83 (cpuhp_bringup_ap)", &ev));
	assert_int_equal(ev.pid, 77);
	assert_true(ev.ts_ns == 3000001000ull);
}

static void test_parse_rejects(void **state)
{
	struct cpuhp_event ev;

	/* Not a cpuhp event, a header, broken fields or columns. */
	assert_false(cpuhp_parse_line("  bash-1 [000] ..... 1.0: sched_switch: "
		"prev_comm=bash", &ev));
	assert_false(cpuhp_parse_line("#           TASK-PID     CPU#  |||||  "
		"TIMESTAMP  FUNCTION", &ev));
	assert_false(cpuhp_parse_line("", &ev));
	assert_false(cpuhp_parse_line("  bash-1 [000] ..... 1.0: cpuhp_enter: "
		"cpu: 0001 target: 236 step: 83", &ev));		/* no (fn) */
	assert_false(cpuhp_parse_line("  bash-1 [000] ..... 1.0: cpuhp_exit: "
		"cpu: 0001 state: 236 step: x ret: 0", &ev));
	assert_false(cpuhp_parse_line("  bash-1 [000] ..... 1.x: cpuhp_exit: "
		"cpu: 0001 state: 236 step: 1 ret: 0", &ev));		/* stamp */
	assert_false(cpuhp_parse_line("  bash-1 [000] ..... 1.0123456789: "
		"cpuhp_exit: cpu: 0001 state: 236 step: 1 ret: 0", &ev));
	assert_false(cpuhp_parse_line("  bash [000] ..... 1.0: cpuhp_exit: "
		"cpu: 0001 state: 236 step: 1 ret: 0", &ev));		/* no pid */
	assert_false(cpuhp_parse_line("  bash-1 ..... 1.0: cpuhp_exit: "
		"cpu: 0001 state: 236 step: 1 ret: 0", &ev));		/* no [cpu] */
}

/* ---- whole traces --------------------------------------------------- */

static void test_parse_trace_files(void **state)
{
	_cleanup_free_ char *off = data_file("cpuhp-offline.trace");
	_cleanup_free_ char *on = data_file("cpuhp-online.trace");
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	uint64_t lost = 1;
	size_t n;

	n = cpuhp_parse_trace(off, 1, &ev, &lost);
	assert_int_equal(n, 98);
	assert_true(lost == 0);
	assert_int_equal(ev[0].step, 236);
	assert_int_equal(ev[n - 1].kind, CPUHP_EXIT);
	free(ev);
	ev = NULL;

	n = cpuhp_parse_trace(on, 1, &ev, &lost);
	assert_int_equal(n, 76);
	assert_int_equal(ev[0].pid, 26682);
	free(ev);
	ev = NULL;

	/* Another CPU's events are not ours. */
	n = cpuhp_parse_trace(on, 2, &ev, &lost);
	assert_int_equal(n, 0);
}

static void test_parse_trace_lost(void **state)
{
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	uint64_t lost = 0;
	size_t n;

	n = cpuhp_parse_trace("# tracer: nop\n"
		"# entries-in-buffer/entries-written: 90/100   #P:2\n"
		"  bash-1 [000] ..... 1.0: cpuhp_enter: cpu: 0001 target: 0 step: 5 (f)\n"
		"  bash-1 [000] ..... 1.5: cpuhp_exit: cpu: 0001 state: 4 step: 5 ret: 0",
		1, &ev, &lost);
	assert_int_equal(n, 2);
	assert_true(lost == 10);
}

static struct cpuhp_step *find_step(struct cpuhp_step *s, size_t n, int step)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].step == step)
			return &s[i];
	fail_msg("no step %d", step);
	return NULL;
}

static size_t steps_of(const char *file, struct cpuhp_step **steps)
{
	_cleanup_free_ char *text = data_file(file);
	_cleanup_free_ struct cpuhp_event *ev = NULL;
	uint64_t lost;
	size_t n = cpuhp_parse_trace(text, 1, &ev, &lost);

	return cpuhp_step_times(ev, n, steps);
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
	size_t n = steps_of("cpuhp-offline.trace", &s);
	struct cpuhp_step *st;

	assert_int_equal(n, 40);
	for (size_t i = 1; i < n; i++)
		assert_true(s[i - 1].step < s[i].step);
	st = find_step(s, n, 144);
	assert_string_equal(st->fn, "takedown_cpu");
	assert_near(st->self_s, 20.151e-3, 1e-9);
	assert_near(st->total_s, 20.151e-3, 1e-9);
	/* The control task waits for the hotplug thread: charged the rest. */
	st = find_step(s, n, 236);
	assert_near(st->total_s, 3.848e-3, 1e-9);
	assert_near(st->self_s, 3.453e-3, 1e-9);
	/* A multi-instance state: nine callbacks, their times summed. */
	st = find_step(s, n, 24);
	assert_int_equal(st->calls, 9);
	assert_near(st->self_s, 7e-6, 1e-9);
	assert_false(st->failed);
	/* Every traced microsecond once. */
	assert_near(sum_self(s, n), 24.933e-3, 1e-9);
}

static void test_online_states(void **state)
{
	_cleanup_free_ struct cpuhp_step *s = NULL;
	size_t n = steps_of("cpuhp-online.trace", &s);
	struct cpuhp_step *st;

	assert_int_equal(n, 36);
	st = find_step(s, n, 83);
	assert_string_equal(st->fn, "cpuhp_bringup_ap");
	assert_near(st->total_s, 2.392e-3, 1e-9);
	assert_near(st->self_s, 1.937e-3, 1e-9);
	st = find_step(s, n, 82);
	assert_near(st->self_s, 0.343e-3, 1e-9);
	assert_near(sum_self(s, n), 2.767e-3, 1e-9);
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
	char why[512];

	assert_int_equal(hotplug_check_cpu(f->root, 1, why, sizeof(why)),
			 HOTPLUG_USABLE);
	assert_int_equal(hotplug_read_online(f->root, 1), 1);
	assert_int_equal(hotplug_default_cpu(f->root), 1);

	assert_int_equal(hotplug_check_cpu(f->root, 9999, why, sizeof(why)),
			 HOTPLUG_NO_SUCH_CPU);
	assert_non_null(strstr(why, "no such CPU 9999 (present: 0-1)"));
	assert_int_equal(hotplug_check_cpu(f->root, 0, why, sizeof(why)),
			 HOTPLUG_NOT_HOTPLUGGABLE);
	assert_non_null(strstr(why, "not hot-pluggable"));

	put(f, "online", "1\n");
	put(f, "cpu0/online", "0\n");
	assert_int_equal(hotplug_check_cpu(f->root, 1, why, sizeof(why)),
			 HOTPLUG_LAST_ONLINE);
	assert_int_equal(hotplug_check_cpu(f->root, 0, why, sizeof(why)),
			 HOTPLUG_OFFLINE);
	assert_int_equal(hotplug_default_cpu(f->root), -1);
	assert_int_equal(hotplug_read_online(f->root, 0), 0);
	assert_int_equal(hotplug_read_online(f->root, 5), -ENOENT);
}

/* Restoring on the fake tree: an offline CPU's file gets "1". */
static void test_restore_cpu(void **state)
{
	struct fake_sysfs *f = *state;
	struct hotplug_restore r = { .cpu = 1 };

	snprintf(r.root, sizeof(r.root), "%s", f->root);
	put(f, "cpu1/online", "0\n");
	assert_int_equal(hotplug_restore(&r), 0);
	assert_int_equal(hotplug_read_online(f->root, 1), 1);
	/* Idempotent: nothing left to do. */
	assert_int_equal(hotplug_restore(&r), 0);
	assert_int_equal(hotplug_read_online(f->root, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_enter),
		cmocka_unit_test(test_parse_exit_and_multi),
		cmocka_unit_test(test_parse_odd_columns),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_trace_files),
		cmocka_unit_test(test_parse_trace_lost),
		cmocka_unit_test(test_offline_states),
		cmocka_unit_test(test_online_states),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_state_table),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test_setup_teardown(test_check_cpu, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_restore_cpu, fake_setup,
						fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
