// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the charts: the palette (colour-blind safe and apart in
 * greyscale), gnuplot's quoting and data blocks, and what each kind picks
 * from stored runs: which runs fit, the series and the data it writes.
 * Drawing itself (gnuplot) is the command-line tests' business.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "chart/gnuplot.h"
#include "chart/palette.h"
#include "chart/plot.h"
#include "results/compare-session.h"
#include "report/textplot.h"
#include "results/compare.h"
#include "results/run-facts.h"

/* ---- palette ---------------------------------------------------------- */

static void test_lightness(void **state)
{
	(void)state;
	assert_true(fabs(palette_lightness("#000000")) < 1e-9);
	assert_true(fabs(palette_lightness("#FFFFFF") - 100) < 1e-6);
	/* Okabe-Ito's blue and orange, as published: L* 46 and 71. */
	assert_true(fabs(palette_lightness("#0072B2") - 46.0) < 0.5);
	assert_true(fabs(palette_lightness("#E69F00") - 70.6) < 0.5);
	assert_true(palette_lightness("0072B2") < 0);
	assert_true(palette_lightness("#00GG00") < 0);
}

/* In greyscale, neighbouring series and the three paths stay apart. */
static void test_greyscale(void **state)
{
	const char *paths[] = { "vdso", "libc", "syscall" };

	(void)state;
	for (size_t i = 0; i + 1 < 6; i++)
		assert_true(fabs(palette_lightness(palette_series(i)) -
				 palette_lightness(palette_series(i + 1))) >= 15);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = i + 1; j < 3; j++)
			assert_true(fabs(palette_lightness(palette_path(paths[i])) -
					 palette_lightness(palette_path(paths[j]))) >= 20);
	/* Every series differs from its neighbour in dash and shape too. */
	for (size_t i = 0; i + 1 < 2 * palette_size(); i++) {
		assert_int_not_equal(palette_dash(i), palette_dash(i + 1));
		assert_int_not_equal(palette_point(i), palette_point(i + 1));
	}
}

/* Each verdict has its own shape: colour is never the only carrier. */
static void test_verdicts(void **state)
{
	const char *v[] = { "worse", "better", "~", "noisy", "few" };

	(void)state;
	for (size_t i = 0; i < 5; i++)
		for (size_t j = i + 1; j < 5; j++) {
			assert_int_not_equal(palette_verdict_point(v[i]),
					     palette_verdict_point(v[j]));
			assert_string_not_equal(palette_verdict(v[i]), palette_verdict(v[j]));
		}
}

/* ---- gnuplot ---------------------------------------------------------- */

static void test_quoting(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	gp_quote(&sb, "it's\nhere");
	assert_string_equal(sb.buf, "\"it's\\nhere\"");
	strbuf_reset(&sb);
	gp_quote(&sb, "a \"b\" \\c `d` @e\t\x7f");
	assert_string_equal(sb.buf, "\"a \\\"b\\\" \\\\c \\140d\\140 \\100e\\011\\177\"");
	strbuf_reset(&sb);
	gp_data_string(&sb, "say \"x\"\t");
	assert_string_equal(sb.buf, "\"say 'x' \"");
	strbuf_release(&sb);
	assert_int_equal(gp_format_of("a/b.svg"), GP_SVG);
	assert_int_equal(gp_format_of("B.PNG"), GP_PNG);
	assert_int_equal(gp_format_of("b.jpg"), -1);
	assert_int_equal(gp_format_of("dir.svg/b"), -1);
	assert_int_equal(gp_format_of("svg"), -1);
}

/* gnuplot does not count a block without data: an empty one gets a NaN. */
static void test_blocks(void **state)
{
	struct gp gp;

	(void)state;
	gp_init(&gp, "x");
	assert_int_equal(gp_block(&gp, "first"), 0);
	gp_row(&gp, "1 2");
	assert_int_equal(gp_block(&gp, "empty"), 1);
	assert_int_equal(gp_block(&gp, "third"), 2);
	gp_row(&gp, "3 4");
	assert_non_null(strstr(gp.data.buf, "# index 0: first\n1 2\n\n\n# index 1: empty\n"
			       "NaN\n\n\n# index 2: third\n3 4\n"));
	gp_chart(&gp, "x.png", GP_PNG, 640, 480);
	assert_non_null(strstr(gp.script.buf, "if (!exists(\"cb_out1\")) cb_out1 = \"x.png\"\n"));
	assert_non_null(strstr(gp.script.buf, "set terminal pngcairo size 640,480"));
	assert_non_null(strstr(gp.script.buf, "cb_data = \"x.dat\""));
	gp_release(&gp);
	/* A name that starts with < or | would be a command to gnuplot. */
	gp_init(&gp, "<touch x");
	gp_chart(&gp, "|touch y.svg", GP_SVG, 640, 480);
	assert_non_null(strstr(gp.script.buf, "cb_data = \"./<touch x.dat\"\n"));
	assert_non_null(strstr(gp.script.buf, "cb_out1 = \"./|touch y.svg\"\n"));
	gp_release(&gp);
}

static void test_split_path(void **state)
{
	char *dir, *name;

	(void)state;
	gp_split_path("out/sub/c.svg", &dir, &name);
	assert_string_equal(dir, "out/sub");
	assert_string_equal(name, "c.svg");
	free(dir);
	free(name);
	gp_split_path("c.svg", &dir, &name);
	assert_string_equal(dir, ".");
	free(dir);
	free(name);
	gp_split_path("/c.svg", &dir, &name);
	assert_string_equal(dir, "/");
	assert_string_equal(name, "c.svg");
	free(dir);
	free(name);
}

/* ---- text ------------------------------------------------------------ */

static char *captured(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, arg);
	fclose(f);
	return buf;
}

static void histogram_of_100(FILE *f, void *arg)
{
	textplot_histogram(f, arg, 101, "> ");
}

