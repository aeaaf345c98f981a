// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store's SQLite backend: a file, checked before anything is
 * written to it (not SQLite, corrupt, someone else's database or a newer
 * schema, and it is refused untouched), in WAL mode, read-only for the
 * commands that only read (on read-only storage too).
 *
 * Concurrency: WAL mode and a busy timeout (30 s, or
 * $CLOCKBENCH_BUSY_TIMEOUT); each run is written in one IMMEDIATE
 * transaction, so concurrent writers wait instead of failing and a reader
 * never sees half a run.
 */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/store.h"
#include "results/store-backend.h"

/* "Clkb": marks the file as ours in the SQLite header (PRAGMA application_id). */
#define STORE_APPLICATION_ID 0x436c6b62
/*
 * Concurrent runs wait for each other's short write transactions, 30 s
 * unless $CLOCKBENCH_BUSY_TIMEOUT says otherwise.
 */
#define STORE_BUSY_TIMEOUT_MS 30000
#define LABEL_MAX 64
/* cells.encoding: how the sample blobs of a cell are written. */
enum { SAMPLES_RAW, SAMPLES_COMPACT };

struct sqlite_store {
	sqlite3 *db;
	int timeout_ms;	/* how long to wait for another connection's lock */
	bool busy;	/* the last error was another connection's lock */
	char cause[64];	/* plain_cause()'s words for a lock */
};

static struct sqlite_store *sq(const struct store *st)
{
	return st->impl;
}

/*
 * migrations[v] takes a database from schema version v to v + 1, in the
 * same transaction that sets user_version. Only ever append a step: the
 * released ones have already run on databases in the field.
 */
static const char *const sqlite_migrations[] = {
	/* 0 -> 1: runs and their cells. AUTOINCREMENT: a removed run's id is
	 * never given to another run, so ids quoted in notes stay true. */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  command TEXT NOT NULL,"
	"  label TEXT NOT NULL DEFAULT '',"
	"  host TEXT NOT NULL,"
	"  kernel TEXT NOT NULL,"
	"  started TEXT NOT NULL,"
	"  elapsed_s REAL NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('complete', 'interrupted')),"
	"  env TEXT NOT NULL,"
	"  config TEXT"
	");"
	"CREATE INDEX runs_label ON runs (label);"
	"CREATE INDEX runs_started ON runs (started);"
	"CREATE TABLE cells ("
	"  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  api TEXT NOT NULL,"
	"  clock TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  batch_calls INTEGER NOT NULL,"
	"  n INTEGER NOT NULL,"
	"  samples BLOB,"
	"  cycles BLOB,"
	"  cycles_unit TEXT NOT NULL,"
	"  rounds BLOB,"
	"  PRIMARY KEY (run_id, seq)"
	");",
	/* 1 -> 2: core cycles per sample, and how steady each run's machine was. */
	"ALTER TABLE cells ADD COLUMN core_cycles BLOB;"
	"ALTER TABLE runs ADD COLUMN quality TEXT;",
	/* 2 -> 3: compact samples (0: raw doubles, 1: codec.h), digests, and
	 * each metric's median and CI (the views of store_views_sql(), made
	 * after this step). Old cells keep their blobs, and no summary:
	 * rewriting them would hold the write lock for minutes on a large
	 * store, and both encodings are read. */
	"ALTER TABLE cells ADD COLUMN encoding INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE cells ADD COLUMN digest BLOB;"
	STORE_SUMMARY_COLUMNS("REAL"),
	/* 3 -> 4: core cycles kept as the reference's readings, which make
	 * them again (results/core-replay.h); core_cycles is NULL then. */
	"ALTER TABLE cells ADD COLUMN reference BLOB;",
	/* 4 -> 5: listings count a run's cells, and its measured ones, on
	 * this index, without reading the rows their samples make long. */
	"CREATE INDEX IF NOT EXISTS cells_status ON cells (run_id, status);",
};

_Static_assert(ARRAY_SIZE(sqlite_migrations) == STORE_SCHEMA_VERSION,
	       "STORE_SCHEMA_VERSION must count the migrations");

