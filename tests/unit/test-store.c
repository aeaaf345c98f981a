// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store: round trips through SQLite and JSON, schema
 * migrations, refusing files that are not ours (and leaving them byte for
 * byte as they were), concurrent writers, and run look-ups. The database
 * is inspected with the sqlite3 API (or libpq) directly, not through the
 * store.
 *
 * With CLOCKBENCH_TEST_STORE=pg the same tests run on PostgreSQL, each in
 * a database of its own on the cluster of $CLOCKBENCH_TEST_PG
 * (scripts/with-postgresql); the tests of what only a file has (its
 * header, its pages, its directory) skip there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#if HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include "probe/timing.h"
#include "results/core-replay.h"
#include "results/digest.h"
#include "results/export-file.h"
#include "results/record.h"
#include "results/spool.h"
#include "results/store.h"
#include "results/store-backend.h"
#include "basic/util.h"

static char tmpdir[256];
static int counter;

/* A fresh path in the test directory; the file does not exist yet. */
static const char *new_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%d-%s", tmpdir, ++counter, name);
	return buf;
}

/* CLOCKBENCH_TEST_STORE=pg: the store under test is a PostgreSQL database. */
static bool on_pg;

#define SQLITE_ONLY() do { if (on_pg) skip(); } while (0)

#if HAVE_LIBPQ
static PGresult *pg_query(const char *url, const char *query)
{
	PGconn *c = PQconnectdb(url);
	PGresult *res;

	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("%s: %s", url, PQerrorMessage(c));
	PQsetNoticeProcessor(c, NULL, NULL);
	res = PQexec(c, query);
	if (PQresultStatus(res) != PGRES_TUPLES_OK &&
	    PQresultStatus(res) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", query, PQresultErrorMessage(res));
	PQfinish(c);
	return res;
}

/* SQLite's blob literals x'00ff' in PostgreSQL's words: '\x00ff'::bytea. */
static char *pg_blob_literals(const char *stmt)
{
	char *out = xmalloc(strlen(stmt) * 2 + 1), *w = out;

	for (const char *p = stmt; *p; p++) {
		if (p[0] == 'x' && p[1] == '\'' && (p == stmt || p[-1] == ' ')) {
			const char *end = strchr(p + 2, '\'');

			w += sprintf(w, "'\\x%.*s'::bytea", (int)(end - p - 2), p + 2);
			p = end;
			continue;
		}
		*w++ = *p;
	}
	*w = '\0';
	return out;
}

/* A new database on the test cluster: its URL in buf. */
static const char *new_pg_database(char *buf, size_t len, const char *name)
{
	const char *base = getenv("CLOCKBENCH_TEST_PG");
	const char *query = strchr(base, '?'), *slash;
	char create[128], db[64];

	assert_non_null(query);
	for (slash = query; slash > base && *slash != '/'; slash--)
		;
	snprintf(db, sizeof(db), "t%d_%d_%.*s", (int)getpid(), ++counter,
		 (int)strcspn(name, "."), name);
	snprintf(create, sizeof(create), "CREATE DATABASE %s", db);
	PQclear(pg_query(base, create));
	snprintf(buf, len, "%.*s/%s%s", (int)(slash - base), base, db, query);
	return buf;
}
#else
static const char *new_pg_database(char *buf, size_t len, const char *name)
{
	fail_msg("built without libpq");
	return NULL;
}
#endif

/* Where a test's store goes: a fresh file, or a fresh database. */
static const char *new_store(char *buf, size_t len, const char *name)
{
	return on_pg ? new_pg_database(buf, len, name) : new_path(buf, len, name);
}

static bool exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static size_t slurp_len(const char *path)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return (size_t)sb.st_size;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Raw SQL on a database, bypassing the store. */
static void sql(const char *path, const char *stmt)
{
	sqlite3 *db;

#if HAVE_LIBPQ
	if (store_is_url(path)) {
		char *pg = pg_blob_literals(stmt);

		PQclear(pg_query(path, pg));
		free(pg);
		return;
	}
#endif
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, stmt, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", stmt, sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* One number; PostgreSQL's booleans count as 1 and 0. */
static int64_t sql_int(const char *path, const char *query)
{
	sqlite3_stmt *st;
	sqlite3 *db;
	int64_t v;

#if HAVE_LIBPQ
	if (store_is_url(path)) {
		PGresult *res = pg_query(path, query);
		const char *text = PQgetvalue(res, 0, 0);

		v = streq(text, "t") ? 1 : streq(text, "f") ? 0 : strtoll(text, NULL, 10);
		PQclear(res);
		return v;
	}
#endif
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, query, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static double nan_with_payload(void)
{
	uint64_t bits = 0x7ff8000000012345ull;
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* Values that a lossy encoding would change. */
static const double tricky[] = {
	0.1, -0.0, 1e-310, DBL_MAX, DBL_MIN, 23.456789012345678, 1.0 / 3.0,
	12345678.901234567, -7.25, 0.0,
};

static void fill_run(struct stored_run *r, const char *label, const char *host,
		     const char *kernel, const char *started, size_t ncells)
{
	memset(r, 0, sizeof(*r));
	r->command = xstrdup("bench");
	r->label = xstrdup(label);
	r->host = xstrdup(host);
	r->kernel = xstrdup(kernel);
	r->status = xstrdup("complete");
	r->elapsed_s = 2.5;
	snprintf(r->started, sizeof(r->started), "%s", started);
	r->env = json_pack("{s:s, s:{s:b}}", "kernel_release", kernel,
			   "cpu_flags", "constant_tsc", 1);
	r->config = json_pack("{s:{s:f}}", "method", "budget_s", 0.05);
	r->quality = json_pack("{s:f, s:[{s:i, s:f}]}", "top_ghz", 4.4, "rounds",
			       "round", 0, "core_ghz", 4.4);
	for (size_t i = 0; i < ncells; i++) {
		char name[32];
		struct stored_cell *c;

		snprintf(name, sizeof(name), "cell-%zu", i);
		c = record_add_cell(r, name, "ns", tricky, ARRAY_SIZE(tricky));
		free(c->path);
		c->path = xstrdup(i % 2 ? "syscall" : "vdso");
		c->batch_calls = 800 + i;
		if (i == 0) {
			c->cycles = xmalloc(c->n * sizeof(double));
			c->core_cycles = xmalloc(c->n * sizeof(double));
			c->rounds = xmalloc(c->n * sizeof(uint32_t));
			for (size_t k = 0; k < c->n; k++) {
				c->cycles[k] = 40.0 + (double)k / 7;
				c->core_cycles[k] = 80.0 + (double)k / 3;
				c->rounds[k] = (uint32_t)(k * 3 / c->n);
			}
			c->nrounds = 3;
			free(c->cycles_unit);
			c->cycles_unit = xstrdup("TSC ticks");
		}
	}
}

static void simple_run(struct stored_run *r, const char *label)
{
	fill_run(r, label, "vm1", "6.18.44", "2026-11-30T13:50:02Z", 2);
}

static struct store *open_ok(const char *path)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(path, &err);

	if (!st)
		fail_msg("store_open(%s): %s", path, err.buf);
	return st;
}

static int64_t save_ok(struct store *st, struct stored_run *r)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (store_save_run(st, r, &err) != 0)
		fail_msg("store_save_run: %s", err.buf);
	assert_true(r->id > 0);
	return r->id;
}

static void assert_same_rounds(const struct stored_cell *x,
			       const struct stored_cell *y)
{
	assert_int_equal(x->nrounds, y->nrounds);
	if (!x->rounds || !y->rounds) {
		assert_true(x->rounds == y->rounds);
		return;
	}
	assert_memory_equal(x->rounds, y->rounds, x->n * sizeof(uint32_t));
}

static void assert_same_doubles(const double *a, const double *b, size_t n)
{
	if (!a || !b) {
		assert_true(a == b);
		return;
	}
	assert_memory_equal(a, b, n * sizeof(double));
}

static void assert_same_run(const struct stored_run *a, const struct stored_run *b)
{
	assert_string_equal(a->uuid, b->uuid);
	assert_string_equal(a->command, b->command);
	assert_string_equal(a->label, b->label);
	assert_string_equal(a->host, b->host);
	assert_string_equal(a->kernel, b->kernel);
	assert_string_equal(a->started, b->started);
	assert_string_equal(a->status, b->status);
	assert_true(a->elapsed_s == b->elapsed_s);
	assert_true(json_equal(a->env, b->env));
	assert_true(a->config ? json_equal(a->config, b->config) : !b->config);
	assert_true(a->quality ? json_equal(a->quality, b->quality) : !b->quality);
	assert_int_equal(a->ncells, b->ncells);
	for (size_t i = 0; i < a->ncells; i++) {
		const struct stored_cell *x = &a->cells[i], *y = &b->cells[i];

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->path, y->path);
		assert_string_equal(x->api, y->api);
		assert_string_equal(x->clock, y->clock);
		assert_string_equal(x->status, y->status);
		assert_string_equal(x->reason, y->reason);
		assert_string_equal(x->unit, y->unit);
		assert_string_equal(x->cycles_unit, y->cycles_unit);
		assert_true(x->batch_calls == y->batch_calls);
		assert_int_equal(x->n, y->n);
		assert_same_doubles(x->values, y->values, x->n);
		assert_same_doubles(x->cycles, y->cycles, x->n);
		assert_same_doubles(x->core_cycles, y->core_cycles, x->n);
		assert_same_doubles(x->ref.readings, y->ref.readings, x->n);
		assert_same_rounds(x, y);
	}
}

/* ---- SQLite round trip ---------------------------------------------- */

static void test_save_load_round_trip(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, back;
	struct store *st;
	double *v;

	new_store(path, sizeof(path), "rt.db");
	st = open_ok(path);
	simple_run(&r, "before");
	/* A NaN's payload survives too: the blob is the doubles' bytes. */
	v = xrealloc(r.cells[1].values, (r.cells[1].n + 1) * sizeof(double));
	v[r.cells[1].n++] = nan_with_payload();
	r.cells[1].values = v;
	save_ok(st, &r);
	assert_int_equal(strlen(r.uuid), 36);
	assert_int_equal(r.uuid[14], '4');

	assert_int_equal(store_load_run(st, r.id, &back, &err), 0);
	assert_true(back.id == r.id);
	assert_same_run(&r, &back);
	stored_run_free(&back);

	/* Every cell in the compact encoding of schema 3 (results/codec.h). */
	store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells WHERE encoding = 1"),
			 2);
	/* The cell measured in rounds has a digest; the other does not. */
	assert_int_equal(sql_int(path, "SELECT digest IS NOT NULL FROM cells WHERE seq = 0"),
			 1);
	assert_int_equal(sql_int(path, "SELECT digest IS NULL FROM cells WHERE seq = 1"),
			 1);
	/* Rounds run-length coded: (round, count) pairs, 4 + 4 bytes each. */
	assert_int_equal(sql_int(path, on_pg ?
				 "SELECT encode(rounds, 'hex') = '0000000004000000"
				 "0100000003000000" "0200000003000000' FROM cells "
				 "WHERE seq = 0" :
				 "SELECT hex(rounds) = '0000000004000000"
				 "0100000003000000" "0200000003000000' FROM cells "
				 "WHERE seq = 0"), 1);
	assert_int_equal(sql_int(path, "SELECT rounds IS NULL FROM cells WHERE seq = 1"),
			 1);
	/* Core cycles beside the samples, as the cycles are. */
	assert_int_equal(sql_int(path, "SELECT core_cycles IS NOT NULL FROM cells WHERE seq = 0"),
			 1);
	assert_int_equal(sql_int(path, "SELECT core_cycles IS NULL FROM cells WHERE seq = 1"),
			 1);
	/*
	 * The views of the metrics: a row per measured cell, with the median
	 * and CI show computes (of cell 0's cycles, 40 + k / 7 for k = 0..9,
	 * 40 + 4.5 / 7).
	 */
	assert_int_equal(sql_int(path, "SELECT count(*) FROM metric_ns"), 2);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM metric_cycles"), 1);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM metric_core_cycles"), 1);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM metric_cycles WHERE"
				 " ci_lo <= median AND median <= ci_hi AND"
				 " abs(median - (40 + 4.5 / 7)) < 1e-9 AND unit = 'TSC ticks'"
				 " AND cell = 'cell-0' AND host = 'vm1'"), 1);
	/* The JSON columns are JSON to the engine: jsonb on PostgreSQL. */
	assert_int_equal(sql_int(path, on_pg ?
				 "SELECT (quality->>'top_ghz')::float8 = 4.4 FROM runs" :
				 "SELECT json_extract(quality, '$.top_ghz') = 4.4"
				 " FROM runs"), 1);
	stored_run_free(&r);
}

