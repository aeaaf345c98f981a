// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Issue 20, "the number shown is the number used": for every style and
 * format of compare (table, mmtests, ratio, summary, ministat, markdown,
 * CSV, JSON) and the mail, and for every kind of comparison (single runs
 * in rounds with and without a history, raw repetitions, replicates,
 * paired rounds), every printed change equals the ratio of the printed
 * values to the printed precision. The samples are quantised, as a
 * counter that steps by 10 ns makes them: medians then tie while the
 * estimators of the tests (Hodges-Lehmann, geometric means) do not, which
 * is where the tables used to disagree with themselves.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "document/mail.h"
#include "chart/plot.h"
#include "results/compare.h"
#include "results/compare-session.h"
#include "report/compare-format.h"

/* ---- runs ------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform01(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(double sd)
{
	return sd * sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

#define NCELLS 3
static const char *const cell_names[NCELLS] = { "cell-a", "cell-b", "cell-c" };
static const double cell_means[NCELLS] = { 22.24, 0.41, 143.7 };

/*
 * A run of NCELLS cells: rounds of per_round samples (rounds 0: raw
 * samples), each cell's mean times factor, quantised to 2 % of the mean.
 */
static void make_run(struct stored_run *run, int64_t id, const char *label,
		     double factor, uint32_t rounds, size_t n)
{
	memset(run, 0, sizeof(*run));
	run->id = id;
	run->command = xstrdup("bench");
	run->label = xstrdup(label);
	run->host = xstrdup("box");
	run->kernel = xstrdup("6.18");
	run->status = xstrdup("complete");
	snprintf(run->started, sizeof(run->started), "2026-12-01T10:00:00Z");
	run->ncells = NCELLS;
	run->cells = xcalloc(NCELLS, sizeof(*run->cells));
	for (size_t k = 0; k < NCELLS; k++) {
		struct stored_cell *c = &run->cells[k];
		double step = cell_means[k] * 0.02, round_f = 1;

		c->name = xstrdup(cell_names[k]);
		c->path = xstrdup("vdso");
		c->status = xstrdup("ok");
		c->unit = xstrdup("ns");
		c->n = n;
		c->values = xmalloc(n * sizeof(double));
		if (rounds) {
			c->rounds = xmalloc(n * sizeof(uint32_t));
			c->nrounds = rounds;
		}
		for (size_t i = 0; i < n; i++) {
			double v;

			if (rounds && i % (n / rounds) == 0)
				round_f = 1 + gauss(0.03);
			v = cell_means[k] * factor * round_f * (1 + gauss(0.02));
			c->values[i] = fmax(step, step * round(v / step));
			if (rounds)
				c->rounds[i] = (uint32_t)(i / (n / rounds));
		}
	}
}

/* ---- the kinds of comparison --------------------------------------- */

/*
 * Raw samples are judged on their own only when measured together (one
 * interleaved invocation): RAW_REPS (3 a side, t on the logs) and
 * RAW_RANKS (20 a side, Mann-Whitney) are.
 */
enum kind {
	SINGLE_ROUNDS, SINGLE_HISTORY, RAW_REPS, RAW_RANKS, REPLICATES, PAIRED,
	NKINDS
};
static const char *const kind_names[NKINDS] = {
	"single runs in rounds", "single runs with a history", "raw repetitions",
	"raw samples judged by ranks", "replicates", "paired rounds",
};

#define NGROUPS 3
#define MAX_RUNS 4
#define NHISTORY 5

struct comparison {
	struct stored_run runs[NGROUPS][MAX_RUNS];
	struct stored_run hist[NHISTORY];
	struct compare_group groups[NGROUPS], history;
	struct compare_options o;
	struct compare_result r;
};

static char group_specs[NGROUPS][8] = { "base", "other", "third" };

/*
 * Raw samples in two modes (an exec run whose command sometimes waits),
 * 9 of 20 slow in the base and the third group, 11 in the second: the
 * median of the second jumps to the slow mode, a +38 % ratio of medians
 * where the samples moved by +6 %.
 */
