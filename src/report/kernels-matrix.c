// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/kernels-matrix.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/tap.h"

#include <jansson.h>

/* What a kernel's boots said of one check: each result's count. */
struct check_row {
	char *name;
	unsigned count[KERNELS_MAX][TAP_XFAIL + 1];
	char *message[KERNELS_MAX];	/* the first boot's, for what is not a pass */
};

/*
 * The row of check name, added when new and within the limit (NULL past
 * it). The index maps a name to its row (jansson's object is a hash
 * table): a search through the rows for each line of each boot would take
 * the square of their number.
 */
static struct check_row *find_row(struct kernels_checks *m, const char *name)
{
	json_t *at = json_object_get(m->index, name);

	if (at)
		return &m->rows[json_integer_value(at)];
	if (m->nrows == KERNELS_CHECKS_MAX)
		return NULL;
	grow_array((void **)&m->rows, &m->cap, m->nrows + 1, sizeof(*m->rows));
	memset(&m->rows[m->nrows], 0, sizeof(*m->rows));
	m->rows[m->nrows].name = xstrdup(name);
	json_object_set_new(m->index, name, json_integer((json_int_t)m->nrows));
	return &m->rows[m->nrows++];
}

void kernels_checks_add(struct kernels_checks *m, size_t k, const char *output)
{
	struct tap_point *p;
	size_t npoints = tap_parse(output, &p);

	if (!m->index)
		m->index = json_object();
	for (size_t i = 0; i < npoints; i++) {
		struct check_row *r = find_row(m, p[i].name);

		m->failed += p[i].result == TAP_FAIL;
		if (!r) {
			m->dropped++;
			continue;
		}
		r->count[k][p[i].result]++;
		if (p[i].result != TAP_PASS && !r->message[k])
			r->message[k] = xstrndup(p[i].message, KERNELS_MESSAGE_MAX);
	}
	tap_points_free(p, npoints);
}

void kernels_checks_free(struct kernels_checks *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		free(m->rows[i].name);
		for (size_t k = 0; k < KERNELS_MAX; k++)
			free(m->rows[i].message[k]);
	}
	free(m->rows);
	json_decref(m->index);
	memset(m, 0, sizeof(*m));
}

/* "pass", or "fail 1/3" when the boots of one kernel disagree. */
static void row_cell(const struct check_row *r, size_t k, char *buf, size_t len)
{
	unsigned total = 0, best = 0;
	int kinds = 0;

	for (int t = 0; t <= TAP_XFAIL; t++) {
		total += r->count[k][t];
		kinds += r->count[k][t] != 0;
		if (r->count[k][t] > r->count[k][best])
			best = (unsigned)t;
	}
	if (!total)
		snprintf(buf, len, "-");
	else if (kinds == 1)
		snprintf(buf, len, "%s", tap_result_name((enum tap_result)best));
	else
		snprintf(buf, len, "%s %u/%u", tap_result_name((enum tap_result)best),
			 r->count[k][best], total);
}

static bool row_differs(const struct check_row *r,
			const struct kernels_column *cols, size_t n)
{
	char first[32], cell[32];
	bool seen = false;

	for (size_t k = 0; k < n; k++) {
		if (!cols[k].noutputs)
			continue;
		row_cell(r, k, cell, sizeof(cell));
		if (strchr(cell, '/'))
			return true;
		if (seen && strcmp(cell, first))
			return true;
		snprintf(first, sizeof(first), "%s", cell);
		seen = true;
	}
	return false;
}

/*
 * A check's row; below it, what each kernel that did not pass said, unless
 * the row above said the same (*said: the last message shown per kernel).
 */
static void add_check_row(struct table *t, const struct check_row *r,
			  const struct kernels_column *cols, size_t n,
			  const char *said[KERNELS_MAX])
{
	char cell[32];

	table_add_text(t, r->name);
	for (size_t k = 0; k < n; k++) {
		if (!cols[k].noutputs)
			continue;
		row_cell(r, k, cell, sizeof(cell));
		table_add_text(t, cell);
	}
	/* What each kernel that did not pass said: the difference explained. */
	for (size_t k = 0; k < n; k++) {
		if (r->message[k] && *r->message[k] &&
		    !(said[k] && streq(said[k], r->message[k])))
			table_add_detail(t, "    %s: %s", cols[k].name, r->message[k]);
		said[k] = r->message[k];
	}
}

/* A table whose first column is titled first, then a column per kernel that booted. */
static struct table *by_kernel(const char *first, const struct kernels_column *cols,
			       size_t n, bool vdso)
{
	struct table *t = table_new();

	table_add_column(t, first, NULL, TABLE_TEXT, NULL);
	for (size_t k = 0; k < n; k++)
		if (vdso ? cols[k].vdso != NULL : cols[k].noutputs != 0)
			table_add_column(t, cols[k].name, NULL, TABLE_TEXT, NULL);
	return t;
}

