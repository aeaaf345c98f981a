// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include <sys/stat.h>

#include "vm/initramfs.h"

void initramfs_init(struct initramfs *a)
{
	strbuf_init(&a->buf);
	a->ino = 1;
}

void initramfs_release(struct initramfs *a)
{
	strbuf_release(&a->buf);
}

/* newc pads the header plus name, and the data, to 4 bytes. */
static void pad4(struct strbuf *sb)
{
	while (sb->len % 4)
		strbuf_addch(sb, '\0');
}

static void entry(struct initramfs *a, const char *name, unsigned mode,
		  unsigned nlink, unsigned rmajor, unsigned rminor,
		  const void *data, size_t len)
{
	size_t namesize = strlen(name) + 1;

	/*
	 * magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check: 8 hex digits each.
	 * mtime 0: the archive of a payload is the same bytes every time.
	 */
	strbuf_addf(&a->buf, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		    a->ino++, mode, 0u, 0u, nlink, 0u, len, 0u, 0u, rmajor, rminor,
		    namesize, 0u);
	strbuf_add(&a->buf, name, namesize);
	pad4(&a->buf);
	if (len) {
		strbuf_add(&a->buf, data, len);
		pad4(&a->buf);
	}
}

void initramfs_dir(struct initramfs *a, const char *name)
{
	entry(a, name, S_IFDIR | 0755, 2, 0, 0, NULL, 0);
}

void initramfs_file(struct initramfs *a, const char *name, mode_t mode,
		    const void *data, size_t len)
{
	entry(a, name, S_IFREG | (mode & 07777), 1, 0, 0, data, len);
}

void initramfs_chardev(struct initramfs *a, const char *name, mode_t mode,
		       unsigned major, unsigned minor)
{
	entry(a, name, S_IFCHR | (mode & 07777), 1, major, minor, NULL, 0);
}

void initramfs_finish(struct initramfs *a)
{
	entry(a, "TRAILER!!!", 0, 1, 0, 0, NULL, 0);
}
