// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of basic/table.c and basic/figure.c: one table, every
 * format, the same figures; text from outside escaped in each format's
 * own way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "basic/figure.h"
#include "basic/table.h"

/* t printed in fmt, as a string (malloc'd). */
static char *printed(const struct table *t, enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(table_print(f, t, fmt), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_printed(const struct table *t, enum output_format fmt,
			   const char *want)
{
	char *got = printed(t, fmt);

	assert_string_equal(got, want);
	free(got);
}

/* Runs as `clockbench runs` lists them: an id, a text, a figure. */
static struct table *sample(void)
{
	struct table *t = table_new();

	table_add_column(t, "id", NULL, TABLE_INT, NULL);
	table_add_column(t, "label", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "median", NULL, TABLE_REAL, "ns");
	table_add_column(t, "host", NULL, TABLE_TEXT, NULL);
	table_add_int(t, 7);
	table_add_text(t, "before");
	table_add_real(t, 0.1 + 0.2, 2);
	table_add_text(t, "vm");
	table_add_int(t, 12);
	table_add_text(t, NULL);
	table_add_real(t, NAN, 2);
	table_add_text(t, "a-longer-host");
	table_add_note(t, "%d runs", 2);
	return t;
}

/* Numbers right, text left, two blanks between, none after the last. */
static void test_aligned(void **state)
{
	struct table *t = sample();

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_printed(t, FORMAT_TABLE,
		       "id  label   median (ns)  host\n"
		       " 7  before         0.30  vm\n"
		       "12  -                 -  a-longer-host\n"
		       "# 2 runs\n");
	table_free(t);
}

/* The machine formats write every figure in full, a missing one empty or null. */
static void test_machine_formats_full_precision(void **state)
{
	struct table *t = sample();
	char *json = printed(t, FORMAT_JSON);
	json_t *j = json_loads(json, 0, NULL);

	(void)state;
	assert_printed(t, FORMAT_CSV,
		       "id,label,median,host\n"
		       "7,before,0.30000000000000004,vm\n"
		       "12,,,a-longer-host\n");
	assert_non_null(j);
	assert_true(json_is_array(j) && json_array_size(j) == 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(j, 0), "id")), 7);
	assert_true(json_real_value(json_object_get(json_array_get(j, 0), "median")) == 0.1 + 0.2);
	assert_true(json_is_null(json_object_get(json_array_get(j, 1), "median")));
	assert_true(json_is_null(json_object_get(json_array_get(j, 1), "label")));
	json_decref(j);
	free(json);
	/* With its notes kept: an object of rows and notes. */
	table_set_json_object(t, true);
	json = printed(t, FORMAT_JSON);
	j = json_loads(json, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "rows")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "notes"), 0)),
			    "2 runs");
	json_decref(j);
	free(json);
	table_free(t);
}

/*
 * A row with nothing measured: every kind of cell missing, shown "-"
 * where its column aligns, written null and empty, never 0.
 */
static void test_missing_cells(void **state)
{
	struct table *t = table_new();
	char *json;
	json_t *j, *row;

	(void)state;
	table_add_column(t, "label", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	table_add_column(t, "median", NULL, TABLE_REAL, NULL);
	table_add_text(t, "wall");
	table_add_int(t, 20);
	table_add_real(t, 1.5, 1);
	table_add_text(t, "sys");
	table_add_missing(t);
	table_fill_missing(t);
	/* At the start of a row: nothing to fill, not a whole row. */
	table_fill_missing(t);
	assert_int_equal(table_rows(t), 2);
	assert_printed(t, FORMAT_TABLE,
		       "label   n  median\n"
		       "wall   20     1.5\n"
		       "sys     -       -\n");
	assert_printed(t, FORMAT_CSV, "label,n,median\nwall,20,1.5\nsys,,\n");
	json = printed(t, FORMAT_JSON);
	j = json_loads(json, 0, NULL);
	row = json_array_get(j, 1);
	assert_true(json_is_null(json_object_get(row, "n")));
	assert_true(json_is_null(json_object_get(row, "median")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(j, 0), "n")), 20);
	json_decref(j);
	free(json);
	table_free(t);
}

