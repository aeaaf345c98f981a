/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compact encoding of a cell's samples in the store (schema 3): every
 * double comes back bit for bit, NaN payloads and negative zeros included,
 * on every architecture.
 *
 * A blob is one byte naming the compressor (none or zstd) and the
 * compressed payload, whose first byte names the model the encoder found
 * smallest for these values:
 *
 *   bits   the 8 little-endian bytes of each double: anything at all.
 *   ticks  v = ((double)k - offset) / calls for an integer k per sample,
 *          stored as zigzag varints of k's differences: what bench
 *          records (a batch's duration in counter ticks, less the
 *          boundary, per call). A value the formula does not give exactly
 *          (a clamped negative, an imported oddity) is stored as its bits.
 *   dict   the distinct values, sorted, as varint differences of their
 *          bits, and per sample the varint difference of its index: core
 *          cycles kept as themselves (results/core-replay.h says when),
 *          whose per-sample speed correction leaves a third as many
 *          distinct values as samples.
 *
 * The decoder validates everything against n: a damaged blob is an error,
 * never an allocation or a read beyond what n samples need.
 */
#ifndef CLOCKBENCH_CODEC_H
#define CLOCKBENCH_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A malloc'd blob of *bytes for x[0..n), n > 0. calls: the calls per
 * sample the values were divided by (the cell's batch_calls), 0 if none.
 * The ticks model tries offsets 0 and 0.5: bench's boundary is the median
 * of integer tick counts.
 */
void *codec_encode(const double *x, size_t n, uint64_t calls, size_t *bytes);

/* 0 with *out malloc'd (n values), or -1 when the blob is not n samples. */
int codec_decode(const void *blob, size_t bytes, size_t n, double **out);

/*
 * The integer k with ((double)k - offset) / calls == x bit for bit, the
 * formula of a batch's ticks per call, in *k; false when there is none.
 */
bool codec_tick_of(double x, double offset, double calls, int64_t *k);

/* The model of a blob of n samples ("bits", "ticks", "dict"), or NULL. */
const char *codec_model(const void *blob, size_t bytes, size_t n);

#endif
