/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the parts of the results store (store.c, store-save.c,
 * store-load.c, store-select.c, store-json.c) share: the statements and
 * rows through the backend, the sample blobs' formats, the checks of
 * text. Not for use outside results/store*.c; the interface is store.h.
 */
#ifndef CLOCKBENCH_STORE_INTERNAL_H
#define CLOCKBENCH_STORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/store.h"
#include "results/store-backend.h"

#define LABEL_MAX 64
/* cells.encoding: how the sample blobs of a cell are written. */
enum { SAMPLES_RAW, SAMPLES_COMPACT };

/* Statements and rows through the backend (store.c). */
int run_sql(struct store *st, const char *sql, const struct sql_param *p,
	    size_t n, sql_row_fn fn, void *ctx, const char *what,
	    struct strbuf *err);
bool row_null(const struct sql_row *r, int col);
int64_t row_int(const struct sql_row *r, int col);
double row_double(const struct sql_row *r, int col);
const char *row_text(const struct sql_row *r, int col);
const void *row_blob(const struct sql_row *r, int col, size_t *len);
void rollback(struct store *st);

/* The sample blobs: schema 1 and 2's raw doubles, rounds (store.c). */
double *decode_doubles(const unsigned char *p, size_t n);
void *encode_rounds(const uint32_t *r, size_t n, size_t *bytes);
uint32_t *decode_rounds(const unsigned char *p, size_t bytes, size_t n);

/* "" for NULL: a run's text as saved (store-save.c) and exported
 * (store-json.c). */
static inline const char *str(const char *s)
{
	return s ? s : "";
}

/*
 * A JSON column, NULL for SQL NULL, -1 when the text is not JSON
 * (store-load.c).
 */
int column_json(const struct sql_row *r, int col, json_t **out);

/* Whether s has a uuid's form (store-select.c). */
bool uuid_like(const char *s);

#endif
