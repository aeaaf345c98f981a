/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest payload: a statically linked clockbench (`make guest` builds
 * one in build-guest/, scripts/guest-payload) that the initramfs holds as
 * /init (vm/guest.h), and the per-boot archive that carries the command.
 */
#ifndef CLOCKBENCH_VM_PAYLOAD_H
#define CLOCKBENCH_VM_PAYLOAD_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "vm/arch.h"

/* What to say when no payload is found. */
#define PAYLOAD_MISSING "no static clockbench for the guest: build one with " \
	"'make guest' (build-guest/src/clockbench), or name one with --guest " \
	"or $CLOCKBENCH_GUEST"

/*
 * The static clockbench of arch to boot, into path: given (--guest), else
 * $CLOCKBENCH_GUEST (for another architecture than this machine's,
 * $CLOCKBENCH_GUEST_ARM64, ..._PPC64EL), else clockbench-guest (-arm64,
 * -ppc64el) beside this program, else build-guest/src/clockbench
 * (build-guest-arm64/...) of the source tree this program was built in.
 * 0, or -1 with why in err (PAYLOAD_MISSING, or why a file found is
 * unusable: not an ELF executable of arch, dynamically linked).
 */
int payload_find(const char *given, enum vm_arch arch, char *path, size_t len,
		 struct strbuf *err);

/*
 * The initramfs of one boot into out: the payload at path as /init, the
 * directories the guest mounts on, /dev/console, and the command's
 * arguments (argv[0..argc)) in GUEST_ARGS. 0, or -1 with err.
 */
int payload_initramfs(const char *path, char *const *argv, size_t argc,
		      struct strbuf *out, struct strbuf *err);

#endif
