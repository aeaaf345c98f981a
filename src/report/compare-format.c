// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Presenting a comparison: the table styles the kernel community already
 * reads (mmtests, vdsotest ratios, the time-namespace summary, ministat),
 * and JSON, CSV and Markdown for programs and mail.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "results/compare.h"
#include "report/compare-format.h"
#include "report/tap-write.h"
#include "report/textplot.h"
#include "basic/figure.h"
#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"

const char *const compare_style_names[] = {
	[STYLE_TABLE] = "table",
	[STYLE_MMTESTS] = "mmtests",
	[STYLE_RATIO] = "ratio",
	[STYLE_SUMMARY] = "summary",
	[STYLE_MINISTAT] = "ministat",
	[STYLE_CHANGES] = "changes",
	NULL,
};

const char *const compare_format_names[] = {
	"table", "json", "csv", "markdown", "tap", NULL,
};

int compare_style_by_name(const char *name)
{
	for (int i = 0; compare_style_names[i]; i++)
		if (streq(name, compare_style_names[i]))
			return i;
	return -1;
}

/* ---- names ---------------------------------------------------------- */

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * The names below come from stored runs and the command line: each is
 * built here, escaped and capped (basic/text.h), and printed as built.
 */
#define TITLE_BYTES TEXT_CELL_BYTES

/* A column title: the label, or "run N" for a bare id. */
static void group_title(const struct compare_group *g, char *buf, size_t len)
{
	_cleanup_strbuf_ struct strbuf raw = STRBUF_INIT;

	if (!all_digits(g->spec))
		strbuf_adds(&raw, g->spec);
	else if (g->nruns == 1 && g->runs[0].label && *g->runs[0].label)
		strbuf_addf(&raw, "%s#%s", g->runs[0].label, g->spec);
	else
		strbuf_addf(&raw, "run %s", g->spec);
	text_copy(buf, len, raw.buf, TEXT_CELL_MAX);
}

/* "clock-gettime-monotonic-vdso": name and path as one row label. */
static void row_label(const struct compare_row *row, char *buf, size_t len)
{
	_cleanup_strbuf_ struct strbuf raw = STRBUF_INIT;

	strbuf_adds(&raw, row->name);
	if (*row->path)
		strbuf_addf(&raw, "-%s", row->path);
	text_copy(buf, len, raw.buf, TEXT_CELL_MAX);
}

/* The width of the row-label column: the longest label, at least 40. */
static int label_width(const struct compare_result *r)
{
	char label[TITLE_BYTES];
	size_t w = 40;

	for (size_t i = 0; i < r->nrows; i++) {
		row_label(&r->rows[i], label, sizeof(label));
		if (text_columns(label) + 1 > w)
			w = text_columns(label) + 1;
	}
	return (int)w;
}

/* A built (safe) name in a column of width characters. */
static void put_padded(FILE *f, const char *safe, int width, enum text_align align)
{
	text_put_cell(f, safe, (size_t)width, (size_t)width, align);
}

/* A stored string in a line of text, escaped. */
static void put_text(FILE *f, const char *s)
{
	text_put(f, s, TEXT_CELL_MAX);
}

/* "NAME PATH" of a row, escaped. */
static void put_row_name(FILE *f, const struct compare_row *row)
{
	put_text(f, row->name);
	fputc(' ', f);
	put_text(f, row->path);
}

static const char *correction_name(enum compare_correction c)
{
	return c == CORRECT_HOLM ? "Holm" : c == CORRECT_BH ? "Benjamini-Hochberg" : "no";
}

static bool any_side_by_rounds(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->rows[i].sides[g].by_rounds)
				return true;
	return false;
}

static void print_rule(FILE *f, const struct compare_result *r);

static const char *statistics_over(const struct compare_result *r)
{
	if (r->replicates)
		return "one value per run, the median of its round medians "
		       "(replicates)";
	if (r->paired && any_side_by_rounds(r))
		return "each run's round medians, paired round by round (interleaved)";
	if (r->paired)
		return "each run's raw samples, measured interleaved";
	return any_side_by_rounds(r) ? "each run's round medians" :
	       "each run's raw samples";
}

/* The summary's name for the centre row: what every side of it shows. */
static const char *center_label(const struct compare_result *r)
{
	bool median = false, other = false;

	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++) {
			const struct compare_side *s = &r->rows[i].sides[g];

			if (!s->present)
				continue;
			median |= s->center_kind == CENTER_MEDIAN;
			other |= s->center_kind != CENTER_MEDIAN;
		}
	if (!other)
		return "median";
	return median ? "centre" : "gmean";
}

/* "run 3 label x, bench 2026-..., complete, kernel 6.1, host h". */
static void print_group_runs(FILE *f, const struct compare_group *grp)
{
	const struct stored_run *first = &grp->runs[0];

	if (grp->nruns == 1) {
		fprintf(f, "run %lld", (long long)first->id);
		if (*first->label) {
			fputs(" label ", f);
			put_text(f, first->label);
		}
		fputs(", ", f);
		put_text(f, first->command);
		fputc(' ', f);
		put_text(f, first->started);
		fputs(", ", f);
		put_text(f, first->status);
	} else {
		fprintf(f, "%zu runs (replicates), ", grp->nruns);
		put_text(f, first->started);
		fputs(" .. ", f);
		put_text(f, grp->runs[grp->nruns - 1].started);
	}
	fputs(", kernel ", f);
	put_text(f, first->kernel);
	if (grp->nruns == 1) {
		fputs(", host ", f);
		put_text(f, first->host);
	}
	fputc('\n', f);
}

/*
 * "DIFFERENT between the base and B: clocksource hpet against tsc; ...",
 * then what one difference alone can explain: above the verdicts, since
 * a verdict of such sides is the machines' as much as the kernels'.
 */
static void print_side_differences(FILE *f, const struct compare_result *r,
				   const char *lead)
{
	char base[TITLE_BYTES], title[TITLE_BYTES];

	group_title(&r->groups[0], base, sizeof(base));
	for (size_t g = 1; g < r->ngroups; g++) {
		const struct side_differences *d = &r->side_differences[g];

		if (!d->n)
			continue;
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "%sDIFFERENT between %s and %s: ", lead, base, title);
		for (size_t i = 0; i < d->n; i++) {
			fprintf(f, "%s%s ", i ? "; " : "", d->items[i].fact);
			text_put(f, d->items[i].base, TEXT_LINE_MAX);
			fputs(" against ", f);
			text_put(f, d->items[i].other, TEXT_LINE_MAX);
		}
		fputc('\n', f);
		if (d->explains) {
			fprintf(f, "%s  ", lead);
			text_put(f, d->explains, TEXT_LINE_MAX);
			fputc('\n', f);
		}
	}
}

static bool any_estimate(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].estimate)
				return true;
	return false;
}

