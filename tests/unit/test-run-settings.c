// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of results/run-settings.c: each command's settings encoded as
 * the store has always held them (the same keys, the same JSON types:
 * json_equal() tells an integer from a real), and decoded back into the
 * same fields, so that a key the writer renames fails here and not in a
 * reader months later.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/run-settings.h"

/* A text that would break a careless writer: quotes, a newline, a
 * backslash, a control character and UTF-8. */
#define AWKWARD "a \"b\"\n\\c\x01 \xc3\xa9"

/* got (taken) is the JSON of text, keys and types alike. */
static void assert_json(json_t *got, const char *text)
{
	json_error_t e;
	json_t *want = json_loads(text, 0, &e);

	assert_non_null(want);
	assert_non_null(got);
	if (!json_equal(got, want)) {
		char *g = json_dumps(got, JSON_SORT_KEYS);

		print_error("got %s\n", g);
		free(g);
		fail();
	}
	json_decref(want);
	json_decref(got);
}

/* o's keys in the order they are stored (jansson keeps insertion order),
 * as the store's text has always had them: keys, comma-separated. */
static void assert_key_order(const json_t *o, const char *keys)
{
	char got[512] = "";
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)o, k, v) {
		if (*got)
			strcat(got, ",");
		strcat(got, k);
	}
	assert_string_equal(got, keys);
}

/* s decoded from config (taken): only what holds no text may be read
 * after, the texts being the config's. */
static void decode(json_t *config, struct run_settings *s)
{
	run_settings_decode(config, s);
	json_decref(config);
}

/* bench's settings; then counted in instructions, as kernels --exact
 * stores a guest's run: decoded, changed, encoded. */
static void test_bench(void **state)
{
	const struct core_cycles_settings core = {
		.source = "reference",
		.reference = { .instruction = "imul r64, r64", .cycles_per_op = 3,
			       .latency_from = "Agner Fog", .validated = true, .ops = 4096,
			       .reading_core_cycles = 40, .share_pct = 1.25 },
		.time_base = "TSC ticks", .time_base_ghz = 2.2, .boundary_core_cycles = 900,
		.reading_boundary_core_cycles = NAN, .calibration_ghz = 2.5,
		.pmu_cycles_per_op = NAN,
	};
	struct bench_settings b = {
		.method = { .budget_s = 0.25, .min_time_s = 0.01, .warmup_s = 0.1,
			    .target_batch_ns = 1e6, .rel_ci = 0.02, .min_samples = 5,
			    .max_samples = 200, .rounds = 10, .steady_tol = 0.05,
			    .boundary_ns = 30.5, .boundary_cycles = NAN },
		.cycle_counter = { "TSC ticks", "rdtsc" },
		.overhead = { .ns_per_call = 1.5, .cycles_per_call = NAN,
			      .ruler = { .measured = true, .nops = 64, .ns_per_call = 17.25,
					 .cycles_per_call = 44 } },
		.core_cycles = &core,
	};
	struct run_settings s;
	json_t *config = bench_settings_json(&b), *counted;

	(void)state;
	assert_json(json_incref(config),
		    "{\"method\": {\"budget_s\": 0.25, \"min_time_s\": 0.01, \"warmup_s\": 0.1,"
		    " \"target_batch_ns\": 1000000.0, \"rel_ci\": 0.02, \"min_samples\": 5,"
		    " \"max_samples\": 200, \"rounds\": 10, \"steady_tol\": 0.05,"
		    " \"boundary_ns\": 30.5, \"boundary_cycles\": null},"
		    " \"cycle_counter\": {\"unit\": \"TSC ticks\", \"source\": \"rdtsc\"},"
		    " \"harness_overhead\": {\"ns_per_call\": 1.5, \"cycles_per_call\": null,"
		    " \"ruler\": {\"nops\": 64, \"ns_per_call\": 17.25, \"cycles_per_call\": 44.0}},"
		    " \"core_cycles\": {\"source\": \"reference\", \"reference\": {"
		    "\"instruction\": \"imul r64, r64\", \"cycles_per_op\": 3.0,"
		    " \"latency_from\": \"Agner Fog\", \"validated\": true, \"ops\": 4096,"
		    " \"reading_core_cycles\": 40.0, \"share_pct\": 1.25},"
		    " \"time_base\": \"TSC ticks\", \"time_base_ghz\": 2.2,"
		    " \"boundary_core_cycles\": 900.0, \"reading_boundary_core_cycles\": null,"
		    " \"calibration_ghz\": 2.5, \"pmu_cycles_per_op\": null}}");
	run_settings_decode(config, &s);
	assert_true(s.bench.method.budget_s == 0.25 && s.bench.method.rounds == 10 &&
		    s.bench.method.max_samples == 200 && isnan(s.bench.method.boundary_cycles));
	assert_string_equal(s.bench.cycle_counter.unit, "TSC ticks");
	assert_true(s.bench.overhead.recorded && !s.bench.overhead.counted);
	assert_true(s.bench.overhead.ns_per_call == 1.5);
	assert_true(s.bench.overhead.ruler.measured && s.bench.overhead.ruler.cycles_per_call == 44);
	assert_true(s.core_cycles_known);
	assert_ptr_equal(s.bench.core_cycles, &s.core_cycles);
	assert_string_equal(s.core_cycles.source, "reference");
	assert_string_equal(s.core_cycles.reference.instruction, "imul r64, r64");
	assert_true(s.core_cycles.reference.validated && s.core_cycles.reference.ops == 4096);
	assert_true(s.core_cycles.calibration_ghz == 2.5 &&
		    s.core_cycles.reference.reading_core_cycles == 40);
	assert_string_equal(s.core_cycles.time_base, "TSC ticks");
	s.bench.overhead.counted = true;
	s.bench.overhead.instructions_per_call = 7;
	s.bench.overhead.ruler.instructions_per_call = 71;
	counted = bench_settings_json(&s.bench);
	run_settings_release(&s);
	json_decref(config);
	assert_json(json_incref(json_object_get(counted, "harness_overhead")),
		    "{\"instructions_per_call\": 7.0, \"ruler\": {\"nops\": 64,"
		    " \"instructions_per_call\": 71.0}}");
	run_settings_decode(counted, &s);
	assert_true(s.bench.overhead.counted && s.bench.overhead.instructions_per_call == 7);
	assert_true(s.bench.method.rel_ci == 0.02);
	assert_string_equal(s.core_cycles.source, "reference");
	assert_true(s.core_cycles.reference.share_pct == 1.25);
	run_settings_release(&s);
	json_decref(counted);
}

