// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/compare.h"
#include "results/tap.h"
#include "results/run-facts.h"
#include "report/compare-format.h"
#include "basic/util.h"

/* Deterministic normal samples (xorshift + Box-Muller): no flaky data. */
static uint64_t rng_state = 88172645463325252ull;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(double mean, double sd)
{
	return mean + sd * sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

static void fill_cell(struct stored_cell *c, const char *name, const char *unit,
		      size_t n, double mean, double sd)
{
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->path = xstrdup("vdso");
	c->status = xstrdup("ok");
	c->unit = xstrdup(unit);
	c->n = n;
	c->values = xmalloc(n * sizeof(double));
	c->cycles = xmalloc(n * sizeof(double));
	c->cycles_unit = xstrdup("TSC ticks");
	for (size_t i = 0; i < n; i++) {
		c->values[i] = normal(mean, sd);
		c->cycles[i] = 2 * c->values[i];
	}
}

/* A run of one or more cells: name i gets mean[i]. */
static void make_run(struct stored_run *run, int64_t id, size_t ncells,
		     const double *mean, double sd_pct, size_t n)
{
	static const char *const names[] = {
		"cell-a", "cell-b", "cell-c", "cell-d", "cell-e", "cell-f",
		"cell-g", "cell-h", "cell-i", "cell-j", "cell-k", "cell-l",
	};

	memset(run, 0, sizeof(*run));
	run->id = id;
	run->command = xstrdup("bench");
	run->label = xstrdup("");
	run->host = xstrdup("test");
	run->kernel = xstrdup("6.18");
	run->status = xstrdup("complete");
	run->ncells = ncells;
	run->cells = xcalloc(ncells, sizeof(*run->cells));
	for (size_t i = 0; i < ncells; i++)
		fill_cell(&run->cells[i], names[i], "ns", n, mean[i],
			  mean[i] * sd_pct / 100);
}

static void free_run(struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct stored_cell *c = &run->cells[i];

		free(c->name);
		free(c->path);
		free(c->status);
		free(c->unit);
		free(c->values);
		free(c->cycles);
		free(c->core_cycles);
		free(c->cycles_unit);
	}
	for (size_t i = 0; i < run->ncells; i++)
		free(run->cells[i].rounds);
	free(run->cells);
	free(run->command);
	free(run->label);
	free(run->host);
	free(run->kernel);
	free(run->status);
	run_facts_forget(run);
	json_decref(run->env);
	json_decref(run->config);
}

static char base_spec[] = "base", other_spec[] = "other";
static char spec1[] = "1", spec2[] = "2";

struct fixture {
	struct compare_group groups[2];
	struct stored_run runs[2][6];
	struct compare_result r;
};

/*
 * Single runs measured by one invocation, interleaved (as `exec -c A -c B`
 * or `ab` measure): the only way one run against one is judged on its own
 * samples. Two separate runs need a history (test_separate_runs_...).
 */
static void one_invocation(struct fixture *fx)
{
	for (size_t g = 0; g < 2; g++)
		if (fx->groups[g].nruns == 1) {
			struct stored_run *run = &fx->groups[g].runs[0];

			if (!run->config)
				run->config = json_object();
			json_object_set_new(run->config, "interleave",
					    json_string("one-invocation"));
			run_facts_forget(run);
		}
}

/*
 * Two groups of nruns runs each; base cells at base[i], other at other[i];
 * each group's runs booted by `kernels` campaign[g] (its
 * environment.vm.campaign), or by none where campaign is NULL.
 */
static void fill(struct fixture *fx, size_t nruns, size_t ncells,
		 const double *base, const double *other, double sd_pct,
		 size_t n, const char *const campaign[2])
{
	rng_state = 88172645463325252ull;	/* the same data for every build */
	memset(fx, 0, sizeof(*fx));
	for (size_t g = 0; g < 2; g++) {
		fx->groups[g].spec = g ? other_spec : base_spec;
		fx->groups[g].runs = fx->runs[g];
		fx->groups[g].nruns = nruns;
		for (size_t k = 0; k < nruns; k++) {
			make_run(&fx->runs[g][k], (int64_t)(g * 10 + k + 1), ncells,
				 g ? other : base, sd_pct, n);
			if (campaign)
				fx->runs[g][k].env = json_pack("{s:{s:s}}", "vm",
							       "campaign", campaign[g]);
		}
	}
}

static void build_filled(struct fixture *fx, const struct compare_options *o)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(compare_build(&fx->r, fx->groups, 2, o, &err), 0);
}

static void build_booted(struct fixture *fx, size_t nruns, size_t ncells,
			 const double *base, const double *other, double sd_pct,
			 size_t n, const struct compare_options *o,
			 const char *const campaign[2])
{
	fill(fx, nruns, ncells, base, other, sd_pct, n, campaign);
	build_filled(fx, o);
}

/* Separate runs (or replicates when nruns > 1). */
static void build(struct fixture *fx, size_t nruns, size_t ncells,
		  const double *base, const double *other, double sd_pct,
		  size_t n, const struct compare_options *o)
{
	build_booted(fx, nruns, ncells, base, other, sd_pct, n, o, NULL);
}

/* One run a side, measured together by one invocation. */
static void build_together(struct fixture *fx, size_t ncells, const double *base,
			   const double *other, double sd_pct, size_t n,
			   const struct compare_options *o)
{
	fill(fx, 1, ncells, base, other, sd_pct, n, NULL);
	one_invocation(fx);
	build_filled(fx, o);
}

static void teardown_fixture(struct fixture *fx)
{
	compare_free(&fx->r);
	for (size_t g = 0; g < 2; g++)
		for (size_t k = 0; k < fx->groups[g].nruns; k++)
			free_run(&fx->runs[g][k]);
}

static const struct compare_diff *diff_of(const struct fixture *fx, size_t row)
{
	return &fx->r.rows[row].diffs[1];
}

/* ---- counts (kernels --exact) ----------------------------------------- */

/*
 * Groups of boots of cell-a in instructions per call: boots[g] counts, the
 * runs' samples all at that count (a count that repeats), or spread by
 * sd_pct around it.
 */
static int build_counts(struct fixture *fx, const size_t nboots[2],
			const double *const counts[2], double sd_pct, bool timed_other,
			struct strbuf *err)
{
	struct compare_options o;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	memset(fx, 0, sizeof(*fx));
	for (size_t g = 0; g < 2; g++) {
		fx->groups[g].spec = g ? other_spec : base_spec;
		fx->groups[g].runs = fx->runs[g];
		fx->groups[g].nruns = nboots[g];
		for (size_t k = 0; k < nboots[g]; k++) {
			struct stored_cell *c;

			make_run(&fx->runs[g][k], (int64_t)(g * 10 + k + 1), 1, &counts[g][k],
				 sd_pct, 40);
			c = &fx->runs[g][k].cells[0];
			if (g && timed_other)
				continue;
			free(c->unit);
			c->unit = xstrdup("instructions");
			free(c->cycles);
			c->cycles = NULL;
		}
	}
	return compare_build(&fx->r, fx->groups, 2, &o, err);
}

static void test_counts_judged_by_themselves(void **state)
{
	static const struct {
		size_t boots[2];
		double base[3], other[3];
		const char *verdict;
		bool significant;
		enum compare_test test;
		double shift;
	} cases[] = {
		/* Every boot of both sides alike: same, or the exact difference. */
		{ { 2, 2 }, { 63.39, 63.39 }, { 63.39, 63.39 }, "same", false, TEST_EXACT, 0 },
		{ { 2, 2 }, { 61.39, 61.39 }, { 63.39, 63.39 }, "worse", true, TEST_EXACT, 2 },
		{ { 3, 2 }, { 447.4, 447.4, 447.4 }, { 436.4, 436.4 }, "better", true,
		  TEST_EXACT, -11 },
		/* One boot cannot show that a count repeats: no verdict. */
		{ { 1, 1 }, { 61.39 }, { 63.39 }, "few", false, TEST_EXACT, 2 },
		{ { 1, 2 }, { 63.39 }, { 63.39, 63.39 }, "same", false, TEST_EXACT, 0 },
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fixture fx;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const double *counts[2] = { cases[i].base, cases[i].other };
		const struct compare_diff *d;

		assert_int_equal(build_counts(&fx, cases[i].boots, counts, 0, false, &err), 0);
		d = diff_of(&fx, 0);
		assert_true(fx.r.exact);
		assert_string_equal(fx.r.unit, "instructions");
		assert_string_equal(d->verdict, cases[i].verdict);
		assert_int_equal(d->significant, cases[i].significant);
		assert_int_equal(d->test, cases[i].test);
		assert_true(fabs(d->shift - cases[i].shift) < 1e-9);
		assert_true(d->change_lo_pct == d->change_hi_pct);
		/* A count is no emulated timing: the gate judges it. */
		assert_true(d->judge_emulated);
		assert_int_equal(compare_gate_hit(d, GATE_CHANGE), cases[i].significant);
		teardown_fixture(&fx);
	}
}

