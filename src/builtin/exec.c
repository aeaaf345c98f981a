// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench exec: run a command repeatedly and report its wall, user and
 * system time with robust statistics (seed 003's `time echo 0 > ...`, done
 * many times instead of picking "a representative run"). The run is saved,
 * so `clockbench compare` tells whether two commands, or one command on
 * two kernels, differ beyond noise.
 *
 * Several commands (-c, or one command over a parameter list, -L/-P) run
 * in one invocation, alternated run by run in ab's order (A B B A ..., or
 * a seeded shuffle of each repetition: balanced_order_at()), so that a machine
 * that changes half-way touches every command alike; each is saved as a
 * run of its own and they are compared round by round, paired, by
 * compare's machinery, as `ab` does.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/figure.h"
#include "basic/json.h"
#include "basic/order.h"
#include "basic/options.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "builtin/builtin.h"
#include "cli/measure.h"
#include "probe/cpu-accounting.h"
#include "probe/env.h"
#include "results/compare-session.h"
#include "report/compare-format.h"
#include "report/exec-report.h"
#include "scenario/exec.h"
#include "scenario/interleave.h"
#include "report/output.h"
#include "basic/progress.h"
#include "results/record.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "probe/vdso.h"

static const struct command_usage exec_usage = {
	.name = "exec",
	.synopsis = "[<options>] [--] COMMAND [ARGS...]\n"
		    "[<options>] -c 'CMD1 ARGS' -c 'CMD2 ARGS' [-c ...]\n"
		    "[<options>] -L NAME=V1,V2,... | -P NAME=LO..HI[..STEP] -c 'CMD {NAME}'",
	.description =
	"Run COMMAND repeatedly (no shell; found in PATH once, started by\n"
	"posix_spawn) and report its wall, user and system time: median with its\n"
	"95% confidence interval, mean, robust CV, min, max and outliers. Its\n"
	"output goes to /dev/null. An empty program, started the same way, tells\n"
	"what the harness itself costs.\n"
	"\n"
	"Several commands (-c, each one command line split into words as sh\n"
	"would, run without a shell unless --shell; or one command over the\n"
	"values of -L or -P, substituted for {NAME}) are alternated run by run\n"
	"(A B B A ..., or --order random: a seeded shuffle of each repetition),\n"
	"each saved as a run under its label, and compared with the first round\n"
	"by round (paired: Wilcoxon's signed-rank test on the log ratios of the\n"
	"alternated runs), with ab's and compare's verdicts.",
	.footer =
	"user and sys are what the kernel accounts: with tick sampling (most\n"
	"kernels), a run's split between them is an estimate below one tick of\n"
	"CPU time (user + sys is exact); the header says which the kernel does.\n"
	"\n"
	"Outliers in the table are values more than 5 robust standard deviations\n"
	"(1.4826 MAD) from the median; a warning, as hyperfine gives, follows when\n"
	"a wall time lies more than 14.8 MAD from the median. The run is saved\n"
	"with cells wall, user and sys (seconds); compare two runs with\n"
	"'clockbench compare'.\n"
	"\n"
	"Every run's disturbance is kept: the command's involuntary context\n"
	"switches, migrations and wait for a CPU, the steal of all CPUs, and the\n"
	"tasks runnable besides clockbench when it started. A run disturbed far\n"
	"beyond the others (4 times the median's switches and 4 more; a steal\n"
	"above a tick and above 5% of the CPUs' time during it; more than twice\n"
	"the median run's runnable tasks and a CPU's worth on top; a wait for a\n"
	"CPU of a quarter of the run, 4 times the median's and 1 ms more) is\n"
	"named.\n"
	"\n"
	"Default labels of several commands are exec-ID-K (ID: 8 hex digits of\n"
	"this invocation, K: the command's number, or NAME=VALUE with -L/-P), so\n"
	"that runs of two invocations never pool as replicates of one label.\n"
	"\n"
	"Exit status: 0 on success, 1 when a command fails (exits non-zero or\n"
	"is killed, without --ignore-failure), cannot run, or the run cannot be\n"
	"saved, 2 on a usage error (also: command not found), 3 when --fail-on\n"
	"caught a change, 128+N when stopped by signal N.",
};

static const char *const exec_formats[] = { "table", "json", NULL };
static const char *const exec_orders[] = { "abba", "random", "sequence", NULL };

enum exec_order { ORDER_ABBA, ORDER_RANDOM, ORDER_SEQUENCE };

/* Most commands one invocation alternates (the order engine's bound). */
#define EXEC_MAX_COMMANDS 32
/* Rounds of a stored run are 0 .. STORE_ROUNDS_MAX - 1. */
#define EXEC_MAX_PAIRED_RUNS STORE_ROUNDS_MAX
/*
 * The largest --seed: 2^53 (a double holds it exactly, as the option
 * parser's bounds are doubles), or what a long holds on a 32-bit build.
 */
#define EXEC_SEED_MAX (LONG_MAX < (1LL << 53) ? LONG_MAX : (long)(1LL << 53))

struct exec_options {
	long runs, warmup;
	const char **prepares;	/* --prepare: one for all, or one per command */
	size_t nprepares;
	const char **lines;	/* -c */
	size_t nlines;
	const char *labels;
	const char *param;	/* -L/-P: NAME */
	char **values;		/* its values, NULL-terminated (one allocation) */
	size_t nvalues;
	int order;		/* enum exec_order */
	long seed;		/* --seed, 0: chosen */
	int fail_on;		/* enum compare_gate */
	bool shell, show_output, ignore_failure;
	char **command;		/* argv of COMMAND after --, or NULL */
};

struct exec_samples {
	double *wall, *user, *sys;
	size_t n;
};

/* One command of the alternation. */
struct exec_command {
	char *text;		/* the command as shown (and, --shell, as run) */
	char **words;		/* its words (owned), or NULL with --shell */
	char *shell_argv[4];	/* --shell: /bin/sh -c text */
	char **argv;		/* what runs: words or shell_argv */
	char program[PATH_MAX];	/* found once, or /bin/sh */
	char *prepare;		/* its --prepare (owned), or NULL */
	const char *value;	/* its -L/-P value, or NULL */
	char label[129];
	struct exec_samples s;
	struct exec_disturb *reps;	/* one per timed run */
	size_t *after;		/* per timed run: the command run just before, or NONE */
};

