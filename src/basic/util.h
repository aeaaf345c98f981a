/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * basic/: helpers that know nothing of time APIs or runs (errors, parsing,
 * strings, options, progress, statistics; its layer: src/meson.build).
 *
 * Small helpers shared by every module, below every other file of basic/:
 * memory, strict number parsing, comma lists, files, and systemd-style
 * cleanup attributes.
 */
#ifndef CLOCKBENCH_UTIL_H
#define CLOCKBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses shared by all commands. */
enum {
	EXIT_USAGE = 2,		/* bad option or value */
	EXIT_PROBLEM = 3,	/* doctor: a call is not served in userspace;
				 * compare --fail-on: the gate caught a change */
	EXIT_SKIP = 4,		/* kselftest convention: nothing could run */
};

#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _noreturn_ __attribute__((noreturn))
#define _unused_ __attribute__((unused))

/* Cleanup helpers: the variable is released when it leaves scope. */
static inline void freep(void *p)
{
	free(*(void **)p);
}
static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
#define _cleanup_(fn) __attribute__((cleanup(fn)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* The command name used as prefix in messages, e.g. "clockbench bench". */
void set_program_context(const char *cmd);
const char *program_context(void);

/*
 * Out of memory or a broken invariant (a bug): the message, then abort.
 * Its messages are the program's own, not data from outside: it masks
 * control characters and needs nothing above this file (the errors a
 * user is shown go through basic/error.h).
 */
_noreturn_ void fatal(const char *fmt, ...) _printf_(1, 2);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* At most max bytes of s (a UTF-8 sequence may be cut: text_put escapes it). */
char *xstrndup(const char *s, size_t max);
/* Grow *p (of *cap elements of elem bytes) so that it holds at least need. */
void grow_array(void **p, size_t *cap, size_t need, size_t elem);

/* Strict parsers: the whole string must be a number in range. */
bool parse_u64(const char *s, uint64_t *out);
bool parse_int(const char *s, long min, long max, long *out);
bool parse_double(const char *s, double *out);
/* "1.5", "200ms", "3s", "2us": a duration in seconds, > 0. */
bool parse_duration(const char *s, double *seconds);

/*
 * Split a comma list into a NULL-terminated array of strings (one
 * allocation; free the result with free()). Empty items are dropped.
 */
char **split_list(const char *s, size_t *count);

/* Trimmed first line (or whole content when whole) of a small file. */
bool read_line_file(const char *path, char *buf, size_t size);
/* Whole small file into a malloc'd, NUL-terminated buffer; NULL on error. */
char *read_text_file(const char *path, size_t max);

/*
 * mkdir -p of dir, each directory made private (0700): what clockbench
 * keeps can say much about a machine. 0, or -1 with errno.
 */
int mkdir_p_private(const char *dir);


/* All of buf to fd, through short writes and EINTR: 0, or -1 with errno. */
int fd_write_all(int fd, const void *buf, size_t len);
/*
 * Exactly len bytes from fd before timeout_ms has passed (negative: no
 * deadline), through short reads and signals: 0, or -1 with errno
 * (ETIMEDOUT at the deadline, EPIPE when fd ends first).
 */
int fd_read_all(int fd, void *buf, size_t len, int timeout_ms);

/* Monotonic raw nanoseconds from the libc clock (not the measured path). */
uint64_t now_ns(void);
/* CLOCK_MONOTONIC in seconds: the clock wait4() and timeouts are measured
 * against, for the wall time of a child (not the measured path). */
double monotonic_s(void);
struct timeval;
/* A struct timeval (getrusage's, wait4's) in seconds. */
double timeval_s(const struct timeval *tv);

static inline bool streq(const char *a, const char *b)
{
	return a && b && __builtin_strcmp(a, b) == 0;
}

/* Whether s ends with tail (both NUL-terminated). */
static inline bool str_endswith(const char *s, const char *tail)
{
	size_t n = __builtin_strlen(s), t = __builtin_strlen(tail);

	return n >= t && __builtin_strcmp(s + n - t, tail) == 0;
}

#endif