static void print_header(FILE *f, const struct compare_result *r)
{
	char title[TITLE_BYTES];

	for (size_t g = 0; g < r->ngroups; g++) {
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "# %s %s: ", g == 0 ? "base " : "other", title);
		print_group_runs(f, &r->groups[g]);
	}
	fputs("# metric: ", f);
	put_text(f, r->unit_shown);
	fprintf(f, ", lower is better; statistics over %s\n", statistics_over(r));
	if (r->metric == METRIC_CORE_CYCLES)
		fprintf(f, "# core cycles per call do not move with the core's frequency "
			"(clockbench-bench(1)); ns-change: the same change in ns\n");
	if (r->exact)
		fprintf(f, "# instructions: guest instructions retired per call, "
			"counted under qemu's icount (kernels --exact), the harness's "
			"loop included once (show gives its empty call's count); each "
			"boot's count a value; same: every boot of both sides counted "
			"the same, better/worse: each side's boots all counted alike, "
			"differently from the other's\n");
	for (size_t g = 1; g < r->ngroups; g++) {
		if (!r->machine_shift[g])
			continue;
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "# WARNING: %.0f%% of the cells of %s moved the same way "
			"(geomean %+.1f%%), syscall and vDSO paths alike: the machine "
			"itself may have changed between the runs; compare replicates "
			"(several runs per label) or interleave (clockbench timens)\n",
			100.0 * r->same_direction[g], title, r->geomean_change_pct[g]);
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		if (!r->pooled_invocations[g])
			continue;
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "# NOTE: the %zu runs of %s come from different interleaved "
			"invocations (timens or ab run more than once under one label): "
			"pooled here as replicates, each apart from the run it was paired "
			"with; compare one invocation's runs by id for a paired verdict\n",
			r->groups[g].nruns, title);
	}
	for (size_t g = 1; g < r->ngroups; g++) {
		if (!r->machine_difference || !r->machine_difference[g])
			continue;
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "# WARNING: the machine differed between the base and %s (%s): "
			"a change may be the machine's; alternate them in one run "
			"(exec -c A -c B, ab) or compare replicates\n", title,
			r->machine_difference[g]);
	}
	print_rule(f, r);
}

/*
 * The rule, in words: which test (ranks on single runs, t on the logs of
 * the replicates' values, or on too few samples for ranks), the
 * correction, and the floor the CI must clear.
 */
static bool history_used(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].valid &&
			    r->rows[i].diffs[g].test == TEST_LOG_T_HISTORY)
				return true;
	return false;
}

/* Whether some cell was judged by a test at all. */
static bool compare_tests_any(const struct compare_result *r)
{
	static const enum compare_test all[] = {
		TEST_RANK, TEST_LOG_T, TEST_SIGNED_RANK, TEST_LOG_T_HISTORY,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (compare_test_used(r, all[i]))
			return true;
	return false;
}

static void print_rule(FILE *f, const struct compare_result *r)
{
	_cleanup_strbuf_ struct strbuf tests = STRBUF_INIT, centres = STRBUF_INIT;

	compare_tests_phrase(r, &tests);
	compare_centres_phrase(r, &centres);
	if (compare_tests_any(r))
		fprintf(f, "# significant: %s-adjusted p < %g (%s) and the 95%% CI "
			"of the change beyond +-%g%%%s\n",
			correction_name(r->opts.correction), r->opts.alpha, tests.buf,
			r->opts.threshold_pct, any_side_by_rounds(r) && !r->paired &&
			!r->replicates && !history_used(r) ?
			" or the rounds' robust CV, whichever is larger" : "");
	if (history_used(r))
		fprintf(f, "# h: one run against one, Student's t with the spread of "
			"%zu earlier runs like the base (same host, command, kernel, "
			"clocksource) as the noise between runs; the floor is then "
			"+-%g%%\n", r->history_used, r->opts.threshold_pct);
	if (any_estimate(r))
		fputs("# user and sys below a tick's worth of CPU time on both sides "
		      "are the kernel's tick-sampled estimates (as the runs recorded): "
		      "shown, with no verdict (few)\n", f);
	if (compare_spread_unknown(r))
		fprintf(f, "# one run against one, with no history of runs like the "
			"base (%zu of the %d needed): how far whole runs move on this "
			"machine is unknown, so the change is shown without a p, a CI or "
			"a verdict (few); %s\n", r->history_used, COMPARE_HISTORY_MIN,
			compare_verdict_hint);
	fprintf(f, "# value: %s; +-: half its 95%% CI (its real coverage when the "
		"samples are too few for 95%%; (n=2: no CI): too few values for one); "
		"change: the ratio of the two values; "
		"diff: the other's value minus the base's, in ", centres.buf);
	put_text(f, r->unit_shown);
	fprintf(f, "; noisy: a side's rCV (robust CV, 100 * 1.4826 MAD / median) "
		"above %g%%; mde: the change found 80%% of the time with these "
		"spreads (before the correction)\n", r->opts.noise_pct);
}

/* ---- the geomean row ----------------------------------------------- */

/* Why a reason's rows are out of the geomean, as the note says it. */
static const char *const geomean_exclusion_text[GEOMEAN_EXCLUSIONS] = {
	[GEOMEAN_MISSING] = "not in every group",
	[GEOMEAN_NOT_POSITIVE] = "a value not above 0 (no geometric mean holds one)",
	[GEOMEAN_ESTIMATE] = "a tick-sampled estimate, not judged",
};

void compare_geomean_note(const struct compare_result *r, struct strbuf *out)
{
	const char *sep = "";

	strbuf_addf(out, "over %zu of %zu cells; left out, ",
		    r->nrows - r->geomean_left_out, r->nrows);
	for (int why = GEOMEAN_IN + 1; why < GEOMEAN_EXCLUSIONS; why++) {
		size_t shown = 0;

		if (!r->geomean_excluded[why])
			continue;
		strbuf_addf(out, "%s%s: ", sep, geomean_exclusion_text[why]);
		for (size_t i = 0; i < r->nrows && shown < 8; i++) {
			char label[TITLE_BYTES];

			if (r->rows[i].out_of_geomean != (enum geomean_exclusion)why)
				continue;
			row_label(&r->rows[i], label, sizeof(label));
			strbuf_addf(out, "%s%s", shown++ ? ", " : "", label);
		}
		if (r->geomean_excluded[why] > shown)
			strbuf_addf(out, " and %zu more", r->geomean_excluded[why] - shown);
		sep = "; ";
	}
}

/*
 * "# geomean: over 2 of 3 cells; left out, a value not above 0 (...): sys",
 * in the style's comment lead; nothing when every cell is in.
 */
static void print_geomean_note(FILE *f, const struct compare_result *r,
			       const char *lead, const char *end)
{
	_cleanup_strbuf_ struct strbuf note = STRBUF_INIT;

	if (!r->geomean_left_out)
		return;
	compare_geomean_note(r, &note);
	fprintf(f, "%sgeomean: %s%s", lead, note.buf, end);
}

/* ---- table (benchstat-like) ----------------------------------------- */

static double ci_halfwidth_pct(const struct compare_side *s)
{
	double half = fmax(s->center - s->center_lo, s->center_hi - s->center);

	return s->center > 0 ? 100.0 * half / s->center : 0;
}

/* The fewest values whose centre's interval is shown. */
#define CENTER_CI_MIN_N 3

/*
 * "26.01 ±0.3%", "26.01 ±4.2% (75%)" when short of 95 %, "26.01" with
 * none, "7.2e-05 (n=2: no CI)" with too few values for one (the
 * legend says so; the column keeps its width).
 */
static void format_center(char *buf, size_t len, const struct compare_side *s,
			  double scale)
{
	int w;

	if (!s->present) {
		snprintf(buf, len, "%s", s->status[0] ? s->status : "-");
		return;
	}
	w = snprintf(buf, len, "%.4g", s->center * scale);
	if (!(s->center_coverage > 0) || w < 0 || (size_t)w >= len)
		return;
	/*
	 * Two values give a t with one degree of freedom: an interval of
	 * +-10^8 % (hotplug's states) says nothing but that they are too few.
	 */
	if (s->n < CENTER_CI_MIN_N) {
		snprintf(buf + w, len - (size_t)w, " (n=%zu: no CI)", s->n);
		return;
	}
	w += snprintf(buf + w, len - (size_t)w, " ±%.1f%%", ci_halfwidth_pct(s));
	if (!stats_ci_honours(s->center_coverage, 0.95) && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, " (%.0f%%)",
			 100.0 * s->center_coverage);
}

/*
 * The groups' column titles: as wide as the longest (min at least); a
 * title past max columns is never cut (two cut labels could not be told
 * apart: "kernel-6.12.118-with…" twice): every column is then a letter,
 * A, B, ..., named in a legend above the table.
 */
struct title_cols {
	int width;
	bool legend;
};

static struct title_cols title_cols(const struct compare_result *r, int min, int max)
{
	struct title_cols c = { .width = min };
	char title[TITLE_BYTES];

	for (size_t g = 0; g < r->ngroups; g++) {
		int w;

		group_title(&r->groups[g], title, sizeof(title));
		w = (int)text_columns(title);
		if (w > max)
			c.legend = true;
		else if (w > c.width)
			c.width = w;
	}
	if (c.legend)
		c.width = min;
	return c;
}

/* Group g's column title: its own, or its letter with a legend. */
static void group_column_title(const struct compare_result *r, size_t g,
			       const struct title_cols *c, char *buf, size_t len)
{
	if (c->legend)
		snprintf(buf, len, "%c", (char)('A' + g % 26));
	else
		group_title(&r->groups[g], buf, len);
}

static void print_title_legend(FILE *f, const struct compare_result *r,
			       const struct title_cols *c)
{
	char title[TITLE_BYTES];

	for (size_t g = 0; c->legend && g < r->ngroups; g++) {
		group_title(&r->groups[g], title, sizeof(title));
		fprintf(f, "# %c: %s\n", (char)('A' + g % 26), title);
	}
}

/* The table's and mmtests' figure columns: 21 wide, a title never cut. */
#define FIGURE_COLUMN 21

static void print_value(FILE *f, const struct compare_side *s, double scale)
{
	char buf[48];

	format_center(buf, sizeof(buf), s, scale);
	fprintf(f, " %21s", buf);
}

static const char *test_short(const struct compare_diff *d)
{
	return d->test == TEST_LOG_T ? "t" : d->test == TEST_LOG_T_HISTORY ? "h" :
	       d->test == TEST_SIGNED_RANK ? "W" : d->test == TEST_EXACT ? "=" : "U";
}

static void print_mde(FILE *f, const struct compare_diff *d)
{
	if (isfinite(d->mde_pct))
		fprintf(f, " %5.1f%%", d->mde_pct);
	else
		fprintf(f, " %6s", "-");
}

/*
 * The change in the metric's own unit, as seed 004 writes "(9 cycles)"
 * beside a percentage: the other's value minus the base's, as shown.
 */
static void print_diff(FILE *f, const struct compare_result *r,
		       const struct compare_diff *d)
{
	char buf[32];

	figure_signed(buf, sizeof(buf), d->shift * r->unit_scale, 3);
	fprintf(f, " %9s", buf);
}

static void print_table_block(FILE *f, const struct compare_result *r, size_t g)
{
	char base[TITLE_BYTES], other[TITLE_BYTES], label[TITLE_BYTES];
	int w = label_width(r);
	struct title_cols c = title_cols(r, FIGURE_COLUMN, FIGURE_COLUMN);

	group_column_title(r, 0, &c, base, sizeof(base));
	group_column_title(r, g, &c, other, sizeof(other));
	fputc('\n', f);
	print_title_legend(f, r, &c);
	fprintf(f, "%-*s ", w, "cell");
	put_padded(f, base, FIGURE_COLUMN, TEXT_RIGHT);
	fputc(' ', f);
	put_padded(f, other, FIGURE_COLUMN, TEXT_RIGHT);
	fprintf(f, " %24s %9s %8s %4s %6s %6s  %-7s%s\n", "change [95% CI]", "diff",
		"p", "test", "delta", "mde", "verdict",
		r->metric == METRIC_CORE_CYCLES ? " ns-change" : "");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];
		const struct compare_diff *d = &row->diffs[g];

		row_label(row, label, sizeof(label));
		put_padded(f, label, w, TEXT_LEFT);
		print_value(f, &row->sides[0], r->unit_scale);
		print_value(f, &row->sides[g], r->unit_scale);
		if (!d->valid) {
			fputs("\n", f);
			continue;
		}
		/* No interval without a test (one run against one, an estimate). */
		if (!isfinite(d->change_lo_pct))
			fprintf(f, " %+7.2f%% %16s", d->change_pct, "");
		else
			fprintf(f, " %+7.2f%% [%+6.2f, %+6.2f]", d->change_pct,
				d->change_lo_pct, d->change_hi_pct);
		print_diff(f, r, d);
		if (d->spread_unknown || d->estimate)
			fprintf(f, " %8s %4s", "-", "-");
		else if (isfinite(d->p_adjusted))
			fprintf(f, " %8.2g %4s", d->p_adjusted, test_short(d));
		else
			fprintf(f, " %8s %4s", "-", test_short(d));
		fprintf(f, " %+6.2f", d->cliffs_delta);
		print_mde(f, d);
		/* Padded only when a figure follows: no trailing blanks. */
		if (isfinite(d->ns_change_pct))
			fprintf(f, "  %-7s %+8.2f%%\n", d->verdict, d->ns_change_pct);
		else
			fprintf(f, "  %s\n", d->verdict);
	}
	fprintf(f, "%-*s %21.4g %21.4g %+7.2f%%\n", w, "geomean",
		r->geomean[0] * r->unit_scale, r->geomean[g] * r->unit_scale,
		r->geomean_change_pct[g]);
	print_geomean_note(f, r, "# ", "\n");
}

