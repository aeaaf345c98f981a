// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench import FILE...: merge runs exported on other machines. Every
 * file is read and checked whole before the first run is stored; a run
 * whose uuid is already stored is skipped, so importing twice changes
 * nothing. Files are streamed (results/export-file.h), run by run.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "basic/error.h"
#include "basic/options.h"
#include "builtin/builtin.h"
#include "results/export-file.h"
#include "results/record.h"
#include "results/spool.h"
#include "results/store.h"
#include "basic/util.h"
#include "basic/text.h"

static const struct command_usage import_usage = {
	.name = "import",
	.synopsis = "[<options>] <file>...",
	.description =
	"Add the runs of files written by 'clockbench export' (- reads standard\n"
	"input) to the results database. Every file is checked whole first:\n"
	"an error names the file and the bad field, and nothing is imported.\n"
	"A run already stored (same uuid) is skipped. Runs get new ids here;\n"
	"their uuids stay.",
	.footer =
	"Exit status: 0 on success (also when every run was already stored),\n"
	"1 on an error, 2 on a usage error.",
	.no_args = "no file given",
};

/*
 * Every run of every file is read and checked before the first is stored:
 * a bad file imports nothing. A run at a time is held, not the file, so
 * the files are read twice (standard input from a private copy).
 */
static int check_file(struct export_file *f, const char *name)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run run;
	int rc;

	while ((rc = export_file_next(f, &run, &err)) == 1)
		stored_run_free(&run);
	if (rc < 0)
		error_msg("%s", err.buf);
	else if (export_file_runs(f) == 0)
		text_line(stderr, "%s holds no runs", name);
	return rc;
}

static int import_runs(struct store *st, struct export_file *f, const char *name)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;
	int rc;

	if (export_file_rewind(f, &err)) {
		error_msg("%s", err.buf);
		return -1;
	}
	while ((rc = export_file_next(f, &r, &err)) == 1) {
		switch (store_import_run(st, &r, &err)) {
		case 0:
			text_line(stderr, "imported run %s from %s as run %lld", r.uuid,
				name, (long long)r.id);
			break;
		case 1:
			text_line(stderr, "run %s from %s is already stored as run %lld: "
				"nothing to do", r.uuid, name, (long long)r.id);
			break;
		default:
			rc = -1;
			break;
		}
		stored_run_free(&r);
		if (rc < 0)
			break;
	}
	if (rc < 0)
		error_msg("%s", err.buf);
	return rc;
}

static int open_files(char **names, size_t n, struct export_file **files)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		files[i] = export_file_open(names[i], &err);
		if (!files[i]) {
			error_msg("%s", err.buf);
			return -1;
		}
		if (check_file(files[i], names[i]))
			return -1;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	char path[PATH_MAX];
	struct store_options o = { 0 };
	struct export_file **files;
	struct store *st = NULL;
	size_t nfiles;
	int rc = 1, n;
	struct option_def options[] = {
		STORE_DB_OPTION(&o),
		OPT_END(),
	};

	n = parse_options(argc, argv, &import_usage, options, OPTIONS_NEED_ARGS);
	if (n < 0)
		return parse_options_status(n);
	nfiles = (size_t)n;
	files = xcalloc(nfiles, sizeof(*files));
	if (open_files(argv, nfiles, files))
		goto out;
	st = record_open(&o, STORE_WRITE, path, sizeof(path));
	if (!st)
		goto out;
	rc = 0;
	for (size_t i = 0; i < nfiles && !rc; i++)
		rc = import_runs(st, files[i], argv[i]) ? 1 : 0;
	/* A saving command: runs spooled for this store come in too. */
	if (!rc && spool_import(st, path) < 0)
		rc = 1;
out:
	for (size_t i = 0; i < nfiles; i++)
		export_file_close(files[i]);
	free(files);
	store_close(st);
	return rc;
}
