// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's build compresses vmlinux (objcopy'd, relocations appended)
 * with one of seven compressors and appends the unpacked size as a
 * little-endian 32-bit word (scripts/Makefile.lib's size_append; gzip's
 * own trailer says the same). The boot header's payload_offset and
 * payload_length (boot protocol 2.08, Documentation/arch/x86/boot.rst)
 * say where the compressed kernel lies, so the unpacking needs no search.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "config.h"
#if HAVE_ZLIB
#include <zlib.h>
#endif
#if HAVE_LZMA
#include <lzma.h>
#endif
#if HAVE_LZ4
#include <lz4.h>
#endif

#include "basic/util.h"
#include "vm/qemu.h"
#include "vm/vmlinux.h"

#define SETUP_SECTS_OFF 0x1f1
#define PROTOCOL_OFF 0x206
#define PAYLOAD_OFFSET_OFF 0x248
#define PAYLOAD_LENGTH_OFF 0x24c
#define PROTOCOL_PAYLOAD 0x208	/* the first with payload_offset/length */
/* A bzImage is a few tens of MB at most; its setup and payload both fit. */
#define BZIMAGE_MAX_BYTES (256u << 20)
/* The legacy LZ4 frame the kernel uses (lz4 -l): 8 MiB blocks. */
#define LZ4_LEGACY_MAGIC 0x184c2102u
#define LZ4_LEGACY_BLOCK (8u << 20)
/* The PVH entry point: an ELF note "Xen", XEN_ELFNOTE_PHYS32_ENTRY. */
#define PVH_NOTE_TYPE 18

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* ---- the compressors ----------------------------------------------------- */

struct unpack {
	const unsigned char *in;
	size_t in_len;
	unsigned char *out;
	size_t out_len;		/* what the trailer announces */
	struct strbuf *err;
};

static int unpack_fail(const struct unpack *u, const char *method,
		       const char *reason)
{
	strbuf_setf(u->err, "the %s payload does not unpack: %s", method, reason);
	return -1;
}

static int unpack_zstd(const struct unpack *u)
{
	/* The frame alone: the size word after it is no zstd data. */
	size_t frame = ZSTD_findFrameCompressedSize(u->in, u->in_len);
	size_t n;

	if (ZSTD_isError(frame))
		return unpack_fail(u, "zstd", ZSTD_getErrorName(frame));
	n = ZSTD_decompress(u->out, u->out_len, u->in, frame);
	if (ZSTD_isError(n))
		return unpack_fail(u, "zstd", ZSTD_getErrorName(n));
	return n == u->out_len ? 0 : unpack_fail(u, "zstd", "shorter than announced");
}

