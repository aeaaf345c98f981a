// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store in SQLite.
 *
 * Samples are kept as one BLOB per cell and metric, not a row per sample.
 * A full bench run holds over half a million samples; as rows they would
 * cost some 40 bytes each plus an index entry and make every save slow,
 * and buy nothing, since statistics always read a cell's samples whole.
 * Since schema 3 a blob is the compact encoding of results/codec.h (a
 * default bench run: 14.3 MB as raw doubles, about 2.7 MB encoded),
 * bit-exact; cells.encoding says which: 0 for the n little-endian doubles
 * of schemas 1 and 2, which are read as they are. Beside the samples, a
 * cell measured in rounds keeps its digest (results/digest.h), all that
 * compare reads. Per-sample rows are what `clockbench export --format csv`
 * gives.
 *
 * A file is checked before anything is written to it: not SQLite, corrupt,
 * someone else's database or a newer schema, and it is refused untouched.
 */
#include "results/store.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/codec.h"
#include "results/digest.h"

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

struct store {
	sqlite3 *db;
	char *path;
	int timeout_ms;	/* how long to wait for another connection's lock */
	bool busy;	/* the last error was another connection's lock */
	char cause[64];	/* plain_cause()'s words for a lock */
	char warning[PATH_MAX + 128];	/* what a reader should know, or "" */
	/*
	 * The schema of the file: a read-only connection to an older one
	 * reads what it has (NULL for the columns a later migration adds).
	 */
	int64_t version;
};

/*
 * migrations[v] takes a database from schema version v to v + 1, in the
 * same transaction that sets user_version. Only ever append a step: the
 * released ones have already run on databases in the field.
 */
static const char *const migrations[] = {
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
	/* 2 -> 3: compact samples (0: raw doubles, 1: codec.h) and digests.
	 * Old cells keep their blobs: rewriting them would hold the write
	 * lock for minutes on a large store, and both encodings are read. */
	"ALTER TABLE cells ADD COLUMN encoding INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE cells ADD COLUMN digest BLOB;",
};

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION,
	       "STORE_SCHEMA_VERSION must count the migrations");

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	_printf_(3, 4);
static const char *find_control(const char *s);
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * What went wrong in plain words, when SQLite's own are misleading: a full
 * disk is "disk I/O error" when it hits the log's shared memory.
 */
static const char *plain_cause(struct store *st)
{
	int code = sqlite3_extended_errcode(st->db);
	int sys = sqlite3_system_errno(st->db);

	switch (code & 0xff) {
	case SQLITE_FULL:
		return "no space left on device";
	case SQLITE_BUSY:
		snprintf(st->cause, sizeof(st->cause), "another process holds it "
			 "locked (waited %g s)", st->timeout_ms / 1000.0);
		return st->cause;
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
static void db_err(struct store *st, char *err, size_t errlen,
		   const char *what)
{
	int code = sqlite3_errcode(st->db) & 0xff;
	const char *cause = plain_cause(st);

	st->busy = code == SQLITE_BUSY;
	if (code == SQLITE_CORRUPT)
		set_err(err, errlen, "%s: the database is corrupt (%s: %s)",
			st->path, what, sqlite3_errmsg(st->db));
	else if (code == SQLITE_NOTADB)
		set_err(err, errlen, "%s: not an SQLite database (%s)", st->path,
			sqlite3_errmsg(st->db));
	else
		set_err(err, errlen, "%s: %s: %s", st->path, what,
			cause ? cause : sqlite3_errmsg(st->db));
}

static int exec(struct store *st, const char *sql, const char *what, char *err,
		size_t errlen)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	db_err(st, err, errlen, what);
	return -1;
}

static sqlite3_stmt *prepare(struct store *st, const char *sql, char *err,
			     size_t errlen)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		db_err(st, err, errlen, "reading the database");
		return NULL;
	}
	return stmt;
}

static void rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- where the database lives --------------------------------------- */

