/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the virtual machine: the static clockbench is the initramfs's
 * /init. As process 1 it mounts what the commands need, runs the command
 * the host put in GUEST_ARGS (as a child: a crash of process 1 would
 * panic the kernel), exports the runs it stored, sends everything to the
 * host over the second serial port as one frame (vm/frame.h, in the form
 * vm/result.h reads) and powers the machine off. It never returns.
 */
#ifndef CLOCKBENCH_VM_GUEST_H
#define CLOCKBENCH_VM_GUEST_H

#include "basic/util.h"

/* The command line of the boot: its arguments, each ended by a NUL. */
#define GUEST_ARGS "/clockbench/args"
/*
 * What the guest prints on the console once it runs the command: a boot
 * stopped without it never reached clockbench (the kernel hung or died
 * before /init); one stopped with it hung in the command.
 */
#define GUEST_SAYS "clockbench-guest: "
#define GUEST_RUNNING GUEST_SAYS "running: "

_noreturn_ void guest_init(void);

#endif
