// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench timens: what a time namespace costs each clock (seed 000).
 * The same cells on the host and inside a new time namespace, repetitions
 * interleaved, then the seed's summary (host, inside timens, diff %,
 * stdev %) with compare's significance verdict. Saves two runs.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "builtin/builtin.h"
#include "probe/catalog.h"
#include "probe/cell-filter.h"
#include "results/compare.h"
#include "config.h"
#include "probe/env.h"
#include "basic/progress.h"
#include "results/record.h"
#include "basic/stats.h"
#include "results/store.h"
#include "scenario/timens-bench.h"
#include "probe/timens.h"
#include "probe/timing.h"
#include "basic/util.h"

#define DAY_NS (86400LL * NSEC_PER_SEC_I64)
/*
 * Many short repetitions: the load of a shared machine drifts over seconds,
 * so the repetition medians of both sides spread by a percent or two; with
 * 20 per side the test still sees a 3 % change through that.
 */
#define DEFAULT_REPETITIONS 20

void usage_timens(FILE *f)
{
	fputs("usage: clockbench timens [<options>]\n"
	      "\n"
	      "Measure clock reads on the host and inside a new time namespace, with\n"
	      "host and namespace repetitions interleaved, and report what the\n"
	      "namespace costs each clock with a significance verdict. Needs root\n"
	      "(CAP_SYS_ADMIN) to create the namespace.\n"
	      "\n"
	      "  --api LIST            APIs (default: clock_gettime)\n"
	      "  --clock LIST          clocks (default: realtime, monotonic,\n"
	      "                        monotonic-raw, boottime, tai and the coarse\n"
	      "                        clocks)\n"
	      "  --path LIST           vdso, libc, syscall (default: vdso,syscall)\n"
	      "  --repetitions N       repetitions per side (default 20, at least 2)\n"
	      "  --budget TIME         wall time per cell and side, spread over the\n"
	      "                        repetitions (default 250ms)\n"
	      "  --quick               a short budget (40ms per cell and side)\n"
	      "  --monotonic-offset T  the namespace's MONOTONIC offset: [+-]N[s|m|h|d]\n"
	      "                        (default +10d)\n"
	      "  --boottime-offset T   the namespace's BOOTTIME offset (default +20d)\n"
	      "  --cpu N               pin to CPU N (default: the last CPU of the\n"
	      "                        affinity mask)\n"
	      "  --style STYLE         summary (default, seed 000's table), table,\n"
	      "                        mmtests, ratio, ministat\n"
	      "  --format FMT          text (default), json\n"
	      "  --host-label LABEL    label of the saved host run (default host)\n"
	      "  --timens-label LABEL  label of the saved namespace run (default timens)\n"
	      "  --allow-nested        run even when clockbench itself is already in a\n"
	      "                        non-root time namespace (see below)\n"
	      "  --list                print the cells that would run\n"
	      RECORD_DB_USAGE
	      "  --no-save             do not save the runs\n"
	      "  -h, --help            this text\n"
	      "\n"
	      "Both sides run in child processes forked after the batch sizes were\n"
	      "chosen, pinned to one CPU; repetitions alternate host, timens, timens,\n"
	      "host, ... so a linear drift of the machine cancels. The verdict is\n"
	      "compare's (see clockbench-compare(1)); CV is the spread of the\n"
	      "per-repetition medians of each side.\n"
	      "\n"
	      "Inside a non-root time namespace the \"host\" side would itself be\n"
	      "namespaced, so timens refuses (exit 4) unless --allow-nested is given.\n"
	      "\n"
	      "Exit status: 0 on success, 1 on an error, 2 on a usage error, 4 when a\n"
	      "time namespace cannot be created here (skip), 128+N when stopped by\n"
	      "signal N.\n", f);
}

