// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/compare.h"
#include "results/run-facts.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basic/error.h"
#include "basic/figure.h"
#include "basic/util.h"

/* Fewer samples than this per side cannot support a verdict. */
#define MIN_RAW_SAMPLES 5
/* A side whose outliers exceed this fraction is noisy. */
#define NOISY_OUTLIER_FRACTION 0.10
/* The level of every CI of a change or a centre, and its normal quantile. */
#define CHANGE_LEVEL 0.95
#define Z_975 1.959963984540054		/* R: qnorm(0.975) */
/* The power at which the minimum detectable effect is quoted. */
#define MDE_POWER 0.8

static const char *const metric_names[] = {
	[METRIC_AUTO] = "auto",
	[METRIC_NS] = "ns",
	[METRIC_CYCLES] = "cycles",
	[METRIC_SECONDS] = "seconds",
	[METRIC_CORE_CYCLES] = "core-cycles",
	[METRIC_INSTRUCTIONS] = "instructions",
};

const char *compare_metric_name(enum compare_metric m)
{
	return metric_names[m];
}

int compare_metric_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(metric_names); i++)
		if (streq(name, metric_names[i]))
			return (int)i;
	return -1;
}

void compare_options_default(struct compare_options *o)
{
	*o = (struct compare_options){
		.metric = METRIC_AUTO,
		.alpha = 0.05,
		.threshold_pct = 1.0,
		.noise_pct = 5.0,
		.correction = CORRECT_BH,
	};
}

/* ---- cells and their samples ---------------------------------------- */

static bool cell_is_measured(const struct stored_cell *c)
{
	return streq(c->status, "ok") && c->n > 0;
}

/* The samples of cell in the metric, or NULL when it has none. */
static const double *metric_samples(const struct stored_cell *c,
				    enum compare_metric m)
{
	if (!cell_is_measured(c))
		return NULL;
	switch (m) {
	case METRIC_NS:
		return streq(c->unit, "ns") ? c->values : NULL;
	case METRIC_SECONDS:
		return streq(c->unit, "s") ? c->values : NULL;
	case METRIC_CYCLES:
		return c->cycles;
	case METRIC_CORE_CYCLES:
		return streq(c->unit, "ns") ? c->core_cycles : NULL;
	case METRIC_INSTRUCTIONS:
		return streq(c->unit, "instructions") ? c->values : NULL;
	case METRIC_AUTO:
		break;
	}
	return NULL;
}

/*
 * The cell name/path of run, searched from *at on (wrapping round), *at
 * then set to where it was. Runs list their cells in the same order, so a
 * row looked up in run after run is found at once, not by a scan of every
 * cell: with 2 x 1000 runs the scans were a quarter of compare's time.
 */
static const struct stored_cell *find_cell(const struct stored_run *run,
					   const char *name, const char *path,
					   size_t *at)
{
	for (size_t k = 0; k < run->ncells; k++) {
		size_t i = (*at + k) % run->ncells;

		if (streq(run->cells[i].name, name) && streq(run->cells[i].path, path)) {
			*at = i;
			return &run->cells[i];
		}
	}
	return NULL;
}

/* Whether run has core cycles in some measured cell. */
static bool run_has_core_cycles(const struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (metric_samples(&run->cells[i], METRIC_CORE_CYCLES))
			return true;
	return false;
}

/* Core cycles judge by default, as soon as every run has them. */
static bool all_runs_have_core_cycles(const struct compare_group *groups,
				      size_t ngroups)
{
	for (size_t g = 0; g < ngroups; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (!run_has_core_cycles(&groups[g].runs[k]))
				return false;
	return ngroups > 0;
}

static enum compare_metric resolve_metric(const struct compare_group *groups,
					  size_t ngroups, enum compare_metric asked)
{
	const struct compare_group *base = &groups[0];

	if (asked != METRIC_AUTO)
		return asked;
	if (all_runs_have_core_cycles(groups, ngroups))
		return METRIC_CORE_CYCLES;
	for (size_t r = 0; r < base->nruns; r++)
		for (size_t i = 0; i < base->runs[r].ncells; i++) {
			const struct stored_cell *c = &base->runs[r].cells[i];

			if (!cell_is_measured(c))
				continue;
			if (streq(c->unit, "instructions"))
				return METRIC_INSTRUCTIONS;
			return streq(c->unit, "s") ? METRIC_SECONDS : METRIC_NS;
		}
	return METRIC_NS;
}

static const char *metric_unit(const struct compare_group *base,
			       enum compare_metric m)
{
	if (m == METRIC_SECONDS)
		return "s";
	if (m == METRIC_NS)
		return "ns";
	if (m == METRIC_CORE_CYCLES)
		return "core cycles";
	if (m == METRIC_INSTRUCTIONS)
		return "instructions";
	for (size_t r = 0; r < base->nruns; r++)
		for (size_t i = 0; i < base->runs[r].ncells; i++)
			if (base->runs[r].cells[i].cycles)
				return base->runs[r].cells[i].cycles_unit;
	return "cycles";
}

/* ---- rows: the union of cells, in the order they first appear -------- */

/* Whether a row is name/path, searched from *at on as find_cell() does. */
static bool has_row(const struct compare_result *r, const char *name,
		    const char *path, size_t *at)
{
	for (size_t k = 0; k < r->nrows; k++) {
		size_t i = (*at + k) % r->nrows;

		if (streq(r->rows[i].name, name) && streq(r->rows[i].path, path)) {
			*at = i;
			return true;
		}
	}
	return false;
}

bool compare_cell_matches(const char *cells, const char *name, const char *path)
{
	char both[256];

	if (!cells)
		return true;
	snprintf(both, sizeof(both), "%s/%s", name, path);
	return fnmatch(cells, name, 0) == 0 || fnmatch(cells, both, 0) == 0;
}

static void collect_rows(struct compare_result *r)
{
	size_t cap = 0, at = 0;

	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t k = 0; k < r->groups[g].nruns; k++) {
			const struct stored_run *run = &r->groups[g].runs[k];

			for (size_t i = 0; i < run->ncells; i++) {
				const struct stored_cell *c = &run->cells[i];
				struct compare_row *row;

				if (!metric_samples(c, r->metric) ||
				    !compare_cell_matches(r->opts.cells, c->name, c->path) ||
				    has_row(r, c->name, c->path, &at))
					continue;
				grow_array((void **)&r->rows, &cap, r->nrows + 1,
					   sizeof(*r->rows));
				row = &r->rows[r->nrows++];
				row->name = xstrdup(c->name);
				row->path = xstrdup(c->path);
				row->sides = xcalloc(r->ngroups, sizeof(*row->sides));
				row->diffs = xcalloc(r->ngroups, sizeof(*row->diffs));
			}
		}
}

/* ---- one group's side of a row -------------------------------------- */

static double median_of_copy(const double *x, size_t n)
{
	double *tmp = xmalloc(n * sizeof(double));
	double m;

	memcpy(tmp, x, n * sizeof(double));
	stats_sort(tmp, n);
	m = stats_quantile_sorted(tmp, n, 0.5);
	free(tmp);
	return m;
}

size_t compare_round_medians(const struct stored_cell *c, const double *x,
			     double *out)
{
	double *tmp = xmalloc(c->n * sizeof(double));
	size_t k = 0;

	for (uint32_t round = 0; round < c->nrounds; round++) {
		size_t m = 0;

		for (size_t i = 0; i < c->n; i++)
			if (c->rounds[i] == round)
				tmp[m++] = x[i];
		if (!m)
			continue;
		stats_sort(tmp, m);
		out[k++] = stats_quantile_sorted(tmp, m, 0.5);
	}
	free(tmp);
	return k;
}

static bool has_rounds(const struct stored_cell *c)
{
	return c->rounds && c->nrounds >= 2;
}

/*
 * What a single run contributes: one median per round when it was measured
 * in rounds (the drift during the run is then part of the noise), else its
 * raw samples. Returns a malloc'd array of *n values.
 */
static double *run_samples(const struct stored_cell *c, const double *x,
			   size_t *n)
{
	double *out;

	if (has_rounds(c)) {
		out = xmalloc(c->nrounds * sizeof(double));
		*n = compare_round_medians(c, x, out);
		return out;
	}
	out = xmalloc(c->n * sizeof(double));
	memcpy(out, x, c->n * sizeof(double));
	*n = c->n;
	return out;
}

