// SPDX-License-Identifier: GPL-2.0-or-later
#include "document/html.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basic/error.h"
#include "basic/figure.h"
#include "basic/json.h"
#include "basic/stats.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "config.h"
#include "report/compare-format.h"
#include "document/mail.h"
#include "chart/plot-internal.h"

void html_escape(struct strbuf *sb, const char *s)
{
	_cleanup_strbuf_ struct strbuf shown = STRBUF_INIT;

	/*
	 * Control characters as text too, but for the line breaks of a
	 * <pre> block: a report is also read as source, in a terminal.
	 */
	for (const char *nl; (nl = strchr(s, '\n')); s = nl + 1) {
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

		strbuf_add(&line, s, (size_t)(nl - s));
		strbuf_add_text(&shown, line.buf, TEXT_UNCAPPED);
		strbuf_addch(&shown, '\n');
	}
	strbuf_add_text(&shown, s, TEXT_UNCAPPED);
	for (s = shown.buf; *s; s++)
		switch (*s) {
		case '&': strbuf_adds(sb, "&amp;"); break;
		case '<': strbuf_adds(sb, "&lt;"); break;
		case '>': strbuf_adds(sb, "&gt;"); break;
		case '"': strbuf_adds(sb, "&quot;"); break;
		case '\'': strbuf_adds(sb, "&#39;"); break;
		default: strbuf_addch(sb, *s);
		}
}

/* ---- inline SVG ---------------------------------------------------------- */

/* What a browser takes for space in a tag; the characters of a name. */
#define SVG_SPACE " \t\r\n\f"
#define SVG_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/*
 * What gnuplot's SVG terminal draws with. An SVG is code in a browser: a
 * <script>, an on* handler, <foreignObject>, <a href="javascript:..">, a
 * <set>/<animate> that rewrites an href, or an external <use>/<image>
 * would run or fetch something. Only these elements, and no handler or
 * reference outside the document, pass; anything else means the SVG is not
 * what our script asked gnuplot for (another terminal, `mouse`, `jsdir`),
 * and the chart is left out rather than repaired: a sanitiser that strips
 * has to parse as the browser does, a check only has to refuse what it
 * does not know.
 */
static const char *const svg_elements[] = {
	"svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse",
	"line", "polyline", "polygon", "text", "tspan", "use", "symbol", "clippath",
	"pattern", "lineargradient", "radialgradient", "stop", "marker", "filter",
	"feflood", "fecomposite", "feoffset", "fegaussianblur", "femerge",
	"femergenode", "feblend",
};

static bool svg_element_known(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(svg_elements); i++)
		if (strlen(svg_elements[i]) == len && strncasecmp(name, svg_elements[i], len) == 0)
			return true;
	return false;
}

/*
 * An attribute that can neither run nor fetch: no on* handler, an href
 * only to a #fragment, url() only of a #fragment, and no entity or
 * backslash escape that could spell either past this check.
 */
static bool svg_attribute_inert(const char *name, size_t nlen, const char *value,
				size_t vlen, struct strbuf *why)
{
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	strbuf_add(&v, value, vlen);
	for (char *c = v.buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (nlen > 2 && strncasecmp(name, "on", 2) == 0)
		strbuf_addf(why, "an event handler (%.*s)", (int)nlen, name);
	else if (((nlen == 4 && strncasecmp(name, "href", 4) == 0) ||
		  (nlen > 5 && strncasecmp(name + nlen - 5, ":href", 5) == 0)) && *v.buf != '#')
		strbuf_addf(why, "a reference outside the chart (%.*s)", (int)nlen, name);
	else if (strpbrk(v.buf, "&\\"))
		strbuf_addf(why, "an escape in attribute %.*s", (int)nlen, name);
	else if (strstr(v.buf, "javascript:") || strstr(v.buf, "@import") ||
		 strstr(v.buf, "expression("))
		strbuf_addf(why, "script in attribute %.*s", (int)nlen, name);
	else
		for (const char *u = strstr(v.buf, "url("); u; u = strstr(u + 1, "url("))
			if (u[4 + strspn(u + 4, SVG_SPACE "'\"")] != '#') {
				strbuf_addf(why, "a reference outside the chart (%.*s)",
					    (int)nlen, name);
				break;
			}
	return why->len == 0;
}

/*
 * The attributes of the tag at p (just past its name), up to its '>'.
 * Names only of letters, digits, ':' and '-' (what gnuplot writes), each
 * with a quoted value: nothing a browser could read differently.
 */
static const char *svg_attributes(const char *p, struct strbuf *why)
{
	for (;;) {
		const char *name, *value;
		size_t nlen;
		char quote;

		p += strspn(p, SVG_SPACE "/");
		if (*p == '>')
			return p + 1;
		name = p;
		nlen = strspn(p, SVG_NAME_CHARS ":-");
		/* gnuplot writes fill = 'x': spaces around the '=' too. */
		p += nlen + strspn(p + nlen, SVG_SPACE);
		if (nlen && *p == '=')
			p += 1 + strspn(p + 1, SVG_SPACE);
		else
			nlen = 0;
		if (!nlen || (*p != '"' && *p != '\'')) {
			strbuf_adds(why, *p ? "an attribute gnuplot does not write" :
				    "a tag left open");
			return NULL;
		}
		quote = *p;
		value = p + 1;
		p = strchr(value, quote);
		if (!p) {
			strbuf_adds(why, "an attribute value left open");
			return NULL;
		}
		if (!svg_attribute_inert(name, nlen, value, (size_t)(p - value), why))
			return NULL;
		p++;
	}
}

bool html_svg_inert(const char *svg, struct strbuf *why)
{
	/*
	 * No comment either: gnuplot writes none, and a browser ends one at
	 * <!--> or --!> where a simple scan would read on.
	 */
	for (const char *p = svg; (p = strchr(p, '<'));) {
		size_t len;

		p += 1 + (p[1] == '/');
		len = strspn(p, SVG_NAME_CHARS);
		if (!len || !svg_element_known(p, len)) {
			strbuf_addf(why, "an element gnuplot does not draw with (<%.*s)",
				    (int)(len ? len : 1), p);
			return false;
		}
		if (!(p = svg_attributes(p + len, why)))
			return false;
	}
	return true;
}

/* What in gnuplot's SVG names an id or refers to one. */
static const char *const id_marks[] = {
	" id='", " id=\"", "\tid='", "\tid=\"", "\nid='", "\nid=\"",
	"href='#", "href=\"#", "url(#",
};

static size_t id_mark(const char *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(id_marks); i++)
		if (strncmp(p, id_marks[i], strlen(id_marks[i])) == 0)
			return strlen(id_marks[i]);
	return 0;
}

