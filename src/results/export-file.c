// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The streamed reader of export files (results/export-file.h).
 *
 * The scanner only finds where a value ends (strings, escapes, nesting)
 * and counts its elements; jansson parses the value's text and reports its
 * syntax errors, which are moved to the value's place in the file. Lines
 * and columns are counted as jansson counts them: columns in characters.
 */
#include "results/export-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

/*
 * The most a value may hold before it is parsed: elements (array items,
 * members, containers) and bytes. A cell holds at most STORE_SAMPLES_MAX
 * samples, cycles and rounds; 32 bytes each allows for pretty-printing.
 */
struct value_limit {
	size_t nodes;
	size_t bytes;
	const char *what;	/* "a cell", for the error */
};

static const struct value_limit key_limit = { 1, 4096, "a member name" };
static const struct value_limit member_limit = {
	4 * STORE_SAMPLES_MAX, 256u << 20, "a member"
};
/* The environment, config and quality: refused before they are parsed. */
static const struct value_limit json_member_limit = {
	STORE_JSON_MAX / 2, STORE_JSON_MAX, "a run's environment, config or quality"
};
static const struct value_limit cell_limit = {
	3 * STORE_SAMPLES_MAX + 1024, 96u * STORE_SAMPLES_MAX + (1u << 20), "a cell"
};

enum reader_state { AT_START, IN_ENVELOPE, IN_RUNS, AT_END, FAILED };

struct export_file {
	char *name;
	int fd;
	bool own_fd;
	off_t start;			/* where the text begins in fd */
	unsigned char buf[1 << 16];
	size_t pos, len;
	int read_errno;			/* the read that failed, or 0 */
	int line, column;		/* of the last byte read */
	int last;			/* that byte, or -1 at the end */
	int key_line, key_column;	/* of the end of the last member name */
	int value_line, value_column;	/* of the first byte of text */
	enum reader_state state;
	bool first;			/* nothing read yet in this object/array */
	bool have_version, have_runs;
	size_t nruns;
	struct strbuf text;		/* the value being scanned */
	struct strbuf key;		/* the member name just read */
	struct strbuf keys;		/* the envelope's names, NUL-separated */
};

/* ---- errors --------------------------------------------------------- */

/* A syntax error at line:column; what says what, near where. */
static int syntax_err_at(struct export_file *f, struct strbuf *err,
			 int line, int column, const char *what,
			 const char *near)
{
	if (f->read_errno)
		strbuf_setf(err, "cannot read %s: %s", f->name,
			strerror(f->read_errno));
	else
		strbuf_setf(err, "%s:%d:%d: not valid JSON: %s near %s", f->name,
			line, column, what, near);
	f->state = FAILED;
	return -1;
}

/* A syntax error at the byte just taken, as jansson words it. */
static int syntax_err(struct export_file *f, struct strbuf *err,
		      const char *what)
{
	char near[16] = "'?'";

	if (f->last < 0)
		snprintf(near, sizeof(near), "end of file");
	else if (f->last >= 0x20 && f->last < 0x7f)
		snprintf(near, sizeof(near), "'%c'", f->last);
	return syntax_err_at(f, err, f->line, f->column, what, near);
}

/* A member name given twice, placed where jansson places it. */
static int duplicate_err(struct export_file *f, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf near = STRBUF_INIT;

	strbuf_adds(&near, "'\"");
	strbuf_add_escaped(&near, f->key.buf);
	strbuf_adds(&near, "\"'");
	return syntax_err_at(f, err, f->key_line, f->key_column,
			     "duplicate object key", near.buf);
}

/* A field that clockbench would not have written: "FILE: runs[2].uuid: ..". */
static int field_err(struct export_file *f, struct strbuf *err,
		     const char *fmt, ...) _printf_(3, 4);
static int field_err(struct export_file *f, struct strbuf *err,
		     const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_setf(err, "%s: %s", f->name, msg.buf);
	f->state = FAILED;
	return -1;
}

/* ---- bytes ---------------------------------------------------------- */

