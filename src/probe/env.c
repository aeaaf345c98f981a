// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Environment fingerprint. Every probe is best effort: a missing file or an
 * unknown architecture leaves an empty field, never an error, because the
 * fingerprint accompanies a measurement and must not prevent it.
 */
#include "probe/env.h"

#include <ctype.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/cycles.h"

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0/"
#define CPUINFO_MAX (4u << 20)
#define CMDLINE_MAX 65536u

/*
 * Bounded copy of at most len bytes of src (clamped so that the precision
 * fits an int); truncation is acceptable for a descriptive field.
 */
static void copy_strn(char *dst, size_t size, const char *src, size_t len)
{
	if (!size)
		return;
	if (len > size - 1)
		len = size - 1;
	snprintf(dst, size, "%.*s", (int)len, src);
}

static void copy_str(char *dst, size_t size, const char *src)
{
	if (!src)
		src = "";
	copy_strn(dst, size, src, strlen(src));
}

/* Like read_line_file(), but an unreadable file reliably gives "". */
static void read_sys_line(const char *path, char *buf, size_t size)
{
	if (!read_line_file(path, buf, size))
		buf[0] = '\0';
}

static void trim_right(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

static void collect_uname(struct env_info *env)
{
	struct utsname uts;

	if (uname(&uts) < 0)
		return;
	copy_str(env->hostname, sizeof(env->hostname), uts.nodename);
	copy_str(env->kernel_release, sizeof(env->kernel_release), uts.release);
	copy_str(env->kernel_version, sizeof(env->kernel_version), uts.version);
	copy_str(env->machine, sizeof(env->machine), uts.machine);
}

static void collect_cmdline(struct env_info *env)
{
	env->cmdline = read_text_file("/proc/cmdline", CMDLINE_MAX);
	if (env->cmdline)
		trim_right(env->cmdline);
}

static void collect_clocksource(struct env_info *env)
{
	read_sys_line(CLOCKSOURCE_DIR "current_clocksource", env->clocksource,
		      sizeof(env->clocksource));
	read_sys_line(CLOCKSOURCE_DIR "available_clocksource",
		      env->clocksources, sizeof(env->clocksources));
}

/*
 * Value of the first "key<blanks>: value" line of /proc/cpuinfo text whose
 * key is exactly key (so "cpu" does not match "cpu family").
 */
static bool cpuinfo_field(const char *text, const char *key, char *buf,
			  size_t size)
{
	size_t keylen = strlen(key);

	for (const char *line = text; line && *line;) {
		const char *eol = strchrnul(line, '\n');
		const char *p = line + keylen;

		if ((size_t)(eol - line) > keylen &&
		    strncmp(line, key, keylen) == 0) {
			while (p < eol && (*p == ' ' || *p == '\t'))
				p++;
			if (p < eol && *p == ':') {
				for (p++; p < eol && isspace((unsigned char)*p);)
					p++;
				copy_strn(buf, size, p, (size_t)(eol - p));
				trim_right(buf);
				return true;
			}
		}
		line = *eol ? eol + 1 : NULL;
	}
	return false;
}

/* The most descriptive model name the architecture offers. */
static void parse_cpu_model(struct env_info *env, const char *text)
{
	static const char *const keys[] = {
		"model name",	/* x86, some arm64 and mips */
		"Hardware",	/* arm (SoC name) */
		"cpu",		/* powerpc */
		"uarch",	/* riscv */
		"isa",		/* riscv without uarch */
		"vendor_id",	/* s390 */
	};
	char implementer[32], part[32];

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (cpuinfo_field(text, keys[i], env->cpu_model,
				  sizeof(env->cpu_model)) && env->cpu_model[0])
			return;
	}
	/* arm64 has no model string, only the MIDR fields. */
	if (cpuinfo_field(text, "CPU implementer", implementer,
			  sizeof(implementer)) &&
	    cpuinfo_field(text, "CPU part", part, sizeof(part)))
		snprintf(env->cpu_model, sizeof(env->cpu_model),
			 "implementer %s part %s", implementer, part);
	else
		env->cpu_model[0] = '\0';
}

