/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Table-driven command-line options, in the manner of git's parse-options
 * and perf's subcmd: one table per command gives the parsing, the text of
 * --help and the usage errors, so that no command writes a getopt loop.
 *
 * A command builds its table on the stack, pointing at its own settings:
 *
 *	struct option_def options[] = {
 *		OPT_BOOL(0, "list", &o.list, "print the cells that would run"),
 *		OPT_INT(0, "rounds", "N", &o.rounds, 1, 1000, "rounds per cell"),
 *		STORE_OPTIONS(&o.store),	(a shared group: a macro of entries)
 *		OPT_END(),
 *	};
 *	int n = parse_options(argc, argv, &usage, options, 0);
 *	if (n < 0)
 *		return parse_options_status(n);
 *
 * after which argv[0..n) are the positional arguments, in order. -h and
 * --help print the help and return OPTIONS_HELP; a bad option or value
 * prints one line naming it and returns OPTIONS_ERROR (exit 2). Options
 * may come before, after or between the positional arguments (as GNU
 * getopt permutes them) unless OPTIONS_STOP_AT_ARG is given; "--" ends the
 * options. Long options must be given whole: no abbreviations, so that a
 * new option never changes what an old command line means.
 */
#ifndef CLOCKBENCH_OPTIONS_H
#define CLOCKBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct strbuf;

enum option_type {
	OPTION_END,
	OPTION_BOOL,		/* bool *value = true */
	OPTION_STRING,		/* const char **value = the argument */
	OPTION_INT,		/* long *value, an integer in [min, max] */
	OPTION_DOUBLE,		/* double *value, a number in [min, max] */
	OPTION_DURATION,	/* double *value, seconds ("0.5", "200ms") > 0 */
	OPTION_CHOICE,		/* int *value = index of the argument in choices */
	OPTION_FORMAT,		/* --format: int *value = enum output_format */
	OPTION_CALLBACK,	/* callback(value, arg, err) */
	OPTION_TEXT,		/* no option: a line of help text */
};

enum option_flags {
	OPTION_HIDDEN = 1 << 0,	/* internal: parsed, not in --help */
};

/*
 * A callback stores what arg means through opt->value and returns 0, or
 * returns -1 with one line in err saying what is wrong ("unknown api
 * 'foo' in --api"): the parser prints it.
 */
struct option_def;
typedef int option_callback(const struct option_def *opt, const char *arg,
			    struct strbuf *err);

struct option_def {
	enum option_type type;
	int short_name;			/* 'n', or 0 */
	const char *long_name;		/* "runs", or NULL */
	const char *arg_name;		/* "N"; NULL: takes no argument */
	const char *help;		/* '\n' starts a continuation line */
	void *value;
	double min, max;		/* OPTION_INT and OPTION_DOUBLE */
	const char *const *choices;	/* OPTION_CHOICE, NULL-terminated */
	option_callback *callback;
	unsigned flags;
	bool *seen;			/* when not NULL: set when given */
};

#define OPT_END() { .type = OPTION_END }
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), \
	  .value = (bool *){ (v) }, .help = (h) }
#define OPT_STRING(s, l, a, v, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (const char **){ (v) }, .help = (h) }
#define OPT_INT(s, l, a, v, lo, hi, h) \
	{ .type = OPTION_INT, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (long *){ (v) }, .min = (lo), .max = (hi), \
	  .help = (h) }
#define OPT_DOUBLE(s, l, a, v, lo, hi, h) \
	{ .type = OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (double *){ (v) }, .min = (lo), .max = (hi), \
	  .help = (h) }
#define OPT_DURATION(s, l, a, v, h) \
	{ .type = OPTION_DURATION, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (double *){ (v) }, .help = (h) }
#define OPT_CHOICE(s, l, a, v, names, h) \
	{ .type = OPTION_CHOICE, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (int *){ (v) }, .choices = (names), \
	  .help = (h) }
#define OPT_CALLBACK(s, l, a, v, fn, h) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .arg_name = (a), .value = (v), .callback = (fn), .help = (h) }
/*
 * The --format of a command: names, NULL-terminated, are the formats it
 * prints, each a word of format_vocabulary, the first its default; int *v
 * is set to the enum output_format of the one chosen (of the first before
 * the arguments are read). "text" is read as "table" (its name in ab,
 * compare and timens before). s: a short option letter, or 0.
 */