/* No command ran before (the first run of all). */
#define AFTER_NONE SIZE_MAX

/* The empty program, timed as the command is: the harness's own cost. */
struct exec_harness {
	char program[PATH_MAX];
	const char *what;	/* "clockbench-empty (static, does nothing)" */
	double *wall;
	size_t n;
};

struct exec_cmd {
	struct exec_options o;
	struct exec_io io;
	struct exec_command *cmds;
	size_t ncmds;
	size_t done;		/* complete repetitions of every command */
	uint64_t seed;		/* --order random */
	size_t last;		/* the command that ran last, or AFTER_NONE */
	char interleave[37];	/* this invocation's id, in every run's config */
	struct exec_harness harness;
	struct cpu_accounting acct;
};

/* Harness runs: as many as the command's, from 5 to 50. */
#define HARNESS_RUNS_MIN 5
#define HARNESS_RUNS_MAX 50

/* ---- options -------------------------------------------------------- */

static void push_string(const char ***list, size_t *n, const char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(char *));
	(*list)[(*n)++] = s;
}

static int prepare_option(const struct option_def *opt, const char *arg,
			  struct strbuf *err)
{
	struct exec_options *o = opt->value;

	if (!*arg) {
		strbuf_adds(err, "empty --prepare command");
		return -1;
	}
	push_string(&o->prepares, &o->nprepares, arg);
	return 0;
}

static int command_option(const struct option_def *opt, const char *arg,
			  struct strbuf *err)
{
	struct exec_options *o = opt->value;

	if (!*arg) {
		strbuf_adds(err, "empty -c command");
		return -1;
	}
	push_string(&o->lines, &o->nlines, arg);
	return 0;
}

