// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify's time64 group: on a 32-bit build with a 32-bit time_t, the y2038
 * calls (__vdso_clock_gettime64, glibc's __clock_gettime64, the
 * clock_gettime64 and clock_getres_time64 system calls) must tell the same
 * time as the classic 32-bit calls: each 64-bit read lies between two
 * 32-bit syscall reads, and each resolution equals the 32-bit syscall's.
 * Elsewhere the group has no points.
 */
#include "verify/verify.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/vdso-call.h"

#if CATALOG_TIME64

/* Bracketed reads per point: enough to catch a path that lags, quickly. */
#define TIME64_READS 2000

/* One 64-bit call through path p: 0, or the errno. */
static int call64(const struct verify *v, enum api api, enum path p,
		  clockid_t id, struct timespec64 *ts)
{
	bool getres = api == API_CLOCK_GETRES64;
	long ret;

	switch (p) {
	case PATH_VDSO:
		ret = vdso_clock_call(v->vdso_fn[api], id, ts);
		return ret < 0 ? (int)-ret : 0;
	case PATH_LIBC:
		ret = getres ? __clock_getres64(id, ts) : __clock_gettime64(id, ts);
		break;
	default:
		ret = syscall(getres ? SYS_clock_getres_time64 : SYS_clock_gettime64, id, ts);
		break;
	}
	return ret < 0 ? errno : 0;
}

static int64_t ns64(const struct timespec64 *ts)
{
	return ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* The classic call with the 32-bit struct timespec, as the reference. */
static int64_t sys32_ns(bool getres, clockid_t id)
{
	struct timespec ts;

	if (syscall(getres ? SYS_clock_getres : SYS_clock_gettime, id, &ts) != 0)
		return -1;
	return ts_ns(&ts);
}

static void gettime_point(struct verify *v, const struct clock_info *ci, enum path p)
{
	struct timespec64 ts;
	int64_t before, after, worst = 0;
	unsigned broken = 0;

	for (unsigned i = 0; i < TIME64_READS; i++) {
		int err;

		before = sys32_ns(false, ci->id);
		err = call64(v, API_CLOCK_GETTIME64, p, ci->id, &ts);
		after = sys32_ns(false, ci->id);
		if (err) {
			vfail(v, "clock_gettime64 failed with %s", errno_name(err));
			return;
		}
		if (ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000) {
			vfail(v, "tv_nsec %lld is outside [0, 1e9)", (long long)ts.tv_nsec);
			return;
		}
		if (ns64(&ts) < before || ns64(&ts) > after) {
			int64_t off = ns64(&ts) < before ? before - ns64(&ts) : ns64(&ts) - after;

			broken++;
			worst = off > worst ? off : worst;
		}
	}
	if (broken)
		vfail(v, "%u of %u reads outside the 32-bit syscall bracket, the worst by %lld ns",
		      broken, TIME64_READS, (long long)worst);
	else
		vpass(v, "%u %s reads, each between two 32-bit clock_gettime syscalls",
		      TIME64_READS, catalog_paths[p]);
}

static void getres_point(struct verify *v, const struct clock_info *ci, enum path p)
{
	struct timespec64 ts;
	int64_t want = sys32_ns(true, ci->id);
	int err = call64(v, API_CLOCK_GETRES64, p, ci->id, &ts);

	if (err)
		vfail(v, "clock_getres64 failed with %s", errno_name(err));
	else if (ns64(&ts) != want)
		vfail(v, "%lld ns, the 32-bit clock_getres syscall says %lld ns",
		      (long long)ns64(&ts), (long long)want);
	else
		vpass(v, "%lld ns, as the 32-bit clock_getres syscall", (long long)want);
}

/* Clocks whose time both layouts can bracket: not CPU time, not alarms. */
static bool bracketable(const struct clock_info *ci)
{
	return ci->kind == CLOCK_KIND_HRES || ci->kind == CLOCK_KIND_COARSE;
}

static void walk(struct verify *v, enum api api)
{
	for_each_clock(ci) {
		const struct cell *cell;

		if (!bracketable(ci))
			continue;
		for (int p = 0; p < PATH_COUNT; p++) {
			const char *why;

			if (!verify_path_by_design(api, p) ||
			    !vpoint(v, VT_NONE, "time64/%s-%s/%s", catalog_apis[api].label,
				    ci->name, catalog_paths[p]))
				continue;
			cell = verify_cell(v, api, ci, p);
			why = verify_path_missing(v, api, p);
			if (why)
				vskip(v, "%s", why);
			else if (cell && cell->status == CELL_UNSUPPORTED)
				vskip(v, "%s", cell->why);
			else if (api == API_CLOCK_GETTIME64)
				gettime_point(v, ci, p);
			else
				getres_point(v, ci, p);
		}
	}
}

void verify_time64(struct verify *v)
{
	walk(v, API_CLOCK_GETTIME64);
	walk(v, API_CLOCK_GETRES64);
}

#else

void verify_time64(struct verify *v)
{
	(void)v;
}

#endif
