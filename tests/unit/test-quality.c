// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run's quality: the one-line summary of its rounds, the warm-up line,
 * the parsers behind the disturbance accounting, and the pre-flight
 * system report read from a made-up sysfs tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/disturb.h"
#include "probe/system.h"
#include "results/quality.h"

static struct round_quality round_at(double ghz, long switches, double steal_ms)
{
	return (struct round_quality){ .ghz = ghz, .involuntary = switches,
				       .steal_ms = steal_ms, .migrations = 0 };
}

static void test_slow_rounds_counted(void **state)
{
	struct round_quality r[10];
	struct run_quality q = { .core_source = CORE_REFERENCE, .rounds = r,
				 .nrounds = 10, .ref_vs_pmu_pct = NAN };
	char line[512];

	/* Seven rounds at 4.4 GHz, three in a slow phase: 2.3, 3.5, 3.9. */
	for (int k = 0; k < 10; k++)
		r[k] = round_at(4.4, 1, 0);
	r[3] = round_at(2.3, 5, 20);
	r[4] = round_at(3.5, 0, 0);
	r[8] = round_at(3.9, 0, 10);
	quality_summarize(&q);
	assert_float_equal(q.top_ghz, 4.4, 1e-12);
	assert_int_equal(q.slow_rounds, 3);
	assert_float_equal(q.slowest_share, 2.3 / 4.4, 1e-12);
	assert_int_equal(q.involuntary, 12);
	assert_int_equal(q.migrations, 0);
	assert_float_equal(q.steal_ms, 30, 1e-12);
	quality_summary_line(&q, line, sizeof(line));
	assert_string_equal(line, "3 of 10 rounds ran at under 90 % of the top "
			    "frequency (4.40 GHz, slowest 52 %); figures normalised "
			    "to core cycles; 12 involuntary context switches, "
			    "0 migrations, 30 ms stolen");
}

static void test_steady_run_and_unknowns(void **state)
{
	struct round_quality r[2] = { round_at(4.0, 0, NAN), round_at(3.7, 1, 0) };
	struct run_quality q = { .core_source = CORE_PERF, .rounds = r, .nrounds = 2,
				 .ref_vs_pmu_pct = -0.4 };
	char line[512];

	r[1].migrations = -1;	/* no CONFIG_SCHED_DEBUG */
	quality_summarize(&q);
	assert_int_equal(q.slow_rounds, 0);	/* 92.5 % of the top */
	assert_int_equal(q.migrations, -1);
	assert_true(isnan(q.steal_ms));
	quality_summary_line(&q, line, sizeof(line));
	assert_string_equal(line, "all 2 rounds ran within 10 % of the top frequency "
			    "(4.00 GHz); core cycles from the PMU (the reference "
			    "reads -0.4 % against them); 1 involuntary context switch");

	/* No speed at all: said, not guessed. */
	r[0].ghz = r[1].ghz = NAN;
	q.core_source = CORE_NONE;
	q.ref_vs_pmu_pct = NAN;
	quality_summarize(&q);
	assert_true(isnan(q.top_ghz));
	quality_summary_line(&q, line, sizeof(line));
	assert_non_null(strstr(line, "the core's speed is unknown; figures not normalised"));
}

static void test_quality_json(void **state)
{
	struct round_quality r[2] = { round_at(4.0, 2, 0), round_at(2.0, 0, 0) };
	struct warmup_report w = { .cell = "time vdso", .windows = 3, .window_s = 0.01,
				   .elapsed_s = 0.03, .steady = true, .first_ghz = 4,
				   .last_ghz = 4, .first_cell = 4.2, .last_cell = 4.2 };
	struct run_quality q = { .core_source = CORE_REFERENCE, .warmup = &w,
				 .rounds = r, .nrounds = 2, .ref_vs_pmu_pct = NAN };
	json_t *j, *r1;

	quality_summarize(&q);
	j = quality_to_json(&q);
	r1 = json_array_get(json_object_get(j, "rounds"), 1);
	assert_float_equal(json_real_value(json_object_get(r1, "of_top")), 0.5, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(r1, "round")), 1);
	assert_true(json_is_null(json_object_get(j, "reference_vs_pmu_pct")));
	assert_true(json_is_true(json_object_get(json_object_get(j, "warmup"), "steady")));
	assert_string_equal(json_string_value(json_object_get(j, "core_cycles_from")),
			    "reference");
	assert_non_null(strstr(json_string_value(json_object_get(j, "summary")),
			       "1 of 2 rounds"));
	json_decref(j);
}

