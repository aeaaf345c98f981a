// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of vm/: the frame a guest's result crosses the serial port
 * in (whole, cut short, changed, absent, a bomb), the result's gate (each
 * field, each limit), the initramfs's cpio entries,
 * what a kernel image file is taken for, the vmlinux unpacked from a
 * bzImage in every compression the kernel's build uses, and what a
 * boot's files say: how it ended, its console's last lines and panic, the
 * console kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <zstd.h>

#include "config.h"
#if HAVE_ZLIB
#include <zlib.h>
#endif
#if HAVE_LZMA
#include <lzma.h>
#endif
#if HAVE_LZ4
#include <lz4.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "vm/boot-files.h"
#include "vm/frame.h"
#include "vm/guest.h"
#include "vm/image.h"
#include "vm/initramfs.h"
#include "vm/qemu.h"
#include "vm/result.h"
#include "vm/vmlinux.h"

static const char payload[] =
	"{\"clockbench_guest\": 2, \"output\": \"ok\\n\"}";

static void encode(struct strbuf *frame)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	/* What the kernel or a shell may print on the port before it. */
	strbuf_adds(frame, "\r\nnoise before the frame\n");
	assert_int_equal(frame_encode(payload, sizeof(payload) - 1, frame, &err), 0);
}

/* frame_decode() into a memfd, read back into out: its return. */
static int decode(const char *buf, size_t len, size_t max, struct strbuf *out,
		  struct strbuf *err)
{
	int fd = vm_file_new("test");
	size_t size = 0;
	int rc;

	assert_true(fd >= 0);
	strbuf_reset(out);
	rc = frame_decode(buf, len, fd, max, &size, err);
	if (rc == 0) {
		assert_int_equal(vm_file_read(fd, max, out), 0);
		assert_int_equal(out->len, size);
	}
	close(fd);
	return rc;
}

static void test_frame_round_trip(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	encode(&frame);
	assert_int_equal(decode(frame.buf, frame.len, 1 << 20, &out, &err), 0);
	assert_int_equal(out.len, sizeof(payload) - 1);
	assert_memory_equal(out.buf, payload, out.len);
	strbuf_release(&frame);
	strbuf_release(&out);
}

static void test_frame_cut_short_at_every_length(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	encode(&frame);
	for (size_t len = 0; len < frame.len; len++) {
		assert_int_equal(decode(frame.buf, len, 1 << 20, &out, &err), -1);
		assert_true(strstr(err.buf, "no result arrived") || strstr(err.buf, "cut short") ||
			    strstr(err.buf, "damaged"));
	}
	strbuf_release(&frame);
	strbuf_release(&out);
}

static void test_frame_every_changed_byte_is_refused(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	const char *head;
	size_t start;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	encode(&frame);
	head = strstr(frame.buf, "\nclockbench-frame");
	assert_non_null(head);
	start = (size_t)(head - frame.buf);
	for (size_t i = start; i < frame.len; i++) {
		for (unsigned bit = 0; bit < 8; bit += 3) {
			frame.buf[i] ^= (char)(1u << bit);
			assert_int_equal(decode(frame.buf, frame.len, 1 << 20, &out, &err), -1);
			frame.buf[i] ^= (char)(1u << bit);
		}
	}
	strbuf_release(&frame);
	strbuf_release(&out);
}

static void test_frame_absent_or_lying(void **state)
{
	static const char huge[] = "\nclockbench-frame 1 999999999999\nxx";
	static const char bad[] = "\nclockbench-frame 1 4\nabcd\nclockbench-end\n";
	struct strbuf out = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decode("", 0, 1 << 20, &out, &err), -1);
	assert_non_null(strstr(err.buf, "no result arrived"));
	assert_int_equal(decode(huge, sizeof(huge) - 1, 1 << 20, &out, &err), -1);
	assert_non_null(strstr(err.buf, "without a valid length"));
	assert_int_equal(decode(bad, sizeof(bad) - 1, 1 << 20, &out, &err), -1);
	assert_non_null(strstr(err.buf, "not a zstd frame"));
	strbuf_release(&out);
}

/*
 * A bomb: 8 MiB of "{}," compress to a few hundred bytes. A frame that
 * inflates past what the receiver accepts is refused from its header,
 * before a byte is inflated; one just within it inflates whole.
 */
