/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe/: the machine and the calls it offers (vDSO, catalog, counters,
 * timing, environment, seccomp, namespaces; its layer: src/meson.build).
 *
 * The catalog of time APIs: every API x clock x path clockbench can call,
 * the function behind each, and why a cell cannot run when it cannot
 * (no such path here, or a clock id the kernel rejects).
 *
 * A cell knows how to make its call n times in a tight, unrolled loop; the
 * timing engine decides how to time that loop.
 */
#ifndef CLOCKBENCH_CATALOG_H
#define CLOCKBENCH_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "probe/vdso.h"

enum api {
	API_CLOCK_GETTIME,
	API_CLOCK_GETRES,
	API_GETTIMEOFDAY,
	API_TIME,
	API_GETCPU,
	API_GETRANDOM,
	API_TIMES,
	API_GETRUSAGE,
	/* The y2038 calls of 32-bit architectures built with a 32-bit time_t:
	 * a 64-bit struct timespec through __vdso_clock_gettime64, glibc's
	 * __clock_gettime64 and SYS_clock_gettime64 (getres: no vDSO entry on
	 * i386 or arm). Absent from the catalog elsewhere (catalog_api_here). */
	API_CLOCK_GETTIME64,
	API_CLOCK_GETRES64,
	API_COUNT,
};

/*
 * Whether this build has the time64 APIs as calls of their own: on 32-bit
 * architectures whose time_t is 32 bits (with _TIME_BITS=64 clock_gettime
 * already is clock_gettime64).
 */
#include <sys/syscall.h>
#if defined(SYS_clock_gettime64) && __SIZEOF_LONG__ == 4 && !defined(__USE_TIME_BITS64)
#define CATALOG_TIME64 1
#else
#define CATALOG_TIME64 0
#endif

/* The struct timespec of the time64 calls, whatever this build's time_t. */
struct timespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;	/* long long in the kernel's __kernel_timespec */
};

#if CATALOG_TIME64
/* glibc 2.34+ exports these on 32-bit architectures; its headers declare
 * them only for _TIME_BITS=64 builds, as clock_gettime's redirections. */
int __clock_gettime64(clockid_t id, struct timespec64 *ts);
int __clock_getres64(clockid_t id, struct timespec64 *ts);
#endif

enum path {
	PATH_VDSO,	/* direct call through the resolved vDSO symbol */
	PATH_LIBC,	/* the C library's function */
	PATH_SYSCALL,	/* raw syscall(2) */
	PATH_COUNT,
};

enum clock_kind {
	CLOCK_KIND_HRES,	/* read from the clocksource: vDSO-capable */
	CLOCK_KIND_COARSE,	/* last tick's time: vDSO, no clocksource read */
	CLOCK_KIND_CPUTIME,	/* process/thread CPU time: always a syscall */
	CLOCK_KIND_ALARM,	/* needs an RTC; never in the vDSO */
};

struct clock_info {
	clockid_t id;
	const char *name;	/* "monotonic-coarse", as in vdsotest */
	const char *macro;	/* "CLOCK_MONOTONIC_COARSE" */
	enum clock_kind kind;
};

struct cell;
typedef void (*cell_loop_fn)(const struct cell *c, unsigned long n);

/* The system call an architecture does not have (time(2) on arm64). */
#define CATALOG_NO_SYSCALL (-1L)

/*
 * Which name of struct vdso_names is an API's vDSO entry point: its
 * offset there, so that the per-architecture names stay the kernel's
 * facts in probe/vdso.c and a row only says which one is its own. Offset
 * 0 is the version, never an entry point: it marks an API no vDSO has.
 */
#define VDSO_ENTRY(field) offsetof(struct vdso_names, field)
#define VDSO_NO_ENTRY 0

/*
 * One row per API: all that tells the APIs apart as data, read by bench,
 * verify, doctor and vdso, so that a new API is a row, its loops and its
 * checks. Read through the accessors below where a row has conventions.
 */
