// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/json.h"

#include <math.h>

json_t *json_number(double x)
{
	/* json_real() refuses both (NULL): the key would silently go. */
	return isfinite(x) ? json_real(x) : json_null();
}

int json_print(FILE *f, const json_t *j)
{
	/*
	 * 17 significant digits (jansson's default, said here so that no
	 * printer asks for fewer): every double reads back as itself.
	 */
	if (json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0)
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}
