// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the vDSO parser: a real x86_64 image from
 * $CLOCKBENCH_TEST_DATA/vdso-x86_64.so, many corrupted copies of it, and
 * the live vDSO of the test process. Every image is copied into a buffer of
 * exactly its length, so that AddressSanitizer reports any overread.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "basic/util.h"
#include "probe/vdso.h"

/* Facts about the fixture, read off `readelf -a` of it. */
#define FIXTURE_NSYMS 14
#define FIXTURE_STRSZ 204
#define FIXTURE_EXTENT 0x1a40	/* end of the section header table */
#define OFF_CLOCK_GETTIME 0xaf0
#define OFF_GETTIMEOFDAY 0x810
#define OFF_CLOCK_GETRES 0xe80
#define OFF_TIME 0xac0
#define OFF_GETCPU 0xf00
#define OFF_GETRANDOM 0xf40

static unsigned char *fixture;
static size_t fixture_len;

/*
 * Every build parses the ELF64 little-endian fixture, but the tests below
 * corrupt it through native Elf64_* structures: little-endian hosts only.
 */
static bool host_reads_fixture(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

#define NEED_FIXTURE()							\
	do {								\
		if (!host_reads_fixture())				\
			skip();						\
	} while (0)

static int load_fixture(void **state)
{
	const char *dir = getenv("CLOCKBENCH_TEST_DATA");
	char path[4096];
	FILE *f;
	long n;

	(void)state;
	snprintf(path, sizeof(path), "%s/vdso-x86_64.so", dir ? dir : "tests/data");
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	fixture = malloc(n > 0 ? (size_t)n : 1);
	fixture_len = fread(fixture, 1, n > 0 ? (size_t)n : 0, f);
	fclose(f);
	return fixture_len == (size_t)n && n > 0 ? 0 : -1;
}

static int free_fixture(void **state)
{
	(void)state;
	free(fixture);
	return 0;
}

/* ---- helpers: exact copies and the fixture's structures -------------- */

/* The first len bytes of the fixture in a buffer of exactly len bytes. */
static unsigned char *copy_image(size_t len)
{
	unsigned char *b = malloc(len ? len : 1);

	assert_non_null(b);
	memcpy(b, fixture, len < fixture_len ? len : fixture_len);
	return b;
}

static Elf64_Ehdr *ehdr(unsigned char *b)
{
	return (Elf64_Ehdr *)(void *)b;
}

static Elf64_Phdr *phdr_of_type(unsigned char *b, uint32_t type)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)(void *)(b + ehdr(b)->e_phoff);

	for (int i = 0; i < ehdr(b)->e_phnum; i++)
		if (ph[i].p_type == type)
			return &ph[i];
	fail_msg("fixture has no program header of type %u", type);
	return NULL;
}

static Elf64_Dyn *dyn_entry(unsigned char *b, int64_t tag)
{
	Elf64_Dyn *d = (Elf64_Dyn *)(void *)(b + phdr_of_type(b, PT_DYNAMIC)->p_offset);

	for (; d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return d;
	fail_msg("fixture has no dynamic tag %lld", (long long)tag);
	return NULL;
}

/* The fixture has a single PT_LOAD at offset 0 and vaddr 0. */
static void *table(unsigned char *b, int64_t tag)
{
	return b + dyn_entry(b, tag)->d_un.d_ptr;
}

static uint32_t *gnu_hash(unsigned char *b)
{
	return table(b, DT_GNU_HASH);
}

static Elf64_Verdef *verdef(unsigned char *b)
{
	return table(b, DT_VERDEF);
}

static int parse(const unsigned char *b, size_t len, struct vdso_image *img,
		 struct strbuf *err)
{
	strbuf_reset(err);
	return vdso_parse(img, b, len, err);
}

/* Parse b, expect a rejection whose message contains what. */
static void expect_reject(unsigned char *b, size_t len, const char *what)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (parse(b, len, &img, &err) != -1)
		fail_msg("corrupt image accepted (expected an error about '%s')", what);
	if (!strstr(err.buf, what))
		fail_msg("error '%s' does not mention '%s'", err.buf, what);
	print_message("#   rejected: %s\n", err.buf);
	assert_null(strchr(err.buf, '\n'));
	/* A failed parse leaves nothing a lookup could follow. */
	assert_ptr_equal(img.base, b);
	assert_int_equal(img.len, len);
	assert_null(img.symtab);
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", NULL));
}

static void parse_ok(const unsigned char *b, size_t len, struct vdso_image *img)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (parse(b, len, img, &err) != 0)
		fail_msg("parse failed: %s", err.buf);
}

/* ---- architecture names ---------------------------------------------- */

