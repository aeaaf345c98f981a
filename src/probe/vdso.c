// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vDSO lookup. The image is parsed from a pointer and a length and nothing
 * in it is trusted: every offset, count and string index is checked against
 * the length before use, with arithmetic that cannot wrap (off <= len &&
 * size <= len - off), and every table is checked for alignment before it is
 * read through a typed pointer. The first problem found is reported in one
 * line. Once vdso_parse() succeeds, lookups only follow what it validated.
 */
#include "probe/vdso.h"

#include <elf.h>
#include <inttypes.h>
#include <link.h>
#include <stdarg.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

/* DT_HASH words are 64-bit on s390x (and alpha), 32-bit everywhere else. */
#if defined(__s390x__) || defined(__alpha__)
typedef uint64_t hash_word_t;
#else
typedef uint32_t hash_word_t;
#endif

#define BLOOM_BITS (8 * sizeof(ElfW(Addr)))
#define VERSYM_INDEX 0x7fff	/* the top bit marks a hidden symbol */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_DATA ELFDATA2LSB
#else
#define NATIVE_DATA ELFDATA2MSB
#endif
#define NATIVE_CLASS (sizeof(ElfW(Addr)) == 8 ? ELFCLASS64 : ELFCLASS32)

/* ---- per-architecture names ------------------------------------------ */

/*
 * From the kernel's vdso.lds.S files and selftests/vDSO/vdso_config.h.
 * Names an older kernel lacks (getrandom before 6.11-6.16) are still
 * listed: `clockbench vdso` reports them as not exported.
 *
 * 32-bit architectures export both a classic clock_gettime (32-bit
 * time_t) and clock_gettime64. Which one matches the caller's struct
 * timespec depends on how this program was built, so TIME64_NAMES gives
 * the set for a 64-bit time_t build and vdso_arch_names() picks it when
 * time_t is wider than long (_TIME_BITS=64 on glibc, always on musl).
 */
#if defined(__x86_64__)
static const struct vdso_names names_native = {
	.arch = "x86_64", .machine = EM_X86_64, .version = "LINUX_2.6",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
	.time = "__vdso_time",
	.getcpu = "__vdso_getcpu",
	.getrandom = "__vdso_getrandom",		/* 6.11+ */
};
#elif defined(__i386__)
static const struct vdso_names names_native = {
	.arch = "i386", .machine = EM_386, .version = "LINUX_2.6",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
	.time = "__vdso_time",
	.getcpu = "__vdso_getcpu",
};
#define TIME64_NAMES { .arch = "i386", .machine = EM_386,		\
	.version = "LINUX_2.6", .clock_gettime = "__vdso_clock_gettime64", \
	.getcpu = "__vdso_getcpu" }
#elif defined(__aarch64__)
static const struct vdso_names names_native = {
	.arch = "aarch64", .machine = EM_AARCH64, .version = "LINUX_2.6.39",
	.clock_gettime = "__kernel_clock_gettime",
	.clock_getres = "__kernel_clock_getres",
	.gettimeofday = "__kernel_gettimeofday",
	.getrandom = "__kernel_getrandom",		/* 6.12+ */
};
#elif defined(__arm__)
static const struct vdso_names names_native = {
	.arch = "arm", .machine = EM_ARM, .version = "LINUX_2.6",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
};
#define TIME64_NAMES { .arch = "arm", .machine = EM_ARM,		\
	.version = "LINUX_2.6", .clock_gettime = "__vdso_clock_gettime64" }
#elif defined(__powerpc64__)
static const struct vdso_names names_native = {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	.arch = "ppc64le",
#else
	.arch = "ppc64",
#endif
	.machine = EM_PPC64, .version = "LINUX_2.6.15",
	.clock_gettime = "__kernel_clock_gettime",
	.clock_getres = "__kernel_clock_getres",
	.gettimeofday = "__kernel_gettimeofday",
	.time = "__kernel_time",
	.getcpu = "__kernel_getcpu",
	.getrandom = "__kernel_getrandom",		/* 6.12+ */
};
#elif defined(__powerpc__)
static const struct vdso_names names_native = {
	.arch = "ppc", .machine = EM_PPC, .version = "LINUX_2.6.15",
	.clock_gettime = "__kernel_clock_gettime",
	.clock_getres = "__kernel_clock_getres",
	.gettimeofday = "__kernel_gettimeofday",
	.time = "__kernel_time",
	.getcpu = "__kernel_getcpu",
	.getrandom = "__kernel_getrandom",
};
#define TIME64_NAMES { .arch = "ppc", .machine = EM_PPC,		\
	.version = "LINUX_2.6.15",					\
	.clock_gettime = "__kernel_clock_gettime64",			\
	.getcpu = "__kernel_getcpu", .getrandom = "__kernel_getrandom" }
