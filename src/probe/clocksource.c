// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/clocksource.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/guard.h"

bool clocksource_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!n)
		return false;
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

int clocksource_set(const char *name, struct strbuf *err)
{
	char now[64];
	FILE *f = fopen(CLOCKSOURCE_CURRENT, "we");
	bool written = f && fputs(name, f) >= 0;
	int e = errno;

	/* The kernel refuses a name at the write, which fclose() flushes. */
	if (f && fclose(f) != 0 && written) {
		written = false;
		e = errno;
	}
	if (!written) {
		strbuf_setf(err, "cannot switch the clocksource to %s: %s", name,
			    strerror(e ? e : EIO));
		return -1;
	}
	if (!read_line_file(CLOCKSOURCE_CURRENT, now, sizeof(now)) || !streq(now, name)) {
		strbuf_setf(err, "the kernel kept the clocksource %s instead of %s",
			    now, name);
		return -1;
	}
	return 0;
}

int clocksource_lock(double timeout_s, struct strbuf *err)
{
	return guard_lock("clocksource", "switching the clocksource", timeout_s, err);
}
