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
	size_t noutputs;		/* a checking command's boots that reported */
	/* The functions its vDSO exports (NULL-terminated), or NULL unknown. */
	const char *const *vdso;
};

/* "NAME (RELEASE): N boots, F failed; runs ..." or why not booted. */
void kernels_summary_print(FILE *f, const struct kernels_column *cols, size_t n,
			   long boots);

/*
 * A checking command's results (verify's TAP), gathered boot by boot as
 * they arrive. The outputs come from guests, so what is kept is bounded:
 * at most KERNELS_CHECKS_MAX checks (verify has some 1,400; results of
 * further names are counted, not kept) and KERNELS_MESSAGE_MAX bytes of
 * the message that explains a result, and a check is found by its name
 * in a hash table, not by a search through the others.
 */
#define KERNELS_CHECKS_MAX 8192
#define KERNELS_MESSAGE_MAX 1024

struct check_row;
struct kernels_checks {
	struct check_row *rows;
	size_t nrows, cap;
	void *index;			/* name -> row */
	size_t failed;			/* results that were failures */
	size_t dropped;			/* results of checks past the limit */
};

/* The TAP output of one boot of kernel k (of KERNELS_MAX) into m. */
void kernels_checks_add(struct kernels_checks *m, size_t k, const char *output);
void kernels_checks_free(struct kernels_checks *m);

/* The checks by kernel, then each kernel's totals: the failures counted. */
size_t kernels_check_matrix_print(FILE *f, const struct kernels_column *cols,
				  size_t n, const struct kernels_checks *m);

/* `-- vdso`: every function any kernel's vDSO exports, a row each. */
void kernels_vdso_matrix_print(FILE *f, const struct kernels_column *cols,
			       size_t n);

#endif
