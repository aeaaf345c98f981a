// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reference-check: is the core-speed reference's latency what clockbench
 * assumes? Without a PMU no core cycle can be counted, but ratios can: the
 * chain clockbench reads beside every batch is timed against a chain of
 * dependent register adds, which take one cycle on every core the
 * reference's documentation names. imul at 3 cycles must read 3.00 adds.
 *
 * Both chains are the library's own (probe/reference.c), 64k instructions
 * long so the counter reads around them do not count, read in pairs one
 * right after the other (the core's speed moves), with the architecture's
 * counter (the clock in ns where there is none).
 *
 * usage: reference-check [WINDOWS]
 * Prints per window the ticks per instruction of each chain and their
 * ratio, then the median and range of the ratios and the core's speed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "basic/stats.h"
#include "basic/util.h"
#include "probe/cycles.h"
#include "probe/reference.h"

#define OPS (64 * 1024)
#define READINGS 201

static uint64_t base(void)
{
	return cycles_arch_unit() ? cycles_arch_read() : now_ns();
}

static double ticks_per_op(uint64_t (*chain)(unsigned long))
{
	uint64_t t0 = base();

	chain(OPS);
	return (double)(base() - t0) / OPS;
}

/*
 * READINGS pairs of readings, one chain right after the other so that both
 * see the same core speed: the medians of each chain and of the ratios.
 */
static void window(double *ref, double *add, double *ratio)
{
	double r[READINGS], a[READINGS], q[READINGS];

	for (int i = 0; i < READINGS; i++) {
		r[i] = ticks_per_op(reference_chain);
		a[i] = ticks_per_op(reference_add_chain);
		q[i] = r[i] / a[i];
	}
	stats_sort(r, READINGS);
	stats_sort(a, READINGS);
	stats_sort(q, READINGS);
	*ref = stats_quantile_sorted(r, READINGS, 0.5);
	*add = stats_quantile_sorted(a, READINGS, 0.5);
	*ratio = stats_quantile_sorted(q, READINGS, 0.5);
}

int main(int argc, char **argv)
{
	const struct reference_info *ri = reference_info();
	int windows = argc > 1 ? atoi(argv[1]) : 10;
	double *ratio = xmalloc((size_t)(windows > 0 ? windows : 1) * sizeof(double));
	uint64_t t0 = now_ns(), b0 = base();
	double ref = 0, ghz;

	printf("reference: %s, %g cycles (%s)\n", ri->insn, ri->cycles_per_op, ri->source);
	for (int w = 0; w < windows; w++) {
		double add;

		window(&ref, &add, &ratio[w]);
		printf("window %2d: reference %.4f, add %.4f %s per instruction, ratio %.3f\n",
		       w + 1, ref, add, cycles_arch_unit() ? cycles_arch_unit() : "ns",
		       ratio[w]);
	}
	ghz = (double)(base() - b0) / (double)(now_ns() - t0) * ri->cycles_per_op / ref;
	stats_sort(ratio, (size_t)windows);
	printf("ratio reference/add: median %.3f, range %.3f .. %.3f (assumed %.3f); "
	       "core %.2f GHz in the last window\n",
	       stats_quantile_sorted(ratio, (size_t)windows, 0.5), ratio[0],
	       ratio[windows - 1], ri->cycles_per_op, ghz);
	free(ratio);
	return 0;
}
