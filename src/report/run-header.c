// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/run-header.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/env.h"
#include "probe/system.h"
#include "results/compare.h"
#include "results/quality.h"
#include "results/run-facts.h"

/* ---- the lines --------------------------------------------------------- */

/* x to decimals (a negative count: %g), or "-" when the run lacks it. */
static void put_figure(FILE *f, int decimals, double x)
{
	if (!isfinite(x))
		fputc('-', f);
	else if (decimals < 0)
		fprintf(f, "%g", x);
	else
		fprintf(f, "%.*f", decimals, x);
}

/* A stored text escaped, or "-" when the run lacks it. */
static void put_text(FILE *f, const char *s)
{
	text_put(f, *s ? s : "-", TEXT_LINE_MAX);
}

static void print_first_line(FILE *f, const struct stored_run *r)
{
	char started[64];

	text_copy(started, sizeof(started), r->started, 32);
	fputs("# clockbench ", f);
	put_text(f, run_facts(r)->version ?: "");
	fputc(' ', f);
	put_text(f, r->command ? r->command : "");
	fprintf(f, ", %.10s %.8s UTC, ", started,
		strlen(started) > 11 ? started + 11 : "");
	put_figure(f, 1, r->elapsed_s);
	fprintf(f, " s%s\n", r->status && streq(r->status, "interrupted") ?
		", INTERRUPTED" : "");
}

static void print_counter_line(FILE *f, const struct stored_run *r)
{
	const struct bench_counter *counter = &run_facts(r)->settings.bench.cycle_counter;

	fputs("# cycles: ", f);
	put_text(f, counter->unit ? counter->unit : "");
	fputs(" (", f);
	put_text(f, counter->source ? counter->source : "");
	fputs(")\n", f);
}

/* How core cycles were measured: the reference, its length and its share. */
static void print_core_line(FILE *f, const struct core_cycles_settings *core)
{
	const struct core_reference *ref = &core->reference;
	double reading_us = ref->reading_core_cycles / core->calibration_ghz / 1000;

	fprintf(f, "# core cycles: %s; the reference, ",
		core->source && streq(core->source, "perf") ?
		"the PMU's, the reference beside them" :
		"batch ticks at the speed of the reference around each batch");
	if (ref->ops >= 0 && ref->ops < 0x1p53)
		fprintf(f, "%.0f", ref->ops);
	else
		fputc('-', f);
	fputs(" dependent ", f);
	put_text(f, ref->instruction ? ref->instruction : "");
	fputs(" of ", f);
	put_figure(f, -1, ref->cycles_per_op);
	fputs(" cycles, read for ", f);
	put_figure(f, 2, reading_us);
	fputs(" us before every batch (", f);
	put_figure(f, 1, ref->share_pct);
	fputs(" % of the time)\n", f);
}

/* Core cycles, the warm-up and the quality: none of them without core cycles. */
static void print_core_lines(FILE *f, const struct stored_run *r)
{
	const struct run_facts *facts = run_facts(r);
	const struct run_settings *s = &facts->settings;
	const json_t *warmup = json_member(r->quality, "warmup");
	const char *summary = facts->quality_summary;
	struct warmup_report w;
	char line[512];

	if (s->core_cycles.source && streq(s->core_cycles.source, "none"))
		return;
	if (s->core_cycles_known)
		print_core_line(f, &s->core_cycles);
	if (json_is_object(warmup)) {
		warmup_from_json(warmup, &w);
		quality_warmup_line(&w, s->bench.method.steady_tol, line, sizeof(line));
		fprintf(f, "# warm-up: %s\n", line);
	}
	if (summary) {
		fputs("# quality: ", f);
		text_put(f, summary, TEXT_LINE_MAX);
		fputc('\n', f);
	}
}

void run_header_print(FILE *f, const struct stored_run *r)
{
	const json_t *system = json_member(r->quality, "system");
	const struct bench_overhead *overhead = &run_facts(r)->settings.bench.overhead;
	struct system_report sys;
	struct env_info env;

	print_first_line(f, r);
	env_from_json(r->env, &env);
	env_print(&env, f, "# ");
	if (json_is_object(system)) {
		system_from_json(system, &sys);
		system_print(&sys, f, "# ");
	}
	/* A count has no counter or core speed: its clock counted instructions. */
	if (stored_run_exact(r))
		fputs("# counted: guest instructions retired per call under qemu's "
		      "icount (kernels --exact), the guest's counter one tick an "
		      "instruction; no cycles, no core speed\n", f);
	else {
		print_counter_line(f, r);
		print_core_lines(f, r);
	}
	fputs("# harness overhead: ", f);
	if (overhead->counted) {
		put_figure(f, 2, overhead->instructions_per_call);
		fputs(" instructions/call (an empty function through the same loop, "
		      "counted; not subtracted)\n", f);
		if (overhead->ruler.measured) {
			fprintf(f, "# the instrument's check: the same loop through a "
				"function of %.0f nops more counted ", overhead->ruler.nops);
			put_figure(f, 2, overhead->ruler.instructions_per_call -
					 overhead->instructions_per_call);
			fputs(" instructions more per call\n", f);
		}
		return;
	}
	put_figure(f, 2, overhead->ns_per_call);
	fputs(" ns/call (an empty function through the same loop; not subtracted)\n", f);
}