static void print_table(FILE *f, const struct compare_result *r)
{
	print_header(f, r);
	for (size_t g = 1; g < r->ngroups; g++)
		print_table_block(f, r, g);
}

/* ---- changes ------------------------------------------------------------ */

/* "+3.13", a change with its sign; none when not finite. */
static void add_signed(struct table *t, double pct)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%+.2f", pct);
	table_add_real_shown(t, pct, buf);
}

/* "[-15.02, +5.29]", or none without a test. */
static void add_ci_text(struct table *t, const struct compare_diff *d)
{
	char ci[48];

	if (!isfinite(d->change_lo_pct)) {
		table_add_missing(t);
		return;
	}
	snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", d->change_lo_pct, d->change_hi_pct);
	table_add_real_shown(t, d->change_lo_pct, ci);
}

static const char *test_name(const struct compare_diff *d);

static void add_change_row(struct table *t, const struct compare_result *r,
			   const struct compare_row *row, const struct compare_diff *d)
{
	_cleanup_strbuf_ struct strbuf label = STRBUF_INIT;
	char diff[32];

	/* As given: the model escapes what it prints. */
	strbuf_adds(&label, row->name);
	if (*row->path)
		strbuf_addf(&label, "-%s", row->path);
	table_add_text(t, label.buf);
	if (!d->valid) {
		table_add_span(t, "not measured on both sides");
		return;
	}
	add_signed(t, d->change_pct);
	add_ci_text(t, d);
	figure_signed(diff, sizeof(diff), d->shift * r->unit_scale, 3);
	table_add_real_shown(t, d->shift * r->unit_scale, diff);
	if (isfinite(d->p_adjusted) && !d->spread_unknown && !d->estimate)
		table_add_real(t, d->p_adjusted, 3);
	else
		table_add_missing(t);
	table_add_text(t, test_name(d));
	table_add_text(t, d->verdict);
	table_add_text(t, d->reason);
	if (r->metric == METRIC_CORE_CYCLES)
		add_signed(t, d->ns_change_pct);
}