static void test_frame_bomb_refused_before_inflating(void **state)
{
	const size_t len = 8u << 20;
	_cleanup_free_ char *bomb = xmalloc(len);
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < len; i++)
		bomb[i] = "{},"[i % 3];
	assert_int_equal(frame_encode(bomb, len, &frame, &err), 0);
	assert_true(frame.len < 4096);
	assert_int_equal(decode(frame.buf, frame.len, len - 1, &out, &err), -1);
	assert_string_equal(err.buf, "the result is 8388608 bytes inflated, more than "
			    "the 8388607 accepted");
	assert_int_equal(out.len, 0);
	assert_int_equal(decode(frame.buf, frame.len, len, &out, &err), 0);
	assert_int_equal(out.len, len);
	strbuf_release(&frame);
	strbuf_release(&out);
}

/* ---- a guest's result ------------------------------------------------ */

#define FACTS "\"guest\": {\"release\": \"6.12\", \"version\": \"#1\", " \
	"\"cmdline\": \"x\", \"clocksource\": \"tsc\", " \
	"\"available_clocksources\": \"tsc\", \"init_reached_s\": 1.5, " \
	"\"clocksource_wait_s\": 0, \"cpus\": 2, " \
	"\"vdso_functions\": [\"__vdso_time\", \"__vdso_getcpu\"]}"

/* manifest '\0' export, as a frame, decoded: guest_result_decode()'s return. */
static int decode_result(const char *manifest, const char *export,
			 struct guest_result *r, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, frame = STRBUF_INIT;
	int rc;

	strbuf_adds(&text, manifest);
	strbuf_addch(&text, '\0');
	strbuf_adds(&text, export);
	assert_int_equal(frame_encode(text.buf, text.len, &frame, err), 0);
	strbuf_reset(err);
	rc = guest_result_decode(frame.buf, frame.len, r, err);
	strbuf_release(&text);
	strbuf_release(&frame);
	return rc;
}

static void test_result_decoded_once(void **state)
{
	struct guest_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char export[32];
	json_t *facts;

	(void)state;
	assert_int_equal(decode_result("{\"clockbench_guest\": 2, " FACTS ", \"status\": "
				       "{\"exit\": 3}, \"command_s\": 2.5, \"output\": "
				       "\"a\\tb\\n\", \"unknown\": {\"x\": 1}}",
				       "{\"runs\": []}", &r, &err), 0);
	assert_true(r.ran);
	assert_int_equal(r.exit_code, 3);
	assert_string_equal(r.output, "a\tb\n");
	assert_int_equal(r.facts.nvdso, 2);
	assert_string_equal(r.facts.vdso_functions[1], "__vdso_getcpu");
	assert_true(r.has_export);
	assert_int_equal(pread(r.fd, export, 12, r.export_at), 12);
	assert_memory_equal(export, "{\"runs\": []}", 12);
	/* What the runs keep: the facts known, nothing the guest added. */
	facts = guest_facts_json(&r.facts);
	assert_int_equal(json_object_size(facts), 9);
	assert_int_equal(json_integer_value(json_object_get(facts, "cpus")), 2);
	json_decref(facts);
	guest_result_free(&r);
	assert_int_equal(decode_result("{\"clockbench_guest\": 2, " FACTS ", \"error\": "
				       "\"no command\"}", "", &r, &err), 0);
	assert_false(r.ran);
	assert_false(r.has_export);
	assert_string_equal(r.error, "no command");
	guest_result_free(&r);
}

/* Every field that is not what the guest writes is refused, named. */
static void test_result_refused_field_by_field(void **state)
{
	static const struct {
		const char *manifest, *why;
	} cases[] = {
		{ "[]", "the guest's result: its manifest is not a JSON object" },
		{ "{\"clockbench_guest\": 2,", "the guest's result: its manifest is not JSON: " },
		{ "{\"clockbench_guest\": 1}", "is of format 1, this clockbench reads 2" },
		{ "{\"clockbench_guest\": 2}", "the guest's result: guest: missing" },
		{ "{\"clockbench_guest\": 2, \"guest\": {\"release\": 1}}",
		  "the guest's result: guest.release: not a string" },
		{ "{\"clockbench_guest\": 2, " FACTS ", \"output\": \"\\u001b[2J\"}",
		  "the guest's result: output: contains a control character (byte 0)" },
		{ "{\"clockbench_guest\": 2, " FACTS ", \"output\": \"a\\u0000b\"}",
		  "its manifest is not JSON: \\u0000 is not allowed" },
		{ "{\"clockbench_guest\": 2, " FACTS ", \"status\": {\"exit\": 300}}",
		  "the guest's result: status.exit: 300, not within [0, 255]" },
		{ "{\"clockbench_guest\": 2, " FACTS ", \"status\": {\"exit\": 0}}",
		  "the guest's result: command_s: missing" },
		{ "{\"clockbench_guest\": 2, \"guest\": [[[[[1]]]]]}",
		  "the guest's result: its manifest is nested more than 4 deep" },
	};
	struct guest_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(decode_result(cases[i].manifest, "", &r, &err), -1);
		if (!strstr(err.buf, cases[i].why))
			fail_msg("case %zu: %s", i, err.buf);
		assert_int_equal(r.fd, -1);
	}
}

