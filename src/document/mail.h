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
#include "chart/plot.h"
#include "results/store.h"

#define MAIL_WIDTH 72

/*
 * Between the words of text that stay on one line, a number and its unit
 * or its "%": mail_wrap() prints it as a space but breaks no line there.
 */
#define MAIL_GLUE "\x1f"

/*
 * Append text word-wrapped to width columns (characters): the first line
 * starts with first, the others with rest. A word longer than a line (a
 * host name) is cut to fit; a number never is, as none is that long.
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

/*
 * Run r's command line, its words quoted for the shell and joined by
 * blanks (a word too long for a line in pieces joined by "\"-newline):
 * 0 as the run recorded it, 1 rebuilt from the run's settings and cells
 * (a run from before clockbench recorded its command line), -1 (nothing
 * appended) when it cannot be given safely (control or invisible
 * characters, a value cut when loaded).
 */
int mail_run_command(const struct stored_run *r, struct strbuf *out);

struct mail_options {
	bool all_cells;		/* a line for every cell, not only the changed */
};

/*
 * The whole summary (mo may be NULL: the defaults). 0, or -1 with err
 * (compare refused the runs).
 */
int mail_write(const struct plot_input *in, const struct mail_options *mo,
	       struct strbuf *out, struct strbuf *err);
/* mail_write() with the defaults. */
int mail_summary(const struct plot_input *in, struct strbuf *out, struct strbuf *err);

#endif
