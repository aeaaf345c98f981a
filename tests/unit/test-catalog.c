// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/catalog.h"
#include "probe/timesys.h"
#include "probe/vdso.h"
#include "verify/verify.h"

static const struct cell *find_cell(const struct catalog *cat, const char *name,
				    enum path path)
{
	for (size_t i = 0; i < cat->ncells; i++)
		if (!strcmp(cat->cells[i].name, name) && cat->cells[i].path == path)
			return &cat->cells[i];
	return NULL;
}

static void test_names(void **state)
{
	assert_int_equal(catalog_api_by_name("clock_gettime"), API_CLOCK_GETTIME);
	assert_int_equal(catalog_api_by_name("clock-getres"), API_CLOCK_GETRES);
	assert_int_equal(catalog_api_by_name("GETRUSAGE"), API_GETRUSAGE);
	assert_int_equal(catalog_api_by_name("clock"), -1);
	assert_int_equal(catalog_path_by_name("vdso"), PATH_VDSO);
	assert_int_equal(catalog_path_by_name("kernel"), -1);

	assert_int_equal(catalog_clock_by_name("monotonic-coarse")->id,
			 CLOCK_MONOTONIC_COARSE);
	assert_int_equal(catalog_clock_by_name("CLOCK_MONOTONIC_COARSE")->id,
			 CLOCK_MONOTONIC_COARSE);
	assert_int_equal(catalog_clock_by_name("monotonic_raw")->id,
			 CLOCK_MONOTONIC_RAW);
	assert_int_equal(catalog_clock_by_name("11")->id, CLOCK_TAI);
	assert_null(catalog_clock_by_name("10"));	/* SGI_CYCLE: gone */
	assert_null(catalog_clock_by_name("12"));
	assert_null(catalog_clock_by_name("monotonic-"));
	assert_null(catalog_clock_by_name(""));
}

static void test_full_catalog(void **state)
{
	struct catalog_filter f;
	struct catalog cat;
	const struct cell *c;

	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	/* 11 clocks x 2 clock APIs + 6 other APIs, each on 3 paths; 32-bit
	 * builds add clock_gettime64 and clock_getres64 for the 11 clocks. */
	assert_int_equal(cat.ncells, (2 * 11 + 6 + (CATALOG_TIME64 ? 2 * 11 : 0)) * 3);
	assert_int_equal(catalog_api_by_name("clock_gettime64") >= 0, CATALOG_TIME64);

	c = find_cell(&cat, "clock-gettime-monotonic", PATH_LIBC);
	assert_non_null(c);
	assert_int_equal(c->status, CELL_OK);
	c = find_cell(&cat, "clock-getres-tai", PATH_SYSCALL);
	assert_non_null(c);
	assert_int_equal(c->status, CELL_OK);

	c = find_cell(&cat, "times", PATH_VDSO);
	assert_non_null(c);
	assert_int_equal(c->status, CELL_NA);
	assert_non_null(strstr(c->why, "no times()"));
	c = find_cell(&cat, "getrusage", PATH_VDSO);
	assert_int_equal(c->status, CELL_NA);
	c = find_cell(&cat, "getrusage", PATH_SYSCALL);
	assert_int_equal(c->status, CELL_OK);
	catalog_free(&cat);
}

/* The catalog must agree with the kernel about every clock id. */
static void test_unsupported_matches_kernel(void **state)
{
	struct catalog_filter f;
	struct catalog cat;

	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	for (size_t i = 0; i < cat.ncells; i++) {
		const struct cell *c = &cat.cells[i];
		struct timespec ts;
		long nr;
		int rc;

		if (!c->clock)
			continue;
		nr = c->api == API_CLOCK_GETRES ? SYS_clock_getres : SYS_clock_gettime;
		errno = 0;
		rc = (int)syscall(nr, c->clock->id, &ts);
		if (rc == 0) {
			assert_int_not_equal(c->status, CELL_UNSUPPORTED);
		} else {
			assert_int_equal(c->status, CELL_UNSUPPORTED);
			assert_int_equal(c->err, errno);
			assert_non_null(strstr(c->why, c->clock->macro));
			assert_non_null(strstr(c->why, errno_name(errno)));
		}
	}
	catalog_free(&cat);
}

static void test_every_runnable_cell_runs(void **state)
{
	struct catalog_filter f;
	struct catalog cat;

	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	for (size_t i = 0; i < cat.ncells; i++) {
		const struct cell *c = &cat.cells[i];

		if (c->status != CELL_OK)
			continue;
		assert_non_null(c->loop);
		c->loop(c, CELL_UNROLL);
		c->loop(c, 0);
	}
	catalog_free(&cat);
}

