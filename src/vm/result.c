// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest's result, decoded once (vm/result.h). Every check names the
 * field it refused, as the import gate does for a file.
 */
#include "vm/result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "basic/json.h"
#include "basic/text.h"
#include "basic/util.h"
#include "results/run-facts.h"
#include "results/run-settings.h"
#include "vm/frame.h"
#include "vm/qemu.h"

/* The facts' texts: utsname's fields hold 64 bytes, the guest reads the rest. */
#define FACT_TEXT_MAX 4096

/* "the guest's result: IN.KEY: what", IN "" at the manifest's top. */
static int field_err(struct strbuf *err, const char *in, const char *key,
		     const char *fmt, ...) _printf_(4, 5);
static int field_err(struct strbuf *err, const char *in, const char *key,
		     const char *fmt, ...)
{
	va_list ap;

	strbuf_setf(err, "the guest's result: %s%s%s: ", in, *in ? "." : "", key);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The text member key of obj into *out (NULL when absent and optional):
 * at most max bytes, no control character but, where lines are allowed, a
 * newline or a tab (no NUL: jansson refuses "\u0000" unless asked).
 */
static int get_text(const json_t *obj, const char *in, const char *key, bool required,
		    size_t max, bool lines, char **out, struct strbuf *err)
{
	const json_t *j = json_object_get(obj, key);
	const char *s;
	size_t len;

	*out = NULL;
	if (!j)
		return required ? field_err(err, in, key, "missing") : 0;
	if (!json_is_string(j))
		return field_err(err, in, key, "not a string");
	s = json_string_value(j);
	len = json_string_length(j);
	if (len > max)
		return field_err(err, in, key, "%zu bytes, more than %zu", len, max);
	for (const char *p = s; (p = text_find_control(p)); p++)
		if (!lines || (*p != '\n' && *p != '\t'))
			return field_err(err, in, key, "contains a control character "
					 "(byte %zu)", (size_t)(p - s));
	*out = xstrdup(s);
	return 0;
}

/* A finite number member in [lo, hi]. */
static int get_number(const json_t *obj, const char *in, const char *key, double lo,
		      double hi, double *out, struct strbuf *err)
{
	const json_t *j = json_object_get(obj, key);
	double v = 0;

	if (!json_is_number(j))
		return field_err(err, in, key, j ? "not a number" : "missing");
	v = json_number_value(j);
	if (!isfinite(v) || v < lo || v > hi)
		return field_err(err, in, key, "%g, not within [%g, %g]", v, lo, hi);
	*out = v;
	return 0;
}

static bool symbol_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > GUEST_NAME_MAX)
		return false;
	for (const char *p = s; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

/* The vDSO's function names: a list of symbol names, each once. */
static int get_names(const json_t *facts, struct guest_facts *f, struct strbuf *err)
{
	const json_t *a = json_object_get(facts, "vdso_functions");
	size_t n = json_array_size(a);
	char where[64];

	if (!json_is_array(a))
		return field_err(err, "guest", "vdso_functions", a ? "not a list" : "missing");
	if (n > GUEST_NAMES_MAX)
		return field_err(err, "guest", "vdso_functions", "%zu names, more than %d",
				 n, GUEST_NAMES_MAX);
	f->vdso_functions = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(a, i));

		snprintf(where, sizeof(where), "vdso_functions[%zu]", i);
		if (!s)
			return field_err(err, "guest", where, "not a string");
		if (!symbol_name_valid(s))
			return field_err(err, "guest", where, "not a symbol name (1 to %d letters, "
					 "digits or '_')", GUEST_NAME_MAX);
		/* At most GUEST_NAMES_MAX^2 / 2 comparisons of short names. */
		for (size_t k = 0; k < f->nvdso; k++)
			if (streq(f->vdso_functions[k], s))
				return field_err(err, "guest", where, "'%s' listed twice", s);
		f->vdso_functions[f->nvdso++] = xstrdup(s);
	}
	return 0;
}

