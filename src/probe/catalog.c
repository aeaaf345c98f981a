// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/timesys.h"

const struct clock_info catalog_clocks[] = {
	{ CLOCK_REALTIME, "realtime", "CLOCK_REALTIME", CLOCK_KIND_HRES },
	{ CLOCK_MONOTONIC, "monotonic", "CLOCK_MONOTONIC", CLOCK_KIND_HRES },
	{ CLOCK_PROCESS_CPUTIME_ID, "process-cputime", "CLOCK_PROCESS_CPUTIME_ID",
	  CLOCK_KIND_CPUTIME },
	{ CLOCK_THREAD_CPUTIME_ID, "thread-cputime", "CLOCK_THREAD_CPUTIME_ID",
	  CLOCK_KIND_CPUTIME },
	{ CLOCK_MONOTONIC_RAW, "monotonic-raw", "CLOCK_MONOTONIC_RAW", CLOCK_KIND_HRES },
	{ CLOCK_REALTIME_COARSE, "realtime-coarse", "CLOCK_REALTIME_COARSE",
	  CLOCK_KIND_COARSE },
	{ CLOCK_MONOTONIC_COARSE, "monotonic-coarse", "CLOCK_MONOTONIC_COARSE",
	  CLOCK_KIND_COARSE },
	{ CLOCK_BOOTTIME, "boottime", "CLOCK_BOOTTIME", CLOCK_KIND_HRES },
	{ CLOCK_REALTIME_ALARM, "realtime-alarm", "CLOCK_REALTIME_ALARM",
	  CLOCK_KIND_ALARM },
	{ CLOCK_BOOTTIME_ALARM, "boottime-alarm", "CLOCK_BOOTTIME_ALARM",
	  CLOCK_KIND_ALARM },
	/* 10 was CLOCK_SGI_CYCLE, removed from the kernel: not measured. */
	{ CLOCK_TAI, "tai", "CLOCK_TAI", CLOCK_KIND_HRES },
};
const size_t catalog_nclocks = ARRAY_SIZE(catalog_clocks);

const char *const catalog_paths[PATH_COUNT] = {
	[PATH_VDSO] = "vdso",
	[PATH_LIBC] = "libc",
	[PATH_SYSCALL] = "syscall",
};

/* Bytes getrandom fills per call, as vdsotest and the kernel's test do. */
#define GETRANDOM_BYTES 16

/* ---- names ---------------------------------------------------------- */

/* Equal ignoring case, with '-' and '_' interchangeable. */
static bool name_matches(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (char)tolower((unsigned char)*a);
		char y = (char)tolower((unsigned char)*b);

		if (x == '-')
			x = '_';
		if (y == '-')
			y = '_';
		if (x != y)
			return false;
	}
	return *a == *b;
}

int catalog_api_by_name(const char *name)
{
	for (int i = 0; i < API_COUNT; i++)
		if (catalog_api_here(i) && name_matches(name, catalog_apis[i].name))
			return i;
	return -1;
}

int catalog_path_by_name(const char *name)
{
	for (int i = 0; i < PATH_COUNT; i++)
		if (name_matches(name, catalog_paths[i]))
			return i;
	return -1;
}

const struct clock_info *catalog_clock_by_name(const char *name)
{
	long id;

	for (size_t i = 0; i < catalog_nclocks; i++) {
		const struct clock_info *ci = &catalog_clocks[i];

		if (name_matches(name, ci->name) || name_matches(name, ci->macro) ||
		    name_matches(name, ci->macro + strlen("CLOCK_")))
			return ci;
	}
	if (parse_int(name, 0, 1000, &id))
		for (size_t i = 0; i < catalog_nclocks; i++)
			if (catalog_clocks[i].id == id)
				return &catalog_clocks[i];
	return NULL;
}

const char *errno_name(int err)
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 32)
	const char *name = strerrorname_np(err);

	if (name)
		return name;
#endif
	static __thread char buf[16];

	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* ---- the loops ------------------------------------------------------ */