static void test_load_header_has_no_samples(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, h;
	struct store *st;

	st = open_ok(new_store(path, sizeof(path), "hdr.db"));
	simple_run(&r, "x");
	save_ok(st, &r);
	assert_int_equal(store_load_run_header(st, r.id, &h, &err), 0);
	assert_string_equal(h.label, "x");
	assert_int_equal(h.ncells, 2);
	assert_int_equal(h.cells[0].n, ARRAY_SIZE(tricky));
	assert_null(h.cells[0].values);
	assert_null(h.cells[0].cycles);
	assert_null(h.cells[0].core_cycles);
	assert_null(h.cells[0].rounds);
	assert_string_equal(h.cells[0].cycles_unit, "TSC ticks");
	stored_run_free(&h);
	assert_int_equal(store_load_run(st, 9999, &h, &err), -1);
	assert_non_null(strstr(err.buf, "no run 9999"));
	store_close(st);

	/* Blobs that do not match n are reported, not read past. */
	sql(path, "UPDATE cells SET rounds = x'0000000005000000' WHERE seq = 0");
	st = open_ok(path);
	assert_int_equal(store_load_run(st, r.id, &h, &err), STORE_DAMAGED);
	assert_non_null(strstr(err.buf, "cell cell-0 do not match their count"));
	store_close(st);
	sql(path, "UPDATE cells SET rounds = NULL, samples = x'00' WHERE seq = 0");
	st = open_ok(path);
	assert_int_equal(store_load_run(st, r.id, &h, &err), STORE_DAMAGED);
	assert_non_null(strstr(err.buf, "the database is damaged"));
	/* More rounds than clockbench measures: damaged too, not allocated. */
	sql(path, "UPDATE cells SET samples = NULL, cycles = NULL, core_cycles = NULL, n = 0,"
	    " rounds = NULL WHERE seq = 0");
	sql(path, "UPDATE cells SET rounds = x'ffffffff0a000000' WHERE seq = 1");
	assert_int_equal(store_load_run(st, r.id, &h, &err), STORE_DAMAGED);
	assert_non_null(strstr(err.buf, "cell cell-1 do not match"));
	/*
	 * A damaged environment: the header loader says so. (PostgreSQL's
	 * jsonb refuses to store such a thing.)
	 */
	if (!on_pg) {
		sql(path, "UPDATE runs SET env = '{broken'");
		assert_int_equal(store_load_run_header(st, r.id, &h, &err),
				 STORE_DAMAGED);
		assert_non_null(strstr(err.buf, "is not valid JSON (the database is damaged)"));
	}
	stored_run_free(&r);
	store_close(st);
}

static void test_interrupted_and_empty_cells(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, back;
	struct store *st;
	struct stored_cell *c;

	st = open_ok(new_store(path, sizeof(path), "int.db"));
	simple_run(&r, "");
	c = record_add_cell(&r, "not-reached", "ns", NULL, 0);
	free(c->status);
	c->status = xstrdup("not reached");
	record_finish(&r, 0.75, true);
	save_ok(st, &r);
	assert_int_equal(store_load_run(st, r.id, &back, &err), 0);
	assert_string_equal(back.status, "interrupted");
	assert_true(back.elapsed_s == 0.75);
	assert_int_equal(back.cells[2].n, 0);
	assert_string_equal(back.cells[2].status, "not reached");
	stored_run_free(&back);
	stored_run_free(&r);

	/* A status outside complete|interrupted never reaches the table. */
	simple_run(&r, "");
	free(r.status);
	r.status = xstrdup("half");
	assert_int_equal(store_save_run(st, &r, &err), -1);
	assert_non_null(strstr(err.buf, on_pg ? "violates check constraint" :
			       "CHECK constraint failed"));
	assert_int_equal(r.id, 0);
	stored_run_free(&r);
	store_close(st);
	/* The failed save left no cells behind: one transaction per run. */
	assert_int_equal(sql_int(path, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells"), 3);
}

/* ---- schema and refusing other files ------------------------------ */

static void test_migrates_from_version_0(void **state)
{
	char path[PATH_MAX];
	struct stored_run r;
	struct store *st;

	SQLITE_ONLY();

	/* An SQLite file with a header but no schema: what version 0 is. */
	new_path(path, sizeof(path), "v0.db");
	sql(path, "PRAGMA page_size = 4096; VACUUM");
	assert_int_equal(sql_int(path, "PRAGMA user_version"), 0);

	st = open_ok(path);
	simple_run(&r, "a");
	save_ok(st, &r);
	stored_run_free(&r);
	store_close(st);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_int_equal(sql_int(path, "PRAGMA application_id"), 0x436c6b62);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE "
				 "type = 'table' AND name IN ('runs', 'cells')"), 2);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM runs"), 1);
	/* WAL mode is persistent: a new connection sees it. */
	assert_int_equal(sql_int(path, "SELECT journal_mode = 'wal' FROM "
				 "pragma_journal_mode"), 1);

	/* Opening again at the current version changes nothing. */
	st = open_ok(path);
	store_close(st);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);

	/* An empty file is version 0 too. */
	new_path(path, sizeof(path), "empty.db");
	write_file(path, "", 0);
	store_close(open_ok(path));
	assert_int_equal(sql_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
}

/* A blob as schemas 1 and 2 wrote samples: n little-endian doubles. */
static void bind_raw(sqlite3_stmt *st, int col, const double *x, size_t n)
{
	unsigned char *blob;

	if (!x) {
		sqlite3_bind_null(st, col);
		return;
	}
	blob = xmalloc(n * 8 + 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t bits;

		memcpy(&bits, &x[i], 8);
		for (int b = 0; b < 8; b++)
			blob[8 * i + b] = (unsigned char)(bits >> (8 * b));
	}
	sqlite3_bind_blob(st, col, blob, (int)(n * 8), SQLITE_TRANSIENT);
	free(blob);
}

/* The samples of run, saved by this build, rewritten as schema 2 wrote them. */
static void rewrite_raw(const char *path, const struct stored_run *run)
{
	sqlite3_stmt *st;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE cells SET samples = ?,"
					    " cycles = ?, core_cycles = ?, encoding = 0,"
					    " digest = NULL WHERE run_id = ? AND seq = ?",
					    -1, &st, NULL), SQLITE_OK);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct stored_cell *c = &run->cells[i];

		bind_raw(st, 1, c->values, c->n);
		bind_raw(st, 2, c->cycles, c->n);
		bind_raw(st, 3, c->core_cycles, c->n);
		sqlite3_bind_int64(st, 4, run->id);
		sqlite3_bind_int64(st, 5, (int64_t)i);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* A database of schema 2: raw doubles, no encoding or digest column. */
static void make_version_2(const char *path, struct stored_run *old)
{
	struct store *st = open_ok(path);

	simple_run(old, "old");
	save_ok(st, old);
	store_close(st);
	rewrite_raw(path, old);
	sql(path, "ALTER TABLE cells DROP COLUMN reference;"
	    "DROP VIEW metric_ns; DROP VIEW metric_seconds; DROP VIEW metric_cycles;"
	    "DROP VIEW metric_core_cycles;"
	    "ALTER TABLE cells DROP COLUMN value_median; ALTER TABLE cells DROP COLUMN value_lo;"
	    "ALTER TABLE cells DROP COLUMN value_hi; ALTER TABLE cells DROP COLUMN cycles_median;"
	    "ALTER TABLE cells DROP COLUMN cycles_lo; ALTER TABLE cells DROP COLUMN cycles_hi;"
	    "ALTER TABLE cells DROP COLUMN core_median; ALTER TABLE cells DROP COLUMN core_lo;"
	    "ALTER TABLE cells DROP COLUMN core_hi;"
	    "ALTER TABLE cells DROP COLUMN encoding;"
	    "ALTER TABLE cells DROP COLUMN digest; PRAGMA user_version = 2");
}