struct timens_options {
	struct catalog_filter filter;
	struct timing_config cfg;
	struct timens_offsets off;
	unsigned repetitions;
	int cpu;
	enum compare_style style;
	bool json;
	bool allow_nested;
	bool list;
	const char *label[TB_SIDES];
	struct store_options store;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* ---- options -------------------------------------------------------- */

enum {
	OPT_API = 256, OPT_CLOCK, OPT_PATH, OPT_REPETITIONS, OPT_BUDGET, OPT_QUICK,
	OPT_MONO, OPT_BOOT, OPT_CPU, OPT_STYLE, OPT_FORMAT, OPT_HOST_LABEL,
	OPT_NS_LABEL, OPT_NESTED, OPT_LIST,
};

static const struct option timens_longopts[] = {
	{ "api", required_argument, NULL, OPT_API },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "monotonic-offset", required_argument, NULL, OPT_MONO },
	{ "boottime-offset", required_argument, NULL, OPT_BOOT },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "host-label", required_argument, NULL, OPT_HOST_LABEL },
	{ "timens-label", required_argument, NULL, OPT_NS_LABEL },
	{ "allow-nested", no_argument, NULL, OPT_NESTED },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "db", required_argument, NULL, OPT_STORE_DB },
	{ "no-save", no_argument, NULL, OPT_STORE_NO_SAVE },
	{ "label", required_argument, NULL, OPT_STORE_LABEL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The clocks a time namespace touches, and their neighbours. */
static void default_filter(struct catalog_filter *f)
{
	static const clockid_t clocks[] = {
		CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
		CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,
		CLOCK_TAI,
	};

	cell_filter_none(f);
	f->api[API_CLOCK_GETTIME] = true;
	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++)
		f->clock[clocks[i]] = true;
	f->path[PATH_VDSO] = true;
	f->path[PATH_SYSCALL] = true;
}

static int64_t parse_offset(const char *opt, const char *arg)
{
	int64_t ns;

	if (!timens_parse_offset(arg, &ns))
		usage_error("invalid %s '%s': expected [+-]N with an optional unit "
			    "s, m, h or d, within 100 years", opt, arg);
	return ns;
}

static const char *parse_label(const char *opt, const char *arg)
{
	char why[96];

	if (!store_label_valid(arg, why, sizeof(why)))
		usage_error("invalid %s '%s': %s", opt, arg, why);
	return arg;
}

static void parse_style(const char *arg, enum compare_style *style)
{
	int s = compare_style_by_name(arg);

	if (s < 0)
		usage_error("unknown style '%s' (summary, table, mmtests, ratio, "
			    "ministat)", arg);
	*style = (enum compare_style)s;
}

static void parse_one(int opt, const char *arg, struct timens_options *o,
		      double *budget, bool *quick, const char *prog_opt)
{
	long v;

	switch (opt) {
	case OPT_API: cell_filter_parse_apis(arg, &o->filter); break;
	case OPT_CLOCK: cell_filter_parse_clocks(arg, &o->filter); break;
	case OPT_PATH: cell_filter_parse_paths(arg, &o->filter); break;
	case OPT_REPETITIONS:
		if (!parse_int(arg, 2, 1000, &v))
			usage_error("invalid --repetitions '%s': expected a number "
				    "from 2 to 1000", arg);
		o->repetitions = (unsigned)v;
		break;
	case OPT_BUDGET:
		*budget = cell_filter_parse_budget(arg);
		break;
	case OPT_QUICK: *quick = true; break;
	case OPT_MONO:
		o->off.monotonic_ns = parse_offset("--monotonic-offset", arg);
		break;
	case OPT_BOOT:
		o->off.boottime_ns = parse_offset("--boottime-offset", arg);
		break;
	case OPT_CPU: o->cpu = cell_filter_parse_cpu(arg); break;
	case OPT_STYLE: parse_style(arg, &o->style); break;
	case OPT_FORMAT:
		if (!streq(arg, "text") && !streq(arg, "json"))
			usage_error("unknown format '%s' (text, json)", arg);
		o->json = streq(arg, "json");
		break;
	case OPT_HOST_LABEL:
		o->label[TB_HOST] = parse_label("--host-label", arg);
		break;
	case OPT_NS_LABEL:
		o->label[TB_TIMENS] = parse_label("--timens-label", arg);
		break;
	case OPT_NESTED: o->allow_nested = true; break;
	case OPT_LIST: o->list = true; break;
	case OPT_STORE_LABEL:
		usage_error("timens saves two runs: name them with --host-label "
			    "and --timens-label, not --label");
	default:
		if (store_parse_option(opt, arg, &o->store))
			break;
		usage_error("unknown option '%s' (see 'clockbench timens --help')",
			    prog_opt);
	}
}