/* The vDSO's names: strings, symbol names, each once, at most 256. */
static void test_result_names_bounded(void **state)
{
	static const char *const lists[][2] = {
		{ "[1]", "guest.vdso_functions[0]: not a string" },
		{ "[\"a b\"]", "guest.vdso_functions[0]: not a symbol name" },
		{ "[\"\"]", "guest.vdso_functions[0]: not a symbol name" },
		{ "[\"x\", \"x\"]", "guest.vdso_functions[1]: 'x' listed twice" },
		{ "{}", "guest.vdso_functions: not a list" },
	};
	struct strbuf m = STRBUF_INIT;
	struct guest_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		strbuf_reset(&m);
		strbuf_addf(&m, "{\"clockbench_guest\": 2, \"guest\": {\"release\": \"r\", "
			    "\"version\": \"v\", \"cmdline\": \"\", \"clocksource\": \"\", "
			    "\"available_clocksources\": \"\", \"init_reached_s\": 1, "
			    "\"clocksource_wait_s\": 0, \"cpus\": 1, \"vdso_functions\": %s}}",
			    lists[i][0]);
		assert_int_equal(decode_result(m.buf, "", &r, &err), -1);
		if (!strstr(err.buf, lists[i][1]))
			fail_msg("list %zu: %s", i, err.buf);
	}
	/* 257 names: one more than a result may list. */
	strbuf_reset(&m);
	strbuf_adds(&m, "{\"clockbench_guest\": 2, \"guest\": {\"release\": \"r\", "
		    "\"version\": \"v\", \"cmdline\": \"\", \"clocksource\": \"\", "
		    "\"available_clocksources\": \"\", \"init_reached_s\": 1, "
		    "\"clocksource_wait_s\": 0, \"cpus\": 1, \"vdso_functions\": [");
	for (int i = 0; i <= GUEST_NAMES_MAX; i++)
		strbuf_addf(&m, "%s\"f%d\"", i ? ", " : "", i);
	strbuf_adds(&m, "]}}");
	assert_int_equal(decode_result(m.buf, "", &r, &err), -1);
	assert_non_null(strstr(err.buf, "guest.vdso_functions: 257 names, more than 256"));
	strbuf_release(&m);
}

/* A manifest without its end within GUEST_MANIFEST_MAX is not read on. */
static void test_result_manifest_bounded(void **state)
{
	const size_t len = GUEST_MANIFEST_MAX + 1;
	_cleanup_free_ char *text = xmalloc(len + 1);
	struct guest_result r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	memset(text, ' ', len);
	text[len] = '\0';
	assert_int_equal(decode_result(text, "", &r, &err), -1);
	assert_string_equal(err.buf, "the guest's result: no manifest within its first "
			    "5242880 bytes");
}

/* A newc header's field k (0: ino ... 12: check) of the entry at p. */
static unsigned long field(const char *p, int k)
{
	char hex[9] = { 0 };

	memcpy(hex, p + 6 + 8 * k, 8);
	return strtoul(hex, NULL, 16);
}

/* --exact: a cell's counter ticks become its values in instructions, and
 * bench's harness overhead is counted too; the other settings stay. */