/* A count that varies between boots (a syscall an interrupt met) is tested. */
static void test_counts_that_vary_keep_the_test(void **state)
{
	static const size_t boots[2] = { 3, 3 };
	static const double same[3] = { 436.4, 436.4, 436.4 };
	const double *counts[2] = { same, same };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fixture fx;

	(void)state;
	assert_int_equal(build_counts(&fx, boots, counts, 1.0, false, &err), 0);
	assert_int_not_equal(diff_of(&fx, 0)->test, TEST_EXACT);
	assert_false(diff_of(&fx, 0)->significant);
	teardown_fixture(&fx);
}

/* A count is never compared with a time. */
static void test_counts_never_against_times(void **state)
{
	static const size_t boots[2] = { 2, 2 };
	static const double v[2] = { 63.39, 63.39 };
	const double *counts[2] = { v, v };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fixture fx;

	(void)state;
	assert_int_equal(build_counts(&fx, boots, counts, 0, true, &err), -1);
	assert_string_equal(err.buf, "base counts instructions (kernels --exact) and "
			    "other is timed: a count of guest instructions is never "
			    "compared with a time");
	compare_free(&fx.r);
	for (size_t g = 0; g < 2; g++)
		for (size_t k = 0; k < 2; k++)
			free_run(&fx.runs[g][k]);
}

/* Runs of two architectures are two machines: never judged against each other. */
static void test_architectures_never_judged_together(void **state)
{
	static const size_t boots[2] = { 2, 2 };
	static const double b[2] = { 61.39, 61.39 }, a[2] = { 43.38, 43.38 };
	const double *counts[2] = { b, a };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct compare_options o;
	struct fixture fx;

	(void)state;
	assert_int_equal(build_counts(&fx, boots, counts, 0, false, &err), 0);
	assert_string_equal(diff_of(&fx, 0)->verdict, "better");
	compare_free(&fx.r);
	for (size_t g = 0; g < 2; g++)
		for (size_t k = 0; k < 2; k++)
		{
			fx.runs[g][k].env = json_pack("{s:s}", "machine", g ? "aarch64" : "x86_64");
			/* What was read of the runs before: read again. */
			run_facts_forget(&fx.runs[g][k]);
		}
	compare_options_default(&o);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	assert_string_equal(diff_of(&fx, 0)->verdict, "n/a");
	assert_false(diff_of(&fx, 0)->significant);
	assert_true(fx.r.other_arch[1]);
	teardown_fixture(&fx);
}

static void test_same_distribution_is_not_significant(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double m[] = { 25.0 };

	compare_options_default(&o);
	build_together(&fx, 1, m, m, 2.0, 2000, &o);
	assert_string_equal(diff_of(&fx, 0)->verdict, "~");
	assert_false(diff_of(&fx, 0)->significant);
	assert_true(fabs(diff_of(&fx, 0)->change_pct) < 0.5);
	teardown_fixture(&fx);
}

static void test_real_slowdown_is_worse(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 25.0 }, a[] = { 26.0 };	/* +4 %, the time-namespace cost */

	compare_options_default(&o);
	build_together(&fx, 1, b, a, 2.0, 2000, &o);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	assert_true(diff_of(&fx, 0)->significant);
	assert_true(diff_of(&fx, 0)->change_pct > 3.5 && diff_of(&fx, 0)->change_pct < 4.5);
	assert_true(diff_of(&fx, 0)->change_lo_pct > 1.0);
	assert_true(diff_of(&fx, 0)->change_lo_pct <= diff_of(&fx, 0)->change_hi_pct);
	assert_true(diff_of(&fx, 0)->p_adjusted < 1e-6);
	assert_true(diff_of(&fx, 0)->cliffs_delta > 0.5);
	teardown_fixture(&fx);
}

/*
 * Issue 30: a time that fell, with a wide spread (hotplug's offline: 3 ms
 * and 90 ms cycles in one run): the change's interval is a ratio, computed
 * on the logs, and never passes -100 % (it was -120.25 %).
 */
static void test_decrease_interval_stays_above_minus_100(void **state)
{
	static const double slow[] = { 3, 90, 4, 85, 3.5, 95, 5, 80, 3.2, 88 };
	static const double fast[] = { 2, 3, 2.5, 2.8, 2.2, 3.1, 2.4, 2.9, 2.6, 2.3 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct compare_options o;
	struct fixture fx;
	double b[] = { 1.0 };
	const struct compare_diff *d;

	compare_options_default(&o);
	memset(&fx, 0, sizeof(fx));
	for (size_t g = 0; g < 2; g++) {
		fx.groups[g].spec = g ? other_spec : base_spec;
		fx.groups[g].runs = fx.runs[g];
		fx.groups[g].nruns = 1;
		make_run(&fx.runs[g][0], (int64_t)g + 1, 1, b, 1.0, 10);
		memcpy(fx.runs[g][0].cells[0].values, g ? fast : slow, sizeof(slow));
	}
	one_invocation(&fx);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	d = diff_of(&fx, 0);
	assert_int_equal(d->test, TEST_RANK);
	assert_true(d->change_pct < -50);
	assert_true(d->change_lo_pct > -100);
	assert_true(d->change_lo_pct < d->change_pct && d->change_pct < d->change_hi_pct);
	assert_true(d->change_hi_pct < 0);
	teardown_fixture(&fx);
}

/*
 * Issue 30: hotplug's online-user 0.0002 -> 0 s was "-100 % better". The
 * runs record that user and sys below a tick (4 ms) are the kernel's
 * estimates: such a cell gets no verdict; above a tick, and wall, do.
 */
static void test_tick_sampled_cpu_time_gets_no_verdict(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct compare_options o;
	struct fixture fx;
	double b[] = { 0.0002, 0.05, 0.3 }, a[] = { 0.0001, 0.08, 0.5 };
	static const char *const names[] = { "online-user", "user", "wall" };

	compare_options_default(&o);
	memset(&fx, 0, sizeof(fx));
	rng_state = 88172645463325252ull;
	for (size_t g = 0; g < 2; g++) {
		fx.groups[g].spec = g ? other_spec : base_spec;
		fx.groups[g].runs = fx.runs[g];
		fx.groups[g].nruns = 1;
		make_run(&fx.runs[g][0], (int64_t)g + 1, 3, g ? a : b, 2.0, 20);
		for (size_t c = 0; c < 3; c++) {
			free(fx.runs[g][0].cells[c].name);
			fx.runs[g][0].cells[c].name = xstrdup(names[c]);
			free(fx.runs[g][0].cells[c].unit);
			fx.runs[g][0].cells[c].unit = xstrdup("s");
		}
		fx.runs[g][0].config = json_pack("{s:{s:b, s:f}}", "cpu_accounting",
						 "sampled", 1, "estimate_below_s", 0.004);
	}
	one_invocation(&fx);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	for (size_t i = 0; i < fx.r.nrows; i++) {
		const struct compare_diff *d = &fx.r.rows[i].diffs[1];
		bool tiny = streq(fx.r.rows[i].name, "online-user");

		assert_true(d->valid);
		assert_int_equal(d->estimate, tiny);
		if (tiny) {
			assert_string_equal(d->verdict, "few");
			/*
			 * No p, so no place in the correction (an exec pair's
			 * wall went from p 0.037 to 0.074, "noisy", by it), and
			 * no interval.
			 */
			assert_true(isnan(d->p) && isnan(d->p_adjusted));
			assert_true(isnan(d->change_lo_pct) && isnan(d->change_hi_pct));
			assert_true(strstr(d->reason, "tick-sampled") == d->reason);
			/* Nor a place in the geomean, which it moved (+65 %). */
			assert_int_equal(fx.r.rows[i].out_of_geomean, GEOMEAN_ESTIMATE);
		} else {
			assert_string_equal(d->verdict, "worse");
		}
	}
	teardown_fixture(&fx);
}

static void test_speedup_is_better(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 1200.0 }, a[] = { 1080.0 };

	compare_options_default(&o);
	build_together(&fx, 1, b, a, 3.0, 500, &o);
	assert_string_equal(diff_of(&fx, 0)->verdict, "better");
	assert_true(diff_of(&fx, 0)->cliffs_delta < -0.5);
	teardown_fixture(&fx);
}

