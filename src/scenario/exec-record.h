/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a finished exec campaign (scenario/exec-campaign.h) was, as data:
 * each command's stored run (its cells, the config that says how it was
 * run, its disturbance), the plain structs report/exec-report.h prints,
 * and what its runs warrant a warning of. Apart from the running, as
 * scale-report.c is from scale.c: running the commands needs none of it,
 * and all of it only reads a campaign that has run.
 */
#ifndef CLOCKBENCH_EXEC_RECORD_H
#define CLOCKBENCH_EXEC_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "report/exec-report.h"
#include "results/store.h"
#include "scenario/exec-campaign.h"

/*
 * The campaign as report/exec-report.h prints it, into r: its commands
 * (returned, e->ncmds of them, for exec_campaign_describe_free()), with
 * json their run's config and disturbance built; interrupted: the
 * measurement was stopped.
 */
struct exec_report_command *exec_campaign_describe(const struct exec_campaign *e,
						   bool json, bool interrupted,
						   struct exec_report *r);
void exec_campaign_describe_free(struct exec_report_command *cmds, size_t n);

/*
 * Command k's run into a begun stored run: its label, cells wall, user
 * and sys (seconds), config and disturbance. With several commands, only
 * complete repetitions, each with its round, so that compare pairs them
 * again. false when there is no command k.
 */
bool exec_campaign_record(const struct exec_campaign *e, size_t k,
			  struct stored_run *run);

/*
 * What command k's runs warrant a warning of (report/exec-report.h says
 * it): hyperfine's outliers, a first run far slower than the others (no
 * warm-up), and, when its runs after itself and after another command
 * differ (several commands), that; otherwise wall times in two groups.
 */
void exec_campaign_warnings(const struct exec_campaign *e, size_t k,
			    struct exec_report_warnings *w);

/*
 * Wall times in two groups far apart (seed 003's offline, alternated with
 * online: 36, 3.5, 27, 4.3 ms): the low and high group, each a fifth of
 * the runs or 2 at least, the gap between them at least twice either
 * group's own span. The split's index into sorted[0..n), or 0 when there
 * is none.
 */
size_t exec_two_groups_split(const double *sorted, size_t n);

#endif
