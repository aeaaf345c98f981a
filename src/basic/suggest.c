// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/suggest.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/util.h"

/* Longer words are never near anything: a name is short. */
#define SUGGEST_MAX_LEN (SUGGEST_NAME_MAX - 1)

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * The optimal-string-alignment distance of a and b (Levenshtein, and a
 * swap of two neighbours costs one), case-insensitive, with '-' and '_'
 * the same (the catalogue reads them so).
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = a[i - 1] == '_' ? '-' : a[i - 1] | 0x20;
			int cb = b[j - 1] == '_' ? '-' : b[j - 1] | 0x20;
			int pa = i > 1 ? (a[i - 2] == '_' ? '-' : a[i - 2] | 0x20) : 0;
			int pb = j > 1 ? (b[j - 2] == '_' ? '-' : b[j - 2] | 0x20) : 0;

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + (ca != cb));
			if (i > 1 && j > 1 && ca == pb && pa == cb && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

void suggestion_consider(struct suggestion *s, const char *name)
{
	size_t len = strlen(s->word), limit = len / 3, d;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	if (!name || !*name)
		return;
	d = edit_distance(s->word, name);
	/* The same but for case ("Doctor") is near too; the same is not. */
	if ((d > 0 || strcmp(s->word, name)) && d <= limit && d < s->distance) {
		s->best = name;
		s->distance = d;
	}
}

void suggestion_add(const struct suggestion *s, const char *prefix,
		    struct strbuf *sb)
{
	if (s->best)
		strbuf_addf(sb, "; did you mean '%s%s'?", prefix, s->best);
}

const char *suggest_name(const char *word, const char *const *names)
{
	struct suggestion s = SUGGESTION_INIT(word);

	for (const char *const *n = names; *n; n++)
		suggestion_consider(&s, *n);
	return s.best;
}
