// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/text.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/util.h"

static const char ellipsis[] = "\u2026";

/*
 * The code point of the UTF-8 sequence at p and its length, or 0 when p
 * starts no well-formed sequence (overlong, surrogate, beyond U+10FFFF,
 * cut short). Never reads past a NUL: a NUL is no continuation byte.
 */
static size_t utf8_decode(const unsigned char *p, uint32_t *cp)
{
	static const struct {
		unsigned char mask, lead;
		size_t len;
		uint32_t min;
	} forms[] = {
		{ 0x80, 0x00, 1, 0 }, { 0xe0, 0xc0, 2, 0x80 },
		{ 0xf0, 0xe0, 3, 0x800 }, { 0xf8, 0xf0, 4, 0x10000 },
	};

	for (size_t f = 0; f < ARRAY_SIZE(forms); f++) {
		uint32_t v;

		if ((p[0] & forms[f].mask) != forms[f].lead)
			continue;
		v = p[0] & (uint32_t)(unsigned char)~forms[f].mask;
		for (size_t i = 1; i < forms[f].len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			v = v << 6 | (p[i] & 0x3f);
		}
		if (v < forms[f].min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			return 0;
		*cp = v;
		return forms[f].len;
	}
	return 0;
}

/*
 * Invisible characters: those that change the order text is shown in
 * (bidi controls), show nothing at all (U+200B, U+2060, U+FEFF, the soft
 * hyphen, tags) or end a line no reader sees end (U+2028, U+2029).
 */
static bool is_invisible(uint32_t cp)
{
	return cp == 0x00ad || cp == 0x061c || cp == 0x180e ||
	       (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x206f) ||
	       cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb) ||
	       (cp >= 0xe0000 && cp <= 0xe007f);
}

/*
 * The longest text one character becomes: "\u" and up to six hex digits
 * (a code point's), or its UTF-8 bytes, and the NUL.
 */
#define ESCAPE_MAX 9

/*
 * One character of s at p: how to show it in out (NUL-terminated) and in
 * how many columns; returns the bytes of s it stands for.
 */
static size_t escape_one(const unsigned char *p, char out[ESCAPE_MAX],
			 size_t *cols)
{
	static const char named[][2] = {
		{ '\n', 'n' }, { '\t', 't' }, { '\r', 'r' }, { '\033', 'e' },
	};
	uint32_t cp;
	size_t n = utf8_decode(p, &cp);

	*cols = 1;
	if (n == 0) {
		*cols = 4;
		snprintf(out, ESCAPE_MAX, "\\x%02x", *p);
		return 1;
	}
	if (cp < 0x20 || cp == 0x7f) {
		for (size_t i = 0; i < ARRAY_SIZE(named); i++)
			if (cp == (unsigned char)named[i][0]) {
				*cols = 2;
				snprintf(out, ESCAPE_MAX, "\\%c", named[i][1]);
				return 1;
			}
		*cols = 4;
		snprintf(out, ESCAPE_MAX, "\\x%02x", cp);
		return 1;
	}
	if ((cp >= 0x80 && cp <= 0x9f) || is_invisible(cp)) {
		snprintf(out, ESCAPE_MAX, "\\u%04x", (unsigned)cp);
		*cols = strlen(out);
		return n;
	}
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

typedef void emit_fn(void *ctx, const char *piece);

/*
 * The escaped pieces of s to emit, up to max columns: a piece that would
 * reach the last column is shown only when it ends the string; otherwise
 * "…" takes that column and the rest is not read.
 */
static void escape_capped(const char *s, size_t max, emit_fn *emit, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0, n, w;
	char out[ESCAPE_MAX];

	if (max == 0)
		return;
	for (; *p; p += n) {
		n = escape_one(p, out, &w);
		if (cols + w >= max && !(cols + w == max && !p[n])) {
			emit(ctx, ellipsis);
			return;
		}
		emit(ctx, out);
		cols += w;
	}
}

static void emit_strbuf(void *ctx, const char *piece)
{
	strbuf_adds(ctx, piece);
}

static void emit_file(void *ctx, const char *piece)
{
	fputs(piece, ctx);
}

static void emit_count(void *ctx, const char *piece)
{
	*(size_t *)ctx += text_columns(piece);
}

void strbuf_add_text(struct strbuf *sb, const char *s, size_t max)
{
	escape_capped(s, max, emit_strbuf, sb);
}

void text_put(FILE *f, const char *s, size_t max)
{
	escape_capped(s, max, emit_file, f);
}

size_t text_width(const char *s, size_t max)
{
	size_t cols = 0;

	escape_capped(s, max, emit_count, &cols);
	return cols;
}

void text_put_cell(FILE *f, const char *s, size_t max, size_t width,
		   enum text_align align)
{
	size_t w = text_width(s, max), pad = w < width ? width - w : 0;

	if (align == TEXT_RIGHT)
		fprintf(f, "%*s", (int)pad, "");
	text_put(f, s, max);
	if (align == TEXT_LEFT)
		fprintf(f, "%*s", (int)pad, "");
}

void strbuf_add_escaped(struct strbuf *sb, const char *s)
{
	strbuf_add_text(sb, s, TEXT_UNCAPPED);
}

/* A fixed buffer, not a strbuf: a message may report running out of memory. */
void text_vline(FILE *f, const char *fmt, va_list ap)
{
	char line[4 * TEXT_MESSAGE_MAX];

	vsnprintf(line, sizeof(line), fmt, ap);
	text_put(f, line, TEXT_MESSAGE_MAX);
	fputc('\n', f);
}

void text_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vline(f, fmt, ap);
	va_end(ap);
}

void text_copy(char *buf, size_t len, const char *s, size_t max)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	size_t n;

	if (!len)
		return;
	strbuf_add_text(&sb, s, max);
	n = sb.len < len ? sb.len : len - 1;
	/* Cut between characters, never inside one. */
	while (n < sb.len && n > 0 && ((unsigned char)sb.buf[n] & 0xc0) == 0x80)
		n--;
	memcpy(buf, sb.buf, n);
	buf[n] = '\0';
}

void text_put_csv(FILE *f, const char *s)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s, TEXT_UNCAPPED);
	if (!strpbrk(sb.buf, ",\"")) {
		fputs(sb.buf, f);
		return;
	}
	fputc('"', f);
	for (const char *p = sb.buf; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

size_t text_columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Characters no POSIX shell treats specially anywhere in a word. */
static bool sh_plain(const char *s)
{
	return *s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789_@%+:,./-")];
}

int strbuf_add_sh_word(struct strbuf *sb, const char *s)
{
	_cleanup_strbuf_ struct strbuf shown = STRBUF_INIT;

	strbuf_add_text(&shown, s, TEXT_UNCAPPED);
	if (!streq(shown.buf, s))
		return -1;
	if (sh_plain(s)) {
		strbuf_adds(sb, s);
		return 0;
	}
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
	return 0;
}

const char *text_find_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return (const char *)p;
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return (const char *)p;
	}
	return NULL;
}