static bool ascii_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* NAME of -L/-P: a C identifier, so that {NAME} cannot be anything else. */
static bool param_name_valid(const char *s, size_t n)
{
	if (n == 0 || n > 64 || !ascii_letter(s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!ascii_letter(s[i]) && !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return true;
}

/* "NAME=REST": NAME stored, REST returned; NULL with err when malformed. */
static const char *param_head(struct exec_options *o, const char *opt,
			      const char *arg, struct strbuf *err)
{
	const char *eq = strchr(arg, '=');
	char *name;

	if (o->param) {
		strbuf_addf(err, "one -L or -P per run (already: %s)", o->param);
		return NULL;
	}
	if (!eq || !param_name_valid(arg, (size_t)(eq - arg))) {
		strbuf_addf(err, "invalid %s '%s': expected NAME=%s (NAME: letters, "
			    "digits, _)", opt, arg, streq(opt, "-L") ? "V1,V2,..." :
			    "LO..HI[..STEP]");
		return NULL;
	}
	name = xmalloc((size_t)(eq - arg) + 1);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	o->param = name;
	return eq + 1;
}

static int list_param_option(const struct option_def *opt, const char *arg,
			     struct strbuf *err)
{
	struct exec_options *o = opt->value;
	const char *rest = param_head(o, "-L", arg, err);

	if (!rest)
		return -1;
	o->values = split_list(rest, &o->nvalues);
	if (o->nvalues == 0) {
		strbuf_addf(err, "invalid -L '%s': no values", arg);
		return -1;
	}
	/* Values are printed in the table and saved: text, not terminal codes. */
	for (size_t i = 0; i < o->nvalues; i++)
		for (const char *c = o->values[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				strbuf_adds(err, "invalid -L: a value cannot hold control "
					    "characters");
				return -1;
			}
	return 0;
}

/* LO..HI[..STEP], integers, STEP > 0: its values as strings. */
static int range_param_option(const struct option_def *opt, const char *arg,
			      struct strbuf *err)
{
	struct exec_options *o = opt->value;
	const char *rest = param_head(o, "-P", arg, err);
	_cleanup_strbuf_ struct strbuf list = STRBUF_INIT;
	long long lo, hi, step = 1;
	char tail;
	int got;
	size_t n;

	if (!rest)
		return -1;
	got = sscanf(rest, "%lld..%lld..%lld%c", &lo, &hi, &step, &tail);
	if (!(got == 3 || (got == 2 && !strstr(strstr(rest, "..") + 2, ".."))) ||
	    step <= 0 || hi < lo || strspn(rest, "-0123456789.") != strlen(rest)) {
		strbuf_addf(err, "invalid -P '%s': expected NAME=LO..HI[..STEP], "
			    "integers, LO <= HI, STEP > 0", arg);
		return -1;
	}
	if ((hi - lo) / step + 1 > EXEC_MAX_COMMANDS) {
		strbuf_addf(err, "-P '%s' gives %lld values: at most %d", arg,
			    (hi - lo) / step + 1, EXEC_MAX_COMMANDS);
		return -1;
	}
	n = (size_t)((hi - lo) / step + 1);
	/* As a comma list, so that -L and -P values are freed alike. */
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&list, "%s%lld", i ? "," : "", lo + (long long)i * step);
	o->values = split_list(list.buf, &o->nvalues);
	return 0;
}

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_exec_options(int argc, char **argv, struct exec_options *o,
			      struct measure *m)
{
	struct option_def options[] = {
		OPT_INT('n', "runs", "N", &o->runs, 1, 1000000,
			"timed runs of each command (default 10)"),
		OPT_INT('w', "warmup", "N", &o->warmup, 0, 1000000,
			"untimed runs of each command first (default 0)"),
		OPT_CALLBACK('p', "prepare", "CMD", o, prepare_option,
			     "run CMD with /bin/sh -c before every run, untimed\n"
			     "(once: for every command; or once per command)"),
		OPT_CALLBACK('c', "command", "'CMD ARGS'", o, command_option,
			     "a command to time, split into words as sh would\n"
			     "(repeat: the commands alternate and are compared)"),
		OPT_CALLBACK('L', "parameter-list", "NAME=V1,V2", o, list_param_option,
			     "one command per value, substituted for {NAME}"),
		OPT_CALLBACK('P', "parameter-scan", "NAME=LO..HI[..STEP]", o,
			     range_param_option,
			     "one command per integer from LO to HI, for {NAME}"),
		OPT_STRING(0, "labels", "LIST", &o->labels,
			   "labels of the commands' saved runs (default exec-ID-K)"),
		OPT_CHOICE(0, "order", "ORDER", &o->order, exec_orders,
			   "abba (default: A B B A ...), random (a seeded\n"
			   "shuffle of each repetition) or sequence (A B, A B:\n"
			   "for commands that must run in order, as offline\n"
			   "then online)"),
		OPT_INT(0, "seed", "N", &o->seed, 1, EXEC_SEED_MAX,
			"the seed of --order random (default: chosen, printed)"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 3 when a command is significantly worse,\n"
			   "better or either (change) than the first"),
		OPT_BOOL(0, "shell", &o->shell,
			 "run each command as one /bin/sh -c command line"),
		OPT_BOOL(0, "show-output", &o->show_output,
			 "leave the command's stdout and stderr alone"),
		OPT_BOOL('i', "ignore-failure", &o->ignore_failure,
			 "time runs that exit non-zero instead of stopping"),
		OPT_FORMAT(0, &m->format, exec_formats,
			   "table or json (default table)"),
		STORE_SAVE_OPTIONS(&m->store),
		OPT_END(),
	};
	int n;

	o->runs = 10;
	/* Options end at COMMAND, whose own options are its own. */
	n = parse_options(argc, argv, &exec_usage, options, OPTIONS_STOP_AT_ARG);
	if (n < 0)
		return n;
	if (n > 0 && o->nlines)
		return options_fail("give the command after -- or with -c, not both");
	if (n == 0 && !o->nlines)
		return options_fail("no command given (clockbench exec [<options>] -- "
				  "COMMAND [ARGS...], or -c 'COMMAND ARGS')");
	if (n > 0) {
		argv[n] = NULL;
		o->command = argv;
	}
	return 0;
}

/* ---- the commands --------------------------------------------------- */

/*
 * 0 when the command can be found as execvp() would find it; found here,
 * once, into c->program: no run walks PATH again.
 */
static int find_program(const struct exec_options *o, struct exec_command *c)
{
	int rc;

	if (o->shell) {
		snprintf(c->program, sizeof(c->program), "/bin/sh");
		return 0;
	}
	rc = exec_lookup(c->words[0], getenv("PATH"), c->program, sizeof(c->program));
	if (rc == -ENOENT)
		return options_fail("command not found: %s", c->words[0]);
	if (rc == -EACCES)
		return options_fail("command not executable: %s (permission denied)",
				  c->words[0]);
	return 0;
}

/* The first character of value that a shell reads as code or as a blank. */
static const char *shell_special(const char *value)
{
	for (const char *c = value; *c; c++)
		if (!((unsigned char)*c >= 0x80 || isalnum((unsigned char)*c) ||
		      strchr("_.,:/=+@%-", *c)))
			return c;
	return NULL;
}

/*
 * A shell line (--shell, --prepare) with {NAME} replaced by the value, as
 * it is. Quoting the value cannot keep it data: pasted inside the user's
 * own quotes ('{v}', "{v}"), a quoted $(cmd) came out unquoted and ran.
 * So only a value in which a shell sees a plain word is pasted: NULL, with
 * the character, when the line holds {NAME} and the value is not one.
 */
static char *substitute_line(const char *line, const struct exec_options *o,
			     const char *value, size_t *hits, const char **bad)
{
	char *text;

	*hits = 0;
	*bad = NULL;
	if (!value)
		return xstrdup(line);
	text = exec_substitute(line, o->param, value, hits);
	if (*hits && (*bad = shell_special(value))) {
		free(text);
		return NULL;
	}
	return text;
}

/* Why a value cannot go into a shell line (substitute_line()'s NULL). */
static int shell_value_refused(const char *value, const char *bad, const char *where)
{
	return options_fail("the value '%s' holds '%c', which a shell reads as code "
			    "or a blank: in %s a value is pasted into the line as it "
			    "is, so it may hold only letters, digits and _.,:/=+@%%-; "
			    "without --shell a value is one literal word, whatever it "
			    "holds", value, *bad, where);
}

/* The words of template t (argv, or NULL: line) with value substituted. */
static char **substitute_words(char *const *argv, const char *value,
			       const struct exec_options *o, size_t *hits)
{
	size_t n = exec_count_words(argv);
	char **w = xcalloc(n + 1, sizeof(char *));

	*hits = 0;
	for (size_t i = 0; i < n; i++) {
		size_t h = 0;

		w[i] = value ? exec_substitute(argv[i], o->param, value, &h) :
			       xstrdup(argv[i]);
		*hits += h;
	}
	return w;
}

/* Command c from template k (a -c line, or the argv after --) and value. */
static int make_command(struct exec_cmd *e, struct exec_command *c, size_t k,
			const char *value)
{
	const struct exec_options *o = &e->o;
	const char *line = o->command ? NULL : o->lines[k];
	size_t hits = 0;

	c->value = value;
	if (o->shell) {
		_cleanup_free_ char *joined = line ? NULL : exec_join_argv(o->command, false);

		const char *bad;

		c->text = substitute_line(line ? line : joined, o, value, &hits, &bad);
		if (!c->text)
			return shell_value_refused(value, bad, "--shell");
		c->shell_argv[0] = (char *)"/bin/sh";
		c->shell_argv[1] = (char *)"-c";
		c->shell_argv[2] = c->text;
		c->argv = c->shell_argv;
	} else {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		char **split = NULL;

		if (line && !(split = exec_split_words(line, &err)))
			return options_fail("cannot split -c '%s': %s (or use --shell)",
					    line, err.buf);
		c->words = substitute_words(line ? split : o->command, value, o, &hits);
		exec_free_words(split);
		c->text = exec_join_argv(c->words, true);
		c->argv = c->words;
		if (!*c->words[0])
			return options_fail("empty command");
	}
	if (value && !hits)
		return options_fail("no {%s} in the command '%s'", o->param,
				    line ? line : c->text);
	return find_program(o, c);
}

/* A --prepare of command i (from template k), {NAME} substituted: 0 or OPTIONS_ERROR. */
static int assign_prepare(struct exec_cmd *e, struct exec_command *c, size_t i,
			  size_t k)
{
	const struct exec_options *o = &e->o;
	const char *p, *bad;
	size_t hits;

	if (!o->nprepares)
		return 0;
	p = o->nprepares == 1 ? o->prepares[0] :
	    o->nprepares == e->ncmds ? o->prepares[i] : o->prepares[k];
	c->prepare = substitute_line(p, o, c->value, &hits, &bad);
	return c->prepare ? 0 : shell_value_refused(c->value, bad, "--prepare");
}

/* "exec-1a2b3c4d-2", or "exec-1a2b3c4d-n=4" with a parameter. */
static void default_label(const struct exec_cmd *e, struct exec_command *c, size_t i)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char part[sizeof(c->label)];

	if (c->value) {
		snprintf(part, sizeof(part), "%s=%s", e->o.param, c->value);
		if (store_invocation_label(c->label, sizeof(c->label), "exec",
					   e->interleave, part) &&
		    store_label_valid(c->label, &why))
			return;
	}
	snprintf(part, sizeof(part), "%zu", i + 1);
	store_invocation_label(c->label, sizeof(c->label), "exec", e->interleave, part);
}

/* The commands' labels: --labels, --label (one command) or the defaults. */
static int label_commands(struct exec_cmd *e)
{
	_cleanup_free_ char **labels = NULL;
	size_t n = 0;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (e->o.labels) {
		labels = split_list(e->o.labels, &n);
		if (n != e->ncmds)
			return options_fail("--labels names %zu commands, there are %zu",
					    n, e->ncmds);
	}
	for (size_t i = 0; i < e->ncmds; i++) {
		struct exec_command *c = &e->cmds[i];

		if (labels)
			snprintf(c->label, sizeof(c->label), "%s", labels[i]);
		else if (e->ncmds == 1)
			continue;	/* --label, or none, as ever */
		else
			default_label(e, c, i);
		if (!store_label_valid(c->label, &why))
			return options_fail("invalid label '%s' of command %zu: %s",
					    c->label, i + 1, why.buf);
		for (size_t j = 0; j < i; j++)
			if (streq(c->label, e->cmds[j].label))
				return options_fail("two commands are labelled '%s' "
						    "(name them with --labels)", c->label);
	}
	return 0;
}

/* Every template times every value: the commands, checked. 0 or OPTIONS_ERROR. */
static int make_commands(struct exec_cmd *e, bool label_given)
{
	const struct exec_options *o = &e->o;
	size_t ntemplates = o->command ? 1 : o->nlines;
	size_t nvalues = o->nvalues ? o->nvalues : 1;

	if (ntemplates * nvalues > EXEC_MAX_COMMANDS)
		return options_fail("%zu commands: at most %d", ntemplates * nvalues,
				    EXEC_MAX_COMMANDS);
	e->ncmds = ntemplates * nvalues;
	e->cmds = xcalloc(e->ncmds, sizeof(*e->cmds));
	if (o->nprepares > 1 && o->nprepares != e->ncmds && o->nprepares != ntemplates)
		return options_fail("%zu --prepare commands for %zu commands: give "
				    "one, or one per command", o->nprepares, e->ncmds);
	if (e->ncmds > 1 && label_given)
		return options_fail("--label names one run; name several commands' "
				    "runs with --labels");
	if (e->ncmds == 1 && o->fail_on != GATE_NONE)
		return options_fail("--fail-on compares several commands: give -c "
				    "twice, -L or -P");
	if (e->ncmds > 1 && o->runs < 2)
		return options_fail("-n %ld: several commands are compared over 2 runs "
				    "each at least", o->runs);
	if (e->ncmds > 1 && o->runs > EXEC_MAX_PAIRED_RUNS)
		return options_fail("-n %ld: at most %d runs of each of several commands",
				    o->runs, EXEC_MAX_PAIRED_RUNS);
	for (size_t k = 0, i = 0; k < ntemplates; k++)
		for (size_t v = 0; v < nvalues; v++, i++) {
			struct exec_command *c = &e->cmds[i];

			if (make_command(e, c, k, o->nvalues ? o->values[v] : NULL) ||
			    assign_prepare(e, c, i, k))
				return OPTIONS_ERROR;
		}
	return label_commands(e);
}

static void free_commands(struct exec_cmd *e)
{
	for (size_t i = 0; i < e->ncmds; i++) {
		struct exec_command *c = &e->cmds[i];

		free(c->text);
		exec_free_words(c->words);
		free(c->prepare);
		free(c->s.wall);
		free(c->s.user);
		free(c->s.sys);
		free(c->reps);
		free(c->after);
	}
	free(e->cmds);
	free(e->o.prepares);
	free(e->o.lines);
	free((char *)e->o.param);
	free(e->o.values);
}

/* The figures' arrays, for o->runs timed runs. */
static void alloc_samples(struct exec_cmd *e)
{
	size_t n = (size_t)e->o.runs;

	for (size_t i = 0; i < e->ncmds; i++) {
		struct exec_command *c = &e->cmds[i];

		c->s.wall = xcalloc(n, sizeof(double));
		c->s.user = xcalloc(n, sizeof(double));
		c->s.sys = xcalloc(n, sizeof(double));
		c->reps = xcalloc(n, sizeof(*c->reps));
		c->after = xcalloc(n, sizeof(*c->after));
	}
}

/* ---- running -------------------------------------------------------- */

static int run_prepare(const char *prepare, const struct exec_io *io)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)prepare, NULL };
	struct exec_result r;
	char how[128];

	if (exec_run("/bin/sh", argv, io, measure_stop_flag(), &r) != 0) {
		error_msg("cannot run the --prepare command: %m");
		return -1;
	}
	if (measure_stopped())
		return -1;
	if (r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		exec_describe_status(r.status, how, sizeof(how));
		error_msg("the --prepare command '%s' %s", prepare, how);
		return -1;
	}
	return 0;
}