/*
 * A replicate's value, the median of its round medians (or of its raw
 * samples), and the squared relative standard error of that value from
 * the same samples: what the run alone says its value is good to.
 */
static double run_value(const struct stored_cell *c, const double *x,
			double *rel_var)
{
	size_t n;
	_cleanup_free_ double *v = run_samples(c, x, &n);
	double value = median_of_copy(v, n), se = stats_median_se(v, n);

	*rel_var = value > 0 && isfinite(se) ? (se / value) * (se / value) : 0;
	return value;
}

double compare_cell_robust_cv_pct(const struct stored_cell *c)
{
	double *v, cv;
	size_t n;

	if (!cell_is_measured(c))
		return NAN;
	v = run_samples(c, c->values, &n);
	cv = stats_robust_cv_pct(v, n);
	free(v);
	return cv;
}

/* A single run's samples, or one value per run for replicates. */
static void gather_samples(struct compare_side *s, const struct compare_group *g,
			   const struct compare_row *row, enum compare_metric m,
			   bool replicates)
{
	double var_sum = 0;
	size_t at = 0;

	for (size_t k = 0; k < g->nruns; k++) {
		const struct stored_cell *c = find_cell(&g->runs[k], row->name, row->path, &at);
		const double *x = c ? metric_samples(c, m) : NULL;
		double rel_var;

		if (!x) {
			if (c && c->status && !s->status[0])
				snprintf(s->status, sizeof(s->status), "%s", c->status);
			continue;
		}
		if (!replicates) {
			s->samples = run_samples(c, x, &s->n);
			s->by_rounds = has_rounds(c);
			return;
		}
		if (!s->samples)
			s->samples = xmalloc(g->nruns * sizeof(double));
		s->samples[s->n++] = run_value(c, x, &rel_var);
		var_sum += rel_var;
	}
	s->within_var = s->n ? var_sum / (double)s->n : 0;
}

/* The median and its binomial CI, or the replicates' geometric mean. */
static void side_center(struct compare_side *s, bool replicates)
{
	s->center = s->sum.median;
	s->center_lo = s->sum.median_lo;
	s->center_hi = s->sum.median_hi;
	s->center_coverage = s->sum.median_ci_coverage;
	s->center_kind = CENTER_MEDIAN;
	if (!replicates || !(s->sum.min > 0))
		return;
	s->center_kind = CENTER_RUNS_GEOMEAN;
	if (stats_geomean_ci(s->samples, s->n, CHANGE_LEVEL, s->within_var,
			     &s->center, &s->center_lo, &s->center_hi))
		s->center_coverage = CHANGE_LEVEL;
	else
		s->center_coverage = NAN;
}

static void summarize_side(struct compare_side *s, const struct compare_options *o,
			   bool replicates)
{
	s->present = s->n > 0;
	if (!s->present)
		return;
	stats_summarize_copy(s->samples, s->n, &s->sum);
	side_center(s, replicates);
	s->few = s->n < 2;
	s->noisy = s->n >= 2 && s->sum.robust_cv_pct > o->noise_pct;
	if (!replicates && !s->by_rounds)
		s->noisy |= (double)s->sum.outliers > NOISY_OUTLIER_FRACTION * (double)s->n;
}

/* ---- one group against the base ------------------------------------- */

/*
 * The smallest two-sided p-value the exact Mann-Whitney test can give for
 * these sample sizes: 2 / C(nx + ny, nx). With 3 against 3 it is 0.1.
 */
static double min_exact_p(size_t nx, size_t ny)
{
	double c = 1;

	if (nx + ny > 60)
		return 0;
	for (size_t i = 1; i <= nx; i++)
		c = c * (double)(ny + i) / (double)i;
	return fmin(1.0, 2.0 / c);
}

/*
 * Can ranks reach alpha at these sizes, after the correction, and give a
 * Hodges-Lehmann interval that is a 95 % one? Holm
 * multiplies the smallest p-value by the number of cells m; BH leaves it
 * as it is when every cell changed.
 */
static bool rank_can_reach(size_t nx, size_t ny, const struct compare_options *o,
			   size_t m)
{
	double best = min_exact_p(nx, ny);

	/* Nor would its 95 % CI be one: take t instead. */
	if (best > 1 - CHANGE_LEVEL)
		return false;
	if (o->correction == CORRECT_HOLM)
		best *= (double)m;
	return best < o->alpha;
}

static bool t_applies(const struct compare_side *base,
		      const struct compare_side *other)
{
	return base->n + other->n >= 3 && base->sum.min > 0 && other->sum.min > 0;
}

/* Round k of one side beside round k of the other: a paired design. */
static bool pairs_apply(const struct compare_result *r,
			const struct compare_side *base,
			const struct compare_side *other)
{
	return r->paired && base->by_rounds && other->by_rounds &&
	       base->n == other->n && base->n >= 2;
}

/*
 * Replicates: t on the runs' values. Single runs: against the history's
 * spread when there is enough of it, else ranks when they can reach alpha,
 * else t; *few when neither can.
 */
static enum compare_test choose_test(const struct compare_result *r,
				     const struct compare_side *base,
				     const struct compare_side *other, size_t m,
				     size_t nhistory, bool *few, bool *spread_unknown)
{
	bool t_ok = t_applies(base, other);

	*few = false;
	*spread_unknown = false;
	if (pairs_apply(r, base, other) && base->sum.min > 0 && other->sum.min > 0)
		return TEST_SIGNED_RANK;
	if (!r->replicates && !r->paired && nhistory >= COMPARE_HISTORY_MIN &&
	    base->center > 0 && other->center > 0)
		return TEST_LOG_T_HISTORY;
	/*
	 * One run against one, not interleaved, without the history: a
	 * run's rounds or raw samples say how far it drifted within itself,
	 * not how far whole runs move. Measured: A/A pairs of default bench
	 * runs with cells at -20 to -28 %; two separate `exec -n 30 true`
	 * runs judged by Mann-Whitney on their samples came out "worse" in
	 * 1 trial of 5 idle and "better" (-31 %) in 1 of 5 under a CPU hog.
	 * The change is shown, the verdict is left to replicates, a history,
	 * pairing or interleaving.
	 */
	if (!r->replicates && !r->paired) {
		*few = *spread_unknown = true;
		return TEST_RANK;
	}
	if (!r->replicates && rank_can_reach(base->n, other->n, &r->opts, m))
		return TEST_RANK;
	*few = !t_ok;
	return t_ok ? TEST_LOG_T : TEST_RANK;
}

/*
 * Paired rounds: the signed-rank test on the log ratios of the rounds,
 * with the Hodges-Lehmann estimate and interval (stats.h).
 */
static void diff_paired(struct compare_diff *d, const struct compare_side *base,
			const struct compare_side *other, struct log_t_result *t)
{
	struct paired_result pr;

	stats_signed_rank_log(base->samples, other->samples, base->n,
			      CHANGE_LEVEL, &pr);
	d->ratio = pr.ratio;
	d->change_pct = 100.0 * (pr.ratio - 1.0);
	d->change_lo_pct = 100.0 * (pr.lo - 1.0);
	d->change_hi_pct = 100.0 * (pr.hi - 1.0);
	d->shift = base->center * (pr.ratio - 1.0);
	d->shift_lo = base->center * (pr.lo - 1.0);
	d->shift_hi = base->center * (pr.hi - 1.0);
	d->p = pr.p;
	d->ratio_hl = true;
	t->se = pr.se;
	t->df = INFINITY;
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/* The natural logarithms of x (malloc'd). */
static double *logs_of(const double *x, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));

	for (size_t i = 0; i < n; i++)
		l[i] = log(x[i]);
	return l;
}

/*
 * The CI of the change as a ratio: the Hodges-Lehmann interval of the
 * log differences (the ranks, and so the test, are the same on the logs).
 * A time can fall by at most 100 %: on the raw scale the interval of a
 * shift over the base's median crossed -100 % (hotplug's -87.62 % [-120.25,
 * -38.34]); on the logs it cannot.
 */
