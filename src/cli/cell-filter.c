// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/cell-filter.h"

#include <string.h>

#include "basic/suggest.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "probe/timing.h"

void cell_filter_none(struct catalog_filter *f)
{
	memset(f, 0, sizeof(*f));
}

/*
 * The items of a --api/--clock/--path list, each looked up by lookup()
 * and set in the dimension's selection (set, n entries); -1 with the
 * message when the list is empty or an item is unknown.
 */
static int parse_list(const char *arg, const char *what, bool *set, size_t n,
		      int (*lookup)(const char *name),
		      void (*suggest)(struct suggestion *s), const char *known,
		      struct strbuf *err)
{
	_cleanup_free_ char **items = split_list(arg, NULL);

	memset(set, 0, n * sizeof(*set));
	if (!items[0]) {
		strbuf_addf(err, "empty --%s list", what);
		return -1;
	}
	for (char **it = items; *it; it++) {
		int i = lookup(*it);

		if (i < 0 || (size_t)i >= n) {
			struct suggestion s = SUGGESTION_INIT(*it);

			suggest(&s);
			strbuf_addf(err, "unknown %s '%s' in --%s%s", what, *it, what,
				    known);
			suggestion_add(&s, "", err);
			return -1;
		}
		set[i] = true;
	}
	return 0;
}

/* The names of each dimension, for "did you mean". */
static void suggest_api(struct suggestion *s)
{
	for (size_t i = 0; i < API_COUNT; i++)
		if (catalog_api_here((enum api)i))
			suggestion_consider(s, catalog_apis[i].name);
}

static void suggest_clock(struct suggestion *s)
{
	for (size_t i = 0; i < catalog_nclocks; i++)
		suggestion_consider(s, catalog_clocks[i].name);
}

static void suggest_path(struct suggestion *s)
{
	for (size_t i = 0; i < PATH_COUNT; i++)
		suggestion_consider(s, catalog_paths[i]);
}

static int clock_index(const char *name)
{
	const struct clock_info *ci = catalog_clock_by_name(name);

	return ci ? (int)ci->id : -1;
}

int cell_filter_option_api(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	struct catalog_filter *f = opt->value;

	return parse_list(arg, "api", f->api, ARRAY_SIZE(f->api),
			  catalog_api_by_name, suggest_api, "", err);
}

int cell_filter_option_clock(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	struct catalog_filter *f = opt->value;

	return parse_list(arg, "clock", f->clock, ARRAY_SIZE(f->clock),
			  clock_index, suggest_clock, "", err);
}

int cell_filter_option_path(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	struct catalog_filter *f = opt->value;

	return parse_list(arg, "path", f->path, ARRAY_SIZE(f->path),
			  catalog_path_by_name, suggest_path, " (vdso, libc, syscall)", err);
}

int cell_filter_option_cpu(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	char allowed[256];
	long v;

	if (!parse_int(arg, 0, 1 << 20, &v)) {
		strbuf_addf(err, "invalid --cpu '%s': expected a CPU number", arg);
		return -1;
	}
	if (!timing_cpu_allowed((int)v, allowed, sizeof(allowed))) {
		strbuf_addf(err, "CPU %ld is not in this process's affinity mask "
			    "(allowed: %s)", v, allowed);
		return -1;
	}
	*(int *)opt->value = (int)v;
	return 0;
}
