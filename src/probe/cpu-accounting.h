/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How the kernel splits CPU time into user and system, so that exec, scale
 * and hotplug can say what their user/sys figures are worth.
 *
 * With CONFIG_TICK_CPU_ACCOUNTING (most kernels), each timer tick charges
 * a whole tick to user or system, whichever the CPU was in; getrusage()
 * and wait4() then split the task's exact run time (the scheduler's clock)
 * in the ratio of those ticks. So user + sys is exact, but below one tick
 * (1/HZ) of CPU time the split is a guess: a run no tick fell in is all
 * user. CONFIG_VIRT_CPU_ACCOUNTING_GEN measures at every user/kernel
 * crossing, but only on the CPUs in nohz_full=; elsewhere it samples by
 * tick as well. CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (powerpc, s390) always
 * measures.
 *
 * Found from the kernel's config (/boot/config-$(uname -r), else
 * /proc/config.gz through gzip), else inferred ("probably"): from
 * /sys/devices/system/cpu/nohz_full and the architecture. HZ from the
 * config, else from jiffies in /proc/timer_list, else USER_HZ (sysconf).
 */
#ifndef CLOCKBENCH_CPU_ACCOUNTING_H
#define CLOCKBENCH_CPU_ACCOUNTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

enum cpu_accounting_mode {
	ACCT_UNKNOWN,
	ACCT_TICK,		/* CONFIG_TICK_CPU_ACCOUNTING */
	ACCT_VIRT_GEN,		/* CONFIG_VIRT_CPU_ACCOUNTING_GEN */
	ACCT_VIRT_NATIVE,	/* CONFIG_VIRT_CPU_ACCOUNTING_NATIVE */
};

struct cpu_accounting {
	enum cpu_accounting_mode mode;
	bool mode_inferred;	/* no config: "probably" */
	char mode_source[192];	/* "/proc/config.gz", or what it was inferred from */
	long hz;		/* 0: unknown */
	bool hz_inferred;	/* USER_HZ stood in for HZ */
	char hz_source[96];	/* "CONFIG_HZ", "jiffies in /proc/timer_list", ... */
	char nohz_full[128];	/* /sys/devices/system/cpu/nohz_full, "" when none */
};

/* What the kernel does, as far as can be found out; never fails. */
void cpu_accounting_probe(struct cpu_accounting *a);

/*
 * Sets mode and hz from the text of a kernel config (mode_source and
 * hz_source named source); false when it says neither. For tests.
 */
bool cpu_accounting_from_config(const char *config, const char *source,
				struct cpu_accounting *a);

/* Whether user/sys are tick-sampled: below cpu_accounting_tick_s() a guess. */
bool cpu_accounting_sampled(const struct cpu_accounting *a);
/* One tick in seconds, NAN when HZ is unknown. */
double cpu_accounting_tick_s(const struct cpu_accounting *a);

/*
 * One sentence for a report: "user and sys come from tick sampling
 * (CONFIG_TICK_CPU_ACCOUNTING, from /proc/config.gz; HZ 250, from
 * CONFIG_HZ): below 4 ms of CPU time the split between them is an
 * estimate (time no tick fell in counts as user); user + sys is exact".
 */
void cpu_accounting_note(const struct cpu_accounting *a, char *buf, size_t len);

json_t *cpu_accounting_to_json(const struct cpu_accounting *a);

/*
 * a as cpu_accounting_to_json() wrote it (a run's config), for the note of
 * the machine that ran it, not of the one reading it; false, a zeroed,
 * when j says no mode it knows. nohz_full is not kept: "".
 */
bool cpu_accounting_from_json(const json_t *j, struct cpu_accounting *a);

/* Probe, then "<prefix><the note>\n" to f: for a report's header. */
void cpu_accounting_print_note(FILE *f, const char *prefix);

/* ---- the running kernel's config ---- */

/* A test aid: the config file to read instead ("" for none at all). */
#define KERNEL_CONFIG_ENV "CLOCKBENCH_KERNEL_CONFIG"

/*
 * The text of the running kernel's config: /boot/config-$(uname -r), else
 * /proc/config.gz (through gzip), and the file it came from in source.
 * NULL when neither can be read; then source says what was tried.
 */
char *kernel_config_read(char *source, size_t len);

/* The value of "NAME=value" at the start of a line of config, or NULL
 * (also for "# NAME is not set"). */
const char *kernel_config_value(const char *config, const char *name);

#endif
