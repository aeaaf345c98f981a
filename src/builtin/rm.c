// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench rm RUN...: remove runs from the results database. Every RUN
 * is resolved first, so a typo removes nothing.
 */
#include <limits.h>
#include <string.h>

#include "basic/error.h"
#include "basic/options.h"
#include "builtin/builtin.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

static const struct command_usage rm_usage = {
	.name = "rm",
	.synopsis = "[<options>] <run>...",
	.description =
	"Remove runs, with their samples, from the results database.\n"
	"A run is an id (12), a label (every run with it) or a uuid.\n"
	"Nothing is removed unless every run given exists.",
	.footer =
	"Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	"2 on a usage error.",
	.no_args = NO_RUN_GIVEN,
};

/* "run 12 (bench, label before, 2026-11-30T13:50:02Z)" */
static int describe(struct store *st, int64_t id, char *buf, size_t len)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;

	switch (store_load_run_header(st, id, &r, &err)) {
	case 0:
		break;
	case STORE_DAMAGED:
		/* A run that cannot be read, or fails import's checks: removable. */
		warn_msg("%s", err.buf);
		snprintf(buf, len, "run %lld (damaged)", (long long)id);
		return 0;
	default:
		error_msg("%s", err.buf);
		return -1;
	}
	snprintf(buf, len, "run %lld (%s%s%s, %s)", (long long)id, r.command,
		 *r.label ? ", label " : "", r.label, r.started);
	stored_run_free(&r);
	return 0;
}

static int remove_runs(struct store *st, const int64_t *ids, size_t n,
		       bool dry_run)
{
	char what[256];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (describe(st, ids[i], what, sizeof(what)))
			return 1;
		if (dry_run) {
			printf("would remove %s\n", what);
			continue;
		}
		switch (store_delete_run(st, ids[i], &err)) {
		case 0:
			printf("removed %s\n", what);
			break;
		case 1:	/* removed meanwhile by someone else: the wish holds */
			printf("%s was already removed\n", what);
			break;
		default:
			error_msg("%s", err.buf);
			return 1;
		}
	}
	return 0;
}

int cmd_rm(int argc, char **argv)
{
	struct store_options store = { 0 };
	bool dry_run = false;
	struct store *st;
	int64_t *ids;
	size_t n;
	int rc = 1, nspecs;
	struct option_def options[] = {
		OPT_BOOL('n', "dry-run", &dry_run,
			 "print what would be removed, remove nothing"),
		STORE_DB_OPTION(&store),
		OPT_END(),
	};

	nspecs = parse_options(argc, argv, &rm_usage, options, OPTIONS_NEED_ARGS);
	if (nspecs < 0)
		return parse_options_status(nspecs);
	st = record_open(&store, dry_run ? STORE_READ : STORE_UPDATE, NULL, 0);
	if (!st)
		return 1;
	if (record_resolve_specs(st, argv, (size_t)nspecs, &ids, &n) == 0) {
		rc = remove_runs(st, ids, n, dry_run);
		free(ids);
	}
	store_close(st);
	return rc;
}