#elif defined(__s390x__) || defined(__s390__)
static const struct vdso_names names_native = {
#if defined(__s390x__)
	.arch = "s390x",
#else
	.arch = "s390",
#endif
	.machine = EM_S390, .version = "LINUX_2.6.29",
	.clock_gettime = "__kernel_clock_gettime",
	.clock_getres = "__kernel_clock_getres",
	.gettimeofday = "__kernel_gettimeofday",
	.getcpu = "__kernel_getcpu",
	.getrandom = "__kernel_getrandom",		/* 6.12+ */
};
#elif defined(__riscv)
static const struct vdso_names names_native = {
#if __riscv_xlen == 32
	.arch = "riscv32",
#else
	.arch = "riscv64",
#endif
	.machine = EM_RISCV, .version = "LINUX_4.15",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
	.getcpu = "__vdso_getcpu",			/* a syscall inside */
	.getrandom = "__vdso_getrandom",		/* 6.16+ */
};
#if __riscv_xlen == 32
#define TIME64_NAMES { .arch = "riscv32", .machine = EM_RISCV,		\
	.version = "LINUX_4.15", .clock_gettime = "__vdso_clock_gettime64", \
	.getcpu = "__vdso_getcpu", .getrandom = "__vdso_getrandom" }
#endif
#elif defined(__loongarch__)
static const struct vdso_names names_native = {
	.arch = "loongarch64", .machine = EM_LOONGARCH,
	.version = "LINUX_5.10",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
	.getcpu = "__vdso_getcpu",
	.getrandom = "__vdso_getrandom",		/* 6.12+ */
};
#elif defined(__mips__)
static const struct vdso_names names_native = {
	.arch = "mips", .machine = EM_MIPS, .version = "LINUX_2.6",
	.clock_gettime = "__vdso_clock_gettime",
	.clock_getres = "__vdso_clock_getres",
	.gettimeofday = "__vdso_gettimeofday",
};
#if __SIZEOF_LONG__ == 4
#define TIME64_NAMES { .arch = "mips", .machine = EM_MIPS,		\
	.version = "LINUX_2.6", .clock_gettime = "__vdso_clock_gettime64" }
#endif
#elif defined(__sparc__)
static const struct vdso_names names_native = {
	.arch = "sparc", .machine = EM_SPARCV9, .version = "LINUX_2.6",
	.clock_gettime = "__vdso_clock_gettime",
	.gettimeofday = "__vdso_gettimeofday",
};
#else
/* Unknown architecture: no names, so nothing is looked up. */
static const struct vdso_names names_native = { .arch = "unknown" };
#endif

const struct vdso_names *vdso_arch_names(void)
{
#ifdef TIME64_NAMES
	static const struct vdso_names names_time64 = TIME64_NAMES;

	if (sizeof(time_t) > sizeof(long))
		return &names_time64;
#endif
	return &names_native;
}

/* ---- bounds and errors ----------------------------------------------- */

/* [off, off + size) lies within len bytes; written so that it cannot wrap. */
static bool fits(uint64_t len, uint64_t off, uint64_t size)
{
	return off <= len && size <= len - off;
}

/* count elements of elem bytes starting at off lie within len bytes. */
static bool array_fits(uint64_t len, uint64_t off, uint64_t count,
		       uint64_t elem)
{
	return off <= len && count <= (len - off) / elem;
}

static bool aligned(const struct vdso_image *img, uint64_t off, size_t align)
{
	return ((uintptr_t)img->base + (uintptr_t)off) % align == 0;
}

/* Only for offsets already checked with fits(). */
static const void *at(const struct vdso_image *img, uint64_t off)
{
	return img->base + off;
}

