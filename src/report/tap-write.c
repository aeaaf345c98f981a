// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/tap-write.h"

void tap_write_plan(FILE *f, size_t planned)
{
	fputs("TAP version 13\n", f);
	fprintf(f, "1..%zu\n", planned);
}

void tap_write_point(FILE *f, size_t n, const char *name, enum tap_result r,
		     const char *message)
{
	switch (r) {
	case TAP_PASS:
		fprintf(f, "ok %zu %s: %s\n", n, name, message);
		break;
	case TAP_FAIL:
		fprintf(f, "not ok %zu %s: %s\n", n, name, message);
		break;
	case TAP_SKIP:
		fprintf(f, "ok %zu %s # SKIP %s\n", n, name, message);
		break;
	case TAP_XFAIL:
		fprintf(f, "ok %zu %s # XFAIL %s\n", n, name, message);
		break;
	}
}

void tap_write_totals(FILE *f, const struct tap_totals *t)
{
	fprintf(f, "# Totals: pass:%zu fail:%zu xfail:%zu xpass:0 skip:%zu error:%zu\n",
		t->pass, t->fail, t->xfail, t->skip, t->error);
}
