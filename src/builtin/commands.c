// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The commands clockbench runs: their table, which main.c looks a command
 * up in and the top-level usage lists, and `clockbench help [COMMAND]`
 * (the same text as COMMAND --help), the table's own command.
 */
#include <stdio.h>

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/suggest.h"
#include "basic/options.h"
#include "basic/util.h"
#include "builtin/builtin.h"

static const struct command commands[] = {
	{ "bench", "measure the cost of every time API through vdso, libc and syscall", cmd_bench },
	{ "vdso", "list the symbols this process's vDSO exports, or dump it", cmd_vdso },
	{ "verify", "check every time API's correctness and ABI, kselftest TAP output", cmd_verify },
	{ "doctor", "prove whether each time call enters the kernel, and say why", cmd_doctor },
	{ "runs", "list the stored runs, filtered by label, kernel, host or date", cmd_runs },
	{ "show", "show a stored run: environment and statistics from its samples", cmd_show },
	{ "rm", "remove stored runs", cmd_rm },
	{ "export", "write stored runs with their samples as JSON or CSV", cmd_export },
	{ "import", "add runs exported on another machine to the store", cmd_import },
	{ "push", "copy runs to the fleet's store (PostgreSQL), each once", cmd_push },
	{ "pull", "copy runs of the fleet's store here, to compare offline", cmd_pull },
	{ "compare", "compare stored runs: change, significance and verdict per cell", cmd_compare },
	{ "plot", "draw stored runs with gnuplot: cells, distribution, rounds, ...", cmd_plot },
	{ "report", "one self-contained HTML report of stored runs, or a mail summary", cmd_report },
	{ "scale", "how a time call's cost grows with the threads of the process", cmd_scale },
	{ "timens", "what a time namespace costs each clock: host vs namespace", cmd_timens },
	{ "hotplug", "time taking a CPU offline and online, and each hotplug state", cmd_hotplug },
	{ "kernels", "boot kernel images in qemu, run a command in each, compare them",
	  cmd_kernels },
	{ "exec", "run a command repeatedly: wall, user and sys time with statistics", cmd_exec },
	{ "ab", "alternate two or more conditions in one run and compare them, paired",
	  cmd_ab },
	{ "help", "show the help of a command", cmd_help },
	{ NULL, NULL, NULL },
};

const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (streq(c->name, name))
			return c;
	return NULL;
}

int unknown_command(const char *name, const char *see)
{
	struct suggestion s = SUGGESTION_INIT(name);
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;

	for (const struct command *c = commands; c->name; c++)
		suggestion_consider(&s, c->name);
	strbuf_addf(&msg, "unknown command '%s'", name);
	suggestion_add(&s, "", &msg);
	if (see)
		strbuf_addf(&msg, " (%s)", see);
	return usage_fail("%s", msg.buf);
}

void usage_main(FILE *f)
{
	fputs("usage: clockbench [--version] [--help] <command> [<options>]\n\n"
	      "Commands:\n", f);
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nSee 'clockbench help <command>' or 'man clockbench-<command>'.\n", f);
}

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
		return unknown_command(argv[0], NULL);
	help_argv[0] = (char *)cmd->name;
	return cmd->run(2, help_argv);
}
