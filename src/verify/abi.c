// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ABI checks: invalid clock ids and flags get EINVAL on every path,
 * bad pointers get EFAULT from the system call and EFAULT or SIGSEGV from
 * the vDSO (which writes through the pointer itself), and the NULL
 * pointers an API allows succeed. Every case runs in a forked child, so
 * a crash is an outcome to judge, not the end of the run.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/cpu-accounting.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

#define CHILD_TIMEOUT_MS 10000

/* ---- judging (pure) -------------------------------------------------------- */

bool abi_outcome_ok(enum path p, enum abi_expect expect, int expect_err,
		    const struct abi_outcome *o)
{
	const struct vres *r = &o->res;
	bool returned = o->kind == ABI_RETURNED;
	/* SIGBUS: 32-bit arm faults on the misaligned UINTPTR_MAX pointer. */
	bool segv = o->kind == ABI_SIGNALED && (o->sig == SIGSEGV || o->sig == SIGBUS);
	long minus_one = p == PATH_VDSO ? -(long)expect_err : -1;

	switch (expect) {
	case ABI_EXPECT_OK:
		return returned && !r->failed;
	case ABI_EXPECT_EINVAL:
		return returned && r->failed && r->err == expect_err &&
		       r->ret == minus_one;
	case ABI_EXPECT_EFAULT:
		if (returned && r->failed && r->err == EFAULT &&
		    r->ret == (p == PATH_VDSO ? -EFAULT : -1))
			return true;
		/* Only code in the caller's address space can fault. */
		return segv && p != PATH_SYSCALL;
	}
	return false;
}

void abi_expect_format(enum path p, enum abi_expect expect, int expect_err,
		       char *buf, size_t len)
{
	switch (expect) {
	case ABI_EXPECT_OK:
		snprintf(buf, len, "success");
		break;
	case ABI_EXPECT_EINVAL:
		if (p == PATH_VDSO)
			snprintf(buf, len, "-%s", errno_name(expect_err));
		else
			snprintf(buf, len, "-1 with errno %s", errno_name(expect_err));
		break;
	case ABI_EXPECT_EFAULT:
		snprintf(buf, len, "%s", p == PATH_VDSO ? "-EFAULT or SIGSEGV" :
			 p == PATH_LIBC ? "-1 with errno EFAULT, or SIGSEGV" :
			 "-1 with errno EFAULT");
		break;
	}
}

static const char *signal_name(int sig)
{
	static __thread char buf[24];

	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGILL: return "SIGILL";
	case SIGKILL: return "SIGKILL";
	case SIGTRAP: return "SIGTRAP";
	default:
		snprintf(buf, sizeof(buf), "signal %d", sig);
		return buf;
	}
}

void abi_outcome_format(enum path p, const struct abi_outcome *o, char *buf,
			size_t len)
{
	char ret[64];

	switch (o->kind) {
	case ABI_RETURNED:
		vres_format(p, &o->res, ret, sizeof(ret));
		snprintf(buf, len, "%s", ret);
		break;
	case ABI_SIGNALED:
		snprintf(buf, len, "%s", signal_name(o->sig));
		break;
	case ABI_LOST:
		snprintf(buf, len, "exit status %d without a result", o->status);
		break;
	}
}

/* ---- cases ----------------------------------------------------------------- */

const char *const abi_ptr_names[ABI_PTR_KINDS] = {
	"valid", "null", "uintptr-max", "prot-none", "read-only", "straddle",
};

/* The kind as the expectation's note says it. */
static const char *const ptr_words[ABI_PTR_KINDS] = {
	"valid", "NULL", "UINTPTR_MAX", "a PROT_NONE page", "a read-only page",
	"a struct straddling into a PROT_NONE page",
};

enum abi_arg_use abi_arg_use(enum api api, int arg)
{
	switch (api) {
	case API_CLOCK_GETRES:
	case API_GETTIMEOFDAY:
	case API_TIME:
		return ABI_ARG_NULL_OK;
	case API_GETCPU:
		return arg == 2 ? ABI_ARG_IGNORED : ABI_ARG_NULL_OK;
	default:
		return ABI_ARG_WRITTEN;
	}
}