static void change_ci_on_logs(struct compare_diff *d, const struct compare_side *base,
			      const struct compare_side *other)
{
	_cleanup_free_ double *lb = logs_of(base->samples, base->n);
	_cleanup_free_ double *lo = logs_of(other->samples, other->n);
	double est, lo_log, hi_log;

	stats_hodges_lehmann(lb, base->n, lo, other->n, CHANGE_LEVEL, &est,
			     &lo_log, &hi_log);
	/*
	 * The change is the interval's own estimate, which lies inside it by
	 * construction: the ratio of the medians need not (the median of a
	 * sample in two modes jumps from one to the other). Without a verdict
	 * (no interval shown) the medians' ratio stays.
	 */
	if (!d->spread_unknown) {
		d->ratio = exp(est);
		d->ratio_hl = true;
		d->change_pct = 100.0 * expm1(est);
		d->shift = base->center * expm1(est);
	}
	d->change_lo_pct = 100.0 * expm1(lo_log);
	d->change_hi_pct = 100.0 * expm1(hi_log);
	d->shift_lo = base->center * expm1(lo_log);
	d->shift_hi = base->center * expm1(hi_log);
}

static void diff_rank(struct compare_diff *d, const struct compare_side *base,
		      const struct compare_side *other)
{
	struct mwu_result mwu;

	d->ratio = other->center / base->center;
	d->change_pct = 100.0 * (d->ratio - 1.0);
	stats_mann_whitney(base->samples, base->n, other->samples, other->n, &mwu);
	d->p = mwu.p;
	stats_hodges_lehmann(base->samples, base->n, other->samples, other->n,
			     CHANGE_LEVEL, &d->shift, &d->shift_lo, &d->shift_hi);
	if (all_positive(base->samples, base->n) && all_positive(other->samples, other->n)) {
		change_ci_on_logs(d, base, other);
		return;
	}
	/*
	 * A zero (a tick-sampled time) has no log: the shift's interval, no
	 * lower than -100 %, which a time cannot fall past.
	 */
	d->change_lo_pct = fmax(-100.0, 100.0 * d->shift_lo / base->center);
	d->change_hi_pct = fmax(-100.0, 100.0 * d->shift_hi / base->center);
}

/* The variance floor of the pair: the runs' mean squared relative se. */
static double pair_within_var(const struct compare_side *base,
			      const struct compare_side *other)
{
	return ((double)base->n * base->within_var +
		(double)other->n * other->within_var) /
	       (double)(base->n + other->n);
}

/* The change, its CI and p from a t on the logs. */
static void diff_from_log_t(struct compare_diff *d, const struct compare_side *base,
			    const struct log_t_result *t)
{
	d->df = t->df;
	d->spread_floored = t->floored;
	d->ratio = t->ratio;
	d->change_pct = 100.0 * (t->ratio - 1.0);
	d->change_lo_pct = 100.0 * (t->lo - 1.0);
	d->change_hi_pct = 100.0 * (t->hi - 1.0);
	d->shift = base->center * (t->ratio - 1.0);
	d->shift_lo = base->center * (t->lo - 1.0);
	d->shift_hi = base->center * (t->hi - 1.0);
	d->p = t->p;
}

static void diff_log_t(struct compare_diff *d, const struct compare_side *base,
		       const struct compare_side *other, struct log_t_result *t)
{
	stats_log_t_test(base->samples, base->n, other->samples, other->n,
			 CHANGE_LEVEL, pair_within_var(base, other), t);
	diff_from_log_t(d, base, t);
}

/*
 * One run against one, with the history's spread of run values as the
 * noise between runs, never below what the two runs' rounds say their
 * values are good to.
 */
static void diff_history(struct compare_diff *d, const struct compare_side *base,
			 const struct compare_side *other, const double *hist,
			 size_t nhist, struct log_t_result *t)
{
	double vb = stats_median_se(base->samples, base->n) / base->center;
	double vo = stats_median_se(other->samples, other->n) / other->center;
	double min_var = isfinite(vb) && isfinite(vo) ? (vb * vb + vo * vo) / 2 : 0;

	stats_log_t_history(base->center, other->center, hist, nhist, CHANGE_LEVEL,
			    min_var, t);
	d->history_runs = nhist;
	diff_from_log_t(d, base, t);
}

/*
 * The smallest change a single pair of runs can claim. Round medians hold
 * the machine's drift during each run but not between the runs, which
 * experience here puts at about the rounds' own spread: a change within
 * the larger robust CV of the two sides is not claimed. Replicates and raw
 * repetitions carry their own between-run noise: the threshold alone.
 */
static double change_floor(const struct compare_side *base,
			   const struct compare_side *other,
			   const struct compare_options *o)
{
	double floor = o->threshold_pct;

	if (base->by_rounds && base->sum.robust_cv_pct > floor)
		floor = base->sum.robust_cv_pct;
	if (other->by_rounds && other->sum.robust_cv_pct > floor)
		floor = other->sum.robust_cv_pct;
	return floor;
}

/* The change found 80 % of the time: floor plus the CI's reach at that power. */
static double mde_pct(const struct compare_diff *d, const struct log_t_result *t)
{
	if (d->test != TEST_RANK)
		return 100.0 * expm1(log1p(d->floor_pct / 100.0) +
				     stats_mde(t->se, t->df, CHANGE_LEVEL, MDE_POWER));
	/* Ranks: the normal-theory se that the CI's half-width implies. */
	return d->floor_pct + stats_mde((d->change_hi_pct - d->change_lo_pct) / (2 * Z_975),
					INFINITY, CHANGE_LEVEL, MDE_POWER);
}

