/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "did you mean": the known name nearest a mistyped one, as git, cargo and
 * kubectl suggest it. Near is an edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours, each one) of at most a third
 * of the word, at least 1 and at most 3: "bnech" is "bench", "monotnic"
 * "monotonic", "xyz" nothing.
 *
 *	struct suggestion s = SUGGESTION_INIT(word);
 *
 *	for (...)
 *		suggestion_consider(&s, name);
 *	if (s.best)
 *		... "did you mean '%s'?", s.best ...
 */
#ifndef CLOCKBENCH_SUGGEST_H
#define CLOCKBENCH_SUGGEST_H

#include <stddef.h>

struct strbuf;

struct suggestion {
	const char *word;
	const char *best;	/* the nearest name so far, or NULL */
	size_t distance;	/* best's */
};
#define SUGGESTION_INIT(w) { .word = (w), .best = NULL, .distance = (size_t)-1 }
/* Room for the longest word ever near a name, and its NUL. */
#define SUGGEST_NAME_MAX 65

/* name, if nearer to the word than any before it and near enough. */
void suggestion_consider(struct suggestion *s, const char *name);

/* "; did you mean 'NAME'?" appended to sb (prefix + quote), when there is one. */
void suggestion_add(const struct suggestion *s, const char *prefix,
		    struct strbuf *sb);

/* The nearest of names (NULL-terminated), or NULL. */
const char *suggest_name(const char *word, const char *const *names);

#endif
