/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A figure as text, in one place: what a table shows (a fixed number of
 * decimals, or significant digits) and what a machine format writes (the
 * shortest text that reads back as exactly the figure). A figure that is
 * not finite (unmeasured, undefined) is shown as "-" and written as
 * nothing (CSV) or null (JSON, through basic/json.h).
 */
#ifndef CLOCKBENCH_FIGURE_H
#define CLOCKBENCH_FIGURE_H

#include <stddef.h>

/* What a table shows where a figure is missing. */
#define FIGURE_NONE "-"

/* x with decimals decimals ("12.35"), or FIGURE_NONE. */
void figure_fixed(char *buf, size_t len, double x, int decimals);

/* x with decimals decimals and its sign always ("+0.0", "-3.50"), or FIGURE_NONE. */
void figure_fixed_signed(char *buf, size_t len, double x, int decimals);

/*
 * x with sig significant digits, never in exponent form for a figure a
 * table shows (1234.6 at 3 digits is "1235", 0.0012345 is "0.00123"), or
 * FIGURE_NONE.
 */
void figure_significant(char *buf, size_t len, double x, int sig);

/* figure_significant() with its sign: "+1.23", "-0.5", "0". */
void figure_signed(char *buf, size_t len, double x, int sig);

/*
 * The unit a time of seconds reads best in: s from 1 s, ms from 1 ms,
 * else us; *scale turns seconds into it.
 */
const char *figure_seconds_unit(double seconds, double *scale);

/*
 * The shortest of x's 15-, 16- and 17-digit texts that reads back bit for
 * bit ("0.95", not "0.94999999999999996"); "" when x is not finite.
 */
void figure_shortest(char *buf, size_t len, double x);

#endif
