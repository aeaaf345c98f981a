// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/compare-glance.h"

#include "basic/strbuf.h"
#include "basic/text.h"

/*
 * The spread is compare's (the robust CV of the per-repetition medians),
 * so this table and the summary above never disagree.
 */
void compare_print_timens_glance(FILE *f, const struct compare_result *cr)
{
	bool core = cr->metric == METRIC_CORE_CYCLES;
	_cleanup_strbuf_ struct strbuf centre = STRBUF_INIT;

	/* The centres diff is the ratio of, named as compare names them. */
	compare_centres_phrase(cr, &centre);
	fprintf(f, "\n# at a glance: %s per call, centre: %s; diff: the ratio of "
		"the two centres; rCV: robust CV of the "
		"per-repetition medians, 1.4826 MAD / median; mde: the change "
		"found 80%% of the time%s\n%-32s %-7s %9s %9s %8s %8s %8s %6s  %-7s%s\n",
		cr->unit, centre.buf, core ? "; ns-diff: the difference in ns" : "",
		"cell", "path", "host", "timens", "diff", "rCV-host", "rCV-ns",
		"mde", "verdict", core ? " ns-diff" : "");
	for (size_t i = 0; i < cr->nrows; i++) {
		const struct compare_row *row = &cr->rows[i];

		if (!row->diffs[1].valid)
			continue;
		text_put_cell(f, row->name, TEXT_CELL_MAX, 32, TEXT_LEFT);
		fputc(' ', f);
		text_put_cell(f, row->path, TEXT_CELL_MAX, 7, TEXT_LEFT);
		fprintf(f, " %9.2f %9.2f %+7.2f%% %7.2f%% %7.2f%% %5.1f%%  ",
			row->sides[0].center, row->sides[1].center,
			row->diffs[1].change_pct, row->sides[0].sum.robust_cv_pct,
			row->sides[1].sum.robust_cv_pct, row->diffs[1].mde_pct);
		if (core)
			fprintf(f, "%-7s %+6.2f%%\n", row->diffs[1].verdict,
				row->diffs[1].ns_change_pct);
		else
			fprintf(f, "%s\n", row->diffs[1].verdict);
	}
}
