// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/transfer.h"

#include <stdio.h>
#include <string.h>

#include "basic/error.h"
#include "basic/util.h"

/*
 * Whether to has run id of from already: 1 yes, 0 no, 2 the run fails
 * import's gate (err says why), -1; *r is its header (freed by caller).
 */
static int already_there(struct store *from, struct store *to, int64_t id,
			 struct stored_run *r, struct strbuf *err)
{
	int64_t there;
	int rc = store_load_run_header(from, id, r, err);

	if (rc)
		return rc == STORE_DAMAGED ? 2 : -1;
	return store_find_uuid(to, r->uuid, &there, err);
}

/* A run of from that is not one clockbench writes: named, left behind. */
static void refuse(const char *err, const char *verb, struct transfer_counts *c)
{
	error_msg("%s; not %s", err, verb);
	c->refused++;
}

static int copy_one(struct store *from, struct store *to, int64_t id,
		    const char *verb, struct transfer_counts *c, struct strbuf *err)
{
	struct stored_run r;
	int64_t local = id;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	int rc = already_there(from, to, id, &r, err);

	stored_run_free(&r);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		c->present++;
		return 0;
	}
	/*
	 * A store can hold what no export file may (anyone can write a fleet
	 * database or a file): the run passes import's gate, or stays behind.
	 */
	if (rc == 2) {
		refuse(err->buf, verb, c);
		return 0;
	}
	rc = store_load_run(from, id, &r, err);
	if (rc == STORE_DAMAGED) {
		refuse(err->buf, verb, c);
		return 0;
	}
	if (rc)
		return -1;
	if (stored_run_check(&r, &why)) {
		strbuf_setf(err, "%s: run %lld: %s", store_name(from),
			    (long long)local, why.buf);
		refuse(err->buf, verb, c);
		stored_run_free(&r);
		return 0;
	}
	r.id = 0;
	rc = store_import_run(to, &r, err);
	if (rc == 0) {
		/* Line by line: what has landed is known even if the rest fails. */
		printf("%s run %lld (%s) as run %lld\n", verb, (long long)local, r.uuid,
		       (long long)r.id);
		fflush(stdout);
		c->copied++;
	} else if (rc == 1) {
		c->present++;	/* landed meanwhile from elsewhere */
	}
	stored_run_free(&r);
	return rc < 0 ? -1 : 0;
}

int transfer_runs(struct store *from, struct store *to, const int64_t *ids,
		  size_t n, const char *verb, struct transfer_counts *counts,
		  struct strbuf *err)
{
	memset(counts, 0, sizeof(*counts));
	for (size_t i = 0; i < n; i++)
		if (copy_one(from, to, ids[i], verb, counts, err))
			return -1;
	return 0;
}