bool html_inline_svg(struct strbuf *out, const char *svg, const char *prefix,
		     const char *title, struct strbuf *why)
{
	const char *p = strstr(svg, "<svg");
	bool titled = false;

	if (!p) {
		strbuf_adds(why, "no <svg> element");
		return false;
	}
	if (!html_svg_inert(p, why))
		return false;
	while (*p) {
		size_t m = id_mark(p);

		if (m) {
			strbuf_add(out, p, m);
			strbuf_addf(out, "%s-", prefix);
			p += m;
		} else if (!titled && strncmp(p, "<title>", 7) == 0 && strstr(p, "</title>")) {
			strbuf_adds(out, "<title>");
			html_escape(out, title);
			p = strstr(p, "</title>");
			titled = true;
		} else {
			strbuf_addch(out, *p++);
		}
	}
	return true;
}

/* ---- pieces --------------------------------------------------------------- */

static const char style[] =
	":root{color-scheme:light}"
	"body{margin:0;color:#111;background:#fff;font:15px/1.45 system-ui,-apple-system,"
	"'Segoe UI',Roboto,'DejaVu Sans',sans-serif}"
	"main{max-width:75rem;margin:0 auto;padding:.75rem}"
	"h1{font-size:1.35rem;margin:.5rem 0}"
	"h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #bbb}"
	"h3{font-size:1rem;margin:1.2rem 0 .4rem}"
	"p,li{max-width:48rem}"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}"
	"table{border-collapse:collapse;font-size:.82rem;font-variant-numeric:tabular-nums}"
	"th,td{padding:.15rem .45rem;border-bottom:1px solid #e3e3e3;text-align:right;"
	"white-space:nowrap;vertical-align:top}"
	"th{background:#f2f2f2}"
	".l{text-align:left}"
	".env td{white-space:normal;word-break:break-word;min-width:6rem}"
	".v-worse{background:#fbe0d0;font-weight:bold}"
	".v-better{background:#d3e6f3;font-weight:bold}"
	".v-noisy{background:#fdf0d2}"
	".v-few{background:#f3e3ee}"
	".warn{border-left:4px solid #D55E00;padding:.3rem .6rem;background:#fdf3ec}"
	".finding{font-size:1.05rem;max-width:60rem}"
	".warning{max-width:60rem;border-left:4px solid #b45309;padding-left:.6rem}"
	"pre{font-size:.8rem;overflow-x:auto;background:#f7f7f7;padding:.5rem;"
	"border:1px solid #e3e3e3}"
	"pre .note{white-space:pre-wrap}"
	"figure{margin:1rem 0}"
	"figure .scroll svg{display:block;width:100%;min-width:36rem;height:auto}"
	"figcaption{font-size:.85rem;color:#333}"
	"nav{display:flex;flex-wrap:wrap;gap:.2rem .8rem}"
	"@media print{main{max-width:none;padding:0}.scroll{overflow:visible}"
	"figure,tr{break-inside:avoid}h2,h3{break-after:avoid}nav{display:none}"
	"figure .scroll svg{min-width:0}a{color:inherit}}";

