// SPDX-License-Identifier: GPL-2.0-or-later
/* clockbench help [COMMAND]: the same text as COMMAND --help. */
#include "builtin/builtin.h"
#include "basic/util.h"

void usage_help(FILE *f)
{
	fputs("usage: clockbench help [<command>]\n\n"
	      "Print the help of a command (the text of 'clockbench <command> --help').\n"
	      "Without a command, list the commands.\n", f);
}

int cmd_help(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		usage_main(stdout);
		return 0;
	}
	if (argc > 2)
		usage_error("too many arguments: '%s'", argv[2]);
	if (streq(argv[1], "--help") || streq(argv[1], "-h")) {
		usage_help(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		usage_error("unknown command '%s'", argv[1]);
	cmd->usage(stdout);
	return 0;
}