/* off + size for messages, saturated instead of wrapping. */
static uint64_t end_of(uint64_t off, uint64_t size)
{
	return size > UINT64_MAX - off ? UINT64_MAX : off + size;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t offset_of(const struct vdso_image *img, const void *p)
{
	return (uint64_t)((const unsigned char *)p - img->base);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

struct parser {
	struct vdso_image *img;
	char *err;
	size_t errlen;
};

#define FAIL(p, ...) fail((p)->err, (p)->errlen, __VA_ARGS__)
#define X64 "0x%" PRIx64

/* ---- headers --------------------------------------------------------- */

static const char *class_name(unsigned c)
{
	return c == ELFCLASS32 ? "ELF32" : c == ELFCLASS64 ? "ELF64" : "invalid";
}

static int check_ident(struct parser *p)
{
	const unsigned char *id = p->img->base;
	size_t len = p->img->len;

	if (len < SELFMAG || memcmp(id, ELFMAG, SELFMAG) != 0) {
		if (len < SELFMAG)
			return FAIL(p, "not an ELF image: only %zu bytes", len);
		return FAIL(p, "not an ELF image: bad magic %02x %02x %02x %02x",
			    id[0], id[1], id[2], id[3]);
	}
	if (len < EI_NIDENT)
		return FAIL(p, "truncated: ELF identification needs %d bytes, image is %zu bytes",
			    EI_NIDENT, len);
	if (id[EI_CLASS] != NATIVE_CLASS)
		return FAIL(p, "wrong ELF class %u (%s), this build reads %s",
			    id[EI_CLASS], class_name(id[EI_CLASS]),
			    class_name(NATIVE_CLASS));
	if (id[EI_DATA] != NATIVE_DATA)
		return FAIL(p, "wrong byte order (EI_DATA %u), this build reads %s-endian",
			    id[EI_DATA], NATIVE_DATA == ELFDATA2LSB ? "little" : "big");
	if (id[EI_VERSION] != EV_CURRENT)
		return FAIL(p, "unknown ELF version %u in e_ident", id[EI_VERSION]);
	return 0;
}

/* The ELF header and the program header table; nothing beyond them. */
static int check_headers(struct parser *p)
{
	struct vdso_image *img = p->img;
	const ElfW(Ehdr) *eh;
	uint64_t phsize;

	if (check_ident(p))
		return -1;
	if (img->len < sizeof(*eh))
		return FAIL(p, "truncated: ELF header is 0x%zx bytes, image is 0x%zx bytes",
			    sizeof(*eh), img->len);
	if (!aligned(img, 0, alignof(ElfW(Ehdr))))
		return FAIL(p, "image start %p is not aligned for an ELF header",
			    (const void *)img->base);
	eh = at(img, 0);
	if (eh->e_version != EV_CURRENT)
		return FAIL(p, "unknown ELF version %u in e_version",
			    (unsigned)eh->e_version);
	if (eh->e_type != ET_DYN)
		return FAIL(p, "not a shared object: e_type is %u", eh->e_type);
	if (eh->e_phentsize != sizeof(ElfW(Phdr)))
		return FAIL(p, "e_phentsize is %u, expected %zu",
			    eh->e_phentsize, sizeof(ElfW(Phdr)));
	if (eh->e_phnum == 0)
		return FAIL(p, "no program headers (e_phnum is 0)");
	phsize = (uint64_t)eh->e_phnum * sizeof(ElfW(Phdr));
	if (!fits(img->len, eh->e_phoff, phsize))
		return FAIL(p, "truncated: program header table ends at " X64 ", image is 0x%zx bytes",
			    end_of(eh->e_phoff, phsize), img->len);
	if (!aligned(img, eh->e_phoff, alignof(ElfW(Phdr))))
		return FAIL(p, "e_phoff " X64 " is not aligned", (uint64_t)eh->e_phoff);
	img->machine = eh->e_machine;
	img->phdr = at(img, eh->e_phoff);
	img->phnum = eh->e_phnum;
	return 0;
}

/* The section header table is not used, but a cut-off one means truncation. */
static int check_section_headers(struct parser *p)
{
	const ElfW(Ehdr) *eh = at(p->img, 0);
	uint64_t size;

	if (eh->e_shnum == 0)
		return 0;
	if (eh->e_shentsize != sizeof(ElfW(Shdr)))
		return FAIL(p, "e_shentsize is %u, expected %zu",
			    eh->e_shentsize, sizeof(ElfW(Shdr)));
	size = (uint64_t)eh->e_shnum * sizeof(ElfW(Shdr));
	if (!fits(p->img->len, eh->e_shoff, size))
		return FAIL(p, "truncated: section header table ends at " X64 ", image is 0x%zx bytes",
			    end_of(eh->e_shoff, size), p->img->len);
	return 0;
}

static const ElfW(Phdr) *phdrs(const struct vdso_image *img)
{
	return img->phdr;
}

static const char *segment_name(uint32_t type)
{
	return type == PT_LOAD ? "PT_LOAD" : "PT_DYNAMIC";
}

/* Every PT_LOAD inside the image; returns the first PT_DYNAMIC. */
static int check_segments(struct parser *p, const ElfW(Phdr) **dynamic)
{
	struct vdso_image *img = p->img;
	const ElfW(Phdr) *ph = phdrs(img), *lowest = NULL;

	*dynamic = NULL;
	for (size_t i = 0; i < img->phnum; i++) {
		uint64_t off = ph[i].p_offset, size = ph[i].p_filesz;

		if (ph[i].p_type != PT_LOAD && ph[i].p_type != PT_DYNAMIC)
			continue;
		if (size > UINT64_MAX - off)
			return FAIL(p, "%s segment %zu: p_filesz " X64 " is impossible",
				    segment_name(ph[i].p_type), i, size);
		if (!fits(img->len, off, size))
			return FAIL(p, "truncated: %s segment %zu ends at " X64 ", image is 0x%zx bytes",
				    segment_name(ph[i].p_type), i, off + size, img->len);
		if (ph[i].p_type == PT_DYNAMIC) {
			if (!*dynamic)
				*dynamic = &ph[i];
			continue;
		}
		/* The vaddr range must not wrap, so vaddr + n stays ordered. */
		if (size > (ElfW(Addr))-1 - ph[i].p_vaddr)
			return FAIL(p, "PT_LOAD segment %zu wraps the address space", i);
		if (!lowest || ph[i].p_vaddr < lowest->p_vaddr)
			lowest = &ph[i];
	}
	if (!lowest)
		return FAIL(p, "no PT_LOAD segment");
	if (!*dynamic)
		return FAIL(p, "no PT_DYNAMIC segment");
	img->load_offset = (uintptr_t)img->base + (uintptr_t)lowest->p_offset -
			   (uintptr_t)lowest->p_vaddr;
	return 0;
}

/*
 * Image offset of [vaddr, vaddr + size), through the PT_LOAD whose file
 * contents hold all of it. PT_LOADs were checked to lie in the image.
 */
static bool vaddr_to_offset(const struct vdso_image *img, uint64_t vaddr,
			    uint64_t size, uint64_t *off)
{
	const ElfW(Phdr) *ph = phdrs(img);

	for (size_t i = 0; i < img->phnum; i++) {
		if (ph[i].p_type != PT_LOAD || vaddr < ph[i].p_vaddr)
			continue;
		if (!fits(ph[i].p_filesz, vaddr - ph[i].p_vaddr, size))
			continue;
		*off = ph[i].p_offset + (vaddr - ph[i].p_vaddr);
		return true;
	}
	return false;
}

/* The size bytes at vaddr, or NULL with an error naming what they are. */
static const void *locate(struct parser *p, const char *what, uint64_t vaddr,
			  uint64_t size, size_t align)
{
	uint64_t off;

	if (!vaddr_to_offset(p->img, vaddr, size, &off)) {
		FAIL(p, "%s at " X64 " (" X64 " bytes) is outside the image's loaded segments",
		     what, vaddr, size);
		return NULL;
	}
	if (!aligned(p->img, off, align)) {
		FAIL(p, "%s at " X64 " is not aligned to %zu bytes", what, vaddr, align);
		return NULL;
	}
	return at(p->img, off);
}

/* ---- the dynamic section --------------------------------------------- */

enum dyn_slot {
	D_STRTAB, D_STRSZ, D_SYMTAB, D_SYMENT, D_HASH, D_GNU_HASH,
	D_VERSYM, D_VERDEF, D_VERDEFNUM, D_COUNT
};

static const struct {
	int64_t tag;
	const char *name;
} dyn_tags[D_COUNT] = {
	[D_STRTAB] = { DT_STRTAB, "DT_STRTAB" },
	[D_STRSZ] = { DT_STRSZ, "DT_STRSZ" },
	[D_SYMTAB] = { DT_SYMTAB, "DT_SYMTAB" },
	[D_SYMENT] = { DT_SYMENT, "DT_SYMENT" },
	[D_HASH] = { DT_HASH, "DT_HASH" },
	[D_GNU_HASH] = { DT_GNU_HASH, "DT_GNU_HASH" },
	[D_VERSYM] = { DT_VERSYM, "DT_VERSYM" },
	[D_VERDEF] = { DT_VERDEF, "DT_VERDEF" },
	[D_VERDEFNUM] = { DT_VERDEFNUM, "DT_VERDEFNUM" },
};

struct dyn_values {
	uint64_t val[D_COUNT];
	bool seen[D_COUNT];
};

static int read_dynamic(struct parser *p, const ElfW(Phdr) *dynamic,
			struct dyn_values *dv)
{
	const ElfW(Dyn) *dyn;
	size_t n = dynamic->p_filesz / sizeof(*dyn);

	if (!aligned(p->img, dynamic->p_offset, alignof(ElfW(Dyn))))
		return FAIL(p, "PT_DYNAMIC at offset " X64 " is not aligned",
			    (uint64_t)dynamic->p_offset);
	dyn = at(p->img, dynamic->p_offset);
	memset(dv, 0, sizeof(*dv));
	for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		for (int s = 0; s < D_COUNT; s++) {
			if (dyn[i].d_tag != dyn_tags[s].tag)
				continue;
			if (dv->seen[s])
				return FAIL(p, "%s appears twice in the dynamic section",
					    dyn_tags[s].name);
			dv->seen[s] = true;
			dv->val[s] = dyn[i].d_un.d_val;
		}
	}
	for (int s = D_STRTAB; s <= D_SYMTAB; s++)
		if (!dv->seen[s])
			return FAIL(p, "no %s in the dynamic section", dyn_tags[s].name);
	if (!dv->seen[D_HASH] && !dv->seen[D_GNU_HASH])
		return FAIL(p, "no DT_HASH or DT_GNU_HASH in the dynamic section");
	if (dv->seen[D_SYMENT] && dv->val[D_SYMENT] != sizeof(ElfW(Sym)))
		return FAIL(p, "DT_SYMENT is %" PRIu64 ", expected %zu",
			    dv->val[D_SYMENT], sizeof(ElfW(Sym)));
	return 0;
}

static int locate_strtab(struct parser *p, const struct dyn_values *dv)
{
	struct vdso_image *img = p->img;
	uint64_t addr = dv->val[D_STRTAB], size = dv->val[D_STRSZ], off;
	const char *strtab;

	if (!vaddr_to_offset(img, addr, 0, &off))
		return FAIL(p, "DT_STRTAB " X64 " is outside the image's loaded segments", addr);
	if (size == 0)
		return FAIL(p, "DT_STRSZ is 0: empty string table");
	strtab = locate(p, "string table", addr, size, 1);
	if (!strtab)
		return FAIL(p, "DT_STRSZ " X64 " runs past the end of the image (DT_STRTAB " X64 ", image 0x%zx bytes)",
			    size, addr, img->len);
	img->strtab = strtab;
	img->strsz = size;
	/* A final NUL makes every in-range st_name a terminated string. */
	if (img->strtab[size - 1] != '\0')
		return FAIL(p, "string table does not end with a NUL byte");
	return 0;
}

/* ---- hash tables and the symbol count -------------------------------- */

static int parse_sysv_hash(struct parser *p, uint64_t addr)
{
	const hash_word_t *h;
	uint64_t nbucket, nchain, max = p->img->len / sizeof(hash_word_t);

	h = locate(p, "DT_HASH header", addr, 2 * sizeof(*h), alignof(hash_word_t));
	if (!h)
		return -1;
	nbucket = h[0];
	nchain = h[1];
	if (nbucket == 0)
		return FAIL(p, "DT_HASH has no buckets");
	if (nbucket > max || nchain > max)
		return FAIL(p, "DT_HASH nbucket " X64 " / nchain " X64 " cannot fit in a 0x%zx-byte image",
			    nbucket, nchain, p->img->len);
	if (!locate(p, "DT_HASH table", addr, (2 + nbucket + nchain) * sizeof(*h), 1))
		return -1;
	p->img->sysv_hash = h;
	p->img->nsyms = nchain;
	return 0;
}

struct gnu_hash_header {
	uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
};

/*
 * Without DT_HASH, the symbol count is one past the end of the last chain:
 * start at the highest bucket and walk until an entry has the stop bit.
 */
static int gnu_count_symbols(struct parser *p, uint64_t chains_addr,
			     const uint32_t *buckets,
			     const struct gnu_hash_header *gh, size_t *nsyms)
{
	uint32_t last = 0;
	uint64_t limit = p->img->len / sizeof(uint32_t);

	for (uint32_t b = 0; b < gh->nbuckets; b++)
		if (buckets[b] > last)
			last = buckets[b];
	if (last == 0) {
		*nsyms = gh->symoffset;
		return 0;
	}
	for (uint64_t i = last - gh->symoffset;; i++) {
		const uint32_t *word;

		if (i >= limit)
			return FAIL(p, "DT_GNU_HASH chain from symbol %u runs past the end of the image",
				    last);
		word = locate(p, "DT_GNU_HASH chain", chains_addr + 4 * i, 4, 4);
		if (!word)
			return -1;
		if (*word & 1) {
			*nsyms = gh->symoffset + i + 1;
			return 0;
		}
	}
}

static int parse_gnu_hash(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	const unsigned char *table;
	const uint32_t *buckets;
	struct gnu_hash_header gh;
	uint64_t bloom_end, size;
	size_t nsyms = img->nsyms;

	table = locate(p, "DT_GNU_HASH header", addr, sizeof(gh), alignof(ElfW(Addr)));
	if (!table)
		return -1;
	memcpy(&gh, table, sizeof(gh));
	if (gh.nbuckets == 0)
		return FAIL(p, "DT_GNU_HASH has no buckets");
	if (gh.bloom_size == 0)
		return FAIL(p, "DT_GNU_HASH has an empty bloom filter");
	if (gh.bloom_shift >= 32)
		return FAIL(p, "DT_GNU_HASH bloom shift %u is not below 32", gh.bloom_shift);
	bloom_end = sizeof(gh) + (uint64_t)gh.bloom_size * sizeof(ElfW(Addr));
	if (!locate(p, "DT_GNU_HASH bloom filter", addr, bloom_end, 1))
		return FAIL(p, "DT_GNU_HASH bloom filter of %u words runs past the end of the image",
			    gh.bloom_size);
	size = bloom_end + (uint64_t)gh.nbuckets * sizeof(uint32_t);
	if (!locate(p, "DT_GNU_HASH buckets", addr, size, 1))
		return FAIL(p, "DT_GNU_HASH nbuckets %u runs past the end of the image",
			    gh.nbuckets);
	buckets = (const uint32_t *)(const void *)(table + bloom_end);
	for (uint32_t b = 0; b < gh.nbuckets; b++)
		if (buckets[b] != 0 && buckets[b] < gh.symoffset)
			return FAIL(p, "DT_GNU_HASH bucket %u points to symbol %u, below symoffset %u",
				    b, buckets[b], gh.symoffset);
	if (!img->sysv_hash &&
	    gnu_count_symbols(p, addr + size, buckets, &gh, &nsyms))
		return -1;
	if (gh.symoffset > nsyms)
		return FAIL(p, "DT_GNU_HASH symoffset %u is past the %zu symbols",
			    gh.symoffset, nsyms);
	for (uint32_t b = 0; b < gh.nbuckets; b++)
		if (buckets[b] >= nsyms)
			return FAIL(p, "DT_GNU_HASH bucket %u points to symbol %u of %zu",
				    b, buckets[b], nsyms);
	size += (uint64_t)(nsyms - gh.symoffset) * sizeof(uint32_t);
	if (!locate(p, "DT_GNU_HASH chains", addr, size, 1))
		return -1;
	img->gnu_hash = (const uint32_t *)(const void *)table;
	img->nsyms = nsyms;
	return 0;
}

/* ---- symbols and versions -------------------------------------------- */

static const ElfW(Sym) *symbol(const struct vdso_image *img, size_t i)
{
	return (const ElfW(Sym) *)img->symtab + i;
}

static int locate_symbols(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	if (!array_fits(img->len, 0, img->nsyms, sizeof(ElfW(Sym))))
		return FAIL(p, "%zu symbols cannot fit in a 0x%zx-byte image",
			    img->nsyms, img->len);
	img->symtab = locate(p, "DT_SYMTAB", addr,
			     (uint64_t)img->nsyms * sizeof(ElfW(Sym)), alignof(ElfW(Sym)));
	if (!img->symtab)
		return -1;
	for (size_t i = 0; i < img->nsyms; i++)
		if (symbol(img, i)->st_name >= img->strsz)
			return FAIL(p, "symbol %zu: st_name 0x%x is outside the string table (0x%zx bytes)",
				    i, (unsigned)symbol(img, i)->st_name, img->strsz);
	return 0;
}

static const ElfW(Verdaux) *verdef_aux(const ElfW(Verdef) *vd)
{
	return (const void *)((const unsigned char *)vd + vd->vd_aux);
}

static const ElfW(Verdef) *verdef_next(const ElfW(Verdef) *vd)
{
	return (const void *)((const unsigned char *)vd + vd->vd_next);
}

static int check_verdef_entry(struct parser *p, uint64_t off, size_t n)
{
	struct vdso_image *img = p->img;
	const ElfW(Verdef) *vd;
	const ElfW(Verdaux) *aux;
	uint64_t aux_off;

	if (!fits(img->len, off, sizeof(*vd)) || !aligned(img, off, alignof(ElfW(Verdef))))
		return FAIL(p, "verdef entry %zu at offset " X64 " is outside the image or misaligned",
			    n, off);
	vd = at(img, off);
	if (vd->vd_version != VER_DEF_CURRENT)
		return FAIL(p, "verdef entry %zu has version %u, expected %d",
			    n, vd->vd_version, VER_DEF_CURRENT);
	if (vd->vd_cnt == 0)
		return FAIL(p, "verdef entry %zu has no name (vd_cnt is 0)", n);
	aux_off = off + vd->vd_aux;
	if (!fits(img->len, aux_off, sizeof(*aux)) ||
	    !aligned(img, aux_off, alignof(ElfW(Verdaux))))
		return FAIL(p, "verdef entry %zu: vd_aux 0x%x is outside the image or misaligned",
			    n, (unsigned)vd->vd_aux);
	aux = verdef_aux(vd);
	if (aux->vda_name >= img->strsz)
		return FAIL(p, "verdef entry %zu: name 0x%x is outside the string table",
			    n, (unsigned)aux->vda_name);
	return 0;
}

/*
 * The chain must end (vd_next 0) after exactly DT_VERDEFNUM entries when
 * that is given. vd_next is unsigned and must step past the entry, so the
 * walk only moves forward and cannot loop.
 */
static int parse_verdef(struct parser *p, const struct dyn_values *dv)
{
	struct vdso_image *img = p->img;
	const void *first;
	const ElfW(Verdef) *vd;
	uint64_t off;
	size_t n = 0;

	first = locate(p, "DT_VERDEF", dv->val[D_VERDEF], sizeof(ElfW(Verdef)),
		       alignof(ElfW(Verdef)));
	if (!first)
		return -1;
	off = offset_of(img, first);
	for (;;) {
		if (check_verdef_entry(p, off, n))
			return -1;
		vd = at(img, off);
		n++;
		if (vd->vd_next == 0)
			break;
		if (vd->vd_next < sizeof(*vd))
			return FAIL(p, "verdef entry %zu: vd_next 0x%x points back into the entry (a loop)",
				    n - 1, (unsigned)vd->vd_next);
		if (dv->seen[D_VERDEFNUM] && n >= dv->val[D_VERDEFNUM])
			return FAIL(p, "verdef chain is longer than DT_VERDEFNUM %" PRIu64,
				    dv->val[D_VERDEFNUM]);
		off += vd->vd_next;
	}
	if (dv->seen[D_VERDEFNUM] && n != dv->val[D_VERDEFNUM])
		return FAIL(p, "DT_VERDEFNUM is %" PRIu64 " but the verdef chain has %zu entr%s",
			    dv->val[D_VERDEFNUM], n, n == 1 ? "y" : "ies");
	img->verdef = first;
	img->verdefnum = n;
	return 0;
}

/* The verdef entry defining version index ndx, skipping the base entry. */
static const ElfW(Verdef) *find_verdef(const struct vdso_image *img, unsigned ndx)
{
	const ElfW(Verdef) *vd = img->verdef;

	for (size_t n = 0; n < img->verdefnum; n++, vd = verdef_next(vd))
		if (vd->vd_ndx == ndx && !(vd->vd_flags & VER_FLG_BASE))
			return vd;
	return NULL;
}

/* The version name of symbol i, or NULL when it has none. */
static const char *symbol_version(const struct vdso_image *img, size_t i)
{
	const ElfW(Verdef) *vd;

	if (!img->versym)
		return NULL;
	vd = find_verdef(img, img->versym[i] & VERSYM_INDEX);
	return vd ? img->strtab + verdef_aux(vd)->vda_name : NULL;
}

static bool is_defined(const ElfW(Sym) *sym)
{
	return sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS;
}

/* Defined symbols name a version index that must exist in DT_VERDEF. */
static int parse_versym(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	img->versym = locate(p, "DT_VERSYM", addr, (uint64_t)img->nsyms * sizeof(uint16_t),
			     alignof(uint16_t));
	if (!img->versym)
		return -1;
	for (size_t i = 0; i < img->nsyms; i++) {
		unsigned ndx = img->versym[i] & VERSYM_INDEX;

		if (ndx <= VER_NDX_GLOBAL || !is_defined(symbol(img, i)))
			continue;
		if (!find_verdef(img, ndx))
			return FAIL(p, "symbol %zu has version index %u, which DT_VERDEF does not define",
				    i, ndx);
	}
	return 0;
}

/* ---- parsing --------------------------------------------------------- */

static int parse_dynamic(struct parser *p, const struct dyn_values *dv)
{
	if (locate_strtab(p, dv))
		return -1;
	if (dv->seen[D_HASH] && parse_sysv_hash(p, dv->val[D_HASH]))
		return -1;
	if (dv->seen[D_GNU_HASH] && parse_gnu_hash(p, dv->val[D_GNU_HASH]))
		return -1;
	if (locate_symbols(p, dv->val[D_SYMTAB]))
		return -1;
	if (dv->seen[D_VERDEF] && parse_verdef(p, dv))
		return -1;
	if (dv->seen[D_VERSYM] && parse_versym(p, dv->val[D_VERSYM]))
		return -1;
	return 0;
}

int vdso_parse(struct vdso_image *img, const void *base, size_t len,
	       char *err, size_t errlen)
{
	struct parser p = { .img = img, .err = err, .errlen = errlen };
	const ElfW(Phdr) *dynamic;
	struct dyn_values dv;

	memset(img, 0, sizeof(*img));
	img->base = base;
	img->len = len;
	if (!base)
		return FAIL(&p, "no image");
	if (check_headers(&p) || check_section_headers(&p) ||
	    check_segments(&p, &dynamic) || read_dynamic(&p, dynamic, &dv) ||
	    parse_dynamic(&p, &dv)) {
		memset(img, 0, sizeof(*img));
		img->base = base;
		img->len = len;
		return -1;
	}
	return 0;
}

/* ---- lookup ---------------------------------------------------------- */

static uint32_t gnu_hash_of(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = h * 33 + *s;
	return h;
}

static uint32_t sysv_hash_of(const char *name)
{
	uint32_t h = 0, high;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		h = (h << 4) + *s;
		high = h & 0xf0000000;
		if (high)
			h ^= high >> 24;
		h &= ~high;
	}
	return h;
}