/* Ten bins up to p99, every sample counted once, the tail on its own. */
static void test_text_histogram(void **state)
{
	double x[101];
	char *out, *line;
	size_t rows = 0, total = 0;

	(void)state;
	for (int i = 0; i < 100; i++)
		x[i] = 100 - i;		/* any order */
	x[100] = 5000;
	out = captured(histogram_of_100, x);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *bar = strchr(line, '|');
		size_t count;

		assert_true(strncmp(line, "> ", 2) == 0);
		assert_non_null(bar);
		assert_int_equal(sscanf(bar + 42, "%zu", &count), 1);
		total += count;
		/* Bins of 10 samples draw 40 #, the tail of 1 a tenth of it. */
		if (++rows < 11) {
			assert_int_equal(count, 10);
			assert_int_equal(strspn(bar + 1, "#"), 40);
		} else {
			assert_non_null(strstr(line, "100 .. 5000"));
			assert_int_equal(count, 1);
			assert_int_equal(strspn(bar + 1, "#"), 4);
			assert_non_null(strstr(line, "above p99, to the maximum"));
		}
	}
	assert_int_equal(rows, 11);
	assert_int_equal(total, 101);
	free(out);
}

static void ministat_two(FILE *f, void *arg)
{
	static const double x[] = { 1, 2, 3 }, y[] = { 3, 4, 5, 5 };
	struct textplot_set sets[] = { { 'x', x, 3 }, { '+', y, 4 } };

	(void)arg;
	textplot_ministat(f, sets, 2, 22);
}

/*
 * Axis 1..5 over 20 columns: 1 at column 0, 2 at 5, 3 at 10, 4 at 14, 5
 * at 19. x and + meet at 3 ('*'); 5 is piled twice. x: mean 2 = median (M
 * drawn over A), sd 1; +: mean 4.25 at 15, median 4.5 at 17, sd 0.96.
 */
static void test_ministat_plot(void **state)
{
	char *out = captured(ministat_two, NULL);

	(void)state;
	assert_string_equal(out,
		"+--------------------+\n"
		"|                   +|\n"
		"|x    x    *   +    +|\n"
		"||____M____|         |\n"
		"|           |___A_M_||\n"
		"+--------------------+\n");
	free(out);
}

/* ---- runs --------------------------------------------------------------- */

static void add_cell(struct stored_run *r, const char *name, const char *path,
		     const char *unit, size_t n, double base, uint32_t rounds)
{
	struct stored_cell *c;

	r->cells = xrealloc(r->cells, (r->ncells + 1) * sizeof(*r->cells));
	c = &r->cells[r->ncells++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->path = xstrdup(path);
	c->api = xstrdup("");
	c->clock = xstrdup("");
	c->status = xstrdup("ok");
	c->reason = xstrdup("");
	c->unit = xstrdup(unit);
	c->cycles_unit = xstrdup("");
	c->n = n;
	c->values = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		c->values[i] = base * (1 + 0.01 * (double)(i % 7));
	if (rounds) {
		c->rounds = xmalloc(n * sizeof(uint32_t));
		for (size_t i = 0; i < n; i++)
			c->rounds[i] = (uint32_t)(i * rounds / n);
		c->nrounds = rounds;
	}
}

static void make_run(struct stored_run *r, int64_t id, const char *command,
		     const char *label)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->command = xstrdup(command);
	r->label = xstrdup(label);
	r->host = xstrdup("vm1");
	r->kernel = xstrdup("6.18.44");
	r->status = xstrdup("complete");
	snprintf(r->started, sizeof(r->started), "2026-12-01T10:00:00Z");
	r->env = json_object();
}

static void bench_run(struct stored_run *r, int64_t id, const char *label)
{
	make_run(r, id, "bench", label);
	add_cell(r, "clock-gettime-monotonic", "vdso", "ns", 200, 20, 10);
	add_cell(r, "clock-gettime-monotonic", "syscall", "ns", 200, 150, 10);
	add_cell(r, "time", "vdso", "ns", 200, 2, 10);
}

struct fixture {
	struct stored_run runs[3];
	struct compare_group groups[3];
	struct plot_input in;
};

static void one_group_each(struct fixture *f, size_t n)
{
	memset(&f->in, 0, sizeof(f->in));
	for (size_t i = 0; i < n; i++) {
		f->groups[i].spec = (char *)(i ? "after" : "before");
		f->groups[i].runs = &f->runs[i];
		f->groups[i].nruns = 1;
	}
	f->in.groups = f->groups;
	f->in.ngroups = n;
}

static void free_runs(struct fixture *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		stored_run_free(&f->runs[i]);
}

/* The chart's script and data, or NULL with why in err. */
static int chart(struct fixture *f, enum plot_kind kind, struct gp *gp,
		 struct strbuf *err)
{
	gp_init(gp, "t");
	return plot_add_chart(gp, kind, &f->in, "t.svg", GP_SVG, err);
}

static void test_fits(void **state)
{
	struct fixture f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	bench_run(&f.runs[0], 7, "before");
	one_group_each(&f, 1);
	assert_true(plot_kind_fits(PLOT_CELLS, &f.in, &why));
	assert_true(plot_kind_fits(PLOT_DISTRIBUTION, &f.in, &why));
	assert_true(plot_kind_fits(PLOT_ROUNDS, &f.in, &why));
	assert_int_equal(plot_default_kind(&f.in), PLOT_CELLS);
	assert_false(plot_kind_fits(PLOT_SCALE, &f.in, &why));
	assert_string_equal(why.buf, "run 7 is a bench run: kind scale draws "
			    "clockbench scale runs");
	strbuf_reset(&why);
	assert_false(plot_kind_fits(PLOT_HOTPLUG, &f.in, &why));
	strbuf_reset(&why);
	assert_false(plot_kind_fits(PLOT_COMPARE, &f.in, &why));
	assert_non_null(strstr(why.buf, "give two runs or labels"));
	strbuf_reset(&why);
	f.in.cells = "nothing*";
	assert_false(plot_kind_fits(PLOT_CELLS, &f.in, &why));
	assert_non_null(strstr(why.buf, "no matching cells"));
	strbuf_release(&why);
	free_runs(&f, 1);
}

