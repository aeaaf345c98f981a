// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the pieces exec is built from. src/scenario/exec.c: the
 * PATH look-up (against execvp's rules, on a directory made here),
 * splitting, quoting and {NAME} substitution, hyperfine's outlier rule
 * (values worked out by hand below), running a command and describing how
 * it ended, the machine's counters read from /proc text, and the runs
 * marked disturbed. src/basic/order.c: the order the commands alternate
 * in. src/basic/progress.c: the time left that the progress line shows.
 * The campaign built from them is tests/unit/test-exec-campaign.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenario/exec.h"
#include "scenario/interleave.h"
#include "basic/order.h"
#include "basic/progress.h"
#include "basic/util.h"

struct tmpdir {
	char dir[PATH_MAX];
};

static void make_file(const struct tmpdir *t, const char *name, mode_t mode)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	chmod(path, mode);
}

static int dir_setup(void **state)
{
	struct tmpdir *t = xcalloc(1, sizeof(*t));
	char sub[PATH_MAX + 16];

	snprintf(t->dir, sizeof(t->dir), "/tmp/clockbench-test-exec-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	make_file(t, "runme", 0755);
	make_file(t, "noexec", 0644);
	snprintf(sub, sizeof(sub), "%s/adir", t->dir);
	mkdir(sub, 0755);
	*state = t;
	return 0;
}

static int dir_teardown(void **state)
{
	struct tmpdir *t = *state;
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static void test_lookup(void **state)
{
	struct tmpdir *t = *state;
	char path[PATH_MAX * 2], out[PATH_MAX * 2], want[PATH_MAX + 16];

	snprintf(path, sizeof(path), "/nonexistent-dir:%s", t->dir);
	snprintf(want, sizeof(want), "%s/runme", t->dir);
	assert_int_equal(exec_lookup("runme", path, out, sizeof(out)), 0);
	assert_string_equal(out, want);
	/* Only files that cannot run, or a directory: permission denied. */
	assert_int_equal(exec_lookup("noexec", path, out, sizeof(out)), -EACCES);
	assert_int_equal(exec_lookup("adir", path, out, sizeof(out)), -EACCES);
	assert_int_equal(exec_lookup("missing", path, out, sizeof(out)), -ENOENT);
	assert_int_equal(exec_lookup("", path, out, sizeof(out)), -ENOENT);
	/* A name with '/' is taken as it is, PATH is not searched. */
	assert_int_equal(exec_lookup(want, "/nonexistent-dir", out, sizeof(out)), 0);
	assert_int_equal(exec_lookup("./runme", path, out, sizeof(out)), -ENOENT);
	/* No PATH: the libc default finds sh. */
	assert_int_equal(exec_lookup("sh", NULL, out, sizeof(out)), 0);
}

/* An empty PATH entry is the current directory, as for execvp. */
static void test_lookup_empty_entry(void **state)
{
	struct tmpdir *t = *state;
	char cwd[PATH_MAX], out[PATH_MAX];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(t->dir), 0);
	assert_int_equal(exec_lookup("runme", "/nonexistent-dir:", out, sizeof(out)), 0);
	assert_string_equal(out, "./runme");
	assert_int_equal(exec_lookup("runme", "/nonexistent-dir", out, sizeof(out)),
			 -ENOENT);
	assert_int_equal(chdir(cwd), 0);
}

static void test_join(void **state)
{
	char *argv[] = { (char *)"echo", (char *)"a b", (char *)"it's",
			 (char *)"x=1", (char *)"", NULL };
	_cleanup_free_ char *quoted = exec_join_argv(argv, true);
	_cleanup_free_ char *plain = exec_join_argv(argv, false);
	char *none[] = { NULL };
	_cleanup_free_ char *empty = exec_join_argv(none, true);

	assert_string_equal(quoted, "echo 'a b' 'it'\\''s' x=1 ''");
	assert_string_equal(plain, "echo a b it's x=1 ");
	assert_string_equal(empty, "");
}

/*
 * hyperfine's rule. {10, 11, 12, 13, 14, 100}: median 12.5, absolute
 * deviations {2.5, 1.5, 0.5, 0.5, 1.5, 87.5}, MAD 1.5; 87.5 / 1.5 = 58.3
 * > 14.826: one outlier. {10, 11, 12, 13, 14, 34}: 21.5 / 1.5 = 14.33,
 * not one; with 35: 22.5 / 1.5 = 15 is.
 */
static void test_outliers(void **state)
{
	double a[] = { 10, 11, 12, 13, 14, 100 };
	double b[] = { 10, 11, 12, 13, 14, 34 };
	double c[] = { 10, 11, 12, 13, 14, 35 };
	double same[] = { 5, 5, 5, 5 };
	double mad0[] = { 5, 5, 5, 5, 5.0001 };	/* MAD 0: off-median counts */

	assert_int_equal(exec_outliers(a, 6), 1);
	assert_int_equal(exec_outliers(b, 6), 0);
	assert_int_equal(exec_outliers(c, 6), 1);
	assert_int_equal(exec_outliers(same, 4), 0);
	assert_int_equal(exec_outliers(mad0, 5), 1);
	assert_int_equal(exec_outliers(a, 0), 0);
	/* The input is left in its order. */
	assert_true(a[5] == 100 && a[0] == 10);
}

/*
 * Whether this C library's posix_spawn returns a failed exec as its error
 * (glibc's clone(CLONE_VM | CLONE_VFORK) child writes it back). qemu-user
 * runs that child as a fork, so there the failure is only the child's exit
 * status 127, as with fork and exec.
 */
static bool spawn_reports_exec_errors(void)
{
	char *argv[] = { (char *)"/nonexistent/clockbench-none", NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);

	if (rc == 0)
		waitpid(pid, NULL, 0);
	return rc == ENOENT;
}

static void test_run(void **state)
{
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct exec_io io = { .devnull = devnull };
	char *ok[] = { (char *)"true", NULL };
	char *three[] = { (char *)"sh", (char *)"-c", (char *)"exit 3", NULL };
	char *missing[] = { (char *)"/nonexistent/clockbench-none", NULL };
	char *busy[] = { (char *)"sh", (char *)"-c",
			 (char *)"i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done",
			 NULL };
	struct exec_result r;
	char how[128];

	assert_true(devnull >= 0);
	assert_int_equal(exec_run("/bin/true", ok, &io, NULL, &r), 0);
	assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	assert_int_equal(r.exec_errno, 0);
	assert_true(r.wall_s > 0);

	assert_int_equal(exec_run("/bin/sh", three, &io, NULL, &r), 0);
	exec_describe_status(r.status, how, sizeof(how));
	assert_string_equal(how, "exited with status 3");

	assert_int_equal(exec_run(missing[0], missing, &io, NULL, &r), 0);
	if (spawn_reports_exec_errors())
		assert_int_equal(r.exec_errno, ENOENT);
	else
		assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 127);

	/* The child's CPU time comes back from wait4(). */
	assert_int_equal(exec_run("/bin/sh", busy, &io, NULL, &r), 0);
	assert_true(r.user_s + r.sys_s > 0);
	assert_true(r.user_s + r.sys_s <= r.wall_s + 0.01);
	close(devnull);
}

