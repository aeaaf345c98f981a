/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The architectures `kernels` boots, one row each: which qemu, which
 * machine, where the guest's console and its result go, and what its
 * guest payload and its kernel images are. Adding one is a row here and
 * the image format in vm/image.c.
 */
#ifndef CLOCKBENCH_VM_ARCH_H
#define CLOCKBENCH_VM_ARCH_H

#include <stdbool.h>

enum vm_arch {
	VM_ARCH_X86_64,
	VM_ARCH_ARM64,
	VM_ARCH_PPC64EL,
	VM_ARCH_COUNT,
};

struct vm_arch_info {
	const char *name;	/* Debian's: "amd64" is x86_64 here, as uname says */
	const char *qemu;	/* the program, found in PATH */
	const char *package;	/* Debian's package of it */
	/* The machine and CPU under TCG ("-M", "virt", "-cpu", "max"), NULL-ended. */
	const char *const *machine;
	unsigned elf_machine;	/* EM_* of its kernels and payloads */
	const char *console;	/* the kernel's console device */
	/*
	 * The data port: the guest's second serial device, or, where the
	 * machine has one UART (arm64's virt in qemu 7.2; its virtio console
	 * is a module in Debian's 6.1), the console itself, which the guest
	 * quietens before it sends (the frame is found in the console's
	 * capture: vm/frame.h searches for its head).
	 */
	const char *data_port;
	bool data_on_console;
	const char *payload_dir;	/* the build directory of its guest */
};

const struct vm_arch_info *vm_arch_info(enum vm_arch arch);
/* The architecture this clockbench runs on (and so the default guest's). */
enum vm_arch vm_arch_host(void);

#endif