/* The flag names the fingerprint records, with where each one is kept. */
struct flag_slot {
	const char *name;
	size_t offset;
};

#define FLAG_SLOT(f) { #f, offsetof(struct env_info, f) }
static const struct flag_slot timekeeping_flags[] = {
	FLAG_SLOT(constant_tsc),
	FLAG_SLOT(nonstop_tsc),
	FLAG_SLOT(rdtscp),
	FLAG_SLOT(rdpid),
	FLAG_SLOT(tsc_known_freq),
	FLAG_SLOT(tsc_reliable),
};

static bool *flag_ptr(struct env_info *env, const struct flag_slot *slot)
{
	return (bool *)((char *)env + slot->offset);
}

static const bool *flag_cptr(const struct env_info *env,
			     const struct flag_slot *slot)
{
	return (const bool *)((const char *)env + slot->offset);
}

void env_parse_cpu_flags(struct env_info *env, const char *flags)
{
	const char *p = flags ? flags : "";

	for (size_t i = 0; i < ARRAY_SIZE(timekeeping_flags); i++)
		*flag_ptr(env, &timekeeping_flags[i]) = false;

	/* Whole words only: "constant_tsc_x" must not count as constant_tsc. */
	while (*p) {
		size_t len;

		while (*p && isspace((unsigned char)*p))
			p++;
		for (len = 0; p[len] && !isspace((unsigned char)p[len]);)
			len++;
		for (size_t i = 0; len && i < ARRAY_SIZE(timekeeping_flags); i++) {
			const struct flag_slot *slot = &timekeeping_flags[i];

			if (strlen(slot->name) == len &&
			    strncmp(p, slot->name, len) == 0)
				*flag_ptr(env, slot) = true;
		}
		p += len;
	}
}

void env_parse_cpuinfo(struct env_info *env, const char *cpuinfo)
{
	char flags[4096];

	parse_cpu_model(env, cpuinfo ? cpuinfo : "");
	if (!cpuinfo || !cpuinfo_field(cpuinfo, "flags", flags, sizeof(flags)))
		flags[0] = '\0';
	env_parse_cpu_flags(env, flags);
}

static void collect_cpuinfo(struct env_info *env)
{
	_cleanup_free_ char *text = read_text_file("/proc/cpuinfo", CPUINFO_MAX);

	env_parse_cpuinfo(env, text);
}

#if defined(__x86_64__) || defined(__i386__)
static const char *hypervisor_name(const char *signature)
{
	static const struct {
		const char *signature, *name;
	} known[] = {
		{ "KVMKVMKVM", "KVM" },
		{ "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" },
		{ "bhyve bhyve", "bhyve" },	/* padded with a blank */
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (streq(signature, known[i].signature))
			return known[i].name;
	}
	return signature;
}

/* The CPUID vendor leaf means something only with the hypervisor bit set. */
static bool cpuid_hypervisor(char *buf, size_t size)
{
	unsigned int eax, ebx, ecx, edx;
	char sig[13];

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 31)))
		return false;
	__cpuid(0x40000000, eax, ebx, ecx, edx);
	memcpy(sig + 0, &ebx, 4);
	memcpy(sig + 4, &ecx, 4);
	memcpy(sig + 8, &edx, 4);
	sig[12] = '\0';
	/* Signatures are padded with NULs; anything unprintable ends it. */
	for (size_t i = 0; i < 12; i++) {
		if (!isprint((unsigned char)sig[i]))
			sig[i] = '\0';
	}
	trim_right(sig);
	copy_str(buf, size, sig[0] ? hypervisor_name(sig) : "unknown");
	return true;
}
#else
static bool cpuid_hypervisor(char *buf _unused_, size_t size _unused_)
{
	return false;
}
#endif

static void collect_hypervisor(struct env_info *env)
{
	if (cpuid_hypervisor(env->hypervisor, sizeof(env->hypervisor)))
		return;
	/* Xen PV guests and other architectures announce it here. */
	read_sys_line("/sys/hypervisor/type", env->hypervisor,
		      sizeof(env->hypervisor));
}

