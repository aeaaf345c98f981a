/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Environment fingerprint: everything about the machine that changes what a
 * time call costs, recorded with every run so that two runs can be compared
 * honestly.
 */
#ifndef CLOCKBENCH_ENV_H
#define CLOCKBENCH_ENV_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "probe/timens.h"
#include "probe/vdso.h"

struct env_info {
	char hostname[256];
	char kernel_release[256];	/* uname -r */
	char kernel_version[256];	/* uname -v */
	char machine[64];		/* uname -m */
	char *cmdline;			/* /proc/cmdline, malloc'd or NULL */
	char clocksource[64];		/* current_clocksource */
	char clocksources[256];		/* available_clocksource */
	char cpu_model[256];
	/* Timekeeping CPU flags (x86 names; false elsewhere). */
	bool constant_tsc, nonstop_tsc, rdtscp, rdpid, tsc_known_freq,
	     tsc_reliable;
	char hypervisor[64];		/* "" on bare metal, e.g. "KVM" */
	char libc_name[32];		/* "glibc" or "unknown" */
	char libc_version[32];
	int ncpus_online;
	bool in_time_namespace;		/* process is in a non-root time ns */
	/* timens's namespace side: the namespace it made, NULL otherwise */
	const struct timens_offsets *time_namespace_offsets;
	bool time_ns_known;		/* false when /proc/self/ns/time is unreadable */
	int cpu;			/* CPU the measurement ran on, -1 unknown */
	bool have_vdso;
	char vdso_error[128];		/* why there is no vDSO */
	char **vdso_symbols;		/* "name@version", NULL-terminated, malloc'd */
	size_t nvdso_symbols;
	/*
	 * The steps the counters advance by (cycles_arch_step()): the
	 * architecture's counter in its units (counter_unit, "" without
	 * one), the clock in ns; 0 when not measured.
	 */
	double counter_step;
	char counter_unit[32];
	double clock_step_ns;
};

/*
 * Fill env from uname, /proc and /sys. vdso may be NULL (no vDSO; pass the
 * reason as vdso_error). Unreadable files leave empty strings, never fail.
 */
void env_collect(struct env_info *env, const struct vdso_image *vdso,
		 const char *vdso_error, int cpu);
void env_free(struct env_info *env);
/*
 * Record the counters' steps (cycles_arch_step(), cycles_clock_step_ns()):
 * what the measurement used, when it measured them itself. Without an
 * architecture counter the counter is the clock.
 */
void env_set_counter_step(struct env_info *env, double counter_step,
			  double clock_step_ns);

/* The fingerprint as a JSON object (new reference). */
json_t *env_to_json(const struct env_info *env);

/*
 * A stored fingerprint (env_to_json()'s, or a file's) as env_print() reads
 * it, every text escaped and a member that is missing or of another type
 * unknown. Of the vDSO's symbols only their count is kept: nothing is
 * allocated, nothing to free.
 */
void env_from_json(const json_t *j, struct env_info *env);

/* A short human block, "# kernel: 6.18.44 ..." lines, to stream f. */
void env_print(const struct env_info *env, FILE *f, const char *prefix);

/*
 * Parsers behind env_collect(), exposed for tests. env_parse_cpu_flags()
 * sets the timekeeping flags from the value of an x86 "flags" line, matching
 * whole words only. env_parse_cpuinfo() sets cpu_model and the flags from
 * the text of /proc/cpuinfo (NULL: clears them).
 */
void env_parse_cpu_flags(struct env_info *env, const char *flags);
void env_parse_cpuinfo(struct env_info *env, const char *cpuinfo);

/* The inode of the root time namespace (PROC_TIME_INIT_INO). */
#define ROOT_TIME_NS_INO 0xEFFFFFFAu

#endif