static void head(struct strbuf *out, const char *title)
{
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    /* Belt and braces with the SVG check: nothing may run or load. */
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"" HTML_CSP "\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"clockbench " CLOCKBENCH_VERSION "\">\n"
		    "<title>");
	html_escape(out, title);
	strbuf_addf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n", style);
}

static void section(struct strbuf *out, const char *id, const char *title)
{
	strbuf_addf(out, "<section id=\"%s\">\n<h2>", id);
	html_escape(out, title);
	strbuf_adds(out, "</h2>\n");
}

static void cell_text(struct strbuf *out, const char *tag, const char *cls,
		      const char *text)
{
	strbuf_addf(out, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "",
		    cls ? "\"" : "");
	html_escape(out, text);
	strbuf_addf(out, "</%s>", tag);
}

static void cell_figure(struct strbuf *out, int decimals, double v)
{
	if (isfinite(v))
		strbuf_addf(out, "<td>%.*f</td>", decimals, v);
	else
		strbuf_adds(out, "<td>-</td>");
}

static void header_row(struct strbuf *out, const char *const *names, size_t n)
{
	strbuf_adds(out, "<thead><tr>");
	for (size_t i = 0; i < n; i++)
		cell_text(out, "th", i < 2 ? "l" : NULL, names[i]);
	strbuf_adds(out, "</tr></thead>\n<tbody>\n");
}

/* ---- the runs, as show prints them ------------------------------------------ */

static void run_stats_row(struct strbuf *out, const struct stored_cell *c)
{
	struct summary s, cy;

	strbuf_adds(out, "<tr>");
	cell_text(out, "td", "l", c->name);
	cell_text(out, "td", "l", c->path);
	if (!c->values || !c->n) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s%s%s", c->status, *c->reason ? ": " : "", c->reason);
		strbuf_adds(out, "<td class=\"l\" colspan=\"11\">");
		html_escape(out, why.buf);
		strbuf_adds(out, "</td></tr>\n");
		return;
	}
	stats_summarize_copy(c->values, c->n, &s);
	cell_text(out, "td", "l", c->unit);
	cell_figure(out, 2, s.median);
	cell_figure(out, 2, s.median_lo);
	cell_figure(out, 2, s.median_hi);
	cell_figure(out, 2, s.min);
	cell_figure(out, 2, s.mean);
	cell_figure(out, 1, s.cv_pct);
	cell_figure(out, 2, s.p99);
	if (c->cycles) {
		stats_summarize_copy(c->cycles, c->n, &cy);
		cell_figure(out, 1, cy.median);
	} else {
		strbuf_adds(out, "<td>-</td>");
	}
	strbuf_addf(out, "<td>%zu</td><td>%zu</td></tr>\n", s.n, s.outliers);
}

/* The command line that made r, as it recorded it (or rebuilt, and said so). */
static void run_command(struct strbuf *out, const struct stored_run *r)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	int rc = mail_run_command(r, &line);

	if (rc < 0) {
		strbuf_adds(out, "<p>Its command line cannot be reproduced safely (it holds "
			    "control or invisible characters, or was cut).</p>\n");
		return;
	}
	strbuf_adds(out, rc == 0 ? "<p>Made by:</p>\n<pre>" :
		    "<p>Made by (rebuilt from the run: it did not record its command "
		    "line):</p>\n<pre>");
	html_escape(out, line.buf);
	strbuf_adds(out, "</pre>\n");
}

static void run_table(struct strbuf *out, const struct plot_input *in,
		      const struct stored_run *r)
{
	static const char *const cols[] = {
		"name", "path", "unit", "median", "ci95-lo", "ci95-hi", "min", "mean",
		"sd%", "p99", "cycles", "n", "out",
	};
	char name[96];

	plot_run_name(in, r, name, sizeof(name));
	strbuf_adds(out, "<h3>");
	html_escape(out, name);
	strbuf_adds(out, ": ");
	html_escape(out, r->command);
	strbuf_adds(out, ", ");
	html_escape(out, r->started);
	strbuf_addf(out, ", %.1f s, ", r->elapsed_s);
	html_escape(out, r->status);
	strbuf_adds(out, "</h3>\n<p>uuid ");
	html_escape(out, r->uuid);
	strbuf_adds(out, "; median over n samples with its 95 % CI, sd% of the mean, "
		    "out: outliers</p>\n");
	run_command(out, r);
	strbuf_adds(out, "<div class=\"scroll\"><table>\n");
	header_row(out, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < r->ncells; i++)
		run_stats_row(out, &r->cells[i]);
	strbuf_adds(out, "</tbody></table></div>\n");
}

/* ---- the environment -------------------------------------------------------- */