static void make_two_modes(struct comparison *c)
{
	static const size_t slow[NGROUPS] = { 9, 11, 9 };

	for (size_t g = 0; g < NGROUPS; g++)
		for (size_t k = 0; k < c->runs[g][0].ncells; k++) {
			struct stored_cell *cell = &c->runs[g][0].cells[k];

			for (size_t i = 0; i < slow[g] && i < cell->n; i++)
				cell->values[i] *= 1.3;
		}
}

static void build(struct comparison *c, enum kind kind)
{
	static const double factors[NGROUPS] = { 1.0, 1.06, 0.93 };
	size_t nruns = kind == REPLICATES ? 3 : 1;
	bool raw = kind == RAW_REPS || kind == RAW_RANKS;
	uint32_t rounds = raw ? 0 : 10;
	size_t n = kind == RAW_REPS ? 3 : kind == RAW_RANKS ? 20 : 10 * 20;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	memset(c, 0, sizeof(*c));
	compare_options_default(&c->o);
	c->o.paired = kind == PAIRED || raw;
	for (size_t g = 0; g < NGROUPS; g++) {
		for (size_t k = 0; k < nruns; k++)
			make_run(&c->runs[g][k], (int64_t)(1 + g * MAX_RUNS + k),
				 group_specs[g], factors[g], rounds, n);
		c->groups[g] = (struct compare_group){ .spec = group_specs[g],
			.runs = c->runs[g], .nruns = nruns };
	}
	if (kind == RAW_RANKS)
		make_two_modes(c);
	if (kind == SINGLE_HISTORY) {
		for (size_t k = 0; k < NHISTORY; k++)
			make_run(&c->hist[k], 100 + (int64_t)k, "hist", 1 + gauss(0.01),
				 rounds, n);
		c->history = (struct compare_group){ .spec = (char *)"history",
			.runs = c->hist, .nruns = NHISTORY };
		c->o.history = &c->history;
	}
	assert_int_equal(compare_build(&c->r, c->groups, NGROUPS, &c->o, &err),
			 0);
}

static void release(struct comparison *c)
{
	compare_free(&c->r);
	for (size_t g = 0; g < NGROUPS; g++)
		for (size_t k = 0; k < MAX_RUNS; k++)
			if (c->runs[g][k].cells)
				stored_run_free(&c->runs[g][k]);
	for (size_t k = 0; k < NHISTORY; k++)
		if (c->hist[k].cells)
			stored_run_free(&c->hist[k]);
}

static char *render(const struct compare_result *r, enum compare_style s,
		    enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(compare_print(f, r, s, fmt), 0);
	fclose(f);
	return buf;
}

/* ---- the check: a printed change against printed values ------------ */

/* How a style states the change: other / base - 1, other / base, or mmtests'. */
enum relation { REL_CHANGE_PCT, REL_RATIO_PCT, REL_MMTESTS_PCT };

static double relation(enum relation rel, double ratio)
{
	return rel == REL_CHANGE_PCT ? 100 * (ratio - 1) :
	       rel == REL_RATIO_PCT ? 100 * ratio : 100 - 100 * ratio;
}

/*
 * Half a unit in the last printed place of a number as printed ("22.24":
 * 0.005, "1.437e+02": 0.05); the number into *v. false: not a number.
 */
static bool printed(const char *s, double *v, double *half)
{
	char *end;
	const char *dot, *e;
	int decimals = 0, exp10 = 0;

	while (*s == '(' || *s == '*' || isspace((unsigned char)*s))
		s++;
	*v = strtod(s, &end);
	if (end == s)
		return false;
	dot = memchr(s, '.', (size_t)(end - s));
	e = memchr(s, 'e', (size_t)(end - s));
	if (dot)
		decimals = (int)((e ? e : end) - dot - 1);
	if (e)
		exp10 = atoi(e + 1);
	*half = 0.5 * pow(10, exp10 - decimals);
	return true;
}

static int checks;

/*
 * Whether the change printed as pct can be what the values printed as b
 * and o give, each within half its last place.
 */
static void check(const char *where, const char *b, const char *o, const char *pct,
		  enum relation rel)
{
	double vb, hb, vo, ho, vp, hp, lo, hi;

