// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/scale-table.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "basic/figure.h"
#include "basic/stats.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "report/summary-figures.h"
#include "results/compare.h"
#include "results/resolution.h"
#include "results/run-facts.h"

/* What the run's config says of its counts. */
struct scale_layout {
	bool idle;
	const unsigned *counts;	/* the thread (or idle thread) counts */
	size_t ncounts;
	const struct run_facts *facts;	/* threads: the CPU time of each stored cell */
};

static bool layout_of(const struct stored_run *r, struct scale_layout *l)
{
	const struct run_facts *f = run_facts(r);
	const struct run_counts *counts;

	if (!r->command || !streq(r->command, "scale") || !f->mode)
		return false;
	l->idle = streq(f->mode, "idle");
	counts = &f->settings.scale.threads;
	l->counts = counts->count;
	l->ncounts = counts->n;
	l->facts = f;
	return l->ncounts > 0 && r->ncells % l->ncounts == 0;
}

static unsigned count_at(const struct scale_layout *l, size_t k)
{
	return l->counts[k];
}

/* The cell's name without its "-threads-8" ("-idle-8"): its length. */
static size_t base_length(const struct scale_layout *l, const struct stored_cell *c,
			  unsigned count)
{
	char tail[48];
	size_t n = strlen(c->name), t;

	snprintf(tail, sizeof(tail), "-%s-%u", l->idle ? "idle" : "threads", count);
	t = strlen(tail);
	return n > t && streq(c->name + n - t, tail) ? n - t : 0;
}

bool scale_table_applies(const struct stored_run *r)
{
	struct scale_layout l;

	if (!layout_of(r, &l))
		return false;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct stored_cell *first = &r->cells[i - i % l.ncounts];
		size_t len = base_length(&l, &r->cells[i], count_at(&l, i % l.ncounts));

		if (!len || len != base_length(&l, first, count_at(&l, 0)) ||
		    strncmp(r->cells[i].name, first->name, len) ||
		    !streq(r->cells[i].path, first->path))
			return false;
	}
	return true;
}

static bool measured(const struct stored_cell *c)
{
	return c->values && c->n > 0;
}

/* "\ntimes (vdso)": the cell's name without its count, and its path. */
static void cell_title(FILE *f, const struct scale_layout *l,
		       const struct stored_cell *c)
{
	_cleanup_free_ char *name = xstrdup(c->name);

	name[base_length(l, c, count_at(l, 0))] = '\0';
	fputc('\n', f);
	text_put(f, name, TEXT_CELL_MAX);
	fputs(" (", f);
	text_put(f, c->path, TEXT_CELL_MAX);
	fputs(")\n", f);
}

/* x with its sign always, then suffix: "+12.5%". */
static void add_signed(struct table *t, double x, int decimals, const char *suffix)
{
	char buf[48];

	figure_fixed_signed(buf, sizeof(buf) - strlen(suffix), x, decimals);
	if (isfinite(x))
		strcat(buf, suffix);
	table_add_real_shown(t, x, buf);
}

/* The user and system seconds of stored cell i, from the run's config. */
static const struct run_cpu_time *cpu_time_of(const struct scale_layout *l,
					      const struct stored_cell *c, size_t i)
{
	const struct run_cpu_time *t = i < l->facts->settings.scale.ncpu_time ? &l->facts->settings.scale.cpu_time[i] : NULL;

	return t && t->cell && streq(t->cell, c->name) && t->user_s && t->n == c->n ?
	       t : NULL;
}

/* The threads' CPU time per call, in ns: (user + sys) / calls. */
static void summarize_per_call(const struct run_cpu_time *t, const struct stored_cell *c,
			       struct summary *s)
{
	_cleanup_free_ double *x = xmalloc((c->n ? c->n : 1) * sizeof(double));

	for (size_t i = 0; i < c->n; i++)
		x[i] = (t->user_s[i] + t->sys_s[i]) * 1e9 / (double)c->batch_calls;
	stats_summarize(x, c->n, s);
}

/*
 * The figures of a count's row, which the blocks show and the CSV writes:
 * NaN where there is none (a CI short of 95 %, the CPU times of an old
 * run, the extra cost of the first count).
 */
struct row_figures {
	double median, lo, hi, cv;
	double change_pct, per_call, user, sys;	/* threads */
	double delta, per_thread, core;		/* idle threads */
};

static void summary_figures(const struct summary *s, double cv, struct row_figures *f)
{
	bool ci = median_ci_is_95(s);

	f->median = s->median;
	f->lo = ci ? s->median_lo : NAN;
	f->hi = ci ? s->median_hi : NAN;
	f->cv = cv;
}

