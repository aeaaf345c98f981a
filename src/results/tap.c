// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "basic/util.h"
#include "results/tap.h"

const char *tap_result_name(enum tap_result r)
{
	static const char *const names[] = { "pass", "fail", "skip", "xfail" };

	return names[r];
}

/* A message as written: "\#" and "\\" back to '#' and '\' (TAP 13). */
static char *unescape(const char *p, size_t len)
{
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\\' && i + 1 < len && (p[i + 1] == '#' || p[i + 1] == '\\'))
			i++;
		*o++ = p[i];
	}
	*o = '\0';
	return out;
}

/* "N NAME..." after "ok " or "not ok ": the point, or false if none. */
static bool parse_point(const char *p, size_t len, bool ok, struct tap_point *t)
{
	const char *end = p + len, *name, *directive;
	size_t n;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == end || *p != ' ')
		return false;
	name = ++p;
	n = strcspn(name, ": \n");
	if (!n || name + n > end)
		return false;
	t->name = strndup(name, n);
	p = name + n;
	directive = memmem(p, (size_t)(end - p), " # ", 3);
	t->result = ok ? TAP_PASS : TAP_FAIL;
	if (ok && directive && (size_t)(end - directive) > 7 &&
	    (!strncmp(directive + 3, "SKIP", 4) || !strncmp(directive + 3, "XFAIL", 5))) {
		bool skip = directive[3] == 'S';

		t->result = skip ? TAP_SKIP : TAP_XFAIL;
		p = directive + 3 + (skip ? 4 : 5);
	} else if (*p == ':') {
		p++;
	}
	while (p < end && *p == ' ')
		p++;
	t->message = unescape(p, (size_t)(end - p));
	if (!t->name || !t->message)
		fatal("out of memory");
	return true;
}

size_t tap_parse(const char *text, struct tap_point **points)
{
	size_t n = 0, cap = 0;

	*points = NULL;
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct tap_point t;
		bool ok = len > 3 && !strncmp(line, "ok ", 3);
		bool not_ok = len > 7 && !strncmp(line, "not ok ", 7);

		if ((ok || not_ok) && parse_point(line + (ok ? 3 : 7), len - (ok ? 3 : 7),
						  ok, &t)) {
			grow_array((void **)points, &cap, n + 1, sizeof(**points));
			(*points)[n++] = t;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

void tap_points_free(struct tap_point *points, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(points[i].name);
		free(points[i].message);
	}
	free(points);
}