	if (!printed(b, &vb, &hb) || !printed(o, &vo, &ho) || !printed(pct, &vp, &hp)) {
		print_error("%s: not numbers: '%s' '%s' '%s'\n", where, b, o, pct);
		fail();
	}
	lo = relation(rel, (vo - ho) / (vb + hb));
	hi = relation(rel, (vo + ho) / (vb - hb));
	if (lo > hi) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (vp + hp < lo - 1e-9 || vp - hp > hi + 1e-9) {
		print_error("%s: %s against %s printed as %s (the values allow %.4f .. %.4f)\n",
			    where, o, b, pct, lo, hi);
		fail();
	}
	checks++;
}

/* ---- reading the styles back ------------------------------------------ */

#define MAX_TOKENS 64

/* The whitespace-separated tokens of the line at s, up to its end. */
static size_t tokens(const char *s, char tok[][64])
{
	size_t n = 0;

	while (*s && *s != '\n' && n < MAX_TOKENS) {
		size_t len = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n')
			break;
		while (*s && !isspace((unsigned char)*s) && len < 63)
			tok[n][len++] = *s++;
		tok[n++][len] = '\0';
		while (*s && !isspace((unsigned char)*s))
			s++;
	}
	return n;
}

/* The k-th line (from 0) that starts with prefix, or NULL. */
static const char *nth_line(const char *text, const char *prefix, size_t k)
{
	size_t len = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, prefix, len) == 0 && k-- == 0)
			return p;
	return NULL;
}

static bool number_token(const char *t)
{
	double v, h;

	return printed(t, &v, &h);
}

/* table: "cell-a-vdso  22.24 ±1.0%  23.58 ±0.9%  +6.03% [...]", a block per other. */
static void check_table(const struct compare_result *r, const char *out, const char *kind)
{
	char tok[MAX_TOKENS][64], where[160];

	for (size_t g = 1; g < r->ngroups; g++)
		for (size_t i = 0; i <= r->nrows; i++) {
			char label[64];
			const char *line;
			const char *v[3] = { 0 };
			size_t n, found = 0;

			if (i < r->nrows && !r->rows[i].diffs[g].valid)
				continue;
			snprintf(label, sizeof(label), "%s ", i < r->nrows ? "cell-" : "geomean ");
			if (i < r->nrows)
				snprintf(label, sizeof(label), "%s-%s ", r->rows[i].name,
					 r->rows[i].path);
			line = nth_line(out, label, g - 1);
			assert_non_null(line);
			n = tokens(line, tok);
			/* base value, other value, change: skipping "±x%" and "(94%)". */
			for (size_t k = 1; k < n && found < 3; k++)
				if (tok[k][0] != '(' && (unsigned char)tok[k][0] != 0xc2 &&
				    number_token(tok[k]))
					v[found++] = tok[k];
			assert_int_equal(found, 3);
			snprintf(where, sizeof(where), "table, %s, group %zu, %s", kind, g, tok[0]);
			check(where, v[0], v[1], v[2], REL_CHANGE_PCT);
		}
}

/* mmtests: "cell-a-vdso  22.24 (0.00%)  23.58 * -6.03%*  20.66 ( 7.10%)". */
static void check_mmtests(const struct compare_result *r, const char *out, const char *kind)
{
	char tok[MAX_TOKENS][64], where[160];

	for (size_t i = 0; i <= r->nrows; i++) {
		char label[64];
		const char *line, *num[2 * NGROUPS];
		size_t n, found = 0;

		if (i < r->nrows)
			snprintf(label, sizeof(label), "%s-%s ", r->rows[i].name, r->rows[i].path);
		else
			snprintf(label, sizeof(label), "Gmean ");
		line = nth_line(out, label, 0);
		assert_non_null(line);
		n = tokens(line, tok);
		for (size_t k = 1; k < n && found < 2 * NGROUPS; k++)
			if (number_token(tok[k]))
				num[found++] = tok[k];
		assert_int_equal(found, 2 * r->ngroups);
		for (size_t g = 1; g < r->ngroups; g++) {
			snprintf(where, sizeof(where), "mmtests, %s, group %zu, %s", kind, g, tok[0]);
			check(where, num[0], num[2 * g], num[2 * g + 1], REL_MMTESTS_PCT);
		}
	}
}

