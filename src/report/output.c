// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/output.h"
#include "report/run-json.h"
#include "report/run-csv.h"
#include "report/run-header.h"
#include "report/run-table.h"
#include "report/run-tap.h"

#include <errno.h>
#include <string.h>

#include "basic/error.h"
#include "basic/json.h"
#include "basic/util.h"

const char *const output_format_names[] = { "table", "json", "csv", "tap", NULL };

/* The errnos a failed write leaves: any other is no account of stdout's. */
static bool write_errno(int e)
{
	return e == ENOSPC || e == EIO || e == EDQUOT || e == EFBIG || e == EPIPE;
}

int output_flush_stdout(void)
{
	int earlier = write_errno(errno) ? errno : 0, why = 0;
	bool failed;

	errno = 0;
	if (fflush(stdout) != 0)
		why = errno;
	/*
	 * stdio drops a buffer whose write failed and keeps only the flag:
	 * the reason is then the errno that failed write left, if nothing has
	 * changed it since (a write's errno, never a stale ENOENT or EBADF).
	 */
	failed = why || ferror(stdout);
	if (!why && failed)
		why = earlier;
	if (!failed)
		return 0;
	if (why)
		error_msg("write error on standard output: %s", strerror(why));
	else
		error_msg("write error on standard output (an earlier write failed)");
	clearerr(stdout);
	return -1;
}

const struct stored_cell *stored_run_cell(const struct stored_run *r,
					  const char *name)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (streq(r->cells[i].name, name))
			return &r->cells[i];
	return NULL;
}

int output_bench(FILE *f, enum output_format fmt, const struct stored_run *stored,
		 bool with_samples)
{
	json_t *j;

	switch (fmt) {
	case FORMAT_TABLE:
		run_header_print(f, stored);
		run_table_print(f, stored, NULL);
		break;
	case FORMAT_CSV:
		run_csv_print(f, stored);
		break;
	case FORMAT_TAP:
		run_tap_print(f, stored);
		break;
	case FORMAT_JSON:
		/*
		 * The run as show and export give it: one schema for a run, and
		 * every figure to the last bit (jansson's shortest exact form),
		 * so that an import of this file is the run itself.
		 */
		j = runs_json_new();
		runs_json_add(j, stored, with_samples);
		json_print(f, j);
		json_decref(j);
		break;
	default:
		fatal("a run is not printed as %s", format_vocabulary[fmt]);
	}
	/* Flushed and checked by the caller (main, measure_run()). */
	return ferror(f) ? -1 : 0;
}