static void test_arch_names(void **state)
{
	const struct vdso_names *n = vdso_arch_names();

	(void)state;
	assert_non_null(n);
	assert_non_null(n->arch);
#if defined(__x86_64__) && !defined(__ILP32__)
	assert_string_equal(n->arch, "x86_64");
	assert_int_equal(n->machine, EM_X86_64);
	assert_string_equal(n->version, "LINUX_2.6");
	assert_string_equal(n->clock_gettime, "__vdso_clock_gettime");
	assert_string_equal(n->clock_getres, "__vdso_clock_getres");
	assert_string_equal(n->gettimeofday, "__vdso_gettimeofday");
	assert_string_equal(n->time, "__vdso_time");
	assert_string_equal(n->getcpu, "__vdso_getcpu");
	assert_string_equal(n->getrandom, "__vdso_getrandom");
#elif defined(__aarch64__)
	assert_string_equal(n->version, "LINUX_2.6.39");
	assert_string_equal(n->clock_gettime, "__kernel_clock_gettime");
	assert_null(n->time);
	assert_null(n->getcpu);
#else
	assert_non_null(n->version);
	assert_non_null(n->clock_gettime);
#endif
}

/* ---- parsing the fixture --------------------------------------------- */

static void test_parse_fixture(void **state)
{
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	assert_ptr_equal(img.base, fixture);
	assert_int_equal(img.len, fixture_len);
	assert_int_equal(img.machine, EM_X86_64);
	assert_int_equal(img.phnum, 4);
	assert_int_equal(img.nsyms, FIXTURE_NSYMS);
	assert_int_equal(img.strsz, FIXTURE_STRSZ);
	assert_int_equal(img.verdefnum, 2);
	assert_int_equal(img.load_offset, (uintptr_t)fixture);
	assert_ptr_equal(img.gnu_hash, fixture + 0x170);
	assert_ptr_equal(img.sysv_hash, fixture + 0x120);
	assert_ptr_equal(img.symtab, fixture + 0x1d0);
	assert_ptr_equal(img.strtab, fixture + 0x320);
	assert_ptr_equal(img.versym, fixture + 0x3ec);
	assert_ptr_equal(img.verdef, fixture + 0x408);
}

static void test_elf_extent(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t extent = 0;

	(void)state;
	NEED_FIXTURE();
	assert_int_equal(vdso_elf_extent(fixture, fixture_len, &extent, &err), 0);
	assert_int_equal(extent, FIXTURE_EXTENT);
	/* Only the ELF and program headers are needed. */
	assert_int_equal(vdso_elf_extent(fixture, 64 + 4 * 56, &extent, &err), 0);
	assert_int_equal(extent, FIXTURE_EXTENT);
	assert_int_equal(vdso_elf_extent(fixture, 64, &extent, &err), -1);
	assert_non_null(strstr(err.buf, "program header table"));
}

/* ---- lookup ---------------------------------------------------------- */

static const struct {
	const char *name;
	size_t off;
} fixture_funcs[] = {
	{ "__vdso_clock_gettime", OFF_CLOCK_GETTIME },
	{ "clock_gettime", OFF_CLOCK_GETTIME },
	{ "__vdso_gettimeofday", OFF_GETTIMEOFDAY },
	{ "gettimeofday", OFF_GETTIMEOFDAY },
	{ "__vdso_clock_getres", OFF_CLOCK_GETRES },
	{ "clock_getres", OFF_CLOCK_GETRES },
	{ "__vdso_time", OFF_TIME },
	{ "time", OFF_TIME },
	{ "__vdso_getcpu", OFF_GETCPU },
	{ "getcpu", OFF_GETCPU },
	{ "__vdso_getrandom", OFF_GETRANDOM },
	{ "getrandom", OFF_GETRANDOM },
};

/* Every function of the fixture resolves, with and without a version. */
static void assert_all_resolve(const struct vdso_image *img)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixture_funcs); i++) {
		const unsigned char *want = img->base + fixture_funcs[i].off;

		if (vdso_lookup(img, fixture_funcs[i].name, "LINUX_2.6") != want)
			fail_msg("%s@LINUX_2.6 does not resolve to +0x%zx",
				 fixture_funcs[i].name, fixture_funcs[i].off);
		assert_ptr_equal(vdso_lookup(img, fixture_funcs[i].name, NULL), want);
	}
}

static void test_lookup_gnu_hash(void **state)
{
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	assert_non_null(img.gnu_hash);
	assert_ptr_equal(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6"),
			 fixture + OFF_CLOCK_GETTIME);
	assert_all_resolve(&img);
}

static void test_lookup_sysv_hash(void **state)
{
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	img.gnu_hash = NULL;	/* lookups now go through DT_HASH */
	assert_ptr_equal(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6"),
			 fixture + OFF_CLOCK_GETTIME);
	assert_all_resolve(&img);
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6.39"));
	assert_null(vdso_lookup(&img, "__vdso_nothing", NULL));
}

/* An image whose DT_GNU_HASH entry is gone parses and resolves via DT_HASH. */
static void test_image_without_gnu_hash(void **state)
{
	unsigned char *b;
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	b = copy_image(fixture_len);
	dyn_entry(b, DT_GNU_HASH)->d_tag = DT_DEBUG;
	parse_ok(b, fixture_len, &img);
	assert_null(img.gnu_hash);
	assert_non_null(img.sysv_hash);
	assert_int_equal(img.nsyms, FIXTURE_NSYMS);
	assert_all_resolve(&img);
	free(b);
}