/*
 * A database written by a clockbench of schema 1 (no core cycles, no
 * quality): made by removing what schemas 2 and 3 added.
 */
static void make_version_1(const char *path, struct stored_run *old)
{
	struct store *st = open_ok(path);

	simple_run(old, "old");
	free(old->cells[0].core_cycles);
	old->cells[0].core_cycles = NULL;
	json_decref(old->quality);
	old->quality = NULL;
	save_ok(st, old);
	store_close(st);
	rewrite_raw(path, old);
	sql(path, "ALTER TABLE cells DROP COLUMN reference;"
	    "DROP VIEW metric_ns; DROP VIEW metric_seconds; DROP VIEW metric_cycles;"
	    "DROP VIEW metric_core_cycles;"
	    "ALTER TABLE cells DROP COLUMN value_median; ALTER TABLE cells DROP COLUMN value_lo;"
	    "ALTER TABLE cells DROP COLUMN value_hi; ALTER TABLE cells DROP COLUMN cycles_median;"
	    "ALTER TABLE cells DROP COLUMN cycles_lo; ALTER TABLE cells DROP COLUMN cycles_hi;"
	    "ALTER TABLE cells DROP COLUMN core_median; ALTER TABLE cells DROP COLUMN core_lo;"
	    "ALTER TABLE cells DROP COLUMN core_hi;"
	    "ALTER TABLE cells DROP COLUMN encoding;"
	    "ALTER TABLE cells DROP COLUMN digest;"
	    "ALTER TABLE cells DROP COLUMN core_cycles;"
	    "ALTER TABLE runs DROP COLUMN quality; PRAGMA user_version = 1");
}

static void test_migrates_from_version_1(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run old, now, back;
	struct store *st;

	SQLITE_ONLY();

	make_version_1(new_path(path, sizeof(path), "v1.db"), &old);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), 1);
	/* Reading leaves it as it is and reads the old run as it was. */
	st = store_open_access(path, STORE_READ, &err);
	assert_non_null(st);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	assert_null(back.cells[0].core_cycles);
	assert_null(back.quality);
	stored_run_free(&back);
	store_close(st);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), 1);
	/* Opening to write migrates it; the old run still reads as it was. */
	st = store_open_access(path, STORE_UPDATE, &err);
	assert_non_null(st);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	assert_null(back.cells[0].core_cycles);
	assert_null(back.quality);
	stored_run_free(&back);
	simple_run(&now, "new");
	save_ok(st, &now);
	assert_int_equal(store_load_run(st, now.id, &back, &err), 0);
	assert_same_run(&now, &back);
	stored_run_free(&back);
	stored_run_free(&now);
	stored_run_free(&old);
	store_close(st);
}

static void *dup_bytes(const void *p, size_t n)
{
	void *c = xmalloc(n ? n : 1);

	memcpy(c, p, n);
	return c;
}

/* A digested cell as compare reads it: the same as reducing the samples. */
static void assert_same_digest(const struct stored_run *full,
			       const struct stored_run *dig)
{
	assert_int_equal(full->ncells, dig->ncells);
	for (size_t i = 0; i < full->ncells; i++) {
		struct stored_cell c = full->cells[i];
		const struct stored_cell *d = &dig->cells[i];

		if (!digest_applies(&c)) {
			assert_false(d->digest);
			assert_same_doubles(c.values, d->values, c.n);
			continue;
		}
		/* Reduce a copy of the arrays: the run's own stay as they are. */
		c.values = dup_bytes(c.values, c.n * sizeof(double));
		c.cycles = c.cycles ? dup_bytes(c.cycles, c.n * sizeof(double)) : NULL;
		c.core_cycles = c.core_cycles ?
			dup_bytes(c.core_cycles, c.n * sizeof(double)) : NULL;
		c.rounds = dup_bytes(c.rounds, c.n * sizeof(uint32_t));
		c.ref.readings = c.ref.readings ?
			dup_bytes(c.ref.readings, c.n * sizeof(double)) : NULL;
		digest_reduce(&c);
		assert_true(d->digest && c.digest);
		assert_int_equal(c.n, d->n);
		assert_int_equal(c.nrounds, d->nrounds);
		assert_same_doubles(c.values, d->values, c.n);
		assert_same_doubles(c.cycles, d->cycles, c.n);
		assert_same_doubles(c.core_cycles, d->core_cycles, c.n);
		assert_memory_equal(c.rounds, d->rounds, c.n * sizeof(uint32_t));
		assert_memory_equal(&c.median_values, &d->median_values, sizeof(double));
		assert_memory_equal(&c.median_core, &d->median_core, sizeof(double));
		free(c.values);
		free(c.cycles);
		free(c.core_cycles);
		free(c.rounds);
	}
}

/*
 * A run whose one cell has its core cycles from the reference, as bench
 * records them: batches of whole ticks, a reading before each, in two
 * rounds, the second on a core running at two thirds of the speed.
 */
static void run_with_readings(struct stored_run *r, const char *label)
{
	struct stored_cell *c;
	size_t n = 400;

	fill_run(r, label, "vm1", "6.18.44", "2026-11-30T13:50:02Z", 1);
	c = &r->cells[0];
	free(c->values);
	c->values = xmalloc(n * sizeof(double));
	c->cycles = xrealloc(c->cycles, n * sizeof(double));
	c->core_cycles = xrealloc(c->core_cycles, n * sizeof(double));
	c->rounds = xrealloc(c->rounds, n * sizeof(uint32_t));
	c->n = n;
	c->nrounds = 2;
	c->batch_calls = 500;
	c->ref = (struct stored_reference){
		.readings = xmalloc(n * sizeof(double)),
		.base_boundary = 12,
		.reading_core = 310.25,
		.batch_boundary_core = 21.5,
	};
	for (size_t i = 0; i < n; i++) {
		bool slow = i >= n / 2;

		c->rounds[i] = slow;
		c->ref.readings[i] = (double)((slow ? 900 : 600) + i % 7);
		c->cycles[i] = ((double)((slow ? 30000 : 20000) + i % 13) - 12) / 500;
		c->values[i] = c->cycles[i] / 2.1;
	}
	assert_int_equal(core_replay(c, c->core_cycles), 0);
}

/*
 * Core cycles measured against the reference are kept as its readings
 * and made again on load, bit for bit; a run copied on (push, pull) stays
 * so; a cell without readings (an imported run) keeps its core cycles.
 */
static void test_core_cycles_kept_as_readings(void **state)
{
	char path[PATH_MAX], path2[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run run, back, dig, plain;
	struct store *st, *st2;

	run_with_readings(&run, "replayed");
	st = open_ok(new_store(path, sizeof(path), "replay.db"));
	save_ok(st, &run);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells WHERE core_cycles IS NULL"
				 " AND reference IS NOT NULL"), 1);
	assert_int_equal(store_load_run(st, run.id, &back, &err), 0);
	assert_same_run(&run, &back);
	/* The digest of the cell is the one of its replayed samples. */
	assert_int_equal(store_load_run_digest(st, run.id, &dig, &err), 0);
	assert_same_digest(&back, &dig);
	assert_null(dig.cells[0].ref.readings);
	stored_run_free(&dig);

	st2 = open_ok(new_store(path2, sizeof(path2), "replay_copy.db"));
	back.id = 0;
	save_ok(st2, &back);
	assert_int_equal(sql_int(path2, "SELECT count(*) FROM cells WHERE core_cycles IS NULL"),
			 1);
	stored_run_free(&back);
	assert_int_equal(store_load_run(st2, run.id, &back, &err), 0);
	assert_same_run(&run, &back);
	stored_run_free(&back);
	store_close(st2);

	run_with_readings(&plain, "imported");
	free(plain.cells[0].ref.readings);
	plain.cells[0].ref.readings = NULL;
	save_ok(st, &plain);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells WHERE core_cycles IS NOT NULL"
				 " AND reference IS NULL"), 1);
	assert_int_equal(store_load_run(st, plain.id, &back, &err), 0);
	assert_same_run(&plain, &back);
	stored_run_free(&back);
	stored_run_free(&plain);
	stored_run_free(&run);
	store_close(st);
}

/* A cell holding both core cycles and readings is damaged, not guessed at. */
static void test_core_cycles_twice_is_damage(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run run, back;
	struct store *st;

	run_with_readings(&run, "twice");
	st = open_ok(new_store(path, sizeof(path), "twice.db"));
	save_ok(st, &run);
	sql(path, "UPDATE cells SET core_cycles = samples");
	assert_int_equal(store_load_run(st, run.id, &back, &err), STORE_DAMAGED);
	assert_non_null(strstr(err.buf, "the database is damaged"));
	sql(path, "UPDATE cells SET core_cycles = NULL, reference = substr(reference, 1, 20)");
	assert_int_equal(store_load_run(st, run.id, &back, &err), STORE_DAMAGED);
	stored_run_free(&run);
	store_close(st);
}

/* Schema 3's core cycles read as they are, before and after the migration. */
static void test_migrates_from_version_3(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run old, back;
	struct store *st;

	SQLITE_ONLY();
	simple_run(&old, "old");
	st = open_ok(new_path(path, sizeof(path), "v3.db"));
	save_ok(st, &old);
	store_close(st);
	sql(path, "ALTER TABLE cells DROP COLUMN reference; PRAGMA user_version = 3");
	st = store_open_access(path, STORE_READ, &err);
	assert_non_null(st);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	stored_run_free(&back);
	store_close(st);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), 3);
	st = open_ok(path);
	assert_int_equal(sql_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	stored_run_free(&back);
	stored_run_free(&old);
	run_with_readings(&old, "new");
	save_ok(st, &old);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells WHERE reference IS NOT NULL"), 1);
	stored_run_free(&old);
	store_close(st);
}