/* One bar block per path, the names as tics, the title with the run. */
static void test_cells(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7, "before");
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_CELLS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "\"clock-gettime-monotonic\" 0, \\\n  \"time\" 1)"));
	assert_non_null(strstr(gp.script.buf, "title \"vdso\""));
	assert_non_null(strstr(gp.script.buf, "title \"syscall\""));
	assert_null(strstr(gp.script.buf, "title \"libc\""));
	assert_non_null(strstr(gp.script.buf, "1 bench run, 2026-12-01T10:00:00Z · kernel 6.18.44 · host vm1 · label before"));
	assert_non_null(strstr(gp.script.buf, "set logscale x"));
	/* No cycles kept: no cycles panel. */
	assert_non_null(strstr(gp.script.buf, "set multiplot layout 1,1"));
	assert_non_null(strstr(gp.data.buf, "# index 0: run 7, vdso path"));
	assert_non_null(strstr(gp.data.buf, "# index 1: run 7, syscall path"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* Issue 30: every picture of emulated runs says so in its title. */
static void test_emulated_in_the_title(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7, "before");
	bench_run(&f.runs[1], 8, "after");
	json_object_set_new(f.runs[1].env, "vm", json_pack("{s:b, s:s}", "emulated", 1,
							   "accel", "tcg"));
	one_group_each(&f, 2);
	assert_int_equal(chart(&f, PLOT_CELLS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, " · EMULATED timings (qemu TCG, some runs)"));
	gp_release(&gp);
	free_runs(&f, 2);
	bench_run(&f.runs[0], 7, "before");
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_CELLS, &gp, &err), 0);
	assert_null(strstr(gp.script.buf, "EMULATED"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* The core's speed per round joins the drift when the run kept it. */
static void test_rounds_speed(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;
	double ghz[4];
	struct stored_run kept = { 0 }, none = { 0 };
	json_t *q = json_pack("{s:[{s:i, s:f}, {s:i, s:f}, {s:i, s:n}]}", "rounds",
			      "round", 0, "core_ghz", 2.1, "round", 2, "core_ghz", 1.4,
			      "round", 1, "core_ghz");

	(void)state;
	kept.quality = q;
	assert_true(plot_round_speeds(&kept, ghz, 4));
	assert_true(ghz[0] == 2.1 && ghz[2] == 1.4 && isnan(ghz[1]) && isnan(ghz[3]));
	assert_false(plot_round_speeds(&none, ghz, 4));
	run_facts_forget(&kept);
	run_facts_forget(&none);
	bench_run(&f.runs[0], 7, "before");
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_ROUNDS, &gp, &err), 0);
	assert_null(strstr(gp.script.buf, "core GHz"));
	assert_non_null(strstr(gp.script.buf, "title 'median of the cells'"));
	assert_non_null(strstr(gp.script.buf, ": 3 cells, 10 rounds"));
	gp_release(&gp);
	f.runs[0].quality = q;
	run_facts_forget(&f.runs[0]);	/* the facts were read before it had one */
	assert_int_equal(chart(&f, PLOT_ROUNDS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "axes x1y2"));
	assert_non_null(strstr(gp.data.buf, "core GHz\n1 2.1\n3 1.4\n"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* Round medians as a change from the cell's median, in time order. */
static void test_rounds_values(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	make_run(&f.runs[0], 3, "bench", "");
	add_cell(&f.runs[0], "c", "vdso", "ns", 4, 10, 2);
	/* Round 0: 10, 20; round 1: 30, 40 -> medians 15 and 35, median 25. */
	for (size_t i = 0; i < 4; i++)
		f.runs[0].cells[0].values[i] = 10.0 * (double)(i + 1);
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_ROUNDS, &gp, &err), 0);
	assert_non_null(strstr(gp.data.buf, "c vdso: round, change from the cell's "
			       "median (%)\n1 -40\n2 40\n"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* Shared bins, counts per bin, the tail above p99 in its own block. */
static void test_distribution(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;
	unsigned tail;

	(void)state;
	make_run(&f.runs[0], 3, "exec", "");
	add_cell(&f.runs[0], "wall", "", "s", 100, 1, 0);
	for (size_t i = 0; i < 100; i++)
		f.runs[0].cells[0].values[i] = i < 99 ? 1.0 + 0.01 * (double)(i % 2) : 50;
	one_group_each(&f, 1);
	assert_int_equal(plot_default_kind(&f.in), PLOT_DISTRIBUTION);
	assert_int_equal(chart(&f, PLOT_DISTRIBUTION, &gp, &err), 0);
	assert_non_null(strstr(gp.data.buf, "wall : bin centre, samples\n"));
	assert_non_null(strstr(gp.script.buf, "set xlabel \"s\""));
	assert_int_equal(sscanf(strstr(gp.data.buf, "(the tail), samples\n") + 20,
				"%*g %u", &tail), 1);
	assert_int_equal(tail, 1);
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

static void scale_run(struct stored_run *r, int64_t id, const char *label)
{
	make_run(r, id, "scale", label);
	r->config = json_pack("{s:s, s:i}", "mode", "threads", "calls", 20000);
	add_cell(r, "times-threads-8", "libc", "s", 3, 2.5, 3);
	add_cell(r, "times-threads-2", "libc", "s", 3, 2.0, 3);
	add_cell(r, "clock-gettime-process-cputime-threads-2", "libc", "s", 3, 2.2, 3);
	free(r->cells[0].api);
	r->cells[0].api = xstrdup("times");
}

/* A panel per API, points in thread order, one line per run. */
static void test_scale(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	scale_run(&f.runs[0], 5, "pre");
	scale_run(&f.runs[1], 6, "bug");
	one_group_each(&f, 2);
	assert_int_equal(plot_default_kind(&f.in), PLOT_SCALE);
	assert_int_equal(chart(&f, PLOT_SCALE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "set multiplot layout 1,2"));
	assert_non_null(strstr(gp.data.buf, "pre, times threads: count, median, "
			       "ci95_lo, ci95_hi\n2 2.02"));
	assert_non_null(strstr(gp.data.buf, "\n8 2.52"));
	assert_non_null(strstr(gp.script.buf, "title \"bug\""));
	assert_non_null(strstr(gp.script.buf, "seconds for 20000 calls"));
	assert_non_null(strstr(gp.script.buf, "set xtics add (2, 8)"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 2);
}

/* The forest: a noise floor block, points by verdict, a panel per other. */
static void test_compare(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7, "before");
	bench_run(&f.runs[1], 8, "after");
	bench_run(&f.runs[2], 9, "after");
	struct stored_run hist[4];
	struct compare_group history = { .spec = (char *)"history", .runs = hist, .nruns = 4 };
	struct compare_options opts;
	struct compare_session session;

	for (size_t i = 0; i < 200; i++)
		f.runs[1].cells[1].values[i] *= 1.2;
	one_group_each(&f, 3);
	f.groups[2].spec = (char *)"9";
	/*
	 * One run against one gets a verdict from a history of runs like the
	 * base (compare's policy, which the chart shares): 4 within 0.3 %.
	 */
	for (size_t k = 0; k < 4; k++) {
		bench_run(&hist[k], 20 + (int64_t)k, "hist");
		for (size_t c = 0; c < hist[k].ncells; c++)
			for (size_t i = 0; i < hist[k].cells[c].n; i++)
				hist[k].cells[c].values[i] *= 1 + 0.001 * ((double)k - 1.5);
	}
	compare_options_default(&opts);
	opts.history = &history;
	compare_session_adopt(&session, f.in.groups, f.in.ngroups, &opts, NULL, 0);
	f.in.session = &session;
	assert_int_equal(plot_default_kind(&f.in), PLOT_COMPARE);
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "set multiplot layout 2,1"));
	assert_non_null(strstr(gp.data.buf, "group 1, verdict worse: y, change, ci95_lo, "
			       "ci95_hi (%)\n1 20"));
	assert_non_null(strstr(gp.script.buf, "after (1 run), kernel 6.18.44 against "
			       "before (1 run), kernel 6.18.44: geomean +"));
	assert_non_null(strstr(gp.script.buf, "after, run 2 of 2, kernel 6.18.44 against"));
	assert_non_null(strstr(gp.script.buf, "title \"worse\""));
	assert_non_null(strstr(gp.script.buf, "title 'noise floor'"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 3);
	for (size_t k = 0; k < 4; k++)
		stored_run_free(&hist[k]);
	compare_session_close(&session);
}

/*
 * A chart names runs by their labels and when they ran, never by their
 * ids in the store: a label's runs numbered in the order they started, an
 * unlabelled run by its command and start, the title by how many and when.
 */
static void test_run_names_not_ids(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7771, "base");
	bench_run(&f.runs[1], 5552, "base");
	bench_run(&f.runs[2], 9993, "");
	/* 7771 started after 5552: it is the second run of base. */
	snprintf(f.runs[0].started, sizeof(f.runs[0].started), "2026-12-01T10:05:00Z");
	snprintf(f.runs[2].started, sizeof(f.runs[2].started), "2026-12-01T11:00:00Z");
	memset(&f.in, 0, sizeof(f.in));
	f.groups[0] = (struct compare_group){ .spec = (char *)"base", .runs = f.runs,
					      .nruns = 2 };
	f.groups[1] = (struct compare_group){ .spec = (char *)"9993", .runs = &f.runs[2],
					      .nruns = 1 };
	f.in.groups = f.groups;
	f.in.ngroups = 2;
	assert_int_equal(chart(&f, PLOT_ROUNDS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "\"base, run 2 of 2, kernel 6.18.44:"));
	assert_non_null(strstr(gp.script.buf, "\"base, run 1 of 2, kernel 6.18.44:"));
	assert_non_null(strstr(gp.script.buf,
			       "\"bench of 2026-12-01T11:00:00Z, kernel 6.18.44:"));
	assert_non_null(strstr(gp.script.buf, "3 bench runs, 2026-12-01T10:00:00Z to "
			       "2026-12-01T11:00:00Z · kernel 6.18.44 · host vm1 · label base"));
	gp_release(&gp);
	strbuf_reset(&err);
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "\"bench of 2026-12-01T11:00:00Z, kernel "
			       "6.18.44 against base (2 runs), kernel 6.18.44"));
	gp_release(&gp);
	strbuf_reset(&err);
	/* No id anywhere a reader looks: titles, keys, tics. */
	for (int kind = 0; kind < PLOT_NKINDS; kind++) {
		if (!plot_kind_fits(kind, &f.in, &err))
			continue;
		assert_int_equal(chart(&f, kind, &gp, &err), 0);
		assert_null(strstr(gp.script.buf, "7771"));
		assert_null(strstr(gp.script.buf, "5552"));
		assert_null(strstr(gp.script.buf, "9993"));
		gp_release(&gp);
	}
	strbuf_release(&err);
	free_runs(&f, 3);
}

static void timens_side(struct stored_run *r, int64_t id, const char *side)
{
	bench_run(r, id, side);
	free(r->command);
	r->command = xstrdup("timens");
	/* Its rounds interleaved with the other side's, as timens saves them. */
	r->config = json_pack("{s:s, s:s, s:s}", "mode", "timens", "side", side,
			      "interleave", "fe0537c5-865a-4de6-835a-97bc614bc8e7");
}

static void test_timens(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	timens_side(&f.runs[0], 1, "host");
	one_group_each(&f, 1);
	assert_false(plot_kind_fits(PLOT_TIMENS, &f.in, &err));
	assert_non_null(strstr(err.buf, "one side only"));
	assert_int_equal(plot_default_kind(&f.in), PLOT_CELLS);
	strbuf_reset(&err);
	timens_side(&f.runs[1], 2, "timens");
	for (size_t i = 0; i < 200; i++)
		f.runs[1].cells[0].values[i] *= 1.05;
	one_group_each(&f, 2);
	assert_int_equal(plot_default_kind(&f.in), PLOT_TIMENS);
	assert_int_equal(chart(&f, PLOT_TIMENS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "set multiplot layout 1,2"));
	assert_non_null(strstr(gp.script.buf, "title \"time namespace\""));
	assert_non_null(strstr(gp.data.buf, "run 2 (timens): y, median"));
	assert_non_null(strstr(gp.data.buf, "verdict worse: y, change, ci95_lo, ci95_hi (%)\n0 5"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 2);
}

static void hotplug_run(struct stored_run *r)
{
	make_run(r, 4, "hotplug", "hp");
	add_cell(r, "offline", "", "s", 4, 0.040, 0);
	add_cell(r, "online", "", "s", 4, 0.020, 0);
	add_cell(r, "state:sched:active:offline", "", "s", 4, 0.010, 0);
	add_cell(r, "state:cpu:teardown:offline", "", "s", 4, 0.005, 0);
	add_cell(r, "state:cpu:bringup:online", "", "s", 4, 0.008, 0);
}

/* States stacked in the stored order, the rest up to the wall time. */
static void test_hotplug(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	hotplug_run(&f.runs[0]);
	one_group_each(&f, 1);
	assert_int_equal(plot_default_kind(&f.in), PLOT_HOTPLUG);
	assert_int_equal(chart(&f, PLOT_HOTPLUG, &gp, &err), 0);
	assert_non_null(strstr(gp.data.buf, "hp, offline: cycle, ms\n1 40\n"));
	/* sched:active from 0 to its mean, 10.15 ms, numbered 1; then teardown. */
	assert_non_null(strstr(gp.data.buf, "sched:active: x, y, x_lo, x_hi, y_lo, y_hi, "
			       "label (ms)\n5.075 0.000 0 10.15 -0.350 0.350 \"1\""));
	assert_non_null(strstr(gp.data.buf, "cpu:teardown: x, y, x_lo, x_hi, y_lo, y_hi, "
			       "label (ms)\n12.6875 0.000 10.15 15.225 -0.350 0.350 \"2\""));
	assert_non_null(strstr(gp.data.buf, "cpu:bringup: x, y, x_lo, x_hi, y_lo, y_hi, "
			       "label (ms)\n4.06 1.000 0 8.12"));
	assert_non_null(strstr(gp.script.buf, "title \"1 sched:active\""));
	assert_non_null(strstr(gp.script.buf, "title \"4 rest\""));
	assert_non_null(strstr(gp.script.buf, "\"offline, hp\" 0"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* ---- pictures that read (issue 30) ------------------------------------- */

/*
 * Three panels of about 300 px: the number 60 would stand just left of
 * the tail's ">p99" and read "60>p99"; the numbers stop short of it.
 */
static void test_distribution_tail_tic(void **state)
{
	static const char *const names[] = { "a", "b", "c" };
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	double start, step, end, tail;
	struct gp gp;

	(void)state;
	make_run(&f.runs[0], 3, "exec", "");
	for (size_t k = 0; k < 3; k++) {
		add_cell(&f.runs[0], names[k], "", "s", 101, 1, 0);
		for (size_t i = 0; i < 101; i++)
			f.runs[0].cells[k].values[i] = 0.61 * (double)i;
	}
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_DISTRIBUTION, &gp, &err), 0);
	assert_int_equal(sscanf(strstr(gp.script.buf, "\nset xtics ") + 1,
				"set xtics %lg, %lg, %lg", &start, &step, &end), 3);
	assert_int_equal(sscanf(strstr(gp.script.buf, "set xtics add ('>p99' ") + 22,
				"%lg", &tail), 1);
	assert_true(start == 0 && step == 20);
	/* 60 is within the data (p99 60.4) but too near the tail's tic at 63.4. */
	assert_true(end > 40 && end < 60);
	assert_true(tail > 63 && tail < 64);
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

#define LONG_A "some-very-long-label-for-kernel-6.12.118-before-the-fix"
#define LONG_B "some-very-long-label-for-kernel-6.12.118-after-the-tk-fix"

/*
 * The text of every title of a script (the chart's and each panel's), a
 * line of the picture per line of out: gnuplot's "\n" escapes turned
 * into newlines, each title ended by an empty line.
 */
static void script_titles(const char *script, struct strbuf *out)
{
	static const char *const starts[] = { "set title \"", "set multiplot layout" };

	for (size_t k = 0; k < ARRAY_SIZE(starts); k++)
		for (const char *s = strstr(script, starts[k]); s;
		     s = strstr(s + 1, starts[k])) {
			const char *t = k ? strstr(s, " title \"") + strlen(" title \"") :
				       s + strlen(starts[k]);

			for (; *t && *t != '"'; t++) {
				if (*t == '\\' && t[1] == 'n') {
					strbuf_addch(out, '\n');
					t++;
				} else {
					strbuf_addch(out, *t == '\\' ? *++t : *t);
				}
			}
			strbuf_adds(out, "\n\n");
		}
}

/* The longest line of text, in characters (UTF-8 sequences). */
static size_t longest_line(const char *text)
{
	size_t most = 0, n = 0;

	for (const char *t = text; *t; t++) {
		if (*t == '\n') {
			most = n > most ? n : most;
			n = 0;
		} else {
			n += ((unsigned char)*t & 0xC0) != 0x80;
		}
	}
	return n > most ? n : most;
}

/*
 * Labels of 57 characters: drawn as letters, A and B, each named in full
 * once, in the chart's title; every title wrapped to the picture (at
 * 1200 px and 13 points, 131 characters; a panel of the forest, 108).
 */
static void test_long_labels_lettered(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT, titles = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7, LONG_A);
	bench_run(&f.runs[1], 8, LONG_B);
	one_group_each(&f, 2);
	f.groups[0].spec = (char *)LONG_A;
	f.groups[1].spec = (char *)LONG_B;
	for (int kind = 0; kind < PLOT_NKINDS; kind++) {
		if (!plot_kind_fits(kind, &f.in, &err))
			continue;
		assert_int_equal(chart(&f, kind, &gp, &err), 0);
		strbuf_reset(&titles);
		script_titles(gp.script.buf, &titles);
		assert_non_null(strstr(titles.buf, "\nA: " LONG_A "\n"));
		assert_non_null(strstr(titles.buf, "\nB: " LONG_B "\n"));
		/* Named once: no key, tic or panel title repeats them. */
		assert_ptr_equal(strstr(gp.script.buf, LONG_A), strrchr(strstr(gp.script.buf,
				 "set multiplot"), 'A') ? strstr(gp.script.buf, LONG_A) : NULL);
		assert_null(strstr(strstr(gp.script.buf, LONG_A) + 1, LONG_A "\""));
		assert_in_range(longest_line(titles.buf), 1, 131);
		gp_release(&gp);
	}
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "B (1 run), kernel 6.18.44 against "
			       "A (1 run), kernel 6.18.44: geomean"));
	gp_release(&gp);
	strbuf_release(&titles);
	strbuf_release(&err);
	free_runs(&f, 2);
}

/* Labels of 24 characters or fewer are drawn as they are. */
static void test_short_labels_kept(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	bench_run(&f.runs[0], 7, "timens-a673ac6d-host");
	bench_run(&f.runs[1], 8, "timens-a673ac6d-timens");
	one_group_each(&f, 2);
	f.groups[0].spec = (char *)"timens-a673ac6d-host";
	f.groups[1].spec = (char *)"timens-a673ac6d-timens";
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "timens-a673ac6d-timens (1 run), kernel 6.18.44"));
	assert_null(strstr(gp.script.buf, "A: "));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 2);
}