struct api_info {
	const char *name;	/* "clock_gettime": the C name, used by --api */
	const char *label;	/* "clock-gettime": the vdsotest-style prefix */
	bool per_clock;		/* one cell per clock id */
	bool time64;		/* a y2038 variant: an API of its own only where
				 * CATALOG_TIME64 (a 32-bit time_t build) */
	size_t vdso_entry;	/* VDSO_ENTRY(name), or VDSO_NO_ENTRY */
	long syscall;		/* its own system call: what the syscall path
				 * calls (CATALOG_NO_SYSCALL where none) */
	cell_loop_fn loop[PATH_COUNT];	/* NULL: no such path here */
};

extern const struct clock_info catalog_clocks[];
extern const size_t catalog_nclocks;
extern const struct api_info catalog_apis[API_COUNT];
extern const char *const catalog_paths[PATH_COUNT];

/* Whether the API exists on this architecture and build (time64: 32-bit). */
bool catalog_api_here(enum api api);

/* The API's vDSO entry point on this architecture ("__vdso_time"), or NULL. */
const char *catalog_vdso_symbol(enum api api);

/*
 * Whether any architecture's vDSO implements the API: where none does
 * (times, getrusage), every call enters the kernel by design.
 */
bool catalog_api_in_vdso(enum api api);

/* The API's own system call here, or CATALOG_NO_SYSCALL. */
long catalog_syscall(enum api api);

/* Look-ups by name for the command line (case-insensitive, '-' == '_'). */
int catalog_api_by_name(const char *name);		/* -1 if unknown or not here */
int catalog_path_by_name(const char *name);		/* -1 if unknown */
/* By name ("monotonic", "CLOCK_MONOTONIC") or number ("1"): NULL if unknown. */
const struct clock_info *catalog_clock_by_name(const char *name);

enum cell_status {
	CELL_OK,		/* can be measured */
	CELL_NA,		/* the path does not exist for this API here */
	CELL_UNSUPPORTED,	/* the kernel rejects the call (errno kept) */
};

struct cell {
	enum api api;
	enum path path;
	const struct clock_info *clock;	/* NULL for APIs without a clock */
	char name[64];			/* "clock-gettime-monotonic" */
	enum cell_status status;
	int err;			/* errno for CELL_UNSUPPORTED */
	char why[192];			/* reason for NA / UNSUPPORTED */
	cell_loop_fn loop;		/* makes the call n times (n % 8 == 0) */
	void *fn;			/* the function the loop calls, if any */
	void *state;			/* vDSO getrandom opaque state (mmap'd) */
	size_t state_len;
	size_t state_map_len;
};

/* The loop's unroll factor: batch sizes are multiples of it. */
#define CELL_UNROLL 8

struct catalog {
	struct cell *cells;
	size_t ncells;
	struct vdso_image vdso;
	bool have_vdso;
	char vdso_error[128];
};

/* Which cells to build: NULL lists mean "all". */
struct catalog_filter {
	bool api[API_COUNT];
	bool path[PATH_COUNT];
	bool clock[16];		/* indexed by clock id */
};
void catalog_filter_all(struct catalog_filter *f);

/*
 * Resolve the vDSO (or record why there is none) and build the cells that
 * pass the filter, in api, clock, path order. Probes each clock id once with
 * the raw syscall so that ids the kernel rejects are marked unsupported.
 */
void catalog_build(struct catalog *cat, const struct catalog_filter *filter);
void catalog_free(struct catalog *cat);

/*
 * A cell that calls an empty function through the clock_gettime loop: its
 * cost is the harness's own overhead per call.
 */
void catalog_overhead_cell(struct cell *c);

/*
 * The same loop calling a function of exactly CATALOG_RULER_NOPS more
 * instructions than the empty one (as many nops, one instruction each on
 * every architecture): a ruler. Under an instruction-counting clock
 * (kernels --exact) the two cells differ by exactly that many per call,
 * which checks the instrument in every run; elsewhere the difference is
 * what that many nops cost.
 */
#define CATALOG_RULER_NOPS 64
void catalog_ruler_cell(struct cell *c);

/* "EINVAL" for EINVAL: errno names are what kernel people grep for. */
const char *errno_name(int err);

#endif
