// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of basic/options.c (parsing, errors, --help) and
 * basic/strbuf.c, and of the shared option groups built on them
 * (cli/cell-filter.c, the store and timing options).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "cli/cell-filter.h"
#include "cli/measure.h"
#include "results/record.h"

static const struct command_usage test_usage = {
	.name = "test",
	.synopsis = "[<options>] <run>...\n--all",
	.description = "A command for the tests.",
	.footer = "Exit status: 0.",
	.no_args = "no run given",
};

static const char *const colours[] = { "red", "green", "blue", NULL };
/* In the command's own order, not the vocabulary's. */
static const char *const formats[] = { "json", "table", NULL };

struct settings {
	bool flag;
	const char *name;
	long count;
	double ratio;
	double budget;
	int colour;
	int format;
	bool flag_seen;
};

/* argv from a NULL-terminated list, as main() would get it (writable). */
static char **make_argv(int *argc, ...)
{
	static char *argv[32];
	va_list ap;
	const char *s;

	*argc = 0;
	va_start(ap, argc);
	while ((s = va_arg(ap, const char *)) && *argc < 31)
		argv[(*argc)++] = (char *)s;
	va_end(ap);
	argv[*argc] = NULL;
	return argv;
}

/* stderr (or stdout) of fn into a string, through a temporary file. */
static char *capture(int fd, int (*fn)(void *), void *ctx, int *rc)
{
	char path[] = "/tmp/clockbench-test-XXXXXX";
	int tmp = mkstemp(path), saved = dup(fd);
	char *text;

	assert_true(tmp >= 0);
	fflush(NULL);
	dup2(tmp, fd);
	*rc = fn(ctx);
	fflush(NULL);
	dup2(saved, fd);
	close(saved);
	close(tmp);
	text = read_text_file(path, 1 << 20);
	unlink(path);
	assert_non_null(text);
	return text;
}

struct parse_call {
	int argc;
	char **argv;
	struct settings *s;
	unsigned flags;
};

static int call_parse(void *ctx)
{
	struct parse_call *c = ctx;
	struct settings *s = c->s;
	struct option_def options[] = {
		OPT_BOOL('f', "flag", &s->flag, "a flag"),
		OPT_STRING('N', "name", "NAME", &s->name, "a name"),
		OPT_INT('n', "count", "N", &s->count, 1, 100, "a count\nfrom 1 to 100"),
		OPT_DOUBLE(0, "ratio", "R", &s->ratio, 0, 1, "a ratio"),
		OPT_DURATION(0, "budget", "TIME", &s->budget, "a duration"),
		OPT_CHOICE(0, "colour", "C", &s->colour, colours, "a colour"),
		OPT_FORMAT(0, &s->format, formats, "json or table"),
		{ .type = OPTION_BOOL, .long_name = "secret", .value = &s->flag,
		  .help = "hidden", .flags = OPTION_HIDDEN, .seen = &s->flag_seen },
		OPT_END(),
	};

	return parse_options(c->argc, c->argv, &test_usage, options, c->flags);
}

static int parse(struct settings *s, unsigned flags, char **err, int argc,
		 char **argv)
{
	struct parse_call c = { argc, argv, s, flags };
	int rc;

	*err = capture(STDERR_FILENO, call_parse, &c, &rc);
	return rc;
}

static void test_values_and_positionals(void **state)
{
	struct settings s = { 0 };
	char *err;
	int argc;
	char **argv = make_argv(&argc, "test", "one", "--flag", "--name=x",
				"-n", "7", "two", "--ratio", "0.25", "--budget",
				"200ms", "--colour", "blue", "--", "--three", NULL);
	int n = parse(&s, 0, &err, argc, argv);

	assert_int_equal(n, 3);
	assert_string_equal(argv[0], "one");
	assert_string_equal(argv[1], "two");
	assert_string_equal(argv[2], "--three");
	assert_true(s.flag);
	assert_string_equal(s.name, "x");
	assert_int_equal(s.count, 7);
	assert_true(s.ratio == 0.25);
	assert_true(s.budget > 0.1999 && s.budget < 0.2001);
	assert_int_equal(s.colour, 2);
	assert_string_equal(err, "");
	free(err);
}

static void test_short_clusters(void **state)
{
	struct settings s = { 0 };
	char *err;
	int argc;
	char **argv = make_argv(&argc, "test", "-fn12", "-Nfoo", NULL);

	assert_int_equal(parse(&s, 0, &err, argc, argv), 0);
	assert_true(s.flag);
	assert_int_equal(s.count, 12);
	assert_string_equal(s.name, "foo");
	free(err);
}

