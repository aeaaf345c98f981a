// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/util.h"

static bool write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		data += n;
		len -= (size_t)n;
	}
	return true;
}

int outfile_write(const char *path, const char *data, size_t len, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	char *tmp = xmalloc(strlen(path) + 16);
	mode_t mask = umask(0);
	int fd, saved;
	bool ok;

	umask(mask);
	/* ".NAME.XXXXXX" beside NAME: rename() does not cross file systems. */
	sprintf(tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
		slash ? slash + 1 : path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	errno = 0;
	ok = write_all(fd, data, len) && fchmod(fd, 0666 & ~mask) == 0;
	saved = errno;
	ok = close(fd) == 0 && ok;
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(saved ? saved : errno));
		unlink(tmp);
	}
	free(tmp);
	return ok ? 0 : -1;
}

int outfile_read(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "re");
	char buf[65536];
	size_t n;
	bool ok;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	ok = !ferror(f);
	fclose(f);
	return ok ? 0 : -1;
}