/* Without DT_HASH, the symbol count comes from walking the GNU chains. */
static void test_image_without_sysv_hash(void **state)
{
	unsigned char *b;
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	b = copy_image(fixture_len);
	dyn_entry(b, DT_HASH)->d_tag = DT_DEBUG;
	parse_ok(b, fixture_len, &img);
	assert_null(img.sysv_hash);
	assert_non_null(img.gnu_hash);
	assert_int_equal(img.nsyms, FIXTURE_NSYMS);
	assert_all_resolve(&img);
	free(b);
}

/* Blank tables make lookups fail: the lookups really use them. */
static void test_hash_tables_are_used(void **state)
{
	unsigned char *b;
	uint32_t *gh;
	uint32_t *sysv;
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	b = copy_image(fixture_len);
	gh = gnu_hash(b);
	memset(gh + 4, 0, gh[2] * sizeof(uint64_t));	/* the bloom filter */
	sysv = table(b, DT_HASH);
	memset(sysv + 2, 0, sysv[0] * sizeof(uint32_t));	/* the buckets */
	parse_ok(b, fixture_len, &img);
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6"));
	img.gnu_hash = NULL;
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6"));
	free(b);
}

static void test_wrong_version(void **state)
{
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6.39"));
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2"));
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", ""));
	/* The VER_FLG_BASE entry names the file, not a version. */
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "linux-vdso.so.1"));
	img.gnu_hash = NULL;
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "linux-vdso.so.1"));
}

static void test_unknown_name(void **state)
{
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	assert_null(vdso_lookup(&img, "__vdso_clock_settime", "LINUX_2.6"));
	assert_null(vdso_lookup(&img, "__vdso_clock_gettim", NULL));
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime64", NULL));
	assert_null(vdso_lookup(&img, "", NULL));
	assert_null(vdso_lookup(&img, NULL, NULL));
	assert_null(vdso_lookup(NULL, "__vdso_time", NULL));
	/* LINUX_2.6 is an SHN_ABS object (the version marker), not a function. */
	assert_null(vdso_lookup(&img, "LINUX_2.6", NULL));
}

static void test_version_rules(void **state)
{
	unsigned char *b;
	uint16_t *versym;
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	/* The hidden bit is masked off. */
	b = copy_image(fixture_len);
	versym = table(b, DT_VERSYM);
	for (int i = 1; i < FIXTURE_NSYMS; i++)
		versym[i] |= 0x8000;
	parse_ok(b, fixture_len, &img);
	assert_all_resolve(&img);
	/* Index 1 is the base entry: it names the file, not a version. */
	versym[9] = 1;		/* __vdso_clock_gettime */
	parse_ok(b, fixture_len, &img);
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "linux-vdso.so.1"));
	assert_null(vdso_lookup(&img, "__vdso_clock_gettime", "LINUX_2.6"));
	assert_ptr_equal(vdso_lookup(&img, "__vdso_clock_gettime", NULL),
			 b + OFF_CLOCK_GETTIME);
	/* Without DT_VERSYM any version is accepted. */
	dyn_entry(b, DT_VERSYM)->d_tag = DT_DEBUG;
	parse_ok(b, fixture_len, &img);
	assert_null(img.versym);
	assert_ptr_equal(vdso_lookup(&img, "__vdso_time", "LINUX_9.9"), b + OFF_TIME);
	free(b);
}

static Elf64_Sym *fixture_symbol(unsigned char *b, size_t i)
{
	return (Elf64_Sym *)table(b, DT_SYMTAB) + i;
}

static int find_name(const struct vdso_symbol *s, void *ctx)
{
	return streq(s->name, ctx) ? 1 + (int)s->type : 0;
}

/* Only defined global or weak functions resolve. */
static void test_symbol_filters(void **state)
{
	unsigned char *b;
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	b = copy_image(fixture_len);
	/* 6 __vdso_time, 8 time, 9 __vdso_clock_gettime, 11 __vdso_getcpu */
	fixture_symbol(b, 6)->st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
	fixture_symbol(b, 8)->st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	fixture_symbol(b, 9)->st_shndx = SHN_UNDEF;
	fixture_symbol(b, 11)->st_value = 0x100000;
	parse_ok(b, fixture_len, &img);
	for (int pass = 0; pass < 2; pass++) {
		assert_null(vdso_lookup(&img, "__vdso_time", NULL));
		assert_null(vdso_lookup(&img, "time", NULL));
		assert_null(vdso_lookup(&img, "__vdso_clock_gettime", NULL));
		assert_null(vdso_lookup(&img, "__vdso_getcpu", NULL));
		assert_ptr_equal(vdso_lookup(&img, "clock_gettime", "LINUX_2.6"),
				 b + OFF_CLOCK_GETTIME);
		img.gnu_hash = NULL;
	}
	/* foreach lists the object but not the local or undefined symbols. */
	assert_int_equal(vdso_foreach_symbol(&img, find_name, (void *)"__vdso_time"),
			 1 + STT_OBJECT);
	assert_int_equal(vdso_foreach_symbol(&img, find_name, (void *)"time"), 0);
	assert_int_equal(vdso_foreach_symbol(&img, find_name, (void *)"__vdso_clock_gettime"), 0);
	assert_int_equal(vdso_foreach_symbol(&img, find_name, (void *)"LINUX_2.6"), 0);
	free(b);
}

