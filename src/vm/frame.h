/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm/: the virtual machines behind `clockbench kernels`: the kernel image
 * read, the guest's initramfs written, qemu run and stopped, the result
 * of a boot carried from the guest to the host, and the campaign that
 * boots the kernels in turn (vm/campaign.h) (an engine; its layer:
 * src/meson.build).
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

/*
 * The most a frame carries compressed. The receiver sets what it accepts
 * decompressed (frame_decode()'s max): a frame says its content size in
 * its header, and a size over max is refused before a byte is inflated.
 */
#define FRAME_MAX_BYTES (64u << 20)

/* payload as a frame, appended to out: 0, or -1 with the reason in err. */
int frame_encode(const void *payload, size_t len, struct strbuf *out,
		 struct strbuf *err);

/*
 * The payload of the frame in buf (a serial port's capture: the guest
 * sends one frame, and the first head found is it; the compressed bytes
 * after it are never searched), written to out_fd as it is inflated, a
 * block at a time: at most max bytes are ever held or written. 0 with the
 * payload's size in *size; or -1 with what was wrong in err ("no result
 * arrived", "the result arrived cut short after N of M bytes", "the
 * result arrived damaged: ...", "the result is N bytes inflated, more
 * than the M accepted").
 */
int frame_decode(const char *buf, size_t len, int out_fd, size_t max,
		 size_t *size, struct strbuf *err);

#endif