void store_default_path(char *buf, size_t len)
{
	const char *env = getenv("CLOCKBENCH_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	/* The XDG spec: a relative XDG_DATA_HOME is invalid and ignored. */
	if (xdg && xdg[0] == '/') {
		snprintf(buf, len, "%s/clockbench/results.db", xdg);
		return;
	}
	if (!home || home[0] != '/') {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (home && home[0] == '/')
		snprintf(buf, len, "%s/.local/share/clockbench/results.db", home);
	else if (len)
		buf[0] = '\0';
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
static int check_path(const char *path, enum store_access access, bool *create,
		      char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat sb;

	*create = false;
	if (!path || !*path) {
		set_err(err, errlen, "no path for the results database "
			"(set HOME or XDG_DATA_HOME, or give --db)");
		return -1;
	}
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			set_err(err, errlen, "%s is a directory, not a results database",
				path);
			return -1;
		}
		if (!S_ISREG(sb.st_mode)) {
			set_err(err, errlen, "%s is not a regular file", path);
			return -1;
		}
		/* SQLite would write a schema into it; only a saving command may. */
		if (sb.st_size == 0 && access != STORE_WRITE) {
			set_err(err, errlen, "no results database at %s (the file is "
				"empty)", path);
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		set_err(err, errlen, "cannot access %s: %s", path, strerror(errno));
		return -1;
	}
	if (access != STORE_WRITE) {
		set_err(err, errlen, "no results database at %s", path);
		return -1;
	}
	if (!parent_dir_exists(path, dir, sizeof(dir))) {
		set_err(err, errlen, "cannot create %s: directory %s does not exist",
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
static int check_identity(struct store *st, int64_t *version, char *err,
			  size_t errlen)
{
	sqlite3_stmt *stmt;
	int64_t appid, ntables;
	int rc;

	/* One statement, one snapshot: a concurrent migration is all or nothing. */
	stmt = prepare(st, "SELECT (SELECT application_id FROM pragma_application_id),"
		       " (SELECT user_version FROM pragma_user_version),"
		       " (SELECT count(*) FROM sqlite_master)", err, errlen);
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		db_err(st, err, errlen, "reading the database");
		sqlite3_finalize(stmt);
		return -1;
	}
	appid = sqlite3_column_int64(stmt, 0);
	*version = sqlite3_column_int64(stmt, 1);
	ntables = sqlite3_column_int64(stmt, 2);
	sqlite3_finalize(stmt);
	if (appid != 0 && appid != STORE_APPLICATION_ID) {
		set_err(err, errlen, "%s: an SQLite database of another program "
			"(application id 0x%08llx), not a clockbench results database",
			st->path, (unsigned long long)appid);
		return -1;
	}
	if (appid == 0 && ntables > 0) {
		set_err(err, errlen, "%s: an SQLite database with tables but not a "
			"clockbench results database", st->path);
		return -1;
	}
	if (*version > STORE_SCHEMA_VERSION) {
		set_err(err, errlen, "%s: database schema version %lld is newer than "
			"this clockbench supports (%d); use a newer clockbench",
			st->path, (long long)*version, STORE_SCHEMA_VERSION);
		return -1;
	}
	if (*version < 0) {
		set_err(err, errlen, "%s: invalid schema version %lld", st->path,
			(long long)*version);
		return -1;
	}
	return 0;
}

/* quick_check's report on one line: "*** in database main ***\nPage 2: .." */
static void corrupt_err(struct store *st, const char *report, char *err,
			size_t errlen)
{
	static const char banner[] = "*** in database main ***\n";
	char *line = xstrdup(report ? report : "integrity check failed");
	char *p = line;

	if (!strncmp(p, banner, sizeof(banner) - 1))
		p += sizeof(banner) - 1;
	for (char *q = p; *q; q++)
		if (*q == '\n')
			*q = ' ';
	set_err(err, errlen, "%s: the database is corrupt (%s)", st->path, p);
	free(line);
}

/* Every page's structure, read-only: before the first write to a file. */
static int check_integrity(struct store *st, char *err, size_t errlen)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA quick_check(1)", err, errlen);
	const char *res;
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		db_err(st, err, errlen, "checking its integrity");
		sqlite3_finalize(stmt);
		return -1;
	}
	res = (const char *)sqlite3_column_text(stmt, 0);
	rc = streq(res, "ok") ? 0 : -1;
	if (rc)
		corrupt_err(st, res, err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

static int set_wal_mode(struct store *st, char *err, size_t errlen)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA journal_mode = WAL", err, errlen);
	const char *mode;
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
	if (!mode)
		db_err(st, err, errlen, "switching to WAL mode");
	else if (!streq(mode, "wal"))
		set_err(err, errlen, "%s: cannot use WAL mode (journal mode stays %s)",
			st->path, mode);
	rc = mode && streq(mode, "wal") ? 0 : -1;
	sqlite3_finalize(stmt);
	return rc;
}

static bool wal_mode(struct store *st)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA journal_mode", NULL, 0);
	bool wal = false;

	if (stmt && sqlite3_step(stmt) == SQLITE_ROW)
		wal = streq((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	return wal;
}

/* Bring the schema to STORE_SCHEMA_VERSION, in one write transaction. */
static int migrate(struct store *st, char *err, size_t errlen)
{
	char sql[64];
	int64_t version;

	if (exec(st, "BEGIN IMMEDIATE", "starting the schema upgrade", err, errlen))
		return -1;
	/* Another process may have migrated while this one waited. */
	if (check_identity(st, &version, err, errlen))
		goto fail;
	for (int64_t v = version; v < STORE_SCHEMA_VERSION; v++)
		if (exec(st, migrations[v], "upgrading the schema", err, errlen))
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	if (exec(st, sql, "upgrading the schema", err, errlen) ||
	    exec(st, "COMMIT", "upgrading the schema", err, errlen))
		goto fail;
	return 0;
fail:
	rollback(st);
	return -1;
}

static int prepare_database(struct store *st, enum store_access access,
			    char *err, size_t errlen)
{
	int64_t version;
	bool wal;

	if (check_identity(st, &version, err, errlen))
		return -1;
	wal = wal_mode(st);
	/* Nothing has been written yet: check everything before the first write. */
	if (check_integrity(st, err, errlen))
		return -1;
	if (!wal && set_wal_mode(st, err, errlen))
		return -1;
	if (version < STORE_SCHEMA_VERSION && migrate(st, err, errlen))
		return -1;
	st->version = STORE_SCHEMA_VERSION;
	/*
	 * NORMAL: in WAL mode a commit survives a crash of the process and
	 * the file is never corrupted; a power cut may lose the last runs.
	 */
	return exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
		    "setting up the connection", err, errlen);
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
				char *err, size_t errlen)
{
	uint64_t deadline = now_ns() + (uint64_t)st->timeout_ms * 1000000ull;
	unsigned int attempt = 0;

	for (;;) {
		st->busy = false;
		if (prepare_database(st, access, err, errlen) == 0)
			return 0;
		if (!st->busy || now_ns() > deadline)
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

static int open_db(struct store *st, const char *name, int flags, char *err,
		   size_t errlen)
{
	int rc = sqlite3_open_v2(name, &st->db, flags, NULL);

	if (rc != SQLITE_OK) {
		set_err(err, errlen, "cannot open %s: %s", st->path,
			st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
		sqlite3_close(st->db);
		st->db = NULL;
		return -1;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, st->timeout_ms);
	return 0;
}

/* A read-only connection: the schema checked, nothing migrated or set. */
static int prepare_reading(struct store *st, char *err, size_t errlen)
{
	int64_t version;

	if (check_identity(st, &version, err, errlen))
		return -1;
	if (version == 0) {
		set_err(err, errlen, "no results database at %s (an SQLite file "
			"without clockbench's tables)", st->path);
		return -1;
	}
	st->version = version;
	return exec(st, "PRAGMA query_only = ON", "setting up the connection",
		    err, errlen);
}

/*
 * Reading a WAL database needs its -shm file, which SQLite creates, even
 * for reading, beside the database. It cannot in a read-only directory,
 * on read-only or full storage, or next to someone else's files.
 */
static bool shared_memory_failed(struct store *st)
{
	int code = sqlite3_extended_errcode(st->db);

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
	char wal[PATH_MAX + 8];
	struct stat sb;

	snprintf(wal, sizeof(wal), "%s-wal", st->path);
	if (stat(wal, &sb) == 0 && sb.st_size > 0)
		snprintf(st->warning, sizeof(st->warning), "%s: read without %s, "
			 "which cannot be opened here: the latest runs may be "
			 "missing", st->path, wal);
}

/*
 * mode=ro first; when the log's shared memory cannot be set up, the file
 * as it is (immutable: no locks, no -shm), which is all a read-only
 * directory or disk can hold anyway.
 */
static int open_read_only(struct store *st, char *err, size_t errlen)
{
	char *uri;
	int rc;

	if (open_db(st, st->path, SQLITE_OPEN_READONLY, err, errlen))
		return -1;
	if (prepare_reading(st, err, errlen) == 0)
		return 0;
	if (!shared_memory_failed(st))
		return -1;
	sqlite3_close(st->db);
	st->db = NULL;
	uri = file_uri(st->path, "immutable=1");
	rc = open_db(st, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err, errlen);
	free(uri);
	if (rc || prepare_reading(st, err, errlen))
		return -1;
	note_unread_log(st);
	return 0;
}

/* A connection that writes: refused when the file itself is read-only. */
static int open_read_write(struct store *st, enum store_access how,
			   bool create, char *err, size_t errlen)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (open_db(st, st->path, flags, err, errlen))
		return -1;
	/* SQLite falls back to read-only silently; a save would then fail. */
	if (sqlite3_db_readonly(st->db, "main") == 1) {
		set_err(err, errlen, "%s: cannot write to it: %s", st->path,
			access(st->path, W_OK) ? strerror(errno) : "read-only");
		return -1;
	}
	return prepare_with_retries(st, how, err, errlen);
}

struct store *store_open_access(const char *path, enum store_access access,
				char *err, size_t errlen)
{
	struct store *st;
	bool create;
	int rc;

	if (check_path(path, access, &create, err, errlen))
		return NULL;
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->timeout_ms = busy_timeout_ms();
	if (access == STORE_READ)
		rc = open_read_only(st, err, errlen);
	else
		rc = open_read_write(st, access, create, err, errlen);
	if (rc) {
		store_close(st);
		return NULL;
	}
	return st;
}

const char *store_warning(const struct store *st)
{
	return st->warning[0] ? st->warning : NULL;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	return store_open_access(path, STORE_WRITE, err, errlen);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

/* ---- samples: schema 1 and 2's raw doubles, else codec.h -------------- */

static double *decode_doubles(const unsigned char *p, size_t n)
{
	double *x = xmalloc(n * sizeof(double));

	for (size_t i = 0; i < n; i++) {
		uint64_t bits = 0;

		for (int b = 0; b < 8; b++)
			bits |= (uint64_t)*p++ << (8 * b);
		memcpy(&x[i], &bits, 8);
	}
	return x;
}

/*
 * Rounds as (round, count) pairs of little-endian uint32: a cell's samples
 * come round after round, so a few pairs stand for every sample.
 */
static void put_u32(unsigned char **p, uint32_t v)
{
	for (int b = 0; b < 4; b++)
		*(*p)++ = (unsigned char)(v >> (8 * b));
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void *encode_rounds(const uint32_t *r, size_t n, size_t *bytes)
{
	unsigned char *buf = xmalloc(n * 8), *p = buf;

	for (size_t i = 0; i < n; ) {
		size_t k = i;

		while (k < n && r[k] == r[i] && k - i < UINT32_MAX)
			k++;
		put_u32(&p, r[i]);
		put_u32(&p, (uint32_t)(k - i));
		i = k;
	}
	*bytes = (size_t)(p - buf);
	return buf;
}

/* Rounds are numbered from 0: the count is the last one's number + 1. */
uint32_t stored_cell_count_rounds(const uint32_t *r, size_t n)
{
	uint32_t max = 0;

	if (!r || !n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (r[i] > max)
			max = r[i];
	return max == UINT32_MAX ? max : max + 1;
}

/* NULL when the pairs do not add up to n samples. */
static uint32_t *decode_rounds(const unsigned char *p, size_t bytes, size_t n)
{
	uint32_t *r = xmalloc((n ? n : 1) * sizeof(uint32_t));
	size_t have = 0;

	for (size_t off = 0; off + 8 <= bytes; off += 8) {
		uint32_t round = get_u32(p + off), count = get_u32(p + off + 4);

		if (count > n - have) {
			free(r);
			return NULL;
		}
		for (uint32_t k = 0; k < count; k++)
			r[have++] = round;
	}
	if (have != n || bytes % 8) {
		free(r);
		return NULL;
	}
	return r;
}

/* ---- saving --------------------------------------------------------- */

static const char *str(const char *s)
{
	return s ? s : "";
}

void store_new_uuid(char out[37])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t got = 0;
	char *p = out;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r < 0 && errno != EINTR)
			fatal("getrandom: %s", strerror(errno));
		if (r > 0)
			got += (size_t)r;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4: random */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[b[i] >> 4];
		*p++ = hex[b[i] & 15];
	}
	*p = '\0';
}

static void now_iso8601(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void bind_json(sqlite3_stmt *stmt, int col, const json_t *j)
{
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;

	if (text)
		sqlite3_bind_text(stmt, col, text, -1, free);
	else
		sqlite3_bind_null(stmt, col);
}

static void bind_samples(sqlite3_stmt *stmt, int col, const double *x,
			 size_t n, uint64_t calls)
{
	size_t bytes;
	void *blob;

	if (!x || !n) {
		sqlite3_bind_null(stmt, col);
		return;
	}
	blob = codec_encode(x, n, calls, &bytes);
	sqlite3_bind_blob64(stmt, col, blob, bytes, free);
}

static void bind_digest(sqlite3_stmt *stmt, int col, const struct stored_cell *c)
{
	size_t bytes;
	void *blob;

	if (!digest_applies(c)) {
		sqlite3_bind_null(stmt, col);
		return;
	}
	blob = digest_encode(c, &bytes);
	sqlite3_bind_blob64(stmt, col, blob, bytes, free);
}

static void bind_rounds(sqlite3_stmt *stmt, int col, const uint32_t *r, size_t n)
{
	size_t bytes;
	void *blob;

	if (!r || !n) {
		sqlite3_bind_null(stmt, col);
		return;
	}
	blob = encode_rounds(r, n, &bytes);
	sqlite3_bind_blob64(stmt, col, blob, bytes, free);
}

static int insert_cell(struct store *st, sqlite3_stmt *stmt, int64_t run_id,
		       size_t seq, const struct stored_cell *c, char *err,
		       size_t errlen)
{
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_int64(stmt, 2, (int64_t)seq);
	sqlite3_bind_text(stmt, 3, str(c->name), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, str(c->path), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, str(c->api), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 6, str(c->clock), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 7, str(c->status), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 8, str(c->reason), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 9, str(c->unit), -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 10, (int64_t)c->batch_calls);
	sqlite3_bind_int64(stmt, 11, c->values ? (int64_t)c->n : 0);
	bind_samples(stmt, 12, c->values, c->n, c->batch_calls);
	bind_samples(stmt, 13, c->values ? c->cycles : NULL, c->n, c->batch_calls);
	sqlite3_bind_text(stmt, 14, c->cycles ? str(c->cycles_unit) : "", -1,
			  SQLITE_STATIC);
	bind_rounds(stmt, 15, c->values ? c->rounds : NULL, c->n);
	bind_samples(stmt, 16, c->values ? c->core_cycles : NULL, c->n,
		     c->batch_calls);
	sqlite3_bind_int(stmt, 17, SAMPLES_COMPACT);
	bind_digest(stmt, 18, c);
	if (sqlite3_step(stmt) == SQLITE_DONE)
		return 0;
	db_err(st, err, errlen, "saving a cell");
	return -1;
}

/* The rows of one run; the caller holds the write transaction. */
static int insert_run(struct store *st, struct stored_run *run, char *err,
		      size_t errlen)
{
	sqlite3_stmt *stmt;
	int64_t id;
	int rc = -1;

	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].digest) {
			set_err(err, errlen, "run %s was loaded as a digest, without its "
				"samples: it cannot be saved", run->uuid);
			return -1;
		}
	stmt = prepare(st, "INSERT INTO runs (uuid, command, label, host, kernel,"
		       " started, elapsed_s, status, env, config, quality)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err, errlen);
	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, run->uuid, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, str(run->command), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, str(run->label), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, str(run->host), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, str(run->kernel), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 6, run->started, -1, SQLITE_STATIC);
	sqlite3_bind_double(stmt, 7, run->elapsed_s);
	sqlite3_bind_text(stmt, 8, run->status ? run->status : "complete", -1,
			  SQLITE_STATIC);
	if (run->env)
		bind_json(stmt, 9, run->env);
	else
		sqlite3_bind_text(stmt, 9, "{}", -1, SQLITE_STATIC);
	bind_json(stmt, 10, run->config);
	bind_json(stmt, 11, run->quality);
	if (sqlite3_step(stmt) != SQLITE_DONE) {
		db_err(st, err, errlen, "saving the run");
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	id = sqlite3_last_insert_rowid(st->db);

	stmt = prepare(st, "INSERT INTO cells (run_id, seq, name, path, api, clock,"
		       " status, reason, unit, batch_calls, n, samples, cycles,"
		       " cycles_unit, rounds, core_cycles, encoding, digest)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       err, errlen);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < run->ncells; i++)
		if (insert_cell(st, stmt, id, i, &run->cells[i], err, errlen))
			goto out;
	run->id = id;
	rc = 0;
out:
	sqlite3_finalize(stmt);
	return rc;
}

void stored_run_fill_defaults(struct stored_run *run)
{
	if (!run->uuid[0])
		store_new_uuid(run->uuid);
	if (!run->started[0])
		now_iso8601(run->started, sizeof(run->started));
}

/* Take the write lock without waiting for it, and let it go. */
int store_probe_write(struct store *st, char *err, size_t errlen)
{
	int rc;

	sqlite3_busy_timeout(st->db, 0);
	st->busy = false;
	rc = exec(st, "BEGIN IMMEDIATE", "taking the write lock", err, errlen);
	rollback(st);
	sqlite3_busy_timeout(st->db, st->timeout_ms);
	if (rc && st->busy)
		set_err(err, errlen, "%s: another process holds it locked", st->path);
	return rc == 0 ? 0 : st->busy ? 1 : -1;
}

int store_save_run(struct store *st, struct stored_run *run, char *err,
		   size_t errlen)
{
	stored_run_fill_defaults(run);
	if (exec(st, "BEGIN IMMEDIATE", "starting to save", err, errlen))
		return -1;
	if (insert_run(st, run, err, errlen) ||
	    exec(st, "COMMIT", "saving the run", err, errlen)) {
		rollback(st);
		run->id = 0;
		return -1;
	}
	return 0;
}

static int find_uuid(struct store *st, const char *uuid, int64_t *id, char *err,
		     size_t errlen)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT id FROM runs WHERE uuid = ?",
				     err, errlen);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, uuid, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(stmt, 0);
	else if (rc != SQLITE_DONE)
		db_err(st, err, errlen, "looking up a run");
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int store_import_run(struct store *st, struct stored_run *run, char *err,
		     size_t errlen)
{
	int64_t existing;
	int found;

	stored_run_fill_defaults(run);
	if (exec(st, "BEGIN IMMEDIATE", "starting to import", err, errlen))
		return -1;
	found = find_uuid(st, run->uuid, &existing, err, errlen);
	if (found == 1) {
		rollback(st);
		run->id = existing;
		return 1;
	}
	if (found < 0 || insert_run(st, run, err, errlen) ||
	    exec(st, "COMMIT", "importing the run", err, errlen)) {
		rollback(st);
		run->id = 0;
		return -1;
	}
	return 0;
}

/* ---- loading -------------------------------------------------------- */

static char *column_strdup(sqlite3_stmt *stmt, int col)
{
	const unsigned char *s = sqlite3_column_text(stmt, col);

	return xstrdup(s ? (const char *)s : "");
}

static void column_copy(sqlite3_stmt *stmt, int col, char *buf, size_t len)
{
	const unsigned char *s = sqlite3_column_text(stmt, col);

	snprintf(buf, len, "%s", s ? (const char *)s : "");
}

/* A JSON column, or NULL for SQL NULL; -1 when the text is not JSON. */
static int column_json(sqlite3_stmt *stmt, int col, json_t **out)
{
	const char *text = (const char *)sqlite3_column_text(stmt, col);

	*out = NULL;
	if (!text)
		return 0;
	*out = json_loads(text, JSON_DECODE_ANY, NULL);
	return *out ? 0 : -1;
}

static int load_run_row(struct store *st, int64_t id, struct stored_run *run,
			char *err, size_t errlen)
{
	sqlite3_stmt *stmt;
	int rc;

	stmt = prepare(st, st->version >= 2 ?
		       "SELECT uuid, command, label, host, kernel, started,"
		       " elapsed_s, status, env, config, quality FROM runs WHERE id = ?" :
		       "SELECT uuid, command, label, host, kernel, started,"
		       " elapsed_s, status, env, config, NULL FROM runs WHERE id = ?",
		       err, errlen);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			set_err(err, errlen, "no run %lld in %s", (long long)id, st->path);
		else
			db_err(st, err, errlen, "loading a run");
		sqlite3_finalize(stmt);
		return -1;
	}
	run->id = id;
	column_copy(stmt, 0, run->uuid, sizeof(run->uuid));
	run->command = column_strdup(stmt, 1);
	run->label = column_strdup(stmt, 2);
	run->host = column_strdup(stmt, 3);
	run->kernel = column_strdup(stmt, 4);
	column_copy(stmt, 5, run->started, sizeof(run->started));
	run->elapsed_s = sqlite3_column_double(stmt, 6);
	run->status = column_strdup(stmt, 7);
	rc = column_json(stmt, 8, &run->env) || column_json(stmt, 9, &run->config) ||
	     column_json(stmt, 10, &run->quality);
	sqlite3_finalize(stmt);
	if (rc) {
		set_err(err, errlen, "%s: run %lld: its environment, configuration or "
			"quality is not valid JSON (the database is damaged)", st->path,
			(long long)id);
		return STORE_DAMAGED;
	}
	if (!run->env)
		run->env = json_object();
	return 0;
}

/*
 * A blob of n samples in encoding, or NULL; -1 when it does not hold n
 * samples.
 */
static int column_doubles(sqlite3_stmt *stmt, int col, int64_t encoding,
			  size_t n, double **out)
{
	const void *blob = sqlite3_column_blob(stmt, col);
	size_t bytes = (size_t)sqlite3_column_bytes(stmt, col);

	*out = NULL;
	if (!blob)
		return bytes == 0 ? 0 : -1;
	if (encoding == SAMPLES_COMPACT)
		return codec_decode(blob, bytes, n, out);
	if (encoding != SAMPLES_RAW || bytes != n * 8)
		return -1;
	*out = decode_doubles(blob, n);
	return 0;
}

/* What a load reads of each cell. */
enum load_mode {
	LOAD_HEADER,	/* no samples (n is kept) */
	LOAD_SAMPLES,	/* every sample */
	LOAD_DIGEST,	/* the digest where there is one, else the samples */
};

static int column_rounds(sqlite3_stmt *stmt, int col, struct stored_cell *c)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return 0;
	c->rounds = decode_rounds(sqlite3_column_blob(stmt, col),
				  (size_t)sqlite3_column_bytes(stmt, col), c->n);
	c->nrounds = stored_cell_count_rounds(c->rounds, c->n);
	/* Beyond what clockbench measures: damaged, not a run to compare. */
	return c->rounds && c->nrounds <= STORE_ROUNDS_MAX ? 0 : -1;
}

/* Columns 10 to 15: samples, cycles, rounds, core_cycles, encoding, digest. */
static int load_cell_samples(sqlite3_stmt *stmt, struct stored_cell *c,
			     enum load_mode mode)
{
	int64_t encoding = sqlite3_column_int64(stmt, 14);

	if (mode == LOAD_DIGEST && sqlite3_column_type(stmt, 15) != SQLITE_NULL)
		return digest_apply(c, sqlite3_column_blob(stmt, 15),
				    (size_t)sqlite3_column_bytes(stmt, 15));
	if (column_doubles(stmt, 10, encoding, c->n, &c->values) ||
	    column_doubles(stmt, 11, encoding, c->n, &c->cycles) ||
	    column_doubles(stmt, 13, encoding, c->n, &c->core_cycles))
		return -1;
	if (!c->values && c->n)
		return -1;
	if (column_rounds(stmt, 12, c))
		return -1;
	/* A cell saved before digests: reduced now, so that memory stays small. */
	if (mode == LOAD_DIGEST)
		digest_reduce(c);
	return 0;
}

static int load_cell(sqlite3_stmt *stmt, struct stored_cell *c,
		     enum load_mode mode)
{
	int64_t n = sqlite3_column_int64(stmt, 9);

	c->name = column_strdup(stmt, 0);
	c->path = column_strdup(stmt, 1);
	c->api = column_strdup(stmt, 2);
	c->clock = column_strdup(stmt, 3);
	c->status = column_strdup(stmt, 4);
	c->reason = column_strdup(stmt, 5);
	c->unit = column_strdup(stmt, 6);
	c->batch_calls = (uint64_t)sqlite3_column_int64(stmt, 7);
	c->cycles_unit = column_strdup(stmt, 8);
	if (n < 0)
		return -1;
	c->n = (size_t)n;
	if (mode == LOAD_HEADER)
		return 0;
	return load_cell_samples(stmt, c, mode);
}

/*
 * The cells query for the file's schema: columns a later migration adds
 * read as their defaults; with a digest, a cell's sample blobs are not
 * read at all (SQLite reads a column's pages only when it is evaluated).
 */
static void cells_query(const struct store *st, enum load_mode mode,
			char *sql, size_t len)
{
	const char *blobs;

	if (mode == LOAD_HEADER)
		blobs = "";
	else if (st->version < 2)
		blobs = ", samples, cycles, rounds, NULL, 0, NULL";
	else if (st->version < 3)
		blobs = ", samples, cycles, rounds, core_cycles, 0, NULL";
	else if (mode == LOAD_SAMPLES)
		blobs = ", samples, cycles, rounds, core_cycles, encoding, NULL";
	else
		blobs = ", CASE WHEN digest IS NULL THEN samples END,"
			" CASE WHEN digest IS NULL THEN cycles END,"
			" CASE WHEN digest IS NULL THEN rounds END,"
			" CASE WHEN digest IS NULL THEN core_cycles END,"
			" encoding, digest";
	snprintf(sql, len, "SELECT name, path, api, clock, status, reason, unit,"
		 " batch_calls, cycles_unit, n%s FROM cells WHERE run_id = ?"
		 " ORDER BY seq", blobs);
}

static void damaged_cell_err(struct store *st, int64_t id, const char *name,
			     char *err, size_t errlen)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, name);
	set_err(err, errlen, "%s: run %lld: the samples of cell %s do not match "
		"their count (the database is damaged)", st->path, (long long)id,
		sb.buf);
}

static int load_cells(struct store *st, struct stored_run *run,
		      enum load_mode mode, char *err, size_t errlen)
{
	sqlite3_stmt *stmt;
	char sql[512];
	size_t cap = 0;
	int rc;

	cells_query(st, mode, sql, sizeof(sql));
	stmt = prepare(st, sql, err, errlen);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, run->id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct stored_cell *c;

		grow_array((void **)&run->cells, &cap, run->ncells + 1,
			   sizeof(*run->cells));
		c = &run->cells[run->ncells++];
		memset(c, 0, sizeof(*c));
		if (load_cell(stmt, c, mode)) {
			damaged_cell_err(st, run->id, c->name, err, errlen);
			sqlite3_finalize(stmt);
			return STORE_DAMAGED;
		}
	}
	if (rc != SQLITE_DONE)
		db_err(st, err, errlen, "loading the cells");
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int load(struct store *st, int64_t id, struct stored_run *run,
		enum load_mode mode, char *err, size_t errlen)
{
	int rc;

	memset(run, 0, sizeof(*run));
	/* One read transaction: a concurrent rm cannot split the run. */
	if (exec(st, "BEGIN", "loading a run", err, errlen))
		return -1;
	rc = load_run_row(st, id, run, err, errlen);
	if (!rc)
		rc = load_cells(st, run, mode, err, errlen);
	rollback(st);
	if (rc)
		stored_run_free(run);
	return rc;
}

int store_load_run(struct store *st, int64_t id, struct stored_run *run,
		   char *err, size_t errlen)
{
	return load(st, id, run, LOAD_SAMPLES, err, errlen);
}

int store_load_run_digest(struct store *st, int64_t id, struct stored_run *run,
			  char *err, size_t errlen)
{
	return load(st, id, run, LOAD_DIGEST, err, errlen);
}

int store_load_run_header(struct store *st, int64_t id, struct stored_run *run,
			  char *err, size_t errlen)
{
	return load(st, id, run, LOAD_HEADER, err, errlen);
}

void stored_run_free(struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct stored_cell *c = &run->cells[i];

		free(c->name);
		free(c->path);
		free(c->api);
		free(c->clock);
		free(c->status);
		free(c->reason);
		free(c->unit);
		free(c->values);
		free(c->cycles);
		free(c->cycles_unit);
		free(c->rounds);
		free(c->core_cycles);
	}
	free(run->cells);
	free(run->command);
	free(run->label);
	free(run->host);
	free(run->kernel);
	free(run->status);
	json_decref(run->env);
	json_decref(run->config);
	json_decref(run->quality);
	memset(run, 0, sizeof(*run));
}