/* Schema 2's raw doubles read as they are, before and after the migration. */
static void test_migrates_from_version_2(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run old, now, back, dig;
	struct store *st;

	SQLITE_ONLY();

	make_version_2(new_path(path, sizeof(path), "v2.db"), &old);
	st = store_open_access(path, STORE_READ, &err);
	assert_non_null(st);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	/* No digest stored: the samples are read and reduced. */
	assert_int_equal(store_load_run_digest(st, old.id, &dig, &err), 0);
	assert_same_digest(&back, &dig);
	stored_run_free(&back);
	stored_run_free(&dig);
	store_close(st);

	st = store_open_access(path, STORE_UPDATE, &err);
	assert_non_null(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells WHERE encoding = 0"), 2);
	assert_int_equal(store_load_run(st, old.id, &back, &err), 0);
	assert_same_run(&old, &back);
	stored_run_free(&back);
	simple_run(&now, "new");
	save_ok(st, &now);
	assert_int_equal(store_load_run(st, now.id, &back, &err), 0);
	assert_same_run(&now, &back);
	/* The stored digest is what the samples reduce to. */
	assert_int_equal(store_load_run_digest(st, now.id, &dig, &err), 0);
	assert_same_digest(&back, &dig);
	/* A digest is not a run: it cannot be saved. */
	dig.uuid[0] = '\0';
	assert_int_equal(store_save_run(st, &dig, &err), -1);
	assert_non_null(strstr(err.buf, "loaded as a digest"));
	stored_run_free(&dig);
	stored_run_free(&back);
	stored_run_free(&now);
	stored_run_free(&old);
	store_close(st);
}

/* store_open must fail with want in the message and leave path as it was. */
static void assert_refused(const char *path, enum store_access access,
			   const char *want)
{
	char side[PATH_MAX + 8];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t before_len, after_len;
	char *before = slurp(path, &before_len), *after;

	assert_null(store_open_access(path, access, &err));
	if (!strstr(err.buf, want))
		fail_msg("error '%s' lacks '%s'", err.buf, want);
	after = slurp(path, &after_len);
	assert_int_equal(before_len, after_len);
	assert_memory_equal(before, after, before_len);
	snprintf(side, sizeof(side), "%s-journal", path);
	assert_false(exists(side));
	free(before);
	free(after);
}

/* store_open on a server must fail with want, and change nothing there. */
static void assert_refused_server(const char *url, enum store_access access,
				  const char *want)
{
	int64_t tables = sql_int(url, "SELECT count(*) FROM pg_tables WHERE"
				 " schemaname = 'public'");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_null(store_open_access(url, access, &err));
	if (!strstr(err.buf, want))
		fail_msg("expected '%s' in: %s", want, err.buf);
	assert_null(strchr(err.buf, '\n'));
	assert_int_equal(sql_int(url, "SELECT count(*) FROM pg_tables WHERE"
				 " schemaname = 'public'"), tables);
}

static void test_newer_schema_refused(void **state)
{
	char path[PATH_MAX];

	new_store(path, sizeof(path), "newer.db");
	store_close(open_ok(path));
	if (on_pg) {
		sql(path, "UPDATE clockbench_schema SET version = 99");
		assert_refused_server(path, STORE_WRITE, "schema version 99 is newer");
		assert_refused_server(path, STORE_READ, "schema version 99 is newer");
		assert_int_equal(sql_int(path, "SELECT version FROM clockbench_schema"), 99);
		return;
	}
	sql(path, "PRAGMA user_version = 99");
	assert_refused(path, STORE_WRITE, "schema version 99 is newer");
	assert_refused(path, STORE_READ, "schema version 99 is newer");
	assert_int_equal(sql_int(path, "PRAGMA user_version"), 99);
}

static void test_not_sqlite_refused(void **state)
{
	static const char text[] = "name,path,ns\nclock-gettime,vdso,20\n";
	unsigned char junk[8192];
	char path[PATH_MAX];

	SQLITE_ONLY();

	new_path(path, sizeof(path), "text.db");
	write_file(path, text, sizeof(text) - 1);
	assert_refused(path, STORE_WRITE, "not an SQLite database");
	assert_refused(path, STORE_READ, "not an SQLite database");

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	new_path(path, sizeof(path), "junk.db");
	write_file(path, junk, sizeof(junk));
	assert_refused(path, STORE_WRITE, "not an SQLite database");
}

static void test_other_programs_database_refused(void **state)
{
	char path[PATH_MAX];

	SQLITE_ONLY();

	new_path(path, sizeof(path), "other.db");
	sql(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, jpeg BLOB)");
	assert_refused(path, STORE_WRITE, "not a clockbench results database");

	new_path(path, sizeof(path), "appid.db");
	sql(path, "PRAGMA application_id = 1234");
	assert_refused(path, STORE_WRITE, "another program");
}

static void test_corrupt_file_refused(void **state)
{
	char path[PATH_MAX], copy[PATH_MAX];
	struct stored_run r;
	struct store *st;
	size_t len;
	char *bytes;
	int fd;

	SQLITE_ONLY();

	new_path(path, sizeof(path), "corrupt.db");
	st = open_ok(path);
	for (int i = 0; i < 3; i++) {
		simple_run(&r, "c");
		save_ok(st, &r);
		stored_run_free(&r);
	}
	store_close(st);
	assert_int_equal(sql_int(path, "PRAGMA page_size"), 4096);

	/* Garbage over the second page (a b-tree page) of a valid database. */
	bytes = slurp(path, &len);
	assert_true(len >= 3 * 4096);
	memset(bytes + 4096, 0xa5, 512);
	write_file(path, bytes, len);
	free(bytes);
	assert_refused(path, STORE_WRITE, "corrupt");
	assert_refused(path, STORE_UPDATE, "corrupt");

	/* Cut short: the header promises pages that are not there. */
	new_path(copy, sizeof(copy), "truncated.db");
	st = open_ok(copy);
	for (int i = 0; i < 3; i++) {
		simple_run(&r, "t");
		save_ok(st, &r);
		stored_run_free(&r);
	}
	store_close(st);
	fd = open(copy, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2 * 4096), 0);
	close(fd);
	assert_refused(copy, STORE_WRITE, "corrupt");
}

static void test_missing_file_not_created(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	SQLITE_ONLY();

	new_path(path, sizeof(path), "absent.db");
	assert_null(store_open_access(path, STORE_READ, &err));
	assert_non_null(strstr(err.buf, "no results database at"));
	assert_false(exists(path));
	assert_null(store_open_access(path, STORE_UPDATE, &err));
	assert_false(exists(path));

	snprintf(path, sizeof(path), "%s/no-such-dir/results.db", tmpdir);
	assert_null(store_open(path, &err));
	assert_non_null(strstr(err.buf, "does not exist"));
	snprintf(path, sizeof(path), "%s/no-such-dir", tmpdir);
	assert_false(exists(path));

	assert_null(store_open(tmpdir, &err));
	assert_non_null(strstr(err.buf, "is a directory"));
}

/* Issue 15, failure 6: reading never creates, migrates or writes. */
static void test_read_access_writes_nothing(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;
	struct store *st;
	size_t len;
	char *before, *after;

	SQLITE_ONLY();

	new_path(path, sizeof(path), "empty.db");
	write_file(path, "", 0);
	assert_null(store_open_access(path, STORE_READ, &err));
	assert_non_null(strstr(err.buf, "(the file is empty)"));
	assert_null(store_open_access(path, STORE_UPDATE, &err));
	assert_int_equal(slurp_len(path), 0);

	new_path(path, sizeof(path), "v0.db");
	sql(path, "PRAGMA page_size = 4096; VACUUM");
	before = slurp(path, &len);
	assert_null(store_open_access(path, STORE_READ, &err));
	assert_non_null(strstr(err.buf, "without clockbench's tables"));
	after = slurp(path, &len);
	assert_memory_equal(before, after, len);
	free(before);
	free(after);

	/* A read connection cannot save, even by mistake. */
	new_path(path, sizeof(path), "ro.db");
	store_close(open_ok(path));
	st = store_open_access(path, STORE_READ, &err);
	assert_non_null(st);
	assert_null(store_warning(st));
	simple_run(&r, "x");
	assert_int_equal(store_save_run(st, &r, &err), -1);
	stored_run_free(&r);
	store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM runs"), 0);
}

/* ---- concurrency ---------------------------------------------------- */

enum { WRITERS = 16, RUNS_PER_WRITER = 3 };

/* A child: wait for the start signal, then save its runs. */
static _Noreturn void writer(const char *path, int go_fd, int n)
{
	char label[32], buf;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;
	struct store *st;

	if (read(go_fd, &buf, 1) < 0)
		_exit(3);
	st = store_open(path, &err);
	if (!st) {
		fprintf(stderr, "writer %d: %s\n", n, err.buf);
		_exit(1);
	}
	for (int i = 0; i < RUNS_PER_WRITER; i++) {
		snprintf(label, sizeof(label), "writer-%d", n);
		fill_run(&r, label, "vm1", "6.18.44", "2026-11-30T13:50:02Z", 40);
		if (store_save_run(st, &r, &err)) {
			fprintf(stderr, "writer %d: %s\n", n, err.buf);
			_exit(2);
		}
		stored_run_free(&r);
	}
	store_close(st);
	_exit(0);
}

static void test_concurrent_writers_all_land(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	pid_t pids[WRITERS];
	struct store *st;
	int64_t *ids;
	size_t n;
	int go[2];

	/* The database does not exist yet: creation and migration race too. */
	new_store(path, sizeof(path), "concurrent.db");
	assert_int_equal(pipe(go), 0);
	for (int i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			close(go[1]);
			writer(path, go[0], i);
		}
	}
	close(go[0]);
	close(go[1]);	/* EOF: every writer starts at once */
	for (int i = 0; i < WRITERS; i++) {
		int status;

		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	st = open_ok(path);
	for (int i = 0; i < WRITERS; i++) {
		char label[32];

		snprintf(label, sizeof(label), "writer-%d", i);
		assert_int_equal(store_resolve(st, label, &ids, &n, &err), 0);
		assert_int_equal(n, RUNS_PER_WRITER);
		free(ids);
	}
	store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM runs"),
			 WRITERS * RUNS_PER_WRITER);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells"),
			 WRITERS * RUNS_PER_WRITER * 40);
	assert_int_equal(sql_int(path, "SELECT count(DISTINCT uuid) FROM runs"),
			 WRITERS * RUNS_PER_WRITER);
}

