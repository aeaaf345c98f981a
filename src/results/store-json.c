// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON codec of a stored run (the export format, store.h), and the
 * gate every foreign run passes before it is stored.
 */
#include "results/store-internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"

/* ---- JSON: the export format ---------------------------------------- */

/* A JSON string even from bytes that are not UTF-8 (they become '?'). */
static json_t *text_json(const char *s)
{
	json_t *j = json_string(str(s));
	char *copy;

	if (j)
		return j;
	copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static void set_text(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key, text_json(s));
}

/* What makes the core cycles again (core-replay.h), with the readings. */
static json_t *reference_json(const struct stored_reference *ref, size_t n)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:o}",
			 "base", ref->base_is_values ? "values" : "cycles",
			 "base_boundary", ref->base_boundary,
			 "reading_core_cycles", ref->reading_core,
			 "batch_boundary_core_cycles", ref->batch_boundary_core,
			 "readings", json_numbers(ref->readings, n));
}

static json_t *cell_json(const struct stored_cell *c)
{
	json_t *o = json_object();

	set_text(o, "name", c->name);
	set_text(o, "path", c->path);
	set_text(o, "api", c->api);
	set_text(o, "clock", c->clock);
	set_text(o, "status", c->status);
	set_text(o, "reason", c->reason);
	set_text(o, "unit", c->unit);
	json_object_set_new(o, "batch_calls", json_integer((json_int_t)c->batch_calls));
	/* Without values but with n, the run was loaded without samples. */
	if (c->values || c->n == 0)
		json_object_set_new(o, "samples", json_numbers(c->values, c->n));
	if (c->values && c->cycles) {
		json_object_set_new(o, "samples_cycles", json_numbers(c->cycles, c->n));
		json_object_set_new(o, "cycles_unit", json_string(str(c->cycles_unit)));
	}
	if (c->values && c->core_cycles)
		json_object_set_new(o, "samples_core_cycles",
				    json_numbers(c->core_cycles, c->n));
	if (c->values && c->ref.readings)
		json_object_set_new(o, "reference", reference_json(&c->ref, c->n));
	if (c->values && c->rounds) {
		json_t *a = json_array();

		for (size_t i = 0; i < c->n; i++)
			json_array_append_new(a, json_integer(c->rounds[i]));
		json_object_set_new(o, "samples_round", a);
	}
	return o;
}

json_t *stored_run_to_json(const struct stored_run *run)
{
	json_t *cells = json_array();
	json_t *o;

	for (size_t i = 0; i < run->ncells; i++)
		json_array_append_new(cells, cell_json(&run->cells[i]));
	o = json_object();
	if (run->id > 0)
		json_object_set_new(o, "id", json_integer(run->id));
	set_text(o, "uuid", run->uuid);
	set_text(o, "command", run->command);
	set_text(o, "label", run->label);
	set_text(o, "host", run->host);
	set_text(o, "kernel", run->kernel);
	set_text(o, "started", run->started);
	json_object_set_new(o, "elapsed_s", json_number(isfinite(run->elapsed_s) ?
						      run->elapsed_s : 0.0));
	set_text(o, "status", run->status ? run->status : "complete");
	json_object_set_new(o, "environment",
			    run->env ? json_incref(run->env) : json_object());
	json_object_set_new(o, "config",
			    run->config ? json_incref(run->config) : json_null());
	json_object_set_new(o, "quality",
			    run->quality ? json_incref(run->quality) : json_null());
	json_object_set_new(o, "cells", cells);
	return o;
}

/* Where a field sits, for error messages: "cells[3].samples[2]". */
struct jpath {
	char buf[128];
};

static const char *jpath(struct jpath *p, const char *fmt, ...) _printf_(2, 3);
static const char *jpath(struct jpath *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->buf, sizeof(p->buf), fmt, ap);
	va_end(ap);
	return p->buf;
}

static const char *json_type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/*
 * Text as clockbench writes it: no NUL (SQLite text would cut it short),
 * at most max bytes, no control character (every command prints it).
 */
