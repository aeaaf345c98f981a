/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A boot's files and what they say once qemu has ended: the unnamed files
 * it wrote (the console, the data port, its own log), how the boot ended
 * in words, and what a boot that brought no result leaves a person to
 * read: its console kept in a directory, the kernel's panic, the last
 * lines. Nothing here prints: every line is the guest's or qemu's text,
 * read bounded, returned as data and escaped by whoever shows it
 * (basic/text.h).
 */
#ifndef CLOCKBENCH_VM_BOOT_FILES_H
#define CLOCKBENCH_VM_BOOT_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "vm/qemu.h"

/*
 * The most of a console or a log read back: a console is some hundred
 * KB of kernel messages; a guest that floods it is cut here.
 */
#define BOOT_FILE_READ_MAX (64u << 20)

/*
 * A boot's files (struct vm_boot's): unnamed, so that no end of
 * clockbench leaves them behind. -1 each when not open.
 */
struct boot_files {
	int initrd, console, data, log;
};
#define BOOT_FILES_INIT { -1, -1, -1, -1 }

/* All four made (vm_file_new()): 0, or -1 with none left open. */
int boot_files_open(struct boot_files *f);
void boot_files_close(struct boot_files *f);

/* Where the guest's result arrives: its data port, or its console (vm/arch.h). */
int boot_result_port(const struct vm_machine *m, const struct boot_files *f);

/*
 * Why qemu's end is no power-off of a guest, in words (into why, or a
 * constant), or NULL when it is one. A boot stopped at its limit says
 * whether the guest had reached the command (GUEST_RUNNING on its
 * console): a kernel that hangs in its boot and a command that runs too
 * long want different remedies.
 */
const char *boot_end_reason(const struct vm_outcome *out, int console,
			    struct strbuf *why);

/* The first line of qemu's log that names an error, else its first line. */
void boot_qemu_complaint(int log, char *buf, size_t len);

/*
 * Where boots' consoles are kept: logs (--logs), else (a failed boot's)
 * $XDG_STATE_HOME/clockbench/boots, else ~/.local/state/clockbench/boots;
 * "" when no directory can be named.
 */
void boot_logs_dir(const char *logs, char *dir, size_t len);

/*
 * A copy of the console in the logs' directory (boot_logs_dir()), named
 * NAME-bootBOOT-PID.log; its path in out, "" when not kept. The file is
 * created in that directory only (name holds no '/'), opened relative to
 * the directory, never through a link, never over a file. 0 (also when
 * there is no directory or no console to keep), or -1 with why it could
 * not be kept in err (a warning: the boot itself is unharmed).
 */
int boot_console_keep(int console, const char *logs, const char *name,
		      unsigned boot, char *out, size_t len, struct strbuf *err);

/*
 * The "Kernel panic - not syncing: ..." line of a console, or NULL: the
 * first, the panic's own (the last is "---[ end Kernel panic ... ]---").
 */
const char *boot_console_panic(const char *console);

/*
 * The last n lines of text[0..len), each appended to lines ended by '\n'
 * (a line holds no '\n' and is cut at its first '\r'; a NUL ends the
 * text), the line ends ('\n', '\r') at its very end passed over.
 */
void boot_text_tail(const char *text, size_t len, unsigned n, struct strbuf *lines);

/* What a boot that brought no result leaves to say of itself. */
struct boot_failure {
	char kept[PATH_MAX + 64];	/* where its console is kept, or "" */
	struct strbuf keep_err;		/* why it could not be kept, or "" */
	struct strbuf panic;		/* the kernel's panic line, or "" */
	struct strbuf console_tail;	/* its last lines (boot_text_tail()) */
	struct strbuf log_tail;		/* qemu's log's */
};

/*
 * The failure of boot BOOT of kernel name read from its files: its
 * console kept (boot_console_keep()), the panic on it, console_lines of
 * its tail and log_lines of qemu's log. Release with
 * boot_failure_release().
 */
void boot_failure_read(struct boot_failure *bf, const struct boot_files *f,
		       const char *logs, const char *name, unsigned boot,
		       unsigned console_lines, unsigned log_lines);
void boot_failure_release(struct boot_failure *bf);

#endif