/*
 * What went wrong in plain words, when SQLite's own are misleading: a full
 * disk is "disk I/O error" when it hits the log's shared memory.
 */
static const char *plain_cause(struct store *st)
{
	int code = sqlite3_extended_errcode(sq(st)->db);
	int sys = sqlite3_system_errno(sq(st)->db);

	switch (code & 0xff) {
	case SQLITE_FULL:
		return "no space left on device";
	case SQLITE_BUSY:
		snprintf(sq(st)->cause, sizeof(sq(st)->cause), "another process holds it "
			 "locked (waited %g s)", sq(st)->timeout_ms / 1000.0);
		return sq(st)->cause;
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
		if (sys == ENOSPC)
			return "no space left on device";
		return sys ? strerror(sys) : NULL;
	}
	if (code == SQLITE_READONLY_DIRECTORY)
		return "cannot create files in its directory";
	return NULL;
}

/* "PATH: what: the cause", with a plain word for the usual causes. */
static void db_err(struct store *st, struct strbuf *err,
		   const char *what)
{
	int code = sqlite3_errcode(sq(st)->db) & 0xff;
	const char *cause = plain_cause(st);

	sq(st)->busy = code == SQLITE_BUSY;
	if (code == SQLITE_CORRUPT)
		strbuf_setf(err, "%s: the database is corrupt (%s: %s)",
			st->name, what, sqlite3_errmsg(sq(st)->db));
	else if (code == SQLITE_NOTADB)
		strbuf_setf(err, "%s: not an SQLite database (%s)", st->name,
			sqlite3_errmsg(sq(st)->db));
	else
		strbuf_setf(err, "%s: %s: %s", st->name, what,
			cause ? cause : sqlite3_errmsg(sq(st)->db));
}

