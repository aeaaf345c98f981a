// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store's PostgreSQL backend, through libpq: a fleet's store,
 * many hosts writing into one database (--db postgresql://...).
 *
 * The schema is the SQLite one in PostgreSQL's types, with the same
 * versions and migrations (environment, config and quality as jsonb,
 * samples and digests as bytea in the same compact encoding); its
 * version lives in clockbench_schema, as PRAGMA user_version does in a
 * file. A migration holds an advisory lock, so that hosts starting at once
 * upgrade it once. Each run is one transaction: a connection lost in the
 * middle leaves nothing of the run, and the unique uuid makes sending it
 * again harmless. A read-only command's session is read-only.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/store.h"
#include "results/store-backend.h"

/* ---- naming a server without its password ---------------------------- */

/* "postgresql://" or "postgres://", in any case: its length, else 0. */
static size_t scheme_length(const char *s)
{
	if (!strncasecmp(s, "postgresql://", 13))
		return 13;
	if (!strncasecmp(s, "postgres://", 11))
		return 11;
	return 0;
}

static int hex_value(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/*
 * Whether a URL's query key or a connection string's keyword names a
 * secret, percent-decoded and in any case: password, sslpassword.
 */
static bool secret_key(const char *key, size_t len)
{
	char plain[64];
	size_t n = 0;

	for (size_t i = 0; i < len && n < sizeof(plain) - 1; i++) {
		int hi = i + 2 < len ? hex_value((unsigned char)key[i + 1]) : -1;
		int lo = i + 2 < len ? hex_value((unsigned char)key[i + 2]) : -1;

		if (key[i] == '%' && hi >= 0 && lo >= 0) {
			plain[n++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			plain[n++] = key[i];
		}
	}
	plain[n] = '\0';
	return n >= 8 && !strcasecmp(plain + n - 8, "password");
}

/*
 * The authority's user information ends at its LAST '@' before the path:
 * a raw '@' inside a password must not leave a piece of it standing as
 * the host. NULL when there is none.
 */
static const char *userinfo_end(const char *auth)
{
	const char *end = auth + strcspn(auth, "/"), *at = NULL;

	for (const char *p = auth; p < end; p++)
		if (*p == '@')
			at = p;
	return at;
}

/* Secrets shorter than this are not looked for (they would maim messages). */
#define SECRET_MIN 3

static void add_secret(char **list, size_t max, const char *s, size_t n)
{
	if (n < SECRET_MIN)
		return;
	for (size_t i = 0; i < max; i++) {
		if (list[i] && strlen(list[i]) == n && !memcmp(list[i], s, n))
			return;
		if (!list[i]) {
			list[i] = xcalloc(n + 1, 1);
			memcpy(list[i], s, n);
			return;
		}
	}
}

/* A password as typed, and each piece of it after an '@' (read as a host). */
static void add_typed(char **list, size_t max, const char *s, size_t n)
{
	add_secret(list, max, s, n);
	for (size_t i = 0; i < n; i++)
		if (s[i] == '@')
			add_secret(list, max, s + i + 1, n - i - 1);
}

/*
 * The passwords of a URL as typed: its user's, up to the authority's last
 * '@', and each *password= value of its query.
 */
static void add_typed_secrets(char **list, size_t max, const char *url)
{
	const char *auth = url + scheme_length(url), *at, *colon;

	if (!scheme_length(url))
		return;
	at = userinfo_end(auth);
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (colon)
		add_typed(list, max, colon + 1, (size_t)(at - colon - 1));
	for (const char *p = strpbrk(auth, "?&"); p; p = strpbrk(p + 1, "?&")) {
		size_t n = strcspn(p + 1, "&"), key = strcspn(p + 1, "=&");

		if (key < n && secret_key(p + 1, key))
			add_typed(list, max, p + 2 + key, n - key - 1);
	}
}

/* msg with every secret of list as "***" (never longer). */
static void mask_in(char *const *list, size_t max, char *msg)
{
	for (size_t i = 0; i < max && list[i]; i++) {
		size_t n = strlen(list[i]);

		for (char *p = strstr(msg, list[i]); p; p = strstr(p + 3, list[i])) {
			memcpy(p, "***", 3);
			memmove(p + 3, p + n, strlen(p + n) + 1);
		}
	}
}

/* A URL with the user's password and every *password= value as "***". */
static char *mask_url(const char *db)
{
	struct strbuf sb = STRBUF_INIT;
	size_t scheme = scheme_length(db);
	const char *auth = db + scheme, *at = userinfo_end(auth), *rest, *q;
	char *typed[8] = { 0 };

	strbuf_add(&sb, db, scheme);
	for (size_t i = 0; i < scheme; i++)
		sb.buf[i] = (char)tolower((unsigned char)sb.buf[i]);
	rest = auth;
	if (at) {
		/* The user only: up to a ':' (the password) or anything odd. */
		strbuf_add(&sb, auth, strcspn(auth, ":?&=@"));
		rest = at;
	}
	q = strchr(rest, '?');
	strbuf_add(&sb, rest, q ? (size_t)(q - rest) : strlen(rest));
	for (const char *p = q; p && *p; ) {
		size_t n = strcspn(p + 1, "&"), key = strcspn(p + 1, "=&");

		strbuf_addch(&sb, *p);
		if (key < n && secret_key(p + 1, key)) {
			strbuf_add(&sb, p + 1, key);
			strbuf_adds(&sb, "=***");
		} else {
			strbuf_add(&sb, p + 1, n);
		}
		p += 1 + n;
	}
	/* What libpq would misread around a raw '@' goes too. */
	add_typed_secrets(typed, ARRAY_SIZE(typed), db);
	mask_in(typed, ARRAY_SIZE(typed), sb.buf);
	for (size_t i = 0; i < ARRAY_SIZE(typed); i++)
		free(typed[i]);
	return strbuf_detach(&sb);
}


#if HAVE_LIBPQ

#include <libpq-fe.h>

/* s with its scheme in lower case, which is how libpq knows a URL. */
static char *lower_scheme(const char *s)
{
	char *copy = xstrdup(s);

	for (size_t i = 0; i < scheme_length(s); i++)
		copy[i] = (char)tolower((unsigned char)copy[i]);
	return copy;
}

bool store_is_url(const char *s)
{
	PQconninfoOption *opts;

	if (!s)
		return false;
	if (scheme_length(s))
		return true;
	/* A key=value connection string is what libpq reads as one. */
	if (!strchr(s, '='))
		return false;
	opts = PQconninfoParse(s, NULL);
	if (!opts)
		return false;
	PQconninfoFree(opts);
	return true;
}

static bool secret_option(const PQconninfoOption *o)
{
	return (o->dispchar && o->dispchar[0] == '*') ||
	       secret_key(o->keyword, strlen(o->keyword));
}

/* A connection string's value, quoted as libpq reads it back. */
static void add_conninfo_value(struct strbuf *sb, const char *v)
{
	if (*v && !v[strcspn(v, " \t\n\r\f\v'\\")]) {
		strbuf_adds(sb, v);
		return;
	}
	strbuf_addch(sb, '\'');
	for (; *v; v++) {
		if (*v == '\'' || *v == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *v);
	}
	strbuf_addch(sb, '\'');
}

/* key=value: rebuilt from what libpq parsed, the secrets as "***". */
static char *mask_conninfo(const char *db)
{
	PQconninfoOption *opts = PQconninfoParse(db, NULL);
	struct strbuf sb = STRBUF_INIT;

	if (!opts)
		return xstrdup("(a connection string)");
	for (const PQconninfoOption *o = opts; o->keyword; o++) {
		if (!o->val)
			continue;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_adds(&sb, o->keyword);
		strbuf_addch(&sb, '=');
		if (secret_option(o))
			strbuf_adds(&sb, "***");
		else
			add_conninfo_value(&sb, o->val);
	}
	PQconninfoFree(opts);
	return strbuf_detach(&sb);
}

char *store_display_name(const char *db)
{
	if (scheme_length(db))
		return mask_url(db);
	if (store_is_url(db))
		return mask_conninfo(db);
	return xstrdup(db);
}

/*
 * The passwords of url as libpq reads them (a store's, to take out of
 * libpq's messages), and as they were typed.
 */
static void collect_secrets(struct store *st, const char *url)
{
	PQconninfoOption *opts = PQconninfoParse(url, NULL);

	for (const PQconninfoOption *o = opts; o && o->keyword; o++)
		if (o->val && secret_option(o))
			add_secret(st->secrets, ARRAY_SIZE(st->secrets), o->val,
				   strlen(o->val));
	PQconninfoFree(opts);
	add_typed_secrets(st->secrets, ARRAY_SIZE(st->secrets), url);
}

static void mask_secrets(const struct store *st, char *msg)
{
	mask_in(st->secrets, ARRAY_SIZE(st->secrets), msg);
}

/*
 * migrations[v] takes a store from schema version v to v + 1, as the
 * SQLite backend's do (store-sqlite.c), in PostgreSQL's types.
 */
static const char *const pg_migrations[] = {
	/* 0 -> 1: runs and their cells. */
	"CREATE TABLE runs ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  uuid text NOT NULL UNIQUE,"
	"  command text NOT NULL,"
	"  label text NOT NULL DEFAULT '',"
	"  host text NOT NULL,"
	"  kernel text NOT NULL,"
	"  started text NOT NULL,"
	"  elapsed_s double precision NOT NULL,"
	"  status text NOT NULL CHECK (status IN ('complete', 'interrupted')),"
	"  env jsonb NOT NULL,"
	"  config jsonb"
	");"
	"CREATE INDEX runs_label ON runs (label);"
	"CREATE INDEX runs_started ON runs (started);"
	"CREATE TABLE cells ("
	"  run_id bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  seq integer NOT NULL,"
	"  name text NOT NULL,"
	"  path text NOT NULL,"
	"  api text NOT NULL,"
	"  clock text NOT NULL,"
	"  status text NOT NULL,"
	"  reason text NOT NULL,"
	"  unit text NOT NULL,"
	"  batch_calls bigint NOT NULL,"
	"  n bigint NOT NULL,"
	"  samples bytea,"
	"  cycles bytea,"
	"  cycles_unit text NOT NULL,"
	"  rounds bytea,"
	"  PRIMARY KEY (run_id, seq)"
	");",
	/* 1 -> 2: core cycles per sample, and how steady each run's machine was. */
	"ALTER TABLE cells ADD COLUMN core_cycles bytea;"
	"ALTER TABLE runs ADD COLUMN quality jsonb;",
	/* 2 -> 3: compact samples, digests, each metric's median and CI (the
	 * views of store_views_sql(), made after this step); the fleet's
	 * look-ups. */
	"ALTER TABLE cells ADD COLUMN encoding integer NOT NULL DEFAULT 0;"
	"ALTER TABLE cells ADD COLUMN digest bytea;"
	"CREATE INDEX runs_host ON runs (host, started);"
	"CREATE INDEX runs_kernel ON runs (kernel);"
	STORE_SUMMARY_COLUMNS("double precision"),
	/* 3 -> 4: core cycles kept as the reference's readings, which make
	 * them again (results/core-replay.h); core_cycles is NULL then. */
	"ALTER TABLE cells ADD COLUMN reference bytea;",
	/* 4 -> 5: listings count a run's cells, and its measured ones, on
	 * this index, without reading the rows their samples make long. */
	"CREATE INDEX IF NOT EXISTS cells_status ON cells (run_id, status);",
};

_Static_assert(ARRAY_SIZE(pg_migrations) == STORE_SCHEMA_VERSION,
	       "STORE_SCHEMA_VERSION must count the migrations");

/* Any number, the same in every clockbench: the lock of the migrations. */
#define MIGRATION_LOCK 0x436c6b62

/*
 * How long a server may take. libpq has a connect timeout but none for
 * reading: a server that stops answering after the handshake, or that
 * announces a message of gigabytes and never sends it, would block a
 * command for ever. So every statement is sent and read without blocking,
 * against a deadline: the server's statement_timeout, plus the connect
 * timeout for its cancellation to come back.
 */
#define PG_CONNECT_TIMEOUT_S 10		/* $CLOCKBENCH_PG_CONNECT_TIMEOUT */
#define PG_STATEMENT_TIMEOUT_S 60	/* $CLOCKBENCH_PG_TIMEOUT */

struct pg_conn {
	PGconn *c;
	int connect_s, statement_s;
	bool timed_out;		/* the server went silent: the session is lost */
};

static struct pg_conn *pgc(const struct store *st)
{
	return st->impl;
}

static PGconn *conn(const struct store *st)
{
	return pgc(st)->c;
}

/* Whole seconds from $name ("5", "1.5s", "500ms" rounds up), else fallback. */
static int timeout_from_env(const char *name, int fallback)
{
	const char *env = getenv(name);
	double s;

	if (env && parse_duration(env, &s) && s < 86400)
		return (int)ceil(s);
	return fallback;
}

static int64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until the socket is ready for events, or the deadline: 0 or -1. */
static int wait_socket(PGconn *c, short events, int64_t deadline)
{
	struct pollfd p = { .fd = PQsocket(c), .events = events };

	for (;;) {
		int64_t left = deadline - monotonic_ms();
		int rc;

		if (left <= 0 || p.fd < 0)
			return -1;
		rc = poll(&p, 1, (int)(left > INT_MAX ? INT_MAX : left));
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * What a PQsend*() queued, sent, and its results read, before the
 * deadline: the last result (an error's, if any), or NULL when libpq
 * failed (PQerrorMessage) or the time ran out (timed_out).
 */
static PGresult *await_result(struct store *st)
{
	struct pg_conn *pc = pgc(st);
	int64_t deadline = monotonic_ms() +
			   1000LL * (pc->statement_s + pc->connect_s);
	PGresult *last = NULL, *r;
	int flushed;

	while ((flushed = PQflush(pc->c)) == 1)
		if (wait_socket(pc->c, POLLOUT | POLLIN, deadline) ||
		    !PQconsumeInput(pc->c))
			goto lost;
	if (flushed < 0)
		return NULL;
	for (;;) {
		while (PQisBusy(pc->c))
			if (wait_socket(pc->c, POLLIN, deadline) ||
			    !PQconsumeInput(pc->c))
				goto lost;
		r = PQgetResult(pc->c);
		if (!r)
			return last;
		if (last && PQresultStatus(last) == PGRES_FATAL_ERROR) {
			PQclear(r);
		} else {
			PQclear(last);
			last = r;
		}
	}
lost:
	PQclear(last);
	pc->timed_out = monotonic_ms() >= deadline;
	return NULL;
}

/* PQexecParams() against the deadline. */
static PGresult *exec_params(struct store *st, const char *sql, int n,
			     const char *const *values, const int *lengths,
			     const int *formats)
{
	if (pgc(st)->timed_out ||
	    !PQsendQueryParams(conn(st), sql, n, NULL, values, lengths, formats, 0))
		return NULL;
	return await_result(st);
}

/* PQexec() against the deadline (several statements at once). */
static PGresult *exec_sql(struct store *st, const char *sql)
{
	if (pgc(st)->timed_out || !PQsendQuery(conn(st), sql))
		return NULL;
	return await_result(st);
}

/* libpq's messages span lines ("...failed: ...\n\tIs the server..."). */
static void one_line(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		char c = *r == '\n' || *r == '\t' ? ' ' : *r;

		if (c == ' ' && (w == s || w[-1] == ' '))
			continue;
		*w++ = c;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/*
 * Whether a failed statement lost the connection. The status says so only
 * once libpq has seen the socket close: a server shutting down first
 * sends admin_shutdown (SQLSTATE 57P01) or fails the next statement with
 * an error of libpq's own, which has no SQLSTATE at all.
 */
static bool connection_lost(struct store *st, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (PQstatus(conn(st)) == CONNECTION_BAD || !state)
		return true;
	return strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0;
}

static void pg_err(struct store *st, const PGresult *res, const char *what,
		   struct strbuf *err)
{
	_cleanup_free_ char *msg = NULL;

	if (pgc(st)->timed_out) {
		strbuf_setf(err, "%s: %s: no complete answer from the server within "
			    "%d s (CLOCKBENCH_PG_TIMEOUT, CLOCKBENCH_PG_CONNECT_TIMEOUT)",
			    st->name, what, pgc(st)->statement_s + pgc(st)->connect_s);
		return;
	}
	/* Whole: a password cut at a buffer's end would escape masking. */
	msg = xstrdup(res ? PQresultErrorMessage(res) : PQerrorMessage(conn(st)));
	if (!*msg) {
		free(msg);
		msg = xstrdup(PQerrorMessage(conn(st)));
	}
	one_line(msg);
	mask_secrets(st, msg);
	if (connection_lost(st, res))
		strbuf_setf(err, "%s: %s: the connection to the server was "
			    "lost (%s)", st->name, what, *msg ? msg : "no reason given");
	else
		strbuf_setf(err, "%s: %s: %s", st->name, what, msg);
}

/* ---- statements ------------------------------------------------------ */

/* A row's unescaped bytea values, freed when the next row is read. */
struct pg_row {
	PGresult *res;
	unsigned char *blobs[8];
	int nblobs;
};

static const struct store_ops pg_ops;

/* Parameters as text (numbers exactly: %.17g), blobs in binary. */
struct pg_params {
	const char *values[32];
	int lengths[32], formats[32];
	char text[32][32];
};

static bool pg_bind(struct pg_params *b, const struct sql_param *p, size_t n)
{
	if (n > ARRAY_SIZE(b->values))
		return false;
	for (size_t i = 0; i < n; i++) {
		b->formats[i] = p[i].type == SQL_BLOB;
		b->lengths[i] = (int)p[i].len;
		b->values[i] = b->text[i];
		switch (p[i].type) {
		case SQL_NULL:
			b->values[i] = NULL;
			break;
		case SQL_INT:
			snprintf(b->text[i], sizeof(b->text[i]), "%lld", (long long)p[i].i);
			break;
		case SQL_DOUBLE:
			snprintf(b->text[i], sizeof(b->text[i]), "%.17g", p[i].d);
			break;
		case SQL_TEXT:
		case SQL_BLOB:
			b->values[i] = p[i].p;
			break;
		}
	}
	return true;
}

static void free_blobs(struct pg_row *pr)
{
	for (int i = 0; i < pr->nblobs; i++)
		PQfreemem(pr->blobs[i]);
	pr->nblobs = 0;
}

static int each_row(struct pg_row *pr, sql_row_fn fn, void *ctx)
{
	struct sql_row row = { &pg_ops, pr, 0 };
	int rows = PQntuples(pr->res);

	for (row.index = 0; fn && row.index < rows; row.index++) {
		int stop = fn(&row, ctx);

		free_blobs(pr);
		if (stop)
			return stop;
	}
	return 0;
}

static int pg_run(struct store *st, const char *sql,
		  const struct sql_param *params, size_t nparams, sql_row_fn fn,
		  void *ctx, const char *what, struct strbuf *err)
{
	struct pg_params b;
	struct pg_row pr = { 0 };
	ExecStatusType status;
	int rc;

	if (!pg_bind(&b, params, nparams)) {
		strbuf_setf(err, "%s: %s: too many parameters", st->name, what);
		return -1;
	}
	pr.res = exec_params(st, sql, (int)nparams, b.values, b.lengths, b.formats);
	status = PQresultStatus(pr.res);
	if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
		pg_err(st, pr.res, what, err);
		PQclear(pr.res);
		return -1;
	}
	rc = each_row(&pr, fn, ctx);
	PQclear(pr.res);
	return rc;
}

/* Statements without parameters, several at once (the migrations). */
static int pg_exec(struct store *st, const char *sql, const char *what,
		   struct strbuf *err)
{
	PGresult *res = exec_sql(st, sql);
	ExecStatusType status = PQresultStatus(res);
	int rc = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? 0 : -1;

	if (rc)
		pg_err(st, res, what, err);
	PQclear(res);
	return rc;
}

static int pg_begin(struct store *st, bool write, const char *what,
		    struct strbuf *err)
{
	/* A run read whole from one snapshot, as SQLite's read transaction. */
	return pg_exec(st, write ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ",
		       what, err);
}

static int pg_commit(struct store *st, const char *what, struct strbuf *err)
{
	return pg_exec(st, "COMMIT", what, err);
}

static void pg_rollback(struct store *st)
{
	if (!pgc(st)->timed_out && PQtransactionStatus(conn(st)) != PQTRANS_IDLE)
		PQclear(exec_sql(st, "ROLLBACK"));
}

static struct pg_row *row_of(const struct sql_row *r)
{
	return r->impl;
}

static bool pg_is_null(const struct sql_row *r, int col)
{
	return PQgetisnull(row_of(r)->res, r->index, col);
}

static int64_t pg_get_int(const struct sql_row *r, int col)
{
	return pg_is_null(r, col) ? 0 :
	       strtoll(PQgetvalue(row_of(r)->res, r->index, col), NULL, 10);
}

static double pg_get_double(const struct sql_row *r, int col)
{
	return pg_is_null(r, col) ? 0 :
	       strtod(PQgetvalue(row_of(r)->res, r->index, col), NULL);
}

static const char *pg_get_text(const struct sql_row *r, int col)
{
	return PQgetvalue(row_of(r)->res, r->index, col);
}

static const void *pg_get_blob(const struct sql_row *r, int col, size_t *len)
{
	struct pg_row *pr = row_of(r);
	unsigned char *b;

	*len = 0;
	if (pg_is_null(r, col) || pr->nblobs == (int)ARRAY_SIZE(pr->blobs))
		return NULL;
	b = PQunescapeBytea((const unsigned char *)PQgetvalue(pr->res, r->index, col),
			    len);
	if (b)
		pr->blobs[pr->nblobs++] = b;
	return b;
}

static int take_true(const struct sql_row *r, void *ctx)
{
	*(bool *)ctx = streq(r->ops->get_text(r, 0), "t");
	return 1;
}

/* Whether runs and cells can be written here, without writing. */
static int pg_probe_write(struct store *st, struct strbuf *err)
{
	bool ok = false;

	if (pg_run(st, "SELECT has_table_privilege('runs', 'INSERT') AND"
		   " has_table_privilege('cells', 'INSERT')", NULL, 0, take_true, &ok,
		   "checking the permissions", err) < 0)
		return -1;
	if (!ok)
		strbuf_setf(err, "%s: this user may not add runs", st->name);
	return ok ? 0 : -1;
}

static void pg_close(struct store *st)
{
	if (pgc(st))
		PQfinish(conn(st));
	free(st->impl);
	st->impl = NULL;
}

static const struct store_ops pg_ops = {
	.engine = "PostgreSQL",
	.run = pg_run,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.probe_write = pg_probe_write,
	.close = pg_close,
	.is_null = pg_is_null,
	.get_int = pg_get_int,
	.get_double = pg_get_double,
	.get_text = pg_get_text,
	.get_blob = pg_get_blob,
};

/* ---- the schema ------------------------------------------------------ */

static int take_version(const struct sql_row *r, void *ctx)
{
	*(int64_t *)ctx = r->ops->get_int(r, 0);
	return 1;
}

/*
 * The schema version: 0 in a database without clockbench's tables; -1
 * with the reason when it is not ours or too new.
 */
static int read_version(struct store *st, int64_t *version, struct strbuf *err)
{
	int64_t tables = 0;

	*version = 0;
	/*
	 * From pg_tables, in the statement's snapshot: to_regclass() reads the
	 * catalog caches, which an advisory lock does not refresh, and would
	 * miss the tables another host's migration has just committed.
	 */
	if (pg_run(st, "SELECT coalesce(sum(CASE tablename WHEN 'clockbench_schema'"
		   " THEN 2 ELSE 1 END), 0) FROM pg_catalog.pg_tables WHERE"
		   " schemaname = current_schema() AND tablename IN"
		   " ('clockbench_schema', 'runs')", NULL, 0, take_version, &tables,
		   "reading the schema", err) < 0)
		return -1;
	if (tables == 1) {
		strbuf_setf(err, "%s: a database with a table 'runs' but not a "
			    "clockbench results store", st->name);
		return -1;
	}
	if (tables >= 2 && pg_run(st, "SELECT max(version) FROM clockbench_schema",
				  NULL, 0, take_version, version,
				  "reading the schema", err) < 0)
		return -1;
	if (*version > STORE_SCHEMA_VERSION) {
		strbuf_setf(err, "%s: database schema version %lld is newer "
			    "than this clockbench supports (%d); use a newer clockbench",
			    st->name, (long long)*version, STORE_SCHEMA_VERSION);
		return -1;
	}
	return 0;
}

/* started as a timestamp, Grafana's time column. */
static int exec_views(struct store *st, struct strbuf *err)
{
	char *sql = store_views_sql("CAST(r.started AS timestamptz)");
	int rc = pg_exec(st, sql, "upgrading the schema", err);

	free(sql);
	return rc;
}

/* Every step from the version found, in one transaction, under the lock. */
static int migrate(struct store *st, struct strbuf *err)
{
	char sql[128];
	int64_t version;

	if (pg_exec(st, "BEGIN", "upgrading the schema", err))
		return -1;
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)", MIGRATION_LOCK);
	if (pg_exec(st, sql, "upgrading the schema", err) ||
	    read_version(st, &version, err) ||
	    (version == 0 && pg_exec(st, "CREATE TABLE clockbench_schema (version"
				     " integer NOT NULL)", "upgrading the schema",
				     err)))
		goto fail;
	for (int64_t v = version; v < STORE_SCHEMA_VERSION; v++)
		if (pg_exec(st, pg_migrations[v], "upgrading the schema", err) ||
		    (v == 2 && exec_views(st, err)))
			goto fail;
	snprintf(sql, sizeof(sql), "DELETE FROM clockbench_schema; INSERT INTO"
		 " clockbench_schema VALUES (%d)", STORE_SCHEMA_VERSION);
	if (pg_exec(st, sql, "upgrading the schema", err) ||
	    pg_commit(st, "upgrading the schema", err))
		goto fail;
	return 0;
fail:
	pg_rollback(st);
	return -1;
}

/* ---- connecting ------------------------------------------------------ */

/* libpq's complaint about url, one line; NULL when it parses. */
static char *parse_error(const char *url)
{
	char *msg = NULL, *copy = lower_scheme(url), *why;
	PQconninfoOption *opts = PQconninfoParse(copy, &msg);

	free(copy);
	if (opts) {
		PQconninfoFree(opts);
		return NULL;
	}
	why = xstrdup(msg ? msg : "cannot be parsed");
	PQfreemem(msg);
	one_line(why);
	return why;
}

int store_check_url(const char *url, struct strbuf *err)
{
	_cleanup_free_ char *shown = store_display_name(url);
	_cleanup_free_ char *msg = parse_error(url), *shown_msg = NULL;

	if (!msg)
		return 0;
	/*
	 * libpq quotes what it could not read, which may be the password:
	 * the complaint about the URL as shown, or that the password is bad.
	 */
	shown_msg = parse_error(shown);
	strbuf_setf(err, "%s", shown_msg ? shown_msg :
		    "the password cannot be read (a '%' must start a %XX code)");
	return -1;
}

static void ignore_notice(void *arg, const char *message)
{
}

static int connect_url(struct store *st, const char *url, struct strbuf *err)
{
	/* The URL's own settings come last and win. */
	const char *keys[] = { "connect_timeout", "keepalives", "keepalives_idle",
			       "keepalives_interval", "keepalives_count",
			       "tcp_user_timeout", "application_name", "dbname", NULL };
	_cleanup_free_ char *lowered = lower_scheme(url);
	struct pg_conn *pc = xcalloc(1, sizeof(*pc));
	char connect_s[16], idle_s[16], user_ms[24], sql[64];
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	const char *values[] = { connect_s, "1", idle_s, "5", "3", user_ms,
				 "clockbench", lowered, NULL };

	st->impl = pc;
	pc->connect_s = timeout_from_env("CLOCKBENCH_PG_CONNECT_TIMEOUT",
					 PG_CONNECT_TIMEOUT_S);
	pc->statement_s = timeout_from_env("CLOCKBENCH_PG_TIMEOUT",
					   PG_STATEMENT_TIMEOUT_S);
	snprintf(connect_s, sizeof(connect_s), "%d", pc->connect_s);
	snprintf(idle_s, sizeof(idle_s), "%d", pc->connect_s);
	/* Sent data unacknowledged for as long as a statement may take. */
	snprintf(user_ms, sizeof(user_ms), "%lld",
		 1000LL * (pc->statement_s + pc->connect_s));
	collect_secrets(st, lowered);
	if (store_check_url(url, &why)) {
		strbuf_setf(err, "%s: not a valid PostgreSQL URL: %s",
			    st->name, why.buf);
		return -1;
	}
	pc->c = PQconnectdbParams(keys, values, 1);
	if (!pc->c || PQstatus(pc->c) != CONNECTION_OK) {
		_cleanup_free_ char *msg = xstrdup(pc->c ? PQerrorMessage(pc->c) :
						   "out of memory");

		one_line(msg);
		mask_secrets(st, msg);
		strbuf_setf(err, "%s: cannot connect: %s", st->name, msg);
		return -1;
	}
	/*
	 * Notices ("terminating connection due to ...") are not the user's
	 * business: what fails is reported on one line as an error. Never
	 * blocking: every statement is sent and read against a deadline.
	 */
	PQsetNoticeProcessor(pc->c, ignore_notice, NULL);
	if (PQsetnonblocking(pc->c, 1)) {
		strbuf_setf(err, "%s: cannot make the connection "
			    "non-blocking", st->name);
		return -1;
	}
	snprintf(sql, sizeof(sql), "SET statement_timeout = '%ds'", pc->statement_s);
	return pg_exec(st, "SET client_min_messages = warning", "setting up the "
		       "connection", err) ||
	       pg_exec(st, sql, "setting up the connection", err) ? -1 : 0;
}

int store_pg_open(struct store *st, const char *url, enum store_access access,
		  struct strbuf *err)
{
	int64_t version;

	st->ops = &pg_ops;
	st->name = store_display_name(url);
	if (connect_url(st, url, err) || read_version(st, &version, err))
		return -1;
	if (access == STORE_READ) {
		if (version == 0) {
			strbuf_setf(err, "no results store at %s (the database "
				    "has no clockbench tables)", st->name);
			return -1;
		}
		st->version = version;
		return pg_exec(st, "SET default_transaction_read_only = on",
			       "setting up the connection", err);
	}
	if (version < STORE_SCHEMA_VERSION && migrate(st, err))
		return -1;
	st->version = STORE_SCHEMA_VERSION;
	return 0;
}

#else

/* Without libpq: a URL, or what starts as a key=value string does. */
bool store_is_url(const char *s)
{
	size_t key;

	if (!s)
		return false;
	if (scheme_length(s))
		return true;
	s += strspn(s, " \t");
	key = strspn(s, "abcdefghijklmnopqrstuvwxyz_");
	return key > 0 && s[key + strspn(s + key, " \t")] == '=';
}

char *store_display_name(const char *db)
{
	if (scheme_length(db))
		return mask_url(db);
	return xstrdup(store_is_url(db) ? "(a connection string)" : db);
}

int store_check_url(const char *url, struct strbuf *err)
{
	strbuf_setf(err, "this clockbench was built without PostgreSQL (libpq)");
	return -1;
}

int store_pg_open(struct store *st, const char *url, enum store_access access,
		  struct strbuf *err)
{
	st->name = store_display_name(url);
	strbuf_setf(err, "%s: this clockbench was built without "
		    "PostgreSQL (libpq)", st->name);
	return -1;
}

#endif