static void test_stop_at_first_argument(void **state)
{
	struct settings s = { 0 };
	char *err;
	int argc;
	char **argv = make_argv(&argc, "test", "-f", "cmd", "--flag", "-n", NULL);

	assert_int_equal(parse(&s, OPTIONS_STOP_AT_ARG, &err, argc, argv), 3);
	assert_string_equal(argv[0], "cmd");
	assert_string_equal(argv[1], "--flag");
	assert_string_equal(argv[2], "-n");
	free(err);
}

/*
 * OPTIONS_NO_ARGS: a left-over argument is a usage error, and the options
 * around it are still parsed. OPTIONS_NEED_ARGS: none is the usage's own
 * error; --help is not one.
 */
static void test_argument_counts(void **state)
{
	struct settings s = { 0 };
	char *err, want[256];
	int argc, saved, null, rc;
	char **argv = make_argv(&argc, "test", "--flag", "stray", NULL);

	assert_int_equal(parse(&s, OPTIONS_NO_ARGS, &err, argc, argv), OPTIONS_ERROR);
	snprintf(want, sizeof(want), "%s: error: unexpected argument 'stray'\n",
		 program_context());
	assert_string_equal(err, want);
	free(err);
	argv = make_argv(&argc, "test", "--flag", NULL);
	assert_int_equal(parse(&s, OPTIONS_NO_ARGS, &err, argc, argv), 0);
	assert_string_equal(err, "");
	free(err);

	argv = make_argv(&argc, "test", "--flag", NULL);
	assert_int_equal(parse(&s, OPTIONS_NEED_ARGS, &err, argc, argv), OPTIONS_ERROR);
	snprintf(want, sizeof(want), "%s: error: no run given\n", program_context());
	assert_string_equal(err, want);
	free(err);
	argv = make_argv(&argc, "test", "7", "before", NULL);
	assert_int_equal(parse(&s, OPTIONS_NEED_ARGS, &err, argc, argv), 2);
	free(err);
	/* The help itself goes to /dev/null: this test only wants its result. */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, STDOUT_FILENO);
	argv = make_argv(&argc, "test", "--help", NULL);
	rc = parse(&s, OPTIONS_NEED_ARGS, &err, argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	assert_int_equal(rc, OPTIONS_HELP);
	free(err);
}

/* Each bad command line: OPTIONS_ERROR and exactly this one line. */
static void expect_error(const char *want, ...)
{
	struct settings s = { 0 };
	char *argv[16] = { (char *)"test" }, *err, want_line[512];
	int argc = 1;
	const char *a;
	va_list ap;

	va_start(ap, want);
	while ((a = va_arg(ap, const char *)))
		argv[argc++] = (char *)a;
	va_end(ap);
	assert_int_equal(parse(&s, 0, &err, argc, argv), OPTIONS_ERROR);
	snprintf(want_line, sizeof(want_line), "%s: error: %s\n",
		 program_context(), want);
	assert_string_equal(err, want_line);
	free(err);
}

static void test_errors_name_the_option(void **state)
{
	expect_error("unknown option '--bogus' (see 'clockbench test --help')",
		     "--bogus", NULL);
	expect_error("unknown option '-x' (see 'clockbench test --help')", "-fx", NULL);
	expect_error("option '--count' needs a value", "--count", NULL);
	expect_error("option '-n' needs a value", "-n", NULL);
	expect_error("option '--flag' takes no value", "--flag=1", NULL);
	expect_error("invalid --count '0': expected a number from 1 to 100",
		     "--count", "0", NULL);
	expect_error("invalid --count 'x': expected a number from 1 to 100", "-n", "x",
		     NULL);
	expect_error("invalid --ratio '2': expected a number from 0 to 1",
		     "--ratio", "2", NULL);
	expect_error("invalid --budget '-1s': expected a positive duration such "
		     "as 0.5, 500ms or 2s", "--budget", "-1s", NULL);
	expect_error("unknown colour 'pink' (red, green, blue)", "--colour", "pink",
		     NULL);
	/* No abbreviations: a prefix is not an option, only a suggestion. */
	expect_error("unknown option '--fla'; did you mean '--flag'? (see 'clockbench "
		     "test --help')", "--fla", NULL);
	expect_error("unknown option '--zzz' (see 'clockbench test --help')",
		     "--zzz", NULL);
}

