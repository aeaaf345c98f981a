// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: import (results/export-file.c, the streamed reader, and
 * stored_run_from_json, the whole-object one) on any bytes, as `clockbench
 * import` reads a file; every run it accepts is written back as JSON and
 * escaped for printing, as show and export would. Seed:
 * tests/data/export-small.json (scripts/fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "results/export-file.h"
#include "results/run-text.h"
#include "results/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What show and export do with an accepted run. */
static void use_run(struct stored_run *run)
{
	json_t *j = stored_run_to_json(run);

	json_decref(j);
	stored_run_escape_text(run, TEXT_LINE_MAX);
	stored_run_free(run);
}

static void read_streamed(const char *path)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct export_file *f = export_file_open(path, &err);
	struct stored_run run;

	if (!f)
		return;
	while (export_file_next(f, &run, &err) == 1)
		use_run(&run);
	export_file_close(f);
}

static void read_whole(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	json_t *runs = json_object_get(j, "runs"), *r;
	struct stored_run run;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t i;

	json_array_foreach(runs, i, r)
		if (stored_run_from_json(r, &run, &err) == 0)
			use_run(&run);
	json_decref(j);
}

static char path[64];

static void remove_input(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!*path) {
		snprintf(path, sizeof(path), "/tmp/clockbench-fuzz-import-%d.json",
			 (int)getpid());
		atexit(remove_input);
	}
	f = fopen(path, "we");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	read_streamed(path);
	read_whole(data, size);
	return 0;
}
