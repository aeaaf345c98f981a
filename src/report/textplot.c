// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/textplot.h"

#include <math.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/util.h"

#define HIST_ROWS 10
#define HIST_BAR 40
#define MINISTAT_ROWS 10

static void hist_row(FILE *f, const char *indent, const char *range, size_t count,
		     size_t most, const char *note)
{
	int len = count ? (int)fmax(1, round((double)HIST_BAR * (double)count /
					      (double)most)) : 0;

	fprintf(f, "%s%-24s |", indent, range);
	for (int i = 0; i < HIST_BAR; i++)
		fputc(i < len ? '#' : ' ', f);
	fprintf(f, " %zu%s\n", count, note);
}

void textplot_histogram(FILE *f, const double *x, size_t n, const char *indent)
{
	size_t counts[HIST_ROWS] = { 0 }, tail = 0, most = 1;
	double *s = stats_sorted_copy(x, n), lo, hi, w;
	char range[64];

	if (!n) {
		free(s);
		return;
	}
	lo = s[0];
	hi = stats_quantile_sorted(s, n, 0.99);
	if (!(hi > lo))
		hi = lo + fmax(fabs(lo) * 1e-3, 1e-9);
	w = (hi - lo) / HIST_ROWS;
	for (size_t i = 0; i < n; i++) {
		if (s[i] > hi)
			tail++;
		else
			counts[(size_t)fmin(HIST_ROWS - 1, (s[i] - lo) / w)]++;
	}
	for (size_t b = 0; b < HIST_ROWS; b++)
		most = counts[b] > most ? counts[b] : most;
	most = tail > most ? tail : most;
	for (size_t b = 0; b < HIST_ROWS; b++) {
		snprintf(range, sizeof(range), "%10.4g .. %-10.4g", lo + w * (double)b,
			 lo + w * (double)(b + 1));
		hist_row(f, indent, range, counts[b], most, "");
	}
	snprintf(range, sizeof(range), "%10.4g .. %-10.4g", hi, s[n - 1]);
	hist_row(f, indent, range, tail, most, "  above p99, to the maximum");
	free(s);
}

/* ---- ministat ----------------------------------------------------------- */

struct ministat_axis {
	double lo, hi;
	int cols;
};

static int column(const struct ministat_axis *a, double v)
{
	double c = (v - a->lo) / (a->hi - a->lo) * (a->cols - 1);

	return (int)fmin(a->cols - 1, fmax(0, round(c)));
}

/* The pile of each set in each column, scaled to at most MINISTAT_ROWS. */
static int piles(const struct textplot_set *sets, size_t nsets,
		 const struct ministat_axis *a, size_t *height)
{
	size_t most = 0;

	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			size_t *h = &height[s * (size_t)a->cols + (size_t)column(a, sets[s].x[i])];

			most = ++*h > most ? *h : most;
		}
	if (most > MINISTAT_ROWS)
		for (size_t k = 0; k < nsets * (size_t)a->cols; k++)
			height[k] = (size_t)ceil((double)height[k] * MINISTAT_ROWS /
						 (double)most);
	return most > MINISTAT_ROWS ? MINISTAT_ROWS : (int)most;
}

static void frame(FILE *f, int cols)
{
	fputc('+', f);
	for (int i = 0; i < cols; i++)
		fputc('-', f);
	fputs("+\n", f);
}

/* Row r (0 at the bottom): a set's symbol, '*' where two sets meet. */
static void pile_row(FILE *f, const struct textplot_set *sets, size_t nsets,
		     const struct ministat_axis *a, const size_t *height, int r)
{
	fputc('|', f);
	for (int c = 0; c < a->cols; c++) {
		char ch = ' ';

		for (size_t s = 0; s < nsets; s++)
			if (height[s * (size_t)a->cols + (size_t)c] > (size_t)r)
				ch = ch == ' ' ? sets[s].symbol : '*';
		fputc(ch, f);
	}
	fputs("|\n", f);
}

/* |____A__M____| from mean - sd to mean + sd. */
static void spread_row(FILE *f, const struct textplot_set *set,
		       const struct ministat_axis *a)
{
	char *line = xmalloc((size_t)a->cols + 1);
	struct summary sum;
	int from, to;

	stats_summarize_copy(set->x, set->n, &sum);
	memset(line, ' ', (size_t)a->cols);
	line[a->cols] = '\0';
	from = column(a, sum.mean - sum.stddev);
	to = column(a, sum.mean + sum.stddev);
	for (int c = from; c <= to; c++)
		line[c] = '_';
	if (to > from) {
		line[from] = '|';
		line[to] = '|';
	}
	line[column(a, sum.mean)] = 'A';
	line[column(a, sum.median)] = 'M';
	fprintf(f, "|%s|\n", line);
	free(line);
}

void textplot_ministat(FILE *f, const struct textplot_set *sets, size_t nsets,
		       int width)
{
	struct ministat_axis a = { INFINITY, -INFINITY, width - 2 };
	size_t *height;
	int rows;

	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			a.lo = fmin(a.lo, sets[s].x[i]);
			a.hi = fmax(a.hi, sets[s].x[i]);
		}
	if (a.cols < 10 || !isfinite(a.lo))
		return;
	if (!(a.hi > a.lo)) {
		a.lo -= 1;
		a.hi += 1;
	}
	height = xcalloc(nsets * (size_t)a.cols, sizeof(size_t));
	rows = piles(sets, nsets, &a, height);
	frame(f, a.cols);
	for (int r = rows - 1; r >= 0; r--)
		pile_row(f, sets, nsets, &a, height, r);
	for (size_t s = 0; s < nsets; s++)
		if (sets[s].n)
			spread_row(f, &sets[s], &a);
	frame(f, a.cols);
	free(height);
}
