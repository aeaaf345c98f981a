// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store: its interface and what both backends share, every
 * statement that reads or writes runs among it (store-backend.h); the
 * engines themselves, a file (store-sqlite.c) or a PostgreSQL server
 * (store-pg.c), only open, check, migrate and run statements.
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
#include "results/store.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "results/codec.h"
#include "results/core-replay.h"
#include "results/digest.h"
#include "results/store-backend.h"

#define LABEL_MAX 64
/* cells.encoding: how the sample blobs of a cell are written. */
enum { SAMPLES_RAW, SAMPLES_COMPACT };

static const char *find_control(const char *s);
static bool uuid_like(const char *s);

void store_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}


/* Statements and rows through the backend. */
static int run_sql(struct store *st, const char *sql, const struct sql_param *p,
		   size_t n, sql_row_fn fn, void *ctx, const char *what, char *err,
		   size_t errlen)
{
	return st->ops->run(st, sql, p, n, fn, ctx, what, err, errlen);
}

static bool row_null(const struct sql_row *r, int col)
{
	return r->ops->is_null(r, col);
}

static int64_t row_int(const struct sql_row *r, int col)
{
	return r->ops->get_int(r, col);
}

static double row_double(const struct sql_row *r, int col)
{
	return r->ops->get_double(r, col);
}

static const char *row_text(const struct sql_row *r, int col)
{
	return r->ops->get_text(r, col);
}

static const void *row_blob(const struct sql_row *r, int col, size_t *len)
{
	return r->ops->get_blob(r, col, len);
}

static void rollback(struct store *st)
{
	st->ops->rollback(st);
}

/* ---- the views of the metrics ---------------------------------------- */

/*
 * One read-only view per metric, one row per run and measured cell: what
 * Grafana or any SQL client charts (clockbench-runs(1)). started is the
 * backend's expression of runs.started (a timestamp on PostgreSQL).
 */
char *store_views_sql(const char *started)
{
	static const struct {
		const char *name, *prefix, *unit, *where;
	} views[] = {
		{ "metric_ns", "value", "c.unit", "c.unit = 'ns'" },
		{ "metric_seconds", "value", "c.unit", "c.unit = 's'" },
		{ "metric_cycles", "cycles", "c.cycles_unit", "c.cycles_median IS NOT NULL" },
		{ "metric_core_cycles", "core", "'core cycles'", "c.core_median IS NOT NULL" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(views); i++)
		strbuf_addf(&sb, "CREATE VIEW %s AS SELECT r.id AS run_id, r.uuid,"
			    " r.host, r.kernel, r.command, r.label, %s AS started,"
			    " c.name AS cell, c.path, c.%s_median AS median, c.%s_lo AS"
			    " ci_lo, c.%s_hi AS ci_hi, %s AS unit FROM runs r JOIN cells c"
			    " ON c.run_id = r.id WHERE c.status = 'ok' AND %s AND"
			    " c.%s_median IS NOT NULL;", views[i].name, started,
			    views[i].prefix, views[i].prefix, views[i].prefix,
			    views[i].unit, views[i].where, views[i].prefix);
	return strbuf_detach(&sb);
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
				char *err, size_t errlen)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int rc;

	if (store_is_url(path))
		rc = store_pg_open(st, path, access, err, errlen);
	else
		rc = store_sqlite_open(st, path, access, err, errlen);
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

const char *store_name(const struct store *st)
{
	return st->name;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	return store_open_access(path, STORE_WRITE, err, errlen);
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

/* A JSON text parameter (malloc'd into *keep), NULL as SQL NULL. */
static struct sql_param json_param(const json_t *j, char **keep)
{
	*keep = j ? json_dumps(j, JSON_COMPACT) : NULL;
	return P_TEXT(*keep);
}

/*
 * The blobs of one cell, encoded, owned until cell_blobs_free(), and per
 * metric (values, cycles, core cycles) the median and its 95 % CI of the
 * samples, as show computes them: what the views of the metrics read.
 */
struct cell_blobs {
	void *samples, *cycles, *core, *rounds, *digest, *reference;
	size_t samples_len, cycles_len, core_len, rounds_len, digest_len,
	       reference_len;
	struct summary sum[3];
	bool have[3];
};

static void summarize_metric(struct cell_blobs *b, int m, const double *x,
			     size_t n)
{
	double *copy;

	if (!x || !n)
		return;
	copy = xmalloc(n * sizeof(double));
	memcpy(copy, x, n * sizeof(double));
	stats_summarize(copy, n, &b->sum[m]);
	free(copy);
	b->have[m] = true;
}

/* A figure as a parameter: NULL when absent or not a number. */
static struct sql_param figure_param(const struct cell_blobs *b, int m, double v)
{
	return b->have[m] && isfinite(v) ? P_DOUBLE(v) : P_NULL;
}

static void *encode_or_null(const double *x, size_t n, uint64_t calls,
			    size_t *len)
{
	*len = 0;
	return x && n ? codec_encode(x, n, calls, len) : NULL;
}

static void cell_blobs_make(struct cell_blobs *b, const struct stored_cell *c)
{
	const double *v = c->values;

	memset(b, 0, sizeof(*b));
	b->samples = encode_or_null(v, c->n, c->batch_calls, &b->samples_len);
	b->cycles = encode_or_null(v ? c->cycles : NULL, c->n, c->batch_calls,
				   &b->cycles_len);
	/* The readings of the reference, when they give the core cycles back. */
	if (v)
		b->reference = core_replay_encode(c, &b->reference_len);
	if (!b->reference)
		b->core = encode_or_null(v ? c->core_cycles : NULL, c->n,
					 c->batch_calls, &b->core_len);
	if (v && c->rounds && c->n)
		b->rounds = encode_rounds(c->rounds, c->n, &b->rounds_len);
	if (digest_applies(c))
		b->digest = digest_encode(c, &b->digest_len);
	if (streq(str(c->status), "ok")) {
		summarize_metric(b, 0, v, c->n);
		summarize_metric(b, 1, v ? c->cycles : NULL, c->n);
		summarize_metric(b, 2, v ? c->core_cycles : NULL, c->n);
	}
}

static void cell_blobs_free(struct cell_blobs *b)
{
	free(b->samples);
	free(b->cycles);
	free(b->core);
	free(b->rounds);
	free(b->digest);
	free(b->reference);
}

static const char insert_cell_sql[] =
	"INSERT INTO cells (run_id, seq, name, path, api, clock, status, reason,"
	" unit, batch_calls, n, samples, cycles, cycles_unit, rounds, core_cycles,"
	" encoding, digest, value_median, value_lo, value_hi, cycles_median,"
	" cycles_lo, cycles_hi, core_median, core_lo, core_hi, reference)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
	" $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28)";

static int insert_cell(struct store *st, int64_t run_id, size_t seq,
		       const struct stored_cell *c, char *err, size_t errlen)
{
	struct cell_blobs b;
	int rc;

	cell_blobs_make(&b, c);
	{
		const struct sql_param p[] = {
			P_INT(run_id), P_INT(seq), P_TEXT(str(c->name)),
			P_TEXT(str(c->path)), P_TEXT(str(c->api)), P_TEXT(str(c->clock)),
			P_TEXT(str(c->status)), P_TEXT(str(c->reason)),
			P_TEXT(str(c->unit)), P_INT(c->batch_calls),
			P_INT(c->values ? c->n : 0), P_BLOB(b.samples, b.samples_len),
			P_BLOB(b.cycles, b.cycles_len),
			P_TEXT(c->values && c->cycles ? str(c->cycles_unit) : ""),
			P_BLOB(b.rounds, b.rounds_len), P_BLOB(b.core, b.core_len),
			P_INT(SAMPLES_COMPACT), P_BLOB(b.digest, b.digest_len),
			figure_param(&b, 0, b.sum[0].median),
			figure_param(&b, 0, b.sum[0].median_lo),
			figure_param(&b, 0, b.sum[0].median_hi),
			figure_param(&b, 1, b.sum[1].median),
			figure_param(&b, 1, b.sum[1].median_lo),
			figure_param(&b, 1, b.sum[1].median_hi),
			figure_param(&b, 2, b.sum[2].median),
			figure_param(&b, 2, b.sum[2].median_lo),
			figure_param(&b, 2, b.sum[2].median_hi),
			P_BLOB(b.reference, b.reference_len),
		};

		rc = run_sql(st, insert_cell_sql, p, ARRAY_SIZE(p), NULL, NULL,
			     "saving a cell", err, errlen);
	}
	cell_blobs_free(&b);
	return rc;
}

static int first_id(const struct sql_row *r, void *ctx)
{
	*(int64_t *)ctx = row_int(r, 0);
	return 1;
}

/*
 * The run's row, unless its uuid is stored already: 0 with *id the new
 * row's, 1 with *id 0 when the uuid is there (a re-sent run), -1.
 */
static int insert_run_row(struct store *st, const struct stored_run *run,
			  int64_t *id, char *err, size_t errlen)
{
	char *env, *config, *quality;
	struct sql_param p[] = {
		P_TEXT(run->uuid), P_TEXT(str(run->command)), P_TEXT(str(run->label)),
		P_TEXT(str(run->host)), P_TEXT(str(run->kernel)),
		P_TEXT(run->started), P_DOUBLE(run->elapsed_s),
		P_TEXT(run->status ? run->status : "complete"),
		json_param(run->env, &env), json_param(run->config, &config),
		json_param(run->quality, &quality),
	};
	int rc;

	if (!env)
		p[8] = P_TEXT("{}");
	*id = 0;
	rc = run_sql(st, "INSERT INTO runs (uuid, command, label, host, kernel,"
		     " started, elapsed_s, status, env, config, quality)"
		     " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
		     " ON CONFLICT (uuid) DO NOTHING RETURNING id", p, ARRAY_SIZE(p),
		     first_id, id, "saving the run", err, errlen);
	free(env);
	free(config);
	free(quality);
	if (rc < 0)
		return -1;
	return *id ? 0 : 1;
}

static bool has_digested_cell(const struct stored_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].digest)
			return true;
	return false;
}

