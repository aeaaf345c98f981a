// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compact encoding of samples (codec.h). A default bench run of this
 * VM (594,842 samples, three metrics, 14.3 MB as raw doubles) takes 2.77
 * MB: 0.92 bytes a sample for ns, 0.77 for cycles (the dictionary of tick
 * counts), 2.96 for core cycles (a dictionary too). Measured against it,
 * with zstd at level 19: the raw bytes 1.30, 1.15 and 2.87 bytes a sample;
 * XOR with the previous value (Gorilla's scheme, for slowly moving series,
 * not these) 2.14, 1.89 and 5.11.
 */
#include "results/codec.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "basic/util.h"

enum { COMPRESS_NONE, COMPRESS_ZSTD };
enum { MODEL_BITS, MODEL_TICKS, MODEL_DICT };

/*
 * zstd's level 3 (its default) is within 6 % of level 19 here and some
 * 30 times faster: a default run is encoded in about 0.1 s.
 */
#define ZSTD_LEVEL 3
/* The ticks model: the samples it is tried on before it is chosen. */
#define TICKS_PROBE 256
#define TWO_53 9007199254740992.0

/* ---- bytes ------------------------------------------------------------ */

struct out {
	unsigned char *buf;
	size_t len, cap;
};

static void out_reserve(struct out *o, size_t more)
{
	if (o->len + more > o->cap) {
		o->cap = (o->len + more) * 2;
		o->buf = xrealloc(o->buf, o->cap);
	}
}

static void put_byte(struct out *o, unsigned char b)
{
	out_reserve(o, 1);
	o->buf[o->len++] = b;
}