typedef int (*clock_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef int (*getcpu3_fn)(unsigned *, unsigned *, void *);
typedef ssize_t (*vgetrandom_fn)(void *, size_t, unsigned, void *, size_t);

#define REPEAT8(x) do { x; x; x; x; x; x; x; x; } while (0)

/*
 * One loop per call signature. setup runs once per batch; the call is
 * unrolled CELL_UNROLL times so the loop's own branch is amortised.
 */
#define DEFINE_LOOP(name, setup, ...)					\
	static void loop_##name(const struct cell *c, unsigned long n)	\
	{								\
		setup;							\
		(void)c;						\
		for (unsigned long i = 0; i < n; i += CELL_UNROLL)	\
			REPEAT8(__VA_ARGS__);				\
	}

DEFINE_LOOP(clock_fn, clock_fn fn = (clock_fn)c->fn; clockid_t id = c->clock->id;
	    struct timespec ts, fn(id, &ts))
DEFINE_LOOP(gettimeofday_fn, gettimeofday_fn fn = (gettimeofday_fn)c->fn;
	    struct timeval tv, fn(&tv, NULL))
DEFINE_LOOP(time_fn, time_fn fn = (time_fn)c->fn, fn(NULL))
DEFINE_LOOP(getcpu3_fn, getcpu3_fn fn = (getcpu3_fn)c->fn; unsigned cpu;
	    unsigned node, fn(&cpu, &node, NULL))
DEFINE_LOOP(vgetrandom_fn, vgetrandom_fn fn = (vgetrandom_fn)c->fn;
	    unsigned char buf[GETRANDOM_BYTES],
	    fn(buf, sizeof(buf), 0, c->state, c->state_len))

DEFINE_LOOP(libc_clock_gettime, clockid_t id = c->clock->id; struct timespec ts,
	    clock_gettime(id, &ts))
DEFINE_LOOP(libc_clock_getres, clockid_t id = c->clock->id; struct timespec ts,
	    clock_getres(id, &ts))
DEFINE_LOOP(libc_gettimeofday, struct timeval tv, gettimeofday(&tv, NULL))
DEFINE_LOOP(libc_time, , time(NULL))
DEFINE_LOOP(libc_getcpu, unsigned cpu; unsigned node, getcpu(&cpu, &node))
DEFINE_LOOP(libc_getrandom, unsigned char buf[GETRANDOM_BYTES],
	    (void)!getrandom(buf, sizeof(buf), 0))
DEFINE_LOOP(libc_times, struct tms t, times(&t))
DEFINE_LOOP(libc_getrusage, struct rusage ru, getrusage(RUSAGE_SELF, &ru))

#if CATALOG_TIME64
typedef int (*clock64_fn)(clockid_t, struct timespec64 *);

DEFINE_LOOP(clock64_fn, clock64_fn fn = (clock64_fn)c->fn; clockid_t id = c->clock->id;
	    struct timespec64 ts, fn(id, &ts))
DEFINE_LOOP(libc_clock_gettime64, clockid_t id = c->clock->id; struct timespec64 ts,
	    __clock_gettime64(id, &ts))
DEFINE_LOOP(libc_clock_getres64, clockid_t id = c->clock->id; struct timespec64 ts,
	    __clock_getres64(id, &ts))
DEFINE_LOOP(sys_clock_gettime64, clockid_t id = c->clock->id; struct timespec64 ts,
	    syscall(SYS_clock_gettime64, id, &ts))
DEFINE_LOOP(sys_clock_getres64, clockid_t id = c->clock->id; struct timespec64 ts,
	    syscall(SYS_clock_getres_time64, id, &ts))
#define IF_TIME64(loop) loop
#else
#define IF_TIME64(loop) NULL	/* the rows of APIs this build does not have */
#endif

/* 32-bit builds with a 64-bit time_t need the *64 system calls. */
#if defined(SYS_clock_gettime64) && defined(__USE_TIME_BITS64)
#define SYS_CLOCK_GETTIME SYS_clock_gettime64
#define SYS_CLOCK_GETRES SYS_clock_getres_time64
#else
#define SYS_CLOCK_GETTIME SYS_clock_gettime
#define SYS_CLOCK_GETRES SYS_clock_getres
#endif

DEFINE_LOOP(sys_clock_gettime, clockid_t id = c->clock->id; struct timespec ts,
	    syscall(SYS_CLOCK_GETTIME, id, &ts))
DEFINE_LOOP(sys_clock_getres, clockid_t id = c->clock->id; struct timespec ts,
	    syscall(SYS_CLOCK_GETRES, id, &ts))
/* Where the architecture lacks the call (probe/timesys.h), no such path. */
#ifdef SYS_gettimeofday
DEFINE_LOOP(sys_gettimeofday, struct timeval tv, syscall(SYS_gettimeofday, &tv, NULL))
#define LOOP_SYS_GETTIMEOFDAY loop_sys_gettimeofday
#else
#define LOOP_SYS_GETTIMEOFDAY NULL
#endif
#ifdef SYS_time
DEFINE_LOOP(sys_time, , syscall(SYS_time, NULL))
#define LOOP_SYS_TIME loop_sys_time
#else
#define LOOP_SYS_TIME NULL
#endif
DEFINE_LOOP(sys_getcpu, unsigned cpu; unsigned node,
	    syscall(SYS_getcpu, &cpu, &node, NULL))
DEFINE_LOOP(sys_getrandom, unsigned char buf[GETRANDOM_BYTES],
	    syscall(SYS_getrandom, buf, sizeof(buf), 0))
DEFINE_LOOP(sys_times, struct tms t, syscall(SYS_times, &t))
DEFINE_LOOP(sys_getrusage, struct rusage ru, syscall(SYS_getrusage, RUSAGE_SELF, &ru))

/* ---- the APIs ------------------------------------------------------- */

#define LOOPS(vdso, libc, sys) \
	{ [PATH_VDSO] = (vdso), [PATH_LIBC] = (libc), [PATH_SYSCALL] = (sys) }

/* One row per API; its fields: catalog.h. */
const struct api_info catalog_apis[API_COUNT] = {
	[API_CLOCK_GETTIME] = {
		.name = "clock_gettime", .label = "clock-gettime", .per_clock = true,
		.vdso_entry = VDSO_ENTRY(clock_gettime),
		.syscall = SYS_CLOCK_GETTIME,
		.loop = LOOPS(loop_clock_fn, loop_libc_clock_gettime,
			      loop_sys_clock_gettime),
	},
	[API_CLOCK_GETRES] = {
		.name = "clock_getres", .label = "clock-getres", .per_clock = true,
		.vdso_entry = VDSO_ENTRY(clock_getres),
		.syscall = SYS_CLOCK_GETRES,
		.loop = LOOPS(loop_clock_fn, loop_libc_clock_getres,
			      loop_sys_clock_getres),
	},
	[API_GETTIMEOFDAY] = {
		.name = "gettimeofday", .label = "gettimeofday",
		.vdso_entry = VDSO_ENTRY(gettimeofday),
		.syscall = TIMESYS_GETTIMEOFDAY,
		.loop = LOOPS(loop_gettimeofday_fn, loop_libc_gettimeofday,
			      LOOP_SYS_GETTIMEOFDAY),
	},
	[API_TIME] = {
		.name = "time", .label = "time",
		.vdso_entry = VDSO_ENTRY(time),
		.syscall = TIMESYS_TIME,
		.loop = LOOPS(loop_time_fn, loop_libc_time, LOOP_SYS_TIME),
	},
	[API_GETCPU] = {
		.name = "getcpu", .label = "getcpu",
		.vdso_entry = VDSO_ENTRY(getcpu),
		.syscall = SYS_getcpu,
		.loop = LOOPS(loop_getcpu3_fn, loop_libc_getcpu, loop_sys_getcpu),
	},
	[API_GETRANDOM] = {
		.name = "getrandom", .label = "getrandom",
		.vdso_entry = VDSO_ENTRY(getrandom),
		.syscall = SYS_getrandom,
		.loop = LOOPS(loop_vgetrandom_fn, loop_libc_getrandom,
			      loop_sys_getrandom),
	},
	[API_TIMES] = {
		.name = "times", .label = "times",
		.vdso_entry = VDSO_NO_ENTRY,
		.syscall = SYS_times,
		.loop = LOOPS(NULL, loop_libc_times, loop_sys_times),
	},
	[API_GETRUSAGE] = {
		.name = "getrusage", .label = "getrusage",
		.vdso_entry = VDSO_NO_ENTRY,
		.syscall = SYS_getrusage,
		.loop = LOOPS(NULL, loop_libc_getrusage, loop_sys_getrusage),
	},
	[API_CLOCK_GETTIME64] = {
		.name = "clock_gettime64", .label = "clock-gettime64", .per_clock = true,
		.time64 = true,
		.vdso_entry = VDSO_ENTRY(clock_gettime64),
		.syscall = TIMESYS_CLOCK_GETTIME64,
		.loop = LOOPS(IF_TIME64(loop_clock64_fn),
			      IF_TIME64(loop_libc_clock_gettime64),
			      IF_TIME64(loop_sys_clock_gettime64)),
	},
	/* i386 and arm have no vDSO clock_getres64: the name stays NULL. */
	[API_CLOCK_GETRES64] = {
		.name = "clock_getres64", .label = "clock-getres64", .per_clock = true,
		.time64 = true,
		.vdso_entry = VDSO_ENTRY(clock_getres64),
		.syscall = TIMESYS_CLOCK_GETRES_TIME64,
		.loop = LOOPS(IF_TIME64(loop_clock64_fn),
			      IF_TIME64(loop_libc_clock_getres64),
			      IF_TIME64(loop_sys_clock_getres64)),
	},
};
_Static_assert(VDSO_NO_ENTRY == offsetof(struct vdso_names, version),
	       "VDSO_NO_ENTRY is the offset of a name no API has");

bool catalog_api_here(enum api api)
{
	if (api < 0 || api >= API_COUNT)
		return false;
	return !catalog_apis[api].time64 || CATALOG_TIME64;
}

const char *catalog_vdso_symbol(enum api api)
{
	const char *names = (const char *)vdso_arch_names();
	size_t entry = catalog_apis[api].vdso_entry;

	if (entry == VDSO_NO_ENTRY)
		return NULL;
	return *(const char *const *)(names + entry);
}

bool catalog_api_in_vdso(enum api api)
{
	return catalog_apis[api].vdso_entry != VDSO_NO_ENTRY;
}

long catalog_syscall(enum api api)
{
	return catalog_api_here(api) ? catalog_apis[api].syscall : CATALOG_NO_SYSCALL;
}

/* The harness's own cost: the clock_gettime loop calling nothing. */
static __attribute__((noinline)) int empty_clock_fn(clockid_t id,
						    struct timespec *ts)
{
	(void)id;
	(void)ts;
	__asm__ __volatile__("" ::: "memory");
	return 0;
}

/* empty_clock_fn and CATALOG_RULER_NOPS nops more. */
static __attribute__((noinline)) int ruler_clock_fn(clockid_t id, struct timespec *ts)
{
	(void)id;
	(void)ts;
	__asm__ __volatile__(".rept 64\n\tnop\n\t.endr" ::: "memory");
	return 0;
}
_Static_assert(CATALOG_RULER_NOPS == 64, "the .rept count of ruler_clock_fn");

void catalog_ruler_cell(struct cell *c)
{
	catalog_overhead_cell(c);
	snprintf(c->name, sizeof(c->name), "harness-ruler");
	c->fn = (void *)ruler_clock_fn;
}

void catalog_overhead_cell(struct cell *c)
{
	static const struct clock_info none = { CLOCK_MONOTONIC, "none", "none",
						CLOCK_KIND_HRES };

	memset(c, 0, sizeof(*c));
	c->api = API_CLOCK_GETTIME;
	c->path = PATH_VDSO;
	c->clock = &none;
	snprintf(c->name, sizeof(c->name), "harness-overhead");
	c->status = CELL_OK;
	c->fn = (void *)empty_clock_fn;
	c->loop = loop_clock_fn;
}

/* ---- paths ---------------------------------------------------------- */

static void cell_na(struct cell *c, const char *fmt, ...) _printf_(2, 3);
static void cell_na(struct cell *c, const char *fmt, ...)
{
	va_list ap;

	c->status = CELL_NA;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

struct vgetrandom_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

/*
 * The vDSO getrandom keeps its state in memory the caller maps with the
 * protection and flags the kernel asks for: ask with (NULL, 0, 0, &params,
 * ~0UL), then map one state for this thread.
 */
static void setup_vgetrandom_state(struct cell *c)
{
	vgetrandom_fn fn = (vgetrandom_fn)c->fn;
	struct vgetrandom_params params;
	long page = sysconf(_SC_PAGESIZE);
	ssize_t ret;
	void *p;

	memset(&params, 0, sizeof(params));
	ret = fn(NULL, 0, 0, &params, ~0UL);
	if (ret != 0 || params.size_of_opaque_state == 0) {
		cell_na(c, "the vDSO getrandom did not describe its state (%zd)", ret);
		return;
	}
	c->state_len = params.size_of_opaque_state;
	c->state_map_len = (c->state_len + (size_t)page - 1) & ~((size_t)page - 1);
	p = mmap(NULL, c->state_map_len, (int)params.mmap_prot,
		 (int)params.mmap_flags, -1, 0);
	if (p == MAP_FAILED) {
		cell_na(c, "cannot map the vDSO getrandom state: %s", strerror(errno));
		return;
	}
	c->state = p;
}

static void setup_vdso_path(struct cell *c, const struct catalog *cat)
{
	const char *sym = catalog_vdso_symbol(c->api);

	if (!sym) {
		cell_na(c, "the kernel's vDSO has no %s() on this architecture",
			catalog_apis[c->api].name);
		return;
	}
	if (!cat->have_vdso) {
		cell_na(c, "no vDSO in this process: %s", cat->vdso_error);
		return;
	}
	c->fn = vdso_lookup(&cat->vdso, sym, vdso_arch_names()->version);
	if (!c->fn) {
		cell_na(c, "the vDSO does not export %s@%s", sym,
			vdso_arch_names()->version);
		return;
	}
	c->loop = catalog_apis[c->api].loop[PATH_VDSO];
	if (c->api == API_GETRANDOM)
		setup_vgetrandom_state(c);
}

static void setup_libc_path(struct cell *c)
{
	c->loop = catalog_apis[c->api].loop[PATH_LIBC];
}

static void setup_syscall_path(struct cell *c)
{
	c->loop = catalog_apis[c->api].loop[PATH_SYSCALL];
	if (!c->loop)
		cell_na(c, "this architecture has no %s system call",
			catalog_apis[c->api].name);
}

/* ---- clocks the kernel rejects -------------------------------------- */

static bool rtc_present(void)
{
	DIR *d = opendir("/sys/class/rtc");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d)))
		found = e->d_name[0] != '.';
	closedir(d);
	return found;
}