static bool refill(struct export_file *f)
{
	ssize_t n;

	if (f->pos < f->len)
		return true;
	do
		n = read(f->fd, f->buf, sizeof(f->buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		f->read_errno = errno;
	f->pos = 0;
	f->len = n > 0 ? (size_t)n : 0;
	return n > 0;
}

/* The next byte without taking it, or -1 at the end. */
static int peek(struct export_file *f)
{
	return refill(f) ? f->buf[f->pos] : -1;
}

static void count(struct export_file *f, unsigned char c)
{
	if (c == '\n') {
		f->line++;
		f->column = 0;
	} else if ((c & 0xc0) != 0x80) {	/* not inside a UTF-8 sequence */
		f->column++;
	}
}

static int take(struct export_file *f)
{
	int c = peek(f);

	f->last = c;
	if (c >= 0) {
		f->pos++;
		count(f, (unsigned char)c);
	}
	return c;
}

static int skip_space(struct export_file *f)
{
	int c;

	while ((c = peek(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		take(f);
	return c;
}

/* ---- one value's text ----------------------------------------------- */

struct scan {
	int depth;
	bool in_string, escape, done;
	size_t nodes;
};

static void scan_byte(struct scan *s, unsigned char c)
{
	if (s->in_string) {
		if (s->escape)
			s->escape = false;
		else if (c == '\\')
			s->escape = true;
		else if (c == '"')
			s->in_string = false, s->done = s->depth == 0;
		return;
	}
	if (c == '"') {
		s->in_string = true;
	} else if (c == '{' || c == '[') {
		s->depth++;
		s->nodes++;
	} else if (c == '}' || c == ']') {
		s->done = --s->depth <= 0;
	} else if (c == ',') {
		s->nodes++;
	}
}

/* The buffered bytes up to the end of the value (or of the buffer). */
static void scan_buffer(struct export_file *f, struct scan *s)
{
	const unsigned char *from = f->buf + f->pos, *p = from;
	const unsigned char *end = f->buf + f->len;

	while (p < end && !s->done) {
		count(f, *p);
		scan_byte(s, *p++);
	}
	strbuf_add(&f->text, from, (size_t)(p - from));
	f->pos = (size_t)(p - f->buf);
	if (p > from)
		f->last = p[-1];
}

static bool ends_scalar(int c)
{
	return c < 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == ',' || c == ']' || c == '}' || c == ':';
}

static int too_large(struct export_file *f, const struct value_limit *lim,
		     const char *where, struct strbuf *err)
{
	return field_err(f, err, "%s: larger than %s clockbench writes "
			 "(over %zu values or %zu bytes)", where, lim->what,
			 lim->nodes, lim->bytes);
}

/* A number, true, false or null: up to the next delimiter. */
static int scan_scalar(struct export_file *f, const struct value_limit *lim,
		       const char *where, struct strbuf *err)
{
	int c;

	while (!ends_scalar(c = peek(f))) {
		if (f->text.len >= lim->bytes)
			return too_large(f, lim, where, err);
		strbuf_addch(&f->text, (char)take(f));
	}
	if (f->text.len)
		return 0;
	take(f);
	return syntax_err(f, err, "unexpected token");
}

/* The text of the value that starts at the next byte, into f->text. */
static int scan_value(struct export_file *f, const struct value_limit *lim,
		      const char *where, struct strbuf *err)
{
	struct scan s = { .nodes = 1 };
	int c = peek(f);

	strbuf_reset(&f->text);
	f->value_line = f->line;
	f->value_column = f->column + 1;
	if (c != '{' && c != '[' && c != '"')
		return scan_scalar(f, lim, where, err);
	while (!s.done) {
		if (!refill(f)) {
			f->last = -1;
			return syntax_err(f, err, "premature end of input");
		}
		scan_buffer(f, &s);
		if (s.nodes > lim->nodes || f->text.len > lim->bytes)
			return too_large(f, lim, where, err);
	}
	return 0;
}

/* The scanned text as JSON; a syntax error is placed in the file. */
static json_t *parse_text(struct export_file *f, struct strbuf *err)
{
	json_error_t jerr;
	json_t *j = json_loadb(f->text.buf, f->text.len,
			       JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);

	if (j)
		return j;
	strbuf_setf(err, "%s:%d:%d: not valid JSON: %s", f->name,
		f->value_line + jerr.line - 1,
		jerr.line <= 1 ? f->value_column - 1 + jerr.column : jerr.column,
		jerr.text);
	f->state = FAILED;
	return NULL;
}

static json_t *read_value(struct export_file *f, const struct value_limit *lim,
			  const char *where, struct strbuf *err)
{
	if (scan_value(f, lim, where, err))
		return NULL;
	return parse_text(f, err);
}

/* ---- objects and arrays ----------------------------------------------- */

static int expect(struct export_file *f, int want, const char *what,
		  struct strbuf *err)
{
	if (skip_space(f) != want) {
		take(f);
		return syntax_err(f, err, what);
	}
	take(f);
	return 0;
}

/*
 * Before the next member of an object: 1 and its name in f->key, 0 at the
 * closing '}' (taken), -1 on an error.
 */
static int next_member(struct export_file *f, struct strbuf *err)
{
	json_t *name;
	int c = skip_space(f);

	if (c == '}') {
		take(f);
		return 0;
	}
	if (!f->first && expect(f, ',', "',' or '}' expected", err))
		return -1;
	f->first = false;
	if (skip_space(f) != '"') {
		take(f);
		return syntax_err(f, err, "string or '}' expected");
	}
	name = read_value(f, &key_limit, "a member name", err);
	if (!name)
		return -1;
	strbuf_reset(&f->key);
	strbuf_add(&f->key, json_string_value(name), json_string_length(name));
	json_decref(name);
	f->key_line = f->line;
	f->key_column = f->column;
	if (expect(f, ':', "':' expected", err))
		return -1;
	skip_space(f);
	return 1;
}

/*
 * Before the next element of an array: 1 when there is one, 0 at the
 * closing ']' (taken), -1 on an error.
 */
static int next_element(struct export_file *f, struct strbuf *err)
{
	int c = skip_space(f);

	if (c == ']') {
		take(f);
		return 0;
	}
	if (!f->first && expect(f, ',', "',' or ']' expected", err))
		return -1;
	f->first = false;
	skip_space(f);
	return 1;
}

/* A value that must be an array: true when '[' is next, taken. */
static bool open_array(struct export_file *f)
{
	if (peek(f) != '[')
		return false;
	take(f);
	f->first = true;
	return true;
}

/* The type of a value that is not what it should be, its syntax checked. */
static const char *wrong_type(struct export_file *f, const char *where,
			      struct strbuf *err)
{
	json_t *j = read_value(f, &member_limit, where, err);
	const char *type;

	if (!j)
		return NULL;
	switch (json_typeof(j)) {
	case JSON_OBJECT: type = "an object"; break;
	case JSON_ARRAY: type = "an array"; break;
	case JSON_STRING: type = "a string"; break;
	case JSON_INTEGER: type = "an integer"; break;
	case JSON_REAL: type = "a number"; break;
	case JSON_NULL: type = "null"; break;
	default: type = "a boolean"; break;
	}
	json_decref(j);
	return type;
}

/* ---- a run, member by member and cell by cell ---------------------------- */

struct run_reader {
	struct export_file *f;
	size_t idx;		/* runs[idx] */
	json_t *header;		/* every member but cells */
	struct stored_cell *cells;
	size_t ncells, cap;
	bool have_cells;
	struct strbuf *err;
};

static int read_cell(struct run_reader *rr)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	char where[64];
	struct stored_cell *c;
	json_t *j;
	int rc;

	snprintf(where, sizeof(where), "runs[%zu].cells[%zu]", rr->idx, rr->ncells);
	if (rr->ncells >= STORE_CELLS_MAX)
		return field_err(rr->f, rr->err, "runs[%zu].cells: more "
				 "than the %d cells clockbench writes in a run",
				 rr->idx, STORE_CELLS_MAX);
	j = read_value(rr->f, &cell_limit, where, rr->err);
	if (!j)
		return -1;
	grow_array((void **)&rr->cells, &rr->cap, rr->ncells + 1, sizeof(*c));
	c = &rr->cells[rr->ncells];
	rc = stored_cell_from_json(j, rr->ncells, c, &msg);
	json_decref(j);
	rr->ncells++;	/* freed with the others even when half-filled */
	if (rc)
		return field_err(rr->f, rr->err, "runs[%zu].%s", rr->idx,
				 msg.buf);
	return 0;
}

static int read_cells(struct run_reader *rr)
{
	struct export_file *f = rr->f;
	char where[48];
	const char *type;
	int rc;

	snprintf(where, sizeof(where), "runs[%zu].cells", rr->idx);
	if (rr->have_cells)
		return duplicate_err(f, rr->err);
	rr->have_cells = true;
	if (!open_array(f)) {
		type = wrong_type(f, where, rr->err);
		return type ? field_err(f, rr->err, "%s: expected an "
					"array, got %s", where, type) : -1;
	}
	while ((rc = next_element(f, rr->err)) == 1)
		if (read_cell(rr))
			return -1;
	f->first = false;
	return rc;
}

/* "runs[2].name" for messages, the name's control characters escaped. */
static void member_where(struct export_file *f, size_t idx, char *where,
			 size_t len)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, f->key.buf);
	snprintf(where, len, "runs[%zu].%.40s", idx, sb.buf);
}

static int read_header_member(struct run_reader *rr)
{
	struct export_file *f = rr->f;
	char where[96];
	json_t *v;

	member_where(f, rr->idx, where, sizeof(where));
	if (json_object_get(rr->header, f->key.buf))
		return duplicate_err(f, rr->err);
	v = read_value(f, streq(f->key.buf, "environment") ||
		       streq(f->key.buf, "config") || streq(f->key.buf, "quality") ?
		       &json_member_limit : &member_limit, where, rr->err);
	if (!v)
		return -1;
	json_object_set_new(rr->header, f->key.buf, v);
	return 0;
}

/* The run object's members, up to its closing '}'. */
static int read_run_members(struct run_reader *rr)
{
	struct export_file *f = rr->f;
	int rc;

	f->first = true;
	while ((rc = next_member(f, rr->err)) == 1) {
		if (strlen(f->key.buf) != f->key.len)
			return field_err(f, rr->err, "runs[%zu]: a member "
					 "name holds a NUL character", rr->idx);
		rc = streq(f->key.buf, "cells") ? read_cells(rr) :
		     read_header_member(rr);
		if (rc)
			return -1;
	}
	return rc;
}

static int finish_run(struct run_reader *rr, struct stored_run *run)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;

	if (!rr->have_cells)
		return field_err(rr->f, rr->err, "runs[%zu].cells: "
				 "missing", rr->idx);
	if (stored_run_header_from_json(rr->header, run, &msg))
		return field_err(rr->f, rr->err, "runs[%zu].%s", rr->idx,
				 msg.buf);
	run->cells = rr->cells;
	run->ncells = rr->ncells;
	rr->cells = NULL;
	rr->ncells = 0;
	/* The gate every foreign run passes, whatever brought it. */
	if (stored_run_check(run, &msg)) {
		stored_run_free(run);
		return field_err(rr->f, rr->err, "runs[%zu].%s", rr->idx,
				 msg.buf);
	}
	return 0;
}

static int read_run(struct export_file *f, struct stored_run *run,
		    struct strbuf *err)
{
	struct run_reader rr = {
		.f = f, .idx = f->nruns, .header = json_object(),
		.err = err,
	};
	int rc = -1;
	const char *type;

	memset(run, 0, sizeof(*run));
	if (peek(f) != '{') {
		type = wrong_type(f, "a run", err);
		if (type)
			field_err(f, err, "runs[%zu]: expected a run object, "
				  "got %s", rr.idx, type);
	} else {
		take(f);
		if (read_run_members(&rr) == 0 && finish_run(&rr, run) == 0)
			rc = 0;
	}
	f->first = false;	/* in the runs array, after this element */
	if (rr.cells) {
		/* A failed run's cells, freed as a run's are. */
		struct stored_run holder = { .cells = rr.cells, .ncells = rr.ncells };

		stored_run_free(&holder);
	}
	json_decref(rr.header);
	if (rc == 0)
		f->nruns++;
	return rc;
}

/* ---- the envelope ------------------------------------------------------- */

/* The format version: an integer this build reads. */
static int read_version(struct export_file *f, struct strbuf *err)
{
	json_t *v = read_value(f, &member_limit, "clockbench_export", err);
	json_int_t version;

	if (!v)
		return -1;
	version = json_is_integer(v) ? json_integer_value(v) : 0;
	json_decref(v);
	f->have_version = true;
	if (version < 1)
		return field_err(f, err, "clockbench_export: expected a "
				 "format version such as 1");
	if (version > STORE_EXPORT_VERSION)
		return field_err(f, err, "clockbench_export: format %"
				 JSON_INTEGER_FORMAT " is newer than this clockbench "
				 "reads (%d)", version, STORE_EXPORT_VERSION);
	return 0;
}

/* The envelope's names so far, to refuse one given twice. */
static bool seen_key(struct export_file *f)
{
	for (size_t at = 0; at < f->keys.len; at += strlen(f->keys.buf + at) + 1)
		if (streq(f->keys.buf + at, f->key.buf))
			return true;
	strbuf_add(&f->keys, f->key.buf, f->key.len + 1);
	return false;
}

/* One member of the envelope; "runs" switches to reading its runs. */
static int envelope_member(struct export_file *f, struct strbuf *err)
{
	const char *type;
	json_t *v;

	if (seen_key(f))
		return duplicate_err(f, err);
	if (streq(f->key.buf, "clockbench_export"))
		return read_version(f, err);
	if (!streq(f->key.buf, "runs")) {
		/* Other members ("tool", "store") say where the file came from. */
		v = read_value(f, &member_limit, "a member of the envelope", err);
		json_decref(v);
		return v ? 0 : -1;
	}
	f->have_runs = true;
	if (open_array(f)) {
		f->state = IN_RUNS;
		return 0;
	}
	type = wrong_type(f, "runs", err);
	return type ? field_err(f, err, "runs: expected an array") : -1;
}

/* After the envelope's '}': nothing but white space, and both members. */
static int finish_envelope(struct export_file *f, struct strbuf *err)
{
	if (skip_space(f) >= 0) {
		take(f);
		return syntax_err(f, err, "end of file expected");
	}
	if (f->read_errno)
		return syntax_err(f, err, "reading");
	if (!f->have_version)
		return field_err(f, err, "clockbench_export: missing (not a "
				 "file written by 'clockbench export')");
	if (!f->have_runs)
		return field_err(f, err, "runs: missing");
	f->state = AT_END;
	return 0;
}

static int open_envelope(struct export_file *f, struct strbuf *err)
{
	int c = skip_space(f);

	if (c == '{') {
		take(f);
		f->first = true;
		f->state = IN_ENVELOPE;
		return 0;
	}
	if (c < 0)
		return syntax_err(f, err, "'{' expected");
	if (!wrong_type(f, "the file", err))
		return -1;
	return field_err(f, err, "not a clockbench export: expected a "
			 "JSON object");
}

/* The members of the envelope; any other first member starts a lone run. */
static bool envelope_name(const char *key)
{
	return streq(key, "clockbench_export") || streq(key, "runs") ||
	       streq(key, "tool") || streq(key, "store");
}

/* Back to the first byte, keeping what was learnt about the file. */
static int restart(struct export_file *f, struct strbuf *err)
{
	if (lseek(f->fd, f->start, SEEK_SET) < 0) {
		strbuf_setf(err, "cannot read %s again: %s", f->name,
			strerror(errno));
		return -1;
	}
	f->pos = f->len = 0;
	f->line = 1;
	f->column = 0;
	f->last = -1;
	return 0;
}

/*
 * A file that is one run object, as `bench --format json --samples` and
 * `show --format json --samples` (one run) write it: read it whole.
 */
static int read_lone_run(struct export_file *f, struct stored_run *run,
			 struct strbuf *err)
{
	if (restart(f, err))
		return -1;
	skip_space(f);
	if (read_run(f, run, err)) {
		strbuf_adds(err, " (read as one run, as 'bench --format json "
			    "--samples' writes it)");
		return -1;
	}
	if (skip_space(f) >= 0) {
		take(f);
		stored_run_free(run);
		return syntax_err(f, err, "end of file expected");
	}
	f->state = AT_END;
	return 1;
}

/* One step: 1 a run was read, 0 go on (or the end: state AT_END), -1 error. */
static int step(struct export_file *f, struct stored_run *run, struct strbuf *err)
{
	int rc;

	switch (f->state) {
	case AT_START:
		return open_envelope(f, err);
	case IN_ENVELOPE:
		rc = next_member(f, err);
		if (rc == 0)
			return finish_envelope(f, err);
		if (rc == 1 && f->keys.len == 0 && !envelope_name(f->key.buf))
			return read_lone_run(f, run, err);
		return rc < 0 ? -1 : envelope_member(f, err);
	case IN_RUNS:
		rc = next_element(f, err);
		if (rc == 0) {
			f->state = IN_ENVELOPE;
			f->first = false;
			return 0;
		}
		return rc < 0 || read_run(f, run, err) ? -1 : 1;
	case AT_END:
		return 0;
	case FAILED:
		break;
	}
	strbuf_setf(err, "%s: not readable after an error", f->name);
	return -1;
}

int export_file_next(struct export_file *f, struct stored_run *run,
		     struct strbuf *err)
{
	int rc;

	memset(run, 0, sizeof(*run));
	do
		rc = step(f, run, err);
	while (rc == 0 && f->state != AT_END);
	return rc;
}

/* ---- opening -------------------------------------------------------------- */

/* An unnamed file in dir: O_TMPFILE, else a name removed at once. */
static int unnamed_file(const char *dir)
{
	char path[4096];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	snprintf(path, sizeof(path), "%s/clockbench-import.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

static int copy_fd(int from, int to)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		for (ssize_t done = 0, w; done < n; done += w) {
			w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno != EINTR)
				return -1;
			w = w < 0 ? 0 : w;
		}
	}
	return 0;
}

