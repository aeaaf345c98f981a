// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "basic/util.h"
#include "vm/frame.h"

#define FRAME_HEAD "\nclockbench-frame 1 "
#define FRAME_END "\nclockbench-end\n"
/* A fast level: the guest compresses under emulation. */
#define FRAME_ZSTD_LEVEL 3

int frame_encode(const void *payload, size_t len, struct strbuf *out,
		 struct strbuf *err)
{
	ZSTD_CCtx *cctx;
	size_t cap, z;
	char *buf;

	if (len > FRAME_MAX_BYTES) {
		strbuf_setf(err, "the result is %zu bytes, more than a frame "
			    "carries (%u)", len, FRAME_MAX_BYTES);
		return -1;
	}
	cctx = ZSTD_createCCtx();
	if (!cctx)
		fatal("out of memory");
	cap = ZSTD_compressBound(len);
	buf = xmalloc(cap);
	/* The content size and checksum let the host refuse a changed byte. */
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, FRAME_ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
	z = ZSTD_compress2(cctx, buf, cap, payload, len);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(z)) {
		strbuf_setf(err, "cannot compress the result: %s",
			    ZSTD_getErrorName(z));
		free(buf);
		return -1;
	}
	strbuf_addf(out, FRAME_HEAD "%zu\n", z);
	strbuf_add(out, buf, z);
	strbuf_adds(out, FRAME_END);
	free(buf);
	return 0;
}

/* "LENGTH\n" after the head: the length, and where the bytes start. */
static int parse_length(const char *p, const char *end, size_t *length,
			const char **data)
{
	uint64_t v = 0;
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9' && q - p < 12)
		v = v * 10 + (uint64_t)(*q++ - '0');
	if (q == p || q >= end || *q != '\n' || v > FRAME_MAX_BYTES)
		return -1;
	*length = (size_t)v;
	*data = q + 1;
	return 0;
}

static int decompress(const char *z, size_t zlen, struct strbuf *payload,
		      struct strbuf *err)
{
	unsigned long long size = ZSTD_getFrameContentSize(z, zlen);
	size_t got;
	char *buf;

	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
	    size > FRAME_MAX_BYTES) {
		strbuf_setf(err, "the result arrived damaged: not a zstd "
			    "frame of a known size");
		return -1;
	}
	if (ZSTD_findFrameCompressedSize(z, zlen) != zlen) {
		strbuf_setf(err, "the result arrived damaged: its zstd frame "
			    "does not fill the %zu bytes announced", zlen);
		return -1;
	}
	buf = xmalloc(size ? size : 1);
	got = ZSTD_decompress(buf, size, z, zlen);
	if (ZSTD_isError(got) || got != size) {
		strbuf_setf(err, "the result arrived damaged: %s",
			    ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
		free(buf);
		return -1;
	}
	strbuf_reset(payload);
	strbuf_add(payload, buf, got);
	free(buf);
	return 0;
}

int frame_decode(const char *buf, size_t len, struct strbuf *payload,
		 struct strbuf *err)
{
	const char *head = memmem(buf, len, FRAME_HEAD, strlen(FRAME_HEAD));
	const char *data;
	const char *end = buf + len;
	size_t length, have;

	if (!head) {
		strbuf_setf(err, "no result arrived (%zu bytes on the data "
			    "port, no frame among them)", len);
		return -1;
	}
	if (parse_length(head + strlen(FRAME_HEAD), end, &length, &data)) {
		strbuf_setf(err, "the result arrived damaged: a frame head "
			    "without a valid length");
		return -1;
	}
	have = (size_t)(end - data);
	if (have < length + strlen(FRAME_END)) {
		strbuf_setf(err, "the result arrived cut short after %zu of "
			    "%zu bytes", have < length ? have : length, length);
		return -1;
	}
	if (memcmp(data + length, FRAME_END, strlen(FRAME_END)) != 0) {
		strbuf_setf(err, "the result arrived damaged: no end line "
			    "after its %zu bytes", length);
		return -1;
	}
	return decompress(data, length, payload, err);
}
