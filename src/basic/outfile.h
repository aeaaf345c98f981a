/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every file clockbench writes at a path it was given (-o, --dump) or
 * beside one (a chart's script and data), written one way:
 *
 *   - a new name or a regular file: written under a temporary name in the
 *     same directory (O_EXCL), flushed with fsync() and renamed over the
 *     path, mode 0666 less the umask; a reader, or a failure half-way,
 *     never meets half a file;
 *   - a character device or a FIFO (/dev/null, a process substitution):
 *     written through, opened without O_CREAT or O_TRUNC, never replaced;
 *   - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or a link to
 *     them): the descriptor itself, whatever the shell opened on it;
 *   - a symbolic link: written through only when it leads to a character
 *     device or a FIFO (/dev/stdout is one); a link to a file, or to
 *     nothing, is refused, since a planted link in a shared directory
 *     would otherwise make root write where the link's owner chose;
 *   - a directory, a block device or a socket: refused;
 *   - a side file (OUTFILE_SIDE): an existing regular file is replaced only
 *     when clockbench wrote it for the same output (its first line is the
 *     new content's first line) or with OUTFILE_FORCE.
 *
 * A short write, a full disk or a failed fsync/close is an error, and then
 * no temporary file is left. While a staging directory or a temporary file
 * exists, SIGTERM, SIGINT and SIGHUP kill the child process group that was
 * registered (gnuplot), remove both, and exit with 128 + the signal's
 * number, as the measuring commands do.
 */
#ifndef CLOCKBENCH_OUTFILE_H
#define CLOCKBENCH_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "basic/strbuf.h"

enum {
	OUTFILE_SIDE = 1 << 0,	/* a side file: never replaced silently */
	OUTFILE_FORCE = 1 << 1,	/* a side file: replace it all the same */
};

/*
 * Whether path may name an output: -1 with "OPTION 'PATH': ..." in err
 * when it holds a control or invisible character (a newline would end a
 * script's comment or a "wrote" line). Callers exit 2.
 */
int outfile_check_name(const char *option, const char *path, struct strbuf *err);

/* Write data to path by the rules above: 0, or -1 with "cannot write PATH: why". */
int outfile_write(const char *path, const char *data, size_t len, struct strbuf *err);
int outfile_write_flags(const char *path, const char *data, size_t len,
			unsigned flags, struct strbuf *err);

/*
 * Whether outfile_write_flags() would write path, without writing: 0, or
 * -1 with err. For a command that writes several files and must refuse
 * before it writes the first.
 */
int outfile_check(const char *path, const char *data, size_t len, unsigned flags,
		  struct strbuf *err);

/* Append the whole of a file to sb: 0, or -1 with errno set. */
int outfile_read(const char *path, struct strbuf *sb);

/*
 * A private directory (0700, mkdtemp() in $TMPDIR or /tmp) for a child to
 * write in, removed with everything in it by outfile_staging_remove() or
 * by an interrupting signal. One at a time. 0, or -1 with err.
 */
int outfile_staging_create(char *dir, size_t len, struct strbuf *err);
void outfile_staging_remove(const char *dir);

/*
 * The child to stop on an interrupting signal (its own process group,
 * killed with SIGKILL and reaped); 0 when there is none any more.
 */
void outfile_staging_child(pid_t pid);

#endif