/*
 * The rows of one run; the caller holds the write transaction. 1 when a
 * run with its uuid is stored already (nothing written).
 */
static int insert_run(struct store *st, struct stored_run *run, char *err,
		      size_t errlen)
{
	int64_t id;
	int rc;

	if (has_digested_cell(run)) {
		store_set_err(err, errlen, "run %s was loaded as a digest, without its "
			"samples: it cannot be saved", run->uuid);
		return -1;
	}
	rc = insert_run_row(st, run, &id, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < run->ncells; i++)
		if (insert_cell(st, id, i, &run->cells[i], err, errlen))
			return -1;
	run->id = id;
	return 0;
}

void stored_run_fill_defaults(struct stored_run *run)
{
	if (!run->uuid[0])
		store_new_uuid(run->uuid);
	if (!run->started[0])
		now_iso8601(run->started, sizeof(run->started));
}

int store_probe_write(struct store *st, char *err, size_t errlen)
{
	return st->ops->probe_write(st, err, errlen);
}

static int find_uuid(struct store *st, const char *uuid, int64_t *id, char *err,
		     size_t errlen)
{
	const struct sql_param p[] = { P_TEXT(uuid) };
	int rc;

	*id = 0;
	rc = run_sql(st, "SELECT id FROM runs WHERE uuid = $1", p, 1, first_id, id,
		     "looking up a run", err, errlen);
	return rc < 0 ? -1 : *id ? 1 : 0;
}

int store_find_uuid(struct store *st, const char *uuid, int64_t *id, char *err,
		    size_t errlen)
{
	return find_uuid(st, uuid, id, err, errlen);
}

/*
 * One transaction: the run whole, or nothing. 0 saved; 1 its uuid was
 * stored already (run->id set to that run's); -1.
 */
static int write_run(struct store *st, struct stored_run *run, bool import,
		     char *err, size_t errlen)
{
	const char *what = import ? "importing the run" : "saving the run";
	int64_t existing;
	int rc;

	stored_run_fill_defaults(run);
	if (st->ops->begin(st, true, import ? "starting to import" :
			   "starting to save", err, errlen))
		return -1;
	rc = insert_run(st, run, err, errlen);
	if (rc == 1) {
		rollback(st);
		if (find_uuid(st, run->uuid, &existing, err, errlen) != 1)
			return -1;
		run->id = existing;
		return 1;
	}
	if (rc || st->ops->commit(st, what, err, errlen)) {
		rollback(st);
		run->id = 0;
		return -1;
	}
	return 0;
}

/* A run sent again (its uuid stored) is saved already: 0, as the first time. */
int store_save_run(struct store *st, struct stored_run *run, char *err,
		   size_t errlen)
{
	return write_run(st, run, false, err, errlen) < 0 ? -1 : 0;
}