/* ---- JSON ----------------------------------------------------------- */

static void test_json_round_trip(void **state)
{
	struct stored_run r, back;
	char *text;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_t *j, *parsed;

	simple_run(&r, "after");
	strcpy(r.uuid, "0a1b2c3d-0000-4000-8000-00000000abcd");
	r.id = 7;
	j = stored_run_to_json(&r);
	assert_int_equal(json_integer_value(json_object_get(j, "id")), 7);
	/* Through text, as an export file goes. */
	text = json_dumps(j, JSON_COMPACT);
	parsed = json_loads(text, 0, NULL);
	assert_non_null(parsed);
	if (stored_run_from_json(parsed, &back, &err))
		fail_msg("from_json: %s", err.buf);
	assert_int_equal(back.id, 0);	/* ids are local to a database */
	assert_same_run(&r, &back);
	stored_run_free(&back);
	json_decref(parsed);
	json_decref(j);
	free(text);
	stored_run_free(&r);
}

/* A valid run object to break one field of. */
static json_t *valid_run_json(void)
{
	struct stored_run r;
	json_t *j;

	simple_run(&r, "x");
	strcpy(r.uuid, "0a1b2c3d-0000-4000-8000-00000000abcd");
	j = stored_run_to_json(&r);
	stored_run_free(&r);
	return j;
}

static void expect_invalid(json_t *j, const char *want)
{
	struct stored_run r;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(stored_run_from_json(j, &r, &err), -1);
	if (strncmp(err.buf, want, strlen(want)) != 0)
		fail_msg("error '%s' does not start with '%s'", err.buf, want);
	json_decref(j);
}

static json_t *cell0(json_t *j)
{
	return json_array_get(json_object_get(j, "cells"), 0);
}

static void test_json_validation_names_the_field(void **state)
{
	json_t *j;

	j = valid_run_json();
	json_object_del(j, "uuid");
	expect_invalid(j, "uuid: missing");

	j = valid_run_json();
	json_object_set_new(j, "uuid", json_integer(5));
	expect_invalid(j, "uuid: expected a string, got an integer");

	j = valid_run_json();
	json_object_set_new(j, "uuid", json_string("run-7"));
	expect_invalid(j, "uuid: 'run-7' is not a uuid");

	j = valid_run_json();
	json_object_set_new(j, "started", json_string("2026-13-01T00:00:00Z"));
	expect_invalid(j, "started: '2026-13-01T00:00:00Z' is not a UTC time");

	j = valid_run_json();
	json_object_set_new(j, "status", json_string("done"));
	expect_invalid(j, "status: 'done' is neither complete nor interrupted");

	j = valid_run_json();
	json_object_set_new(j, "label", json_string("42"));
	expect_invalid(j, "label: '42': a label cannot be a number");

	j = valid_run_json();
	json_object_set_new(j, "elapsed_s", json_string("1.5"));
	expect_invalid(j, "elapsed_s: expected a non-negative number");

	j = valid_run_json();
	json_object_set_new(j, "environment", json_array());
	expect_invalid(j, "environment: expected an object, got an array");

	j = valid_run_json();
	json_object_set_new(j, "config", json_integer(3));
	expect_invalid(j, "config: expected an object or null, got an integer");

	j = valid_run_json();
	json_object_set_new(j, "cells", json_object());
	expect_invalid(j, "cells: expected an array, got an object");

	j = valid_run_json();
	json_array_set_new(json_object_get(j, "cells"), 1, json_true());
	expect_invalid(j, "cells[1]: expected an object, got a boolean");

	j = valid_run_json();
	json_object_del(cell0(j), "name");
	expect_invalid(j, "cells[0].name: missing");

	j = valid_run_json();
	json_object_set_new(cell0(j), "path", json_integer(1));
	expect_invalid(j, "cells[0].path: expected a string, got an integer");

	j = valid_run_json();
	json_array_set_new(json_object_get(cell0(j), "samples"), 2, json_string("x"));
	expect_invalid(j, "cells[0].samples[2]: expected a number, got a string");

	j = valid_run_json();
	json_object_set_new(cell0(j), "samples_cycles", json_pack("[f, f]", 1.0, 2.0));
	expect_invalid(j, "cells[0].samples_cycles: 2 values for 10 samples");

	j = valid_run_json();
	json_object_set_new(cell0(j), "samples_core_cycles", json_pack("[f]", 80.0));
	expect_invalid(j, "cells[0].samples_core_cycles: 1 values for 10 samples");

	j = valid_run_json();
	json_array_set_new(json_object_get(cell0(j), "samples_core_cycles"), 3,
			   json_true());
	expect_invalid(j, "cells[0].samples_core_cycles[3]: expected a number, got "
		       "a boolean");

	j = valid_run_json();
	json_object_set_new(j, "quality", json_string("good"));
	expect_invalid(j, "quality: expected an object or null, got a string");

	j = valid_run_json();
	json_array_set_new(json_object_get(cell0(j), "samples_round"), 1,
			   json_real(0.5));
	expect_invalid(j, "cells[0].samples_round[1]: expected a round number, "
		       "got a number");

	j = valid_run_json();
	json_array_remove(json_object_get(cell0(j), "samples_round"), 0);
	expect_invalid(j, "cells[0].samples_round: 9 values for 10 samples");

	j = valid_run_json();
	json_object_set_new(cell0(j), "batch_calls", json_integer(-1));
	expect_invalid(j, "cells[0].batch_calls: expected a non-negative integer");

	j = valid_run_json();
	json_object_set_new(cell0(j), "name", json_stringn("a\0b", 3));
	expect_invalid(j, "cells[0].name: contains a NUL character");

	expect_invalid(json_array(), "expected a run object, got an array");
}

/* A run with field key of the run (or of cell 0 when in_cell) set to v. */
static json_t *run_with(const char *key, json_t *v, bool in_cell)
{
	json_t *j = valid_run_json();

	json_object_set_new(in_cell ? cell0(j) : j, key, v);
	return j;
}

/* Issue 15, failure 2: values beyond what clockbench writes are refused. */
static void test_json_values_within_clockbench_limits(void **state)
{
	static const json_int_t bad_rounds[] = {
		4294967295, 2147483648, 16777216, STORE_ROUNDS_MAX, -1,
	};
	char want[128];
	json_t *j, *a;

	for (size_t i = 0; i < ARRAY_SIZE(bad_rounds); i++) {
		j = valid_run_json();
		json_array_set_new(json_object_get(cell0(j), "samples_round"), 3,
				   json_integer(bad_rounds[i]));
		snprintf(want, sizeof(want), "cells[0].samples_round[3]: round %"
			 JSON_INTEGER_FORMAT " is out of range", bad_rounds[i]);
		expect_invalid(j, want);
	}
	expect_invalid(run_with("batch_calls", json_integer((1ll << 40) + 1), true),
		       "cells[0].batch_calls: 1099511627777 is more than");
	a = json_array();
	for (size_t i = 0; i <= STORE_SAMPLES_MAX; i++)
		json_array_append(a, json_null());	/* a shared singleton */
	expect_invalid(run_with("samples", a, true),
		       "cells[0].samples: 1000001 samples, more than clockbench");
}

/* Text clockbench writes: bounded, without control characters. */
static void test_json_text_within_clockbench_limits(void **state)
{
	static const char *const texts[] = {
		"host", "kernel", "command", "label",
	};
	static const char *const cell_texts[] = {
		"name", "reason", "unit", "path", "api", "clock", "cycles_unit",
	};
	char want[128], big[STORE_TEXT_MAX + 2];
	json_t *j;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		snprintf(want, sizeof(want), "%s: contains a control character "
			 "(byte 1)", texts[i]);
		expect_invalid(run_with(texts[i], json_string("a\033]0;x\007"), false),
			       want);
		snprintf(want, sizeof(want), "%s: contains a control character",
			 texts[i]);
		/* C1: U+009B is CSI to some terminals. */
		expect_invalid(run_with(texts[i], json_string("a\xc2\x9b" "2J"), false),
			       want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cell_texts); i++) {
		snprintf(want, sizeof(want), "cells[0].%s: contains a control "
			 "character (byte 0)", cell_texts[i]);
		expect_invalid(run_with(cell_texts[i], json_string("\rx"), true), want);
	}
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	expect_invalid(run_with("host", json_string(big), false),
		       "host: 256 bytes, more than clockbench writes (255)");
	expect_invalid(run_with("command", json_string("Bench"), false),
		       "command: 'Bench' is not a clockbench command");
	expect_invalid(run_with("status", json_string("fine"), true),
		       "cells[0].status: 'fine' is not ok, n/a, unsupported or not");

	j = valid_run_json();
	json_object_set_new(json_object_get(j, "environment"), "cmdline",
			    json_string("quiet\033[2J"));
	expect_invalid(j, "environment.cmdline: contains a control character");
	j = valid_run_json();
	json_object_set_new(json_object_get(j, "config"), "x",
			    json_pack("[s, s]", "ok", "\x7f"));
	expect_invalid(j, "config.x[1]: contains a control character");
}

/* What clockbench measures fits the limits import enforces. */
static void test_clockbench_runs_fit_the_limits(void **state)
{
	struct timing_config cfg;
	struct env_info env;
	struct stored_run r, back;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_t *j;

	timing_config_default(&cfg);
	assert_true(cfg.max_samples <= STORE_SAMPLES_MAX);
	assert_true(cfg.rounds <= STORE_ROUNDS_MAX);

	/* A host name and an environment with control characters are masked. */
	memset(&env, 0, sizeof(env));
	snprintf(env.hostname, sizeof(env.hostname), "vm\033]0;owned\007");
	snprintf(env.kernel_release, sizeof(env.kernel_release), "6.18\t44");
	env.cmdline = xstrdup("quiet\tconsole=ttyS0\n");
	record_begin(&r, "bench", NULL, &env, &(struct timespec){ 0 });
	assert_string_equal(r.host, "vm?]0;owned?");
	assert_string_equal(r.kernel, "6.18?44");
	assert_string_equal(json_string_value(json_object_get(r.env, "cmdline")),
			    "quiet?console=ttyS0?");
	strcpy(r.uuid, "0a1b2c3d-0000-4000-8000-00000000abcd");
	j = stored_run_to_json(&r);
	if (stored_run_from_json(j, &back, &err))
		fail_msg("a run clockbench made does not import: %s", err.buf);
	stored_run_free(&back);
	json_decref(j);
	stored_run_free(&r);
	free(env.cmdline);
}

