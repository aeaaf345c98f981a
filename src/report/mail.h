/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mailing-list summary of stored runs: plain text wrapped at 72
 * columns, to paste into a cover letter or a reply as the seeds were:
 *
 *   Machine: vm, x86_64, AMD EPYC, 2 CPUs, KVM guest, clocksource tsc
 *   Kernel 6.18.44 (before, 5 runs) against 6.19 (after, 5 runs); glibc 2.36
 *
 *   after against before:
 *     clock-gettime-monotonic vdso: 26.1 -> 27.3 ns (+4.6 %, 95 % CI
 *       +4.6..+4.7, 5 v 5 runs)
 *     the other 62 cells: no change beyond 1 %
 *
 *   To reproduce:
 *     clockbench bench --label before    # on 6.18.44
 *     ...
 *
 * The verdicts are compare's (results/compare.h), with its defaults.
 */
#ifndef CLOCKBENCH_MAIL_H
#define CLOCKBENCH_MAIL_H

#include "basic/strbuf.h"
#include "report/plot.h"

#define MAIL_WIDTH 72

/*
 * Append text word-wrapped to width columns: the first line starts with
 * first, the others with rest. Words longer than a line stay whole.
 */
void mail_wrap(struct strbuf *out, const char *text, int width, const char *first,
	       const char *rest);

/* A figure as people write it: 26.1, 1127, 2.03, 0.0123. */
void mail_figure(struct strbuf *out, double v);

/* The machine in two lines (no newline after the second). */
void mail_machine(const struct plot_input *in, struct strbuf *out);

/*
 * The commands that make these runs again, one per line, each line
 * starting with indent: the measuring command of each group, then the
 * comparison.
 */
void mail_reproduce(const struct plot_input *in, const char *indent,
		    struct strbuf *out);

/* The whole summary. 0, or -1 with err (compare refused the runs). */
int mail_summary(const struct plot_input *in, struct strbuf *out, struct strbuf *err);

#endif