static int get_facts(const json_t *j, struct guest_facts *f, struct strbuf *err)
{
	struct { const char *key; char **out; size_t max; } texts[] = {
		{ "release", &f->release, 64 },
		{ "version", &f->version, 64 },
		{ "cmdline", &f->cmdline, FACT_TEXT_MAX },
		{ "clocksource", &f->clocksource, 127 },
		{ "available_clocksources", &f->available_clocksources, 511 },
	};
	double cpus = 0;

	if (!json_is_object(j))
		return field_err(err, "", "guest", j ? "not an object" : "missing");
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		if (get_text(j, "guest", texts[i].key, true, texts[i].max, false,
			     texts[i].out, err))
			return -1;
	if (get_number(j, "guest", "init_reached_s", 0, 1e6, &f->init_reached_s, err) ||
	    get_number(j, "guest", "clocksource_wait_s", 0, 1e6, &f->clocksource_wait_s,
		       err) ||
	    get_number(j, "guest", "cpus", 1, 4096, &cpus, err))
		return -1;
	f->cpus = (int)cpus;
	return get_names(j, f, err);
}

/* "status": {"exit": N} or {"signal": N}, when the command ran. */
static int get_status(const json_t *man, struct guest_result *r, struct strbuf *err)
{
	const json_t *st = json_object_get(man, "status");
	double v = 0;

	if (!st)
		return 0;
	if (!json_is_object(st))
		return field_err(err, "", "status", "not an object");
	r->ran = true;
	r->exit_code = -1;
	if (json_object_get(st, "signal")) {
		if (get_number(st, "status", "signal", 1, 64, &v, err))
			return -1;
		r->signal = (int)v;
		return 0;
	}
	if (get_number(st, "status", "exit", 0, 255, &v, err))
		return -1;
	r->exit_code = (int)v;
	return get_number(man, "", "command_s", 0, 1e6, &r->command_s, err);
}

static int decode_manifest(const char *text, size_t len, struct guest_result *r,
			   struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	json_error_t je;
	json_t *man;
	double version = 0;
	int rc = -1;

	if (!json_text_within(text, len, GUEST_MANIFEST_VALUES, GUEST_MANIFEST_DEPTH,
			      &why)) {
		strbuf_setf(err, "the guest's result: its manifest %s", why.buf);
		return -1;
	}
	man = json_loadb(text, len, 0, &je);
	if (!man) {
		strbuf_setf(err, "the guest's result: its manifest is not JSON: %s", je.text);
		goto out;
	}
	if (!json_is_object(man)) {
		strbuf_setf(err, "the guest's result: its manifest is not a JSON object");
		goto out;
	}
	if (get_number(man, "", "clockbench_guest", 0, 1e9, &version, err))
		goto out;
	if (version != GUEST_MANIFEST_VERSION) {
		strbuf_setf(err, "the guest's result is of format %g, this clockbench "
			    "reads %d: boot a guest built with it ('make guest')",
			    version, GUEST_MANIFEST_VERSION);
		goto out;
	}
	if (get_facts(json_object_get(man, "guest"), &r->facts, err) ||
	    get_text(man, "", "error", false, 1024, false, &r->error, err) ||
	    get_text(man, "", "output", false, GUEST_OUTPUT_MAX, true, &r->output, err) ||
	    get_status(man, r, err))
		goto out;
	rc = 0;
out:
	json_decref(man);
	return rc;
}

/* MANIFEST up to its NUL, at most GUEST_MANIFEST_MAX bytes of fd. */
static int read_manifest(int fd, size_t size, struct strbuf *text, struct strbuf *err)
{
	size_t want = size < GUEST_MANIFEST_MAX + 1 ? size : GUEST_MANIFEST_MAX + 1;
	_cleanup_free_ char *buf = xmalloc(want + 1);
	const char *nul;

	if (lseek(fd, 0, SEEK_SET) != 0 || fd_read_all(fd, buf, want, -1) != 0) {
		strbuf_setf(err, "cannot read the guest's result: %s", strerror(errno));
		return -1;
	}
	nul = memchr(buf, '\0', want);
	if (!nul) {
		strbuf_setf(err, "the guest's result: no manifest within its first "
			    "%u bytes", GUEST_MANIFEST_MAX);
		return -1;
	}
	strbuf_add(text, buf, (size_t)(nul - buf));
	return 0;
}