/* The picture's height in a script: "set terminal svg size W,H". */
static int script_height(const char *script)
{
	const char *s = strstr(script, "set terminal svg size ");
	int w = 0, h = 0;

	assert_non_null(s);
	assert_int_equal(sscanf(s, "set terminal svg size %d,%d", &w, &h), 2);
	return h;
}

/*
 * Issue 30: the forest names what differs between the sides' machines
 * above the verdicts, as compare does: a clocksource the vDSO cannot read
 * on one side, with what it alone can explain, in the panel's title, the
 * room above the panel grown to hold it; no line when the sides agree.
 */
static void test_compare_sides_differ(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT, titles = STRBUF_INIT;
	struct gp gp;
	int taller;

	(void)state;
	bench_run(&f.runs[0], 7, "6.1");
	bench_run(&f.runs[1], 8, "6.12");
	json_object_set_new(f.runs[0].env, "clocksource", json_string("hpet"));
	json_object_set_new(f.runs[1].env, "clocksource", json_string("tsc"));
	one_group_each(&f, 2);
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, ": geomean +0.00 %\\nDIFFERENT: clocksource hpet "
			       "against tsc\\nThe clocksource hpet is read by the kernel, not the "
			       "vDSO"));
	script_titles(gp.script.buf, &titles);
	assert_in_range(longest_line(titles.buf), 1, 108);
	taller = script_height(gp.script.buf);
	gp_release(&gp);
	/* The same machine on both sides: nothing named, the usual room. */
	json_object_set_new(f.runs[0].env, "clocksource", json_string("tsc"));
	run_facts_forget(&f.runs[0]);
	assert_int_equal(chart(&f, PLOT_COMPARE, &gp, &err), 0);
	assert_null(strstr(gp.script.buf, "DIFFERENT"));
	assert_null(strstr(gp.script.buf, "read by the kernel"));
	assert_true(script_height(gp.script.buf) < taller);
	gp_release(&gp);
	strbuf_release(&titles);
	strbuf_release(&err);
	free_runs(&f, 2);
}

