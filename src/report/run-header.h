/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header of bench's table, printed from the run as stored: when it ran
 * and for how long, the environment, the pre-flight system report, the
 * cycle counter, how core cycles were measured, the warm-up, the run's
 * quality and the harness overhead. bench prints it for the run it has
 * just measured and show for a bench run it loads, so that the two print
 * the same lines. Every text of the run is escaped (basic/text.h); a
 * figure an older run did not record prints as "-", a line whose whole
 * source is missing is left out.
 */
#ifndef CLOCKBENCH_RUN_HEADER_H
#define CLOCKBENCH_RUN_HEADER_H

#include <stdio.h>

#include "results/store.h"

/* "# clockbench 0.1.0 bench, 2026-12-02 06:37:17 UTC, 0.1 s" and the rest. */
void run_header_print(FILE *f, const struct stored_run *r);

#endif
