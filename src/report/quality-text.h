/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A measured run's quality in a header: "# warm-up: ..." when it warmed
 * up, then "# quality: ..." (results/quality.h words them), each after the
 * side's name when a command measures several (timens's host and
 * namespace, ab's arms).
 */
#ifndef CLOCKBENCH_QUALITY_TEXT_H
#define CLOCKBENCH_QUALITY_TEXT_H

#include <stdio.h>

#include "results/quality.h"

/* name: the side's, or NULL; steady_tol: the warm-up's tolerance. */
void quality_text_print(FILE *f, const char *name, const struct run_quality *q,
			double steady_tol);

#endif
