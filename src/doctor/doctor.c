// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reasoning of clockbench doctor: pure functions of a cell, what was
 * observed and the facts. Nothing here reads the machine.
 */
#include "doctor/doctor.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "basic/util.h"

const char *doctor_verdict_name(enum doctor_verdict v)
{
	static const char *const names[] = {
		[VERDICT_USERSPACE] = "userspace",
		[VERDICT_KERNEL] = "kernel",
		[VERDICT_UNSUPPORTED] = "unsupported",
		[VERDICT_UNKNOWN] = "unknown",
	};

	return (unsigned int)v < ARRAY_SIZE(names) ? names[v] : "unknown";
}

static const struct {
	const char *id, *label;
} cause_names[CAUSE_COUNT] = {
	[CAUSE_NONE] = { "none", "none" },
	[CAUSE_SYSCALL_PATH] = { "syscall-path", "raw system call" },
	[CAUSE_NO_VDSO_PATH] = { "no-vdso-path", "no vDSO path" },
	[CAUSE_NO_VDSO] = { "no-vdso", "no vDSO in this process" },
	[CAUSE_VDSO_MISSING] = { "vdso-missing-symbol",
				 "the vDSO does not export the symbol" },
	[CAUSE_CLOCKSOURCE] = { "clocksource", "clocksource not vDSO-capable" },
	[CAUSE_INTERPOSED] = { "interposed", "libc symbol interposed" },
	[CAUSE_STATIC] = { "static-binary", "static binary without vDSO support" },
	[CAUSE_LIBC_NO_VDSO] = { "libc-no-vdso", "libc does not use the vDSO" },
	[CAUSE_TIMENS] = { "time-namespace",
			   "time namespace: slower vDSO path, still userspace" },
	[CAUSE_UNEXPLAINED] = { "unexplained", "unexplained" },
};

const char *doctor_cause_id(enum doctor_cause cause)
{
	return (unsigned int)cause < CAUSE_COUNT ? cause_names[cause].id : "none";
}

const char *doctor_cause_label(enum doctor_cause cause)
{
	return (unsigned int)cause < CAUSE_COUNT ? cause_names[cause].label : "none";
}

const char *doctor_severity_name(enum doctor_severity s)
{
	static const char *const names[] = {
		[SEVERITY_NONE] = "none",
		[SEVERITY_NOTE] = "note",
		[SEVERITY_FINDING] = "finding",
		[SEVERITY_PROBLEM] = "problem",
	};

	return (unsigned int)s < ARRAY_SIZE(names) ? names[s] : "none";
}

/* ---- clocksources --------------------------------------------------- */

/*
 * Which clocksources the vDSO reads (their vdso_clock_mode in the kernel).
 * Any other clocksource leaves the mode at VDSO_CLOCKMODE_NONE and the vDSO
 * makes the system call for every hres read.
 */
