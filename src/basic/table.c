// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/table.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

const char *const table_formats[] = {
	"table", "json", "csv", "markdown", "tap", NULL,
};

struct table_column {
	char *key;
	char *title;		/* with its unit: "median (ns)" */
	enum table_kind kind;
};

struct table_cell {
	char *shown;		/* what the table shows; NULL: missing */
	double x;		/* TABLE_REAL */
	int64_t i;		/* TABLE_INT */
	bool span;		/* shown across the rest of its row (table_add_span) */
};

struct table_detail {
	size_t row;		/* printed under this row */
	char *text;
};

struct table {
	struct table_column *cols;
	size_t ncols, cols_cap;
	struct table_cell *cells;	/* row-major */
	size_t ncells, cells_cap;
	char **notes;
	size_t nnotes, notes_cap;
	struct table_detail *details;
	size_t ndetails, details_cap;
	bool json_object;
	bool no_titles;		/* table: rows only */
	size_t indent;		/* table: blanks before each line */
};

struct table *table_new(void)
{
	return xcalloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		free(t->cols[c].key);
		free(t->cols[c].title);
	}
	for (size_t k = 0; k < t->ncells; k++)
		free(t->cells[k].shown);
	for (size_t k = 0; k < t->nnotes; k++)
		free(t->notes[k]);
	for (size_t k = 0; k < t->ndetails; k++)
		free(t->details[k].text);
	free(t->details);
	free(t->cols);
	free(t->cells);
	free(t->notes);
	free(t);
}

void table_add_column(struct table *t, const char *key, const char *title,
		      enum table_kind kind, const char *unit)
{
	struct table_column *col;
	struct strbuf sb = STRBUF_INIT;

	if (t->ncells)
		fatal("table: column '%s' added after the first row", key);
	grow_array((void **)&t->cols, &t->cols_cap, t->ncols + 1, sizeof(*t->cols));
	col = &t->cols[t->ncols++];
	col->key = xstrdup(key);
	strbuf_adds(&sb, title ? title : key);
	if (unit && *unit)
		strbuf_addf(&sb, " (%s)", unit);
	col->title = strbuf_detach(&sb);
	col->kind = kind;
}

void table_add_text_columns(struct table *t, ...)
{
	const char *key;
	va_list ap;

	va_start(ap, t);
	while ((key = va_arg(ap, const char *)))
		table_add_column(t, key, NULL, TABLE_TEXT, NULL);
	va_end(ap);
}

/* The next cell, checked against its column's kind unless any is true. */
static struct table_cell *add_cell(struct table *t, enum table_kind kind, bool any)
{
	const struct table_column *col;
	struct table_cell *cell;

	if (!t->ncols)
		fatal("table: a cell before any column");
	col = &t->cols[t->ncells % t->ncols];
	if (!any && col->kind != kind)
		fatal("table: column '%s' holds another kind of cell", col->key);
	grow_array((void **)&t->cells, &t->cells_cap, t->ncells + 1, sizeof(*t->cells));
	cell = &t->cells[t->ncells++];
	memset(cell, 0, sizeof(*cell));
	cell->x = NAN;
	return cell;
}

static struct table_cell *next_cell(struct table *t, enum table_kind kind)
{
	return add_cell(t, kind, false);
}

void table_add_missing(struct table *t)
{
	add_cell(t, TABLE_TEXT, true);
}

void table_fill_missing(struct table *t)
{
	if (!t->ncols)
		fatal("table: a cell before any column");
	while (t->ncells % t->ncols)
		table_add_missing(t);
}

void table_add_text(struct table *t, const char *s)
{
	struct table_cell *cell = next_cell(t, TABLE_TEXT);

	cell->shown = s ? xstrdup(s) : NULL;
}

void table_add_int(struct table *t, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	table_add_int_shown(t, v, buf);
}

void table_add_int_shown(struct table *t, int64_t v, const char *shown)
{
	struct table_cell *cell = next_cell(t, TABLE_INT);

	cell->i = v;
	cell->shown = xstrdup(shown);
}

void table_add_real(struct table *t, double x, int decimals)
{
	char buf[64];

	figure_fixed(buf, sizeof(buf), x, decimals);
	table_add_real_shown(t, x, buf);
}

void table_add_real_shown(struct table *t, double x, const char *shown)
{
	struct table_cell *cell = next_cell(t, TABLE_REAL);

	cell->x = x;
	cell->shown = isfinite(x) ? xstrdup(shown) : NULL;
}

void table_add_span(struct table *t, const char *s)
{
	struct table_cell *cell;

	if (!t->ncols || !(t->ncells % t->ncols))
		fatal("table: a span with no row to end");
	cell = add_cell(t, TABLE_TEXT, true);
	cell->shown = xstrdup(s);
	cell->span = true;
	table_fill_missing(t);
}