/* summary: a block per cell, "median  | 22.24 | 23.58 |" and "diff %  | 100.0 | 106.0 |". */
static size_t bar_fields(const char *line, char field[][64])
{
	size_t n = 0;

	for (const char *p = strchr(line, '|'); p && *p != '\n' && n < NGROUPS;
	     p = strchr(p + 1, '|')) {
		size_t len = 0;
		const char *q = p + 1;

		while (*q == ' ')
			q++;
		while (*q && *q != ' ' && *q != '|' && *q != '\n' && len < 63)
			field[n][len++] = *q++;
		field[n++][len] = '\0';
	}
	return n;
}

static void check_summary(const struct compare_result *r, const char *out, const char *kind)
{
	char centre[NGROUPS][64], diff[NGROUPS][64], where[160], head[96];

	for (size_t i = 0; i < r->nrows; i++) {
		const char *block, *c, *d;

		snprintf(head, sizeof(head), "\n%s %s\n", r->rows[i].name, r->rows[i].path);
		block = strstr(out, head);
		assert_non_null(block);
		c = strchr(block + 1, '\n') + 1;		/* the titles */
		c = strchr(c, '\n') + 1;			/* a rule */
		c = strchr(c, '\n') + 1;			/* the centres */
		d = strchr(strchr(c, '\n') + 1, '\n') + 1;	/* after a rule: diff % */
		assert_int_equal(strncmp(d, "diff %", 6), 0);
		assert_int_equal(bar_fields(c, centre), r->ngroups);
		assert_int_equal(bar_fields(d, diff), r->ngroups);
		for (size_t g = 1; g < r->ngroups; g++) {
			if (!r->rows[i].diffs[g].valid)
				continue;
			snprintf(where, sizeof(where), "summary, %s, group %zu, %s", kind, g,
				 r->rows[i].name);
			check(where, centre[0], centre[g], diff[g], REL_RATIO_PCT);
		}
	}
}

/* ratio: "cell-a-vdso:   106 %": no values beside, so against the centres. */
static void check_ratio(const struct compare_result *r, const char *out, const char *kind)
{
	char tok[MAX_TOKENS][64], label[64], where[160], b[64], o[64];

	for (size_t g = 1; g < r->ngroups; g++)
		for (size_t i = 0; i < r->nrows; i++) {
			const char *line;

			if (!r->rows[i].diffs[g].valid)
				continue;
			snprintf(label, sizeof(label), "%s-%s:", r->rows[i].name, r->rows[i].path);
			line = nth_line(out, label, g - 1);
			assert_non_null(line);
			assert_true(tokens(line, tok) >= 2);
			snprintf(b, sizeof(b), "%.17g", r->rows[i].sides[0].center);
			snprintf(o, sizeof(o), "%.17g", r->rows[i].sides[g].center);
			snprintf(where, sizeof(where), "ratio, %s, group %zu, %s", kind, g, tok[0]);
			check(where, b, o, tok[1], REL_RATIO_PCT);
		}
}

