// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/exec-record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "results/record.h"
#include "results/run-settings.h"

/* ---- describing ------------------------------------------------------ */

/* The harness's median wall time, NAN when it was not measured. */
static double harness_median(const struct exec_harness *h)
{
	struct summary s;

	if (!h->n)
		return NAN;
	stats_summarize_copy(h->wall, h->n, &s);
	return s.median;
}

/* The words as given: after --, or split from -c (--shell: the line).
 * The array is malloc'd, the words c's or the options'. */
static struct run_words command_words(const struct exec_campaign *e,
				      const struct exec_command *c)
{
	char *const *given = c->words ? c->words : e->o.command;
	size_t n = 0;
	struct run_words w;

	while (given && given[n])
		n++;
	w = (struct run_words){ .word = xcalloc(n + 2, sizeof(*w.word)), .whole = true };
	if (!given)
		w.word[w.n++] = c->text;
	for (; w.n < n; w.n++)
		w.word[w.n] = given[w.n];
	return w;
}

static json_t *config_json(const struct exec_campaign *e, const struct exec_command *c)
{
	const struct exec_options *o = &e->o;
	const char *labels[EXEC_MAX_COMMANDS];
	struct exec_settings s = {
		.command = command_words(e, c), .command_line = c->text,
		.program = c->program, .shell = o->shell, .prepare = c->prepare,
		.runs = (double)o->runs, .warmup = (double)o->warmup,
		.ignore_failure = o->ignore_failure, .show_output = o->show_output,
		.harness_wall_median_s = harness_median(&e->harness),
		.accounting = &e->acct, .seed = NAN,
	};
	json_t *config;

	/* With several commands: the alternation, and the order they ran in. */
	if (e->ncmds > 1) {
		for (size_t i = 0; i < e->ncmds; i++)
			labels[i] = e->cmds[i].label;
		s.interleave = e->interleave;
		s.commands = (struct run_words){ .word = labels, .n = e->ncmds };
		s.order = o->order == EXEC_ORDER_RANDOM ? "random" :
			  o->order == EXEC_ORDER_SEQUENCE ? "sequence" : "A B B A ...";
		if (o->order == EXEC_ORDER_RANDOM)
			s.seed = (double)e->seed;	/* at most 2^53: exact */
	}
	if (c->value) {
		s.parameter = o->param;
		s.value = c->value;
	}
	config = exec_settings_json(&s);
	free(s.command.word);
	return config;
}

/* The invocation's disturbance as report/exec-report.c prints it. */
static void describe_disturbance(const struct exec_campaign *e,
				 struct exec_report_disturbance *out)
{
	struct exec_disturb_medians d;

	exec_campaign_disturbance_medians(e, &d);
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

struct exec_report_command *exec_campaign_describe(const struct exec_campaign *e,
						   bool json, bool interrupted,
						   struct exec_report *r)
{
	const struct exec_options *o = &e->o;
	struct exec_report_command *cmds = xcalloc(e->ncmds, sizeof(*cmds));

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
		.show_output = o->show_output, .random = o->order == EXEC_ORDER_RANDOM,
		.sequence = o->order == EXEC_ORDER_SEQUENCE,
		.seed = (unsigned long long)e->seed, .param = o->param,
		.interrupted = interrupted,
		.harness_program = e->harness.program, .harness_what = e->harness.what,
		.harness_wall = e->harness.wall, .harness_n = e->harness.n,
		.acct = &e->acct,
	};
	describe_disturbance(e, &r->disturbance);
	return cmds;
}

void exec_campaign_describe_free(struct exec_report_command *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_decref(cmds[i].config);
		json_decref(cmds[i].disturbance);
	}
	free(cmds);
}

/* ---- the stored run -------------------------------------------------- */

/* Each run's round: its repetition, so that compare pairs them again. */
static void add_rounds(struct stored_cell *sc, size_t n)
{
	sc->rounds = xcalloc(n ? n : 1, sizeof(uint32_t));
	for (size_t k = 0; k < n; k++)
		sc->rounds[k] = (uint32_t)k;
	sc->nrounds = (uint32_t)n;
}

