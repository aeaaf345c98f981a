// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/options.h"

#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/suggest.h"
#include "basic/util.h"

/* Widest option column before the help moves to a line of its own. */
#define OPTION_COLUMN_MAX 24

static bool takes_arg(const struct option_def *o)
{
	return o->arg_name != NULL;
}

static bool is_option(const struct option_def *o)
{
	return o->type != OPTION_END && o->type != OPTION_TEXT;
}

/* "--runs" or "-n", as the user would type it. */
static void option_display(struct strbuf *sb, const struct option_def *o)
{
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	else
		strbuf_addf(sb, "-%c", o->short_name);
}

static const struct option_def *find_long(const struct option_def *opts,
					  const char *name, size_t len)
{
	for (const struct option_def *o = opts; o->type != OPTION_END; o++)
		if (is_option(o) && o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct option_def *find_short(const struct option_def *opts, int c)
{
	for (const struct option_def *o = opts; o->type != OPTION_END; o++)
		if (is_option(o) && o->short_name == c)
			return o;
	return NULL;
}

void options_unknown_choice(struct strbuf *err, const char *what,
			    const char *arg, const char *const *choices)
{
	struct suggestion s = SUGGESTION_INIT(arg);

	strbuf_addf(err, "unknown %s '%s' (", what, arg);
	for (const char *const *c = choices; *c; c++) {
		strbuf_addf(err, "%s%s", c == choices ? "" : ", ", *c);
		suggestion_consider(&s, *c);
	}
	strbuf_addch(err, ')');
	suggestion_add(&s, "", err);
}

int options_descriptor_pair(const struct option_def *opt, const char *arg,
			    struct strbuf *err)
{
	_cleanup_free_ char **items = NULL;
	int *fds = opt->value;
	size_t n;
	long v;

	items = split_list(arg, &n);
	for (size_t i = 0; i < 2; i++) {
		if (n != 2 || !parse_int(items[i], 0, 1 << 20, &v)) {
			strbuf_addf(err, "invalid --%s '%s': expected two descriptor "
				    "numbers IN,OUT", opt->long_name, arg);
			return -1;
		}
		fds[i] = (int)v;
		/* The parent passes open pipes: anything else is a mistake. */
		if (fcntl(fds[i], F_GETFD) < 0) {
			strbuf_addf(err, "invalid --%s '%s': descriptor %d is not "
				    "open", opt->long_name, arg, fds[i]);
			return -1;
		}
	}
	return 0;
}

static int apply_number(const struct option_def *o, const char *arg,
			const char *name, struct strbuf *err)
{
	double d;
	long l;

	if (o->type == OPTION_INT) {
		if (!parse_int(arg, (long)o->min, (long)o->max, &l)) {
			strbuf_addf(err, "invalid %s '%s': expected a number from "
				    "%ld to %ld", name, arg, (long)o->min, (long)o->max);
			return -1;
		}
		*(long *)o->value = l;
		return 0;
	}
	if (!parse_double(arg, &d) || d < o->min || d > o->max) {
		strbuf_addf(err, "invalid %s '%s': expected a number from %g to %g",
			    name, arg, o->min, o->max);
		return -1;
	}
	*(double *)o->value = d;
	return 0;
}

const char *const format_vocabulary[] = {
	"table", "json", "csv", "tap", "markdown", "html", "mail", NULL,
};

/* Old names of a format, read as the vocabulary's word for it. */
static const struct { const char *alias, *name; } format_aliases[] = {
	{ "text", "table" },	/* ab, compare and timens until 2026-12 */
};

/* name's enum output_format; a command that lists another word is a bug. */
static int vocabulary_format(const char *name)
{
	for (int i = 0; format_vocabulary[i]; i++)
		if (streq(format_vocabulary[i], name))
			return i;
	fatal("--format '%s' is not in the format vocabulary", name);
}

/* --format: the vocabulary's word for arg, then the command's choice. */
static int apply_format(const struct option_def *o, const char *arg,
			struct strbuf *err)
{
	const char *name = arg;

	for (size_t i = 0; i < ARRAY_SIZE(format_aliases); i++)
		if (streq(arg, format_aliases[i].alias))
			name = format_aliases[i].name;
	for (int i = 0; o->choices[i]; i++) {
		int format = vocabulary_format(o->choices[i]);

		if (streq(o->choices[i], name)) {
			*(int *)o->value = format;
			return 0;
		}
	}
	options_unknown_choice(err, "format", arg, o->choices);
	return -1;
}

static int apply_choice(const struct option_def *o, const char *arg,
			struct strbuf *err)
{
	for (int i = 0; o->choices[i]; i++)
		if (streq(o->choices[i], arg)) {
			*(int *)o->value = i;
			return 0;
		}
	options_unknown_choice(err, o->long_name ? o->long_name : "value", arg,
			       o->choices);
	return -1;
}

/* Store what arg means for o; -1 with the message in err. */
static int apply(const struct option_def *o, const char *arg, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf name = STRBUF_INIT;

	option_display(&name, o);
	if (o->seen)
		*o->seen = true;
	switch (o->type) {
	case OPTION_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_INT:
	case OPTION_DOUBLE:
		return apply_number(o, arg, name.buf, err);
	case OPTION_DURATION:
		if (parse_duration(arg, (double *)o->value))
			return 0;
		strbuf_addf(err, "invalid %s '%s': expected a positive duration "
			    "such as 0.5, 500ms or 2s", name.buf, arg);
		return -1;
	case OPTION_CHOICE:
		return apply_choice(o, arg, err);
	case OPTION_FORMAT:
		return apply_format(o, arg, err);
	case OPTION_CALLBACK:
		return o->callback(o, arg, err);
	case OPTION_END:
	case OPTION_TEXT:
		break;
	}
	fatal("option %s has no type", name.buf);
}

static void print_option_names(FILE *f, const struct option_def *opts)
{
	for (const struct option_def *o = opts; o->type != OPTION_END; o++)
		if (is_option(o) && o->long_name && !(o->flags & OPTION_HIDDEN))
			fprintf(f, "--%s\n", o->long_name);
	fputs("--help\n", f);
}

struct parser {
	int argc;
	char **argv;
	int i;				/* the argument being read */
	const struct command_usage *usage;
	const struct option_def *opts;
	struct strbuf err;
};

/* The value of an option that takes one: "=value", the rest, or next. */
static const char *take_value(struct parser *p, const char *attached,
			      const char *name)
{
	if (attached)
		return attached;
	if (p->i + 1 < p->argc)
		return p->argv[++p->i];
	strbuf_addf(&p->err, "option '%s' needs a value", name);
	return NULL;
}

static void unknown_option(struct parser *p, const char *shown)
{
	struct suggestion s = SUGGESTION_INIT(shown + strspn(shown, "-"));

	/* "--rouns=5" is near "rounds" by its name alone. */
	if (!strncmp(shown, "--", 2)) {
		char name[SUGGEST_NAME_MAX];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(shown + 2, "="), shown + 2);
		s.word = name;
		for (const struct option_def *o = p->opts; o->type != OPTION_END; o++)
			if (is_option(o) && o->long_name && !(o->flags & OPTION_HIDDEN))
				suggestion_consider(&s, o->long_name);
		strbuf_addf(&p->err, "unknown option '%s'", shown);
		suggestion_add(&s, "--", &p->err);
		strbuf_addf(&p->err, " (see 'clockbench %s --help')", p->usage->name);
		return;
	}
	strbuf_addf(&p->err, "unknown option '%s' (see 'clockbench %s --help')",
		    shown, p->usage->name);
}

/* One "--name[=value]"; OPTIONS_HELP, OPTIONS_ERROR or 0. */
static int parse_long(struct parser *p, const char *arg)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_def *o = find_long(p->opts, name, len);
	const char *value = eq ? eq + 1 : NULL;

	if (!o && len == 4 && !strncmp(name, "help", 4)) {
		print_usage(stdout, p->usage, p->opts);
		return OPTIONS_HELP;
	}
	if (!o && len == 12 && !strncmp(name, "list-options", 12)) {
		print_option_names(stdout, p->opts);
		return OPTIONS_HELP;
	}
	if (!o) {
		unknown_option(p, arg);
		return OPTIONS_ERROR;
	}
	if (!takes_arg(o) && value) {
		strbuf_addf(&p->err, "option '--%s' takes no value", o->long_name);
		return OPTIONS_ERROR;
	}
	if (takes_arg(o)) {
		_cleanup_strbuf_ struct strbuf shown = STRBUF_INIT;

		strbuf_addf(&shown, "--%s", o->long_name);
		value = take_value(p, value, shown.buf);
		if (!value)
			return OPTIONS_ERROR;
	}
	return apply(o, value, &p->err) ? OPTIONS_ERROR : 0;
}

