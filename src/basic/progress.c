// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "basic/util.h"

void progress_init(struct progress *p, size_t total)
{
	p->enabled = isatty(STDERR_FILENO);
	p->total = total;
	p->start_ns = now_ns();
}

void progress_update(struct progress *p, size_t done, const char *what)
{
	double elapsed, left;

	if (!p->enabled)
		return;
	elapsed = (double)(now_ns() - p->start_ns) / 1e9;
	left = done ? elapsed / (double)done * (double)(p->total - done) : 0;
	fprintf(stderr, "\r\033[K[%3zu/%zu] %-40.40s %5.1f s elapsed, ~%.0f s left",
		done + 1, p->total, what, elapsed, left);
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p->enabled)
		fputs("\r\033[K", stderr);
}