/*
 * One word, one form, one value in every command: table also as "text",
 * its old name; the value is the vocabulary's enum, not the index in the
 * command's list (json first here); without --format, the first listed.
 */
static void test_format_vocabulary(void **state)
{
	static const struct { const char *word; int format; } words[] = {
		{ "json", FORMAT_JSON }, { "table", FORMAT_TABLE }, { "text", FORMAT_TABLE },
	};
	struct settings unset = { .format = -1 };
	char *unset_err;
	int unset_argc;
	char **unset_argv = make_argv(&unset_argc, "test", NULL);

	assert_int_equal(parse(&unset, 0, &unset_err, unset_argc, unset_argv), 0);
	assert_int_equal(unset.format, FORMAT_JSON);
	free(unset_err);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		struct settings s = { .format = -1 };
		char *err;
		int argc;
		char **argv = make_argv(&argc, "test", "--format", words[i].word, NULL);

		assert_int_equal(parse(&s, 0, &err, argc, argv), 0);
		assert_int_equal(s.format, words[i].format);
		assert_string_equal(err, "");
		free(err);
	}
	expect_error("unknown format 'csv' (json, table)", "--format", "csv", NULL);
	expect_error("unknown format 'TABLE' (json, table); did you mean 'table'?",
		     "--format", "TABLE", NULL);
}

static void test_hidden_option_parses(void **state)
{
	struct settings s = { 0 };
	char *err;
	int argc;
	char **argv = make_argv(&argc, "test", "--secret", NULL);

	assert_int_equal(parse(&s, 0, &err, argc, argv), 0);
	assert_true(s.flag && s.flag_seen);
	free(err);
}

struct help_call {
	const char *arg;
	int rc;
};

static int call_help(void *ctx)
{
	struct help_call *h = ctx;
	struct settings s = { 0 };
	int argc;
	char **argv = make_argv(&argc, "test", h->arg, NULL);
	struct parse_call c = { argc, argv, &s, 0 };

	h->rc = call_parse(&c);
	return h->rc;
}

static void test_help_text(void **state)
{
	struct help_call h = { "--help", 0 };
	int rc;
	char *out = capture(STDOUT_FILENO, call_help, &h, &rc);

	assert_int_equal(rc, OPTIONS_HELP);
	assert_int_equal(parse_options_status(rc), 0);
	assert_non_null(strstr(out, "usage: clockbench test [<options>] <run>...\n"
				    "   or: clockbench test --all\n\n"
				    "A command for the tests.\n\n"));
	assert_non_null(strstr(out, "  -n, --count N     a count\n"
				    "                    from 1 to 100\n"));
	assert_non_null(strstr(out, "  --budget TIME     a duration\n"));
	assert_non_null(strstr(out, "  -h, --help        this text\n\n"
				    "Exit status: 0.\n"));
	assert_null(strstr(out, "secret"));
	free(out);
}

static void test_list_options(void **state)
{
	struct help_call h = { "--list-options", 0 };
	int rc;
	char *out = capture(STDOUT_FILENO, call_help, &h, &rc);

	assert_int_equal(rc, OPTIONS_HELP);
	assert_string_equal(out, "--flag\n--name\n--count\n--ratio\n--budget\n"
			    "--colour\n--format\n--help\n");
	free(out);
}

/* ---- strbuf ----------------------------------------------------------- */

static void test_strbuf(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char *s;

	assert_string_equal(sb.buf, "");
	strbuf_addf(&sb, "%d cells", 70);
	strbuf_addch(&sb, ',');
	strbuf_adds(&sb, " ok");
	assert_string_equal(sb.buf, "70 cells, ok");
	assert_int_equal(sb.len, strlen("70 cells, ok"));
	for (int i = 0; i < 1000; i++)
		strbuf_adds(&sb, "0123456789");
	assert_int_equal(sb.len, 12 + 10000);
	strbuf_setf(&sb, "%s", "again");
	assert_string_equal(sb.buf, "again");
	s = strbuf_detach(&sb);
	assert_string_equal(s, "again");
	assert_string_equal(sb.buf, "");
	free(s);
}

static void test_strbuf_escapes_control_characters(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, "host\033]0;owned\007\r\n\tx\x7f\\é");
	assert_string_equal(sb.buf, "host\\e]0;owned\\x07\\r\\n\\tx\\x7f\\é");
}

/* ---- the shared groups -------------------------------------------------- */

struct group_call {
	int argc;
	char **argv;
	struct catalog_filter filter;
	struct store_options store;
	struct timing_options timing;
	int cpu;
};

