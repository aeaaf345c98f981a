/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One JSON schema for a run, whatever prints it (bench --format json, show
 * --format json, the report): the stored run as export writes it, with the
 * statistics recomputed from its samples beside each cell. With samples,
 * it is also what `clockbench import` reads back.
 *
 * And one top-level shape for runs, whatever prints them: export's
 * envelope, {"clockbench_export": 1, "tool": "clockbench X", "runs": [...]},
 * one run or several.
 */
#ifndef CLOCKBENCH_RUN_JSON_H
#define CLOCKBENCH_RUN_JSON_H

#include <stdbool.h>
#include <jansson.h>

#include "results/store.h"

/*
 * The run; per measured cell "summary" (of its unit), "cycles" and
 * "core_cycles" summaries, "round_medians", "round_medians_core_cycles",
 * "round_ghz" and "round_robust_cv_pct". samples keeps the raw samples.
 */
json_t *run_to_json(const struct stored_run *r, bool samples);

/* The envelope with no run yet; then runs_json_add() each run. */
json_t *runs_json_new(void);
void runs_json_add(json_t *doc, const struct stored_run *r, bool samples);

/* The envelope's opening, for a printer that streams its runs (export). */
#define RUNS_JSON_HEAD_FORMAT "{\"clockbench_export\":%d,\"tool\":\"%s\",\"runs\":["

#endif
