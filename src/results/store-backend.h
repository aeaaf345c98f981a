/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the results store: what store.c (the interface, and everything
 * both engines share, every DML statement among it) asks of a backend,
 * store-sqlite.c (a file) or store-pg.c (a PostgreSQL server), and what
 * the backends share below it (the schema's version and views:
 * store-backend.c), so that a backend takes nothing from store.c.
 *
 * Statements are written once, in the SQL both engines read: parameters
 * $1, $2, ... numbered in the order they first appear (SQLite takes "$1"
 * as a named parameter and numbers it by first appearance), CAST(.. AS
 * TEXT) where PostgreSQL must be told a type, RETURNING for new ids. Only
 * the schema (types, identity columns) and the connection's setup differ.
 */
#ifndef CLOCKBENCH_STORE_BACKEND_H
#define CLOCKBENCH_STORE_BACKEND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/util.h"
#include "results/store-access.h"

struct store;
struct strbuf;

enum sql_type { SQL_NULL, SQL_INT, SQL_DOUBLE, SQL_TEXT, SQL_BLOB };

/* A parameter of a statement; text and blobs are borrowed. */
struct sql_param {
	enum sql_type type;
	int64_t i;
	double d;
	const void *p;		/* text (NUL-terminated) or blob */
	size_t len;		/* blob bytes */
};

#define P_NULL ((struct sql_param){ .type = SQL_NULL })
#define P_INT(v) ((struct sql_param){ .type = SQL_INT, .i = (int64_t)(v) })
#define P_DOUBLE(v) ((struct sql_param){ .type = SQL_DOUBLE, .d = (v) })
/* NULL text or blobs are SQL NULL. */
static inline struct sql_param sql_text(const char *s)
{
	return (struct sql_param){ .type = s ? SQL_TEXT : SQL_NULL, .p = s };
}

static inline struct sql_param sql_blob(const void *b, size_t n)
{
	return (struct sql_param){ .type = b ? SQL_BLOB : SQL_NULL, .p = b, .len = n };
}

#define P_TEXT(s) sql_text(s)
#define P_BLOB(b, n) sql_blob(b, n)

/* One row of a result, read through the backend's accessors. */
struct sql_row {
	const struct store_ops *ops;
	void *impl;
	int index;
};

/* Called for each row: 0 goes on, anything else stops and is returned. */
typedef int (*sql_row_fn)(const struct sql_row *row, void *ctx);

struct store_ops {
	const char *engine;	/* "SQLite", "PostgreSQL" */
	/*
	 * Run sql with params; fn (may be NULL) sees each row. 0, fn's
	 * non-zero value, or -1 with "NAME: what: the cause" in err.
	 */
	int (*run)(struct store *st, const char *sql, const struct sql_param *params,
		   size_t nparams, sql_row_fn fn, void *ctx, const char *what,
		   struct strbuf *err);
	/* A transaction: write takes the write lock at once (SQLite). */
	int (*begin)(struct store *st, bool write, const char *what,
		     struct strbuf *err);
	int (*commit)(struct store *st, const char *what, struct strbuf *err);
	void (*rollback)(struct store *st);
	int (*probe_write)(struct store *st, struct strbuf *err);
	void (*close)(struct store *st);

	bool (*is_null)(const struct sql_row *r, int col);
	int64_t (*get_int)(const struct sql_row *r, int col);
	double (*get_double)(const struct sql_row *r, int col);
	const char *(*get_text)(const struct sql_row *r, int col);	/* never NULL */
	/* Valid until the next row; NULL for SQL NULL. */
	const void *(*get_blob)(const struct sql_row *r, int col, size_t *len);
};

struct store {
	const struct store_ops *ops;
	void *impl;		/* the backend's connection */
	char *name;		/* the path, or the URL without its password */
	/*
	 * The schema of the store: a read-only connection to an older one
	 * reads what it has (NULL for the columns a later migration adds).
	 */
	int64_t version;
	char *warning;		/* what a reader should know, or NULL */
	/*
	 * A server's passwords as given, however spelt, taken out of every
	 * message of libpq's that could quote them (store-pg.c).
	 */
	char *secrets[8];
};

/* The schema this build writes (PRAGMA user_version of its databases). */
#define STORE_SCHEMA_VERSION 5

/*
 * The CREATE VIEW statements of schema 3's views of the metrics, malloc'd;
 * started: how the backend reads runs.started ("r.started")
 * (store-backend.c).
 */
char *store_views_sql(const char *started);

/* The summary columns schema 3 adds to cells, in the backend's REAL type. */
#define STORE_SUMMARY_COLUMNS(real) \
	"ALTER TABLE cells ADD COLUMN value_median " real ";" \
	"ALTER TABLE cells ADD COLUMN value_lo " real ";" \
	"ALTER TABLE cells ADD COLUMN value_hi " real ";" \
	"ALTER TABLE cells ADD COLUMN cycles_median " real ";" \
	"ALTER TABLE cells ADD COLUMN cycles_lo " real ";" \
	"ALTER TABLE cells ADD COLUMN cycles_hi " real ";" \
	"ALTER TABLE cells ADD COLUMN core_median " real ";" \
	"ALTER TABLE cells ADD COLUMN core_lo " real ";" \
	"ALTER TABLE cells ADD COLUMN core_hi " real ";"

/* The backends' openers: 0, or -1 with the reason (st->impl then NULL). */
int store_sqlite_open(struct store *st, const char *path,
		      enum store_access access, struct strbuf *err);
int store_pg_open(struct store *st, const char *url, enum store_access access,
		  struct strbuf *err);

#endif