static void collect_libc(struct env_info *env)
{
#ifdef __GLIBC__
	copy_str(env->libc_name, sizeof(env->libc_name), "glibc");
	copy_str(env->libc_version, sizeof(env->libc_version),
		 gnu_get_libc_version());
#else
	copy_str(env->libc_name, sizeof(env->libc_name), "unknown");
	env->libc_version[0] = '\0';
#endif
}

static void collect_time_namespace(struct env_info *env)
{
	struct stat st;

	/* Each namespace is an nsfs inode; the initial one has a fixed number. */
	if (stat("/proc/self/ns/time", &st) < 0)
		return;
	env->time_ns_known = true;
	env->in_time_namespace = st.st_ino != ROOT_TIME_NS_INO;
}

struct symbol_list {
	char **names;
	size_t count, cap;
};

static int add_function_symbol(const struct vdso_symbol *sym, void *ctx)
{
	struct symbol_list *list = ctx;
	char *entry;
	int n;

	if (!sym->is_func)
		return 0;
	if (sym->version[0])
		n = asprintf(&entry, "%s@%s", sym->name, sym->version);
	else
		n = asprintf(&entry, "%s", sym->name);
	if (n < 0)
		fatal("out of memory listing vDSO symbols");
	/* One spare slot for the NULL terminator. */
	grow_array((void **)&list->names, &list->cap, list->count + 2,
		   sizeof(char *));
	list->names[list->count++] = entry;
	list->names[list->count] = NULL;
	return 0;
}

static void collect_vdso(struct env_info *env, const struct vdso_image *vdso,
			 const char *vdso_error)
{
	struct symbol_list list = { 0 };

	if (!vdso) {
		copy_str(env->vdso_error, sizeof(env->vdso_error),
			 vdso_error && *vdso_error ? vdso_error : "no vDSO");
		return;
	}
	env->have_vdso = true;
	vdso_foreach_symbol(vdso, add_function_symbol, &list);
	env->vdso_symbols = list.names;
	env->nvdso_symbols = list.count;
}

void env_set_counter_step(struct env_info *env, double counter_step,
			  double clock_step_ns)
{
	const char *unit = cycles_arch_unit();

	env->clock_step_ns = clock_step_ns;
	env->counter_step = unit ? counter_step : clock_step_ns;
	snprintf(env->counter_unit, sizeof(env->counter_unit), "%s", unit ? unit : "ns");
}

void env_collect(struct env_info *env, const struct vdso_image *vdso,
		 const char *vdso_error, int cpu)
{
	long ncpus;

	memset(env, 0, sizeof(*env));
	collect_uname(env);
	collect_cmdline(env);
	collect_clocksource(env);
	collect_cpuinfo(env);
	collect_hypervisor(env);
	collect_libc(env);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	env->ncpus_online = ncpus > 0 ? (int)ncpus : -1;
	collect_time_namespace(env);
	env->cpu = cpu;
	collect_vdso(env, vdso, vdso_error);
	env_set_counter_step(env, cycles_arch_step(), cycles_clock_step_ns());
}

void env_free(struct env_info *env)
{
	if (!env)
		return;
	free(env->cmdline);
	env->cmdline = NULL;
	for (size_t i = 0; i < env->nvdso_symbols; i++)
		free(env->vdso_symbols[i]);
	free(env->vdso_symbols);
	env->vdso_symbols = NULL;
	env->nvdso_symbols = 0;
}

/*
 * A JSON string even for bytes that are not UTF-8 (a hostname or command
 * line may hold anything): such bytes become '?' instead of losing the key.
 */
