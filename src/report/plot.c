// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The chart kinds' table and what they share: which runs and cells they
 * draw, titles with kernel, host and labels, the grid of panels.
 */
#include "report/plot.h"

#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "report/plot-internal.h"
#include "results/compare-session.h"
#include "results/run-facts.h"

static const struct plot_kind_ops *const kinds[PLOT_NKINDS] = {
	[PLOT_CELLS] = &plot_cells_ops,
	[PLOT_DISTRIBUTION] = &plot_distribution_ops,
	[PLOT_ROUNDS] = &plot_rounds_ops,
	[PLOT_SCALE] = &plot_scale_ops,
	[PLOT_COMPARE] = &plot_compare_ops,
	[PLOT_HOTPLUG] = &plot_hotplug_ops,
	[PLOT_TIMENS] = &plot_timens_ops,
};

const char *const plot_kind_names[] = {
	"cells", "distribution", "rounds", "scale", "compare", "hotplug",
	"timens", NULL,
};

const char *plot_kind_caption(enum plot_kind kind)
{
	return kinds[kind]->caption;
}

bool plot_kind_fits(enum plot_kind kind, const struct plot_input *in,
		    struct strbuf *why)
{
	if (!plot_nruns(in)) {
		strbuf_adds(why, "no runs to draw");
		return false;
	}
	return kinds[kind]->fits(in, why);
}

int plot_add_chart(struct gp *gp, enum plot_kind kind,
		   const struct plot_input *in, const char *output,
		   enum gp_format format, struct strbuf *err)
{
	if (!plot_kind_fits(kind, in, err))
		return -1;
	return kinds[kind]->draw(gp, in, output, format, err);
}

/* A run's own picture: bench runs compared when there are several groups. */
enum plot_kind plot_default_kind(const struct plot_input *in)
{
	const struct stored_run *r = plot_run(in, 0);
	const json_t *mode = r && r->config ? json_object_get(r->config, "mode") : NULL;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!r)
		return PLOT_CELLS;
	if (streq(r->command, "scale"))
		return PLOT_SCALE;
	if (streq(r->command, "hotplug"))
		return PLOT_HOTPLUG;
	if (streq(json_string_value(mode), "timens") &&
	    plot_kind_fits(PLOT_TIMENS, in, &why))
		return PLOT_TIMENS;
	if (in->ngroups > 1)
		return PLOT_COMPARE;
	return streq(r->command, "exec") ? PLOT_DISTRIBUTION : PLOT_CELLS;
}

/* ---- the runs and cells ---------------------------------------------- */

size_t plot_nruns(const struct plot_input *in)
{
	size_t n = 0;

	for (size_t g = 0; g < in->ngroups; g++)
		n += in->groups[g].nruns;
	return n;
}

const struct stored_run *plot_run(const struct plot_input *in, size_t i)
{
	for (size_t g = 0; g < in->ngroups; g++) {
		if (i < in->groups[g].nruns)
			return &in->groups[g].runs[i];
		i -= in->groups[g].nruns;
	}
	return NULL;
}

bool plot_selected(const struct plot_input *in, const struct stored_cell *c)
{
	if (!c->values || !c->n || !streq(c->status, "ok"))
		return false;
	return compare_cell_matches(in->cells, c->name, c->path);
}

double *plot_sorted(const double *x, size_t n)
{
	double *copy = xmalloc((n ? n : 1) * sizeof(double));

	memcpy(copy, x, n * sizeof(double));
	stats_sort(copy, n);
	return copy;
}

void plot_summarize(const double *x, size_t n, struct summary *s)
{
	double *copy = plot_sorted(x, n);

	stats_summarize(copy, n, s);
	free(copy);
}

/* A run's own name: its label, else what it was and when ("bench of ..."). */
static void run_word(const struct stored_run *r, char *buf, size_t len)
{
	if (r->label && *r->label)
		snprintf(buf, len, "%s", r->label);
	else
		snprintf(buf, len, "%s of %s", r->command, r->started);
}