static int check_text(const char *s, size_t len, const char *where, size_t max,
		      struct strbuf *err)
{
	const char *bad;

	if (strlen(s) != len) {
		strbuf_setf(err, "%s: contains a NUL character", where);
		return -1;
	}
	if (len > max) {
		strbuf_setf(err, "%s: %zu bytes, more than clockbench writes (%zu)",
			where, len, max);
		return -1;
	}
	bad = text_find_control(s);
	if (bad) {
		strbuf_setf(err, "%s: contains a control character (byte %zu)",
			where, (size_t)(bad - s));
		return -1;
	}
	return 0;
}

/* A string member of at most max bytes. Absent: "" when optional. */
static int get_string(const json_t *obj, const char *key, const char *where,
		      bool required, size_t max, char **out, struct strbuf *err)
{
	const json_t *j = json_object_get(obj, key);

	if (!j) {
		if (required) {
			strbuf_setf(err, "%s: missing", where);
			return -1;
		}
		*out = xstrdup("");
		return 0;
	}
	if (!json_is_string(j)) {
		strbuf_setf(err, "%s: expected a string, got %s", where,
			json_type_name(j));
		return -1;
	}
	if (check_text(json_string_value(j), json_string_length(j), where, max,
		       err))
		return -1;
	*out = xstrdup(json_string_value(j));
	return 0;
}

/* arr is an array (of what, for the message). */
static int check_array(const json_t *arr, const char *where, const char *of,
		       struct strbuf *err)
{
	if (json_is_array(arr))
		return 0;
	strbuf_setf(err, "%s: expected an array of %s, got %s", where, of,
		    json_type_name(arr));
	return -1;
}

/* Values given per sample: one for each of the n samples. */
static int check_per_sample(const char *where, size_t got, size_t n,
			    struct strbuf *err)
{
	if (got == n)
		return 0;
	strbuf_setf(err, "%s: %zu values for %zu samples", where, got, n);
	return -1;
}

static int get_samples(const json_t *arr, const char *where, double **out,
		       size_t *n, struct strbuf *err)
{
	struct jpath p;
	size_t i;
	json_t *v;

	if (check_array(arr, where, "numbers", err))
		return -1;
	*n = json_array_size(arr);
	if (*n > STORE_SAMPLES_MAX) {
		strbuf_setf(err, "%s: %zu samples, more than clockbench takes in "
			"a cell (%d)", where, *n, STORE_SAMPLES_MAX);
		return -1;
	}
	*out = xmalloc((*n ? *n : 1) * sizeof(double));
	json_array_foreach(arr, i, v) {
		if (json_is_number(v)) {
			(*out)[i] = json_number_value(v);
		} else if (json_is_null(v)) {
			(*out)[i] = NAN;	/* how a non-finite sample is exported */
		} else {
			strbuf_setf(err, "%s: expected a number, got %s",
				jpath(&p, "%s[%zu]", where, i), json_type_name(v));
			return -1;
		}
	}
	return 0;
}

/* Per-sample values beside the samples: as many as there are samples. */
static int get_same_length(const json_t *arr, const char *where, size_t n,
			   double **out, struct strbuf *err)
{
	size_t got;

	if (get_samples(arr, where, out, &got, err))
		return -1;
	return check_per_sample(where, got, n, err);
}

/*
 * Round numbers run from 0 to STORE_ROUNDS_MAX - 1: compare allocates per
 * round, so a round of 4294967295 would ask it for 34 GB.
 */
static int get_rounds(const json_t *arr, const char *where,
		      struct stored_cell *c, struct strbuf *err)
{
	struct jpath p;
	size_t i;
	json_t *v;

