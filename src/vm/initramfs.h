/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's initramfs: a cpio archive in the "newc" format the kernel
 * unpacks into its first root file system (Documentation/driver-api/
 * early-userspace/buffer-format.rst), built in memory: the static
 * clockbench as /init, and the command of the boot.
 */
#ifndef CLOCKBENCH_VM_INITRAMFS_H
#define CLOCKBENCH_VM_INITRAMFS_H

#include <stddef.h>
#include <sys/types.h>

#include "basic/strbuf.h"

struct initramfs {
	struct strbuf buf;
	unsigned ino;
};

void initramfs_init(struct initramfs *a);
void initramfs_release(struct initramfs *a);

/* A directory, owned by root, mode 0755. */
void initramfs_dir(struct initramfs *a, const char *name);
/* A regular file of len bytes with the given mode (0755, 0644). */
void initramfs_file(struct initramfs *a, const char *name, mode_t mode,
		    const void *data, size_t len);
/* A character device node (/dev/console: 5, 1). */
void initramfs_chardev(struct initramfs *a, const char *name, mode_t mode,
		       unsigned major, unsigned minor);
/* The trailer that closes an archive; nothing may be added after it. */
void initramfs_finish(struct initramfs *a);

#endif