/* Group g's changes against the base, one row a cell. */
static struct table *changes_table(const struct compare_result *r, size_t g)
{
	struct table *t = table_new();

	table_add_column(t, "cell", NULL, TABLE_TEXT, NULL);
	table_add_column(t, "change_pct", "change", TABLE_REAL, "%");
	table_add_column(t, "change_ci95_lo_pct", "95% CI", TABLE_REAL, NULL);
	table_add_column(t, "diff", "diff", TABLE_REAL, r->unit_shown);
	table_add_column(t, "p_adjusted", "p", TABLE_REAL, NULL);
	table_add_text_columns(t, "test", "verdict", "why", NULL);
	if (r->metric == METRIC_CORE_CYCLES)
		table_add_column(t, "ns_change_pct", "ns-change", TABLE_REAL, "%");
	for (size_t i = 0; i < r->nrows; i++)
		add_change_row(t, r, &r->rows[i], &r->rows[i].diffs[g]);
	return t;
}

static void print_changes(FILE *f, const struct compare_result *r)
{
	char base[TITLE_BYTES], other[TITLE_BYTES];

	print_header(f, r);
	group_title(&r->groups[0], base, sizeof(base));
	for (size_t g = 1; g < r->ngroups; g++) {
		struct table *t = changes_table(r, g);

		group_title(&r->groups[g], other, sizeof(other));
		fprintf(f, "\n%s against %s:\n", other, base);
		table_print(f, t, FORMAT_TABLE);
		table_free(t);
		fprintf(f, "geomean %+.2f%%\n", r->geomean_change_pct[g]);
		print_geomean_note(f, r, "# ", "\n");
	}
}

/* ---- mmtests (seed 001) ---------------------------------------------- */

/* mmtests' sign: positive is better; for lower-is-better 100 - new/base*100. */
static double mmtests_pct(const struct compare_diff *d)
{
	return 100.0 - 100.0 * d->ratio;
}

/*
 * The decimals of mmtests' figures: 2 as mmtests prints them, more when
 * the smallest centre is below 1, so that every figure keeps 3
 * significant digits and its percentage can be checked against it (0.41
 * and 0.82 beside -85.64 %).
 */
static int mmtests_decimals(const struct compare_result *r)
{
	double least = INFINITY;
	int d;

	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->rows[i].sides[g].present && r->rows[i].sides[g].center > 0)
				least = fmin(least, r->rows[i].sides[g].center * r->unit_scale);
	if (!isfinite(least))
		return 2;
	d = 2 - (int)floor(log10(least));
	return d < 2 ? 2 : d > 6 ? 6 : d;
}

/* A row's figures, mmtests' way: "0.0243 (   0.00%)", "0.0215 * 11.41%*". */
static void mmtests_figures(FILE *f, const struct compare_result *r,
			    const struct compare_row *row, int dec)
{
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct compare_side *s = &row->sides[g];
		const struct compare_diff *d = &row->diffs[g];

		double v = s->center * r->unit_scale;

		if (!s->present)
			fprintf(f, " %21s", "-");
		else if (g == 0)
			fprintf(f, " %10.*f (%7.2f%%)", dec, v, 0.0);
		else if (!d->valid)
			fprintf(f, " %10.*f %10s", dec, v, "");
		else if (d->significant)
			fprintf(f, " %10.*f * %6.2f%%*", dec, v, mmtests_pct(d));
		else
			fprintf(f, " %10.*f (%7.2f%%)", dec, v, mmtests_pct(d));
	}
	fputc('\n', f);
}

/* The groups' titles over the figures, after a label column of w. */
static void mmtests_titles(FILE *f, const struct compare_result *r, int w)
{
	struct title_cols c = title_cols(r, FIGURE_COLUMN, FIGURE_COLUMN);
	char title[TITLE_BYTES];

	print_title_legend(f, r, &c);
	fprintf(f, "%-*s", w, "");
	for (size_t g = 0; g < r->ngroups; g++) {
		group_column_title(r, g, &c, title, sizeof(title));
		fputc(' ', f);
		put_padded(f, title, FIGURE_COLUMN, TEXT_RIGHT);
	}
	fputc('\n', f);
}

/*
 * A scale run's cell "times-threads-8" on path libc: its API and thread
 * count; false for any other cell.
 */
static bool split_threads_cell(const struct compare_row *row, char *api,
			       size_t len, unsigned long *threads)
{
	const char *t = strstr(row->name, "-threads-");
	char *end;

	if (!t || t == row->name)
		return false;
	*threads = strtoul(t + 9, &end, 10);
	if (*end || end == t + 9)
		return false;
	snprintf(api, len, "%.*s", (int)(t - row->name), row->name);
	return true;
}

static bool all_threads_cells(const struct compare_result *r)
{
	char api[TITLE_BYTES];
	unsigned long n;

	for (size_t i = 0; i < r->nrows; i++)
		if (!split_threads_cell(&r->rows[i], api, sizeof(api), &n))
			return false;
	return r->nrows > 0;
}

/*
 * A scale run as mmtests prints poundtime (the threads thread of times()):
 * a block per API and path, a row per thread count, the kernels or labels
 * as columns.
 */
static void print_mmtests_scale(FILE *f, const struct compare_result *r, int dec)
{
	bool *done = xcalloc(r->nrows, sizeof(*done));
	char api[TITLE_BYTES], other[TITLE_BYTES];
	unsigned long n;

	for (size_t i = 0; i < r->nrows; i++) {
		if (done[i])
			continue;
		split_threads_cell(&r->rows[i], api, sizeof(api), &n);
		fputc('\n', f);
		put_text(f, api);
		fputc(' ', f);
		put_text(f, r->rows[i].path);
		fputc('\n', f);
		mmtests_titles(f, r, 16);
		for (size_t j = i; j < r->nrows; j++) {
			split_threads_cell(&r->rows[j], other, sizeof(other), &n);
			if (done[j] || !streq(api, other) || !streq(r->rows[i].path, r->rows[j].path))
				continue;
			done[j] = true;
			fprintf(f, "%-8s %7lu", center_label(r), n);
			mmtests_figures(f, r, &r->rows[j], dec);
		}
	}
	free(done);
}

static void print_mmtests(FILE *f, const struct compare_result *r)
{
	char title[TITLE_BYTES], label[TITLE_BYTES];
	int w = label_width(r), dec = mmtests_decimals(r);

	print_header(f, r);
	group_title(&r->groups[0], title, sizeof(title));
	fputs("# Figures in ", f);
	put_text(f, r->unit_shown);
	fprintf(f, ". Percentages refer to %s, negative = worse; "
		"* marks a significant difference.\n", title);
	if (all_threads_cells(r)) {
		print_mmtests_scale(f, r, dec);
		/* Of every block, so apart from the last one. */
		fputs("\n# over all the blocks' cells:\n", f);
		w = 16;
	} else {
		fputc('\n', f);
		mmtests_titles(f, r, w);
		for (size_t i = 0; i < r->nrows; i++) {
			row_label(&r->rows[i], label, sizeof(label));
			put_padded(f, label, w, TEXT_LEFT);
			mmtests_figures(f, r, &r->rows[i], dec);
		}
	}
	fprintf(f, "%-*s %10.*f (%7.2f%%)", w, "Gmean", dec, r->geomean[0] * r->unit_scale,
		0.0);
	for (size_t g = 1; g < r->ngroups; g++)
		fprintf(f, " %10.*f (%7.2f%%)", dec, r->geomean[g] * r->unit_scale,
			-r->geomean_change_pct[g]);
	fputc('\n', f);
	print_geomean_note(f, r, "# ", "\n");
}