static void test_hotplug(void **state)
{
	struct cpu_accounting acct = { .mode = ACCT_TICK, .hz = 250 };
	struct hotplug_settings h = { .cpu = 1, .cycles = 20, .pause_s = 0.5,
				      .trace = 1, .tracing = AWKWARD };
	struct run_settings s;
	json_t *config;

	(void)state;
	assert_json(hotplug_settings_json(&h),
		    "{\"cpu\": 1, \"cycles\": 20, \"pause_s\": 0.5, \"trace\": true,"
		    " \"tracing\": \"a \\\"b\\\"\\n\\\\c\\u0001 \\u00e9\"}");
	h.accounting = &acct;
	config = hotplug_settings_json(&h);
	run_settings_decode(config, &s);
	assert_true(s.hotplug.cpu == 1 && s.hotplug.cycles == 20 && s.hotplug.pause_s == 0.5);
	assert_int_equal(s.hotplug.trace, 1);
	assert_string_equal(s.hotplug.tracing, AWKWARD);
	assert_true(s.accounting_known);
	assert_ptr_equal(s.hotplug.accounting, &s.accounting);
	assert_int_equal(s.accounting.hz, 250);
	assert_int_equal(s.accounting.mode, ACCT_TICK);
	assert_true(s.accounting_sampled);
	run_settings_release(&s);
	json_decref(config);
}

