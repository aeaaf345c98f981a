// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench pull [--from URL] [RUN...]: copy runs of the fleet's store (a
 * PostgreSQL server, or any store) into this host's, each run once:
 * push's copy (push.c) the other way, both through cli/transfer-command.h.
 */
#include <stdbool.h>

#include "basic/options.h"
#include "builtin/builtin.h"
#include "cli/transfer-command.h"

static const struct command_usage pull_usage = {
	.name = "pull",
	.synopsis = "[<options>] [<run>...]",
	.description =
	"Copy runs of another store, the fleet's PostgreSQL database\n"
	"(--from URL, default $" FLEET_ENV "), into the results database\n"
	"(--db), to compare them offline: every run not here yet, or the runs\n"
	"given (ids, labels, uuids of the other store).",
	.footer =
	"Exit status: 0 on success, 1 on an error, 2 on a usage error.",
};

int cmd_pull(int argc, char **argv)
{
	return transfer_command(argc, argv, &pull_usage, false);
}
