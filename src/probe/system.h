/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pre-flight report: what on this machine makes a measurement noisy,
 * read before measuring and never changed (pyperf's `system show`, Google
 * Benchmark's "CPU scaling is enabled" warning). It goes in bench's table
 * header and JSON and is kept with the run, so the numbers and what may
 * have disturbed them travel together.
 *
 * Read: the CPU's cpufreq governor and driver, turbo (intel_pstate's
 * no_turbo, cpufreq's boost), SMT (smt/control and the CPU's thread
 * siblings), isolcpus and nohz_full (/sys/devices/system/cpu/isolated,
 * nohz_full), the load average, and the share of CPU time the hypervisor
 * stole since boot (/proc/stat).
 */
#ifndef CLOCKBENCH_SYSTEM_H
#define CLOCKBENCH_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

struct system_report {
	int cpu;			/* the CPU measured on */
	int ncpus;			/* online */
	char governor[32];		/* "" without cpufreq (most guests) */
	char driver[32];
	int turbo;			/* 1 on, 0 off, -1 unknown */
	char turbo_source[48];		/* "intel_pstate/no_turbo", "cpufreq/boost" */
	char smt_control[16];		/* "on", "off", "notsupported", "" */
	int smt_siblings;		/* CPUs on the measured CPU's core; 0 unknown */
	char isolated[128];		/* cpu lists, "" for none */
	char nohz_full[128];
	bool cpu_isolated, cpu_nohz_full;
	double load[3];			/* 1, 5, 15 minutes; negative unknown */
	double steal_pct;		/* of all CPU time since boot; negative unknown */
	bool pmu;			/* cycles from perf_event_open */
};

/* Read the machine under root ("" for the real one; tests use a tree). */
void system_collect_from(struct system_report *s, const char *root, int cpu,
			 bool pmu);
void system_collect(struct system_report *s, int cpu, bool pmu);

/* Whether cpu is in a kernel cpu list such as "0-3,6". */
bool system_cpu_in_list(const char *list, int cpu);

#define SYSTEM_WARNING_LEN 160
#define SYSTEM_MAX_WARNINGS 8
/* One sentence per thing that makes the figures noisy; returns the count. */
size_t system_warnings(const struct system_report *s,
		       char out[][SYSTEM_WARNING_LEN], size_t max);

/* "# system: ..." and one "# warning: ..." line each, after prefix. */
void system_print(const struct system_report *s, FILE *f, const char *prefix);
json_t *system_to_json(const struct system_report *s);
/* A stored report (system_to_json()'s) as system_print() reads it, texts
 * escaped, what is missing unknown. */
void system_from_json(const json_t *j, struct system_report *s);

#endif