/* Run number run (-k: warm-up run k) of c: 0, or -1 with the error printed. */
static int run_command(const struct exec_cmd *e, const struct exec_command *c,
		       long run, struct exec_result *r)
{
	const struct exec_options *o = &e->o;
	char how[128], which[160] = "";

	if (e->ncmds > 1)
		snprintf(which, sizeof(which), " (%s)", c->label);
	if (c->prepare && run_prepare(c->prepare, &e->io) != 0)
		return -1;
	if (exec_run(c->program, c->argv, &e->io, measure_stop_flag(), r) != 0) {
		error_msg("cannot run %s: %m", c->argv[0]);
		return -1;
	}
	if (measure_stopped())
		return -1;
	if (r->exec_errno) {
		error_msg("cannot execute %s: %s%s", c->program, strerror(r->exec_errno),
			  r->exec_errno == ENOEXEC ? " (a script needs a #! line, or "
			  "use --shell)" : "");
		return -1;
	}
	if ((!WIFEXITED(r->status) || WEXITSTATUS(r->status)) && !o->ignore_failure) {
		exec_describe_status(r->status, how, sizeof(how));
		error_msg("the command%s %s in %srun %ld; use --ignore-failure to "
			  "time it anyway", which, how, run < 0 ? "warm-up " : "",
			  run < 0 ? -run : run);
		return -1;
	}
	return 0;
}