static void test_vdso_getrandom_state(void **state)
{
	struct catalog_filter f;
	struct catalog cat;
	const struct cell *c;

	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	c = find_cell(&cat, "getrandom", PATH_VDSO);
	assert_non_null(c);
	if (c->status != CELL_OK) {
		catalog_free(&cat);
		skip();
	}
	/* The state the kernel asked for is mapped, page-rounded. */
	assert_non_null(c->state);
	assert_true(c->state_len > 0);
	assert_true(c->state_map_len >= c->state_len);
	assert_int_equal(c->state_map_len % (size_t)sysconf(_SC_PAGESIZE), 0);
	catalog_free(&cat);
}

static void test_filter(void **state)
{
	struct catalog_filter f;
	struct catalog cat;

	memset(&f, 0, sizeof(f));
	f.api[API_CLOCK_GETTIME] = true;
	f.path[PATH_VDSO] = true;
	f.clock[CLOCK_MONOTONIC] = true;
	f.clock[CLOCK_REALTIME] = true;
	catalog_build(&cat, &f);
	assert_int_equal(cat.ncells, 2);
	assert_string_equal(cat.cells[0].name, "clock-gettime-realtime");
	assert_string_equal(cat.cells[1].name, "clock-gettime-monotonic");
	catalog_free(&cat);
}

static void test_without_vdso(void **state)
{
	struct catalog_filter f;
	struct catalog cat;
	const struct cell *c;

	setenv("CLOCKBENCH_NO_VDSO", "1", 1);
	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	unsetenv("CLOCKBENCH_NO_VDSO");
	assert_false(cat.have_vdso);
	c = find_cell(&cat, "clock-gettime-monotonic", PATH_VDSO);
	assert_int_equal(c->status, CELL_NA);
	assert_non_null(strstr(c->why, "no vDSO in this process"));
	assert_non_null(strstr(c->why, "CLOCKBENCH_NO_VDSO"));
	c = find_cell(&cat, "clock-gettime-monotonic", PATH_LIBC);
	assert_int_equal(c->status, CELL_OK);
	c = find_cell(&cat, "clock-gettime-monotonic", PATH_SYSCALL);
	assert_int_equal(c->status, CELL_OK);
	catalog_free(&cat);
}

/* ---- every API's answers, written out --------------------------------- */

/*
 * The vDSO entry point of each API on this build's architecture, as the
 * kernel's vdso.lds.S files name them and probe/vdso.c had them when the
 * catalogue became one table: NULL where the vDSO has none, or where
 * calling it would mix a 32-bit and a 64-bit time_t (the *64 names of a
 * 32-bit time_t build are APIs of their own). NULL for an architecture
 * not written out here: only the table's own checks apply there.
 */
static const char *const *expected_symbols(void)
{
#if defined(__x86_64__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime",
		[API_CLOCK_GETRES] = "__vdso_clock_getres",
		[API_GETTIMEOFDAY] = "__vdso_gettimeofday",
		[API_TIME] = "__vdso_time",
		[API_GETCPU] = "__vdso_getcpu",
		[API_GETRANDOM] = "__vdso_getrandom",
	};
#elif defined(__i386__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime",
		[API_CLOCK_GETRES] = "__vdso_clock_getres",
		[API_GETTIMEOFDAY] = "__vdso_gettimeofday",
		[API_TIME] = "__vdso_time",
		[API_GETCPU] = "__vdso_getcpu",
		[API_CLOCK_GETTIME64] = "__vdso_clock_gettime64",
	};
	static const char *const want64[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime64",
		[API_GETCPU] = "__vdso_getcpu",
	};
#elif defined(__aarch64__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__kernel_clock_gettime",
		[API_CLOCK_GETRES] = "__kernel_clock_getres",
		[API_GETTIMEOFDAY] = "__kernel_gettimeofday",
		[API_GETRANDOM] = "__kernel_getrandom",
	};
#elif defined(__arm__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime",
		[API_CLOCK_GETRES] = "__vdso_clock_getres",
		[API_GETTIMEOFDAY] = "__vdso_gettimeofday",
		[API_CLOCK_GETTIME64] = "__vdso_clock_gettime64",
	};
	static const char *const want64[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime64",
	};
#elif defined(__powerpc64__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__kernel_clock_gettime",
		[API_CLOCK_GETRES] = "__kernel_clock_getres",
		[API_GETTIMEOFDAY] = "__kernel_gettimeofday",
		[API_TIME] = "__kernel_time",
		[API_GETCPU] = "__kernel_getcpu",
		[API_GETRANDOM] = "__kernel_getrandom",
	};
#elif defined(__s390x__)
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__kernel_clock_gettime",
		[API_CLOCK_GETRES] = "__kernel_clock_getres",
		[API_GETTIMEOFDAY] = "__kernel_gettimeofday",
		[API_GETCPU] = "__kernel_getcpu",
		[API_GETRANDOM] = "__kernel_getrandom",
	};