/* Where symbol i's code is in the image, or NULL if outside it. */
static const unsigned char *symbol_address(const struct vdso_image *img, size_t i)
{
	uint64_t off;

	if (!vaddr_to_offset(img, symbol(img, i)->st_value, 1, &off))
		return NULL;
	return img->base + off;
}

static bool version_matches(const struct vdso_image *img, size_t i,
			    const char *version)
{
	const char *have;

	if (!version || !img->versym)
		return true;
	have = symbol_version(img, i);
	return have && strcmp(have, version) == 0;
}

static bool symbol_matches(const struct vdso_image *img, size_t i,
			   const char *name, const char *version)
{
	const ElfW(Sym) *sym = symbol(img, i);
	unsigned bind = ELF64_ST_BIND(sym->st_info);

	return ELF64_ST_TYPE(sym->st_info) == STT_FUNC &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) && is_defined(sym) &&
	       strcmp(img->strtab + sym->st_name, name) == 0 &&
	       version_matches(img, i, version) && symbol_address(img, i);
}

#define NOT_FOUND SIZE_MAX

static bool bloom_may_contain(const struct gnu_hash_header *gh,
			      const ElfW(Addr) *bloom, uint32_t h)
{
	ElfW(Addr) word = bloom[(h / BLOOM_BITS) % gh->bloom_size];
	ElfW(Addr) mask = (ElfW(Addr))1 << (h % BLOOM_BITS) |
			  (ElfW(Addr))1 << ((h >> gh->bloom_shift) % BLOOM_BITS);

	return (word & mask) == mask;
}

