/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli/: what the commands share on top of the library: option groups that
 * several commands take, and the runner of the measuring commands (its
 * layer: src/meson.build).
 *
 * The cell options of the commands that measure catalog cells (bench,
 * scale, timens, doctor): --api, --clock and --path, comma lists of names
 * checked against the catalog, and --cpu. A bad value is a usage error
 * naming the option and the value.
 */
#ifndef CLOCKBENCH_CELL_FILTER_H
#define CLOCKBENCH_CELL_FILTER_H

#include "basic/options.h"
#include "probe/catalog.h"

/*
 * --api, --clock or --path (the option's long name): replaces the
 * selection of that dimension (value: a catalog_filter).
 */
option_callback cell_filter_option;
/* --cpu: a CPU within this process's affinity mask (value: an int). */
option_callback cell_filter_option_cpu;

#define CELL_FILTER_OPTIONS(f, api_help, clock_help, path_help) \
	OPT_CALLBACK(0, "api", "LIST", (f), cell_filter_option, api_help), \
	OPT_CALLBACK(0, "clock", "LIST", (f), cell_filter_option, clock_help), \
	OPT_CALLBACK(0, "path", "LIST", (f), cell_filter_option, path_help)

#define CPU_OPTION(cpu, help) \
	OPT_CALLBACK(0, "cpu", "N", (cpu), cell_filter_option_cpu, help)

/* A filter that selects nothing; callers then set what they want. */
void cell_filter_none(struct catalog_filter *f);

#endif