/* "key: value" pairs of a JSON object, nested keys joined with dots. */
static void flatten(const char *prefix, const json_t *v, json_t *into)
{
	const char *k;
	json_t *e;
	char key[256];

	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, e) {
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			flatten(key, e, into);
		}
		return;
	}
	if (json_is_string(v))
		json_object_set_new(into, prefix, json_string(json_string_value(v)));
	else {
		char *text = json_encode(v, JSON_ENCODE_ANY | JSON_COMPACT);

		json_object_set_new(into, prefix, json_string(text ? text : "?"));
		free(text);
	}
}

/* One row: the key, then each run's value, merged where they agree. */
static void env_row(struct strbuf *out, const char *key, json_t *const *flat,
		    size_t n)
{
	const char *first = json_string_value(json_object_get(flat[0], key));
	bool same = true;

	for (size_t i = 1; i < n; i++)
		same = same && streq(first, json_string_value(json_object_get(flat[i], key)));
	strbuf_adds(out, "<tr>");
	cell_text(out, "th", "l", key);
	if (same && first) {
		strbuf_addf(out, "<td class=\"l\" colspan=\"%zu\">", n);
		html_escape(out, first);
		strbuf_adds(out, "</td>");
	} else {
		for (size_t i = 0; i < n; i++) {
			const char *v = json_string_value(json_object_get(flat[i], key));

			cell_text(out, "td", "l", v ? v : "-");
		}
	}
	strbuf_adds(out, "</tr>\n");
}

#define ENV_RUNS 8	/* columns of the environment table */

static void environment(struct strbuf *out, const struct plot_input *in)
{
	size_t n = plot_nruns(in) < ENV_RUNS ? plot_nruns(in) : ENV_RUNS;
	json_t *flat[ENV_RUNS], *keys = json_object();
	const char *k;
	json_t *v;
	char name[96];

	section(out, "environment", "Environment");
	strbuf_adds(out, "<div class=\"scroll\"><table class=\"env\">\n<thead><tr><th>key</th>");
	for (size_t i = 0; i < n; i++) {
		flat[i] = json_object();
		flatten("", plot_run(in, i)->env, flat[i]);
		json_object_update(keys, flat[i]);
		plot_run_name(in, plot_run(in, i), name, sizeof(name));
		cell_text(out, "th", "l", name);
	}
	strbuf_adds(out, "</tr></thead>\n<tbody>\n");
	json_object_foreach(keys, k, v)
		env_row(out, k, flat, n);
	strbuf_adds(out, "</tbody></table></div>\n");
	if (plot_nruns(in) > n)
		strbuf_addf(out, "<p>The first %zu of %zu runs.</p>\n", n, plot_nruns(in));
	strbuf_adds(out, "</section>\n");
	for (size_t i = 0; i < n; i++)
		json_decref(flat[i]);
	json_decref(keys);
}

/* ---- the comparison, as compare prints it ------------------------------------ */

static const char *verdict_class(const char *verdict)
{
	if (streq(verdict, "worse") || streq(verdict, "better") || streq(verdict, "noisy") ||
	    streq(verdict, "few"))
		return verdict;
	return "same";
}

static void side_cell(struct strbuf *out, const struct compare_side *s, double scale)
{
	double half;

	if (!s->present) {
		cell_text(out, "td", NULL, s->status[0] ? s->status : "-");
		return;
	}
	/* The centre compare shows and computes the change from. */
	if (!isfinite(s->center_lo) || !isfinite(s->center_hi)) {
		strbuf_addf(out, "<td>%.4g</td>", s->center * scale);
		return;
	}
	half = fmax(s->center - s->center_lo, s->center_hi - s->center);
	strbuf_addf(out, "<td>%.4g ±%.1f%%</td>", s->center * scale,
		    s->center > 0 ? 100 * half / s->center : 0);
}

/* The change as a percentage with its CI, then in the unit (as compare). */
static void change_cells(struct strbuf *out, const struct compare_diff *d, double scale)
{
	char diff[32];

	if (!isfinite(d->change_lo_pct))
		strbuf_addf(out, "<td>%+.2f%%</td>", d->change_pct);
	else
		strbuf_addf(out, "<td>%+.2f%% [%+.2f, %+.2f]</td>", d->change_pct,
			    d->change_lo_pct, d->change_hi_pct);
	figure_signed(diff, sizeof(diff), d->shift * scale, 3);
	strbuf_addf(out, "<td>%s</td>", diff);
}

static void compare_row_html(struct strbuf *out, const struct compare_row *row,
			     size_t g, double scale)
{
	const struct compare_diff *d = &row->diffs[g];

	strbuf_adds(out, "<tr>");
	cell_text(out, "td", "l", row->name);
	cell_text(out, "td", "l", row->path);
	side_cell(out, &row->sides[0], scale);
	side_cell(out, &row->sides[g], scale);
	if (!d->valid) {
		strbuf_adds(out, "<td colspan=\"6\"></td></tr>\n");
		return;
	}
	change_cells(out, d, scale);
	/* The test named is the test used, cell by cell, as compare names it. */
	if (d->spread_unknown || d->estimate)
		strbuf_adds(out, "<td>-</td><td class=\"l\">none</td>");
	else if (isfinite(d->p_adjusted))
		strbuf_addf(out, "<td>%.2g</td><td class=\"l\">%s</td>", d->p_adjusted,
			    compare_test_id(d->test));
	else	/* counts compared themselves: no p */
		strbuf_addf(out, "<td>-</td><td class=\"l\">%s</td>",
			    compare_test_id(d->test));
	strbuf_addf(out, "<td>%+.2f</td><td class=\"l v-%s\">", d->cliffs_delta,
		    verdict_class(d->verdict));
	html_escape(out, d->verdict);
	strbuf_adds(out, "</td></tr>\n");
}