int guest_result_decode(const char *data, size_t len, struct guest_result *r,
			struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf manifest = STRBUF_INIT;
	size_t size = 0;

	memset(r, 0, sizeof(*r));
	r->fd = vm_file_new("result");
	if (r->fd < 0) {
		strbuf_setf(err, "cannot keep the guest's result: %s", strerror(errno));
		return -1;
	}
	if (frame_decode(data, len, r->fd, GUEST_RESULT_MAX, &size, err) ||
	    read_manifest(r->fd, size, &manifest, err) ||
	    decode_manifest(manifest.buf, manifest.len, r, err)) {
		guest_result_free(r);
		return -1;
	}
	r->export_at = (off_t)manifest.len + 1;
	r->has_export = (size_t)r->export_at < size;
	return 0;
}

void guest_result_free(struct guest_result *r)
{
	struct guest_facts *f = &r->facts;

	free(f->release);
	free(f->version);
	free(f->cmdline);
	free(f->clocksource);
	free(f->available_clocksources);
	for (size_t i = 0; i < f->nvdso; i++)
		free(f->vdso_functions[i]);
	free(f->vdso_functions);
	free(r->error);
	free(r->output);
	if (r->fd >= 0)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

json_t *guest_facts_json(const struct guest_facts *f)
{
	json_t *names = json_array();

	for (size_t i = 0; i < f->nvdso; i++)
		json_array_append_new(names, json_string(f->vdso_functions[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:i, s:o}",
			 "release", f->release ? f->release : "",
			 "version", f->version ? f->version : "",
			 "cmdline", f->cmdline ? f->cmdline : "",
			 "clocksource", f->clocksource ? f->clocksource : "",
			 "available_clocksources",
			 f->available_clocksources ? f->available_clocksources : "",
			 "init_reached_s", json_number(f->init_reached_s),
			 "clocksource_wait_s", json_number(f->clocksource_wait_s),
			 "cpus", f->cpus, "vdso_functions", names);
}

/*
 * bench's harness overhead in instructions: under icount its counter's
 * ticks are. Only that object is replaced (decoded, counted, encoded):
 * the rest of the config stays as the guest wrote it.
 */
static void count_overhead(struct stored_run *run)
{
	struct run_settings s;
	struct bench_overhead *h = &s.bench.overhead;

	run_settings_decode(run->config, &s);
	if (h->recorded) {
		h->counted = true;
		h->instructions_per_call = h->cycles_per_call;
		h->ruler.instructions_per_call = h->ruler.cycles_per_call;
		json_object_set_new(run->config, "harness_overhead", bench_overhead_json(h));
	}
	run_settings_release(&s);
	run_facts_forget(run);
}

int guest_run_count_instructions(struct stored_run *run, struct strbuf *err)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct stored_cell *c = &run->cells[i];

		if (!c->values || !c->n)
			continue;
		if (!c->cycles || !streq(c->unit, "ns")) {
			strbuf_setf(err, "cells[%zu] (%s): no counter figures per call to "
				    "count instructions from", i, c->name);
			return -1;
		}
		free(c->values);
		c->values = c->cycles;
		c->cycles = NULL;
		free(c->unit);
		c->unit = xstrdup("instructions");
		free(c->cycles_unit);
		c->cycles_unit = xstrdup("");
		free(c->core_cycles);
		c->core_cycles = NULL;
		free(c->ref.readings);
		memset(&c->ref, 0, sizeof(c->ref));
	}
	count_overhead(run);
	return 0;
}
