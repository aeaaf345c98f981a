// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/system.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/json.h"
#include "basic/text.h"
#include "basic/util.h"

#define CPU_SYSFS "/sys/devices/system/cpu"

/* The first line of root + path, or "" when there is no such file. */
static void read_at(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (!read_line_file(full, buf, len))
		buf[0] = '\0';
}

bool system_cpu_in_list(const char *list, int cpu)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

/* "0-1" or "0,2": how many CPUs the list names. */
static int cpu_list_count(const char *list)
{
	int n = 0;

	for (int cpu = 0; cpu < 4096 && *list; cpu++)
		n += system_cpu_in_list(list, cpu);
	return n;
}

static void collect_cpufreq(struct system_report *s, const char *root)
{
	char path[128], v[16];

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpufreq/scaling_governor", s->cpu);
	read_at(root, path, s->governor, sizeof(s->governor));
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpufreq/scaling_driver", s->cpu);
	read_at(root, path, s->driver, sizeof(s->driver));
	s->turbo = -1;
	read_at(root, CPU_SYSFS "/intel_pstate/no_turbo", v, sizeof(v));
	if (*v) {
		s->turbo = v[0] == '0';
		snprintf(s->turbo_source, sizeof(s->turbo_source), "intel_pstate/no_turbo");
		return;
	}
	read_at(root, CPU_SYSFS "/cpufreq/boost", v, sizeof(v));
	if (*v) {
		s->turbo = v[0] == '1';
		snprintf(s->turbo_source, sizeof(s->turbo_source), "cpufreq/boost");
	}
}

static void collect_topology(struct system_report *s, const char *root)
{
	char path[128], list[128];

	read_at(root, CPU_SYSFS "/smt/control", s->smt_control, sizeof(s->smt_control));
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/topology/thread_siblings_list",
		 s->cpu);
	read_at(root, path, list, sizeof(list));
	s->smt_siblings = *list ? cpu_list_count(list) : 0;
	read_at(root, CPU_SYSFS "/isolated", s->isolated, sizeof(s->isolated));
	read_at(root, CPU_SYSFS "/nohz_full", s->nohz_full, sizeof(s->nohz_full));
	/* The kernel writes "(null)" when nohz_full= was not given. */
	if (streq(s->nohz_full, "(null)"))
		s->nohz_full[0] = '\0';
	s->cpu_isolated = system_cpu_in_list(s->isolated, s->cpu);
	s->cpu_nohz_full = system_cpu_in_list(s->nohz_full, s->cpu);
	read_at(root, CPU_SYSFS "/online", list, sizeof(list));
	s->ncpus = *list ? cpu_list_count(list) : 0;
}

/* "cpu  32137 0 12991 67371 272 0 112 45 0 0": steal over every column. */
static double steal_share(const char *stat)
{
	unsigned long long f[8], total = 0;

	if (!stat || sscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
			    &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) != 8)
		return -1;
	for (int i = 0; i < 8; i++)
		total += f[i];
	return total ? 100.0 * (double)f[7] / (double)total : -1;
}

static void collect_load(struct system_report *s, const char *root)
{
	char path[PATH_MAX], line[128];
	char *stat;

	read_at(root, "/proc/loadavg", line, sizeof(line));
	if (sscanf(line, "%lf %lf %lf", &s->load[0], &s->load[1], &s->load[2]) != 3)
		s->load[0] = s->load[1] = s->load[2] = -1;
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	stat = read_text_file(path, 1 << 20);
	s->steal_pct = steal_share(stat);
	free(stat);
}

void system_collect_from(struct system_report *s, const char *root, int cpu,
			 bool pmu)
{
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->pmu = pmu;
	collect_cpufreq(s, root);
	collect_topology(s, root);
	collect_load(s, root);
}

void system_collect(struct system_report *s, int cpu, bool pmu)
{
	system_collect_from(s, "", cpu, pmu);
}

/* ---- what it means ---------------------------------------------------- */

/* A warning is noise when it is always there: only what can be changed. */
size_t system_warnings(const struct system_report *s,
		       char out[][SYSTEM_WARNING_LEN], size_t max)
{
	size_t n = 0;

#define WARN(...) do { if (n < max) snprintf(out[n++], SYSTEM_WARNING_LEN, __VA_ARGS__); } while (0)
	if (*s->governor && !streq(s->governor, "performance"))
		WARN("CPU %d's frequency governor is %s, not performance: the core's "
		     "speed follows the load", s->cpu, s->governor);
	if (s->turbo == 1)
		WARN("turbo is on (%s): the top frequency depends on temperature and "
		     "on the other cores", s->turbo_source);
	if (s->smt_siblings > 1)
		WARN("SMT: CPU %d shares its core with %d other CPU%s, whose work slows "
		     "it", s->cpu, s->smt_siblings - 1, s->smt_siblings > 2 ? "s" : "");
	if (s->load[0] >= 1.0)
		WARN("the machine is busy: load average %.2f on %d CPU%s before the "
		     "run", s->load[0], s->ncpus, s->ncpus == 1 ? "" : "s");
	if (s->steal_pct >= 1.0)
		WARN("the hypervisor stole %.1f %% of CPU time since boot: a "
		     "neighbour takes the host's CPUs", s->steal_pct);
#undef WARN
	return n;
}