/* ---- ratio (seed 002) ------------------------------------------------ */

static const char *ratio_mark(const struct compare_diff *d)
{
	if (d->significant)
		return "";
	if (streq(d->verdict, "~"))
		return "  (~ no significant change)";
	if (streq(d->verdict, "noisy"))
		return "  (noisy)";
	return "  (too few samples)";
}

static void print_ratio(FILE *f, const struct compare_result *r)
{
	char base[TITLE_BYTES], other[TITLE_BYTES], label[TITLE_BYTES];
	int w = label_width(r);

	print_header(f, r);
	group_title(&r->groups[0], base, sizeof(base));
	for (size_t g = 1; g < r->ngroups; g++) {
		group_title(&r->groups[g], other, sizeof(other));
		fprintf(f, "\n# %s on %s / %s on %s, in %% (smaller is better)\n",
			r->exact ? "instructions" : "time", other,
			r->exact ? "instructions" : "time", base);
		for (size_t i = 0; i < r->nrows; i++) {
			const struct compare_diff *d = &r->rows[i].diffs[g];

			if (!d->valid)
				continue;
			row_label(&r->rows[i], label, sizeof(label) - 1);
			strcat(label, ":");
			put_padded(f, label, w + 1, TEXT_LEFT);
			fprintf(f, " %5.0f %%%s\n", 100.0 * d->ratio, ratio_mark(d));
		}
		fprintf(f, "%-*s %5.0f %%\n", w + 1, "geomean:",
			100.0 + r->geomean_change_pct[g]);
		print_geomean_note(f, r, "# ", "\n");
	}
}

/* ---- summary (seed 000) ---------------------------------------------- */

/* The summary's columns: 11 wide at least, as seed 000 prints them. */
#define SUMMARY_TITLE_MIN 11
#define SUMMARY_TITLE_MAX 32

static void summary_rule(FILE *f, size_t ngroups, const struct title_cols *c)
{
	for (size_t i = 0; i < 8 + (size_t)(c->width + 3) * ngroups; i++)
		fputc('-', f);
	fputc('\n', f);
}

enum summary_figure { SUM_CENTER, SUM_DIFF, SUM_RCV, SUM_MDE };

/* One figure of one group; NaN when it has none ("-"). */
static double summary_figure(const struct compare_row *row, size_t g,
			     enum summary_figure what)
{
	const struct compare_side *s = &row->sides[g];
	const struct compare_diff *d = &row->diffs[g];

	if (!s->present)
		return NAN;
	switch (what) {
	case SUM_CENTER:
		return s->center;
	case SUM_DIFF:
		return g == 0 ? 100.0 : d->valid ? 100.0 * d->ratio : NAN;
	case SUM_RCV:
		return s->sum.robust_cv_pct;
	case SUM_MDE:
		return g && d->valid ? d->mde_pct : NAN;
	}
	return NAN;
}

/* A row of figures: %.4g for the centres, %.<decimals>f for percentages. */
static void summary_line(FILE *f, const struct compare_result *r,
			 const struct compare_row *row, const char *label,
			 enum summary_figure what, int decimals,
			 const struct title_cols *c)
{
	fprintf(f, "%-8s", label);
	for (size_t g = 0; g < r->ngroups; g++) {
		double v = summary_figure(row, g, what);

		if (isfinite(v) && what == SUM_CENTER)
			fprintf(f, "| %*.4g ", c->width, v * r->unit_scale);
		else if (isfinite(v))
			fprintf(f, "| %*.*f ", c->width, decimals, v);
		else
			fprintf(f, "| %*s ", c->width, "-");
	}
	fputc('\n', f);
	summary_rule(f, r->ngroups, c);
}

static void print_summary_block(FILE *f, const struct compare_result *r,
				const struct compare_row *row,
				const struct title_cols *c)
{
	char title[TITLE_BYTES];

	fputc('\n', f);
	put_row_name(f, row);
	fprintf(f, "\n%-8s", "");
	for (size_t g = 0; g < r->ngroups; g++) {
		group_column_title(r, g, c, title, sizeof(title));
		fputs("| ", f);
		put_padded(f, title, c->width, TEXT_LEFT);
		fputc(' ', f);
	}
	fputc('\n', f);
	summary_rule(f, r->ngroups, c);
	summary_line(f, r, row, center_label(r), SUM_CENTER, 0, c);
	summary_line(f, r, row, "diff %", SUM_DIFF, 1, c);
	summary_line(f, r, row, "rCV %", SUM_RCV, 2, c);
	summary_line(f, r, row, "mde %", SUM_MDE, 1, c);
	fprintf(f, "%-8s| %-*s ", "verdict", c->width, "base");
	for (size_t g = 1; g < r->ngroups; g++)
		fprintf(f, "| %-*s ", c->width,
			row->diffs[g].valid ? row->diffs[g].verdict : "-");
	fputc('\n', f);
}

static void print_summary(FILE *f, const struct compare_result *r)
{
	_cleanup_strbuf_ struct strbuf centres = STRBUF_INIT;
	struct title_cols c = title_cols(r, SUMMARY_TITLE_MIN, SUMMARY_TITLE_MAX);

	compare_centres_phrase(r, &centres);
	print_header(f, r);
	fprintf(f, "# %s: %s; diff %%: 100 times its ratio to the base's; rCV %%: "
		"robust CV of %s; mde %%: see above\n", center_label(r),
		centres.buf, r->replicates ? "the runs' values" :
		any_side_by_rounds(r) ? "the round medians" : "the samples");
	print_title_legend(f, r, &c);
	for (size_t i = 0; i < r->nrows; i++)
		print_summary_block(f, r, &r->rows[i], &c);
}

/* ---- ministat -------------------------------------------------------- */

static const char ministat_symbols[] = "x+*%#@O";

/* ministat's own picture: the legend, then every sample on one axis. */
static void print_ministat_plot(FILE *f, const struct compare_result *r,
				const struct compare_row *row)
{
	struct textplot_set *sets = xcalloc(r->ngroups, sizeof(*sets));
	size_t n = 0;
	char title[TITLE_BYTES];

	for (size_t g = 0; g < r->ngroups; g++) {
		const struct compare_side *s = &row->sides[g];

		if (!s->present || !s->n)
			continue;
		group_title(&r->groups[g], title, sizeof(title));
		sets[n].symbol = ministat_symbols[g % (sizeof(ministat_symbols) - 1)];
		fprintf(f, "%c %s\n", sets[n].symbol, title);
		sets[n].x = s->samples;
		sets[n++].n = s->n;
	}
	textplot_ministat(f, sets, n, 76);
	free(sets);
}