/* One "-abc" cluster; the last letter may take the rest or the next. */
static int parse_short(struct parser *p, const char *arg)
{
	for (const char *c = arg + 1; *c; c++) {
		const struct option_def *o = find_short(p->opts, *c);
		char shown[3] = { '-', *c, '\0' };
		const char *value = NULL;

		if (!o && *c == 'h') {
			print_usage(stdout, p->usage, p->opts);
			return OPTIONS_HELP;
		}
		if (!o) {
			unknown_option(p, shown);
			return OPTIONS_ERROR;
		}
		if (takes_arg(o)) {
			value = take_value(p, c[1] ? c + 1 : NULL, shown);
			if (!value)
				return OPTIONS_ERROR;
			return apply(o, value, &p->err) ? OPTIONS_ERROR : 0;
		}
		if (apply(o, NULL, &p->err))
			return OPTIONS_ERROR;
	}
	return 0;
}

static int parse_all(struct parser *p, unsigned flags)
{
	bool only_args = false;
	int nargs = 0;

	for (p->i = 1; p->i < p->argc; p->i++) {
		char *arg = p->argv[p->i];
		int rc;

		if (only_args || arg[0] != '-' || !arg[1]) {
			/* Positional arguments move down; never past unread ones. */
			p->argv[nargs++] = arg;
			if (flags & OPTIONS_STOP_AT_ARG)
				only_args = true;
			continue;
		}
		if (streq(arg, "--")) {
			only_args = true;
			continue;
		}
		rc = arg[1] == '-' ? parse_long(p, arg) : parse_short(p, arg);
		if (rc)
			return rc;
	}
	return nargs;
}

