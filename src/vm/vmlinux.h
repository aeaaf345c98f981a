/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uncompressed kernel inside a bzImage. A bzImage is a decompressor
 * with the kernel (an ELF vmlinux) compressed behind it; under TCG the
 * guest spends seconds of every boot running that decompressor emulated.
 * Unpacked once on the host and booted through its PVH entry point (the
 * "Xen" ELF note CONFIG_PVH adds, which qemu's -kernel enters directly),
 * the same kernel starts without it.
 */
#ifndef CLOCKBENCH_VM_VMLINUX_H
#define CLOCKBENCH_VM_VMLINUX_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

/* The most a kernel may unpack to: far above any x86-64 kernel's size. */
#define VMLINUX_MAX_BYTES (1024u << 20)

/* What the unpacking found: the compressor and the size unpacked. */
struct vmlinux_extract {
	char method[8];		/* "gzip", "xz", "lzma", "zstd", "lz4", ... */
	size_t bytes;		/* the vmlinux's size */
};

/*
 * The vmlinux inside the bzImage at path, into a new unnamed file (memfd):
 * its descriptor (>= 0); -1 with why in err when it cannot be had (a
 * compressor clockbench was built without, a damaged payload, a kernel
 * without the PVH entry note). The bzImage itself boots either way.
 */
int vmlinux_extract(const char *path, struct vmlinux_extract *x,
		    struct strbuf *err);

/*
 * Whether the ELF image in buf (len bytes) is an x86-64 kernel that qemu
 * can enter through PVH: false with why in err.
 */
bool vmlinux_bootable(const unsigned char *buf, size_t len, struct strbuf *err);

#endif
