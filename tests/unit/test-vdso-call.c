// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdso_clock_call: a vDSO clock function's error comes back as -errno on
 * every architecture. On powerpc the fakes below follow the powerpc vDSO's
 * convention (CR0.SO set, the positive errno in r3) and run under qemu in
 * CI; elsewhere they follow the generic vDSO's (-errno). On ppc64le the
 * real vDSO of tests/data runs too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "probe/vdso-call.h"
#include "probe/vdso.h"

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

#if defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The real ppc64le vDSO, Debian's 6.1 configuration (tests/data/README.md),
 * run: mapped after two zeroed 64K pages, where its linker script puts the
 * data page (_vdso_datapage = . - 2 * PAGE_SIZE). Its C code sends a clock
 * id past MAX_CLOCKS and the CPU-time clocks to its own syscall fallback,
 * and returns the syscall's error with CR0.SO set; the clocks it serves
 * itself it computes from the zeroed page.
 */
#define PAGE_64K 65536UL		/* the configuration's CONFIG_PPC_64K_PAGES */
#define DATA_PAGES_SIZE (2 * PAGE_64K)
#define BAD_CLOCK 100

struct real_vdso {
	unsigned char *map;
	size_t span;
	const void *gettime, *getres;
};

static int map_real_vdso(void **state)
{
	static struct real_vdso r;	/* one test at a time */
	const char *dir = getenv("CLOCKBENCH_TEST_DATA");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char path[4096];
	struct vdso_image img;
	unsigned char *text;
	size_t len = 0;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/vdso-ppc64el.so", dir ? dir : "tests/data");
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0) {
		fprintf(stderr, "cannot read %s\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	rewind(f);
	r.span = DATA_PAGES_SIZE + (((size_t)n + PAGE_64K - 1) & ~(PAGE_64K - 1));
	r.map = mmap(NULL, r.span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.map != MAP_FAILED)
		len = fread(r.map + DATA_PAGES_SIZE, 1, (size_t)n, f);
	fclose(f);
	if (r.map == MAP_FAILED)
		return -1;
	text = r.map + DATA_PAGES_SIZE;
	__builtin___clear_cache((char *)text, (char *)text + len);
	if (len != (size_t)n || mprotect(text, r.span - DATA_PAGES_SIZE, PROT_READ | PROT_EXEC) ||
	    vdso_parse(&img, text, len, &err)) {
		fprintf(stderr, "%s: cannot map it: %s\n", path, err.buf);
		munmap(r.map, r.span);
		return -1;
	}
	r.gettime = vdso_lookup(&img, "__kernel_clock_gettime", "LINUX_2.6.15");
	r.getres = vdso_lookup(&img, "__kernel_clock_getres", "LINUX_2.6.15");
	*state = &r;
	return r.gettime && r.getres ? 0 : -1;
}

static int unmap_real_vdso(void **state)
{
	struct real_vdso *r = *state;

	return munmap(r->map, r->span);
}

/* What the convention hides from a plain C call: +EINVAL, like a success. */
static void test_real_vdso_error_is_positive_to_c(void **state)
{
	const struct real_vdso *r = *state;
	struct timespec ts;

	assert_int_equal(((int (*)(clockid_t, struct timespec *))r->gettime)(BAD_CLOCK, &ts),
			 EINVAL);
}

static void test_real_vdso_errors_are_minus_errno(void **state)
{
	const struct real_vdso *r = *state;
	struct timespec ts;

	assert_int_equal(vdso_clock_call(r->gettime, BAD_CLOCK, &ts), -EINVAL);
	assert_int_equal(vdso_clock_call(r->getres, BAD_CLOCK, &ts), -EINVAL);
	assert_int_equal(vdso_clock_call(r->gettime, -1, &ts), -EINVAL);
}

static bool ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

/* The fallback's success: SO clear, the kernel's time. */
static void test_real_vdso_fallback_succeeds(void **state)
{
	const struct real_vdso *r = *state;
	struct timespec before, ts, after;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &before);
	assert_int_equal(vdso_clock_call(r->gettime, CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &after);
	assert_true(ts_le(&before, &ts) && ts_le(&ts, &after));
}

/* Served from the data page: zero time, zero hrtimer resolution, and the
 * coarse clocks' tick of the configuration (CONFIG_HZ=250). */
static void test_real_vdso_reads_its_data_page(void **state)
{
	const struct real_vdso *r = *state;
	struct timespec ts;

	memset(&ts, 0x5a, sizeof(ts));
	assert_int_equal(vdso_clock_call(r->gettime, CLOCK_MONOTONIC, &ts), 0);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 0);
	memset(&ts, 0x5a, sizeof(ts));
	assert_int_equal(vdso_clock_call(r->getres, CLOCK_MONOTONIC, &ts), 0);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 0);
	assert_int_equal(vdso_clock_call(r->getres, CLOCK_MONOTONIC_COARSE, &ts), 0);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 1000000000 / 250);
}
#endif

#if defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define REAL_TEST(f) cmocka_unit_test_setup_teardown(f, map_real_vdso, unmap_real_vdso),
#define REAL_TESTS REAL_TEST(test_real_vdso_error_is_positive_to_c)	\
	REAL_TEST(test_real_vdso_errors_are_minus_errno)		\
	REAL_TEST(test_real_vdso_fallback_succeeds)			\
	REAL_TEST(test_real_vdso_reads_its_data_page)
#else
#define REAL_TESTS
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_is_minus_errno),
		cmocka_unit_test(test_success_is_zero),
		cmocka_unit_test(test_positive_result_is_kept),
		REAL_TESTS
	};

	return cmocka_run_group_tests_name("vdso-call", tests, NULL, NULL);
}
