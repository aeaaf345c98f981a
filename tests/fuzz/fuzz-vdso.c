// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the vDSO parser (probe/vdso.c) on any bytes, as
 * `clockbench vdso --file` reads them, then every query of a parsed image.
 * Seeds: tests/data/vdso-*.so (scripts/fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/vdso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_symbol(const struct vdso_symbol *s, void *ctx)
{
	size_t *n = ctx;

	/* Touch what a listing prints: the strings must be terminated. */
	*n += strlen(s->name) + strlen(s->version) + (size_t)(s->offset & 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"__vdso_clock_gettime", "__kernel_clock_gettime", "__vdso_time",
		"__vdso_getcpu", "__kernel_getcpu", "__vdso_getrandom", "",
	};
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t n = 0;
	/* A mapped vDSO is page-aligned: give the parser an aligned copy. */
	void *copy = aligned_alloc(4096, (size + 4095) / 4096 * 4096 + 4096);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (vdso_parse(&img, copy, size, &err) == 0) {
		vdso_foreach_symbol(&img, count_symbol, &n);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			vdso_lookup(&img, names[i], NULL);
			vdso_lookup(&img, names[i], "LINUX_2.6");
		}
	}
	free(copy);
	return 0;
}