int store_import_run(struct store *st, struct stored_run *run, char *err,
		     size_t errlen)
{
	if (stored_run_check(run, err, errlen))
		return -1;
	return write_run(st, run, true, err, errlen);
}

/* ---- loading -------------------------------------------------------- */

/* A JSON column, or NULL for SQL NULL; -1 when the text is not JSON. */
static int column_json(const struct sql_row *r, int col, json_t **out)
{
	*out = NULL;
	if (row_null(r, col))
		return 0;
	/* Not even parsed beyond what the gate lets in (a store anyone wrote). */
	if (strlen(row_text(r, col)) > STORE_JSON_MAX)
		return -2;
	*out = json_loads(row_text(r, col), JSON_DECODE_ANY, NULL);
	return *out ? 0 : -1;
}

struct run_row {
	struct stored_run *run;
	bool damaged, oversized;
};

static int take_run_row(const struct sql_row *r, void *ctx)
{
	struct run_row *rr = ctx;
	struct stored_run *run = rr->run;

	snprintf(run->uuid, sizeof(run->uuid), "%s", row_text(r, 0));
	run->command = xstrdup(row_text(r, 1));
	run->label = xstrdup(row_text(r, 2));
	run->host = xstrdup(row_text(r, 3));
	run->kernel = xstrdup(row_text(r, 4));
	snprintf(run->started, sizeof(run->started), "%s", row_text(r, 5));
	run->elapsed_s = row_double(r, 6);
	run->status = xstrdup(row_text(r, 7));
	for (int col = 8; col <= 10; col++) {
		int rc = column_json(r, col, col == 8 ? &run->env :
				     col == 9 ? &run->config : &run->quality);

		rr->oversized |= rc == -2;
		rr->damaged |= rc == -1;
	}
	return 1;
}

static int load_run_row(struct store *st, int64_t id, struct stored_run *run,
			char *err, size_t errlen)
{
	const struct sql_param p[] = { P_INT(id) };
	struct run_row rr = { run, false, false };
	int rc;

	rc = run_sql(st, st->version >= 2 ?
		     "SELECT uuid, command, label, host, kernel, started,"
		     " elapsed_s, status, env, config, quality FROM runs WHERE id = $1" :
		     "SELECT uuid, command, label, host, kernel, started,"
		     " elapsed_s, status, env, config, NULL FROM runs WHERE id = $1",
		     p, 1, take_run_row, &rr, "loading a run", err, errlen);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		store_set_err(err, errlen, "no run %lld in %s", (long long)id, st->name);
		return -1;
	}
	run->id = id;
	if (rr.damaged) {
		store_set_err(err, errlen, "%s: run %lld: its environment, configuration or "
			"quality is not valid JSON (the database is damaged)", st->name,
			(long long)id);
		return STORE_DAMAGED;
	}
	if (rr.oversized) {
		store_set_err(err, errlen, "%s: run %lld: its environment, configuration or "
			"quality is larger than clockbench writes (%d bytes)", st->name,
			(long long)id, STORE_JSON_MAX);
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
static int column_doubles(const struct sql_row *r, int col, int64_t encoding,
			  size_t n, double **out)
{
	size_t bytes;
	const void *blob = row_blob(r, col, &bytes);

	*out = NULL;
	if (!blob)
		return 0;
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

static int column_rounds(const struct sql_row *r, int col, struct stored_cell *c)
{
	size_t bytes;
	const void *blob = row_blob(r, col, &bytes);

	if (!blob)
		return 0;
	c->rounds = decode_rounds(blob, bytes, c->n);
	c->nrounds = stored_cell_count_rounds(c->rounds, c->n);
	/* Beyond what clockbench measures: damaged, not a run to compare. */
	return c->rounds && c->nrounds <= STORE_ROUNDS_MAX ? 0 : -1;
}

/* The core cycles replayed from the reference's readings, if kept so. */
static int column_reference(const struct sql_row *r, int col, struct stored_cell *c)
{
	size_t bytes;
	const void *blob = row_blob(r, col, &bytes);

	if (!blob)
		return 0;
	return c->core_cycles ? -1 : core_replay_decode(blob, bytes, c);
}

/*
 * Columns 10 to 16: samples, cycles, rounds, core_cycles, encoding, digest,
 * reference.
 */
static int load_cell_samples(const struct sql_row *r, struct stored_cell *c,
			     enum load_mode mode)
{
	int64_t encoding = row_int(r, 14);
	size_t bytes;
	const void *digest = row_blob(r, 15, &bytes);

	if (mode == LOAD_DIGEST && digest)
		return digest_apply(c, digest, bytes);
	if (column_doubles(r, 10, encoding, c->n, &c->values) ||
	    column_doubles(r, 11, encoding, c->n, &c->cycles) ||
	    column_doubles(r, 13, encoding, c->n, &c->core_cycles))
		return -1;
	if (!c->values && c->n)
		return -1;
	if (column_rounds(r, 12, c) || column_reference(r, 16, c))
		return -1;
	/* A cell saved before digests: reduced now, so that memory stays small. */
	if (mode == LOAD_DIGEST)
		digest_reduce(c);
	return 0;
}

static int load_cell(const struct sql_row *r, struct stored_cell *c,
		     enum load_mode mode)
{
	int64_t n = row_int(r, 9);

	c->name = xstrdup(row_text(r, 0));
	c->path = xstrdup(row_text(r, 1));
	c->api = xstrdup(row_text(r, 2));
	c->clock = xstrdup(row_text(r, 3));
	c->status = xstrdup(row_text(r, 4));
	c->reason = xstrdup(row_text(r, 5));
	c->unit = xstrdup(row_text(r, 6));
	c->batch_calls = (uint64_t)row_int(r, 7);
	c->cycles_unit = xstrdup(row_text(r, 8));
	if (n < 0 || n > STORE_SAMPLES_MAX * 16LL)
		return -1;
	c->n = (size_t)n;
	if (mode == LOAD_HEADER)
		return 0;
	return load_cell_samples(r, c, mode);
}

/*
 * The cells query for the store's schema: columns a later migration adds
 * read as their defaults; with a digest, a cell's sample blobs are not
 * read at all (neither engine reads a column it does not evaluate).
 */
static void cells_query(const struct store *st, enum load_mode mode,
			char *sql, size_t len)
{
	const char *blobs;

	if (mode == LOAD_HEADER)
		blobs = "";
	else if (st->version < 2)
		blobs = ", samples, cycles, rounds, NULL, 0, NULL, NULL";
	else if (st->version < 3)
		blobs = ", samples, cycles, rounds, core_cycles, 0, NULL, NULL";
	else if (st->version < 4)
		blobs = mode == LOAD_SAMPLES ?
			", samples, cycles, rounds, core_cycles, encoding, NULL, NULL" :
			", CASE WHEN digest IS NULL THEN samples END,"
			" CASE WHEN digest IS NULL THEN cycles END,"
			" CASE WHEN digest IS NULL THEN rounds END,"
			" CASE WHEN digest IS NULL THEN core_cycles END,"
			" encoding, digest, NULL";
	else if (mode == LOAD_SAMPLES)
		blobs = ", samples, cycles, rounds, core_cycles, encoding, NULL,"
			" reference";
	else
		blobs = ", CASE WHEN digest IS NULL THEN samples END,"
			" CASE WHEN digest IS NULL THEN cycles END,"
			" CASE WHEN digest IS NULL THEN rounds END,"
			" CASE WHEN digest IS NULL THEN core_cycles END,"
			" encoding, digest,"
			" CASE WHEN digest IS NULL THEN reference END";
	snprintf(sql, len, "SELECT name, path, api, clock, status, reason, unit,"
		 " batch_calls, cycles_unit, n%s FROM cells WHERE run_id = $1"
		 " ORDER BY seq", blobs);
}

static void damaged_cell_err(struct store *st, int64_t id, const char *name,
			     char *err, size_t errlen)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, name);
	store_set_err(err, errlen, "%s: run %lld: the samples of cell %s do not match "
		"their count (the database is damaged)", st->name, (long long)id,
		sb.buf);
}