static void test_import_twice_is_a_no_op(void **state)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, again;
	struct store *st;
	json_t *j;

	st = open_ok(new_store(path, sizeof(path), "import.db"));
	j = valid_run_json();
	assert_int_equal(stored_run_from_json(j, &r, &err), 0);
	assert_int_equal(stored_run_from_json(j, &again, &err), 0);
	assert_int_equal(store_import_run(st, &r, &err), 0);
	assert_true(r.id > 0);
	assert_int_equal(store_import_run(st, &again, &err), 1);
	assert_true(again.id == r.id);
	store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells"), 2);
	stored_run_free(&r);
	stored_run_free(&again);
	json_decref(j);
}

/* ---- export files, streamed ------------------------------------------ */

/* An export file of n runs (uuids ...0001, ...0002), dumped with flags. */
static char *export_text(size_t n, size_t flags)
{
	json_t *runs = json_array(), *file;
	char *text;

	for (size_t i = 0; i < n; i++) {
		json_t *r = valid_run_json();

		json_object_set_new(r, "uuid", json_sprintf("0a1b2c3d-0000-4000-8000-"
							     "%012zu", i + 1));
		json_array_append_new(runs, r);
	}
	file = json_pack("{s:i, s:s, s:o}", "clockbench_export", 1, "tool",
			 "clockbench test", "runs", runs);
	text = json_dumps(file, flags);
	json_decref(file);
	return text;
}

static struct export_file *open_text(const char *text, char *path, size_t len)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct export_file *f;

	new_path(path, len, "export.json");
	write_file(path, text, strlen(text));
	f = export_file_open(path, &err);
	if (!f)
		fail_msg("export_file_open: %s", err.buf);
	return f;
}

/* Reads every run: the count, or -1 with the error in err. */
static int read_all(struct export_file *f, struct strbuf *err)
{
	struct stored_run r;
	int n = 0, rc;

	while ((rc = export_file_next(f, &r, err)) == 1) {
		n++;
		stored_run_free(&r);
	}
	return rc < 0 ? -1 : n;
}

static void test_export_file_reads_any_layout(void **state)
{
	const size_t layouts[] = { JSON_COMPACT, JSON_INDENT(2) | JSON_SORT_KEYS,
				   JSON_INDENT(1) };
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, want;

	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		char *text = export_text(3, layouts[i]);
		struct export_file *f = open_text(text, path, sizeof(path));
		json_t *j = valid_run_json();

		assert_int_equal(export_file_next(f, &r, &err), 1);
		json_object_set_new(j, "uuid", json_string("0a1b2c3d-0000-4000-8000-"
							   "000000000001"));
		assert_int_equal(stored_run_from_json(j, &want, &err), 0);
		assert_same_run(&r, &want);
		stored_run_free(&r);
		stored_run_free(&want);
		json_decref(j);
		assert_int_equal(read_all(f, &err), 2);
		assert_int_equal(export_file_runs(f), 3);
		/* Again from the start, as import's second pass reads it. */
		assert_int_equal(export_file_rewind(f, &err), 0);
		assert_int_equal(read_all(f, &err), 3);
		export_file_close(f);
		free(text);
	}
}

/* text must fail with want; a syntax error where jansson puts it. */
static void expect_file_error(const char *text, const char *want)
{
	char path[PATH_MAX], full[PATH_MAX + 600];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct export_file *f = open_text(text, path, sizeof(path));
	json_error_t jerr;
	json_t *whole;

	assert_int_equal(read_all(f, &err), -1);
	export_file_close(f);
	whole = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!whole && !want)	/* the place; the words may differ */
		snprintf(full, sizeof(full), "%s:%d:%d: not valid JSON: ", path,
			 jerr.line, jerr.column);
	else
		snprintf(full, sizeof(full), "%s: %s", path, want);
	json_decref(whole);
	if (strncmp(err.buf, full, strlen(full)) != 0)
		fail_msg("error '%s' does not start with '%s'", err.buf, full);
}

static void test_export_file_names_the_place(void **state)
{
	char *pretty = export_text(2, JSON_INDENT(2)), *bad, *at;

	/* A syntax error deep in the second run, on its own line. */
	bad = xstrdup(pretty);
	at = strstr(strstr(bad, "000000000002"), "\"samples\"");
	assert_non_null(at);
	at[strlen("\"samples\": [") + 3] = '}';
	expect_file_error(bad, NULL);
	free(bad);
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [\n  {\"uuid\": }\n]}\n",
			  NULL);
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [] x", NULL);
	expect_file_error("{\"clockbench_export\": 1, \"runs\": []", NULL);
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [], \"runs\": []}",
			  NULL);
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [{\"cells\": [], "
			  "\"cells\": []}]}", NULL);
	expect_file_error("", NULL);
	expect_file_error("[1, 2]", "not a clockbench export: expected a JSON object");
	expect_file_error("{\"runs\": []}", "clockbench_export: missing");
	expect_file_error("{\"runs\": [], \"clockbench_export\": 2}",
			  "clockbench_export: format 2 is newer");
	expect_file_error("{\"clockbench_export\": 1, \"runs\": {}}",
			  "runs: expected an array");
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [3]}",
			  "runs[0]: expected a run object, got an integer");
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [{\"cells\": 3}]}",
			  "runs[0].cells: expected an array, got an integer");
	expect_file_error("{\"clockbench_export\": 1, \"runs\": [{\"cells\": []}]}",
			  "runs[0].uuid: missing");

	/* The version may come last (as written by hand, or by other tools). */
	bad = export_text(1, JSON_COMPACT);
	at = strstr(bad, "\"clockbench_export\":1,");
	memmove(at, at + strlen("\"clockbench_export\":1,"),
		strlen(at + strlen("\"clockbench_export\":1,")) + 1);
	strcpy(strrchr(bad, '}'), ",\"clockbench_export\":1}");
	{
		char path[PATH_MAX];
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		struct export_file *f = open_text(bad, path, sizeof(path));

		assert_int_equal(read_all(f, &err), 1);
		export_file_close(f);
	}
	free(bad);
	free(pretty);
}

/* A cell larger than clockbench writes is refused before it is parsed. */
static void test_export_file_bounds_a_cell(void **state)
{
	static const char head[] = "{\"clockbench_export\": 1, \"runs\": [{\"cells\": "
				   "[{\"samples\": [0";
	size_t n = 3 * STORE_SAMPLES_MAX + 2048, len = strlen(head) + 2 * n + 8;
	char *text = xmalloc(len), *p = text;

	p += sprintf(p, "%s", head);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, ",1");
	strcpy(p, "]}]}]}");
	expect_file_error(text, "runs[0].cells[0]: larger than a cell clockbench "
			  "writes");
	free(text);
}

/* ---- finding runs --------------------------------------------------- */

