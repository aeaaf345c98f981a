// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/cell-filter.h"

#include <stddef.h>
#include <string.h>

#include "basic/suggest.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "probe/timing.h"

void cell_filter_none(struct catalog_filter *f)
{
	memset(f, 0, sizeof(*f));
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

/*
 * A dimension of the cells, named as its option: where its selection is
 * in a catalog_filter (offset, n flags), how a name is looked up, the
 * names for "did you mean", and those said after "unknown".
 */
struct dimension {
	const char *name;
	size_t offset, n;
	int (*lookup)(const char *name);
	void (*suggest)(struct suggestion *s);
	const char *known;
};

#define SELECTION(field) \
	offsetof(struct catalog_filter, field), \
	ARRAY_SIZE(((struct catalog_filter *)NULL)->field)

static const struct dimension dimensions[] = {
	{ "api", SELECTION(api), catalog_api_by_name, suggest_api, "" },
	{ "clock", SELECTION(clock), clock_index, suggest_clock, "" },
	{ "path", SELECTION(path), catalog_path_by_name, suggest_path,
	  " (vdso, libc, syscall)" },
};

/*
 * The items of a list, each looked up and set in the dimension's
 * selection; -1 with the message when the list is empty or an item is
 * unknown.
 */
static int parse_list(const char *arg, const struct dimension *d, bool *set,
		      struct strbuf *err)
{
	_cleanup_free_ char **items = split_list(arg, NULL);

	memset(set, 0, d->n * sizeof(*set));
	if (!items[0]) {
		strbuf_addf(err, "empty --%s list", d->name);
		return -1;
	}
	for (char **it = items; *it; it++) {
		int i = d->lookup(*it);

		if (i < 0 || (size_t)i >= d->n) {
			struct suggestion s = SUGGESTION_INIT(*it);

			d->suggest(&s);
			strbuf_addf(err, "unknown %s '%s' in --%s%s", d->name, *it,
				    d->name, d->known);
			suggestion_add(&s, "", err);
			return -1;
		}
		set[i] = true;
	}
	return 0;
}

int cell_filter_option(const struct option_def *opt, const char *arg,
		       struct strbuf *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(dimensions); i++)
		if (streq(opt->long_name, dimensions[i].name))
			return parse_list(arg, &dimensions[i],
					  (bool *)((char *)opt->value + dimensions[i].offset),
					  err);
	fatal("--%s is not a dimension of the cells", opt->long_name);
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
