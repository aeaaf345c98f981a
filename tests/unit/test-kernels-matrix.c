// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of report/kernels-matrix.c: what `kernels` prints of the
 * checks and vDSO functions of its kernels side by side, without booting
 * one (tests/cli/kernels.bats boots them). What a guest says is escaped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/kernels-matrix.h"

/* What print wrote to a memory stream, as a string (malloc'd). */
static char *written(void (*print)(FILE *f, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, ctx);
	assert_int_equal(fclose(f), 0);
	return buf;
}

struct matrix {
	struct kernels_column cols[2];
	struct kernels_checks checks;
	size_t failed;
};

static void print_checks(FILE *f, void *ctx)
{
	struct matrix *m = ctx;

	m->failed = kernels_check_matrix_print(f, m->cols, 2, &m->checks);
}

static void print_vdso(FILE *f, void *ctx)
{
	struct matrix *m = ctx;

	kernels_vdso_matrix_print(f, m->cols, 2);
}

/*
 * Two kernels, one boot each: the checks that differ in a row each, what
 * the kernel that did not pass said under it (a screen clear escaped),
 * the totals; a check alike on both is not shown.
 */
static void test_check_matrix(void **state)
{
	struct matrix m = {
		.cols = { { .name = "v61", .bootable = true, .noutputs = 1 },
			  { .name = "v612", .bootable = true, .noutputs = 1 } },
	};
	char *out;

	(void)state;
	kernels_checks_add(&m.checks, 0,
			   "TAP version 13\n1..3\n"
			   "ok 1 monotonic/vdso: 66 reads\n"
			   "ok 2 random/getrandom/vdso # SKIP no __vdso_getrandom\n"
			   "not ok 3 timens/vfork/offsets: vfork: \033[2JInvalid argument\n");
	kernels_checks_add(&m.checks, 1,
			   "TAP version 13\n1..3\n"
			   "ok 1 monotonic/vdso: 66 reads\n"
			   "ok 2 random/getrandom/vdso: 8 calls\n"
			   "ok 3 timens/vfork/offsets: 3 clocks\n");
	out = written(print_checks, &m);
	assert_string_equal(out,
			    "\n# checks by kernel: 3 checks, 1 alike on every kernel and boot, 2 differ\n"
			    "check                  v61   v612\n"
			    "random/getrandom/vdso  skip  pass\n"
			    "    v61: no __vdso_getrandom\n"
			    "timens/vfork/offsets   fail  pass\n"
			    "    v61: vfork: \\e[2JInvalid argument\n"
			    "v61, 1 boot: pass 1, fail 1, skip 1, xfail 0\n"
			    "v612, 1 boot: pass 3, fail 0, skip 0, xfail 0\n");
	assert_int_equal(m.failed, 1);
	free(out);
	kernels_checks_free(&m.checks);
}

/* A function each kernel exports or not; a kernel that told nothing, no column. */
static void test_vdso_matrix(void **state)
{
	static const char *const v61[] = { "__vdso_time", NULL };
	static const char *const v612[] = { "__vdso_time", "__vdso_getrandom", NULL };
	struct matrix m = {
		.cols = { { .name = "v61", .vdso = v61 }, { .name = "v612", .vdso = v612 } },
	};
	char *out;

	(void)state;
	out = written(print_vdso, &m);
	assert_string_equal(out,
			    "\n# vDSO functions by kernel: 2, 1 exported by every kernel, 1 not\n"
			    "function          v61  v612\n"
			    "__vdso_time       yes  yes\n"
			    "__vdso_getrandom  -    yes\n");
	free(out);
	m.cols[0].vdso = NULL;
	out = written(print_vdso, &m);
	assert_non_null(strstr(out, "function          v612\n__vdso_time       yes\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_matrix),
		cmocka_unit_test(test_vdso_matrix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