static void group_heading(struct strbuf *out, const struct plot_input *in,
			  const struct compare_group *g)
{
	char name[96];

	if (g->nruns == 1) {
		plot_run_name(in, &g->runs[0], name, sizeof(name));
		html_escape(out, name);
	} else {
		html_escape(out, g->spec);
		strbuf_addf(out, " (%zu runs)", g->nruns);
	}
}

static void compare_table(struct strbuf *out, const struct plot_input *in,
			  const struct compare_result *r, size_t g)
{
	static const char *const cols[] = {
		"cell", "path", "base", "other", "change [95% CI]", "diff", "p", "test",
		"delta", "verdict",
	};

	strbuf_adds(out, "<h3>");
	group_heading(out, in, &r->groups[g]);
	strbuf_adds(out, " against ");
	group_heading(out, in, &r->groups[0]);
	strbuf_adds(out, "</h3>\n");
	if (r->machine_shift[g])
		strbuf_addf(out, "<p class=\"warn\">%.0f%% of the cells moved the same way "
			    "(geomean %+.1f%%), syscall and vDSO paths alike: the machine "
			    "itself may have changed between the runs. Compare replicates "
			    "(several runs per label) or interleave (clockbench timens).</p>\n",
			    100 * r->same_direction[g], r->geomean_change_pct[g]);
	strbuf_adds(out, "<div class=\"scroll\"><table>\n");
	header_row(out, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < r->nrows; i++)
		if (plot_row_selected(in, &r->rows[i]))
			compare_row_html(out, &r->rows[i], g, r->unit_scale);
	strbuf_addf(out, "<tr><th class=\"l\" colspan=\"2\">geomean</th><td>%.4g</td>"
		    "<td>%.4g</td><td>%+.2f%%</td><td colspan=\"5\"></td></tr>\n",
		    r->geomean[0] * r->unit_scale, r->geomean[g] * r->unit_scale,
		    r->geomean_change_pct[g]);
	strbuf_adds(out, "</tbody></table></div>\n");
	if (r->geomean_left_out) {
		_cleanup_strbuf_ struct strbuf note = STRBUF_INIT;

		compare_geomean_note(r, &note);
		strbuf_adds(out, "<p>The geomean is ");
		html_escape(out, note.buf);
		strbuf_adds(out, ".</p>\n");
	}
}

/*
 * The lines of text: a "# " comment line (a style's header, which says in
 * a long line what the figures are) in a span that wraps at the box's
 * width, so that it is read whole on the page and on paper; the table's
 * lines stay as they are, the box scrolling sideways if it must.
 */
static void pre_lines(struct strbuf *out, const char *text)
{
	while (*text) {
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) + 1 : strlen(text);
		bool note = strncmp(text, "# ", 2) == 0;

		strbuf_add(&line, text, len);
		if (note)
			strbuf_adds(out, "<span class=\"note\">");
		html_escape(out, line.buf);
		if (note)
			strbuf_adds(out, "</span>");
		text += len;
	}
}

/*
 * A terminal's text in a <pre> block: its tabs (ministat indents with
 * them) expanded to the 8-column stops a terminal would show, so that
 * html_escape(), which shows every other control character as an escape,
 * prints none of ours as "\t".
 */
static void pre_text(struct strbuf *out, const char *text)
{
	_cleanup_strbuf_ struct strbuf expanded = STRBUF_INIT;
	size_t column = 0;

	for (const char *s = text; *s; s++) {
		if (*s == '\t') {
			do
				strbuf_addch(&expanded, ' ');
			while (++column % 8);
			continue;
		}
		strbuf_addch(&expanded, *s);
		column = *s == '\n' ? 0 : column + 1;
	}
	strbuf_adds(out, "<pre>");
	pre_lines(out, expanded.buf);
	strbuf_adds(out, "</pre>\n");
}

/*
 * The text styles of compare (seeds 001, 002, 000 and ministat), verbatim,
 * in a section of their own after the charts: a page of text per style
 * for every cell, which would otherwise stand between the verdicts and the
 * pictures.
 */