static void test_result_counted_in_instructions(void **state)
{
	struct stored_run run = { 0 };
	struct stored_cell *c;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_t *h;

	(void)state;
	run.cells = c = xcalloc(1, sizeof(*c));
	run.ncells = 1;
	c->name = xstrdup("clock-gettime-monotonic");
	c->unit = xstrdup("ns");
	c->values = xcalloc(2, sizeof(double));
	c->cycles = xcalloc(2, sizeof(double));
	c->cycles[0] = 61;
	c->cycles[1] = 62;
	c->n = 2;
	run.config = json_pack("{s:s, s:{s:f, s:i}, s:{s:s, s:s}, s:{s:f, s:f, s:{s:i, s:f, s:f}}}",
			       "from_a_newer_guest", "kept",
			       "method", "budget_s", 0.25, "rounds", 10,
			       "cycle_counter", "unit", "TSC ticks", "source", "rdtsc",
			       "harness_overhead", "ns_per_call", 1.5, "cycles_per_call", 9.0,
			       "ruler", "nops", 64, "ns_per_call", 20.0, "cycles_per_call", 73.0);
	assert_int_equal(guest_run_count_instructions(&run, &err), 0);
	assert_string_equal(c->unit, "instructions");
	assert_true(c->values[1] == 62 && !c->cycles);
	h = json_object_get(run.config, "harness_overhead");
	assert_true(json_number_value(json_object_get(h, "instructions_per_call")) == 9);
	assert_null(json_object_get(h, "ns_per_call"));
	assert_true(json_number_value(json_object_get(json_object_get(h, "ruler"),
						      "instructions_per_call")) == 73);
	/* The rest of the config is the guest's, as it wrote it. */
	assert_true(json_number_value(json_object_get(json_object_get(run.config, "method"),
						      "budget_s")) == 0.25);
	assert_true(json_is_integer(json_object_get(json_object_get(run.config, "method"),
						    "rounds")));
	assert_string_equal(json_string_value(json_object_get(run.config,
							      "from_a_newer_guest")), "kept");
	stored_run_free(&run);
}

static void test_initramfs_entries(void **state)
{
	struct initramfs a;
	const char *p;

	(void)state;
	initramfs_init(&a);
	initramfs_dir(&a, "dev");
	initramfs_chardev(&a, "dev/console", 0600, 5, 1);
	initramfs_file(&a, "init", 0755, "abc", 3);
	initramfs_finish(&a);
	assert_int_equal(a.buf.len % 4, 0);
	p = a.buf.buf;
	assert_memory_equal(p, "070701", 6);
	assert_int_equal(field(p, 1), 040755);
	assert_string_equal(p + 110, "dev");
	p += 112 + 4;	/* 110 + "dev\0" = 114, padded to 116 */
	assert_memory_equal(p, "070701", 6);
	assert_int_equal(field(p, 1), 020600);
	assert_int_equal(field(p, 9), 5);
	assert_int_equal(field(p, 10), 1);
	assert_string_equal(p + 110, "dev/console");
	p += 124;	/* 110 + 12 = 122, padded to 124 */
	assert_int_equal(field(p, 1), 0100755);
	assert_int_equal(field(p, 6), 3);
	assert_string_equal(p + 110, "init");
	assert_memory_equal(p + 116, "abc", 3);
	p += 120;	/* 110 + 5 = 115 -> 116; data 3 -> 4 */
	assert_string_equal(p + 110, "TRAILER!!!");
	initramfs_release(&a);
}

