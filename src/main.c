// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench: measure, verify and compare the Linux kernel's time paths.
 * `clockbench <command> [options]`, in the style of git and perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "results/record.h"
#include "vm/guest.h"
#include "config.h"
#include "basic/util.h"
#include "report/output.h"

const struct command commands[] = {
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

void usage_main(FILE *f)
{
	fputs("usage: clockbench [--version] [--help] <command> [<options>]\n\n"
	      "Commands:\n", f);
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nSee 'clockbench help <command>' or 'man clockbench-<command>'.\n", f);
}

/*
 * What a command printed reached its destination, checked once for every
 * command, as git's run_builtin() does: the last buffer is written and
 * stdout closed here, so that a full disk, an I/O error or a closed
 * descriptor is an error, never output lost silently. 0, or -1 with the
 * error printed.
 */
static int finish_stdout(void)
{
	/* Started with stdout closed (>&-): closing it again is no error. */
	bool was_open = fcntl(STDOUT_FILENO, F_GETFD) >= 0;
	int rc = output_flush_stdout();

	if (fclose(stdout) != 0 && rc == 0 && was_open) {
		error_msg("write error on standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * The command's exit status, or 1 when its output was lost; a failing
 * status of its own (doctor's 3, a usage error's 2) is kept.
 */
static int run_command(const struct command *cmd, int argc, char **argv)
{
	int rc = cmd->run(argc, argv);

	if (finish_stdout() != 0 && rc == 0)
		rc = 1;
	return rc;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	char context[64];

	record_command_line(argc, argv);
	/* The initramfs's /init of `clockbench kernels`: the guest's side. */
	if (getpid() == 1)
		guest_init();
	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (streq(argv[1], "--version") || streq(argv[1], "-V")) {
		printf("clockbench %s\n", CLOCKBENCH_VERSION);
		return finish_stdout() ? 1 : 0;
	}
	if (streq(argv[1], "--help") || streq(argv[1], "-h")) {
		usage_main(stdout);
		return finish_stdout() ? 1 : 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_fail("unknown command '%s' (see 'clockbench --help')",
				  argv[1]);

	snprintf(context, sizeof(context), "clockbench %s", cmd->name);
	set_program_context(context);
	return run_command(cmd, argc - 1, argv + 1);
}