static void print_ministat_block(FILE *f, const struct compare_result *r,
				 const struct compare_row *row)
{
	const struct compare_side *base = &row->sides[0];

	fputc('\n', f);
	put_row_name(f, row);
	fputs(" (", f);
	put_text(f, r->unit);
	fputs(")\n", f);
	print_ministat_plot(f, r, row);
	fprintf(f, "    %-6s %13s %13s %13s %13s %13s\n", "N", "Min", "Max", "Median",
		"Avg", "Stddev");
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct summary *s = &row->sides[g].sum;

		if (!row->sides[g].present)
			continue;
		fprintf(f, "%c %6zu %13.6g %13.6g %13.6g %13.6g %13.6g\n",
			ministat_symbols[g % (sizeof(ministat_symbols) - 1)], s->n,
			s->min, s->max, s->median, s->mean, s->stddev);
	}
	for (size_t g = 1; g < r->ngroups; g++) {
		const struct compare_diff *d = &row->diffs[g];

		if (!d->valid)
			continue;
		if (!d->ttest.significant) {
			fprintf(f, "%c No difference proven at 95.0%% confidence\n",
				ministat_symbols[g % (sizeof(ministat_symbols) - 1)]);
			continue;
		}
		fprintf(f, "%c Difference at 95.0%% confidence\n"
			"\t%g +/- %g\n\t%.2f%% +/- %.2f%%\n"
			"\t(Student's t, pooled s = %g)\n",
			ministat_symbols[g % (sizeof(ministat_symbols) - 1)],
			d->ttest.diff, d->ttest.halfwidth,
			100.0 * d->ttest.diff / base->sum.mean,
			100.0 * d->ttest.halfwidth / base->sum.mean, d->ttest.pooled_sd);
	}
}

static void print_ministat(FILE *f, const struct compare_result *r)
{
	print_header(f, r);
	fprintf(f, "# ministat: Student's t on the means, pooled variance "
		"(the verdicts of the other styles use the rule above)\n");
	for (size_t i = 0; i < r->nrows; i++)
		print_ministat_block(f, r, &r->rows[i]);
}

/* ---- JSON ------------------------------------------------------------ */

/* [lo, hi] when it covers the level, else null: a CI that says 95 % is one. */
static json_t *ci_or_null(double lo, double hi, double coverage)
{
	if (!stats_ci_honours(coverage, 0.95))
		return json_null();
	return json_pack("[o, o]", json_number(lo), json_number(hi));
}

/*
 * center is what the change is about (median, or the replicates'
 * geometric mean); its coverage is that of center_range, which is the
 * 95 % CI (center_ci95) only when the coverage reaches 95 %.
 */
static json_t *side_to_json(const struct compare_side *s)
{
	json_t *o;

	if (!s->present)
		return json_null();
	o = json_pack("{s:I, s:o, s:o, s:[o, o], s:o, s:o, s:o, s:o, s:o}",
		      "n", (json_int_t)s->n,
		      "center", json_number(s->center),
		      "center_ci95", ci_or_null(s->center_lo, s->center_hi,
						s->center_coverage),
		      "center_range", json_number(s->center_lo),
		      json_number(s->center_hi),
		      "center_coverage", json_number(s->center_coverage),
		      "median", json_number(s->sum.median),
		      "median_ci95", ci_or_null(s->sum.median_lo, s->sum.median_hi,
						s->sum.median_ci_coverage),
		      "mean", json_number(s->sum.mean),
		      "stddev_pct", json_number(s->sum.cv_pct));
	json_object_set_new(o, "robust_cv_pct", json_number(s->sum.robust_cv_pct));
	json_object_set_new(o, "within_run_rse_pct", s->within_var > 0 ?
			    json_real(100.0 * sqrt(s->within_var)) : json_null());
	json_object_set_new(o, "outliers", json_integer((json_int_t)s->sum.outliers));
	json_object_set_new(o, "noisy", json_boolean(s->noisy));
	json_object_set_new(o, "few", json_boolean(s->few));
	json_object_set_new(o, "samples", json_numbers(s->samples, s->n));
	if (isfinite(s->ns_median))
		json_object_set_new(o, "ns_median", json_real(s->ns_median));
	return o;
}

static const char *test_name(const struct compare_diff *d)
{
	return d->spread_unknown || d->estimate ? "none" : compare_test_id(d->test);
}

static json_t *diff_to_json(const struct compare_diff *d)
{
	json_t *o;

	if (!d->valid)
		return json_null();
	o = json_pack("{s:o, s:o, s:o, s:[o, o], s:o, s:o, s:o, s:o, s:b, s:s}",
		      "ratio", json_number(d->ratio),
		      "floor_pct", json_number(d->floor_pct),
		      "change_pct", json_number(d->change_pct),
		      "change_ci95_pct", json_number(d->change_lo_pct),
		      json_number(d->change_hi_pct),
		      "shift", json_number(d->shift),
		      "p", json_number(d->p),
		      "p_adjusted", json_number(d->p_adjusted),
		      "cliffs_delta", json_number(d->cliffs_delta),
		      "significant", d->significant,
		      "verdict", d->verdict);
	json_object_set_new(o, "test", json_string(test_name(d)));
	json_object_set_new(o, "reason", json_string(d->reason));
	json_object_set_new(o, "df", json_number(d->df));
	json_object_set_new(o, "spread_floored", json_boolean(d->spread_floored));
	json_object_set_new(o, "rounds_span", json_boolean(d->rounds_span));
	json_object_set_new(o, "spread_unknown", json_boolean(d->spread_unknown));
	json_object_set_new(o, "estimate", json_boolean(d->estimate));
	if (d->test == TEST_LOG_T_HISTORY)
		json_object_set_new(o, "history_runs", json_integer((json_int_t)d->history_runs));
	json_object_set_new(o, "mde_pct", json_number(d->mde_pct));
	json_object_set_new(o, "emulated", json_boolean(d->emulated));
	if (isfinite(d->ns_change_pct))
		json_object_set_new(o, "ns_change_pct", json_real(d->ns_change_pct));
	return o;
}

/* "differences": [{"fact", "base", "other"}], and what one can explain. */
static void side_differences_to_json(json_t *group, const struct side_differences *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "fact", d->items[i].fact,
						   "base", d->items[i].base,
						   "other", d->items[i].other));
	json_object_set_new(group, "differences", a);
	json_object_set_new(group, "difference_explains",
			    d->explains ? json_string(d->explains) : json_null());
}

static json_t *groups_to_json(const struct compare_result *r)
{
	json_t *a = json_array();

	for (size_t g = 0; g < r->ngroups; g++) {
		json_t *ids = json_array();

		for (size_t k = 0; k < r->groups[g].nruns; k++)
			json_array_append_new(ids, json_integer(r->groups[g].runs[k].id));
		json_array_append_new(a, json_pack("{s:s, s:o, s:b, s:b, s:b, s:s?, s:o, s:o}",
			"spec", r->groups[g].spec, "runs", ids,
			"machine_shift", r->machine_shift[g], "emulated", r->emulated[g],
			"pooled_invocations", r->pooled_invocations[g],
			"machine_difference", r->machine_difference ?
					      r->machine_difference[g] : NULL,
			"geomean", json_number(r->geomean[g]),
			"geomean_change_pct", g ? json_number(r->geomean_change_pct[g])
						: json_real(0)));
		side_differences_to_json(json_array_get(a, g), &r->side_differences[g]);
	}
	return a;
}

/* The tests used and what the centres are, named as the text names them. */
static void rule_names_json(json_t *rule, const struct compare_result *r)
{
	_cleanup_strbuf_ struct strbuf tests = STRBUF_INIT, centres = STRBUF_INIT;

	compare_tests_phrase(r, &tests);
	compare_centres_phrase(r, &centres);
	json_object_set_new(rule, "tests", json_string(tests.buf));
	json_object_set_new(rule, "center", json_string(centres.buf));
	json_object_set_new(rule, "history_runs", json_integer((json_int_t)r->history_used));
	if (compare_spread_unknown(r))
		json_object_set_new(rule, "no_verdict", json_string(compare_verdict_hint));
}

