// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which runs: filters (host, kernel, label, dates), the listing of runs,
 * and the run specs (ids, labels, uuids) and labels commands take.
 */
#include "results/store-internal.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <string.h>

#include "basic/suggest.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

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
		       struct strbuf *err)
{
	struct ids x = { NULL, 0, 0, f };

	*ids = NULL;
	*n = 0;
	if (run_sql(st, sql, p, np, take_id, &x, "listing runs", err)) {
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
			 struct strbuf *err)
{
	if ((f->since && !store_date_valid(f->since)) ||
	    (f->until && !store_date_valid(f->until))) {
		strbuf_setf(err, "invalid date '%s': expected YYYY-MM-DD, "
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
		    int64_t **ids, size_t *n, struct strbuf *err)
{
	struct filter_params fp;

	*ids = NULL;
	*n = 0;
	if (filter_params(f, &fp, err))
		return -1;
	return collect_ids(st, "SELECT id, label, kernel, host, command"
			   RUN_FILTER_SQL, fp.p, ARRAY_SIZE(fp.p), f, ids, n,
			   err);
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
	void (*damaged)(const char *reason);
};

/*
 * Columns: id, label, kernel, host, command, uuid, started, elapsed_s,
 * status, whether the JSON columns are valid, config, cells, cells ok,
 * whether its timings are emulated.
 */
static int take_summary(const struct sql_row *r, void *ctx)
{
	struct summaries *x = ctx;
	struct run_summary *s;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!row_matches(r, x->f))
		return 0;
	grow_array((void **)&x->runs, &x->cap, x->n + 1, sizeof(*x->runs));
	s = &x->runs[x->n];
	memset(s, 0, sizeof(*s));
	if (row_int(r, 9) == LIST_JSON_OVERSIZED) {
		strbuf_setf(&why, "%s: run %lld: its environment, "
			"configuration or quality is larger than clockbench writes (%d "
			"bytes)", x->st->name, (long long)row_int(r, 0),
			STORE_JSON_MAX);
		if (x->damaged)
			x->damaged(why.buf);
		return 0;
	}
	if (row_int(r, 9) != LIST_JSON_OK ||
	    (x->config && column_json(r, 10, &s->run.config))) {
		strbuf_setf(&why, "%s: run %lld: its environment, "
			"configuration or quality is not valid JSON (the database is "
			"damaged)", x->st->name, (long long)row_int(r, 0));
		if (x->damaged)
			x->damaged(why.buf);
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
	s->emulated = row_int(r, 13) != 0;
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

/*
 * Whether a run's environment says its timings are emulated
 * (environment.vm.emulated true, as run_facts() reads it), judged by the
 * engine so that a listing still parses no JSON: 1 or 0, and 0 for a
 * column json_state_sql() refuses.
 */
static void emulated_sql(const struct store *st, struct strbuf *sql)
{
	if (!streq(st->ops->engine, "SQLite")) {
		strbuf_adds(sql, "CASE WHEN env->'vm'->'emulated' = 'true'::jsonb"
			    " THEN 1 ELSE 0 END");
		return;
	}
	strbuf_addf(sql, "CASE WHEN length(CAST(env AS BLOB)) <= %d AND json_valid(env)"
		    " AND json_type(env, '$.vm.emulated') = 'true' THEN 1 ELSE 0 END",
		    STORE_JSON_MAX);
}

int store_list_runs(struct store *st, const struct run_filter *f, bool config,
		    struct run_summary **runs, size_t *n,
		    void (*damaged)(const char *reason), struct strbuf *err)
{
	struct summaries x = { NULL, 0, 0, f, st, config, damaged };
	_cleanup_strbuf_ struct strbuf sql = STRBUF_INIT;
	struct filter_params fp;

	*runs = NULL;
	*n = 0;
	if (filter_params(f, &fp, err))
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
		    " AND c.status = 'ok'), ", config ? "config" : "NULL");
	emulated_sql(st, &sql);
	strbuf_adds(&sql, RUN_FILTER_SQL);
	if (run_sql(st, sql.buf, fp.p, ARRAY_SIZE(fp.p), take_summary, &x,
		    "listing runs", err)) {
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

bool uuid_like(const char *s)
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

/* The labels of a store, for a hint: the nearest, and the first few. */
struct labels_seen {
	struct suggestion near;
	struct strbuf some;
	char *best;	/* near.best, copied: a row's text lives until the next */
	size_t n;
};

#define LABELS_SHOWN 8

static int take_label(const struct sql_row *row, void *ctx)
{
	struct labels_seen *l = ctx;
	const char *label = row->ops->get_text(row, 0);

	if (!*label)
		return 0;
	if (l->n++ < LABELS_SHOWN)
		strbuf_addf(&l->some, "%s%s", l->some.len ? ", " : "", label);
	suggestion_consider(&l->near, label);
	if (l->near.best == label) {
		free(l->best);
		l->best = xstrdup(label);
		l->near.best = l->best;
	}
	return 0;
}

/*
 * "; did you mean 'before'? (labels here: after, before, ...)": what a
 * mistyped label was near, and which labels the store has.
 */
static void labels_hint(struct store *st, const char *spec, struct strbuf *err)
{
	struct labels_seen l = { .near = SUGGESTION_INIT(spec), .some = STRBUF_INIT };
	_cleanup_strbuf_ struct strbuf ignored = STRBUF_INIT;

	if (run_sql(st, "SELECT DISTINCT label FROM runs ORDER BY label", NULL, 0,
		    take_label, &l, "listing labels", &ignored) == 0) {
		suggestion_add(&l.near, "", err);
		if (l.n)
			strbuf_addf(err, " (labels here: %s%s)", l.some.buf,
				    l.n > LABELS_SHOWN ? ", ..." : "");
	}
	strbuf_release(&l.some);
	free(l.best);
}

int store_resolve(struct store *st, const char *spec, int64_t **ids, size_t *n,
		  struct strbuf *err)
{
	struct sql_param p[1];
	struct run_filter f;
	const char *sql;
	char buf[512];
	uint64_t id;

	if (parse_selector(spec, buf, sizeof(buf), &f)) {
		if (store_find_runs(st, &f, ids, n, err))
			return -1;
		if (*n == 0) {
			strbuf_setf(err, "no run matches '%s' in %s", spec, st->name);
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
	if (collect_ids(st, sql, p, 1, NULL, ids, n, err))
		return -1;
	if (*n == 0) {
		strbuf_setf(err, "no run or label '%s' in %s", spec, st->name);
		if (!parse_u64(spec, &id) && !uuid_like(spec))
			labels_hint(st, spec, err);
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return 0;
}

bool store_label_valid(const char *label, struct strbuf *err)
{
	size_t n = label ? strlen(label) : 0;
	json_t *j;

	if (n == 0) {
		strbuf_setf(err, "a label cannot be empty");
		return false;
	}
	if (n > LABEL_MAX) {
		strbuf_setf(err, "a label has at most %d bytes", LABEL_MAX);
		return false;
	}
	if (digits(label, n)) {
		strbuf_setf(err, "a label cannot be a number: that reads as a run id");
		return false;
	}
	if (label[0] == '-') {
		strbuf_setf(err, "a label cannot start with '-'");
		return false;
	}
	if (uuid_like(label)) {
		strbuf_setf(err, "a label cannot be a uuid: that reads as a run");
		return false;
	}
	if (text_find_control(label)) {
		strbuf_setf(err, "a label cannot hold control characters");
		return false;
	}
	/* Labels travel in JSON exports, which are UTF-8. */
	j = json_string(label);
	if (!j) {
		strbuf_setf(err, "a label must be valid UTF-8");
		return false;
	}
	json_decref(j);
	return true;
}

bool store_invocation_label(char *out, size_t len, const char *command,
			    const char *invocation, const char *part)
{
	int n = snprintf(out, len, "%s-%.8s-%s", command, invocation, part);

	return n >= 0 && (size_t)n < len;
}
