// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void figure_fixed(char *buf, size_t len, double x, int decimals)
{
	if (!isfinite(x))
		snprintf(buf, len, FIGURE_NONE);
	else
		snprintf(buf, len, "%.*f", decimals, x);
}

void figure_fixed_signed(char *buf, size_t len, double x, int decimals)
{
	if (!isfinite(x))
		snprintf(buf, len, FIGURE_NONE);
	else
		snprintf(buf, len, "%+.*f", decimals, x);
}

void figure_significant(char *buf, size_t len, double x, int sig)
{
	int magnitude;

	if (!isfinite(x)) {
		snprintf(buf, len, FIGURE_NONE);
		return;
	}
	if (x == 0) {
		snprintf(buf, len, "0");
		return;
	}
	/* The digits left of the point; the rest of sig go right of it. */
	magnitude = (int)floor(log10(fabs(x))) + 1;
	snprintf(buf, len, "%.*f", magnitude >= sig ? 0 : sig - magnitude, x);
}

void figure_signed(char *buf, size_t len, double x, int sig)
{
	if (x > 0 && len > 1) {
		buf[0] = '+';
		figure_significant(buf + 1, len - 1, x, sig);
		return;
	}
	figure_significant(buf, len, x, sig);
}

const char *figure_seconds_unit(double seconds, double *scale)
{
	if (seconds >= 1) {
		*scale = 1;
		return "s";
	}
	if (seconds >= 1e-3) {
		*scale = 1e3;
		return "ms";
	}
	*scale = 1e6;
	return "us";
}

void figure_shortest(char *buf, size_t len, double x)
{
	if (!isfinite(x)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}