static bool in_groups(const struct compare_group *groups, size_t n, int64_t id)
{
	for (size_t g = 0; g < n; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (groups[g].runs[k].id == id)
				return true;
	return false;
}

/* A label of a run of an other side: its runs may be the change itself. */
static bool labelled_as_other(const struct compare_group *groups, size_t n,
			      const char *label)
{
	for (size_t g = 1; g < n && *label; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (streq(groups[g].runs[k].label, label))
				return true;
	return false;
}

/*
 * Whether run is history of these groups: like the base, none of the
 * compared runs, not labelled as an other side. Decided here for every
 * caller, whatever history it was handed.
 */
static bool history_eligible(const struct compare_group *groups, size_t n,
			     const struct stored_run *run)
{
	return compare_history_matches(&groups[0].runs[0], run) &&
	       !in_groups(groups, n, run->id) &&
	       !labelled_as_other(groups, n, run->label);
}

/*
 * The history's value of each run for the row, in the metric: a malloc'd
 * array of *n (possibly 0) values.
 */
static double *history_values(const struct compare_result *r,
			      const struct compare_row *row, size_t *n)
{
	const struct compare_group *h = r->opts.history;
	double *v, rel_var;

	*n = 0;
	if (!h || !h->nruns)
		return NULL;
	size_t at = 0;

	v = xmalloc(h->nruns * sizeof(double));
	for (size_t k = 0; k < h->nruns; k++) {
		const struct stored_cell *c;
		const double *x;

		if (!history_eligible(r->groups, r->ngroups, &h->runs[k]))
			continue;
		c = find_cell(&h->runs[k], row->name, row->path, &at);
		x = c ? metric_samples(c, r->metric) : NULL;

		if (x)
			v[(*n)++] = run_value(c, x, &rel_var);
	}
	return v;
}

/* Group g's test of the row, before any change is computed. */
static void choose_diff_test(struct compare_diff *d, const struct compare_result *r,
			     const struct compare_row *row, size_t g, size_t m,
			     size_t nhist)
{
	const struct compare_side *base = &row->sides[0], *other = &row->sides[g];

	d->valid = base->present && other->present && base->center > 0;
	if (d->valid)
		d->test = choose_test(r, base, other, m, nhist, &d->few,
				      &d->spread_unknown);
}

static void diff_sides(struct compare_diff *d, const struct compare_result *r,
		       const struct compare_row *row, size_t g, const double *hist,
		       size_t nhist)
{
	const struct compare_side *base = &row->sides[0], *other = &row->sides[g];
	bool *few = &d->few;
	struct log_t_result t = { .se = NAN, .df = NAN };

	if (!d->valid)
		return;
	d->df = NAN;
	if (d->test == TEST_LOG_T)
		diff_log_t(d, base, other, &t);
	else if (d->test == TEST_LOG_T_HISTORY)
		diff_history(d, base, other, hist, nhist, &t);
	else if (d->test == TEST_SIGNED_RANK)
		diff_paired(d, base, other, &t);
	else
		diff_rank(d, base, other);
	/*
	 * The rounds' interval and p say nothing of runs: none is claimed.
	 * Nor where no test can judge the sizes (a hotplug state reached in
	 * one run a side gave "[-96.36, -96.36]").
	 */
	if (d->spread_unknown || *few)
		d->p = d->change_lo_pct = d->change_hi_pct = d->shift_lo =
			d->shift_hi = NAN;
	d->cliffs_delta = stats_cliffs_delta(base->samples, base->n,
					     other->samples, other->n);
	stats_student_t(base->samples, base->n, other->samples, other->n, 0.95,
			&d->ttest);
	/*
	 * Interleaved rounds share the machine's drift, so the rounds' spread
	 * is no floor: the pairs cancel it. The history's spread is in the
	 * test itself.
	 */
	d->floor_pct = d->test == TEST_SIGNED_RANK || d->test == TEST_LOG_T_HISTORY ?
		       r->opts.threshold_pct : change_floor(base, other, &r->opts);
	d->mde_pct = *few ? NAN : mde_pct(d, &t);
}

static void adjust_p_values(struct compare_result *r, size_t g)
{
	double *p = xmalloc((r->nrows ? r->nrows : 1) * sizeof(double));

	/* Only the cells a test judges: a few or an estimate has no p. */
	for (size_t i = 0; i < r->nrows; i++)
		p[i] = r->rows[i].diffs[g].valid && !r->rows[i].diffs[g].few ?
		       r->rows[i].diffs[g].p : NAN;
	if (r->opts.correction == CORRECT_HOLM)
		stats_holm(p, r->nrows);
	else if (r->opts.correction == CORRECT_BH)
		stats_benjamini_hochberg(p, r->nrows);
	for (size_t i = 0; i < r->nrows; i++)
		r->rows[i].diffs[g].p_adjusted = p[i];
	free(p);
}

/* A side needs this many rounds, and a fifth of them (at least 2), there. */
#define SPAN_MIN_ROUNDS 5
#define SPAN_MIN_REACHED 2

/*
 * Whether enough of s's round medians lie within tol_pct of the other
 * side's center. A cheap cell can switch from round to round between
 * modes a core cycle apart (a getres through libc at 9.1 or 10.1 core
 * cycles, a coarse clock at 8.7 or 12), and two runs that spent different
 * shares of their rounds in each mode differ by 10 or 25 % with tight
 * intervals: both intervals are true, but no change between the runs is
 * behind it, since one run's own rounds went as far. The robust CV does
 * not see two modes (its MAD sits in the larger one); this does, while
 * one slow round of ten does not count.
 */
static bool rounds_reach(const struct compare_side *s, double center, double tol_pct)
{
	size_t reached = 0, need;

	if (!s->by_rounds || s->n < SPAN_MIN_ROUNDS || !(center > 0))
		return false;
	need = s->n / 5 > SPAN_MIN_REACHED ? s->n / 5 : SPAN_MIN_REACHED;
	for (size_t i = 0; i < s->n; i++)
		reached += fabs(s->samples[i] / center - 1) * 100 <= tol_pct;
	return reached >= need;
}

/* "the 1 % floor", or "the 4.2 % floor the rounds' rCV sets". */
static void floor_words(char *buf, size_t len, const struct compare_diff *d,
			const struct compare_options *o)
{
	if (d->floor_pct > o->threshold_pct)
		snprintf(buf, len, "the %.2g %% floor the rounds' rCV sets", d->floor_pct);
	else
		snprintf(buf, len, "the %g %% floor", d->floor_pct);
}

/* The interval's end nearer to no change, which is what fell short. */
static double ci_inner_end(const struct compare_diff *d)
{
	return d->change_pct >= 0 ? d->change_lo_pct : d->change_hi_pct;
}

/*
 * Why judge() gave its verdict: the first condition of a significant
 * change that the cell failed, or that it met them all.
 */
static void judge_reason(struct compare_diff *d, const struct compare_side *base,
			 const struct compare_side *other, const struct compare_options *o)
{
	char floor[64];
	const struct compare_side *noisy = base->noisy ? base : other;

	floor_words(floor, sizeof(floor), d, o);
	if (d->estimate)
		snprintf(d->reason, sizeof(d->reason), "tick-sampled CPU times below the "
			 "threshold the runs recorded: estimates, not judged");
	else if (d->spread_unknown)
		snprintf(d->reason, sizeof(d->reason), "one run against one: how far "
			 "whole runs move is unknown without a history");
	else if (d->few)
		snprintf(d->reason, sizeof(d->reason), "%zu against %zu values: too few "
			 "for a test", base->n, other->n);
	else if (d->significant)
		snprintf(d->reason, sizeof(d->reason), "adjusted p %.2g, below %g, and "
			 "its 95 %% CI clears %s", d->p_adjusted, o->alpha, floor);
	else if (d->rounds_span)
		snprintf(d->reason, sizeof(d->reason), "a fifth of one side's rounds "
			 "lie within %s of the other side's value", floor);
	else if (!(d->p_adjusted < o->alpha))
		snprintf(d->reason, sizeof(d->reason), "adjusted p %.2g, not below %g",
			 d->p_adjusted, o->alpha);
	else
		snprintf(d->reason, sizeof(d->reason), "its 95 %% CI reaches %+.2f %%, "
			 "inside %s", ci_inner_end(d), floor);
	if (streq(d->verdict, "noisy") && (base->noisy || other->noisy))
		snprintf(d->reason + strlen(d->reason), sizeof(d->reason) - strlen(d->reason),
			 "; %s's rCV %.2g %%", noisy == base ? "the base" : "the other",
			 noisy->sum.robust_cv_pct);
}

static void judge(struct compare_diff *d, const struct compare_side *base,
		  const struct compare_side *other, const struct compare_options *o)
{
	bool few = d->few;

	if (!d->valid) {
		d->verdict = "";
		return;
	}
	d->significant = !few && d->p_adjusted < o->alpha &&
			 (d->change_lo_pct > d->floor_pct ||
			  d->change_hi_pct < -d->floor_pct);
	d->rounds_span = d->significant &&
			 (rounds_reach(base, other->center, d->floor_pct) ||
			  rounds_reach(other, base->center, d->floor_pct));
	d->significant &= !d->rounds_span;
	if (few)
		d->verdict = "few";
	else if (d->significant)
		d->verdict = d->change_pct > 0 ? "worse" : "better";
	else if (base->noisy || other->noisy || d->rounds_span)
		d->verdict = "noisy";
	else
		d->verdict = "~";
	judge_reason(d, base, other, o);
}

/* The cells group g shares with the base: what a correction counts. */
static size_t cells_compared(const struct compare_result *r, size_t g)
{
	size_t m = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];

		m += row->sides[0].present && row->sides[g].present &&
		     row->sides[0].center > 0;
	}
	return m;
}

/*
 * Student's t on the logs judges by the ratio of geometric means: when it
 * judged one of the row's diffs, every side of the row shows its
 * geometric mean, so that each change shown is the ratio of the centres
 * shown (the medians of 3 scale repetitions read 0.41 and 0.82 beside a
 * change of -85.64 % before).
 */
static void geomean_centres(struct compare_result *r, struct compare_row *row)
{
	bool log_t = false;

	for (size_t g = 1; g < r->ngroups; g++)
		log_t |= row->diffs[g].valid && row->diffs[g].test == TEST_LOG_T;
	if (!log_t || r->replicates)
		return;
	for (size_t g = 0; g < r->ngroups; g++) {
		struct compare_side *s = &row->sides[g];

		if (!s->present || !(s->sum.min > 0))
			continue;
		s->center_kind = CENTER_GEOMEAN;
		if (stats_geomean_ci(s->samples, s->n, CHANGE_LEVEL, 0, &s->center,
				     &s->center_lo, &s->center_hi))
			s->center_coverage = CHANGE_LEVEL;
		else
			s->center_lo = s->center_hi = s->center_coverage = NAN;
	}
}

/*
 * Every change is the ratio of the two centres shown. The rank tests'
 * estimate is a Hodges-Lehmann ratio (of the paired rounds, or of every
 * pair of samples), no ratio of two medians: the other side then shows
 * the base's median times that ratio (its own median stays in the JSON),
 * with no interval of its own. Every other test's ratio is that of the
 * centres (t on the logs: of the geometric means, to the last bit here).
 */
