// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor's reasoning with synthetic facts, including machines this one is
 * not (a Xen or HPET clocksource, a static binary, an interposer, a kernel
 * without the vDSO getrandom), then the probe on this machine's calls whose
 * verdict does not depend on the clocksource.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/syscall.h>

#include "doctor/doctor.h"
#include "probe/timesys.h"
#include "basic/util.h"

static struct cell make_cell(enum api api, const char *clock, enum path path)
{
	struct cell c;

	memset(&c, 0, sizeof(c));
	c.api = api;
	c.path = path;
	c.status = CELL_OK;
	c.clock = clock ? catalog_clock_by_name(clock) : NULL;
	snprintf(c.name, sizeof(c.name), "%s%s%s", catalog_apis[api].label,
		 clock ? "-" : "", clock ? clock : "");
	return c;
}

/* A healthy machine: tsc, a full vDSO, glibc 2.36, dynamic, root time ns. */
static struct doctor_facts healthy_facts(void)
{
	struct doctor_facts f;

	memset(&f, 0, sizeof(f));
	snprintf(f.machine, sizeof(f.machine), "x86_64");
	snprintf(f.clocksource, sizeof(f.clocksource), "tsc");
	snprintf(f.clocksources, sizeof(f.clocksources), "tsc hpet acpi_pm");
	f.have_vdso = true;
	snprintf(f.vdso_version, sizeof(f.vdso_version), "LINUX_2.6");
	for (int api = 0; api < API_COUNT; api++)
		f.vdso_exports[api] = api != API_TIMES && api != API_GETRUSAGE;
	snprintf(f.libc_name, sizeof(f.libc_name), "glibc");
	snprintf(f.libc_version, sizeof(f.libc_version), "2.36");
	return f;
}

static enum doctor_cause attribute(const struct cell *c, enum doctor_verdict vdso_v,
				   const struct doctor_facts *f)
{
	return doctor_attribute(c, VERDICT_KERNEL, vdso_v, f);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static void test_userspace_has_no_cause(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_LIBC);

	assert_int_equal(doctor_attribute(&c, VERDICT_USERSPACE, VERDICT_USERSPACE, &f),
			 CAUSE_NONE);
	assert_int_equal(doctor_attribute(&c, VERDICT_UNSUPPORTED, VERDICT_UNKNOWN, &f),
			 CAUSE_NONE);
	assert_int_equal(doctor_severity(&c, VERDICT_USERSPACE, CAUSE_NONE),
			 SEVERITY_NONE);
}

static void test_syscall_path_is_kernel_by_design(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_SYSCALL);

	assert_int_equal(attribute(&c, VERDICT_USERSPACE, &f), CAUSE_SYSCALL_PATH);
	assert_int_equal(doctor_severity(&c, VERDICT_KERNEL, CAUSE_SYSCALL_PATH),
			 SEVERITY_NONE);
}

static void test_cputime_has_no_vdso_path(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell t = make_cell(API_CLOCK_GETRES, "thread-cputime", PATH_VDSO);
	struct doctor_equivalent eq;
	char buf[512];

	for (enum path p = PATH_VDSO; p <= PATH_LIBC; p++) {
		struct cell c = make_cell(API_CLOCK_GETTIME, "process-cputime", p);

		assert_int_equal(attribute(&c, VERDICT_KERNEL, &f), CAUSE_NO_VDSO_PATH);
		assert_int_equal(doctor_severity(&c, VERDICT_KERNEL, CAUSE_NO_VDSO_PATH),
				 SEVERITY_FINDING);
		assert_false(doctor_equivalent(&c, CAUSE_NO_VDSO_PATH, &eq));
		doctor_evidence(buf, sizeof(buf), CAUSE_NO_VDSO_PATH, &c, &f);
		assert_contains(buf, "CLOCK_PROCESS_CPUTIME_ID");
		doctor_advice(buf, sizeof(buf), CAUSE_NO_VDSO_PATH, &c, &f);
		assert_contains(buf, "less often");
	}
	/* Even a broken clocksource does not change it: no vDSO path at all. */
	snprintf(f.clocksource, sizeof(f.clocksource), "xen");
	assert_int_equal(attribute(&t, VERDICT_KERNEL, &f), CAUSE_NO_VDSO_PATH);
}