	if (check_array(arr, where, "round numbers", err) ||
	    check_per_sample(where, json_array_size(arr), c->n, err))
		return -1;
	c->rounds = xmalloc((c->n ? c->n : 1) * sizeof(uint32_t));
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v)) {
			strbuf_setf(err, "%s: expected a round number, got %s",
				jpath(&p, "%s[%zu]", where, i), json_type_name(v));
			return -1;
		}
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) >= STORE_ROUNDS_MAX) {
			strbuf_setf(err, "%s: round %" JSON_INTEGER_FORMAT " is out "
				"of range (clockbench numbers rounds 0 to %d)",
				jpath(&p, "%s[%zu]", where, i), json_integer_value(v),
				STORE_ROUNDS_MAX - 1);
			return -1;
		}
		c->rounds[i] = (uint32_t)json_integer_value(v);
	}
	c->nrounds = stored_cell_count_rounds(c->rounds, c->n);
	return 0;
}

static bool cell_status_known(const char *status)
{
	static const char *const known[] = { "ok", "n/a", "unsupported",
					     "not reached" };

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (streq(status, known[i]))
			return true;
	return false;
}

/* The text fields of a cell, with the most bytes clockbench writes in each. */
static int cell_strings_from_json(const json_t *j, size_t idx,
				  struct stored_cell *c, struct strbuf *err)
{
	const struct {
		const char *key;
		char **slot;
		bool required;
		size_t max;
	} fields[] = {
		{ "name", &c->name, true, STORE_TEXT_MAX },
		{ "path", &c->path, false, STORE_NAME_MAX },
		{ "api", &c->api, false, STORE_NAME_MAX },
		{ "clock", &c->clock, false, STORE_NAME_MAX },
		{ "status", &c->status, true, STORE_NAME_MAX },
		{ "reason", &c->reason, false, STORE_TEXT_MAX },
		{ "unit", &c->unit, true, STORE_NAME_MAX },
		{ "cycles_unit", &c->cycles_unit, false, STORE_NAME_MAX },
	};
	struct jpath p;

	for (size_t k = 0; k < ARRAY_SIZE(fields); k++)
		if (get_string(j, fields[k].key, jpath(&p, "cells[%zu].%s", idx,
			       fields[k].key), fields[k].required, fields[k].max,
			       fields[k].slot, err))
			return -1;
	if (!*c->name) {
		strbuf_setf(err, "cells[%zu].name: empty", idx);
		return -1;
	}
	if (!cell_status_known(c->status)) {
		strbuf_setf(err, "cells[%zu].status: '%s' is not ok, n/a, "
			"unsupported or not reached", idx, c->status);
		return -1;
	}
	return 0;
}

static int get_batch_calls(const json_t *j, size_t idx, struct stored_cell *c,
			   struct strbuf *err)
{
	const json_t *v = json_object_get(j, "batch_calls");

	c->batch_calls = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		strbuf_setf(err, "cells[%zu].batch_calls: expected a "
			"non-negative integer, got %s", idx, json_type_name(v));
		return -1;
	}
	if ((uint64_t)json_integer_value(v) > STORE_BATCH_CALLS_MAX) {
		strbuf_setf(err, "cells[%zu].batch_calls: %" JSON_INTEGER_FORMAT
			" is more than clockbench makes in a sample (2^40)", idx,
			json_integer_value(v));
		return -1;
	}
	c->batch_calls = (uint64_t)json_integer_value(v);
	return 0;
}

/* A finite number of o's, named where it is not. */
static int get_figure(const json_t *o, const char *key, size_t idx, double *x,
		      struct strbuf *err)
{
	const json_t *v = json_object_get(o, key);

	*x = json_is_number(v) ? json_number_value(v) : NAN;
	if (isfinite(*x))
		return 0;
	strbuf_setf(err, "cells[%zu].reference.%s: expected a finite number, "
		    "got %s", idx, key, json_is_number(v) ? "a non-finite one" :
		    v ? json_type_name(v) : "nothing");
	return -1;
}

/*
 * The reference's readings and figures. The store replays them and keeps
 * them only when they give the core cycles back bit for bit, so a file
 * cannot make it store other core cycles than the file's own.
 */