static void centres_agree(struct compare_result *r, struct compare_row *row)
{
	const struct compare_side *base = &row->sides[0];

	for (size_t g = 1; g < r->ngroups; g++) {
		struct compare_diff *d = &row->diffs[g];
		struct compare_side *s = &row->sides[g];

		if (!d->valid)
			continue;
		if (d->ratio_hl && isfinite(d->ratio)) {
			s->center_kind = d->test == TEST_SIGNED_RANK ?
					 CENTER_PAIRED : CENTER_SHIFTED;
			s->center = base->center * d->ratio;
			s->center_lo = s->center_hi = s->center_coverage = NAN;
			continue;
		}
		if (!(s->center >= 0) || !isfinite(s->center))
			continue;
		d->ratio = s->center / base->center;
		d->change_pct = 100.0 * (d->ratio - 1.0);
		/* The difference shown beside the change is the values' too. */
		d->shift = s->center - base->center;
	}
}

/* Every cell of every group against the base: tests, changes, verdicts. */
/* "user", "sys", "offline-user", "online-sys": the split of a CPU time. */
static bool cpu_split_cell(const struct compare_row *row)
{
	size_t n = strlen(row->name);

	return streq(row->name, "user") || streq(row->name, "sys") ||
	       (n > 5 && streq(row->name + n - 5, "-user")) ||
	       (n > 4 && streq(row->name + n - 4, "-sys"));
}

/*
 * Below what CPU time a group's user/sys split is an estimate, as its runs
 * recorded it (config.cpu_accounting, exec and scale and hotplug): the
 * largest of them; 0 when no run was tick-sampled.
 */
static double estimate_below_s(const struct compare_group *g)
{
	double most = 0;

	for (size_t k = 0; k < g->nruns; k++) {
		const struct run_facts *f = run_facts(&g->runs[k]);

		if (f->settings.accounting_sampled && f->settings.estimate_below_s > most)
			most = f->settings.estimate_below_s;
	}
	return most;
}

static void mark_estimate(struct compare_result *r, struct compare_row *row, size_t g)
{
	struct compare_diff *d = &row->diffs[g];
	double below = fmax(estimate_below_s(&r->groups[0]), estimate_below_s(&r->groups[g]));

	if (!d->valid || r->exact || !cpu_split_cell(row) || !(below > 0))
		return;
	if (!(row->sides[0].center < below && row->sides[g].center < below))
		return;
	/*
	 * No test of an estimate: no p (nor a place in the correction,
	 * where it would weaken the cells that are judged) and no interval
	 * (a tick-sampled 0 pinned its end at -100 %).
	 */
	d->estimate = d->few = true;
	d->p = d->change_lo_pct = d->change_hi_pct = d->shift_lo = d->shift_hi = NAN;
	d->mde_pct = NAN;
}

static void judge_groups(struct compare_result *r)
{
	size_t *m = xcalloc(r->ngroups, sizeof(size_t));

	for (size_t g = 1; g < r->ngroups; g++)
		m[g] = cells_compared(r, g);
	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row *row = &r->rows[i];
		size_t nhist;
		_cleanup_free_ double *hist = history_values(r, row, &nhist);

		for (size_t g = 1; g < r->ngroups; g++)
			choose_diff_test(&row->diffs[g], r, row, g, m[g], nhist);
		geomean_centres(r, row);
		for (size_t g = 1; g < r->ngroups; g++)
			diff_sides(&row->diffs[g], r, row, g, hist, nhist);
		centres_agree(r, row);
	}
	for (size_t g = 1; g < r->ngroups; g++) {
		for (size_t i = 0; i < r->nrows; i++)
			mark_estimate(r, &r->rows[i], g);
		adjust_p_values(r, g);
		for (size_t i = 0; i < r->nrows; i++)
			judge(&r->rows[i].diffs[g], &r->rows[i].sides[0],
			      &r->rows[i].sides[g], &r->opts);
	}
	free(m);
}

/* ---- counts: kernels --exact ----------------------------------------- */

/* Every boot of s counted the same: its values are one number. */
static bool side_repeats(const struct compare_side *s)
{
	return s->present && s->n >= 1 && s->sum.min == s->sum.max;
}

/*
 * Counts under icount repeat at every boot where only the code decides
 * them (a vDSO read): two sides that each repeated are compared by the
 * counts themselves, an exact difference with no test: equal, "same";
 * else better or worse, each side seen twice at least (one boot cannot
 * show that a count repeats). A cell that varies between boots (a
 * syscall that an interrupt may meet) keeps the replicates' test.
 */
static void judge_exact(struct compare_diff *d, const struct compare_side *base,
			const struct compare_side *other)
{
	if (!d->valid || !side_repeats(base) || !side_repeats(other))
		return;
	d->test = TEST_EXACT;
	if (base->sum.min == other->sum.min) {
		d->few = d->spread_unknown = false;
		d->significant = false;
		d->verdict = "same";
		snprintf(d->reason, sizeof(d->reason), "every boot of both sides "
			 "counted the same");
	} else if (base->n >= 2 && other->n >= 2) {
		d->few = d->spread_unknown = false;
		d->significant = true;
		d->verdict = other->sum.min > base->sum.min ? "worse" : "better";
		snprintf(d->reason, sizeof(d->reason), "each side's boots counted "
			 "alike, differently from the other's");
	} else {
		d->few = d->spread_unknown = true;
		d->significant = false;
		d->verdict = "few";
		snprintf(d->reason, sizeof(d->reason), "one boot a side: a count that "
			 "repeats is not shown to");
	}
	d->ratio = other->sum.min / base->sum.min;
	d->change_pct = d->change_lo_pct = d->change_hi_pct = 100.0 * (d->ratio - 1.0);
	d->shift = d->shift_lo = d->shift_hi = other->sum.min - base->sum.min;
	d->p = d->p_adjusted = NAN;
	d->floor_pct = 0;
	d->mde_pct = NAN;
	d->rounds_span = false;
}

static void judge_counts(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			judge_exact(&r->rows[i].diffs[g], &r->rows[i].sides[0],
				    &r->rows[i].sides[g]);
}

/* Whether run counts instructions (kernels --exact) or times. */
static bool run_counts(const struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (cell_is_measured(&run->cells[i]))
			return streq(run->cells[i].unit, "instructions");
	return false;
}

/* An instruction count is never compared with a time. */
static int counts_not_mixed(const struct compare_group *groups, size_t n,
			    struct strbuf *err)
{
	for (size_t g = 1; g < n; g++)
		for (size_t k = 0; k < groups[g].nruns; k++)
			if (groups[0].nruns &&
			    run_counts(&groups[g].runs[k]) != run_counts(&groups[0].runs[0])) {
				strbuf_setf(err, "%s counts instructions (kernels --exact) and "
					    "%s is timed: a count of guest instructions is "
					    "never compared with a time",
					    run_counts(&groups[0].runs[0]) ? groups[0].spec :
					    groups[g].spec,
					    run_counts(&groups[0].runs[0]) ? groups[g].spec :
					    groups[0].spec);
				return -1;
			}
	return 0;
}

/* ---- geometric means ------------------------------------------------- */

/*
 * Whether a row is out of the geometric means: some group lacks it, its
 * centre is 0 or below (or not a number) in some group, or it is a
 * tick-sampled estimate against some group. Every geomean
 * is over the same rows, so that the geomeans' ratio is the geomean of
 * the changes.
 */
static enum geomean_exclusion geomean_exclusion_of(const struct compare_result *r,
						   const struct compare_row *row)
{
	for (size_t g = 0; g < r->ngroups; g++)
		if (!row->sides[g].present)
			return GEOMEAN_MISSING;
	for (size_t g = 0; g < r->ngroups; g++)
		if (!(row->sides[g].center > 0))
			return GEOMEAN_NOT_POSITIVE;
	for (size_t g = 1; g < r->ngroups; g++)
		if (row->diffs[g].estimate)
			return GEOMEAN_ESTIMATE;
	return GEOMEAN_IN;
}

/*
 * Geometric means over the rows every centre of which is positive: one
 * cell at 0 made the whole group's geomean 0 (and its change -100 %).
 */
static void compute_geomeans(struct compare_result *r)
{
	double *x = xmalloc((r->nrows ? r->nrows : 1) * sizeof(double));

	r->geomean = xcalloc(r->ngroups, sizeof(double));
	r->geomean_change_pct = xcalloc(r->ngroups, sizeof(double));
	for (size_t i = 0; i < r->nrows; i++) {
		r->rows[i].out_of_geomean = geomean_exclusion_of(r, &r->rows[i]);
		r->geomean_excluded[r->rows[i].out_of_geomean]++;
		r->geomean_left_out += r->rows[i].out_of_geomean != GEOMEAN_IN;
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		size_t n = 0;

		for (size_t i = 0; i < r->nrows; i++)
			if (r->rows[i].sides[g].present && !r->rows[i].out_of_geomean)
				x[n++] = r->rows[i].sides[g].center;
		r->geomean[g] = n ? stats_geomean(x, n) : NAN;
		if (g > 0)
			r->geomean_change_pct[g] = 100.0 * (r->geomean[g] / r->geomean[0] - 1);
	}
	free(x);
}

