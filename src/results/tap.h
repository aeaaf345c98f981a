/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test points of a TAP stream as verify writes it (kselftest's TAP
 * 13): "ok N NAME: message", "not ok N NAME: message", "ok N NAME # SKIP
 * why", "ok N NAME # XFAIL why". What `kernels -- verify` reads back from
 * each boot to set the kernels' checks side by side.
 */
#ifndef CLOCKBENCH_TAP_H
#define CLOCKBENCH_TAP_H

#include <stddef.h>

enum tap_result {
	TAP_PASS,
	TAP_FAIL,
	TAP_SKIP,
	TAP_XFAIL,
};

struct tap_point {
	char *name;		/* "monotonic/clock-gettime-realtime/vdso" */
	enum tap_result result;
	char *message;		/* what follows the name, or the directive's reason */
};

const char *tap_result_name(enum tap_result r);

/* The test points of text, in order, into *points: how many. */
size_t tap_parse(const char *text, struct tap_point **points);
void tap_points_free(struct tap_point *points, size_t n);

#endif