/* ---- removing ------------------------------------------------------- */

int store_delete_run(struct store *st, int64_t id, char *err, size_t errlen)
{
	sqlite3_stmt *stmt;
	int rc;

	if (exec(st, "BEGIN IMMEDIATE", "starting to remove", err, errlen))
		return -1;
	stmt = prepare(st, "DELETE FROM cells WHERE run_id = ?1;", err, errlen);
	if (!stmt)
		goto fail;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		goto db_fail;
	stmt = prepare(st, "DELETE FROM runs WHERE id = ?1;", err, errlen);
	if (!stmt)
		goto fail;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		goto db_fail;
	if (sqlite3_changes(st->db) == 0) {
		rollback(st);
		return 1;
	}
	if (exec(st, "COMMIT", "removing the run", err, errlen))
		goto fail;
	return 0;
db_fail:
	db_err(st, err, errlen, "removing the run");
fail:
	rollback(st);
	return -1;
}

/* ---- finding -------------------------------------------------------- */

static bool digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int number(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

static bool leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && leap_year(y) ? 29 : days[m - 1];
}

bool store_date_valid(const char *d)
{
	/* Where a prefix may stop, and the separator before each part. */
	static const struct { size_t at; char sep; int lo, hi; } part[] = {
		{ 0, 0, 0, 9999 }, { 5, '-', 1, 12 }, { 8, '-', 1, 31 },
		{ 11, 'T', 0, 23 }, { 14, ':', 0, 59 }, { 17, ':', 0, 60 },
	};
	size_t len = d ? strlen(d) : 0;
	int year = 0, month = 1;

	if (len == 20 && d[19] == 'Z')
		len = 19;
	if (len != 4 && len != 7 && len != 10 && len != 16 && len != 19)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(part) && part[i].at < len; i++) {
		size_t w = i == 0 ? 4 : 2;
		const char *p = d + part[i].at;
		int v;

		if (i > 0 && p[-1] != part[i].sep && !(part[i].sep == 'T' && p[-1] == ' '))
			return false;
		if (!digits(p, w))
			return false;
		v = number(p, w);
		if (v < part[i].lo || v > part[i].hi)
			return false;
		if (i == 0)
			year = v;
		else if (i == 1)
			month = v;
		else if (i == 2 && v > days_in_month(year, month))
			return false;
	}
	return true;
}