/* A last column of remarks most rows leave empty: no blanks after a line. */
static void test_no_trailing_blanks(void **state)
{
	struct table *t = table_new();

	(void)state;
	table_add_column(t, "name", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "remark", "", TABLE_TEXT, NULL);
	table_add_text(t, "a");
	table_add_text(t, "");
	table_add_text(t, "longer");
	table_add_text(t, "(failed)");
	assert_printed(t, FORMAT_TABLE,
		       "name\n"
		       "a\n"
		       "longer  (failed)\n");
	table_free(t);
}

/*
 * doctor's lists: rows only, indented under a heading; a last column of
 * text kept whole past a cell's 64 columns (it lines nothing up), a text
 * column before it still capped.
 */
static void test_rows_only_indented(void **state)
{
	struct table *t = table_new();
	char reason[101], name[101], *got;

	(void)state;
	memset(reason, 'r', 100);
	reason[100] = '\0';
	memset(name, 'n', 100);
	name[100] = '\0';
	table_add_column(t, "name", "a much longer title", TABLE_TEXT, NULL);
	table_add_column(t, "ns", NULL, TABLE_REAL, NULL);
	table_add_column(t, "reason", NULL, TABLE_TEXT, NULL);
	table_set_titles(t, false);
	table_set_indent(t, 2);
	table_add_text(t, "time");
	table_add_real(t, 2.9, 1);
	table_add_text(t, "-");
	table_add_text(t, "getcpu");
	table_add_real(t, 24.31, 1);
	table_add_text(t, "ok");
	assert_printed(t, FORMAT_TABLE,
		       "  time     2.9  -\n"
		       "  getcpu  24.3  ok\n");
	table_add_text(t, name);
	table_add_real(t, 1, 1);
	table_add_text(t, reason);
	got = printed(t, FORMAT_TABLE);
	assert_non_null(strstr(got, reason));
	assert_null(strstr(got, name));
	free(got);
	table_free(t);
}

/*
 * bench's cell that was not measured says why across its figures, right
 * after its name; a line under a row (a histogram, a kernel's message)
 * is escaped like any text from outside.
 */
