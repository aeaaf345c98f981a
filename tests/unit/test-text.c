// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of basic/text.c: text from outside escaped and capped, and
 * the error messages that go through it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

static char *shown(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s, max);
	return strbuf_detach(&sb);
}

static void assert_shown(const char *s, size_t max, const char *want)
{
	char *got = shown(s, max);

	assert_string_equal(got, want);
	free(got);
}

static void test_controls_escaped(void **state)
{
	/* A window title, a screen clear, an overwrite, DEL. */
	assert_shown("a\033]0;owned\007b\033[2J\rc\x7f", TEXT_UNCAPPED,
		     "a\\e]0;owned\\x07b\\e[2J\\rc\\x7f");
	/* C1 controls, encoded (U+009B is CSI to some terminals) or raw. */
	assert_shown("x\xc2\x9b" "2J\xc2\x85y", TEXT_UNCAPPED, "x\\u009b2J\\u0085y");
	assert_shown("x\x9b" "2Jy", TEXT_UNCAPPED, "x\\x9b2Jy");
	/* Bytes that are no UTF-8: a lone lead, an overlong, a surrogate, a cut. */
	assert_shown("\xff\xc0\xaf\xed\xa0\x80z\xe2\x82", TEXT_UNCAPPED,
		     "\\xff\\xc0\\xaf\\xed\\xa0\\x80z\\xe2\\x82");
	/* Right-to-left override and isolates: text that reads backwards. */
	assert_shown("evil\xe2\x80\xaetxt.exe\xe2\x81\xa6", TEXT_UNCAPPED,
		     "evil\\u202etxt.exe\\u2066");
}

static void test_text_kept(void **state)
{
	/* UTF-8, backslashes and printable ASCII stay; escaping is idempotent. */
	assert_shown("héllo ±1 µs \\e 日本", TEXT_UNCAPPED, "héllo ±1 µs \\e 日本");
	assert_shown("a\\x1bb", TEXT_UNCAPPED, "a\\x1bb");
	assert_shown("", 10, "");
}

static void test_capped_with_ellipsis(void **state)
{
	assert_shown("abcdef", 6, "abcdef");
	assert_shown("abcdefg", 6, "abcde…");
	assert_shown("ab\033cd", 4, "ab…");
	assert_shown("ab\033", 4, "ab\\e");
	assert_shown("日本語テキスト", 4, "日本語…");
	assert_shown("anything", 1, "…");
	assert_shown("x", 1, "x");
	assert_int_equal(text_width("abcdefg", 6), 6);
	assert_int_equal(text_width("日本", 64), 2);
	assert_int_equal(text_width("a\tb", 64), 4);
}

static void test_huge_string_costs_the_cap(void **state)
{
	size_t n = 64u << 20;
	char *big = xmalloc(n + 1);
	uint64_t t0;

	memset(big, 'h', n);
	big[n] = '\0';
	t0 = now_ns();
	for (int i = 0; i < 1000; i++)
		assert_int_equal(text_width(big, TEXT_CELL_MAX), TEXT_CELL_MAX);
	/* A thousand widths of 64 columns, not of 64 MB: well under a second. */
	assert_true(now_ns() - t0 < 1000000000ull);
	free(big);
}

static void test_cell_padded_by_columns(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	text_put_cell(f, "µs", TEXT_CELL_MAX, 5, TEXT_LEFT);
	fputc('|', f);
	text_put_cell(f, "12", TEXT_CELL_MAX, 4, TEXT_RIGHT);
	fputc('|', f);
	text_put_cell(f, "toolong", 4, 2, TEXT_LEFT);
	fclose(f);
	assert_string_equal(buf, "µs   |  12|too…");
	free(buf);
}

static void test_csv_field(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	text_put_csv(f, "plain");
	fputc(';', f);
	text_put_csv(f, "a,b \"q\"");
	fputc(';', f);
	text_put_csv(f, "line\nbreak\r\033[2J");
	fclose(f);
	/* No raw line break or escape is left to quote: they are text. */
	assert_string_equal(buf, "plain;\"a,b \"\"q\"\"\";line\\nbreak\\r\\e[2J");
	free(buf);
}

static void test_copy_fits_the_buffer(void **state)
{
	char buf[8];

	text_copy(buf, sizeof(buf), "a\033b", TEXT_CELL_MAX);
	assert_string_equal(buf, "a\\eb");
	/* Cut between characters: "aaaaa日…" needs 11 bytes, not 8. */
	text_copy(buf, sizeof(buf), "aaaaa日日日", 7);
	assert_string_equal(buf, "aaaaa");
}