/* A date as stored: 'T' between day and time, no 'Z' (prefix compare). */
static void normalize_date(const char *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s", d);
	if (strlen(buf) > 10)
		buf[10] = 'T';
	if (strlen(buf) == 20)
		buf[19] = '\0';
}

static void bind_opt(sqlite3_stmt *stmt, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(stmt, col, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(stmt, col);
}

static int collect_ids(struct store *st, sqlite3_stmt *stmt, int64_t **ids,
		       size_t *n, char *err, size_t errlen)
{
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		grow_array((void **)ids, &cap, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(stmt, 0);
	}
	sqlite3_finalize(stmt);
	if (rc == SQLITE_DONE)
		return 0;
	db_err(st, err, errlen, "listing runs");
	free(*ids);
	*ids = NULL;
	*n = 0;
	return -1;
}

int store_find_runs(struct store *st, const struct run_filter *f,
		    int64_t **ids, size_t *n, char *err, size_t errlen)
{
	char since[32] = "", until[32] = "";
	sqlite3_stmt *stmt;

	*ids = NULL;
	*n = 0;
	if ((f->since && !store_date_valid(f->since)) ||
	    (f->until && !store_date_valid(f->until))) {
		set_err(err, errlen, "invalid date '%s': expected YYYY-MM-DD, "
			"optionally with THH:MM[:SS]",
			f->since && !store_date_valid(f->since) ? f->since : f->until);
		return -1;
	}
	if (f->since)
		normalize_date(f->since, since, sizeof(since));
	if (f->until)
		normalize_date(f->until, until, sizeof(until));
	/*
	 * GLOB: exact unless the filter holds * ? or [. Dates compare as
	 * prefixes of the stored ISO text, so "--until 2026-11-30" includes
	 * that whole day.
	 */
	stmt = prepare(st, "SELECT id FROM runs WHERE"
		       " (?1 IS NULL OR label GLOB ?1) AND"
		       " (?2 IS NULL OR kernel GLOB ?2) AND"
		       " (?3 IS NULL OR host GLOB ?3) AND"
		       " (?4 IS NULL OR command GLOB ?4) AND"
		       " (?5 IS NULL OR substr(started, 1, length(?5)) >= ?5) AND"
		       " (?6 IS NULL OR substr(started, 1, length(?6)) <= ?6)"
		       " ORDER BY started, id", err, errlen);
	if (!stmt)
		return -1;
	bind_opt(stmt, 1, f->label);
	bind_opt(stmt, 2, f->kernel);
	bind_opt(stmt, 3, f->host);
	bind_opt(stmt, 4, f->command);
	bind_opt(stmt, 5, f->since ? since : NULL);
	bind_opt(stmt, 6, f->until ? until : NULL);
	return collect_ids(st, stmt, ids, n, err, errlen);
}

static bool uuid_like(const char *s)
{
	if (strlen(s) != 36)
		return false;
	for (int i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return false;
	}
	return true;
}

int store_resolve(struct store *st, const char *spec, int64_t **ids, size_t *n,
		  char *err, size_t errlen)
{
	sqlite3_stmt *stmt;
	uint64_t id;

	*ids = NULL;
	*n = 0;
	if (parse_u64(spec, &id)) {
		stmt = prepare(st, "SELECT id FROM runs WHERE id = ?", err, errlen);
		if (stmt)
			sqlite3_bind_int64(stmt, 1, id > INT64_MAX ? -1 : (int64_t)id);
	} else if (uuid_like(spec)) {
		stmt = prepare(st, "SELECT id FROM runs WHERE uuid = lower(?)", err,
			       errlen);
		if (stmt)
			sqlite3_bind_text(stmt, 1, spec, -1, SQLITE_TRANSIENT);
	} else {
		stmt = prepare(st, "SELECT id FROM runs WHERE label = ?"
			       " ORDER BY started, id", err, errlen);
		if (stmt)
			sqlite3_bind_text(stmt, 1, spec, -1, SQLITE_TRANSIENT);
	}
	if (!stmt || collect_ids(st, stmt, ids, n, err, errlen))
		return -1;
	if (*n == 0) {
		set_err(err, errlen, "no run or label '%s' in %s", spec, st->path);
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return 0;
}

bool store_label_valid(const char *label, char *why, size_t len)
{
	size_t n = label ? strlen(label) : 0;
	json_t *j;

	if (n == 0) {
		set_err(why, len, "a label cannot be empty");
		return false;
	}
	if (n > LABEL_MAX) {
		set_err(why, len, "a label has at most %d bytes", LABEL_MAX);
		return false;
	}
	if (digits(label, n)) {
		set_err(why, len, "a label cannot be a number: that reads as a run id");
		return false;
	}
	if (label[0] == '-') {
		set_err(why, len, "a label cannot start with '-'");
		return false;
	}
	if (uuid_like(label)) {
		set_err(why, len, "a label cannot be a uuid: that reads as a run");
		return false;
	}
	if (find_control(label)) {
		set_err(why, len, "a label cannot hold control characters");
		return false;
	}
	/* Labels travel in JSON exports, which are UTF-8. */
	j = json_string(label);
	if (!j) {
		set_err(why, len, "a label must be valid UTF-8");
		return false;
	}
	json_decref(j);
	return true;
}

/* ---- JSON: the export format ---------------------------------------- */

static json_t *doubles_json(const double *x, size_t n)
{
	json_t *a = json_array();

	/* JSON has no NaN or infinity: such a sample is written as null. */
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, isfinite(x[i]) ? json_real(x[i]) : json_null());
	return a;
}

/* A JSON string even from bytes that are not UTF-8 (they become '?'). */
static json_t *text_json(const char *s)
{
	json_t *j = json_string(str(s));
	char *copy;

	if (j)
		return j;
	copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static void set_text(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key, text_json(s));
}

static json_t *cell_json(const struct stored_cell *c)
{
	json_t *o = json_object();

	set_text(o, "name", c->name);
	set_text(o, "path", c->path);
	set_text(o, "api", c->api);
	set_text(o, "clock", c->clock);
	set_text(o, "status", c->status);
	set_text(o, "reason", c->reason);
	set_text(o, "unit", c->unit);
	json_object_set_new(o, "batch_calls", json_integer((json_int_t)c->batch_calls));
	/* Without values but with n, the run was loaded without samples. */
	if (c->values || c->n == 0)
		json_object_set_new(o, "samples", doubles_json(c->values, c->n));
	if (c->values && c->cycles) {
		json_object_set_new(o, "samples_cycles", doubles_json(c->cycles, c->n));
		json_object_set_new(o, "cycles_unit", json_string(str(c->cycles_unit)));
	}
	if (c->values && c->core_cycles)
		json_object_set_new(o, "samples_core_cycles",
				    doubles_json(c->core_cycles, c->n));
	if (c->values && c->rounds) {
		json_t *a = json_array();

		for (size_t i = 0; i < c->n; i++)
			json_array_append_new(a, json_integer(c->rounds[i]));
		json_object_set_new(o, "samples_round", a);
	}
	return o;
}

json_t *stored_run_to_json(const struct stored_run *run)
{
	json_t *cells = json_array();
	json_t *o;

	for (size_t i = 0; i < run->ncells; i++)
		json_array_append_new(cells, cell_json(&run->cells[i]));
	o = json_object();
	if (run->id > 0)
		json_object_set_new(o, "id", json_integer(run->id));
	set_text(o, "uuid", run->uuid);
	set_text(o, "command", run->command);
	set_text(o, "label", run->label);
	set_text(o, "host", run->host);
	set_text(o, "kernel", run->kernel);
	set_text(o, "started", run->started);
	json_object_set_new(o, "elapsed_s", json_real(isfinite(run->elapsed_s) ?
						      run->elapsed_s : 0.0));
	set_text(o, "status", run->status ? run->status : "complete");
	json_object_set_new(o, "environment",
			    run->env ? json_incref(run->env) : json_object());
	json_object_set_new(o, "config",
			    run->config ? json_incref(run->config) : json_null());
	json_object_set_new(o, "quality",
			    run->quality ? json_incref(run->quality) : json_null());
	json_object_set_new(o, "cells", cells);
	return o;
}

/* Where a field sits, for error messages: "cells[3].samples[2]". */
struct jpath {
	char buf[128];
};

static const char *jpath(struct jpath *p, const char *fmt, ...) _printf_(2, 3);
static const char *jpath(struct jpath *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->buf, sizeof(p->buf), fmt, ap);
	va_end(ap);
	return p->buf;
}