static void test_doctor(void **state)
{
	const struct run_problem problems[] = {
		{ "clock-gettime-monotonic", "vdso", "clocksource", "the clocksource ..." },
		{ "time", "libc", "interposed", AWKWARD },
	};
	struct doctor_settings d = { .verdict = "problems", .clocksource = "hpet",
				     .problems = problems, .nproblems = 2 };
	struct run_settings s;
	json_t *config = doctor_settings_json(&d);

	(void)state;
	assert_json(json_incref(config),
		    "{\"verdict\": \"problems\", \"clocksource\": \"hpet\", \"problems\": ["
		    "{\"cell\": \"clock-gettime-monotonic\", \"path\": \"vdso\","
		    " \"cause\": \"clocksource\", \"why\": \"the clocksource ...\"},"
		    "{\"cell\": \"time\", \"path\": \"libc\", \"cause\": \"interposed\","
		    " \"why\": \"a \\\"b\\\"\\n\\\\c\\u0001 \\u00e9\"}]}");
	run_settings_decode(config, &s);
	assert_string_equal(s.doctor.verdict, "problems");
	assert_string_equal(s.doctor.clocksource, "hpet");
	assert_true(s.doctor.problems_known);
	assert_int_equal(s.doctor.nproblems, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(s.doctor.problems[i].cell, problems[i].cell);
		assert_string_equal(s.doctor.problems[i].path, problems[i].path);
		assert_string_equal(s.doctor.problems[i].cause, problems[i].cause);
		assert_string_equal(s.doctor.problems[i].why, problems[i].why);
	}
	run_settings_release(&s);
	json_decref(config);
	/* Healthy is an empty list, not an absent one. */
	decode(doctor_settings_json(&(struct doctor_settings){ .verdict = "healthy" }), &s);
	assert_true(s.doctor.problems_known);
	assert_int_equal(s.doctor.nproblems, 0);
	run_settings_release(&s);
}

static void test_ab(void **state)
{
	const char *labels[] = { "tsc", "hpet" };
	struct ab_settings a = {
		.condition = "clocksource", .arm = "hpet", .value = "hpet",
		.arms = { labels, 2, true }, .interleave = "0c5d", .repetitions = 10,
		.budget_s = 0.25, .target_batch_ns = 1e6, .cpu = 1,
	};
	struct run_settings s;
	json_t *config = ab_settings_json(&a);

	(void)state;
	assert_json(json_incref(config),
		    "{\"mode\": \"ab\", \"condition\": \"clocksource\", \"arm\": \"hpet\","
		    " \"value\": \"hpet\", \"arms\": [\"tsc\", \"hpet\"], \"interleave\": \"0c5d\","
		    " \"order\": \"A B B A ...\", \"repetitions\": 10, \"budget_s\": 0.25,"
		    " \"target_batch_ns\": 1000000.0, \"cpu\": 1}");
	assert_key_order(config, "mode,condition,arm,value,arms,interleave,order,"
			 "repetitions,budget_s,target_batch_ns,cpu");
	run_settings_decode(config, &s);
	assert_string_equal(s.ab.condition, "clocksource");
	assert_string_equal(s.ab.arm, "hpet");
	assert_string_equal(s.ab.value, "hpet");
	assert_int_equal(s.ab.arms.n, 2);
	assert_true(s.ab.arms.whole);
	assert_string_equal(s.ab.arms.word[1], "hpet");
	assert_string_equal(s.ab.interleave, "0c5d");
	assert_true(s.ab.repetitions == 10 && s.ab.budget_s == 0.25 &&
		    s.ab.target_batch_ns == 1e6 && s.ab.cpu == 1);
	run_settings_release(&s);
	json_decref(config);
}

static void test_timens(void **state)
{
	struct timens_settings t = {
		.side = "timens", .interleave = "77aa", .paired_with = "host",
		.repetitions = 10, .cpu = 0, .budget_s = 0.25, .target_batch_ns = 2e6,
		.boundary_ns = 1234.5,
		.offsets = { .monotonic_ns = 864000LL * 1000000000, .boottime_ns = -2000000000 },
		.offsets_known = true,
		.nested = true,
	};
	struct run_settings s;
	json_t *config = timens_settings_json(&t);

	(void)state;
	assert_json(json_incref(config),
		    "{\"mode\": \"timens\", \"side\": \"timens\", \"interleave\": \"77aa\","
		    " \"paired_with\": \"host\", \"repetitions\": 10, \"cpu\": 0,"
		    " \"budget_s\": 0.25, \"target_batch_ns\": 2000000.0, \"boundary_ns\": 1234.5,"
		    " \"order\": \"host, timens, timens, host, ...\","
		    " \"offsets\": {\"monotonic_s\": 864000.0, \"boottime_s\": -2.0},"
		    " \"nested\": true}");
	assert_key_order(config, "mode,side,interleave,paired_with,repetitions,cpu,"
			 "budget_s,target_batch_ns,boundary_ns,order,offsets,nested");
	run_settings_decode(config, &s);
	assert_string_equal(s.timens.side, "timens");
	assert_string_equal(s.timens.paired_with, "host");
	assert_true(s.timens.repetitions == 10 && s.timens.cpu == 0 &&
		    s.timens.boundary_ns == 1234.5);
	assert_true(s.timens.offsets_known);
	assert_true(s.timens.offsets.monotonic_ns == t.offsets.monotonic_ns);
	assert_true(s.timens.offsets.boottime_ns == t.offsets.boottime_ns);
	assert_true(s.timens.nested);
	run_settings_release(&s);
	json_decref(config);
	/* An offset beyond what ns in an int64_t hold (2^63 ns, 292 years) is
	 * unknown, and unknown is written as null, never as 0. */
	config = json_pack("{s:{s:f, s:f}}", "offsets", "monotonic_s", 1e11, "boottime_s", 0.0);
	run_settings_decode(config, &s);
	assert_false(s.timens.offsets_known);
	json_decref(config);
	config = timens_settings_json(&s.timens);
	assert_true(json_is_null(json_object_get(config, "offsets")));
	run_settings_release(&s);
	json_decref(config);
}

