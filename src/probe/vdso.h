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

#include "basic/strbuf.h"

/*
 * Per-architecture symbol names and the version they are exported under.
 * Each name is NULL where the architecture has no such entry point, and
 * every name points to an entry point whose C prototype matches this
 * build's types: on 32-bit architectures built with a 64-bit time_t
 * (_TIME_BITS=64, musl), clock_gettime is the *_clock_gettime64 variant and
 * the entry points that take or return a 32-bit time (gettimeofday, time,
 * clock_getres) are NULL, since calling them would mix the two layouts.
 */
struct vdso_names {
	const char *version;		/* "LINUX_2.6" on x86_64; NULL if unknown */
	const char *clock_gettime;	/* NULL where the arch has none */
	const char *clock_getres;
	const char *gettimeofday;
	const char *time;
	const char *getcpu;
	const char *getrandom;
	/* Additions to the original interface: */
	const char *arch;		/* "x86_64", "aarch64", "ppc64le", ... */
	uint16_t machine;		/* e_machine of this build (EM_*) */
	/* The y2038 entry points of a 32-bit time_t build (CATALOG_TIME64),
	 * which take a 64-bit struct timespec; NULL elsewhere. */
	const char *clock_gettime64;
	const char *clock_getres64;
};

/* The names of the architecture this binary was built for; never NULL. */
const struct vdso_names *vdso_arch_names(void);

/*
 * A parsed image. All pointers point into [base, base + len).
 * Lookups use gnu_hash when it is non-NULL, else sysv_hash: a caller (a
 * test) may clear gnu_hash after parsing to force the DT_HASH path.
 */
struct vdso_image {
	const unsigned char *base;	/* start of the ELF image */
	size_t len;			/* bytes that may be read */
	uintptr_t load_offset;		/* address of vaddr 0 when base is the
					 * mapped vDSO: base + p_offset - p_vaddr
					 * of the lowest PT_LOAD */
	const void *symtab;		/* Elf32_Sym[] or Elf64_Sym[] */
	size_t nsyms;			/* symbols in symtab (from the hash table) */
	const char *strtab;
	size_t strsz;
	const uint32_t *gnu_hash;	/* DT_GNU_HASH table, or NULL */
	const void *sysv_hash;		/* DT_HASH table, or NULL */
	const uint16_t *versym;		/* DT_VERSYM, or NULL */
	const void *verdef;		/* DT_VERDEF, or NULL */
	size_t verdefnum;		/* entries in the validated chain */
	/* Additions to the original interface: */
	uint16_t machine;		/* e_machine (EM_X86_64, ...) */
	const void *phdr;		/* program headers [phnum], to map vaddrs */
	size_t phnum;
	unsigned char elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	bool foreign_order;		/* byte order other than this build's */
	unsigned char hash_word;	/* bytes per DT_HASH entry: 8 on s390x */
};

/*
 * Parse an ELF image of any class, byte order and e_machine, so that dumps
 * from other machines can be inspected (tests/data has one of each).
 * Returns 0, or -1 with a one-line reason in err ("truncated: program
 * header table ends at 0x1234, image is 0x1000 bytes", ...). On failure
 * img->base and img->len are still set (so that the raw image can be
 * dumped) and every other field is zero.
 */
int vdso_parse(struct vdso_image *img, const void *base, size_t len,
	       struct strbuf *err);

/*
 * Address of the defined function symbol name@version (version NULL: any
 * version), found through DT_GNU_HASH when present, else DT_HASH. Accepts
 * STT_FUNC with STB_GLOBAL or STB_WEAK binding. NULL when absent. The
 * version is matched through DT_VERSYM/DT_VERDEF; an image without
 * DT_VERSYM matches any version. The result is base plus the symbol's image
 * offset: callable when img is the live vDSO, a position in the buffer
 * otherwise.
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
	/* Additions to the original interface: */
	unsigned char type;	/* STT_FUNC, STT_OBJECT, STT_NOTYPE, ... */
	unsigned char bind;	/* STB_GLOBAL or STB_WEAK */
};

/*
 * Call fn for every defined global or weak symbol (functions, objects and
 * untyped assembler labels such as arm64's __kernel_rt_sigreturn), in
 * symbol-table order. SHN_ABS symbols are skipped: in a vDSO they are the
 * linker's version markers (an object named LINUX_2.6 at 0), not code. Stops early when fn returns non-zero and returns
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
int vdso_self(struct vdso_image *img, struct strbuf *err);

/*
 * The extent of the ELF image at base as its own headers describe it: the
 * end of the furthest of the ELF header, the program header table, the
 * PT_LOAD segments' file contents and the section header table. Only the
 * first avail bytes (ELF and program headers) are read. The vDSO mapping
 * is usually longer (whole pages). Returns 0, or -1 with the reason.
 */
int vdso_elf_extent(const void *base, size_t avail, size_t *extent,
		    struct strbuf *err);

#endif