/* The checks whose results differ, each explained. */
static void print_differing(FILE *f, const struct kernels_column *cols, size_t n,
			    const struct kernels_checks *m)
{
	struct table *t = by_kernel("check", cols, n, false);
	const char *said[KERNELS_MAX] = { NULL };

	for (size_t i = 0; i < m->nrows; i++)
		if (row_differs(&m->rows[i], cols, n))
			add_check_row(t, &m->rows[i], cols, n, said);
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
}

/*
 * A checking command's boots (verify's TAP) side by side: every check
 * whose result differs between the kernels, or between the boots of one,
 * with what each kernel said; the totals of each kernel. Returns how many
 * check results were failures, for --fail-on.
 */
size_t kernels_check_matrix_print(FILE *f, const struct kernels_column *cols,
				  size_t n, const struct kernels_checks *m)
{
	const struct check_row *rows = m->rows;
	size_t nrows = m->nrows, differ = 0;

	for (size_t i = 0; i < nrows; i++)
		differ += row_differs(&rows[i], cols, n);
	fputc('\n', f);
	text_line(f, "# checks by kernel: %zu checks, %zu alike on every kernel and "
		  "boot, %zu differ", nrows, nrows - differ, differ);
	if (differ)
		print_differing(f, cols, n, m);
	for (size_t k = 0; k < n; k++) {
		unsigned sum[TAP_XFAIL + 1] = { 0 };

		if (!cols[k].noutputs)
			continue;
		for (size_t i = 0; i < nrows; i++)
			for (int t = 0; t <= TAP_XFAIL; t++)
				sum[t] += rows[i].count[k][t];
		text_line(f, "%s, %zu boot%s: pass %u, fail %u, skip %u, xfail %u",
			  cols[k].name, cols[k].noutputs,
			  cols[k].noutputs == 1 ? "" : "s", sum[TAP_PASS],
			  sum[TAP_FAIL], sum[TAP_SKIP], sum[TAP_XFAIL]);
	}
	if (m->dropped)
		text_line(f, "# %zu results of checks past the first %d names are "
			  "counted above only as failures, not shown", m->dropped,
			  KERNELS_CHECKS_MAX);
	return m->failed;
}

/*
 * `-- vdso`: the functions each kernel's vDSO exports, side by side, every
 * function any of them exports a row, in the order first seen. One pass
 * through every list into a name -> kernels map (a hash table, each
 * kernel a bit), so the work grows with the names, not their square.
 */
void kernels_vdso_matrix_print(FILE *f, const struct kernels_column *cols,
			       size_t n)
{
	json_t *all = json_object(), *v;
	struct table *t;
	size_t differ = 0;
	json_int_t booted = 0;
	const char *name;

	for (size_t k = 0; k < n; k++) {
		if (!cols[k].vdso)
			continue;
		booted |= (json_int_t)1 << k;
		for (const char *const *p = cols[k].vdso; *p; p++) {
			json_int_t mask = json_integer_value(json_object_get(all, *p));

			json_object_set_new(all, *p, json_integer(mask | (json_int_t)1 << k));
		}
	}
	if (!booted) {
		fputc('\n', f);
		text_line(f, "# vDSO functions by kernel: no boot brought its kernel's back");
		json_decref(all);
		return;
	}
	t = by_kernel("function", cols, n, true);
	json_object_foreach(all, name, v) {
		differ += json_integer_value(v) != booted;
		table_add_text(t, name);
		for (size_t k = 0; k < n; k++)
			if (cols[k].vdso)
				table_add_text(t, json_integer_value(v) >> k & 1 ? "yes" : "-");
	}
	fputc('\n', f);
	text_line(f, "# vDSO functions by kernel: %zu, %zu exported by every kernel, "
		  "%zu not", json_object_size(all), json_object_size(all) - differ, differ);
	table_print(f, t, FORMAT_TABLE);
	table_free(t);
	json_decref(all);
}

void kernels_summary_print(FILE *f, const struct kernels_column *cols, size_t n,
			  long boots)
{
	for (size_t i = 0; i < n; i++) {
		const struct kernels_column *k = &cols[i];

		if (!k->bootable) {
			text_line(f, "%s: not booted: %s", k->name, k->why);
			continue;
		}
		struct strbuf ids = STRBUF_INIT;

		for (size_t r = 0; r < k->nruns; r++)
			strbuf_addf(&ids, "%s%lld", r ? ", " : "", (long long)k->runs[r]);
		text_line(f, "%s (%s): %ld boot%s, %u failed; runs %s", k->name,
			  k->release[0] ? k->release : "?", boots, boots == 1 ? "" : "s",
			  k->failed,
			  ids.len ? ids.buf : "none");
		strbuf_release(&ids);
	}
}
