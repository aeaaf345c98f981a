/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A hotplug run's transitions, printed from the run as stored: for taking
 * the CPU offline and bringing it online, the wall, user and system times
 * of a transition in ms (n, min, median with its 95 % CI, mean, robust CV,
 * max, outliers). What hotplug prints under its header, and show for a
 * hotplug run.
 */
#ifndef CLOCKBENCH_HOTPLUG_TABLE_H
#define CLOCKBENCH_HOTPLUG_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/store.h"

/* Whether r is a hotplug run with its offline and online cells. */
bool hotplug_table_applies(const struct stored_run *r);

/* The heading and three rows per direction. */
void hotplug_table_print(FILE *f, const struct stored_run *r);

#endif
