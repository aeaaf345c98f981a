/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The spool: where a run goes when its store cannot take it (locked for
 * longer than the busy timeout, a full disk, a store gone bad during the
 * measurement), so that a measurement is never lost.
 *
 * A spooled run is an export file of one run, UUID.json, in the first of
 * these that can hold it:
 *
 *	STORE-spool/                 beside the store (results.db-spool/)
 *	$XDG_STATE_HOME/clockbench/spool/KEY/   KEY: a hash of the store's
 *	                             absolute path (~/.local/state by default)
 *
 * It is written to UUID.json.tmp (locked while written) and renamed, so a
 * spool file is always whole. `clockbench import FILE` imports it; every
 * command that saves to the store imports what is spooled for it first.
 */
#ifndef CLOCKBENCH_SPOOL_H
#define CLOCKBENCH_SPOOL_H

#include <stddef.h>

#include "results/store.h"

/*
 * Write run (its uuid filled) to the spool of the store at db. 0 with the
 * file's path in file; -1 with err saying why for each place tried.
 */
int spool_write(const char *db, const struct stored_run *run, char *file,
		size_t len, struct strbuf *err);

/*
 * Import into st every run spooled for the store at db, saying so on
 * stderr ("imported run U spooled in FILE as run N"); each file imported
 * (or already stored) is removed. A spool directory is used only when it
 * is this user's alone (mode 0700, not a symlink); an entry that is not a
 * regular file of this user's, or holds a run import refuses, is moved to
 * rejected/ in it, with a warning, and never imported. Returns the number of runs imported, or -1 when the store
 * failed (printed: the rest stays spooled).
 */
int spool_import(struct store *st, const char *db);

/* The spool directories of db (either may not exist yet). */
void spool_dirs(const char *db, char *beside, size_t blen, char *state,
		size_t slen);

#endif
