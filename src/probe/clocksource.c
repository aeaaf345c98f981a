// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/clocksource.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "basic/util.h"

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

int clocksource_set(const char *name, char *err, size_t errlen)
{
	char now[64];
	FILE *f = fopen(CLOCKSOURCE_CURRENT, "we");

	if (!f || fputs(name, f) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "cannot switch the clocksource to %s: %s", name,
			 strerror(errno ? errno : EIO));
		if (f && errno)
			fclose(f);
		return -1;
	}
	if (!read_line_file(CLOCKSOURCE_CURRENT, now, sizeof(now)) || !streq(now, name)) {
		snprintf(err, errlen, "the kernel kept the clocksource %s instead of %s",
			 now, name);
		return -1;
	}
	return 0;
}

static const char *lock_path(void)
{
	return access("/run/lock", W_OK) == 0 ? "/run/lock/clockbench-clocksource.lock" :
	       "/tmp/clockbench-clocksource.lock";
}

int clocksource_lock(double timeout_s, char *err, size_t errlen)
{
	const char *path = lock_path();
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	uint64_t deadline = now_ns() + (uint64_t)(timeout_s * 1e9);

	if (fd < 0) {
		snprintf(err, errlen, "cannot open the lock %s: %s", path, strerror(errno));
		return -1;
	}
	for (bool told = false; flock(fd, LOCK_EX | LOCK_NB) != 0; told = true) {
		if (errno != EWOULDBLOCK || now_ns() > deadline) {
			snprintf(err, errlen, "another clockbench is switching the "
				 "clocksource (lock %s)", path);
			close(fd);
			return -1;
		}
		if (!told)
			fprintf(stderr, "%s: waiting for another clockbench to put the "
				"clocksource back\n", program_context());
		usleep(100000);
	}
	return fd;
}