static int call_groups(void *ctx)
{
	struct group_call *g = ctx;
	struct option_def options[] = {
		CELL_FILTER_OPTIONS(&g->filter, "apis", "clocks", "paths"),
		CPU_OPTION(&g->cpu, "cpu"),
		TIMING_BUDGET_OPTION(&g->timing, "budget"),
		TIMING_QUICK_OPTION(&g->timing),
		TIMING_ROUNDS_OPTION(&g->timing, "rounds", "rounds"),
		TIMING_PRECISION_OPTION(&g->timing),
		STORE_SAVE_OPTIONS(&g->store),
		OPT_END(),
	};

	return parse_options(g->argc, g->argv, &test_usage, options, 0);
}

static int parse_groups(struct group_call *g, char **err)
{
	int rc;

	*err = capture(STDERR_FILENO, call_groups, g, &rc);
	return rc;
}

static void test_cell_filter_options(void **state)
{
	struct group_call g = { .cpu = -1 };
	char *err;

	g.argv = make_argv(&g.argc, "test", "--api", "clock_gettime,time",
			   "--clock", "monotonic,4", "--path", "vdso", "--cpu", "0",
			   NULL);
	catalog_filter_all(&g.filter);
	assert_int_equal(parse_groups(&g, &err), 0);
	assert_true(g.filter.api[API_CLOCK_GETTIME] && g.filter.api[API_TIME]);
	assert_false(g.filter.api[API_TIMES]);
	assert_true(g.filter.clock[CLOCK_MONOTONIC]);
	assert_true(g.filter.clock[CLOCK_MONOTONIC_RAW]);
	assert_false(g.filter.clock[CLOCK_REALTIME]);
	assert_true(g.filter.path[PATH_VDSO] && !g.filter.path[PATH_LIBC]);
	assert_int_equal(g.cpu, 0);
	free(err);
}

static void expect_group_error(const char *want, const char *opt, const char *arg)
{
	struct group_call g = { .cpu = -1 };
	char *err;

	g.argv = make_argv(&g.argc, "test", opt, arg, NULL);
	assert_int_equal(parse_groups(&g, &err), OPTIONS_ERROR);
	assert_non_null(strstr(err, want));
	/* One line, ending the message. */
	assert_true(strchr(err, '\n') == err + strlen(err) - 1);
	free(err);
}

static void test_group_errors(void **state)
{
	expect_group_error("unknown api 'bogus' in --api", "--api", "time,bogus");
	expect_group_error("empty --api list", "--api", ",");
	expect_group_error("unknown clock 'sideways' in --clock", "--clock", "sideways");
	expect_group_error("unknown path 'kernel' in --path (vdso, libc, syscall)",
			   "--path", "kernel");
	expect_group_error("invalid --cpu 'one': expected a CPU number", "--cpu", "one");
	expect_group_error("CPU 999999 is not in this process's affinity mask",
			   "--cpu", "999999");
	expect_group_error("invalid --label '12'", "--label", "12");
	expect_group_error("empty --db path", "--db", "");
	expect_group_error("invalid --rounds '0'", "--rounds", "0");
}

static void test_timing_options_apply(void **state)
{
	struct timing_options t = { 0 };
	struct timing_config def, cfg;

	timing_config_default(&def);
	timing_options_apply(&t, &cfg);
	assert_true(cfg.budget_s == def.budget_s && cfg.rounds == def.rounds);

	t.quick = true;
	timing_options_apply(&t, &cfg);
	assert_true(cfg.budget_s < def.budget_s);
	assert_true(cfg.rounds < def.rounds);

	t = (struct timing_options){ .budget_s = 0.01, .rounds = 3,
				     .precision_pct = 0.5 };
	timing_options_apply(&t, &cfg);
	assert_true(cfg.budget_s == 0.01);
	assert_true(cfg.min_time_s <= cfg.budget_s);
	assert_int_equal(cfg.rounds, 3);
	assert_true(cfg.rel_ci == 0.005);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_and_positionals),
		cmocka_unit_test(test_short_clusters),
		cmocka_unit_test(test_stop_at_first_argument),
		cmocka_unit_test(test_argument_counts),
		cmocka_unit_test(test_errors_name_the_option),
		cmocka_unit_test(test_hidden_option_parses),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_list_options),
		cmocka_unit_test(test_format_vocabulary),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_strbuf_escapes_control_characters),
		cmocka_unit_test(test_cell_filter_options),
		cmocka_unit_test(test_group_errors),
		cmocka_unit_test(test_timing_options_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
