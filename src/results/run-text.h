/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stored run made safe to show, once, as it is loaded: for the commands
 * that build whole documents from runs (plot's gnuplot scripts, report's
 * HTML and mail), so that no line of them prints a raw stored string.
 */
#ifndef CLOCKBENCH_RUN_TEXT_H
#define CLOCKBENCH_RUN_TEXT_H

#include <stddef.h>
#include <jansson.h>

#include "results/store.h"

/*
 * Every string of run escaped and capped to max columns, in place
 * (basic/text.h): its fields, its cells', and the keys and strings of its
 * environment, config and quality. A text clockbench writes is unchanged.
 */
void stored_run_escape_text(struct stored_run *run, size_t max);

/* A deep copy of j with every key and string escaped and capped. */
json_t *json_escaped_copy(const json_t *j, size_t max);

#endif
