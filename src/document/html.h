/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report of stored runs as one self-contained HTML file: the summary
 * for the mailing list, the comparison as compare prints it, the charts
 * (gnuplot's SVG, inline), every run's statistics as show prints them and
 * the environment. No external fetch, no script (a Content-Security-Policy
 * forbids both, and every SVG is checked before it is inlined); readable on a phone
 * (tables and charts scroll in their own boxes) and printable.
 */
#ifndef CLOCKBENCH_HTML_H
#define CLOCKBENCH_HTML_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "chart/plot.h"

struct html_chart {
	enum plot_kind kind;
	const char *svg;	/* gnuplot's SVG file, whole */
};

/*
 * s with &, <, >, " and ' as entities and its control characters but '\n'
 * escaped as text (basic/text.h).
 */
void html_escape(struct strbuf *sb, const char *s);

/*
 * The report's Content-Security-Policy: nothing runs (no script-src, so
 * default-src 'none'), nothing loads (pictures are inline SVG; data:
 * images only), no <base>, no form; inline styles allowed, since the
 * report's own <style> and gnuplot's style attributes are inline.
 */
#define HTML_CSP "default-src 'none'; img-src data:; style-src 'unsafe-inline'; " \
	"base-uri 'none'; form-action 'none'"

/*
 * Whether an SVG (from its <svg> element on) holds only what gnuplot draws
 * charts with: known drawing elements, no event handler, no href or url()
 * but to a #fragment, no escape in an attribute. false with why ("an
 * element gnuplot does not draw with (<script)") otherwise.
 */
bool html_svg_inert(const char *svg, struct strbuf *why);

/*
 * gnuplot's SVG made fit to sit inline beside others: from its <svg>
 * element on (no XML prolog), every id and reference to one prefixed
 * with prefix (two charts define the same ids), its <title> set to
 * title. false with why when svg has no <svg> element or is not inert
 * (html_svg_inert()): then nothing of it is in out.
 */
bool html_inline_svg(struct strbuf *out, const char *svg, const char *prefix,
		     const char *title, struct strbuf *why);

/* The whole report. 0, or -1 with err (compare refused the runs). */
int html_report(struct strbuf *out, const struct plot_input *in,
		const struct html_chart *charts, size_t ncharts, struct strbuf *err);

#endif