static void compare_styles(struct strbuf *out, const struct compare_result *r)
{
	static const struct { enum compare_style style; const char *title; } styles[] = {
		{ STYLE_MMTESTS, "As mmtests prints it" },
		{ STYLE_RATIO, "As ratios, new / old" },
		{ STYLE_SUMMARY, "avg, diff % and stdev %" },
		{ STYLE_MINISTAT, "As ministat prints it" },
	};

	section(out, "styles", "As compare prints it");
	for (size_t i = 0; i < ARRAY_SIZE(styles); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		if (!f)
			continue;
		compare_print(f, r, styles[i].style, FORMAT_TABLE);
		fclose(f);
		strbuf_adds(out, "<h3>");
		html_escape(out, styles[i].title);
		strbuf_adds(out, "</h3>\n");
		pre_text(out, text);
		free(text);
	}
	strbuf_adds(out, "</section>\n");
}

static void comparison(struct strbuf *out, const struct plot_input *in,
		       const struct compare_result *r)
{
	_cleanup_strbuf_ struct strbuf tests = STRBUF_INIT, centres = STRBUF_INIT;

	compare_tests_phrase(r, &tests);
	compare_centres_phrase(r, &centres);
	section(out, "comparison", "Comparison");
	strbuf_adds(out, "<p>");
	html_escape(out, r->unit_shown);
	strbuf_addf(out, ", lower is better; statistics over %s; value: ",
		    r->replicates ? "the runs' medians (replicates)" :
		    "each run's round medians, or its raw samples");
	html_escape(out, centres.buf);
	strbuf_addf(out, "; change: the ratio of the two values; diff: their "
		    "difference, in the unit. ");
	/* Counts are judged by themselves where they repeat, not by a test. */
	if (r->exact)
		strbuf_adds(out, "Guest instructions retired per call under qemu's icount "
			    "(clockbench kernels --exact), the harness's loop included "
			    "once; each boot's count a value. A cell that every boot of "
			    "each side counted alike is compared by the counts themselves "
			    "(test exact-count): same, or better/worse by the exact "
			    "difference in instructions a call (diff); a cell whose count "
			    "varies between boots by the adjusted p (");
	else
		strbuf_adds(out, "A change is significant when the adjusted p (");
	html_escape(out, tests.buf);
	strbuf_addf(out, ") %s below %g and the 95%% CI of the change %s beyond "
		    "±%g%% (or the rounds' CV, if larger).</p>\n", r->exact ? "being" : "is",
		    r->opts.alpha, r->exact ? "lying" : "lies", r->opts.threshold_pct);
	if (compare_spread_unknown(r)) {
		strbuf_adds(out, "<p class=\"warn\">One run against one: how far whole "
			    "runs move on this machine is unknown, so the change is shown "
			    "without a verdict (few); ");
		html_escape(out, compare_verdict_hint);
		strbuf_adds(out, ".</p>\n");
	}
	for (size_t g = 1; g < r->ngroups; g++)
		compare_table(out, in, r, g);
	strbuf_adds(out, "</section>\n");
}

/* ---- charts --------------------------------------------------------------- */

static const char *const chart_notes[PLOT_NKINDS] = {
	[PLOT_CELLS] = "Median cost per call of each API by path, 95 % CI as whiskers, "
		"on a log axis; beside it the same in cycles.",
	[PLOT_DISTRIBUTION] = "Every cell's samples up to p99 on a log count axis, the "
		"tail above p99 as an open bar, the median dashed with its CI shaded: a "
		"second mode or a long tail shows here.",
	[PLOT_ROUNDS] = "Each cell's median round by round, in time order, against the "
		"cell's own median; the thick line is the median over the cells: a "
		"slow phase of the machine moves them all.",
	[PLOT_SCALE] = "Seconds for the fixed number of calls against the threads "
		"sharing them, one line per run, 95 % CI as a band.",
	[PLOT_COMPARE] = "Change per cell against the base with its 95 % CI, shaped "
		"and coloured by verdict, over the noise floor the CI had to clear.",
	[PLOT_HOTPLUG] = "Latency of every offline and online transition, and the "
		"mean time per hotplug state, stacked and numbered as in the key.",
	[PLOT_TIMENS] = "Host and time namespace side by side, and the change in the "
		"namespace with its CI and verdict.",
};

static void chart_figure(struct strbuf *out, const struct html_chart *c, size_t i)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "c%zu", i + 1);
	strbuf_addf(out, "<figure id=\"chart-%s\">\n<div class=\"scroll\">\n",
		    plot_kind_names[c->kind]);
	if (!html_inline_svg(out, c->svg, prefix, plot_kind_caption(c->kind), &why)) {
		warn_msg("chart %s left out of the report: its SVG holds %s",
			 plot_kind_names[c->kind], why.buf);
		strbuf_adds(out, "<p>(chart left out: gnuplot's SVG holds ");
		html_escape(out, why.buf);
		strbuf_adds(out, ")</p>");
	}
	strbuf_adds(out, "\n</div>\n<figcaption><b>");
	html_escape(out, plot_kind_caption(c->kind));
	strbuf_adds(out, ".</b> ");
	html_escape(out, chart_notes[c->kind]);
	strbuf_addf(out, " (<code>clockbench plot --kind %s</code>)</figcaption>\n</figure>\n",
		    plot_kind_names[c->kind]);
}