/* Whether a call must fault on an argument of this kind. */
static bool arg_faults(enum abi_arg_use use, enum abi_ptr kind)
{
	if (kind == ABI_PTR_VALID || use == ABI_ARG_IGNORED)
		return false;
	return !(kind == ABI_PTR_NULL && use == ABI_ARG_NULL_OK);
}

enum abi_expect abi_pointers_expect(enum api api, const enum abi_ptr *ptr, int nargs,
				    const char *const *arg_names, char *note,
				    size_t len)
{
	bool fault = false;
	size_t used = 0;

	note[0] = '\0';
	for (int i = 0; i < nargs; i++) {
		enum abi_arg_use use = abi_arg_use(api, i);
		const char *what;

		if (ptr[i] == ABI_PTR_VALID)
			continue;
		fault |= arg_faults(use, ptr[i]);
		what = use == ABI_ARG_IGNORED ? ": ignored" :
		       arg_faults(use, ptr[i]) ? " and must be written" : ": not wanted";
		if (used < len)
			used += (size_t)snprintf(note + used, len - used, "%s%s is %s%s",
						 used ? "; " : " (", arg_names[i],
						 ptr_words[ptr[i]], what);
	}
	if (used && used < len)
		snprintf(note + used, len - used, ")");
	return fault ? ABI_EXPECT_EFAULT : ABI_EXPECT_OK;
}

void abi_pointers_name(const enum abi_ptr *ptr, int nargs,
		       const char *const *arg_names, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < nargs; i++)
		if (ptr[i] != ABI_PTR_VALID && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s-%s",
						 used ? "+" : "", arg_names[i],
						 abi_ptr_names[ptr[i]]);
	if (!used)
		snprintf(buf, len, "all-valid");
}

struct abi_case {
	enum api api;
	enum path path;
	clockid_t id;
	enum abi_ptr ptr[ABI_MAX_ARGS];	/* the kind of each pointer argument */
	unsigned flags;		/* getrandom */
	enum abi_expect expect;
	int expect_err;
};

/* The size of what each API writes through its pointer arguments. */
static size_t arg_size(enum api api, int arg)
{
	switch (api) {
	case API_CLOCK_GETTIME:
	case API_CLOCK_GETRES:
		return sizeof(struct timespec);
	case API_GETTIMEOFDAY:
		return arg == 0 ? sizeof(struct timeval) : sizeof(struct timezone);
	case API_TIME:
		return sizeof(time_t);
	case API_GETCPU:
		return sizeof(unsigned);
	case API_GETRANDOM:
		return 16;
	default:
		return 64;
	}
}

/* A pointer of the given kind for size bytes (in the child: never freed). */
static void *make_ptr(enum abi_ptr kind, size_t size, void *valid)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	switch (kind) {
	case ABI_PTR_VALID:
		return valid;
	case ABI_PTR_NULL:
		return NULL;
	case ABI_PTR_UINTPTR_MAX:
		return (void *)UINTPTR_MAX;
	case ABI_PTR_PROT_NONE:
	case ABI_PTR_READ_ONLY:
		p = mmap(NULL, (size_t)page, kind == ABI_PTR_READ_ONLY ? PROT_READ : PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	case ABI_PTR_STRADDLE:
		p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || mprotect(p + page, (size_t)page, PROT_NONE))
			return NULL;
		return p + page - size / 2;
	default:
		return valid;
	}
}

/* What the child sends back: the call's outcome, and what a clock call
 * wrote through a valid pointer. */
struct case_report {
	struct vres res;
	bool wrote_ts;
	struct timespec ts;
};

/* A clock call through a valid pointer, which the report carries back. */
static struct vres clock_case(const struct verify *v, const struct abi_case *c,
			      void *arg, struct case_report *rep)
{
	struct timespec *ts = arg;
	struct vres r = c->api == API_CLOCK_GETTIME ? vcall_gettime(v, c->path, c->id, ts) :
			vcall_getres(v, c->path, c->id, ts);

	if (!r.failed && c->ptr[0] == ABI_PTR_VALID) {
		rep->wrote_ts = true;
		rep->ts = *ts;
	}
	return r;
}