/*
 * A panel title too long for its panel is wrapped, never left to run
 * under its neighbour's: two timens panels side by side, each about 385
 * px (and most of the 90 between them), hold lines of 52 characters at
 * 12 points.
 */
static void test_panel_titles_wrapped(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT, titles = STRBUF_INIT;
	struct gp gp;
	const char *t;

	(void)state;
	timens_side(&f.runs[0], 1, "host");
	timens_side(&f.runs[1], 2, "timens");
	free(f.runs[0].kernel);
	f.runs[0].kernel = xstrdup("6.12.38-cloud-amd64");
	for (size_t i = 0; i < 2; i++) {
		free(f.runs[i].label);
		f.runs[i].label = xstrdup(i ? "timens-a673ac6d-timens" : "timens-a673ac6d-host");
	}
	one_group_each(&f, 2);
	assert_int_equal(chart(&f, PLOT_TIMENS, &gp, &err), 0);
	t = strstr(gp.script.buf, "set title \"timens-a673ac6d-host and");
	assert_non_null(t);
	strbuf_adds(&titles, "x\n");
	script_titles(t - 1, &titles);
	assert_non_null(strchr(titles.buf + 2, '\n'));
	assert_in_range(longest_line(strchr(titles.buf, '\n')), 10, 52);
	gp_release(&gp);
	strbuf_release(&titles);
	strbuf_release(&err);
	free_runs(&f, 2);
}