/* Standard input as a file that can be read twice. */
static int stdin_copy(struct strbuf *err)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = unnamed_file(dir);
	if (fd < 0 || copy_fd(STDIN_FILENO, fd) < 0) {
		strbuf_setf(err, "cannot keep a copy of standard input in %s: %s",
			dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int open_input(struct export_file *f, const char *name, struct strbuf *err)
{
	struct stat sb;

	f->own_fd = true;
	if (!streq(name, "-")) {
		f->fd = open(name, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			strbuf_setf(err, "cannot read %s: %s", name, strerror(errno));
		return f->fd < 0 ? -1 : 0;
	}
	if (fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (f->start = lseek(STDIN_FILENO, 0, SEEK_CUR)) >= 0) {
		f->fd = STDIN_FILENO;
		f->own_fd = false;
		return 0;
	}
	f->start = 0;
	f->fd = stdin_copy(err);
	return f->fd < 0 ? -1 : 0;
}

static struct export_file *export_file_new(const char *name)
{
	struct export_file *f = xcalloc(1, sizeof(*f));

	strbuf_init(&f->text);
	strbuf_init(&f->key);
	strbuf_init(&f->keys);
	f->name = xstrdup(name);
	return f;
}

struct export_file *export_file_open(const char *name, struct strbuf *err)
{
	struct export_file *f = export_file_new(name);

	if (open_input(f, name, err) ||
	    export_file_rewind(f, err)) {
		export_file_close(f);
		return NULL;
	}
	return f;
}

struct export_file *export_file_open_fd(int fd, const char *name,
					struct strbuf *err)
{
	struct export_file *f = export_file_new(name);

	f->fd = fd;
	f->own_fd = false;
	f->start = lseek(fd, 0, SEEK_CUR);
	if (f->start < 0 || export_file_rewind(f, err)) {
		if (f->start < 0)
			strbuf_setf(err, "cannot read %s: %s", name, strerror(errno));
		export_file_close(f);
		return NULL;
	}
	return f;
}

int export_file_rewind(struct export_file *f, struct strbuf *err)
{
	if (lseek(f->fd, f->start, SEEK_SET) < 0) {
		strbuf_setf(err, "cannot read %s again: %s", f->name,
			strerror(errno));
		return -1;
	}
	f->pos = f->len = 0;
	f->read_errno = 0;
	f->line = 1;
	f->column = 0;
	f->last = -1;
	f->state = AT_START;
	f->have_version = f->have_runs = false;
	f->nruns = 0;
	strbuf_reset(&f->keys);
	return 0;
}

size_t export_file_runs(const struct export_file *f)
{
	return f->nruns;
}

void export_file_close(struct export_file *f)
{
	if (!f)
		return;
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	strbuf_release(&f->text);
	strbuf_release(&f->key);
	strbuf_release(&f->keys);
	free(f->name);
	free(f);
}
