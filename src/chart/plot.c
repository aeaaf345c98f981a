// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The chart kinds' table and what they share: which runs and cells they
 * draw, titles with kernel, host and labels, the grid of panels.
 */
#include "chart/plot.h"

#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "chart/plot-internal.h"
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
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!r)
		return PLOT_CELLS;
	if (streq(r->command, "scale"))
		return PLOT_SCALE;
	if (streq(r->command, "hotplug"))
		return PLOT_HOTPLUG;
	if (streq(run_facts(r)->mode, "timens") &&
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

bool plot_has_cell(const struct plot_input *in, plot_cell_test *takes)
{
	for (size_t i = 0; i < plot_nruns(in); i++) {
		const struct stored_run *r = plot_run(in, i);

		for (size_t k = 0; k < r->ncells; k++)
			if (takes(in, r, &r->cells[k]))
				return true;
	}
	return false;
}

/*
 * Labels past PLOT_LABEL_MAX characters are drawn as letters, A, B, ...,
 * each named in full in the chart's title (plot_title_text()), as compare's
 * summary does: a panel title, a key or a tic cannot hold two labels of 60
 * characters, and a label cut short may read as another.
 */
#define PLOT_LABEL_MAX 24

/* Whether run i of in is the first with its label (or a label at all). */
static bool first_of_label(const struct plot_input *in, size_t i)
{
	const char *label = plot_run(in, i)->label;

	if (!label || !*label)
		return false;
	for (size_t k = 0; k < i; k++)
		if (streq(plot_run(in, k)->label, label))
			return false;
	return true;
}

bool plot_lettered(const struct plot_input *in)
{
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++)
		if (first_of_label(in, i) && strlen(plot_run(in, i)->label) > PLOT_LABEL_MAX)
			return true;
	return false;
}

/* "A" .. "Z", then "AA", "AB", ...: the letters of the k-th label (0-based). */
static void letters(size_t k, char *buf, size_t len)
{
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = (char)('A' + k % 26);
		k = k / 26;
	} while (k-- > 0 && n < sizeof(tmp));
	for (size_t i = 0; i < n && i + 1 < len; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n < len ? n : len - 1] = '\0';
}

void plot_label_alias(const struct plot_input *in, const char *label, char *buf,
		      size_t len)
{
	size_t n = plot_nruns(in), rank = 0;

	if (plot_lettered(in))
		for (size_t i = 0; i < n; i++) {
			if (!first_of_label(in, i))
				continue;
			if (streq(plot_run(in, i)->label, label)) {
				letters(rank, buf, len);
				return;
			}
			rank++;
		}
	snprintf(buf, len, "%s", label);
}

/*
 * A run's own name: its label (or its letter), else what it was and when
 * ("bench of ...").
 */
static void run_word(const struct plot_input *in, const struct stored_run *r,
		     bool alias, char *buf, size_t len)
{
	if (r->label && *r->label && alias)
		plot_label_alias(in, r->label, buf, len);
	else if (r->label && *r->label)
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

/* How many distinct runs of in share r's name; how many of them started before r. */
static size_t namesakes(const struct plot_input *in, const struct stored_run *r,
			size_t *earlier)
{
	char word[96], other[96];
	size_t n = 0;

	*earlier = 0;
	run_word(in, r, false, word, sizeof(word));
	for (size_t i = 0; i < plot_nruns(in); i++) {
		const struct stored_run *o = plot_run(in, i);

		if (seen_before(in, i))
			continue;
		run_word(in, o, false, other, sizeof(other));
		if (!streq(word, other))
			continue;
		n++;
		*earlier += started_before(o, r);
	}
	return n;
}

static void run_name(const struct plot_input *in, const struct stored_run *r,
		     bool alias, char *buf, size_t len)
{
	char word[96];
	size_t earlier, n = namesakes(in, r, &earlier);

	run_word(in, r, alias, word, sizeof(word));
	if (n > 1)
		snprintf(buf, len, "%s, run %zu of %zu", word, earlier + 1, n);
	else
		snprintf(buf, len, "%s", word);
}

void plot_run_name(const struct plot_input *in, const struct stored_run *r,
		   char *buf, size_t len)
{
	run_name(in, r, false, buf, len);
}

void plot_chart_name(const struct plot_input *in, const struct stored_run *r,
		     char *buf, size_t len)
{
	run_name(in, r, true, buf, len);
}

/*
 * A series is a label (every run with it: the boots of one kernel are one
 * thing to compare, so one colour), or an unlabelled run on its own.
 */
static bool same_series(const struct stored_run *a, const struct stored_run *b)
{
	if (a->label && *a->label)
		return streq(a->label, b->label);
	return a->id == b->id;
}

size_t plot_series(const struct plot_input *in, const struct stored_run *r)
{
	size_t n = plot_nruns(in), rank = 0;

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *o = plot_run(in, i);
		bool new_series = true;

		for (size_t k = 0; k < i && new_series; k++)
			new_series = !same_series(plot_run(in, k), o);
		if (!new_series)
			continue;
		if (same_series(o, r))
			return rank;
		rank++;
	}
	return rank;
}