#if HAVE_ZLIB
static int unpack_gzip(const struct unpack *u)
{
	z_stream z = { .next_in = (unsigned char *)u->in, .avail_in = (uInt)u->in_len,
		       .next_out = u->out, .avail_out = (uInt)u->out_len };
	int rc;

	/* 16 + the largest window: a gzip header and trailer around deflate. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return unpack_fail(u, "gzip", "no memory");
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.total_out != u->out_len)
		return unpack_fail(u, "gzip", z.msg ? z.msg : "shorter than announced");
	return 0;
}
#endif

#if HAVE_LZMA
static int unpack_lzma_stream(const struct unpack *u, const char *method, bool alone)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = alone ? lzma_alone_decoder(&s, UINT64_MAX) :
			      lzma_stream_decoder(&s, UINT64_MAX, 0);

	if (rc != LZMA_OK)
		return unpack_fail(u, method, "no memory");
	s.next_in = u->in;
	s.avail_in = u->in_len;
	s.next_out = u->out;
	s.avail_out = u->out_len;
	rc = lzma_code(&s, LZMA_FINISH);
	lzma_end(&s);
	if (rc != LZMA_STREAM_END || s.total_out != u->out_len)
		return unpack_fail(u, method, rc == LZMA_STREAM_END ?
				   "shorter than announced" : "corrupt data");
	return 0;
}
#endif

#if HAVE_LZ4
/*
 * The legacy LZ4 format: the magic, then blocks of a 32-bit compressed
 * size and the block, each unpacking to at most 8 MiB; the size word the
 * build appends ends it.
 */
static int unpack_lz4(const struct unpack *u)
{
	size_t pos = 4, done = 0;

	while (done < u->out_len && pos + 4 <= u->in_len) {
		uint32_t block = le32(u->in + pos);
		size_t room = u->out_len - done;
		int n;

		pos += 4;
		if (block == LZ4_LEGACY_MAGIC)
			continue;
		if (block > u->in_len - pos)
			return unpack_fail(u, "lz4", "a block runs past the payload");
		n = LZ4_decompress_safe((const char *)u->in + pos, (char *)u->out + done,
					(int)block, (int)(room < LZ4_LEGACY_BLOCK ?
							  room : LZ4_LEGACY_BLOCK));
		if (n <= 0)
			return unpack_fail(u, "lz4", "corrupt block");
		pos += block;
		done += (size_t)n;
	}
	return done == u->out_len ? 0 : unpack_fail(u, "lz4", "shorter than announced");
}
#endif

struct method {
	const char *name;
	const unsigned char magic[6];
	size_t magic_len;
	int (*unpack)(const struct unpack *u);	/* NULL: not built in */
	const char *library;			/* what would unpack it */
};

#if HAVE_LZMA
static int unpack_xz(const struct unpack *u)
{
	return unpack_lzma_stream(u, "xz", false);
}

static int unpack_lzma(const struct unpack *u)
{
	return unpack_lzma_stream(u, "lzma", true);
}
#else
#define unpack_xz NULL
#define unpack_lzma NULL
#endif
#if !HAVE_ZLIB
#define unpack_gzip NULL
#endif
#if !HAVE_LZ4
#define unpack_lz4 NULL
#endif

static const struct method methods[] = {
	{ "gzip", { 0x1f, 0x8b }, 2, unpack_gzip, "zlib" },
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, unpack_xz, "liblzma" },
	{ "lzma", { 0x5d, 0, 0 }, 3, unpack_lzma, "liblzma" },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, unpack_zstd, "libzstd" },
	{ "lz4", { 0x02, 0x21, 0x4c, 0x18 }, 4, unpack_lz4, "liblz4" },
	/* The kernel's bzip2 and lzo: rare, and left to the guest. */
	{ "bzip2", { 'B', 'Z', 'h' }, 3, NULL, NULL },
	{ "lzo", { 0x89, 'L', 'Z', 'O' }, 4, NULL, NULL },
};

static const struct method *find_method(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(methods); i++)
		if (len >= methods[i].magic_len &&
		    memcmp(p, methods[i].magic, methods[i].magic_len) == 0)
			return &methods[i];
	return NULL;
}

/* ---- the ELF that comes out ----------------------------------------------- */

/*
 * An x86-64 ELF is little-endian whatever the host: its fields are read
 * byte by byte, at their offsets in Elf64_Ehdr, Elf64_Phdr and Elf64_Nhdr.
 */
static uint64_t le(const unsigned char *p, size_t bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

#define EH_MACHINE 18
#define EH_PHOFF 32
#define EH_PHENTSIZE 54
#define EH_PHNUM 56
#define PH_TYPE 0
#define PH_OFFSET 8
#define PH_FILESZ 32
#define NH_BYTES 12

/* Whether the notes in [p, p + len) hold the PVH entry point. */
static bool notes_have_pvh(const unsigned char *p, size_t len)
{
	while (len >= NH_BYTES) {
		size_t namesz = le(p, 4), descsz = le(p + 4, 4), type = le(p + 8, 4);
		size_t name = (namesz + 3) & ~(size_t)3, desc = (descsz + 3) & ~(size_t)3;
		size_t step;

		if (name > len - NH_BYTES || desc > len - NH_BYTES - name)
			return false;
		if (type == PVH_NOTE_TYPE && namesz == 4 && memcmp(p + NH_BYTES, "Xen", 4) == 0)
			return true;
		step = NH_BYTES + name + desc;
		p += step;
		len -= step;
	}
	return false;
}

bool vmlinux_bootable(const unsigned char *buf, size_t len, struct strbuf *err)
{
	uint64_t phoff, phnum;

	if (len < sizeof(Elf64_Ehdr) || memcmp(buf, ELFMAG, SELFMAG) != 0) {
		strbuf_setf(err, "the unpacked kernel is no ELF file");
		return false;
	}
	phoff = le(buf + EH_PHOFF, 8);
	phnum = le(buf + EH_PHNUM, 2);
	if (buf[EI_CLASS] != ELFCLASS64 || buf[EI_DATA] != ELFDATA2LSB ||
	    le(buf + EH_MACHINE, 2) != EM_X86_64 ||
	    le(buf + EH_PHENTSIZE, 2) != sizeof(Elf64_Phdr) || phoff > len ||
	    phnum * sizeof(Elf64_Phdr) > len - phoff) {
		strbuf_setf(err, "not an x86-64 ELF kernel with program headers");
		return false;
	}
	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *ph = buf + phoff + i * sizeof(Elf64_Phdr);
		uint64_t off = le(ph + PH_OFFSET, 8), size = le(ph + PH_FILESZ, 8);

		if (le(ph + PH_TYPE, 4) == PT_NOTE && off <= len && size <= len - off &&
		    notes_have_pvh(buf + off, size))
			return true;
	}
	strbuf_setf(err, "no PVH entry note (a kernel built without "
		    "CONFIG_PVH), which qemu needs to boot a vmlinux");
	return false;
}

