// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/mail.h"

#include <math.h>
#include <string.h>

#include "basic/text.h"
#include "basic/util.h"
#include "probe/catalog.h"
#include "report/plot-internal.h"

void mail_wrap(struct strbuf *out, const char *text, int width, const char *first,
	       const char *rest)
{
	const char *indent = first;
	size_t col = 0;

	while (*text) {
		size_t word = strcspn(text, " "), ilen = strlen(indent);

		if (col && col + 1 + word > (size_t)width) {
			strbuf_addch(out, '\n');
			col = 0;
			indent = rest;
			ilen = strlen(indent);
		}
		if (!col) {
			strbuf_adds(out, indent);
			col = ilen;
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, text, word);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	strbuf_addch(out, '\n');
}

void mail_figure(struct strbuf *out, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		strbuf_adds(out, "-");
	else if (a >= 1000)
		strbuf_addf(out, "%.0f", v);
	else if (a >= 100)
		strbuf_addf(out, "%.1f", v);
	else if (a >= 1)
		strbuf_addf(out, "%.2f", v);
	else
		strbuf_addf(out, "%.3g", v);
}

/* ---- names ------------------------------------------------------------ */

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* "before, 5 runs", "before#7", "run 7". */
static void group_desc(const struct compare_group *g, struct strbuf *out)
{
	char name[96];

	if (g->nruns == 1) {
		plot_run_name(&g->runs[0], name, sizeof(name));
		strbuf_adds(out, name);
	} else {
		strbuf_addf(out, "%s, %zu runs", g->spec, g->nruns);
	}
}

static const char *env_string(const struct stored_run *r, const char *key)
{
	const char *v = json_string_value(json_object_get(r->env, key));

	return v && *v ? v : NULL;
}

static bool one_kernel(const struct plot_input *in)
{
	for (size_t g = 1; g < in->ngroups; g++)
		if (!streq(in->groups[g].runs[0].kernel, in->groups[0].runs[0].kernel))
			return false;
	return true;
}

/* "Kernel 6.18 (before#7) against 6.19 (after#8)", or one kernel for all. */
static void kernels_line(const struct plot_input *in, struct strbuf *l)
{
	bool one = one_kernel(in);

	strbuf_addf(l, "Kernel%s ", one || in->ngroups == 1 ? "" : "s");
	if (one)
		strbuf_addf(l, "%s: ", in->groups[0].runs[0].kernel);
	for (size_t g = 0; g < in->ngroups; g++) {
		strbuf_adds(l, g ? " against " : "");
		if (!one)
			strbuf_addf(l, "%s (", in->groups[g].runs[0].kernel);
		group_desc(&in->groups[g], l);
		if (!one)
			strbuf_addch(l, ')');
	}
}

void mail_machine(const struct plot_input *in, struct strbuf *out)
{
	const struct stored_run *r = plot_run(in, 0);
	const json_t *libc = json_object_get(r->env, "libc");
	const json_t *ncpus = json_object_get(r->env, "ncpus_online");
	_cleanup_strbuf_ struct strbuf l1 = STRBUF_INIT, l2 = STRBUF_INIT;

	strbuf_addf(&l1, "Machine: %s", r->host);
	if (env_string(r, "machine"))
		strbuf_addf(&l1, ", %s", env_string(r, "machine"));
	if (env_string(r, "cpu_model"))
		strbuf_addf(&l1, ", %s", env_string(r, "cpu_model"));
	if (json_is_integer(ncpus))
		strbuf_addf(&l1, ", %lld CPUs", (long long)json_integer_value(ncpus));
	if (env_string(r, "hypervisor"))
		strbuf_addf(&l1, ", %s guest", env_string(r, "hypervisor"));
	if (env_string(r, "clocksource"))
		strbuf_addf(&l1, ", clocksource %s", env_string(r, "clocksource"));
	mail_wrap(out, l1.buf, MAIL_WIDTH, "", "  ");
	kernels_line(in, &l2);
	if (json_is_string(json_object_get(libc, "name")))
		strbuf_addf(&l2, "; %s %s", json_string_value(json_object_get(libc, "name")),
			    json_string_value(json_object_get(libc, "version")) ?: "");
	mail_wrap(out, l2.buf, MAIL_WIDTH, "", "  ");
	out->buf[--out->len] = '\0';	/* the caller ends the line */
}

/* ---- reproducing -------------------------------------------------------- */

static double config_number(const json_t *config, const char *a, const char *b)
{
	const json_t *v = json_object_get(config, a);

	if (b)
		v = json_object_get(v, b);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* --api when the run measured some of the catalog's APIs only. */
static void api_flag(const struct stored_run *r, struct strbuf *out)
{
	bool used[API_COUNT] = { false };
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t a = 0; a < API_COUNT; a++)
			if (streq(r->cells[i].api, catalog_apis[a].name) && !used[a]) {
				used[a] = true;
				n++;
			}
	if (!n || n == API_COUNT)
		return;
	strbuf_adds(out, " --api ");
	for (size_t a = 0, k = 0; a < API_COUNT; a++)
		if (used[a])
			strbuf_addf(out, "%s%s", k++ ? "," : "", catalog_apis[a].name);
}

static void bench_flags(const struct stored_run *r, struct strbuf *out)
{
	double budget = config_number(r->config, "method", "budget_s");
	double rounds = config_number(r->config, "method", "rounds");

	if (fabs(budget - 0.04) < 1e-9 && rounds == 5)
		strbuf_adds(out, " --quick");
	else {
		if (isfinite(budget) && fabs(budget - 0.25) > 1e-9)
			strbuf_addf(out, " --budget %gms", budget * 1e3);
		if (isfinite(rounds) && rounds != 10)
			strbuf_addf(out, " --rounds %.0f", rounds);
	}
	api_flag(r, out);
}

static void scale_flags(const struct stored_run *r, struct strbuf *out)
{
	const json_t *threads = json_object_get(r->config, "threads"), *t;
	double calls = config_number(r->config, "calls", NULL);
	double reps = config_number(r->config, "repetitions", NULL);
	size_t i;

	if (json_array_size(threads)) {
		strbuf_adds(out, " --threads ");
		json_array_foreach(threads, i, t)
			strbuf_addf(out, "%s%lld", i ? "," : "", (long long)json_integer_value(t));
	}
	if (isfinite(calls) && calls != 5000000)
		strbuf_addf(out, " --calls %.0f", calls);
	if (isfinite(reps) && reps != 5)
		strbuf_addf(out, " --repetitions %.0f", reps);
}

/*
 * A command line in the making: its words, each ended by '\n' (no word
 * holds one: a value with a control character is refused), and whether a
 * value could not be given safely.
 */
struct shell_line {
	struct strbuf words;
	bool unsafe;
};

/* clockbench's own words (options, figures), split at blanks. */
static void plain_words(struct shell_line *l, const char *text)
{
	while (*text) {
		size_t n;

		text += strspn(text, " ");
		n = strcspn(text, " ");
		if (n) {
			strbuf_add(&l->words, text, n);
			strbuf_addch(&l->words, '\n');
		}
		text += n;
	}
}

/*
 * Text from a run was escaped as it was loaded (results/run-text.h): a
 * "\n", "\x1b", "\u2028" in it may stand for a character that is no
 * longer there, and a final "…" for a cut. Such a value is not what the
 * run was given, so it cannot be reproduced; a real backslash followed by
 * one of those letters is refused with them, which is the careful side.
 */
static bool as_recorded(const char *s)
{
	static const char ellipsis[] = "\u2026";
	size_t len = strlen(s), elen = sizeof(ellipsis) - 1;

	if (len >= elen && streq(s + len - elen, ellipsis))
		return false;
	for (const char *p = strchr(s, '\\'); p; p = strchr(p + 1, '\\'))
		if (p[1] && strchr("ntrexu", p[1]))
			return false;
	return true;
}

/* A value from the run: one word, quoted for the shell, or the line is unsafe. */
static void value_word(struct shell_line *l, const char *s)
{
	if (!as_recorded(s) || strbuf_add_sh_word(&l->words, s) != 0) {
		l->unsafe = true;
		return;
	}
	strbuf_addch(&l->words, '\n');
}

/* exec's command, word for word as it was given (config "command"). */
static void exec_words(const struct stored_run *r, struct shell_line *l)
{
	const json_t *argv = json_object_get(r->config, "command"), *a;
	const json_t *prepare = json_object_get(r->config, "prepare");
	size_t i;

	if (json_is_true(json_object_get(r->config, "shell")))
		plain_words(l, "--shell");
	if (json_is_string(prepare)) {
		plain_words(l, "--prepare");
		value_word(l, json_string_value(prepare));
	}
	plain_words(l, "--");
	if (!json_array_size(argv))
		l->unsafe = true;
	json_array_foreach(argv, i, a) {
		if (!json_is_string(a))
			l->unsafe = true;
		else
			value_word(l, json_string_value(a));
	}
}

/* The measuring command of run r, its label given when it has one. */
static void command_of(const struct stored_run *r, const char *label,
		       struct shell_line *l)
{
	_cleanup_strbuf_ struct strbuf flags = STRBUF_INIT;

	plain_words(l, "clockbench");
	value_word(l, r->command);
	if (streq(r->command, "bench"))
		bench_flags(r, &flags);
	else if (streq(r->command, "scale"))
		scale_flags(r, &flags);
	else if (streq(r->command, "hotplug"))
		strbuf_addf(&flags, " --cpu %.0f --cycles %.0f",
			    config_number(r->config, "cpu", NULL),
			    config_number(r->config, "cycles", NULL));
	else if (streq(r->command, "exec"))
		strbuf_addf(&flags, " -n %.0f", config_number(r->config, "runs", NULL));
	plain_words(l, flags.buf);
	if (label && !streq(r->command, "timens")) {
		plain_words(l, "--label");
		value_word(l, label);
	}
	if (streq(r->command, "exec"))
		exec_words(r, l);
}

/*
 * The line's words wrapped at MAIL_WIDTH with the shell's "\" continuation,
 * between words only (inside quotes a "\" would be part of the word).
 */
static void wrap_command(struct strbuf *out, const struct shell_line *l,
			 const char *indent)
{
	size_t width = MAIL_WIDTH - 2, col = 0;
	const char *w = l->words.buf;

	while (*w) {
		size_t n = strcspn(w, "\n");

		if (col && col + 1 + n > width) {
			strbuf_addf(out, " \\\n%s    ", indent);
			col = strlen(indent) + 4;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		} else {
			strbuf_adds(out, indent);
			col = strlen(indent);
		}
		strbuf_add(out, w, n);
		col += n;
		w += n + (w[n] == '\n');
	}
	strbuf_addch(out, '\n');
}

/* A shell comment wrapped at MAIL_WIDTH, every line of it a comment. */
static void comment(struct strbuf *out, const char *text, const char *indent)
{
	_cleanup_strbuf_ struct strbuf first = STRBUF_INIT, rest = STRBUF_INIT;

	strbuf_addf(&first, "%s# ", indent);
	strbuf_addf(&rest, "%s#   ", indent);
	mail_wrap(out, text, MAIL_WIDTH, first.buf, rest.buf);
}

static void shell_line_release(struct shell_line *l)
{
	strbuf_release(&l->words);
}

/* The label a group's runs are saved under, or NULL. */
static const char *group_label(const struct compare_group *g)
{
	if (!all_digits(g->spec))
		return g->spec;
	return *g->runs[0].label ? g->runs[0].label : NULL;
}

/* Every group has a label of its own: compare can name them by label. */
static bool labels_distinct(const struct plot_input *in)
{
	for (size_t g = 0; g < in->ngroups; g++) {
		const char *l = group_label(&in->groups[g]);

		if (!l)
			return false;
		for (size_t k = 0; k < g; k++)
			if (streq(l, group_label(&in->groups[k])))
				return false;
	}
	return true;
}

/* Both groups are the two sides of one clockbench timens. */
static bool one_timens(const struct plot_input *in)
{
	const struct stored_run *a, *b;

	if (in->ngroups != 2 || in->groups[0].nruns != 1 || in->groups[1].nruns != 1)
		return false;
	a = &in->groups[0].runs[0];
	b = &in->groups[1].runs[0];
	return streq(a->command, "timens") && streq(b->command, "timens") &&
	       streq(a->started, b->started);
}

void mail_reproduce(const struct plot_input *in, const char *indent,
		    struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf note = STRBUF_INIT;
	struct shell_line l = { STRBUF_INIT, false };

	for (size_t g = 0; g < in->ngroups && !(g && one_timens(in)); g++) {
		const struct compare_group *grp = &in->groups[g];

		strbuf_reset(&l.words);
		l.unsafe = false;
		command_of(&grp->runs[0], group_label(grp), &l);
		strbuf_addf(out, "%s# on kernel %s", indent, grp->runs[0].kernel);
		if (grp->nruns > 1)
			strbuf_addf(out, ", %zu times", grp->nruns);
		strbuf_adds(out, ":\n");
		if (l.unsafe) {
			strbuf_setf(&note, "run %lld: its command line cannot be reproduced "
				    "safely (it holds control or invisible characters, or was "
				    "cut); `clockbench show %lld` shows it escaped",
				    (long long)grp->runs[0].id, (long long)grp->runs[0].id);
			comment(out, note.buf, indent);
		} else
			wrap_command(out, &l, indent);
	}
	if (in->ngroups < 2 || one_timens(in))
		goto out;
	strbuf_reset(&l.words);
	l.unsafe = false;
	plain_words(&l, "clockbench compare");
	for (size_t g = 0; g < in->ngroups; g++)
		value_word(&l, labels_distinct(in) ? group_label(&in->groups[g]) :
			   in->groups[g].spec);
	if (l.unsafe)
		comment(out, "the comparison cannot be reproduced safely: a label holds "
			"control or invisible characters", indent);
	else
		wrap_command(out, &l, indent);
out:
	shell_line_release(&l);
}

/* ---- the summary ---------------------------------------------------------- */

/* "5 v 5 runs": what the statistics were computed over. */
static const char *sample_kind(const struct compare_result *r,
			       const struct compare_side *s)
{
	if (r->replicates)
		return "runs";
	return s->by_rounds ? "rounds" : "samples";
}

static void changed_line(const struct compare_result *r, const struct compare_row *row,
			 size_t g, struct strbuf *out)
{
	const struct compare_side *b = &row->sides[0], *o = &row->sides[g];
	const struct compare_diff *d = &row->diffs[g];
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s%s%s: ", row->name, *row->path ? " " : "", row->path);
	mail_figure(&line, b->center);
	strbuf_adds(&line, " -> ");
	mail_figure(&line, o->center);
	strbuf_addf(&line, " %s (%+.1f %%, 95 %% CI %+.1f..%+.1f, %zu v %zu %s)", r->unit,
		    d->change_pct, d->change_lo_pct, d->change_hi_pct, b->n, o->n,
		    sample_kind(r, o));
	mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
}

/* The cells that did not change, in one line. */
static void unchanged_line(const struct plot_input *in, const struct compare_result *r,
			   size_t g, size_t changed, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	double lo = 0, hi = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || d->significant || !plot_row_selected(in, &r->rows[i]))
			continue;
		n++;
		lo = fmin(lo, d->change_pct);
		hi = fmax(hi, d->change_pct);
	}
	if (!n)
		return;
	strbuf_addf(&line, "%s %zu cell%s: ", changed ? "the other" : "all", n,
		    n == 1 ? "" : "s");
	if (compare_spread_unknown(r))
		strbuf_addf(&line, "changes %+.1f..%+.1f %%, no verdict (see below)",
			    lo, hi);
	else if (fmax(-lo, hi) <= r->opts.threshold_pct)
		strbuf_addf(&line, "no change beyond %g %%", r->opts.threshold_pct);
	else
		strbuf_addf(&line, "no significant change (medians %+.1f..%+.1f %%, "
			    "within the noise)", lo, hi);
	mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
}