static int exec(struct store *st, const char *sql, const char *what,
		struct strbuf *err)
{
	if (sqlite3_exec(sq(st)->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	db_err(st, err, what);
	return -1;
}

static sqlite3_stmt *prepare(struct store *st, const char *sql, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(sq(st)->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		db_err(st, err, "reading the database");
		return NULL;
	}
	return stmt;
}

static void sqlite_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(sq(st)->db))
		sqlite3_exec(sq(st)->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- opening: check, then switch to WAL, then migrate ---------------- */

/* Whether the directory that would hold path exists. */
static bool parent_dir_exists(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	struct stat sb;

	if (!slash) {
		snprintf(dir, len, ".");
		return true;
	}
	snprintf(dir, len, "%.*s", (int)(slash - path), path);
	if (slash == path)
		snprintf(dir, len, "/");
	return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* What is at path before SQLite sees it. *create: nothing yet. */
/*
 * SQLite follows a symbolic link itself, and creates its target: a link is
 * taken only to an existing store, never to a name that would be created
 * (or an empty file written) at the other end.
 */
int store_check_link(const char *path, struct strbuf *err)
{
	struct stat sb;

	bool there;

	if (lstat(path, &sb) != 0 || !S_ISLNK(sb.st_mode))
		return 0;
	there = stat(path, &sb) == 0;
	if (there && !(S_ISREG(sb.st_mode) && sb.st_size == 0))
		return 0;
	strbuf_setf(err, "%s is a symbolic link to %s: a store is read through a "
		    "link only when one is there (give the path itself)", path,
		    there ? "an empty file" : "a file that does not exist");
	return -1;
}

static int check_path(const char *path, enum store_access access, bool *create,
		      struct strbuf *err)
{
	char dir[PATH_MAX];
	struct stat sb;

	*create = false;
	if (!path || !*path) {
		strbuf_setf(err, "no path for the results database "
			"(set HOME or XDG_DATA_HOME, or give --db)");
		return -1;
	}
	if (store_check_link(path, err))
		return -1;
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			strbuf_setf(err, "%s is a directory, not a results database",
				path);
			return -1;
		}
		if (!S_ISREG(sb.st_mode)) {
			strbuf_setf(err, "%s is not a regular file", path);
			return -1;
		}
		/* SQLite would write a schema into it; only a saving command may. */
		if (sb.st_size == 0 && access != STORE_WRITE) {
			strbuf_setf(err, "no results database at %s (the file is "
				"empty)", path);
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		strbuf_setf(err, "cannot access %s: %s", path, strerror(errno));
		return -1;
	}
	if (access != STORE_WRITE) {
		strbuf_setf(err, "no results database at %s", path);
		return -1;
	}
	if (!parent_dir_exists(path, dir, sizeof(dir))) {
		strbuf_setf(err, "cannot create %s: directory %s does not exist",
			path, dir);
		return -1;
	}
	*create = true;
	return 0;
}

/*
 * Read-only checks: is it SQLite, is it ours, is its schema one we know.
 * *version gets the schema version.
 */
static int check_identity(struct store *st, int64_t *version, struct strbuf *err)
{
	sqlite3_stmt *stmt;
	int64_t appid, ntables;
	int rc;

	/* One statement, one snapshot: a concurrent migration is all or nothing. */
	stmt = prepare(st, "SELECT (SELECT application_id FROM pragma_application_id),"
		       " (SELECT user_version FROM pragma_user_version),"
		       " (SELECT count(*) FROM sqlite_master)", err);
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		db_err(st, err, "reading the database");
		sqlite3_finalize(stmt);
		return -1;
	}
	appid = sqlite3_column_int64(stmt, 0);
	*version = sqlite3_column_int64(stmt, 1);
	ntables = sqlite3_column_int64(stmt, 2);
	sqlite3_finalize(stmt);
	if (appid != 0 && appid != STORE_APPLICATION_ID) {
		strbuf_setf(err, "%s: an SQLite database of another program "
			"(application id 0x%08llx), not a clockbench results database",
			st->name, (unsigned long long)appid);
		return -1;
	}
	if (appid == 0 && ntables > 0) {
		strbuf_setf(err, "%s: an SQLite database with tables but not a "
			"clockbench results database", st->name);
		return -1;
	}
	if (*version > STORE_SCHEMA_VERSION) {
		strbuf_setf(err, "%s: database schema version %lld is newer than "
			"this clockbench supports (%d); use a newer clockbench",
			st->name, (long long)*version, STORE_SCHEMA_VERSION);
		return -1;
	}
	if (*version < 0) {
		strbuf_setf(err, "%s: invalid schema version %lld", st->name,
			(long long)*version);
		return -1;
	}
	return 0;
}

/* quick_check's report on one line: "*** in database main ***\nPage 2: .." */
static void corrupt_err(struct store *st, const char *report, struct strbuf *err)
{
	static const char banner[] = "*** in database main ***\n";
	char *line = xstrdup(report ? report : "integrity check failed");
	char *p = line;

	if (!strncmp(p, banner, sizeof(banner) - 1))
		p += sizeof(banner) - 1;
	for (char *q = p; *q; q++)
		if (*q == '\n')
			*q = ' ';
	strbuf_setf(err, "%s: the database is corrupt (%s)", st->name, p);
	free(line);
}

/* Every page's structure, read-only: before the first write to a file. */
static int check_integrity(struct store *st, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA quick_check(1)", err);
	const char *res;
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		db_err(st, err, "checking its integrity");
		sqlite3_finalize(stmt);
		return -1;
	}
	res = (const char *)sqlite3_column_text(stmt, 0);
	rc = streq(res, "ok") ? 0 : -1;
	if (rc)
		corrupt_err(st, res, err);
	sqlite3_finalize(stmt);
	return rc;
}

static int set_wal_mode(struct store *st, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA journal_mode = WAL", err);
	const char *mode;
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
	if (!mode)
		db_err(st, err, "switching to WAL mode");
	else if (!streq(mode, "wal"))
		strbuf_setf(err, "%s: cannot use WAL mode (journal mode stays %s)",
			st->name, mode);
	rc = mode && streq(mode, "wal") ? 0 : -1;
	sqlite3_finalize(stmt);
	return rc;
}

