// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Saving runs to the store (store.h), and removing them: a run's row and
 * its cells, each run in one transaction. What the parts of the store
 * share: store-internal.h.
 */
#include "results/store-internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "basic/json.h"
#include "basic/stats.h"
#include "basic/util.h"
#include "results/codec.h"
#include "results/core-replay.h"
#include "results/digest.h"

/* ---- saving --------------------------------------------------------- */

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
	*keep = j ? json_encode(j, JSON_COMPACT) : NULL;
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
	if (!x || !n)
		return;
	stats_summarize_copy(x, n, &b->sum[m]);
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
		       const struct stored_cell *c, struct strbuf *err)
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
			     "saving a cell", err);
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
			  int64_t *id, struct strbuf *err)
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
		     first_id, id, "saving the run", err);
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
static int insert_run(struct store *st, struct stored_run *run, struct strbuf *err)
{
	int64_t id;
	int rc;

	if (has_digested_cell(run)) {
		strbuf_setf(err, "run %s was loaded as a digest, without its "
			"samples: it cannot be saved", run->uuid);
		return -1;
	}
	rc = insert_run_row(st, run, &id, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < run->ncells; i++)
		if (insert_cell(st, id, i, &run->cells[i], err))
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

int store_probe_write(struct store *st, struct strbuf *err)
{
	return st->ops->probe_write(st, err);
}

static int find_uuid(struct store *st, const char *uuid, int64_t *id,
		     struct strbuf *err)
{
	const struct sql_param p[] = { P_TEXT(uuid) };
	int rc;

	*id = 0;
	rc = run_sql(st, "SELECT id FROM runs WHERE uuid = $1", p, 1, first_id, id,
		     "looking up a run", err);
	return rc < 0 ? -1 : *id ? 1 : 0;
}

int store_find_uuid(struct store *st, const char *uuid, int64_t *id,
		    struct strbuf *err)
{
	return find_uuid(st, uuid, id, err);
}

/*
 * One transaction: the run whole, or nothing. 0 saved; 1 its uuid was
 * stored already (run->id set to that run's); -1.
 */
static int write_run(struct store *st, struct stored_run *run, bool import,
		     struct strbuf *err)
{
	const char *what = import ? "importing the run" : "saving the run";
	int64_t existing;
	int rc;

	stored_run_fill_defaults(run);
	if (st->ops->begin(st, true, import ? "starting to import" :
			   "starting to save", err))
		return -1;
	rc = insert_run(st, run, err);
	if (rc == 1) {
		rollback(st);
		if (find_uuid(st, run->uuid, &existing, err) != 1)
			return -1;
		run->id = existing;
		return 1;
	}
	if (rc || st->ops->commit(st, what, err)) {
		rollback(st);
		run->id = 0;
		return -1;
	}
	return 0;
}

/* A run sent again (its uuid stored) is saved already: 0, as the first time. */
int store_save_run(struct store *st, struct stored_run *run, struct strbuf *err)
{
	return write_run(st, run, false, err) < 0 ? -1 : 0;
}

int store_import_run(struct store *st, struct stored_run *run, struct strbuf *err)
{
	if (stored_run_check(run, err))
		return -1;
	return write_run(st, run, true, err);
}

int store_import_batch(struct store *st, store_run_source next, void *ctx,
		       int64_t *ids, size_t max, size_t *n, struct strbuf *err)
{
	struct stored_run run;
	int rc;

	*n = 0;
	if (st->ops->begin(st, true, "starting to import", err))
		return -1;
	while ((rc = next(ctx, &run, err)) == 1) {
		if (*n == max) {
			strbuf_setf(err, "more than %zu runs", max);
			rc = -1;
		} else if (stored_run_check(&run, err) == 0) {
			stored_run_fill_defaults(&run);
			rc = insert_run(st, &run, err);
			if (rc == 1)
				strbuf_setf(err, "run %s is stored already", run.uuid);
		} else {
			rc = -1;
		}
		if (rc == 0)
			ids[(*n)++] = run.id;
		stored_run_free(&run);
		if (rc != 0)
			break;
	}
	if (rc != 0 || st->ops->commit(st, "importing the runs", err)) {
		rollback(st);
		*n = 0;
		return -1;
	}
	return 0;
}

/* ---- removing ------------------------------------------------------- */

static int count_row(const struct sql_row *r, void *ctx)
{
	(*(size_t *)ctx)++;
	return 0;
}

int store_delete_run(struct store *st, int64_t id, struct strbuf *err)
{
	const struct sql_param p[] = { P_INT(id) };
	size_t deleted = 0;

	if (st->ops->begin(st, true, "starting to remove", err))
		return -1;
	if (run_sql(st, "DELETE FROM cells WHERE run_id = $1", p, 1, NULL, NULL,
		    "removing the run", err) ||
	    run_sql(st, "DELETE FROM runs WHERE id = $1 RETURNING id", p, 1,
		    count_row, &deleted, "removing the run", err))
		goto fail;
	if (deleted == 0) {
		rollback(st);
		return 1;
	}
	if (st->ops->commit(st, "removing the run", err))
		goto fail;
	return 0;
fail:
	rollback(st);
	return -1;
}
