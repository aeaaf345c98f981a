// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of basic/suggest.c: the nearest known name, or none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "basic/suggest.h"

static const char *const commands[] = {
	"bench", "compare", "verify", "doctor", "scale", "timens", "hotplug",
	"exec", "ab", "report", "runs", "show", NULL,
};

static void assert_suggests(const char *word, const char *want)
{
	const char *got = suggest_name(word, commands);

	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

/* The typos of issue 30: a swap, a letter missing, one too many, one wrong. */
static void test_near_names(void **state)
{
	(void)state;
	assert_suggests("bnech", "bench");
	assert_suggests("compar", "compare");
	assert_suggests("comparee", "compare");
	assert_suggests("verfiy", "verify");
	assert_suggests("Doctor", "doctor");
	assert_suggests("hotplgu", "hotplug");
}

/* A short or far word gets nothing rather than a guess; an exact one neither. */
static void test_far_names(void **state)
{
	(void)state;
	assert_suggests("xyz", NULL);
	assert_suggests("ba", "ab");	/* a swap of two: one edit */
	assert_suggests("zz", NULL);
	assert_suggests("benchmarks", NULL);
	assert_suggests("bench", NULL);
	assert_suggests("", NULL);
	/* Longer than any name: never compared, never a crash. */
	char long_word[300];

	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	assert_suggests(long_word, NULL);
}

/* '-' and '_' are one: the catalogue reads them so. */
static void test_dash_is_underscore(void **state)
{
	struct suggestion s = SUGGESTION_INIT("clock-gettim");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	suggestion_consider(&s, "clock_gettime");
	suggestion_consider(&s, "clock_getres");
	assert_string_equal(s.best, "clock_gettime");
	suggestion_add(&s, "--", &sb);
	assert_string_equal(sb.buf, "; did you mean '--clock_gettime'?");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_near_names),
		cmocka_unit_test(test_far_names),
		cmocka_unit_test(test_dash_is_underscore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
