/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `kernels` prints after its boots: a line per kernel (its boots and
 * their runs), and for a checking command's boots the checks side by side
 * (verify's TAP, every check whose result differs between the kernels or
 * the boots of one), or the functions each kernel's vDSO exports. The
 * kernels reach it as plain columns: report/ does not include vm/.
 */
#ifndef CLOCKBENCH_KERNELS_MATRIX_H
#define CLOCKBENCH_KERNELS_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* The kernels one campaign boots, at most. */
#define KERNELS_MAX 16

/* One kernel of the campaign, as the tables show it. */
struct kernels_column {
	const char *name;
	bool bootable;
	const char *why;		/* why it cannot be booted, or NULL */
	const char *release;		/* the image's */
	unsigned failed;		/* boots that brought no result */
	const int64_t *runs;		/* the stored runs of its boots */
	size_t nruns;
	char *const *outputs;		/* a checking command's output, per boot */
	size_t noutputs;
	const json_t *vdso;		/* the functions its vDSO exports, or NULL */
};

/* "NAME (RELEASE): N boots, F failed; runs ..." or why not booted. */
void kernels_summary_print(FILE *f, const struct kernels_column *cols, size_t n,
			   long boots);

/* The checks by kernel, then each kernel's totals: the failures counted. */
size_t kernels_check_matrix_print(FILE *f, const struct kernels_column *cols,
				  size_t n);

/* `-- vdso`: every function any kernel's vDSO exports, a row each. */
void kernels_vdso_matrix_print(FILE *f, const struct kernels_column *cols,
			       size_t n);

#endif
