/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON writer of clockbench's output: whatever prints JSON (a
 * run, a comparison, doctor's findings) prints it through json_print(),
 * and every figure goes in through json_number(), so that one rule holds
 * everywhere:
 *
 *   - every number is written with the fewest significant digits, of 15,
 *     16 and 17, that read back bit for bit (`bench --format json
 *     --samples | clockbench import` is the run that export gives), never
 *     rounded to what a table shows: 0.95 is 0.95, not 0.94999999999999996;
 *   - JSON has no NaN and no infinity: a figure that is not a finite
 *     number (unmeasured, undefined, a ratio over zero) is null, never an
 *     absent key or an invalid document.
 */
#ifndef CLOCKBENCH_JSON_H
#define CLOCKBENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* x as a JSON number, or null when it is NaN or infinite. */
json_t *json_number(double x);

/* x[0..n) as an array of json_number()s; counts[0..n) as one of integers. */
json_t *json_numbers(const double *x, size_t n);
json_t *json_counts(const unsigned *counts, size_t n);

/*
 * j (an object or an array) to f, indented by 2, full precision, and a
 * newline: 0, or -1 when it could not be encoded (f's errors are the
 * caller's: main checks stdout once).
 */
int json_print(FILE *f, const json_t *j);

/* The same with jansson's dump flags (JSON_COMPACT...), and no newline. */
int json_write(FILE *f, const json_t *j, size_t flags);

/* j as text by the rule above (malloc'd), or NULL when it cannot be encoded. */
char *json_encode(const json_t *j, size_t flags);

/*
 * Reading what a run or a file recorded, where a member that is absent or
 * of another type is unknown, never an error (o may be NULL, or not an
 * object): the member, NULL; its number, NAN; its text, NULL when it is
 * not a string or is empty; whether it is true.
 */
const json_t *json_member(const json_t *o, const char *key);
double json_number_at(const json_t *o, const char *key);
const char *json_text_at(const json_t *o, const char *key);
bool json_true_at(const json_t *o, const char *key);
/* An integer member clamped to an int's range, absent when it is none. */
int json_int_at(const json_t *o, const char *key, int absent);
/* A text member into buf, escaped and capped as a line is shown
 * (basic/text.h); "" when there is none. */
void json_text_copy(char *buf, size_t len, const json_t *o, const char *key);

/*
 * Before text from elsewhere is parsed whole: whether it holds at most
 * max_values values (every member name, scalar, array and object counts
 * one) nested at most max_depth deep. jansson's tree costs about a hundred
 * bytes a value, so "{},{},..." of a few megabytes would make gigabytes of
 * it; one linear pass over the bytes (strings and escapes skipped, nothing
 * allocated) refuses that first. Syntax is jansson's to judge afterwards. false with
 * the reason in why ("holds more than 20000 values", "is nested more
 * than 16 deep").
 */
struct strbuf;
bool json_text_within(const char *text, size_t len, size_t max_values,
		      size_t max_depth, struct strbuf *why);

#endif
