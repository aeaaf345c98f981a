// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/transfer-command.h"

#include <stdlib.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/record.h"
#include "results/store.h"
#include "results/transfer.h"

/* --to, --from: a store, with the URL checked as --db is. */
static const char *other_store(const char *given, const char *option)
{
	const char *env = getenv(FLEET_ENV);

	if (given)
		return given;
	if (env && *env)
		return env;
	usage_fail("no store to copy %s: give --%s URL or set %s", option, option,
		   FLEET_ENV);
	return NULL;
}

/* The runs specs name in from, or every run in it. */
static int runs_to_copy(struct store *from, char **specs, int nspecs,
			int64_t **ids, size_t *n)
{
	struct run_filter all = { 0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (nspecs > 0)
		return record_resolve_specs(from, specs, (size_t)nspecs, ids, n);
	if (store_find_runs(from, &all, ids, n, &err)) {
		error_msg("%s", err.buf);
		return -1;
	}
	return 0;
}

static int copy(struct store *from, struct store *to, char **specs, int nspecs,
		const char *verb)
{
	struct transfer_counts c;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	if (runs_to_copy(from, specs, nspecs, &ids, &n))
		return 1;
	rc = transfer_runs(from, to, ids, n, verb, &c, &err);
	free(ids);
	if (rc)
		error_msg("%s; %zu run%s %s before it, the rest stay where they were",
			  err.buf, c.copied, c.copied == 1 ? "" : "s", verb);
	else
		fprintf(stderr, "%s %zu run%s %s %s (%zu there already)\n", verb,
			c.copied, c.copied == 1 ? "" : "s",
			streq(verb, "pushed") ? "to" : "from",
			store_name(streq(verb, "pushed") ? to : from), c.present);
	if (!rc && c.refused) {
		error_msg("%zu run%s refused", c.refused, c.refused == 1 ? "" : "s");
		rc = 1;
	}
	return rc ? 1 : 0;
}

int transfer_command(int argc, char **argv, const struct command_usage *usage,
		     bool push)
{
	struct store_options local = { 0 }, remote = { 0 };
	const char *url = NULL;
	struct store *from, *to;
	int nspecs, rc;
	struct option_def options[] = {
		OPT_CALLBACK(0, push ? "to" : "from", "URL", &url, store_option_db,
			     push ? "the store to copy to (default $" FLEET_ENV ")" :
			     "the store to copy from (default $" FLEET_ENV ")"),
		STORE_DB_OPTION(&local),
		OPT_END(),
	};

	nspecs = parse_options(argc, argv, usage, options, 0);
	if (nspecs < 0)
		return parse_options_status(nspecs);
	remote.db = other_store(url, push ? "to" : "from");
	if (!remote.db)
		return EXIT_USAGE;
	from = record_open(push ? &local : &remote, STORE_READ, NULL, 0);
	if (!from)
		return 1;
	to = record_open(push ? &remote : &local, STORE_WRITE, NULL, 0);
	rc = to ? copy(from, to, argv, nspecs, push ? "pushed" : "pulled") : 1;
	store_close(to);
	store_close(from);
	return rc;
}
