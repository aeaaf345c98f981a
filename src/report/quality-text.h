/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A measured run's quality in a header: "# warm-up: ..." when it warmed
 * up, then "# quality: ..." (results/quality.h words them), each after the
 * side's name when a command measures several (timens's host and
 * namespace, ab's arms); and what disturbed the runs of a command that
 * times whole runs.
 */
#ifndef CLOCKBENCH_QUALITY_TEXT_H
#define CLOCKBENCH_QUALITY_TEXT_H

#include <stdio.h>

#include "results/quality.h"

/* name: the side's, or NULL; steady_tol: the warm-up's tolerance. */
void quality_text_print(FILE *f, const char *name, const struct run_quality *q,
			double steady_tol);

/*
 * "# disturbance, median UNIT: N involuntary switches, ..., N ms stolen":
 * the medians over a command's runs (exec) or repetitions (scale), each
 * left out when NAN (the steal said unknown); the caller goes on with how
 * many were disturbed far beyond the others.
 */
void quality_text_disturbance(FILE *f, const char *unit, double involuntary,
			      double wait_ms, double runnable, double steal_ms);

#endif