static size_t harness_runs(const struct exec_options *o)
{
	size_t k = (size_t)o->runs;

	return k < HARNESS_RUNS_MIN ? HARNESS_RUNS_MIN :
	       k > HARNESS_RUNS_MAX ? HARNESS_RUNS_MAX : k;
}

/*
 * The empty program k times, started, fed and reaped as the command is.
 * When it does not run cleanly, a warning and no harness figure: the
 * command's runs do not depend on it.
 */
static void run_harness(const struct exec_io *io, struct exec_harness *h, size_t k)
{
	char *argv[] = { h->program, NULL };
	struct exec_result r;

	for (size_t i = 0; i < k && !measure_stopped(); i++) {
		if (exec_run(h->program, argv, io, measure_stop_flag(), &r) != 0 ||
		    r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
			warn_msg("the empty program %s did not run cleanly: no figure "
				 "for the harness", h->program);
			h->n = 0;
			return;
		}
		h->wall[h->n++] = r.wall_s;
	}
}

/* A timed run's figures and what disturbed it, from the machine around it. */
static void keep_run(struct exec_command *c, const struct exec_result *r,
		     const struct exec_machine *before, const struct exec_machine *after)
{
	struct exec_samples *s = &c->s;

	s->wall[s->n] = r->wall_s;
	s->user[s->n] = r->user_s;
	s->sys[s->n] = r->sys_s;
	exec_disturb_fill(&c->reps[s->n], r, before, after);
	s->n++;
}

/* Repetition k of every command, in the order's sequence; 0 or -1. */
static int run_repetition(struct exec_cmd *e, long k, struct progress *prog)
{
	const struct exec_options *o = &e->o;
	bool warm = k < o->warmup;
	long run = warm ? -(k + 1) : k - o->warmup + 1;
	struct exec_machine before, end;
	struct exec_result r;
	char what[192];

	for (size_t j = 0; j < e->ncmds && !measure_stopped(); j++) {
		size_t i = o->order == ORDER_SEQUENCE ? j :
			   balanced_order_at(e->ncmds, (unsigned)k, j, e->seed);
		struct exec_command *c = &e->cmds[i];
		size_t after = e->last;

		snprintf(what, sizeof(what), "%s %ld%s%s", warm ? "warm-up" : "run",
			 warm ? -run : run, e->ncmds > 1 ? ", " : "",
			 e->ncmds > 1 ? c->label : "");
		progress_update(prog, (size_t)k * e->ncmds + j, what);
		if (!warm)
			exec_machine_take(&before);
		if (run_command(e, c, run, &r) != 0)
			return -1;
		e->last = i;
		if (warm)
			continue;
		c->after[c->s.n] = after;
		exec_machine_take(&end);
		keep_run(c, &r, &before, &end);
	}
	return 0;
}

/* Warm-up runs, the harness's runs, then the timed runs, alternated. */
static int run_all(struct exec_cmd *e)
{
	const struct exec_options *o = &e->o;
	struct progress prog;
	int rc = 0;

	progress_init(&prog, (size_t)(o->warmup + o->runs) * e->ncmds);
	for (long k = 0; k < o->warmup + o->runs && !measure_stopped(); k++) {
		if (k == o->warmup)
			run_harness(&e->io, &e->harness, harness_runs(o));
		if (run_repetition(e, k, &prog) != 0) {
			rc = measure_stopped() ? 0 : -1;
			break;
		}
		if (k >= o->warmup && !measure_stopped())
			e->done++;
	}
	progress_done(&prog);
	return rc;
}

/* ---- disturbance ------------------------------------------------------ */

/* Every timed run of every command, in one array (malloc'd), for medians. */
static struct exec_disturb *all_runs(const struct exec_cmd *e, size_t *n)
{
	struct exec_disturb *all;

	*n = 0;
	for (size_t i = 0; i < e->ncmds; i++)
		*n += e->cmds[i].s.n;
	all = xcalloc(*n ? *n : 1, sizeof(*all));
	for (size_t i = 0, at = 0; i < e->ncmds; at += e->cmds[i].s.n, i++)
		memcpy(all + at, e->cmds[i].reps, e->cmds[i].s.n * sizeof(*all));
	return all;
}

/* The medians over every run of the invocation, whatever the command. */
static void disturbance_medians(const struct exec_cmd *e,
				struct exec_disturb_medians *d)
{
	size_t n;
	_cleanup_free_ struct exec_disturb *all = all_runs(e, &n);

	exec_disturb_medians(all, n, d);
}

/* Runs far beyond the invocation's others marked, in every command. */
static void mark_disturbed(struct exec_cmd *e)
{
	struct exec_disturb_medians d;

	disturbance_medians(e, &d);
	for (size_t i = 0; i < e->ncmds; i++)
		exec_mark_disturbed(e->cmds[i].reps, e->cmds[i].s.n, &d);
}