/* ministat: "x  N Min Max Median Avg Stddev", then "\t-1.2% +/- 0.3%". */
static void check_ministat(const struct compare_result *r, const char *out, const char *kind)
{
	static const char symbols[] = "x+*";
	char tok[MAX_TOKENS][64], avg[NGROUPS][64], head[96], where[160];

	for (size_t i = 0; i < r->nrows; i++) {
		const char *block = out, *p;

		snprintf(head, sizeof(head), "\n%s %s (", r->rows[i].name, r->rows[i].path);
		block = strstr(out, head);
		assert_non_null(block);
		p = strstr(block, "    N ");
		assert_non_null(p);
		for (size_t g = 0; g < r->ngroups; g++) {
			char lead[3] = { symbols[g], ' ', 0 };

			p = strstr(p, "\n");
			assert_non_null(p);
			p++;
			assert_int_equal(strncmp(p, lead, 2), 0);
			assert_int_equal(tokens(p, tok), 7);
			strcpy(avg[g], tok[5]);
		}
		for (size_t g = 1; g < r->ngroups; g++) {
			char title[48];
			const char *diff, *next = strstr(block + 1, "\ncell-");

			snprintf(title, sizeof(title), "\n%c Difference at 95.0%% confidence\n",
				 symbols[g]);
			diff = strstr(block, title);
			if (!diff || (next && diff > next))
				continue;
			diff = strchr(diff + strlen(title), '\n');	/* "\t-1.23 +/- ..." */
			assert_non_null(diff);
			assert_int_equal(tokens(diff + 1, tok) >= 1, 1);
			snprintf(where, sizeof(where), "ministat, %s, group %zu, %s", kind, g,
				 r->rows[i].name);
			check(where, avg[0], avg[g], tok[0], REL_CHANGE_PCT);
		}
	}
}

/* markdown: "| cell-a | vdso | 22.24 | 23.58 | +6.03% | 3.1% | worse | ...". */
/*
 * Whether the difference printed as diff can be what the values printed as
 * b and o give (other - base), each within half its last place.
 */
static void check_diff(const char *where, const char *b, const char *o, const char *diff)
{
	double vb, hb, vo, ho, vd, hd;

	if (!printed(b, &vb, &hb) || !printed(o, &vo, &ho) || !printed(diff, &vd, &hd)) {
		print_error("%s: not numbers: '%s' '%s' '%s'\n", where, b, o, diff);
		fail();
	}
	if (fabs(vd - (vo - vb)) > hb + ho + hd + 1e-9) {
		print_error("%s: %s - %s printed as %s\n", where, o, b, diff);
		fail();
	}
	checks++;
}

static void check_markdown(const struct compare_result *r, const char *out, const char *kind)
{
	char where[160], lead[96];

	for (size_t i = 0; i <= r->nrows; i++) {
		char field[4 + 5 * NGROUPS][64];
		const char *line;
		size_t n = 0;

		if (i < r->nrows)
			snprintf(lead, sizeof(lead), "| %s | %s |", r->rows[i].name, r->rows[i].path);
		else
			snprintf(lead, sizeof(lead), "| geomean | |");
		line = nth_line(out, lead, 0);
		assert_non_null(line);
		for (const char *p = line + 1; *p && *p != '\n' && n < ARRAY_SIZE(field);) {
			const char *bar = strchr(p, '|');
			size_t len;

			while (*p == ' ')
				p++;
			len = (size_t)(bar - p);
			while (len && p[len - 1] == ' ')
				len--;
			snprintf(field[n++], sizeof(field[0]), "%.*s", (int)len, p);
			p = bar + 1;
		}
		/* name, path, base, then per other: value, change, diff, mde, verdict. */
		for (size_t g = 1; g < r->ngroups; g++) {
			size_t at = 3 + 5 * (g - 1);

			if (i < r->nrows && !r->rows[i].diffs[g].valid)
				continue;
			snprintf(where, sizeof(where), "markdown, %s, group %zu, %s", kind, g,
				 field[0]);
			check(where, field[2], field[at], field[at + 1], REL_CHANGE_PCT);
			if (i < r->nrows)
				check_diff(where, field[2], field[at], field[at + 2]);
		}
	}
}

/* CSV: a line per cell and group; center is column 4, change_pct 11. */
static void csv_field(const char *line, size_t col, char *buf, size_t len)
{
	for (size_t k = 0; k < col; k++)
		line = strchr(line, ',') + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(line, ",\n"), line);
}

