// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/runs-list.h"

#include <string.h>

#include "basic/json.h"
#include "basic/text.h"
#include "basic/util.h"

enum { COL_ID, COL_STARTED, COL_COMMAND, COL_LABEL, COL_HOST, COL_KERNEL,
       COL_STATUS, COL_CELLS, NCOLS };

static const char *const col_names[NCOLS] = {
	"id", "started (UTC)", "command", "label", "host", "kernel", "status",
	"cells",
};

struct row {
	char id[24];
	char started[24];
	char cells[48];
	const struct stored_run *run;
};

static void make_row(struct row *r, const struct run_summary *s)
{
	const struct stored_run *run = &s->run;

	snprintf(r->id, sizeof(r->id), "%lld", (long long)run->id);
	/* "2026-11-30T13:50:02Z" reads as "2026-11-30 13:50:02". */
	snprintf(r->started, sizeof(r->started), "%.10s %.8s", run->started,
		 strlen(run->started) > 11 ? run->started + 11 : "");
	snprintf(r->cells, sizeof(r->cells), "%zu/%zu", s->cells_ok, s->cells);
	r->run = run;
}

static const char *row_field(const struct row *r, int col)
{
	const char *label = r->run->label;

	switch (col) {
	case COL_ID: return r->id;
	case COL_STARTED: return r->started;
	case COL_COMMAND: return r->run->command;
	case COL_LABEL: return *label ? label : "-";
	case COL_HOST: return r->run->host;
	case COL_KERNEL: return r->run->kernel;
	case COL_STATUS: return r->run->status;
	case COL_CELLS: return r->cells;
	}
	return "";
}

/*
 * Numbers right-aligned, text left-aligned; no trailing blanks. Every
 * field escaped and capped (basic/text.h): a stored host name of 100 MB
 * is one cut cell, not 100 MB of padding on every row.
 */
static void print_field(FILE *f, int col, size_t width, const char *v)
{
	if (col == COL_ID) {
		text_put_cell(f, v, TEXT_CELL_MAX, width, TEXT_RIGHT);
		return;
	}
	fputs("  ", f);
	if (col == NCOLS - 1) {
		text_put(f, v, TEXT_CELL_MAX);
		fputc('\n', f);
	} else {
		text_put_cell(f, v, TEXT_CELL_MAX, width, TEXT_LEFT);
	}
}

void runs_list_print_table(FILE *f, const struct run_summary *runs, size_t n)
{
	struct row *rows = xcalloc(n, sizeof(*rows));
	size_t width[NCOLS];

	for (int c = 0; c < NCOLS; c++)
		width[c] = text_width(col_names[c], TEXT_CELL_MAX);
	for (size_t i = 0; i < n; i++) {
		make_row(&rows[i], &runs[i]);
		for (int c = 0; c < NCOLS; c++) {
			size_t w = text_width(row_field(&rows[i], c), TEXT_CELL_MAX);

			if (w > width[c])
				width[c] = w;
		}
	}
	for (int c = 0; c < NCOLS; c++)
		print_field(f, c, width[c], col_names[c]);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < NCOLS; c++)
			print_field(f, c, width[c], row_field(&rows[i], c));
	free(rows);
}

/*
 * The export object of each run without its environment, config, quality
 * and cells: what runs(1) lists, whatever the number of runs.
 */
void runs_list_print_json(FILE *f, const struct run_summary *runs, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = stored_run_to_json(&runs[i].run);

		json_object_del(o, "environment");
		json_object_del(o, "config");
		json_object_del(o, "quality");
		json_object_del(o, "cells");
		json_object_set_new(o, "cells_total", json_integer((json_int_t)runs[i].cells));
		json_object_set_new(o, "cells_ok", json_integer((json_int_t)runs[i].cells_ok));
		json_array_append_new(arr, o);
	}
	json_print(f, arr);
	json_decref(arr);
}