static void threads_figures(const struct scale_layout *l, const struct stored_run *r,
			    size_t i, const struct summary *base, struct row_figures *f)
{
	const struct stored_cell *c = &r->cells[i];
	const struct run_cpu_time *cpu = cpu_time_of(l, c, i);
	struct summary elapsed, per_call, user, sys;

	stored_cell_summarize(r, c, c->values, &elapsed);
	summary_figures(&elapsed, elapsed.robust_cv_pct, f);
	f->change_pct = base->n ? 100.0 * (elapsed.median / base->median - 1) : 0.0;
	f->per_call = f->user = f->sys = NAN;
	if (!cpu)
		return;
	summarize_per_call(cpu, c, &per_call);
	stats_summarize_copy(cpu->user_s, c->n, &user);
	stats_summarize_copy(cpu->sys_s, c->n, &sys);
	f->per_call = per_call.median;
	f->user = user.median;
	f->sys = sys.median;
}

static void idle_figures(const struct scale_layout *l, const struct stored_run *r,
			 size_t i, const struct summary *base, struct row_figures *f)
{
	const struct stored_cell *c = &r->cells[i];
	unsigned count = count_at(l, i % l->ncounts), first = count_at(l, 0);
	struct summary s, core;
	/* The extra cost over the first count, in all and per extra thread. */
	bool extra = i % l->ncounts && base->n && count != first;

	stored_cell_summarize(r, c, c->values, &s);
	summary_figures(&s, compare_cell_robust_cv_pct(c), f);
	f->delta = extra ? s.median - base->median : NAN;
	f->per_thread = extra ? f->delta / ((double)count - (double)first) : NAN;
	f->core = NAN;
	if (c->core_cycles) {
		stored_cell_summarize(r, c, c->core_cycles, &core);
		f->core = core.median;
	}
}

/*
 * A block's figure columns: key and title, as scale has always titled
 * them, the figure and its decimals; sign: a signed change, with this
 * suffix (NULL: a plain figure).
 */
struct figure_column {
	const char *key, *title;
	size_t figure;		/* offsetof(struct row_figures, ...) */
	int decimals;
	const char *sign;
};

#define FIGURE(key, title, field, decimals) \
	{ key, title, offsetof(struct row_figures, field), decimals, NULL }
#define CHANGE(key, title, field, decimals, suffix) \
	{ key, title, offsetof(struct row_figures, field), decimals, suffix }

static const struct figure_column threads_columns[] = {
	FIGURE("elapsed_s_median", "elapsed-s", median, 3),
	FIGURE("elapsed_s_ci95_lo", "ci95-lo", lo, 3),
	FIGURE("elapsed_s_ci95_hi", "ci95-hi", hi, 3),
	FIGURE("elapsed_robust_cv_pct", "rCV%", cv, 2),
	CHANGE("change_pct", "change", change_pct, 1, "%"),
	FIGURE("ns_per_call_median", "ns/call", per_call, 1),
	FIGURE("user_s_median", "user-s", user, 3),
	FIGURE("sys_s_median", "sys-s", sys, 3),
	{ NULL, NULL, 0, 0, NULL },
};

static const struct figure_column idle_columns[] = {
	FIGURE("ns_median", "ns/call", median, 2),
	FIGURE("ns_ci95_lo", "ci95-lo", lo, 2),
	FIGURE("ns_ci95_hi", "ci95-hi", hi, 2),
	FIGURE("robust_cv_pct", "rCV%", cv, 2),
	CHANGE("delta_ns", "+ns", delta, 2, ""),
	FIGURE("ns_per_idle_thread", "ns/thread", per_thread, 3),
	FIGURE("core", "core", core, 1),
	{ NULL, NULL, 0, 0, NULL },
};

static const struct figure_column *figure_columns(const struct scale_layout *l)
{
	return l->idle ? idle_columns : threads_columns;
}

static struct table *block_table(const struct scale_layout *l)
{
	struct table *t = table_new();

