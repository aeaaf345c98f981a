// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/util.h"
#include "vm/image.h"
#include "vm/vmlinux.h"

/* The x86 boot protocol's header (Documentation/arch/x86/boot.rst). */
#define BOOT_FLAG_OFF 0x1fe		/* 0xAA55 */
#define HEADER_MAGIC_OFF 0x202		/* "HdrS" */
#define KERNEL_VERSION_OFF 0x20e	/* u16: the version string - 0x200 */
#define SETUP_SECTS_OFF 0x1f1
#define HEADER_BYTES 0x280
#define VERSION_BYTES 256
/* An ELF vmlinux keeps its banner in .rodata: looked for in its start. */
#define BANNER_SCAN_BYTES (64u << 20)

/* arm64's Image header (Documentation/arch/arm64/booting.rst). */
#define ARM64_MAGIC_OFF 0x38

const char *kernel_image_kind_name(enum image_kind kind)
{
	return kind == IMAGE_BZIMAGE ? "bzImage" : kind == IMAGE_ARM64 ?
	       "arm64 Image" : "vmlinux (ELF)";
}

/* "6.12.1-x #1 SMP ..." into release ("6.12.1-x") and version (the rest). */
static void split_banner(const char *s, size_t max, struct kernel_image *img)
{
	size_t n = 0, i;

	while (n < max && s[n] && s[n] != ' ' && s[n] != '\n')
		n++;
	if (n == 0 || n >= sizeof(img->release))
		return;
	memcpy(img->release, s, n);
	img->release[n] = '\0';
	for (i = 0; i < n; i++)
		if ((unsigned char)img->release[i] < 0x21 ||
		    (unsigned char)img->release[i] > 0x7e) {
			img->release[0] = '\0';
			return;
		}
	s += n;
	max -= n;
	while (max && *s == ' ')
		s++, max--;
	for (i = 0; i + 1 < sizeof(img->version) && i < max && s[i] &&
	     s[i] != '\n'; i++)
		img->version[i] = ((unsigned char)s[i] < 0x20 ||
				   (unsigned char)s[i] > 0x7e) ? '?' : s[i];
	img->version[i] = '\0';
}

static int read_at(int fd, off_t off, void *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len ? 0 : -1;
}

static void bzimage_version(int fd, const unsigned char *hdr,
			    struct kernel_image *img)
{
	uint16_t off = (uint16_t)(hdr[KERNEL_VERSION_OFF] |
				  hdr[KERNEL_VERSION_OFF + 1] << 8);
	char v[VERSION_BYTES + 1] = { 0 };

	if (off && read_at(fd, (off_t)off + 0x200, v, VERSION_BYTES) == 0)
		split_banner(v, VERSION_BYTES, img);
}

/*
 * An uncompressed kernel (an ELF vmlinux, an arm64 Image): its banner, in
 * the file's start. The start into *buf (len bytes); 0, or -1 with why.
 */
static int banner_read(int fd, off_t size, struct kernel_image *img, char **buf,
		       size_t *len, struct strbuf *err)
{
	static const char banner[] = "Linux version ";
	const char *hit;

	*len = size > (off_t)BANNER_SCAN_BYTES ? BANNER_SCAN_BYTES : (size_t)size;
	*buf = xmalloc(*len + 1);
	if (read_at(fd, 0, *buf, *len) != 0) {
		strbuf_setf(err, "cannot read it: %s", strerror(errno));
		return -1;
	}
	(*buf)[*len] = '\0';
	hit = memmem(*buf, *len, banner, sizeof(banner) - 1);
	if (hit) {
		hit += sizeof(banner) - 1;
		split_banner(hit, *len - (size_t)(hit - *buf), img);
	}
	if (!img->release[0]) {
		strbuf_setf(err, "an %s %s without a \"Linux version\" banner: not a "
			    "kernel", vm_arch_info(img->arch)->name,
			    img->kind == IMAGE_ARM64 ? "Image" : "ELF file");
		return -1;
	}
	return 0;
}

