/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The charts of stored runs, as gnuplot scripts (chart/gnuplot.h). Each
 * kind picks what it needs from the runs it is given and says why when
 * they cannot give it:
 *
 *   cells         ns and cycles per call, one bar per path, 95 % CI whiskers,
 *                 log axis (bench, timens)
 *   distribution  per cell, a histogram of the samples with the median,
 *                 its CI and the tail above p99 (any run)
 *   rounds        per cell, each round's median against the cell's, in time
 *                 order, with the core's speed when the run kept it (any
 *                 run measured in rounds or repetitions)
 *   scale         seconds against threads, one line per run, CI bands (scale)
 *   compare       a forest plot: change with its CI per cell, by verdict,
 *                 a panel per OTHER group (two or more groups)
 *   hotplug       offline and online latency per cycle, the hotplug states
 *                 as stacked bars (hotplug)
 *   timens        host against namespace per clock with CIs, and the
 *                 change (a pair of timens runs)
 */
#ifndef CLOCKBENCH_PLOT_H
#define CLOCKBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "chart/gnuplot.h"

struct compare_group;
struct stored_run;
struct compare_session;

enum plot_kind {
	PLOT_CELLS,
	PLOT_DISTRIBUTION,
	PLOT_ROUNDS,
	PLOT_SCALE,
	PLOT_COMPARE,
	PLOT_HOTPLUG,
	PLOT_TIMENS,
	PLOT_NKINDS,
};

/* The kinds' names in enum order, NULL-terminated (an OPT_CHOICE list). */
extern const char *const plot_kind_names[];

struct plot_input {
	/* The runs, grouped as compare groups them: one group per spec. */
	struct compare_group *groups;
	size_t ngroups;
	/* Only cells whose "name" or "name/path" matches (fnmatch), or NULL. */
	const char *cells;
	/* Picture size in pixels; 0: what the kind needs for its panels. */
	int width, height;
	/*
	 * The door every comparison of a chart, the report and its mail goes
	 * through, so that they judge as compare does: the session the
	 * groups were read into (results/compare-session.h). NULL: compare's
	 * options, no history.
	 */
	struct compare_session *session;
};

/*
 * Whether kind can be drawn from in; when not, why says so in a phrase
 * ("run 5 is a scale run: kind hotplug needs a hotplug run").
 */
bool plot_kind_fits(enum plot_kind kind, const struct plot_input *in,
		    struct strbuf *why);

/* What `clockbench plot RUN...` draws without --kind. */
enum plot_kind plot_default_kind(const struct plot_input *in);

/*
 * Add kind's chart to gp, drawn into output (a file name in the
 * directory gp_render() writes to). 0, or -1 with err (the kind does not
 * fit, or compare_build() refused the runs).
 */
int plot_add_chart(struct gp *gp, enum plot_kind kind,
		   const struct plot_input *in, const char *output,
		   enum gp_format format, struct strbuf *err);

/* "cells", the title of kind's chart for people: "ns per call". */
const char *plot_kind_caption(enum plot_kind kind);

/*
 * The core's speed in each round of run r, as its quality record kept it,
 * into ghz[0..n) (NAN where unknown). false when no round has a speed.
 */
bool plot_round_speeds(const struct stored_run *r, double *ghz, unsigned n);

#endif
