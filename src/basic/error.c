// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "basic/text.h"

/*
 * One line, whatever the message holds: it may echo an argument or a
 * stored string, so it is escaped and capped (basic/text.h).
 */
static void vreport(const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vreport(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", program_context(), kind);
	text_vline(stderr, fmt, ap);
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

int usage_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}