static const char *json_type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/*
 * The first control character in s: C0, DEL, or C1 (U+0080 to U+009F in
 * UTF-8), which terminals act on; NULL when there is none.
 */
static const char *find_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return (const char *)p;
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return (const char *)p;
	}
	return NULL;
}

/*
 * Text as clockbench writes it: no NUL (SQLite text would cut it short),
 * at most max bytes, no control character (every command prints it).
 */
static int check_text(const char *s, size_t len, const char *where, size_t max,
		      char *err, size_t errlen)
{
	const char *bad;

	if (strlen(s) != len) {
		set_err(err, errlen, "%s: contains a NUL character", where);
		return -1;
	}
	if (len > max) {
		set_err(err, errlen, "%s: %zu bytes, more than clockbench writes (%zu)",
			where, len, max);
		return -1;
	}
	bad = find_control(s);
	if (bad) {
		set_err(err, errlen, "%s: contains a control character (byte %zu)",
			where, (size_t)(bad - s));
		return -1;
	}
	return 0;
}

/* A string member of at most max bytes. Absent: "" when optional. */
static int get_string(const json_t *obj, const char *key, const char *where,
		      bool required, size_t max, char **out, char *err,
		      size_t errlen)
{
	const json_t *j = json_object_get(obj, key);

	if (!j) {
		if (required) {
			set_err(err, errlen, "%s: missing", where);
			return -1;
		}
		*out = xstrdup("");
		return 0;
	}
	if (!json_is_string(j)) {
		set_err(err, errlen, "%s: expected a string, got %s", where,
			json_type_name(j));
		return -1;
	}
	if (check_text(json_string_value(j), json_string_length(j), where, max,
		       err, errlen))
		return -1;
	*out = xstrdup(json_string_value(j));
	return 0;
}

