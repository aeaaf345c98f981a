/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One boot of a kernel in qemu: started in a process group of its own,
 * killed when clockbench dies (the parent-death signal, also after a
 * SIGKILL of clockbench), when its time runs out, or when the user
 * interrupts; always reaped.
 */
#ifndef CLOCKBENCH_VM_QEMU_H
#define CLOCKBENCH_VM_QEMU_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "vm/arch.h"

/* --exact: the guest's clock counts instructions, 2^0 ns each, and never
 * skips ahead while idle (what a run records as its environment's icount). */
#define VM_ICOUNT "shift=0,sleep=off"

enum vm_accel {
	VM_ACCEL_AUTO,
	VM_ACCEL_KVM,
	VM_ACCEL_TCG,
};

struct vm_machine {
	enum vm_arch arch;	/* of the kernels booted (vm/arch.h) */
	const char *qemu;	/* "qemu-system-x86_64", found in PATH */
	const char *version;	/* its first line of -version */
	enum vm_accel accel;	/* KVM or TCG: chosen before the boots */
	const char *accel_reason;	/* why that one, in words */
	unsigned cpus;
	unsigned memory_mb;
	double timeout_s;	/* a boot's limit, from start to power-off */
	/*
	 * icount: the guest's clocks advance by the instructions it executes,
	 * one a nanosecond (shift 0), and never by the host's time (sleep
	 * off), so a guest timing is a count of guest instructions (TCG only).
	 */
	bool exact;
};

/*
 * The files of a boot are unnamed (memfd_create): qemu opens them as
 * /dev/fd/N, inherited, so that nothing is left on disk however
 * clockbench ends, SIGKILL included.
 */
struct vm_boot {
	const char *kernel;	/* the image's path, when kernel_fd < 0 */
	int kernel_fd;		/* the image unpacked (vm/vmlinux.h), or -1 */
	const char *append;	/* the kernel command line, whole */
	int initrd;		/* the initramfs */
	int console;		/* ttyS0: the kernel's console */
	int data;		/* ttyS1: the guest's result frame */
	int log;		/* qemu's own stdout and stderr */
};

enum vm_end {
	VM_POWERED_OFF,		/* qemu exited 0: the guest powered off */
	VM_QEMU_FAILED,		/* qemu exited non-zero or by a signal */
	VM_TIMED_OUT,		/* killed at the limit */
	VM_INTERRUPTED,		/* killed because the user stopped us */
	VM_PANICKED,		/* killed: its console says the kernel panicked */
};

struct vm_outcome {
	enum vm_end end;
	int status;		/* waitpid's, for VM_QEMU_FAILED */
	double wall_s;		/* from qemu's start to its end */
};

const char *vm_accel_name(enum vm_accel accel);

/* qemu's "QEMU emulator version 7.2.x ..." into buf ("" if it says none). */
const char *vm_qemu_version(const char *qemu, char *buf, size_t len);

/* The descriptors the boot's files have in qemu. */
enum {
	VM_FD_INITRD = 3,
	VM_FD_CONSOLE,
	VM_FD_DATA,
	VM_FD_KERNEL,
};

/* A new unnamed file (memfd) called name: its descriptor, or -1. */
int vm_file_new(const char *name);
/* The whole of an unnamed file into sb (at most max bytes): 0 or -1. */
int vm_file_read(int fd, size_t max, struct strbuf *sb);

/*
 * The argument vector qemu is started with (NULL-terminated, malloc'd):
 * the boot's files are the child's descriptors VM_FD_INITRD.. (/dev/fd/N).
 */
char **vm_qemu_argv(const struct vm_machine *m, const struct vm_boot *b);
void vm_argv_free(char **argv);

/*
 * Boot once and wait for the end. *stop (a signal handler's flag) ends
 * the wait early. 0 with the outcome; -1 with err when qemu could not be
 * started at all.
 */
int vm_run(const struct vm_machine *m, const struct vm_boot *b,
	   const volatile sig_atomic_t *stop, struct vm_outcome *out,
	   struct strbuf *err);

#endif
