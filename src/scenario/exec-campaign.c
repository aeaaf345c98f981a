// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/exec-campaign.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/order.h"
#include "basic/progress.h"
#include "basic/util.h"
#include "results/compare.h"

/* ---- the parameter (-L, -P) ----------------------------------------- */

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

int exec_parameter_list(struct exec_options *o, const char *arg, struct strbuf *err)
{
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

int exec_parameter_scan(struct exec_options *o, const char *arg, struct strbuf *err)
{
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

/* ---- the commands --------------------------------------------------- */

/*
 * 0 when the command can be found as execvp() would find it; found here,
 * once, into c->program: no run walks PATH again.
 */
static int find_program(const struct exec_options *o, struct exec_command *c,
			struct strbuf *err)
{
	int rc;

	if (o->shell) {
		snprintf(c->program, sizeof(c->program), "/bin/sh");
		return 0;
	}
	rc = exec_lookup(c->words[0], getenv("PATH"), c->program, sizeof(c->program));
	if (rc == -ENOENT) {
		strbuf_addf(err, "command not found: %s", c->words[0]);
		return -1;
	}
	if (rc == -EACCES) {
		strbuf_addf(err, "command not executable: %s (permission denied)",
			    c->words[0]);
		return -1;
	}
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

/* Why a value cannot go into a shell line (substitute_line()'s NULL): -1. */
static int shell_value_refused(const char *value, const char *bad, const char *where,
			       struct strbuf *err)
{
	strbuf_addf(err, "the value '%s' holds '%c', which a shell reads as code "
		    "or a blank: in %s a value is pasted into the line as it "
		    "is, so it may hold only letters, digits and _.,:/=+@%%-; "
		    "without --shell a value is one literal word, whatever it "
		    "holds", value, *bad, where);
	return -1;
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

/* --shell: c runs as /bin/sh -c LINE, value substituted into the line. */
static int make_shell_command(const struct exec_options *o, struct exec_command *c,
			      const char *line, size_t *hits, struct strbuf *err)
{
	_cleanup_free_ char *joined = line ? NULL : exec_join_argv(o->command, false);
	const char *bad;

	c->text = substitute_line(line ? line : joined, o, c->value, hits, &bad);
	if (!c->text)
		return shell_value_refused(c->value, bad, "--shell", err);
	c->shell_argv[0] = (char *)"/bin/sh";
	c->shell_argv[1] = (char *)"-c";
	c->shell_argv[2] = c->text;
	c->argv = c->shell_argv;
	return 0;
}

/* Command c from template k (a -c line, or the argv after --) and value. */
static int make_command(struct exec_campaign *e, struct exec_command *c, size_t k,
			const char *value, struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	const char *line = o->command ? NULL : o->lines.line[k];
	size_t hits = 0;

	c->value = value;
	if (o->shell) {
		if (make_shell_command(o, c, line, &hits, err) != 0)
			return -1;
	} else {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		char **split = NULL;

		if (line && !(split = exec_split_words(line, &why))) {
			strbuf_addf(err, "cannot split -c '%s': %s (or use --shell)",
				    line, why.buf);
			return -1;
		}
		c->words = substitute_words(line ? split : o->command, value, o, &hits);
		exec_free_words(split);
		c->text = exec_join_argv(c->words, true);
		c->argv = c->words;
		if (!*c->words[0]) {
			strbuf_adds(err, "empty command");
			return -1;
		}
	}
	if (value && !hits) {
		strbuf_addf(err, "no {%s} in the command '%s'", o->param,
			    line ? line : c->text);
		return -1;
	}
	return find_program(o, c, err);
}

/* A --prepare of command i (from template k), {NAME} substituted: 0 or -1. */
static int assign_prepare(struct exec_campaign *e, struct exec_command *c, size_t i,
			  size_t k, struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	const char *p, *bad;
	size_t hits;

	if (!o->prepares.n)
		return 0;
	p = o->prepares.n == 1 ? o->prepares.line[0] :
	    o->prepares.n == e->ncmds ? o->prepares.line[i] : o->prepares.line[k];
	c->prepare = substitute_line(p, o, c->value, &hits, &bad);
	return c->prepare ? 0 : shell_value_refused(c->value, bad, "--prepare", err);
}

/* "exec-1a2b3c4d-2", or "exec-1a2b3c4d-n=4" with a parameter. */
static void default_label(const struct exec_campaign *e, struct exec_command *c,
			  size_t i)
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
static int label_commands(struct exec_campaign *e, struct strbuf *err)
{
	_cleanup_free_ char **labels = NULL;
	size_t n = 0;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (e->o.labels) {
		labels = split_list(e->o.labels, &n);
		if (n != e->ncmds) {
			strbuf_addf(err, "--labels names %zu commands, there are %zu",
				    n, e->ncmds);
			return -1;
		}
	}
	for (size_t i = 0; i < e->ncmds; i++) {
		struct exec_command *c = &e->cmds[i];

		if (labels)
			snprintf(c->label, sizeof(c->label), "%s", labels[i]);
		else if (e->ncmds == 1)
			continue;	/* --label, or none, as ever */
		else
			default_label(e, c, i);
		if (!store_label_valid(c->label, &why)) {
			strbuf_addf(err, "invalid label '%s' of command %zu: %s",
				    c->label, i + 1, why.buf);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (streq(c->label, e->cmds[j].label)) {
				strbuf_addf(err, "two commands are labelled '%s' "
					    "(name them with --labels)", c->label);
				return -1;
			}
	}
	return 0;
}

/* What the options ask of e->ncmds commands of ntemplates that they cannot. */
static int check_commands(const struct exec_campaign *e, size_t ntemplates,
			  bool label_given, struct strbuf *err)
{
	const struct exec_options *o = &e->o;

	if (o->prepares.n > 1 && o->prepares.n != e->ncmds && o->prepares.n != ntemplates)
		strbuf_addf(err, "%zu --prepare commands for %zu commands: give "
			    "one, or one per command", o->prepares.n, e->ncmds);
	else if (e->ncmds > 1 && label_given)
		strbuf_adds(err, "--label names one run; name several commands' "
			    "runs with --labels");
	else if (e->ncmds == 1 && o->fail_on != GATE_NONE)
		strbuf_adds(err, "--fail-on compares several commands: give -c "
			    "twice, -L or -P");
	else if (e->ncmds > 1 && o->runs < 2)
		strbuf_addf(err, "-n %ld: several commands are compared over 2 runs "
			    "each at least", o->runs);
	else if (e->ncmds > 1 && o->runs > EXEC_MAX_PAIRED_RUNS)
		strbuf_addf(err, "-n %ld: at most %d runs of each of several commands",
			    o->runs, EXEC_MAX_PAIRED_RUNS);
	else
		return 0;
	return -1;
}

/* Every template times every value: the commands, checked. 0 or -1. */
static int make_commands(struct exec_campaign *e, bool label_given, struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	size_t ntemplates = o->command ? 1 : o->lines.n;
	size_t nvalues = o->nvalues ? o->nvalues : 1;

	if (ntemplates * nvalues > EXEC_MAX_COMMANDS) {
		strbuf_addf(err, "%zu commands: at most %d", ntemplates * nvalues,
			    EXEC_MAX_COMMANDS);
		return -1;
	}
	e->ncmds = ntemplates * nvalues;
	e->cmds = xcalloc(e->ncmds, sizeof(*e->cmds));
	if (check_commands(e, ntemplates, label_given, err) != 0)
		return -1;
	for (size_t k = 0, i = 0; k < ntemplates; k++)
		for (size_t v = 0; v < nvalues; v++, i++) {
			struct exec_command *c = &e->cmds[i];

			if (make_command(e, c, k, o->nvalues ? o->values[v] : NULL, err) ||
			    assign_prepare(e, c, i, k, err))
				return -1;
		}
	return label_commands(e, err);
}

/* The invocation's id, and the shuffle's seed when none was given. */
static void choose_seed(struct exec_campaign *e)
{
	uint64_t s = 0;

	store_new_uuid(e->interleave);
	if (e->o.order != EXEC_ORDER_RANDOM)
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

int exec_campaign_make(struct exec_campaign *e, bool label_given, struct strbuf *err)
{
	choose_seed(e);
	return make_commands(e, label_given, err);
}

/* The figures' arrays, for o->runs timed runs. */
static void alloc_samples(struct exec_campaign *e)
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

int exec_campaign_start(struct exec_campaign *e, struct strbuf *err)
{
	e->io.show_output = e->o.show_output;
	e->io.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (e->io.devnull < 0) {
		strbuf_addf(err, "cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	alloc_samples(e);
	e->harness.wall = xcalloc(EXEC_HARNESS_RUNS_MAX, sizeof(double));
	e->harness.what = exec_empty_program(e->harness.program, sizeof(e->harness.program));
	return 0;
}

void exec_campaign_free(struct exec_campaign *e)
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
	free(e->o.prepares.line);
	free(e->o.lines.line);
	free((char *)e->o.param);
	free(e->o.values);
	free(e->harness.wall);
	if (e->io.devnull >= 0)
		close(e->io.devnull);
}

/* ---- running -------------------------------------------------------- */

static bool stopped(const struct exec_campaign *e)
{
	return *e->stop != 0;
}

static int run_prepare(const struct exec_campaign *e, const char *prepare,
		       struct strbuf *err)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)prepare, NULL };
	struct exec_result r;
	char how[128];

	if (exec_run("/bin/sh", argv, &e->io, e->stop, &r) != 0) {
		strbuf_addf(err, "cannot run the --prepare command: %s", strerror(errno));
		return -1;
	}
	if (stopped(e))
		return -1;
	if (r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		exec_describe_status(r.status, how, sizeof(how));
		strbuf_addf(err, "the --prepare command '%s' %s", prepare, how);
		return -1;
	}
	return 0;
}

/* Run number run (-k: warm-up run k) of c: 0, or -1 with err. */
static int run_command(const struct exec_campaign *e, const struct exec_command *c,
		       long run, struct exec_result *r, struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	char how[128], which[160] = "";

	if (e->ncmds > 1)
		snprintf(which, sizeof(which), " (%s)", c->label);
	if (c->prepare && run_prepare(e, c->prepare, err) != 0)
		return -1;
	if (exec_run(c->program, c->argv, &e->io, e->stop, r) != 0) {
		strbuf_addf(err, "cannot run %s: %s", c->argv[0], strerror(errno));
		return -1;
	}
	if (stopped(e))
		return -1;
	if (r->exec_errno) {
		strbuf_addf(err, "cannot execute %s: %s%s", c->program,
			    strerror(r->exec_errno), r->exec_errno == ENOEXEC ?
			    " (a script needs a #! line, or use --shell)" : "");
		return -1;
	}
	if ((!WIFEXITED(r->status) || WEXITSTATUS(r->status)) && !o->ignore_failure) {
		exec_describe_status(r->status, how, sizeof(how));
		strbuf_addf(err, "the command%s %s in %srun %ld; use --ignore-failure to "
			    "time it anyway", which, how, run < 0 ? "warm-up " : "",
			    run < 0 ? -run : run);
		return -1;
	}
	return 0;
}

static size_t harness_runs(const struct exec_options *o)
{
	size_t k = (size_t)o->runs;

	return k < EXEC_HARNESS_RUNS_MIN ? EXEC_HARNESS_RUNS_MIN :
	       k > EXEC_HARNESS_RUNS_MAX ? EXEC_HARNESS_RUNS_MAX : k;
}

/*
 * The empty program k times, started, fed and reaped as the command is.
 * When it does not run cleanly, no harness figure (h->failed): the
 * command's runs do not depend on it.
 */
static void run_harness(const struct exec_campaign *e, struct exec_harness *h, size_t k)
{
	char *argv[] = { h->program, NULL };
	struct exec_result r;

	for (size_t i = 0; i < k && !stopped(e); i++) {
		if (exec_run(h->program, argv, &e->io, e->stop, &r) != 0 ||
		    r.exec_errno || !WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
			h->failed = true;
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
static int run_repetition(struct exec_campaign *e, long k, struct progress *prog,
			  struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	bool warm = k < o->warmup;
	long run = warm ? -(k + 1) : k - o->warmup + 1;
	struct exec_machine before, end;
	struct exec_result r;
	char what[192];

	for (size_t j = 0; j < e->ncmds && !stopped(e); j++) {
		size_t i = o->order == EXEC_ORDER_SEQUENCE ? j :
			   balanced_order_at(e->ncmds, (unsigned)k, j, e->seed);
		struct exec_command *c = &e->cmds[i];
		size_t after = e->last;

		snprintf(what, sizeof(what), "%s %ld%s%s", warm ? "warm-up" : "run",
			 warm ? -run : run, e->ncmds > 1 ? ", " : "",
			 e->ncmds > 1 ? c->label : "");
		progress_update(prog, (size_t)k * e->ncmds + j, what);
		if (!warm)
			exec_machine_take(&before);
		if (run_command(e, c, run, &r, err) != 0)
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
static int run_all(struct exec_campaign *e, struct strbuf *err)
{
	const struct exec_options *o = &e->o;
	struct progress prog;
	int rc = 0;

	progress_init(&prog, (size_t)(o->warmup + o->runs) * e->ncmds);
	for (long k = 0; k < o->warmup + o->runs && !stopped(e); k++) {
		if (k == o->warmup)
			run_harness(e, &e->harness, harness_runs(o));
		if (run_repetition(e, k, &prog, err) != 0) {
			rc = stopped(e) ? 0 : -1;
			break;
		}
		if (k >= o->warmup && !stopped(e))
			e->done++;
	}
	progress_done(&prog);
	return rc;
}

/* ---- disturbance ------------------------------------------------------ */

/* Every timed run of every command, in one array (malloc'd), for medians. */
static struct exec_disturb *all_runs(const struct exec_campaign *e, size_t *n)
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

void exec_campaign_disturbance_medians(const struct exec_campaign *e,
				       struct exec_disturb_medians *d)
{
	size_t n;
	_cleanup_free_ struct exec_disturb *all = all_runs(e, &n);

	exec_disturb_medians(all, n, d);
}

/* Runs far beyond the invocation's others marked, in every command. */
static void mark_disturbed(struct exec_campaign *e)
{
	struct exec_disturb_medians d;

	exec_campaign_disturbance_medians(e, &d);
	for (size_t i = 0; i < e->ncmds; i++)
		exec_mark_disturbed(e->cmds[i].reps, e->cmds[i].s.n, &d);
}

int exec_campaign_run(struct exec_campaign *e, const volatile sig_atomic_t *stop,
		      struct strbuf *err)
{
	e->stop = stop;
	cpu_accounting_probe(&e->acct);
	if (run_all(e, err) != 0)
		return -1;
	mark_disturbed(e);
	return 0;
}
