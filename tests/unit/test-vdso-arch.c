// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vDSO parser on the real images of other architectures, from Debian's
 * kernel debug packages or built from Debian's kernel source package
 * (tests/data/README.md says which): ELF32 and ELF64, little- and
 * big-endian, DT_GNU_HASH and DT_HASH (64-bit entries on s390x). Each image resolves its time functions by name and version
 * through every hash table it has, and truncated and corrupted copies of
 * each are rejected with the reason. Every copy is a buffer of exactly its
 * length, so AddressSanitizer reports any overread.
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

#include "basic/util.h"
#include "probe/vdso.h"

struct arch_image {
	const char *file;
	uint16_t machine;
	unsigned char elf_class;
	bool big_endian;
	bool gnu_hash;			/* has DT_GNU_HASH besides DT_HASH */
	unsigned char hash_word;	/* bytes per DT_HASH entry */
	const char *version;
	const char *clock_gettime;	/* the name, and its st_value (readelf) */
	uint64_t clock_gettime_off;
	const char *others[4];		/* more names that must resolve */
	const char *absent;		/* another architecture's name */
};

static const struct arch_image images[] = {
	{ "vdso-x86_64.so", EM_X86_64, ELFCLASS64, false, true, 4, "LINUX_2.6",
	  "__vdso_clock_gettime", 0xaf0,
	  { "__vdso_gettimeofday", "__vdso_time", "__vdso_getcpu", "__vdso_clock_getres" },
	  "__kernel_clock_gettime" },
	{ "vdso-i386.so", EM_386, ELFCLASS32, false, true, 4, "LINUX_2.6",
	  "__vdso_clock_gettime", 0xb00,
	  { "__vdso_clock_gettime64", "__vdso_gettimeofday", "__vdso_time",
	    "__vdso_clock_getres" },
	  "__vdso_getrandom" },
	{ "vdso-arm64.so", EM_AARCH64, ELFCLASS64, false, false, 4, "LINUX_2.6.39",
	  "__kernel_clock_gettime", 0x2d0,
	  { "__kernel_gettimeofday", "__kernel_clock_getres" },
	  "__vdso_clock_gettime" },
	{ "vdso-armhf.so", EM_ARM, ELFCLASS32, false, false, 4, "LINUX_2.6",
	  "__vdso_clock_gettime", 0x33c,
	  { "__vdso_clock_gettime64", "__vdso_gettimeofday", "__vdso_clock_getres" },
	  "__vdso_time" },
	/* Thumb code: the low bit of st_value is set. */
	{ "vdso-arm64-compat.so", EM_ARM, ELFCLASS32, false, false, 4, "LINUX_2.6",
	  "__vdso_clock_gettime", 0x2d1,
	  { "__vdso_clock_gettime64", "__vdso_gettimeofday", "__vdso_clock_getres" },
	  "__kernel_clock_gettime" },
	{ "vdso-s390x.so", EM_S390, ELFCLASS64, true, true, 8, "LINUX_2.6.29",
	  "__kernel_clock_gettime", 0x430,
	  { "__kernel_gettimeofday", "__kernel_getcpu", "__kernel_clock_getres" },
	  "__vdso_clock_gettime" },
	{ "vdso-riscv64.so", EM_RISCV, ELFCLASS64, false, true, 4, "LINUX_4.15",
	  "__vdso_clock_gettime", 0x5ba,
	  { "__vdso_gettimeofday", "__vdso_getcpu", "__vdso_clock_getres",
	    "__vdso_riscv_hwprobe" },
	  "__kernel_clock_gettime" },
	/* powerpc: __kernel_* at LINUX_2.6.15; only the 32-bit one has a
	 * clock_gettime64. ELFv2 on ppc64le: st_value is the entry itself. */
	{ "vdso-ppc64el.so", EM_PPC64, ELFCLASS64, false, true, 4, "LINUX_2.6.15",
	  "__kernel_clock_gettime", 0x4c0,
	  { "__kernel_gettimeofday", "__kernel_clock_getres", "__kernel_time",
	    "__kernel_get_tbfreq" },
	  "__kernel_clock_gettime64" },
	{ "vdso-powerpc.so", EM_PPC, ELFCLASS32, true, true, 4, "LINUX_2.6.15",
	  "__kernel_clock_gettime", 0x444,
	  { "__kernel_clock_gettime64", "__kernel_gettimeofday", "__kernel_clock_getres",
	    "__kernel_time" },
	  "__vdso_clock_gettime" },
};

