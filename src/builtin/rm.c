// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench rm RUN...: remove runs from the results database. Every RUN
 * is resolved first, so a typo removes nothing.
 */
#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "builtin/builtin.h"
#include "results/record.h"
#include "results/store.h"
#include "basic/util.h"

void usage_rm(FILE *f)
{
	fputs("usage: clockbench rm [<options>] <run>...\n"
	      "\n"
	      "Remove runs, with their samples, from the results database.\n"
	      "A run is an id (12), a label (every run with it) or a uuid.\n"
	      "Nothing is removed unless every run given exists.\n"
	      "\n"
	      "  -n, --dry-run     print what would be removed, remove nothing\n"
	      RECORD_DB_USAGE
	      "  -h, --help        this text\n"
	      "\n"
	      "Exit status: 0 on success, 1 on an error (such as an unknown run),\n"
	      "2 on a usage error.\n", f);
}

struct rm_options {
	struct store_options store;
	bool dry_run;
	char **specs;
	size_t nspecs;
};

static void parse_rm_options(int argc, char **argv, struct rm_options *o)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "db", required_argument, NULL, OPT_STORE_DB },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, ":nh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o->dry_run = true;
			break;
		case 'h':
			usage_rm(stdout);
			exit(0);
		default:
			if (store_parse_option(opt, optarg, &o->store))
				break;
			usage_bad_option(opt, argv);
		}
	}
	if (optind >= argc)
		usage_error("no run given (an id, a label or a uuid)");
	o->specs = argv + optind;
	o->nspecs = (size_t)(argc - optind);
}

/* "run 12 (bench, label before, 2026-11-30T13:50:02Z)" */
static int describe(struct store *st, int64_t id, char *buf, size_t len)
{
	char err[PATH_MAX + 256];
	struct stored_run r;

	if (store_load_run_header(st, id, &r, err, sizeof(err))) {
		error_msg("%s", err);
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
	char err[PATH_MAX + 256], what[256];

	for (size_t i = 0; i < n; i++) {
		if (describe(st, ids[i], what, sizeof(what)))
			return 1;
		if (dry_run) {
			printf("would remove %s\n", what);
			continue;
		}
		switch (store_delete_run(st, ids[i], err, sizeof(err))) {
		case 0:
			printf("removed %s\n", what);
			break;
		case 1:	/* removed meanwhile by someone else: the wish holds */
			printf("%s was already removed\n", what);
			break;
		default:
			error_msg("%s", err);
			return 1;
		}
	}
	return 0;
}

int cmd_rm(int argc, char **argv)
{
	struct rm_options o;
	struct store *st;
	int64_t *ids;
	size_t n;
	int rc = 1;

	parse_rm_options(argc, argv, &o);
	st = record_open(&o.store, o.dry_run ? STORE_READ : STORE_UPDATE, NULL, 0);
	if (!st)
		return 1;
	if (record_resolve_specs(st, o.specs, o.nspecs, &ids, &n) == 0) {
		rc = remove_runs(st, ids, n, o.dry_run);
		free(ids);
	}
	if (fflush(stdout) != 0 && !rc) {
		error_msg("cannot write: %m");
		rc = 1;
	}
	store_close(st);
	return rc;
}