/* Thousands of samples make 0.3 % "significant"; the threshold does not. */
static void test_tiny_shift_below_threshold(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 25.0 }, a[] = { 25.075 };

	compare_options_default(&o);
	build_together(&fx, 1, b, a, 0.5, 5000, &o);
	assert_true(diff_of(&fx, 0)->p_adjusted < 0.05);
	assert_false(diff_of(&fx, 0)->significant);
	assert_string_equal(diff_of(&fx, 0)->verdict, "~");
	teardown_fixture(&fx);

	o.threshold_pct = 0;
	build_together(&fx, 1, b, a, 0.5, 5000, &o);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	teardown_fixture(&fx);
}

/*
 * Several runs per label: one value per run, Student's t on their logs.
 * 3 against 3 reaches a verdict (Mann-Whitney could not go below 0.1).
 */
static void test_replicates_use_run_values(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 25.0 }, a[] = { 27.5 };

	compare_options_default(&o);
	build(&fx, 3, 1, b, a, 1.0, 200, &o);
	assert_true(fx.r.replicates);
	assert_int_equal(fx.r.rows[0].sides[0].n, 3);
	assert_int_equal(diff_of(&fx, 0)->test, TEST_LOG_T);
	assert_true(diff_of(&fx, 0)->df == 4);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	assert_true(diff_of(&fx, 0)->change_lo_pct < 10 && diff_of(&fx, 0)->change_hi_pct > 10);
	/* The centre is the geometric mean of the runs' values, the change
	 * the ratio of the centres. */
	assert_true(fabs(fx.r.rows[0].sides[1].center / fx.r.rows[0].sides[0].center -
			 diff_of(&fx, 0)->ratio) < 1e-12);
	assert_true(fx.r.rows[0].sides[0].center_coverage == 0.95);
	teardown_fixture(&fx);

	/* 2 against 2 as well, with fewer degrees of freedom. */
	build(&fx, 2, 1, b, a, 1.0, 200, &o);
	assert_true(diff_of(&fx, 0)->df == 2);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	teardown_fixture(&fx);
}

static void test_noisy_cells(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double m[] = { 100.0 };

	compare_options_default(&o);
	build_together(&fx, 1, m, m, 30.0, 40, &o);
	assert_true(fx.r.rows[0].sides[0].noisy);
	assert_string_equal(diff_of(&fx, 0)->verdict, "noisy");
	teardown_fixture(&fx);
}

static void test_holm_across_cells_and_geomean(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 100, 100, 100, 100 }, a[] = { 110, 90, 100, 100 };
	double p[4];

	compare_options_default(&o);
	assert_int_equal(o.correction, CORRECT_BH);
	build_together(&fx, 4, b, a, 2.0, 300, &o);
	for (size_t i = 0; i < 4; i++)
		p[i] = diff_of(&fx, i)->p;
	stats_benjamini_hochberg(p, 4);
	for (size_t i = 0; i < 4; i++)
		assert_true(diff_of(&fx, i)->p_adjusted == p[i]);
	teardown_fixture(&fx);

	o.correction = CORRECT_HOLM;
	build_together(&fx, 4, b, a, 2.0, 300, &o);
	for (size_t i = 0; i < 4; i++)
		p[i] = diff_of(&fx, i)->p;
	stats_holm(p, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_true(diff_of(&fx, i)->p_adjusted >= diff_of(&fx, i)->p);
		assert_true(diff_of(&fx, i)->p_adjusted == p[i]);
	}
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	assert_string_equal(diff_of(&fx, 1)->verdict, "better");
	/* Geometric mean of the ratios: about sqrt(1.1 * 0.9) - 1 = -0.5 %. */
	double prod = 1;

	for (size_t i = 0; i < 4; i++)
		prod *= diff_of(&fx, i)->ratio;
	assert_true(fabs(fx.r.geomean_change_pct[1] - 100 * (pow(prod, 0.25) - 1)) < 1e-9);
	assert_true(fabs(fx.r.geomean_change_pct[1] - (-0.5)) < 0.5);
	teardown_fixture(&fx);
}

static char *render(const struct compare_result *r, enum compare_style s,
		    enum output_format fmt);

/*
 * Issue 30: two runs a side give a t with one degree of freedom, and
 * hotplug's states showed "±135603665876.9%": too few is said instead.
 */
static void test_two_values_too_few_for_a_ci(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 100 }, a[] = { 104 };
	char *text;

	(void)state;
	compare_options_default(&o);
	build(&fx, 2, 1, b, a, 3.0, 100, &o);
	text = render(&fx.r, STYLE_TABLE, FORMAT_TABLE);
	/* In the row, followed by the next column (the legend has "):"). */
	assert_non_null(strstr(text, " (n=2: no CI) "));
	assert_null(strstr(text, " ±"));
	free(text);
	teardown_fixture(&fx);
	build(&fx, 3, 1, b, a, 3.0, 100, &o);
	text = render(&fx.r, STYLE_TABLE, FORMAT_TABLE);
	assert_null(strstr(text, ": no CI) "));
	assert_non_null(strstr(text, " ±"));
	free(text);
	teardown_fixture(&fx);
}

/*
 * Issue 30: the summary style cut "timens-a673ac6d-host" and "-timens" to
 * "timens-a67…" twice. Titles up to 32 columns are whole; longer ones
 * are letters, named in a legend.
 */
static void test_summary_titles_never_cut(void **state)
{
	static char host[] = "timens-a673ac6d-host", ns[] = "timens-a673ac6d-timens";
	static char before[] = "kernel-6.12.118-with-the-long-config-before";
	static char after[] = "kernel-6.12.118-with-the-long-config-after";
	struct compare_options o;
	struct fixture fx;
	double b[] = { 100 }, a[] = { 104 };
	char *text;

	(void)state;
	compare_options_default(&o);
	build(&fx, 1, 1, b, a, 3.0, 100, &o);
	fx.groups[0].spec = host;
	fx.groups[1].spec = ns;
	text = render(&fx.r, STYLE_SUMMARY, FORMAT_TABLE);
	assert_non_null(strstr(text, "| timens-a673ac6d-host   | timens-a673ac6d-timens \n"));
	assert_null(strstr(text, "…"));
	free(text);
	fx.groups[0].spec = before;
	fx.groups[1].spec = after;
	text = render(&fx.r, STYLE_SUMMARY, FORMAT_TABLE);
	assert_non_null(strstr(text, "# A: kernel-6.12.118-with-the-long-config-before\n"
			       "# B: kernel-6.12.118-with-the-long-config-after\n"));
	assert_non_null(strstr(text, "| A           | B           \n"));
	assert_null(strstr(text, "…"));
	free(text);
	/* The table and mmtests styles cut them to one text before. */
	for (int style = STYLE_TABLE; style <= STYLE_MMTESTS; style++) {
		text = render(&fx.r, (enum compare_style)style, FORMAT_TABLE);
		assert_non_null(strstr(text, "# A: kernel-6.12.118-with-the-long-config-before\n"
				       "# B: kernel-6.12.118-with-the-long-config-after\n"));
		assert_non_null(strstr(text, "                    A                     B"));
		assert_null(strstr(text, "…"));
		free(text);
	}
	/* timens's 22 columns: one past the table's 21, not cut either. */
	fx.groups[0].spec = host;
	fx.groups[1].spec = ns;
	text = render(&fx.r, STYLE_TABLE, FORMAT_TABLE);
	assert_non_null(strstr(text, "# B: timens-a673ac6d-timens\n"));
	assert_null(strstr(text, "…"));
	free(text);
	fx.groups[0].spec = base_spec;
	fx.groups[1].spec = other_spec;
	teardown_fixture(&fx);
}

/*
 * Issue 30: a scale run in the mmtests style reads as mmtests prints
 * poundtime: a block per API, a row per thread count.
 */