struct loaded {
	unsigned char *data;
	size_t len;
};

static struct loaded loaded[ARRAY_SIZE(images)];

static int load_one(const char *file, struct loaded *l)
{
	const char *dir = getenv("CLOCKBENCH_TEST_DATA");
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data", file);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	l->data = malloc(n > 0 ? (size_t)n : 1);
	l->len = l->data ? fread(l->data, 1, n > 0 ? (size_t)n : 0, f) : 0;
	fclose(f);
	return n > 0 && l->len == (size_t)n ? 0 : -1;
}

static int load_images(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++)
		if (load_one(images[i].file, &loaded[i]))
			return -1;
	return 0;
}

static int free_images(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++)
		free(loaded[i].data);
	return 0;
}

/* The first len bytes of image i in a buffer of exactly len bytes. */
static unsigned char *copy_of(size_t i, size_t len)
{
	unsigned char *b = malloc(len ? len : 1);

	assert_non_null(b);
	memcpy(b, loaded[i].data, len);
	return b;
}

static void parse_ok(const struct arch_image *a, const unsigned char *b,
		     size_t len, struct vdso_image *img)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (vdso_parse(img, b, len, &err) != 0)
		fail_msg("%s: %s", a->file, err.buf);
}

/* Each name resolves to the same place with and without its version. */
static void check_resolves(const struct arch_image *a, const struct vdso_image *img)
{
	const unsigned char *want = img->base + a->clock_gettime_off;

	if (vdso_lookup(img, a->clock_gettime, a->version) != want)
		fail_msg("%s: %s@%s is not at +0x%llx", a->file, a->clock_gettime,
			 a->version, (unsigned long long)a->clock_gettime_off);
	for (size_t k = 0; k < ARRAY_SIZE(a->others) && a->others[k]; k++) {
		void *p = vdso_lookup(img, a->others[k], a->version);

		if (!p)
			fail_msg("%s: %s@%s does not resolve", a->file, a->others[k], a->version);
		assert_ptr_equal(vdso_lookup(img, a->others[k], NULL), p);
	}
	assert_null(vdso_lookup(img, a->absent, NULL));
	/* Another architecture's version is another version. */
	assert_null(vdso_lookup(img, a->clock_gettime,
				strcmp(a->version, "LINUX_2.6") ? "LINUX_2.6" : "LINUX_2.6.39"));
}

static void test_headers(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
		const struct arch_image *a = &images[i];
		struct vdso_image img;

		parse_ok(a, loaded[i].data, loaded[i].len, &img);
		assert_int_equal(img.machine, a->machine);
		assert_int_equal(img.elf_class, a->elf_class);
		assert_int_equal(img.foreign_order,
				 a->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));
		assert_int_equal(img.hash_word, a->hash_word);
		assert_int_equal(img.gnu_hash != NULL, a->gnu_hash);
		assert_non_null(img.sysv_hash);
		assert_true(img.verdefnum >= 2);
	}
}

static void test_resolve_through_each_hash(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
		struct vdso_image img;

		print_message("# %s\n", images[i].file);
		parse_ok(&images[i], loaded[i].data, loaded[i].len, &img);
		check_resolves(&images[i], &img);
		img.gnu_hash = NULL;	/* the DT_HASH path */
		check_resolves(&images[i], &img);
	}
}

