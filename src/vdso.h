/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vDSO lookup: find the image the kernel maps into every process
 * (AT_SYSINFO_EHDR) and resolve its symbols by name and version through
 * DT_GNU_HASH or DT_HASH.
 *
 * The parser never trusts the image: it is given a pointer and a length and
 * validates every offset, count and string against that length, so that a
 * truncated or corrupt image is rejected with a message instead of being read
 * out of bounds. The same code parses the live vDSO and files on disk.
 */
#ifndef CLOCKBENCH_VDSO_H
#define CLOCKBENCH_VDSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-architecture symbol names and the version they are exported under. */
struct vdso_names {
	const char *version;		/* "LINUX_2.6" on x86_64 */
	const char *clock_gettime;	/* NULL where the arch has none */
	const char *clock_getres;
	const char *gettimeofday;
	const char *time;
	const char *getcpu;
	const char *getrandom;
};

/* The names of the architecture this binary was built for. */
const struct vdso_names *vdso_arch_names(void);

/* A parsed image. All pointers point into [base, base + len). */
struct vdso_image {
	const unsigned char *base;	/* start of the ELF image */
	size_t len;			/* bytes that may be read */
	uintptr_t load_offset;		/* base - the lowest PT_LOAD p_vaddr */
	const void *symtab;		/* ElfW(Sym)[] */
	size_t nsyms;			/* symbols in symtab (from the hash table) */
	const char *strtab;
	size_t strsz;
	const uint32_t *gnu_hash;	/* DT_GNU_HASH table, or NULL */
	const void *sysv_hash;		/* DT_HASH table, or NULL */
	const uint16_t *versym;		/* DT_VERSYM, or NULL */
	const void *verdef;		/* DT_VERDEF, or NULL */
	size_t verdefnum;
};

/*
 * Parse an ELF image of this architecture's class and byte order.
 * Returns 0, or -1 with a one-line reason in err ("truncated program
 * header table", "DT_STRTAB outside the image", ...).
 */
int vdso_parse(struct vdso_image *img, const void *base, size_t len,
	       char *err, size_t errlen);

/*
 * Address of the defined function symbol name@version (version NULL: any
 * version), found through DT_GNU_HASH when present, else DT_HASH. Accepts
 * STT_FUNC with STB_GLOBAL or STB_WEAK binding. NULL when absent.
 */
void *vdso_lookup(const struct vdso_image *img, const char *name,
		  const char *version);

/* One exported symbol, as listed by `clockbench vdso`. */
struct vdso_symbol {
	const char *name;
	const char *version;	/* "" when unversioned */
	uint64_t offset;	/* st_value: offset from the image's vaddr 0 */
	uint64_t size;
	bool is_func;
};

/*
 * Call fn for every defined global or weak symbol (functions and objects),
 * in symbol-table order. Stops early when fn returns non-zero and returns
 * that value; 0 otherwise.
 */
int vdso_foreach_symbol(const struct vdso_image *img,
			int (*fn)(const struct vdso_symbol *sym, void *ctx),
			void *ctx);

/*
 * The vDSO of this process: located with getauxval(AT_SYSINFO_EHDR), its
 * length taken from the [vdso] line of /proc/self/maps (or, when that is
 * unreadable, from the ELF headers' own extent). Returns 0, or -1 with the
 * reason in err: "no AT_SYSINFO_EHDR in the auxiliary vector", a parse
 * error, or "disabled by CLOCKBENCH_NO_VDSO" when that environment variable
 * is set to a non-empty value (a test aid that simulates a process without
 * a vDSO).
 */
int vdso_self(struct vdso_image *img, char *err, size_t errlen);

#endif