/* ---- foreach --------------------------------------------------------- */

struct collected {
	const char *names[32];
	struct vdso_symbol syms[32];
	size_t n;
	size_t stop_after;
};

static int collect(const struct vdso_symbol *s, void *ctx)
{
	struct collected *c = ctx;

	assert_true(c->n < ARRAY_SIZE(c->names));
	c->syms[c->n] = *s;
	c->names[c->n++] = s->name;
	return c->stop_after && c->n == c->stop_after ? 42 : 0;
}

static void test_foreach(void **state)
{
	static const char *const expected[] = {
		"clock_gettime", "__vdso_gettimeofday", "clock_getres",
		"__vdso_clock_getres", "gettimeofday", "__vdso_time",
		"__vdso_getrandom", "time", "__vdso_clock_gettime",
		"__vdso_getcpu", "getcpu", "getrandom",
	};
	struct collected c = { .n = 0 };
	struct vdso_image img;

	(void)state;
	NEED_FIXTURE();
	parse_ok(fixture, fixture_len, &img);
	assert_int_equal(vdso_foreach_symbol(&img, collect, &c), 0);
	assert_int_equal(c.n, ARRAY_SIZE(expected));
	for (size_t i = 0; i < c.n; i++) {
		assert_string_equal(c.names[i], expected[i]);
		assert_string_equal(c.syms[i].version, "LINUX_2.6");
		assert_true(c.syms[i].is_func);
		assert_int_equal(c.syms[i].type, STT_FUNC);
	}
	assert_int_equal(c.syms[0].offset, OFF_CLOCK_GETTIME);
	assert_int_equal(c.syms[0].size, 902);
	assert_int_equal(c.syms[0].bind, STB_WEAK);
	assert_int_equal(c.syms[8].bind, STB_GLOBAL);

	c = (struct collected){ .stop_after = 3 };
	assert_int_equal(vdso_foreach_symbol(&img, collect, &c), 42);
	assert_int_equal(c.n, 3);
}

/* ---- the live vDSO --------------------------------------------------- */

static int raw_clock_gettime(clockid_t id, struct timespec *ts)
{
#ifdef SYS_clock_gettime64
	if (sizeof(time_t) > sizeof(long))
		return (int)syscall(SYS_clock_gettime64, id, ts);
#endif
#ifdef SYS_clock_gettime
	return (int)syscall(SYS_clock_gettime, id, ts);
#else
	return (int)syscall(SYS_clock_gettime64, id, ts);
#endif
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static bool live_vdso(struct vdso_image *img)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (vdso_self(img, &err) == 0)
		return true;
	print_message("# no live vDSO: %s\n", err.buf);
	return false;
}

static void test_live_clock_gettime(void **state)
{
	const struct vdso_names *n = vdso_arch_names();
	int (*vdso_gettime)(clockid_t, struct timespec *);
	struct vdso_image img;
	void *fn;

	(void)state;
	if (!live_vdso(&img) || !n->clock_gettime)
		skip();
#if defined(__powerpc64__) && (!defined(_CALL_ELF) || _CALL_ELF < 2)
	skip();	/* ELFv1: a function pointer is a descriptor, not an address */
#endif
	fn = vdso_lookup(&img, n->clock_gettime, n->version);
	assert_non_null(fn);
	assert_true((const unsigned char *)fn >= img.base &&
		    (const unsigned char *)fn < img.base + img.len);
	*(void **)&vdso_gettime = fn;
	for (int i = 0; i < 100; i++) {
		struct timespec before, mid, after;
		const int64_t margin = 1000000;	/* 1 ms */

		assert_int_equal(raw_clock_gettime(CLOCK_MONOTONIC, &before), 0);
		assert_int_equal(vdso_gettime(CLOCK_MONOTONIC, &mid), 0);
		assert_int_equal(raw_clock_gettime(CLOCK_MONOTONIC, &after), 0);
		assert_true(mid.tv_nsec >= 0 && mid.tv_nsec < 1000000000);
		assert_true(ts_ns(&before) - margin <= ts_ns(&mid));
		assert_true(ts_ns(&mid) <= ts_ns(&after) + margin);
	}
}

static void test_live_image(void **state)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t extent;
	long page = sysconf(_SC_PAGESIZE);

	(void)state;
	if (!live_vdso(&img))
		skip();
	/* The length comes from /proc/self/maps: whole pages. */
	assert_int_equal(img.len % (size_t)page, 0);
	assert_int_equal(img.machine, vdso_arch_names()->machine);
	assert_int_equal(vdso_elf_extent(img.base, img.len, &extent, &err), 0);
	assert_true(extent > 0 && extent <= img.len);
	assert_true(img.nsyms > 1);
}

