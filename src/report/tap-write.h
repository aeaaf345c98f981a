/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing TAP 13 as kselftest does, the one writer of its lines: the plan,
 * a test point ("ok N NAME: message", "not ok N NAME: message", "ok N
 * NAME # SKIP why", "ok N NAME # XFAIL why", which results/tap.h reads
 * back), a diagnostic and the totals line. bench's --format tap and verify
 * print through it. A name or message's '#' and '\' are escaped here (TAP
 * 13); a caller with text from outside escapes the rest first
 * (basic/text.h: control characters, length).
 */
#ifndef CLOCKBENCH_TAP_WRITE_H
#define CLOCKBENCH_TAP_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "results/tap.h"

struct tap_totals {
	size_t pass, fail, xfail, skip, error;
};

/* "TAP version 13" and the plan, "1..N". */
void tap_write_plan(FILE *f, size_t planned);

/* Test point n; the message of a skip or an xfail is its reason. */
void tap_write_point(FILE *f, size_t n, const char *name, enum tap_result r,
		     const char *message);

/* "# Totals: pass:P fail:F xfail:X xpass:0 skip:S error:E" */
void tap_write_totals(FILE *f, const struct tap_totals *t);

#endif