struct cells_ctx {
	struct stored_run *run;
	enum load_mode mode;
	size_t cap;
};

static int take_cell(const struct sql_row *r, void *ctx)
{
	struct cells_ctx *cc = ctx;
	struct stored_run *run = cc->run;
	struct stored_cell *c;

	grow_array((void **)&run->cells, &cc->cap, run->ncells + 1,
		   sizeof(*run->cells));
	c = &run->cells[run->ncells++];
	memset(c, 0, sizeof(*c));
	return load_cell(r, c, cc->mode) ? STORE_DAMAGED : 0;
}

static int load_cells(struct store *st, struct stored_run *run,
		      enum load_mode mode, char *err, size_t errlen)
{
	const struct sql_param p[] = { P_INT(run->id) };
	struct cells_ctx cc = { run, mode, 0 };
	char sql[512];
	int rc;

	cells_query(st, mode, sql, sizeof(sql));
	rc = run_sql(st, sql, p, 1, take_cell, &cc, "loading the cells", err,
		     errlen);
	if (rc == STORE_DAMAGED)
		damaged_cell_err(st, run->id, run->cells[run->ncells - 1].name, err,
				 errlen);
	return rc;
}

static int load(struct store *st, int64_t id, struct stored_run *run,
		enum load_mode mode, char *err, size_t errlen)
{
	int rc;