static size_t gnu_find(const struct vdso_image *img, const char *name,
		       const char *version)
{
	struct gnu_hash_header gh;
	const ElfW(Addr) *bloom;
	const uint32_t *buckets, *chains;
	uint32_t h = gnu_hash_of(name);

	memcpy(&gh, img->gnu_hash, sizeof(gh));
	bloom = (const ElfW(Addr) *)(const void *)(img->gnu_hash + 4);
	buckets = (const uint32_t *)(const void *)(bloom + gh.bloom_size);
	chains = buckets + gh.nbuckets;
	if (!bloom_may_contain(&gh, bloom, h))
		return NOT_FOUND;
	for (size_t i = buckets[h % gh.nbuckets]; i != 0 && i < img->nsyms; i++) {
		uint32_t ch = chains[i - gh.symoffset];

		if ((ch | 1) == (h | 1) && symbol_matches(img, i, name, version))
			return i;
		if (ch & 1)
			break;
	}
	return NOT_FOUND;
}

static size_t sysv_find(const struct vdso_image *img, const char *name,
			const char *version)
{
	const hash_word_t *h = img->sysv_hash;
	uint64_t nbucket = h[0], nchain = h[1];
	const hash_word_t *buckets = h + 2, *chains = buckets + nbucket;
	uint64_t i = buckets[sysv_hash_of(name) % nbucket];

	/* At most nchain steps, so a chain that loops still ends. */
	for (uint64_t steps = 0; i != STN_UNDEF && i < nchain && steps < nchain;
	     steps++, i = chains[i])
		if (symbol_matches(img, i, name, version))
			return i;
	return NOT_FOUND;
}