static void test_no_vdso_env(void **state)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	setenv("CLOCKBENCH_NO_VDSO", "1", 1);
	assert_int_equal(vdso_self(&img, &err), -1);
	assert_string_equal(err.buf, "disabled by CLOCKBENCH_NO_VDSO");
	assert_null(img.base);
	assert_null(vdso_lookup(&img, "__vdso_time", NULL));
	/* Empty means unset. */
	setenv("CLOCKBENCH_NO_VDSO", "", 1);
	strbuf_reset(&err);
	if (vdso_self(&img, &err) != 0)
		assert_null(strstr(err.buf, "CLOCKBENCH_NO_VDSO"));
	unsetenv("CLOCKBENCH_NO_VDSO");
}

/* ---- corrupt images -------------------------------------------------- */

static void test_truncations(void **state)
{
	(void)state;
	NEED_FIXTURE();
	for (size_t len = 0; len <= fixture_len; len++) {
		unsigned char *b = copy_image(len);
		struct vdso_image img;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		int rc = parse(b, len, &img, &err);

		/* Only an image holding all its ELF extent parses. */
		if (len < FIXTURE_EXTENT && rc != -1)
			fail_msg("image truncated to %zu bytes was accepted", len);
		if (len < FIXTURE_EXTENT && (!err.len || strchr(err.buf, '\n')))
			fail_msg("truncated to %zu: bad message '%s'", len, err.buf);
		if (len >= FIXTURE_EXTENT && rc != 0)
			fail_msg("image of %zu bytes rejected: %s", len, err.buf);
		if (rc == 0)
			assert_ptr_equal(vdso_lookup(&img, "__vdso_time", "LINUX_2.6"),
					 b + OFF_TIME);
		free(b);
	}
}

typedef void (*mutator)(unsigned char *b, size_t len);

#define MUTATION(fn_name, body)						\
	static void fn_name(unsigned char *b, size_t len)		\
	{								\
		(void)len;						\
		body;							\
	}

MUTATION(bad_magic, b[EI_MAG1] = 'X')
MUTATION(wrong_class, b[EI_CLASS] = ELFCLASS32)
MUTATION(bad_class, b[EI_CLASS] = 7)
MUTATION(wrong_data, b[EI_DATA] = ELFDATA2MSB)
MUTATION(bad_ident_version, b[EI_VERSION] = 2)
MUTATION(bad_e_version, ehdr(b)->e_version = 5)
MUTATION(not_dyn, ehdr(b)->e_type = ET_EXEC)
MUTATION(phoff_outside, ehdr(b)->e_phoff = 0x100000)
MUTATION(phoff_near_end, ehdr(b)->e_phoff = len - 64)
MUTATION(phoff_wrap, ehdr(b)->e_phoff = UINT64_MAX - 8)
MUTATION(phoff_misaligned, ehdr(b)->e_phoff = 65)
MUTATION(phnum_huge, ehdr(b)->e_phnum = 0xffff)
MUTATION(phnum_zero, ehdr(b)->e_phnum = 0)
MUTATION(phentsize_wrong, ehdr(b)->e_phentsize = 32)
MUTATION(shoff_near_end, ehdr(b)->e_shoff = len - 10)
MUTATION(shentsize_wrong, ehdr(b)->e_shentsize = 40)
MUTATION(load_filesz_huge, phdr_of_type(b, PT_LOAD)->p_filesz = UINT64_MAX)
MUTATION(load_end_wraps,
	 phdr_of_type(b, PT_LOAD)->p_offset = 0x100;
	 phdr_of_type(b, PT_LOAD)->p_filesz = UINT64_MAX - 0xf)
MUTATION(load_offset_outside, phdr_of_type(b, PT_LOAD)->p_offset = 0x10000)
MUTATION(load_wraps, phdr_of_type(b, PT_LOAD)->p_vaddr = UINT64_MAX - 0x100)
MUTATION(no_load, phdr_of_type(b, PT_LOAD)->p_type = PT_NULL)
MUTATION(dynamic_outside, phdr_of_type(b, PT_DYNAMIC)->p_offset = 0x100000)
MUTATION(dynamic_past_end, phdr_of_type(b, PT_DYNAMIC)->p_offset = len - 16)
MUTATION(dynamic_misaligned, phdr_of_type(b, PT_DYNAMIC)->p_offset += 4)
MUTATION(no_dynamic, phdr_of_type(b, PT_DYNAMIC)->p_type = PT_NULL)
MUTATION(strtab_outside, dyn_entry(b, DT_STRTAB)->d_un.d_ptr = 0x100000)
MUTATION(strsz_huge, dyn_entry(b, DT_STRSZ)->d_un.d_val = 0xffffffff)
MUTATION(strsz_max, dyn_entry(b, DT_STRSZ)->d_un.d_val = UINT64_MAX)
MUTATION(strsz_zero, dyn_entry(b, DT_STRSZ)->d_un.d_val = 0)
MUTATION(strtab_unterminated, dyn_entry(b, DT_STRSZ)->d_un.d_val = 5)
MUTATION(no_strtab, dyn_entry(b, DT_STRTAB)->d_tag = DT_DEBUG)
MUTATION(symtab_outside, dyn_entry(b, DT_SYMTAB)->d_un.d_ptr = 0x100000)
MUTATION(symtab_misaligned, dyn_entry(b, DT_SYMTAB)->d_un.d_ptr += 1)
MUTATION(symtab_past_end, dyn_entry(b, DT_SYMTAB)->d_un.d_ptr = 0x1530)
MUTATION(syment_wrong, dyn_entry(b, DT_SYMENT)->d_un.d_val = 16)
MUTATION(duplicate_tag, dyn_entry(b, DT_FLAGS)->d_tag = DT_STRTAB)
MUTATION(no_hash_tables,
	 dyn_entry(b, DT_HASH)->d_tag = DT_DEBUG;
	 dyn_entry(b, DT_GNU_HASH)->d_tag = DT_DEBUG)
