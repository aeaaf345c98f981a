/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error channel's last step: what a command tells its user on
 * stderr, one line each, prefixed with the command ("clockbench bench:
 * error: ..."). A message may echo an argument or a stored string, so it
 * is escaped and capped (basic/text.h). A function that can fail says why
 * in its `struct strbuf *err`; the command prints it once, here.
 */
#ifndef CLOCKBENCH_ERROR_H
#define CLOCKBENCH_ERROR_H

#include "basic/util.h"

/* "clockbench bench: error: ..." on stderr. */
void error_msg(const char *fmt, ...) _printf_(1, 2);
void warn_msg(const char *fmt, ...) _printf_(1, 2);
/*
 * One line naming the bad option or value; returns EXIT_USAGE, for a
 * command to return: "return usage_fail(\"--cpu %d: no such CPU\", cpu);"
 */
int usage_fail(const char *fmt, ...) _printf_(1, 2);

#endif