static struct vres call_case(const struct verify *v, const struct abi_case *c,
			     struct case_report *rep)
{
	static _Alignas(16) char valid[ABI_MAX_ARGS][64];
	void *a[ABI_MAX_ARGS];
	struct vres r;

	for (int i = 0; i < ABI_MAX_ARGS; i++)
		a[i] = make_ptr(c->ptr[i], arg_size(c->api, i), valid[i]);
	switch (c->api) {
	case API_CLOCK_GETTIME:
	case API_CLOCK_GETRES:
		return clock_case(v, c, a[0], rep);
	case API_GETTIMEOFDAY:
		return vcall_gettimeofday(v, c->path, a[0], a[1]);
	case API_TIME:
		r = vcall_time(v, c->path, a[0]);
		return r;
	case API_GETCPU:
		return vcall_getcpu(v, c->path, a[0], a[1], a[2]);
	case API_GETRANDOM: {
		const struct cell *cell = verify_cell(v, API_GETRANDOM, NULL, PATH_VDSO);

		return vcall_getrandom(v, c->path, a[0], 16, c->flags,
				       cell ? cell->state : NULL, cell ? cell->state_len : 0);
	}
	default:
		return (struct vres){ -1, true, ENOSYS };
	}
}

static _noreturn_ void child_main(const struct verify *v, const struct abi_case *c,
				  int fd)
{
	struct rlimit no_core = { 0, 0 };
	struct case_report rep;

	/* A crash is the expected outcome of some cases: no core file, and
	 * the default action rather than a sanitizer's handler. */
	prctl(PR_SET_DUMPABLE, 0);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	memset(&rep, 0, sizeof(rep));
	rep.res = call_case(v, c, &rep);
	(void)!write(fd, &rep, sizeof(rep));
	_exit(0);
}