static int get_samples(const json_t *arr, const char *where, double **out,
		       size_t *n, char *err, size_t errlen)
{
	struct jpath p;
	size_t i;
	json_t *v;

	if (!json_is_array(arr)) {
		set_err(err, errlen, "%s: expected an array of numbers, got %s",
			where, json_type_name(arr));
		return -1;
	}
	*n = json_array_size(arr);
	if (*n > STORE_SAMPLES_MAX) {
		set_err(err, errlen, "%s: %zu samples, more than clockbench takes in "
			"a cell (%d)", where, *n, STORE_SAMPLES_MAX);
		return -1;
	}
	*out = xmalloc((*n ? *n : 1) * sizeof(double));
	json_array_foreach(arr, i, v) {
		if (json_is_number(v)) {
			(*out)[i] = json_number_value(v);
		} else if (json_is_null(v)) {
			(*out)[i] = NAN;	/* how a non-finite sample is exported */
		} else {
			set_err(err, errlen, "%s: expected a number, got %s",
				jpath(&p, "%s[%zu]", where, i), json_type_name(v));
			return -1;
		}
	}
	return 0;
}

/* Per-sample values beside the samples: as many as there are samples. */
static int get_same_length(const json_t *arr, const char *where, size_t n,
			   double **out, char *err, size_t errlen)
{
	size_t got;

	if (get_samples(arr, where, out, &got, err, errlen))
		return -1;
	if (got != n) {
		set_err(err, errlen, "%s: %zu values for %zu samples", where, got, n);
		return -1;
	}
	return 0;
}

