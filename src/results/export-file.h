/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading export files ({"clockbench_export": 1, "runs": [...]}) run by
 * run, in bounded memory: a small scanner walks the envelope and each run
 * object, and hands jansson one member or one cell at a time. What is held
 * at once is the run being read (its samples as doubles) plus one cell's
 * JSON; a cell or member larger than clockbench writes is refused before it
 * is parsed, so a hostile file cannot make the parser allocate gigabytes.
 *
 *	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
 *	f = export_file_open("runs.json", &err);
 *	while ((rc = export_file_next(f, &run, &err)) == 1)
 *		... stored_run_free(&run);
 *	rc < 0: err.buf names the place, rc == 0: the whole file was valid
 *
 * Members may come in any order (jq -S sorts them); a file is valid only
 * once export_file_next() has returned 0, so a caller that must not store
 * half a file reads it through once, rewinds, and reads it again.
 */
#ifndef CLOCKBENCH_EXPORT_FILE_H
#define CLOCKBENCH_EXPORT_FILE_H

#include <stddef.h>

#include "results/store.h"

struct export_file;

/*
 * Open name; "-" is standard input, copied to an unnamed temporary file
 * (in $TMPDIR) unless it is a regular file, so that it can be read twice.
 * NULL with the reason in err.
 */
struct export_file *export_file_open(const char *name, struct strbuf *err);

/*
 * The same from an open file, read from its offset now (where the text
 * starts: rewinding comes back there); fd stays open.
 */
struct export_file *export_file_open_fd(int fd, const char *name,
					struct strbuf *err);

/*
 * The next run: 1 with run filled (free it with stored_run_free()), 0 at
 * the end of a valid file, -1 with err naming the place:
 * "FILE:LINE:COLUMN: not valid JSON: ..." or "FILE: runs[2].cells[0].name:
 * ...". After -1 the file gives only -1.
 */
int export_file_next(struct export_file *f, struct stored_run *run,
		     struct strbuf *err);

/* Back to the start. 0 or -1. */
int export_file_rewind(struct export_file *f, struct strbuf *err);

/* Runs read since the start (or the last rewind). */
size_t export_file_runs(const struct export_file *f);

void export_file_close(struct export_file *f);

#endif