void *vdso_lookup(const struct vdso_image *img, const char *name,
		  const char *version)
{
	size_t i;

	if (!img || !img->symtab || !name)
		return NULL;
	if (img->gnu_hash)
		i = gnu_find(img, name, version);
	else if (img->sysv_hash)
		i = sysv_find(img, name, version);
	else
		return NULL;
	if (i == NOT_FOUND)
		return NULL;
	return (void *)(uintptr_t)symbol_address(img, i);
}

int vdso_foreach_symbol(const struct vdso_image *img,
			int (*fn)(const struct vdso_symbol *sym, void *ctx),
			void *ctx)
{
	if (!img || !img->symtab)
		return 0;
	for (size_t i = 1; i < img->nsyms; i++) {
		const ElfW(Sym) *sym = symbol(img, i);
		unsigned bind = ELF64_ST_BIND(sym->st_info);
		const char *version = symbol_version(img, i);
		struct vdso_symbol s;
		int rc;

		if (!is_defined(sym) || (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		s = (struct vdso_symbol){
			.name = img->strtab + sym->st_name,
			.version = version ? version : "",
			.offset = sym->st_value,
			.size = sym->st_size,
			.is_func = ELF64_ST_TYPE(sym->st_info) == STT_FUNC,
			.type = ELF64_ST_TYPE(sym->st_info),
			.bind = bind,
		};
		rc = fn(&s, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- this process ---------------------------------------------------- */

int vdso_elf_extent(const void *base, size_t avail, size_t *extent,
		    char *err, size_t errlen)
{
	struct vdso_image img = { .base = base, .len = avail };
	struct parser p = { .img = &img, .err = err, .errlen = errlen };
	const ElfW(Ehdr) *eh;
	const ElfW(Phdr) *ph;
	uint64_t end;

	if (!base)
		return FAIL(&p, "no image");
	if (check_headers(&p))
		return -1;
	eh = at(&img, 0);
	ph = phdrs(&img);
	end = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph);
	if (eh->e_shnum)
		end = max_u64(end, end_of(eh->e_shoff,
					  (uint64_t)eh->e_shnum * eh->e_shentsize));
	for (size_t i = 0; i < img.phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			end = max_u64(end, end_of(ph[i].p_offset, ph[i].p_filesz));
	/* Saturated sums end up here too. */
	if (end >= SIZE_MAX)
		return FAIL(&p, "image extent " X64 " does not fit in memory", end);
	*extent = (size_t)end;
	return 0;
}

/*
 * The length of the mapping that starts at base, from /proc/self/maps:
 * the [vdso] line, extended by directly following [vdso] lines in case
 * the mapping was split. false when the file is unreadable or has no such
 * line.
 */
static bool vdso_mapping_length(uintptr_t base, size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uintptr_t end = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || !strstr(line, "[vdso]"))
			continue;
		if (lo == base || (end && lo == end))
			end = hi;
	}
	fclose(f);
	if (end <= base)
		return false;
	*len = end - base;
	return true;
}

int vdso_self(struct vdso_image *img, char *err, size_t errlen)
{
	const char *disabled = getenv("CLOCKBENCH_NO_VDSO");
	uintptr_t base;
	size_t len;
	long page;

	memset(img, 0, sizeof(*img));
	if (disabled && *disabled)
		return fail(err, errlen, "disabled by CLOCKBENCH_NO_VDSO");
	base = getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return fail(err, errlen, "no AT_SYSINFO_EHDR in the auxiliary vector");
	if (!vdso_mapping_length(base, &len)) {
		/* The kernel maps at least one page; the headers are in it. */
		page = sysconf(_SC_PAGESIZE);
		if (vdso_elf_extent((const void *)base, page > 0 ? (size_t)page : 4096,
				    &len, err, errlen))
			return -1;
	}
	return vdso_parse(img, (const void *)base, len, err, errlen);
}