bool plot_series_first(const struct plot_input *in, const struct stored_run *r)
{
	size_t n = plot_nruns(in);

	for (size_t i = 0; i < n; i++)
		if (same_series(plot_run(in, i), r))
			return plot_run(in, i)->id == r->id;
	return false;
}

void plot_series_name(const struct plot_input *in, const struct stored_run *r,
		      char *buf, size_t len)
{
	size_t earlier, n = namesakes(in, r, &earlier);
	char word[96];

	if (!(r->label && *r->label) || n < 2) {
		plot_chart_name(in, r, buf, len);
		return;
	}
	run_word(in, r, true, word, sizeof(word));
	snprintf(buf, len, "%s (%zu runs)", word, n);
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
		emulated += run_facts(plot_run(in, i))->boot.emulated;
	if (!emulated)
		return;
	strbuf_addf(sb, " · EMULATED timings (qemu TCG%s)", emulated < n ? ", some runs" : "");
}

/* The title's lines; labels: whether the facts name the labels. */
static void title_text(const struct plot_input *in, const char *what, bool labels,
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
	for (size_t f = 0; f < ARRAY_SIZE(fields) - !labels; f++) {
		_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

		distinct(in, f, &v);
		if (v.len)
			strbuf_addf(sb, " · %s%s %s", fields[f],
				    strchr(v.buf, ',') ? "s" : "", v.buf);
	}
	add_emulated(in, sb);
}

void plot_title_text(const struct plot_input *in, const char *what,
		     struct strbuf *sb)
{
	title_text(in, what, true, sb);
}

/* "A: the label in full (3 runs)", a line per lettered label. */
static void label_legend(const struct plot_input *in, struct strbuf *sb)
{
	size_t n = plot_nruns(in);
	char alias[16];

	for (size_t i = 0; i < n; i++) {
		const struct stored_run *r = plot_run(in, i);
		size_t earlier, count;

		if (!first_of_label(in, i))
			continue;
		count = namesakes(in, r, &earlier);
		plot_label_alias(in, r->label, alias, sizeof(alias));
		strbuf_addf(sb, "\n%s: %s", alias, r->label);
		if (count > 1)
			strbuf_addf(sb, " (%zu runs)", count);
	}
}

/* ---- the picture ------------------------------------------------------ */

/*
 * Text sizes in pixels, for the layout to make room: gnuplot places text
 * but never wraps or moves it, so a title wider than the picture is cut
 * and one taller than its margin runs into the panel. A character of
 * gnuplot's sans (DejaVu Sans) is about 0.64 em wide on average (measured
 * in clockbench's PNGs: 8.7 px at 13 points); 0.7 keeps an estimate that
 * fits on the safe side.
 */
#define CHAR_EM 0.7
#define TITLE_PT 13	/* the chart's title */
#define PANEL_PT 12	/* a panel's title */
#define TITLE_LINE_PX 20
#define PANEL_LINE_PX 19
#define KEY_PX 26	/* the key, one line under the title */
#define GAP_PX 104	/* between panel rows: x label, then the next title */
#define BOTTOM_PX 56
#define SPACING_PX 90	/* between panel columns */

double plot_text_px(size_t chars, int points)
{
	return (double)chars * CHAR_EM * points;
}

size_t plot_text_fits(double px, int points)
{
	double chars = px / (CHAR_EM * points);

	return chars > 8 ? (size_t)chars : 8;
}

/* The characters of s[0..n): its UTF-8 sequences ("·" is one). */
static size_t chars_of(const char *s, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += ((unsigned char)s[i] & 0xC0) != 0x80;
	return count;
}

/*
 * One word of text at s: up to the next space, and a lone "·" (the
 * separator of the title's facts) goes with the word after it, so that a
 * line never ends in one.
 */
static size_t word_len(const char *s)
{
	size_t n = strcspn(s, " \n");

	if (n == strlen("·") && !strncmp(s, "·", n) && s[n] == ' ')
		n += 1 + strcspn(s + n + 1, " \n");
	return n;
}

size_t plot_wrap(const char *text, size_t width, struct strbuf *out)
{
	size_t lines = 1, col = 0;
	const char *s = text;

	while (*s) {
		size_t n = word_len(s), cols = chars_of(s, n);

		if (col && col + 1 + cols > width) {
			strbuf_addch(out, '\n');
			lines++;
			col = 0;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, s, n);
		col += cols;
		s += n;
		if (*s == '\n') {
			strbuf_addch(out, '\n');
			lines++;
			col = 0;
		}
		s += strspn(s, *s == '\n' ? "\n" : " ");
	}
	return lines;
}