static void parse_timens_options(int argc, char **argv, struct timens_options *o)
{
	double budget = 0;
	bool quick = false;
	int opt;

	memset(o, 0, sizeof(*o));
	default_filter(&o->filter);
	o->off.monotonic_ns = 10 * DAY_NS;
	o->off.boottime_ns = 20 * DAY_NS;
	o->repetitions = DEFAULT_REPETITIONS;
	o->cpu = -1;
	o->style = STYLE_SUMMARY;
	o->label[TB_HOST] = "host";
	o->label[TB_TIMENS] = "timens";
	while ((opt = getopt_long(argc, argv, ":h", timens_longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage_timens(stdout);
			exit(0);
		}
		if (opt == ':' || opt == '?')
			usage_bad_option(opt, argv);
		parse_one(opt, optarg, o, &budget, &quick, argv[optind - 1]);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (streq(o->label[TB_HOST], o->label[TB_TIMENS]))
		usage_error("--host-label and --timens-label must differ ('%s')",
			    o->label[TB_HOST]);
	timing_config_default(&o->cfg);
	if (quick)
		o->cfg.budget_s = 0.04;
	if (budget > 0)
		o->cfg.budget_s = budget;
	if (o->cfg.min_time_s > o->cfg.budget_s)
		o->cfg.min_time_s = o->cfg.budget_s;
	o->cfg.rounds = o->repetitions;
	if (o->cpu < 0)
		o->cpu = timing_default_cpu();
}

/* ---- preconditions -------------------------------------------------- */

static void print_cell_list(const struct catalog *cat)
{
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];

		printf("%-32s %-7s %s%s%s\n", c->name, catalog_paths[c->path],
		       c->status == CELL_OK ? "runs" :
		       c->status == CELL_NA ? "n/a" : "unsupported",
		       c->status == CELL_OK ? "" : ": ", c->status == CELL_OK ? "" : c->why);
	}
}

/* The cells that can run, copied; says why the others are left out. */
static struct cell *runnable_cells(const struct catalog *cat, size_t *n)
{
	struct cell *cells = xcalloc(cat->ncells ? cat->ncells : 1, sizeof(*cells));

	*n = 0;
	for (size_t i = 0; i < cat->ncells; i++) {
		const struct cell *c = &cat->cells[i];

		if (c->status != CELL_OK) {
			warn_msg("%s %s not measured: %s", c->name,
				 catalog_paths[c->path], c->why);
			continue;
		}
		cells[(*n)++] = *c;
	}
	return cells;
}

/* 0 to go on, or the exit status: EXIT_SKIP with the reason printed. */
static int check_can_run(const struct env_info *env, bool allow_nested)
{
	char why[256];

	if (env->in_time_namespace && !allow_nested) {
		fprintf(stderr, "clockbench timens: skip: clockbench runs inside a "
			"non-root time namespace, so its \"host\" side would be "
			"namespaced too (use --allow-nested to measure anyway)\n");
		return EXIT_SKIP;
	}
	if (env->in_time_namespace)
		warn_msg("running inside a non-root time namespace: the \"host\" "
			 "figures are not the host's");
	if (!timens_supported(why, sizeof(why))) {
		fprintf(stderr, "clockbench timens: skip: cannot create a time "
			"namespace: %s\n", why);
		return EXIT_SKIP;
	}
	return 0;
}

/* ---- measuring ------------------------------------------------------ */

static void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * host, timens, timens, host, host, timens, ...: each pair of repetitions
 * is symmetric in time, so a drift that is linear over a pair cancels.
 */
static enum tb_side_id side_at(unsigned k, unsigned j)
{
	return (k % 2 == 0) == (j == 0) ? TB_HOST : TB_TIMENS;
}