/*
 * Round numbers run from 0 to STORE_ROUNDS_MAX - 1: compare allocates per
 * round, so a round of 4294967295 would ask it for 34 GB.
 */
static int get_rounds(const json_t *arr, const char *where,
		      struct stored_cell *c, char *err, size_t errlen)
{
	struct jpath p;
	size_t i;
	json_t *v;

	if (!json_is_array(arr)) {
		set_err(err, errlen, "%s: expected an array of round numbers, got %s",
			where, json_type_name(arr));
		return -1;
	}
	if (json_array_size(arr) != c->n) {
		set_err(err, errlen, "%s: %zu values for %zu samples", where,
			json_array_size(arr), c->n);
		return -1;
	}
	c->rounds = xmalloc((c->n ? c->n : 1) * sizeof(uint32_t));
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v)) {
			set_err(err, errlen, "%s: expected a round number, got %s",
				jpath(&p, "%s[%zu]", where, i), json_type_name(v));
			return -1;
		}
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) >= STORE_ROUNDS_MAX) {
			set_err(err, errlen, "%s: round %" JSON_INTEGER_FORMAT " is out "
				"of range (clockbench numbers rounds 0 to %d)",
				jpath(&p, "%s[%zu]", where, i), json_integer_value(v),
				STORE_ROUNDS_MAX - 1);
			return -1;
		}
		c->rounds[i] = (uint32_t)json_integer_value(v);
	}
	c->nrounds = stored_cell_count_rounds(c->rounds, c->n);
	return 0;
}

static bool cell_status_known(const char *status)
{
	static const char *const known[] = { "ok", "n/a", "unsupported",
					     "not reached" };

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (streq(status, known[i]))
			return true;
	return false;
}

/* The text fields of a cell, with the most bytes clockbench writes in each. */
static int cell_strings_from_json(const json_t *j, size_t idx,
				  struct stored_cell *c, char *err, size_t errlen)
{
	const struct {
		const char *key;
		char **slot;
		bool required;
		size_t max;
	} fields[] = {
		{ "name", &c->name, true, STORE_TEXT_MAX },
		{ "path", &c->path, false, STORE_NAME_MAX },
		{ "api", &c->api, false, STORE_NAME_MAX },
		{ "clock", &c->clock, false, STORE_NAME_MAX },
		{ "status", &c->status, true, STORE_NAME_MAX },
		{ "reason", &c->reason, false, STORE_TEXT_MAX },
		{ "unit", &c->unit, true, STORE_NAME_MAX },
		{ "cycles_unit", &c->cycles_unit, false, STORE_NAME_MAX },
	};
	struct jpath p;

	for (size_t k = 0; k < ARRAY_SIZE(fields); k++)
		if (get_string(j, fields[k].key, jpath(&p, "cells[%zu].%s", idx,
			       fields[k].key), fields[k].required, fields[k].max,
			       fields[k].slot, err, errlen))
			return -1;
	if (!*c->name) {
		set_err(err, errlen, "cells[%zu].name: empty", idx);
		return -1;
	}
	if (!cell_status_known(c->status)) {
		set_err(err, errlen, "cells[%zu].status: '%s' is not ok, n/a, "
			"unsupported or not reached", idx, c->status);
		return -1;
	}
	return 0;
}

static int get_batch_calls(const json_t *j, size_t idx, struct stored_cell *c,
			   char *err, size_t errlen)
{
	const json_t *v = json_object_get(j, "batch_calls");

	c->batch_calls = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		set_err(err, errlen, "cells[%zu].batch_calls: expected a "
			"non-negative integer, got %s", idx, json_type_name(v));
		return -1;
	}
	if ((uint64_t)json_integer_value(v) > STORE_BATCH_CALLS_MAX) {
		set_err(err, errlen, "cells[%zu].batch_calls: %" JSON_INTEGER_FORMAT
			" is more than clockbench makes in a sample (2^40)", idx,
			json_integer_value(v));
		return -1;
	}
	c->batch_calls = (uint64_t)json_integer_value(v);
	return 0;
}

static int cell_samples_from_json(const json_t *j, size_t idx,
				  struct stored_cell *c, char *err, size_t errlen)
{
	const json_t *v = json_object_get(j, "samples");
	struct jpath p;
	size_t ncycles;