static void test_warmup_line(void **state)
{
	struct warmup_report w = { .cell = "clock-gettime-monotonic vdso", .windows = 4,
				   .window_s = 0.01, .elapsed_s = 0.041, .steady = true,
				   .first_ghz = 2.1, .last_ghz = 4.38, .first_cell = 90,
				   .last_cell = 86 }, back;
	char line[512], again[512];
	json_t *j;

	quality_warmup_line(&w, 0.02, line, sizeof(line));
	assert_string_equal(line, "steady after 4 windows of 10 ms (0.04 s): "
			    "clock-gettime-monotonic vdso and the reference within "
			    "2 % from one window to the next; core 4.38 GHz");
	/* As a stored run's: the same line. */
	j = warmup_to_json(&w);
	warmup_from_json(j, &back);
	json_decref(j);
	quality_warmup_line(&back, 0.02, again, sizeof(again));
	assert_string_equal(again, line);
	w.steady = false;
	w.windows = 50;
	w.elapsed_s = 0.5;
	quality_warmup_line(&w, 0.02, line, sizeof(line));
	assert_string_equal(line, "not steady after 50 windows of 10 ms (0.50 s, the "
			    "bound): clock-gettime-monotonic vdso 90.0 -> 86.0 core "
			    "cycles, core 2.10 -> 4.38 GHz");
}

/* ---- what the disturbance accounting reads ------------------------- */

static void test_parse_steal_and_migrations(void **state)
{
	const char *stat = "cpu  32137 0 12991 67371 272 0 112 45 0 0\n"
			   "cpu0 15872 0 6196 34437 90 0 94 19 0 0\n"
			   "cpu1 16264 0 6795 32933 182 0 17 25 0 0\n"
			   "intr 123\n";
	const char *sched = "bench (8743, #threads: 1)\n----\n"
			    "se.exec_start    :   569505.546867\n"
			    "se.nr_migrations                             :      7\n"
			    "nr_switches   :  0\n";

	assert_int_equal(disturb_parse_steal(stat, 0), 19);
	assert_int_equal(disturb_parse_steal(stat, 1), 25);
	assert_int_equal(disturb_parse_steal(stat, 2), -1);
	assert_int_equal(disturb_parse_steal("cpu1 1 2 3\n", 1), -1);	/* too short */
	assert_int_equal(disturb_parse_migrations(sched), 7);
	assert_int_equal(disturb_parse_migrations("nr_switches : 3\n"), -1);
	assert_int_equal(disturb_parse_migrations(NULL), -1);
}

static void test_diff_of_snapshots(void **state)
{
	struct disturb_snap a = { .ns = 1000000000, .involuntary = 3, .voluntary = 1,
				  .steal_ticks = 40, .migrations = 2 };
	struct disturb_snap b = { .ns = 1500000000, .involuntary = 10, .voluntary = 1,
				  .steal_ticks = 43, .migrations = 2 };
	struct round_quality q;

	disturb_diff(&a, &b, &q);
	assert_float_equal(q.elapsed_s, 0.5, 1e-12);
	assert_int_equal(q.involuntary, 7);
	assert_int_equal(q.voluntary, 0);
	assert_float_equal(q.steal_ms, 3000.0 / (double)sysconf(_SC_CLK_TCK), 1e-9);
	assert_int_equal(q.migrations, 0);
	a.steal_ticks = -1;
	a.migrations = -1;
	disturb_diff(&a, &b, &q);
	assert_true(isnan(q.steal_ms));
	assert_int_equal(q.migrations, -1);
}

/* On this machine: a real round has real figures, none negative. */
static void test_tracker_on_this_machine(void **state)
{
	struct disturb_tracker t;
	struct cell_result r;
	double ghz[] = { 4.0, 3.0 };

	memset(&r, 0, sizeof(r));
	r.round_ghz = ghz;
	disturb_tracker_init(&t, sched_getcpu());
	disturb_round_begin(&t);
	r.nrounds = 1;
	disturb_note(&t, &r);
	r.nrounds = 2;
	disturb_note(&t, &r);
	disturb_note(&t, &r);
	disturb_round_end(&t);
	assert_int_equal(t.nrounds, 1);
	assert_float_equal(t.rounds[0].ghz, 3.0, 0);	/* median of 4, 3, 3 */
	assert_true(t.rounds[0].involuntary >= 0 && t.rounds[0].voluntary >= 0);
	assert_true(isnan(t.rounds[0].steal_ms) || t.rounds[0].steal_ms >= 0);
	disturb_tracker_free(&t);
}

