/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doctor/: facts, probes, causes and advice of clockbench doctor (its
 * layer: src/meson.build).
 *
 * clockbench doctor: does each time call enter the kernel, and why?
 *
 * Three steps, kept apart so that the reasoning can be tested without the
 * machine it describes:
 *  - observe (doctor-probe.c): run a cell under a seccomp trap and give a
 *    verdict: userspace, kernel or unsupported;
 *  - gather facts (doctor-facts.c): clocksource, vDSO exports, libc, static
 *    linking, time namespace, interposed symbols, kernel log hints;
 *  - explain (doctor.c): pure functions of (cell, verdicts, facts) that name
 *    the cause, its evidence, the advice and the userspace equivalent.
 */
#ifndef CLOCKBENCH_DOCTOR_H
#define CLOCKBENCH_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/catalog.h"
#include "probe/env.h"

enum doctor_verdict {
	VERDICT_USERSPACE,	/* served without entering the kernel */
	VERDICT_KERNEL,		/* made one of the API's system calls */
	VERDICT_UNSUPPORTED,	/* no such path here, or the kernel rejects it */
	VERDICT_UNKNOWN,	/* the probe could not run */
};

const char *doctor_verdict_name(enum doctor_verdict v);

enum doctor_cause {
	CAUSE_NONE,		/* userspace, or nothing to explain */
	CAUSE_SYSCALL_PATH,	/* the raw system call: kernel by design */
	CAUSE_NO_VDSO_PATH,	/* CPU-time and ALARM clocks, times, getrusage */
	CAUSE_NO_VDSO,		/* the process has no vDSO at all */
	CAUSE_VDSO_MISSING,	/* the vDSO does not export the symbol */
	CAUSE_CLOCKSOURCE,	/* the clocksource cannot be read by the vDSO */
	CAUSE_INTERPOSED,	/* the libc symbol resolves to another library */
	CAUSE_STATIC,		/* a static binary whose libc skips the vDSO */
	CAUSE_LIBC_NO_VDSO,	/* libc does not call the exported vDSO symbol */
	CAUSE_TIMENS,		/* a note: slower vDSO path in a time namespace */
	CAUSE_UNEXPLAINED,	/* kernel, and no known cause applies */
	CAUSE_COUNT,
};

/* "no-vdso-path": stable identifiers for JSON and scripts. */
const char *doctor_cause_id(enum doctor_cause cause);
/* "no vDSO path": short labels for people. */
const char *doctor_cause_label(enum doctor_cause cause);

enum doctor_severity {
	SEVERITY_NONE,		/* nothing to report */
	SEVERITY_NOTE,		/* worth knowing, costs nothing to ignore */
	SEVERITY_FINDING,	/* enters the kernel; inherent or not a clock read */
	SEVERITY_PROBLEM,	/* an hres or coarse clock read enters the kernel */
};

const char *doctor_severity_name(enum doctor_severity s);

/* Whether the clocksource's reads can be served by the vDSO. */
enum clocksource_vdso {
	CS_VDSO_UNKNOWN,	/* a name doctor does not know */
	CS_VDSO_YES,
	CS_VDSO_CONDITIONAL,	/* only with a stable TSC, or without an erratum */
	CS_VDSO_NO,
};

/* Capability of a clocksource by name; how (may be NULL) tells the rule. */
enum clocksource_vdso doctor_clocksource_vdso(const char *name, const char **how);
/* "yes", "conditional", "no", "unknown". */
const char *doctor_clocksource_vdso_name(enum clocksource_vdso cap);

/* What doctor knows about the process and the machine. */
struct doctor_facts {
	char machine[64];		/* uname -m */
	char clocksource[64];		/* current_clocksource; "" unknown */
	char clocksources[256];		/* available_clocksource */
	char tsc_hint[384];		/* kernel log / cmdline / sysfs evidence */
	bool have_vdso;
	char vdso_error[128];
	char vdso_version[32];		/* "LINUX_2.6" */
	bool vdso_exports[API_COUNT];	/* the API's symbol is exported */
	char libc_name[32];		/* "glibc" */
	char libc_version[32];		/* "2.36" */
	bool static_binary;		/* this process has no program interpreter */
	bool in_timens;			/* in a non-root time namespace */
	char interposer[API_COUNT][128];	/* file the libc symbol resolves
						 * to, when not the C library */
};