void table_add_detail(struct table *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* Under a whole row: mid-row, it would land under the row before. */
	if (!table_rows(t) || t->ncells % t->ncols)
		fatal("table: a detail with no whole row above it");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	grow_array((void **)&t->details, &t->details_cap, t->ndetails + 1,
		   sizeof(*t->details));
	t->details[t->ndetails].row = table_rows(t) - 1;
	t->details[t->ndetails++].text = strbuf_detach(&sb);
}

void table_add_note(struct table *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	grow_array((void **)&t->notes, &t->notes_cap, t->nnotes + 1, sizeof(*t->notes));
	t->notes[t->nnotes++] = strbuf_detach(&sb);
}

void table_set_json_object(struct table *t, bool object)
{
	t->json_object = object;
}

void table_set_titles(struct table *t, bool shown)
{
	t->no_titles = !shown;
}

void table_set_indent(struct table *t, size_t indent)
{
	t->indent = indent;
}

size_t table_rows(const struct table *t)
{
	return t->ncols ? t->ncells / t->ncols : 0;
}

static const struct table_cell *cell_at(const struct table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

static const char *shown(const struct table_cell *cell)
{
	return cell->shown ? cell->shown : FIGURE_NONE;
}

/* ---- table ---------------------------------------------------------------- */

/*
 * The columns a cell of column col may take: a column's, or a line's for
 * a last column of text, which no other column has to line up after (a
 * reason, a cause: cut at 64 columns, it would lose its end).
 */
static size_t cell_max(const struct table *t, size_t col)
{
	return col + 1 == t->ncols && t->cols[col].kind == TABLE_TEXT ?
	       TEXT_LINE_MAX : TEXT_CELL_MAX;
}

/* s escaped and capped at max, padded with blanks to width columns. */
static void add_padded(struct strbuf *sb, const char *s, size_t max, size_t width,
		       bool right)
{
	size_t w = text_width(s, max);

	for (size_t k = w; right && k < width; k++)
		strbuf_addch(sb, ' ');
	strbuf_add_text(sb, s, max);
	for (size_t k = w; !right && k < width; k++)
		strbuf_addch(sb, ' ');
}

/*
 * A line of the table: the cells of row, or the titles, two blanks
 * between, none after the last, even when the last cells are empty
 * (a column of remarks most rows leave blank).
 */
static void put_line(FILE *f, const struct table *t, const size_t *width, size_t row,
		     bool titles)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < t->indent; k++)
		strbuf_addch(&sb, ' ');
	for (size_t c = 0; c < t->ncols; c++) {
		const struct table_cell *cell = titles ? NULL : cell_at(t, row, c);
		const char *s = cell ? shown(cell) : t->cols[c].title;

		if (c)
			strbuf_adds(&sb, "  ");
		if (cell && cell->span) {
			strbuf_add_text(&sb, s, TEXT_LINE_MAX);
			break;
		}
		add_padded(&sb, s, cell_max(t, c), width[c], t->cols[c].kind != TABLE_TEXT);
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fputs(sb.buf, f);
	fputc('\n', f);
}

/*
 * The details of row, each a line after prefix, from details[*next] on:
 * they were added in the order of their rows, so one pass through them
 * serves the whole table.
 */
static void put_details(FILE *f, const struct table *t, size_t row, const char *prefix,
			size_t *next)
{
	for (; *next < t->ndetails && t->details[*next].row == row; ++*next) {
		fputs(prefix, f);
		text_put(f, t->details[*next].text, TEXT_MESSAGE_MAX);
		fputc('\n', f);
	}
}

/* The widest of column col's cells, and of its title when shown. */
static size_t column_width(const struct table *t, size_t col)
{
	size_t width = t->no_titles ? 0 : text_width(t->cols[col].title, cell_max(t, col));

	for (size_t r = 0; r < table_rows(t); r++) {
		const struct table_cell *cell = cell_at(t, r, col);
		size_t w = text_width(shown(cell), cell_max(t, col));

		/* A span lines nothing up: it widens no column. */
		if (w > width && !cell->span)
			width = w;
	}
	return width;
}

/* The notes, each on a line of its own after "# ". */
static void put_hash_notes(FILE *f, const struct table *t)
{
	for (size_t k = 0; k < t->nnotes; k++) {
		fputs("# ", f);
		text_put(f, t->notes[k], TEXT_MESSAGE_MAX);
		fputc('\n', f);
	}
}

static int print_aligned(FILE *f, const struct table *t)
{
	size_t *width = xcalloc(t->ncols ? t->ncols : 1, sizeof(*width)), next = 0;

	for (size_t c = 0; c < t->ncols; c++)
		width[c] = column_width(t, c);
	if (!t->no_titles)
		put_line(f, t, width, 0, true);
	for (size_t r = 0; r < table_rows(t); r++) {
		put_line(f, t, width, r, false);
		put_details(f, t, r, "", &next);
	}
	put_hash_notes(f, t);
	free(width);
	return 0;
}

/* ---- csv ------------------------------------------------------------------ */