static void test_span_and_detail(void **state)
{
	struct table *t = table_new();
	char *json;
	json_t *j;

	(void)state;
	table_add_column(t, "name", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "median", NULL, TABLE_REAL, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	table_add_text(t, "times");
	table_add_span(t, "n/a: the vDSO has no times()");
	table_add_text(t, "time");
	table_add_real(t, 2.5, 1);
	table_add_int(t, 20);
	table_add_detail(t, "    said: %s", "x\033[2J");
	assert_printed(t, FORMAT_TABLE,
		       "name   median   n\n"
		       "times  n/a: the vDSO has no times()\n"
		       "time      2.5  20\n"
		       "    said: x\\e[2J\n");
	assert_printed(t, FORMAT_CSV, "name,median,n\ntimes,,\ntime,2.5,20\n");
	assert_printed(t, FORMAT_TAP,
		       "TAP version 13\n1..2\n"
		       "ok 1 - name times, median n/a: the vDSO has no times(), n -\n"
		       "ok 2 - name time, median 2.5, n 20\n"
		       "#     said: x\\e[2J\n");
	json = printed(t, FORMAT_JSON);
	j = json_loads(json, 0, NULL);
	assert_true(json_is_null(json_object_get(json_array_get(j, 0), "median")));
	json_decref(j);
	free(json);
	table_free(t);
}

static void test_markdown_and_tap(void **state)
{
	struct table *t = sample();

	(void)state;
	assert_printed(t, FORMAT_MARKDOWN,
		       "| id | label | median (ns) | host |\n"
		       "| ---: | --- | ---: | --- |\n"
		       "| 7 | before | 0.30 | vm |\n"
		       "| 12 | - | - | a-longer-host |\n"
		       "\n2 runs\n");
	assert_printed(t, FORMAT_TAP,
		       "TAP version 13\n1..2\n"
		       "ok 1 - id 7, label before, median (ns) 0.30, host vm\n"
		       "ok 2 - id 12, label -, median (ns) -, host a-longer-host\n"
		       "# 2 runs\n");
	table_free(t);
}

/*
 * A label from a stored run: a screen clear, a line break, a cell
 * separator of each format, a TAP directive. Escaped in every format
 * that is read as text, kept whole in JSON (whose writer escapes it).
 */
static void test_hostile_text(void **state)
{
	static const char evil[] = "x\033[2J\n| a,\"b\" # SKIP";
	struct table *t = table_new();
	char *out;
	json_t *j;

	(void)state;
	table_add_column(t, "label", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	table_add_text(t, evil);
	table_add_int(t, 1);
	table_add_note(t, "from %s", evil);
	assert_printed(t, FORMAT_TABLE,
		       "label                   n\n"
		       "x\\e[2J\\n| a,\"b\" # SKIP  1\n"
		       "# from x\\e[2J\\n| a,\"b\" # SKIP\n");
	assert_printed(t, FORMAT_CSV, "label,n\n\"x\\e[2J\\n| a,\"\"b\"\" # SKIP\",1\n");
	out = printed(t, FORMAT_MARKDOWN);
	assert_non_null(strstr(out, "| x\\e[2J\\n\\| a,\"b\" # SKIP | 1 |\n"));
	free(out);
	out = printed(t, FORMAT_TAP);
	assert_non_null(strstr(out, "ok 1 - label x\\e[2J\\n| a,\"b\" \\# SKIP, n 1\n"));
	assert_null(strchr(strstr(out, "ok 1"), '\033'));
	free(out);
	out = printed(t, FORMAT_JSON);
	j = json_loads(out, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 0), "label")), evil);
	json_decref(j);
	free(out);
	table_free(t);
}

static void test_figures(void **state)
{
	char buf[64];

	(void)state;
	figure_fixed(buf, sizeof(buf), 24.456, 2);
	assert_string_equal(buf, "24.46");
	figure_fixed(buf, sizeof(buf), INFINITY, 2);
	assert_string_equal(buf, FIGURE_NONE);
	figure_fixed_signed(buf, sizeof(buf), 0, 1);
	assert_string_equal(buf, "+0.0");
	figure_fixed_signed(buf, sizeof(buf), -3.5, 2);
	assert_string_equal(buf, "-3.50");
	figure_fixed_signed(buf, sizeof(buf), NAN, 2);
	assert_string_equal(buf, FIGURE_NONE);
	figure_significant(buf, sizeof(buf), 1234.6, 3);
	assert_string_equal(buf, "1235");
	figure_significant(buf, sizeof(buf), 0.0012345, 3);
	assert_string_equal(buf, "0.00123");
	figure_significant(buf, sizeof(buf), -24.456, 3);
	assert_string_equal(buf, "-24.5");
	figure_significant(buf, sizeof(buf), 0, 3);
	assert_string_equal(buf, "0");
	figure_shortest(buf, sizeof(buf), 0.95);
	assert_string_equal(buf, "0.95");
	figure_shortest(buf, sizeof(buf), 0.1 + 0.2);
	assert_string_equal(buf, "0.30000000000000004");
	assert_true(strtod(buf, NULL) == 0.1 + 0.2);
	figure_shortest(buf, sizeof(buf), NAN);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aligned),
		cmocka_unit_test(test_machine_formats_full_precision),
		cmocka_unit_test(test_missing_cells),
		cmocka_unit_test(test_no_trailing_blanks),
		cmocka_unit_test(test_rows_only_indented),
		cmocka_unit_test(test_span_and_detail),
		cmocka_unit_test(test_markdown_and_tap),
		cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