static int report_error(const void *arg)
{
	error_msg("unknown run '%s'", (const char *)arg);
	return 0;
}

/* stderr of fn into a string, through a temporary file. */
static char *capture_stderr(int (*fn)(const void *), const void *arg)
{
	char path[] = "/tmp/clockbench-test-XXXXXX";
	int tmp = mkstemp(path), saved = dup(STDERR_FILENO);
	char *text;

	assert_true(tmp >= 0);
	fflush(NULL);
	dup2(tmp, STDERR_FILENO);
	fn(arg);
	fflush(NULL);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(tmp);
	text = read_text_file(path, 1 << 20);
	unlink(path);
	assert_non_null(text);
	return text;
}

static void test_error_messages_escaped_one_line(void **state)
{
	size_t n = 1u << 20;
	char *big = xmalloc(n + 1), *err;

	err = capture_stderr(report_error, "x\033]0;owned\007\nfake: line");
	assert_string_equal(err, "clockbench: error: unknown run "
			    "'x\\e]0;owned\\x07\\nfake: line'\n");
	free(err);
	memset(big, 'a', n);
	big[n] = '\0';
	err = capture_stderr(report_error, big);
	/* Capped: one line of at most TEXT_MESSAGE_MAX columns after the prefix. */
	assert_true(strlen(err) < TEXT_MESSAGE_MAX + 64);
	assert_non_null(strstr(err, "aaa…\n"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
	free(err);
	free(big);
}

/* Invisible characters: zero-width, BOM, line and paragraph separators, tags. */
static void test_invisible_escaped(void **state)
{
	(void)state;
	assert_shown("a\u200bb\ufeffc\u2028d\u2029e\u2060f\u00adg", TEXT_UNCAPPED,
		     "a\\u200bb\\ufeffc\\u2028d\\u2029e\\u2060f\\u00adg");
	assert_shown("tag\U000e0041", TEXT_UNCAPPED, "tag\\ue0041");
	assert_int_equal(text_width("a\u200b", TEXT_UNCAPPED), 7);
	/* Visible neighbours stay. */
	assert_shown("\u2027\u2030\u200a", TEXT_UNCAPPED, "\u2027\u2030\u200a");
}

static void assert_sh(const char *s, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_add_sh_word(&sb, s), 0);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* One word for a POSIX shell: plain as it is, anything else in '...'. */
static void test_sh_word(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_sh("clock-gettime,time", "clock-gettime,time");
	assert_sh("/usr/bin/true", "/usr/bin/true");
	assert_sh("", "''");
	assert_sh("a b", "'a b'");
	assert_sh("a$(touch x)", "'a$(touch x)'");
	assert_sh("`id`", "'`id`'");
	assert_sh("o'brien", "'o'\\''brien'");
	assert_sh("'", "''\\'''");
	assert_sh("~root", "'~root'");
	assert_sh("x=1", "'x=1'");
	assert_sh("a;b|c&d>e<f*g?h[i]{j}#k!l\\m\"n", "'a;b|c&d>e<f*g?h[i]{j}#k!l\\m\"n'");
	assert_sh("h\u00e9llo", "'h\u00e9llo'");
	/* What a reader could not see is refused, sb left as it was. */
	strbuf_adds(&sb, "x");
	assert_int_equal(strbuf_add_sh_word(&sb, "a\nb"), -1);
	assert_int_equal(strbuf_add_sh_word(&sb, "a\tb"), -1);
	assert_int_equal(strbuf_add_sh_word(&sb, "a\u2028b"), -1);
	assert_int_equal(strbuf_add_sh_word(&sb, "\ufeffa"), -1);
	assert_int_equal(strbuf_add_sh_word(&sb, "a\u202eb"), -1);
	assert_int_equal(strbuf_add_sh_word(&sb, "\xff"), -1);
	assert_string_equal(sb.buf, "x");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invisible_escaped),
		cmocka_unit_test(test_sh_word),
		cmocka_unit_test(test_controls_escaped),
		cmocka_unit_test(test_text_kept),
		cmocka_unit_test(test_capped_with_ellipsis),
		cmocka_unit_test(test_huge_string_costs_the_cap),
		cmocka_unit_test(test_cell_padded_by_columns),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_copy_fits_the_buffer),
		cmocka_unit_test(test_error_messages_escaped_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