MUTATION(st_name_outside,
	 ((Elf64_Sym *)table(b, DT_SYMTAB))[3].st_name = 0x1000)
MUTATION(st_name_at_strsz,
	 ((Elf64_Sym *)table(b, DT_SYMTAB))[13].st_name = FIXTURE_STRSZ)
MUTATION(sysv_nbucket_zero, ((uint32_t *)table(b, DT_HASH))[0] = 0)
MUTATION(sysv_nbucket_huge, ((uint32_t *)table(b, DT_HASH))[0] = 0xffffffff)
MUTATION(sysv_nchain_huge, ((uint32_t *)table(b, DT_HASH))[1] = 0x7fffffff)
MUTATION(sysv_nchain_past_load, ((uint32_t *)table(b, DT_HASH))[1] = 0x600)
MUTATION(sysv_nchain_too_many, ((uint32_t *)table(b, DT_HASH))[1] = 1000)
MUTATION(gnu_hash_outside, dyn_entry(b, DT_GNU_HASH)->d_un.d_ptr = 0x100000)
MUTATION(gnu_hash_misaligned, dyn_entry(b, DT_GNU_HASH)->d_un.d_ptr += 4)
MUTATION(gnu_nbuckets_huge, gnu_hash(b)[0] = 0xffffffff)
MUTATION(gnu_nbuckets_zero, gnu_hash(b)[0] = 0)
MUTATION(gnu_symoffset_high, gnu_hash(b)[1] = 5)
MUTATION(gnu_symoffset_past, gnu_hash(b)[1] = 100; gnu_hash(b)[4 + 4] = 0;
	 gnu_hash(b)[4 + 5] = 0; gnu_hash(b)[4 + 6] = 0)
MUTATION(gnu_bloom_huge, gnu_hash(b)[2] = 0xffffffff)
MUTATION(gnu_bloom_zero, gnu_hash(b)[2] = 0)
MUTATION(gnu_bloom_shift, gnu_hash(b)[3] = 32)
MUTATION(gnu_bucket_past_symbols, gnu_hash(b)[4 + 4] = 100)
MUTATION(gnu_only_bucket_huge,
	 dyn_entry(b, DT_HASH)->d_tag = DT_DEBUG;
	 gnu_hash(b)[4 + 4] = 0x7fffffff)
MUTATION(verdef_next_self, verdef(b)->vd_next = 0)
MUTATION(verdef_next_back, verdef(b)->vd_next = 4)
MUTATION(verdef_next_outside, verdef(b)->vd_next = 0x7ffffff0)
MUTATION(verdef_next_wrap, verdef(b)->vd_next = 0xffffffe4)
MUTATION(verdef_aux_outside, verdef(b)->vd_aux = 0x7ffffff0)
MUTATION(verdef_name_outside,
	 ((Elf64_Verdaux *)(void *)((unsigned char *)verdef(b) +
				    verdef(b)->vd_aux))->vda_name = 0x4000)
MUTATION(verdef_version, verdef(b)->vd_version = 2)
MUTATION(verdef_no_aux, verdef(b)->vd_cnt = 0)
MUTATION(verdef_outside, dyn_entry(b, DT_VERDEF)->d_un.d_ptr = 0x100000)
MUTATION(verdefnum_huge, dyn_entry(b, DT_VERDEFNUM)->d_un.d_val = 1000)
MUTATION(verdefnum_small, dyn_entry(b, DT_VERDEFNUM)->d_un.d_val = 1)
MUTATION(versym_outside, dyn_entry(b, DT_VERSYM)->d_un.d_ptr = 0x100000)
MUTATION(versym_misaligned, dyn_entry(b, DT_VERSYM)->d_un.d_ptr += 1)
MUTATION(versym_undefined, ((uint16_t *)table(b, DT_VERSYM))[5] = 7)