/* One command: no interleave keys, prepare null. Several: the order and
 * the seed, a parameter's value. */
static void test_exec(void **state)
{
	const char *words[] = { "sh", "-c", AWKWARD };
	const char *labels[] = { "A", "B" };
	struct exec_settings x = {
		.command = { words, 3, true }, .command_line = "sh -c ...",
		.program = "/bin/sh", .runs = 30, .warmup = 2,
		.harness_wall_median_s = NAN, .seed = NAN,
	};
	struct run_settings s;
	json_t *config;

	(void)state;
	assert_json(exec_settings_json(&x),
		    "{\"command\": [\"sh\", \"-c\", \"a \\\"b\\\"\\n\\\\c\\u0001 \\u00e9\"],"
		    " \"command_line\": \"sh -c ...\", \"shell\": false, \"prepare\": null,"
		    " \"runs\": 30, \"warmup\": 2, \"ignore_failure\": false,"
		    " \"show_output\": false, \"program\": \"/bin/sh\","
		    " \"harness_wall_median_s\": null}");
	x.shell = x.ignore_failure = true;
	x.prepare = "sync";
	x.harness_wall_median_s = 0.001;
	x.interleave = "ee01";
	x.commands = (struct run_words){ labels, 2, true };
	x.order = "random";
	x.seed = 9007199254740992.0;	/* 2^53, the largest --seed */
	x.parameter = "n";
	x.value = "4";
	config = exec_settings_json(&x);
	assert_int_equal(json_integer_value(json_object_get(config, "seed")), 1LL << 53);
	run_settings_decode(config, &s);
	assert_int_equal(s.exec.command.n, 3);
	assert_string_equal(s.exec.command.word[2], AWKWARD);
	assert_string_equal(s.exec.command_line, "sh -c ...");
	assert_string_equal(s.exec.program, "/bin/sh");
	assert_true(s.exec.shell && s.exec.ignore_failure && !s.exec.show_output);
	assert_string_equal(s.exec.prepare, "sync");
	assert_true(s.exec.runs == 30 && s.exec.warmup == 2);
	assert_true(s.exec.harness_wall_median_s == 0.001);
	assert_string_equal(s.exec.interleave, "ee01");
	assert_int_equal(s.exec.commands.n, 2);
	assert_string_equal(s.exec.order, "random");
	assert_true(s.exec.seed == x.seed);
	assert_string_equal(s.exec.parameter, "n");
	assert_string_equal(s.exec.value, "4");
	run_settings_release(&s);
	json_decref(config);
}