	memset(run, 0, sizeof(*run));
	/* One read transaction: a concurrent rm cannot split the run. */
	if (st->ops->begin(st, false, "loading a run", err, errlen))
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
		free(c->ref.readings);
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

static int count_row(const struct sql_row *r, void *ctx)
{
	(*(size_t *)ctx)++;
	return 0;
}

int store_delete_run(struct store *st, int64_t id, char *err, size_t errlen)
{
	const struct sql_param p[] = { P_INT(id) };
	size_t deleted = 0;

	if (st->ops->begin(st, true, "starting to remove", err, errlen))
		return -1;
	if (run_sql(st, "DELETE FROM cells WHERE run_id = $1", p, 1, NULL, NULL,
		    "removing the run", err, errlen) ||
	    run_sql(st, "DELETE FROM runs WHERE id = $1 RETURNING id", p, 1,
		    count_row, &deleted, "removing the run", err, errlen))
		goto fail;
	if (deleted == 0) {
		rollback(st);
		return 1;
	}
	if (st->ops->commit(st, "removing the run", err, errlen))
		goto fail;
	return 0;
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



struct ids {
	int64_t *ids;
	size_t n, cap;
	const struct run_filter *f;	/* patterns to match, or NULL */
};

/* A filter's pattern as GLOB matched it: * ? [...], case-sensitive. */
static bool matches(const char *pattern, const char *s)
{
	return !pattern || fnmatch(pattern, s, 0) == 0;
}

/* Columns 1 to 4, label, kernel, host, command, match f's patterns. */
static bool row_matches(const struct sql_row *r, const struct run_filter *f)
{
	return !f || (matches(f->label, row_text(r, 1)) &&
		      matches(f->kernel, row_text(r, 2)) &&
		      matches(f->host, row_text(r, 3)) &&
		      matches(f->command, row_text(r, 4)));
}

/* Columns: id, then label, kernel, host, command when there is a filter. */
static int take_id(const struct sql_row *r, void *ctx)
{
	struct ids *x = ctx;

	if (!row_matches(r, x->f))
		return 0;
	grow_array((void **)&x->ids, &x->cap, x->n + 1, sizeof(*x->ids));
	x->ids[x->n++] = row_int(r, 0);
	return 0;
}

static int collect_ids(struct store *st, const char *sql,
		       const struct sql_param *p, size_t np,
		       const struct run_filter *f, int64_t **ids, size_t *n,
		       char *err, size_t errlen)
{
	struct ids x = { NULL, 0, 0, f };

	*ids = NULL;
	*n = 0;
	if (run_sql(st, sql, p, np, take_id, &x, "listing runs", err, errlen)) {
		free(x.ids);
		return -1;
	}
	*ids = x.ids;
	*n = x.n;
	return 0;
}

/* A filter's value for the engine to match: NULL when it is a pattern. */
static struct sql_param exact(const char *value)
{
	return value && !strpbrk(value, "*?[") ? P_TEXT(value) : P_NULL;
}

/*
 * The rows a filter selects, oldest first, after "SELECT id, label, kernel,
 * host, command": dates compare as prefixes of the stored ISO text, so
 * "--until 2026-11-30" includes that whole day. A value without * ? or [
 * is matched by the engine too (on the indexes of host and label), and
 * every pattern here (row_matches()), as SQLite's GLOB did.
 */
#define RUN_FILTER_SQL \
	" FROM runs WHERE (CAST($1 AS TEXT) IS NULL OR" \
	" substr(started, 1, length($1)) >= $1) AND" \
	" (CAST($2 AS TEXT) IS NULL OR" \
	" substr(started, 1, length($2)) <= $2) AND" \
	" (CAST($3 AS TEXT) IS NULL OR label = $3) AND" \
	" (CAST($4 AS TEXT) IS NULL OR kernel = $4) AND" \
	" (CAST($5 AS TEXT) IS NULL OR host = $5) AND" \
	" (CAST($6 AS TEXT) IS NULL OR command = $6)" \
	" ORDER BY started, id"

struct filter_params {
	char since[32], until[32];
	struct sql_param p[6];
};

/* RUN_FILTER_SQL's parameters for f: 0, or -1 with a bad date in err. */
static int filter_params(const struct run_filter *f, struct filter_params *fp,
			 char *err, size_t errlen)
{
	if ((f->since && !store_date_valid(f->since)) ||
	    (f->until && !store_date_valid(f->until))) {
		store_set_err(err, errlen, "invalid date '%s': expected YYYY-MM-DD, "
			"optionally with THH:MM[:SS]",
			f->since && !store_date_valid(f->since) ? f->since : f->until);
		return -1;
	}
	if (f->since)
		normalize_date(f->since, fp->since, sizeof(fp->since));
	if (f->until)
		normalize_date(f->until, fp->until, sizeof(fp->until));
	fp->p[0] = f->since ? P_TEXT(fp->since) : P_NULL;
	fp->p[1] = f->until ? P_TEXT(fp->until) : P_NULL;
	fp->p[2] = exact(f->label);
	fp->p[3] = exact(f->kernel);
	fp->p[4] = exact(f->host);
	fp->p[5] = exact(f->command);
	return 0;
}

int store_find_runs(struct store *st, const struct run_filter *f,
		    int64_t **ids, size_t *n, char *err, size_t errlen)
{
	struct filter_params fp;

	*ids = NULL;
	*n = 0;
	if (filter_params(f, &fp, err, errlen))
		return -1;
	return collect_ids(st, "SELECT id, label, kernel, host, command"
			   RUN_FILTER_SQL, fp.p, ARRAY_SIZE(fp.p), f, ids, n,
			   err, errlen);
}

/* ---- listing -------------------------------------------------------- */

/* What json_state_sql() says of a run's JSON columns. */
enum { LIST_JSON_BAD, LIST_JSON_OK, LIST_JSON_OVERSIZED };


struct summaries {
	struct run_summary *runs;
	size_t n, cap;
	const struct run_filter *f;
	struct store *st;
	bool config;
	void (*damaged)(const char *why);
};

/*
 * Columns: id, label, kernel, host, command, uuid, started, elapsed_s,
 * status, whether the JSON columns are valid, config, cells, cells ok.
 */
static int take_summary(const struct sql_row *r, void *ctx)
{
	struct summaries *x = ctx;
	struct run_summary *s;
	char why[PATH_MAX + 128];

	if (!row_matches(r, x->f))
		return 0;
	grow_array((void **)&x->runs, &x->cap, x->n + 1, sizeof(*x->runs));
	s = &x->runs[x->n];
	memset(s, 0, sizeof(*s));
	if (row_int(r, 9) == LIST_JSON_OVERSIZED) {
		store_set_err(why, sizeof(why), "%s: run %lld: its environment, "
			"configuration or quality is larger than clockbench writes (%d "
			"bytes)", x->st->name, (long long)row_int(r, 0),
			STORE_JSON_MAX);
		if (x->damaged)
			x->damaged(why);
		return 0;
	}
	if (row_int(r, 9) != LIST_JSON_OK ||
	    (x->config && column_json(r, 10, &s->run.config))) {
		store_set_err(why, sizeof(why), "%s: run %lld: its environment, "
			"configuration or quality is not valid JSON (the database is "
			"damaged)", x->st->name, (long long)row_int(r, 0));
		if (x->damaged)
			x->damaged(why);
		return 0;
	}
	s->run.id = row_int(r, 0);
	s->run.label = xstrdup(row_text(r, 1));
	s->run.kernel = xstrdup(row_text(r, 2));
	s->run.host = xstrdup(row_text(r, 3));
	s->run.command = xstrdup(row_text(r, 4));
	snprintf(s->run.uuid, sizeof(s->run.uuid), "%s", row_text(r, 5));
	snprintf(s->run.started, sizeof(s->run.started), "%s", row_text(r, 6));
	s->run.elapsed_s = row_double(r, 7);
	s->run.status = xstrdup(row_text(r, 8));
	s->cells = (size_t)row_int(r, 11);
	s->cells_ok = (size_t)row_int(r, 12);
	x->n++;
	return 0;
}

/*
 * What a run's JSON columns are, as a load would find them: 1 when they
 * parse, 0 when one does not, 2 when one is larger than the gate lets in
 * (not parsed then: a store anyone wrote). Judged by the engine, since
 * parsing them here was most of a listing's time. PostgreSQL keeps them
 * as jsonb, always valid, and is written only through the gate.
 */
static void json_state_sql(const struct store *st, struct strbuf *sql)
{
	bool quality = st->version >= 2;

	if (!streq(st->ops->engine, "SQLite")) {
		strbuf_addf(sql, "%d", LIST_JSON_OK);
		return;
	}
	strbuf_addf(sql, "CASE WHEN length(CAST(env AS BLOB)) > %d"
		    " OR length(CAST(config AS BLOB)) > %d", STORE_JSON_MAX, STORE_JSON_MAX);
	if (quality)
		strbuf_addf(sql, " OR length(CAST(quality AS BLOB)) > %d", STORE_JSON_MAX);
	strbuf_addf(sql, " THEN %d WHEN json_valid(env) AND (config IS NULL OR"
		    " json_valid(config))%s THEN %d ELSE %d END", LIST_JSON_OVERSIZED,
		    quality ? " AND (quality IS NULL OR json_valid(quality))" : "",
		    LIST_JSON_OK, LIST_JSON_BAD);
}

int store_list_runs(struct store *st, const struct run_filter *f, bool config,
		    struct run_summary **runs, size_t *n,
		    void (*damaged)(const char *why), char *err, size_t errlen)
{
	struct summaries x = { NULL, 0, 0, f, st, config, damaged };
	_cleanup_strbuf_ struct strbuf sql = STRBUF_INIT;
	struct filter_params fp;

	*runs = NULL;
	*n = 0;
	if (filter_params(f, &fp, err, errlen))
		return -1;
	/*
	 * One statement for the whole list; the cells are counted on the
	 * index of their status (schema 5) without reading their rows, whose
	 * samples make them pages long each.
	 */
	strbuf_adds(&sql, "SELECT id, label, kernel, host, command, uuid, started,"
		    " elapsed_s, status, ");
	json_state_sql(st, &sql);
	strbuf_addf(&sql, ", %s,"
		    " (SELECT count(*) FROM cells c WHERE c.run_id = runs.id),"
		    " (SELECT count(*) FROM cells c WHERE c.run_id = runs.id"
		    " AND c.status = 'ok')" RUN_FILTER_SQL, config ? "config" : "NULL");
	if (run_sql(st, sql.buf, fp.p, ARRAY_SIZE(fp.p), take_summary, &x,
		    "listing runs", err, errlen)) {
		run_summaries_free(x.runs, x.n);
		return -1;
	}
	*runs = x.runs;
	*n = x.n;
	return 0;
}

void run_summaries_free(struct run_summary *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		stored_run_free(&runs[i].run);
	free(runs);
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


/*
 * A selector, "host=NAME", "kernel=RELEASE", "label=L", "command=C", or
 * several joined by ',': the filter it means, its values in buf. False
 * when spec is not one.
 */
static bool parse_selector(const char *spec, char *buf, size_t len,
			   struct run_filter *f)
{
	static const char *const keys[] = { "host", "kernel", "label", "command" };

	memset(f, 0, sizeof(*f));
	if (snprintf(buf, len, "%s", spec) >= (int)len || !strchr(buf, '='))
		return false;
	for (char *save, *part = strtok_r(buf, ",", &save); part;
	     part = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(part, '=');
		const char **slot[] = { &f->host, &f->kernel, &f->label, &f->command };
		size_t k;

		if (!eq || !eq[1])
			return false;
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(keys) && !streq(part, keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys))
			return false;
		*slot[k] = eq + 1;
	}
	return true;
}

int store_resolve(struct store *st, const char *spec, int64_t **ids, size_t *n,
		  char *err, size_t errlen)
{
	struct sql_param p[1];
	struct run_filter f;
	const char *sql;
	char buf[512];
	uint64_t id;

	if (parse_selector(spec, buf, sizeof(buf), &f)) {
		if (store_find_runs(st, &f, ids, n, err, errlen))
			return -1;
		if (*n == 0) {
			store_set_err(err, errlen, "no run matches '%s' in %s", spec, st->name);
			free(*ids);
			*ids = NULL;
			return -1;
		}
		return 0;
	}
	if (parse_u64(spec, &id)) {
		sql = "SELECT id FROM runs WHERE id = $1";
		p[0] = P_INT(id > INT64_MAX ? -1 : (int64_t)id);
	} else if (uuid_like(spec)) {
		sql = "SELECT id FROM runs WHERE uuid = lower($1)";
		p[0] = P_TEXT(spec);
	} else {
		sql = "SELECT id FROM runs WHERE label = $1 ORDER BY started, id";
		p[0] = P_TEXT(spec);
	}
	if (collect_ids(st, sql, p, 1, NULL, ids, n, err, errlen))
		return -1;
	if (*n == 0) {
		store_set_err(err, errlen, "no run or label '%s' in %s", spec, st->name);
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
		store_set_err(why, len, "a label cannot be empty");
		return false;
	}
	if (n > LABEL_MAX) {
		store_set_err(why, len, "a label has at most %d bytes", LABEL_MAX);
		return false;
	}
	if (digits(label, n)) {
		store_set_err(why, len, "a label cannot be a number: that reads as a run id");
		return false;
	}
	if (label[0] == '-') {
		store_set_err(why, len, "a label cannot start with '-'");
		return false;
	}
	if (uuid_like(label)) {
		store_set_err(why, len, "a label cannot be a uuid: that reads as a run");
		return false;
	}
	if (find_control(label)) {
		store_set_err(why, len, "a label cannot hold control characters");
		return false;
	}
	/* Labels travel in JSON exports, which are UTF-8. */
	j = json_string(label);
	if (!j) {
		store_set_err(why, len, "a label must be valid UTF-8");
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
		json_array_append_new(a, json_number(x[i]));
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

/* What makes the core cycles again (core-replay.h), with the readings. */
static json_t *reference_json(const struct stored_reference *ref, size_t n)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:o}",
			 "base", ref->base_is_values ? "values" : "cycles",
			 "base_boundary", ref->base_boundary,
			 "reading_core_cycles", ref->reading_core,
			 "batch_boundary_core_cycles", ref->batch_boundary_core,
			 "readings", doubles_json(ref->readings, n));
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
	if (c->values && c->ref.readings)
		json_object_set_new(o, "reference", reference_json(&c->ref, c->n));
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
	json_object_set_new(o, "elapsed_s", json_number(isfinite(run->elapsed_s) ?
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
		store_set_err(err, errlen, "%s: contains a NUL character", where);
		return -1;
	}
	if (len > max) {
		store_set_err(err, errlen, "%s: %zu bytes, more than clockbench writes (%zu)",
			where, len, max);
		return -1;
	}
	bad = find_control(s);
	if (bad) {
		store_set_err(err, errlen, "%s: contains a control character (byte %zu)",
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
			store_set_err(err, errlen, "%s: missing", where);
			return -1;
		}
		*out = xstrdup("");
		return 0;
	}
	if (!json_is_string(j)) {
		store_set_err(err, errlen, "%s: expected a string, got %s", where,
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
		store_set_err(err, errlen, "%s: expected an array of numbers, got %s",
			where, json_type_name(arr));
		return -1;
	}
	*n = json_array_size(arr);
	if (*n > STORE_SAMPLES_MAX) {
		store_set_err(err, errlen, "%s: %zu samples, more than clockbench takes in "
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
			store_set_err(err, errlen, "%s: expected a number, got %s",
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
		store_set_err(err, errlen, "%s: %zu values for %zu samples", where, got, n);
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
		store_set_err(err, errlen, "%s: expected an array of round numbers, got %s",
			where, json_type_name(arr));
		return -1;
	}
	if (json_array_size(arr) != c->n) {
		store_set_err(err, errlen, "%s: %zu values for %zu samples", where,
			json_array_size(arr), c->n);
		return -1;
	}
	c->rounds = xmalloc((c->n ? c->n : 1) * sizeof(uint32_t));
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v)) {
			store_set_err(err, errlen, "%s: expected a round number, got %s",
				jpath(&p, "%s[%zu]", where, i), json_type_name(v));
			return -1;
		}
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) >= STORE_ROUNDS_MAX) {
			store_set_err(err, errlen, "%s: round %" JSON_INTEGER_FORMAT " is out "
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
		store_set_err(err, errlen, "cells[%zu].name: empty", idx);
		return -1;
	}
	if (!cell_status_known(c->status)) {
		store_set_err(err, errlen, "cells[%zu].status: '%s' is not ok, n/a, "
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
		store_set_err(err, errlen, "cells[%zu].batch_calls: expected a "
			"non-negative integer, got %s", idx, json_type_name(v));
		return -1;
	}
	if ((uint64_t)json_integer_value(v) > STORE_BATCH_CALLS_MAX) {
		store_set_err(err, errlen, "cells[%zu].batch_calls: %" JSON_INTEGER_FORMAT
			" is more than clockbench makes in a sample (2^40)", idx,
			json_integer_value(v));
		return -1;
	}
	c->batch_calls = (uint64_t)json_integer_value(v);
	return 0;
}

/* A finite number of o's, named where it is not. */
static int get_figure(const json_t *o, const char *key, size_t idx, double *x,
		      char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	*x = json_is_number(v) ? json_number_value(v) : NAN;
	if (isfinite(*x))
		return 0;
	store_set_err(err, errlen, "cells[%zu].reference.%s: expected a finite number, "
		      "got %s", idx, key, json_is_number(v) ? "a non-finite one" :
		      v ? json_type_name(v) : "nothing");
	return -1;
}

/*
 * The reference's readings and figures. The store replays them and keeps
 * them only when they give the core cycles back bit for bit, so a file
 * cannot make it store other core cycles than the file's own.
 */
static int get_reference(const json_t *o, size_t idx, struct stored_cell *c,
			 char *err, size_t errlen)
{
	const char *base = json_string_value(json_object_get(o, "base"));
	struct stored_reference *ref = &c->ref;
	struct jpath p;

	if (!json_is_object(o)) {
		store_set_err(err, errlen, "cells[%zu].reference: expected an object, got %s",
			      idx, json_type_name(o));
		return -1;
	}
	if (!base || (!streq(base, "cycles") && !streq(base, "values"))) {
		store_set_err(err, errlen, "cells[%zu].reference.base: expected \"cycles\" "
			      "or \"values\"", idx);
		return -1;
	}
	ref->base_is_values = streq(base, "values");
	if (get_figure(o, "base_boundary", idx, &ref->base_boundary, err, errlen) ||
	    get_figure(o, "reading_core_cycles", idx, &ref->reading_core, err, errlen) ||
	    get_figure(o, "batch_boundary_core_cycles", idx, &ref->batch_boundary_core,
		       err, errlen))
		return -1;
	if (!json_object_get(o, "readings")) {
		store_set_err(err, errlen, "cells[%zu].reference.readings: missing", idx);
		return -1;
	}
	return get_same_length(json_object_get(o, "readings"),
			       jpath(&p, "cells[%zu].reference.readings", idx), c->n,
			       &ref->readings, err, errlen);
}

static int cell_samples_from_json(const json_t *j, size_t idx,
				  struct stored_cell *c, char *err, size_t errlen)
{
	const json_t *v = json_object_get(j, "samples");
	struct jpath p;
	size_t ncycles;

	if (!v) {
		store_set_err(err, errlen, "cells[%zu].samples: missing (bench and "
			      "show write them with --format json --samples)", idx);
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
			store_set_err(err, errlen, "cells[%zu].samples_cycles: %zu values for "
				"%zu samples", idx, ncycles, c->n);
			return -1;
		}
	}
	v = json_object_get(j, "samples_core_cycles");
	if (v && !json_is_null(v) &&
	    get_same_length(v, jpath(&p, "cells[%zu].samples_core_cycles", idx),
			    c->n, &c->core_cycles, err, errlen))
		return -1;
	v = json_object_get(j, "reference");
	if (v && !json_is_null(v) && get_reference(v, idx, c, err, errlen))
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
		store_set_err(err, errlen, "cells[%zu]: expected an object, got %s", idx,
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
		store_set_err(err, errlen, "uuid: '%s' is not a uuid", s);
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
		store_set_err(err, errlen, "started: '%s' is not a UTC time such as "
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
	/* The command, label and status are judged by stored_run_check(). */
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
		store_set_err(err, errlen, "%s: missing", key);
		return -1;
	}
	if (!v || (!required && json_is_null(v)))
		return 0;
	if (!json_is_object(v)) {
		store_set_err(err, errlen, "%s: expected an object%s, got %s", key,
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
		store_set_err(err, errlen, "expected a run object, got %s", json_type_name(j));
		return -1;
	}
	if (run_strings_from_json(j, run, err, errlen))
		goto fail;
	v = json_object_get(j, "elapsed_s");
	if (!v || !json_is_number(v) || json_number_value(v) < 0) {
		store_set_err(err, errlen, "elapsed_s: %s", !v ? "missing" :
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
		store_set_err(err, errlen, "cells: %s%s", cells ? "expected an array, got " :
			"missing", cells ? json_type_name(cells) : "");
		goto fail;
	}
	if (json_array_size(cells) > STORE_CELLS_MAX) {
		store_set_err(err, errlen, "cells: %zu cells, more than clockbench writes "
			"in a run (%d)", json_array_size(cells), STORE_CELLS_MAX);
		goto fail;
	}
	run->cells = xcalloc(json_array_size(cells), sizeof(*run->cells));
	json_array_foreach(cells, i, c) {
		run->ncells = i + 1;
		if (stored_cell_from_json(c, i, &run->cells[i], err, errlen))
			goto fail;
	}
	/* The gate every foreign run passes, as export_file_next()'s do. */
	if (stored_run_check(run, err, errlen))
		goto fail;
	return 0;
fail:
	stored_run_free(run);
	return -1;
}

/* ---- the gate of foreign runs ---------------------------------------- */

/*
 * About the bytes j takes as JSON text, counted up to just over limit (a
 * bigger one is refused, however much bigger).
 */
static size_t json_text_size(const json_t *j, size_t limit)
{
	const char *key;
	size_t i, size = 0;
	json_t *v;

	if (json_is_string(j))
		return json_string_length(j) + 2;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			size += json_text_size(v, limit) + 1;
			if (size > limit)
				break;
		}
		return size + 2;
	}
	if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v) {
			size += strlen(key) + 4 + json_text_size(v, limit);
			if (size > limit)
				break;
		}
		return size + 2;
	}
	return 24;	/* a number, true, false or null */
}

/*
 * An environment, config or quality object: its texts as the reader
 * checks them, and the whole at most STORE_JSON_MAX bytes (a run carrying
 * hundreds of MB there made every command slow and large).
 */
static int check_json_member(const json_t *j, const char *name, char *err,
			     size_t errlen)
{
	char where[256];
	size_t size;

	if (!j)
		return 0;
	if (!json_is_object(j)) {
		store_set_err(err, errlen, "%s: expected an object, got %s", name,
			      json_type_name(j));
		return -1;
	}
	size = json_text_size(j, STORE_JSON_MAX);
	if (size > STORE_JSON_MAX) {
		store_set_err(err, errlen, "%s: more than the %d bytes clockbench "
			      "writes (STORE_JSON_MAX)", name, STORE_JSON_MAX);
		return -1;
	}
	snprintf(where, sizeof(where), "%s", name);
	return check_json_texts(j, where, strlen(where), sizeof(where), err, errlen);
}

static int check_run_text(const char *s, const char *where, size_t max,
			  bool required, char *err, size_t errlen)
{
	if (!s || (required && !*s)) {
		store_set_err(err, errlen, "%s: missing", where);
		return -1;
	}
	return check_text(s, strlen(s), where, max, err, errlen);
}

static int check_run_strings(const struct stored_run *run, char *err,
			     size_t errlen)
{
	char why[96];

	if (check_run_text(run->uuid, "uuid", STORE_NAME_MAX, true, err, errlen) ||
	    check_run_text(run->started, "started", STORE_NAME_MAX, true, err, errlen) ||
	    check_run_text(run->command, "command", STORE_NAME_MAX, true, err, errlen) ||
	    check_run_text(run->label, "label", STORE_TEXT_MAX, false, err, errlen) ||
	    check_run_text(run->host, "host", STORE_TEXT_MAX, false, err, errlen) ||
	    check_run_text(run->kernel, "kernel", STORE_TEXT_MAX, false, err, errlen) ||
	    check_run_text(run->status, "status", STORE_NAME_MAX, true, err, errlen))
		return -1;
	if (!uuid_like(run->uuid)) {
		store_set_err(err, errlen, "uuid: '%s' is not a uuid", run->uuid);
		return -1;
	}
	if (strlen(run->started) != 20 || run->started[10] != 'T' ||
	    !store_date_valid(run->started)) {
		store_set_err(err, errlen, "started: '%s' is not a UTC time such as "
			      "2026-11-30T13:50:02Z", run->started);
		return -1;
	}
	if (!command_like(run->command)) {
		store_set_err(err, errlen, "command: '%s' is not a clockbench command",
			      run->command);
		return -1;
	}
	if (*run->label && !store_label_valid(run->label, why, sizeof(why))) {
		store_set_err(err, errlen, "label: '%s': %s", run->label, why);
		return -1;
	}
	if (!streq(run->status, "complete") && !streq(run->status, "interrupted")) {
		store_set_err(err, errlen, "status: '%s' is neither complete nor "
			      "interrupted", run->status);
		return -1;
	}
	return 0;
}

static int check_cell(const struct stored_cell *c, size_t idx, char *err,
		      size_t errlen)
{
	const struct {
		const char *key, *value;
		bool required;
		size_t max;
	} fields[] = {
		{ "name", c->name, true, STORE_TEXT_MAX },
		{ "path", c->path, false, STORE_NAME_MAX },
		{ "api", c->api, false, STORE_NAME_MAX },
		{ "clock", c->clock, false, STORE_NAME_MAX },
		{ "status", c->status, true, STORE_NAME_MAX },
		{ "reason", c->reason, false, STORE_TEXT_MAX },
		{ "unit", c->unit, true, STORE_NAME_MAX },
		{ "cycles_unit", c->cycles_unit, false, STORE_NAME_MAX },
	};
	char where[64];

	for (size_t k = 0; k < ARRAY_SIZE(fields); k++) {
		snprintf(where, sizeof(where), "cells[%zu].%s", idx, fields[k].key);
		if (check_run_text(fields[k].value ? fields[k].value : "", where,
				   fields[k].max, fields[k].required, err, errlen))
			return -1;
	}
	if (!cell_status_known(c->status)) {
		store_set_err(err, errlen, "cells[%zu].status: '%s' is not ok, n/a, "
			      "unsupported or not reached", idx, c->status);
		return -1;
	}
	if (c->n > STORE_SAMPLES_MAX || c->nrounds > STORE_ROUNDS_MAX ||
	    c->batch_calls > STORE_BATCH_CALLS_MAX) {
		store_set_err(err, errlen, "cells[%zu]: more %s than clockbench writes",
			      idx, c->n > STORE_SAMPLES_MAX ? "samples" :
			      c->nrounds > STORE_ROUNDS_MAX ? "rounds" :
			      "calls in a sample");
		return -1;
	}
	return 0;
}

/* Every field of the run but its cells. */
static int check_run_header(const struct stored_run *run, char *err,
			    size_t errlen)
{
	if (check_run_strings(run, err, errlen))
		return -1;
	if (!isfinite(run->elapsed_s) || run->elapsed_s < 0) {
		store_set_err(err, errlen, "elapsed_s: expected a non-negative number");
		return -1;
	}
	if (!run->env) {
		store_set_err(err, errlen, "environment: missing");
		return -1;
	}
	return check_json_member(run->env, "environment", err, errlen) ||
	       check_json_member(run->config, "config", err, errlen) ||
	       check_json_member(run->quality, "quality", err, errlen) ? -1 : 0;
}

int stored_run_check(const struct stored_run *run, char *err, size_t errlen)
{
	if (check_run_header(run, err, errlen))
		return -1;
	if (run->ncells > STORE_CELLS_MAX) {
		store_set_err(err, errlen, "cells: %zu cells, more than clockbench "
			      "writes in a run (%d)", run->ncells, STORE_CELLS_MAX);
		return -1;
	}
	for (size_t i = 0; i < run->ncells; i++)
		if (check_cell(&run->cells[i], i, err, errlen))
			return -1;
	return 0;
}