static bool wal_mode(struct store *st)
{
	_cleanup_strbuf_ struct strbuf ignored = STRBUF_INIT;
	sqlite3_stmt *stmt = prepare(st, "PRAGMA journal_mode", &ignored);
	bool wal = false;

	if (stmt && sqlite3_step(stmt) == SQLITE_ROW)
		wal = streq((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	return wal;
}

static int exec_views(struct store *st, struct strbuf *err)
{
	char *sql = store_views_sql("r.started");
	int rc = exec(st, sql, "upgrading the schema", err);

	free(sql);
	return rc;
}

/* Bring the schema to STORE_SCHEMA_VERSION, in one write transaction. */
static int migrate(struct store *st, struct strbuf *err)
{
	char sql[64];
	int64_t version;

	if (exec(st, "BEGIN IMMEDIATE", "starting the schema upgrade", err))
		return -1;
	/* Another process may have migrated while this one waited. */
	if (check_identity(st, &version, err))
		goto fail;
	for (int64_t v = version; v < STORE_SCHEMA_VERSION; v++)
		if (exec(st, sqlite_migrations[v], "upgrading the schema", err) ||
		    (v == 2 && exec_views(st, err)))
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	if (exec(st, sql, "upgrading the schema", err) ||
	    exec(st, "COMMIT", "upgrading the schema", err))
		goto fail;
	return 0;
fail:
	sqlite_rollback(st);
	return -1;
}

static int prepare_database(struct store *st, enum store_access access,
			    struct strbuf *err)
{
	int64_t version;
	bool wal;

	if (check_identity(st, &version, err))
		return -1;
	wal = wal_mode(st);
	/* Nothing has been written yet: check everything before the first write. */
	if (check_integrity(st, err))
		return -1;
	if (!wal && set_wal_mode(st, err))
		return -1;
	if (version < STORE_SCHEMA_VERSION && migrate(st, err))
		return -1;
	st->version = STORE_SCHEMA_VERSION;
	/*
	 * NORMAL: in WAL mode a commit survives a crash of the process and
	 * the file is never corrupted; a power cut may lose the last runs.
	 */
	return exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
		    "setting up the connection", err);
}

/*
 * Switching to WAL needs the only lock on the file, and SQLite does not
 * wait for it (waiting could deadlock two connections that each hold a
 * shared lock), so several processes creating one database at once get
 * SQLITE_BUSY. They back off a few milliseconds (spread by pid) and try
 * again, within the busy timeout; by then one has switched and the rest
 * find WAL set.
 */
static int prepare_with_retries(struct store *st, enum store_access access,
				struct strbuf *err)
{
	uint64_t deadline = now_ns() + (uint64_t)sq(st)->timeout_ms * 1000000ull;
	unsigned int attempt = 0;

	for (;;) {
		sq(st)->busy = false;
		if (prepare_database(st, access, err) == 0)
			return 0;
		if (!sq(st)->busy || now_ns() > deadline)
			return -1;
		attempt++;
		usleep(1000 + ((unsigned int)getpid() * 7919u + attempt * 104729u) % 9000);
	}
}

/* $CLOCKBENCH_BUSY_TIMEOUT ("30", "200ms", "0"), else 30 s. */
static int busy_timeout_ms(void)
{
	const char *env = getenv("CLOCKBENCH_BUSY_TIMEOUT");
	double s;

	if (env && streq(env, "0"))
		return 0;
	if (env && parse_duration(env, &s) && s < 86400)
		return (int)(s * 1000);
	return STORE_BUSY_TIMEOUT_MS;
}

static int open_db(struct store *st, const char *name, int flags,
		   struct strbuf *err)
{
	int rc = sqlite3_open_v2(name, &sq(st)->db, flags, NULL);

	if (rc != SQLITE_OK) {
		strbuf_setf(err, "cannot open %s: %s", st->name,
			sq(st)->db ? sqlite3_errmsg(sq(st)->db) : sqlite3_errstr(rc));
		sqlite3_close(sq(st)->db);
		sq(st)->db = NULL;
		return -1;
	}
	sqlite3_extended_result_codes(sq(st)->db, 1);
	sqlite3_busy_timeout(sq(st)->db, sq(st)->timeout_ms);
	return 0;
}

/* A read-only connection: the schema checked, nothing migrated or set. */
static int prepare_reading(struct store *st, struct strbuf *err)
{
	int64_t version;

	if (check_identity(st, &version, err))
		return -1;
	if (version == 0) {
		strbuf_setf(err, "no results database at %s (an SQLite file "
			"without clockbench's tables)", st->name);
		return -1;
	}
	st->version = version;
	return exec(st, "PRAGMA query_only = ON", "setting up the connection",
		    err);
}

/*
 * Reading a WAL database needs its -shm file, which SQLite creates, even
 * for reading, beside the database. It cannot in a read-only directory,
 * on read-only or full storage, or next to someone else's files.
 */
static bool shared_memory_failed(struct store *st)
{
	int code = sqlite3_extended_errcode(sq(st)->db);

	switch (code & 0xff) {
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
		return true;
	case SQLITE_IOERR:
		return code == SQLITE_IOERR_SHMOPEN || code == SQLITE_IOERR_SHMSIZE ||
		       code == SQLITE_IOERR_SHMMAP || code == SQLITE_IOERR_SHMLOCK;
	}
	return false;
}

/* "file:PATH?query", with what URIs reserve in PATH escaped. */
static char *file_uri(const char *path, const char *query)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "file:");
	while (path[0] == '/' && path[1] == '/')
		path++;		/* "file://x" would name a host */
	for (const char *p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			strbuf_addf(&sb, "%%%02X", (unsigned char)*p);
		else
			strbuf_addch(&sb, *p);
	}
	strbuf_addf(&sb, "?%s", query);
	return strbuf_detach(&sb);
}