/* ---- reporting ------------------------------------------------------ */

static void summarize(const double *x, size_t n, struct summary *s)
{
	_cleanup_free_ double *copy = xmalloc((n ? n : 1) * sizeof(double));

	if (n)
		memcpy(copy, x, n * sizeof(double));
	stats_summarize(copy, n, s);
}

/* The harness's median wall time, NAN when it was not measured. */
static double harness_median(const struct exec_harness *h)
{
	struct summary s;

	if (!h->n)
		return NAN;
	summarize(h->wall, h->n, &s);
	return s.median;
}

static json_t *config_json(const struct exec_cmd *e, const struct exec_command *c)
{
	const struct exec_options *o = &e->o;
	json_t *argv = json_array(), *cfg;

	/* The words as given: after --, or split from -c (--shell: the line). */
	for (char **a = c->words ? c->words : o->command; a && *a; a++)
		json_array_append_new(argv, json_string(*a));
	if (!c->words && !o->command)
		json_array_append_new(argv, json_string(c->text));
	cfg = json_pack("{s:o, s:s, s:b, s:s?, s:I, s:I, s:b, s:b}",
			"command", argv, "command_line", c->text,
			"shell", o->shell, "prepare", c->prepare,
			"runs", (json_int_t)o->runs, "warmup", (json_int_t)o->warmup,
			"ignore_failure", o->ignore_failure,
			"show_output", o->show_output);
	json_object_set_new(cfg, "program", json_string(c->program));
	json_object_set_new(cfg, "harness_wall_median_s",
			    json_number(harness_median(&e->harness)));
	json_object_set_new(cfg, "cpu_accounting", cpu_accounting_to_json(&e->acct));
	if (e->ncmds > 1) {
		json_t *labels = json_array();

		for (size_t i = 0; i < e->ncmds; i++)
			json_array_append_new(labels, json_string(e->cmds[i].label));
		json_object_set_new(cfg, "interleave", json_string(e->interleave));
		json_object_set_new(cfg, "commands", labels);
		json_object_set_new(cfg, "order", json_string(o->order == ORDER_RANDOM ?
					"random" : o->order == ORDER_SEQUENCE ?
					"sequence" : "A B B A ..."));
		if (o->order == ORDER_RANDOM)
			json_object_set_new(cfg, "seed", json_integer((json_int_t)e->seed));
	}
	if (c->value) {
		json_object_set_new(cfg, "parameter", json_string(o->param));
		json_object_set_new(cfg, "value", json_string(c->value));
	}
	return cfg;
}

/* The invocation as report/exec-report.c prints it. */
static void describe_disturbance(const struct exec_cmd *e,
				 struct exec_report_disturbance *out)
{
	struct exec_disturb_medians d;

	disturbance_medians(e, &d);
	*out = (struct exec_report_disturbance){
		.involuntary = d.involuntary, .wait_ms = d.wait_ms,
		.runnable = d.runnable, .steal_ms = d.steal_ms, .runs = d.runs,
	};
	for (size_t i = 0; i < e->ncmds; i++)
		for (size_t k = 0; k < e->cmds[i].s.n; k++) {
			const struct exec_disturb *r = &e->cmds[i].reps[k];

			if (!r->disturbed)
				continue;
			out->marked++;
			if (out->nnamed == EXEC_REPORT_NAMED)
				continue;
			out->named[out->nnamed++] = (struct exec_report_disturbed){
				.run = k + 1,
				.label = e->ncmds > 1 ? e->cmds[i].label : NULL,
				.involuntary = r->involuntary, .runnable = r->runnable,
				.wait_ms = r->wait_ms, .steal_ms = r->steal_ms,
			};
		}
}

/* cmds: e->ncmds of them; with json, their config and disturbance built. */
static void describe_exec(const struct measure *m, bool json, struct exec_report *r,
			  struct exec_report_command *cmds)
{
	const struct exec_cmd *e = m->ctx;
	const struct exec_options *o = &e->o;

	for (size_t i = 0; i < e->ncmds; i++) {
		const struct exec_command *c = &e->cmds[i];

		cmds[i] = (struct exec_report_command){
			.label = c->label, .text = c->text, .program = c->program,
			.prepare = c->prepare != NULL, .value = c->value,
			.wall = c->s.wall, .user = c->s.user, .sys = c->s.sys,
			.n = c->s.n, .outliers = exec_outliers(c->s.wall, c->s.n),
			.config = json ? config_json(e, c) : NULL,
			.disturbance = json ? exec_disturb_json(c->reps, c->s.n) : NULL,
		};
	}
	*r = (struct exec_report){
		.cmds = cmds, .ncmds = e->ncmds, .done = e->done,
		.runs = o->runs, .warmup = o->warmup, .shell = o->shell,
		.show_output = o->show_output, .random = o->order == ORDER_RANDOM,
		.sequence = o->order == ORDER_SEQUENCE,
		.seed = (unsigned long long)e->seed, .param = o->param,
		.interrupted = m->stop_signal != 0,
		.harness_program = e->harness.program, .harness_what = e->harness.what,
		.harness_wall = e->harness.wall, .harness_n = e->harness.n,
		.acct = &e->acct,
	};
	describe_disturbance(e, &r->disturbance);
}

static void release_commands(struct exec_report_command *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_decref(cmds[i].config);
		json_decref(cmds[i].disturbance);
	}
	free(cmds);
}

/*
 * The unit a warning's times read in, as the table above it: chosen by
 * the smallest of them (a median of 7.8 ms, not "0.00782 s").
 */
static double warning_unit(double smallest, const char **unit)
{
	double scale;

	*unit = figure_seconds_unit(smallest, &scale);
	return scale;
}