static void charts_section(struct strbuf *out, const struct html_chart *charts,
			   size_t ncharts)
{
	if (!ncharts)
		return;
	section(out, "charts", "Charts");
	for (size_t i = 0; i < ncharts; i++)
		chart_figure(out, &charts[i], i);
	strbuf_adds(out, "</section>\n");
}

/* ---- the whole -------------------------------------------------------------- */

static void title_of(const struct plot_input *in, struct strbuf *sb)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
	char *nl;

	plot_title_text(in, "clockbench", &t);
	nl = strchr(t.buf, '\n');
	strbuf_addf(sb, "clockbench report: %s", nl ? nl + 1 : t.buf);
}

static void contents(struct strbuf *out, const struct plot_input *in, size_t ncharts)
{
	strbuf_adds(out, "<nav><a href=\"#summary\">Summary</a>");
	if (in->ngroups > 1)
		strbuf_adds(out, "<a href=\"#comparison\">Comparison</a>");
	if (ncharts)
		strbuf_adds(out, "<a href=\"#charts\">Charts</a>");
	if (in->ngroups > 1)
		strbuf_adds(out, "<a href=\"#styles\">As compare prints it</a>");
	strbuf_adds(out, "<a href=\"#runs\">Runs</a><a href=\"#environment\">Environment</a>"
		    "</nav>\n");
}

/* The cell of group g that changed most, among those with verdict (or any). */
static const struct compare_row *largest_change(const struct plot_input *in,
						const struct compare_result *r, size_t g,
						const char *verdict)
{
	const struct compare_row *most = NULL;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || !plot_row_selected(in, &r->rows[i]) ||
		    !streq(d->verdict, verdict))
			continue;
		if (!most || fabs(d->change_pct) > fabs(most->diffs[g].change_pct))
			most = &r->rows[i];
	}
	return most;
}

static void add_largest(struct strbuf *out, const struct compare_row *row, size_t g)
{
	strbuf_adds(out, " (most: ");
	html_escape(out, row->name);
	if (*row->path)
		strbuf_addch(out, ' ');
	html_escape(out, row->path);
	strbuf_addf(out, " %+.1f&#160;%%)", row->diffs[g].change_pct);
}

/*
 * What the comparison found, first on the page, in one sentence per other
 * group: "b (3 runs) against a (3 runs), core cycles: 2 of 70 cells worse
 * (most: getpid vdso +4.6 %), the other 68 without a significant change; geometric
 * mean -0.2 %." The mail below says the same at length.
 */
/* Emulated timings and the machines' differences, before the finding. */
static void sides_warning(struct strbuf *out, const struct plot_input *in,
			  const struct compare_result *r, size_t g)
{
	const struct side_differences *d = &r->side_differences[g];

	if ((r->emulated[g] || r->emulated[0]) && !r->exact) {
		bool both = r->emulated[g] && r->emulated[0];

		strbuf_adds(out, "<p class=\"warning\"><b>EMULATED:</b> ");
		if (both) {
			strbuf_adds(out, "both sides, ");
			group_heading(out, in, &r->groups[0]);
			strbuf_adds(out, " and ");
		}
		group_heading(out, in, &r->groups[r->emulated[g] ? g : 0]);
		strbuf_addf(out, "%s ran under qemu's TCG emulator: %s timings compare code "
			    "paths on one emulator, not the costs on hardware.</p>\n",
			    both ? "," : "", both ? "their" : "its");
	}
	if (!d->n)
		return;
	strbuf_adds(out, "<p class=\"warning\"><b>Different between the sides:</b> ");
	for (size_t i = 0; i < d->n; i++) {
		strbuf_addf(out, "%s%s ", i ? "; " : "", d->items[i].fact);
		html_escape(out, d->items[i].base);
		strbuf_adds(out, " against ");
		html_escape(out, d->items[i].other);
	}
	strbuf_adds(out, ".");
	if (d->explains) {
		strbuf_addch(out, ' ');
		html_escape(out, d->explains);
		strbuf_addch(out, '.');
	}
	strbuf_adds(out, "</p>\n");
}

