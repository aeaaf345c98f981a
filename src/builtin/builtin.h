/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * builtin/: the commands, one file each, in the manner of git's builtin/
 * and perf's builtin-*.c. A command describes its options in a table
 * (basic/options.h), does its work through the library and returns the
 * process exit status; only commands and main.c decide to exit.
 */
#ifndef CLOCKBENCH_BUILTIN_H
#define CLOCKBENCH_BUILTIN_H

#include <stdbool.h>
#include <stdio.h>

/* The usage error of a command that takes runs and was given none. */
#define NO_RUN_GIVEN "no run given (an id, a label or a uuid)"

struct command {
	const char *name;
	const char *summary;			/* one line for `clockbench help` */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

int cmd_help(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_vdso(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_pull(int argc, char **argv);
int cmd_hotplug(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_timens(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_kernels(int argc, char **argv);

/* The command named name, or NULL (commands.c). */
const struct command *find_command(const char *name);
/*
 * "unknown command 'bnech'; did you mean 'bench'? (see)": the usage
 * error's exit status (see: a hint in parentheses, or NULL).
 */
int unknown_command(const char *name, const char *see);
/* The top-level usage: synopsis and the list of commands (commands.c). */
void usage_main(FILE *f);

#endif