	if (!v) {
		set_err(err, errlen, "cells[%zu].samples: missing", idx);
		return -1;
	}
	if (get_samples(v, jpath(&p, "cells[%zu].samples", idx), &c->values,
			&c->n, err, errlen))
		return -1;
	v = json_object_get(j, "samples_cycles");
	if (v && !json_is_null(v)) {
		if (get_samples(v, jpath(&p, "cells[%zu].samples_cycles", idx),
				&c->cycles, &ncycles, err, errlen))
			return -1;
		if (ncycles != c->n) {
			set_err(err, errlen, "cells[%zu].samples_cycles: %zu values for "
				"%zu samples", idx, ncycles, c->n);
			return -1;
		}
	}
	v = json_object_get(j, "samples_core_cycles");
	if (v && !json_is_null(v) &&
	    get_same_length(v, jpath(&p, "cells[%zu].samples_core_cycles", idx),
			    c->n, &c->core_cycles, err, errlen))
		return -1;
	v = json_object_get(j, "samples_round");
	if (!v || json_is_null(v))
		return 0;
	return get_rounds(v, jpath(&p, "cells[%zu].samples_round", idx), c, err,
			  errlen);
}

int stored_cell_from_json(const json_t *j, size_t idx, struct stored_cell *c,
			  char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	if (!json_is_object(j)) {
		set_err(err, errlen, "cells[%zu]: expected an object, got %s", idx,
			json_type_name(j));
		return -1;
	}
	if (cell_strings_from_json(j, idx, c, err, errlen) ||
	    get_batch_calls(j, idx, c, err, errlen) ||
	    cell_samples_from_json(j, idx, c, err, errlen))
		return -1;
	return 0;
}

/* A command name as clockbench's own: lower-case letters, digits, '-'. */
static bool command_like(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '-')
			return false;
	return true;
}

static int run_uuid_from_json(const json_t *j, struct stored_run *run,
			      char *err, size_t errlen)
{
	char *s;

	if (get_string(j, "uuid", "uuid", true, STORE_NAME_MAX, &s, err, errlen))
		return -1;
	if (!uuid_like(s)) {
		set_err(err, errlen, "uuid: '%s' is not a uuid", s);
		free(s);
		return -1;
	}
	for (char *q = s; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	snprintf(run->uuid, sizeof(run->uuid), "%s", s);
	free(s);
	return 0;
}

static int run_started_from_json(const json_t *j, struct stored_run *run,
				 char *err, size_t errlen)
{
	char *s;

	if (get_string(j, "started", "started", true, STORE_NAME_MAX, &s, err,
		       errlen))
		return -1;
	if (strlen(s) != 20 || s[10] != 'T' || !store_date_valid(s)) {
		set_err(err, errlen, "started: '%s' is not a UTC time such as "
			"2026-11-30T13:50:02Z", s);
		free(s);
		return -1;
	}
	snprintf(run->started, sizeof(run->started), "%s", s);
	free(s);
	return 0;
}

static int run_strings_from_json(const json_t *j, struct stored_run *run,
				 char *err, size_t errlen)
{
	char why[96];

	if (run_uuid_from_json(j, run, err, errlen) ||
	    run_started_from_json(j, run, err, errlen))
		return -1;
	if (get_string(j, "command", "command", true, STORE_NAME_MAX, &run->command,
		       err, errlen) ||
	    get_string(j, "label", "label", false, STORE_TEXT_MAX, &run->label,
		       err, errlen) ||
	    get_string(j, "host", "host", true, STORE_TEXT_MAX, &run->host, err,
		       errlen) ||
	    get_string(j, "kernel", "kernel", true, STORE_TEXT_MAX, &run->kernel,
		       err, errlen) ||
	    get_string(j, "status", "status", true, STORE_NAME_MAX, &run->status,
		       err, errlen))
		return -1;
	if (!command_like(run->command)) {
		set_err(err, errlen, "command: '%s' is not a clockbench command",
			run->command);
		return -1;
	}
	if (*run->label && !store_label_valid(run->label, why, sizeof(why))) {
		set_err(err, errlen, "label: '%s': %s", run->label, why);
		return -1;
	}
	if (!streq(run->status, "complete") && !streq(run->status, "interrupted")) {
		set_err(err, errlen, "status: '%s' is neither complete nor interrupted",
			run->status);
		return -1;
	}
	return 0;
}

/*
 * Every key and string of an imported environment or config, at where
 * (a path such as "environment.vdso.symbols[3]" built in place): bounded
 * and free of control characters, as clockbench writes them.
 */
static int check_json_texts(const json_t *j, char *where, size_t len,
			    size_t cap, char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_string(j))
		return check_text(json_string_value(j), json_string_length(j), where,
				  STORE_JSON_TEXT_MAX, err, errlen);
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			snprintf(where + len, cap - len, "[%zu]", i);
			if (check_json_texts(v, where, strlen(where), cap, err, errlen))
				return -1;
		}
	} else if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v) {
			snprintf(where + len, cap - len, ".%s", find_control(key) ?
				 "(key)" : key);
			if (check_text(key, strlen(key), where, STORE_TEXT_MAX, err,
				       errlen) ||
			    check_json_texts(v, where, strlen(where), cap, err, errlen))
				return -1;
		}
	}
	where[len] = '\0';
	return 0;
}

static int get_json_object(const json_t *j, const char *key, bool required,
			   json_t **out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(j, key);
	char where[256];

	*out = NULL;
	if (!v && required) {
		set_err(err, errlen, "%s: missing", key);
		return -1;
	}
	if (!v || (!required && json_is_null(v)))
		return 0;
	if (!json_is_object(v)) {
		set_err(err, errlen, "%s: expected an object%s, got %s", key,
			required ? "" : " or null", json_type_name(v));
		return -1;
	}
	snprintf(where, sizeof(where), "%s", key);
	if (check_json_texts(v, where, strlen(where), sizeof(where), err, errlen))
		return -1;
	*out = json_deep_copy(v);
	return 0;
}

int stored_run_header_from_json(const json_t *j, struct stored_run *run,
				char *err, size_t errlen)
{
	const json_t *v;

	memset(run, 0, sizeof(*run));
	if (!json_is_object(j)) {
		set_err(err, errlen, "expected a run object, got %s", json_type_name(j));
		return -1;
	}
	if (run_strings_from_json(j, run, err, errlen))
		goto fail;
	v = json_object_get(j, "elapsed_s");
	if (!v || !json_is_number(v) || json_number_value(v) < 0) {
		set_err(err, errlen, "elapsed_s: %s", !v ? "missing" :
			"expected a non-negative number");
		goto fail;
	}
	run->elapsed_s = json_number_value(v);
	if (get_json_object(j, "environment", true, &run->env, err, errlen) ||
	    get_json_object(j, "config", false, &run->config, err, errlen) ||
	    get_json_object(j, "quality", false, &run->quality, err, errlen))
		goto fail;
	return 0;
fail:
	stored_run_free(run);
	return -1;
}

int stored_run_from_json(const json_t *j, struct stored_run *run, char *err,
			 size_t errlen)
{
	const json_t *cells, *c;
	size_t i;

	if (stored_run_header_from_json(j, run, err, errlen))
		return -1;
	cells = json_object_get(j, "cells");
	if (!cells || !json_is_array(cells)) {
		set_err(err, errlen, "cells: %s%s", cells ? "expected an array, got " :
			"missing", cells ? json_type_name(cells) : "");
		goto fail;
	}
	if (json_array_size(cells) > STORE_CELLS_MAX) {
		set_err(err, errlen, "cells: %zu cells, more than clockbench writes "
			"in a run (%d)", json_array_size(cells), STORE_CELLS_MAX);
		goto fail;
	}
	run->cells = xcalloc(json_array_size(cells), sizeof(*run->cells));
	json_array_foreach(cells, i, c) {
		run->ncells = i + 1;
		if (stored_cell_from_json(c, i, &run->cells[i], err, errlen))
			goto fail;
	}
	return 0;
fail:
	stored_run_free(run);
	return -1;
}
