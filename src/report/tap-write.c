// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/tap-write.h"

void tap_write_plan(FILE *f, size_t planned)
{
	fputs("TAP version 13\n", f);
	fprintf(f, "1..%zu\n", planned);
}

/*
 * TAP's one character of syntax inside a line: '#' starts a directive,
 * so a '#' of a name or a message (a label "x # SKIP" would turn a point
 * into a skip) is written "\#", and a backslash "\\", as TAP 13 says.
 */
static void put_tap_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '#' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void tap_write_point(FILE *f, size_t n, const char *name, enum tap_result r,
		     const char *message)
{
	static const char *const directive[] = {
		[TAP_PASS] = ": ", [TAP_FAIL] = ": ",
		[TAP_SKIP] = " # SKIP ", [TAP_XFAIL] = " # XFAIL ",
	};

	fprintf(f, "%s %zu ", r == TAP_FAIL ? "not ok" : "ok", n);
	put_tap_text(f, name);
	fputs(directive[r], f);
	put_tap_text(f, message);
	fputc('\n', f);
}

void tap_write_totals(FILE *f, const struct tap_totals *t)
{
	fprintf(f, "# Totals: pass:%zu fail:%zu xfail:%zu xpass:0 skip:%zu error:%zu\n",
		t->pass, t->fail, t->xfail, t->skip, t->error);
}