/* The colour of each "with linespoints" series of a script, in order. */
static size_t line_colours(const char *script, char colours[][8], size_t max)
{
	size_t n = 0;

	for (const char *s = strstr(script, "with linespoints"); s && n < max;
	     s = strstr(s + 1, "with linespoints")) {
		const char *c = strstr(s, "lc rgb \"#");

		assert_non_null(c);
		snprintf(colours[n++], 8, "%.7s", c + strlen("lc rgb \""));
	}
	return n;
}

/*
 * Two boots of one kernel (one label) are one series: one colour, one
 * entry in the key ("a (2 runs)"); the other label another colour.
 */
static void test_one_colour_per_label(void **state)
{
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	char colours[8][8];
	struct gp gp;

	(void)state;
	scale_run(&f.runs[0], 5, "a");
	scale_run(&f.runs[1], 6, "b");
	scale_run(&f.runs[2], 7, "a");
	memset(&f.in, 0, sizeof(f.in));
	f.groups[0] = (struct compare_group){ .spec = (char *)"a", .runs = f.runs, .nruns = 1 };
	f.groups[1] = (struct compare_group){ .spec = (char *)"b", .runs = &f.runs[1],
					      .nruns = 2 };
	f.in.groups = f.groups;
	f.in.ngroups = 2;
	assert_int_equal(chart(&f, PLOT_SCALE, &gp, &err), 0);
	/* Two panels of three lines: runs 5 (a), 6 (b), 7 (a). */
	assert_int_equal(line_colours(gp.script.buf, colours, 8), 6);
	assert_string_equal(colours[0], colours[2]);
	assert_string_not_equal(colours[0], colours[1]);
	assert_string_equal(colours[3], colours[5]);
	assert_non_null(strstr(gp.script.buf, "title \"a (2 runs)\""));
	assert_non_null(strstr(gp.script.buf, "title \"b\""));
	assert_null(strstr(gp.script.buf, "run 2 of 2\""));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 3);
}