static void test_resolve_by_id_label_and_uuid(void **state)
{
	char path[PATH_MAX], spec[32];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run a, b, c;
	struct store *st;
	int64_t *ids;
	size_t n;

	st = open_ok(new_store(path, sizeof(path), "resolve.db"));
	/* Saved out of time order: a label lists oldest first by start time. */
	fill_run(&a, "base", "vm1", "6.18.44", "2026-11-30T10:00:00Z", 1);
	fill_run(&b, "base", "vm1", "6.18.44", "2026-11-29T10:00:00Z", 1);
	fill_run(&c, "", "vm1", "6.18.44", "2026-11-30T11:00:00Z", 1);
	save_ok(st, &a);
	save_ok(st, &b);
	save_ok(st, &c);

	snprintf(spec, sizeof(spec), "%lld", (long long)c.id);
	assert_int_equal(store_resolve(st, spec, &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(ids[0] == c.id);
	free(ids);

	assert_int_equal(store_resolve(st, "base", &ids, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_true(ids[0] == b.id && ids[1] == a.id);
	free(ids);

	assert_int_equal(store_resolve(st, a.uuid, &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(ids[0] == a.id);
	free(ids);

	assert_int_equal(store_resolve(st, "nope", &ids, &n, &err), -1);
	assert_non_null(strstr(err.buf, "no run or label 'nope'"));
	assert_null(ids);
	assert_int_equal(store_resolve(st, "999", &ids, &n, &err), -1);
	assert_non_null(strstr(err.buf, "no run or label '999'"));

	/* A removed run's id is not given to the next run. */
	assert_int_equal(store_delete_run(st, c.id, &err), 0);
	assert_int_equal(store_delete_run(st, c.id, &err), 1);
	stored_run_free(&c);
	fill_run(&c, "", "vm1", "6.18.44", "2026-11-30T12:00:00Z", 1);
	save_ok(st, &c);
	assert_true(c.id > b.id + 1);
	store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM cells"), 3);
	stored_run_free(&a);
	stored_run_free(&b);
	stored_run_free(&c);
}

static size_t count_matches(struct store *st, const struct run_filter *f)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int64_t *ids;
	size_t n;

	if (store_find_runs(st, f, &ids, &n, &err))
		fail_msg("store_find_runs: %s", err.buf);
	free(ids);
	return n;
}

static void test_filters(void **state)
{
	static const struct {
		const char *label, *host, *kernel, *started;
	} runs[] = {
		{ "before", "vm1", "6.18.44", "2026-11-28T23:59:59Z" },
		{ "after", "vm1", "6.19.0-rc1", "2026-11-29T00:00:00Z" },
		{ "after", "box", "6.19.0-rc1", "2026-11-29T13:50:02Z" },
		{ "", "box", "6.18.44", "2026-11-30T08:00:00Z" },
	};
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct run_filter f;
	struct store *st;
	int64_t *ids;
	size_t n;

	st = open_ok(new_store(path, sizeof(path), "filter.db"));
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		struct stored_run r;

		fill_run(&r, runs[i].label, runs[i].host, runs[i].kernel,
			 runs[i].started, 1);
		save_ok(st, &r);
		stored_run_free(&r);
	}
	memset(&f, 0, sizeof(f));
	assert_int_equal(count_matches(st, &f), 4);
	f.label = "after";
	assert_int_equal(count_matches(st, &f), 2);
	f.host = "box";
	assert_int_equal(count_matches(st, &f), 1);
	memset(&f, 0, sizeof(f));
	f.kernel = "6.18.44";
	assert_int_equal(count_matches(st, &f), 2);
	f.kernel = "6.19*";
	assert_int_equal(count_matches(st, &f), 2);
	f.kernel = "6.1";
	assert_int_equal(count_matches(st, &f), 0);
	memset(&f, 0, sizeof(f));
	f.command = "scale";
	assert_int_equal(count_matches(st, &f), 0);

	/* Dates: a day includes all of it, at either end. */
	memset(&f, 0, sizeof(f));
	f.since = "2026-11-29";
	assert_int_equal(count_matches(st, &f), 3);
	f.until = "2026-11-29";
	assert_int_equal(count_matches(st, &f), 2);
	f.since = "2026-11-29 13:50";
	assert_int_equal(count_matches(st, &f), 1);
	f.since = "2026-11-29T13:50:03";
	assert_int_equal(count_matches(st, &f), 0);
	memset(&f, 0, sizeof(f));
	f.until = "2026-11-28T23:59:59Z";
	assert_int_equal(count_matches(st, &f), 1);
	f.until = "2026-11";
	assert_int_equal(count_matches(st, &f), 4);

	f.until = "2026-11-31";
	assert_int_equal(store_find_runs(st, &f, &ids, &n, &err), -1);
	assert_non_null(strstr(err.buf, "invalid date '2026-11-31'"));
	store_close(st);
}

static void test_date_and_label_checks(void **state)
{
	static const char *const good[] = {
		"2026", "2026-11", "2026-11-30", "2026-11-30T13:50", "2026-11-30 13:50",
		"2026-11-30T13:50:02", "2026-11-30T13:50:02Z", "2028-02-29",
	};
	static const char *const bad[] = {
		"", "26", "2026-1", "2026-11-30T", "2026-11-30T13", "2026/11/30",
		"2026-00-10", "2026-11-31", "2027-02-29", "2026-11-30T24:00",
		"2026-11-30T13:60", "yesterday", "2026-11-30T13:50:02+01:00",
		"2026-11-30x13:50",
	};
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (!store_date_valid(good[i]))
			fail_msg("'%s' should be a valid date", good[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (store_date_valid(bad[i]))
			fail_msg("'%s' should be refused", bad[i]);

	assert_true(store_label_valid("before", &why));
	assert_true(store_label_valid("v6.19-rc1 ns", &why));
	assert_false(store_label_valid("", &why));
	assert_false(store_label_valid("12", &why));
	assert_non_null(strstr(why.buf, "run id"));
	assert_false(store_label_valid("-x", &why));
	assert_false(store_label_valid("a\tb", &why));
	assert_false(store_label_valid("\xff\xfe", &why));
	assert_false(store_label_valid("0a1b2c3d-0000-4000-8000-00000000abcd", &why));
}

/* ---- where the database lives and record_save ------------------------ */

static void test_default_path(void **state)
{
	char buf[PATH_MAX];
	bool dirs;

	SQLITE_ONLY();

	setenv("CLOCKBENCH_DB", "/x/y.db", 1);
	setenv("XDG_DATA_HOME", "/data", 1);
	setenv("HOME", "/home/u", 1);
	store_default_path(buf, sizeof(buf));
	assert_string_equal(buf, "/x/y.db");
	record_db_path(NULL, buf, sizeof(buf), &dirs);
	assert_false(dirs);

	setenv("CLOCKBENCH_DB", "", 1);
	store_default_path(buf, sizeof(buf));
	assert_string_equal(buf, "/data/clockbench/results.db");
	record_db_path(NULL, buf, sizeof(buf), &dirs);
	assert_true(dirs);

	/* A relative XDG_DATA_HOME is ignored, as the spec says. */
	setenv("XDG_DATA_HOME", "rel", 1);
	store_default_path(buf, sizeof(buf));
	assert_string_equal(buf, "/home/u/.local/share/clockbench/results.db");
	unsetenv("XDG_DATA_HOME");
	store_default_path(buf, sizeof(buf));
	assert_string_equal(buf, "/home/u/.local/share/clockbench/results.db");

	record_db_path(&(struct store_options){ .db = "mine.db" }, buf,
		       sizeof(buf), &dirs);
	assert_string_equal(buf, "mine.db");
	assert_false(dirs);
	unsetenv("CLOCKBENCH_DB");
}

static void test_record_save_creates_only_the_default_dir(void **state)
{
	char xdg[PATH_MAX], db[PATH_MAX + 64], path[PATH_MAX];
	struct store_options o = { 0 };
	struct stored_run r;

	SQLITE_ONLY();

	new_path(xdg, sizeof(xdg), "xdg");
	setenv("XDG_DATA_HOME", xdg, 1);
	unsetenv("CLOCKBENCH_DB");
	simple_run(&r, "");
	assert_int_equal(record_save(&o, &r), 0);
	assert_true(r.id > 0);
	snprintf(db, sizeof(db), "%s/clockbench/results.db", xdg);
	assert_true(exists(db));
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs"), 1);
	stored_run_free(&r);

	/* --no-save: nothing written anywhere. */
	o.no_save = true;
	simple_run(&r, "");
	assert_int_equal(record_save(&o, &r), 0);
	assert_int_equal(r.id, 0);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs"), 1);
	stored_run_free(&r);

	/* --db into a missing directory: an error, no directory made. */
	o.no_save = false;
	snprintf(path, sizeof(path), "%s/missing/dir/r.db", tmpdir);
	o.db = path;
	simple_run(&r, "");
	assert_int_equal(record_save(&o, &r), -1);
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	assert_false(exists(path));
	stored_run_free(&r);
	unsetenv("XDG_DATA_HOME");
}

static void test_record_from_bench(void **state)
{
	double ns[] = { 20.5, 21.0, 19.75 }, cy[] = { 50, 52, 49 }, core[] = { 88, 90, 87 };
	struct round_quality rq[2] = {
		{ .ghz = 4.4, .involuntary = 3, .steal_ms = 0, .migrations = 0 },
		{ .ghz = 3.3, .involuntary = 1, .steal_ms = 10, .migrations = 0 },
	};
	json_t *q;
	uint32_t rounds[] = { 0, 0, 1 };
	struct bench_cell cells[3];
	struct store_options o = { .label = "host" };
	struct stored_run sr;
	struct bench_run b;

	memset(&b, 0, sizeof(b));
	memset(cells, 0, sizeof(cells));
	snprintf(b.env.hostname, sizeof(b.env.hostname), "vm1");
	snprintf(b.env.kernel_release, sizeof(b.env.kernel_release), "6.18.44");
	b.env.cpu = 1;
	b.cycles_unit = "TSC ticks";
	b.started.tv_sec = 1796046602 + 86400;	/* 2026-12-01T13:50:02Z */
	b.elapsed_s = 3.25;
	b.interrupted = true;
	b.cfg.budget_s = 0.05;
	b.cells = cells;
	b.ncells = 3;

	cells[0].cell.api = API_CLOCK_GETTIME;
	cells[0].cell.path = PATH_VDSO;
	cells[0].cell.clock = catalog_clock_by_name("monotonic");
	strcpy(cells[0].cell.name, "clock-gettime-monotonic");
	cells[0].measured = true;
	cells[0].res.ns = ns;
	cells[0].res.cycles = cy;
	cells[0].res.core = core;
	cells[0].res.rounds = rounds;
	cells[0].res.nrounds = 2;
	cells[0].res.n = 3;
	cells[0].res.batch_calls = 800;

	cells[1].cell.api = API_TIMES;
	cells[1].cell.path = PATH_VDSO;
	cells[1].cell.status = CELL_NA;
	strcpy(cells[1].cell.name, "times");
	strcpy(cells[1].cell.why, "the kernel's vDSO has no times()");

	cells[2].cell.api = API_TIME;
	cells[2].cell.path = PATH_SYSCALL;
	strcpy(cells[2].cell.name, "time");
	b.cal.core_source = CORE_REFERENCE;
	b.disturb.rounds = rq;
	b.disturb.nrounds = 2;
	quality_of_bench(&b);

	record_from_bench(&b, &o, &sr);
	assert_memory_equal(sr.cells[0].core_cycles, core, sizeof(core));
	q = sr.quality;
	assert_non_null(q);
	assert_int_equal(json_array_size(json_object_get(q, "rounds")), 2);
	assert_int_equal(json_integer_value(json_object_get(q, "slow_rounds")), 1);
	assert_int_equal(json_integer_value(json_object_get(q, "involuntary_switches")), 4);
	assert_true(json_is_object(json_object_get(q, "system")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
			    sr.config, "core_cycles"), "source")), "reference");
	assert_string_equal(sr.command, "bench");
	assert_string_equal(sr.label, "host");
	assert_string_equal(sr.host, "vm1");
	assert_string_equal(sr.kernel, "6.18.44");
	assert_string_equal(sr.started, "2026-12-01T13:50:02Z");
	assert_string_equal(sr.status, "interrupted");
	assert_true(sr.elapsed_s == 3.25);
	assert_int_equal(json_integer_value(json_object_get(sr.env, "cpu")), 1);
	assert_true(json_real_value(json_object_get(json_object_get(sr.config,
				    "method"), "budget_s")) == 0.05);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
			    sr.config, "cycle_counter"), "unit")), "TSC ticks");
	assert_int_equal(sr.ncells, 3);

	assert_string_equal(sr.cells[0].name, "clock-gettime-monotonic");
	assert_string_equal(sr.cells[0].path, "vdso");
	assert_string_equal(sr.cells[0].api, "clock_gettime");
	assert_string_equal(sr.cells[0].clock, "monotonic");
	assert_string_equal(sr.cells[0].status, "ok");
	assert_string_equal(sr.cells[0].unit, "ns");
	assert_string_equal(sr.cells[0].cycles_unit, "TSC ticks");
	assert_true(sr.cells[0].batch_calls == 800);
	assert_int_equal(sr.cells[0].n, 3);
	assert_true(sr.cells[0].values != ns);	/* a copy */
	assert_memory_equal(sr.cells[0].values, ns, sizeof(ns));
	assert_memory_equal(sr.cells[0].cycles, cy, sizeof(cy));
	assert_memory_equal(sr.cells[0].rounds, rounds, sizeof(rounds));
	assert_int_equal(sr.cells[0].nrounds, 2);

	assert_string_equal(sr.cells[1].status, "n/a");
	assert_string_equal(sr.cells[1].reason, "the kernel's vDSO has no times()");
	assert_int_equal(sr.cells[1].n, 0);
	assert_null(sr.cells[1].cycles);

	assert_string_equal(sr.cells[2].status, "not reached");
	assert_string_equal(sr.cells[2].reason, "the run was interrupted");
	assert_string_equal(sr.cells[2].path, "syscall");
	stored_run_free(&sr);
}