#define OPT_FORMAT(s, v, names, h) \
	{ .type = OPTION_FORMAT, .short_name = (s), .long_name = "format", \
	  .arg_name = "FMT", .value = (int *){ (v) }, .choices = (names), \
	  .help = (h) }
/* A flag handled by a callback (called with arg NULL). */
#define OPT_CALLBACK_FLAG(s, l, v, fn, h) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .callback = (fn), .help = (h) }
/* A line of help text between the options, e.g. a group's heading. */
#define OPT_TEXT(t) { .type = OPTION_TEXT, .help = (t) }

/* What --help prints around the options. */
struct command_usage {
	const char *name;		/* "bench": "usage: clockbench bench ..." */
	const char *synopsis;		/* "[<options>] <run>..."; '\n' separates
					 * further synopsis lines */
	const char *description;	/* paragraphs after the synopsis */
	const char *footer;		/* after the options: notes, exit status */
	/* With OPTIONS_NEED_ARGS, the error without one: "no file given". */
	const char *no_args;
};

enum {
	OPTIONS_HELP = -1,	/* --help was printed: exit 0 */
	OPTIONS_ERROR = -2,	/* a usage error was printed: exit 2 */
};

enum parse_flags {
	/* The first positional argument ends the options (exec's COMMAND). */
	OPTIONS_STOP_AT_ARG = 1 << 0,
	/* The options and nothing else: an argument left is a usage error. */
	OPTIONS_NO_ARGS = 1 << 1,
	/* At least one argument, else the usage's no_args error. */
	OPTIONS_NEED_ARGS = 1 << 2,
};

/*
 * Parse argv[1..argc) (argv[0] is the command name) against opts. Returns
 * the number of positional arguments, moved to argv[0..n), or OPTIONS_HELP
 * or OPTIONS_ERROR. The hidden option --list-options prints every visible
 * long option, one per line (for the man page check and shell completion),
 * and returns OPTIONS_HELP.
 */
int parse_options(int argc, char **argv, const struct command_usage *usage,
		  const struct option_def *opts, unsigned flags);

/* The exit status for a negative parse_options() result: 0 or 2. */
int parse_options_status(int result);

/*
 * Check a command line without running it: kernels checks the command it
 * will run in every guest on the host first, so that a usage error costs
 * no boot. After options_check_only(), a command that runs in guests
 * returns 0 as soon as its command line has been parsed and validated,
 * and options_checking() says so. Process-wide: kernels sets it only in a
 * child it forks for the check.
 */
void options_check_only(void);
bool options_checking(void);

/*
 * A usage error found after parsing (two options that exclude each other,
 * a missing argument): prints it in one line and returns OPTIONS_ERROR.
 */
int options_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The --help text: synopsis, description, the options, footer. */
void print_usage(FILE *f, const struct command_usage *usage,
		 const struct option_def *opts);

/*
 * Every format a command prints, whatever the command: table (aligned text
 * for people), json, csv, tap (kselftest), markdown, html and mail
 * (report's). A command takes those that apply to it; the same name and
 * the same value mean the same form everywhere.
 */
enum output_format {
	FORMAT_TABLE,
	FORMAT_JSON,
	FORMAT_CSV,
	FORMAT_TAP,
	FORMAT_MARKDOWN,
	FORMAT_HTML,
	FORMAT_MAIL,
};
/* Their names, in enum order, NULL-terminated. */
extern const char *const format_vocabulary[];

/*
 * "IN,OUT" into int value[2]: two descriptor numbers, for the hidden
 * options through which clockbench hands a child process its pipes.
 */
option_callback options_descriptor_pair;

/*
 * "unknown style 'x' (table, mmtests, ratio)": the one-line error for a
 * name that is not in a NULL-terminated list, as OPTION_CHOICE prints it.
 */
void options_unknown_choice(struct strbuf *err, const char *what,
			    const char *arg, const char *const *choices);

#endif
