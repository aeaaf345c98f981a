/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time namespaces: run code in a new time namespace whose MONOTONIC and
 * BOOTTIME clocks are offset from the host's, while the caller stays where
 * it is.
 *
 * unshare(CLONE_NEWTIME) moves only the children of the calling process,
 * and the offsets must be written to /proc/self/timens_offsets before any
 * task enters. So a helper process is forked: it unshares, writes the
 * offsets, then forks (or vforks and execs) the child that lives in the
 * namespace, waits for it and exits with its status. The caller's own
 * clocks never change, which lets it compare its readings with the child's.
 */
#ifndef CLOCKBENCH_TIMENS_H
#define CLOCKBENCH_TIMENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "basic/strbuf.h"

#define NSEC_PER_SEC_I64 1000000000LL

/* Offsets of a time namespace from the host's (root namespace's) clocks. */
struct timens_offsets {
	int64_t monotonic_ns;	/* MONOTONIC, MONOTONIC_COARSE, MONOTONIC_RAW */
	int64_t boottime_ns;	/* BOOTTIME, BOOTTIME_ALARM */
};

/* Exit status of a helper whose own clocks moved into the new namespace. */
#define TIMENS_EXIT_HELPER_MOVED 120
/* Exit status of a child whose execve() failed. */
#define TIMENS_EXIT_EXEC_FAILED 121

/*
 * Whether this process can create a time namespace: the kernel has them
 * (/proc/self/ns/time) and a probe child may unshare(CLONE_NEWTIME). When
 * not, a one-line reason ("needs CAP_SYS_ADMIN: unshare(CLONE_NEWTIME)
 * failed with EPERM") is written to why.
 */
bool timens_supported(struct strbuf *why);

/*
 * The offsets of the namespace this process lives in, from
 * /proc/self/timens_offsets (all zero in the root namespace).
 * Returns 0, or -1 with the reason in err.
 */
int timens_self_offsets(struct timens_offsets *off, struct strbuf *err);

/*
 * The text for /proc/PID/timens_offsets ("monotonic 864000 0\n...") and
 * its parser. The kernel takes whole seconds and non-negative
 * nanoseconds, so negative offsets are written as -S and N with N in
 * [0, 1e9). Return 0, or -1 when the text or buffer is not valid.
 */
int timens_format_offsets(const struct timens_offsets *off, char *buf, size_t len);
int timens_parse_offsets(const char *text, struct timens_offsets *off);

/* {"monotonic_s": S, "boottime_s": S}: in a run's config and timens's JSON. */
json_t *timens_offsets_to_json(const struct timens_offsets *off);

/*
 * Fork a helper that creates the namespace and forks a child into it; the
 * child runs fn(arg) and exits with its return value. The helper closes
 * every file descriptor above 2 it inherited (so pipes shared with the
 * child see EOF when the child dies) and exits with the child's status.
 * Returns 0 with the helper's pid, or -1 with errno set and a reason in err
 * (errno EPERM: no privilege).
 */
int timens_spawn(const struct timens_offsets *off, int (*fn)(void *), void *arg,
		 pid_t *pid, struct strbuf *err);

/*
 * Like timens_spawn(), but the helper vfork()s and the child execs argv[0]
 * with argv and the current environment: the child enters the namespace
 * at execve(), as the kernel's timens/vfork_exec test exercises. The
 * helper checks that its own MONOTONIC clock did not move (it stays in the
 * old namespace) and exits TIMENS_EXIT_HELPER_MOVED when it did.
 */
int timens_spawn_exec(const struct timens_offsets *off, char *const argv[],
		      pid_t *pid, struct strbuf *err);

/*
 * Wait for a helper: returns the child's exit status (0..255) or 128 plus
 * the signal that killed it, or -1 with a reason in err.
 */
int timens_wait(pid_t pid, struct strbuf *err);

/* timens_spawn() then timens_wait(). */
int timens_run_in_new(const struct timens_offsets *off, int (*fn)(void *),
		      void *arg, struct strbuf *err);

#endif