/* Issue 15, failure 4: a run the store could not take is kept. */
static void test_spool_keeps_the_run(void **state)
{
	char db[PATH_MAX], other[PATH_MAX], beside[PATH_MAX], statedir[PATH_MAX];
	char file[PATH_MAX + 64], tmp[PATH_MAX + 128];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r, back;
	struct store *st;
	int held;

	SQLITE_ONLY();

	new_path(db, sizeof(db), "spooled.db");
	new_path(other, sizeof(other), "other.db");
	spool_dirs(db, beside, sizeof(beside), statedir, sizeof(statedir));
	/* Nothing can be made beside the store: the state directory takes it. */
	write_file(beside, "x", 1);
	simple_run(&r, "kept");
	stored_run_fill_defaults(&r);
	assert_int_equal(spool_write(db, &r, file, sizeof(file), &err), 0);
	assert_int_equal(strncmp(file, statedir, strlen(statedir)), 0);
	assert_true(exists(file));
	unlink(beside);

	/* A .tmp still being written stays; one whose writer died goes. */
	snprintf(tmp, sizeof(tmp), "%s/dead.json.tmp", statedir);
	write_file(tmp, "{", 1);
	strbuf_setf(&err, "%s/live.json.tmp", statedir);
	write_file(err.buf, "{", 1);
	held = open(err.buf, O_RDONLY);
	assert_int_equal(flock(held, LOCK_EX), 0);

	/* Another store's save finds nothing of it. */
	st = open_ok(other);
	assert_int_equal(spool_import(st, other), 0);
	store_close(st);
	st = open_ok(db);
	assert_int_equal(spool_import(st, db), 1);
	assert_false(exists(file));
	assert_false(exists(tmp));
	assert_true(exists(err.buf));
	close(held);
	assert_int_equal(store_load_run(st, 1, &back, &err), 0);
	assert_same_run(&r, &back);
	stored_run_free(&back);
	store_close(st);
	stored_run_free(&r);
}

static int make_tmpdir(void **state)
{
	const char *base = getenv("TMPDIR");

	char spool[PATH_MAX];

	snprintf(tmpdir, sizeof(tmpdir), "%s/test-store.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	/* A spooled run goes here, never under the user's home. */
	snprintf(spool, sizeof(spool), "%s/state", tmpdir);
	setenv("XDG_STATE_HOME", spool, 1);
	return 0;
}

#if HAVE_LIBPQ
/*
 * Issue 18: 10: a password is out of the shown name however it is spelt,
 * and a server is what libpq reads as one, the scheme in any case.
 */
static void test_display_name_hides_every_password(void **state)
{
	static const struct {
		const char *db, *shown;
	} cases[] = {
		{ "postgresql://u:XSECRET@h/db", "postgresql://u@h/db" },
		{ "postgresql://u@h/db?%70assword=XSECRET", "postgresql://u@h/db?%70assword=***" },
		{ "postgresql://u@h/db?PassWord=XSECRET&x=1", "postgresql://u@h/db?PassWord=***&x=1" },
		{ "postgresql://u:XSE@CRET@h/db", "postgresql://u@h/db" },
		{ "postgresql://h?password=XSE@CRET", "postgresql://h@***" },
		{ "POSTGRESQL://u:XSECRET@h/db", "postgresql://u@h/db" },
		{ "Postgres://u:XSECRET@h/db?sslpassword=XSECRET2", "postgres://u@h/db?sslpassword=***" },
		{ "host=h password=XSECRET dbname=db", "password=*** dbname=db host=h" },
		{ "host=h password = 'XSE CRET' port=5", "password=*** host=h port=5" },
		{ "./results.db", "./results.db" },
		{ "a=b.db", "a=b.db" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *shown = store_display_name(cases[i].db);

		if (!streq(shown, cases[i].shown))
			fail_msg("%s shown as %s, not %s", cases[i].db, shown, cases[i].shown);
		assert_null(strstr(shown, "XSE"));
		assert_null(strstr(shown, "CRET"));
		free(shown);
	}
	assert_true(store_is_url("POSTGRESQL://h/db"));
	assert_true(store_is_url("host=h password=x"));
	assert_false(store_is_url("a=b.db"));
	assert_false(store_is_url("results.db"));
}
#endif

/* Issue 18: 8: a spool directory someone else could write is not written to. */
static void test_spool_shuns_a_shared_directory(void **state)
{
	char db[PATH_MAX], beside[PATH_MAX], statedir[PATH_MAX];
	char file[PATH_MAX + 64], link[PATH_MAX + 16];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;

	new_path(db, sizeof(db), "shared.db");
	spool_dirs(db, beside, sizeof(beside), statedir, sizeof(statedir));
	assert_int_equal(mkdir(beside, 0700), 0);
	assert_int_equal(chmod(beside, 0777), 0);
	simple_run(&r, "kept");
	stored_run_fill_defaults(&r);
	assert_int_equal(spool_write(db, &r, file, sizeof(file), &err), 0);
	assert_int_equal(strncmp(file, statedir, strlen(statedir)), 0);
	unlink(file);
	/* Nor through a symlink planted in its place. */
	assert_int_equal(rmdir(beside), 0);
	snprintf(link, sizeof(link), "%s.real", beside);
	assert_int_equal(mkdir(link, 0700), 0);
	assert_int_equal(symlink(link, beside), 0);
	assert_int_equal(spool_write(db, &r, file, sizeof(file), &err), 0);
	assert_int_equal(strncmp(file, statedir, strlen(statedir)), 0);
	unlink(file);
	unlink(beside);
	rmdir(link);
	stored_run_free(&r);
}

/* Issue 18: 8: a spooled run of a server keeps its name, not its password. */
static void test_spool_keeps_no_password(void **state)
{
	const char *url = "postgresql://u:XSECRET@127.0.0.1:1/db?%70assword=XSECRET2";
	char beside[PATH_MAX], statedir[PATH_MAX], file[PATH_MAX + 64];
	char text[65536];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stored_run r;
	ssize_t n;
	int fd;

	spool_dirs(url, beside, sizeof(beside), statedir, sizeof(statedir));
	assert_string_equal(beside, "");
	simple_run(&r, "kept");
	stored_run_fill_defaults(&r);
	assert_int_equal(spool_write(url, &r, file, sizeof(file), &err), 0);
	fd = open(file, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	assert_true(n > 0);
	text[n] = '\0';
	assert_null(strstr(text, "XSECRET"));
	assert_non_null(strstr(text, "\"store\":\"postgresql://u@127.0.0.1:1/db?%70assword=***\""));
	/* Its directory is named from the URL without the password. */
	spool_dirs("postgresql://u:other@127.0.0.1:1/db?%70assword=other2", beside,
		   sizeof(beside), text, sizeof(text));
	assert_string_equal(text, statedir);
	unlink(file);
	stored_run_free(&r);
}

static int remove_tmpdir(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	on_pg = streq(getenv("CLOCKBENCH_TEST_STORE") ? getenv("CLOCKBENCH_TEST_STORE") : "",
		      "pg");
	if (on_pg && !getenv("CLOCKBENCH_TEST_PG")) {
		printf("1..0 # SKIP no PostgreSQL cluster (scripts/with-postgresql)\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_load_round_trip),
		cmocka_unit_test(test_load_header_has_no_samples),
		cmocka_unit_test(test_interrupted_and_empty_cells),
		cmocka_unit_test(test_migrates_from_version_0),
		cmocka_unit_test(test_migrates_from_version_1),
		cmocka_unit_test(test_migrates_from_version_2),
		cmocka_unit_test(test_migrates_from_version_3),
		cmocka_unit_test(test_core_cycles_kept_as_readings),
		cmocka_unit_test(test_core_cycles_twice_is_damage),
		cmocka_unit_test(test_newer_schema_refused),
		cmocka_unit_test(test_not_sqlite_refused),
		cmocka_unit_test(test_other_programs_database_refused),
		cmocka_unit_test(test_corrupt_file_refused),
		cmocka_unit_test(test_missing_file_not_created),
		cmocka_unit_test(test_read_access_writes_nothing),
		cmocka_unit_test(test_concurrent_writers_all_land),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_validation_names_the_field),
		cmocka_unit_test(test_json_values_within_clockbench_limits),
		cmocka_unit_test(test_json_text_within_clockbench_limits),
		cmocka_unit_test(test_clockbench_runs_fit_the_limits),
		cmocka_unit_test(test_import_twice_is_a_no_op),
		cmocka_unit_test(test_export_file_reads_any_layout),
		cmocka_unit_test(test_export_file_names_the_place),
		cmocka_unit_test(test_export_file_bounds_a_cell),
		cmocka_unit_test(test_resolve_by_id_label_and_uuid),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_date_and_label_checks),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_record_save_creates_only_the_default_dir),
		cmocka_unit_test(test_record_from_bench),
		cmocka_unit_test(test_spool_keeps_the_run),
		cmocka_unit_test(test_spool_keeps_no_password),
		cmocka_unit_test(test_spool_shuns_a_shared_directory),
#if HAVE_LIBPQ
		cmocka_unit_test(test_display_name_hides_every_password),
#endif
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
