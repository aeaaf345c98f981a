// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/json.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"

json_t *json_number(double x)
{
	/* json_real() refuses both (NULL): the key would silently go. */
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *json_numbers(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_number(x[i]));
	return a;
}

json_t *json_counts(const unsigned *counts, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(counts[i]));
	return a;
}

const json_t *json_member(const json_t *o, const char *key)
{
	return json_is_object(o) ? json_object_get(o, key) : NULL;
}

double json_number_at(const json_t *o, const char *key)
{
	const json_t *v = json_member(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *json_text_at(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_member(o, key));

	return s && *s ? s : NULL;
}

bool json_true_at(const json_t *o, const char *key)
{
	return json_is_true(json_member(o, key));
}

int json_int_at(const json_t *o, const char *key, int absent)
{
	const json_t *v = json_member(o, key);
	json_int_t x;

	if (!json_is_integer(v))
		return absent;
	x = json_integer_value(v);
	return x < INT_MIN ? INT_MIN : x > INT_MAX ? INT_MAX : (int)x;
}

void json_text_copy(char *buf, size_t len, const json_t *o, const char *key)
{
	const char *s = json_string_value(json_member(o, key));

	text_copy(buf, len, s ? s : "", TEXT_LINE_MAX);
}

static bool same_bits(double a, double b)
{
	/* Not ==: -0 and 0 are equal, and must not be taken for each other. */
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/*
 * printf's %g text of a real in jansson's look, in place (text has room
 * for 2 more characters): a '.' or an exponent (else it would read back
 * as an integer), and an exponent without '+' or leading zeros ("1e20",
 * "1e-5"), so that the text differs from jansson's only in its digits.
 */
static void real_look(char *text)
{
	char *e = strchr(text, 'e'), *digits;

	if (!e) {
		if (!strchr(text, '.'))
			strcat(text, ".0");
		return;
	}
	e++;
	if (*e == '-')
		e++;
	digits = e;
	if (*digits == '+')
		digits++;
	while (*digits == '0' && digits[1])
		digits++;
	memmove(e, digits, strlen(digits) + 1);
}

/*
 * A decimal as %g sees it: the significant digits d1 d2 ... (no leading
 * or trailing zeros) and the exponent of the first, d1.d2... x 10^exp.
 */
struct decimal {
	char digits[18];
	int len;
	int exp;
};

/* Jansson's %.17g text of a real (no sign) as a decimal; -1 if it is not one. */
static int decimal_parse(const char *s, size_t len, struct decimal *d)
{
	const char *end = s + len;
	int before_point = 0;
	bool point = false;

	*d = (struct decimal){ 0 };
	for (; s < end && (isdigit((unsigned char)*s) || *s == '.'); s++) {
		if (*s == '.') {
			point = true;
		} else if (d->len || *s != '0') {
			/* %.17g: a digit past the 17th is a zero before the point. */
			if (d->len == (int)sizeof(d->digits) - 1) {
				if (*s != '0')
					return -1;
			} else {
				d->digits[d->len++] = *s;
			}
			before_point += !point;
		} else {
			before_point -= point;	/* a leading zero after the point */
		}
	}
	if (s < end && (*s == 'e' || *s == 'E'))
		d->exp = atoi(s + 1);
	d->exp += before_point - 1;
	while (d->len && d->digits[d->len - 1] == '0')
		d->len--;
	d->digits[d->len] = '\0';
	return d->len ? 0 : -1;
}

/*
 * d rounded to n significant digits, to nearest: 0, or -1 when d lies
 * exactly half-way (d is itself x rounded to 17 digits, so which way x
 * rounds is not known from d).
 */
static int decimal_round(const struct decimal *d, int n, struct decimal *out)
{
	*out = *d;
	if (d->len <= n)
		return 0;
	out->len = n;
	if (d->digits[n] == '5' && d->len == n + 1)
		return -1;
	if (d->digits[n] >= '5') {
		int i = n - 1;

		while (i >= 0 && out->digits[i] == '9')
			out->digits[i--] = '0';
		if (i >= 0) {
			out->digits[i]++;
		} else {
			out->digits[0] = '1';
			out->exp++;
		}
	}
	while (out->len && out->digits[out->len - 1] == '0')
		out->len--;
	out->digits[out->len] = '\0';
	return 0;
}

/* Room for a real: sign, 17 digits, point, zeros up to "0.0000", exponent. */
#define REAL_TEXT_MAX 40

/*
 * d as "%.<precision>g" writes it, in jansson's look (add_real_text): an
 * exponent when it is below -4 or not below the precision, else fixed.
 */
static void decimal_format(char *text, bool negative, const struct decimal *d,
			   int precision)
{
	char *p = text;

	if (negative)
		*p++ = '-';
	if (d->exp < -4 || d->exp >= precision) {
		*p++ = d->digits[0];
		if (d->len > 1)
			p += sprintf(p, ".%s", d->digits + 1);
		sprintf(p, "e%d", d->exp);
		return;
	}
	if (d->exp < 0) {
		*p++ = '0';
		*p++ = '.';
		for (int i = -1; i > d->exp; i--)
			*p++ = '0';
		strcpy(p, d->digits);
		return;
	}
	for (int i = 0; i <= d->exp; i++)
		*p++ = i < d->len ? d->digits[i] : '0';
	*p++ = '.';
	strcpy(p, d->len > d->exp + 1 ? d->digits + d->exp + 1 : "0");
}

/*
 * The real that jansson wrote as text (17 significant digits, which read
 * back as x) in the fewest digits, of 15, 16 and 17, that read back as x
 * bit for bit: 0.95 is "0.95", not 0.94999999999999996, and a figure
 * that needs 17 digits keeps them. The result is what "%.15g", then
 * "%.16g", then "%.17g" would give, but found by rounding jansson's
 * digits rather than by printing x again (a sample array holds hundreds
 * of thousands of reals, and printf of a double costs five times strtod);
 * only when those digits are a tie does printf decide. (clockbench runs
 * in the C locale: main never calls setlocale, so the point is '.'.)
 */
static void add_shortest_real(struct strbuf *sb, const char *s17, size_t len)
{
	bool negative = *s17 == '-';
	double x = strtod(s17, NULL);
	struct decimal d, rounded;
	char text[REAL_TEXT_MAX];

	if (x == 0 || decimal_parse(s17 + negative, len - negative, &d) < 0) {
		strbuf_add(sb, s17, len);
		return;
	}
	for (int digits = 15; digits <= 16; digits++) {
		if (decimal_round(&d, digits, &rounded) == 0) {
			decimal_format(text, negative, &rounded, digits);
		} else {
			snprintf(text, sizeof(text), "%.*g", digits, x);
			real_look(text);
		}
		if (same_bits(strtod(text, NULL), x)) {
			strbuf_adds(sb, text);
			return;
		}
	}
	strbuf_add(sb, s17, len);
}

/* Where the string that starts at s (its opening quote) ends. */
static const char *string_end(const char *s)
{
	for (s++; *s && *s != '"'; s++)
		if (*s == '\\' && s[1])
			s++;
	return *s ? s + 1 : s;
}

/*
 * Jansson's text with every real written by add_shortest_real(). Jansson
 * has no hook for the digits of a real and one precision for all of
 * them, so its 17 digits (which read back exactly) are read back and
 * written again; strings are copied as they are, whatever they hold, and
 * integers (no '.', no exponent) are left alone.
 */
static char *shortest_reals(const char *in)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = in;

	while (*s) {
		const char *end;

		if (*s == '"') {
			end = string_end(s);
			strbuf_add(&sb, s, (size_t)(end - s));
		} else if (*s == '-' || isdigit((unsigned char)*s)) {
			size_t len = strspn(s, "-+.eE0123456789");

			end = s + len;
			if (memchr(s, '.', len) || memchr(s, 'e', len) || memchr(s, 'E', len))
				add_shortest_real(&sb, s, len);
			else
				strbuf_add(&sb, s, len);
		} else {
			end = s + 1;
			strbuf_addch(&sb, *s);
		}
		s = end;
	}
	return strbuf_detach(&sb);
}

char *json_encode(const json_t *j, size_t flags)
{
	/* 17 digits: every real jansson writes reads back as itself. */
	char *text = json_dumps(j, flags | JSON_REAL_PRECISION(17));
	char *out;

	if (!text)
		return NULL;
	out = shortest_reals(text);
	free(text);
	return out;
}

int json_write(FILE *f, const json_t *j, size_t flags)
{
	/*
	 * Encoded whole, then written: a stream that fails mid-way is the
	 * stream's error (with its errno at the last flush), not a dump cut
	 * short.
	 */
	char *text = json_encode(j, flags);
	int rc = 0;

	if (!text)
		return -1;
	if (fputs(text, f) == EOF)
		rc = -1;
	free(text);
	return rc;
}

int json_print(FILE *f, const json_t *j)
{
	int rc = json_write(f, j, JSON_INDENT(2));

	/* Also after a failure: the newline stays buffered for the last flush. */
	if (fputc('\n', f) == EOF)
		rc = -1;
	return rc;
}

bool json_text_within(const char *text, size_t len, size_t max_values,
		      size_t max_depth, struct strbuf *why)
{
	size_t values = 0, depth = 0;
	bool in_value = false;	/* inside a number or a literal */

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"') {
			/* A string is one value; its bytes are not structure. */
			for (i++; i < len && text[i] != '"'; i++)
				if (text[i] == '\\')
					i++;
			values++;
			in_value = false;
		} else if (c == '{' || c == '[') {
			values++;
			if (++depth > max_depth) {
				strbuf_setf(why, "is nested more than %zu deep", max_depth);
				return false;
			}
			in_value = false;
		} else if (c == '}' || c == ']') {
			depth -= depth > 0;
			in_value = false;
		} else if (c == ',' || c == ':' || isspace(c)) {
			in_value = false;
		} else if (!in_value) {
			values++;	/* the first byte of a number or literal */
			in_value = true;
		}
		if (values > max_values) {
			strbuf_setf(why, "holds more than %zu values", max_values);
			return false;
		}
	}
	return true;
}