static void check_csv(const struct compare_result *r, const char *out, const char *kind)
{
	char where[160], lead[96], b[64], o[64], pct[64];

	for (size_t i = 0; i < r->nrows; i++) {
		const char *line;

		snprintf(lead, sizeof(lead), "%s,%s,", r->rows[i].name, r->rows[i].path);
		line = nth_line(out, lead, 0);
		assert_non_null(line);
		csv_field(line, 4, b, sizeof(b));
		for (size_t g = 1; g < r->ngroups; g++) {
			line = nth_line(out, lead, g);
			assert_non_null(line);
			csv_field(line, 4, o, sizeof(o));
			csv_field(line, 11, pct, sizeof(pct));
			snprintf(where, sizeof(where), "csv, %s, group %zu, %s", kind, g,
				 r->rows[i].name);
			check(where, b, o, pct, REL_CHANGE_PCT);
		}
	}
}

/* JSON: 6 significant digits; the centres, the changes, the geomeans. */
static void json_check(const char *where, double b, double o, double pct)
{
	char sb[64], so[64], sp[64];

	snprintf(sb, sizeof(sb), "%.6g", b);
	snprintf(so, sizeof(so), "%.6g", o);
	snprintf(sp, sizeof(sp), "%.6g", pct);
	check(where, sb, so, sp, REL_CHANGE_PCT);
}

static void check_json(const struct compare_result *r, const char *out, const char *kind)
{
	json_error_t jerr;
	json_t *j = json_loads(out, 0, &jerr), *cell, *groups = json_object_get(j, "groups");
	char where[160];
	size_t i;

	assert_non_null(j);
	json_array_foreach(json_object_get(j, "cells"), i, cell) {
		json_t *sides = json_object_get(cell, "groups");
		json_t *diffs = json_object_get(cell, "vs_base");

		for (size_t g = 1; g < r->ngroups; g++) {
			json_t *d = json_array_get(diffs, g - 1);

			if (json_is_null(d))
				continue;
			snprintf(where, sizeof(where), "json, %s, group %zu, cell %zu", kind, g, i);
			json_check(where, json_real_value(json_object_get(json_array_get(sides, 0), "center")),
				   json_real_value(json_object_get(json_array_get(sides, g), "center")),
				   json_real_value(json_object_get(d, "change_pct")));
		}
	}
	for (size_t g = 1; g < r->ngroups; g++) {
		snprintf(where, sizeof(where), "json, %s, geomean of group %zu", kind, g);
		json_check(where, json_real_value(json_object_get(json_array_get(groups, 0), "geomean")),
			   json_real_value(json_object_get(json_array_get(groups, g), "geomean")),
			   json_real_value(json_object_get(json_array_get(groups, g),
							   "geomean_change_pct")));
	}
	json_decref(j);
}

/*
 * mail: "  cell-a vdso [worse]: 22.24 -> 23.58 ns (+6.0 %, 95 % CI ...),
 * 21.1 -> 22.4 ns (+6.1 %)" per changed cell: every "base -> other unit
 * (+x.x %" of it, core cycles and ns alike.
 */
