/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report of stored runs as one self-contained HTML file: the summary
 * for the mailing list, the comparison as compare prints it, the charts
 * (gnuplot's SVG, inline), every run's statistics as show prints them and
 * the environment. No external fetch, no script; readable on a phone
 * (tables and charts scroll in their own boxes) and printable.
 */
#ifndef CLOCKBENCH_HTML_H
#define CLOCKBENCH_HTML_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "report/plot.h"

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
 * gnuplot's SVG made fit to sit inline beside others: from its <svg>
 * element on (no XML prolog), every id and reference to one prefixed
 * with prefix (two charts define the same ids), its <title> set to
 * title. false when svg has no <svg> element.
 */
bool html_inline_svg(struct strbuf *out, const char *svg, const char *prefix,
		     const char *title);

/* The whole report. 0, or -1 with err (compare refused the runs). */
int html_report(struct strbuf *out, const struct plot_input *in,
		const struct html_chart *charts, size_t ncharts, struct strbuf *err);

#endif