/* Runs saved to the write-ahead log but not yet to the file itself. */
static void note_unread_log(struct store *st)
{
	_cleanup_strbuf_ struct strbuf wal = STRBUF_INIT, warning = STRBUF_INIT;
	struct stat sb;

	strbuf_addf(&wal, "%s-wal", st->name);
	if (stat(wal.buf, &sb) != 0 || sb.st_size == 0)
		return;
	strbuf_addf(&warning, "%s: read without %s, which cannot be opened here: "
		    "the latest runs may be missing", st->name, wal.buf);
	free(st->warning);
	st->warning = strbuf_detach(&warning);
}

/*
 * mode=ro first; when the log's shared memory cannot be set up, the file
 * as it is (immutable: no locks, no -shm), which is all a read-only
 * directory or disk can hold anyway.
 */
static int open_read_only(struct store *st, struct strbuf *err)
{
	char *uri;
	int rc;

	if (open_db(st, st->name, SQLITE_OPEN_READONLY, err))
		return -1;
	if (prepare_reading(st, err) == 0)
		return 0;
	if (!shared_memory_failed(st))
		return -1;
	sqlite3_close(sq(st)->db);
	sq(st)->db = NULL;
	uri = file_uri(st->name, "immutable=1");
	rc = open_db(st, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err);
	free(uri);
	if (rc || prepare_reading(st, err))
		return -1;
	note_unread_log(st);
	return 0;
}

/* A connection that writes: refused when the file itself is read-only. */
static int open_read_write(struct store *st, enum store_access how,
			   bool create, struct strbuf *err)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (open_db(st, st->name, flags, err))
		return -1;
	/* SQLite falls back to read-only silently; a save would then fail. */
	if (sqlite3_db_readonly(sq(st)->db, "main") == 1) {
		strbuf_setf(err, "%s: cannot write to it: %s", st->name,
			access(st->name, W_OK) ? strerror(errno) : "read-only");
		return -1;
	}
	return prepare_with_retries(st, how, err);
}

/* ---- statements ------------------------------------------------------ */

static void bind_params(sqlite3_stmt *stmt, const struct sql_param *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int col = (int)i + 1;

		switch (p[i].type) {
		case SQL_NULL:
			sqlite3_bind_null(stmt, col);
			break;
		case SQL_INT:
			sqlite3_bind_int64(stmt, col, p[i].i);
			break;
		case SQL_DOUBLE:
			sqlite3_bind_double(stmt, col, p[i].d);
			break;
		case SQL_TEXT:
			sqlite3_bind_text(stmt, col, p[i].p, -1, SQLITE_STATIC);
			break;
		case SQL_BLOB:
			sqlite3_bind_blob64(stmt, col, p[i].p, p[i].len, SQLITE_STATIC);
			break;
		}
	}
}