/* The warnings hyperfine users know: outliers and a slow first run. */
static void warn_noise(const struct exec_cmd *e, const struct exec_command *c)
{
	const struct exec_samples *s = &c->s;
	size_t outliers = exec_outliers(s->wall, s->n);
	char which[160] = "";
	struct summary rest;
	const char *unit;
	double scale;

	if (e->ncmds > 1)
		snprintf(which, sizeof(which), "%s: ", c->label);
	if (outliers)
		warn_msg("%s%zu of %zu wall times are statistical outliers (more than "
			 "%.1f MAD from the median): the machine was not quiet. "
			 "Consider more runs, --warmup or --prepare.", which, outliers,
			 s->n, EXEC_OUTLIER_MADS);
	if (e->o.warmup || s->n < 3)
		return;
	summarize(s->wall + 1, s->n - 1, &rest);
	if (!(s->wall[0] > 2 * rest.median && s->wall[0] > rest.max))
		return;
	scale = warning_unit(rest.median, &unit);
	/* Cold caches, unless the run's own record shows another cause. */
	if (c->reps[0].disturbed)
		warn_msg("%sthe first run took %.3g %s, far more than the others "
			 "(median %.3g %s), disturbed: %ld involuntary switches, "
			 "%.0f ms waiting for a CPU", which, s->wall[0] * scale, unit,
			 rest.median * scale, unit, c->reps[0].involuntary,
			 isfinite(c->reps[0].wait_ms) ? c->reps[0].wait_ms : 0);
	else
		warn_msg("%sthe first run took %.3g %s, far more than the others "
			 "(median %.3g %s): caches were probably cold; consider "
			 "--warmup", which, s->wall[0] * scale, unit, rest.median * scale,
			 unit);
}

/*
 * A command's wall times in two groups far apart (seed 003's offline,
 * alternated with online: 36, 3.5, 27, 4.3 ms): the low and high group,
 * each a fifth of the runs or 2 at least, the gap between them at least
 * twice either group's own span. The split's index into sorted, or 0.
 */
static size_t two_groups_split(const double *sorted, size_t n)
{
	size_t least = n / 5 > 2 ? n / 5 : 2, best = 0;
	double widest = 0;

	for (size_t i = least; i + least <= n; i++) {
		double gap = sorted[i] / sorted[i - 1];

		if (sorted[i - 1] > 0 && gap > widest) {
			widest = gap;
			best = i;
		}
	}
	if (!best || widest < 2 || sorted[0] <= 0 ||
	    widest * widest < (sorted[best - 1] / sorted[0]) * (sorted[n - 1] / sorted[best]))
		return 0;
	return best;
}

static void warn_two_groups(const struct exec_cmd *e, const struct exec_command *c)
{
	const struct exec_samples *s = &c->s;
	_cleanup_free_ double *sorted = NULL;
	const char *unit;
	double scale;
	size_t k;

	if (s->n < 6)
		return;
	sorted = xmalloc(s->n * sizeof(*sorted));
	memcpy(sorted, s->wall, s->n * sizeof(*sorted));
	stats_sort(sorted, s->n);
	k = two_groups_split(sorted, s->n);
	if (!k)
		return;
	scale = warning_unit(sorted[0], &unit);
	warn_msg("%s%sthe wall times fall into two groups, %zu from %.3g to %.3g %s "
		 "and %zu from %.3g to %.3g %s: one summary of them describes neither. "
		 "A run that undoes or repeats a state change (CPU offline, then "
		 "offline again) is a different operation: run such commands in "
		 "order (--order sequence) or restore the state before each "
		 "(--prepare)", e->ncmds > 1 ? c->label : "", e->ncmds > 1 ? ": " : "",
		 k, sorted[0] * scale, sorted[k - 1] * scale, unit, s->n - k,
		 sorted[k] * scale, sorted[s->n - 1] * scale, unit);
}

/* Which command ran just before each of c's runs, when that decides its time. */
static void warn_order(const struct exec_cmd *e, const struct exec_command *c)
{
	const struct exec_samples *s = &c->s;
	_cleanup_free_ double *x = xmalloc((s->n ? s->n : 1) * sizeof(double));
	_cleanup_free_ double *y = xmalloc((s->n ? s->n : 1) * sizeof(double));
	size_t self = (size_t)(c - e->cmds), nx = 0, ny = 0;
	struct mwu_result mwu;
	struct summary sx, sy;

	/* After itself against after another: A B B A alternates the two. */
	for (size_t i = 0; i < s->n; i++) {
		if (c->after[i] == AFTER_NONE)
			continue;
		if (c->after[i] == self)
			x[nx++] = s->wall[i];
		else
			y[ny++] = s->wall[i];
	}
	if (c->prepare || nx < 3 || ny < 3) {
		warn_two_groups(e, c);
		return;
	}
	stats_mann_whitney(x, nx, y, ny, &mwu);
	summarize(x, nx, &sx);
	summarize(y, ny, &sy);
	if (mwu.p < 0.01 && fmax(sx.median, sy.median) >= 2 * fmin(sx.median, sy.median)) {
		const char *unit;
		double scale = warning_unit(fmin(sx.median, sy.median), &unit);

		warn_msg("%s: its runs depend on the order: %zu after itself take %.3g %s "
			 "(median), %zu after another command %.3g %s: one command may "
			 "undo or repeat what the other did (a CPU offlined twice is "
			 "offline already); run them in order (--order sequence) or "
			 "restore the state before each (--prepare)", c->label, nx,
			 sx.median * scale, unit, ny, sy.median * scale, unit);
		return;
	}
	warn_two_groups(e, c);
}

/* Each run's round: its repetition, so that compare pairs them again. */
static void add_rounds(struct stored_cell *sc, size_t n)
{
	sc->rounds = xcalloc(n ? n : 1, sizeof(uint32_t));
	for (size_t k = 0; k < n; k++)
		sc->rounds[k] = (uint32_t)k;
	sc->nrounds = (uint32_t)n;
}

static bool exec_record(struct measure *m, size_t k, struct stored_run *run)
{
	struct exec_cmd *e = m->ctx;
	const struct exec_command *c;
	const char *cells[] = { "wall", "user", "sys" };
	size_t n;

	if (k >= e->ncmds)
		return false;
	c = &e->cmds[k];
	/* Several commands: complete repetitions only, so that runs pair. */
	n = e->ncmds > 1 ? e->done : c->s.n;
	const double *x[] = { c->s.wall, c->s.user, c->s.sys };

	if (c->label[0]) {
		free(run->label);
		run->label = xstrdup(c->label);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++) {
		struct stored_cell *sc = record_add_cell(run, cells[i], "s", x[i], n);

		if (e->ncmds > 1)
			add_rounds(sc, n);
	}
	run->config = config_json(e, c);
	run->quality = exec_disturb_json(c->reps, n);
	return true;
}