static void test_mmtests_scale_blocks(void **state)
{
	static const char *const names[] = { "times-threads-1", "times-threads-2",
					     "times-threads-16" };
	struct compare_options o;
	struct fixture fx;
	double b[] = { 1.0, 1.5, 4.0 }, a[] = { 1.0, 1.5, 4.0 };
	char *text;

	(void)state;
	compare_options_default(&o);
	build(&fx, 1, 3, b, a, 1.0, 100, &o);
	for (size_t i = 0; i < 3; i++) {
		free(fx.r.rows[i].name);
		free(fx.r.rows[i].path);
		fx.r.rows[i].name = xstrdup(names[i]);
		fx.r.rows[i].path = xstrdup("libc");
	}
	text = render(&fx.r, STYLE_MMTESTS, FORMAT_TABLE);
	assert_non_null(strstr(text, "\ntimes libc\n"));
	assert_non_null(strstr(text, "\nmedian         1 "));
	assert_non_null(strstr(text, "\nmedian         2 "));
	assert_non_null(strstr(text, "\nmedian        16 "));
	assert_null(strstr(text, "times-threads-"));
	free(text);
	teardown_fixture(&fx);
}

/* Issue 15, 8: a cell at 0 (exec's sys) made every geomean 0. */
static void test_geomean_leaves_out_non_positive_cells(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 100, 0, 50 }, a[] = { 110, 0, 55 };
	char *text;

	compare_options_default(&o);
	build(&fx, 1, 3, b, a, 0.5, 100, &o);
	assert_int_equal(fx.r.rows[1].out_of_geomean, GEOMEAN_NOT_POSITIVE);
	assert_false(fx.r.rows[0].out_of_geomean || fx.r.rows[2].out_of_geomean);
	assert_int_equal(fx.r.geomean_left_out, 1);
	assert_true(fabs(fx.r.geomean[0] / sqrt(100 * 50) - 1) < 0.01);
	assert_true(fabs(fx.r.geomean[1] / sqrt(110 * 55) - 1) < 0.01);
	assert_true(fabs(fx.r.geomean_change_pct[1] - 10) < 1);
	for (int style = STYLE_TABLE; style <= STYLE_RATIO; style++) {
		text = render(&fx.r, (enum compare_style)style, FORMAT_TABLE);
		assert_non_null(strstr(text, "# geomean: over 2 of 3 cells; left out, a "
				       "value not above 0 (no geometric mean holds "
				       "one): cell-b-vdso\n"));
		free(text);
	}
	text = render(&fx.r, STYLE_TABLE, FORMAT_JSON);
	assert_non_null(strstr(text, "\"in_geomean\": false"));
	free(text);
	teardown_fixture(&fx);
}

/* A cell one kernel lacks (6.1's getrandom vDSO) is named for that. */
static void test_geomean_names_cells_missing_from_a_group(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct compare_options o;
	struct fixture fx;
	double b[] = { 100, 50, 20 }, a[] = { 110, 55 };
	char *text;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	memset(&fx, 0, sizeof(fx));
	for (size_t g = 0; g < 2; g++) {
		fx.groups[g].spec = g ? other_spec : base_spec;
		fx.groups[g].runs = fx.runs[g];
		fx.groups[g].nruns = 1;
	}
	make_run(&fx.runs[0][0], 1, 3, b, 0.5, 100);
	make_run(&fx.runs[1][0], 11, 2, a, 0.5, 100);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	assert_int_equal(fx.r.rows[2].out_of_geomean, GEOMEAN_MISSING);
	assert_int_equal(fx.r.geomean_left_out, 1);
	text = render(&fx.r, STYLE_TABLE, FORMAT_TABLE);
	assert_non_null(strstr(text, "# geomean: over 2 of 3 cells; left out, not in "
			       "every group: cell-c-vdso\n"));
	free(text);
	teardown_fixture(&fx);
}

static void test_metric_cycles(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double m[] = { 25.0 };

	compare_options_default(&o);
	o.metric = METRIC_CYCLES;
	build(&fx, 1, 1, m, m, 1.0, 100, &o);
	assert_string_equal(fx.r.unit, "TSC ticks");
	assert_true(fabs(fx.r.rows[0].sides[0].sum.median - 50.0) < 1.0);
	teardown_fixture(&fx);
}

static void test_missing_cell_and_no_metric(void **state)
{
	struct compare_options o;
	struct stored_run a, b;
	struct compare_group groups[2];
	struct compare_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	double m2[] = { 10, 20 }, m1[] = { 10 };

	compare_options_default(&o);
	make_run(&a, 1, 2, m2, 1.0, 50);
	make_run(&b, 2, 1, m1, 1.0, 50);
	groups[0] = (struct compare_group){ .spec = spec1, .runs = &a, .nruns = 1 };
	groups[1] = (struct compare_group){ .spec = spec2, .runs = &b, .nruns = 1 };
	assert_int_equal(compare_build(&r, groups, 2, &o, &err), 0);
	assert_int_equal(r.nrows, 2);
	assert_true(r.rows[0].diffs[1].valid);
	assert_false(r.rows[1].diffs[1].valid);
	compare_free(&r);

	o.metric = METRIC_SECONDS;	/* these runs are in ns */
	assert_int_equal(compare_build(&r, groups, 2, &o, &err), -1);
	assert_non_null(strstr(err.buf, "seconds"));
	compare_free(&r);
	free_run(&a);
	free_run(&b);
}

/* A run of one cell measured in 10 rounds, each round drifted by sd 2 %. */
static void make_drifting_run(struct stored_run *run, int64_t id, double mean)
{
	enum { ROUNDS = 10, PER_ROUND = 200 };
	struct stored_cell *c;

	make_run(run, id, 1, &mean, 0.5, ROUNDS * PER_ROUND);
	c = &run->cells[0];
	c->rounds = xmalloc(c->n * sizeof(uint32_t));
	c->nrounds = ROUNDS;
	for (uint32_t k = 0; k < ROUNDS; k++) {
		double drift = normal(0, 0.02);

		for (size_t i = 0; i < PER_ROUND; i++) {
			c->rounds[k * PER_ROUND + i] = k;
			c->values[k * PER_ROUND + i] *= 1 + drift;
		}
	}
}

/*
 * Two runs of the same thing on a drifting machine: their raw samples
 * differ "significantly", their round medians do not. A real +8 % change
 * shows through the rounds, but one run against one, with nothing that
 * measures how far whole runs move, gets no verdict: the change is
 * shown, the spread between runs said to be unknown (issue 20).
 */
static void test_rounds_carry_the_drift(void **state)
{
	struct compare_options o;
	struct stored_run runs[3];
	struct compare_group groups[2];
	struct compare_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int significant_aa = 0;

	compare_options_default(&o);
	for (int trial = 0; trial < 10; trial++) {
		make_drifting_run(&runs[0], 1, 25.0);
		make_drifting_run(&runs[1], 2, 25.0);
		groups[0] = (struct compare_group){ .spec = spec1, .runs = &runs[0], .nruns = 1 };
		groups[1] = (struct compare_group){ .spec = spec2, .runs = &runs[1], .nruns = 1 };
		assert_int_equal(compare_build(&r, groups, 2, &o, &err), 0);
		assert_true(r.rows[0].sides[0].by_rounds);
		assert_int_equal(r.rows[0].sides[0].n, 10);
		/* The bar: the larger of 1 % and the rounds' robust CV (~2 %). */
		assert_true(r.rows[0].diffs[1].floor_pct ==
			    fmax(1.0, fmax(r.rows[0].sides[0].sum.robust_cv_pct,
					   r.rows[0].sides[1].sum.robust_cv_pct)));
		significant_aa += r.rows[0].diffs[1].significant;
		compare_free(&r);
		free_run(&runs[0]);
		free_run(&runs[1]);
	}
	/* 10 A/A pairs at alpha 0.05 and a 1 % threshold: at most a stray one. */
	assert_true(significant_aa <= 1);

	make_drifting_run(&runs[0], 1, 25.0);
	make_drifting_run(&runs[2], 3, 27.0);
	groups[0] = (struct compare_group){ .spec = spec1, .runs = &runs[0], .nruns = 1 };
	groups[1] = (struct compare_group){ .spec = spec2, .runs = &runs[2], .nruns = 1 };
	assert_int_equal(compare_build(&r, groups, 2, &o, &err), 0);
	assert_string_equal(r.rows[0].diffs[1].verdict, "few");
	assert_true(r.rows[0].diffs[1].spread_unknown);
	assert_false(r.rows[0].diffs[1].significant);
	assert_true(isnan(r.rows[0].diffs[1].p_adjusted));
	assert_true(r.rows[0].diffs[1].change_pct > 5 && r.rows[0].diffs[1].change_pct < 11);
	assert_true(compare_spread_unknown(&r));
	compare_free(&r);
	free_run(&runs[0]);
	free_run(&runs[2]);
}

static char *render(const struct compare_result *r, enum compare_style s,
		    enum output_format fmt);

