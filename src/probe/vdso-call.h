/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calling a vDSO clock function so that its error reads like the others'.
 * The generic vDSO returns -errno. powerpc's instead sets CR0.SO and
 * returns the positive errno in r3, which a plain C call would take for a
 * successful return of 22.
 */
#ifndef CLOCKBENCH_VDSO_CALL_H
#define CLOCKBENCH_VDSO_CALL_H

#include <time.h>

/*
 * fn(id, ts) for a vDSO clock_gettime or clock_getres (either timespec
 * layout): 0 or more on success, -errno on failure, on every architecture.
 */
long vdso_clock_call(const void *fn, clockid_t id, void *ts);

#endif
