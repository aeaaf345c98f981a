// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vDSO lookup. The image is parsed from a pointer and a length and nothing
 * in it is trusted: every offset, count and string index is checked against
 * the length before use, with arithmetic that cannot wrap (off <= len &&
 * size <= len - off), and every table is checked for the alignment the ELF
 * ABI gives it. Fields are read one at a time in the image's own class and
 * byte order, so that one build parses the vDSO of every architecture.
 * The first problem found is reported in one line. Once vdso_parse()
 * succeeds, lookups only follow what it validated.
 */
#include "probe/vdso.h"

#include <elf.h>
#include <inttypes.h>
#include <link.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

#define VERSYM_INDEX 0x7fff	/* the top bit marks a hidden symbol */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_DATA ELFDATA2LSB
#else
#define NATIVE_DATA ELFDATA2MSB
#endif

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
	.clock_gettime64 = "__vdso_clock_gettime64",
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
	.clock_gettime64 = "__vdso_clock_gettime64",
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
	.clock_gettime64 = "__kernel_clock_gettime64",
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

static int fail(struct strbuf *err, const char *fmt, ...) _printf_(2, 3);

static int fail(struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(err);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

struct parser {
	struct vdso_image *img;
	struct strbuf *err;
};

#define FAIL(p, ...) fail((p)->err, __VA_ARGS__)
#define X64 "0x%" PRIx64

/* ---- reading the image's own class and byte order --------------------- */

/*
 * Where the fields the parser reads lie in each class's structures. The
 * image is read field by field, byte-swapped when its byte order is not
 * ours, so that one build reads the vDSO of every architecture.
 */
struct elf_layout {
	size_t ehdr, phdr, shdr, dyn, sym, word;
	size_t e_type, e_machine, e_version, e_phoff, e_shoff, e_phentsize,
	       e_phnum, e_shentsize, e_shnum;
	size_t p_type, p_offset, p_vaddr, p_filesz;
	size_t d_tag, d_val;
	size_t st_name, st_info, st_shndx, st_value, st_size;
};

#define ELF_LAYOUT(N) {							\
	.ehdr = sizeof(Elf##N##_Ehdr), .phdr = sizeof(Elf##N##_Phdr),	\
	.shdr = sizeof(Elf##N##_Shdr), .dyn = sizeof(Elf##N##_Dyn),	\
	.sym = sizeof(Elf##N##_Sym), .word = (N) / 8,			\
	.e_type = offsetof(Elf##N##_Ehdr, e_type),			\
	.e_machine = offsetof(Elf##N##_Ehdr, e_machine),		\
	.e_version = offsetof(Elf##N##_Ehdr, e_version),		\
	.e_phoff = offsetof(Elf##N##_Ehdr, e_phoff),			\
	.e_shoff = offsetof(Elf##N##_Ehdr, e_shoff),			\
	.e_phentsize = offsetof(Elf##N##_Ehdr, e_phentsize),		\
	.e_phnum = offsetof(Elf##N##_Ehdr, e_phnum),			\
	.e_shentsize = offsetof(Elf##N##_Ehdr, e_shentsize),		\
	.e_shnum = offsetof(Elf##N##_Ehdr, e_shnum),			\
	.p_type = offsetof(Elf##N##_Phdr, p_type),			\
	.p_offset = offsetof(Elf##N##_Phdr, p_offset),			\
	.p_vaddr = offsetof(Elf##N##_Phdr, p_vaddr),			\
	.p_filesz = offsetof(Elf##N##_Phdr, p_filesz),			\
	.d_tag = offsetof(Elf##N##_Dyn, d_tag),				\
	.d_val = offsetof(Elf##N##_Dyn, d_un),				\
	.st_name = offsetof(Elf##N##_Sym, st_name),			\
	.st_info = offsetof(Elf##N##_Sym, st_info),			\
	.st_shndx = offsetof(Elf##N##_Sym, st_shndx),			\
	.st_value = offsetof(Elf##N##_Sym, st_value),			\
	.st_size = offsetof(Elf##N##_Sym, st_size),			\
}

static const struct elf_layout layout32 = ELF_LAYOUT(32);
static const struct elf_layout layout64 = ELF_LAYOUT(64);

static const struct elf_layout *layout(const struct vdso_image *img)
{
	return img->elf_class == ELFCLASS64 ? &layout64 : &layout32;
}

/* Only for offsets already checked with fits(). */
static uint16_t rd16(const struct vdso_image *img, uint64_t off)
{
	uint16_t v;

	memcpy(&v, img->base + off, sizeof(v));
	return img->foreign_order ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct vdso_image *img, uint64_t off)
{
	uint32_t v;

	memcpy(&v, img->base + off, sizeof(v));
	return img->foreign_order ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct vdso_image *img, uint64_t off)
{
	uint64_t v;

	memcpy(&v, img->base + off, sizeof(v));
	return img->foreign_order ? __builtin_bswap64(v) : v;
}

/* A word of the image's class: Addr, Off, Xword, a bloom word. */
static uint64_t rdword(const struct vdso_image *img, uint64_t off)
{
	return img->elf_class == ELFCLASS64 ? rd64(img, off) : rd32(img, off);
}

/* A DT_HASH entry: 64-bit on s390x and alpha (their ABIs), else 32-bit. */
static uint64_t rdhash(const struct vdso_image *img, uint64_t off)
{
	return img->hash_word == 8 ? rd64(img, off) : rd32(img, off);
}

struct ehdr {
	uint16_t type, machine, phentsize, phnum, shentsize, shnum;
	uint32_t version;
	uint64_t phoff, shoff;
};

struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

struct sym {
	uint32_t name;
	unsigned char info;
	uint16_t shndx;
	uint64_t value, size;
};

static void read_ehdr(const struct vdso_image *img, struct ehdr *eh)
{
	const struct elf_layout *l = layout(img);

	eh->type = rd16(img, l->e_type);
	eh->machine = rd16(img, l->e_machine);
	eh->version = rd32(img, l->e_version);
	eh->phoff = rdword(img, l->e_phoff);
	eh->shoff = rdword(img, l->e_shoff);
	eh->phentsize = rd16(img, l->e_phentsize);
	eh->phnum = rd16(img, l->e_phnum);
	eh->shentsize = rd16(img, l->e_shentsize);
	eh->shnum = rd16(img, l->e_shnum);
}

/* Program header i; the table was checked to lie in the image. */
static struct phdr read_phdr(const struct vdso_image *img, size_t i)
{
	const struct elf_layout *l = layout(img);
	uint64_t off = offset_of(img, img->phdr) + i * l->phdr;

	return (struct phdr){
		.type = rd32(img, off + l->p_type),
		.offset = rdword(img, off + l->p_offset),
		.vaddr = rdword(img, off + l->p_vaddr),
		.filesz = rdword(img, off + l->p_filesz),
	};
}

/* Symbol i; the table was checked to lie in the image. */
static struct sym read_sym(const struct vdso_image *img, size_t i)
{
	const struct elf_layout *l = layout(img);
	uint64_t off = offset_of(img, img->symtab) + i * l->sym;

	return (struct sym){
		.name = rd32(img, off + l->st_name),
		.info = img->base[off + l->st_info],
		.shndx = rd16(img, off + l->st_shndx),
		.value = rdword(img, off + l->st_value),
		.size = rdword(img, off + l->st_size),
	};
}

/* ---- headers --------------------------------------------------------- */

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
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return FAIL(p, "invalid ELF class %u (neither ELF32 nor ELF64)", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return FAIL(p, "invalid byte order (EI_DATA %u is neither little- nor big-endian)",
			    id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return FAIL(p, "unknown ELF version %u in e_ident", id[EI_VERSION]);
	p->img->elf_class = id[EI_CLASS];
	p->img->foreign_order = id[EI_DATA] != NATIVE_DATA;
	return 0;
}

/* The ELF header and the program header table; nothing beyond them. */
static int check_headers(struct parser *p)
{
	struct vdso_image *img = p->img;
	const struct elf_layout *l;
	struct ehdr eh;
	uint64_t phsize;

	if (check_ident(p))
		return -1;
	l = layout(img);
	if (img->len < l->ehdr)
		return FAIL(p, "truncated: ELF header is 0x%zx bytes, image is 0x%zx bytes",
			    l->ehdr, img->len);
	if (!aligned(img, 0, l->word))
		return FAIL(p, "image start %p is not aligned for an ELF header",
			    (const void *)img->base);
	read_ehdr(img, &eh);
	if (eh.version != EV_CURRENT)
		return FAIL(p, "unknown ELF version %u in e_version", (unsigned)eh.version);
	if (eh.type != ET_DYN)
		return FAIL(p, "not a shared object: e_type is %u", eh.type);
	if (eh.phentsize != l->phdr)
		return FAIL(p, "e_phentsize is %u, expected %zu", eh.phentsize, l->phdr);
	if (eh.phnum == 0)
		return FAIL(p, "no program headers (e_phnum is 0)");
	phsize = (uint64_t)eh.phnum * l->phdr;
	if (!fits(img->len, eh.phoff, phsize))
		return FAIL(p, "truncated: program header table ends at " X64 ", image is 0x%zx bytes",
			    end_of(eh.phoff, phsize), img->len);
	if (!aligned(img, eh.phoff, l->word))
		return FAIL(p, "e_phoff " X64 " is not aligned", eh.phoff);
	img->machine = eh.machine;
	img->hash_word = img->elf_class == ELFCLASS64 &&
			 (eh.machine == EM_S390 || eh.machine == EM_ALPHA) ? 8 : 4;
	img->phdr = at(img, eh.phoff);
	img->phnum = eh.phnum;
	return 0;
}

/* The section header table is not used, but a cut-off one means truncation. */
static int check_section_headers(struct parser *p)
{
	const struct elf_layout *l = layout(p->img);
	struct ehdr eh;
	uint64_t size;

	read_ehdr(p->img, &eh);
	if (eh.shnum == 0)
		return 0;
	if (eh.shentsize != l->shdr)
		return FAIL(p, "e_shentsize is %u, expected %zu", eh.shentsize, l->shdr);
	size = (uint64_t)eh.shnum * l->shdr;
	if (!fits(p->img->len, eh.shoff, size))
		return FAIL(p, "truncated: section header table ends at " X64 ", image is 0x%zx bytes",
			    end_of(eh.shoff, size), p->img->len);
	return 0;
}

static const char *segment_name(uint32_t type)
{
	return type == PT_LOAD ? "PT_LOAD" : "PT_DYNAMIC";
}

/* The largest address of the image's class. */
static uint64_t max_vaddr(const struct vdso_image *img)
{
	return img->elf_class == ELFCLASS64 ? UINT64_MAX : UINT32_MAX;
}

/* Every PT_LOAD inside the image; returns the first PT_DYNAMIC. */
static int check_segments(struct parser *p, struct phdr *dynamic)
{
	struct vdso_image *img = p->img;
	struct phdr lowest = { 0 };
	bool have_load = false, have_dynamic = false;

	for (size_t i = 0; i < img->phnum; i++) {
		struct phdr ph = read_phdr(img, i);

		if (ph.type != PT_LOAD && ph.type != PT_DYNAMIC)
			continue;
		if (ph.filesz > UINT64_MAX - ph.offset)
			return FAIL(p, "%s segment %zu: p_filesz " X64 " is impossible",
				    segment_name(ph.type), i, ph.filesz);
		if (!fits(img->len, ph.offset, ph.filesz))
			return FAIL(p, "truncated: %s segment %zu ends at " X64 ", image is 0x%zx bytes",
				    segment_name(ph.type), i, ph.offset + ph.filesz, img->len);
		if (ph.type == PT_DYNAMIC) {
			if (!have_dynamic)
				*dynamic = ph;
			have_dynamic = true;
			continue;
		}
		/* The vaddr range must not wrap, so vaddr + n stays ordered. */
		if (ph.filesz > max_vaddr(img) - ph.vaddr)
			return FAIL(p, "PT_LOAD segment %zu wraps the address space", i);
		if (!have_load || ph.vaddr < lowest.vaddr)
			lowest = ph;
		have_load = true;
	}
	if (!have_load)
		return FAIL(p, "no PT_LOAD segment");
	if (!have_dynamic)
		return FAIL(p, "no PT_DYNAMIC segment");
	img->load_offset = (uintptr_t)img->base + (uintptr_t)lowest.offset -
			   (uintptr_t)lowest.vaddr;
	return 0;
}

/*
 * Image offset of [vaddr, vaddr + size), through the PT_LOAD whose file
 * contents hold all of it. PT_LOADs were checked to lie in the image.
 */
static bool vaddr_to_offset(const struct vdso_image *img, uint64_t vaddr,
			    uint64_t size, uint64_t *off)
{
	for (size_t i = 0; i < img->phnum; i++) {
		struct phdr ph = read_phdr(img, i);

		if (ph.type != PT_LOAD || vaddr < ph.vaddr)
			continue;
		if (!fits(ph.filesz, vaddr - ph.vaddr, size))
			continue;
		*off = ph.offset + (vaddr - ph.vaddr);
		return true;
	}
	return false;
}

/* The image offset of the size bytes at vaddr, or -1 with an error. */
static int locate(struct parser *p, const char *what, uint64_t vaddr,
		  uint64_t size, size_t align, uint64_t *off)
{
	if (!vaddr_to_offset(p->img, vaddr, size, off))
		return FAIL(p, "%s at " X64 " (" X64 " bytes) is outside the image's loaded segments",
			    what, vaddr, size);
	if (!aligned(p->img, *off, align))
		return FAIL(p, "%s at " X64 " is not aligned to %zu bytes", what, vaddr, align);
	return 0;
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

/* d_tag is signed: sign-extend an ELF32 one so DT_GNU_HASH etc. compare. */
static int64_t read_dyn_tag(const struct vdso_image *img, uint64_t off)
{
	if (img->elf_class == ELFCLASS64)
		return (int64_t)rd64(img, off);
	return (int32_t)rd32(img, off);
}

static int read_dynamic(struct parser *p, const struct phdr *dynamic,
			struct dyn_values *dv)
{
	const struct vdso_image *img = p->img;
	const struct elf_layout *l = layout(img);
	size_t n = dynamic->filesz / l->dyn;

	if (!aligned(img, dynamic->offset, l->word))
		return FAIL(p, "PT_DYNAMIC at offset " X64 " is not aligned", dynamic->offset);
	memset(dv, 0, sizeof(*dv));
	for (size_t i = 0; i < n; i++) {
		uint64_t off = dynamic->offset + i * l->dyn;
		int64_t tag = read_dyn_tag(img, off + l->d_tag);

		if (tag == DT_NULL)
			break;
		for (int s = 0; s < D_COUNT; s++) {
			if (tag != dyn_tags[s].tag)
				continue;
			if (dv->seen[s])
				return FAIL(p, "%s appears twice in the dynamic section",
					    dyn_tags[s].name);
			dv->seen[s] = true;
			dv->val[s] = rdword(img, off + l->d_val);
		}
	}
	for (int s = D_STRTAB; s <= D_SYMTAB; s++)
		if (!dv->seen[s])
			return FAIL(p, "no %s in the dynamic section", dyn_tags[s].name);
	if (!dv->seen[D_HASH] && !dv->seen[D_GNU_HASH])
		return FAIL(p, "no DT_HASH or DT_GNU_HASH in the dynamic section");
	if (dv->seen[D_SYMENT] && dv->val[D_SYMENT] != l->sym)
		return FAIL(p, "DT_SYMENT is %" PRIu64 ", expected %zu", dv->val[D_SYMENT], l->sym);
	return 0;
}

static int locate_strtab(struct parser *p, const struct dyn_values *dv)
{
	struct vdso_image *img = p->img;
	uint64_t addr = dv->val[D_STRTAB], size = dv->val[D_STRSZ], off;
	_cleanup_strbuf_ struct strbuf ignored = STRBUF_INIT;

	if (!vaddr_to_offset(img, addr, 0, &off))
		return FAIL(p, "DT_STRTAB " X64 " is outside the image's loaded segments", addr);
	if (size == 0)
		return FAIL(p, "DT_STRSZ is 0: empty string table");
	if (locate(&(struct parser){ img, &ignored }, "string table",
		   addr, size, 1, &off))
		return FAIL(p, "DT_STRSZ " X64 " runs past the end of the image (DT_STRTAB " X64 ", image 0x%zx bytes)",
			    size, addr, img->len);
	img->strtab = (const char *)at(img, off);
	img->strsz = size;
	/* A final NUL makes every in-range st_name a terminated string. */
	if (img->strtab[size - 1] != '\0')
		return FAIL(p, "string table does not end with a NUL byte");
	return 0;
}

/* ---- hash tables and the symbol count -------------------------------- */

static int parse_sysv_hash(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	uint64_t w = img->hash_word, nbucket, nchain, max = img->len / w, off;

	if (locate(p, "DT_HASH header", addr, 2 * w, w, &off))
		return -1;
	nbucket = rdhash(img, off);
	nchain = rdhash(img, off + w);
	if (nbucket == 0)
		return FAIL(p, "DT_HASH has no buckets");
	if (nbucket > max || nchain > max)
		return FAIL(p, "DT_HASH nbucket " X64 " / nchain " X64 " cannot fit in a 0x%zx-byte image",
			    nbucket, nchain, img->len);
	if (locate(p, "DT_HASH table", addr, (2 + nbucket + nchain) * w, 1, &off))
		return -1;
	img->sysv_hash = at(img, off);
	img->nsyms = nchain;
	return 0;
}

struct gnu_hash_header {
	uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
};

static struct gnu_hash_header read_gnu_header(const struct vdso_image *img,
					      uint64_t off)
{
	return (struct gnu_hash_header){
		.nbuckets = rd32(img, off),
		.symoffset = rd32(img, off + 4),
		.bloom_size = rd32(img, off + 8),
		.bloom_shift = rd32(img, off + 12),
	};
}

/* Image offsets of the parts of a DT_GNU_HASH table at off. */
struct gnu_parts {
	uint64_t bloom, buckets, chains;
};

static struct gnu_parts gnu_parts_of(const struct vdso_image *img, uint64_t off,
				     const struct gnu_hash_header *gh)
{
	struct gnu_parts g;

	g.bloom = off + 16;
	g.buckets = g.bloom + (uint64_t)gh->bloom_size * layout(img)->word;
	g.chains = g.buckets + (uint64_t)gh->nbuckets * 4;
	return g;
}

/*
 * Without DT_HASH, the symbol count is one past the end of the last chain:
 * start at the highest bucket and walk until an entry has the stop bit.
 */
static int gnu_count_symbols(struct parser *p, uint64_t chains_addr,
			     uint64_t buckets, const struct gnu_hash_header *gh,
			     size_t *nsyms)
{
	const struct vdso_image *img = p->img;
	uint32_t last = 0;
	uint64_t limit = img->len / sizeof(uint32_t), off;

	for (uint32_t b = 0; b < gh->nbuckets; b++)
		if (rd32(img, buckets + 4 * b) > last)
			last = rd32(img, buckets + 4 * b);
	if (last == 0) {
		*nsyms = gh->symoffset;
		return 0;
	}
	for (uint64_t i = last - gh->symoffset;; i++) {
		if (i >= limit)
			return FAIL(p, "DT_GNU_HASH chain from symbol %u runs past the end of the image",
				    last);
		if (locate(p, "DT_GNU_HASH chain", chains_addr + 4 * i, 4, 4, &off))
			return -1;
		if (rd32(img, off) & 1) {
			*nsyms = gh->symoffset + i + 1;
			return 0;
		}
	}
}

/* Every non-empty bucket lies in [symoffset, nsyms); nsyms 0: not known yet. */
static int check_gnu_buckets(struct parser *p, uint64_t buckets,
			     const struct gnu_hash_header *gh, size_t nsyms)
{
	for (uint32_t b = 0; b < gh->nbuckets; b++) {
		uint32_t s = rd32(p->img, buckets + 4 * b);

		if (s != 0 && s < gh->symoffset)
			return FAIL(p, "DT_GNU_HASH bucket %u points to symbol %u, below symoffset %u",
				    b, s, gh->symoffset);
		if (nsyms && s >= nsyms)
			return FAIL(p, "DT_GNU_HASH bucket %u points to symbol %u of %zu",
				    b, s, nsyms);
	}
	return 0;
}

static int parse_gnu_hash(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	struct gnu_hash_header gh;
	struct gnu_parts g;
	uint64_t off, ignored, size;
	size_t nsyms = img->nsyms;

	if (locate(p, "DT_GNU_HASH header", addr, 16, layout(img)->word, &off))
		return -1;
	gh = read_gnu_header(img, off);
	if (gh.nbuckets == 0)
		return FAIL(p, "DT_GNU_HASH has no buckets");
	if (gh.bloom_size == 0)
		return FAIL(p, "DT_GNU_HASH has an empty bloom filter");
	if (gh.bloom_shift >= 32)
		return FAIL(p, "DT_GNU_HASH bloom shift %u is not below 32", gh.bloom_shift);
	g = gnu_parts_of(img, off, &gh);
	if (locate(p, "DT_GNU_HASH bloom filter", addr, g.buckets - off, 1, &ignored))
		return FAIL(p, "DT_GNU_HASH bloom filter of %u words runs past the end of the image",
			    gh.bloom_size);
	if (locate(p, "DT_GNU_HASH buckets", addr, g.chains - off, 1, &ignored))
		return FAIL(p, "DT_GNU_HASH nbuckets %u runs past the end of the image",
			    gh.nbuckets);
	if (check_gnu_buckets(p, g.buckets, &gh, 0))
		return -1;
	if (!img->sysv_hash &&
	    gnu_count_symbols(p, addr + (g.chains - off), g.buckets, &gh, &nsyms))
		return -1;
	if (gh.symoffset > nsyms)
		return FAIL(p, "DT_GNU_HASH symoffset %u is past the %zu symbols",
			    gh.symoffset, nsyms);
	if (check_gnu_buckets(p, g.buckets, &gh, nsyms))
		return -1;
	size = g.chains - off + (uint64_t)(nsyms - gh.symoffset) * sizeof(uint32_t);
	if (locate(p, "DT_GNU_HASH chains", addr, size, 1, &ignored))
		return -1;
	img->gnu_hash = (const uint32_t *)(const void *)at(img, off);
	img->nsyms = nsyms;
	return 0;
}

/* ---- symbols and versions -------------------------------------------- */

static int locate_symbols(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	const struct elf_layout *l = layout(img);
	uint64_t off;

	if (!array_fits(img->len, 0, img->nsyms, l->sym))
		return FAIL(p, "%zu symbols cannot fit in a 0x%zx-byte image",
			    img->nsyms, img->len);
	if (locate(p, "DT_SYMTAB", addr, (uint64_t)img->nsyms * l->sym, l->word, &off))
		return -1;
	img->symtab = at(img, off);
	for (size_t i = 0; i < img->nsyms; i++) {
		uint32_t name = read_sym(img, i).name;

		if (name >= img->strsz)
			return FAIL(p, "symbol %zu: st_name 0x%x is outside the string table (0x%zx bytes)",
				    i, (unsigned)name, img->strsz);
	}
	return 0;
}

/* The fields of Elf32_Verdef and Elf64_Verdef are the same. */
struct verdef {
	uint16_t version, flags, ndx, cnt;
	uint32_t aux, next;
};

#define VERDEF_SIZE sizeof(Elf64_Verdef)
#define VERDAUX_SIZE sizeof(Elf64_Verdaux)

static struct verdef read_verdef(const struct vdso_image *img, uint64_t off)
{
	return (struct verdef){
		.version = rd16(img, off + offsetof(Elf64_Verdef, vd_version)),
		.flags = rd16(img, off + offsetof(Elf64_Verdef, vd_flags)),
		.ndx = rd16(img, off + offsetof(Elf64_Verdef, vd_ndx)),
		.cnt = rd16(img, off + offsetof(Elf64_Verdef, vd_cnt)),
		.aux = rd32(img, off + offsetof(Elf64_Verdef, vd_aux)),
		.next = rd32(img, off + offsetof(Elf64_Verdef, vd_next)),
	};
}

/* The name (string table index) of the verdef entry at off. */
static uint32_t verdef_name(const struct vdso_image *img, uint64_t off)
{
	return rd32(img, off + read_verdef(img, off).aux +
			 offsetof(Elf64_Verdaux, vda_name));
}

static int check_verdef_entry(struct parser *p, uint64_t off, size_t n)
{
	struct vdso_image *img = p->img;
	struct verdef vd;
	uint64_t aux_off;
	uint32_t name;

	if (!fits(img->len, off, VERDEF_SIZE) || !aligned(img, off, 4))
		return FAIL(p, "verdef entry %zu at offset " X64 " is outside the image or misaligned",
			    n, off);
	vd = read_verdef(img, off);
	if (vd.version != VER_DEF_CURRENT)
		return FAIL(p, "verdef entry %zu has version %u, expected %d",
			    n, vd.version, VER_DEF_CURRENT);
	if (vd.cnt == 0)
		return FAIL(p, "verdef entry %zu has no name (vd_cnt is 0)", n);
	aux_off = off + vd.aux;
	if (!fits(img->len, aux_off, VERDAUX_SIZE) || !aligned(img, aux_off, 4))
		return FAIL(p, "verdef entry %zu: vd_aux 0x%x is outside the image or misaligned",
			    n, (unsigned)vd.aux);
	name = verdef_name(img, off);
	if (name >= img->strsz)
		return FAIL(p, "verdef entry %zu: name 0x%x is outside the string table",
			    n, (unsigned)name);
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
	struct verdef vd;
	uint64_t first, off;
	size_t n = 0;

	if (locate(p, "DT_VERDEF", dv->val[D_VERDEF], VERDEF_SIZE, 4, &first))
		return -1;
	for (off = first;; off += vd.next) {
		if (check_verdef_entry(p, off, n))
			return -1;
		vd = read_verdef(img, off);
		n++;
		if (vd.next == 0)
			break;
		if (vd.next < VERDEF_SIZE)
			return FAIL(p, "verdef entry %zu: vd_next 0x%x points back into the entry (a loop)",
				    n - 1, (unsigned)vd.next);
		if (dv->seen[D_VERDEFNUM] && n >= dv->val[D_VERDEFNUM])
			return FAIL(p, "verdef chain is longer than DT_VERDEFNUM %" PRIu64,
				    dv->val[D_VERDEFNUM]);
	}
	if (dv->seen[D_VERDEFNUM] && n != dv->val[D_VERDEFNUM])
		return FAIL(p, "DT_VERDEFNUM is %" PRIu64 " but the verdef chain has %zu entr%s",
			    dv->val[D_VERDEFNUM], n, n == 1 ? "y" : "ies");
	img->verdef = at(img, first);
	img->verdefnum = n;
	return 0;
}

/* The offset of the verdef entry defining version index ndx (not the base). */
static bool find_verdef(const struct vdso_image *img, unsigned ndx, uint64_t *found)
{
	uint64_t off = offset_of(img, img->verdef);

	for (size_t n = 0; n < img->verdefnum; n++) {
		struct verdef vd = read_verdef(img, off);

		if (vd.ndx == ndx && !(vd.flags & VER_FLG_BASE)) {
			*found = off;
			return true;
		}
		off += vd.next;
	}
	return false;
}

static unsigned versym_index(const struct vdso_image *img, size_t i)
{
	return rd16(img, offset_of(img, img->versym) + 2 * i) & VERSYM_INDEX;
}

/* The version name of symbol i, or NULL when it has none. */
static const char *symbol_version(const struct vdso_image *img, size_t i)
{
	uint64_t off;

	if (!img->versym || !find_verdef(img, versym_index(img, i), &off))
		return NULL;
	return img->strtab + verdef_name(img, off);
}

static bool is_defined(const struct sym *sym)
{
	return sym->shndx != SHN_UNDEF && sym->shndx != SHN_ABS;
}

/* Defined symbols name a version index that must exist in DT_VERDEF. */
static int parse_versym(struct parser *p, uint64_t addr)
{
	struct vdso_image *img = p->img;
	uint64_t off, ignored;

	if (locate(p, "DT_VERSYM", addr, (uint64_t)img->nsyms * sizeof(uint16_t), 2, &off))
		return -1;
	img->versym = (const uint16_t *)(const void *)at(img, off);
	for (size_t i = 0; i < img->nsyms; i++) {
		unsigned ndx = versym_index(img, i);
		struct sym s = read_sym(img, i);

		if (ndx <= VER_NDX_GLOBAL || !is_defined(&s))
			continue;
		if (!find_verdef(img, ndx, &ignored))
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
	       struct strbuf *err)
{
	struct parser p = { .img = img, .err = err };
	struct phdr dynamic = { 0 };
	struct dyn_values dv;

	memset(img, 0, sizeof(*img));
	img->base = base;
	img->len = len;
	if (!base)
		return FAIL(&p, "no image");
	if (check_headers(&p) || check_section_headers(&p) ||
	    check_segments(&p, &dynamic) || read_dynamic(&p, &dynamic, &dv) ||
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

	if (!vaddr_to_offset(img, read_sym(img, i).value, 1, &off))
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
	struct sym sym = read_sym(img, i);
	unsigned bind = ELF64_ST_BIND(sym.info);

	return ELF64_ST_TYPE(sym.info) == STT_FUNC &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) && is_defined(&sym) &&
	       strcmp(img->strtab + sym.name, name) == 0 &&
	       version_matches(img, i, version) && symbol_address(img, i);
}

#define NOT_FOUND SIZE_MAX

static bool bloom_may_contain(const struct vdso_image *img, uint64_t bloom,
			      const struct gnu_hash_header *gh, uint32_t h)
{
	unsigned bits = 8 * (unsigned)layout(img)->word;
	uint64_t word = rdword(img, bloom + (h / bits) % gh->bloom_size * layout(img)->word);
	uint64_t mask = (uint64_t)1 << (h % bits) | (uint64_t)1 << ((h >> gh->bloom_shift) % bits);

	return (word & mask) == mask;
}

static size_t gnu_find(const struct vdso_image *img, const char *name,
		       const char *version)
{
	uint64_t off = offset_of(img, img->gnu_hash);
	struct gnu_hash_header gh = read_gnu_header(img, off);
	struct gnu_parts g = gnu_parts_of(img, off, &gh);
	uint32_t h = gnu_hash_of(name);

	if (!bloom_may_contain(img, g.bloom, &gh, h))
		return NOT_FOUND;
	for (size_t i = rd32(img, g.buckets + 4 * (h % gh.nbuckets));
	     i != 0 && i < img->nsyms; i++) {
		uint32_t ch = rd32(img, g.chains + 4 * (i - gh.symoffset));

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
	uint64_t w = img->hash_word, off = offset_of(img, img->sysv_hash);
	uint64_t nbucket = rdhash(img, off), nchain = rdhash(img, off + w);
	uint64_t buckets = off + 2 * w, chains = buckets + nbucket * w;
	uint64_t i = rdhash(img, buckets + (sysv_hash_of(name) % nbucket) * w);

	/* At most nchain steps, so a chain that loops still ends. */
	for (uint64_t steps = 0; i != STN_UNDEF && i < nchain && steps < nchain;
	     steps++, i = rdhash(img, chains + i * w))
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
		struct sym sym = read_sym(img, i);
		unsigned bind = ELF64_ST_BIND(sym.info);
		const char *version = symbol_version(img, i);
		struct vdso_symbol s;
		int rc;

		if (!is_defined(&sym) || (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		s = (struct vdso_symbol){
			.name = img->strtab + sym.name,
			.version = version ? version : "",
			.offset = sym.value,
			.size = sym.size,
			.is_func = ELF64_ST_TYPE(sym.info) == STT_FUNC,
			.type = ELF64_ST_TYPE(sym.info),
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
		    struct strbuf *err)
{
	struct vdso_image img = { .base = base, .len = avail };
	struct parser p = { .img = &img, .err = err };
	const struct elf_layout *l;
	struct ehdr eh;
	uint64_t end;

	if (!base)
		return FAIL(&p, "no image");
	if (check_headers(&p))
		return -1;
	l = layout(&img);
	read_ehdr(&img, &eh);
	end = eh.phoff + (uint64_t)eh.phnum * l->phdr;
	if (eh.shnum)
		end = max_u64(end, end_of(eh.shoff, (uint64_t)eh.shnum * eh.shentsize));
	for (size_t i = 0; i < img.phnum; i++) {
		struct phdr ph = read_phdr(&img, i);

		if (ph.type == PT_LOAD)
			end = max_u64(end, end_of(ph.offset, ph.filesz));
	}
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

int vdso_self(struct vdso_image *img, struct strbuf *err)
{
	const char *disabled = getenv("CLOCKBENCH_NO_VDSO");
	uintptr_t base;
	size_t len;
	long page;

	memset(img, 0, sizeof(*img));
	if (disabled && *disabled)
		return fail(err, "disabled by CLOCKBENCH_NO_VDSO");
	base = getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return fail(err, "no AT_SYSINFO_EHDR in the auxiliary vector");
	if (!vdso_mapping_length(base, &len)) {
		/* The kernel maps at least one page; the headers are in it. */
		page = sysconf(_SC_PAGESIZE);
		if (vdso_elf_extent((const void *)base, page > 0 ? (size_t)page : 4096,
				    &len, err))
			return -1;
	}
	return vdso_parse(img, (const void *)base, len, err);
}
