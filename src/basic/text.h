/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text from outside (a stored run, an imported file, the command line)
 * made safe to show, in one place: every string a command prints that it
 * did not write itself goes through here.
 *
 * Escaped: control characters (C0, DEL, C1) as \n, \t, \r, \e, \xHH or
 * \u0085; bytes that are not UTF-8 as \xHH; invisible characters (the
 * bidirectional controls U+061C, U+200E-F, U+202A-E, U+2066-9, the
 * zero-width and format characters U+200B-D, U+2060-4, U+FEFF, U+00AD,
 * tags, and the line and paragraph separators U+2028-9) as \u202e. So a host
 * name cannot set the window title, clear the screen, overwrite a line
 * with \r or reorder what is shown. Backslashes stay as they are, so
 * escaping twice changes nothing.
 *
 * Capped: at most max columns (a column is a character; wide characters
 * count one), the cut marked with "…". Only what is shown is read, so a
 * 100 MB host name costs max, not 100 MB.
 */
#ifndef CLOCKBENCH_TEXT_H
#define CLOCKBENCH_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct strbuf;

enum {
	TEXT_CELL_MAX = 64,	/* a table's column: a host, a label, a cell */
	TEXT_LINE_MAX = 512,	/* a value on a line of its own: "# host: ..." */
	TEXT_MESSAGE_MAX = 4096, /* an error or warning, paths included */
};
#define TEXT_UNCAPPED SIZE_MAX
/* The bytes of a cell of TEXT_CELL_MAX columns (4 a character), NUL included. */
#define TEXT_CELL_BYTES (4 * TEXT_CELL_MAX)

/* s escaped, at most max columns, appended to sb. */
void strbuf_add_text(struct strbuf *sb, const char *s, size_t max);
/*
 * s with control characters shown as \n, \t, \r, \e, \xHH or \u0085 (and
 * what else text_put() escapes), so that a string from a file or the
 * command line cannot drive the terminal. Uncapped: for a length-limited
 * string, strbuf_add_text().
 */
void strbuf_add_escaped(struct strbuf *sb, const char *s);

/* s escaped, at most max columns, written to f. */
void text_put(FILE *f, const char *s, size_t max);

/* The columns text_put(s, max) prints. */
size_t text_width(const char *s, size_t max);

enum text_align { TEXT_LEFT, TEXT_RIGHT };

/*
 * A table cell: s as text_put() prints it, padded with blanks to width
 * columns (counted as characters, not bytes).
 */
void text_put_cell(FILE *f, const char *s, size_t max, size_t width,
		   enum text_align align);

/*
 * One line to f: fmt formatted, escaped and capped at TEXT_MESSAGE_MAX
 * (its arguments may come from outside), then '\n'. For the lines that
 * echo a path or a name: "wrote %s", "imported run %s from %s".
 */
void text_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void text_vline(FILE *f, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* s escaped and capped into buf (always NUL-terminated, cut to fit len). */
void text_copy(char *buf, size_t len, const char *s, size_t max);

/*
 * A CSV field (RFC 4180) of s escaped: quoted when it holds a comma or a
 * quote, its quotes doubled. No raw control character is left to quote.
 */
void text_put_csv(FILE *f, const char *s);

/*
 * s as one word of a POSIX shell command line: as it is when no shell
 * treats any of its characters specially, otherwise in single quotes with
 * each ' written '\''. -1 (sb unchanged) when escaping would change s (a
 * control or invisible character, bytes that are not UTF-8): a line that
 * a reader pastes must show all that it runs. The one way a value reaches
 * a shell line.
 */
int strbuf_add_sh_word(struct strbuf *sb, const char *s);

/*
 * The first control character in s: C0, DEL, or C1 (U+0080 to U+009F in
 * UTF-8), which terminals act on; NULL when there is none.
 */
const char *text_find_control(const char *s);

/* The characters (UTF-8 sequences) of s: the columns of escaped text. */
size_t text_columns(const char *s);

#endif