/* ---- the pre-flight report ------------------------------------------ */

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool has_warning(const struct system_report *s, const char *what)
{
	char w[SYSTEM_MAX_WARNINGS][SYSTEM_WARNING_LEN];
	size_t n = system_warnings(s, w, SYSTEM_MAX_WARNINGS);

	for (size_t i = 0; i < n; i++)
		if (strstr(w[i], what))
			return true;
	return false;
}

static void test_noisy_machine(void **state)
{
	struct system_report s, back;
	json_t *j;

	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_driver", "intel_pstate\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
	put("/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "3,7\n");
	put("/sys/devices/system/cpu/isolated", "\n");
	put("/sys/devices/system/cpu/nohz_full", "(null)\n");
	put("/sys/devices/system/cpu/online", "0-7\n");
	put("/proc/loadavg", "2.50 1.00 0.50 3/93 8908\n");
	put("/proc/stat", "cpu  100 0 100 700 0 0 0 100 0 0\ncpu0 1 2\n");
	system_collect_from(&s, root, 3, false);
	assert_string_equal(s.governor, "powersave");
	assert_int_equal(s.turbo, 1);
	assert_int_equal(s.smt_siblings, 2);
	assert_int_equal(s.ncpus, 8);
	assert_false(s.cpu_isolated);
	assert_string_equal(s.nohz_full, "");
	assert_float_equal(s.load[0], 2.5, 1e-12);
	assert_float_equal(s.steal_pct, 10, 1e-12);
	assert_true(has_warning(&s, "governor is powersave, not performance"));
	assert_true(has_warning(&s, "turbo is on (intel_pstate/no_turbo)"));
	assert_true(has_warning(&s, "CPU 3 shares its core with 1 other CPU,"));
	assert_true(has_warning(&s, "load average 2.50 on 8 CPUs"));
	assert_true(has_warning(&s, "stole 10.0 %"));
	j = system_to_json(&s);
	assert_int_equal(json_array_size(json_object_get(j, "warnings")), 5);
	assert_true(json_is_true(json_object_get(j, "turbo")));
	assert_true(json_is_null(json_object_get(j, "nohz_full")));
	/* Read back as system_print() reads a stored run's. */
	system_from_json(j, &back);
	assert_string_equal(back.governor, "powersave");
	assert_int_equal(back.turbo, 1);
	assert_int_equal(back.smt_siblings, 2);
	assert_int_equal(back.ncpus, 8);
	assert_int_equal(back.cpu, 3);
	assert_string_equal(back.nohz_full, "");
	assert_float_equal(back.load[0], 2.5, 1e-12);
	assert_float_equal(back.steal_pct, 10, 1e-12);
	json_decref(j);
}

static void test_quiet_machine_and_cpu_lists(void **state)
{
	char w[SYSTEM_MAX_WARNINGS][SYSTEM_WARNING_LEN];
	struct system_report s;

	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/system/cpu/smt/control", "off\n");
	put("/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "3\n");
	put("/sys/devices/system/cpu/isolated", "2-3\n");
	put("/sys/devices/system/cpu/nohz_full", "2-3\n");
	put("/proc/loadavg", "0.02 0.01 0.00 1/93 8908\n");
	put("/proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\n");
	system_collect_from(&s, root, 3, true);
	assert_true(s.cpu_isolated && s.cpu_nohz_full);
	assert_int_equal(s.turbo, 0);
	assert_int_equal(system_warnings(&s, w, SYSTEM_MAX_WARNINGS), 0);
	assert_true(system_cpu_in_list("0-1,4,6-7", 6));
	assert_false(system_cpu_in_list("0-1,4,6-7", 5));
	assert_false(system_cpu_in_list("", 0));
}

static int make_root(void **state)
{
	const char *base = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/test-quality.XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_rounds_counted),
		cmocka_unit_test(test_steady_run_and_unknowns),
		cmocka_unit_test(test_quality_json),
		cmocka_unit_test(test_warmup_line),
		cmocka_unit_test(test_parse_steal_and_migrations),
		cmocka_unit_test(test_diff_of_snapshots),
		cmocka_unit_test(test_tracker_on_this_machine),
		cmocka_unit_test(test_noisy_machine),
		cmocka_unit_test(test_quiet_machine_and_cpu_lists),
	};

	return cmocka_run_group_tests(tests, make_root, remove_root);
}