static void test_scale_threads(void **state)
{
	unsigned counts[] = { 1, 2 };
	double user[] = { 0.5, 1.5 }, sys[] = { 0.25, NAN };
	const struct run_cpu_time times[] = {
		{ "times-threads-1", "syscall", user, sys, 2 },
		{ "times-threads-2", "syscall", user, sys, 1 },
	};
	struct scale_settings c = {
		.threads = { counts, 2, true }, .ncpus = 2, .calls = 5e6,
		.repetitions = 5, .series = "powers of 2", .cpu_time = times,
		.ncpu_time = 2,
	};
	struct run_settings s;
	json_t *config = scale_settings_json(&c);

	(void)state;
	assert_json(json_incref(config),
		    "{\"mode\": \"threads\", \"threads\": [1, 2], \"ncpus\": 2,"
		    " \"calls\": 5000000, \"repetitions\": 5, \"series\": \"powers of 2\","
		    " \"cpu_time\": ["
		    "{\"name\": \"times-threads-1\", \"path\": \"syscall\","
		    " \"user_s\": [0.5, 1.5], \"sys_s\": [0.25, null]},"
		    "{\"name\": \"times-threads-2\", \"path\": \"syscall\","
		    " \"user_s\": [0.5], \"sys_s\": [0.25]}]}");
	run_settings_decode(config, &s);
	assert_false(s.scale.idle);
	assert_int_equal(s.scale.threads.n, 2);
	assert_int_equal(s.scale.threads.count[1], 2);
	assert_true(s.scale.calls == 5e6 && s.scale.repetitions == 5 && s.scale.ncpus == 2);
	assert_string_equal(s.scale.series, "powers of 2");
	assert_int_equal(s.scale.ncpu_time, 2);
	assert_string_equal(s.scale.cpu_time[1].cell, "times-threads-2");
	assert_string_equal(s.scale.cpu_time[1].path, "syscall");
	assert_int_equal(s.scale.cpu_time[0].n, 2);
	assert_true(s.scale.cpu_time[0].user_s[1] == 1.5);
	/* A figure that was not a number is still one, unknown: NAN. */
	assert_true(isnan(s.scale.cpu_time[0].sys_s[1]));
	run_settings_release(&s);
	json_decref(config);
}

static void test_scale_idle(void **state)
{
	unsigned counts[] = { 0, 8 };
	const struct core_cycles_settings none = { .source = NULL };
	struct scale_settings c = {
		.idle = true, .threads = { counts, 2, true }, .ncpus = 2, .cpu = 1,
		.budget_s = 0.25, .target_batch_ns = 1e6, .rounds = 10,
		.boundary_ns = 40.5, .core_cycles = &none,
	};
	struct run_settings s;
	json_t *config = scale_settings_json(&c);

	(void)state;
	assert_json(json_incref(config),
		    "{\"mode\": \"idle\", \"idle_threads\": [0, 8], \"ncpus\": 2, \"cpu\": 1,"
		    " \"budget_s\": 0.25, \"target_batch_ns\": 1000000.0, \"rounds\": 10,"
		    " \"boundary_ns\": 40.5, \"core_cycles\": {\"source\": \"none\"}}");
	run_settings_decode(config, &s);
	assert_true(s.scale.idle);
	assert_int_equal(s.scale.threads.n, 2);
	assert_int_equal(s.scale.threads.count[1], 8);
	assert_true(s.scale.cpu == 1 && s.scale.rounds == 10 && s.scale.boundary_ns == 40.5);
	assert_string_equal(s.scale.core_cycles->source, "none");
	run_settings_release(&s);
	json_decref(config);
}

