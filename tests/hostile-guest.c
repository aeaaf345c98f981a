// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernels.bats's hostile guest: booted by `clockbench kernels --guest` as
 * the initramfs's /init in place of clockbench, it sends the host what a
 * hostile or broken kernel image could, over the data port, and powers
 * off. Static, written for the test and sharing no code with the real
 * guest: it is the adversary, so it must be able to lie about everything
 * the real one gets right (frame lengths, content sizes, fields).
 *
 * In the guest, its arguments are the command the host packed
 * (/clockbench/args: COMMAND then the rest), COMMAND any word the host
 * lets through ("vdso"):
 *
 *	vdso raw HEX
 *		send the bytes HEX as they are (a frame made on the host)
 *	vdso build MANIFEST_HEX NAMES TEMPLATE_HEX COPIES
 *		send a frame of MANIFEST, '\0' and an export of COPIES runs:
 *		"@NAMES@" in MANIFEST becomes NAMES symbol names
 *		("\"f1\",\"f2\",..."), "@N@" in TEMPLATE the copy's number in 12
 *		digits (a uuid's last group); no export when COPIES is 0. A
 *		MANIFEST holding "@EXPORT@" gets the export there and no '\0':
 *		the first format, to show what hosts before it did
 *
 * On the host (not process 1) it makes frames that are too large to make
 * in an emulated guest in time:
 *
 *	hostile-guest bomb-hex MANIFEST_HEX BYTES
 *		prints the hex of a frame of MANIFEST, '\0' and BYTES bytes of
 *		"{}," (255 MiB compress to some 25 KB)
 *	hostile-guest file-hex MANIFEST_HEX FILE
 *		prints the hex of a frame of MANIFEST, '\0' and FILE's bytes
 *		(of FILE alone when MANIFEST_HEX is "-")
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <zstd.h>

#define HEAD "\nclockbench-frame 1 %zu\n"
#define END "\nclockbench-end\n"

struct buf {
	char *p;
	size_t len, cap;
};

static void die(const char *what)
{
	fprintf(stderr, "hostile-guest: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("realloc");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void adds(struct buf *b, const char *s)
{
	add(b, s, strlen(s));
}

static void unhex(const char *hex, struct buf *out)
{
	for (size_t i = 0; hex[i] && hex[i + 1]; i += 2) {
		char pair[3] = { hex[i], hex[i + 1], 0 };
		char c = (char)strtoul(pair, NULL, 16);

		add(out, &c, 1);
	}
}

/* s with every "@KEY@" replaced by with. */
static void replace(struct buf *out, const char *s, const char *key, const char *with)
{
	const char *at;

	while ((at = strstr(s, key))) {
		add(out, s, (size_t)(at - s));
		adds(out, with);
		s = at + strlen(key);
	}
	adds(out, s);
}

/* A frame of payload, as the real guest makes one (content size, checksum). */
static void frame(const struct buf *payload, struct buf *out)
{
	size_t cap = ZSTD_compressBound(payload->len), z;
	char *zbuf = malloc(cap), head[64];
	ZSTD_CCtx *c = ZSTD_createCCtx();

	if (!zbuf || !c)
		die("malloc");
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
	z = ZSTD_compress2(c, zbuf, cap, payload->p, payload->len);
	if (ZSTD_isError(z)) {
		fprintf(stderr, "hostile-guest: %s\n", ZSTD_getErrorName(z));
		exit(1);
	}
	snprintf(head, sizeof(head), HEAD, z);
	adds(out, head);
	add(out, zbuf, z);
	adds(out, END);
	ZSTD_freeCCtx(c);
	free(zbuf);
}

static void print_hex(const struct buf *b);

/* manifest '\0' and bytes of "{},", compressed as a stream: the hex of the frame. */
static void bomb_hex(const char *manifest_hex, size_t bytes)
{
	struct buf manifest = { 0 }, out = { 0 };
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t total, cap, chunk = 1 << 20, done = 0;
	char *block = malloc(chunk), *zbuf, head[64];
	ZSTD_outBuffer zo;

	unhex(manifest_hex, &manifest);
	add(&manifest, "", 1);
	total = manifest.len + bytes;
	cap = ZSTD_compressBound(total);
	zbuf = malloc(cap);
	if (!c || !block || !zbuf)
		die("malloc");
	for (size_t i = 0; i < chunk; i++)
		block[i] = "{},"[i % 3];
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setPledgedSrcSize(c, total);
	zo = (ZSTD_outBuffer){ zbuf, cap, 0 };
	ZSTD_inBuffer in = { manifest.p, manifest.len, 0 };
	ZSTD_compressStream2(c, &zo, &in, ZSTD_e_continue);
	while (done < bytes) {
		size_t n = bytes - done < chunk ? bytes - done : chunk;

		in = (ZSTD_inBuffer){ block, n, 0 };
		while (in.pos < in.size)
			ZSTD_compressStream2(c, &zo, &in, ZSTD_e_continue);
		done += n;
	}
	in = (ZSTD_inBuffer){ NULL, 0, 0 };
	while (ZSTD_compressStream2(c, &zo, &in, ZSTD_e_end) != 0)
		;
	snprintf(head, sizeof(head), HEAD, zo.pos);
	adds(&out, head);
	add(&out, zbuf, zo.pos);
	adds(&out, END);
	print_hex(&out);
}

static void print_hex(const struct buf *b)
{
	for (size_t i = 0; i < b->len; i++)
		printf("%02x", (unsigned char)b->p[i]);
	putchar('\n');
}

/* manifest '\0' and the file's bytes: the hex of the frame. */
static void file_hex(const char *manifest_hex, const char *path)
{
	struct buf payload = { 0 }, out = { 0 };
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	/* "-": the file is the whole payload (the first format's). */
	if (strcmp(manifest_hex, "-")) {
		unhex(manifest_hex, &payload);
		add(&payload, "", 1);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		add(&payload, chunk, n);
	fclose(f);
	frame(&payload, &out);
	print_hex(&out);
}

/* MANIFEST (NAMES names in it) '\0' and an export of COPIES runs: a frame. */
static void build(const char *manifest_hex, long names, const char *template_hex,
		  long copies, struct buf *out)
{
	struct buf manifest = { 0 }, list = { 0 }, template = { 0 }, payload = { 0 };
	char item[64];

	unhex(manifest_hex, &manifest);
	unhex(template_hex, &template);
	for (long i = 0; i < names; i++) {
		snprintf(item, sizeof(item), "%s\"__vdso_f%ld\"", i ? "," : "", i);
		adds(&list, item);
	}
	struct buf export = { 0 }, named = { 0 };

	if (copies > 0) {
		adds(&export, "{\"clockbench_export\": 1, \"runs\": [");
		for (long i = 0; i < copies; i++) {
			snprintf(item, sizeof(item), "%012ld", i);
			if (i)
				adds(&export, ",");
			replace(&export, template.p, "@N@", item);
		}
		adds(&export, "]}");
	}
	replace(&named, manifest.p ? manifest.p : "", "@NAMES@", list.p ? list.p : "");
	if (strstr(named.p, "@EXPORT@")) {
		/* The first format: the export inside the manifest, no NUL. */
		replace(&payload, named.p, "@EXPORT@", export.p ? export.p : "null");
	} else {
		add(&payload, named.p, named.len);
		add(&payload, "", 1);
		if (export.len)
			add(&payload, export.p, export.len);
	}
	frame(&payload, out);
}

/* The arguments the host packed: NUL-separated words. */
static int read_args(char **argv, int max)
{
	static char text[1 << 17];
	int fd = open("/clockbench/args", O_RDONLY), n = 0;
	ssize_t len;

	if (fd < 0 || (len = read(fd, text, sizeof(text) - 1)) <= 0)
		return 0;
	for (ssize_t i = 0; i < len && n < max; i += (ssize_t)strlen(text + i) + 1)
		argv[n++] = text + i;
	return n;
}

static void send(const struct buf *b)
{
	struct termios t;
	int fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	for (size_t off = 0; off < b->len;) {
		ssize_t n = write(fd, b->p + off, b->len - off);

		if (n <= 0 && errno != EINTR)
			break;
		off += n > 0 ? (size_t)n : 0;
	}
	tcdrain(fd);
	close(fd);
}

int main(int argc, char **argv)
{
	char *args[8];
	struct buf out = { 0 };
	int n;

	if (getpid() != 1) {
		if (argc == 4 && !strcmp(argv[1], "bomb-hex")) {
			bomb_hex(argv[2], strtoul(argv[3], NULL, 10));
			return 0;
		}
		if (argc == 4 && !strcmp(argv[1], "file-hex")) {
			file_hex(argv[2], argv[3]);
			return 0;
		}
		fprintf(stderr, "usage: hostile-guest bomb-hex MANIFEST_HEX BYTES\n"
			"       hostile-guest file-hex MANIFEST_HEX EXPORT_FILE\n");
		return 2;
	}
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	n = read_args(args, 8);
	/* What the real guest prints: the host tells a hung command from a hung kernel. */
	fprintf(stderr, "clockbench-guest: running: hostile\n");
	if (n >= 3 && !strcmp(args[1], "raw"))
		unhex(args[2], &out);
	else if (n >= 6 && !strcmp(args[1], "build"))
		build(args[2], strtol(args[3], NULL, 10), args[4], strtol(args[5], NULL, 10),
		      &out);
	send(&out);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