/* Fill facts from the environment, the catalog's vDSO and the process. */
void doctor_collect_facts(struct doctor_facts *f, const struct catalog *cat,
			  const struct env_info *env);

/*
 * The calls the health check wants in userspace: clock_gettime of the hres
 * and coarse clocks, gettimeofday and time, through the vdso and libc paths.
 */
bool doctor_must_be_userspace(const struct cell *c);

enum doctor_severity doctor_severity(const struct cell *c, enum doctor_verdict v,
				     enum doctor_cause cause);

/*
 * Why a call entered the kernel. v is the cell's verdict; vdso_v that of
 * the same API and clock through the vDSO (VERDICT_UNKNOWN when not probed),
 * which separates the clocksource (the vDSO itself falls back) from libc
 * (the vDSO stays in userspace, libc does not use it). CAUSE_NONE unless v
 * is VERDICT_KERNEL.
 */
enum doctor_cause doctor_attribute(const struct cell *c, enum doctor_verdict v,
				   enum doctor_verdict vdso_v,
				   const struct doctor_facts *f);

/* One sentence of evidence for the cause, from the facts. */
void doctor_evidence(char *buf, size_t len, enum doctor_cause cause,
		     const struct cell *c, const struct doctor_facts *f);

/* Concrete advice for the cause; "" when there is nothing to do. */
void doctor_advice(char *buf, size_t len, enum doctor_cause cause,
		   const struct cell *c, const struct doctor_facts *f);

/* The call that does the same job in userspace, to compare costs with. */
struct doctor_equivalent {
	enum api api;
	const struct clock_info *clock;	/* NULL for APIs without a clock */
	enum path path;
};

bool doctor_equivalent(const struct cell *c, enum doctor_cause cause,
		       struct doctor_equivalent *eq);

/* Whether libc is glibc older than major.minor (false when unknown). */
bool doctor_glibc_older(const char *name, const char *version, int major,
			int minor);

/*
 * Evidence that the kernel distrusts the TSC: the last kernel log line that
 * says so (kmsg records or dmesg lines; NULL: the log was not readable),
 * tsc=unstable on the command line, and on x86 a missing "tsc" among the
 * available clocksources. "" when there is none.
 */
void doctor_tsc_hint(char *buf, size_t len, const char *kmsg,
		     const char *cmdline, const char *available,
		     const char *machine);

/* ---- observing (doctor-probe.c) ------------------------------------- */

struct doctor_probe {
	enum doctor_verdict verdict;
	unsigned long calls;		/* calls made under the filter */
	unsigned long entries;		/* system calls they attempted */
	char syscalls[96];		/* their names, "clock_gettime,..." */
	char error[192];		/* why unsupported or unknown */
};

/* The calls each probe makes under the filter, after as many to warm up. */
#define DOCTOR_PROBE_CALLS 64

/* Run the cell's call in a child under a seccomp trap and classify it. */
void doctor_probe_cell(const struct cell *c, struct doctor_probe *out);

/* ---- the static probe (doctor-probe.c) ------------------------------ */

struct doctor_static_result {
	char name[64];			/* "clock-gettime-monotonic" */
	enum doctor_verdict verdict;
	double ns;			/* per call, measured by the probe */
	char syscalls[64];		/* "-" when none */
};

#define DOCTOR_STATIC_MAX 8

struct doctor_static {
	bool ran;
	char path[4128];		/* PATH_MAX plus the helper's name */
	char skip_reason[512];		/* why it did not run */
	char libc[64];			/* the static binary's libc */
	bool vdso;			/* it saw AT_SYSINFO_EHDR */
	struct doctor_static_result results[DOCTOR_STATIC_MAX];
	size_t n;
};

/* The name of the helper, installed next to the clockbench binary. */
#define DOCTOR_STATIC_PROBE "clockbench-static-probe"

/*
 * Find and run the static helper (CLOCKBENCH_STATIC_PROBE overrides its
 * path; empty disables it). Never fails: s->ran or s->skip_reason.
 */
void doctor_run_static_probe(struct doctor_static *s);

/* Parse "NAME VERDICT NS SYSCALLS", one line of the helper's output. */
bool doctor_parse_static_line(const char *line, struct doctor_static_result *r);

#endif