static const struct {
	const char *what;
	mutator fn;
	const char *message;	/* a part of the expected error */
} corruptions[] = {
	{ "bad magic", bad_magic, "bad magic" },
	/* Read as ELF32, the ELF64 headers no longer add up. */
	{ "ELF64 marked ELF32", wrong_class, "e_phentsize is 0, expected 32" },
	{ "invalid class", bad_class, "invalid ELF class 7" },
	/* Read big-endian, e_version 1 is 1 << 24. */
	{ "little-endian marked big-endian", wrong_data,
	  "unknown ELF version 16777216 in e_version" },
	{ "e_ident version", bad_ident_version, "e_ident" },
	{ "e_version", bad_e_version, "e_version" },
	{ "not ET_DYN", not_dyn, "not a shared object" },
	{ "e_phoff out of range", phoff_outside, "truncated: program header table ends at 0x1000e0, image is 0x2000 bytes" },
	{ "e_phoff near the end", phoff_near_end, "truncated: program header table ends at" },
	{ "e_phoff wraps", phoff_wrap, "program header table ends at 0xffffffffffffffff" },
	{ "e_phoff misaligned", phoff_misaligned, "not aligned" },
	{ "e_phnum huge", phnum_huge, "truncated: program header table ends at" },
	{ "e_phnum zero", phnum_zero, "no program headers" },
	{ "e_phentsize", phentsize_wrong, "e_phentsize" },
	{ "section headers cut", shoff_near_end, "section header table ends" },
	{ "e_shentsize", shentsize_wrong, "e_shentsize" },
	{ "PT_LOAD filesz huge", load_filesz_huge, "truncated: PT_LOAD segment 0 ends at 0xffffffffffffffff" },
	{ "PT_LOAD end wraps", load_end_wraps, "PT_LOAD segment 0: p_filesz 0xfffffffffffffff0 is impossible" },
	{ "PT_LOAD outside", load_offset_outside, "PT_LOAD" },
	{ "PT_LOAD wraps", load_wraps, "wraps" },
	{ "no PT_LOAD", no_load, "no PT_LOAD" },
	{ "PT_DYNAMIC outside", dynamic_outside, "PT_DYNAMIC" },
	{ "PT_DYNAMIC past the end", dynamic_past_end, "PT_DYNAMIC" },
	{ "PT_DYNAMIC misaligned", dynamic_misaligned, "PT_DYNAMIC" },
	{ "no PT_DYNAMIC", no_dynamic, "no PT_DYNAMIC" },
	{ "DT_STRTAB outside", strtab_outside, "DT_STRTAB 0x100000 is outside" },
	{ "DT_STRSZ huge", strsz_huge, "DT_STRSZ 0xffffffff runs past" },
	{ "DT_STRSZ max", strsz_max, "DT_STRSZ" },
	{ "DT_STRSZ zero", strsz_zero, "DT_STRSZ is 0" },
	{ "strtab not terminated", strtab_unterminated, "NUL" },
	{ "no DT_STRTAB", no_strtab, "no DT_STRTAB" },
	{ "DT_SYMTAB outside", symtab_outside, "DT_SYMTAB" },
	{ "DT_SYMTAB misaligned", symtab_misaligned, "DT_SYMTAB at 0x1d1 is not aligned" },
	{ "DT_SYMTAB past the end", symtab_past_end, "DT_SYMTAB" },
	{ "DT_SYMENT", syment_wrong, "DT_SYMENT is 16" },
	{ "duplicate tag", duplicate_tag, "DT_STRTAB appears twice" },
	{ "no hash table", no_hash_tables, "no DT_HASH or DT_GNU_HASH" },
	{ "st_name outside", st_name_outside, "symbol 3: st_name 0x1000 is outside" },
	{ "st_name at strsz", st_name_at_strsz, "symbol 13: st_name" },
	{ "DT_HASH no buckets", sysv_nbucket_zero, "DT_HASH has no buckets" },
	{ "DT_HASH nbucket huge", sysv_nbucket_huge, "DT_HASH nbucket" },
	{ "DT_HASH nchain huge", sysv_nchain_huge, "nchain" },
	{ "DT_HASH past its segment", sysv_nchain_past_load, "DT_HASH table" },
	{ "DT_HASH nchain too many", sysv_nchain_too_many, "1000 symbols cannot fit" },
	{ "DT_GNU_HASH outside", gnu_hash_outside, "DT_GNU_HASH header" },
	{ "DT_GNU_HASH misaligned", gnu_hash_misaligned, "not aligned" },
	{ "GNU nbuckets huge", gnu_nbuckets_huge, "nbuckets 4294967295" },
	{ "GNU nbuckets zero", gnu_nbuckets_zero, "DT_GNU_HASH has no buckets" },
	{ "GNU symoffset above buckets", gnu_symoffset_high, "below symoffset" },
	{ "GNU symoffset past symbols", gnu_symoffset_past, "symoffset 100 is past" },
	{ "GNU bloom size huge", gnu_bloom_huge, "bloom filter of 4294967295 words" },
	{ "GNU bloom size zero", gnu_bloom_zero, "empty bloom" },
	{ "GNU bloom shift", gnu_bloom_shift, "bloom shift 32" },
	{ "GNU bucket past symbols", gnu_bucket_past_symbols, "points to symbol 100 of 14" },
	{ "GNU-only bucket huge", gnu_only_bucket_huge, "DT_GNU_HASH chain from symbol 2147483647 runs past" },
	{ "verdef vd_next to itself", verdef_next_self, "the verdef chain has 1 entry" },
	{ "verdef vd_next backwards", verdef_next_back, "loop" },
	{ "verdef vd_next outside", verdef_next_outside, "verdef entry 1" },
	{ "verdef vd_next wraps", verdef_next_wrap, "verdef entry 1" },
	{ "verdef vd_aux outside", verdef_aux_outside, "vd_aux" },
	{ "verdef name outside", verdef_name_outside, "name 0x4000 is outside" },
	{ "verdef version", verdef_version, "verdef entry 0 has version 2" },
	{ "verdef without aux", verdef_no_aux, "vd_cnt is 0" },
	{ "DT_VERDEF outside", verdef_outside, "DT_VERDEF" },
	{ "DT_VERDEFNUM huge", verdefnum_huge, "DT_VERDEFNUM is 1000 but the verdef chain has 2 entries" },
	{ "DT_VERDEFNUM small", verdefnum_small, "longer than DT_VERDEFNUM" },
	{ "DT_VERSYM outside", versym_outside, "DT_VERSYM" },
	{ "DT_VERSYM misaligned", versym_misaligned, "not aligned" },
	{ "versym index undefined", versym_undefined, "version index 7" },
};