static void put_csv_cell(FILE *f, const struct table *t, size_t col,
			 const struct table_cell *cell)
{
	char buf[32];

	if (col)
		fputc(',', f);
	if (cell->span)
		return;
	if (t->cols[col].kind == TABLE_REAL) {
		figure_shortest(buf, sizeof(buf), cell->x);
		fputs(buf, f);
	} else if (cell->shown) {
		text_put_csv(f, cell->shown);
	}
}

static int print_csv(FILE *f, const struct table *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', f);
		text_put_csv(f, t->cols[c].key);
	}
	fputc('\n', f);
	for (size_t r = 0; r < table_rows(t); r++) {
		for (size_t c = 0; c < t->ncols; c++)
			put_csv_cell(f, t, c, cell_at(t, r, c));
		fputc('\n', f);
	}
	return 0;
}

/* ---- json ----------------------------------------------------------------- */

static json_t *json_cell(const struct table *t, size_t col,
			 const struct table_cell *cell)
{
	if (cell->span)
		return json_null();
	switch (t->cols[col].kind) {
	case TABLE_INT:
		return cell->shown ? json_integer((json_int_t)cell->i) : json_null();
	case TABLE_REAL:
		return json_number(cell->x);
	case TABLE_TEXT:
		break;
	}
	return cell->shown ? json_string(cell->shown) : json_null();
}

static int print_json(FILE *f, const struct table *t)
{
	json_t *rows = json_array(), *doc = rows;
	int rc;

	for (size_t r = 0; r < table_rows(t); r++) {
		json_t *o = json_object();

		for (size_t c = 0; c < t->ncols; c++)
			json_object_set_new(o, t->cols[c].key, json_cell(t, c, cell_at(t, r, c)));
		json_array_append_new(rows, o);
	}
	if (t->json_object) {
		json_t *notes = json_array();

		for (size_t k = 0; k < t->nnotes; k++)
			json_array_append_new(notes, json_string(t->notes[k]));
		doc = json_pack("{s:o, s:o}", "rows", rows, "notes", notes);
	}
	rc = json_print(f, doc);
	json_decref(doc);
	return rc;
}

/* ---- markdown and tap ------------------------------------------------------ */

/* s escaped and capped, then each of the characters in special backslashed. */
static void put_escaped(FILE *f, const char *s, size_t max, const char *special)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s, max);
	for (const char *p = sb.buf; *p; p++) {
		if (strchr(special, *p))
			fputc('\\', f);
		fputc(*p, f);
	}
}

static int print_markdown(FILE *f, const struct table *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		fputs("| ", f);
		put_escaped(f, t->cols[c].title, TEXT_CELL_MAX, "|");
		fputc(' ', f);
	}
	fputs("|\n", f);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->cols[c].kind == TABLE_TEXT ? "| --- " : "| ---: ", f);
	fputs("|\n", f);
	for (size_t r = 0; r < table_rows(t); r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			fputs("| ", f);
			put_escaped(f, shown(cell_at(t, r, c)), TEXT_CELL_MAX, "|");
			fputc(' ', f);
		}
		fputs("|\n", f);
	}
	for (size_t k = 0; k < t->nnotes; k++) {
		fputc('\n', f);
		put_escaped(f, t->notes[k], TEXT_MESSAGE_MAX, "|*_`<>[]");
		fputc('\n', f);
	}
	return 0;
}

/*
 * "ok 3 - id 7, median (ns) 24.46": every column titled; '#' escaped,
 * which would start a TAP directive.
 */
static int print_tap(FILE *f, const struct table *t)
{
	size_t next = 0;

	fprintf(f, "TAP version 13\n1..%zu\n", table_rows(t));
	for (size_t r = 0; r < table_rows(t); r++) {
		fprintf(f, "ok %zu -", r + 1);
		for (size_t c = 0; c < t->ncols; c++) {
			fputs(c ? ", " : " ", f);
			put_escaped(f, t->cols[c].title, TEXT_CELL_MAX, "#");
			fputc(' ', f);
			put_escaped(f, shown(cell_at(t, r, c)), TEXT_CELL_MAX, "#");
		}
		fputc('\n', f);
		put_details(f, t, r, "# ", &next);
	}
	put_hash_notes(f, t);
	return 0;
}

/* The formats a table prints itself as: 0, or -1 when it could not. */
static int (*const printers[])(FILE *f, const struct table *t) = {
	[FORMAT_TABLE] = print_aligned,
	[FORMAT_CSV] = print_csv,
	[FORMAT_JSON] = print_json,
	[FORMAT_MARKDOWN] = print_markdown,
	[FORMAT_TAP] = print_tap,
};

int table_print(FILE *f, const struct table *t, enum output_format fmt)
{
	if (t->ncols && t->ncells % t->ncols)
		fatal("table: the last row stops at column %zu of %zu",
		      t->ncells % t->ncols, t->ncols);
	if ((size_t)fmt >= ARRAY_SIZE(printers) || !printers[fmt])
		fatal("a table is not printed as %s", format_vocabulary[fmt]);
	if (printers[fmt](f, t) != 0)
		return -1;
	return ferror(f) ? -1 : 0;
}
