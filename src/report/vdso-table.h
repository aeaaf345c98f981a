/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `vdso` prints of an image: its symbols (name, version, offset,
 * size, type), then whether each name this architecture should export
 * resolves; as a table or as one JSON document. file is the dump the image
 * was read from, or NULL for this process's vDSO.
 */
#ifndef CLOCKBENCH_VDSO_TABLE_H
#define CLOCKBENCH_VDSO_TABLE_H

#include <stdio.h>

#include "probe/vdso.h"

void vdso_table_print(FILE *f, const struct vdso_image *img, const char *file);

/* 0, or -1 when the document could not be encoded. */
int vdso_json_print(FILE *f, const struct vdso_image *img, const char *file);

#endif
