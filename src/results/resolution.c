// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/resolution.h"

#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "results/run-facts.h"

static double median_of_copy(const double *x, size_t n)
{
	_cleanup_free_ double *copy = xmalloc((n ? n : 1) * sizeof(double));

	memcpy(copy, x, n * sizeof(double));
	stats_sort(copy, n);
	return stats_quantile_sorted(copy, n, 0.5);
}

/* Core cycles: the clock's step at the core's speed, and a reading's share. */
static double core_resolution(const struct stored_run *r,
			      const struct stored_cell *c, double step_ns)
{
	const struct run_facts *f = run_facts(r);
	const struct core_cycles_settings *core = &f->settings.core_cycles;
	const char *source = core->source;
	double ghz = core->calibration_ghz, reading = core->reference.reading_core_cycles;
	double calls = (double)c->batch_calls;

	if (source && streq(source, "perf"))
		return 1 / calls;
	if (!source || !streq(source, "reference") || !(ghz > 0) || !(reading > 0))
		return 0;
	return step_ns * ghz / calls +
	       step_ns * ghz / reading * fabs(median_of_copy(c->core_cycles, c->n));
}

double stored_cell_resolution(const struct stored_run *r,
			      const struct stored_cell *c, const double *x)
{
	const struct run_facts *f = run_facts(r);
	double step_ns = f->clock_step_ns;
	double calls = (double)c->batch_calls;

	if (!x || !c->n || !(calls > 0) || !(step_ns > 0))
		return 0;
	if (x == c->values)
		return streq(c->unit, "ns") ? step_ns / calls : 0;
	if (x == c->cycles) {
		const char *unit = f->counter_unit;

		if (c->cycles_unit && streq(c->cycles_unit, "cycles"))
			return 1 / calls;
		return unit && c->cycles_unit && streq(unit, c->cycles_unit) ?
		       f->counter_step / calls : 0;
	}
	if (x == c->core_cycles)
		return core_resolution(r, c, step_ns);
	return 0;
}

void stored_cell_summarize(const struct stored_run *r,
			   const struct stored_cell *c, const double *x,
			   struct summary *s)
{
	_cleanup_free_ double *copy = xmalloc((c->n ? c->n : 1) * sizeof(double));

	memcpy(copy, x, c->n * sizeof(double));
	stats_summarize_quantised(copy, c->n, stored_cell_resolution(r, c, x), s);
}
