// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/cell-filter.h"

#include <string.h>

#include "probe/timing.h"
#include "basic/util.h"

void cell_filter_none(struct catalog_filter *f)
{
	memset(f, 0, sizeof(*f));
}

void cell_filter_parse_apis(const char *arg, struct catalog_filter *f)
{
	_cleanup_free_ char **items = split_list(arg, NULL);

	memset(f->api, 0, sizeof(f->api));
	if (!items[0])
		usage_error("empty --api list");
	for (char **it = items; *it; it++) {
		int api = catalog_api_by_name(*it);

		if (api < 0)
			usage_error("unknown api '%s' in --api", *it);
		f->api[api] = true;
	}
}

void cell_filter_parse_clocks(const char *arg, struct catalog_filter *f)
{
	_cleanup_free_ char **items = split_list(arg, NULL);

	memset(f->clock, 0, sizeof(f->clock));
	if (!items[0])
		usage_error("empty --clock list");
	for (char **it = items; *it; it++) {
		const struct clock_info *ci = catalog_clock_by_name(*it);

		if (!ci || ci->id < 0 || (size_t)ci->id >= ARRAY_SIZE(f->clock))
			usage_error("unknown clock '%s' in --clock", *it);
		f->clock[ci->id] = true;
	}
}

void cell_filter_parse_paths(const char *arg, struct catalog_filter *f)
{
	_cleanup_free_ char **items = split_list(arg, NULL);

	memset(f->path, 0, sizeof(f->path));
	if (!items[0])
		usage_error("empty --path list");
	for (char **it = items; *it; it++) {
		int path = catalog_path_by_name(*it);

		if (path < 0)
			usage_error("unknown path '%s' in --path (vdso, libc, syscall)", *it);
		f->path[path] = true;
	}
}

int cell_filter_parse_cpu(const char *arg)
{
	char allowed[256];
	long v;

	if (!parse_int(arg, 0, 1 << 20, &v))
		usage_error("invalid --cpu '%s': expected a CPU number", arg);
	if (!timing_cpu_allowed((int)v, allowed, sizeof(allowed)))
		usage_error("CPU %ld is not in this process's affinity mask "
			    "(allowed: %s)", v, allowed);
	return (int)v;
}

double cell_filter_parse_budget(const char *arg)
{
	double seconds;

	if (!parse_duration(arg, &seconds))
		usage_error("invalid --budget '%s': expected a positive "
			    "duration such as 0.5, 500ms or 2s", arg);
	return seconds;
}