/* The title, wrapped to the picture, then the letters' legend. */
static size_t chart_title(const struct plot_input *in, const char *what, int width,
			  struct strbuf *sb)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	bool lettered = plot_lettered(in);
	size_t lines;

	title_text(in, what, !lettered, &text);
	if (lettered)
		label_legend(in, &text);
	lines = plot_wrap(text.buf, plot_text_fits(width - 40, TITLE_PT), sb);
	return lines;
}

static void plot_style(struct gp *gp)
{
	gp_cmd(gp, "set grid xtics ytics lc rgb '#dddddd' lw 1 dt 1");
	gp_cmd(gp, "set border 3 lc rgb '#444444'");
	gp_cmd(gp, "set tics nomirror out scale 0.6");
	gp_cmd(gp, "set key noopaque samplen 2.5 spacing 1.1 font ',10'");
	gp_cmd(gp, "set style fill solid 1 border lc rgb '#333333'");
	gp_cmd(gp, "set title font ',%d'", PANEL_PT);
}

/*
 * Room for a panel's title of two lines, or of grid->title_lines
 * (plot_panel_title() wraps it to the panel): the first row's above the
 * panels, the others' in the gap.
 */
static int panel_title_lines(const struct plot_grid *grid)
{
	return grid->title_lines > 2 ? grid->title_lines : 2;
}

void plot_grid_measure(const struct plot_input *in, struct plot_grid *grid)
{
	grid->width = in->width ? in->width : 1200;
	grid->panel_px = (grid->width - grid->left_px - grid->right_px -
			  (grid->cols - 1) * SPACING_PX) / (double)grid->cols;
}

void plot_begin(struct gp *gp, const struct plot_input *in, const char *output,
		enum gp_format format, const char *what, struct plot_grid *grid)
{
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;
	int more = PANEL_LINE_PX * (panel_title_lines(grid) - 1);
	int w, h, title_px, top_px;
	int gap_px = GAP_PX + more;
	double hh, ww;

	plot_grid_measure(in, grid);
	w = grid->width;
	ww = w;
	title_px = 24 + TITLE_LINE_PX * (int)chart_title(in, what, w, &title);
	top_px = title_px + KEY_PX + 40 + more;
	h = in->height ? in->height : top_px + grid->rows * grid->panel_height +
		(grid->rows - 1) * gap_px + BOTTOM_PX;
	hh = h;
	grid->tic_pt = format == GP_SVG ? 12 : 10;	/* gp_chart()'s fonts */
	gp_chart(gp, output, format, w, h);
	plot_style(gp);
	gp_cmd(gp, "cb_key_y = %.4f", 1 - (title_px + 2) / hh);
	gp_cmd(gp, "set multiplot layout %d,%d title %s font ',%d' "
	       "margins %.4f,%.4f,%.4f,%.4f spacing %.4f,%.4f", grid->rows, grid->cols,
	       title.buf, TITLE_PT, grid->left_px / ww, 1 - grid->right_px / ww,
	       BOTTOM_PX / hh, 1 - top_px / hh, SPACING_PX / ww, gap_px / hh);
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

/*
 * Wrapped to the panel and most of the space beside it: a title centred
 * on its panel never reaches its neighbour's.
 */
size_t plot_panel_title_wrap(const struct plot_grid *grid, const char *title,
			     struct strbuf *out)
{
	return plot_wrap(title, plot_text_fits(grid->panel_px + SPACING_PX * 0.6, PANEL_PT),
			 out);
}

void plot_panel_title(struct gp *gp, const struct plot_grid *grid, const char *title)
{
	_cleanup_strbuf_ struct strbuf wrapped = STRBUF_INIT;

	plot_panel_title_wrap(grid, title, &wrapped);
	gp_cmd(gp, "set title %s", wrapped.buf);
}

/* ---- core cycles and the speed of each round ------------------------- */

/* Per-sample core cycles (bench, timens, ab since schema 2), or NULL. */
const double *plot_core_cycles(const struct stored_cell *c)
{
	return c->core_cycles;
}

bool plot_round_speeds(const struct stored_run *r, double *ghz, unsigned n)
{
	const struct run_facts *f = run_facts(r);
	bool any = false;

	for (unsigned k = 0; k < n; k++)
		ghz[k] = NAN;
	for (size_t i = 0; i < f->nround_speeds; i++) {
		const struct run_round_speed *s = &f->round_speeds[i];

		if (s->round >= (int64_t)n)
			continue;
		ghz[s->round] = s->core_ghz;
		any = true;
	}
	return any;
}