/* ---- synthetic runs in rounds: slow phases, outlier rounds, drift --- */

/*
 * One cell measured in rounds, as bench stores it. Each batch is
 * mean * (1 + run_offset) * (1 + round offset) * (1 + batch noise); the
 * rounds slow_from .. slow_from + nslow - 1 run slow_factor slower, as
 * when the core's frequency drops for a while.
 */
struct run_shape {
	double mean;
	double run_offset;	/* the whole run, e.g. a drawn between-run drift */
	double round_sd;	/* relative sd of each round's offset */
	double batch_sd;	/* relative sd of one batch */
	uint32_t rounds;
	size_t per_round;
	uint32_t slow_from, nslow;
	double slow_factor;
};

static const struct run_shape quiet_shape = {
	.mean = 25.0, .round_sd = 0.0005, .batch_sd = 0.01, .rounds = 10,
	.per_round = 100, .slow_factor = 1,
};

static void make_shaped_run(struct stored_run *run, int64_t id,
			    const struct run_shape *sh)
{
	struct stored_cell *c;
	size_t n = sh->rounds * sh->per_round;

	make_run(run, id, 1, &sh->mean, 0, n);
	c = &run->cells[0];
	c->rounds = xmalloc(n * sizeof(uint32_t));
	c->nrounds = sh->rounds;
	for (uint32_t k = 0; k < sh->rounds; k++) {
		double f = (1 + sh->run_offset) * (1 + normal(0, sh->round_sd));

		if (k >= sh->slow_from && k < sh->slow_from + sh->nslow)
			f *= sh->slow_factor;
		for (size_t i = 0; i < sh->per_round; i++) {
			size_t j = k * sh->per_round + i;

			c->rounds[j] = k;
			c->values[j] = sh->mean * f * (1 + normal(0, sh->batch_sd));
			c->cycles[j] = 2 * c->values[j];
		}
	}
}

/* runs[0..nb) against runs[nb..nb+no), one cell; the verdict's diff. */
static const struct compare_diff *compare_two_runs(struct compare_result *r,
					       struct stored_run *runs, size_t nb,
					       size_t no, const struct compare_options *o)
{
	static struct compare_group groups[2];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	groups[0] = (struct compare_group){ .spec = base_spec, .runs = runs, .nruns = nb };
	groups[1] = (struct compare_group){ .spec = other_spec, .runs = runs + nb,
					    .nruns = no };
	assert_int_equal(compare_build(r, groups, 2, o, &err), 0);
	return &r->rows[0].diffs[1];
}

static void free_runs(struct stored_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_run(&runs[i]);
}

/*
 * timens: +4.6 % with a CI a few hundredths of a percent wide, its rounds
 * interleaved (paired), so a slow phase slows round k of both sides. One
 * round of ten 40 % slower (the 7th, or the 4th) must not make that
 * `noisy`, nor move the floor, nor an A/A pair away from `~`.
 */
static void test_one_bad_round_does_not_flip(void **state)
{
	struct run_shape base = quiet_shape, other = quiet_shape;
	struct compare_options o;
	struct stored_run runs[2];
	struct compare_result r;
	const struct compare_diff *d;

	compare_options_default(&o);
	o.paired = true;
	other.mean = base.mean * 1.046;
	for (int bad = 0; bad < 3; bad++) {
		base.nslow = other.nslow = bad != 0;
		base.slow_from = other.slow_from = bad == 2 ? 3 : 6;
		base.slow_factor = other.slow_factor = 1.4;
		rng_state = 88172645463325252ull;
		make_shaped_run(&runs[0], 1, &base);
		make_shaped_run(&runs[1], 2, &other);
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_int_equal(d->test, TEST_SIGNED_RANK);
		assert_string_equal(d->verdict, "worse");
		assert_true(d->change_pct > 4.3 && d->change_pct < 4.9);
		assert_true(d->floor_pct == 1.0);
		assert_true(d->mde_pct < 4.0);
		/* The classical CV of those rounds would have set the floor. */
		if (bad)
			assert_true(r.rows[0].sides[bad - 1].sum.cv_pct > 5);
		assert_true(r.rows[0].sides[0].sum.robust_cv_pct < 0.5);
		compare_free(&r);
		free_run(&runs[1]);

		/* A/A with the same bad round: no change, and not noisy. */
		make_shaped_run(&runs[1], 2, &base);
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_string_equal(d->verdict, "~");
		compare_free(&r);
		free_runs(runs, 2);
	}
}

/*
 * A getres through libc on this VM switches from round to round between
 * 9.1 and 10.1 core cycles, and most runs spend every round at 10.1. A
 * run with 6 rounds of 10 in the fast mode against one of those: -10 %
 * with the history's tight spread, but the base's own rounds went that
 * far, so it is `noisy`, not `better`. Two slow rounds of ten (40 %
 * slower) stay outside the middle half: a real +5 % is still worse.
 */
static void test_rounds_in_two_modes_are_noisy(void **state)
{
	enum { HISTORY = 6 };
	struct run_shape slow = quiet_shape, modes = quiet_shape;
	struct stored_run hist[HISTORY], runs[2];
	struct compare_group h = { .spec = base_spec, .runs = hist, .nruns = HISTORY };
	struct compare_options o;
	struct compare_result r;
	const struct compare_diff *d;

	compare_options_default(&o);
	o.history = &h;
	rng_state = 88172645463325252ull;
	slow.mean = 10.15;
	modes.mean = 9.14;
	modes.slow_from = 6;
	modes.nslow = 4;
	modes.slow_factor = 10.15 / 9.14;
	for (size_t i = 0; i < HISTORY; i++)
		make_shaped_run(&hist[i], 10 + (int64_t)i, &slow);
	make_shaped_run(&runs[0], 1, &slow);
	make_shaped_run(&runs[1], 2, &modes);
	d = compare_two_runs(&r, runs, 1, 1, &o);
	assert_int_equal(d->test, TEST_LOG_T_HISTORY);
	assert_true(d->change_pct < -9 && d->change_pct > -11);
	assert_true(d->rounds_span);
	assert_false(d->significant);
	assert_string_equal(d->verdict, "noisy");
	compare_free(&r);
	free_runs(runs, 2);
	free_runs(hist, HISTORY);

	slow = modes = quiet_shape;
	for (size_t i = 0; i < HISTORY; i++)
		make_shaped_run(&hist[i], 10 + (int64_t)i, &slow);
	modes.slow_from = 8;
	modes.nslow = 2;
	modes.slow_factor = 1.4;
	make_shaped_run(&runs[0], 1, &modes);
	slow.mean *= 1.05;
	make_shaped_run(&runs[1], 2, &slow);
	d = compare_two_runs(&r, runs, 1, 1, &o);
	assert_int_equal(d->test, TEST_LOG_T_HISTORY);
	assert_false(d->rounds_span);
	assert_string_equal(d->verdict, "worse");
	compare_free(&r);
	free_runs(runs, 2);
	free_runs(hist, HISTORY);
}

/*
 * A syscall cell on this VM: its rounds agree to 0.1 %, but whole runs
 * move by about 2 % between one run and the next. Two runs alone cannot
 * show that, so A/A pairs come out "significant"; with the spread of a
 * dozen earlier runs as the noise, they do not, and a real +8 % still
 * does.
 */
