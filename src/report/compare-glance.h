/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A two-group comparison at a glance (timens's table under compare's): a
 * row per cell both sides measured, the two medians, the change, each
 * side's spread, the change found 80 % of the time and the verdict, all
 * compare's own figures, so that this table and compare's never disagree.
 */
#ifndef CLOCKBENCH_COMPARE_GLANCE_H
#define CLOCKBENCH_COMPARE_GLANCE_H

#include <stdio.h>

#include "results/compare.h"

/* The table of cr's base (the host) and its second group (the namespace). */
void compare_print_timens_glance(FILE *f, const struct compare_result *cr);

#endif
