/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system clocksource, for the commands that switch it (ab
 * --clocksource, verify's clocksource-switch): what the kernel offers, a
 * switch, and the machine-wide lock that makes them take turns. Without
 * the lock, a second switcher would record the first one's switch as the
 * state to put back. The state itself is recorded and restored by
 * probe/guard.h.
 */
#ifndef CLOCKBENCH_CLOCKSOURCE_H
#define CLOCKBENCH_CLOCKSOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"
#define CLOCKSOURCE_CURRENT CLOCKSOURCE_DIR "/current_clocksource"
#define CLOCKSOURCE_AVAILABLE CLOCKSOURCE_DIR "/available_clocksource"

/* Whether the blank-separated list holds the name, as a whole word. */
bool clocksource_listed(const char *list, const char *name);

/*
 * Switch to name and check that the kernel took it: 0, or -1 with the
 * reason in err (it kept another one, or the write failed).
 */
int clocksource_set(const char *name, struct strbuf *err);

/* The clocksource's lock (probe/guard.h guard_lock()): fd or -1 with err. */
int clocksource_lock(double timeout_s, struct strbuf *err);

#endif