static void test_times_getrusage_and_alarm(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell times = make_cell(API_TIMES, NULL, PATH_LIBC);
	struct cell ru = make_cell(API_GETRUSAGE, NULL, PATH_LIBC);
	struct cell alarm = make_cell(API_CLOCK_GETTIME, "boottime-alarm", PATH_LIBC);
	struct doctor_equivalent eq;
	char buf[512];

	assert_int_equal(attribute(&times, VERDICT_UNSUPPORTED, &f), CAUSE_NO_VDSO_PATH);
	assert_int_equal(attribute(&ru, VERDICT_UNSUPPORTED, &f), CAUSE_NO_VDSO_PATH);
	doctor_evidence(buf, sizeof(buf), CAUSE_NO_VDSO_PATH, &times, &f);
	assert_contains(buf, "no vDSO implements times()");

	/* An alarm clock reads the time of its base clock, which the vDSO serves. */
	assert_int_equal(attribute(&alarm, VERDICT_KERNEL, &f), CAUSE_NO_VDSO_PATH);
	assert_true(doctor_equivalent(&alarm, CAUSE_NO_VDSO_PATH, &eq));
	assert_int_equal(eq.clock->id, CLOCK_BOOTTIME);
	assert_int_equal(eq.path, PATH_LIBC);
	doctor_advice(buf, sizeof(buf), CAUSE_NO_VDSO_PATH, &alarm, &f);
	assert_contains(buf, "CLOCK_BOOTTIME");
}

static void test_xen_clocksource(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell vdso = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_VDSO);
	struct cell libc = make_cell(API_CLOCK_GETTIME, "realtime", PATH_LIBC);
	struct cell tod = make_cell(API_GETTIMEOFDAY, NULL, PATH_LIBC);
	struct doctor_equivalent eq;
	char buf[1024];

	snprintf(f.clocksource, sizeof(f.clocksource), "xen");
	snprintf(f.clocksources, sizeof(f.clocksources), "xen tsc hpet acpi_pm");
	snprintf(f.tsc_hint, sizeof(f.tsc_hint), "kernel log: 'tsc: Marking TSC unstable'");

	assert_int_equal(attribute(&vdso, VERDICT_KERNEL, &f), CAUSE_CLOCKSOURCE);
	assert_int_equal(attribute(&libc, VERDICT_KERNEL, &f), CAUSE_CLOCKSOURCE);
	assert_int_equal(attribute(&tod, VERDICT_KERNEL, &f), CAUSE_CLOCKSOURCE);
	assert_int_equal(doctor_severity(&libc, VERDICT_KERNEL, CAUSE_CLOCKSOURCE),
			 SEVERITY_PROBLEM);

	doctor_evidence(buf, sizeof(buf), CAUSE_CLOCKSOURCE, &libc, &f);
	assert_contains(buf, "'xen'");
	assert_contains(buf, "available: xen tsc hpet acpi_pm");
	assert_contains(buf, "Marking TSC unstable");
	doctor_advice(buf, sizeof(buf), CAUSE_CLOCKSOURCE, &libc, &f);
	assert_contains(buf, "clocksource=tsc");
	assert_contains(buf, "CLOCK_MONOTONIC_COARSE");

	/* The userspace equivalent: the coarse clock of the same kind. */
	assert_true(doctor_equivalent(&vdso, CAUSE_CLOCKSOURCE, &eq));
	assert_int_equal(eq.clock->id, CLOCK_MONOTONIC_COARSE);
	assert_int_equal(eq.path, PATH_VDSO);
	assert_true(doctor_equivalent(&libc, CAUSE_CLOCKSOURCE, &eq));
	assert_int_equal(eq.clock->id, CLOCK_REALTIME_COARSE);
	assert_true(doctor_equivalent(&tod, CAUSE_CLOCKSOURCE, &eq));
	assert_int_equal(eq.api, API_CLOCK_GETTIME);
	assert_int_equal(eq.clock->id, CLOCK_REALTIME_COARSE);
}