static void check_mail(struct comparison *c, const char *kind)
{
	struct compare_session s;
	struct plot_input in = { .groups = c->groups, .ngroups = NGROUPS, .session = &s };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char where[160], tok[MAX_TOKENS][64];
	size_t n;

	/* The mail judges through the door compare's options and history open. */
	compare_session_adopt(&s, c->groups, NGROUPS, &c->o, NULL, 0);
	assert_int_equal(mail_summary(&in, &out, &err), 0);
	for (const char *p = strstr(out.buf, " -> "); p; p = strstr(p + 4, " -> ")) {
		const char *line = p;
		size_t arrow = 0, seen = 0;

		/* Which arrow of its line this one is. */
		while (line > out.buf && line[-1] != '\n')
			line--;
		for (const char *q = strstr(line, " -> "); q && q < p; q = strstr(q + 4, " -> "))
			arrow++;
		n = tokens(line, tok);
		for (size_t i = 1; i + 3 < n; i++) {
			if (strcmp(tok[i], "->") || seen++ != arrow)
				continue;
			/* base -> other unit (+x.x % */
			snprintf(where, sizeof(where), "mail, %s, %s", kind, tok[0]);
			check(where, tok[i - 1], tok[i + 1], tok[i + 3], REL_CHANGE_PCT);
			break;
		}
		assert_int_equal(seen, arrow + 1);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	compare_session_close(&s);
}

/* ---- the property ----------------------------------------------------- */

static void test_printed_changes_agree_with_printed_values(void **state)
{
	static const struct {
		enum compare_style style;
		enum output_format format;
		void (*check)(const struct compare_result *, const char *, const char *);
	} outputs[] = {
		{ STYLE_TABLE, FORMAT_TABLE, check_table },
		{ STYLE_MMTESTS, FORMAT_TABLE, check_mmtests },
		{ STYLE_RATIO, FORMAT_TABLE, check_ratio },
		{ STYLE_SUMMARY, FORMAT_TABLE, check_summary },
		{ STYLE_MINISTAT, FORMAT_TABLE, check_ministat },
		{ STYLE_TABLE, FORMAT_MARKDOWN, check_markdown },
		{ STYLE_TABLE, FORMAT_CSV, check_csv },
		{ STYLE_TABLE, FORMAT_JSON, check_json },
	};

	(void)state;
	for (int seed = 0; seed < 4; seed++)
		for (int kind = 0; kind < NKINDS; kind++) {
			struct comparison c;

			rng = 0x9e3779b97f4a7c15ull + (uint64_t)seed * 7919;
			build(&c, (enum kind)kind);
			for (size_t k = 0; k < ARRAY_SIZE(outputs); k++) {
				char *out = render(&c.r, outputs[k].style, outputs[k].format);

				outputs[k].check(&c.r, out, kind_names[kind]);
				free(out);
			}
			check_mail(&c, kind_names[kind]);
			release(&c);
		}
	/* Every output of every kind was read back. */
	assert_true(checks > 4 * NKINDS * 30);
}

/*
 * The centres agree with the change in the result itself, for every test:
 * the ratio of the centres is the change, whichever estimator made it.
 */
static void test_every_change_is_the_ratio_of_the_centres(void **state)
{
	bool seen[4] = { false };

	(void)state;
	for (int kind = 0; kind < NKINDS; kind++) {
		struct comparison c;

		rng = 0x9e3779b97f4a7c15ull;
		build(&c, (enum kind)kind);
		for (size_t i = 0; i < c.r.nrows; i++)
			for (size_t g = 1; g < c.r.ngroups; g++) {
				const struct compare_diff *d = &c.r.rows[i].diffs[g];
				double ratio = c.r.rows[i].sides[g].center /
					       c.r.rows[i].sides[0].center;

				assert_true(d->valid);
				seen[d->test] = true;
				assert_true(fabs(d->ratio - ratio) <= 1e-12 * ratio);
				assert_true(fabs(d->change_pct - 100 * (ratio - 1)) < 1e-9);
			}
		release(&c);
	}
	/* Every test took part. */
	for (size_t t = 0; t < ARRAY_SIZE(seen); t++)
		assert_true(seen[t]);
}

/*
 * A change printed beside its interval lies inside it, for every test
 * that gives one: Mann-Whitney's used to be the ratio of the medians
 * beside the Hodges-Lehmann interval, which need not hold it.
 */
static void test_every_change_lies_in_its_interval(void **state)
{
	size_t inside = 0;

	(void)state;
	for (int seed = 0; seed < 8; seed++)
		for (int kind = 0; kind < NKINDS; kind++) {
			struct comparison c;

			rng = 0x9e3779b97f4a7c15ull + (uint64_t)seed * 104729;
			build(&c, (enum kind)kind);
			for (size_t i = 0; i < c.r.nrows; i++)
				for (size_t g = 1; g < c.r.ngroups; g++) {
					const struct compare_diff *d = &c.r.rows[i].diffs[g];

					if (!isfinite(d->change_lo_pct))
						continue;
					assert_true(d->change_lo_pct <= d->change_pct + 1e-9);
					assert_true(d->change_pct <= d->change_hi_pct + 1e-9);
					inside++;
				}
			release(&c);
		}
	assert_true(inside > 8 * (NKINDS - 1) * 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printed_changes_agree_with_printed_values),
		cmocka_unit_test(test_every_change_is_the_ratio_of_the_centres),
		cmocka_unit_test(test_every_change_lies_in_its_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