#elif defined(__riscv) && __riscv_xlen == 64
	static const char *const want[API_COUNT] = {
		[API_CLOCK_GETTIME] = "__vdso_clock_gettime",
		[API_CLOCK_GETRES] = "__vdso_clock_getres",
		[API_GETTIMEOFDAY] = "__vdso_gettimeofday",
		[API_GETCPU] = "__vdso_getcpu",
		[API_GETRANDOM] = "__vdso_getrandom",
	};
#else
	const char *const *want = NULL;	/* not written out for this one */
#endif
#if defined(__i386__) || defined(__arm__)
	if (sizeof(time_t) > sizeof(long))
		return want64;
#endif
	return want;
}

/* The time system calls some architectures lack, where this one lacks them. */
static const char *const absent_syscalls[] = {
#ifndef SYS_time
	"time",
#endif
#ifndef SYS_gettimeofday
	"gettimeofday",
#endif
#ifndef SYS_clock_gettime64
	"clock_gettime64",
#endif
#ifndef SYS_clock_getres_time64
	"clock_getres_time64",
#endif
	NULL,
};

static bool have_syscall(const char *name)
{
	for (size_t i = 0; absent_syscalls[i]; i++)
		if (streq(absent_syscalls[i], name))
			return false;
	return true;
}

/*
 * The system calls a seccomp probe traps for each API (probe/timesys.h):
 * its own and those a C library may build it on, in this order, each
 * where the architecture has it.
 */
static const char *const expected_kernel_calls[API_COUNT][5] = {
	[API_CLOCK_GETTIME] = { "clock_gettime", "clock_gettime64" },
	[API_CLOCK_GETRES] = { "clock_getres", "clock_getres_time64" },
	[API_GETTIMEOFDAY] = { "gettimeofday", "clock_gettime", "clock_gettime64" },
	[API_TIME] = { "time", "gettimeofday", "clock_gettime", "clock_gettime64" },
	[API_GETCPU] = { "getcpu" },
	[API_GETRANDOM] = { "getrandom" },
	[API_TIMES] = { "times" },
	[API_GETRUSAGE] = { "getrusage" },
	[API_CLOCK_GETTIME64] = { "clock_gettime64" },
	[API_CLOCK_GETRES64] = { "clock_getres_time64" },
};

/* "a,b" of the expected calls that exist here; "" for an API not here. */
static void expected_calls_text(enum api api, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!catalog_api_here(api))
		return;
	for (int i = 0; i < 5 && expected_kernel_calls[api][i]; i++)
		if (have_syscall(expected_kernel_calls[api][i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "",
						 expected_kernel_calls[api][i]);
}

static void kernel_calls_text(enum api api, char *buf, size_t len)
{
	long nrs[16];
	size_t n = timesys_for_api(api, nrs, ARRAY_SIZE(nrs)), used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *name = timesys_name(nrs[i]);

		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", name ? name : "?");
	}
}

/* Whether this architecture has the API's own system call. */
static bool expected_syscall_path(enum api api)
{
	switch (api) {
	case API_TIME:
		return have_syscall("time");
	case API_GETTIMEOFDAY:
		return have_syscall("gettimeofday");
	default:
		return catalog_api_here(api);
	}
}

static const struct cell *first_cell(const struct catalog *cat, enum api api,
				     enum path path)
{
	for (size_t i = 0; i < cat->ncells; i++)
		if (cat->cells[i].api == api && cat->cells[i].path == path &&
		    cat->cells[i].status != CELL_UNSUPPORTED)
			return &cat->cells[i];
	return NULL;
}

/* The vDSO symbol every user of the catalogue sees for an API. */
static void check_symbol(enum api api, const char *want)
{
	const char *got = catalog_vdso_symbol(api);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	assert_int_equal(verify_path_by_design(api, PATH_VDSO), want != NULL);
}

/* A vdso cell without a symbol says so; one with it looks the symbol up. */
static void check_vdso_cell(const struct catalog *cat, enum api api, const char *want)
{
	const struct cell *c = first_cell(cat, api, PATH_VDSO);

	if (!catalog_api_here(api)) {
		assert_null(c);
		return;
	}
	assert_non_null(c);
	if (!want) {
		assert_int_equal(c->status, CELL_NA);
		assert_non_null(strstr(c->why, "the kernel's vDSO has no"));
	} else if (c->status == CELL_NA) {
		assert_null(strstr(c->why, "the kernel's vDSO has no"));
	}
}

static void check_syscall_cell(const struct catalog *cat, enum api api)
{
	const struct cell *c = first_cell(cat, api, PATH_SYSCALL);
	bool want = expected_syscall_path(api);

	if (!catalog_api_here(api)) {
		assert_null(c);
		return;
	}
	assert_int_equal(c->status == CELL_OK, want);
	assert_int_equal(c->loop != NULL, want);
	if (!want)
		assert_non_null(strstr(c->why, "has no"));
	c = first_cell(cat, api, PATH_LIBC);
	assert_int_equal(c->status, CELL_OK);
	assert_non_null(c->loop);
}