static int run_repetitions(struct timens_bench *b, unsigned reps,
			   unsigned *done)
{
	struct progress prog;
	char what[96], err[512];

	progress_init(&prog, 2 * reps);
	*done = 0;
	for (unsigned k = 0; k < reps && !stop_signal; k++) {
		for (unsigned j = 0; j < 2; j++) {
			enum tb_side_id s = side_at(k, j);

			snprintf(what, sizeof(what), "repetition %u/%u, %s", k + 1,
				 reps, tb_side_names[s]);
			progress_update(&prog, 2 * k + j, what);
			if (tbench_round(b, s, k, err, sizeof(err)) != 0) {
				progress_done(&prog);
				error_msg("%s", err);
				return -1;
			}
		}
		(*done)++;
	}
	progress_done(&prog);
	return 0;
}

static int start_sides(struct timens_bench *b)
{
	char err[512];

	for (int s = 0; s < TB_SIDES; s++) {
		if (tbench_start(b, (enum tb_side_id)s, err, sizeof(err)) == 0)
			continue;
		if (errno == ERANGE)
			error_msg("%s: an offset must not take the namespace's "
				  "MONOTONIC or BOOTTIME below zero", err);
		else
			error_msg("%s", err);
		return -1;
	}
	return 0;
}

/* ---- the runs ------------------------------------------------------- */

static void set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = xstrdup(s ? s : "");
}

static void store_cell(struct stored_run *run, const struct cell *c,
		       const struct cell_result *r, const char *cycles_unit)
{
	struct stored_cell *sc = record_add_cell(run, c->name, "ns", r->ns, r->n);

	set_str(&sc->path, catalog_paths[c->path]);
	set_str(&sc->api, catalog_apis[c->api].name);
	set_str(&sc->clock, c->clock ? c->clock->name : "");
	sc->batch_calls = r->batch_calls;
	if (!r->n) {
		set_str(&sc->status, "not reached");
		set_str(&sc->reason, "the run was interrupted");
		return;
	}
	sc->rounds = xmalloc(r->n * sizeof(uint32_t));
	memcpy(sc->rounds, r->rounds, r->n * sizeof(uint32_t));
	sc->nrounds = r->nrounds;
	if (r->cycles && *cycles_unit) {
		sc->cycles = xmalloc(r->n * sizeof(double));
		memcpy(sc->cycles, r->cycles, r->n * sizeof(double));
		set_str(&sc->cycles_unit, cycles_unit);
	}
	if (r->core) {
		sc->core_cycles = xmalloc(r->n * sizeof(double));
		memcpy(sc->core_cycles, r->core, r->n * sizeof(double));
	}
}

static json_t *offsets_json(const struct timens_offsets *off)
{
	return json_pack("{s:f, s:f}", "monotonic_s", (double)off->monotonic_ns / 1e9,
			 "boottime_s", (double)off->boottime_ns / 1e9);
}

static json_t *side_config(const struct timens_options *o,
			   const struct timens_bench *b, enum tb_side_id s,
			   bool nested)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:s, s:o, s:b}",
			 "mode", "timens", "side", tb_side_names[s],
			 "paired_with", o->label[s == TB_HOST ? TB_TIMENS : TB_HOST],
			 "repetitions", (int)o->repetitions, "cpu", o->cpu,
			 "budget_s", o->cfg.budget_s,
			 "boundary_ns", b->side[s].boundary_ns,
			 "order", "host, timens, timens, host, ...",
			 "offsets", offsets_json(&b->off), "nested", nested);
}

/* The namespace side's environment says where it ran. */
static void mark_namespace_env(json_t *env, const struct timens_offsets *off)
{
	json_t *tn = json_object_get(env, "time_namespace");

	if (!json_is_object(tn))
		return;
	json_object_set_new(tn, "non_root", json_true());
	json_object_set_new(tn, "offsets", offsets_json(off));
}