static void test_history_holds_the_noise_between_runs(void **state)
{
	enum { HISTORY = 12, PAIRS = 10 };
	struct run_shape sh = quiet_shape;
	struct stored_run hist[HISTORY], runs[2];
	struct compare_group h = { .spec = base_spec, .runs = hist, .nruns = HISTORY };
	struct compare_options o;
	struct compare_result r;
	const struct compare_diff *d;
	int without = 0, with = 0;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	for (size_t i = 0; i < HISTORY; i++) {
		sh.run_offset = normal(0, 0.02);
		make_shaped_run(&hist[i], 10 + (int64_t)i, &sh);
	}
	for (int pair = 0; pair < PAIRS; pair++) {
		for (int k = 0; k < 2; k++) {
			sh.run_offset = normal(0, 0.02);
			make_shaped_run(&runs[k], 1 + k, &sh);
		}
		o.history = NULL;
		d = compare_two_runs(&r, runs, 1, 1, &o);
		without += d->significant;
		compare_free(&r);
		o.history = &h;
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_int_equal(d->test, TEST_LOG_T_HISTORY);
		assert_int_equal(d->history_runs, HISTORY);
		assert_true(d->df == HISTORY - 1 && d->floor_pct == 1.0);
		with += d->significant;
		compare_free(&r);
		free_runs(runs, 2);
	}
	/* Without the history: no verdict at all, not false alarms. */
	assert_true(without == 0);
	assert_true(with <= 1);

	/* +8 % on top of the same noise: worse, with its size. */
	sh.run_offset = 0;
	make_shaped_run(&runs[0], 1, &sh);
	sh.mean *= 1.08;
	make_shaped_run(&runs[1], 2, &sh);
	d = compare_two_runs(&r, runs, 1, 1, &o);
	assert_string_equal(d->verdict, "worse");
	assert_true(d->change_pct > 7.5 && d->change_pct < 8.5);
	/* About 1 % + (t(.975, 11) + t(.8, 11)) sqrt(2) 2 %: some 10 %. */
	assert_true(d->mde_pct > 6 && d->mde_pct < 14);
	compare_free(&r);
	free_runs(runs, 2);

	/* Fewer than COMPARE_HISTORY_MIN runs: no verdict, the spread unknown. */
	h.nruns = COMPARE_HISTORY_MIN - 1;
	sh.mean = quiet_shape.mean;
	make_shaped_run(&runs[0], 1, &sh);
	make_shaped_run(&runs[1], 2, &sh);
	d = compare_two_runs(&r, runs, 1, 1, &o);
	assert_true(d->spread_unknown);
	assert_string_equal(d->verdict, "few");
	assert_int_equal(r.history_used, COMPARE_HISTORY_MIN - 1);
	compare_free(&r);

	/* Only runs like the base: the same host, command and kernel. */
	assert_true(compare_history_matches(&runs[0], &hist[0]));
	free(hist[0].host);
	hist[0].host = xstrdup("elsewhere");
	assert_false(compare_history_matches(&runs[0], &hist[0]));
	free(hist[1].kernel);
	hist[1].kernel = xstrdup("6.19");
	assert_false(compare_history_matches(&runs[0], &hist[1]));
	/* ... and the same clocksource and time namespace. */
	runs[0].env = json_pack("{s:s, s:{s:b}}", "clocksource", "tsc",
				"time_namespace", "known", 1);
	hist[2].env = json_deep_copy(runs[0].env);
	hist[3].env = json_pack("{s:s, s:{s:b}}", "clocksource", "kvm-clock",
				"time_namespace", "known", 1);
	hist[4].env = json_pack("{s:s, s:{s:b}}", "clocksource", "tsc",
				"time_namespace", "known", 0);
	assert_true(compare_history_matches(&runs[0], &hist[2]));
	assert_false(compare_history_matches(&runs[0], &hist[3]));
	assert_false(compare_history_matches(&runs[0], &hist[4]));
	free_runs(runs, 2);
	free_runs(hist, HISTORY);
}

/* One separate run of n raw samples (as exec or hotplug), offset from mean. */
static void make_raw_run(struct stored_run *run, int64_t id, double mean,
			 double run_offset_sd)
{
	double m = mean * (1 + normal(0, run_offset_sd));

	make_run(run, id, 1, &m, 2.0, 30);
	run->command = (free(run->command), xstrdup("exec"));
	run->config = json_pack("{s:s}", "command_line", "true");
}

/*
 * Issue 30: two separate `exec -n 30 true` runs judged by Mann-Whitney on
 * their samples came out worse (+6 %) or better (-31 %) in 2 of 10 A/A
 * trials: the drift between runs is not in either run's samples. Such a
 * pair now needs a history, as runs in rounds do.
 */
static void test_separate_runs_of_samples_need_a_history(void **state)
{
	enum { HISTORY = 8, TRIALS = 10 };
	struct stored_run hist[HISTORY], runs[2];
	struct compare_group h = { .spec = base_spec, .runs = hist, .nruns = HISTORY };
	struct compare_options o;
	struct compare_result r;
	const struct compare_diff *d;
	int together = 0, alone = 0, judged = 0;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	for (size_t i = 0; i < HISTORY; i++)
		make_raw_run(&hist[i], 100 + (int64_t)i, 0.001, 0.05);
	for (int trial = 0; trial < TRIALS; trial++) {
		for (int k = 0; k < 2; k++)
			make_raw_run(&runs[k], 1 + k, 0.001, 0.05);
		o.history = NULL;
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_true(d->spread_unknown && d->few);
		assert_string_equal(d->verdict, "few");
		assert_true(isnan(d->p) && isnan(d->change_lo_pct));
		alone += d->significant;
		compare_free(&r);
		/* The same samples as if measured together: ranks see the drift. */
		for (int k = 0; k < 2; k++)
			json_object_set_new(runs[k].config, "interleave", json_string("x"));
		run_facts_forget(&runs[0]);
		run_facts_forget(&runs[1]);
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_int_equal(d->test, TEST_RANK);
		together += d->significant;
		compare_free(&r);
		for (int k = 0; k < 2; k++) {
			json_object_del(runs[k].config, "interleave");
			run_facts_forget(&runs[k]);
		}
		o.history = &h;
		d = compare_two_runs(&r, runs, 1, 1, &o);
		assert_int_equal(d->test, TEST_LOG_T_HISTORY);
		assert_int_equal(d->history_runs, HISTORY);
		judged += d->significant;
		compare_free(&r);
		free_runs(runs, 2);
	}
	assert_int_equal(alone, 0);
	assert_true(together >= TRIALS / 2);	/* what the rule prevents */
	assert_true(judged <= 1);

	/* +30 % over the same run-to-run noise: worse, by the history. */
	make_raw_run(&runs[0], 1, 0.001, 0);
	make_raw_run(&runs[1], 2, 0.0013, 0);
	d = compare_two_runs(&r, runs, 1, 1, &o);
	assert_string_equal(d->verdict, "worse");
	assert_true(d->change_lo_pct > 0 && d->change_lo_pct < 30 && d->change_hi_pct > 30);
	compare_free(&r);

	/* exec's cells are wall, user and sys whatever it ran: another command
	 * line, or another prepare, is no history. */
	assert_true(compare_history_matches(&runs[0], &hist[0]));
	json_object_set_new(hist[0].config, "command_line", json_string("sleep 1"));
	assert_false(compare_history_matches(&runs[0], &hist[0]));
	json_object_set_new(hist[1].config, "prepare", json_string("sync"));
	assert_false(compare_history_matches(&runs[0], &hist[1]));
	free_runs(runs, 2);
	free_runs(hist, HISTORY);
}

/*
 * Slow phases of 3 rounds in 10 (the core at 75 % of its speed): each
 * run's value, the median of its round medians, holds; 3 runs against 3
 * still see a +4 % change.
 */
static void test_replicates_with_slow_phases(void **state)
{
	struct run_shape sh = quiet_shape;
	struct compare_options o;
	struct stored_run runs[6];
	struct compare_result r;
	const struct compare_diff *d;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	sh.slow_factor = 1.33;
	sh.nslow = 3;
	for (size_t k = 0; k < 6; k++) {
		sh.mean = k < 3 ? 25.0 : 26.0;
		sh.slow_from = (uint32_t)(k * 2 % 7);
		sh.run_offset = normal(0, 0.005);	/* run-to-run drift */
		make_shaped_run(&runs[k], (int64_t)k + 1, &sh);
	}
	d = compare_two_runs(&r, runs, 3, 3, &o);
	assert_true(r.replicates);
	assert_int_equal(d->test, TEST_LOG_T);
	assert_string_equal(d->verdict, "worse");
	assert_true(d->change_lo_pct < 4.0 && d->change_hi_pct > 4.0);
	assert_true(d->mde_pct > d->floor_pct && d->mde_pct < 4.0);
	compare_free(&r);
	free_runs(runs, 6);
}

/*
 * A/A replicates on a machine that drifts between runs (sd 1 %): the
 * drift is the noise, so at most a stray significant cell in 20 trials,
 * and no `few`: 3 against 3 could have reached a verdict.
 */
static void test_replicates_aa_with_drift(void **state)
{
	struct run_shape sh = quiet_shape;
	struct compare_options o;
	struct stored_run runs[6];
	struct compare_result r;
	int significant = 0, unchanged = 0;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	for (int trial = 0; trial < 20; trial++) {
		const struct compare_diff *d;

		for (size_t k = 0; k < 6; k++) {
			sh.run_offset = normal(0, 0.01);
			make_shaped_run(&runs[k], (int64_t)k + 1, &sh);
		}
		d = compare_two_runs(&r, runs, 3, 3, &o);
		assert_string_not_equal(d->verdict, "few");
		significant += d->significant;
		unchanged += streq(d->verdict, "~");
		/* The spread is the runs', far above what the rounds allow. */
		assert_false(d->spread_floored);
		compare_free(&r);
		free_runs(runs, 6);
	}
	assert_true(significant <= 1);
	assert_true(unchanged >= 19);
}

