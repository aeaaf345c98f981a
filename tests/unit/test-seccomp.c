// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seccomp probe: trapped calls are counted exactly, everything else runs
 * (the child can write to a pipe and exit), the warm-up runs before the
 * filter, and a child that dies or hangs is reported, not trusted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/seccomp.h"

static int call_getppid_three_times(void *ctx)
{
	long ret = 0;

	(void)ctx;
	for (int i = 0; i < 3; i++)
		ret = syscall(SYS_getppid);
	/* Report how the last trapped call failed. */
	return ret < 0 ? errno : 0;
}

static int call_getuid_twice(void *ctx)
{
	(void)ctx;
	syscall(SYS_getuid);
	syscall(SYS_getuid);
	return 0;
}

static int write_to_pipe(void *ctx)
{
	int fd = *(int *)ctx;

	return write(fd, "ok", 2) == 2 ? 7 : -1;
}

static int do_nothing(void *ctx)
{
	(void)ctx;
	return 0;
}

/* SIGKILL: no sanitizer runtime can turn it into an exit status. */
static int crash(void *ctx)
{
	(void)ctx;
	raise(SIGKILL);
	return 0;
}

static int hang(void *ctx)
{
	(void)ctx;
	for (;;)
		pause();
	return 0;
}

static void test_trapped_calls_are_counted(void **state)
{
	long nrs[] = { SYS_getppid };
	struct seccomp_probe p = { nrs, 1, NULL, call_getppid_three_times, NULL, 0 };
	struct seccomp_report r;

	if (!seccomp_probe_supported())
		skip();
	assert_int_equal(seccomp_probe_run(&p, &r), 0);
	assert_int_equal(r.hits[0], 3);
	assert_int_equal(r.total, 3);
	assert_int_equal(r.foreign, 0);
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || defined(__arm__)
	/* The trapped call was not executed: it failed with EPERM. */
	assert_int_equal(r.fn_status, EPERM);
#endif
}

static void test_only_listed_calls_are_counted(void **state)
{
	long nrs[] = { SYS_getppid, SYS_getuid };
	struct seccomp_probe p = { nrs, 2, NULL, call_getuid_twice, NULL, 0 };
	struct seccomp_report r;

	if (!seccomp_probe_supported())
		skip();
	assert_int_equal(seccomp_probe_run(&p, &r), 0);
	assert_int_equal(r.hits[0], 0);
	assert_int_equal(r.hits[1], 2);
	assert_int_equal(r.total, 2);
}

static void test_other_calls_run_and_report_back(void **state)
{
	long nrs[] = { SYS_getppid };
	int fds[2];
	struct seccomp_probe p = { nrs, 1, NULL, write_to_pipe, &fds[1], 0 };
	struct seccomp_report r;
	char buf[4] = "";

	if (!seccomp_probe_supported())
		skip();
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(seccomp_probe_run(&p, &r), 0);
	assert_int_equal(r.total, 0);
	assert_int_equal(r.fn_status, 7);
	assert_int_equal(read(fds[0], buf, sizeof(buf) - 1), 2);
	assert_string_equal(buf, "ok");
	close(fds[0]);
	close(fds[1]);
}

static void test_prepare_runs_before_the_filter(void **state)
{
	long nrs[] = { SYS_getppid };
	struct seccomp_probe p = { nrs, 1, call_getppid_three_times, do_nothing, NULL, 0 };
	struct seccomp_report r;

	if (!seccomp_probe_supported())
		skip();
	assert_int_equal(seccomp_probe_run(&p, &r), 0);
	assert_int_equal(r.total, 0);
}

static void test_parent_is_not_filtered(void **state)
{
	long nrs[] = { SYS_getppid };
	struct seccomp_probe p = { nrs, 1, NULL, call_getppid_three_times, NULL, 0 };
	struct seccomp_report r;

	if (!seccomp_probe_supported())
		skip();
	assert_int_equal(seccomp_probe_run(&p, &r), 0);
	assert_true(syscall(SYS_getppid) > 0);
}

static void test_a_crashing_child_is_reported(void **state)
{
	long nrs[] = { SYS_getppid };
	struct seccomp_probe p = { nrs, 1, NULL, crash, NULL, 0 };
	struct seccomp_report r;

	assert_int_equal(seccomp_probe_run(&p, &r), -1);
	assert_non_null(strstr(r.error, "signal 9"));
}

static void test_a_hanging_child_times_out(void **state)
{
	long nrs[] = { SYS_getppid };
	struct seccomp_probe p = { nrs, 1, NULL, hang, NULL, 1 };
	struct seccomp_report r;

	assert_int_equal(seccomp_probe_run(&p, &r), -1);
	assert_non_null(strstr(r.error, "timed out after 1 s"));
}

static void test_bad_requests(void **state)
{
	long nrs[SECCOMP_PROBE_MAX + 1] = { 0 };
	struct seccomp_probe p = { nrs, SECCOMP_PROBE_MAX + 1, NULL, do_nothing, NULL, 0 };
	struct seccomp_report r;

	assert_int_equal(seccomp_probe_run(&p, &r), -1);
	assert_non_null(strstr(r.error, "bad probe"));
	p.nsyscalls = 1;
	p.fn = NULL;
	assert_int_equal(seccomp_probe_run(&p, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trapped_calls_are_counted),
		cmocka_unit_test(test_only_listed_calls_are_counted),
		cmocka_unit_test(test_other_calls_run_and_report_back),
		cmocka_unit_test(test_prepare_runs_before_the_filter),
		cmocka_unit_test(test_parent_is_not_filtered),
		cmocka_unit_test(test_a_crashing_child_is_reported),
		cmocka_unit_test(test_a_hanging_child_times_out),
		cmocka_unit_test(test_bad_requests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