struct listing {
	const struct arch_image *a;
	unsigned funcs, with_version;
	bool saw_clock_gettime;
};

static int note_symbol(const struct vdso_symbol *s, void *ctx)
{
	struct listing *l = ctx;

	l->funcs += s->is_func;
	l->with_version += strcmp(s->version, l->a->version) == 0;
	if (strcmp(s->name, l->a->clock_gettime) == 0) {
		l->saw_clock_gettime = true;
		assert_int_equal(s->offset, l->a->clock_gettime_off);
	}
	return 0;
}

static void test_listing(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
		struct listing l = { .a = &images[i] };
		struct vdso_image img;

		parse_ok(&images[i], loaded[i].data, loaded[i].len, &img);
		assert_int_equal(vdso_foreach_symbol(&img, note_symbol, &l), 0);
		assert_true(l.saw_clock_gettime);
		assert_true(l.funcs >= 3);
		assert_true(l.with_version >= 3);
	}
}

static void expect_reject(size_t i, unsigned char *b, size_t len, const char *what)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (vdso_parse(&img, b, len, &err) == 0)
		fail_msg("%s: a damaged copy was accepted (expected '%s')", images[i].file, what);
	if (!strstr(err.buf, what))
		fail_msg("%s: error '%s' does not mention '%s'", images[i].file, err.buf, what);
	print_message("#   %s: %s\n", images[i].file, err.buf);
	assert_null(img.symtab);
}

/* Cut inside the loaded segment, and one byte short of the headers' extent. */
static void test_truncated_copies(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		size_t extent = 0;

		if (vdso_elf_extent(loaded[i].data, loaded[i].len, &extent, &err))
			fail_msg("%s: %s", images[i].file, err.buf);
		assert_true(extent <= loaded[i].len);
		size_t cuts[] = { loaded[i].len / 8, extent - 1 };

		for (size_t c = 0; c < ARRAY_SIZE(cuts); c++) {
			unsigned char *b = copy_of(i, cuts[c]);

			expect_reject(i, b, cuts[c], "truncated");
			free(b);
		}
	}
}

/*
 * A copy of image i with n bytes set to value at delta past field, a
 * position in the parsed original, and the error that must follow.
 */
static void corrupt_and_expect(size_t i, const struct vdso_image *orig,
			       const void *field, size_t delta,
			       unsigned char value, size_t n, const char *what)
{
	unsigned char *b = copy_of(i, loaded[i].len);
	size_t off = (size_t)((const unsigned char *)field - orig->base) + delta;

	memset(b + off, value, n);
	expect_reject(i, b, loaded[i].len, what);
	free(b);
}

static void test_corrupted_copies(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
		struct vdso_image img;
		size_t w = images[i].hash_word;

		parse_ok(&images[i], loaded[i].data, loaded[i].len, &img);
		/* Zero buckets in DT_HASH: on s390x the whole first 8 bytes. */
		corrupt_and_expect(i, &img, img.sysv_hash, 0, 0, w, "DT_HASH has no buckets");
		/* nchain beyond the image, in either byte order. */
		corrupt_and_expect(i, &img, img.sysv_hash, w, 0xff, w, "cannot fit in a");
		/* The first verdef entry's vd_version. */
		corrupt_and_expect(i, &img, img.verdef, 0, 0, 2, "verdef entry 0 has version 0");
		/* The string table's final NUL. */
		corrupt_and_expect(i, &img, img.strtab, img.strsz - 1, 'x', 1,
				   "string table does not end with a NUL byte");
		/* The ELF header's machine is kept, its type is not. */
		corrupt_and_expect(i, &img, img.base, EI_NIDENT, 7, 2, "not a shared object");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_resolve_through_each_hash),
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_truncated_copies),
		cmocka_unit_test(test_corrupted_copies),
	};

	return cmocka_run_group_tests_name("vdso-arch", tests, load_images, free_images);
}
