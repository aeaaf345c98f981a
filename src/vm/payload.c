// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/util.h"
#include "vm/arch.h"
#include "vm/guest.h"
#include "vm/initramfs.h"
#include "vm/payload.h"

/* The payload a static build weighs (4.5 MB) with room: a sanity bound. */
#define PAYLOAD_MAX_BYTES (256u << 20)

/*
 * Whether buf is an ELF executable of arch that asks for no program
 * interpreter (ld.so): a static program an initramfs can start.
 */
static int elf_check(const unsigned char *buf, size_t len, enum vm_arch arch,
		     struct strbuf *err)
{
	const Elf64_Ehdr *eh = (const void *)buf;

	if (len < sizeof(*eh) || memcmp(buf, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != vm_arch_info(arch)->elf_machine ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)) {
		strbuf_setf(err, "not an %s ELF executable (the kernels are %s)",
			    vm_arch_info(arch)->name, vm_arch_info(arch)->name);
		return -1;
	}
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
	    (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len - eh->e_phoff) {
		strbuf_setf(err, "a damaged ELF file (program headers)");
		return -1;
	}
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(buf + eh->e_phoff +
						      i * sizeof(Elf64_Phdr));

		if (ph->p_type == PT_INTERP) {
			strbuf_setf(err, "dynamically linked: the guest has no "
				    "libraries; build it with 'make guest'");
			return -1;
		}
	}
	return 0;
}

static char *read_payload(const char *path, size_t *len, struct strbuf *err)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		strbuf_setf(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (size_t)st.st_size > PAYLOAD_MAX_BYTES) {
		strbuf_setf(err, "%s: not a regular file of a payload's size", path);
		close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	buf = xmalloc(*len);
	if (fd_read_all(fd, buf, *len, -1) != 0) {
		strbuf_setf(err, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

static int check_payload(const char *path, enum vm_arch arch, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	size_t len;
	char *buf = read_payload(path, &len, err);
	int rc;

	if (!buf)
		return -1;
	rc = elf_check((const unsigned char *)buf, len, arch, &why);
	if (rc)
		strbuf_setf(err, "%s: %s", path, why.buf);
	free(buf);
	return rc;
}

/* Candidates beside this program: installed, and in the source tree. */
static bool beside_self(enum vm_arch arch, char *path, size_t len)
{
	const char *const host = arch == vm_arch_host() ? "" : "-";
	const struct vm_arch_info *a = vm_arch_info(arch);
	char rel[2][PATH_MAX / 4];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(rel[0], sizeof(rel[0]), "clockbench-guest%s%s", host, *host ? a->name : "");
	snprintf(rel[1], sizeof(rel[1]), "../../%s/src/clockbench", a->payload_dir);
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		snprintf(path, len, "%s/%s", exe, rel[i]);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

/* CLOCKBENCH_GUEST for this machine's architecture, CLOCKBENCH_GUEST_ARM64... */
static const char *guest_env(enum vm_arch arch)
{
	char name[64] = "CLOCKBENCH_GUEST";

	if (arch != vm_arch_host()) {
		size_t n = strlen(name);

		name[n++] = '_';
		for (const char *p = vm_arch_info(arch)->name; *p && n + 1 < sizeof(name); p++)
			name[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		name[n] = '\0';
	}
	return getenv(name);
}

int payload_find(const char *given, enum vm_arch arch, char *path, size_t len,
		 struct strbuf *err)
{
	const char *env = guest_env(arch);

	if (given)
		snprintf(path, len, "%s", given);
	else if (env && *env)
		snprintf(path, len, "%s", env);
	else if (!beside_self(arch, path, len)) {
		if (arch == vm_arch_host())
			strbuf_setf(err, "%s", PAYLOAD_MISSING);
		else
			strbuf_setf(err, "no static %s clockbench for the guest: build "
				    "one with 'make guest-%s' (%s/src/clockbench), or name "
				    "one with --guest", vm_arch_info(arch)->name,
				    vm_arch_info(arch)->name, vm_arch_info(arch)->payload_dir);
		return -1;
	}
	return check_payload(path, arch, err);
}

int payload_initramfs(const char *path, char *const *argv, size_t argc,
		      struct strbuf *out, struct strbuf *err)
{
	struct initramfs a;
	struct strbuf args = STRBUF_INIT;
	size_t len;
	char *bin = read_payload(path, &len, err);

	if (!bin)
		return -1;
	for (size_t i = 0; i < argc; i++)
		strbuf_add(&args, argv[i], strlen(argv[i]) + 1);
	initramfs_init(&a);
	initramfs_dir(&a, "dev");
	initramfs_chardev(&a, "dev/console", 0600, 5, 1);
	initramfs_dir(&a, "proc");
	initramfs_dir(&a, "sys");
	initramfs_dir(&a, "tmp");
	initramfs_dir(&a, "clockbench");
	initramfs_file(&a, "init", 0755, bin, len);
	initramfs_file(&a, GUEST_ARGS + 1, 0644, args.buf, args.len);
	initramfs_finish(&a);
	strbuf_add(out, a.buf.buf, a.buf.len);
	initramfs_release(&a);
	strbuf_release(&args);
	free(bin);
	return 0;
}
