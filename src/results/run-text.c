// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/run-text.h"

#include <string.h>

#include "basic/strbuf.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/run-facts.h"

/* *s replaced by its escaped, capped form. */
static void escape_string(char **s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	if (!*s)
		return;
	strbuf_add_text(&sb, *s, max);
	free(*s);
	*s = strbuf_detach(&sb);
}

/* A fixed array (uuid, start time), cut to fit it. */
static void escape_array(char *buf, size_t len)
{
	char *copy = xstrdup(buf);

	text_copy(buf, len, copy, len - 1);
	free(copy);
}

static json_t *escaped_string(const char *s, size_t max)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s, max);
	return json_string(sb.buf);
}

json_t *json_escaped_copy(const json_t *j, size_t max)
{
	const char *key;
	json_t *v, *out;
	size_t i;

	switch (json_typeof(j)) {
	case JSON_STRING:
		return escaped_string(json_string_value(j), max);
	case JSON_OBJECT:
		out = json_object();
		json_object_foreach((json_t *)j, key, v) {
			_cleanup_strbuf_ struct strbuf k = STRBUF_INIT;

			strbuf_add_text(&k, key, max);
			json_object_set_new(out, k.buf, json_escaped_copy(v, max));
		}
		return out;
	case JSON_ARRAY:
		out = json_array();
		json_array_foreach(j, i, v)
			json_array_append_new(out, json_escaped_copy(v, max));
		return out;
	default:
		return json_deep_copy(j);
	}
}

static void escape_json(json_t **j, size_t max)
{
	json_t *copy;

	if (!*j)
		return;
	copy = json_escaped_copy(*j, max);
	json_decref(*j);
	*j = copy;
}

static void escape_cell(struct stored_cell *c, size_t max)
{
	char **texts[] = {
		&c->name, &c->path, &c->api, &c->clock, &c->status, &c->reason,
		&c->unit, &c->cycles_unit,
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		escape_string(texts[i], max);
}

void stored_run_escape_text(struct stored_run *run, size_t max)
{
	char **texts[] = {
		&run->command, &run->label, &run->host, &run->kernel, &run->status,
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		escape_string(texts[i], max);
	escape_array(run->uuid, sizeof(run->uuid));
	escape_array(run->started, sizeof(run->started));
	/* Its facts pointed into the JSON replaced below. */
	run_facts_forget(run);
	escape_json(&run->env, max);
	escape_json(&run->config, max);
	escape_json(&run->quality, max);
	for (size_t i = 0; i < run->ncells; i++)
		escape_cell(&run->cells[i], max);
}
