/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A one-line progress report on stderr, only when stderr is a terminal. */
#ifndef CLOCKBENCH_PROGRESS_H
#define CLOCKBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool enabled;
	size_t total;
	uint64_t start_ns;
};

void progress_init(struct progress *p, size_t total);
/* "[ 12/84] clock-gettime-monotonic vdso  3.1 s elapsed, ~9 s left" */
void progress_update(struct progress *p, size_t done, const char *what);
/* Erase the line. */
void progress_done(struct progress *p);

#endif
