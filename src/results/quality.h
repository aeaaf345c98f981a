/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's quality: how steady the machine was while the run measured, in
 * one line for the table header and in detail for the JSON and the store.
 *
 *   quality: 3 of 10 rounds ran at under 90 % of the top frequency (4.40
 *   GHz, slowest 52 %); figures normalised to core cycles; 12 involuntary
 *   context switches, 0 migrations, 30 ms stolen
 *
 * The top frequency is the fastest round's: a guest cannot read its
 * host's nominal or turbo frequency, and the run's own best is what the
 * other rounds could have had.
 */
#ifndef CLOCKBENCH_QUALITY_H
#define CLOCKBENCH_QUALITY_H

#include <stddef.h>
#include <jansson.h>

#include "probe/disturb.h"
#include "probe/timing.h"

/* A round slower than this share of the top frequency is a slow round. */
#define QUALITY_SLOW_SHARE 0.90

struct run_quality {
	enum core_source core_source;
	const struct warmup_report *warmup;	/* NULL: no warm-up */
	const struct round_quality *rounds;	/* borrowed */
	unsigned nrounds;
	double ref_vs_pmu_pct;		/* with a PMU, else NAN */
	/* Filled by quality_summarize(). */
	double top_ghz;			/* NAN when no round has a speed */
	unsigned slow_rounds;
	double slowest_share;		/* of the top frequency */
	long involuntary;
	long long migrations;		/* -1 unknown */
	double steal_ms;		/* NAN unknown */
};

void quality_summarize(struct run_quality *q);

/* The one-line summary, without a prefix. */
void quality_summary_line(const struct run_quality *q, char *buf, size_t len);

/* "steady after 3 windows of 10 ms (0.03 s): ..."; tol NaN (not recorded): "-". */
void quality_warmup_line(const struct warmup_report *w, double tol, char *buf,
			 size_t len);

struct bench_run;
/* Fill run->quality from its rounds, warm-up and cells (borrowing them). */
void quality_of_bench(struct bench_run *run);

/* {"summary": .., "top_ghz": .., "rounds": [..], "warmup": {..}, ..} */
json_t *quality_to_json(const struct run_quality *q);
json_t *warmup_to_json(const struct warmup_report *w);
/* A stored warm-up (warmup_to_json()'s) as quality_warmup_line() reads it. */
void warmup_from_json(const json_t *j, struct warmup_report *w);

#endif
