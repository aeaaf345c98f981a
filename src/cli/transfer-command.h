/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line of push and pull, one copy run either way: its
 * options, the runs it names (or every run), the copy itself
 * (results/transfer.h) and what it says at the end. Each command keeps
 * its own usage text (builtin/push.c, builtin/pull.c).
 */
#ifndef CLOCKBENCH_TRANSFER_COMMAND_H
#define CLOCKBENCH_TRANSFER_COMMAND_H

#include <stdbool.h>

/* The other store when --to or --from is not given. */
#define FLEET_ENV "CLOCKBENCH_FLEET_DB"

struct command_usage;

/*
 * push when push: from --db to --to; pull otherwise: from --from to --db.
 * The command's exit status: 0, 1 on an error, 2 on a usage error.
 */
int transfer_command(int argc, char **argv, const struct command_usage *usage,
		     bool push);

#endif