static void counts_run(struct stored_run *r, const char *mode, const long *counts,
		       size_t n)
{
	char name[64];

	make_run(r, 5, "scale", "s");
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "times-%s-%ld", mode, counts[i]);
		add_cell(r, name, "libc", "s", 3, 1 + 0.01 * (double)i, 3);
		snprintf(name, sizeof(name), "clock-gettime-process-cputime-%s-%ld", mode,
			 counts[i]);
		add_cell(r, name, "libc", "s", 3, 1 + 0.01 * (double)i, 3);
	}
}

/*
 * 32 CPUs' series on a log axis, two panels side by side (times and
 * clock_gettime, as scale measures): 110 and 128 would touch ("110128"), so
 * 110 keeps a tic without its number and 128, the last, is named; the
 * idle threads from 0 on a linear axis (a log axis has no 0).
 */
static void test_scale_tics(void **state)
{
	static const long stride[] = { 2, 5, 8, 12, 21, 30, 48, 79, 110, 128 };
	static const long idle[] = { 0, 1, 10, 128 };
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;

	(void)state;
	counts_run(&f.runs[0], "threads", stride, ARRAY_SIZE(stride));
	one_group_each(&f, 1);
	assert_int_equal(chart(&f, PLOT_SCALE, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "set logscale x 2"));
	assert_non_null(strstr(gp.script.buf, "set xtics add (2, 5, 8, 12, 21, 30, 48, 79, "
			       "\"\" 110 1, 128)"));
	gp_release(&gp);
	free_runs(&f, 1);
	counts_run(&f.runs[0], "idle", idle, ARRAY_SIZE(idle));
	assert_int_equal(chart(&f, PLOT_SCALE, &gp, &err), 0);
	assert_null(strstr(gp.script.buf, "\nset logscale x"));
	assert_non_null(strstr(gp.script.buf, "\nunset logscale x"));
	assert_non_null(strstr(gp.script.buf, "set xrange [-0.5:"));
	assert_non_null(strstr(gp.script.buf, "set xtics add (0, \"\" 1 1, 10, 128)"));
	gp_release(&gp);
	strbuf_release(&err);
	free_runs(&f, 1);
}

/* ---- data is never code (issue 18, 1) --------------------------------- */

/* gp_cmd's format: printf's numbers, every %s a literal, no text pasted. */
static void test_script_format(void **state)
{
	struct gp gp;

	(void)state;
	gp_init(&gp, "f");
	strbuf_reset(&gp.script);
	gp_cmd(&gp, "set xrange [%g:%.2f] # %d%% %zu %u %ld %lld %x", 0.5, 2.0, -3,
	       (size_t)4, 5u, 6L, 7LL, 255u);
	gp_cmd(&gp, "plot 1 title %s lc rgb %s, 2 title %s", "o'brien", "#0072B2", "");
	assert_string_equal(gp.script.buf, "set xrange [0.5:2.00] # -3% 4 5 6 7 ff\n"
			    "plot 1 title \"o'brien\" lc rgb \"#0072B2\", 2 title \"\"\n");
	gp_release(&gp);
}

/* A caller's %s inside a literal of its format would be code: a bug, fatal. */
static int format_dies(const char *fmt)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct gp gp;

		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		gp_init(&gp, "f");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		gp_cmd(&gp, fmt, "x");
#pragma GCC diagnostic pop
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_script_format_refused(void **state)
{
	(void)state;
	assert_true(format_dies("title '%s'"));
	assert_true(format_dies("set label \"a %s\""));
	assert_true(format_dies("set label \"a\\\" %s\""));
	assert_true(format_dies("title %-5s"));
	assert_true(format_dies("title %.3s"));
	assert_true(format_dies("title %c"));
	assert_false(format_dies("title 'it''s' %s"));
	assert_false(format_dies("title \"a\\\\\" %s"));
}


/*
 * Every byte but NUL, and the sequences that broke out of quoting once,
 * printed by gnuplot itself from gp_quote()'s literals: it reads back
 * exactly what went in, and runs nothing (the canary never appears).
 */
static void test_quote_through_gnuplot(void **state)
{
	static const char *const tricky[] = {
		"o'brien", "x' . system(\"touch canary\") . '", "x\" . system(\"touch canary\") . \"",
		"x\\' . system(\"touch canary\") . '\\", "x\\\\\" . system(\"touch canary\") . \"\\",
		"`touch canary`", "'`touch canary`'", "\"`touch canary`\"", "@cb_data @x",
		"a\\", "\\", "a\nsystem \"touch canary\"\n", "#; load 'x'; \\", "",
	};
	char all[256], dir[] = "/tmp/clockbench-quote-XXXXXX", gnuplot[4096], path[4200];
	struct strbuf script = STRBUF_INIT, want = STRBUF_INIT, cmd = STRBUF_INIT, got = STRBUF_INIT;
	FILE *f;
	int c;

	(void)state;
	if (!gp_find(gnuplot, sizeof(gnuplot)))
		skip();
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	assert_non_null(mkdtemp(dir));
	strbuf_adds(&script, "set print \"out\"\n");
	for (size_t i = 0; i <= ARRAY_SIZE(tricky); i++) {
		const char *s = i < ARRAY_SIZE(tricky) ? tricky[i] : all;

		strbuf_adds(&script, "print ");
		gp_quote(&script, s);
		strbuf_addch(&script, '\n');
		strbuf_addf(&want, "%s\n", s);
	}
	snprintf(path, sizeof(path), "%s/t.gp", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(script.buf, 1, script.len, f);
	assert_int_equal(fclose(f), 0);
	strbuf_addf(&cmd, "cd %s && '%s' -d t.gp", dir, gnuplot);
	assert_int_equal(system(cmd.buf), 0);
	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		strbuf_addch(&got, (char)c);
	fclose(f);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.buf, want.buf, want.len);
	snprintf(path, sizeof(path), "%s/canary", dir);
	assert_int_equal(access(path, F_OK), -1);
	strbuf_setf(&cmd, "rm -r %s", dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&script);
	strbuf_release(&want);
	strbuf_release(&cmd);
	strbuf_release(&got);
}

