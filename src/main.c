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
#include "basic/error.h"
#include "basic/util.h"
#include "report/output.h"

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
		return unknown_command(argv[1], "see 'clockbench --help'");

	snprintf(context, sizeof(context), "clockbench %s", cmd->name);
	set_program_context(context);
	return run_command(cmd, argc - 1, argv + 1);
}