/* Whether a started before b: by start, then (the same second) by id. */
static bool started_before(const struct stored_run *a, const struct stored_run *b)
{
	int c = strcmp(a->started, b->started);

	return c < 0 || (c == 0 && a->id < b->id);
}

/* Whether plot_run(in, i) is a run that an earlier index already gave. */
static bool seen_before(const struct plot_input *in, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (plot_run(in, k)->id == plot_run(in, i)->id)
			return true;
	return false;
}

void plot_run_name(const struct plot_input *in, const struct stored_run *r,
		   char *buf, size_t len)
{
	char word[96], other[96];
	size_t n = 0, earlier = 0;

	run_word(r, word, sizeof(word));
	for (size_t i = 0; i < plot_nruns(in); i++) {
		const struct stored_run *o = plot_run(in, i);

		if (seen_before(in, i))
			continue;
		run_word(o, other, sizeof(other));
		if (!streq(word, other))
			continue;
		n++;
		earlier += started_before(o, r);
	}
	if (n > 1)
		snprintf(buf, len, "%s, run %zu of %zu", word, earlier + 1, n);
	else
		snprintf(buf, len, "%s", word);
}

void plot_cell_label(const char *name, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", name, *path ? " " : "", path);
}

double plot_floor10(double x)
{
	return x > 0 && isfinite(x) ? pow(10, floor(log10(x))) : 1;
}

/* Appends each distinct value of field once, comma-separated. */
static void distinct(const struct plot_input *in, size_t field,
		     struct strbuf *sb)
{
	size_t n = plot_nruns(in), count = 0;

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);
		const char *v = field == 0 ? r->kernel : field == 1 ? r->host : r->label;
		bool seen = false;

		if (!v || !*v)
			continue;
		for (size_t k = 0; k < i && !seen; k++) {
			const struct stored_run *o = plot_run(in, k);

			seen = streq(v, field == 0 ? o->kernel : field == 1 ? o->host :
				     o->label);
		}
		if (seen)
			continue;
		strbuf_addf(sb, "%s%s", count++ ? ", " : "", v);
	}
}

/*
 * " · EMULATED timings (qemu TCG)" in every picture of such runs: a
 * reader of the thread sees the chart, not the command that drew it.
 */
static void add_emulated(const struct plot_input *in, struct strbuf *sb)
{
	size_t n = plot_nruns(in), emulated = 0;

	for (size_t i = 0; i < n; i++)
		emulated += run_facts(plot_run(in, i))->emulated;
	if (!emulated)
		return;
	strbuf_addf(sb, " · EMULATED timings (qemu TCG%s)", emulated < n ? ", some runs" : "");
}

void plot_title_text(const struct plot_input *in, const char *what,
		     struct strbuf *sb)
{
	static const char *const fields[] = { "kernel", "host", "label" };
	size_t n = plot_nruns(in);
	const struct stored_run *first = plot_run(in, 0), *last = first;
	bool one_command = true;

	/* How many runs of what, and when: no id of this store. */
	for (size_t i = 1; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);

		one_command = one_command && streq(r->command, first->command);
		if (started_before(r, first))
			first = r;
		if (started_before(last, r))
			last = r;
	}
	strbuf_addf(sb, "%s\n%zu%s%s run%s, %s", what, n, one_command ? " " : "",
		    one_command ? first->command : "", n == 1 ? "" : "s", first->started);
	if (!streq(first->started, last->started))
		strbuf_addf(sb, " to %s", last->started);
	for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
		_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

		distinct(in, f, &v);
		if (v.len)
			strbuf_addf(sb, " · %s%s %s", fields[f],
				    strchr(v.buf, ',') ? "s" : "", v.buf);
	}
	add_emulated(in, sb);
}

/* ---- the picture ------------------------------------------------------ */

#define TITLE_PX 64	/* two lines of title */
#define KEY_PX 26	/* the key, one line under the title */
#define GAP_PX 104	/* between panel rows: x label, then the next title */
#define BOTTOM_PX 56