static void test_corruptions(void **state)
{
	(void)state;
	NEED_FIXTURE();
	for (size_t i = 0; i < ARRAY_SIZE(corruptions); i++) {
		unsigned char *b = copy_image(fixture_len);

		print_message("# corruption: %s\n", corruptions[i].what);
		corruptions[i].fn(b, fixture_len);
		expect_reject(b, fixture_len, corruptions[i].message);
		free(b);
	}
}

/* xorshift64*: the same mutations on every run. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int check_symbol_in_image(const struct vdso_symbol *s, void *ctx)
{
	const struct vdso_image *img = ctx;
	const unsigned char *end = img->base + img->len;

	assert_true((const unsigned char *)s->name >= img->base &&
		    (const unsigned char *)s->name < end);
	assert_true(s->name + strlen(s->name) < (const char *)end);
	if (*s->version)
		assert_true((const unsigned char *)s->version >= img->base &&
			    (const unsigned char *)s->version < end);
	return 0;
}

static void exercise(const struct vdso_image *img)
{
	static const char *const versions[] = { "LINUX_2.6", "linux-vdso.so.1", NULL };

	assert_int_equal(vdso_foreach_symbol(img, check_symbol_in_image, (void *)img), 0);
	for (size_t i = 0; i < ARRAY_SIZE(fixture_funcs); i++) {
		for (size_t v = 0; v < ARRAY_SIZE(versions); v++) {
			const unsigned char *p = vdso_lookup(img, fixture_funcs[i].name,
							     versions[v]);

			assert_true(!p || (p >= img->base && p < img->base + img->len));
		}
	}
}

static void test_random_mutations(void **state)
{
	uint64_t seed = 0x5eed0f0c10cbe7c4ull;
	unsigned accepted = 0, rejected = 0;
	/* Metadata lives in the first 0x580 bytes; aim most flips there. */
	const size_t hot = 0x580;

	(void)state;
	NEED_FIXTURE();
	for (int round = 0; round < 5000; round++) {
		unsigned char *b = copy_image(fixture_len);
		unsigned flips = 1 + next_random(&seed) % 4;
		struct vdso_image img;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		for (unsigned f = 0; f < flips; f++) {
			uint64_t r = next_random(&seed);
			size_t pos = (r & 3) ? (r >> 8) % hot : (r >> 8) % fixture_len;

			if (r & 4)
				b[pos] ^= (unsigned char)(1u << ((r >> 4) & 7));
			else
				b[pos] = (unsigned char)(r >> 40);
		}
		if (parse(b, fixture_len, &img, &err) == 0) {
			accepted++;
			exercise(&img);
			img.gnu_hash = NULL;
			exercise(&img);
		} else {
			rejected++;
			assert_true(err.len);
			assert_null(strchr(err.buf, '\n'));
		}
		free(b);
	}
	print_message("# random mutations: %u accepted, %u rejected\n", accepted, rejected);
	/* Both outcomes must occur, or the mutations test nothing. */
	assert_true(accepted > 100);
	assert_true(rejected > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_names),
		cmocka_unit_test(test_parse_fixture),
		cmocka_unit_test(test_elf_extent),
		cmocka_unit_test(test_lookup_gnu_hash),
		cmocka_unit_test(test_lookup_sysv_hash),
		cmocka_unit_test(test_image_without_gnu_hash),
		cmocka_unit_test(test_image_without_sysv_hash),
		cmocka_unit_test(test_hash_tables_are_used),
		cmocka_unit_test(test_wrong_version),
		cmocka_unit_test(test_unknown_name),
		cmocka_unit_test(test_version_rules),
		cmocka_unit_test(test_symbol_filters),
		cmocka_unit_test(test_foreach),
		cmocka_unit_test(test_live_clock_gettime),
		cmocka_unit_test(test_live_image),
		cmocka_unit_test(test_no_vdso_env),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_random_mutations),
	};

	return cmocka_run_group_tests_name("vdso", tests, load_fixture, free_fixture);
}