static void test_clocksource_needs_the_vdso_to_fall_back(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell libc = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_LIBC);
	struct cell coarse = make_cell(API_CLOCK_GETTIME, "monotonic-coarse", PATH_VDSO);

	snprintf(f.clocksource, sizeof(f.clocksource), "hpet");
	/* The vDSO served it: libc is to blame, not the clocksource. */
	assert_int_equal(attribute(&libc, VERDICT_USERSPACE, &f), CAUSE_LIBC_NO_VDSO);
	assert_int_equal(attribute(&libc, VERDICT_KERNEL, &f), CAUSE_CLOCKSOURCE);
	/* Coarse clocks never read the clocksource. */
	assert_int_equal(attribute(&coarse, VERDICT_KERNEL, &f), CAUSE_UNEXPLAINED);
	/* A capable clocksource does not explain a fallback. */
	snprintf(f.clocksource, sizeof(f.clocksource), "tsc");
	assert_int_equal(attribute(&libc, VERDICT_KERNEL, &f), CAUSE_UNEXPLAINED);
}

static void test_getrandom_and_old_glibc(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_GETRANDOM, NULL, PATH_LIBC);
	struct doctor_equivalent eq;
	char buf[512];

	assert_int_equal(attribute(&c, VERDICT_USERSPACE, &f), CAUSE_LIBC_NO_VDSO);
	/* Known without the vDSO's verdict: glibc before 2.41. */
	assert_int_equal(attribute(&c, VERDICT_UNKNOWN, &f), CAUSE_LIBC_NO_VDSO);
	assert_int_equal(doctor_severity(&c, VERDICT_KERNEL, CAUSE_LIBC_NO_VDSO),
			 SEVERITY_FINDING);
	doctor_evidence(buf, sizeof(buf), CAUSE_LIBC_NO_VDSO, &c, &f);
	assert_contains(buf, "glibc 2.36");
	assert_contains(buf, "2.41");
	doctor_advice(buf, sizeof(buf), CAUSE_LIBC_NO_VDSO, &c, &f);
	assert_contains(buf, "glibc 2.41");
	assert_true(doctor_equivalent(&c, CAUSE_LIBC_NO_VDSO, &eq));
	assert_int_equal(eq.path, PATH_VDSO);

	/* An interposer (a sanitizer's interceptor) does not hide the libc cause. */
	snprintf(f.interposer[API_GETRANDOM], sizeof(f.interposer[0]), "libasan.so.8");
	assert_int_equal(attribute(&c, VERDICT_USERSPACE, &f), CAUSE_LIBC_NO_VDSO);

	snprintf(f.libc_version, sizeof(f.libc_version), "2.41");
	assert_int_equal(attribute(&c, VERDICT_USERSPACE, &f), CAUSE_INTERPOSED);
	f.interposer[API_GETRANDOM][0] = '\0';
	assert_int_equal(attribute(&c, VERDICT_UNKNOWN, &f), CAUSE_UNEXPLAINED);
}

static void test_vdso_missing_or_absent(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_GETRANDOM, NULL, PATH_LIBC);
	char buf[512];

	f.vdso_exports[API_GETRANDOM] = false;
	assert_int_equal(attribute(&c, VERDICT_UNSUPPORTED, &f), CAUSE_VDSO_MISSING);
	doctor_evidence(buf, sizeof(buf), CAUSE_VDSO_MISSING, &c, &f);
	assert_contains(buf, "does not export");
	doctor_advice(buf, sizeof(buf), CAUSE_VDSO_MISSING, &c, &f);
	assert_contains(buf, "6.11");

	f.have_vdso = false;
	snprintf(f.vdso_error, sizeof(f.vdso_error), "no AT_SYSINFO_EHDR");
	assert_int_equal(attribute(&c, VERDICT_UNSUPPORTED, &f), CAUSE_NO_VDSO);
	doctor_evidence(buf, sizeof(buf), CAUSE_NO_VDSO, &c, &f);
	assert_contains(buf, "no AT_SYSINFO_EHDR");
}

