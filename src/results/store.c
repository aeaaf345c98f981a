// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store: its interface and what both backends share, every
 * statement that reads or writes runs among it (store-backend.h); the
 * engines themselves, a file (store-sqlite.c) or a PostgreSQL server
 * (store-pg.c), only open, check, migrate and run statements.
 *
 * Here: where the store lives, opening it, the statements and rows
 * through the backend, the sample blobs' formats. Saving and removing
 * runs: store-save.c; loading: store-load.c; finding, listing, run specs
 * and labels: store-select.c; the JSON codec and the gate of foreign
 * runs: store-json.c. What they share: store-internal.h.
 *
 * Samples are kept as one BLOB per cell and metric, not a row per sample.
 * A full bench run holds over half a million samples; as rows they would
 * cost some 40 bytes each plus an index entry and make every save slow,
 * and buy nothing, since statistics always read a cell's samples whole.
 * Since schema 3 a blob is the compact encoding of results/codec.h (a
 * default bench run: 14.3 MB as raw doubles, 2.8 MB encoded), bit-exact;
 * since schema 4 core cycles are kept as the reference's readings, which
 * make them again (results/core-replay.h): 1.2 MB a default run;
 * cells.encoding says which: 0 for the n little-endian doubles of schemas
 * 1 and 2, which are read as they are. Beside the samples, a cell measured
 * in rounds keeps its digest (results/digest.h), all that compare reads.
 * Per-sample rows are what `clockbench export --format csv` gives.
 */
#include "results/store-internal.h"

#include <math.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"


/* Statements and rows through the backend. */
int run_sql(struct store *st, const char *sql, const struct sql_param *p,
		   size_t n, sql_row_fn fn, void *ctx, const char *what,
	    struct strbuf *err)
{
	return st->ops->run(st, sql, p, n, fn, ctx, what, err);
}

bool row_null(const struct sql_row *r, int col)
{
	return r->ops->is_null(r, col);
}

int64_t row_int(const struct sql_row *r, int col)
{
	return r->ops->get_int(r, col);
}

double row_double(const struct sql_row *r, int col)
{
	return r->ops->get_double(r, col);
}

const char *row_text(const struct sql_row *r, int col)
{
	return r->ops->get_text(r, col);
}

const void *row_blob(const struct sql_row *r, int col, size_t *len)
{
	return r->ops->get_blob(r, col, len);
}

void rollback(struct store *st)
{
	st->ops->rollback(st);
}

/* ---- where the store lives ------------------------------------------ */

/* store_is_url() and store_display_name(): store-pg.c, with libpq's parser. */

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

/* ---- opening -------------------------------------------------------- */

struct store *store_open_access(const char *path, enum store_access access,
				struct strbuf *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int rc;

	if (store_is_url(path))
		rc = store_pg_open(st, path, access, err);
	else
		rc = store_sqlite_open(st, path, access, err);
	if (rc) {
		store_close(st);
		return NULL;
	}
	return st;
}

const char *store_warning(const struct store *st)
{
	return st->warning;
}

const char *store_name(const struct store *st)
{
	return st->name;
}

struct store *store_open(const char *path, struct strbuf *err)
{
	return store_open_access(path, STORE_WRITE, err);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->ops)
		st->ops->close(st);
	for (size_t i = 0; i < ARRAY_SIZE(st->secrets); i++)
		free(st->secrets[i]);
	free(st->name);
	free(st->warning);
	free(st);
}

/* ---- samples: schema 1 and 2's raw doubles, else codec.h -------------- */

double *decode_doubles(const unsigned char *p, size_t n)
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

void *encode_rounds(const uint32_t *r, size_t n, size_t *bytes)
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
uint32_t *decode_rounds(const unsigned char *p, size_t bytes, size_t n)
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
