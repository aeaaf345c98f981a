// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/quality-text.h"

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
