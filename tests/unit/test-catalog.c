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

#include "probe/catalog.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
