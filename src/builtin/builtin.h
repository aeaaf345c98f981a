/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands. Each lives in its own cmd-NAME.c, parses its own options
 * with getopt_long, and returns the process exit status. Usage errors go
 * through usage_error() (exit 2).
 */
#ifndef CLOCKBENCH_BUILTIN_H
#define CLOCKBENCH_BUILTIN_H

#include <stdio.h>

struct command {
	const char *name;
	const char *summary;			/* one line for `clockbench help` */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
	void (*usage)(FILE *f);			/* the text of --help */
};

int cmd_help(int argc, char **argv);
void usage_help(FILE *f);
int cmd_bench(int argc, char **argv);
void usage_bench(FILE *f);
int cmd_vdso(int argc, char **argv);
void usage_vdso(FILE *f);
int cmd_verify(int argc, char **argv);
void usage_verify(FILE *f);
int cmd_doctor(int argc, char **argv);
void usage_doctor(FILE *f);
int cmd_compare(int argc, char **argv);
void usage_compare(FILE *f);
int cmd_runs(int argc, char **argv);
void usage_runs(FILE *f);
int cmd_show(int argc, char **argv);
void usage_show(FILE *f);
int cmd_rm(int argc, char **argv);
void usage_rm(FILE *f);
int cmd_export(int argc, char **argv);
void usage_export(FILE *f);
int cmd_import(int argc, char **argv);
void usage_import(FILE *f);
int cmd_hotplug(int argc, char **argv);
void usage_hotplug(FILE *f);
int cmd_exec(int argc, char **argv);
void usage_exec(FILE *f);
int cmd_scale(int argc, char **argv);
void usage_scale(FILE *f);
int cmd_timens(int argc, char **argv);
void usage_timens(FILE *f);

/* The command table, terminated by an entry with a NULL name. */
extern const struct command commands[];
const struct command *find_command(const char *name);
/* The top-level usage: synopsis and the list of commands. */
void usage_main(FILE *f);

#endif