/* ---- a machine that changed between the runs -------------------------- */

/* The campaign of `kernels` that booted a run, or NULL. */
static const char *boot_campaign(const struct stored_run *run)
{
	return run_facts(run)->boot.campaign;
}

/* Every run of both groups booted by one `kernels`, whose boots interleave. */
static bool one_campaign(const struct compare_group *a, const struct compare_group *b)
{
	const char *id = a->nruns ? boot_campaign(&a->runs[0]) : NULL;
	const struct compare_group *both[] = { a, b };

	for (size_t g = 0; id && g < 2; g++)
		for (size_t k = 0; k < both[g]->nruns; k++) {
			const char *c = boot_campaign(&both[g]->runs[k]);

			if (!c || !streq(c, id))
				return false;
		}
	return id != NULL;
}

static void detect_machine_shift(struct compare_result *r)
{
	r->same_direction = xcalloc(r->ngroups, sizeof(double));
	r->machine_shift = xcalloc(r->ngroups, sizeof(bool));
	/* Interleaved rounds saw the same machine: a common move is the change. */
	if (r->paired)
		return;
	for (size_t g = 1; g < r->ngroups; g++) {
		size_t up = 0, down = 0;

		/* Boots interleaved (A B, B A ...) saw the same host alike. */
		if (one_campaign(&r->groups[0], &r->groups[g]))
			continue;
		for (size_t i = 0; i < r->nrows; i++) {
			const struct compare_diff *d = &r->rows[i].diffs[g];

			if (!d->valid)
				continue;
			up += d->change_pct > 0;
			down += d->change_pct < 0;
		}
		if (up + down == 0)
			continue;
		r->same_direction[g] = (double)(up > down ? up : down) / (double)(up + down);
		r->machine_shift[g] = up + down >= MACHINE_SHIFT_MIN_CELLS &&
				      r->same_direction[g] >= MACHINE_SHIFT_SHARE;
	}
}

/*
 * Whatever the number of cells: the runs' own record of their machine
 * (exec's runnable tasks, steal and its commands' wait for a CPU, bench's
 * load before the run and its top core speed) says the machines differed
 * visibly between the groups.
 */
struct machine_state {
	double load;		/* runnable tasks besides the run, or the load average */
	double steal_pct;	/* of the run's time */
	double ghz;		/* the fastest round's core speed */
	double wait_pct;	/* exec: of its commands' time, waiting for a CPU */
};

static double json_number_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void run_machine(const struct stored_run *run, struct machine_state *s)
{
	const json_t *q = run->quality, *m, *sys;
	double steal_ms;

	s->load = s->steal_pct = s->ghz = s->wait_pct = NAN;
	if (!json_is_object(q))
		return;
	m = json_object_get(q, "machine");
	sys = json_object_get(q, "system");
	s->load = json_number_or_nan(json_object_get(m, "runnable_median"));
	if (isnan(s->load))
		s->load = json_number_or_nan(json_array_get(json_object_get(sys, "load"), 0));
	s->steal_pct = json_number_or_nan(json_object_get(m, "steal_pct"));
	steal_ms = json_number_or_nan(json_object_get(q, "steal_ms"));
	if (isnan(s->steal_pct) && run->elapsed_s > 0)
		s->steal_pct = 100 * steal_ms / (1000 * run->elapsed_s);
	s->ghz = json_number_or_nan(json_object_get(q, "top_ghz"));
	s->wait_pct = json_number_or_nan(json_object_get(m, "wait_pct"));
}

/* A group's machine: the median of its runs' figures, each known. */
static void group_machine(const struct compare_group *g, struct machine_state *s)
{
	double *v[4];
	size_t n[4] = { 0 };

	for (size_t f = 0; f < 4; f++)
		v[f] = xmalloc((g->nruns ? g->nruns : 1) * sizeof(double));
	for (size_t k = 0; k < g->nruns; k++) {
		struct machine_state one;

		run_machine(&g->runs[k], &one);
		if (isfinite(one.load))
			v[0][n[0]++] = one.load;
		if (isfinite(one.steal_pct))
			v[1][n[1]++] = one.steal_pct;
		if (isfinite(one.ghz) && one.ghz > 0)
			v[2][n[2]++] = one.ghz;
		if (isfinite(one.wait_pct))
			v[3][n[3]++] = one.wait_pct;
	}
	s->load = n[0] ? median_of_copy(v[0], n[0]) : NAN;
	s->steal_pct = n[1] ? median_of_copy(v[1], n[1]) : NAN;
	s->ghz = n[2] ? median_of_copy(v[2], n[2]) : NAN;
	s->wait_pct = n[3] ? median_of_copy(v[3], n[3]) : NAN;
	for (size_t f = 0; f < 4; f++)
		free(v[f]);
}

/*
 * Visibly apart: a task's worth and half again, 5 points of steal, 10 % of
 * speed, 5 points and twice the share of time waiting for a CPU.
 */
#define MACHINE_LOAD_APART 1.0
#define MACHINE_LOAD_RATIO 1.5
#define MACHINE_STEAL_APART_PCT 5.0
#define MACHINE_GHZ_RATIO 1.10
#define MACHINE_WAIT_APART_PCT 5.0
#define MACHINE_WAIT_RATIO 2.0

/* What differed between base and other, in words; NULL when nothing did. */
static char *machine_difference(const struct machine_state *b,
				const struct machine_state *o)
{
	char buf[256] = "";
	size_t len = 0;

	if (isfinite(b->load) && isfinite(o->load) &&
	    fabs(o->load - b->load) >= MACHINE_LOAD_APART &&
	    fmax(b->load, o->load) >= MACHINE_LOAD_RATIO * fmin(b->load, o->load))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "load %.1f against "
					"%.1f", b->load, o->load);
	if (isfinite(b->steal_pct) && isfinite(o->steal_pct) &&
	    fabs(o->steal_pct - b->steal_pct) >= MACHINE_STEAL_APART_PCT && len < sizeof(buf))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%ssteal %.1f %% "
					"against %.1f %%", len ? ", " : "", b->steal_pct,
					o->steal_pct);
	if (isfinite(b->ghz) && isfinite(o->ghz) &&
	    fmax(b->ghz, o->ghz) >= MACHINE_GHZ_RATIO * fmin(b->ghz, o->ghz) &&
	    len < sizeof(buf))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%score speed "
					"%.2f against %.2f GHz", len ? ", " : "",
					b->ghz, o->ghz);
	if (isfinite(b->wait_pct) && isfinite(o->wait_pct) &&
	    fabs(o->wait_pct - b->wait_pct) >= MACHINE_WAIT_APART_PCT &&
	    fmax(b->wait_pct, o->wait_pct) >= MACHINE_WAIT_RATIO *
					       fmin(b->wait_pct, o->wait_pct) &&
	    len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, "%swaiting for a CPU %.1f %% of "
			 "the time against %.1f %%", len ? ", " : "", b->wait_pct,
			 o->wait_pct);
	return *buf ? xstrdup(buf) : NULL;
}

static void detect_machine_difference(struct compare_result *r)
{
	struct machine_state base, other;

	r->machine_difference = xcalloc(r->ngroups, sizeof(char *));
	/* Interleaved rounds saw the same machine. */
	if (r->paired)
		return;
	group_machine(&r->groups[0], &base);
	for (size_t g = 1; g < r->ngroups; g++) {
		group_machine(&r->groups[g], &other);
		r->machine_difference[g] = machine_difference(&base, &other);
	}
}

/* Every group's facts against the base's: named above the verdicts. */
static void detect_side_differences(struct compare_result *r)
{
	r->side_differences = xcalloc(r->ngroups, sizeof(*r->side_differences));
	for (size_t g = 1; g < r->ngroups; g++)
		sides_differ(&r->groups[0], &r->groups[g], &r->side_differences[g]);
}

/* ---- ns beside core cycles ------------------------------------------- */