static json_t *json_text(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *copy;

	if (j)
		return j;
	copy = xstrdup(s);
	for (char *p = copy; *p; p++) {
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	}
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *words_to_json(const char *s)
{
	json_t *arr = json_array();
	_cleanup_free_ char *copy = xstrdup(s);
	char *save = NULL;

	for (char *w = strtok_r(copy, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save))
		json_array_append_new(arr, json_text(w));
	return arr;
}

static json_t *flags_to_json(const struct env_info *env)
{
	json_t *obj = json_object();

	for (size_t i = 0; i < ARRAY_SIZE(timekeeping_flags); i++) {
		const struct flag_slot *slot = &timekeeping_flags[i];

		json_object_set_new(obj, slot->name,
				    json_boolean(*flag_cptr(env, slot)));
	}
	return obj;
}

static json_t *vdso_to_json(const struct env_info *env)
{
	json_t *symbols = json_array();

	for (size_t i = 0; i < env->nvdso_symbols; i++)
		json_array_append_new(symbols, json_text(env->vdso_symbols[i]));
	return json_pack("{s:b, s:o, s:o}",
			 "available", env->have_vdso,
			 "error", json_text(env->vdso_error),
			 "symbols", symbols);
}

/* Whether it ran in a non-root time namespace; on timens's namespace side,
 * the one timens made and its offsets. */
static json_t *time_namespace_json(const struct env_info *env)
{
	const struct timens_offsets *off = env->time_namespace_offsets;
	json_t *o = json_pack("{s:b, s:b}", "known", env->time_ns_known || off,
			      "non_root", env->in_time_namespace || off);

	if (off)
		json_object_set_new(o, "offsets", timens_offsets_to_json(off));
	return o;
}

json_t *env_to_json(const struct env_info *env)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "hostname", json_text(env->hostname));
	json_object_set_new(obj, "kernel_release", json_text(env->kernel_release));
	json_object_set_new(obj, "kernel_version", json_text(env->kernel_version));
	json_object_set_new(obj, "machine", json_text(env->machine));
	json_object_set_new(obj, "cmdline", json_text(env->cmdline));
	json_object_set_new(obj, "clocksource", json_text(env->clocksource));
	json_object_set_new(obj, "available_clocksources",
			    words_to_json(env->clocksources));
	json_object_set_new(obj, "cpu_model", json_text(env->cpu_model));
	json_object_set_new(obj, "cpu_flags", flags_to_json(env));
	json_object_set_new(obj, "hypervisor", json_text(env->hypervisor));
	json_object_set_new(obj, "libc",
			    json_pack("{s:o, s:o}",
				      "name", json_text(env->libc_name),
				      "version", json_text(env->libc_version)));
	json_object_set_new(obj, "ncpus_online",
			    json_integer(env->ncpus_online));
	json_object_set_new(obj, "time_namespace", time_namespace_json(env));
	json_object_set_new(obj, "cpu", json_integer(env->cpu));
	json_object_set_new(obj, "vdso", vdso_to_json(env));
	if (env->counter_step > 0)
		json_object_set_new(obj, "counter_step",
				    json_pack("{s:f, s:o, s:f}", "step", env->counter_step,
					      "unit", json_text(env->counter_unit),
					      "clock_step_ns", env->clock_step_ns));
	return obj;
}

/* The words of a stored array, space-separated as /sys gives them, escaped. */
static void copy_words(char *buf, size_t len, const json_t *arr)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const json_t *w;
	size_t i;

	json_array_foreach((json_t *)arr, i, w)
		if (json_is_string(w)) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_adds(&sb, json_string_value(w));
		}
	text_copy(buf, len, sb.len ? sb.buf : "", TEXT_LINE_MAX);
}

/* The CPU flags set in a stored {"constant_tsc": true, ...}. */
static void set_flags(struct env_info *env, const json_t *flags)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *k;
	json_t *v;

	if (!json_is_object(flags))
		return;
	json_object_foreach((json_t *)flags, k, v)
		if (json_is_true(v)) {
			strbuf_adds(&sb, k);
			strbuf_addch(&sb, ' ');
		}
	/* Matches whole known names only: a stored key is never printed. */
	env_parse_cpu_flags(env, sb.len ? sb.buf : "");
}

/*
 * The stored environment (env_to_json()'s) as env_print(), its one
 * formatter, reads it, every text escaped. Of the vDSO's symbols only
 * their count is kept: nothing is allocated.
 */