static void test_interposed_symbol(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell libc = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_LIBC);
	struct cell vdso = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_VDSO);
	char buf[512];

	snprintf(f.interposer[API_CLOCK_GETTIME], sizeof(f.interposer[0]),
		 "/tmp/preload.so");
	assert_int_equal(attribute(&libc, VERDICT_USERSPACE, &f), CAUSE_INTERPOSED);
	assert_int_equal(doctor_severity(&libc, VERDICT_KERNEL, CAUSE_INTERPOSED),
			 SEVERITY_PROBLEM);
	doctor_evidence(buf, sizeof(buf), CAUSE_INTERPOSED, &libc, &f);
	assert_contains(buf, "/tmp/preload.so");
	doctor_advice(buf, sizeof(buf), CAUSE_INTERPOSED, &libc, &f);
	assert_contains(buf, "RTLD_NEXT");
	/* The vDSO path calls the symbol directly: no interposer there. */
	assert_int_equal(attribute(&vdso, VERDICT_KERNEL, &f), CAUSE_UNEXPLAINED);
}

static void test_static_binary(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_LIBC);
	char buf[512];

	f.static_binary = true;
	assert_int_equal(attribute(&c, VERDICT_USERSPACE, &f), CAUSE_STATIC);
	doctor_evidence(buf, sizeof(buf), CAUSE_STATIC, &c, &f);
	assert_contains(buf, "statically linked");
	doctor_advice(buf, sizeof(buf), CAUSE_STATIC, &c, &f);
	assert_contains(buf, "link dynamically");
}

static void test_time_namespace_is_a_note(void **state)
{
	struct doctor_facts f = healthy_facts();
	struct cell c = make_cell(API_CLOCK_GETTIME, "monotonic", PATH_VDSO);
	char buf[512];

	f.in_timens = true;
	assert_int_equal(doctor_severity(&c, VERDICT_USERSPACE, CAUSE_TIMENS),
			 SEVERITY_NOTE);
	doctor_evidence(buf, sizeof(buf), CAUSE_TIMENS, &c, &f);
	assert_contains(buf, "time namespace");
	assert_contains(buf, "without a system call");
}

