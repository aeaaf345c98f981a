// SPDX-License-Identifier: GPL-2.0-or-later
/* clockbench help [COMMAND]: the same text as COMMAND --help. */
#include <stdio.h>

#include "basic/options.h"
#include "basic/util.h"
#include "builtin/builtin.h"

static const struct command_usage help_usage = {
	.name = "help",
	.synopsis = "[<command>]",
	.description =
	"Print the help of a command (the text of 'clockbench <command> --help').\n"
	"Without a command, list the commands.",
};

int cmd_help(int argc, char **argv)
{
	const struct option_def options[] = { OPT_END() };
	char *help_argv[3] = { NULL, (char *)"--help", NULL };
	const struct command *cmd;
	int n = parse_options(argc, argv, &help_usage, options, 0);

	if (n < 0)
		return parse_options_status(n);
	if (n == 0) {
		usage_main(stdout);
		return 0;
	}
	if (n > 1)
		return usage_fail("too many arguments: '%s'", argv[1]);
	cmd = find_command(argv[0]);
	if (!cmd)
		return usage_fail("unknown command '%s'", argv[0]);
	help_argv[0] = (char *)cmd->name;
	return cmd->run(2, help_argv);
}
