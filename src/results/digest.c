// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Digest blob: version byte 1, the number k of rounds with samples and
 * the cell's nrounds (u32 each), a mask of the metrics present (1 values, 2 cycles, 4 core cycles), then
 * for each metric present its overall median and its k round medians, all
 * little-endian doubles: some 250 bytes for a bench cell of 10 rounds.
 */
#include "results/digest.h"

#include <math.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/util.h"

#define DIGEST_VERSION 1
enum { NMETRICS = 3, HEADER = 10 };

static double **metric_slot(struct stored_cell *c, int m)
{
	return m == 0 ? &c->values : m == 1 ? &c->cycles : &c->core_cycles;
}

static double *median_slot(struct stored_cell *c, int m)
{
	return m == 0 ? &c->median_values : m == 1 ? &c->median_cycles :
	       &c->median_core;
}

bool digest_applies(const struct stored_cell *c)
{
	return !c->digest && c->values && c->n > 0 && c->rounds && c->nrounds >= 2;
}

static double median_sorting(double *x, size_t n)
{
	stats_sort(x, n);
	return stats_quantile_sorted(x, n, 0.5);
}

/* stats_sort's order: NaN last. */
static bool before(double a, double b)
{
	return isnan(b) ? !isnan(a) : a < b;
}

/*
 * x[k] as it would be after sorting x, x reordered around it (Wirth's
 * selection): the median of a cell's samples without sorting them all.
 * Equal values are interchangeable, so only a median of exactly zero may
 * differ from the sort's, in its sign.
 */
static double select_kth(double *x, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double pivot = x[kk], t;
		ptrdiff_t i = lo, j = hi;

		do {
			while (before(x[i], pivot))
				i++;
			while (before(pivot, x[j]))
				j--;
			if (i <= j) {
				t = x[i];
				x[i++] = x[j];
				x[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
	return x[k];
}

/* What median_sorting() gives, from the one or two middle values. */
static double median_selecting(double *x, size_t n)
{
	double pair[2];
	size_t lo = (n - 1) / 2;

	pair[0] = select_kth(x, n, lo);
	if (n % 2)
		return pair[0];
	/* After the selection everything beyond lo sorts at or after it. */
	pair[1] = x[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (before(x[i], pair[1]))
			pair[1] = x[i];
	return stats_quantile_sorted(pair, 2, 0.5);
}

/*
 * The medians of x's rounds with samples, into out; their count. The
 * samples are gathered round by round in one pass (rounds are < nrounds).
 */
static uint32_t round_medians(const struct stored_cell *c, const double *x,
			      double *out)
{
	size_t *start = xcalloc((size_t)c->nrounds + 1, sizeof(size_t));
	double *tmp = xmalloc(c->n * sizeof(double));
	uint32_t k = 0;

	for (size_t i = 0; i < c->n; i++)
		start[c->rounds[i] + 1]++;
	for (uint32_t r = 0; r < c->nrounds; r++)
		start[r + 1] += start[r];
	for (size_t i = 0; i < c->n; i++)
		tmp[start[c->rounds[i]]++] = x[i];
	/* start[r] is now the end of round r, the start of round r + 1. */
	for (uint32_t r = 0; r < c->nrounds; r++) {
		size_t from = r ? start[r - 1] : 0, m = start[r] - from;

		if (m)
			out[k++] = median_sorting(tmp + from, m);
	}
	free(start);
	free(tmp);
	return k;
}

static double overall_median(const double *x, size_t n)
{
	double *tmp = xmalloc(n * sizeof(double));
	double m;

	memcpy(tmp, x, n * sizeof(double));
	m = median_selecting(tmp, n);
	free(tmp);
	return m;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int b = 0; b < 4; b++)
		p[b] = (unsigned char)(v >> (8 * b));
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_double(unsigned char **p, double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	for (int b = 0; b < 8; b++)
		*(*p)++ = (unsigned char)(u >> (8 * b));
}

static double get_double(const unsigned char **p)
{
	uint64_t u = 0;
	double x;

	for (int b = 0; b < 8; b++)
		u |= (uint64_t)*(*p)++ << (8 * b);
	memcpy(&x, &u, sizeof(x));
	return x;
}

void *digest_encode(const struct stored_cell *c, size_t *bytes)
{
	double *med = xmalloc(c->nrounds * sizeof(double));
	unsigned char *blob = xmalloc(HEADER + NMETRICS * 8 * (1 + (size_t)c->nrounds));
	unsigned char *p = blob + HEADER, mask = 0;
	uint32_t k = 0;

	for (int m = 0; m < NMETRICS; m++) {
		const double *x = *metric_slot((struct stored_cell *)c, m);

		if (!x)
			continue;
		mask |= (unsigned char)(1 << m);
		k = round_medians(c, x, med);
		put_double(&p, overall_median(x, c->n));
		for (uint32_t r = 0; r < k; r++)
			put_double(&p, med[r]);
	}
	free(med);
	blob[0] = DIGEST_VERSION;
	put_u32(blob + 1, k);
	put_u32(blob + 5, c->nrounds);
	blob[9] = mask;
	*bytes = (size_t)(p - blob);
	return blob;
}

/* rounds[i] = i for the k rounds with samples; the cell's nrounds stays. */
static void set_digest_rounds(struct stored_cell *c, uint32_t k)
{
	free(c->rounds);
	c->rounds = xmalloc((k ? k : 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < k; i++)
		c->rounds[i] = i;
	c->n = k;
	c->digest = true;
}

int digest_apply(struct stored_cell *c, const void *blob, size_t bytes)
{
	const unsigned char *p = blob;
	unsigned char mask;
	uint32_t k, nrounds;
	int metrics = 0;

	if (bytes < HEADER || p[0] != DIGEST_VERSION)
		return -1;
	k = get_u32(p + 1);
	nrounds = get_u32(p + 5);
	mask = p[9];
	for (int m = 0; m < NMETRICS; m++)
		metrics += (mask >> m) & 1;
	if (!(mask & 1) || mask > 7 || k == 0 || k > nrounds ||
	    nrounds > STORE_ROUNDS_MAX || (size_t)k > c->n ||
	    bytes != HEADER + (size_t)metrics * 8 * (1 + (size_t)k))
		return -1;
	p += HEADER;
	for (int m = 0; m < NMETRICS; m++) {
		double **x = metric_slot(c, m);

		*median_slot(c, m) = NAN;
		if (!((mask >> m) & 1))
			continue;
		*median_slot(c, m) = get_double(&p);
		*x = xmalloc(k * sizeof(double));
		for (uint32_t r = 0; r < k; r++)
			(*x)[r] = get_double(&p);
	}
	c->nrounds = nrounds;
	set_digest_rounds(c, k);
	return 0;
}

void digest_reduce(struct stored_cell *c)
{
	uint32_t k = 0;

	if (!digest_applies(c))
		return;
	for (int m = 0; m < NMETRICS; m++) {
		double **x = metric_slot(c, m), *med;

		*median_slot(c, m) = NAN;
		if (!*x)
			continue;
		med = xmalloc(c->nrounds * sizeof(double));
		*median_slot(c, m) = overall_median(*x, c->n);
		k = round_medians(c, *x, med);
		free(*x);
		*x = med;
	}
	set_digest_rounds(c, k);
	/* The readings were per sample: they replay nothing now. */
	free(c->ref.readings);
	memset(&c->ref, 0, sizeof(c->ref));
}
