/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files that appear whole or not at all: written under a temporary name
 * in the same directory, then renamed over the path, so that a reader,
 * or a failure half-way, never meets half a file.
 */
#ifndef CLOCKBENCH_OUTFILE_H
#define CLOCKBENCH_OUTFILE_H

#include <stddef.h>

#include "basic/strbuf.h"

/* Write data to path whole: 0, or -1 with "cannot write PATH: why" in err. */
int outfile_write(const char *path, const char *data, size_t len, struct strbuf *err);

/* Append the whole of a file to sb: 0, or -1 with errno set. */
int outfile_read(const char *path, struct strbuf *sb);

#endif