static int get_reference(const json_t *o, size_t idx, struct stored_cell *c,
			 struct strbuf *err)
{
	const char *base = json_string_value(json_object_get(o, "base"));
	struct stored_reference *ref = &c->ref;
	struct jpath p;

	if (!json_is_object(o)) {
		strbuf_setf(err, "cells[%zu].reference: expected an object, got %s",
			    idx, json_type_name(o));
		return -1;
	}
	if (!base || (!streq(base, "cycles") && !streq(base, "values"))) {
		strbuf_setf(err, "cells[%zu].reference.base: expected \"cycles\" "
			    "or \"values\"", idx);
		return -1;
	}
	ref->base_is_values = streq(base, "values");
	if (get_figure(o, "base_boundary", idx, &ref->base_boundary, err) ||
	    get_figure(o, "reading_core_cycles", idx, &ref->reading_core, err) ||
	    get_figure(o, "batch_boundary_core_cycles", idx, &ref->batch_boundary_core,
		       err))
		return -1;
	if (!json_object_get(o, "readings")) {
		strbuf_setf(err, "cells[%zu].reference.readings: missing", idx);
		return -1;
	}
	return get_same_length(json_object_get(o, "readings"),
			       jpath(&p, "cells[%zu].reference.readings", idx), c->n,
			       &ref->readings, err);
}

static int cell_samples_from_json(const json_t *j, size_t idx,
				  struct stored_cell *c, struct strbuf *err)
{
	const json_t *v = json_object_get(j, "samples");
	struct jpath p;
	size_t ncycles;

	if (!v) {
		strbuf_setf(err, "cells[%zu].samples: missing (bench and "
			    "show write them with --format json --samples)", idx);
		return -1;
	}
	if (get_samples(v, jpath(&p, "cells[%zu].samples", idx), &c->values,
			&c->n, err))
		return -1;
	v = json_object_get(j, "samples_cycles");
	if (v && !json_is_null(v)) {
		if (get_samples(v, jpath(&p, "cells[%zu].samples_cycles", idx),
				&c->cycles, &ncycles, err))
			return -1;
		if (ncycles != c->n) {
			strbuf_setf(err, "cells[%zu].samples_cycles: %zu values for "
				"%zu samples", idx, ncycles, c->n);
			return -1;
		}
	}
	v = json_object_get(j, "samples_core_cycles");
	if (v && !json_is_null(v) &&
	    get_same_length(v, jpath(&p, "cells[%zu].samples_core_cycles", idx),
			    c->n, &c->core_cycles, err))
		return -1;
	v = json_object_get(j, "reference");
	if (v && !json_is_null(v) && get_reference(v, idx, c, err))
		return -1;
	v = json_object_get(j, "samples_round");
	if (!v || json_is_null(v))
		return 0;
	return get_rounds(v, jpath(&p, "cells[%zu].samples_round", idx), c, err);
}

int stored_cell_from_json(const json_t *j, size_t idx, struct stored_cell *c,
			  struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	if (!json_is_object(j)) {
		strbuf_setf(err, "cells[%zu]: expected an object, got %s", idx,
			json_type_name(j));
		return -1;
	}
	if (cell_strings_from_json(j, idx, c, err) ||
	    get_batch_calls(j, idx, c, err) ||
	    cell_samples_from_json(j, idx, c, err))
		return -1;
	return 0;
}

/* A command name as clockbench's own: lower-case letters, digits, '-'. */
static bool command_like(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '-')
			return false;
	return true;
}

static int run_uuid_from_json(const json_t *j, struct stored_run *run,
			      struct strbuf *err)
{
	char *s;

	if (get_string(j, "uuid", "uuid", true, STORE_NAME_MAX, &s, err))
		return -1;
	if (!uuid_like(s)) {
		strbuf_setf(err, "uuid: '%s' is not a uuid", s);
		free(s);
		return -1;
	}
	for (char *q = s; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	snprintf(run->uuid, sizeof(run->uuid), "%s", s);
	free(s);
	return 0;
}

static int run_started_from_json(const json_t *j, struct stored_run *run,
				 struct strbuf *err)
{
	char *s;