static json_t *compare_to_json(const struct compare_result *r)
{
	json_t *rows = json_array(), *j;

	for (size_t i = 0; i < r->nrows; i++) {
		json_t *sides = json_array(), *diffs = json_array();

		for (size_t g = 0; g < r->ngroups; g++) {
			json_array_append_new(sides, side_to_json(&r->rows[i].sides[g]));
			if (g)
				json_array_append_new(diffs, diff_to_json(&r->rows[i].diffs[g]));
		}
		json_array_append_new(rows, json_pack("{s:s, s:s, s:o, s:o, s:b}",
			"name", r->rows[i].name, "path", r->rows[i].path,
			"groups", sides, "vs_base", diffs,
			"in_geomean", !r->rows[i].out_of_geomean));
	}
	j = json_pack("{s:s, s:s, s:s, s:b, s:b, s:{s:f, s:f, s:f, s:s, s:s, s:f,"
			 " s:f}, s:o, s:o}",
			 "metric", compare_metric_name(r->metric),
			 "unit", r->unit, "direction", "lower is better",
			 "replicates", r->replicates, "paired", r->paired,
			 "rule", "alpha", r->opts.alpha,
			 "threshold_pct", r->opts.threshold_pct,
			 "noise_pct", r->opts.noise_pct,
			 "correction", correction_name(r->opts.correction),
			 "spread", "robust CV: 100 * 1.4826 MAD / median",
			 "ci_level", 0.95, "mde_power", 0.8,
			 "groups", groups_to_json(r), "cells", rows);
	rule_names_json(json_object_get(j, "rule"), r);
	return j;
}

/* ---- CSV and Markdown ------------------------------------------------ */

/* ",x", or "," when x is unknown. */
static void csv_optional(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.6g", x);
	else
		fputc(',', f);
}

/*
 * ",x" with prec significant digits (fixed: prec decimals), or "," when x
 * is not a number: no "nan" in a CSV.
 */
static void csv_number(FILE *f, int prec, bool fixed, double x)
{
	fputc(',', f);
	if (isfinite(x) && fixed)
		fprintf(f, "%.*f", prec, x);
	else if (isfinite(x))
		fprintf(f, "%.*g", prec, x);
}

static void print_csv(FILE *f, const struct compare_result *r)
{
	char title[TITLE_BYTES];

	fputs("cell,path,group,n,center,center_lo,center_hi,center_coverage,"
	      "median,stddev_pct,robust_cv_pct,change_pct,change_ci95_lo_pct,"
	      "change_ci95_hi_pct,p,p_adjusted,test,cliffs_delta,mde_pct,verdict,"
	      "ns_median,ns_change_pct,diff\n",
	      f);
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++) {
			const struct compare_side *s = &r->rows[i].sides[g];
			const struct compare_diff *d = &r->rows[i].diffs[g];

			if (!s->present)
				continue;
			group_title(&r->groups[g], title, sizeof(title));
			text_put_csv(f, r->rows[i].name);
			fputc(',', f);
			text_put_csv(f, r->rows[i].path);
			fputc(',', f);
			text_put_csv(f, title);
			fprintf(f, ",%zu", s->n);
			csv_number(f, 6, false, s->center);
			csv_number(f, 6, false, s->center_lo);
			csv_number(f, 6, false, s->center_hi);
			csv_number(f, 4, false, s->center_coverage);
			csv_number(f, 6, false, s->sum.median);
			csv_number(f, 4, false, s->sum.cv_pct);
			csv_number(f, 4, false, s->sum.robust_cv_pct);
			if (g == 0 || !d->valid) {
				fputs(",,,,,,,,,", f);
			} else {
				csv_number(f, 4, true, d->change_pct);
				csv_number(f, 4, true, d->change_lo_pct);
				csv_number(f, 4, true, d->change_hi_pct);
				csv_number(f, 4, false, d->p);
				csv_number(f, 4, false, d->p_adjusted);
				fprintf(f, ",%s", test_name(d));
				csv_number(f, 4, true, d->cliffs_delta);
				csv_number(f, 3, true, d->mde_pct);
				fprintf(f, ",%s", d->verdict);
			}
			csv_optional(f, s->ns_median);
			csv_optional(f, g && d->valid ? d->ns_change_pct : NAN);
			csv_optional(f, g && d->valid ? d->shift : NAN);
			fputc('\n', f);
		}
}

/* A Markdown table cell: escaped text, its pipes escaped too. */
static void put_markdown(FILE *f, const char *s)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s, TEXT_CELL_MAX);
	for (const char *p = sb.buf; *p; p++) {
		if (*p == '|')
			fputc('\\', f);
		fputc(*p, f);
	}
}

static void print_markdown(FILE *f, const struct compare_result *r)
{
	_cleanup_strbuf_ struct strbuf centres = STRBUF_INIT, tests = STRBUF_INIT;
	char title[TITLE_BYTES];

	fprintf(f, "| cell | path |");
	for (size_t g = 0; g < r->ngroups; g++) {
		group_title(&r->groups[g], title, sizeof(title));
		fputc(' ', f);
		put_markdown(f, title);
		fputs(g ? " | change | diff | mde | verdict |" : " |", f);
	}
	fputs("\n|---|---|", f);
	for (size_t g = 0; g < r->ngroups; g++)
		fputs(g ? "---:|---:|---:|---:|---|" : "---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < r->nrows; i++) {
		fputs("| ", f);
		put_markdown(f, r->rows[i].name);
		fputs(" | ", f);
		put_markdown(f, r->rows[i].path);
		fputs(" |", f);
		for (size_t g = 0; g < r->ngroups; g++) {
			const struct compare_side *s = &r->rows[i].sides[g];
			const struct compare_diff *d = &r->rows[i].diffs[g];

			if (s->present)
				fprintf(f, " %.4g |", s->center * r->unit_scale);
			else
				fputs(" - |", f);
			if (g && d->valid) {
				char diff[32], mde[32];

				figure_signed(diff, sizeof(diff), d->shift * r->unit_scale, 3);
				figure_fixed(mde, sizeof(mde), d->mde_pct, 1);
				fprintf(f, " %+.2f%% | %s | %s%s | %s |", d->change_pct, diff,
					mde, isfinite(d->mde_pct) ? "%" : "", d->verdict);
			} else if (g) {
				fputs(" | | | |", f);
			}
		}
		fputc('\n', f);
	}
	fprintf(f, "| geomean | |");
	for (size_t g = 0; g < r->ngroups; g++)
		fprintf(f, g ? " %.4g | %+.2f%% | | | |" : " %.4g |",
			r->geomean[g] * r->unit_scale, r->geomean_change_pct[g]);
	fputs("\n\n", f);
	print_geomean_note(f, r, "", ".\n\n");
	compare_centres_phrase(r, &centres);
	compare_tests_phrase(r, &tests);
	put_text(f, r->unit_shown);
	fprintf(f, ", lower is better; value: %s; change: the ratio of the two "
		"values; diff: their difference, in that unit. Significant: %s-adjusted p < %g (%s) and the 95%% CI of the "
		"change beyond ±%g%%. mde: the change found 80%% of the time.\n",
		centres.buf, correction_name(r->opts.correction), r->opts.alpha,
		tests.buf, r->opts.threshold_pct);
	if (compare_spread_unknown(r))
		fprintf(f, "\nOne run against one: how far whole runs move on this "
			"machine is unknown, so no verdict (few); %s.\n",
			compare_verdict_hint);
}

/*
 * Which groups' timings are emulated, and what that means, before any
 * figure: an emulator's costs are no hardware's, and one is never judged
 * against the other.
 */