static void test_every_api_answers(void **state)
{
	const char *const *want = expected_symbols();
	struct catalog_filter f;
	struct catalog cat;

	(void)state;
	catalog_filter_all(&f);
	catalog_build(&cat, &f);
	for (int api = 0; api < API_COUNT; api++) {
		char got[128], exp[128];

		if (want) {
			check_symbol(api, want[api]);
			check_vdso_cell(&cat, api, want[api]);
		}
		check_syscall_cell(&cat, api);
		/* verify's syscall path by design: the API's own system call
		 * (asked only of the APIs this build has). */
		if (catalog_api_here(api))
			assert_int_equal(verify_path_by_design(api, PATH_SYSCALL),
					 expected_syscall_path(api));
		assert_true(verify_path_by_design(api, PATH_LIBC));
		kernel_calls_text(api, got, sizeof(got));
		expected_calls_text(api, exp, sizeof(exp));
		assert_string_equal(got, exp);
	}
	catalog_free(&cat);
}

/* ---- the table itself ------------------------------------------------- */

static bool contains_nr(const long *nrs, size_t n, long nr)
{
	for (size_t i = 0; i < n; i++)
		if (nrs[i] == nr)
			return true;
	return false;
}

/* A row's names: present, unique, and the label the name with dashes. */
static void check_row_names(enum api api)
{
	const struct api_info *row = &catalog_apis[api];
	char label[64];

	assert_non_null(row->name);
	assert_non_null(row->label);
	assert_true(row->name[0] && strlen(row->name) < sizeof(label));
	snprintf(label, sizeof(label), "%s", row->name);
	for (char *p = label; *p; p++)
		if (*p == '_')
			*p = '-';
	assert_string_equal(row->label, label);
	for (int other = 0; other < (int)api; other++) {
		assert_string_not_equal(catalog_apis[other].name, row->name);
		assert_string_not_equal(catalog_apis[other].label, row->label);
	}
	assert_int_equal(catalog_api_by_name(row->name),
			 catalog_api_here(api) ? (int)api : -1);
}

/* Each path a row claims can be built, and only those. */
static void check_row_paths(enum api api)
{
	const struct api_info *row = &catalog_apis[api];
	const char *sym = catalog_vdso_symbol(api);
	long nrs[16];
	size_t n;

	if (!catalog_api_here(api)) {
		assert_true(row->time64);
		assert_int_equal(catalog_syscall(api), CATALOG_NO_SYSCALL);
		assert_int_equal(timesys_for_api(api, nrs, ARRAY_SIZE(nrs)), 0);
		return;
	}
	/* The C library's function is always there: at least one path. */
	assert_non_null(row->loop[PATH_LIBC]);
	if (sym)
		assert_non_null(row->loop[PATH_VDSO]);
	if (!catalog_api_in_vdso(api))
		assert_null(sym);
	assert_int_equal(row->loop[PATH_SYSCALL] != NULL,
			 catalog_syscall(api) != CATALOG_NO_SYSCALL);
	/* doctor's probe traps the API's own system call, whatever else. */
	n = timesys_for_api(api, nrs, ARRAY_SIZE(nrs));
	assert_true(n >= 1);
	if (catalog_syscall(api) != CATALOG_NO_SYSCALL)
		assert_true(contains_nr(nrs, n, catalog_syscall(api)));
}

static void test_table_walk(void **state)
{
	const char *const *want = expected_symbols();

	(void)state;
	for (int api = 0; api < API_COUNT; api++) {
		check_row_names(api);
		check_row_paths(api);
		assert_int_equal(catalog_api_here(api),
				 !catalog_apis[api].time64 || CATALOG_TIME64);
		/* No vDSO anywhere: times and getrusage, the kernel only. */
		assert_int_equal(catalog_api_in_vdso(api),
				 api != API_TIMES && api != API_GETRUSAGE);
		/* A symbol wherever the kernel's vDSO has one (written out). */
		if (want && want[api])
			assert_string_equal(catalog_vdso_symbol(api), want[api]);
		else if (want)
			assert_null(catalog_vdso_symbol(api));
	}
	assert_false(catalog_api_here(API_COUNT));
	assert_false(catalog_api_here(-1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_full_catalog),
		cmocka_unit_test(test_unsupported_matches_kernel),
		cmocka_unit_test(test_every_runnable_cell_runs),
		cmocka_unit_test(test_vdso_getrandom_state),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_without_vdso),
		cmocka_unit_test(test_every_api_answers),
		cmocka_unit_test(test_table_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
