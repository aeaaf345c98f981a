// SPDX-License-Identifier: GPL-2.0-or-later
#include "document/mail.h"

#include <math.h>
#include <string.h>

#include "basic/text.h"
#include "basic/util.h"
#include "probe/catalog.h"
#include "chart/plot-internal.h"
#include "results/run-facts.h"

/* The bytes of s's first n characters (UTF-8 sequences), at most len. */
static size_t columns_to_bytes(const char *s, size_t len, size_t n)
{
	size_t b = 0;

	while (b < len && n) {
		b++;
		while (b < len && ((unsigned char)s[b] & 0xc0) == 0x80)
			b++;
		n--;
	}
	return b;
}

static size_t columns_of(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* A word as printed: MAIL_GLUE a space. */
static void add_word(struct strbuf *out, const char *w, size_t len)
{
	for (size_t i = 0; i < len; i++)
		strbuf_addch(out, w[i] == MAIL_GLUE[0] ? ' ' : w[i]);
}

void mail_wrap(struct strbuf *out, const char *text, int width, const char *first,
	       const char *rest)
{
	const char *indent = first;
	size_t col = 0;

	while (*text) {
		size_t word = strcspn(text, " "), wcols = columns_of(text, word);

		if (col && col + 1 + wcols > (size_t)width) {
			strbuf_addch(out, '\n');
			col = 0;
			indent = rest;
		}
		if (!col) {
			strbuf_adds(out, indent);
			col = text_columns(indent);
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		/* Longer than a line (a host name, a label): cut where it must be. */
		while (col + wcols > (size_t)width && (size_t)width > col) {
			size_t fit = columns_to_bytes(text, word, (size_t)width - col);

			add_word(out, text, fit);
			strbuf_addch(out, '\n');
			text += fit;
			word -= fit;
			wcols = columns_of(text, word);
			indent = rest;
			strbuf_adds(out, indent);
			col = text_columns(indent);
		}
		add_word(out, text, word);
		col += wcols;
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

/* A uuid as the store writes it: a spec that names a run by its id. */
static bool uuid_like(const char *s)
{
	return strlen(s) == 36 && strspn(s, "0123456789abcdefABCDEF-") == 36;
}

/* A run's own name: its label, else its command ("bench"). */
static const char *run_word(const struct stored_run *r)
{
	return *r->label ? r->label : r->command;
}

/* Another group's single run has the same name as g's single run. */
static bool name_shared(const struct plot_input *in, size_t g, bool with_start)
{
	const struct stored_run *r = &in->groups[g].runs[0];

	for (size_t k = 0; k < in->ngroups; k++) {
		const struct stored_run *o = &in->groups[k].runs[0];

		if (k != g && in->groups[k].nruns == 1 && streq(run_word(o), run_word(r)) &&
		    (!with_start || streq(o->started, r->started)))
			return true;
	}
	return false;
}

/*
 * "before", "bench of 2026-12-01T10:00:00Z", "bench of ... (argument 2)":
 * names a reader can use, never an id of this store (it means nothing
 * elsewhere).
 */
static void group_name(const struct plot_input *in, size_t g, struct strbuf *out)
{
	const struct compare_group *grp = &in->groups[g];

	if (grp->nruns != 1) {
		strbuf_adds(out, grp->spec);
		return;
	}
	strbuf_adds(out, run_word(&grp->runs[0]));
	if (!*grp->runs[0].label || name_shared(in, g, false))
		strbuf_addf(out, " of %s", grp->runs[0].started);
	/* Started within the same second: where it was given tells them apart. */
	if (name_shared(in, g, true))
		strbuf_addf(out, " (argument %zu)", g + 1);
}

/* The name and, for several runs, how many: "before (5 runs)". */
static void group_desc(const struct plot_input *in, size_t g, struct strbuf *out)
{
	group_name(in, g, out);
	if (in->groups[g].nruns != 1)
		strbuf_addf(out, " (%zu runs)", in->groups[g].nruns);
}

static bool one_kernel(const struct plot_input *in)
{
	for (size_t g = 1; g < in->ngroups; g++)
		if (!streq(in->groups[g].runs[0].kernel, in->groups[0].runs[0].kernel))
			return false;
	return true;
}

/*
 * "Kernels 6.19 (after) against the base 6.18 (before)", or one kernel for
 * all: in the order the blocks below read ("after against before"). No
 * arrow: "x -> y" in the mail is always a cell's values.
 */
static void kernels_line(const struct plot_input *in, struct strbuf *l)
{
	bool one = one_kernel(in);

	strbuf_addf(l, "Kernel%s ", one || in->ngroups == 1 ? "" : "s");
	if (one)
		strbuf_addf(l, "%s: ", in->groups[0].runs[0].kernel);
	for (size_t k = 1; k <= in->ngroups; k++) {
		size_t g = k % in->ngroups;	/* the others, then the base */

		if (in->ngroups > 1)
			strbuf_adds(l, g == 0 ? " against the base " : k > 1 ? ", " : "");
		if (!one)
			strbuf_addf(l, "%s (", in->groups[g].runs[0].kernel);
		group_desc(in, g, l);
		if (!one)
			strbuf_addch(l, ')');
	}
}

/* One fact of a run, as the Machine line writes it; NULL when unknown. */
typedef const char *fact_fn(const struct stored_run *r, char *buf, size_t len);

static const char *fact_host(const struct stored_run *r, char *buf, size_t len)
{
	(void)buf, (void)len;
	return r->host;
}

static const char *fact_machine(const struct stored_run *r, char *buf, size_t len)
{
	(void)buf, (void)len;
	return run_facts(r)->machine;
}

static const char *fact_cpu(const struct stored_run *r, char *buf, size_t len)
{
	(void)buf, (void)len;
	return run_facts(r)->cpu_model;
}

static const char *fact_ncpus(const struct stored_run *r, char *buf, size_t len)
{
	if (!run_facts(r)->ncpus)
		return NULL;
	snprintf(buf, len, "%ld CPUs", run_facts(r)->ncpus);
	return buf;
}

static const char *fact_hypervisor(const struct stored_run *r, char *buf, size_t len)
{
	const char *h = run_facts(r)->hypervisor;

	if (!h || streq(h, "none"))
		return NULL;
	snprintf(buf, len, "%s guest", h);
	return buf;
}

static const char *fact_clocksource(const struct stored_run *r, char *buf, size_t len)
{
	if (!run_facts(r)->clocksource)
		return NULL;
	snprintf(buf, len, "clocksource %s", run_facts(r)->clocksource);
	return buf;
}

static const char *fact_libc(const struct stored_run *r, char *buf, size_t len)
{
	const struct run_facts *f = run_facts(r);

	if (!f->libc_name)
		return NULL;
	snprintf(buf, len, "%s %s", f->libc_name, f->libc_version ? f->libc_version : "");
	return buf;
}

/*
 * ", FACT" when every group's first run says the same; ", FACT (name),
 * OTHER (name)" when they differ: the line describes every side, not the
 * base alone (a 6.1 on hpet against a 6.12 on tsc said "hpet").
 */
static void add_fact(const struct plot_input *in, fact_fn *fact, const char *sep,
		     struct strbuf *l)
{
	char first[256], buf[256];
	const char *v0 = fact(&in->groups[0].runs[0], first, sizeof(first));
	bool same = true;

	for (size_t g = 1; g < in->ngroups && same; g++) {
		const char *v = fact(&in->groups[g].runs[0], buf, sizeof(buf));

		same = (!v && !v0) || (v && v0 && streq(v, v0));
	}
	if (same) {
		if (v0)
			strbuf_addf(l, "%s%s", sep, v0);
		return;
	}
	for (size_t g = 0; g < in->ngroups; g++) {
		const char *v = fact(&in->groups[g].runs[0], buf, sizeof(buf));

		strbuf_addf(l, "%s%s (", g ? ", " : sep, v ? v : "?");
		group_name(in, g, l);
		strbuf_addch(l, ')');
	}
}

void mail_machine(const struct plot_input *in, struct strbuf *out)
{
	static fact_fn *const machine_facts[] = {
		fact_machine, fact_cpu, fact_ncpus, fact_hypervisor, fact_clocksource,
	};
	_cleanup_strbuf_ struct strbuf l1 = STRBUF_INIT, l2 = STRBUF_INIT;

	add_fact(in, fact_host, "Machine: ", &l1);
	for (size_t i = 0; i < ARRAY_SIZE(machine_facts); i++)
		add_fact(in, machine_facts[i], ", ", &l1);
	mail_wrap(out, l1.buf, MAIL_WIDTH, "", "  ");
	kernels_line(in, &l2);
	add_fact(in, fact_libc, "; ", &l2);
	mail_wrap(out, l2.buf, MAIL_WIDTH, "", "  ");
	out->buf[--out->len] = '\0';	/* the caller ends the line */
}

/* ---- reproducing -------------------------------------------------------- */

/*
 * A command line in the making: its words, each ended by WORD_END (a
 * word never holds one: text from a run has no control character once
 * loaded), and whether a value could not be given safely.
 */
struct shell_line {
	struct strbuf words;
	bool unsafe;
};

#define WORD_END '\x1e'
/* A quoted word longer than this is cut into pieces joined by "\"-newline. */
#define WORD_PIECE_MAX (MAIL_WIDTH - 12)

/* clockbench's own words (options, figures), split at blanks. */
static void plain_words(struct shell_line *l, const char *text)
{
	while (*text) {
		size_t n;

		text += strspn(text, " ");
		n = strcspn(text, " ");
		if (n) {
			strbuf_add(&l->words, text, n);
			strbuf_addch(&l->words, WORD_END);
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

/*
 * The bytes of s that, quoted, take at most WORD_PIECE_MAX columns: a
 * quote is written in four, '\'' (an upper bound: a plain piece takes
 * fewer), and a UTF-8 sequence is never cut.
 */
static size_t piece_bytes(const char *s)
{
	size_t cols = 2, b = 0;

	while (s[b]) {
		size_t next = b + 1;

		while (((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		cols += s[b] == '\'' ? 4 : 1;
		if (cols > WORD_PIECE_MAX)
			break;
		b = next;
	}
	return b ? b : strlen(s);
}

/*
 * A value from the run: one word, quoted for the shell (the one quoting
 * function, strbuf_add_sh_word()), or the line is unsafe. A word too long
 * for a line is given as pieces quoted one by one and joined by "\" and a
 * newline, outside quotes: the shell removes both and reads one word.
 */
static void value_word(struct shell_line *l, const char *s)
{
	_cleanup_strbuf_ struct strbuf word = STRBUF_INIT, piece = STRBUF_INIT;

	if (!as_recorded(s) || strbuf_add_sh_word(&word, s) != 0) {
		l->unsafe = true;
		return;
	}
	if (text_columns(word.buf) <= WORD_PIECE_MAX) {
		strbuf_adds(&l->words, word.buf);
		strbuf_addch(&l->words, WORD_END);
		return;
	}
	while (*s) {
		size_t n = piece_bytes(s);

		strbuf_reset(&piece);
		strbuf_add(&piece, s, n);
		if (strbuf_add_sh_word(&l->words, piece.buf) != 0) {
			l->unsafe = true;
			return;
		}
		s += n;
		if (*s)
			strbuf_adds(&l->words, "\\\n");
	}
	strbuf_addch(&l->words, WORD_END);
}

/* ---- as recorded ---- */

/* The words the run recorded at run time (env "argv"): false if none. */
static bool recorded_words(const struct stored_run *r, struct shell_line *l)
{
	const struct run_facts *f = run_facts(r);

	if (!f->argv.n && f->argv.whole)
		return false;
	plain_words(l, "clockbench");
	if (f->argv_masked || !f->argv.whole)
		l->unsafe = true;	/* a control character was masked; a word lost */
	for (size_t i = 0; i < f->argv.n; i++)
		value_word(l, f->argv.word[i]);
	return true;
}

/* ---- rebuilt, for runs from before the command line was recorded ---- */

/* One of the catalog's lists a cell filter takes: apis, clocks, paths. */
struct cell_list {
	const char *flag;
	const char *(*name)(size_t i);
	size_t count;
	const char *(*of_cell)(const struct stored_cell *c);
};

static const char *api_name(size_t i) { return catalog_apis[i].name; }
static const char *clock_name(size_t i) { return catalog_clocks[i].name; }
static const char *path_name(size_t i) { return catalog_paths[i]; }
static const char *cell_api(const struct stored_cell *c) { return c->api; }
static const char *cell_clock(const struct stored_cell *c) { return c->clock; }
static const char *cell_path(const struct stored_cell *c) { return c->path; }

/*
 * "--api clock_gettime,time": what the run's cells hold of list, when
 * some of it (or always, when the command's default is not the whole
 * catalog); nothing when the cells name none of it.
 */
static void list_flag(const struct stored_run *r, const struct cell_list *list,
		      bool always, struct strbuf *out)
{
	bool *used = xcalloc(list->count ? list->count : 1, sizeof(bool));
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < list->count; k++)
			if (!used[k] && streq(list->of_cell(&r->cells[i]), list->name(k))) {
				used[k] = true;
				n++;
			}
	if (n && (always || n < list->count)) {
		strbuf_addf(out, " %s ", list->flag);
		for (size_t k = 0, j = 0; k < list->count; k++)
			if (used[k])
				strbuf_addf(out, "%s%s", j++ ? "," : "", list->name(k));
	}
	free(used);
}

static void filter_flags(const struct stored_run *r, bool always, struct strbuf *out)
{
	const struct cell_list lists[] = {
		{ "--api", api_name, API_COUNT, cell_api },
		{ "--clock", clock_name, catalog_nclocks, cell_clock },
		{ "--path", path_name, PATH_COUNT, cell_path },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		list_flag(r, &lists[i], always, out);
}

static void bench_flags(const struct stored_run *r, struct strbuf *out)
{
	const struct bench_method *m = &run_facts(r)->settings.bench.method;
	double budget = m->budget_s, rounds = m->rounds;

	if (fabs(budget - 0.04) < 1e-9 && rounds == 5)
		strbuf_adds(out, " --quick");
	else {
		if (isfinite(budget) && fabs(budget - 0.25) > 1e-9)
			strbuf_addf(out, " --budget %gms", budget * 1e3);
		if (isfinite(rounds) && rounds != 10)
			strbuf_addf(out, " --rounds %.0f", rounds);
	}
	filter_flags(r, false, out);
}

static void scale_flags(const struct stored_run *r, struct strbuf *out)
{
	const struct run_facts *f = run_facts(r);
	double calls = f->settings.scale.calls, reps = f->settings.scale.repetitions;

	const struct run_counts *threads = &f->settings.scale.threads;

	if (threads->n && !f->settings.scale.idle) {
		strbuf_adds(out, " --threads ");
		for (size_t i = 0; i < threads->n; i++)
			strbuf_addf(out, "%s%u", i ? "," : "", threads->count[i]);
	}
	if (isfinite(calls) && calls != 5000000)
		strbuf_addf(out, " --calls %.0f", calls);
	if (isfinite(reps) && reps != 5)
		strbuf_addf(out, " --repetitions %.0f", reps);
}

/* ab's condition, from the arm's config: its option and value(s). */
static void ab_words(const struct stored_run *r, struct shell_line *l)
{
	const struct run_facts *f = run_facts(r);
	const struct ab_settings *ab = &f->settings.ab;
	const char *cond = ab->condition, *value = ab->value;
	_cleanup_strbuf_ struct strbuf list = STRBUF_INIT;

	if (!cond) {
		l->unsafe = true;
		return;
	}
	if (streq(cond, "timens")) {
		plain_words(l, "--timens");
	} else if (streq(cond, "clocksource") || streq(cond, "cpu")) {
		/* The arms' labels are their values unless --labels said otherwise. */
		plain_words(l, streq(cond, "cpu") ? "--cpus" : "--clocksource");
		for (size_t i = 0; i < ab->arms.n; i++)
			strbuf_addf(&list, "%s%s", i ? "," : "", ab->arms.word[i]);
		if (!ab->arms.whole)
			l->unsafe = true;
		value_word(l, list.buf);
	} else if ((streq(cond, "env") || streq(cond, "prefix")) && value && *value) {
		plain_words(l, streq(cond, "env") ? "--env" : "--prefix");
		value_word(l, value);
	} else {
		l->unsafe = true;
	}
}

/* exec's command, word for word as it was given (config "command"). */
static void exec_words(const struct stored_run *r, struct shell_line *l)
{
	const struct exec_settings *x = &run_facts(r)->settings.exec;

	if (x->shell)
		plain_words(l, "--shell");
	if (x->prepare) {
		plain_words(l, "--prepare");
		value_word(l, x->prepare);
	}
	plain_words(l, "--");
	if (!x->command.n || !x->command.whole)
		l->unsafe = true;
	for (size_t i = 0; i < x->command.n; i++)
		value_word(l, x->command.word[i]);
}

/* The measuring command of run r rebuilt from its config and cells. */
static void rebuilt_words(const struct stored_run *r, struct shell_line *l)
{
	_cleanup_strbuf_ struct strbuf flags = STRBUF_INIT;
	bool own_label = !streq(r->command, "timens") && !streq(r->command, "ab");

	plain_words(l, "clockbench");
	value_word(l, r->command);
	if (streq(r->command, "bench"))
		bench_flags(r, &flags);
	else if (streq(r->command, "scale"))
		scale_flags(r, &flags);
	else if (streq(r->command, "timens") || streq(r->command, "ab"))
		filter_flags(r, true, &flags);
	else if (streq(r->command, "hotplug"))
		strbuf_addf(&flags, " --cpu %.0f --cycles %.0f",
			    run_facts(r)->settings.hotplug.cpu,
			    run_facts(r)->settings.hotplug.cycles);
	else if (streq(r->command, "exec"))
		strbuf_addf(&flags, " -n %.0f", run_facts(r)->settings.exec.runs);
	plain_words(l, flags.buf);
	if (streq(r->command, "ab"))
		ab_words(r, l);
	if (*r->label && own_label) {
		plain_words(l, "--label");
		value_word(l, r->label);
	}
	if (streq(r->command, "exec"))
		exec_words(r, l);
}

/* ---- the lines ---- */

/*
 * The line's words wrapped at MAIL_WIDTH with the shell's "\" continuation,
 * between words only (inside quotes a "\" would be part of the word). A
 * word in pieces starts a line of its own, its pieces at the margin: a
 * blank there would end the word.
 */
static void wrap_command(struct strbuf *out, const struct shell_line *l,
			 const char *indent)
{
	size_t width = MAIL_WIDTH - 2, col = 0, cont = text_columns(indent) + 4;
	const char *w = l->words.buf;

	while (*w) {
		const char *end = strchr(w, WORD_END);
		size_t n = end ? (size_t)(end - w) : strlen(w);
		const char *nl = memchr(w, '\n', n);
		size_t first = nl ? (size_t)(nl - w) : n;

		if (col && (nl || col + 1 + first > width)) {
			strbuf_addf(out, " \\\n%s    ", indent);
			col = cont;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		} else {
			strbuf_adds(out, indent);
			col = text_columns(indent);
		}
		strbuf_add(out, w, n);
		col = nl ? 0 : col + n;
		if (nl)		/* the columns of the last piece */
			for (const char *p = w + n; p > w && p[-1] != '\n'; p--)
				col += ((unsigned char)p[-1] & 0xc0) != 0x80;
		w += n + (end != NULL);
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

enum command_source { COMMAND_RECORDED, COMMAND_REBUILT };

/* Run r's command line into l: as recorded at run time, else rebuilt. */
static enum command_source command_of(const struct stored_run *r, struct shell_line *l)
{
	if (recorded_words(r, l))
		return COMMAND_RECORDED;
	strbuf_reset(&l->words);
	l->unsafe = false;
	rebuilt_words(r, l);
	return COMMAND_REBUILT;
}

int mail_run_command(const struct stored_run *r, struct strbuf *out)
{
	struct shell_line l = { STRBUF_INIT, false };
	enum command_source src = command_of(r, &l);
	int rc = l.unsafe ? -1 : src == COMMAND_RECORDED ? 0 : 1;

	for (const char *w = l.words.buf; !l.unsafe && *w; w++)
		strbuf_addch(out, *w == WORD_END ? ' ' : *w);
	if (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_release(&l.words);
	return rc;
}

/*
 * One line to print: the groups whose runs it made (ab's arms and timens's
 * sides are one invocation), how many invocations of its group gave the
 * same line (replicates), and its first run.
 */
struct invocation {
	const struct stored_run *run;
	struct shell_line line;
	enum command_source source;
	size_t *groups;		/* [0]: the group it was first seen in */
	size_t ngroups;
	size_t times;
};

/* Every run seen, and the line it went to. */
struct reproduce {
	struct invocation *inv;
	size_t n, cap;
	struct seen {
		const struct stored_run *run;
		size_t line;
	} *seen;
	size_t nseen, seen_cap;
};

static bool same_words(const struct shell_line *a, const struct shell_line *b)
{
	/* What an unsafe line holds is not all of it: never the same as another. */
	return !a->unsafe && !b->unsafe && streq(a->words.buf, b->words.buf);
}

/*
 * What names the invocation that made r: the uuid it recorded, else (a run
 * from before) the interleaving ab and timens give their runs; or NULL.
 */
static const char *invocation_of(const struct stored_run *r)
{
	const struct run_facts *f = run_facts(r);

	return f->invocation ? f->invocation : f->interleave;
}

/* The line run r goes to: one of another side of its invocation, or -1. */
static ssize_t same_invocation(const struct reproduce *rp, const struct stored_run *r,
			       const struct shell_line *l)
{
	const char *id = invocation_of(r);

	for (size_t k = 0; id && k < rp->nseen; k++) {
		const char *other = invocation_of(rp->seen[k].run);

		if (other && streq(other, id) && same_words(&rp->inv[rp->seen[k].line].line, l))
			return (ssize_t)rp->seen[k].line;
	}
	return -1;
}

/* Run r, of group g: a new line, or counted in one already there. */
static void add_run(const struct plot_input *in, struct reproduce *rp, size_t g,
		    const struct stored_run *r)
{
	struct invocation it = { .run = r, .line = { STRBUF_INIT, false }, .times = 1 };
	ssize_t at;

	it.source = command_of(r, &it.line);
	at = same_invocation(rp, r, &it.line);
	if (at >= 0) {
		struct invocation *o = &rp->inv[at];

		if (o->groups[o->ngroups - 1] != g) {
			o->groups = xrealloc(o->groups, (o->ngroups + 1) * sizeof(size_t));
			o->groups[o->ngroups++] = g;
		}
	} else {
		for (size_t k = 0; k < rp->n && at < 0; k++)
			if (rp->inv[k].groups[0] == g && same_words(&rp->inv[k].line, &it.line))
				at = (ssize_t)k;
		if (at >= 0)
			rp->inv[at].times++;
	}
	if (at < 0) {
		it.groups = xmalloc(sizeof(size_t));
		it.groups[it.ngroups++] = g;
		grow_array((void **)&rp->inv, &rp->cap, rp->n + 1, sizeof(*rp->inv));
		rp->inv[rp->n] = it;
		at = (ssize_t)rp->n++;
	} else {
		strbuf_release(&it.line.words);
	}
	grow_array((void **)&rp->seen, &rp->seen_cap, rp->nseen + 1, sizeof(*rp->seen));
	rp->seen[rp->nseen++] = (struct seen){ r, (size_t)at };
}

static void print_invocation(const struct plot_input *in, const struct invocation *it,
			     const char *indent, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf note = STRBUF_INIT;

	for (size_t k = 0; k < it->ngroups; k++) {
		strbuf_adds(&note, !k ? "" : k + 1 < it->ngroups ? ", " : " and ");
		group_name(in, it->groups[k], &note);
	}
	/* A boot's runs came from a command run on the host, not on the guest's kernel. */
	if (run_facts(it->run)->boot.booted)
		strbuf_adds(&note, ", booted by this command on the host");
	else
		strbuf_addf(&note, ", on kernel %s", it->run->kernel);
	if (it->times > 1)
		strbuf_addf(&note, ", %zu times", it->times);
	if (it->line.unsafe) {
		strbuf_adds(&note, ": its command line cannot be reproduced safely (it "
			    "holds control or invisible characters, or was cut)");
		comment(out, note.buf, indent);
		return;
	}
	if (it->source == COMMAND_REBUILT)
		strbuf_adds(&note, " (rebuilt from the run: it did not record its "
			    "command line)");
	strbuf_addch(&note, ':');
	comment(out, note.buf, indent);
	wrap_command(out, &it->line, indent);
}

/* The name compare takes for group g: a label or selector, not an id. */
static const char *group_label(const struct compare_group *g)
{
	if (!all_digits(g->spec) && !uuid_like(g->spec))
		return g->spec;
	return *g->runs[0].label ? g->runs[0].label : NULL;
}

/* Every group has a name of its own: compare can take them. */
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

static void compare_line(const struct plot_input *in, const char *indent,
			 struct strbuf *out)
{
	struct shell_line l = { STRBUF_INIT, false };

	if (!labels_distinct(in)) {
		comment(out, "then clockbench compare, naming the runs by their ids "
			"in that store (clockbench runs lists them)", indent);
		return;
	}
	plain_words(&l, "clockbench compare");
	for (size_t g = 0; g < in->ngroups; g++)
		value_word(&l, group_label(&in->groups[g]));
	if (l.unsafe)
		comment(out, "the comparison cannot be reproduced safely: a label holds "
			"control or invisible characters", indent);
	else
		wrap_command(out, &l, indent);
	strbuf_release(&l.words);
}

void mail_reproduce(const struct plot_input *in, const char *indent,
		    struct strbuf *out)
{
	struct reproduce rp = { 0 };

	for (size_t g = 0; g < in->ngroups; g++)
		for (size_t k = 0; k < in->groups[g].nruns; k++)
			add_run(in, &rp, g, &in->groups[g].runs[k]);
	for (size_t k = 0; k < rp.n; k++)
		print_invocation(in, &rp.inv[k], indent, out);
	/* One invocation made every group: it printed its comparison itself. */
	if (in->ngroups > 1 && rp.n > 1)
		compare_line(in, indent, out);
	for (size_t k = 0; k < rp.n; k++) {
		strbuf_release(&rp.inv[k].line.words);
		free(rp.inv[k].groups);
	}
	free(rp.inv);
	free(rp.seen);
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

/* A unit that stays with its figure: "core cycles" as one word. */
static void glued_unit(struct strbuf *out, const char *unit)
{
	strbuf_adds(out, MAIL_GLUE);
	for (; *unit; unit++)
		strbuf_adds(out, *unit == ' ' ? MAIL_GLUE : (char[]){ *unit, '\0' });
}

/* "+4.6 %", never cut between the figure and its sign. */
static void percent(struct strbuf *out, double pct)
{
	if (isfinite(pct))
		strbuf_addf(out, "%+.1f" MAIL_GLUE "%%", pct);
	else
		strbuf_adds(out, "-");
}

/* "26.10 -> 27.41 ns": the centres of base and other. */
static void centres(struct strbuf *out, double base, double other, const char *unit)
{
	mail_figure(out, base);
	strbuf_adds(out, MAIL_GLUE "->" MAIL_GLUE);
	mail_figure(out, other);
	glued_unit(out, unit);
}

/* The figure a side shows: its centre, else its median. */
static double centre_of(const struct compare_side *s)
{
	return isfinite(s->center) ? s->center : s->sum.median;
}

/*
 * "clock-gettime-monotonic vdso [worse]: 85.7 -> 89.5 core cycles (+4.4 %,
 * 95 % CI +4.0..+4.8; +3.80 core cycles), 28.18 -> 29.36 ns (+4.2 %); 10 v
 * 10 rounds": the change in what was judged, and in ns per call, which the
 * list reads.
 */
static void cell_line(const struct compare_result *r, const struct compare_row *row,
		      size_t g, bool why, struct strbuf *out)
{
	const struct compare_side *b = &row->sides[0], *o = &row->sides[g];
	const struct compare_diff *d = &row->diffs[g];
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s%s%s [%s]: ", row->name, *row->path ? " " : "", row->path,
		    streq(d->verdict, "~") ? "not" MAIL_GLUE "significant" : d->verdict);
	centres(&line, centre_of(b) * r->unit_scale, centre_of(o) * r->unit_scale,
		r->unit_shown);
	strbuf_adds(&line, " (");
	if (d->test == TEST_EXACT) {
		/* A count's difference is exact: its size, not an interval. */
		strbuf_addf(&line, "%+.2f" MAIL_GLUE "a" MAIL_GLUE "call, ", d->shift);
		percent(&line, d->change_pct);
		strbuf_addf(&line, "; every boot counted alike)");
		strbuf_addf(&line, "; %zu" MAIL_GLUE "v" MAIL_GLUE "%zu" MAIL_GLUE "boots",
			    b->n, o->n);
		mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
		return;
	}
	percent(&line, d->change_pct);
	strbuf_addf(&line, ", 95" MAIL_GLUE "%%" MAIL_GLUE "CI %+.1f..%+.1f; ",
		    d->change_lo_pct, d->change_hi_pct);
	/* The change in the unit too, as seed 004 writes "(9 cycles)". */
	if (d->shift > 0)
		strbuf_adds(&line, "+");
	mail_figure(&line, d->shift * r->unit_scale);
	glued_unit(&line, r->unit_shown);
	strbuf_adds(&line, ")");
	if (isfinite(b->ns_median) && isfinite(o->ns_median)) {
		strbuf_adds(&line, ", ");
		centres(&line, b->ns_median, o->ns_median, "ns");
		strbuf_adds(&line, " (");
		percent(&line, d->ns_change_pct);
		strbuf_adds(&line, ")");
	}
	strbuf_addf(&line, "; %zu" MAIL_GLUE "v" MAIL_GLUE "%zu" MAIL_GLUE "%s", b->n, o->n,
		    sample_kind(r, o));
	if (why)
		strbuf_addf(&line, "; not significant: %s", d->reason);
	mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
}

/*
 * The smallest changes group g calls significant, upwards and downwards
 * (INFINITY where none): a cell that moved the same way by half as much
 * or more, beyond the threshold, and was not called so is one the reader
 * asks about (timens: four clocks at +3.3 % beside one called worse at
 * +4.7 %; clock-gettime-tai vdso at +3.45 % among clocks called worse).
 */
struct smallest_changes {
	double up, down;	/* sizes, positive */
	double threshold_pct;
};

static struct smallest_changes smallest_significant(const struct plot_input *in,
						    const struct compare_result *r,
						    size_t g)
{
	struct smallest_changes s = { INFINITY, INFINITY, r->opts.threshold_pct };

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || !d->significant || !plot_row_selected(in, &r->rows[i]))
			continue;
		if (d->change_pct > 0)
			s.up = fmin(s.up, d->change_pct);
		else
			s.down = fmin(s.down, -d->change_pct);
	}
	return s;
}

/* A cell not called significant that moved about as far as one that was. */
static bool asked_about(const struct compare_diff *d, const struct smallest_changes *s)
{
	double size = fabs(d->change_pct), near = d->change_pct > 0 ? s->up : s->down;

	return d->valid && !d->significant && !d->few && isfinite(d->change_lo_pct) &&
	       size > s->threshold_pct && size >= near / 2;
}

/* Whether every cell of group g that did not change is "same". */
static bool same_everywhere(const struct plot_input *in, const struct compare_result *r,
			    size_t g)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (d->valid && !d->significant && plot_row_selected(in, &r->rows[i]) &&
		    !streq(d->verdict, "same"))
			return false;
	}
	return true;
}

/* The cells that did not change, in one line. */
static void unchanged_line(const struct plot_input *in, const struct compare_result *r,
			   size_t g, size_t changed, const struct smallest_changes *smallest,
			   struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	double lo = INFINITY, hi = -INFINITY, mde_lo = INFINITY, mde_hi = -INFINITY;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || d->significant || !plot_row_selected(in, &r->rows[i]) ||
		    asked_about(d, smallest))
			continue;
		n++;
		lo = fmin(lo, d->change_pct);
		hi = fmax(hi, d->change_pct);
		if (isfinite(d->mde_pct)) {
			mde_lo = fmin(mde_lo, d->mde_pct);
			mde_hi = fmax(mde_hi, d->mde_pct);
		}
	}
	if (!n)
		return;
	strbuf_addf(&line, "%s %zu cell%s: ", changed ? "the other" : "all", n,
		    n == 1 ? "" : "s");
	if (r->exact && lo == 0 && hi == 0 && same_everywhere(in, r, g)) {
		strbuf_adds(&line, "the same count at every boot of both");
	} else if (compare_spread_unknown(r)) {
		strbuf_adds(&line, "changes ");
		percent(&line, lo);
		strbuf_adds(&line, "..");
		percent(&line, hi);
		strbuf_adds(&line, ", no verdict (see below)");
	} else if (fmax(-lo, hi) <= r->opts.threshold_pct) {
		strbuf_addf(&line, "no change beyond %g" MAIL_GLUE "%%", r->opts.threshold_pct);
	} else {
		/*
		 * Not significant is not "within the noise": the changes, and
		 * the smallest these spreads would have caught (mde).
		 */
		strbuf_adds(&line, "no significant change (changes ");
		percent(&line, lo);
		strbuf_adds(&line, "..");
		percent(&line, hi);
		if (mde_lo <= mde_hi) {
			strbuf_addf(&line, "; the smallest changes these spreads catch "
				    "80" MAIL_GLUE "%%" MAIL_GLUE "of the time, the mde: "
				    "%.1f..%.1f" MAIL_GLUE "%%", mde_lo, mde_hi);
		}
		strbuf_adds(&line, ")");
	}
	mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
}

/*
 * The cells measured on one side only: not compared, and said, so that
 * "the other 19" is not read as all there was (hotplug's states that one
 * run never reached). At most ONE_SIDE_NAMED named.
 */
#define ONE_SIDE_NAMED 6

static void one_side_line(const struct plot_input *in, const struct compare_result *r,
			  size_t g, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT, names = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];

		if (row->sides[0].present == row->sides[g].present ||
		    !plot_row_selected(in, row))
			continue;
		if (n++ < ONE_SIDE_NAMED)
			strbuf_addf(&names, "%s%s%s%s", names.len ? ", " : "", row->name,
				    *row->path ? " " : "", row->path);
	}
	if (!n)
		return;
	strbuf_addf(&line, "%zu cell%s measured on one side only, not compared: %s%s",
		    n, n == 1 ? "" : "s", names.buf, n > ONE_SIDE_NAMED ? ", ..." : "");
	mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
}

/*
 * Above the verdicts, what a reader of the thread must not miss: timings
 * from an emulator, and every fact of the machines that differs between
 * the sides (clocksource, CPU, libc...), with what one can explain alone.
 */
static void sides_block(const struct plot_input *in, const struct compare_result *r,
			size_t g, struct strbuf *out)
{
	const struct side_differences *d = &r->side_differences[g];
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

	if ((r->emulated[g] || r->emulated[0]) && !r->exact) {
		bool both = r->emulated[g] && r->emulated[0];

		strbuf_adds(&line, "EMULATED: ");
		if (both) {
			strbuf_adds(&line, "both sides, ");
			group_desc(in, 0, &line);
			strbuf_adds(&line, " and ");
		}
		group_desc(in, r->emulated[g] ? g : 0, &line);
		strbuf_addf(&line, "%s ran under qemu's TCG emulator: %s timings compare "
			    "code paths on one emulator, not the costs on hardware.",
			    both ? "," : "", both ? "their" : "its");
		mail_wrap(out, line.buf, MAIL_WIDTH, "", "  ");
		strbuf_reset(&line);
	}
	if (!d->n)
		return;
	strbuf_adds(&line, "Different between the sides: ");
	for (size_t i = 0; i < d->n; i++)
		strbuf_addf(&line, "%s%s %s against %s", i ? "; " : "", d->items[i].fact,
			    d->items[i].base, d->items[i].other);
	strbuf_addch(&line, '.');
	if (d->explains)
		strbuf_addf(&line, " %s.", d->explains);
	mail_wrap(out, line.buf, MAIL_WIDTH, "", "  ");
}

static void group_block(const struct plot_input *in, const struct mail_options *mo,
			const struct compare_result *r, size_t g, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf head = STRBUF_INIT;
	struct smallest_changes smallest = smallest_significant(in, r, g);
	size_t listed = 0;
	bool ns = false;

	for (size_t i = 0; i < r->nrows && !ns; i++)
		ns = isfinite(r->rows[i].sides[g].ns_median);
	sides_block(in, r, g, out);
	group_desc(in, g, &head);
	strbuf_adds(&head, " against ");
	group_desc(in, 0, &head);
	strbuf_addf(&head, ", %s%s%s, lower is better:", r->unit_shown,
		    streq(r->unit, "ns") ? " per call" : "",
		    ns ? " (ns per call beside)" : "");
	mail_wrap(out, head.buf, MAIL_WIDTH, "", "  ");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || !plot_row_selected(in, &r->rows[i]))
			continue;
		if (d->significant || (mo && mo->all_cells) || asked_about(d, &smallest)) {
			cell_line(r, &r->rows[i], g, !d->significant && asked_about(d, &smallest),
				  out);
			listed += d->significant || asked_about(d, &smallest);
		}
	}
	if (!mo || !mo->all_cells)
		unchanged_line(in, r, g, listed, &smallest, out);
	one_side_line(in, r, g, out);
	if (r->machine_shift[g])
		mail_wrap(out, "Note: nearly every cell moved the same way, syscall and "
			  "vDSO paths alike: the machine itself may have changed between "
			  "the runs; replicates (several runs per label) tell.",
			  MAIL_WIDTH, "  ", "  ");
}

/* Whether a test judged some cell: not only counts judged by themselves. */
static bool tested(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].valid && r->rows[i].diffs[g].test != TEST_EXACT)
				return true;
	return false;
}

static int comparison(const struct plot_input *in, const struct mail_options *mo,
		      struct strbuf *out, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf rule = STRBUF_INIT, tests = STRBUF_INIT;
	struct compare_result r;

	if (plot_compare_build(in, in->groups, in->ngroups, &r, err) != 0)
		return -1;
	for (size_t g = 1; g < r.ngroups; g++) {
		group_block(in, mo, &r, g, out);
		strbuf_addch(out, '\n');
	}
	if (r.exact)
		mail_wrap(out, tested(&r) ?
			  "Counted, not timed: guest instructions retired per call "
			  "under qemu's icount (clockbench kernels --exact), the "
			  "harness's loop included; each boot's count a value. A cell "
			  "that every boot of each side counted alike is judged by the "
			  "counts themselves (same, or the difference, exact); one that "
			  "varies between boots by the rule below." :
			  "Counted, not timed: guest instructions retired per call "
			  "under qemu's icount (clockbench kernels --exact), the "
			  "harness's loop included; each boot's count a value, and "
			  "every boot of each side counted alike, so the counts are "
			  "compared themselves (same, or the difference, exact).",
			  MAIL_WIDTH, "", "");
	if (r.exact && !tested(&r)) {
		compare_free(&r);
		return 0;
	}
	if (compare_tests_phrase(&r, &tests)) {
		strbuf_addf(&rule, "A change counts when the %s-adjusted p (%s) is "
			    "below %g and its 95 %% CI clears +-%g %% (or the rounds' "
			    "own spread, if larger). ", r.opts.correction == CORRECT_HOLM ?
			    "Holm" : r.opts.correction == CORRECT_BH ?
			    "Benjamini-Hochberg" : "un", tests.buf, r.opts.alpha,
			    r.opts.threshold_pct);
	}
	strbuf_adds(&rule, "Values: ");
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

/* The median of a cell's core cycles per call, or NaN. */
static double core_median(const struct stored_cell *c)
{
	struct summary s;

	if (!c->core_cycles || !c->n)
		return NAN;
	stats_summarize_copy(c->core_cycles, c->n, &s);
	return s.median;
}

/* One run alone: its cells' medians, and core cycles beside ns. */
static void run_block(const struct plot_input *in, size_t g, const struct stored_run *r,
		      struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf head = STRBUF_INIT;

	group_desc(in, g, &head);
	if (in->groups[g].nruns > 1)
		strbuf_addf(&head, ", the run of %s", r->started);
	strbuf_addf(&head, ", %s, median%s with its 95" MAIL_GLUE "%%" MAIL_GLUE "CI:",
		    r->command, r->ncells && streq(r->cells[0].unit, "ns") ? " per call" : "");
	mail_wrap(out, head.buf, MAIL_WIDTH, "", "  ");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *c = &r->cells[i];
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
		struct summary s;
		double core = core_median(c);

		if (!plot_selected(in, c))
			continue;
		stats_summarize_copy(c->values, c->n, &s);
		strbuf_addf(&line, "%s%s%s: ", c->name, *c->path ? " " : "", c->path);
		mail_figure(&line, s.median);
		glued_unit(&line, c->unit);
		strbuf_adds(&line, " (");
		mail_figure(&line, s.median_lo);
		strbuf_adds(&line, "..");
		mail_figure(&line, s.median_hi);
		strbuf_adds(&line, ")");
		if (isfinite(core)) {
			strbuf_adds(&line, ", ");
			mail_figure(&line, core);
			glued_unit(&line, "core cycles");
		}
		strbuf_addf(&line, "; %zu" MAIL_GLUE "samples", s.n);
		mail_wrap(out, line.buf, MAIL_WIDTH, "  ", "      ");
	}
}

int mail_write(const struct plot_input *in, const struct mail_options *mo,
	       struct strbuf *out, struct strbuf *err)
{
	mail_machine(in, out);
	strbuf_adds(out, "\n\n");
	if (in->ngroups > 1) {
		if (comparison(in, mo, out, err) != 0)
			return -1;
	} else {
		for (size_t i = 0; i < in->groups[0].nruns; i++)
			run_block(in, 0, &in->groups[0].runs[i], out);
	}
	strbuf_adds(out, "\nTo reproduce:\n");
	mail_reproduce(in, "  ", out);
	return 0;
}

int mail_summary(const struct plot_input *in, struct strbuf *out, struct strbuf *err)
{
	return mail_write(in, NULL, out, err);
}