static const struct {
	const char *name;
	enum clocksource_vdso cap;
	const char *how;
} clocksources[] = {
	{ "tsc", CS_VDSO_YES, "x86 TSC: VDSO_CLOCKMODE_TSC" },
	{ "kvm-clock", CS_VDSO_CONDITIONAL,
	  "KVM pvclock: VDSO_CLOCKMODE_PVCLOCK only when the host sets "
	  "PVCLOCK_TSC_STABLE_BIT" },
	{ "xen", CS_VDSO_CONDITIONAL,
	  "Xen pvclock: VDSO_CLOCKMODE_PVCLOCK only when the hypervisor "
	  "provides a stable TSC, which many Xen hosts (older EC2 types) do not" },
	{ "hyperv_clocksource_tsc_page", CS_VDSO_YES,
	  "Hyper-V reference TSC page: VDSO_CLOCKMODE_HVCLOCK" },
	{ "hyperv_clocksource_msr", CS_VDSO_NO,
	  "Hyper-V MSR clocksource: every read is an MSR access the vDSO cannot make" },
	{ "hpet", CS_VDSO_NO, "HPET: the vDSO stopped reading it in Linux 5.6" },
	{ "acpi_pm", CS_VDSO_NO, "ACPI PM timer: port I/O, never read by the vDSO" },
	{ "jiffies", CS_VDSO_NO, "jiffies: no hardware counter" },
	{ "refined-jiffies", CS_VDSO_NO, "refined-jiffies: no hardware counter" },
	{ "arch_sys_counter", CS_VDSO_CONDITIONAL,
	  "Arm generic timer: VDSO_CLOCKMODE_ARCHTIMER unless a timer erratum "
	  "workaround is active" },
	{ "arch_mem_counter", CS_VDSO_NO,
	  "Arm memory-mapped timer: not readable by the vDSO" },
	{ "timebase", CS_VDSO_YES, "powerpc timebase" },
	{ "riscv_clocksource", CS_VDSO_YES,
	  "RISC-V time CSR: VDSO_CLOCKMODE_ARCHTIMER" },
	{ "tod", CS_VDSO_YES, "s390 TOD clock: VDSO_CLOCKMODE_TOD" },
	{ "Constant", CS_VDSO_YES, "LoongArch constant timer: VDSO_CLOCKMODE_CPU" },
	{ "MIPS", CS_VDSO_YES, "MIPS CP0 counter: VDSO_CLOCKMODE_R4K when stable" },
	{ "GIC", CS_VDSO_YES, "MIPS GIC counter: VDSO_CLOCKMODE_GIC" },
};

const char *doctor_clocksource_vdso_name(enum clocksource_vdso cap)
{
	static const char *const names[] = {
		[CS_VDSO_UNKNOWN] = "unknown",
		[CS_VDSO_YES] = "yes",
		[CS_VDSO_CONDITIONAL] = "conditional",
		[CS_VDSO_NO] = "no",
	};

	return (unsigned int)cap < ARRAY_SIZE(names) ? names[cap] : "unknown";
}

enum clocksource_vdso doctor_clocksource_vdso(const char *name, const char **how)
{
	if (how)
		*how = NULL;
	if (!name || !*name)
		return CS_VDSO_UNKNOWN;
	for (size_t i = 0; i < ARRAY_SIZE(clocksources); i++) {
		if (streq(name, clocksources[i].name)) {
			if (how)
				*how = clocksources[i].how;
			return clocksources[i].cap;
		}
	}
	return CS_VDSO_UNKNOWN;
}

/* ---- classification ------------------------------------------------- */

static bool is_clock_kind(const struct cell *c, enum clock_kind kind)
{
	return c->clock && c->clock->kind == kind;
}

/* CPU-time and ALARM clocks, times and getrusage: the kernel only. */
static bool has_no_vdso_path(const struct cell *c)
{
	return !catalog_api_in_vdso(c->api) || is_clock_kind(c, CLOCK_KIND_CPUTIME) ||
	       is_clock_kind(c, CLOCK_KIND_ALARM);
}

/* Calls that read the clocksource in the vDSO (coarse clocks do not). */
static bool reads_clocksource(const struct cell *c)
{
	return (c->api == API_CLOCK_GETTIME && is_clock_kind(c, CLOCK_KIND_HRES)) ||
	       c->api == API_GETTIMEOFDAY;
}

bool doctor_must_be_userspace(const struct cell *c)
{
	if (c->path == PATH_SYSCALL)
		return false;
	if (c->api == API_GETTIMEOFDAY || c->api == API_TIME)
		return true;
	return c->api == API_CLOCK_GETTIME &&
	       (is_clock_kind(c, CLOCK_KIND_HRES) || is_clock_kind(c, CLOCK_KIND_COARSE));
}

enum doctor_severity doctor_severity(const struct cell *c, enum doctor_verdict v,
				     enum doctor_cause cause)
{
	if (cause == CAUSE_TIMENS)
		return SEVERITY_NOTE;
	if (v != VERDICT_KERNEL || c->path == PATH_SYSCALL)
		return SEVERITY_NONE;
	return doctor_must_be_userspace(c) ? SEVERITY_PROBLEM : SEVERITY_FINDING;
}

