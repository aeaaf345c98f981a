// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/runs-list.h"

#include <string.h>

#include "basic/json.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"

/* "2026-11-30T13:50:02Z" reads as "2026-11-30 13:50:02". */
static void add_started(struct table *t, const char *started)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%.10s %.8s", started,
		 strlen(started) > 11 ? started + 11 : "");
	table_add_text(t, buf);
}

static bool any_emulated(const struct run_summary *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].emulated)
			return true;
	return false;
}

/*
 * A run whose timings are emulated says so on its row, in capitals, and
 * the note under the table says what that means: the column is there only
 * when such a run is listed.
 */
static void add_timings_note(struct table *t)
{
	table_add_note(t, "EMULATED: timings of a kernel booted by clockbench "
		       "kernels under qemu's TCG; they compare code paths on one "
		       "emulator, not hardware costs");
}

static struct table *runs_table(const struct run_summary *runs, size_t n)
{
	struct table *t = table_new();
	bool emulated = any_emulated(runs, n);

	table_add_column(t, "id", NULL, TABLE_INT, NULL);
	table_add_column(t, "started", "started (UTC)", TABLE_TEXT, NULL);
	table_add_text_columns(t, "command", "label", "host", "kernel",
			       "status", "cells", NULL);
	if (emulated)
		table_add_column(t, "timings", NULL, TABLE_TEXT, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct stored_run *run = &runs[i].run;
		char cells[48];

		table_add_int(t, run->id);
		add_started(t, run->started);
		table_add_text(t, run->command);
		table_add_text(t, *run->label ? run->label : NULL);
		table_add_text(t, run->host);
		table_add_text(t, run->kernel);
		table_add_text(t, run->status);
		snprintf(cells, sizeof(cells), "%zu/%zu", runs[i].cells_ok, runs[i].cells);
		table_add_text(t, cells);
		if (emulated)
			table_add_text(t, runs[i].emulated ? "EMULATED" : "native");
	}
	if (emulated)
		add_timings_note(t);
	return t;
}

int runs_list_print_table(FILE *f, const struct run_summary *runs, size_t n,
			  enum output_format fmt)
{
	struct table *t = runs_table(runs, n);
	int rc = table_print(f, t, fmt);

	table_free(t);
	return rc;
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
		json_object_set_new(o, "emulated", json_boolean(runs[i].emulated));
		json_array_append_new(arr, o);
	}
	json_print(f, arr);
	json_decref(arr);
}