void env_from_json(const json_t *j, struct env_info *env)
{
	const json_t *libc = json_member(j, "libc"), *ns = json_member(j, "time_namespace");
	const json_t *vdso = json_member(j, "vdso"), *step = json_member(j, "counter_step");

	memset(env, 0, sizeof(*env));
	json_text_copy(env->kernel_release, sizeof(env->kernel_release), j, "kernel_release");
	json_text_copy(env->kernel_version, sizeof(env->kernel_version), j, "kernel_version");
	json_text_copy(env->machine, sizeof(env->machine), j, "machine");
	json_text_copy(env->clocksource, sizeof(env->clocksource), j, "clocksource");
	copy_words(env->clocksources, sizeof(env->clocksources),
		   json_member(j, "available_clocksources"));
	json_text_copy(env->cpu_model, sizeof(env->cpu_model), j, "cpu_model");
	set_flags(env, json_member(j, "cpu_flags"));
	json_text_copy(env->hypervisor, sizeof(env->hypervisor), j, "hypervisor");
	json_text_copy(env->libc_name, sizeof(env->libc_name), libc, "name");
	json_text_copy(env->libc_version, sizeof(env->libc_version), libc, "version");
	env->ncpus_online = json_int_at(j, "ncpus_online", 0);
	env->time_ns_known = json_true_at(ns, "known");
	env->in_time_namespace = json_true_at(ns, "non_root");
	env->cpu = json_int_at(j, "cpu", -1);
	env->have_vdso = json_true_at(vdso, "available");
	json_text_copy(env->vdso_error, sizeof(env->vdso_error), vdso, "error");
	env->nvdso_symbols = json_array_size(json_member(vdso, "symbols"));
	env->counter_step = json_number_at(step, "step");
	json_text_copy(env->counter_unit, sizeof(env->counter_unit), step, "unit");
	env->clock_step_ns = json_number_at(step, "clock_step_ns");
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void print_cpu_line(const struct env_info *env, FILE *f,
			   const char *prefix)
{
	bool any = false;

	fprintf(f, "%scpu: %s", prefix, or_unknown(env->cpu_model));
	if (env->ncpus_online > 0)
		fprintf(f, " (%d online)", env->ncpus_online);
	fputs(", flags:", f);
	for (size_t i = 0; i < ARRAY_SIZE(timekeeping_flags); i++) {
		const struct flag_slot *slot = &timekeeping_flags[i];

		if (*flag_cptr(env, slot)) {
			fprintf(f, " %s", slot->name);
			any = true;
		}
	}
	fprintf(f, "%s; hypervisor: %s\n", any ? "" : " none",
		env->hypervisor[0] ? env->hypervisor : "none");
}

static const char *time_ns_label(const struct env_info *env)
{
	if (!env->time_ns_known)
		return "unknown";
	return env->in_time_namespace ? "non-root" : "root";
}

static void print_runtime_line(const struct env_info *env, FILE *f,
			       const char *prefix)
{
	fprintf(f, "%slibc: %s", prefix, or_unknown(env->libc_name));
	if (env->libc_version[0])
		fprintf(f, " %s", env->libc_version);
	fprintf(f, "; time namespace: %s", time_ns_label(env));
	if (env->have_vdso)
		fprintf(f, "; vdso: %zu symbols", env->nvdso_symbols);
	else
		fprintf(f, "; vdso: none (%s)", or_unknown(env->vdso_error));
	if (env->cpu >= 0)
		fprintf(f, "; measured on cpu %d", env->cpu);
	fputc('\n', f);
}

void env_print(const struct env_info *env, FILE *f, const char *prefix)
{
	if (!prefix)
		prefix = "";
	fprintf(f, "%skernel: %s (%s) %s\n", prefix,
		or_unknown(env->kernel_release), env->kernel_version,
		env->machine);
	fprintf(f, "%sclocksource: %s (available: %s)", prefix,
		or_unknown(env->clocksource), or_unknown(env->clocksources));
	if (env->counter_step > 0)
		fprintf(f, "; counter step: %.1f %s, clock step %.1f ns",
			env->counter_step, or_unknown(env->counter_unit),
			env->clock_step_ns);
	fputc('\n', f);
	print_cpu_line(env, f, prefix);
	print_runtime_line(env, f, prefix);
}
