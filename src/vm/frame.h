/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm/: the virtual machines behind `clockbench kernels`: the kernel image
 * read, the guest's initramfs written, qemu run and stopped, and the
 * result of a boot carried from the guest to the host (an engine; its
 * layer: src/meson.build).
 *
 * The frame a guest's result crosses its serial port in:
 *
 *	"\nclockbench-frame 1 LENGTH\n" ZSTD "\nclockbench-end\n"
 *
 * ZSTD is LENGTH bytes: one zstd frame with its content size and content
 * checksum. The port is raw (8-bit clean), so a frame that arrives cut
 * short, with a byte changed, or not at all is told apart from a whole
 * one by the length, the end line and zstd's checksum; nothing is
 * trusted that did not pass all three.
 */
#ifndef CLOCKBENCH_VM_FRAME_H
#define CLOCKBENCH_VM_FRAME_H

#include <stddef.h>

#include "basic/strbuf.h"

/* The largest payload a frame may carry, before and after compression. */
#define FRAME_MAX_BYTES (256u << 20)

/* payload as a frame, appended to out: 0, or -1 with the reason in err. */
int frame_encode(const void *payload, size_t len, struct strbuf *out,
		 struct strbuf *err);

/*
 * The payload of the frame in buf (a serial port's capture: the guest
 * sends one frame, and the first head found is it; the compressed bytes
 * after it are never searched), into payload: 0; or -1 with what was wrong
 * in err ("no result arrived", "the result arrived cut short after N of M
 * bytes", "the result arrived damaged: ...").
 */
int frame_decode(const char *buf, size_t len, struct strbuf *payload,
		 struct strbuf *err);

#endif