#define MARK "EVIL'\"`@\\;#"

/* s with MARK after it (a new string: the old one freed). */
static void mark(char **s)
{
	char *m = xmalloc(strlen(*s) + sizeof(MARK));

	sprintf(m, "%s" MARK, *s);
	free(*s);
	*s = m;
}

/* Every text field of run r marked, its cells still shaped for their kind. */
static void mark_run(struct stored_run *r)
{
	mark(&r->label);
	mark(&r->host);
	mark(&r->kernel);
	for (size_t i = 0; i < r->ncells; i++) {
		struct stored_cell *c = &r->cells[i];

		if (strncmp(c->name, "state:", 6) == 0) {
			char *m = xmalloc(strlen(c->name) + sizeof(MARK));

			sprintf(m, "state:" MARK "%s", c->name + 6);
			free(c->name);
			c->name = m;
		} else if (!strstr(c->name, "-threads-") && !streq(c->name, "offline") &&
			   !streq(c->name, "online")) {
			mark(&c->name);
		}
		mark(&c->path);
		mark(&c->api);
		mark(&c->clock);
		mark(&c->cycles_unit);
	}
}

/*
 * Where MARK appears in a script outside a string literal ("..." with
 * backslash escapes, '...' with '' for a quote), or outside any: a
 * backquote or an @. NULL when text only ever sits inside literals.
 */
static const char *outside_literal(const char *script)
{
	for (const char *p = script; *p; p++) {
		if (*p == '"') {
			for (p++; *p && *p != '"' && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (*p != '"')
				return p;
		} else if (*p == '\'') {
			for (p++; *p && *p != '\n' && !(*p == '\'' && p[1] != '\''); p++)
				if (*p == '\'')
					p++;
			if (*p != '\'')
				return p;
		} else if (*p == '`' || *p == '@' || strncmp(p, "EVIL", 4) == 0) {
			return p;
		}
	}
	return NULL;
}

/* Every kind drawn from runs whose text is all MARK: only ever in literals. */
static void test_text_only_in_literals(void **state)
{
	static const enum plot_kind kinds[] = {
		PLOT_CELLS, PLOT_DISTRIBUTION, PLOT_ROUNDS, PLOT_COMPARE,
	};
	struct fixture f;
	struct strbuf err = STRBUF_INIT;
	struct gp gp;
	const char *at;

	(void)state;
	bench_run(&f.runs[0], 7, "before");
	bench_run(&f.runs[1], 9, "after");
	mark_run(&f.runs[0]);
	mark_run(&f.runs[1]);
	one_group_each(&f, 2);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		assert_int_equal(chart(&f, kinds[k], &gp, &err), 0);
		assert_non_null(strstr(gp.script.buf, "EVIL"));
		if ((at = outside_literal(gp.script.buf)))
			fail_msg("%s: text outside a literal at: %.60s",
				 plot_kind_names[kinds[k]], at);
		gp_release(&gp);
	}
	free_runs(&f, 2);
	scale_run(&f.runs[0], 5, "pre");
	hotplug_run(&f.runs[1]);
	mark_run(&f.runs[0]);
	mark_run(&f.runs[1]);
	one_group_each(&f, 2);
	for (size_t k = 0; k < 2; k++) {
		enum plot_kind kind = k ? PLOT_HOTPLUG : PLOT_SCALE;

		assert_int_equal(chart(&f, kind, &gp, &err), 0);
		assert_non_null(strstr(gp.script.buf, "EVIL"));
		if ((at = outside_literal(gp.script.buf)))
			fail_msg("%s: text outside a literal at: %.60s", plot_kind_names[kind], at);
		gp_release(&gp);
	}
	free_runs(&f, 2);
	timens_side(&f.runs[0], 1, "host");
	timens_side(&f.runs[1], 2, "timens");
	for (size_t i = 0; i < 200; i++)
		f.runs[1].cells[0].values[i] *= 1.05;
	mark_run(&f.runs[0]);
	mark_run(&f.runs[1]);
	one_group_each(&f, 2);
	assert_int_equal(chart(&f, PLOT_TIMENS, &gp, &err), 0);
	assert_non_null(strstr(gp.script.buf, "EVIL"));
	if ((at = outside_literal(gp.script.buf)))
		fail_msg("timens: text outside a literal at: %.60s", at);
	gp_release(&gp);
	free_runs(&f, 2);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lightness),
		cmocka_unit_test(test_greyscale),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_split_path),
		cmocka_unit_test(test_text_histogram),
		cmocka_unit_test(test_ministat_plot),
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_rounds_speed),
		cmocka_unit_test(test_rounds_values),
		cmocka_unit_test(test_distribution),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_emulated_in_the_title),
		cmocka_unit_test(test_compare_sides_differ),
		cmocka_unit_test(test_run_names_not_ids),
		cmocka_unit_test(test_timens),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_distribution_tail_tic),
		cmocka_unit_test(test_long_labels_lettered),
		cmocka_unit_test(test_short_labels_kept),
		cmocka_unit_test(test_panel_titles_wrapped),
		cmocka_unit_test(test_one_colour_per_label),
		cmocka_unit_test(test_scale_tics),
		cmocka_unit_test(test_script_format),
		cmocka_unit_test(test_script_format_refused),
		cmocka_unit_test(test_quote_through_gnuplot),
		cmocka_unit_test(test_text_only_in_literals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