static void build_run(struct stored_run *run, const struct timens_options *o,
		      const struct timens_bench *b, enum tb_side_id s,
		      const struct env_info *env, const struct timespec *started,
		      double elapsed_s, bool interrupted)
{
	struct store_options so = o->store;
	struct run_quality q;

	so.label = o->label[s];
	record_begin(run, "timens", &so, env, started);
	for (size_t i = 0; i < b->ncells; i++)
		store_cell(run, &b->cells[i], &b->side[s].res[i], b->side[s].cycles_unit);
	run->config = side_config(o, b, s, env->in_time_namespace);
	tbench_side_quality(b, s, &q);
	run->quality = record_quality(&q, NULL);
	if (s == TB_TIMENS)
		mark_namespace_env(run->env, &b->off);
	record_finish(run, elapsed_s, interrupted);
}

static int save_runs(struct stored_run *runs, const struct store_options *o)
{
	for (int s = 0; s < TB_SIDES; s++)
		if (record_save(o, &runs[s]) != 0)
			return -1;
	return 0;
}

/* ---- reporting ------------------------------------------------------ */

/*
 * CV of one side's per-repetition medians: the drift the verdict must beat,
 * in the figure the verdict judges (core cycles when there are).
 */
static double round_cv_pct(const struct cell_result *r)
{
	struct summary s;
	double *m;

	if (r->nrounds < 2)
		return NAN;
	m = timing_round_medians_of(r, r->core ? r->core : r->ns);
	stats_summarize(m, r->nrounds, &s);
	free(m);
	return s.cv_pct;
}

static const struct compare_row *find_row(const struct compare_result *cr,
					  const struct cell *c)
{
	for (size_t i = 0; i < cr->nrows; i++)
		if (streq(cr->rows[i].name, c->name) &&
		    streq(cr->rows[i].path, catalog_paths[c->path]))
			return &cr->rows[i];
	return NULL;
}

static void print_header(FILE *f, const struct timens_options *o,
			 const struct timens_bench *b, unsigned done,
			 double elapsed_s, bool interrupted)
{
	char mono[32], boot[32];

	timens_format_offset(b->off.monotonic_ns, mono, sizeof(mono));
	timens_format_offset(b->off.boottime_ns, boot, sizeof(boot));
	fprintf(f, "# clockbench %s timens: %zu cells, %u of %u repetitions per side, "
		"%.1f s%s\n", CLOCKBENCH_VERSION, b->ncells, done, o->repetitions,
		elapsed_s, interrupted ? ", INTERRUPTED" : "");
	fprintf(f, "# namespace offsets: monotonic %s, boottime %s; CPU %d; order "
		"host, timens, timens, host, ...\n", mono, boot, o->cpu);
	fprintf(f, "# clock-read overhead per batch: host %.1f ns, timens %.1f ns "
		"(each side subtracts its own)\n", b->side[TB_HOST].boundary_ns,
		b->side[TB_TIMENS].boundary_ns);
	tbench_print_quality(f, b);
}

static void print_glance(FILE *f, const struct compare_result *cr,
			 const struct timens_bench *b)
{
	bool core = cr->metric == METRIC_CORE_CYCLES;

	fprintf(f, "\n# at a glance: median %s per call; CV: spread of the "
		"per-repetition medians%s\n%-32s %-7s %9s %9s %8s %7s %7s  %-7s%s\n",
		cr->unit, core ? "; ns-diff: the difference in ns" : "",
		"cell", "path", "host", "timens", "diff", "CV-host", "CV-ns",
		"verdict", core ? " ns-diff" : "");
	for (size_t i = 0; i < b->ncells; i++) {
		const struct cell *c = &b->cells[i];
		const struct compare_row *row = find_row(cr, c);

		if (!row || !row->diffs[1].valid)
			continue;
		fprintf(f, "%-32s %-7s %9.2f %9.2f %+7.2f%% %6.2f%% %6.2f%%  %-7s",
			c->name, catalog_paths[c->path], row->sides[0].sum.median,
			row->sides[1].sum.median, row->diffs[1].change_pct,
			round_cv_pct(&b->side[TB_HOST].res[i]),
			round_cv_pct(&b->side[TB_TIMENS].res[i]), row->diffs[1].verdict);
		if (core)
			fprintf(f, " %+6.2f%%", row->diffs[1].ns_change_pct);
		fputc('\n', f);
	}
}