bool doctor_glibc_older(const char *name, const char *version, int major,
			int minor)
{
	int ma, mi;

	if (!streq(name, "glibc") || !version ||
	    sscanf(version, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

/* glibc uses the vDSO getrandom from 2.41 on. */
static bool libc_known_to_skip_vdso(const struct cell *c,
				    const struct doctor_facts *f)
{
	return c->api == API_GETRANDOM &&
	       doctor_glibc_older(f->libc_name, f->libc_version, 2, 41);
}

enum doctor_cause doctor_attribute(const struct cell *c, enum doctor_verdict v,
				   enum doctor_verdict vdso_v,
				   const struct doctor_facts *f)
{
	bool libc = c->path == PATH_LIBC;

	if (v != VERDICT_KERNEL)
		return CAUSE_NONE;
	if (c->path == PATH_SYSCALL)
		return CAUSE_SYSCALL_PATH;
	if (has_no_vdso_path(c))
		return CAUSE_NO_VDSO_PATH;
	if (!f->have_vdso)
		return CAUSE_NO_VDSO;
	if (!f->vdso_exports[c->api])
		return CAUSE_VDSO_MISSING;
	/* Before an interposer: without it, this libc would still not do it. */
	if (libc && libc_known_to_skip_vdso(c, f))
		return CAUSE_LIBC_NO_VDSO;
	if (libc && f->interposer[c->api][0])
		return CAUSE_INTERPOSED;
	/* The vDSO itself fell back: its clocksource is the suspect. */
	if (reads_clocksource(c) && vdso_v != VERDICT_USERSPACE &&
	    doctor_clocksource_vdso(f->clocksource, NULL) != CS_VDSO_YES)
		return CAUSE_CLOCKSOURCE;
	if (libc && f->static_binary && vdso_v == VERDICT_USERSPACE)
		return CAUSE_STATIC;
	if (libc && vdso_v == VERDICT_USERSPACE)
		return CAUSE_LIBC_NO_VDSO;
	return CAUSE_UNEXPLAINED;
}

/* ---- evidence and advice -------------------------------------------- */

/* The vDSO symbol of an API, or its C name where the vDSO has none. */
static const char *vdso_symbol(enum api api)
{
	const char *sym = catalog_vdso_symbol(api);

	return sym ? sym : catalog_apis[api].name;
}

static const char *api_name(const struct cell *c)
{
	return catalog_apis[c->api].name;
}

/* What the call is, for sentences: "CLOCK_MONOTONIC" or "getrandom()". */
static void call_subject(char *buf, size_t len, const struct cell *c)
{
	if (c->clock)
		snprintf(buf, len, "%s(%s)", api_name(c), c->clock->macro);
	else
		snprintf(buf, len, "%s()", api_name(c));
}

static void no_vdso_path_evidence(char *buf, size_t len, const struct cell *c)
{
	if (!catalog_api_in_vdso(c->api))
		snprintf(buf, len, "no vDSO implements %s(): it is always the %s "
			 "system call", api_name(c), api_name(c));
	else if (is_clock_kind(c, CLOCK_KIND_CPUTIME))
		snprintf(buf, len, "%s is CPU time kept by the scheduler per task; "
			 "the vDSO has no path for it and forwards the call to the "
			 "%s system call", c->clock->macro, api_name(c));
	else
		snprintf(buf, len, "%s has no vDSO implementation (the vDSO serves "
			 "only the hres and coarse clocks); the call is forwarded to "
			 "the %s system call", c->clock->macro, api_name(c));
}

static void clocksource_evidence(char *buf, size_t len,
				 const struct doctor_facts *f)
{
	const char *how;
	enum clocksource_vdso cap = doctor_clocksource_vdso(f->clocksource, &how);
	const char *verdict = cap == CS_VDSO_NO ? "is never read by the vDSO" :
			      cap == CS_VDSO_CONDITIONAL ?
			      "is read by the vDSO only under a condition that does "
			      "not hold here (the vDSO's own call entered the kernel)" :
			      "is not known to be vDSO-capable";

	snprintf(buf, len, "the current clocksource '%s' %s (%s); available: %s%s%s",
		 f->clocksource[0] ? f->clocksource : "unknown", verdict,
		 how ? how : "not in doctor's list of vDSO clocksources",
		 f->clocksources[0] ? f->clocksources : "unknown",
		 f->tsc_hint[0] ? "; " : "", f->tsc_hint);
}

/* One sentence per cause: long only because the causes are many. */
void doctor_evidence(char *buf, size_t len, enum doctor_cause cause,
		     const struct cell *c, const struct doctor_facts *f)
{
	char what[96];
	const char *sym = vdso_symbol(c->api);

	call_subject(what, sizeof(what), c);
	switch (cause) {
	case CAUSE_NONE:
		snprintf(buf, len, "served in userspace");
		break;
	case CAUSE_SYSCALL_PATH:
		snprintf(buf, len, "the raw system call always enters the kernel: "
			 "the reference the other paths are compared with");
		break;
	case CAUSE_NO_VDSO_PATH:
		no_vdso_path_evidence(buf, len, c);
		break;
	case CAUSE_NO_VDSO:
		snprintf(buf, len, "this process has no vDSO (%s)",
			 f->vdso_error[0] ? f->vdso_error : "unknown reason");
		break;
	case CAUSE_VDSO_MISSING:
		snprintf(buf, len, "the vDSO does not export %s%s%s, so %s is "
			 "always a system call", sym, f->vdso_version[0] ? "@" : "",
			 f->vdso_version, what);
		break;
	case CAUSE_CLOCKSOURCE:
		clocksource_evidence(buf, len, f);
		break;
	case CAUSE_INTERPOSED:
		snprintf(buf, len, "%s() resolves to %s, not to the C library "
			 "(LD_PRELOAD or a library loaded first), and that "
			 "definition makes the system call", api_name(c),
			 f->interposer[c->api]);
		break;
	case CAUSE_STATIC:
		snprintf(buf, len, "this binary is statically linked and its C "
			 "library's %s() does not call the vDSO, whose %s is served "
			 "in userspace", api_name(c), sym);
		break;
	case CAUSE_LIBC_NO_VDSO:
		snprintf(buf, len, "%s %s does not call the vDSO's %s%s",
			 f->libc_name[0] ? f->libc_name : "the C library",
			 f->libc_version, sym,
			 c->api == API_GETRANDOM && streq(f->libc_name, "glibc") ?
			 " (glibc calls it from 2.41 on), while the vDSO path is "
			 "served in userspace" :
			 ", while the vDSO path is served in userspace");
		if (f->interposer[c->api][0] && strlen(buf) < len)
			snprintf(buf + strlen(buf), len - strlen(buf), "; %s() resolves "
				 "to %s first", api_name(c), f->interposer[c->api]);
		break;
	case CAUSE_TIMENS:
		snprintf(buf, len, "this process is in a non-root time namespace: "
			 "the vDSO reads the namespace's offsets on a slower path "
			 "(about +1 ns per hres call), still without a system call");
		break;
	default:
		snprintf(buf, len, "%s entered the kernel and no known cause "
			 "applies: clocksource '%s', vDSO exports %s, %s %s", what,
			 f->clocksource, sym, f->libc_name, f->libc_version);
		break;
	}
}

/* Advice for a clocksource the vDSO cannot read. */
static void clocksource_advice(char *buf, size_t len, const struct doctor_facts *f)
{
	const char *cs = f->clocksource;
	const char *specific;

	if (streq(cs, "xen"))
		specific = "on Xen (older EC2 instance types) switch to tsc when the "
			   "CPU flags show constant_tsc and nonstop_tsc: echo tsc > "
			   "/sys/devices/system/clocksource/clocksource0/"
			   "current_clocksource, or boot with clocksource=tsc "
			   "tsc=reliable; caveat: the TSC must stay synchronised "
			   "across vCPUs and live migration";
	else if (streq(cs, "kvm-clock"))
		specific = "the host does not mark kvm-clock stable: use tsc if "
			   "constant_tsc and nonstop_tsc are set and the kernel trusts "
			   "the TSC, or fix the host (KVM_FEATURE_CLOCKSOURCE_STABLE_BIT)";
	else if (streq(cs, "hyperv_clocksource_msr"))
		specific = "enable the Hyper-V reference TSC page "
			   "(hyperv_clocksource_tsc_page): a newer host or guest kernel";
	else if (streq(cs, "arch_sys_counter"))
		specific = "a timer erratum workaround disables the vDSO read: check "
			   "the kernel log for arch_timer errata";
	else
		specific = "choose a vDSO-capable clocksource from "
			   "available_clocksource (tsc on x86 when constant_tsc and "
			   "nonstop_tsc are set and the kernel did not mark it unstable)";
	snprintf(buf, len, "%s; where resolution allows, CLOCK_MONOTONIC_COARSE "
		 "and CLOCK_REALTIME_COARSE are served in userspace with any "
		 "clocksource (resolution: one tick)", specific);
}

static void no_vdso_path_advice(char *buf, size_t len, const struct cell *c)
{
	if (is_clock_kind(c, CLOCK_KIND_ALARM))
		snprintf(buf, len, "read %s instead (the same time, served in "
			 "userspace); keep the ALARM clocks for timers",
			 c->clock->id == CLOCK_REALTIME_ALARM ? "CLOCK_REALTIME" :
			 "CLOCK_BOOTTIME");
	else if (is_clock_kind(c, CLOCK_KIND_CPUTIME) || c->api == API_TIMES ||
		 c->api == API_GETRUSAGE)
		snprintf(buf, len, "CPU time is known to the kernel only: read it "
			 "less often (per request, not per event); for elapsed time "
			 "use CLOCK_MONOTONIC, served in userspace");
	else
		buf[0] = '\0';
}

void doctor_advice(char *buf, size_t len, enum doctor_cause cause,
		   const struct cell *c, const struct doctor_facts *f)
{
	const char *sym = vdso_symbol(c->api);

	switch (cause) {
	case CAUSE_NO_VDSO_PATH:
		no_vdso_path_advice(buf, len, c);
		break;
	case CAUSE_NO_VDSO:
		snprintf(buf, len, "run with a vDSO: check the vdso= boot parameter, "
			 "or the emulator or sandbox that hides AT_SYSINFO_EHDR");
		break;
	case CAUSE_VDSO_MISSING:
		if (c->api == API_GETRANDOM)
			snprintf(buf, len, "the vDSO getrandom needs Linux 6.11 or "
				 "newer (x86_64; other architectures later)");
		else
			snprintf(buf, len, "a kernel whose vDSO exports %s", sym);
		break;
	case CAUSE_CLOCKSOURCE:
		clocksource_advice(buf, len, f);
		break;
	case CAUSE_INTERPOSED:
		snprintf(buf, len, "remove the interposing library, or make it "
			 "forward to the C library's %s() (dlsym(RTLD_NEXT, \"%s\")) "
			 "instead of making the system call", api_name(c), api_name(c));
		break;
	case CAUSE_STATIC:
		snprintf(buf, len, "link dynamically, or with a C library whose "
			 "static build calls the vDSO");
		break;
	case CAUSE_LIBC_NO_VDSO:
		if (c->api == API_GETRANDOM && streq(f->libc_name, "glibc"))
			snprintf(buf, len, "upgrade to glibc 2.41 or newer, which "
				 "uses the vDSO getrandom; until then ask for more "
				 "bytes per call");
		else
			snprintf(buf, len, "upgrade the C library to a version that "
				 "calls the vDSO's %s", sym);
		break;
	case CAUSE_UNEXPLAINED:
		snprintf(buf, len, "trace it (strace -f -e trace=%s) and report it "
			 "with this output", api_name(c));
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

/* ---- equivalents ---------------------------------------------------- */

static const struct clock_info *clock_by_id(clockid_t id)
{
	for (size_t i = 0; i < catalog_nclocks; i++) {
		if (catalog_clocks[i].id == id)
			return &catalog_clocks[i];
	}
	return NULL;
}

/* The coarse clock that counts like an hres clock, a tick at a time. */
static clockid_t coarse_of(clockid_t id)
{
	return id == CLOCK_REALTIME || id == CLOCK_TAI ? CLOCK_REALTIME_COARSE :
							  CLOCK_MONOTONIC_COARSE;
}

bool doctor_equivalent(const struct cell *c, enum doctor_cause cause,
		       struct doctor_equivalent *eq)
{
	eq->api = c->api;
	eq->clock = c->clock;
	eq->path = c->path;

	switch (cause) {
	case CAUSE_INTERPOSED:
	case CAUSE_STATIC:
	case CAUSE_LIBC_NO_VDSO:
		eq->path = PATH_VDSO;
		return true;
	case CAUSE_CLOCKSOURCE:
		eq->api = API_CLOCK_GETTIME;
		eq->clock = clock_by_id(c->api == API_GETTIMEOFDAY ?
					CLOCK_REALTIME_COARSE : coarse_of(c->clock->id));
		return eq->clock != NULL;
	case CAUSE_NO_VDSO_PATH:
		if (!is_clock_kind(c, CLOCK_KIND_ALARM))
			return false;
		eq->clock = clock_by_id(c->clock->id == CLOCK_REALTIME_ALARM ?
					CLOCK_REALTIME : CLOCK_BOOTTIME);
		return eq->clock != NULL;
	default:
		return false;
	}
}

/* ---- the TSC hint --------------------------------------------------- */

static bool contains_ci(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++) {
		if (strncasecmp(hay + i, needle, n) == 0)
			return true;
	}
	return false;
}

/* The text of a log line: after "prio,seq,ts,flags;" of kmsg, or whole. */
static void log_message(const char *line, size_t len, const char **msg,
			size_t *mlen)
{
	const char *semi = memchr(line, ';', len);

	if (semi && isdigit((unsigned char)line[0])) {
		*msg = semi + 1;
		*mlen = len - (size_t)(semi + 1 - line);
	} else {
		*msg = line;
		*mlen = len;
	}
}

/* The last log line that mentions the TSC being unstable. */
static bool find_tsc_log_line(const char *log, char *buf, size_t len)
{
	bool found = false;

	for (const char *line = log; line && *line;) {
		const char *eol = strchrnul(line, '\n');
		const char *msg;
		size_t mlen;

		log_message(line, (size_t)(eol - line), &msg, &mlen);
		if (contains_ci(msg, mlen, "tsc") && contains_ci(msg, mlen, "unstable")) {
			snprintf(buf, len, "%.*s", (int)(mlen > 200 ? 200 : mlen), msg);
			found = true;
		}
		line = *eol ? eol + 1 : NULL;
	}
	return found;
}

static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; p && (p = strstr(p, word)); p += n) {
		bool start = p == s || isspace((unsigned char)p[-1]);
		bool end = !p[n] || isspace((unsigned char)p[n]);

		if (start && end)
			return true;
	}
	return false;
}

static void append(char *buf, size_t len, const char *fmt, ...) _printf_(3, 4);
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len - 1)
		return;
	if (used)
		used += (size_t)snprintf(buf + used, len - used, "; ");
	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static bool is_x86(const char *machine)
{
	return streq(machine, "x86_64") ||
	       (machine && machine[0] == 'i' && strstr(machine, "86"));
}

void doctor_tsc_hint(char *buf, size_t len, const char *kmsg,
		     const char *cmdline, const char *available,
		     const char *machine)
{
	char line[224];

	buf[0] = '\0';
	if (kmsg && find_tsc_log_line(kmsg, line, sizeof(line)))
		append(buf, len, "kernel log: '%s'", line);
	if (cmdline && has_word(cmdline, "tsc=unstable"))
		append(buf, len, "kernel command line: tsc=unstable");
	if (is_x86(machine) && available && *available && !has_word(available, "tsc"))
		append(buf, len, "tsc is not among the available clocksources");
	if (!kmsg && is_x86(machine))
		append(buf, len, "kernel log not readable (kernel.dmesg_restrict)");
}