bool exec_campaign_record(const struct exec_campaign *e, size_t k,
			  struct stored_run *run)
{
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

/* ---- warnings ---------------------------------------------------------- */

/* A first run far slower than the others: cold caches, or its own record. */
static void find_slow_first(const struct exec_campaign *e, const struct exec_command *c,
			    struct exec_report_warnings *w)
{
	const struct exec_samples *s = &c->s;
	struct summary rest;

	if (e->o.warmup || s->n < 3)
		return;
	stats_summarize_copy(s->wall + 1, s->n - 1, &rest);
	if (!(s->wall[0] > 2 * rest.median && s->wall[0] > rest.max))
		return;
	w->slow_first = true;
	w->first_s = s->wall[0];
	w->rest_median_s = rest.median;
	w->first_disturbed = c->reps[0].disturbed;
	w->first_involuntary = c->reps[0].involuntary;
	w->first_wait_ms = c->reps[0].wait_ms;
}

size_t exec_two_groups_split(const double *sorted, size_t n)
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

static void find_two_groups(const struct exec_command *c, struct exec_report_warnings *w)
{
	const struct exec_samples *s = &c->s;
	_cleanup_free_ double *sorted = NULL;
	size_t k;

	if (s->n < 6)
		return;
	sorted = stats_sorted_copy(s->wall, s->n);
	k = exec_two_groups_split(sorted, s->n);
	if (!k)
		return;
	w->low_n = k;
	w->low_min_s = sorted[0];
	w->low_max_s = sorted[k - 1];
	w->high_n = s->n - k;
	w->high_min_s = sorted[k];
	w->high_max_s = sorted[s->n - 1];
}

/*
 * Whether the command that ran just before each of c's runs decides its
 * time: its runs after itself against those after another (A B B A
 * alternates the two), far apart and significantly. Not with --prepare,
 * which restores the state before every run.
 */
static bool find_order_effect(const struct exec_campaign *e, const struct exec_command *c,
			      struct exec_report_warnings *w)
{
	const struct exec_samples *s = &c->s;
	_cleanup_free_ double *x = xmalloc((s->n ? s->n : 1) * sizeof(double));
	_cleanup_free_ double *y = xmalloc((s->n ? s->n : 1) * sizeof(double));
	size_t self = (size_t)(c - e->cmds), nx = 0, ny = 0;
	struct mwu_result mwu;
	struct summary sx, sy;

	for (size_t i = 0; i < s->n; i++) {
		if (c->after[i] == EXEC_AFTER_NONE)
			continue;
		if (c->after[i] == self)
			x[nx++] = s->wall[i];
		else
			y[ny++] = s->wall[i];
	}
	if (c->prepare || nx < 3 || ny < 3)
		return false;
	stats_mann_whitney(x, nx, y, ny, &mwu);
	stats_summarize_copy(x, nx, &sx);
	stats_summarize_copy(y, ny, &sy);
	if (!(mwu.p < 0.01 && fmax(sx.median, sy.median) >= 2 * fmin(sx.median, sy.median)))
		return false;
	w->order_effect = true;
	w->after_self = nx;
	w->after_self_median_s = sx.median;
	w->after_other = ny;
	w->after_other_median_s = sy.median;
	return true;
}

void exec_campaign_warnings(const struct exec_campaign *e, size_t k,
			    struct exec_report_warnings *w)
{
	const struct exec_command *c = &e->cmds[k];

	*w = (struct exec_report_warnings){
		.label = e->ncmds > 1 ? c->label : NULL, .n = c->s.n,
		.outliers = exec_outliers(c->s.wall, c->s.n),
		.outlier_mads = EXEC_OUTLIER_MADS,
	};
	find_slow_first(e, c, w);
	/* One command runs after itself alone: no order to depend on. */
	if (e->ncmds > 1 && find_order_effect(e, c, w))
		return;
	find_two_groups(c, w);
}
