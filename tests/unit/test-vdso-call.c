// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdso_clock_call: a vDSO clock function's error comes back as -errno on
 * every architecture. On powerpc the fakes below follow the powerpc vDSO's
 * convention (CR0.SO set, the positive errno in r3) and run under qemu in
 * CI; elsewhere they follow the generic vDSO's (-errno).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <time.h>

#include "probe/vdso-call.h"

#if defined(__powerpc__)
/* The errno in r3; CR0 set from r0's top nibble: SO alone, or nothing. */
#define FAKE(name, err, cr0)						\
	__asm__(".text\n\t.globl " #name "\n\t.type " #name ", @function\n" \
		#name ":\n\t"						\
		"li 3, " #err "\n\t"					\
		"lis 0, " #cr0 "\n\t"					\
		"mtcrf 0x80, 0\n\t"					\
		"blr\n\t"						\
		".size " #name ", .-" #name "\n");
FAKE(fake_einval, 22, 0x1000)
FAKE(fake_success, 0, 0)
/* A success whose r3 happens to be 22, with SO clear: not an error. */
FAKE(fake_returns_22, 22, 0)
int fake_einval(clockid_t id, struct timespec *ts);
int fake_success(clockid_t id, struct timespec *ts);
int fake_returns_22(clockid_t id, struct timespec *ts);
#else
static int fake_einval(clockid_t id, struct timespec *ts)
{
	(void)id;
	(void)ts;
	return -EINVAL;
}

static int fake_success(clockid_t id, struct timespec *ts)
{
	(void)id;
	ts->tv_sec = 1;
	return 0;
}

static int fake_returns_22(clockid_t id, struct timespec *ts)
{
	(void)id;
	(void)ts;
	return 22;
}
#endif

static void test_error_is_minus_errno(void **state)
{
	struct timespec ts;

	(void)state;
	assert_int_equal(vdso_clock_call((const void *)fake_einval, -1, &ts), -EINVAL);
}

static void test_success_is_zero(void **state)
{
	struct timespec ts;

	(void)state;
	memset(&ts, 0, sizeof(ts));
	assert_int_equal(vdso_clock_call((const void *)fake_success, CLOCK_MONOTONIC, &ts), 0);
}

static void test_positive_result_is_kept(void **state)
{
	struct timespec ts;

	(void)state;
	assert_int_equal(vdso_clock_call((const void *)fake_returns_22, CLOCK_MONOTONIC, &ts), 22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_is_minus_errno),
		cmocka_unit_test(test_success_is_zero),
		cmocka_unit_test(test_positive_result_is_kept),
	};

	return cmocka_run_group_tests_name("vdso-call", tests, NULL, NULL);
}