/* ---- the comparison ---------------------------------------------------- */

/* The comparison of the commands' saved runs, paired; 0 or -1. */
static int build_comparison(struct measure *m, struct compare_group *groups,
			    struct compare_result *cr)
{
	struct exec_cmd *e = m->ctx;
	struct compare_options copts;
	struct compare_session session;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (e->done < 2) {
		error_msg("stopped after %zu repetition%s: too few to compare",
			  e->done, e->done == 1 ? "" : "s");
		return -1;
	}
	for (size_t i = 0; i < e->ncmds; i++)
		groups[i] = (struct compare_group){
			.spec = e->cmds[i].label, .runs = &m->runs[i], .nruns = 1,
		};
	compare_options_default(&copts);
	copts.paired = true;
	/* Interleaved repetitions carry their own noise: no history to read. */
	compare_session_adopt(&session, groups, e->ncmds, &copts, NULL, 0);
	rc = compare_session_build(&session, cr, &err);
	compare_session_close(&session);
	if (rc != 0) {
		error_msg("cannot compare the commands: %s", err.buf);
		return -1;
	}
	return 0;
}

static int print_several(struct measure *m, FILE *f)
{
	struct exec_cmd *e = m->ctx;
	_cleanup_free_ struct compare_group *groups = xcalloc(e->ncmds, sizeof(*groups));
	struct exec_report_command *cmds = xcalloc(e->ncmds, sizeof(*cmds));
	struct compare_result cr;
	struct exec_report r;
	int rc = 0;

	if (m->nruns < e->ncmds) {
		error_msg("the commands' runs were not recorded");
		free(cmds);
		return -1;
	}
	if (build_comparison(m, groups, &cr) != 0) {
		free(cmds);
		return -1;
	}
	describe_exec(m, m->format == FORMAT_JSON, &r, cmds);
	if (m->format == FORMAT_JSON) {
		exec_report_json_print(f, &r, &cr);
	} else {
		exec_report_print_commands(f, &r, m->runs);
		fputc('\n', f);
		fflush(f);
		/*
		 * The table above shows each command's own figures: under it,
		 * the changes alone, so that a command has one figure (the
		 * paired estimate would be a second one for it).
		 */
		rc = compare_print(f, &cr, STYLE_CHANGES, FORMAT_TABLE);
	}
	release_commands(cmds, e->ncmds);
	fflush(f);
	for (size_t i = 0; i < e->ncmds; i++) {
		warn_noise(e, &e->cmds[i]);
		warn_order(e, &e->cmds[i]);
	}
	if (compare_print_gate(stderr, &cr, (enum compare_gate)e->o.fail_on))
		m->status = EXIT_PROBLEM;
	compare_free(&cr);
	return rc;
}

/* ---- the command ---------------------------------------------------- */

/* The invocation's id, and the shuffle's seed when none was given. */
static void choose_seed(struct exec_cmd *e)
{
	uint64_t s = 0;

	store_new_uuid(e->interleave);
	if (e->o.order != ORDER_RANDOM)
		return;
	if (e->o.seed > 0) {
		e->seed = (uint64_t)e->o.seed;
		return;
	}
	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = now_ns();
	/* Printed, and given back to --seed: 1 to EXEC_SEED_MAX. */
	e->seed = s % (uint64_t)EXEC_SEED_MAX + 1;
}

static int exec_measure(struct measure *m)
{
	struct exec_cmd *e = m->ctx;
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	cpu_accounting_probe(&e->acct);
	if (run_all(e) != 0)
		return -1;
	if (e->cmds[0].s.n == 0 && measure_stopped()) {
		error_msg("stopped before the first timed run");
		return -1;
	}
	mark_disturbed(e);
	env_collect(&m->env, vdso_self(&img, &err) == 0 ? &img : NULL, err.buf, -1);
	m->have_env = true;
	return 0;
}

static int exec_print(struct measure *m, FILE *f)
{
	struct exec_cmd *e = m->ctx;

	struct exec_report_command *cmds;
	struct exec_report r;

	if (e->ncmds > 1)
		return print_several(m, f);
	cmds = xcalloc(1, sizeof(*cmds));
	describe_exec(m, m->format == FORMAT_JSON, &r, cmds);
	if (m->format == FORMAT_JSON)
		exec_report_json_print(f, &r, NULL);
	else
		exec_report_print_command(f, &r, &m->runs[0]);
	release_commands(cmds, 1);
	fflush(f);
	warn_noise(e, &e->cmds[0]);
	warn_two_groups(e, &e->cmds[0]);
	return 0;
}

static const struct measure_ops exec_ops = {
	.command = "exec",
	.measure = exec_measure,
	.print = exec_print,
	.record = exec_record,
};

int cmd_exec(int argc, char **argv)
{
	struct exec_cmd e = { .last = AFTER_NONE };
	struct measure m = { .ops = &exec_ops, .ctx = &e };
	int rc = parse_exec_options(argc, argv, &e.o, &m);

	/* The programs are the guest's to find: its files are not the host's. */
	if (rc == 0 && options_checking())
		return 0;
	if (rc == 0) {
		choose_seed(&e);
		rc = make_commands(&e, m.store.label != NULL);
	}
	if (rc < 0) {
		free_commands(&e);
		return parse_options_status(rc);
	}
	e.io.show_output = e.o.show_output;
	e.io.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (e.io.devnull < 0) {
		error_msg("cannot open /dev/null: %m");
		free_commands(&e);
		return 1;
	}
	alloc_samples(&e);
	e.harness.wall = xcalloc(HARNESS_RUNS_MAX, sizeof(double));
	e.harness.what = exec_empty_program(e.harness.program, sizeof(e.harness.program));

	rc = measure_run(&m);

	close(e.io.devnull);
	free(e.harness.wall);
	free_commands(&e);
	return rc;
}