static json_t *figure(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *round_medians_json(const struct cell_result *r)
{
	json_t *a = json_array();
	double *m = timing_round_medians(r);

	for (uint32_t k = 0; k < r->nrounds; k++)
		json_array_append_new(a, figure(m[k]));
	free(m);
	return a;
}

static json_t *side_json(const struct compare_side *s, const struct cell_result *r,
			 bool core)
{
	json_t *j;

	j = json_pack("{s:o, s:[o, o], s:o, s:I, s:I, s:o}",
			 "median_ns", figure(core ? s->ns_median : s->sum.median),
			 "median_ci95", figure(s->sum.median_lo), figure(s->sum.median_hi),
			 "round_cv_pct", figure(round_cv_pct(r)),
			 "batches", (json_int_t)r->n, "repetitions", (json_int_t)r->nrounds,
			 "round_medians_ns", round_medians_json(r));
	if (core)
		json_object_set_new(j, "median_core_cycles", figure(s->sum.median));
	return j;
}

static json_t *cell_json(const struct compare_row *row, const struct cell *c,
			 const struct timens_bench *b, size_t i, bool core)
{
	const struct compare_diff *d = &row->diffs[1];

	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:[o, o], s:o, s:o, s:b, s:s, s:o}",
			 "name", c->name, "path", catalog_paths[c->path],
			 "host", side_json(&row->sides[0], &b->side[TB_HOST].res[i], core),
			 "timens", side_json(&row->sides[1], &b->side[TB_TIMENS].res[i],
					     core),
			 "diff_pct", figure(d->change_pct),
			 "diff_ci95_pct", figure(d->change_lo_pct), figure(d->change_hi_pct),
			 "p", figure(d->p), "p_adjusted", figure(d->p_adjusted),
			 "significant", d->significant, "verdict", d->verdict,
			 "ns_diff_pct", figure(core ? d->ns_change_pct : d->change_pct));
}

static int print_json(FILE *f, const struct compare_result *cr,
		      const struct timens_options *o, const struct timens_bench *b,
		      const struct stored_run *runs, const struct env_info *env,
		      unsigned done)
{
	json_t *cells = json_array(), *j;
	int rc;

	for (size_t i = 0; i < b->ncells; i++) {
		const struct compare_row *row = find_row(cr, &b->cells[i]);

		if (row && row->diffs[1].valid)
			json_array_append_new(cells, cell_json(row, &b->cells[i], b, i,
							       cr->metric == METRIC_CORE_CYCLES));
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:i, s:i, s:o, s:b,"
		      " s:{s:I, s:I}, s:{s:f, s:f}, s:o, s:o}",
		      "tool", "clockbench " CLOCKBENCH_VERSION, "command", "timens",
		      "started", runs[0].started, "status", runs[0].status,
		      "elapsed_s", runs[0].elapsed_s, "nested", env->in_time_namespace,
		      "repetitions", (int)done, "cpu", o->cpu,
		      "offsets", offsets_json(&b->off),
		      "significance_from_compare", true,
		      "runs", "host", (json_int_t)runs[TB_HOST].id,
		      "timens", (json_int_t)runs[TB_TIMENS].id,
		      "boundary_ns", "host", b->side[TB_HOST].boundary_ns,
		      "timens", b->side[TB_TIMENS].boundary_ns,
		      "environment", env_to_json(env), "cells", cells);
	json_object_set_new(j, "metric", json_string(compare_metric_name(cr->metric)));
	json_object_set_new(j, "quality", json_pack("{s:O, s:O}",
			    "host", runs[TB_HOST].quality, "timens", runs[TB_TIMENS].quality));
	rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	fputc('\n', f);
	json_decref(j);
	return rc;
}

