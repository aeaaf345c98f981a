// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/strbuf.h"

#include <stdio.h>
#include <string.h>


char strbuf_empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->alloc ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return s;
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	if (need < 64)
		need = 64;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	sb->buf = sb->alloc ? xrealloc(sb->buf, need) : xmalloc(need);
	if (!sb->alloc)
		sb->buf[0] = '\0';
	sb->alloc = need;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (len < 0)
		fatal("bad format string '%s'", fmt);
	strbuf_grow(sb, (size_t)len);
	vsnprintf(sb->buf + sb->len, (size_t)len + 1, fmt, ap);
	sb->len += (size_t)len;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_setf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(sb);
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