static char *write_temp(const void *data, size_t len)
{
	char *path = xstrdup("/tmp/clockbench-test-vm.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(fd_write_all(fd, data, len), 0);
	close(fd);
	return path;
}

static int read_image(const void *data, size_t len, struct kernel_image *img,
		      struct strbuf *err)
{
	char *path = write_temp(data, len);
	int rc = kernel_image_read(path, img, err);

	unlink(path);
	free(path);
	return rc;
}

static void test_image_bzimage_release(void **state)
{
	static const char version[] = "6.12.1-test #1 SMP PREEMPT_DYNAMIC Mon Dec 1";
	unsigned char img[0x800] = { 0 };
	struct kernel_image k;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00, img[0x20f] = 0x04;	/* the string at 0x400 + 0x200 */
	memcpy(img + 0x600, version, sizeof(version));
	assert_int_equal(read_image(img, sizeof(img), &k, &err), 0);
	assert_int_equal(k.kind, IMAGE_BZIMAGE);
	assert_string_equal(k.release, "6.12.1-test");
	assert_string_equal(k.version, "#1 SMP PREEMPT_DYNAMIC Mon Dec 1");
}

static void test_image_not_a_kernel(void **state)
{
	unsigned char junk[0x400];
	unsigned char gz[0x400] = { 0x1f, 0x8b };
	unsigned char elf[0x400] = { 0x7f, 'E', 'L', 'F', 2 };
	struct kernel_image k;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	assert_int_equal(read_image(junk, sizeof(junk), &k, &err), -1);
	assert_non_null(strstr(err.buf, "not a kernel image"));
	assert_int_equal(read_image(junk, 10, &k, &err), -1);
	assert_non_null(strstr(err.buf, "too short"));
	assert_int_equal(read_image(gz, sizeof(gz), &k, &err), -1);
	assert_non_null(strstr(err.buf, "gzip"));
	elf[EI_DATA] = ELFDATA2LSB;
	elf[18] = 183;	/* EM_AARCH64: arm64 boots its Image, not an ELF */
	assert_int_equal(read_image(elf, sizeof(elf), &k, &err), -1);
	assert_non_null(strstr(err.buf, "not an x86-64 or ppc64el kernel"));
	elf[18] = EM_PPC64;
	elf[EI_DATA] = ELFDATA2MSB;	/* big-endian powerpc: not ppc64el */
	assert_int_equal(read_image(elf, sizeof(elf), &k, &err), -1);
	assert_non_null(strstr(err.buf, "not an x86-64 or ppc64el kernel"));
	assert_int_equal(kernel_image_read("/nonexistent/vmlinuz", &k, &err), -1);
	assert_non_null(strstr(err.buf, "cannot open"));
	assert_int_equal(kernel_image_read("/dev/null", &k, &err), -1);
	assert_non_null(strstr(err.buf, "not a regular file"));
}

/* The architecture is the image's: arm64's Image, ppc64el's ELF vmlinux. */
static void test_image_architectures(void **state)
{
	static const char banner[] = "Linux version 6.12.118+deb12-arm64 "
				     "(debian-kernel@lists.debian.org) #1 SMP";
	unsigned char img[0x2000] = { 0 };
	struct kernel_image k;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	memcpy(img + 0x38, "ARM\x64", 4);
	memcpy(img + 0x1000, banner, sizeof(banner) - 1);
	assert_int_equal(read_image(img, sizeof(img), &k, &err), 0);
	assert_int_equal(k.kind, IMAGE_ARM64);
	assert_int_equal(k.arch, VM_ARCH_ARM64);
	assert_string_equal(k.release, "6.12.118+deb12-arm64");
	/* An Image without a banner is no kernel. */
	memset(img + 0x1000, 0, sizeof(banner));
	assert_int_equal(read_image(img, sizeof(img), &k, &err), -1);
	assert_non_null(strstr(err.buf, "an arm64 Image without a \"Linux version\" banner"));
	/* A little-endian 64-bit powerpc ELF: pseries boots it as it is. */
	memset(img, 0, sizeof(img));
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = ELFCLASS64;
	img[EI_DATA] = ELFDATA2LSB;
	img[18] = EM_PPC64;
	memcpy(img + 0x1000, "Linux version 6.1.0-57-powerpc64le (x) #1", 41);
	assert_int_equal(read_image(img, sizeof(img), &k, &err), 0);
	assert_int_equal(k.kind, IMAGE_VMLINUX);
	assert_int_equal(k.arch, VM_ARCH_PPC64EL);
	assert_string_equal(k.release, "6.1.0-57-powerpc64le");
	assert_string_equal(vm_arch_info(k.arch)->qemu, "qemu-system-ppc64");
}

/* ---- the vmlinux inside a bzImage ---------------------------------------- */

#define FAKE_VMLINUX_BYTES (300u << 10)

/*
 * An x86-64 ELF whose one PT_NOTE holds the PVH entry note when pvh, and
 * a body that compresses, as a kernel's does, but not to nothing.
 */
static void put_le(unsigned char *p, uint64_t v, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static unsigned char *fake_vmlinux(bool pvh, size_t *len)
{
	unsigned char *b = xcalloc(1, FAKE_VMLINUX_BYTES);
	size_t phoff = sizeof(Elf64_Ehdr), notes = 0x1000;

	/* Little-endian, as every x86-64 ELF is, whatever the host. */
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = ELFCLASS64;
	b[EI_DATA] = ELFDATA2LSB;
	put_le(b + 16, ET_EXEC, 2);
	put_le(b + 18, EM_X86_64, 2);
	put_le(b + 32, phoff, 8);
	put_le(b + 52, sizeof(Elf64_Ehdr), 2);
	put_le(b + 54, sizeof(Elf64_Phdr), 2);
	put_le(b + 56, 1, 2);
	put_le(b + phoff, PT_NOTE, 4);
	put_le(b + phoff + 8, notes, 8);
	put_le(b + phoff + 32, 20, 8);
	put_le(b + notes, 4, 4);		/* n_namesz */
	put_le(b + notes + 4, 4, 4);		/* n_descsz */
	put_le(b + notes + 8, pvh ? 18 : 1, 4);	/* XEN_ELFNOTE_PHYS32_ENTRY */
	memcpy(b + notes + 12, "Xen", 4);
	for (size_t i = 0x2000; i < FAKE_VMLINUX_BYTES; i++)
		b[i] = (unsigned char)((i * 7) ^ (i >> 9));
	*len = FAKE_VMLINUX_BYTES;
	return b;
}

/* A bzImage around a compressed payload, the unpacked size after it. */
static char *fake_bzimage(const void *packed, size_t n, size_t unpacked)
{
	size_t len = 0x400 + n + 4;
	unsigned char *img = xcalloc(1, len);
	uint32_t plen = (uint32_t)(n + 4), size = (uint32_t)unpacked;
	char *path;

	img[0x1f1] = 1;			/* one setup sector: the payload at 0x400 */
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f, img[0x207] = 0x02;	/* boot protocol 2.15 */
	put_le(img + 0x24c, plen, 4);		/* payload_offset 0 */
	memcpy(img + 0x400, packed, n);
	put_le(img + 0x400 + n, size, 4);
	path = write_temp(img, len);
	free(img);
	return path;
}

/* The bzImage holding body compressed by method unpacks to body again. */
static void assert_unpacks(const char *method, const void *packed, size_t n,
			   const unsigned char *body, size_t len)
{
	char *path = fake_bzimage(packed, n, len);
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct vmlinux_extract x;
	struct strbuf sb = STRBUF_INIT;
	int fd = vmlinux_extract(path, &x, &err);

	if (fd < 0)
		fail_msg("%s: %s", method, err.buf);
	assert_string_equal(x.method, method);
	assert_int_equal(x.bytes, len);
	assert_int_equal(vm_file_read(fd, len + 1, &sb), 0);
	assert_int_equal(sb.len, len);
	assert_memory_equal(sb.buf, body, len);
	/* Cut short, the same payload is refused, never booted half. */
	unlink(path);
	free(path);
	path = fake_bzimage(packed, n / 2, len);
	assert_int_equal(vmlinux_extract(path, &x, &err), -1);
	assert_non_null(strstr(err.buf, method));
	unlink(path);
	free(path);
	close(fd);
	strbuf_release(&sb);
}

static void test_vmlinux_every_compressor(void **state)
{
	size_t len, cap = 2 * FAKE_VMLINUX_BYTES + 4096, n;
	unsigned char *body = fake_vmlinux(true, &len), *out = xmalloc(cap);

	(void)state;
	n = ZSTD_compress(out, cap, body, len, 3);
	assert_false(ZSTD_isError(n));
	assert_unpacks("zstd", out, n, body, len);
#if HAVE_ZLIB
	{
		z_stream z = { .next_in = body, .avail_in = (uInt)len,
			       .next_out = out, .avail_out = (uInt)cap };

		assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		n = z.total_out;
		deflateEnd(&z);
		assert_unpacks("gzip", out, n, body, len);
	}
#endif
#if HAVE_LZMA
	n = 0;
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, body, len,
						 out, &n, cap), LZMA_OK);
	assert_unpacks("xz", out, n, body, len);
	{
		lzma_options_lzma lo;
		lzma_stream s = LZMA_STREAM_INIT;

		lzma_lzma_preset(&lo, 6);
		assert_int_equal(lzma_alone_encoder(&s, &lo), LZMA_OK);
		s.next_in = body, s.avail_in = len, s.next_out = out, s.avail_out = cap;
		assert_int_equal(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
		n = s.total_out;
		lzma_end(&s);
		assert_unpacks("lzma", out, n, body, len);
	}
#endif
#if HAVE_LZ4
	{
		/* The legacy format in two blocks, as lz4 -l cuts a big kernel. */
		size_t half = len / 2;

		put_le(out, 0x184c2102, 4);
		n = 4;
		for (size_t off = 0; off < len; off += half) {
			int c = LZ4_compress_default((const char *)body + off,
						     (char *)out + n + 4, (int)half,
						     (int)(cap - n - 4));

			assert_true(c > 0);
			put_le(out + n, (uint64_t)c, 4);
			n += 4 + (size_t)c;
		}
		assert_unpacks("lz4", out, n, body, len);
	}
#endif
	free(body);
	free(out);
}

static void test_vmlinux_refused(void **state)
{
	size_t len, n, cap = 2 * FAKE_VMLINUX_BYTES;
	unsigned char *body = fake_vmlinux(false, &len), *out = xmalloc(cap);
	static const unsigned char bzip2[16] = { 'B', 'Z', 'h', '9' };
	struct vmlinux_extract x;
	struct kernel_image k;
	char *path;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	(void)state;
	/* A kernel built without CONFIG_PVH: qemu cannot enter its vmlinux. */
	n = ZSTD_compress(out, cap, body, len, 1);
	path = fake_bzimage(out, n, len);
	assert_int_equal(vmlinux_extract(path, &x, &err), -1);
	assert_non_null(strstr(err.buf, "CONFIG_PVH"));
	unlink(path);
	free(path);
	/* Given as a vmlinux, the same file is refused before any boot. */
	memcpy(body + 0x3000, "Linux version 6.1.0-test #1 SMP", 31);
	assert_int_equal(read_image(body, len, &k, &err), -1);
	assert_non_null(strstr(err.buf, "CONFIG_PVH"));
	free(body);
	body = fake_vmlinux(true, &len);
	memcpy(body + 0x3000, "Linux version 6.1.0-test #1 SMP", 31);
	assert_int_equal(read_image(body, len, &k, &err), 0);
	assert_int_equal(k.kind, IMAGE_VMLINUX);
	assert_string_equal(k.release, "6.1.0-test");
	/* bzip2 is left to the guest's own decompressor, and said so. */
	path = fake_bzimage(bzip2, sizeof(bzip2), len);
	assert_int_equal(vmlinux_extract(path, &x, &err), -1);
	assert_non_null(strstr(err.buf, "bzip2"));
	unlink(path);
	free(path);
	/* A size in the trailer far beyond any kernel's is not believed. */
	n = ZSTD_compress(out, cap, body, len, 1);
	path = fake_bzimage(out, n, (size_t)VMLINUX_MAX_BYTES + 1);
	assert_int_equal(vmlinux_extract(path, &x, &err), -1);
	assert_non_null(strstr(err.buf, "announces"));
	unlink(path);
	free(path);
	free(body);
	free(out);
}

/* boot_text_tail() of n lines of a string literal (NULs included). */
#define check_tail(text, n, want) check_tail_of(text, sizeof(text) - 1, n, want)
static void check_tail_of(const char *text, size_t len, unsigned n, const char *want)
{
	_cleanup_strbuf_ struct strbuf lines = STRBUF_INIT;

	boot_text_tail(text, len, n, &lines);
	assert_string_equal(lines.buf, want);
}

/*
 * The last lines of a console as kernels shows them: the line ends at
 * the end passed over, each line cut at its '\r' (a serial console's
 * CRLF), empty lines kept, a NUL the end of the text.
 */
static void test_boot_text_tail(void **state)
{
	(void)state;
	check_tail("a\nb\nc\n\r\n", 2, "b\nc\n");
	check_tail("one\r\ntwo\r\n", 5, "one\ntwo\n");
	check_tail("a\n\n\nb", 3, "\n\nb\n");
	check_tail("x\ry\nz", 2, "x\nz\n");
	check_tail("\rx\ny", 2, "\ny\n");
	check_tail("a\nb", 0, "");
	check_tail("\n\r\n", 4, "");
	check_tail("", 4, "");
	check_tail("a\nb\0c\nd", 3, "a\nb\n");
	check_tail("a\nb\0c\nd", 1, "d\n");
}

/* A timed-out boot says whether the guest got to the command. */
static void test_boot_end_reason(void **state)
{
	static const char booting[] = "[    1.0] Run /init as init process\r\n";
	static const char running[] = GUEST_RUNNING "bench\r\n";
	struct vm_outcome out = { .end = VM_TIMED_OUT, .wall_s = 600 };
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	int console = vm_file_new("console");

	(void)state;
	assert_true(console >= 0);
	assert_int_equal(fd_write_all(console, booting, sizeof(booting) - 1), 0);
	assert_string_equal(boot_end_reason(&out, console, &why), "no power-off within "
			    "600 s: stopped (the kernel never started clockbench as its init)");
	assert_int_equal(fd_write_all(console, running, sizeof(running) - 1), 0);
	assert_string_equal(boot_end_reason(&out, console, &why), "no power-off within "
			    "600 s: stopped (the command was running)");
	out = (struct vm_outcome){ .end = VM_QEMU_FAILED, .status = 1 << 8 };
	assert_string_equal(boot_end_reason(&out, console, &why), "qemu failed (exit 1)");
	out.end = VM_PANICKED;
	assert_string_equal(boot_end_reason(&out, console, &why), "the kernel panicked");
	out.end = VM_POWERED_OFF;
	assert_null(boot_end_reason(&out, console, &why));
	close(console);
}

/*
 * A failed boot's console kept in the logs' directory, under its kernel's
 * name, and read for its panic's own line and its last lines; a
 * directory that cannot be made is a warning, the rest still read.
 */
static void test_boot_failure_read(void **state)
{
	static const char console_text[] =
		"[    2.0] Kernel panic - not syncing: VFS: Unable to mount root\r\n"
		"[    2.1] Call Trace:\r\n"
		"[    2.2] ---[ end Kernel panic - not syncing: VFS ]---\r\n";
	static const char log_text[] = "qemu: terminating on signal 15\n";
	char dir[] = "/tmp/clockbench-test-vm.XXXXXX", file[PATH_MAX + 64];
	struct boot_files f = BOOT_FILES_INIT;
	struct boot_failure bf;
	char *kept;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(boot_files_open(&f), 0);
	assert_int_equal(fd_write_all(f.console, console_text, sizeof(console_text) - 1), 0);
	assert_int_equal(fd_write_all(f.log, log_text, sizeof(log_text) - 1), 0);
	boot_failure_read(&bf, &f, dir, "k6.1", 2, 2, 4);
	assert_string_equal(bf.keep_err.buf, "");
	snprintf(file, sizeof(file), "%s/k6.1-boot2-%ld.log", dir, (long)getpid());
	assert_string_equal(bf.kept, file);
	kept = read_text_file(file, 1u << 20);
	assert_non_null(kept);
	assert_string_equal(kept, console_text);
	free(kept);
	assert_string_equal(bf.panic.buf, "Kernel panic - not syncing: VFS: Unable to "
			    "mount root");
	assert_string_equal(bf.console_tail.buf, "[    2.1] Call Trace:\n[    2.2] ---[ "
			    "end Kernel panic - not syncing: VFS ]---\n");
	assert_string_equal(bf.log_tail.buf, "qemu: terminating on signal 15\n");
	boot_failure_release(&bf);
	/* Kept once: a second copy of the same boot is never written over it. */
	boot_failure_read(&bf, &f, dir, "k6.1", 2, 2, 4);
	assert_string_equal(bf.kept, "");
	assert_non_null(strstr(bf.keep_err.buf, "cannot keep the console of k6.1's "
			       "boot 2 in /tmp/clockbench-test-vm."));
	assert_string_equal(bf.panic.buf, "Kernel panic - not syncing: VFS: Unable to "
			    "mount root");
	boot_failure_release(&bf);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(dir), 0);
	boot_files_close(&f);
	assert_int_equal(f.console, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_round_trip),
		cmocka_unit_test(test_frame_cut_short_at_every_length),
		cmocka_unit_test(test_frame_every_changed_byte_is_refused),
		cmocka_unit_test(test_frame_absent_or_lying),
		cmocka_unit_test(test_frame_bomb_refused_before_inflating),
		cmocka_unit_test(test_result_decoded_once),
		cmocka_unit_test(test_result_refused_field_by_field),
		cmocka_unit_test(test_result_names_bounded),
		cmocka_unit_test(test_result_manifest_bounded),
		cmocka_unit_test(test_result_counted_in_instructions),
		cmocka_unit_test(test_initramfs_entries),
		cmocka_unit_test(test_image_bzimage_release),
		cmocka_unit_test(test_image_not_a_kernel),
		cmocka_unit_test(test_image_architectures),
		cmocka_unit_test(test_vmlinux_every_compressor),
		cmocka_unit_test(test_vmlinux_refused),
		cmocka_unit_test(test_boot_text_tail),
		cmocka_unit_test(test_boot_end_reason),
		cmocka_unit_test(test_boot_failure_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