/*
 * Three runs that agree by chance claim no more than their rounds allow:
 * identical run offsets, noisy rounds. The variance floor binds, and the
 * interval is as wide as the rounds say.
 */
static void test_replicates_floor_from_rounds(void **state)
{
	struct run_shape sh = quiet_shape;
	struct compare_options o;
	struct stored_run runs[6];
	struct compare_result r;
	const struct compare_diff *d;
	double rse;

	compare_options_default(&o);
	rng_state = 88172645463325252ull;
	sh.round_sd = 0.03;
	sh.rounds = 6;
	for (size_t k = 0; k < 6; k++)
		make_shaped_run(&runs[k], (int64_t)k + 1, &sh);
	/* Make the runs of each group agree exactly: copies of its first. */
	for (size_t k = 1; k < 6; k++)
		if (k != 3)
			memcpy(runs[k].cells[0].values, runs[k < 3 ? 0 : 3].cells[0].values,
			       runs[0].cells[0].n * sizeof(double));
	d = compare_two_runs(&r, runs, 3, 3, &o);
	assert_true(d->spread_floored);
	rse = sqrt(r.rows[0].sides[0].within_var);
	/* Of the order of sqrt(pi/2) * 3 % / sqrt(6) = 1.5 %. */
	assert_true(rse > 0.002 && rse < 0.05);
	/* The CI is t's with the floor as the variance. R: qt(.975, 4) */
	assert_true(fabs(log((100 + d->change_hi_pct) / (100 + d->change_lo_pct)) -
			 2 * 2.7764451051977987 *
			 sqrt((r.rows[0].sides[0].within_var +
			       r.rows[0].sides[1].within_var) / 2 * (2.0 / 3))) < 1e-9);
	compare_free(&r);
	free_runs(runs, 6);
}

/*
 * Repetitions without rounds (exec -n 3): ranks cannot go below p = 0.1,
 * Student's t on the logs can; one sample against one cannot at all.
 * t judges by the geometric means, so they are the values shown, with
 * their t interval; the median's "CI" from 3 samples is [min, max]: 75 %,
 * and JSON says so.
 */
static void test_few_samples_use_t_and_say_coverage(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 1.00 }, a[] = { 1.20 };
	char *out;

	compare_options_default(&o);
	build_together(&fx, 1, b, a, 1.0, 3, &o);
	assert_false(fx.r.replicates);
	assert_int_equal(diff_of(&fx, 0)->test, TEST_LOG_T);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	assert_int_equal(fx.r.rows[0].sides[0].center_kind, CENTER_GEOMEAN);
	assert_true(fabs(fx.r.rows[0].sides[0].center_coverage - 0.95) < 1e-12);
	assert_true(fabs(fx.r.rows[0].sides[0].sum.median_ci_coverage - 0.75) < 1e-12);
	assert_true(fabs(diff_of(&fx, 0)->ratio - fx.r.rows[0].sides[1].center /
			 fx.r.rows[0].sides[0].center) < 1e-12);
	out = render(&fx.r, STYLE_TABLE, FORMAT_TABLE);
	assert_non_null(strstr(out, "geometric mean of the samples"));
	assert_non_null(strstr(out, "Student's t on the logs of the samples"));
	assert_null(strstr(out, "Mann-Whitney"));
	free(out);
	out = render(&fx.r, STYLE_TABLE, FORMAT_JSON);
	assert_non_null(strstr(out, "\"median_ci95\": null"));
	/* 0.95 in the fewest digits that read back, as every JSON of clockbench writes it. */
	assert_non_null(strstr(out, "\"center_coverage\": 0.95,"));
	assert_non_null(strstr(out, "\"test\": \"student-t-log\""));
	free(out);
	teardown_fixture(&fx);

	/* A lax alpha would let ranks decide 3 v 3 (p >= 0.1), but their
	 * interval would cover 90 %, not 95 %: t still decides. */
	o.alpha = 0.2;
	build_together(&fx, 1, b, a, 1.0, 3, &o);
	assert_int_equal(diff_of(&fx, 0)->test, TEST_LOG_T);
	teardown_fixture(&fx);
	o.alpha = 0.05;

	build_together(&fx, 1, b, a, 1.0, 1, &o);
	assert_string_equal(diff_of(&fx, 0)->verdict, "few");
	assert_false(diff_of(&fx, 0)->significant);
	assert_true(isnan(diff_of(&fx, 0)->mde_pct));
	/* No test, no interval: one value a side made "[-96.36, -96.36]". */
	assert_true(isnan(diff_of(&fx, 0)->change_lo_pct) && isnan(diff_of(&fx, 0)->p));
	assert_true(strstr(diff_of(&fx, 0)->reason, "1 against 1 values: too few") != NULL);
	teardown_fixture(&fx);
}

/* The MDE grows with the noise and shrinks with the samples. */
static void test_mde_follows_the_spread(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double m[] = { 25.0 }, quiet, noisy, many;

	compare_options_default(&o);
	build(&fx, 3, 1, m, m, 1.0, 200, &o);
	quiet = diff_of(&fx, 0)->mde_pct;
	teardown_fixture(&fx);
	build(&fx, 3, 1, m, m, 4.0, 200, &o);
	noisy = diff_of(&fx, 0)->mde_pct;
	teardown_fixture(&fx);
	build(&fx, 6, 1, m, m, 4.0, 200, &o);
	many = diff_of(&fx, 0)->mde_pct;
	teardown_fixture(&fx);
	assert_true(quiet > o.threshold_pct);
	assert_true(noisy > quiet);
	assert_true(many < noisy);
}

/* Every one of 12 cells 6 % slower: a machine shift, said as such. */
static void test_machine_shift_is_flagged(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[12], a[12];

	for (size_t i = 0; i < 12; i++) {
		b[i] = 25.0 + (double)i;
		a[i] = b[i] * 1.06;
	}
	compare_options_default(&o);
	build(&fx, 1, 12, b, a, 1.0, 200, &o);
	assert_true(fx.r.machine_shift[1]);
	assert_true(fx.r.same_direction[1] == 1.0);
	teardown_fixture(&fx);

	/* Half the cells faster, half slower: a real mixed change. */
	for (size_t i = 0; i < 12; i += 2)
		a[i] = b[i] * 0.94;
	build(&fx, 1, 12, b, a, 1.0, 200, &o);
	assert_false(fx.r.machine_shift[1]);
	assert_true(fx.r.same_direction[1] == 0.5);
	teardown_fixture(&fx);

	/* Interleaved rounds (ab, timens) saw one machine: no such warning. */
	for (size_t i = 0; i < 12; i++)
		a[i] = b[i] * 1.06;
	o.paired = true;
	build(&fx, 1, 12, b, a, 1.0, 200, &o);
	assert_true(fx.r.paired);
	assert_false(fx.r.machine_shift[1]);
	teardown_fixture(&fx);

	/* The boots of one `kernels` interleave too: the move is the kernels'. */
	o.paired = false;
	build_booted(&fx, 2, 12, b, a, 1.0, 200, &o, (const char *const[]){ "c1", "c1" });
	assert_false(fx.r.machine_shift[1]);
	teardown_fixture(&fx);
	/* ... and boots of two campaigns are two machines' moments. */
	build_booted(&fx, 2, 12, b, a, 1.0, 200, &o, (const char *const[]){ "c1", "c2" });
	assert_true(fx.r.machine_shift[1]);
	teardown_fixture(&fx);
}

static char *render(const struct compare_result *r, enum compare_style s,
		    enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(compare_print(f, r, s, fmt), 0);
	fclose(f);
	return buf;
}

/*
 * compare --format tap: a point per cell, ok with the verdict in words; a
 * '#' of a cell's name is no directive (a name "x # SKIP" cannot turn a
 * compared cell into a skip).
 */