/* Ask the kernel itself, through the raw syscall, whether it knows the id. */
static void check_clock_supported(struct cell *c)
{
	struct timespec64 ts;	/* room for either layout */

	if (syscall(catalog_syscall(c->api), c->clock->id, &ts) == 0)
		return;
	c->status = CELL_UNSUPPORTED;
	c->err = errno;
	snprintf(c->why, sizeof(c->why), "%s: the kernel rejects %s (id %d)%s",
		 errno_name(c->err), c->clock->macro, (int)c->clock->id,
		 c->clock->kind == CLOCK_KIND_ALARM && !rtc_present() ?
		 "; alarm clocks need an RTC and /sys/class/rtc is empty" : "");
}

/* ---- building ------------------------------------------------------- */

void catalog_filter_all(struct catalog_filter *f)
{
	memset(f, 1, sizeof(*f));
}

static void init_cell(struct cell *c, const struct catalog *cat, enum api api,
		      const struct clock_info *clock, enum path path)
{
	memset(c, 0, sizeof(*c));
	c->api = api;
	c->clock = clock;
	c->path = path;
	c->status = CELL_OK;
	if (clock)
		snprintf(c->name, sizeof(c->name), "%s-%s",
			 catalog_apis[api].label, clock->name);
	else
		snprintf(c->name, sizeof(c->name), "%s", catalog_apis[api].label);

	if (clock) {
		check_clock_supported(c);
		if (c->status != CELL_OK)
			return;
	}
	switch (path) {
	case PATH_VDSO:
		setup_vdso_path(c, cat);
		break;
	case PATH_LIBC:
		setup_libc_path(c);
		break;
	default:
		setup_syscall_path(c);
		break;
	}
}