static void put_varint(struct out *o, uint64_t v)
{
	out_reserve(o, 10);
	while (v >= 0x80) {
		o->buf[o->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	o->buf[o->len++] = (unsigned char)v;
}

static void put_u64(struct out *o, uint64_t v)
{
	out_reserve(o, 8);
	for (int b = 0; b < 8; b++)
		o->buf[o->len++] = (unsigned char)(v >> (8 * b));
}

struct in {
	const unsigned char *p, *end;
	bool bad;
};

static unsigned char get_byte(struct in *in)
{
	if (in->p >= in->end) {
		in->bad = true;
		return 0;
	}
	return *in->p++;
}

static uint64_t get_varint(struct in *in)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		unsigned char b = get_byte(in);

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	in->bad = true;
	return 0;
}

static uint64_t get_u64(struct in *in)
{
	uint64_t v = 0;

	if (in->end - in->p < 8) {
		in->bad = true;
		return 0;
	}
	for (int b = 0; b < 8; b++)
		v |= (uint64_t)*in->p++ << (8 * b);
	return v;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static uint64_t bits_of(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return u;
}

static double double_of(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* ---- the ticks model -------------------------------------------------- */

/*
 * Encoder and decoder must round alike on every machine: two IEEE
 * operations in double precision (on 32-bit x86 the build uses SSE for
 * that, meson.build).
 */
static double tick_value(int64_t k, double offset, double calls)
{
	return ((double)k - offset) / calls;
}

bool codec_tick_of(double x, double offset, double calls, int64_t *k)
{
	double guess = x * calls + offset;

	if (!isfinite(guess) || fabs(guess) >= TWO_53)
		return false;
	*k = (int64_t)llround(guess);
	for (int64_t d = 0; d <= 1; d++)
		for (int s = -1; s <= 1; s += 2) {
			int64_t t = *k + s * d;

			if (bits_of(tick_value(t, offset, calls)) == bits_of(x)) {
				*k = t;
				return true;
			}
		}
	return false;
}

static size_t tick_hits(const double *x, size_t n, double offset, double calls)
{
	size_t hits = 0;
	int64_t k;

	for (size_t i = 0; i < n && i < TICKS_PROBE; i++)
		hits += codec_tick_of(x[i], offset, calls, &k);
	return hits;
}

/* The calls and offset that explain most of the first samples. */
static bool choose_ticks(const double *x, size_t n, uint64_t per_sample,
			 double *offset, double *calls)
{
	double c = per_sample > 1 ? (double)per_sample : 1;
	const double cand[][2] = { { 0, c }, { 0.5, c }, { 0, 1 } };
	size_t best = 0, probe = n < TICKS_PROBE ? n : TICKS_PROBE;

	*offset = 0;
	*calls = 1;

	for (size_t i = 0; i < ARRAY_SIZE(cand); i++) {
		size_t hits = tick_hits(x, n, cand[i][0], cand[i][1]);

		if (hits > best) {
			best = hits;
			*offset = cand[i][0];
			*calls = cand[i][1];
		}
	}
	/* Mostly exceptions would cost more than the bits themselves. */
	return best * 2 > probe;
}

/* Token 0: the next 8 bytes are the value; else zigzag(k - previous) + 1. */
static bool encode_ticks(struct out *o, const double *x, size_t n,
			 uint64_t per_sample)
{
	double offset, calls;
	int64_t prev = 0, k;

	if (!choose_ticks(x, n, per_sample, &offset, &calls))
		return false;
	put_byte(o, MODEL_TICKS);
	put_varint(o, (uint64_t)calls);
	put_u64(o, bits_of(offset));
	for (size_t i = 0; i < n; i++) {
		/* |k| < 2^53: the difference cannot overflow. */
		if (codec_tick_of(x[i], offset, calls, &k)) {
			put_varint(o, zigzag(k - prev) + 1);
			prev = k;
		} else {
			put_varint(o, 0);
			put_u64(o, bits_of(x[i]));
		}
	}
	return true;
}

static int decode_ticks(struct in *in, double *x, size_t n)
{
	uint64_t calls = get_varint(in);
	double offset = double_of(get_u64(in));
	int64_t prev = 0;

	if (calls == 0 || calls > (1ull << 53))
		return -1;
	for (size_t i = 0; i < n && !in->bad; i++) {
		uint64_t t = get_varint(in);

		if (t == 0) {
			x[i] = double_of(get_u64(in));
			continue;
		}
		prev += unzigzag(t - 1);
		if (prev >= (int64_t)TWO_53 || prev <= -(int64_t)TWO_53)
			return -1;
		x[i] = tick_value(prev, offset, (double)calls);
	}
	return in->bad ? -1 : 0;
}

/* ---- the dict model --------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t index_of(const uint64_t *dict, size_t k, uint64_t v)
{
	size_t lo = 0, hi = k;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (dict[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Worth it only when values repeat: at most half as many as samples. */
static bool encode_dict(struct out *o, const double *x, size_t n)
{
	uint64_t *dict = xmalloc(n * sizeof(*dict)), prev = 0;
	size_t k = 0, prev_index = 0;

	for (size_t i = 0; i < n; i++)
		dict[i] = bits_of(x[i]);
	qsort(dict, n, sizeof(*dict), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || dict[i] != dict[k - 1])
			dict[k++] = dict[i];
	if (k * 2 > n) {
		free(dict);
		return false;
	}
	put_byte(o, MODEL_DICT);
	put_varint(o, k);
	for (size_t i = 0; i < k; i++) {
		put_varint(o, dict[i] - prev);
		prev = dict[i];
	}
	for (size_t i = 0; i < n; i++) {
		size_t idx = index_of(dict, k, bits_of(x[i]));

		put_varint(o, zigzag((int64_t)idx - (int64_t)prev_index));
		prev_index = idx;
	}
	free(dict);
	return true;
}

static int decode_dict(struct in *in, double *x, size_t n)
{
	uint64_t k = get_varint(in), v = 0;
	uint64_t *dict;
	int64_t idx = 0;

	if (k == 0 || k > n)
		return -1;
	dict = xmalloc(k * sizeof(*dict));
	for (uint64_t i = 0; i < k; i++) {
		v += get_varint(in);
		dict[i] = v;
	}
	for (size_t i = 0; i < n && !in->bad; i++) {
		idx += unzigzag(get_varint(in));
		if (idx < 0 || (uint64_t)idx >= k) {
			free(dict);
			return -1;
		}
		x[i] = double_of(dict[idx]);
	}
	free(dict);
	return in->bad ? -1 : 0;
}

/* ---- blobs ------------------------------------------------------------ */

static void encode_bits(struct out *o, const double *x, size_t n)
{
	put_byte(o, MODEL_BITS);
	for (size_t i = 0; i < n; i++)
		put_u64(o, bits_of(x[i]));
}

/* The payload behind its compressor byte, zstd'd when that is smaller. */
static void *compress_payload(const struct out *payload, size_t *bytes)
{
	size_t cap = ZSTD_compressBound(payload->len);
	unsigned char *blob = xmalloc(1 + (cap > payload->len ? cap : payload->len));
	size_t z = ZSTD_compress(blob + 1, cap, payload->buf, payload->len,
				 ZSTD_LEVEL);

	if (!ZSTD_isError(z) && z < payload->len) {
		blob[0] = COMPRESS_ZSTD;
		*bytes = 1 + z;
	} else {
		blob[0] = COMPRESS_NONE;
		memcpy(blob + 1, payload->buf, payload->len);
		*bytes = 1 + payload->len;
	}
	return blob;
}

/* The payload of model for x, or false when the model does not apply. */
static bool encode_model(struct out *o, int model, const double *x, size_t n,
			 uint64_t calls)
{
	if (model == MODEL_TICKS)
		return encode_ticks(o, x, n, calls);
	if (model == MODEL_DICT)
		return encode_dict(o, x, n);
	encode_bits(o, x, n);
	return true;
}

/*
 * Each model that applies, compressed; the smallest blob wins. The
 * dictionary often beats ticks on bench's ns and cycles too (a few hundred
 * distinct tick counts a cell), by some 10 %.
 */
void *codec_encode(const double *x, size_t n, uint64_t calls, size_t *bytes)
{
	static const int order[] = { MODEL_TICKS, MODEL_DICT, MODEL_BITS };
	void *best = NULL;

	*bytes = 0;
	for (size_t m = 0; m < ARRAY_SIZE(order); m++) {
		struct out o = { 0 };
		size_t len;
		void *blob;

		if (encode_model(&o, order[m], x, n, calls)) {
			blob = compress_payload(&o, &len);
			if (!best || len < *bytes) {
				free(best);
				best = blob;
				*bytes = len;
			} else {
				free(blob);
			}
		}
		free(o.buf);
	}
	return best;
}

/* The largest payload n samples can have: ticks with every value an exception. */
static size_t payload_bound(size_t n)
{
	return 32 + 20 * n;
}

/* The payload of blob, decompressed when it is: malloc'd, or NULL. */
static unsigned char *open_payload(const unsigned char *blob, size_t bytes,
				   size_t n, size_t *len)
{
	unsigned long long size;
	unsigned char *buf;

	if (bytes < 2 || n > SIZE_MAX / 32)
		return NULL;
	if (blob[0] == COMPRESS_NONE) {
		*len = bytes - 1;
		buf = xmalloc(*len);
		memcpy(buf, blob + 1, *len);
		return buf;
	}
	if (blob[0] != COMPRESS_ZSTD)
		return NULL;
	size = ZSTD_getFrameContentSize(blob + 1, bytes - 1);
	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
	    size == 0 || size > payload_bound(n))
		return NULL;
	buf = xmalloc((size_t)size);
	*len = ZSTD_decompress(buf, (size_t)size, blob + 1, bytes - 1);
	if (ZSTD_isError(*len) || *len != size) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int decode_payload(struct in *in, double *x, size_t n)
{
	switch (get_byte(in)) {
	case MODEL_BITS:
		if ((size_t)(in->end - in->p) != n * 8)
			return -1;
		for (size_t i = 0; i < n; i++)
			x[i] = double_of(get_u64(in));
		return 0;
	case MODEL_TICKS:
		return decode_ticks(in, x, n);
	case MODEL_DICT:
		return decode_dict(in, x, n);
	}
	return -1;
}

int codec_decode(const void *blob, size_t bytes, size_t n, double **out)
{
	size_t len = 0;
	unsigned char *payload = open_payload(blob, bytes, n, &len);
	struct in in;
	double *x;

	*out = NULL;
	if (!payload)
		return -1;
	in = (struct in){ payload, payload + len, false };
	x = xmalloc((n ? n : 1) * sizeof(double));
	/* Every byte accounted for: trailing bytes mean a damaged blob. */
	if (decode_payload(&in, x, n) || in.bad || in.p != in.end) {
		free(x);
		free(payload);
		return -1;
	}
	free(payload);
	*out = x;
	return 0;
}

const char *codec_model(const void *blob, size_t bytes, size_t n)
{
	static const char *const names[] = { "bits", "ticks", "dict" };
	size_t len = 0;
	unsigned char *payload = open_payload(blob, bytes, n, &len);
	const char *name = NULL;

	if (payload && len && payload[0] < ARRAY_SIZE(names))
		name = names[payload[0]];
	free(payload);
	return name;
}
