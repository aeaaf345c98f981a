/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timens's JSON document: per cell the host's and the namespace's figures
 * with compare's change and verdict, the offsets, the saved runs' ids,
 * labels and quality, and the environment. The interleaving engine's
 * figures reach it as this plain struct: report/ does not include
 * scenario/.
 */
#ifndef CLOCKBENCH_TIMENS_JSON_H
#define CLOCKBENCH_TIMENS_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "probe/catalog.h"
#include "probe/env.h"
#include "probe/timens.h"
#include "probe/timing.h"
#include "results/compare.h"
#include "results/store.h"

/* The sides, in the order of the runs: the host's first. */
enum timens_report_side { TR_HOST, TR_TIMENS, TR_SIDES };

struct timens_report {
	const struct cell *cells;
	size_t ncells;
	struct {
		const struct cell_result *res;	/* one per cell */
		double boundary_ns;		/* the side's clock-read overhead */
	} side[TR_SIDES];
	const struct timens_offsets *off;
	unsigned done;				/* repetitions per side */
	int cpu;
};

/*
 * The document, from cr (the comparison of runs, the sides' saved runs)
 * and b: what json_print returns.
 */
int timens_json_print(FILE *f, const struct timens_report *b,
		      const struct compare_result *cr, const struct stored_run *runs,
		      const struct env_info *env);

#endif
