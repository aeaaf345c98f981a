// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
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

/*
 * Inflate z into fd a block at a time. The frame's header states its
 * content size and is checked against max first; zstd's checksum and the
 * size actually produced are checked at the end.
 */
static int decompress(const char *z, size_t zlen, int fd, size_t max,
		      size_t *size, struct strbuf *err)
{
	unsigned long long declared = ZSTD_getFrameContentSize(z, zlen);
	_cleanup_free_ char *block = NULL;
	ZSTD_inBuffer in = { z, zlen, 0 };
	ZSTD_DStream *ds;
	size_t produced = 0, rc = 1;

	if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN) {
		strbuf_setf(err, "the result arrived damaged: not a zstd "
			    "frame of a known size");
		return -1;
	}
	if (declared > max) {
		strbuf_setf(err, "the result is %llu bytes inflated, more than the "
			    "%zu accepted", declared, max);
		return -1;
	}
	if (ZSTD_findFrameCompressedSize(z, zlen) != zlen) {
		strbuf_setf(err, "the result arrived damaged: its zstd frame "
			    "does not fill the %zu bytes announced", zlen);
		return -1;
	}
	ds = ZSTD_createDStream();
	if (!ds)
		fatal("out of memory");
	block = xmalloc(ZSTD_DStreamOutSize());
	while (rc != 0) {
		ZSTD_outBuffer out = { block, ZSTD_DStreamOutSize(), 0 };

		rc = ZSTD_decompressStream(ds, &out, &in);
		if (ZSTD_isError(rc) || (out.pos == 0 && in.pos == in.size && rc != 0)) {
			strbuf_setf(err, "the result arrived damaged: %s",
				    ZSTD_isError(rc) ? ZSTD_getErrorName(rc) : "short");
			break;
		}
		produced += out.pos;
		if (produced > declared) {
			strbuf_setf(err, "the result arrived damaged: more than "
				    "the %llu bytes its frame declares", declared);
			break;
		}
		if (out.pos && fd_write_all(fd, block, out.pos) != 0) {
			strbuf_setf(err, "cannot keep the result: %s", strerror(errno));
			break;
		}
	}
	ZSTD_freeDStream(ds);
	if (rc != 0 || produced > declared)
		return -1;
	if (produced != declared) {
		strbuf_setf(err, "the result arrived damaged: %zu of the %llu "
			    "bytes its frame declares", produced, declared);
		return -1;
	}
	*size = produced;
	return 0;
}

int frame_decode(const char *buf, size_t len, int out_fd, size_t max,
		 size_t *size, struct strbuf *err)
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
	return decompress(data, length, out_fd, max, size, err);
}