/* The median over a group's runs of each run's median ns for the row. */
static double group_ns_median(const struct compare_group *g,
			      const struct compare_row *row)
{
	double *m = xmalloc((g->nruns ? g->nruns : 1) * sizeof(double)), med;
	size_t n = 0, at = 0;

	for (size_t k = 0; k < g->nruns; k++) {
		const struct stored_cell *c = find_cell(&g->runs[k], row->name, row->path, &at);
		const double *x = c ? metric_samples(c, METRIC_NS) : NULL;

		if (x)
			m[n++] = c->digest ? c->median_values : median_of_copy(x, c->n);
	}
	med = n ? median_of_copy(m, n) : NAN;
	free(m);
	return med;
}

/* Judged in core cycles, the tables still show what happened in ns. */
static void add_ns_beside(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row *row = &r->rows[i];

		for (size_t g = 0; g < r->ngroups; g++) {
			row->sides[g].ns_median = r->metric == METRIC_CORE_CYCLES ?
				group_ns_median(&r->groups[g], row) : NAN;
			row->diffs[g].ns_change_pct = g && row->sides[0].ns_median > 0 ?
				100 * (row->sides[g].ns_median / row->sides[0].ns_median - 1) :
				NAN;
		}
	}
}

/* ---- history ---------------------------------------------------------- */

/* Whether two objects agree on key (both without it too). */
static bool key_same(const json_t *a, const json_t *b, const char *key)
{
	const json_t *x = a ? json_object_get(a, key) : NULL;
	const json_t *y = b ? json_object_get(b, key) : NULL;

	return x == y || (x && y && json_equal(x, y));
}

static bool measured_anything(const struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (cell_is_measured(&run->cells[i]))
			return true;
	return false;
}

bool compare_history_matches(const struct stored_run *base,
			     const struct stored_run *run)
{
	return streq(run->host, base->host) && streq(run->command, base->command) &&
	       streq(run->kernel, base->kernel) &&
	       key_same(run->env, base->env, "clocksource") &&
	       key_same(run->env, base->env, "time_namespace") &&
	       /*
		* Cells named for what they time, not for what was run: exec's
		* wall, user and sys whatever the command; hotplug's states
		* whichever CPU, traced or not.
		*/
	       key_same(run->config, base->config, "command_line") &&
	       key_same(run->config, base->config, "prepare") &&
	       key_same(run->config, base->config, "cpu") &&
	       key_same(run->config, base->config, "trace") &&
	       measured_anything(run);
}

/* ---- building -------------------------------------------------------- */

static bool any_group_has_replicates(const struct compare_group *groups,
				     size_t ngroups)
{
	for (size_t g = 0; g < ngroups; g++)
		if (groups[g].nruns > 1)
			return true;
	return false;
}

/* Single runs that name the same interleaving in their configs. */
static bool groups_interleaved(const struct compare_group *groups, size_t n)
{
	const char *id = NULL;

	for (size_t g = 0; g < n; g++) {
		const char *v;

		if (groups[g].nruns != 1)
			return false;
		v = run_facts(&groups[g].runs[0])->interleave;
		if (!v || (id && !streq(id, v)))
			return false;
		id = v;
	}
	return true;
}

bool stored_run_emulated(const struct stored_run *run)
{
	return run_facts(run)->boot.emulated;
}

bool stored_run_exact(const struct stored_run *run)
{
	return run_facts(run)->boot.exact;
}

/*
 * Emulated timings: marked on every diff they touch, and never judged
 * against timings from hardware, whatever a test would say: an emulator's
 * costs are not a machine's.
 */
static void judge_emulation(struct compare_result *r)
{
	r->emulated = xcalloc(r->ngroups, sizeof(*r->emulated));
	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t k = 0; k < r->groups[g].nruns; k++)
			r->emulated[g] |= stored_run_emulated(&r->groups[g].runs[k]);
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++) {
			struct compare_diff *d = &r->rows[i].diffs[g];

			d->emulated = r->emulated[0] || r->emulated[g];
			/* A count is no emulated timing: the gate judges it. */
			d->judge_emulated = r->opts.judge_emulated || r->exact;
			if (d->valid && r->emulated[0] != r->emulated[g]) {
				d->significant = false;
				d->verdict = "n/a";
				snprintf(d->reason, sizeof(d->reason), "emulated timings "
					 "against timings from hardware");
			}
		}
}

/* A run's machine architecture (uname -m), or "". */
static const char *run_machine_arch(const struct stored_run *run)
{
	const char *m = run_facts(run)->machine;

	return m ? m : "";
}

/*
 * Runs of two architectures are two machines: their cells share names, not
 * code, and a count or a time of one says nothing of the other. Never
 * judged against each other: every cell n/a, as emulated against hardware.
 */
static void judge_architectures(struct compare_result *r)
{
	const char *base = r->groups[0].nruns ? run_machine_arch(&r->groups[0].runs[0]) : "";

	r->other_arch = xcalloc(r->ngroups, sizeof(*r->other_arch));
	for (size_t g = 1; g < r->ngroups; g++) {
		for (size_t k = 0; k < r->groups[g].nruns; k++)
			r->other_arch[g] |= *base &&
					    *run_machine_arch(&r->groups[g].runs[k]) &&
					    !streq(base, run_machine_arch(&r->groups[g].runs[k]));
		for (size_t i = 0; r->other_arch[g] && i < r->nrows; i++) {
			struct compare_diff *d = &r->rows[i].diffs[g];

			if (d->valid) {
				d->significant = false;
				d->verdict = "n/a";
				snprintf(d->reason, sizeof(d->reason), "runs of two "
					 "architectures");
			}
		}
	}
}

/* The runs of the history that stand in it: like the base, single runs. */
static size_t count_history(const struct compare_result *r)
{
	const struct compare_group *h = r->opts.history;
	size_t n = 0;

	if (!h || r->replicates)
		return 0;
	for (size_t k = 0; k < h->nruns; k++)
		n += history_eligible(r->groups, r->ngroups, &h->runs[k]);
	return n;
}

/* Whether run was measured in a guest that `kernels` booted. */
static bool booted(const struct stored_run *run)
{
	return run_facts(run)->boot.booted;
}

static const char *interleave_id(const struct stored_run *run)
{
	return run_facts(run)->interleave;
}

/*
 * Groups whose runs were made by different interleaved invocations (timens
 * or ab, run twice with their default labels): pooled as replicates, each
 * run torn from the partner it was paired with. Not wrong, but said.
 */
static void find_pooled_invocations(struct compare_result *r)
{
	r->pooled_invocations = xcalloc(r->ngroups, sizeof(bool));
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct compare_group *grp = &r->groups[g];
		/* The boots of `kernels` are replicates by design: one invocation each. */
		const char *first = grp->nruns > 1 && !booted(&grp->runs[0]) ?
				    interleave_id(&grp->runs[0]) : NULL;

		for (size_t k = 1; first && k < grp->nruns; k++) {
			const char *id = interleave_id(&grp->runs[k]);

			if (id && !streq(id, first)) {
				r->pooled_invocations[g] = true;
				break;
			}
		}
	}
}

/* Seconds read as s, ms or us by the median of the centres; others as they are. */
static void choose_unit_shown(struct compare_result *r)
{
	_cleanup_free_ double *c = xmalloc((r->nrows * r->ngroups + 1) * sizeof(*c));
	size_t n = 0;
	double typical;

	r->unit_shown = r->unit;
	r->unit_scale = 1;
	if (!streq(r->unit, "s"))
		return;
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->rows[i].sides[g].present && r->rows[i].sides[g].center > 0)
				c[n++] = r->rows[i].sides[g].center;
	if (!n)
		return;
	typical = median_of_copy(c, n);
	r->unit_shown = figure_seconds_unit(typical, &r->unit_scale);
}

int compare_build(struct compare_result *r, struct compare_group *groups,
		  size_t ngroups, const struct compare_options *o,
		  struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
	r->groups = groups;
	r->ngroups = ngroups;
	if (ngroups < 2 || groups[0].nruns == 0) {
		strbuf_setf(err, "nothing to compare: need a base and another run");
		return -1;
	}
	if (counts_not_mixed(groups, ngroups, err))
		return -1;
	r->metric = resolve_metric(groups, ngroups, o->metric);
	r->unit = metric_unit(&groups[0], r->metric);
	r->exact = r->metric == METRIC_INSTRUCTIONS;
	r->replicates = r->exact || any_group_has_replicates(groups, ngroups);
	r->paired = !r->replicates && (o->paired || groups_interleaved(groups, ngroups));
	collect_rows(r);
	if (r->nrows == 0) {
		if (o->cells)
			strbuf_setf(err, "no measured cell matches --cell '%s' (in the "
				    "metric '%s')", o->cells, compare_metric_name(r->metric));
		else
			strbuf_setf(err, "no measured cell has the metric '%s'",
				    compare_metric_name(r->metric));
		return -1;
	}
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < ngroups; g++) {
			gather_samples(&r->rows[i].sides[g], &groups[g], &r->rows[i],
				       r->metric, r->replicates);
			summarize_side(&r->rows[i].sides[g], o, r->replicates);
		}
	r->history_used = count_history(r);
	judge_groups(r);
	if (r->exact)
		judge_counts(r);
	compute_geomeans(r);
	choose_unit_shown(r);
	find_pooled_invocations(r);
	detect_machine_shift(r);
	detect_machine_difference(r);
	detect_side_differences(r);
	add_ns_beside(r);
	judge_emulation(r);
	judge_architectures(r);
	return 0;
}