static const struct store_ops sqlite_ops;

static int sqlite_run(struct store *st, const char *sql,
		      const struct sql_param *params, size_t nparams,
		      sql_row_fn fn, void *ctx, const char *what,
		      struct strbuf *err)
{
	struct sql_row row = { &sqlite_ops, NULL, 0 };
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (sqlite3_prepare_v2(sq(st)->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		db_err(st, err, what);
		return -1;
	}
	bind_params(stmt, params, nparams);
	row.impl = stmt;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int stop = fn ? fn(&row, ctx) : 0;

		row.index++;
		if (stop) {
			sqlite3_finalize(stmt);
			return stop;
		}
	}
	if (rc != SQLITE_DONE)
		db_err(st, err, what);
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int sqlite_begin(struct store *st, bool write, const char *what,
			struct strbuf *err)
{
	return exec(st, write ? "BEGIN IMMEDIATE" : "BEGIN", what, err);
}

static int sqlite_commit(struct store *st, const char *what, struct strbuf *err)
{
	return exec(st, "COMMIT", what, err);
}

/* Take the write lock without waiting for it, and let it go. */
static int sqlite_probe_write(struct store *st, struct strbuf *err)
{
	int rc;

	sqlite3_busy_timeout(sq(st)->db, 0);
	sq(st)->busy = false;
	rc = exec(st, "BEGIN IMMEDIATE", "taking the write lock", err);
	sqlite_rollback(st);
	sqlite3_busy_timeout(sq(st)->db, sq(st)->timeout_ms);
	if (rc && sq(st)->busy)
		strbuf_setf(err, "%s: another process holds it locked",
			    st->name);
	return rc == 0 ? 0 : sq(st)->busy ? 1 : -1;
}

static void sqlite_close(struct store *st)
{
	if (st->impl)
		sqlite3_close(sq(st)->db);
	free(st->impl);
	st->impl = NULL;
}

static sqlite3_stmt *stmt_of(const struct sql_row *r)
{
	return r->impl;
}

static bool sqlite_is_null(const struct sql_row *r, int col)
{
	return sqlite3_column_type(stmt_of(r), col) == SQLITE_NULL;
}

static int64_t sqlite_get_int(const struct sql_row *r, int col)
{
	return sqlite3_column_int64(stmt_of(r), col);
}

static double sqlite_get_double(const struct sql_row *r, int col)
{
	return sqlite3_column_double(stmt_of(r), col);
}

static const char *sqlite_get_text(const struct sql_row *r, int col)
{
	const unsigned char *s = sqlite3_column_text(stmt_of(r), col);

	return s ? (const char *)s : "";
}

static const void *sqlite_get_blob(const struct sql_row *r, int col, size_t *len)
{
	const void *b = sqlite3_column_blob(stmt_of(r), col);

	*len = (size_t)sqlite3_column_bytes(stmt_of(r), col);
	/* A zero-length blob reads as NULL: tell it from SQL NULL. */
	if (!b && !sqlite_is_null(r, col))
		return "";
	return b;
}

static const struct store_ops sqlite_ops = {
	.engine = "SQLite",
	.run = sqlite_run,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.probe_write = sqlite_probe_write,
	.close = sqlite_close,
	.is_null = sqlite_is_null,
	.get_int = sqlite_get_int,
	.get_double = sqlite_get_double,
	.get_text = sqlite_get_text,
	.get_blob = sqlite_get_blob,
};

int store_sqlite_open(struct store *st, const char *path,
		      enum store_access access, struct strbuf *err)
{
	bool create;
	int rc;

	if (check_path(path, access, &create, err))
		return -1;
	st->ops = &sqlite_ops;
	st->impl = xcalloc(1, sizeof(struct sqlite_store));
	st->name = xstrdup(path);
	sq(st)->timeout_ms = busy_timeout_ms();
	if (access == STORE_READ)
		rc = open_read_only(st, err);
	else
		rc = open_read_write(st, access, create, err);
	return rc;
}