static const char *or_none(const char *s)
{
	return *s ? s : "none";
}

static const char *turbo_word(int turbo)
{
	return turbo < 0 ? "unknown" : turbo ? "on" : "off";
}

void system_print(const struct system_report *s, FILE *f, const char *prefix)
{
	char warn[SYSTEM_MAX_WARNINGS][SYSTEM_WARNING_LEN];
	size_t n = system_warnings(s, warn, SYSTEM_MAX_WARNINGS);

	fprintf(f, "%ssystem: governor %s, turbo %s, SMT %s (%d thread%s on cpu %d's "
		"core), isolcpus %s, nohz_full %s, load %.2f %.2f %.2f, steal %.1f %% "
		"since boot, PMU %s\n", prefix, or_none(s->governor),
		turbo_word(s->turbo), or_none(s->smt_control), s->smt_siblings,
		s->smt_siblings == 1 ? "" : "s", s->cpu, or_none(s->isolated),
		or_none(s->nohz_full), s->load[0], s->load[1], s->load[2],
		s->steal_pct < 0 ? 0 : s->steal_pct, s->pmu ? "yes" : "no");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%swarning: %s\n", prefix, warn[i]);
}

static json_t *maybe_text(const char *s)
{
	return *s ? json_string(s) : json_null();
}

/* Negative means unknown: null. */
static json_t *known(double x)
{
	return x >= 0 ? json_number(x) : json_null();
}

json_t *system_to_json(const struct system_report *s)
{
	char warn[SYSTEM_MAX_WARNINGS][SYSTEM_WARNING_LEN];
	size_t n = system_warnings(s, warn, SYSTEM_MAX_WARNINGS);
	json_t *w = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(w, json_string(warn[i]));
	return json_pack("{s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:b, s:b,"
			 " s:[o, o, o], s:o, s:b, s:o}",
			 "cpu", s->cpu, "ncpus", s->ncpus,
			 "governor", maybe_text(s->governor),
			 "driver", maybe_text(s->driver),
			 "turbo", s->turbo < 0 ? json_null() : json_boolean(s->turbo),
			 "turbo_source", maybe_text(s->turbo_source),
			 "smt_control", maybe_text(s->smt_control),
			 "smt_siblings", s->smt_siblings,
			 "isolcpus", maybe_text(s->isolated),
			 "nohz_full", maybe_text(s->nohz_full),
			 "cpu_isolated", s->cpu_isolated, "cpu_nohz_full", s->cpu_nohz_full,
			 "load", known(s->load[0]), known(s->load[1]), known(s->load[2]),
			 "steal_pct_since_boot", known(s->steal_pct), "pmu", s->pmu,
			 "warnings", w);
}

/* Unknown (null) is negative in a system_report. */
static double known_of(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* The stored pre-flight report (system_to_json()'s) as system_print() reads it. */
void system_from_json(const json_t *j, struct system_report *s)
{
	const json_t *turbo = json_member(j, "turbo"), *load = json_member(j, "load");

	memset(s, 0, sizeof(*s));
	s->cpu = json_int_at(j, "cpu", -1);
	s->ncpus = json_int_at(j, "ncpus", 0);
	json_text_copy(s->governor, sizeof(s->governor), j, "governor");
	json_text_copy(s->driver, sizeof(s->driver), j, "driver");
	s->turbo = json_is_boolean(turbo) ? json_is_true(turbo) : -1;
	json_text_copy(s->turbo_source, sizeof(s->turbo_source), j, "turbo_source");
	json_text_copy(s->smt_control, sizeof(s->smt_control), j, "smt_control");
	s->smt_siblings = json_int_at(j, "smt_siblings", 0);
	json_text_copy(s->isolated, sizeof(s->isolated), j, "isolcpus");
	json_text_copy(s->nohz_full, sizeof(s->nohz_full), j, "nohz_full");
	s->cpu_isolated = json_true_at(j, "cpu_isolated");
	s->cpu_nohz_full = json_true_at(j, "cpu_nohz_full");
	for (size_t i = 0; i < ARRAY_SIZE(s->load); i++)
		s->load[i] = known_of(json_array_get(load, i));
	s->steal_pct = known_of(json_member(j, "steal_pct_since_boot"));
	s->pmu = json_true_at(j, "pmu");
}
