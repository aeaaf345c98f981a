// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/kernels-matrix.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/tap.h"

/* What a kernel's boots said of one check: each result's count. */
struct check_row {
	char *name;
	unsigned count[KERNELS_MAX][TAP_XFAIL + 1];
	char *message[KERNELS_MAX];	/* the first boot's, for what is not a pass */
};

static struct check_row *find_row(struct check_row **rows, size_t *n, size_t *cap,
				  const char *name)
{
	for (size_t i = *n; i-- > 0;)
		if (streq((*rows)[i].name, name))
			return &(*rows)[i];
	grow_array((void **)rows, cap, *n + 1, sizeof(**rows));
	memset(&(*rows)[*n], 0, sizeof(**rows));
	(*rows)[*n].name = xstrdup(name);
	return &(*rows)[(*n)++];
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
static void print_row(FILE *f, const struct check_row *r,
		      const struct kernels_column *cols, size_t n,
		      size_t width, const char *said[KERNELS_MAX])
{
	char cell[32];

	text_put_cell(f, r->name, TEXT_UNCAPPED, width, TEXT_LEFT);
	for (size_t k = 0; k < n; k++) {
		if (!cols[k].noutputs)
			continue;
		row_cell(r, k, cell, sizeof(cell));
		fputs("  ", f);
		text_put_cell(f, cell, TEXT_UNCAPPED, 14, TEXT_LEFT);
	}
	fputc('\n', f);
	/* What each kernel that did not pass said: the difference explained. */
	for (size_t k = 0; k < n; k++) {
		if (r->message[k] && *r->message[k] &&
		    !(said[k] && streq(said[k], r->message[k])))
			text_line(f, "    %s: %s", cols[k].name, r->message[k]);
		said[k] = r->message[k];
	}
}

/*
 * A checking command's boots (verify's TAP) side by side: every check
 * whose result differs between the kernels, or between the boots of one,
 * with what each kernel said; the totals of each kernel. Returns how many
 * check results were failures, for --fail-on.
 */
size_t kernels_check_matrix_print(FILE *f, const struct kernels_column *cols,
				  size_t n)
{
	size_t failed = 0;

	struct check_row *rows = NULL;
	size_t nrows = 0, cap = 0, width = 5, differ = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t b = 0; b < cols[k].noutputs; b++) {
			struct tap_point *p;
			size_t npoints = tap_parse(cols[k].outputs[b], &p);

			for (size_t i = 0; i < npoints; i++) {
				struct check_row *r = find_row(&rows, &nrows, &cap, p[i].name);

				r->count[k][p[i].result]++;
				failed += p[i].result == TAP_FAIL;
				if (p[i].result != TAP_PASS && !r->message[k])
					r->message[k] = xstrdup(p[i].message);
			}
			tap_points_free(p, npoints);
		}
	for (size_t i = 0; i < nrows; i++)
		if (row_differs(&rows[i], cols, n)) {
			size_t w = text_width(rows[i].name, TEXT_UNCAPPED);

			differ++;
			if (w > width)
				width = w;
		}
	fputc('\n', f);
	text_line(f, "# checks by kernel: %zu checks, %zu alike on every kernel and "
		  "boot, %zu differ", nrows, nrows - differ, differ);
	if (differ) {
		text_put_cell(f, "check", TEXT_UNCAPPED, width, TEXT_LEFT);
		for (size_t k = 0; k < n; k++)
			if (cols[k].noutputs) {
				fputs("  ", f);
				text_put_cell(f, cols[k].name, TEXT_UNCAPPED, 14,
					      TEXT_LEFT);
			}
		fputc('\n', f);
		const char *said[KERNELS_MAX] = { NULL };

		for (size_t i = 0; i < nrows; i++)
			if (row_differs(&rows[i], cols, n))
				print_row(f, &rows[i], cols, n, width, said);
	}
	for (size_t k = 0; k < n; k++) {
		unsigned sum[TAP_XFAIL + 1] = { 0 };

		if (!cols[k].noutputs)
			continue;
		for (size_t i = 0; i < nrows; i++)
			for (int t = 0; t <= TAP_XFAIL; t++)
				sum[t] += rows[i].count[k][t];
		text_line(f, "%s, %zu boots: pass %u, fail %u, skip %u, xfail %u",
			  cols[k].name, cols[k].noutputs, sum[TAP_PASS],
			  sum[TAP_FAIL], sum[TAP_SKIP], sum[TAP_XFAIL]);
	}
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].name);
		for (size_t k = 0; k < n; k++)
			free(rows[i].message[k]);
	}
	free(rows);
	return failed;
}

/* Whether kernel k's vDSO exports the function name. */
static bool exports(const struct kernels_column *k, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(k->vdso, i, v)
		if (streq(json_string_value(v), name))
			return true;
	return false;
}

/*
 * `-- vdso`: the functions each kernel's vDSO exports, side by side, every
 * function any of them exports a row.
 */
void kernels_vdso_matrix_print(FILE *f, const struct kernels_column *cols,
			       size_t n)
{
	json_t *all = json_array(), *v;
	size_t i, width = 8, differ = 0;

	for (size_t k = 0; k < n; k++)
		json_array_foreach(cols[k].vdso, i, v) {
			size_t j;
			json_t *w;
			bool seen = false;

			json_array_foreach(all, j, w)
				seen |= json_equal(v, w);
			if (!seen)
				json_array_append(all, v);
		}
	json_array_foreach(all, i, v) {
		const char *name = json_string_value(v);
		size_t yes = 0, booted = 0;

		for (size_t k = 0; k < n; k++)
			if (cols[k].vdso) {
				booted++;
				yes += exports(&cols[k], name);
			}
		differ += yes != booted;
		if (strlen(name) > width)
			width = strlen(name);
	}
	fputc('\n', f);
	text_line(f, "# vDSO functions by kernel: %zu, %zu exported by every kernel, "
		  "%zu not", json_array_size(all), json_array_size(all) - differ, differ);
	text_put_cell(f, "function", TEXT_UNCAPPED, width, TEXT_LEFT);
	for (size_t k = 0; k < n; k++)
		if (cols[k].vdso) {
			fputs("  ", f);
			text_put_cell(f, cols[k].name, TEXT_UNCAPPED, 10, TEXT_LEFT);
		}
	fputc('\n', f);
	json_array_foreach(all, i, v) {
		text_put_cell(f, json_string_value(v), TEXT_UNCAPPED, width, TEXT_LEFT);
		for (size_t k = 0; k < n; k++)
			if (cols[k].vdso) {
				fputs("  ", f);
				text_put_cell(f, exports(&cols[k], json_string_value(v)) ?
					      "yes" : "-", TEXT_UNCAPPED, 10, TEXT_LEFT);
			}
		fputc('\n', f);
	}
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
		text_line(f, "%s (%s): %ld boots, %u failed; runs %s", k->name,
			  k->release, boots, k->failed,
			  ids.len ? ids.buf : "none");
		strbuf_release(&ids);
	}
}