	if (get_string(j, "started", "started", true, STORE_NAME_MAX, &s, err))
		return -1;
	if (strlen(s) != 20 || s[10] != 'T' || !store_date_valid(s)) {
		strbuf_setf(err, "started: '%s' is not a UTC time such as "
			"2026-11-30T13:50:02Z", s);
		free(s);
		return -1;
	}
	snprintf(run->started, sizeof(run->started), "%s", s);
	free(s);
	return 0;
}

static int run_strings_from_json(const json_t *j, struct stored_run *run,
				 struct strbuf *err)
{
	if (run_uuid_from_json(j, run, err) ||
	    run_started_from_json(j, run, err))
		return -1;
	if (get_string(j, "command", "command", true, STORE_NAME_MAX, &run->command,
		       err) ||
	    get_string(j, "label", "label", false, STORE_TEXT_MAX, &run->label,
		       err) ||
	    get_string(j, "host", "host", true, STORE_TEXT_MAX, &run->host, err) ||
	    get_string(j, "kernel", "kernel", true, STORE_TEXT_MAX, &run->kernel,
		       err) ||
	    get_string(j, "status", "status", true, STORE_NAME_MAX, &run->status,
		       err))
		return -1;
	/* The command, label and status are judged by stored_run_check(). */
	return 0;
}

/*
 * Every key and string of an imported environment or config, at where
 * (a path such as "environment.vdso.symbols[3]" built in place): bounded
 * and free of control characters, as clockbench writes them.
 */
static int check_json_texts(const json_t *j, char *where, size_t len,
			    size_t cap, struct strbuf *err)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_string(j))
		return check_text(json_string_value(j), json_string_length(j), where,
				  STORE_JSON_TEXT_MAX, err);
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			snprintf(where + len, cap - len, "[%zu]", i);
			if (check_json_texts(v, where, strlen(where), cap, err))
				return -1;
		}
	} else if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v) {
			snprintf(where + len, cap - len, ".%s", text_find_control(key) ?
				 "(key)" : key);
			if (check_text(key, strlen(key), where, STORE_TEXT_MAX, err) ||
			    check_json_texts(v, where, strlen(where), cap, err))
				return -1;
		}
	}
	where[len] = '\0';
	return 0;
}

static int get_json_object(const json_t *j, const char *key, bool required,
			   json_t **out, struct strbuf *err)
{
	const json_t *v = json_object_get(j, key);
	char where[256];

	*out = NULL;
	if (!v && required) {
		strbuf_setf(err, "%s: missing", key);
		return -1;
	}
	if (!v || (!required && json_is_null(v)))
		return 0;
	if (!json_is_object(v)) {
		strbuf_setf(err, "%s: expected an object%s, got %s", key,
			required ? "" : " or null", json_type_name(v));
		return -1;
	}
	snprintf(where, sizeof(where), "%s", key);
	if (check_json_texts(v, where, strlen(where), sizeof(where), err))
		return -1;
	*out = json_deep_copy(v);
	return 0;
}

int stored_run_header_from_json(const json_t *j, struct stored_run *run,
				struct strbuf *err)
{
	const json_t *v;

	memset(run, 0, sizeof(*run));
	if (!json_is_object(j)) {
		strbuf_setf(err, "expected a run object, got %s", json_type_name(j));
		return -1;
	}
	if (run_strings_from_json(j, run, err))
		goto fail;
	v = json_object_get(j, "elapsed_s");
	if (!v || !json_is_number(v) || json_number_value(v) < 0) {
		strbuf_setf(err, "elapsed_s: %s", !v ? "missing" :
			"expected a non-negative number");
		goto fail;
	}
	run->elapsed_s = json_number_value(v);
	if (get_json_object(j, "environment", true, &run->env, err) ||
	    get_json_object(j, "config", false, &run->config, err) ||
	    get_json_object(j, "quality", false, &run->quality, err))
		goto fail;
	return 0;
fail:
	stored_run_free(run);
	return -1;
}