static void test_describe_signal(void **state)
{
	char how[128];

	exec_describe_status(9, how, sizeof(how));	/* killed by SIGKILL */
	assert_string_equal(how, "was killed by signal 9 (Killed)");
}


/* Words as sh splits a simple command; what needs a shell is refused. */
static void expect_words(const char *line, const char *const *want, size_t n)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char **w = exec_split_words(line, &err);

	assert_non_null(w);
	assert_int_equal(exec_count_words(w), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(w[i], want[i]);
	exec_free_words(w);
}

static void expect_refused(const char *line, const char *why)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_null(exec_split_words(line, &err));
	assert_non_null(strstr(err.buf, why));
}

static void test_split_words(void **state)
{
	static const char *const plain[] = { "sleep", "0.010" };
	static const char *const quoted[] = { "printf", "%s\\n", "a b", "" };
	static const char *const dq[] = { "echo", "say \"hi\" \\ x", "it's" };
	static const char *const escaped[] = { "a b", "c|d", "e" };
	static const char *const sh[] = { "sh", "-c", "echo 0 > /sys/x" };

	(void)state;
	expect_words("  sleep\t0.010  ", plain, 2);
	expect_words("printf '%s\\n' 'a b' ''", quoted, 4);
	expect_words("echo \"say \\\"hi\\\" \\\\ x\" it\\'s", dq, 3);
	expect_words("a\\ b c\\|d e", escaped, 3);
	expect_words("sh -c 'echo 0 > /sys/x'", sh, 3);
	expect_refused("ls | wc", "'|' needs a shell");
	expect_refused("echo $HOME", "'$' needs a shell");
	expect_refused("echo \"$HOME\"", "'$' inside");
	expect_refused("ls *.c", "'*' needs a shell");
	expect_refused("cat ~/x", "'~' needs a shell");
	expect_refused("true; false", "';' needs a shell");
	expect_refused("echo 'open", "unterminated '");
	expect_refused("echo \"open", "unterminated \"");
	expect_refused("   ", "empty command");
}

