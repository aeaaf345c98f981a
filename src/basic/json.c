// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/json.h"

#include <math.h>
#include <stdlib.h>

json_t *json_number(double x)
{
	/* json_real() refuses both (NULL): the key would silently go. */
	return isfinite(x) ? json_real(x) : json_null();
}

int json_print(FILE *f, const json_t *j)
{
	/*
	 * 17 significant digits (jansson's default, said here so that no
	 * printer asks for fewer): every double reads back as itself. Encoded
	 * whole, then written: a stream that fails mid-way is the stream's
	 * error (with its errno at the last flush), not a dump cut short.
	 */
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	int rc = 0;

	if (!text)
		return -1;
	if (fputs(text, f) == EOF)
		rc = -1;
	/* Also after a failure: the newline stays buffered for the last flush. */
	if (fputc('\n', f) == EOF)
		rc = -1;
	free(text);
	return rc;
}