static int run_case(const struct verify *v, const struct abi_case *c,
		    struct abi_outcome *o, struct strbuf *err)
{
	struct case_report rep;
	struct pollfd pfd;
	int fds[2], status;
	ssize_t n = 0;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (pipe2(fds, O_CLOEXEC) != 0) {
		strbuf_setf(err, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		strbuf_setf(err, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(v, c, fds[1]);
	}
	close(fds[1]);
	pfd = (struct pollfd){ fds[0], POLLIN, 0 };
	if (poll(&pfd, 1, CHILD_TIMEOUT_MS) > 0)
		n = read(fds[0], &rep, sizeof(rep));
	else
		kill(pid, SIGKILL);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	o->status = status;
	if (n == (ssize_t)sizeof(rep)) {
		o->kind = ABI_RETURNED;
		o->res = rep.res;
		o->wrote_ts = rep.wrote_ts;
		o->ts = rep.ts;
	} else if (WIFSIGNALED(status)) {
		o->kind = ABI_SIGNALED;
		o->sig = WTERMSIG(status);
	} else {
		o->kind = ABI_LOST;
		o->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	return 0;
}

/*
 * glibc 2.34+ builds the 32-bit time_t gettimeofday() on __gettimeofday64
 * and copies the result into *tv without checking it: tv NULL crashes.
 */
static bool libc_tv_null_quirk(const struct abi_case *c, const struct abi_outcome *o)
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	return sizeof(time_t) == 4 && c->api == API_GETTIMEOFDAY &&
	       c->ptr[0] == ABI_PTR_NULL && c->path == PATH_LIBC &&
	       o->kind == ABI_SIGNALED && o->sig == SIGSEGV;
#else
	(void)c;
	(void)o;
	return false;
#endif
}

/*
 * A libc case failed and a library interposes the function (a sanitizer's
 * interceptor stops a bad pointer before libc sees it): run the case again
 * on libc's own function. When that gives what libc must, the interposer
 * is what differs, which is no fault of libc: an expected failure, named.
 */
static bool interposer_excuses(struct verify *v, const struct abi_case *c,
			       const char *want, const char *note, const char *got)
{
	const char *who = verify_libc_interposer(v, c->api);
	struct abi_outcome own_o;
	struct verify own;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char own_got[96];

	if (c->path != PATH_LIBC || !*who)
		return false;
	own = *v;
	own.libc_own = true;
	if (run_case(&own, c, &own_o, &err) != 0)
		return false;
	abi_outcome_format(c->path, &own_o, own_got, sizeof(own_got));
	if (!abi_outcome_ok(c->path, c->expect, c->expect_err, &own_o)) {
		vfail(v, "expected %s%s, got %s; %s() is interposed by %s, and libc's own "
		      "%s() gives %s too", want, note, got, catalog_apis[c->api].name, who,
		      catalog_apis[c->api].name, own_got);
		return true;
	}
	vxfail(v, "%s() is interposed by %s, which gives %s where libc must give %s%s; "
	       "libc's own %s() gives %s", catalog_apis[c->api].name, who, got, want, note,
	       catalog_apis[c->api].name, own_got);
	return true;
}

/* note: said after the expectation, e.g. why EINVAL is expected. */
static void judge_case(struct verify *v, const struct abi_case *c, const char *note)
{
	struct abi_outcome o;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char want[96], got[96];

	abi_expect_format(c->path, c->expect, c->expect_err, want, sizeof(want));
	if (run_case(v, c, &o, &err) != 0) {
		verror(v, "%s", err.buf);
		return;
	}
	abi_outcome_format(c->path, &o, got, sizeof(got));
	if (abi_outcome_ok(c->path, c->expect, c->expect_err, &o))
		vpass(v, "expected %s%s, got %s", want, note, got);
	else if (libc_tv_null_quirk(c, &o))
		vxfail(v, "glibc's 32-bit time_t gettimeofday() writes through tv "
		       "unchecked: got %s where the syscall accepts NULL", got);
	else if (!interposer_excuses(v, c, want, note, got))
		vfail(v, "expected %s%s, got %s", want, note, got);
}

/* Skip a case whose path is missing here; true when it may run. */
static bool path_ready(struct verify *v, enum api api, enum path p)
{
	const char *why = verify_path_missing(v, api, p);

	if (why) {
		vskip(v, "%s", why);
		return false;
	}
	return true;
}

/* ---- the walks -------------------------------------------------------------- */

static void clock_pointer_cases(struct verify *v, enum api api)
{
	const char *arg = api == API_CLOCK_GETTIME ? "ts" : "res";

	for_each_clock(ci) {
		for (enum abi_ptr k = ABI_PTR_NULL; k < ABI_PTR_KINDS; k++) {
			for (int p = 0; p < PATH_COUNT; p++) {
				const struct cell *cell = verify_cell(v, api, ci, p);
				struct abi_case c = { api, p, ci->id, { k }, 0, 0, 0 };
				char note[192];

				if (!verify_path_by_design(api, p) ||
				    !vpoint(v, VT_NONE, "abi/%s-%s/%s-%s/%s",
					    catalog_apis[api].label, ci->name, arg,
					    abi_ptr_names[k], catalog_paths[p]) ||
				    !path_ready(v, api, p))
					continue;
				c.expect = abi_pointers_expect(api, c.ptr, 1, &arg, note,
							       sizeof(note));
				/* The kernel checks the id before the pointer. */
				if (cell && cell->status == CELL_UNSUPPORTED) {
					c.expect = ABI_EXPECT_EINVAL;
					c.expect_err = cell->err;
					snprintf(note, sizeof(note), " (the kernel rejects "
						 "%s here)", ci->macro);
				}
				judge_case(v, &c, note);
			}
		}
	}
}

/* An API's pointer arguments, by name. */
struct pointer_args {
	enum api api;
	int nargs;
	const char *names[ABI_MAX_ARGS];
};

/* Combination number n, with the first argument varying slowest. */
static void decode_combination(unsigned n, int nargs, enum abi_ptr *ptr)
{
	for (int i = nargs - 1; i >= 0; i--) {
		ptr[i] = (enum abi_ptr)(n % ABI_PTR_KINDS);
		n /= ABI_PTR_KINDS;
	}
}

static void pointer_case(struct verify *v, const struct pointer_args *a,
			 const enum abi_ptr *ptr, enum path p)
{
	/* glibc's getcpu(3) has no cache argument. */
	int nargs = a->api == API_GETCPU && p == PATH_LIBC ? 2 : a->nargs;
	struct abi_case c = { a->api, p, 0, { 0 }, 0, 0, 0 };
	char name[128], note[256];

	if (nargs < a->nargs && ptr[nargs] != ABI_PTR_VALID)
		return;
	abi_pointers_name(ptr, nargs, a->names, name, sizeof(name));
	if (!verify_path_by_design(a->api, p) ||
	    !vpoint(v, VT_NONE, "abi/%s/%s/%s", catalog_apis[a->api].label, name,
		    catalog_paths[p]) ||
	    !path_ready(v, a->api, p))
		return;
	memcpy(c.ptr, ptr, sizeof(c.ptr));
	c.expect = abi_pointers_expect(a->api, ptr, nargs, a->names, note, sizeof(note));
	judge_case(v, &c, note);
}

/*
 * Every combination of pointer kinds for the APIs that take several
 * pointers (gettimeofday: tv x tz, getcpu: cpu x node x cache), as
 * vdsotest's abi does; the single-pointer APIs take each bad kind.
 */
static void other_pointer_cases(struct verify *v)
{
	static const struct pointer_args apis[] = {
		{ API_GETTIMEOFDAY, 2, { "tv", "tz" } },
		{ API_TIME, 1, { "tloc" } },
		{ API_GETCPU, 3, { "cpu", "node", "cache" } },
		{ API_GETRANDOM, 1, { "buf" } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(apis); i++) {
		const struct pointer_args *a = &apis[i];
		unsigned combos = 1;

		for (int k = 0; k < a->nargs; k++)
			combos *= ABI_PTR_KINDS;
		/* A single pointer: its bad kinds only (valid is no case). */
		for (unsigned n = a->nargs == 1 ? 1 : 0; n < combos; n++) {
			enum abi_ptr ptr[ABI_MAX_ARGS] = { 0 };

			decode_combination(n, a->nargs, ptr);
			/* A getrandom buffer that turns bad midway is filled up
			 * to the fault: a short count, not an error. */
			if (a->api == API_GETRANDOM && ptr[0] == ABI_PTR_STRADDLE)
				continue;
			for (int p = 0; p < PATH_COUNT; p++)
				pointer_case(v, a, ptr, (enum path)p);
		}
	}
}

struct bad_id {
	clockid_t id;
	const char *name;
	const char *note;	/* said after the expectation */
};

static void invalid_id_cases(struct verify *v)
{
	static const struct bad_id ids[] = {
		{ -1, "minus-1", "" },
		{ INT_MIN, "int-min", "" },
		{ INT_MAX, "int-max", "" },
		{ 10, "10", "" },		/* CLOCK_SGI_CYCLE, removed */
		{ 12, "12", "" },		/* one past CLOCK_TAI */
		/* Whatever a kernel does with the auxiliary ids (abi/.../aux-*),
		 * every path must reject the first past them. */
		{ 24, "24", " (the first id past the auxiliary clocks, 16 to 23)" },
		{ 1000000, "1000000", "" },
	};
	static const enum api apis[] = { API_CLOCK_GETTIME, API_CLOCK_GETRES };

	for (size_t a = 0; a < ARRAY_SIZE(apis); a++) {
		for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
			for (int with_null = 0; with_null < 2; with_null++) {
				for (int p = 0; p < PATH_COUNT; p++) {
					struct abi_case c = { apis[a], p, ids[i].id,
							      { with_null ? ABI_PTR_NULL : ABI_PTR_VALID },
							      0, ABI_EXPECT_EINVAL, EINVAL };

					if (!verify_path_by_design(apis[a], p) ||
					    !vpoint(v, VT_NONE, "abi/%s/id-%s%s/%s",
						    catalog_apis[apis[a]].label, ids[i].name,
						    with_null ? "-null" : "", catalog_paths[p]) ||
					    !path_ready(v, apis[a], p))
						continue;
					judge_case(v, &c, ids[i].note);
				}
			}
		}
	}
}

static void invalid_flags_cases(struct verify *v)
{
	for (int p = 0; p < PATH_COUNT; p++) {
		/* Every bit that is not a GRND_* flag. */
		struct abi_case c = { API_GETRANDOM, p, 0, { ABI_PTR_VALID },
				      ~(unsigned)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE),
				      ABI_EXPECT_EINVAL, EINVAL };

		if (!verify_path_by_design(API_GETRANDOM, p) ||
		    !vpoint(v, VT_NONE, "abi/getrandom/flags-invalid/%s", catalog_paths[p]) ||
		    !path_ready(v, API_GETRANDOM, p))
			continue;
		judge_case(v, &c, "");
	}
}

/*
 * Auxiliary clocks (CLOCK_AUX): ids 16 to 23. Whether the syscall takes
 * them depends on the kernel (CONFIG_POSIX_AUX_CLOCKS, and the clock being
 * enabled); whatever it does, the vDSO and libc must answer as it does.
 * Id 24, the first past them, is one every path must reject: the invalid
 * ids' walk has it.
 */
#define CLOCK_AUX_FIRST 16
#define CLOCK_AUX_LAST 23

/* A path succeeded for an id the syscall rejects with EINVAL: what the
 * expected failure (see aux_mismatch) is made of. */
static bool aux_getres_quirk(const struct abi_case *c, const struct vres *ref,
			     const struct abi_outcome *o)
{
	return c->api == API_CLOCK_GETRES && c->path != PATH_SYSCALL &&
	       ref->failed && ref->err == EINVAL && o->kind == ABI_RETURNED &&
	       !o->res.failed;
}

/* CONFIG_POSIX_AUX_CLOCKS of the running kernel, as its config says. */
struct aux_config {
	enum { AUX_CONFIG_UNREAD, AUX_CONFIG_ON, AUX_CONFIG_OFF } state;
	char source[200];	/* the file read, or the files tried */
};

static const struct aux_config *aux_config(void)
{
	static struct aux_config c;
	static bool read;
	char *text;

	if (read)
		return &c;
	read = true;
	text = kernel_config_read(c.source, sizeof(c.source));
	if (text) {
		const char *val = kernel_config_value(text, "CONFIG_POSIX_AUX_CLOCKS");

		c.state = val && *val == 'y' ? AUX_CONFIG_ON : AUX_CONFIG_OFF;
	}
	free(text);
	return &c;
}

/* "vdso's clock_getres() gave 0 (1 ns)": what the path did, as observed. */
static void aux_observed(const struct abi_case *c, const struct abi_outcome *o,
			 struct strbuf *out)
{
	char got[96];

