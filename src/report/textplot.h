/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pictures in plain text, for a terminal or a mail, without gnuplot: a
 * small histogram of a cell's samples (show --histogram) and ministat's
 * distribution plot (compare --style ministat).
 */
#ifndef CLOCKBENCH_TEXTPLOT_H
#define CLOCKBENCH_TEXTPLOT_H

#include <stddef.h>
#include <stdio.h>

/*
 * A histogram of x[0..n): rows of equal bins from the lowest sample to the
 * 99th percentile, a bar of '#' each (any sample draws at least one), then
 * one row for the samples above p99, up to the maximum. Each line starts
 * with indent.
 */
void textplot_histogram(FILE *f, const double *x, size_t n, const char *indent);

/* One data set of a ministat plot. */
struct textplot_set {
	char symbol;		/* 'x', '+', ... */
	const double *x;
	size_t n;
};

/*
 * ministat's plot, width columns wide: every value a symbol on a shared
 * axis, piled up where values fall together ('*' where two sets meet),
 * then per set a line with A at the mean, M at the median and |___| from
 * mean - sd to mean + sd. Piles are scaled to at most 10 lines.
 */
void textplot_ministat(FILE *f, const struct textplot_set *sets, size_t nsets,
		       int width);

#endif
