/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of the commands that measure catalog cells (bench, scale,
 * timens): --api, --clock and --path, comma lists of names checked against
 * the catalog, and --cpu. A bad value is a usage error (exit 2) naming the
 * option and value.
 */
#ifndef CLOCKBENCH_CELL_FILTER_H
#define CLOCKBENCH_CELL_FILTER_H

#include "probe/catalog.h"

/* Each replaces the selection of its dimension with the list in arg. */
void cell_filter_parse_apis(const char *arg, struct catalog_filter *f);
void cell_filter_parse_clocks(const char *arg, struct catalog_filter *f);
void cell_filter_parse_paths(const char *arg, struct catalog_filter *f);

/* --budget: a positive duration in seconds ("0.5", "500ms", "2s"). */
double cell_filter_parse_budget(const char *arg);

/* --cpu: a CPU number within this process's affinity mask. */
int cell_filter_parse_cpu(const char *arg);

/* A filter that selects nothing; callers then set what they want. */
void cell_filter_none(struct catalog_filter *f);

#endif