/* A boot's facts in each run's environment.vm: exact adds the icount. */
static void test_boot(void **state)
{
	const char *argv[] = { "bench", "--quick" };
	json_t *guest = json_pack("{s:s}", "release", "6.12.0");
	struct run_boot b = {
		.campaign = "c0ffee", .kernel_name = "6.12", .image = "/boot/vmlinuz",
		.arch = "arm64", .accel = "tcg", .accel_reason = AWKWARD,
		.qemu = "QEMU emulator version 7.2.15", .cpus = 2, .memory_mb = 512,
		.boot_wall_s = 12.5, .boot = 1, .position = 0, .emulated = true,
		.guest = guest, .guest_argv = { argv, 2, true },
	};
	json_t *env = json_object(), *again;
	struct run_boot d;

	(void)state;
	assert_json(run_boot_json(&b),
		    "{\"kernel_name\": \"6.12\", \"image\": \"/boot/vmlinuz\", \"accel\": \"tcg\","
		    " \"qemu\": \"QEMU emulator version 7.2.15\", \"cpus\": 2, \"memory_mb\": 512,"
		    " \"boot_wall_s\": 12.5, \"boot\": 1, \"position\": 0, \"emulated\": true,"
		    " \"arch\": \"arm64\", \"accel_reason\": \"a \\\"b\\\"\\n\\\\c\\u0001 \\u00e9\","
		    " \"append\": \"\", \"kernel_append\": \"\","
		    " \"guest\": {\"release\": \"6.12.0\"}, \"campaign\": \"c0ffee\","
		    " \"guest_argv\": [\"bench\", \"--quick\"]}");
	b.exact = true;
	b.icount = "shift=0,sleep=off";
	b.booted_as = "6.12.0-amd64";
	json_object_set_new(env, "vm", run_boot_json(&b));
	json_decref(guest);
	run_boot_decode(env, &d);
	assert_true(d.booted && d.emulated && d.exact);
	assert_string_equal(d.icount, "shift=0,sleep=off");
	assert_string_equal(d.campaign, "c0ffee");
	assert_string_equal(d.kernel_name, "6.12");
	assert_string_equal(d.booted_as, "6.12.0-amd64");
	assert_string_equal(d.arch, "arm64");
	assert_string_equal(d.accel_reason, AWKWARD);
	assert_true(d.cpus == 2 && d.memory_mb == 512 && d.boot_wall_s == 12.5 &&
		    d.boot == 1 && d.position == 0);
	assert_string_equal(json_string_value(json_object_get(d.guest, "release")), "6.12.0");
	assert_int_equal(d.guest_argv.n, 2);
	assert_string_equal(d.guest_argv.word[1], "--quick");
	run_boot_release(&d);
	json_decref(env);
	/* Not booted: no "vm". */
	run_boot_decode(NULL, &d);
	assert_false(d.booted || d.emulated);
	run_boot_release(&d);
	/* What a hostile guest could put there: wrong types read as unknown. */
	env = json_pack("{s:{s:{}, s:s, s:i, s:[i, s], s:f, s:[]}}", "vm",
			"guest_argv", "cpus", "two", "exact", 1,
			"campaign", 7, "x", "boot", 1e300, "kernel_name");
	run_boot_decode(env, &d);
	assert_true(d.booted);
	assert_int_equal(d.guest_argv.n, 0);
	assert_true(isnan(d.cpus));
	assert_false(d.exact);
	assert_null(d.campaign);
	assert_null(d.kernel_name);
	/* Encoded again, the count that fits no integer is null. */
	again = run_boot_json(&d);
	assert_true(json_is_null(json_object_get(again, "boot")));
	assert_null(json_object_get(again, "guest_argv"));
	json_decref(again);
	run_boot_release(&d);
	json_decref(env);
}

/* A config of the wrong shapes (an imported file's): every field unknown,
 * never a crash. */
static void test_hostile_config(void **state)
{
	struct run_settings s;

	(void)state;
	decode(json_pack("{s:s, s:i, s:[s], s:{}, s:[i], s:s, s:s, s:[i], s:[i, s]}",
			 "cpu", "one", "problems", 3, "arms", "x", "offsets",
			 "cpu_time", 7, "trace", "yes", "mode", "idle",
			 "idle_threads", -4, "command", 1, "sh"), &s);
	assert_true(isnan(s.hotplug.cpu));
	assert_int_equal(s.hotplug.trace, -1);
	assert_false(s.doctor.problems_known);
	assert_false(s.timens.offsets_known);
	assert_int_equal(s.scale.ncpu_time, 1);
	assert_null(s.scale.cpu_time[0].user_s);
	assert_true(s.scale.idle);
	assert_false(s.scale.threads.whole);
	assert_false(s.exec.command.whole);
	assert_int_equal(s.exec.command.n, 1);
	assert_false(s.accounting_known);
	run_settings_release(&s);
	run_settings_decode(NULL, &s);
	assert_true(isnan(s.ab.cpu) && !s.ab.condition && !s.ab.arms.n);
	run_settings_release(&s);
}

/* A count decoded from anywhere is encoded again only as an integer that
 * fits: 1e300 or -1e19 is null, never an undefined conversion. */
static void test_counts_out_of_range(void **state)
{
	struct run_settings s;
	json_t *config = json_pack("{s:{s:f, s:f, s:f}, s:{}}", "method", "rounds", 1e300,
				   "min_samples", -1e19, "max_samples", 4096.0,
				   "harness_overhead");
	json_t *again;

	(void)state;
	run_settings_decode(config, &s);
	again = bench_settings_json(&s.bench);
	run_settings_release(&s);
	json_decref(config);
	assert_true(json_is_null(json_object_get(json_object_get(again, "method"), "rounds")));
	assert_true(json_is_null(json_object_get(json_object_get(again, "method"),
						 "min_samples")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(again, "method"),
							    "max_samples")), 4096);
	json_decref(again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_doctor),
		cmocka_unit_test(test_ab),
		cmocka_unit_test(test_timens),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_scale_threads),
		cmocka_unit_test(test_scale_idle),
		cmocka_unit_test(test_boot),
		cmocka_unit_test(test_hostile_config),
		cmocka_unit_test(test_counts_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