/* ---- the bzImage ---------------------------------------------------------- */

static int read_whole(const char *path, unsigned char **buf, size_t *len,
		      struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	*buf = NULL;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)BZIMAGE_MAX_BYTES) {
		strbuf_setf(err, "cannot read it whole: %s", fd < 0 ?
			    strerror(errno) : "not a regular file of at most 256 MB");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*len = (size_t)st.st_size;
	*buf = xmalloc(*len ? *len : 1);
	if (fd_read_all(fd, *buf, *len, -1) != 0) {
		strbuf_setf(err, "cannot read it whole: %s", strerror(errno));
		free(*buf);
		*buf = NULL;
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Where the compressed kernel lies in the bzImage: 0, or -1 with err. */
static int find_payload(const unsigned char *img, size_t len, const unsigned char **p,
			size_t *plen, struct strbuf *err)
{
	size_t setup, off, n;

	if (len < PAYLOAD_LENGTH_OFF + 4 ||
	    (unsigned)(img[PROTOCOL_OFF] | img[PROTOCOL_OFF + 1] << 8) < PROTOCOL_PAYLOAD) {
		strbuf_setf(err, "a boot protocol older than 2.08 does not say "
			    "where the kernel lies");
		return -1;
	}
	setup = img[SETUP_SECTS_OFF] ? img[SETUP_SECTS_OFF] : 4;
	off = (setup + 1) * 512 + le32(img + PAYLOAD_OFFSET_OFF);
	n = le32(img + PAYLOAD_LENGTH_OFF);
	if (off > len || n > len - off || n < 8) {
		strbuf_setf(err, "the boot header's payload (%zu bytes at %zu) "
			    "lies outside the file", n, off);
		return -1;
	}
	*p = img + off;
	*plen = n;
	return 0;
}

static int unpack_payload(const unsigned char *p, size_t n, struct vmlinux_extract *x,
			  unsigned char **out, struct strbuf *err)
{
	const struct method *m = find_method(p, n);
	struct unpack u = { .in = p, .in_len = n, .err = err };

	*out = NULL;
	if (!m) {
		strbuf_setf(err, "the payload's compression is not one the "
			    "kernel uses (magic %02x %02x %02x %02x)", p[0], p[1], p[2], p[3]);
		return -1;
	}
	snprintf(x->method, sizeof(x->method), "%s", m->name);
	if (!m->unpack) {
		strbuf_setf(err, "compressed with %s, which clockbench %s", m->name,
			    m->library ? "was built without" : "does not unpack");
		if (m->library)
			strbuf_addf(err, " (%s)", m->library);
		return -1;
	}
	u.out_len = le32(p + n - 4);
	if (u.out_len == 0 || u.out_len > VMLINUX_MAX_BYTES) {
		strbuf_setf(err, "the payload announces %zu bytes unpacked", u.out_len);
		return -1;
	}
	u.out = xmalloc(u.out_len);
	if (m->unpack(&u) != 0) {
		free(u.out);
		return -1;
	}
	x->bytes = u.out_len;
	*out = u.out;
	return 0;
}

int vmlinux_extract(const char *path, struct vmlinux_extract *x, struct strbuf *err)
{
	_cleanup_free_ unsigned char *img = NULL, *elf = NULL;
	const unsigned char *payload;
	size_t len, plen;
	int fd;

	memset(x, 0, sizeof(*x));
	if (read_whole(path, &img, &len, err) ||
	    find_payload(img, len, &payload, &plen, err) ||
	    unpack_payload(payload, plen, x, &elf, err) ||
	    !vmlinux_bootable(elf, x->bytes, err))
		return -1;
	fd = vm_file_new("vmlinux");
	if (fd < 0 || fd_write_all(fd, elf, x->bytes) != 0) {
		strbuf_setf(err, "cannot keep the vmlinux: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}