	if (l->idle)
		table_add_column(t, "idle_threads", "idle-threads", TABLE_INT, NULL);
	else
		table_add_column(t, "threads", NULL, TABLE_INT, NULL);
	for (const struct figure_column *c = figure_columns(l); c->key; c++)
		table_add_column(t, c->key, c->title, TABLE_REAL, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	return t;
}

static void add_figures(struct table *t, const struct scale_layout *l,
			const struct row_figures *f)
{
	for (const struct figure_column *c = figure_columns(l); c->key; c++) {
		double x;

		/* Copied, not cast: a char * cast to double * may be misaligned. */
		memcpy(&x, (const char *)f + c->figure, sizeof(x));

		if (c->sign)
			add_signed(t, x, c->decimals, c->sign);
		else
			table_add_real(t, x, c->decimals);
	}
}

/* The block of the cell whose counts start at stored cell first. */
static void print_block(FILE *f, const struct scale_layout *l,
			const struct stored_run *r, size_t first)
{
	struct table *t = block_table(l);
	struct summary base = { 0 };
	struct row_figures fig;

	cell_title(f, l, &r->cells[first]);
	if (measured(&r->cells[first]))
		stored_cell_summarize(r, &r->cells[first], r->cells[first].values, &base);
	for (size_t i = first; i < first + l->ncounts; i++) {
		const struct stored_cell *c = &r->cells[i];

		unsigned count = count_at(l, i % l->ncounts);

		table_add_int(t, count);
		if (!measured(c)) {
			table_fill_missing(t);
			table_add_note(t, "%u %s: not reached, the run was interrupted",
				       count, l->idle ? "idle threads" : "threads");
			continue;
		}
		if (l->idle)
			idle_figures(l, r, i, &base, &fig);
		else
			threads_figures(l, r, i, &base, &fig);
		add_figures(t, l, &fig);
		table_add_int(t, (int64_t)c->n);
	}
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

void scale_table_print(FILE *f, const struct stored_run *r)
{
	struct scale_layout l;

	if (!layout_of(r, &l))
		return;
	for (size_t i = 0; i < r->ncells; i += l.ncounts)
		print_block(f, &l, r, i);
}

/* ---- CSV ------------------------------------------------------------ */

/*
 * The CSV's columns: the cell (name without its count, api, clock,
 * path), the count and n, then figures as the blocks show them. Its
 * keys are scale's CSV schema; the figures are written in full.
 */
static struct table *csv_table(const struct scale_layout *l)
{
	static const char *const threads[] = {
		"elapsed_s_median", "elapsed_s_ci95_lo", "elapsed_s_ci95_hi",
		"elapsed_robust_cv_pct", "ns_per_call_median", "user_s_median",
		"sys_s_median", NULL,
	};
	static const char *const idle[] = {
		"ns_median", "ns_ci95_lo", "ns_ci95_hi", "ns_round_robust_cv_pct",
		"delta_ns", "ns_per_idle_thread", NULL,
	};
	struct table *t = table_new();

	table_add_text_columns(t, "name", "api", "clock", "path", NULL);
	table_add_column(t, l->idle ? "idle_threads" : "threads", NULL, TABLE_INT, NULL);
	table_add_column(t, "n", NULL, TABLE_INT, NULL);
	for (const char *const *k = l->idle ? idle : threads; *k; k++)
		table_add_column(t, *k, NULL, TABLE_REAL, NULL);
	return t;
}

/* The cell's name without its count, its api, clock and path, the count. */
static void add_csv_prefix(struct table *t, const struct scale_layout *l,
			   const struct stored_cell *c, size_t k)
{
	_cleanup_free_ char *name = xstrdup(c->name);

	name[base_length(l, c, count_at(l, k))] = '\0';
	table_add_text(t, name);
	table_add_text(t, c->api);
	table_add_text(t, c->clock);
	table_add_text(t, c->path);
	table_add_int(t, count_at(l, k));
}

/* The figures of a row, n of them; CSV writes each in full, whatever its decimals. */
static void add_csv_figures(struct table *t, const double *x, size_t n)
{
	for (size_t k = 0; k < n; k++)
		table_add_real(t, x[k], 6);
}

static void add_csv_row(struct table *t, const struct scale_layout *l,
			const struct stored_run *r, size_t i, const struct summary *base)
{
	struct row_figures f;

	if (l->idle) {
		idle_figures(l, r, i, base, &f);
		const double x[] = { f.median, f.lo, f.hi, f.cv, f.delta, f.per_thread };

		add_csv_figures(t, x, ARRAY_SIZE(x));
	} else {
		threads_figures(l, r, i, base, &f);
		const double x[] = { f.median, f.lo, f.hi, f.cv, f.per_call, f.user, f.sys };

		add_csv_figures(t, x, ARRAY_SIZE(x));
	}
}

/* The rows of the cell whose counts start at stored cell first. */
static void add_csv_block(struct table *t, const struct scale_layout *l,
			  const struct stored_run *r, size_t first)
{
	struct summary base = { 0 };

	if (measured(&r->cells[first]))
		stored_cell_summarize(r, &r->cells[first], r->cells[first].values, &base);
	for (size_t i = first; i < first + l->ncounts; i++) {
		const struct stored_cell *c = &r->cells[i];

		add_csv_prefix(t, l, c, i % l->ncounts);
		/* A count not reached: n 0 and no figures. */
		table_add_int(t, measured(c) ? (int64_t)c->n : 0);
		if (!measured(c))
			table_fill_missing(t);
		else
			add_csv_row(t, l, r, i, &base);
	}
}

void scale_csv_print(FILE *f, const struct stored_run *r)
{
	struct scale_layout l;
	struct table *t;

	if (!layout_of(r, &l))
		return;
	t = csv_table(&l);
	for (size_t first = 0; first < r->ncells; first += l.ncounts)
		add_csv_block(t, &l, r, first);
	table_print(f, t, FORMAT_CSV);
	table_free(t);
}
