// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench push [--to URL] [RUN...]: copy runs from this host's store to
 * the fleet's (a PostgreSQL server, or any store), each run once
 * (results/transfer.h, cli/transfer-command.h). pull (pull.c) is the same
 * copy the other way.
 */
#include <stdbool.h>

#include "basic/options.h"
#include "builtin/builtin.h"
#include "cli/transfer-command.h"

static const struct command_usage push_usage = {
	.name = "push",
	.synopsis = "[<options>] [<run>...]",
	.description =
	"Copy runs of the results database (--db) to another store, the\n"
	"fleet's PostgreSQL database (--to URL, default $" FLEET_ENV "):\n"
	"every run it does not have yet, or the runs given (ids, labels,\n"
	"uuids). Each run is copied in one transaction; pushing again copies\n"
	"only what is missing.",
	.footer =
	"Exit status: 0 on success, 1 on an error (the runs before it are\n"
	"copied, the one that failed is not, and all stay here), 2 on a usage\n"
	"error.",
};

int cmd_push(int argc, char **argv)
{
	return transfer_command(argc, argv, &push_usage, true);
}