static void print_emulation_note(FILE *f, const struct compare_result *r,
				 const char *lead)
{
	size_t n = 0, hw = 0;

	for (size_t g = 0; g < r->ngroups; g++)
		n += r->emulated[g];
	if (!n || r->exact)
		return;
	fprintf(f, "%sEMULATED timings (qemu TCG) in ", lead);
	for (size_t g = 0, k = 0; g < r->ngroups; g++) {
		if (!r->emulated[g]) {
			hw++;
			continue;
		}
		fputs(k++ ? ", " : "", f);
		put_text(f, r->groups[g].spec);
	}
	fputs(": they compare code paths on one emulator, not hardware costs", f);
	if (hw)
		fputs("; never judged against the timings from hardware (n/a)", f);
	if (!r->opts.judge_emulated)
		fputs("; --fail-on passes over them unless --judge-emulated", f);
	fputs(".\n", f);
}

/* Which groups ran on another architecture than the base: two machines. */
static void print_arch_note(FILE *f, const struct compare_result *r, const char *lead)
{
	for (size_t g = 1; g < r->ngroups; g++) {
		if (!r->other_arch || !r->other_arch[g])
			continue;
		fprintf(f, "%sANOTHER ARCHITECTURE: ", lead);
		put_text(f, r->groups[g].spec);
		fputs(" ran on ", f);
		put_text(f, json_string_value(json_object_get(r->groups[g].runs[0].env,
							      "machine")));
		fputs(", the base on ", f);
		put_text(f, json_string_value(json_object_get(r->groups[0].runs[0].env,
							      "machine")));
		fputs(": two machines, never judged against each other (n/a).\n", f);
	}
}

/* ---- tap ------------------------------------------------------------ */

/*
 * "clock-gettime-monotonic vdso, B against A": a point's name, one token
 * per word as kselftest's, escaped.
 */
static void tap_point_name(struct strbuf *name, const struct compare_result *r,
			   const struct compare_row *row, size_t g)
{
	char base[TITLE_BYTES], other[TITLE_BYTES], label[TITLE_BYTES];

	row_label(row, label, sizeof(label));
	strbuf_adds(name, label);
	if (r->ngroups > 2) {
		group_title(&r->groups[0], base, sizeof(base));
		group_title(&r->groups[g], other, sizeof(other));
		strbuf_addf(name, " %s-vs-%s", other, base);
	}
}

/* "26.10 -> 27.41 ns, +5.02 % [95 % CI +4.41, +5.63], +1.31 ns: worse" */
static void tap_point_message(struct strbuf *msg, const struct compare_result *r,
			      const struct compare_row *row, size_t g)
{
	const struct compare_diff *d = &row->diffs[g];
	char diff[32], unit[TITLE_BYTES];

	text_copy(unit, sizeof(unit), r->unit_shown, TEXT_CELL_MAX);
	figure_signed(diff, sizeof(diff), d->shift * r->unit_scale, 3);
	strbuf_addf(msg, "%.4g -> %.4g %s, %+.2f %%", row->sides[0].center * r->unit_scale,
		    row->sides[g].center * r->unit_scale, unit, d->change_pct);
	if (isfinite(d->change_lo_pct))
		strbuf_addf(msg, " [95 %% CI %+.2f, %+.2f]", d->change_lo_pct,
			    d->change_hi_pct);
	strbuf_addf(msg, ", %s %s: %s (%s)", diff, unit,
		    streq(d->verdict, "~") ? "no significant change" : d->verdict,
		    d->reason);
}

/*
 * A comparison as TAP 13, as kselftest writes it: a point per cell and
 * other group. ok: compared (the verdict, worse included, is in the
 * message: a cost measured is no failed test; --fail-on is the gate);
 * SKIP: not measured on both sides, with the side's status. The notes
 * the table prints above the cells come as diagnostics.
 */
static void print_tap(FILE *f, const struct compare_result *r)
{
	struct tap_totals t = { 0 };
	size_t n = 0;

	tap_write_plan(f, r->nrows * (r->ngroups > 1 ? r->ngroups - 1 : 0));
	print_emulation_note(f, r, "# ");
	print_arch_note(f, r, "# ");
	print_side_differences(f, r, "# ");
	for (size_t g = 1; g < r->ngroups; g++)
		for (size_t i = 0; i < r->nrows; i++) {
			const struct compare_row *row = &r->rows[i];
			const struct compare_diff *d = &row->diffs[g];
			_cleanup_strbuf_ struct strbuf name = STRBUF_INIT;
			_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;

			tap_point_name(&name, r, row, g);
			if (d->valid) {
				tap_point_message(&msg, r, row, g);
				t.pass++;
			} else {
				const struct compare_side *s = !row->sides[0].present ?
					&row->sides[0] : &row->sides[g];

				strbuf_add_text(&msg, s->status[0] ? s->status :
						"not measured on both sides", TEXT_LINE_MAX);
				t.skip++;
			}
			tap_write_point(f, ++n, name.buf, d->valid ? TAP_PASS : TAP_SKIP,
					msg.buf);
		}
	tap_write_totals(f, &t);
}

int compare_print(FILE *f, const struct compare_result *r,
		  enum compare_style style, enum output_format format)
{
	static void (*const styles[])(FILE *, const struct compare_result *) = {
		[STYLE_TABLE] = print_table,
		[STYLE_MMTESTS] = print_mmtests,
		[STYLE_RATIO] = print_ratio,
		[STYLE_SUMMARY] = print_summary,
		[STYLE_MINISTAT] = print_ministat,
		[STYLE_CHANGES] = print_changes,
	};
	json_t *j;

	switch (format) {
	case FORMAT_TABLE:
		print_emulation_note(f, r, "# ");
		print_arch_note(f, r, "# ");
		print_side_differences(f, r, "# ");
		styles[style](f, r);
		break;
	case FORMAT_JSON:
		j = compare_to_json(r);
		json_print(f, j);
		json_decref(j);
		break;
	case FORMAT_CSV:
		print_csv(f, r);
		break;
	case FORMAT_MARKDOWN:
		print_emulation_note(f, r, "> ");
		print_arch_note(f, r, "> ");
		print_side_differences(f, r, "> ");
		print_markdown(f, r);
		break;
	case FORMAT_TAP:
		print_tap(f, r);
		break;
	default:
		fatal("a comparison is not printed as %s", format_vocabulary[format]);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

size_t compare_print_gate(FILE *f, const struct compare_result *r,
			  enum compare_gate gate)
{
	size_t hits = 0, passed = 0;

	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++) {
			const struct compare_diff *d = &r->rows[i].diffs[g];
			struct compare_diff judged = *d;

			judged.judge_emulated = true;
			passed += !compare_gate_hit(d, gate) && compare_gate_hit(&judged, gate);
			if (!compare_gate_hit(d, gate))
				continue;
			fprintf(f, "%s: ", program_context());
			put_text(f, r->rows[i].name);
			fputc(' ', f);
			put_text(f, r->rows[i].path);
			fprintf(f, ": %+.2f %% against ", d->change_pct);
			put_text(f, r->groups[0].spec);
			fputs(" in ", f);
			put_text(f, r->groups[g].spec);
			fprintf(f, " (%s)\n", d->verdict);
			hits++;
		}
	if (hits)
		fprintf(f, "%s: --fail-on %s: %zu cell%s\n", program_context(),
			compare_gate_names[gate], hits, hits == 1 ? "" : "s");
	if (passed)
		fprintf(f, "%s: --fail-on %s passed over %zu cell%s of emulated timings "
			"(--judge-emulated judges them)\n", program_context(),
			compare_gate_names[gate], passed, passed == 1 ? "" : "s");
	return hits;
}