int parse_options(int argc, char **argv, const struct command_usage *usage,
		  const struct option_def *opts, unsigned flags)
{
	struct parser p = {
		.argc = argc, .argv = argv, .usage = usage, .opts = opts,
		.err = STRBUF_INIT,
	};
	int rc;

	/* A command's first format is its default. */
	for (const struct option_def *o = opts; o->type != OPTION_END; o++)
		if (o->type == OPTION_FORMAT)
			*(int *)o->value = vocabulary_format(o->choices[0]);
	rc = parse_all(&p, flags);
	if (rc > 0 && (flags & OPTIONS_NO_ARGS)) {
		strbuf_setf(&p.err, "unexpected argument '%s'", argv[0]);
		rc = OPTIONS_ERROR;
	}
	if (rc == 0 && (flags & OPTIONS_NEED_ARGS)) {
		if (!usage->no_args)
			fatal("%s: OPTIONS_NEED_ARGS without no_args", usage->name);
		strbuf_setf(&p.err, "%s", usage->no_args);
		rc = OPTIONS_ERROR;
	}
	if (rc == OPTIONS_ERROR)
		error_msg("%s", p.err.buf);
	strbuf_release(&p.err);
	return rc;
}

int parse_options_status(int result)
{
	return result == OPTIONS_HELP ? 0 : EXIT_USAGE;
}

static bool check_only;

void options_check_only(void)
{
	check_only = true;
}

bool options_checking(void)
{
	return check_only;
}

int options_fail(const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error_msg("%s", sb.buf);
	return OPTIONS_ERROR;
}

/* ---- --help ----------------------------------------------------------- */

static void option_label(struct strbuf *sb, const struct option_def *o)
{
	strbuf_adds(sb, "  ");
	if (o->short_name && o->long_name)
		strbuf_addf(sb, "-%c, --%s", o->short_name, o->long_name);
	else
		option_display(sb, o);
	if (takes_arg(o))
		strbuf_addf(sb, " %s", o->arg_name);
}

static size_t help_column(const struct option_def *opts)
{
	size_t width = 20;

	for (const struct option_def *o = opts; o->type != OPTION_END; o++) {
		_cleanup_strbuf_ struct strbuf label = STRBUF_INIT;

		if (!is_option(o) || (o->flags & OPTION_HIDDEN))
			continue;
		option_label(&label, o);
		if (label.len + 2 > width && label.len + 2 <= OPTION_COLUMN_MAX)
			width = label.len + 2;
	}
	return width;
}

/* The help text, its continuation lines indented to the column. */
static void print_help_text(FILE *f, const char *help, size_t column)
{
	for (const char *nl; (nl = strchr(help, '\n')); help = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - help), help, (int)column, "");
	fprintf(f, "%s\n", help);
}

static void print_option(FILE *f, const struct option_def *o, size_t column)
{
	_cleanup_strbuf_ struct strbuf label = STRBUF_INIT;

	option_label(&label, o);
	if (label.len + 2 > column)
		fprintf(f, "%s\n%*s", label.buf, (int)column, "");
	else
		fprintf(f, "%-*s", (int)column, label.buf);
	print_help_text(f, o->help ? o->help : "", column);
}

static void print_synopsis(FILE *f, const struct command_usage *u)
{
	const char *s = u->synopsis ? u->synopsis : "[<options>]";
	const char *lead = "usage:";

	for (const char *nl;; s = nl + 1, lead = "   or:") {
		nl = strchr(s, '\n');
		fprintf(f, "%s clockbench %s %.*s\n", lead, u->name,
			nl ? (int)(nl - s) : (int)strlen(s), s);
		if (!nl)
			break;
	}
}

void print_usage(FILE *f, const struct command_usage *usage,
		 const struct option_def *opts)
{
	size_t column = help_column(opts);
	static const struct option_def help_opt = {
		.type = OPTION_BOOL, .short_name = 'h', .long_name = "help",
		.help = "this text",
	};

	print_synopsis(f, usage);
	if (usage->description)
		fprintf(f, "\n%s\n", usage->description);
	fputc('\n', f);
	for (const struct option_def *o = opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_TEXT)
			fprintf(f, "%s\n", o->help);
		else if (!(o->flags & OPTION_HIDDEN))
			print_option(f, o, column);
	}
	print_option(f, &help_opt, column);
	if (usage->footer)
		fprintf(f, "\n%s\n", usage->footer);
}
