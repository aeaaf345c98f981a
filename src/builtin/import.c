// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench import FILE...: merge runs exported on other machines. Every
 * file is read and checked whole before the first run is stored; a run
 * whose uuid is already stored is skipped, so importing twice changes
 * nothing.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "basic/options.h"
#include "builtin/builtin.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

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
};

struct import_file {
	const char *name;
	struct stored_run *runs;
	size_t nruns;
};

static json_t *load_json(const char *name)
{
	json_error_t jerr;
	json_t *j;
	FILE *f;

	f = streq(name, "-") ? stdin : fopen(name, "re");
	if (!f) {
		error_msg("cannot read %s: %m", name);
		return NULL;
	}
	j = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	if (f != stdin)
		fclose(f);
	if (!j)
		error_msg("%s:%d:%d: not valid JSON: %s", name, jerr.line,
			  jerr.column, jerr.text);
	return j;
}

/* The envelope: {"clockbench_export": 1, "runs": [...]}. */
static const json_t *export_runs(const char *name, const json_t *j)
{
	const json_t *version, *runs;

	if (!json_is_object(j)) {
		error_msg("%s: not a clockbench export: expected a JSON object", name);
		return NULL;
	}
	version = json_object_get(j, "clockbench_export");
	if (!version) {
		error_msg("%s: clockbench_export: missing (not a file written by "
			  "'clockbench export')", name);
		return NULL;
	}
	if (!json_is_integer(version) || json_integer_value(version) < 1) {
		error_msg("%s: clockbench_export: expected a format version such as 1",
			  name);
		return NULL;
	}
	if (json_integer_value(version) > STORE_EXPORT_VERSION) {
		error_msg("%s: clockbench_export: format %" JSON_INTEGER_FORMAT
			  " is newer than this clockbench reads (%d)", name,
			  json_integer_value(version), STORE_EXPORT_VERSION);
		return NULL;
	}
	runs = json_object_get(j, "runs");
	if (!runs || !json_is_array(runs)) {
		error_msg("%s: runs: %s", name, runs ? "expected an array" : "missing");
		return NULL;
	}
	return runs;
}

static int read_file(struct import_file *f)
{
	char err[512];
	const json_t *runs, *r;
	json_t *j = load_json(f->name);
	size_t i;
	int rc = -1;

	if (!j)
		return -1;
	runs = export_runs(f->name, j);
	if (!runs)
		goto out;
	f->runs = xcalloc(json_array_size(runs), sizeof(*f->runs));
	json_array_foreach(runs, i, r) {
		if (!json_is_object(r)) {
			error_msg("%s: runs[%zu]: expected a run object", f->name, i);
			goto out;
		}
		if (stored_run_from_json(r, &f->runs[i], err, sizeof(err))) {
			error_msg("%s: runs[%zu].%s", f->name, i, err);
			goto out;
		}
		f->nruns = i + 1;
	}
	rc = 0;
out:
	json_decref(j);
	return rc;
}

static int import_runs(struct store *st, struct import_file *f)
{
	char err[PATH_MAX + 256];

	if (!f->nruns)
		fprintf(stderr, "%s holds no runs\n", f->name);
	for (size_t i = 0; i < f->nruns; i++) {
		struct stored_run *r = &f->runs[i];

		switch (store_import_run(st, r, err, sizeof(err))) {
		case 0:
			fprintf(stderr, "imported run %s from %s as run %lld\n", r->uuid,
				f->name, (long long)r->id);
			break;
		case 1:
			fprintf(stderr, "run %s from %s is already stored as run %lld: "
				"nothing to do\n", r->uuid, f->name, (long long)r->id);
			break;
		default:
			error_msg("%s", err);
			return -1;
		}
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct store_options o = { 0 };
	struct import_file *files;
	struct store *st = NULL;
	size_t nfiles;
	int rc = 1, n;
	struct option_def options[] = {
		STORE_DB_OPTION(&o),
		OPT_END(),
	};

	n = parse_options(argc, argv, &import_usage, options, 0);
	if (n < 0)
		return parse_options_status(n);
	if (n == 0)
		return usage_fail("no file given");
	nfiles = (size_t)n;
	files = xcalloc(nfiles, sizeof(*files));
	for (size_t i = 0; i < nfiles; i++) {
		files[i].name = argv[i];
		if (read_file(&files[i]))
			goto out;
	}
	st = record_open(&o, STORE_WRITE, NULL, 0);
	if (!st)
		goto out;
	rc = 0;
	for (size_t i = 0; i < nfiles && !rc; i++)
		rc = import_runs(st, &files[i]) ? 1 : 0;
out:
	for (size_t i = 0; i < nfiles; i++) {
		for (size_t k = 0; k < files[i].nruns; k++)
			stored_run_free(&files[i].runs[k]);
		free(files[i].runs);
	}
	free(files);
	store_close(st);
	return rc;
}