static void group_block(const struct plot_input *in, const struct compare_result *r,
			size_t g, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf head = STRBUF_INIT;
	size_t changed = 0;

	group_desc(&r->groups[g], &head);
	strbuf_adds(&head, " against ");
	group_desc(&r->groups[0], &head);
	strbuf_addf(&head, ", %s%s, lower is better:", r->unit,
		    streq(r->unit, "ns") ? " per call" : "");
	mail_wrap(out, head.buf, MAIL_WIDTH, "", "  ");
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].diffs[g].valid && r->rows[i].diffs[g].significant &&
		    plot_row_selected(in, &r->rows[i])) {
			changed_line(r, &r->rows[i], g, out);
			changed++;
		}
	unchanged_line(in, r, g, changed, out);
	if (r->machine_shift[g])
		mail_wrap(out, "Note: nearly every cell moved the same way, syscall and "
			  "vDSO paths alike: the machine itself may have changed between "
			  "the runs; replicates (several runs per label) tell.",
			  MAIL_WIDTH, "  ", "  ");
}

static int comparison(const struct plot_input *in, struct strbuf *out,
		      struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf rule = STRBUF_INIT;
	struct compare_result r;

	if (plot_compare_build(in, in->groups, in->ngroups, &r, err) != 0)
		return -1;
	for (size_t g = 1; g < r.ngroups; g++) {
		group_block(in, &r, g, out);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(&rule, "A change counts when the %s-adjusted p (",
		    r.opts.correction == CORRECT_HOLM ? "Holm" :
		    r.opts.correction == CORRECT_BH ? "Benjamini-Hochberg" : "un");
	compare_tests_phrase(&r, &rule);
	strbuf_addf(&rule, ") is below %g and its 95 %% CI clears +-%g %% (or the "
		    "rounds' own spread, if larger). Values: ", r.opts.alpha,
		    r.opts.threshold_pct);
	compare_centres_phrase(&r, &rule);
	strbuf_addch(&rule, '.');
	if (compare_spread_unknown(&r))
		strbuf_addf(&rule, " One run against one: how far whole runs move on "
			    "this machine is unknown, so no verdict; %s.",
			    compare_verdict_hint);
	mail_wrap(out, rule.buf, MAIL_WIDTH, "", "");
	compare_free(&r);
	return 0;
}

/* One run alone: its cells' medians. */
static void run_block(const struct plot_input *in, const struct stored_run *r,
		      struct strbuf *out)
{
	char name[96];

	plot_run_name(r, name, sizeof(name));
	strbuf_addf(out, "%s, %s, median per call with its 95 %% CI:\n", name, r->command);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
		struct summary s;

		if (!plot_selected(in, c))
			continue;
		plot_summarize(c->values, c->n, &s);
		strbuf_addf(&line, "%s%s%s: ", c->name, *c->path ? " " : "", c->path);
		mail_figure(&line, s.median);
		strbuf_addf(&line, " %s (", c->unit);
		mail_figure(&line, s.median_lo);
		strbuf_adds(&line, "..");
		mail_figure(&line, s.median_hi);
		strbuf_addf(&line, ", %zu samples)", s.n);
		mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
	}
}

int mail_summary(const struct plot_input *in, struct strbuf *out, struct strbuf *err)
{
	mail_machine(in, out);
	strbuf_adds(out, "\n\n");
	if (in->ngroups > 1) {
		if (comparison(in, out, err) != 0)
			return -1;
	} else {
		for (size_t i = 0; i < in->groups[0].nruns; i++)
			run_block(in, &in->groups[0].runs[i], out);
	}
	strbuf_adds(out, "\nTo reproduce:\n");
	mail_reproduce(in, "  ", out);
	return 0;
}