int stored_run_from_json(const json_t *j, struct stored_run *run,
			 struct strbuf *err)
{
	const json_t *cells, *c;
	size_t i;

	if (stored_run_header_from_json(j, run, err))
		return -1;
	cells = json_object_get(j, "cells");
	if (!cells || !json_is_array(cells)) {
		strbuf_setf(err, "cells: %s%s", cells ? "expected an array, got " :
			"missing", cells ? json_type_name(cells) : "");
		goto fail;
	}
	if (json_array_size(cells) > STORE_CELLS_MAX) {
		strbuf_setf(err, "cells: %zu cells, more than clockbench writes "
			"in a run (%d)", json_array_size(cells), STORE_CELLS_MAX);
		goto fail;
	}
	run->cells = xcalloc(json_array_size(cells), sizeof(*run->cells));
	json_array_foreach(cells, i, c) {
		run->ncells = i + 1;
		if (stored_cell_from_json(c, i, &run->cells[i], err))
			goto fail;
	}
	/* The gate every foreign run passes, as export_file_next()'s do. */
	if (stored_run_check(run, err))
		goto fail;
	return 0;
fail:
	stored_run_free(run);
	return -1;
}

/* ---- the gate of foreign runs ---------------------------------------- */

/*
 * About the bytes j takes as JSON text, counted up to just over limit (a
 * bigger one is refused, however much bigger).
 */
static size_t json_text_size(const json_t *j, size_t limit)
{
	const char *key;
	size_t i, size = 0;
	json_t *v;

	if (json_is_string(j))
		return json_string_length(j) + 2;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			size += json_text_size(v, limit) + 1;
			if (size > limit)
				break;
		}
		return size + 2;
	}
	if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v) {
			size += strlen(key) + 4 + json_text_size(v, limit);
			if (size > limit)
				break;
		}
		return size + 2;
	}
	return 24;	/* a number, true, false or null */
}

/*
 * An environment, config or quality object: its texts as the reader
 * checks them, and the whole at most STORE_JSON_MAX bytes (a run carrying
 * hundreds of MB there made every command slow and large).
 */
static int check_json_member(const json_t *j, const char *name, struct strbuf *err)
{
	char where[256];
	size_t size;

	if (!j)
		return 0;
	if (!json_is_object(j)) {
		strbuf_setf(err, "%s: expected an object, got %s", name,
			    json_type_name(j));
		return -1;
	}
	size = json_text_size(j, STORE_JSON_MAX);
	if (size > STORE_JSON_MAX) {
		strbuf_setf(err, "%s: more than the %d bytes clockbench "
			    "writes (STORE_JSON_MAX)", name, STORE_JSON_MAX);
		return -1;
	}
	snprintf(where, sizeof(where), "%s", name);
	return check_json_texts(j, where, strlen(where), sizeof(where), err);
}

static int check_run_text(const char *s, const char *where, size_t max,
			  bool required, struct strbuf *err)
{
	if (!s || (required && !*s)) {
		strbuf_setf(err, "%s: missing", where);
		return -1;
	}
	return check_text(s, strlen(s), where, max, err);
}

