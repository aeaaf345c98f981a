/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stored runs a command line names, opened as a comparison session
 * for the commands that read them with their samples (plot, report): the
 * error printed and turned into the command's exit status.
 */
#ifndef CLOCKBENCH_STORED_RUNS_H
#define CLOCKBENCH_STORED_RUNS_H

#include "results/compare-session.h"

/*
 * compare_session_open() with compare's options and history: 0; 2 with a
 * usage error when too many runs would be read with their samples, the
 * reason followed by instead ("or write --format mail ..."); 1 with the
 * error printed otherwise.
 */
int session_open_status(struct compare_session *s, struct store *st,
			const struct run_selection *sel, const char *instead);

#endif