static struct cell *append_cell(struct catalog *cat, size_t *cap)
{
	grow_array((void **)&cat->cells, cap, cat->ncells + 1, sizeof(*cat->cells));
	return &cat->cells[cat->ncells++];
}

void catalog_build(struct catalog *cat, const struct catalog_filter *filter)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	size_t cap = 0;

	memset(cat, 0, sizeof(*cat));
	cat->have_vdso = vdso_self(&cat->vdso, &why) == 0;
	/* Data, not a channel: copied into env and doctor's facts, and stored. */
	snprintf(cat->vdso_error, sizeof(cat->vdso_error), "%s", why.buf);

	for (int api = 0; api < API_COUNT; api++) {
		size_t nclk = catalog_apis[api].per_clock ? catalog_nclocks : 1;

		if (!filter->api[api] || !catalog_api_here(api))
			continue;
		for (size_t k = 0; k < nclk; k++) {
			const struct clock_info *clk =
				catalog_apis[api].per_clock ? &catalog_clocks[k] : NULL;

			if (clk && !filter->clock[clk->id])
				continue;
			for (int path = 0; path < PATH_COUNT; path++)
				if (filter->path[path])
					init_cell(append_cell(cat, &cap), cat, api,
						  clk, path);
		}
	}
}

void catalog_free(struct catalog *cat)
{
	for (size_t i = 0; i < cat->ncells; i++)
		if (cat->cells[i].state)
			munmap(cat->cells[i].state, cat->cells[i].state_map_len);
	free(cat->cells);
	cat->cells = NULL;
	cat->ncells = 0;
}
