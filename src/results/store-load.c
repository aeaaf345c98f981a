// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading runs from the store (store.h): a run's row, then its cells,
 * whole, as a digest or the header only.
 */
#include "results/store-internal.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/codec.h"
#include "results/core-replay.h"
#include "results/digest.h"
#include "results/run-facts.h"

/* ---- loading -------------------------------------------------------- */

/* A JSON column, or NULL for SQL NULL; -1 when the text is not JSON. */
int column_json(const struct sql_row *r, int col, json_t **out)
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
			struct strbuf *err)
{
	const struct sql_param p[] = { P_INT(id) };
	struct run_row rr = { run, false, false };
	int rc;

	rc = run_sql(st, st->version >= 2 ?
		     "SELECT uuid, command, label, host, kernel, started,"
		     " elapsed_s, status, env, config, quality FROM runs WHERE id = $1" :
		     "SELECT uuid, command, label, host, kernel, started,"
		     " elapsed_s, status, env, config, NULL FROM runs WHERE id = $1",
		     p, 1, take_run_row, &rr, "loading a run", err);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		strbuf_setf(err, "no run %lld in %s", (long long)id, st->name);
		return -1;
	}
	run->id = id;
	if (rr.damaged) {
		strbuf_setf(err, "%s: run %lld: its environment, configuration or "
			"quality is not valid JSON (the database is damaged)", st->name,
			(long long)id);
		return STORE_DAMAGED;
	}
	if (rr.oversized) {
		strbuf_setf(err, "%s: run %lld: its environment, configuration or "
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
			     struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, name);
	strbuf_setf(err, "%s: run %lld: the samples of cell %s do not match "
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
		      enum load_mode mode, struct strbuf *err)
{
	const struct sql_param p[] = { P_INT(run->id) };
	struct cells_ctx cc = { run, mode, 0 };
	char sql[512];
	int rc;

	cells_query(st, mode, sql, sizeof(sql));
	rc = run_sql(st, sql, p, 1, take_cell, &cc, "loading the cells", err);
	if (rc == STORE_DAMAGED)
		damaged_cell_err(st, run->id, run->cells[run->ncells - 1].name, err);
	return rc;
}

static int load(struct store *st, int64_t id, struct stored_run *run,
		enum load_mode mode, struct strbuf *err)
{
	int rc;

	memset(run, 0, sizeof(*run));
	/* One read transaction: a concurrent rm cannot split the run. */
	if (st->ops->begin(st, false, "loading a run", err))
		return -1;
	rc = load_run_row(st, id, run, err);
	if (!rc)
		rc = load_cells(st, run, mode, err);
	rollback(st);
	if (rc)
		stored_run_free(run);
	return rc;
}

int store_load_run(struct store *st, int64_t id, struct stored_run *run,
		   struct strbuf *err)
{
	return load(st, id, run, LOAD_SAMPLES, err);
}

int store_load_run_digest(struct store *st, int64_t id, struct stored_run *run,
			  struct strbuf *err)
{
	return load(st, id, run, LOAD_DIGEST, err);
}

int store_load_run_header(struct store *st, int64_t id, struct stored_run *run,
			  struct strbuf *err)
{
	return load(st, id, run, LOAD_HEADER, err);
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
	run_facts_forget(run);
	json_decref(run->env);
	json_decref(run->config);
	json_decref(run->quality);
	memset(run, 0, sizeof(*run));
}
