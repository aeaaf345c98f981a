// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guard on a file standing in for a sysfs knob: whatever happens to
 * the supervised child or to its supervisor (returns, exits, SIGKILL of
 * either), the recorded value is back afterwards.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/guard.h"

struct fixture {
	char dir[64];
	char knob[96];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *knob_value(const struct fixture *fx, char *buf, size_t len)
{
	assert_true(read_line_file(fx->knob, buf, len));
	return buf;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test-guard-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->knob, sizeof(fx->knob), "%s/current_clocksource", fx->dir);
	write_file(fx->knob, "tsc\n");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->knob);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

/* ---- what the supervised child does ----------------------------------- */

struct job {
	const char *knob;
	int ready_fd;		/* the child writes its pid here, then waits */
	int rc;
};

static void switch_knob(const char *knob)
{
	int fd = open(knob, O_WRONLY | O_TRUNC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "kvm-clock\n", 10), 10);
	close(fd);
}

static int switch_and_return(void *arg)
{
	struct job *j = arg;

	switch_knob(j->knob);
	return j->rc;
}

static int switch_and_die(void *arg)
{
	struct job *j = arg;

	switch_knob(j->knob);
	raise(SIGKILL);
	return 0;
}

/*
 * Switch, tell the test, then wait to be killed (or stopped). The flag is
 * tested with the signals blocked and waited for with them let in, in one
 * step (sigsuspend): a stop landing between the test and a pause() would
 * be handled there and the pause would wait for ever.
 */
static int switch_and_wait(void *arg)
{
	struct job *j = arg;
	pid_t self = getpid();
	sigset_t all, open_mask;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &open_mask);
	switch_knob(j->knob);
	(void)!write(j->ready_fd, &self, sizeof(self));
	while (!guard_stop_signal)
		sigsuspend(&open_mask);
	sigprocmask(SIG_SETMASK, &open_mask, NULL);
	return 7;
}

/* ---- the tests --------------------------------------------------------------- */

static void test_restores_after_return(void **state)
{
	struct fixture *fx = *state;
	struct job j = { fx->knob, -1, 3 };
	struct guard g;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char buf[64], line[256];

	guard_init(&g);
	assert_int_equal(guard_add_file(&g, fx->knob, "current_clocksource", &err), 0);
	assert_string_equal(g.items[0].value, "tsc");
	assert_int_equal(guard_run(&g, switch_and_return, &j, &err), 3);
	assert_int_equal(g.child_signal, 0);
	assert_string_equal(knob_value(fx, buf, sizeof(buf)), "tsc");
	assert_true(guard_repaired(&g));
	guard_describe(&g, line, sizeof(line));
	assert_string_equal(line, "current_clocksource tsc (found kvm-clock, put back)");
	/* Restoring again finds nothing to do. */
	assert_int_equal(guard_restore(&g), 0);
	assert_false(guard_repaired(&g));
	guard_describe(&g, line, sizeof(line));
	assert_string_equal(line, "current_clocksource tsc");
}

static void test_restores_after_sigkill(void **state)
{
	struct fixture *fx = *state;
	struct job j = { fx->knob, -1, 0 };
	struct guard g;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char buf[64];

	guard_init(&g);
	assert_int_equal(guard_add_file(&g, fx->knob, "knob", &err), 0);
	assert_int_equal(guard_run(&g, switch_and_die, &j, &err),
			 128 + SIGKILL);
	assert_int_equal(g.child_signal, SIGKILL);
	assert_string_equal(knob_value(fx, buf, sizeof(buf)), "tsc");
	assert_true(g.items[0].repaired);
	assert_string_equal(g.items[0].found, "kvm-clock");
}

static int count_calls(void *arg)
{
	int *calls = arg;

	++*calls;
	return 0;
}

