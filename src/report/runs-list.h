/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The list of stored runs (clockbench runs): a table of id, start time
 * (UTC), command, label, host, kernel, status and measured/total cells
 * (basic/table.h: as a table, CSV or Markdown); or the export object of
 * each run without its environment, config, quality and cells, as JSON.
 */
#ifndef CLOCKBENCH_RUNS_LIST_H
#define CLOCKBENCH_RUNS_LIST_H

#include <stdio.h>

#include "basic/options.h"
#include "results/store.h"

/* The table in fmt (table, csv, markdown): 0, or -1 when f has failed. */
int runs_list_print_table(FILE *f, const struct run_summary *runs, size_t n,
			  enum output_format fmt);
void runs_list_print_json(FILE *f, const struct run_summary *runs, size_t n);

#endif