static int check_run_strings(const struct stored_run *run, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (check_run_text(run->uuid, "uuid", STORE_NAME_MAX, true, err) ||
	    check_run_text(run->started, "started", STORE_NAME_MAX, true, err) ||
	    check_run_text(run->command, "command", STORE_NAME_MAX, true, err) ||
	    check_run_text(run->label, "label", STORE_TEXT_MAX, false, err) ||
	    check_run_text(run->host, "host", STORE_TEXT_MAX, false, err) ||
	    check_run_text(run->kernel, "kernel", STORE_TEXT_MAX, false, err) ||
	    check_run_text(run->status, "status", STORE_NAME_MAX, true, err))
		return -1;
	if (!uuid_like(run->uuid)) {
		strbuf_setf(err, "uuid: '%s' is not a uuid", run->uuid);
		return -1;
	}
	if (strlen(run->started) != 20 || run->started[10] != 'T' ||
	    !store_date_valid(run->started)) {
		strbuf_setf(err, "started: '%s' is not a UTC time such as "
			    "2026-11-30T13:50:02Z", run->started);
		return -1;
	}
	if (!command_like(run->command)) {
		strbuf_setf(err, "command: '%s' is not a clockbench command",
			    run->command);
		return -1;
	}
	if (*run->label && !store_label_valid(run->label, &why)) {
		strbuf_setf(err, "label: '%s': %s", run->label, why.buf);
		return -1;
	}
	if (!streq(run->status, "complete") && !streq(run->status, "interrupted")) {
		strbuf_setf(err, "status: '%s' is neither complete nor "
			    "interrupted", run->status);
		return -1;
	}
	return 0;
}

static int check_cell(const struct stored_cell *c, size_t idx, struct strbuf *err)
{
	const struct {
		const char *key, *value;
		bool required;
		size_t max;
	} fields[] = {
		{ "name", c->name, true, STORE_TEXT_MAX },
		{ "path", c->path, false, STORE_NAME_MAX },
		{ "api", c->api, false, STORE_NAME_MAX },
		{ "clock", c->clock, false, STORE_NAME_MAX },
		{ "status", c->status, true, STORE_NAME_MAX },
		{ "reason", c->reason, false, STORE_TEXT_MAX },
		{ "unit", c->unit, true, STORE_NAME_MAX },
		{ "cycles_unit", c->cycles_unit, false, STORE_NAME_MAX },
	};
	char where[64];

	for (size_t k = 0; k < ARRAY_SIZE(fields); k++) {
		snprintf(where, sizeof(where), "cells[%zu].%s", idx, fields[k].key);
		if (check_run_text(fields[k].value ? fields[k].value : "", where,
				   fields[k].max, fields[k].required, err))
			return -1;
	}
	if (!cell_status_known(c->status)) {
		strbuf_setf(err, "cells[%zu].status: '%s' is not ok, n/a, "
			    "unsupported or not reached", idx, c->status);
		return -1;
	}
	if (c->n > STORE_SAMPLES_MAX || c->nrounds > STORE_ROUNDS_MAX ||
	    c->batch_calls > STORE_BATCH_CALLS_MAX) {
		strbuf_setf(err, "cells[%zu]: more %s than clockbench writes",
			    idx, c->n > STORE_SAMPLES_MAX ? "samples" :
			    c->nrounds > STORE_ROUNDS_MAX ? "rounds" :
			    "calls in a sample");
		return -1;
	}
	return 0;
}

/* Every field of the run but its cells. */
static int check_run_header(const struct stored_run *run, struct strbuf *err)
{
	if (check_run_strings(run, err))
		return -1;
	if (!isfinite(run->elapsed_s) || run->elapsed_s < 0) {
		strbuf_setf(err, "elapsed_s: expected a non-negative number");
		return -1;
	}
	if (!run->env) {
		strbuf_setf(err, "environment: missing");
		return -1;
	}
	return check_json_member(run->env, "environment", err) ||
	       check_json_member(run->config, "config", err) ||
	       check_json_member(run->quality, "quality", err) ? -1 : 0;
}

int stored_run_check(const struct stored_run *run, struct strbuf *err)
{
	if (check_run_header(run, err))
		return -1;
	if (run->ncells > STORE_CELLS_MAX) {
		strbuf_setf(err, "cells: %zu cells, more than clockbench "
			    "writes in a run (%d)", run->ncells, STORE_CELLS_MAX);
		return -1;
	}
	for (size_t i = 0; i < run->ncells; i++)
		if (check_cell(&run->cells[i], i, err))
			return -1;
	return 0;
}
