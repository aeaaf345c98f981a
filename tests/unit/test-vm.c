// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of vm/: the frame a guest's result crosses the serial port
 * in (whole, cut short, changed, absent), the initramfs's cpio entries,
 * and what a kernel image file is taken for.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "vm/frame.h"
#include "vm/image.h"
#include "vm/initramfs.h"

static const char payload[] =
	"{\"clockbench_guest\": 1, \"export\": {\"runs\": []}, \"output\": \"ok\\n\"}";

static void encode(struct strbuf *frame)
{
	char err[256];

	/* What the kernel or a shell may print on the port before it. */
	strbuf_adds(frame, "\r\nnoise before the frame\n");
	assert_int_equal(frame_encode(payload, sizeof(payload) - 1, frame, err,
				      sizeof(err)), 0);
}

static void test_frame_round_trip(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	char err[256];

	(void)state;
	encode(&frame);
	assert_int_equal(frame_decode(frame.buf, frame.len, &out, err, sizeof(err)), 0);
	assert_int_equal(out.len, sizeof(payload) - 1);
	assert_memory_equal(out.buf, payload, out.len);
	strbuf_release(&frame);
	strbuf_release(&out);
}

static void test_frame_cut_short_at_every_length(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	char err[256];

	(void)state;
	encode(&frame);
	for (size_t len = 0; len < frame.len; len++) {
		assert_int_equal(frame_decode(frame.buf, len, &out, err, sizeof(err)), -1);
		assert_true(strstr(err, "no result arrived") || strstr(err, "cut short") ||
			    strstr(err, "damaged"));
	}
	strbuf_release(&frame);
	strbuf_release(&out);
}

static void test_frame_every_changed_byte_is_refused(void **state)
{
	struct strbuf frame = STRBUF_INIT, out = STRBUF_INIT;
	const char *head;
	size_t start;
	char err[256];

	(void)state;
	encode(&frame);
	head = strstr(frame.buf, "\nclockbench-frame");
	assert_non_null(head);
	start = (size_t)(head - frame.buf);
	for (size_t i = start; i < frame.len; i++) {
		for (unsigned bit = 0; bit < 8; bit += 3) {
			frame.buf[i] ^= (char)(1u << bit);
			assert_int_equal(frame_decode(frame.buf, frame.len, &out, err,
						      sizeof(err)), -1);
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
	char err[256];

	(void)state;
	assert_int_equal(frame_decode("", 0, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no result arrived"));
	assert_int_equal(frame_decode(huge, sizeof(huge) - 1, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "without a valid length"));
	assert_int_equal(frame_decode(bad, sizeof(bad) - 1, &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a zstd frame"));
	strbuf_release(&out);
}

/* A newc header's field k (0: ino ... 12: check) of the entry at p. */
static unsigned long field(const char *p, int k)
{
	char hex[9] = { 0 };

	memcpy(hex, p + 6 + 8 * k, 8);
	return strtoul(hex, NULL, 16);
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
		      char *err, size_t errlen)
{
	char *path = write_temp(data, len);
	int rc = kernel_image_read(path, img, err, errlen);

	unlink(path);
	free(path);
	return rc;
}

static void test_image_bzimage_release(void **state)
{
	static const char version[] = "6.12.1-test #1 SMP PREEMPT_DYNAMIC Mon Dec 1";
	unsigned char img[0x800] = { 0 };
	struct kernel_image k;
	char err[256];

	(void)state;
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00, img[0x20f] = 0x04;	/* the string at 0x400 + 0x200 */
	memcpy(img + 0x600, version, sizeof(version));
	assert_int_equal(read_image(img, sizeof(img), &k, err, sizeof(err)), 0);
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
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	assert_int_equal(read_image(junk, sizeof(junk), &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a kernel image"));
	assert_int_equal(read_image(junk, 10, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too short"));
	assert_int_equal(read_image(gz, sizeof(gz), &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gzip"));
	elf[18] = 183;	/* EM_AARCH64 */
	assert_int_equal(read_image(elf, sizeof(elf), &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an x86-64 kernel"));
	assert_int_equal(kernel_image_read("/nonexistent/vmlinuz", &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
	assert_int_equal(kernel_image_read("/dev/null", &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_round_trip),
		cmocka_unit_test(test_frame_cut_short_at_every_length),
		cmocka_unit_test(test_frame_every_changed_byte_is_refused),
		cmocka_unit_test(test_frame_absent_or_lying),
		cmocka_unit_test(test_initramfs_entries),
		cmocka_unit_test(test_image_bzimage_release),
		cmocka_unit_test(test_image_not_a_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