static void finding(struct strbuf *out, const struct plot_input *in,
		    const struct compare_result *r, size_t g)
{
	size_t n = 0, worse = 0, better = 0, same = 0;
	double lo = INFINITY, hi = -INFINITY;	/* of the cells' changes */

	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_diff *d = &r->rows[i].diffs[g];

		if (!d->valid || !plot_row_selected(in, &r->rows[i]))
			continue;
		n++;
		worse += d->significant && streq(d->verdict, "worse");
		better += d->significant && streq(d->verdict, "better");
		same += streq(d->verdict, "same");
		lo = fmin(lo, d->change_pct);
		hi = fmax(hi, d->change_pct);
	}
	if (!n)
		lo = hi = 0;
	sides_warning(out, in, r, g);
	strbuf_adds(out, "<p class=\"finding\"><b>");
	group_heading(out, in, &r->groups[g]);
	strbuf_adds(out, " against ");
	group_heading(out, in, &r->groups[0]);
	strbuf_adds(out, "</b>, ");
	html_escape(out, r->unit_shown);
	strbuf_adds(out, ": ");
	if (compare_spread_unknown(r)) {
		strbuf_addf(out, "changes from %+.1f&#160;%% to %+.1f&#160;%% over %zu cell%s",
			    lo, hi, n, n == 1 ? "" : "s");
		if (isfinite(r->geomean_change_pct[g]))
			strbuf_addf(out, " (geometric mean %+.2f&#160;%%)",
				    r->geomean_change_pct[g]);
		strbuf_adds(out, "; <b>no verdict</b>: one run against one cannot show how "
			    "far whole runs move on this machine; ");
		html_escape(out, compare_verdict_hint);
		strbuf_adds(out, ".</p>\n");
		return;
	} else if (!worse && !better && same == n) {
		strbuf_addf(out, "<b>the same count</b> in %s %zu cell%s, every boot alike",
			    n == 1 ? "its" : "all", n, n == 1 ? "" : "s");
	} else if (!worse && !better) {
		if (n == 1)
			strbuf_adds(out, "<b>no significant change</b> in its one cell ");
		else
			strbuf_addf(out, "<b>no significant change</b> in any of the %zu "
				    "cells ", n);
		strbuf_addf(out, "(changes from %+.1f&#160;%% to %+.1f&#160;%%; not "
			    "significant, which is not the same as no change: see each "
			    "cell's mde)", lo, hi);
	} else {
		if (worse) {
			strbuf_addf(out, "<b>%zu of %zu cells worse</b>", worse, n);
			add_largest(out, largest_change(in, r, g, "worse"), g);
		}
		if (better) {
			if (worse)
				strbuf_addf(out, ", <b>%zu better</b>", better);
			else
				strbuf_addf(out, "<b>%zu of %zu cells better</b>", better, n);
			add_largest(out, largest_change(in, r, g, "better"), g);
		}
		if (same)
			strbuf_addf(out, ", %zu the same count", same);
		if (n - worse - better - same)
			strbuf_addf(out, ", the other %zu without a significant change",
				    n - worse - better - same);
	}
	if (isfinite(r->geomean_change_pct[g]))
		strbuf_addf(out, "; geometric mean %+.2f&#160;%%", r->geomean_change_pct[g]);
	strbuf_adds(out, ".</p>\n");
}

/*
 * The summary: what the comparison found (r, NULL for a run alone), then
 * the mail.
 */
static int summary(struct strbuf *out, const struct plot_input *in,
		   const struct compare_result *r, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf mail = STRBUF_INIT;

	if (mail_summary(in, &mail, err) != 0)
		return -1;
	section(out, "summary", "Summary");
	for (size_t g = 1; r && g < r->ngroups; g++)
		finding(out, in, r, g);
	strbuf_adds(out, "<p>As <code>clockbench report --format mail</code> writes it, for "
		    "a cover letter or a reply:</p>\n<pre>");
	html_escape(out, mail.buf);
	strbuf_adds(out, "</pre>\n</section>\n");
	return 0;
}

int html_report(struct strbuf *out, const struct plot_input *in,
		const struct html_chart *charts, size_t ncharts, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;

	title_of(in, &title);
	head(out, title.buf);
	strbuf_adds(out, "<h1>");
	html_escape(out, title.buf);
	strbuf_adds(out, "</h1>\n");
	contents(out, in, ncharts);
	/*
	 * A comparison leads with what it found and its verdicts, then the
	 * pictures, then compare's text styles; a run alone with its pictures.
	 */
	if (in->ngroups > 1) {
		struct compare_result r;

		if (plot_compare_build(in, in->groups, in->ngroups, &r, err) != 0)
			return -1;
		if (summary(out, in, &r, err) != 0) {
			compare_free(&r);
			return -1;
		}
		comparison(out, in, &r);
		charts_section(out, charts, ncharts);
		compare_styles(out, &r);
		compare_free(&r);
	} else {
		charts_section(out, charts, ncharts);
		if (summary(out, in, NULL, err) != 0)
			return -1;
	}
	section(out, "runs", "Runs");
	for (size_t i = 0; i < plot_nruns(in); i++)
		run_table(out, in, plot_run(in, i));
	strbuf_adds(out, "</section>\n");
	environment(out, in);
	strbuf_adds(out, "<footer><p>Made by clockbench " CLOCKBENCH_VERSION
		    " from the runs' raw samples.</p></footer>\n</main>\n</body>\n</html>\n");
	return 0;
}
