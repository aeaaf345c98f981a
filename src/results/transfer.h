/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Copying runs between stores: clockbench push (a host's file to the
 * fleet's server) and pull (the other way, to compare offline). Each run
 * is one transaction of the destination, so a connection lost in the
 * middle leaves the runs before it copied, that run not at all, and the
 * source untouched; a run whose uuid the destination has is skipped, so
 * copying again is harmless and copies only what is missing.
 */
#ifndef CLOCKBENCH_TRANSFER_H
#define CLOCKBENCH_TRANSFER_H

#include <stddef.h>
#include <stdint.h>

#include "results/store.h"

struct transfer_counts {
	size_t copied;		/* new in the destination */
	size_t present;		/* there already: skipped */
	size_t refused;		/* failed import's checks: left behind, named */
};

/*
 * Copy runs ids of from into to, saying "VERB run N (UUID) as run M" on
 * stdout for each copied; a run that fails stored_run_check() is left
 * behind with an error on stderr, and counted. 0, or -1 with the reason in err (what was
 * copied before stays copied; counts say how much).
 */
int transfer_runs(struct store *from, struct store *to, const int64_t *ids,
		  size_t n, const char *verb, struct transfer_counts *counts,
		  struct strbuf *err);

#endif
