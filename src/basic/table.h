/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table model (as systemd's format-table): columns with a key, a
 * title, a kind and a unit; rows of cells filled left to right; notes. A
 * command builds its table once and prints it in any of the formats, so
 * that every format of it holds the same figures:
 *
 *   table     aligned columns for people (numbers right, text left, two
 *             blanks between, none after the last; a last column of text
 *             as long as a line), the notes as "# ..." lines under it
 *   csv       RFC 4180, a header of the keys, figures in full precision
 *   json      an array of objects keyed by column, figures in full
 *             precision (basic/json.h), missing figures null
 *   markdown  a GitHub table of the titles, pipes escaped
 *   tap       one "ok" line a row, the notes as diagnostics
 *
 * A text cell is stored as given and escaped and capped where it is
 * printed (basic/text.h): a string from a run, a file or the command line
 * never reaches a terminal, a CSV or a Markdown file raw.
 *
 *	struct table *t = table_new();
 *
 *	table_add_column(t, "id", "id", TABLE_INT, NULL);
 *	table_add_column(t, "median", "median", TABLE_REAL, "ns");
 *	table_add_int(t, 7);
 *	table_add_real(t, 24.456, 2);
 *	table_print(stdout, t, FORMAT_TABLE);
 *	table_free(t);
 */
#ifndef CLOCKBENCH_TABLE_H
#define CLOCKBENCH_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "basic/options.h"

enum table_kind {
	TABLE_TEXT,	/* left-aligned, a JSON string */
	TABLE_INT,	/* right-aligned, a JSON integer */
	TABLE_REAL,	/* right-aligned, shown rounded, written in full */
};

struct table;

struct table *table_new(void);
void table_free(struct table *t);

/*
 * A column: key (JSON and CSV), title (the table's and Markdown's header;
 * NULL: the key), kind, unit (shown in the title as "title (unit)" and
 * kept out of the figures; NULL: none). Columns come before rows.
 */
void table_add_column(struct table *t, const char *key, const char *title,
		      enum table_kind kind, const char *unit);

/*
 * Text columns titled by their keys, in order, as systemd's table_new()
 * takes them: table_add_text_columns(t, "name", "path", "verdict", NULL).
 */
void table_add_text_columns(struct table *t, ...) __attribute__((sentinel));

/*
 * The next cell of the current row (a row starts at the first column and
 * ends after the last): a text (NULL: missing), an integer, or a figure
 * shown with decimals decimals (NaN or infinite: missing). A cell of
 * another kind than its column's is a programming error.
 */
void table_add_text(struct table *t, const char *s);
void table_add_int(struct table *t, int64_t v);
void table_add_real(struct table *t, double x, int decimals);

/*
 * A missing cell of any kind (a figure not measured, a row that has none):
 * shown as "-", written as null (JSON) or nothing (CSV).
 */
void table_add_missing(struct table *t);

/* The current row's remaining cells missing (a row that stops short). */
void table_fill_missing(struct table *t);

/* A figure shown as the text shown (e.g. "6/6"), written as x. */
void table_add_real_shown(struct table *t, double x, const char *shown);
/* An integer shown as the text shown (e.g. "0xb10"), written as v. */
void table_add_int_shown(struct table *t, int64_t v, const char *shown);

/*
 * The current row's remaining cells missing, and s said across them (why
 * the row has no figures): in a table from the first of them on, as long
 * as a line, widening no column; in Markdown and TAP in the first of
 * them; not in JSON or CSV, whose cells are missing.
 */
void table_add_span(struct table *t, const char *s);

/*
 * A line under the last row (a histogram, what a kernel said of a
 * check): in a table below the row, escaped; in TAP a diagnostic after
 * its line; not in JSON, CSV or Markdown.
 */
void table_add_detail(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A line said under the table ("# ..."), in JSON under "notes". */
void table_add_note(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * With json: the rows under "rows" beside "notes" in one object, instead
 * of a bare array of rows (for a table that has notes to keep).
 */
void table_set_json_object(struct table *t, bool object);

/*
 * With table: no line of titles (shown: the default), for lines a script
 * reads one a row, or a list under a heading of its own.
 */
void table_set_titles(struct table *t, bool shown);

/* With table: indent blanks before each line (a table under a heading). */
void table_set_indent(struct table *t, size_t indent);

size_t table_rows(const struct table *t);

/*
 * t in fmt (table, json, csv, markdown or tap; a document format is a
 * programming error) to f: 0, or -1 when f has failed so far (not
 * flushed).
 */
int table_print(FILE *f, const struct table *t, enum output_format fmt);

/* The formats a table prints in, for OPT_FORMAT: the table first. */
extern const char *const table_formats[];

#endif
