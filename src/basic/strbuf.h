/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A growable string, in the manner of git's strbuf: always NUL-terminated,
 * so buf can be printed at any time, and never truncated. Used for error
 * messages and for text built in pieces.
 *
 *	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
 *	strbuf_addf(&sb, "%d cells", n);
 */
#ifndef CLOCKBENCH_STRBUF_H
#define CLOCKBENCH_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "basic/util.h"

struct strbuf {
	char *buf;	/* "" until something is added; never NULL */
	size_t len;
	size_t alloc;	/* 0: buf points at a shared empty string */
};

extern char strbuf_empty[];
#define STRBUF_INIT { .buf = strbuf_empty }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/* Hand the string to the caller (malloc'd) and reset sb. */
char *strbuf_detach(struct strbuf *sb);

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Replace the content: strbuf_reset() then strbuf_addf(). */
void strbuf_setf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);


static inline void strbuf_releasep(struct strbuf *sb)
{
	strbuf_release(sb);
}
#define _cleanup_strbuf_ _cleanup_(strbuf_releasep)

#endif
