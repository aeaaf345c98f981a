// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracing when clockbench is built without libtracefs and libtraceevent
 * (a cross build whose sysroot has neither): off, and the note says why.
 * The transitions are still timed.
 */
#include "scenario/hotplug.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/strbuf.h"

#define NOT_BUILT "clockbench was built without libtracefs and libtraceevent"

bool hotplug_tracing_built(void)
{
	return false;
}

void hotplug_tracing_where(char *dir, size_t len, bool *mounted)
{
	snprintf(dir, len, "%s", HOTPLUG_TRACEFS);
	*mounted = false;
}

int hotplug_remove_stale_instances(const char *dir, struct strbuf *report)
{
	return 0;
}

void hotplug_tracing_start(struct hotplug_tracing *t, const char *dir,
			   const char *name, struct strbuf *stale)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->note, sizeof(t->note), "%s", NOT_BUILT);
}

int hotplug_tracing_open(struct hotplug_tracing *t, const char *dir,
			 const char *name, const char *kallsyms)
{
	hotplug_tracing_start(t, dir, name, NULL);
	return -1;
}

int hotplug_trace_clear(struct hotplug_tracing *t)
{
	errno = ENOSYS;
	return -1;
}

ssize_t hotplug_trace_read(struct hotplug_tracing *t, unsigned int cpu,
			   struct cpuhp_event **out)
{
	*out = NULL;
	errno = ENOSYS;
	return -1;
}

void hotplug_tracing_stop(struct hotplug_tracing *t)
{
	t->active = false;
}