	abi_outcome_format(c->path, o, got, sizeof(got));
	strbuf_addf(out, "%s's %s() gave %s", catalog_paths[c->path],
		    catalog_apis[c->api].name, got);
	if (o->kind == ABI_RETURNED && o->wrote_ts)
		strbuf_addf(out, " and %s %lld ns", c->api == API_CLOCK_GETRES ?
			    "a resolution of" : "a time of", (long long)ts_ns(&o->ts));
}

/*
 * The path answers an id the syscall rejects. Expected while the kernel's
 * config has CONFIG_POSIX_AUX_CLOCKS off (or cannot be read to tell); a
 * failure with it on. The kernel change behind it is background, cited.
 */
static void aux_mismatch(struct verify *v, const struct abi_case *c,
			 const struct abi_outcome *o, const char *ref)
{
	const struct aux_config *cfg = aux_config();
	_cleanup_strbuf_ struct strbuf what = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf bg = STRBUF_INIT;

	aux_observed(c, o, &what);
	strbuf_addf(&what, " for id %d, which the syscall rejects: %s", (int)c->id, ref);
	verify_background_text("vdso-getres-aux", &bg);
	if (c->path == PATH_LIBC)
		strbuf_addf(&bg, " (whether libc's goes through the vDSO's is not tested)");
	switch (cfg->state) {
	case AUX_CONFIG_OFF:
		vxfail(v, "%s; expected while CONFIG_POSIX_AUX_CLOCKS is off, as %s says "
		       "(with it on, this fails); %s", what.buf, cfg->source, bg.buf);
		break;
	case AUX_CONFIG_UNREAD:
		vxfail(v, "%s; expected while CONFIG_POSIX_AUX_CLOCKS is off, which could "
		       "not be confirmed (the kernel config could not be read: tried %s); "
		       "%s", what.buf, cfg->source, bg.buf);
		break;
	case AUX_CONFIG_ON:
		vfail(v, "%s; CONFIG_POSIX_AUX_CLOCKS=y in %s, so this is not the "
		      "expected failure, which needs the option off; %s", what.buf,
		      cfg->source, bg.buf);
		break;
	}
}

static void aux_case(struct verify *v, const struct abi_case *base)
{
	struct abi_case c = *base;
	struct timespec ts;
	struct abi_outcome o;
	struct vres ref;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf seen = STRBUF_INIT;
	char want[96], ref_got[96];

	ref = c.api == API_CLOCK_GETTIME ? vcall_gettime(v, PATH_SYSCALL, c.id, &ts) :
	      vcall_getres(v, PATH_SYSCALL, c.id, &ts);
	vres_format(PATH_SYSCALL, &ref, ref_got, sizeof(ref_got));
	c.expect = ref.failed ? ABI_EXPECT_EINVAL : ABI_EXPECT_OK;
	c.expect_err = ref.failed ? ref.err : 0;
	abi_expect_format(c.path, c.expect, c.expect_err, want, sizeof(want));
	if (run_case(v, &c, &o, &err) != 0) {
		verror(v, "%s", err.buf);
		return;
	}
	aux_observed(&c, &o, &seen);
	if (abi_outcome_ok(c.path, c.expect, c.expect_err, &o))
		vpass(v, "expected %s, as the syscall gave %s for id %d; %s", want, ref_got,
		      (int)c.id, seen.buf);
	else if (aux_getres_quirk(&c, &ref, &o))
		aux_mismatch(v, &c, &o, ref_got);
	else
		vfail(v, "expected %s, as the syscall gave %s for id %d; %s", want, ref_got,
		      (int)c.id, seen.buf);
}

static void aux_clock_cases(struct verify *v)
{
	static const enum api apis[] = { API_CLOCK_GETTIME, API_CLOCK_GETRES };

	for (size_t a = 0; a < ARRAY_SIZE(apis); a++) {
		for (clockid_t id = CLOCK_AUX_FIRST; id <= CLOCK_AUX_LAST; id++) {
			for (int p = 0; p < PATH_COUNT; p++) {
				struct abi_case c = { apis[a], p, id, { ABI_PTR_VALID },
						      0, ABI_EXPECT_OK, 0 };

				/* The syscall is the reference it is compared with. */
				if (p == PATH_SYSCALL || !verify_path_by_design(apis[a], p) ||
				    !vpoint(v, VT_NONE, "abi/%s/aux-%d/%s",
					    catalog_apis[apis[a]].label, (int)id,
					    catalog_paths[p]) ||
				    !path_ready(v, apis[a], p))
					continue;
				aux_case(v, &c);
			}
		}
	}
}

void verify_abi(struct verify *v)
{
	invalid_id_cases(v);
	aux_clock_cases(v);
	clock_pointer_cases(v, API_CLOCK_GETTIME);
	clock_pointer_cases(v, API_CLOCK_GETRES);
	other_pointer_cases(v);
	invalid_flags_cases(v);
}