static int report(const struct timens_options *o, const struct timens_bench *b,
		  struct stored_run *runs, const struct env_info *env,
		  unsigned done)
{
	struct compare_group groups[TB_SIDES];
	struct compare_options copts;
	struct compare_result cr;
	char err[256];
	int rc = 0;

	for (int s = 0; s < TB_SIDES; s++)
		groups[s] = (struct compare_group){
			.spec = (char *)o->label[s], .runs = &runs[s], .nruns = 1,
		};
	compare_options_default(&copts);
	if (compare_build(&cr, groups, TB_SIDES, &copts, err, sizeof(err)) != 0) {
		error_msg("cannot compare the sides: %s", err);
		return -1;
	}
	if (o->json) {
		rc = print_json(stdout, &cr, o, b, runs, env, done);
	} else {
		print_header(stdout, o, b, done, runs[0].elapsed_s,
			     streq(runs[0].status, "interrupted"));
		rc = compare_print(stdout, &cr, o->style, CFORMAT_TEXT);
		print_glance(stdout, &cr, b);
	}
	compare_free(&cr);
	if (fflush(stdout) != 0 || ferror(stdout) || rc != 0) {
		error_msg("cannot write the results: %m");
		return -1;
	}
	return 0;
}

/* ---- the command ---------------------------------------------------- */

struct timens_run {
	struct timens_bench bench;
	struct env_info env;
	struct stored_run runs[TB_SIDES];
	struct timespec started;
	double elapsed_s;
	unsigned done;
	bool interrupted;
};

static int measure(struct timens_options *o, struct timens_run *tr,
		   const struct cell *cells, size_t ncells)
{
	uint64_t start;
	int rc;

	if (timing_pin_cpu(o->cpu) != 0) {
		error_msg("cannot pin to CPU %d: %m", o->cpu);
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &tr->started);
	start = now_ns();
	install_stop_handlers();
	tbench_init(&tr->bench, cells, ncells, &o->cfg, &o->off, CYCLES_REQ_AUTO);
	rc = start_sides(&tr->bench);
	if (rc == 0)
		rc = run_repetitions(&tr->bench, o->repetitions, &tr->done);
	if (rc == 0) {
		char err[256];

		if (tbench_stop(&tr->bench, err, sizeof(err)) != 0)
			warn_msg("%s", err);
	}
	tr->elapsed_s = (double)(now_ns() - start) / 1e9;
	tr->interrupted = stop_signal != 0;
	return rc;
}

static int finish(struct timens_options *o, struct timens_run *tr)
{
	int rc = 0;

	tbench_summarize(&tr->bench);
	for (int s = 0; s < TB_SIDES; s++)
		build_run(&tr->runs[s], o, &tr->bench, (enum tb_side_id)s, &tr->env,
			  &tr->started, tr->elapsed_s, tr->interrupted);
	/* Saved first, so that the report names the runs' ids. */
	if (save_runs(tr->runs, &o->store) != 0)
		rc = 1;
	if (tr->done < 2) {
		error_msg("stopped after %u repetition%s: too few to compare",
			  tr->done, tr->done == 1 ? "" : "s");
		rc = 1;
	} else if (report(o, &tr->bench, tr->runs, &tr->env, tr->done) != 0) {
		rc = 1;
	}
	return tr->interrupted ? 128 + (int)stop_signal : rc;
}

int cmd_timens(int argc, char **argv)
{
	struct timens_options o;
	struct timens_run tr;
	struct catalog cat;
	struct cell *cells;
	size_t ncells;
	int rc;

	parse_timens_options(argc, argv, &o);
	catalog_build(&cat, &o.filter);
	if (o.list) {
		print_cell_list(&cat);
		catalog_free(&cat);
		return 0;
	}
	memset(&tr, 0, sizeof(tr));
	env_collect(&tr.env, cat.have_vdso ? &cat.vdso : NULL, cat.vdso_error, o.cpu);
	rc = check_can_run(&tr.env, o.allow_nested);
	cells = runnable_cells(&cat, &ncells);
	if (rc == 0 && ncells == 0) {
		error_msg("no cell can run (see 'clockbench timens --list')");
		rc = 1;
	}
	if (rc == 0)
		rc = measure(&o, &tr, cells, ncells) == 0 ? finish(&o, &tr) : 1;
	for (int s = 0; s < TB_SIDES; s++)
		stored_run_free(&tr.runs[s]);
	tbench_free(&tr.bench);
	env_free(&tr.env);
	free(cells);
	catalog_free(&cat);
	return rc;
}
