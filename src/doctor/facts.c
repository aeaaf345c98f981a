// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The facts doctor reasons with: read from the environment fingerprint, the
 * parsed vDSO, the dynamic linker and the kernel log. Best effort: what
 * cannot be read stays empty and the evidence says so.
 */
#include "doctor/doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/interpose.h"

#define KMSG_MAX (4u << 20)

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

static int find_interp(struct dl_phdr_info *info, size_t size _unused_, void *ctx)
{
	bool *has_interp = ctx;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			*has_interp = true;
	}
	return 1;	/* the first object is the program itself: stop */
}

/* A program without PT_INTERP was not loaded by ld.so: it is static. */
static bool program_is_static(void)
{
	bool has_interp = false;

	dl_iterate_phdr(find_interp, &has_interp);
	return !has_interp;
}

/*
 * Who answers a call of the API by name: anything other than the C library
 * or the vDSO is an interposer (probe/interpose.h).
 */
static void collect_interposers(struct doctor_facts *f, const struct catalog *cat)
{
	for (int api = 0; api < API_COUNT; api++)
		interposer_of(catalog_apis[api].name, cat, f->interposer[api],
			      sizeof(f->interposer[api]));
}

static void collect_vdso_exports(struct doctor_facts *f, const struct catalog *cat)
{
	const char *version = vdso_arch_names()->version;

	f->have_vdso = cat->have_vdso;
	copy(f->vdso_error, sizeof(f->vdso_error), cat->vdso_error);
	copy(f->vdso_version, sizeof(f->vdso_version), version);
	for (int api = 0; api < API_COUNT; api++) {
		const char *sym = catalog_vdso_symbol(api);

		f->vdso_exports[api] = cat->have_vdso && sym &&
				       vdso_lookup(&cat->vdso, sym, version);
	}
}

/* Append one kmsg record (no trailing newline of its own) to the text. */
static void add_record(char **text, size_t *used, size_t *cap, const char *rec,
		       size_t n)
{
	grow_array((void **)text, cap, *used + n + 2, 1);
	memcpy(*text + *used, rec, n);
	*used += n;
	if (n && rec[n - 1] != '\n')
		(*text)[(*used)++] = '\n';
	(*text)[*used] = '\0';
}

/*
 * The kernel log from /dev/kmsg, one record per line; NULL when it cannot
 * be read (kernel.dmesg_restrict without CAP_SYSLOG). A fresh open reads
 * from the oldest record; O_NONBLOCK ends the read at the newest.
 */
static char *read_kernel_log(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *text = NULL, rec[8192];
	size_t used = 0, cap = 0;

	if (fd < 0)
		return NULL;
	add_record(&text, &used, &cap, "", 0);
	while (used < KMSG_MAX) {
		ssize_t n = read(fd, rec, sizeof(rec));

		if (n < 0 && errno == EPIPE)	/* overwritten while reading */
			continue;
		if (n <= 0)
			break;
		add_record(&text, &used, &cap, rec, (size_t)n);
	}
	close(fd);
	return text;
}

void doctor_collect_facts(struct doctor_facts *f, const struct catalog *cat,
			  const struct env_info *env)
{
	_cleanup_free_ char *kmsg = read_kernel_log();

	memset(f, 0, sizeof(*f));
	copy(f->machine, sizeof(f->machine), env->machine);
	copy(f->clocksource, sizeof(f->clocksource), env->clocksource);
	copy(f->clocksources, sizeof(f->clocksources), env->clocksources);
	trim_right(f->clocksources);
	copy(f->libc_name, sizeof(f->libc_name), env->libc_name);
	copy(f->libc_version, sizeof(f->libc_version), env->libc_version);
	f->in_timens = env->time_ns_known && env->in_time_namespace;
	f->static_binary = program_is_static();
	collect_vdso_exports(f, cat);
	collect_interposers(f, cat);
	doctor_tsc_hint(f->tsc_hint, sizeof(f->tsc_hint), kmsg, env->cmdline,
			f->clocksources, f->machine);
}
