// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/quality-text.h"

#include <math.h>

void quality_text_print(FILE *f, const char *name, const struct run_quality *q,
			double steady_tol)
{
	char line[512];

	if (q->warmup) {
		quality_warmup_line(q->warmup, steady_tol, line, sizeof(line));
		fprintf(f, "# %s%swarm-up: %s\n", name ? name : "", name ? " " : "",
			line);
	}
	quality_summary_line(q, line, sizeof(line));
	fprintf(f, "# %s%squality: %s\n", name ? name : "", name ? " " : "", line);
}

void quality_text_disturbance(FILE *f, const char *unit, double involuntary,
			      double wait_ms, double runnable, double steal_ms)
{
	fprintf(f, "# disturbance, median %s: %.0f involuntary switches, ", unit,
		involuntary);
	if (isfinite(wait_ms))
		fprintf(f, "%.2f ms waiting for a CPU, ", wait_ms);
	if (isfinite(runnable))
		fprintf(f, "%.0f other tasks runnable at its start, ", runnable);
	if (isfinite(steal_ms))
		fprintf(f, "%.0f ms stolen", steal_ms);
	else
		fputs("steal unknown", f);
}