/*
 * An ELF vmlinux: its banner (in .rodata) and, on x86, its PVH entry note,
 * both in the file's start. 0, or -1 with why qemu cannot boot it.
 */
static int vmlinux_read(int fd, off_t size, struct kernel_image *img,
			struct strbuf *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;

	if (banner_read(fd, size, img, &buf, &len, err))
		return -1;
	/* pseries boots an ELF vmlinux as it is; x86 needs its PVH note. */
	if (img->arch != VM_ARCH_X86_64)
		return 0;
	return vmlinux_bootable((const unsigned char *)buf, len, err) ? 0 : -1;
}

/* The architecture of an ELF kernel: 0, or -1 with why none of ours. */
static int elf_arch(const unsigned char *hdr, struct kernel_image *img,
		    struct strbuf *err)
{
	/* e_machine, little-endian as every kernel booted here is. */
	unsigned machine = hdr[18] | (unsigned)hdr[19] << 8;

	for (int a = 0; a < VM_ARCH_COUNT; a++)
		if (hdr[EI_CLASS] == ELFCLASS64 && hdr[EI_DATA] == ELFDATA2LSB &&
		    machine == vm_arch_info((enum vm_arch)a)->elf_machine &&
		    a != VM_ARCH_ARM64) {
			img->arch = (enum vm_arch)a;
			return 0;
		}
	strbuf_setf(err, "an ELF file, but not an x86-64 or ppc64el kernel (class "
		    "%u, data %u, machine %u; arm64 boots its Image)", hdr[EI_CLASS],
		    hdr[EI_DATA], machine);
	return -1;
}

static int classify(int fd, off_t size, struct kernel_image *img,
		    struct strbuf *err)
{
	unsigned char hdr[HEADER_BYTES];

	if (size < (off_t)sizeof(hdr) || read_at(fd, 0, hdr, sizeof(hdr))) {
		strbuf_setf(err, "not a kernel image: %lld bytes, too short "
			    "for a boot header", (long long)size);
		return -1;
	}
	if (hdr[BOOT_FLAG_OFF] == 0x55 && hdr[BOOT_FLAG_OFF + 1] == 0xaa &&
	    memcmp(hdr + HEADER_MAGIC_OFF, "HdrS", 4) == 0) {
		img->kind = IMAGE_BZIMAGE;
		bzimage_version(fd, hdr, img);
		return 0;
	}
	if (memcmp(hdr, ELFMAG, SELFMAG) == 0) {
		if (elf_arch(hdr, img, err))
			return -1;
		img->kind = IMAGE_VMLINUX;
		return vmlinux_read(fd, size, img, err);
	}
	if (memcmp(hdr + ARM64_MAGIC_OFF, "ARM\x64", 4) == 0) {
		_cleanup_free_ char *buf = NULL;
		size_t len;

		img->kind = IMAGE_ARM64;
		img->arch = VM_ARCH_ARM64;
		return banner_read(fd, size, img, &buf, &len, err);
	}
	if (hdr[0] == 0x1f && hdr[1] == 0x8b) {
		strbuf_setf(err, "a gzip file, not a kernel image: "
			    "decompress it first (it may hold a vmlinux)");
		return -1;
	}
	strbuf_setf(err, "not a kernel image: neither a bzImage (no "
		    "\"HdrS\" boot header at 0x202), an arm64 Image (no \"ARM\\x64\" "
		    "at 0x38) nor an ELF vmlinux");
	return -1;
}

int kernel_image_read(const char *path, struct kernel_image *img,
		      struct strbuf *err)
{
	struct stat st;
	int fd, rc;

	memset(img, 0, sizeof(*img));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		strbuf_setf(err, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		strbuf_setf(err, "not a regular file");
		close(fd);
		return -1;
	}
	rc = classify(fd, st.st_size, img, err);
	close(fd);
	return rc;
}