static void test_tap_points(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 25.0, 30.0 }, a[] = { 26.0, 30.0 };
	struct tap_point *p;
	char *out;
	size_t n;

	(void)state;
	compare_options_default(&o);
	fill(&fx, 1, 2, b, a, 1.0, 300, NULL);
	for (size_t g = 0; g < 2; g++) {
		free(fx.runs[g][0].cells[1].name);
		fx.runs[g][0].cells[1].name = xstrdup("spoof # SKIP x");
	}
	one_invocation(&fx);
	build_filled(&fx, &o);
	out = render(&fx.r, STYLE_TABLE, FORMAT_TAP);
	assert_true(strncmp(out, "TAP version 13\n1..2\n", 20) == 0);
	assert_non_null(strstr(out, "ok 1 cell-a-vdso: "));
	assert_non_null(strstr(out, ": worse (adjusted p "));
	assert_non_null(strstr(out, "ok 2 spoof \\# SKIP x-vdso: "));
	assert_non_null(strstr(out, ": no significant change ("));
	assert_non_null(strstr(out, "# Totals: pass:2 fail:0"));
	n = tap_parse(out, &p);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].result, TAP_PASS);
	assert_int_equal(p[1].result, TAP_PASS);
	tap_points_free(p, n);
	free(out);
	teardown_fixture(&fx);
}

static void test_styles(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double b[] = { 2.27, 25.0 }, a[] = { 3.73, 25.0 };
	char *out;

	compare_options_default(&o);
	build_together(&fx, 2, b, a, 1.0, 300, &o);

	out = render(&fx.r, STYLE_MMTESTS, FORMAT_TABLE);
	assert_non_null(strstr(out, "negative = worse"));
	assert_non_null(strstr(out, "(   0.00%)"));
	/* 100 - 3.73 / 2.27 * 100 = -64.3 %, significant: starred. */
	assert_non_null(strstr(out, " * -64."));
	free(out);

	out = render(&fx.r, STYLE_RATIO, FORMAT_TABLE);
	assert_non_null(strstr(out, "cell-a-vdso:"));
	assert_non_null(strstr(out, "164 %"));
	assert_non_null(strstr(out, "100 %  (~ no significant change)"));
	free(out);

	out = render(&fx.r, STYLE_SUMMARY, FORMAT_TABLE);
	assert_non_null(strstr(out, "centre  |"));
	assert_non_null(strstr(out, "diff %  |       100.0 |"));
	assert_non_null(strstr(out, "rCV %   |"));
	assert_non_null(strstr(out, "mde %   |           - |"));
	assert_non_null(strstr(out, "| worse"));
	free(out);

	/* The changes alone (under exec's own table): no side's value. */
	out = render(&fx.r, STYLE_CHANGES, FORMAT_TABLE);
	assert_non_null(strstr(out, "cell         change (%)  "));
	assert_non_null(strstr(out, "cell-a-vdso      +64."));
	assert_non_null(strstr(out, "worse    adjusted p "));
	assert_null(strstr(out, " 3.73"));
	assert_null(strstr(out, "2.27"));
	free(out);

	out = render(&fx.r, STYLE_MINISTAT, FORMAT_TABLE);
	assert_non_null(strstr(out, "+ Difference at 95.0% confidence"));
	assert_non_null(strstr(out, "No difference proven at 95.0% confidence"));
	free(out);

	out = render(&fx.r, STYLE_TABLE, FORMAT_JSON);
	assert_non_null(strstr(out, "\"verdict\": \"worse\""));
	assert_non_null(strstr(out, "\"p_adjusted\""));
	free(out);

	out = render(&fx.r, STYLE_TABLE, FORMAT_MARKDOWN);
	assert_non_null(strstr(out, "| cell | path |"));
	free(out);

	out = render(&fx.r, STYLE_TABLE, FORMAT_CSV);
	assert_true(strncmp(out, "cell,path,group,", 16) == 0);
	free(out);
	teardown_fixture(&fx);
}

/*
 * The same call, 88 core cycles, in two runs; the other run spent two
 * thirds of its batches with the core at half speed. Its ns are twice the
 * base's, its core cycles the same: the default judges by core cycles and
 * shows the ns beside.
 */
static void slow_phase_runs(struct fixture *fx, bool other_has_core)
{
	for (size_t g = 0; g < 2; g++) {
		struct stored_cell *c = &fx->runs[g][0].cells[0];

		free(c->core_cycles);
		c->core_cycles = xmalloc(c->n * sizeof(double));
		for (size_t i = 0; i < c->n; i++) {
			double ghz = g && i % 3 ? 2.2 : 4.4;

			c->core_cycles[i] = normal(88, 0.5);
			c->values[i] = c->core_cycles[i] / ghz;
		}
		if (g && !other_has_core) {
			free(c->core_cycles);
			c->core_cycles = NULL;
		}
	}
}

static void test_core_cycles_judge_by_default(void **state)
{
	struct compare_options o;
	struct fixture fx;
	double m[] = { 20.0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	compare_options_default(&o);
	build_together(&fx, 1, m, m, 1.0, 600, &o);
	compare_free(&fx.r);
	slow_phase_runs(&fx, true);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	assert_int_equal(fx.r.metric, METRIC_CORE_CYCLES);
	assert_string_equal(fx.r.unit, "core cycles");
	assert_string_equal(diff_of(&fx, 0)->verdict, "~");
	assert_true(fabs(diff_of(&fx, 0)->change_pct) < 0.5);
	/* The ns moved: the median batch of the other run ran slow. */
	assert_true(fx.r.rows[0].sides[0].ns_median > 19.9 &&
		    fx.r.rows[0].sides[0].ns_median < 20.1);
	assert_true(diff_of(&fx, 0)->ns_change_pct > 95 &&
		    diff_of(&fx, 0)->ns_change_pct < 105);
	compare_free(&fx.r);

	/* Asked for ns, the same runs are worse, and no ns column beside. */
	o.metric = METRIC_NS;
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	assert_string_equal(diff_of(&fx, 0)->verdict, "worse");
	assert_true(isnan(diff_of(&fx, 0)->ns_change_pct));
	assert_true(isnan(fx.r.rows[0].sides[0].ns_median));
	compare_free(&fx.r);

	/* A run without core cycles (an older one): the default is ns. */
	o.metric = METRIC_AUTO;
	slow_phase_runs(&fx, false);
	assert_int_equal(compare_build(&fx.r, fx.groups, 2, &o, &err), 0);
	assert_int_equal(fx.r.metric, METRIC_NS);
	assert_int_equal(compare_metric_by_name("core-cycles"), METRIC_CORE_CYCLES);
	assert_string_equal(compare_metric_name(METRIC_CORE_CYCLES), "core-cycles");
	teardown_fixture(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_distribution_is_not_significant),
		cmocka_unit_test(test_real_slowdown_is_worse),
		cmocka_unit_test(test_speedup_is_better),
		cmocka_unit_test(test_decrease_interval_stays_above_minus_100),
		cmocka_unit_test(test_tick_sampled_cpu_time_gets_no_verdict),
		cmocka_unit_test(test_two_values_too_few_for_a_ci),
		cmocka_unit_test(test_summary_titles_never_cut),
		cmocka_unit_test(test_mmtests_scale_blocks),
		cmocka_unit_test(test_tiny_shift_below_threshold),
		cmocka_unit_test(test_replicates_use_run_values),
		cmocka_unit_test(test_noisy_cells),
		cmocka_unit_test(test_holm_across_cells_and_geomean),
		cmocka_unit_test(test_geomean_leaves_out_non_positive_cells),
		cmocka_unit_test(test_geomean_names_cells_missing_from_a_group),
		cmocka_unit_test(test_metric_cycles),
		cmocka_unit_test(test_core_cycles_judge_by_default),
		cmocka_unit_test(test_missing_cell_and_no_metric),
		cmocka_unit_test(test_rounds_carry_the_drift),
		cmocka_unit_test(test_one_bad_round_does_not_flip),
		cmocka_unit_test(test_rounds_in_two_modes_are_noisy),
		cmocka_unit_test(test_history_holds_the_noise_between_runs),
		cmocka_unit_test(test_separate_runs_of_samples_need_a_history),
		cmocka_unit_test(test_replicates_with_slow_phases),
		cmocka_unit_test(test_replicates_aa_with_drift),
		cmocka_unit_test(test_replicates_floor_from_rounds),
		cmocka_unit_test(test_few_samples_use_t_and_say_coverage),
		cmocka_unit_test(test_mde_follows_the_spread),
		cmocka_unit_test(test_machine_shift_is_flagged),
		cmocka_unit_test(test_styles),
		cmocka_unit_test(test_tap_points),
		cmocka_unit_test(test_counts_judged_by_themselves),
		cmocka_unit_test(test_counts_that_vary_keep_the_test),
		cmocka_unit_test(test_counts_never_against_times),
		cmocka_unit_test(test_architectures_never_judged_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
