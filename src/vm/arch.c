// SPDX-License-Identifier: GPL-2.0-or-later
#include "vm/arch.h"

#include <elf.h>
#include <stddef.h>

/* x86: the CPU follows the accelerator (vm/qemu.c). */
static const char *const x86_machine[] = { NULL };
static const char *const arm64_machine[] = { "-M", "virt", "-cpu", "max", NULL };
static const char *const ppc64_machine[] = { "-M", "pseries", "-cpu", "power9", NULL };

static const struct vm_arch_info archs[VM_ARCH_COUNT] = {
	[VM_ARCH_X86_64] = {
		.name = "x86_64", .qemu = "qemu-system-x86_64",
		.package = "qemu-system-x86", .machine = x86_machine,
		.elf_machine = EM_X86_64, .console = "ttyS0",
		.data_port = "/dev/ttyS1", .payload_dir = "build-guest",
	},
	[VM_ARCH_ARM64] = {
		.name = "arm64", .qemu = "qemu-system-aarch64",
		.package = "qemu-system-arm", .machine = arm64_machine,
		.elf_machine = EM_AARCH64, .console = "ttyAMA0",
		.data_port = "/dev/ttyAMA0", .data_on_console = true,
		.payload_dir = "build-guest-arm64",
	},
	[VM_ARCH_PPC64EL] = {
		.name = "ppc64el", .qemu = "qemu-system-ppc64",
		.package = "qemu-system-ppc", .machine = ppc64_machine,
		.elf_machine = EM_PPC64, .console = "hvc0",
		.data_port = "/dev/hvc1", .payload_dir = "build-guest-ppc64el",
	},
};

const struct vm_arch_info *vm_arch_info(enum vm_arch arch)
{
	return &archs[arch < VM_ARCH_COUNT ? arch : VM_ARCH_X86_64];
}

enum vm_arch vm_arch_host(void)
{
#if defined(__aarch64__)
	return VM_ARCH_ARM64;
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return VM_ARCH_PPC64EL;
#else
	return VM_ARCH_X86_64;
#endif
}