static void test_items_and_errors(void **state)
{
	struct fixture *fx = *state;
	struct guard g;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char line[256];
	int calls = 0;

	guard_init(&g);
	assert_int_equal(guard_add_file(&g, "/nonexistent/knob", "knob", &err), -1);
	assert_non_null(strstr(err.buf, "cannot read /nonexistent/knob: ENOENT"));
	assert_int_equal(g.n, 0);
	assert_int_equal(guard_add_action(&g, "count", count_calls, &calls, &err), 0);
	assert_int_equal(guard_restore(&g), 0);
	assert_int_equal(calls, 1);
	for (int i = 1; i < GUARD_MAX_ITEMS; i++)
		assert_int_equal(guard_add_file(&g, fx->knob, "knob", &err), 0);
	assert_int_equal(guard_add_file(&g, fx->knob, "knob", &err), -1);
	assert_non_null(strstr(err.buf, "at most"));
	/* A value the file no longer takes is reported, not hidden. */
	snprintf(g.items[1].path, sizeof(g.items[1].path), "/proc/self/nonexistent");
	assert_int_equal(guard_restore(&g), -1);
	guard_describe(&g, line, sizeof(line));
	assert_non_null(strstr(line, "could not restore: ENOENT"));
}

/* adjtimex is read only here: the unit tests never change the machine. */
static void test_records_adjtimex(void **state)
{
	struct guard g;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char line[256];

	(void)state;
	guard_init(&g);
	assert_int_equal(guard_add_adjtimex(&g, &err), 0);
	assert_int_equal(guard_restore(&g), 0);
	assert_false(guard_repaired(&g));
	guard_describe(&g, line, sizeof(line));
	assert_non_null(strstr(line, "adjtimex frequency "));
	assert_non_null(strstr(line, " ppm, tick "));
}

/*
 * The supervisor dies of SIGKILL mid-run: the child notices (its parent
 * death signal), a restorer puts the value back once the child is gone.
 * The test is a subreaper, so the orphans come back to it to be reaped.
 */
static void test_restores_when_the_supervisor_is_killed(void **state)
{
	struct fixture *fx = *state;
	int ready[2];
	pid_t supervisor, child;
	char buf[64];

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(ready), 0);
	supervisor = fork();
	assert_true(supervisor >= 0);
	if (supervisor == 0) {
		struct job j = { fx->knob, ready[1], 0 };
		struct guard g;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		guard_init(&g);
		if (guard_add_file(&g, fx->knob, "knob", &err))
			_exit(1);
		_exit(guard_run(&g, switch_and_wait, &j, &err) & 0xff);
	}
	assert_int_equal(read(ready[0], &child, sizeof(child)), sizeof(child));
	assert_string_equal(knob_value(fx, buf, sizeof(buf)), "kvm-clock");
	kill(supervisor, SIGKILL);
	waitpid(supervisor, NULL, 0);
	/* The child and then the restorer come back to us: reap them all. */
	while (waitpid(-1, NULL, 0) > 0)
		;
	assert_string_equal(knob_value(fx, buf, sizeof(buf)), "tsc");
	assert_int_equal(kill(child, 0), -1);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	close(ready[0]);
	close(ready[1]);
}

/* A stop signal to the supervisor reaches a graceful child, which returns. */
static void test_forwards_a_stop_to_a_graceful_child(void **state)
{
	struct fixture *fx = *state;
	int ready[2], status;
	pid_t supervisor, child;
	char buf[64];

	assert_int_equal(pipe(ready), 0);
	supervisor = fork();
	assert_true(supervisor >= 0);
	if (supervisor == 0) {
		struct job j = { fx->knob, ready[1], 0 };
		struct guard g;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		int rc;

		guard_init(&g);
		g.graceful = true;
		if (guard_add_file(&g, fx->knob, "knob", &err))
			_exit(1);
		rc = guard_run(&g, switch_and_wait, &j, &err);
		/* The child's 7, and the signal that asked it to stop. */
		_exit(rc == 7 && g.stop_signal == SIGTERM ? 0 : 2);
	}
	assert_int_equal(read(ready[0], &child, sizeof(child)), sizeof(child));
	kill(supervisor, SIGTERM);
	assert_int_equal(waitpid(supervisor, &status, 0), supervisor);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(knob_value(fx, buf, sizeof(buf)), "tsc");
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_restores_after_return, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restores_after_sigkill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_items_and_errors, setup, teardown),
		cmocka_unit_test(test_records_adjtimex),
		cmocka_unit_test_setup_teardown(test_restores_when_the_supervisor_is_killed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_forwards_a_stop_to_a_graceful_child,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
