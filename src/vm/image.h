/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image as qemu's -kernel boots it: on x86 a bzImage (what
 * /boot/vmlinuz-* and arch/x86/boot/bzImage are) or an uncompressed ELF
 * vmlinux, on arm64 an Image (Debian's /boot/vmlinuz-*), on ppc64el an ELF
 * vmlinux; its architecture is read from it. Read before any boot, so that
 * a file that is no kernel is named at once, not after a boot's timeout.
 */
#ifndef CLOCKBENCH_VM_IMAGE_H
#define CLOCKBENCH_VM_IMAGE_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "vm/arch.h"

enum image_kind {
	IMAGE_BZIMAGE,
	IMAGE_VMLINUX,
	IMAGE_ARM64,		/* arm64's Image: "ARM\x64" at 0x38 */
};

struct kernel_image {
	enum image_kind kind;
	enum vm_arch arch;
	char release[65];	/* "6.12.117+deb12-cloud-amd64", or "" */
	char version[256];	/* the rest of the banner, or "" */
};

/* What path holds: 0, or -1 with why it cannot be booted in err. */
int kernel_image_read(const char *path, struct kernel_image *img,
		      struct strbuf *err);

const char *kernel_image_kind_name(enum image_kind kind);

#endif