void compare_free(struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t g = 0; g < r->ngroups; g++)
			free(r->rows[i].sides[g].samples);
		free(r->rows[i].sides);
		free(r->rows[i].diffs);
		free(r->rows[i].name);
		free(r->rows[i].path);
	}
	free(r->rows);
	free(r->geomean);
	free(r->geomean_change_pct);
	free(r->same_direction);
	free(r->machine_shift);
	free(r->emulated);
	free(r->other_arch);
	free(r->pooled_invocations);
	for (size_t g = 0; r->machine_difference && g < r->ngroups; g++)
		free(r->machine_difference[g]);
	free(r->machine_difference);
	for (size_t g = 0; r->side_differences && g < r->ngroups; g++)
		side_differences_free(&r->side_differences[g]);
	free(r->side_differences);
	memset(r, 0, sizeof(*r));
}

/* ---- the history from the store (read through compare-session.h) ------ */

void compare_group_release(struct compare_group *g)
{
	for (size_t k = 0; k < g->nruns; k++)
		stored_run_free(&g->runs[k]);
	free(g->runs);
	free(g->spec);
	memset(g, 0, sizeof(*g));
}

static bool all_single_runs(const struct compare_group *groups, size_t n)
{
	for (size_t g = 0; g < n; g++)
		if (groups[g].nruns != 1)
			return false;
	return n > 0;
}

int compare_history_load(struct store *st, const struct compare_group *groups,
			 size_t ngroups, long max, struct compare_group *h,
			 struct strbuf *err)
{
	const struct stored_run *base;
	struct run_filter f;
	_cleanup_free_ int64_t *ids = NULL;
	size_t n = 0;

	memset(h, 0, sizeof(*h));
	h->spec = xstrdup("history");
	/*
	 * Replicates carry their own between-run spread, interleaved rounds
	 * their own noise.
	 */
	if (max <= 0 || !all_single_runs(groups, ngroups) ||
	    groups_interleaved(groups, ngroups))
		return 0;
	base = &groups[0].runs[0];
	f = (struct run_filter){ .host = base->host, .command = base->command,
				 .kernel = base->kernel };
	if (store_find_runs(st, &f, &ids, &n, err) != 0)
		return -1;
	h->runs = xcalloc((size_t)max, sizeof(*h->runs));
	for (size_t i = n; i-- > 0 && h->nruns < (size_t)max;) {
		struct stored_run *run = &h->runs[h->nruns];
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		if (in_groups(groups, ngroups, ids[i]))
			continue;
		/* A damaged run only leaves the history short, as runs lists it. */
		if (store_load_run_digest(st, ids[i], run, &why) != 0) {
			warn_msg("%s; left out of the history", why.buf);
			continue;
		}
		if (history_eligible(groups, ngroups, run))
			h->nruns++;
		else
			stored_run_free(run);
	}
	return 0;
}

/* ---- naming the tests and the centres ------------------------------------ */

const char compare_verdict_hint[] =
	"for a verdict, run each side again under its label (replicates, e.g. "
	"`clockbench bench --label L` twice more), measure both conditions in "
	"one run (`clockbench ab`; commands: `clockbench exec -c A -c B`; "
	"kernels: `clockbench kernels --boots 3`), or keep at least 4 earlier "
	"runs like the base (a history)";

/* Each test's name in JSON, CSV and the HTML, in enum order. */
static const char *const test_ids[] = {
	[TEST_RANK] = "mann-whitney",
	[TEST_LOG_T] = "student-t-log",
	[TEST_SIGNED_RANK] = "signed-rank-paired",
	[TEST_LOG_T_HISTORY] = "student-t-history",
	[TEST_EXACT] = "exact-count",
};

const char *compare_test_id(enum compare_test t)
{
	return (size_t)t < ARRAY_SIZE(test_ids) ? test_ids[t] : "?";
}

bool compare_test_used(const struct compare_result *r, enum compare_test t)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].valid && !r->rows[i].diffs[g].spread_unknown &&
			    !r->rows[i].diffs[g].estimate && r->rows[i].diffs[g].test == t)
				return true;
	return false;
}

bool compare_spread_unknown(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 1; g < r->ngroups; g++)
			if (r->rows[i].diffs[g].valid && r->rows[i].diffs[g].spread_unknown)
				return true;
	return false;
}

/* The tests that judged some cell (counts judged by themselves are none). */
size_t compare_tests_phrase(const struct compare_result *r, struct strbuf *out)
{
	static const struct {
		enum compare_test test;
		const char *single, *replicates;
	} phrases[] = {
		{ TEST_SIGNED_RANK, "Wilcoxon signed-rank on the log ratios of the "
		  "interleaved rounds, paired", NULL },
		{ TEST_LOG_T_HISTORY, "Student's t on the logs with the spread of "
		  "earlier runs like the base (history) as the noise between runs", NULL },
		{ TEST_RANK, "Mann-Whitney U", NULL },
		{ TEST_LOG_T, "Student's t on the logs of the samples", "Student's t "
		  "on the logs of the runs' values, the variance between the runs, at "
		  "least what their rounds allow" },
	};
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(phrases); i++) {
		if (!compare_test_used(r, phrases[i].test))
			continue;
		strbuf_addf(out, "%s%s", n++ ? "; " : "", r->replicates &&
			    phrases[i].replicates ? phrases[i].replicates : phrases[i].single);
	}
	if (!n)
		strbuf_adds(out, "no test: no cell has a spread to judge by");
	return n;
}

static bool centre_used(const struct compare_result *r, enum compare_center k)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->rows[i].sides[g].present && r->rows[i].sides[g].center_kind == k)
				return true;
	return false;
}

void compare_centres_phrase(const struct compare_result *r, struct strbuf *out)
{
	static const char *const names[] = {
		[CENTER_MEDIAN] = "median",
		[CENTER_GEOMEAN] = "geometric mean of the samples (where Student's t "
			"on the logs judged the cell)",
		[CENTER_RUNS_GEOMEAN] = "geometric mean of the runs' values",
		[CENTER_PAIRED] = "other sides: the base's median times the paired "
			"Hodges-Lehmann ratio of the rounds (the signed-rank test's "
			"estimate)",
		[CENTER_SHIFTED] = "other sides: the base's median times the "
			"Hodges-Lehmann ratio of the samples (Mann-Whitney's estimate)",
	};
	/* Both kinds of ratio in one comparison: one phrase for the two. */
	static const char both[] = "other sides: the base's median times the "
		"Hodges-Lehmann ratio of the paired rounds (the signed-rank test's "
		"estimate) or of the samples (Mann-Whitney's)";
	bool merge = centre_used(r, CENTER_PAIRED) && centre_used(r, CENTER_SHIFTED);
	size_t n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		if (!centre_used(r, (enum compare_center)k) ||
		    (merge && k == CENTER_SHIFTED))
			continue;
		strbuf_addf(out, "%s%s", n++ ? "; " : "",
			    merge && k == CENTER_PAIRED ? both : names[k]);
	}
	if (!n)
		strbuf_adds(out, "median");
}

const char *const compare_gate_names[] = { "none", "worse", "better", "change", NULL };

bool compare_gate_hit(const struct compare_diff *d, enum compare_gate gate)
{
	if (!d->valid || !d->significant || (d->emulated && !d->judge_emulated))
		return false;
	switch (gate) {
	case GATE_NONE:
		return false;
	case GATE_WORSE:
		return d->change_pct > 0;
	case GATE_BETTER:
		return d->change_pct < 0;
	case GATE_CHANGE:
		return true;
	}
	return false;
}