static void plot_style(struct gp *gp)
{
	gp_cmd(gp, "set grid xtics ytics lc rgb '#dddddd' lw 1 dt 1");
	gp_cmd(gp, "set border 3 lc rgb '#444444'");
	gp_cmd(gp, "set tics nomirror out scale 0.6");
	gp_cmd(gp, "set key noopaque samplen 2.5 spacing 1.1 font ',10'");
	gp_cmd(gp, "set style fill solid 1 border lc rgb '#333333'");
	gp_cmd(gp, "set title font ',12'");
}

void plot_begin(struct gp *gp, const struct plot_input *in, const char *output,
		enum gp_format format, const char *what, int rows, int cols,
		int panel_height, int left_px, int right_px)
{
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;
	int w = in->width ? in->width : 1200;
	int h = in->height ? in->height :
		TITLE_PX + rows * panel_height + (rows - 1) * GAP_PX + BOTTOM_PX;
	double hh = h, ww = w;

	gp_chart(gp, output, format, w, h);
	plot_title_text(in, what, &title);
	plot_style(gp);
	gp_cmd(gp, "cb_key_y = %.4f", 1 - (TITLE_PX + 2) / hh);
	gp_cmd(gp, "set multiplot layout %d,%d title %s font ',13' "
	       "margins %.4f,%.4f,%.4f,%.4f spacing %.4f,%.4f", rows, cols, title.buf,
	       left_px / ww, 1 - right_px / ww, BOTTOM_PX / hh,
	       1 - (TITLE_PX + KEY_PX + 40) / hh, 90 / ww, GAP_PX / hh);
}

void plot_key_at(struct gp *gp, double x)
{
	gp_cmd(gp, "set key at screen %.3f, screen cb_key_y center top "
	       "vertical maxrows 1 width 1 samplen 1.5 font ',10'", x);
}

void plot_key(struct gp *gp, bool first)
{
	if (first)
		plot_key_at(gp, 0.5);
	else
		gp_cmd(gp, "unset key");
}

void plot_end(struct gp *gp)
{
	gp_cmd(gp, "unset multiplot");
	gp_cmd(gp, "unset output");
}

void plot_ytics(struct gp *gp, const char *const *labels, size_t n)
{
	struct gp_clause tics = GP_CLAUSE_INIT;

	gp_addf(&tics, "set ytics (");
	for (size_t i = 0; i < n; i++)
		gp_addf(&tics, i ? ", \\\n  %s %zu" : "%s %zu", labels[i], i);
	gp_addf(&tics, ")");
	gp_cmd_clause(gp, &tics);
	gp_cmd(gp, "set yrange [%f:-0.6]", n - 0.4);
}

void plot_panel_title(struct gp *gp, const char *title)
{
	gp_cmd(gp, "set title %s", title);
}

/* ---- core cycles and the speed of each round ------------------------- */

/* Per-sample core cycles (bench, timens, ab since schema 2), or NULL. */
const double *plot_core_cycles(const struct stored_cell *c)
{
	return c->core_cycles;
}

/* The per-round quality record ({"rounds": [{"core_ghz": ..}, ..]}). */
const json_t *plot_run_quality(const struct stored_run *r)
{
	return r->quality;
}

bool plot_round_speeds(const json_t *quality, double *ghz, unsigned n)
{
	const json_t *rounds = json_object_get(quality, "rounds"), *e;
	bool any = false;
	size_t i;

	for (unsigned k = 0; k < n; k++)
		ghz[k] = NAN;
	json_array_foreach(rounds, i, e) {
		const json_t *k = json_object_get(e, "round");
		const json_t *v = json_object_get(e, "core_ghz");
		json_int_t round = json_is_integer(k) ? json_integer_value(k) :
				   (json_int_t)i;

		if (round < 0 || round >= (json_int_t)n || !json_is_number(v) ||
		    !(json_number_value(v) > 0))
			continue;
		ghz[round] = json_number_value(v);
		any = true;
	}
	return any;
}
