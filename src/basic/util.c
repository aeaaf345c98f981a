// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char *context = "clockbench";

void set_program_context(const char *cmd)
{
	context = cmd;
}

const char *program_context(void)
{
	return context;
}

void fatal(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "%s: fatal: %s\n", context, line);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		fatal("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		fatal("out of memory allocating %zu bytes", size);
	return q;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		fatal("out of memory copying a string");
	return d;
}

char *xstrndup(const char *s, size_t max)
{
	char *d = strndup(s, max);

	if (!d)
		fatal("out of memory copying a string");
	return d;
}

void grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	*p = xrealloc(*p, ncap * elem);
	*cap = ncap;
}

bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

bool parse_duration(const char *s, double *seconds)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		{ "s", 1.0 }, { "m", 60.0 }, { "", 1.0 },
	};
	size_t len;

	if (!s || !*s)
		return false;
	len = strlen(s);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t sl = strlen(units[i].suffix);
		char num[64];
		double v;

		if (sl >= len || strcmp(s + len - sl, units[i].suffix) != 0)
			continue;
		if (len - sl >= sizeof(num))
			return false;
		memcpy(num, s, len - sl);
		num[len - sl] = '\0';
		if (!isdigit((unsigned char)num[len - sl - 1]) &&
		    num[len - sl - 1] != '.')
			continue;
		if (!parse_double(num, &v) || v <= 0)
			return false;
		*seconds = v * units[i].scale;
		return true;
	}
	return false;
}

char **split_list(const char *s, size_t *count)
{
	size_t n = 1, len = strlen(s), k = 0;
	char **v, *buf, *tok, *save = NULL;

	for (const char *p = s; *p; p++)
		n += *p == ',';
	/* Pointers first, then a private copy of the string they point into. */
	v = xmalloc((n + 1) * sizeof(char *) + len + 1);
	buf = (char *)(v + n + 1);
	memcpy(buf, s, len + 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (*tok)
			v[k++] = tok;
	}
	v[k] = NULL;
	if (count)
		*count = k;
	return v;
}

bool read_line_file(const char *path, char *buf, size_t size)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	size_t len;

	if (!f || !fgets(buf, (int)size, f))
		return false;
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return true;
}

char *read_text_file(const char *path, size_t max)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = xmalloc(max + 1);
	n = fread(buf, 1, max, f);
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int mkdir_p_private(const char *dir)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = strchr(buf + 1, '/'); ; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return -1;
		if (!p)
			return 0;
		*p = '/';
	}
}

double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* What is left of timeout_ms since start, for poll(): -1 without one. */
static int ms_left(uint64_t start, int timeout_ms)
{
	uint64_t spent = (now_ns() - start) / 1000000u;

	if (timeout_ms < 0)
		return -1;
	return spent >= (uint64_t)timeout_ms ? 0 : (int)((uint64_t)timeout_ms - spent);
}

int fd_read_all(int fd, void *buf, size_t len, int timeout_ms)
{
	uint64_t start = now_ns();
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int left = ms_left(start, timeout_ms), rc;
		ssize_t n;

		rc = left == 0 ? 0 : poll(&pfd, 1, left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return -1;
		if (rc == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		n = read(fd, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EPIPE;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