static void test_substitute(void **state)
{
	size_t hits;
	char *s;

	(void)state;
	s = exec_substitute("x{n}y{n}{m}{n", "n", "4", &hits);
	assert_string_equal(s, "x4y4{m}{n");
	assert_int_equal(hits, 2);
	free(s);
	s = exec_substitute("none", "n", "4", &hits);
	assert_string_equal(s, "none");
	assert_int_equal(hits, 0);
	free(s);
	/* Quoting for a shell line: verbatim when safe, else single quotes. */
	s = exec_shell_quote("0.010");
	assert_string_equal(s, "0.010");
	free(s);
	s = exec_shell_quote("a'b; rm");
	assert_string_equal(s, "'a'\\''b; rm'");
	free(s);
}

static void test_machine_parsers(void **state)
{
	(void)state;
	assert_int_equal(exec_parse_runnable("0.52 0.58 0.59 3/467 12345\n"), 3);
	assert_int_equal(exec_parse_runnable("garbage"), -1);
	assert_int_equal(exec_parse_total_steal("cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 9\n"), 8);
	assert_int_equal(exec_parse_total_steal("cpu0 1 2 3 4 5 6 7 9\n"), -1);
	assert_int_equal(exec_parse_total_steal("cpu  1 2 3\n"), -1);
	assert_float_equal(exec_parse_run_delay("1980899 3436894 1\n"), 0.003436894, 1e-12);
	assert_true(isnan(exec_parse_run_delay("x")));
}

/* ab's order: A B B A; a seed: every command once per repetition, reproducible. */
static void test_order(void **state)
{
	(void)state;
	assert_int_equal(balanced_order_at(2, 0, 0, 0), 0);
	assert_int_equal(balanced_order_at(2, 0, 1, 0), 1);
	assert_int_equal(balanced_order_at(2, 1, 0, 0), 1);
	assert_int_equal(balanced_order_at(2, 1, 1, 0), 0);
	for (unsigned k = 0; k < 50; k++) {
		bool seen[5] = { false };

		for (size_t j = 0; j < 5; j++) {
			size_t s = balanced_order_at(5, k, j, 42);

			assert_true(s < 5 && !seen[s]);
			seen[s] = true;
			assert_int_equal(s, balanced_order_at(5, k, j, 42));
		}
	}
}

/* Not a timing bound: the arithmetic of the estimate, on given figures. */
static void test_progress_estimate(void **state)
{
	(void)state;
	assert_true(isnan(progress_left_s(0, 10, 5, 5)));
	/* 2 steps in 4 s, 1 s into the third: 8 steps at 2 s, less 1 s. */
	assert_float_equal(progress_left_s(2, 10, 5, 1), 15, 1e-9);
	/* Overdue: never below 0. */
	assert_float_equal(progress_left_s(9, 10, 100, 50), 0, 1e-9);
	assert_float_equal(progress_left_s(10, 10, 100, 0), 0, 1e-9);
}

/* Runs far beyond the others, on figures given here (no machine read). */
static void test_mark_disturbed(void **state)
{
	struct exec_disturb runs[8];
	struct exec_disturb_medians d;
	json_t *j;

	(void)state;
	for (size_t k = 0; k < 8; k++)
		runs[k] = (struct exec_disturb){ .wall_s = 0.010, .involuntary = 1,
						 .wait_ms = 0.1, .steal_ms = 0,
						 .runnable = 2, .migrations = -1 };
	runs[2].involuntary = 9;	/* > 4 * 1 + 4 */
	runs[5].wait_ms = 6;		/* > 25 % of 10 ms and far beyond 0.1 */
	runs[6].involuntary = 8;	/* exactly 4 * 1 + 4: not beyond */
	runs[7].runnable = -1;		/* unknown: no mark from it */
	exec_disturb_medians(runs, 8, &d);
	assert_float_equal(d.involuntary, 1, 0);
	assert_float_equal(d.runnable, 2, 0);
	assert_int_equal(exec_mark_disturbed(runs, 8, &d), 2);
	assert_true(runs[2].disturbed && runs[5].disturbed && !runs[6].disturbed);
	j = exec_disturb_json(runs, 8);
	assert_int_equal(json_array_size(json_object_get(j, "disturbed")), 2);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "disturbed"), 0)), 3);
	assert_float_equal(json_real_value(json_object_get(json_object_get(j, "machine"),
							   "runnable_median")), 2, 0);
	assert_float_equal(json_real_value(json_object_get(json_object_get(j, "machine"),
							   "wait_pct")), 1, 1e-9);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lookup, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_lookup_empty_entry, dir_setup,
						dir_teardown),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_describe_signal),
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_substitute),
		cmocka_unit_test(test_machine_parsers),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_progress_estimate),
		cmocka_unit_test(test_mark_disturbed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
