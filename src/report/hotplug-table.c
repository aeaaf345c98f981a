// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/hotplug-table.h"

#include "basic/stats.h"
#include "basic/util.h"
#include "report/output.h"
#include "results/resolution.h"

static const char *const directions[] = { "offline", "online" };

bool hotplug_table_applies(const struct stored_run *r)
{
	char name[32];

	if (!r->command || !streq(r->command, "hotplug"))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		snprintf(name, sizeof(name), "%s-sys", directions[i]);
		if (!stored_run_cell(r, directions[i]) || !stored_run_cell(r, name))
			return false;
	}
	return true;
}

/* label, then the statistics of cell name of r, in ms. */
static void print_row(FILE *f, const char *label, const struct stored_run *r,
		      const char *name)
{
	const struct stored_cell *c = stored_run_cell(r, name);
	struct summary s;
	char ci[64];

	fprintf(f, "%-15s", label);
	if (!c) {
		fputs(" -\n", f);
		return;
	}
	stored_cell_summarize(r, c, c->values, &s);
	format_median_ci(ci, sizeof(ci), &s, 1e3, 3);
	fprintf(f, " %4zu %9.3f %9.3f  %-24s %9.3f %7.1f%% %9.3f %5zu\n",
		s.n, s.min * 1e3, s.median * 1e3, ci, s.mean * 1e3,
		s.robust_cv_pct, s.max * 1e3, s.outliers);
}

void hotplug_table_print(FILE *f, const struct stored_run *r)
{
	char label[32], name[32];

	fprintf(f, "%-15s %4s %9s %9s  %-24s %9s %8s %9s %5s\n", "transition (ms)",
		"n", "min", "median", "[95% CI]", "mean", "rCV", "max", "outl");
	for (size_t i = 0; i < ARRAY_SIZE(directions); i++) {
		const char *d = directions[i];

		print_row(f, d, r, d);
		snprintf(label, sizeof(label), "  %s user", d);
		snprintf(name, sizeof(name), "%s-user", d);
		print_row(f, label, r, name);
		snprintf(label, sizeof(label), "  %s sys", d);
		snprintf(name, sizeof(name), "%s-sys", d);
		print_row(f, label, r, name);
	}
}