static void test_what_must_be_userspace(void **state)
{
	static const struct {
		enum api api;
		const char *clock;
		enum path path;
		bool must;
	} cases[] = {
		{ API_CLOCK_GETTIME, "monotonic", PATH_LIBC, true },
		{ API_CLOCK_GETTIME, "realtime-coarse", PATH_VDSO, true },
		{ API_CLOCK_GETTIME, "tai", PATH_LIBC, true },
		{ API_CLOCK_GETTIME, "monotonic", PATH_SYSCALL, false },
		{ API_CLOCK_GETTIME, "process-cputime", PATH_LIBC, false },
		{ API_CLOCK_GETTIME, "realtime-alarm", PATH_LIBC, false },
		{ API_CLOCK_GETRES, "monotonic", PATH_LIBC, false },
		{ API_GETTIMEOFDAY, NULL, PATH_LIBC, true },
		{ API_TIME, NULL, PATH_VDSO, true },
		{ API_GETRANDOM, NULL, PATH_LIBC, false },
		{ API_TIMES, NULL, PATH_LIBC, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cell c = make_cell(cases[i].api, cases[i].clock, cases[i].path);

		if (doctor_must_be_userspace(&c) != cases[i].must)
			fail_msg("%s %s: expected %d", c.name, catalog_paths[c.path],
				 cases[i].must);
	}
}

static void test_clocksource_capabilities(void **state)
{
	const char *how;

	assert_int_equal(doctor_clocksource_vdso("tsc", &how), CS_VDSO_YES);
	assert_non_null(how);
	assert_int_equal(doctor_clocksource_vdso("kvm-clock", NULL), CS_VDSO_CONDITIONAL);
	assert_int_equal(doctor_clocksource_vdso("xen", NULL), CS_VDSO_CONDITIONAL);
	assert_int_equal(doctor_clocksource_vdso("hyperv_clocksource_tsc_page", NULL),
			 CS_VDSO_YES);
	assert_int_equal(doctor_clocksource_vdso("hyperv_clocksource_msr", NULL),
			 CS_VDSO_NO);
	assert_int_equal(doctor_clocksource_vdso("hpet", NULL), CS_VDSO_NO);
	assert_int_equal(doctor_clocksource_vdso("acpi_pm", NULL), CS_VDSO_NO);
	assert_int_equal(doctor_clocksource_vdso("jiffies", NULL), CS_VDSO_NO);
	assert_int_equal(doctor_clocksource_vdso("arch_sys_counter", NULL),
			 CS_VDSO_CONDITIONAL);
	assert_int_equal(doctor_clocksource_vdso("timebase", NULL), CS_VDSO_YES);
	assert_int_equal(doctor_clocksource_vdso("riscv_clocksource", NULL), CS_VDSO_YES);
	assert_int_equal(doctor_clocksource_vdso("", &how), CS_VDSO_UNKNOWN);
	assert_null(how);
	assert_int_equal(doctor_clocksource_vdso("tsc-early", NULL), CS_VDSO_UNKNOWN);
}

static void test_glibc_versions(void **state)
{
	assert_true(doctor_glibc_older("glibc", "2.36", 2, 41));
	assert_true(doctor_glibc_older("glibc", "2.9", 2, 41));
	assert_true(doctor_glibc_older("glibc", "1.99", 2, 41));
	assert_false(doctor_glibc_older("glibc", "2.41", 2, 41));
	assert_false(doctor_glibc_older("glibc", "2.100", 2, 41));
	assert_false(doctor_glibc_older("glibc", "3.0", 2, 41));
	assert_false(doctor_glibc_older("musl", "1.2", 2, 41));
	assert_false(doctor_glibc_older("glibc", "", 2, 41));
	assert_false(doctor_glibc_older("glibc", NULL, 2, 41));
}

static void test_tsc_hint(void **state)
{
	const char *kmsg = "6,15,3,-;clocksource: kvm-clock: mask: 0xffffffffffffffff\n"
			   "6,86,80246,-;tsc: Marking TSC unstable due to clocksource watchdog\n"
			   "6,229,296924,-;clocksource: Switched to clocksource hpet\n";
	const char *dmesg = "[    0.5] clocksource: timekeeping watchdog on CPU1: Marking "
			    "clocksource 'tsc' as unstable because the skew is too large\n";
	char buf[384];

	doctor_tsc_hint(buf, sizeof(buf), kmsg, "quiet", "tsc hpet", "x86_64");
	assert_string_equal(buf, "kernel log: 'tsc: Marking TSC unstable due to "
			    "clocksource watchdog'");
	doctor_tsc_hint(buf, sizeof(buf), dmesg, "", "hpet acpi_pm", "x86_64");
	assert_contains(buf, "kernel log: '[    0.5] clocksource: timekeeping watchdog");
	assert_contains(buf, "tsc is not among the available clocksources");
	doctor_tsc_hint(buf, sizeof(buf), "", "quiet tsc=unstable", "kvm-clock tsc",
			"x86_64");
	assert_string_equal(buf, "kernel command line: tsc=unstable");
	doctor_tsc_hint(buf, sizeof(buf), "", "tsc=unstablex", "kvm-clock tsc", "x86_64");
	assert_string_equal(buf, "");
	doctor_tsc_hint(buf, sizeof(buf), NULL, "", "tsc", "x86_64");
	assert_contains(buf, "kernel log not readable");
	/* Not x86: no TSC to talk about. */
	doctor_tsc_hint(buf, sizeof(buf), NULL, "", "arch_sys_counter", "aarch64");
	assert_string_equal(buf, "");
}

static void test_static_line_parser(void **state)
{
	struct doctor_static_result r;

	assert_true(doctor_parse_static_line("clock-gettime-monotonic userspace 26.10 -", &r));
	assert_string_equal(r.name, "clock-gettime-monotonic");
	assert_int_equal(r.verdict, VERDICT_USERSPACE);
	assert_true(r.ns > 26.0 && r.ns < 26.2);
	assert_true(doctor_parse_static_line("gettimeofday kernel 1300.5 gettimeofday", &r));
	assert_int_equal(r.verdict, VERDICT_KERNEL);
	assert_string_equal(r.syscalls, "gettimeofday");
	assert_false(doctor_parse_static_line("libc glibc 2.36", &r));
	assert_false(doctor_parse_static_line("vdso yes", &r));
	assert_false(doctor_parse_static_line("time bogus 3.0 -", &r));
	assert_false(doctor_parse_static_line("", &r));
}

static bool contains_nr(const long *nrs, size_t n, long nr)
{
	for (size_t i = 0; i < n; i++) {
		if (nrs[i] == nr)
			return true;
	}
	return false;
}

static void test_time_syscall_sets(void **state)
{
	long nrs[16];
	size_t n;

	n = timesys_for_api(API_CLOCK_GETTIME, nrs, ARRAY_SIZE(nrs));
	assert_true(contains_nr(nrs, n, SYS_clock_gettime));
	assert_false(contains_nr(nrs, n, SYS_write));
	assert_false(contains_nr(nrs, n, SYS_exit_group));
	n = timesys_for_api(API_TIME, nrs, ARRAY_SIZE(nrs));
	assert_true(contains_nr(nrs, n, SYS_clock_gettime));
#ifdef SYS_time
	assert_true(contains_nr(nrs, n, SYS_time));
#endif
	n = timesys_for_api(API_GETRANDOM, nrs, ARRAY_SIZE(nrs));
	assert_int_equal(n, 1);
	assert_int_equal(nrs[0], SYS_getrandom);
	/* The room given is respected. */
	assert_int_equal(timesys_for_api(API_TIME, nrs, 1), 1);
	assert_string_equal(timesys_name(SYS_getrandom), "getrandom");
	assert_null(timesys_name(SYS_write));
}

/* ---- the probe on this machine -------------------------------------- */

static const struct cell *find_cell(const struct catalog *cat, const char *name,
				    enum path path)
{
	for (size_t i = 0; i < cat->ncells; i++) {
		if (streq(cat->cells[i].name, name) && cat->cells[i].path == path)
			return &cat->cells[i];
	}
	return NULL;
}

static void test_probe_real_calls(void **state)
{
	struct catalog_filter filter;
	struct catalog cat;
	struct doctor_probe p;

	catalog_filter_all(&filter);
	catalog_build(&cat, &filter);

	/* Coarse clocks never read the clocksource: userspace anywhere. */
	doctor_probe_cell(find_cell(&cat, "clock-gettime-monotonic-coarse", PATH_VDSO), &p);
	assert_int_equal(p.verdict, VERDICT_USERSPACE);
	assert_int_equal(p.entries, 0);
	assert_int_equal(p.calls, DOCTOR_PROBE_CALLS);

	doctor_probe_cell(find_cell(&cat, "clock-gettime-monotonic", PATH_SYSCALL), &p);
	assert_int_equal(p.verdict, VERDICT_KERNEL);
	assert_int_equal(p.entries, DOCTOR_PROBE_CALLS);
	assert_string_equal(p.syscalls, "clock_gettime");

	doctor_probe_cell(find_cell(&cat, "clock-gettime-process-cputime", PATH_LIBC), &p);
	assert_int_equal(p.verdict, VERDICT_KERNEL);

	doctor_probe_cell(find_cell(&cat, "times", PATH_VDSO), &p);
	assert_int_equal(p.verdict, VERDICT_UNSUPPORTED);
	assert_contains(p.error, "no times()");
	catalog_free(&cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_userspace_has_no_cause),
		cmocka_unit_test(test_syscall_path_is_kernel_by_design),
		cmocka_unit_test(test_cputime_has_no_vdso_path),
		cmocka_unit_test(test_times_getrusage_and_alarm),
		cmocka_unit_test(test_xen_clocksource),
		cmocka_unit_test(test_clocksource_needs_the_vdso_to_fall_back),
		cmocka_unit_test(test_getrandom_and_old_glibc),
		cmocka_unit_test(test_vdso_missing_or_absent),
		cmocka_unit_test(test_interposed_symbol),
		cmocka_unit_test(test_static_binary),
		cmocka_unit_test(test_time_namespace_is_a_note),
		cmocka_unit_test(test_what_must_be_userspace),
		cmocka_unit_test(test_clocksource_capabilities),
		cmocka_unit_test(test_glibc_versions),
		cmocka_unit_test(test_tsc_hint),
		cmocka_unit_test(test_static_line_parser),
		cmocka_unit_test(test_time_syscall_sets),
		cmocka_unit_test(test_probe_real_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
