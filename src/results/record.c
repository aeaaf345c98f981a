// SPDX-License-Identifier: GPL-2.0-or-later
#include "results/record.h"
#include "results/run-facts.h"
#include "results/run-settings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/catalog.h"
#include "probe/reference.h"
#include "basic/error.h"
#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/util.h"
#include "basic/text.h"
#include "config.h"
#include "results/spool.h"

int store_option_db(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!*arg) {
		strbuf_adds(err, "empty --db path");
		return -1;
	}
	if (store_is_url(arg) && store_check_url(arg, &why)) {
		strbuf_addf(err, "invalid --%s URL: %s", opt->long_name, why.buf);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

int store_option_label(const struct option_def *opt, const char *arg,
		    struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!store_label_valid(arg, &why)) {
		strbuf_addf(err, "invalid --label '%s': %s", arg, why.buf);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

const char *record_db_path(const struct store_options *o, char *buf, size_t len,
			   bool *create_dirs)
{
	const char *env = getenv("CLOCKBENCH_DB");

	*create_dirs = false;
	if (o && o->db) {
		snprintf(buf, len, "%s", o->db);
		return buf;
	}
	store_default_path(buf, len);
	*create_dirs = !(env && *env) && *buf;
	return buf;
}

/* mkdir -p of path's directory, private as the XDG spec asks. */
static int make_parent_dirs(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return mkdir_p_private(dir);
}

/* o's store, its path in path; err says why not (not printed). */
static struct store *open_store(const struct store_options *o,
				enum store_access access, char *path, size_t len,
				struct strbuf *err)
{
	bool create_dirs;

	record_db_path(o, path, len, &create_dirs);
	if (access == STORE_WRITE && create_dirs && make_parent_dirs(path) != 0) {
		strbuf_setf(err, "cannot create the directory of %s: %s", path,
			    strerror(errno));
		return NULL;
	}
	return store_open_access(path, access, err);
}

struct store *record_open(const struct store_options *o,
			  enum store_access access, char *path, size_t len)
{
	char buf[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct store *st;

	st = open_store(o, access, buf, sizeof(buf), &err);
	if (path)
		snprintf(path, len, "%s", buf);
	if (!st)
		error_msg("%s", err.buf);
	else if (store_warning(st))
		warn_msg("%s", store_warning(st));
	return st;
}

/*
 * Where an absent store would be created: the directory that would hold it
 * (or, for the default path, its nearest existing parent) is writable.
 */
static int check_creatable(const char *path, bool create_dirs, struct strbuf *err)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			slash[slash == dir] = '\0';	/* "/x" leaves "/" */
	} while (slash && create_dirs && !streq(dir, "/") &&
		 access(dir, F_OK) != 0 && errno == ENOENT);
	if (access(dir, W_OK | X_OK) == 0)
		return 0;
	if (errno == ENOENT)
		strbuf_setf(err, "cannot create %s: directory %s does not exist",
			    path, dir);
	else
		strbuf_setf(err, "cannot create %s in %s: %s", path, dir,
			    strerror(errno));
	return -1;
}

/* A store that exists takes a run now, or is merely locked (1). */
static int check_store(const struct store_options *o, char *path, size_t len,
		       struct strbuf *err)
{
	struct store *st;
	bool create_dirs;
	int rc;

	struct stat sb;

	record_db_path(o, path, len, &create_dirs);
	if (!*path)
		return open_store(o, STORE_WRITE, path, len, err) ? 0 : -1;
	/* A server's store is created, or upgraded, by this first connection. */
	if (store_is_url(path))
		st = store_open_access(path, STORE_WRITE, err);
	else if (store_check_link(path, err))
		return -1;
	else if (stat(path, &sb) != 0 && errno == ENOENT)
		return check_creatable(path, create_dirs, err);
	/* Empty: another process has just created it and is writing its schema. */
	else if (sb.st_size == 0)
		return check_creatable(path, false, err);
	else
		st = store_open_access(path, STORE_UPDATE, err);
	rc = st ? store_probe_write(st, err) : -1;
	store_close(st);
	return rc;
}

int record_check(const struct store_options *o)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc;

	if (o && o->no_save)
		return 0;
	rc = check_store(o, path, sizeof(path), &err);
	if (rc < 0) {
		error_msg("%s; nothing measured (--no-save measures without saving)",
			  err.buf);
		return -1;
	}
	if (rc > 0)
		warn_msg("%s: measuring anyway; the run is spooled if it stays locked",
			 err.buf);
	return 0;
}

/*
 * A control character (C0, DEL, C1) as '?', in place: a host name or a
 * kernel command line may hold one, and import refuses text that does,
 * so a run must not be stored (or spooled) with it.
 */
static void mask_controls(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++) {
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			p[0] = '?';
			p[1] = '?';
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			*p = '?';
		}
	}
}

static char *masked_copy(const char *s, size_t max)
{
	char *c = xstrdup(s);

	mask_controls(c);
	if (strlen(c) > max) {
		while (max > 0 && ((unsigned char)c[max] & 0xc0) == 0x80)
			max--;	/* not inside a UTF-8 sequence */
		c[max] = '\0';
	}
	return c;
}

/* The environment's strings masked the same way. */
static void mask_json_controls(json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_string(j)) {
		char *c = masked_copy(json_string_value(j), STORE_JSON_TEXT_MAX);

		json_string_set(j, c);
		free(c);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			mask_json_controls(v);
	} else if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			mask_json_controls(v);
	}
}

/* main's argv, in the order given: parse_options() reorders argv itself. */
static char **command_words;
static size_t ncommand_words;

void record_command_line(int argc, char **argv)
{
	if (argc < 2)
		return;
	ncommand_words = (size_t)argc - 1;
	command_words = xmalloc(ncommand_words * sizeof(*command_words));
	memcpy(command_words, argv + 1, ncommand_words * sizeof(*command_words));
}

static bool has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return true;
	return false;
}

/*
 * The index of the word that ends the --db the option kept ("--db=V", or
 * V after "--db"), or -1. Known by the value's address (the option keeps
 * a pointer into argv), not by its spelling: exec's COMMAND may well have
 * a --db of its own.
 */
static ssize_t last_db_word(const struct store_options *o)
{
	for (size_t i = 0; o && o->db && i < ncommand_words; i++) {
		const char *w = command_words[i];

		if (w == o->db || (o->db == w + strlen("--db=") &&
				   !strncmp(w, "--db=", strlen("--db="))))
			return (ssize_t)i;
	}
	return -1;
}

/*
 * The words at i that give a store: "--db" and its value, or "--db=V",
 * up to the one the option kept (an earlier --db was overridden by it,
 * and is an option too: options come before exec's COMMAND).
 */
static size_t db_words_at(size_t i, ssize_t last)
{
	const char *w = command_words[i];

	if ((ssize_t)i > last)
		return 0;
	if (streq(w, "--db") && (ssize_t)i + 1 <= last)
		return 2;
	return !strncmp(w, "--db=", strlen("--db="));
}

/* The words after `clockbench`, without the store; *exact false if masked. */
static json_t *command_line_json(const struct store_options *o, bool *exact)
{
	json_t *words = json_array();
	ssize_t last = last_db_word(o);

	*exact = true;
	for (size_t i = 0; i < ncommand_words;) {
		size_t skip = db_words_at(i, last);
		json_t *word;

		if (skip) {
			i += skip;
			continue;
		}
		word = json_string(command_words[i]);
		if (!word)	/* not UTF-8 */
			word = json_string("?");
		if (has_control(command_words[i]) ||
		    !streq(json_string_value(word), command_words[i]))
			*exact = false;
		json_array_append_new(words, word);
		i++;
	}
	return words;
}

/*
 * How the run was made: the command line, the version that ran it, and
 * the invocation: one uuid for all the runs of one process (ab's arms,
 * timens's sides), which a reader of the runs cannot tell from the command
 * line and the start time (two runs can start within a second).
 */
void record_add_command_line(json_t *env, const struct store_options *o)
{
	static char invocation[37];
	bool exact;

	if (!ncommand_words)
		return;
	if (!*invocation)
		store_new_uuid(invocation);
	json_object_set_new(env, "argv", command_line_json(o, &exact));
	json_object_set_new(env, "invocation", json_string(invocation));
	if (!exact)
		json_object_set_new(env, "argv_exact", json_false());
	json_object_set_new(env, "clockbench_version", json_string(CLOCKBENCH_VERSION));
}

void record_set_env(struct stored_run *run, const struct env_info *env,
		    const struct store_options *o)
{
	json_decref(run->env);
	run->env = env_to_json(env);
	record_add_command_line(run->env, o);
	mask_json_controls(run->env);
	run_facts_forget(run);
}

void record_begin(struct stored_run *run, const char *command,
		  const struct store_options *o, const struct env_info *env,
		  const struct timespec *started)
{
	struct tm tm;

	memset(run, 0, sizeof(*run));
	run->command = xstrdup(command);
	run->label = xstrdup(o && o->label ? o->label : "");
	run->host = masked_copy(env->hostname, STORE_TEXT_MAX);
	run->kernel = masked_copy(env->kernel_release, STORE_TEXT_MAX);
	run->status = xstrdup("complete");
	record_set_env(run, env, o);
	gmtime_r(&started->tv_sec, &tm);
	strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double *copy_doubles(const double *x, size_t n)
{
	double *c = xmalloc(n * sizeof(double));

	if (n)
		memcpy(c, x, n * sizeof(double));
	return c;
}

struct stored_cell *record_add_cell(struct stored_run *run, const char *name,
				    const char *unit, const double *values,
				    size_t n)
{
	struct stored_cell *c;

	run->cells = xrealloc(run->cells, (run->ncells + 1) * sizeof(*c));
	c = &run->cells[run->ncells++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->path = xstrdup("");
	c->api = xstrdup("");
	c->clock = xstrdup("");
	c->status = xstrdup("ok");
	c->reason = xstrdup("");
	c->unit = xstrdup(unit);
	c->cycles_unit = xstrdup("");
	c->values = copy_doubles(values, n);
	c->n = n;
	return c;
}

void record_finish(struct stored_run *run, double elapsed_s, bool interrupted)
{
	run->elapsed_s = elapsed_s;
	free(run->status);
	run->status = xstrdup(interrupted ? "interrupted" : "complete");
}

/* The run the store refused, kept in the spool; one line says where. */
static void spool_run(const struct store_options *o, const char *path,
		      const struct stored_run *run, const char *reason)
{
	char file[PATH_MAX + 64];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	bool db = o && o->db;
	_cleanup_free_ char *name = store_display_name(path);

	if (!*path) {
		error_msg("run not saved: %s", reason);
		return;
	}
	if (spool_write(path, run, file, sizeof(file), &err)) {
		error_msg("run not saved: %s; nor spooled: %s", reason, err.buf);
		return;
	}
	error_msg("run not saved: %s; it is kept in %s: 'clockbench import%s%s %s' "
		  "adds it, as will the next command that saves to %s", reason, file,
		  db ? " --db " : "", db ? name : "", file, name);
}

int record_save(const struct store_options *o, struct stored_run *run)
{
	char path[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct store *st;
	int rc = -1;

	if (o && o->no_save)
		return 0;
	/* One uuid whether the run lands in the store or in the spool. */
	stored_run_fill_defaults(run);
	st = open_store(o, STORE_WRITE, path, sizeof(path), &err);
	if (st)
		rc = store_save_run(st, run, &err);
	if (rc == 0) {
		text_line(stderr, "saved run %lld to %s", (long long)run->id,
			  store_name(st));
		spool_import(st, path);
	}
	store_close(st);
	if (rc)
		spool_run(o, path, run, err.buf);
	return rc;
}

int record_resolve_specs(struct store *st, char *const *specs, size_t nspecs,
			 int64_t **ids, size_t *n)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	for (size_t i = 0; i < nspecs; i++) {
		int64_t *found;
		size_t nfound;

		if (store_resolve(st, specs[i], &found, &nfound, &err)) {
			error_msg("%s", err.buf);
			free(*ids);
			*ids = NULL;
			*n = 0;
			return -1;
		}
		for (size_t k = 0; k < nfound; k++) {
			bool seen = false;

			for (size_t j = 0; j < *n && !seen; j++)
				seen = (*ids)[j] == found[k];
			if (seen)
				continue;
			grow_array((void **)ids, &cap, *n + 1, sizeof(**ids));
			(*ids)[(*n)++] = found[k];
		}
		free(found);
	}
	return 0;
}

/* ---- bench ---------------------------------------------------------- */

static const char *bench_cell_status(const struct bench_cell *bc)
{
	if (bc->measured)
		return "ok";
	switch (bc->cell.status) {
	case CELL_OK: return "not reached";
	case CELL_NA: return "n/a";
	case CELL_UNSUPPORTED: return "unsupported";
	}
	return "?";
}

static void set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = xstrdup(s ? s : "");
}

struct stored_reference record_reference_figures(const struct timing_calibration *cal)
{
	return (struct stored_reference){
		.base_is_values = !cal->base_arch,
		.base_boundary = cal->base_arch ? cal->boundary_cycles : cal->boundary_ns,
		.reading_core = timing_reading_core(cal),
		.batch_boundary_core = cal->batch_boundary_core,
	};
}

void record_reference(struct stored_cell *sc, const struct cell_result *r,
		      const struct stored_reference *figures)
{
	sc->ref = *figures;
	sc->ref.readings = copy_doubles(r->readings, r->n);
}

static void bench_cell(const struct bench_run *b, const struct bench_cell *bc,
		       struct stored_run *out)
{
	const struct cell *c = &bc->cell;
	const struct cell_result *r = &bc->res;
	struct stored_cell *sc;

	sc = record_add_cell(out, c->name, "ns", r->ns, bc->measured ? r->n : 0);
	set_str(&sc->path, catalog_paths[c->path]);
	set_str(&sc->api, catalog_apis[c->api].name);
	set_str(&sc->clock, c->clock ? c->clock->name : "");
	set_str(&sc->status, bench_cell_status(bc));
	set_str(&sc->reason, bc->measured ? "" : c->status == CELL_OK ?
		"the run was interrupted" : c->why);
	if (!bc->measured)
		return;
	sc->batch_calls = r->batch_calls;
	if (r->cycles) {
		sc->cycles = copy_doubles(r->cycles, r->n);
		set_str(&sc->cycles_unit, b->cycles_unit);
	}
	if (r->core)
		sc->core_cycles = copy_doubles(r->core, r->n);
	if (r->readings) {
		struct stored_reference figures = record_reference_figures(&b->cal);

		record_reference(sc, r, &figures);
	}
	if (r->rounds && r->n) {
		sc->rounds = xmalloc(r->n * sizeof(uint32_t));
		memcpy(sc->rounds, r->rounds, r->n * sizeof(uint32_t));
		sc->nrounds = stored_cell_count_rounds(sc->rounds, r->n);
	}
}

/* The median of what was measured, NAN when nothing was. */
static double median_or_nan(const struct summary *s)
{
	return s->n ? s->median : NAN;
}

/* The settings of the run, named as in bench's JSON output. */
static json_t *bench_config(const struct bench_run *b)
{
	const struct timing_config *cfg = &b->cfg;
	struct core_cycles_settings core;

	record_core_cycles(&b->cal, &b->cfg, &core);
	return bench_settings_json(&(struct bench_settings){
		.method = {
			.budget_s = cfg->budget_s, .min_time_s = cfg->min_time_s,
			.warmup_s = cfg->warmup_s, .target_batch_ns = cfg->target_batch_ns,
			.rel_ci = cfg->rel_ci, .min_samples = (double)cfg->min_samples,
			.max_samples = (double)cfg->max_samples, .rounds = cfg->rounds,
			.steady_tol = cfg->steady_tol, .boundary_ns = b->cal.boundary_ns,
			.boundary_cycles = b->cal.boundary_cycles,
		},
		.cycle_counter = { .unit = b->cycles_unit ? b->cycles_unit : "none",
				   .source = b->cycles_note },
		.overhead = {
			.ns_per_call = b->overhead.n ? b->overhead.ns_sum.median : NAN,
			.cycles_per_call = median_or_nan(&b->overhead.cycles_sum),
			.ruler = { .measured = b->ruler.n > 0, .nops = CATALOG_RULER_NOPS,
				   .ns_per_call = b->ruler.ns_sum.median,
				   .cycles_per_call = median_or_nan(&b->ruler.cycles_sum) },
		},
		.core_cycles = &core,
	});
}

void record_core_cycles(const struct timing_calibration *cal,
			const struct timing_config *cfg, struct core_cycles_settings *out)
{
	const struct reference_info *ri = reference_info();

	if (cal->core_source == CORE_NONE) {
		*out = (struct core_cycles_settings){ .source = "none" };
		return;
	}
	*out = (struct core_cycles_settings){
		.source = core_source_name(cal->core_source),
		.reference = {
			.instruction = ri->insn, .cycles_per_op = ri->cycles_per_op,
			.latency_from = ri->source, .validated = ri->validated,
			.ops = (double)cal->ref_ops,
			.reading_core_cycles = timing_reading_core(cal),
			.share_pct = timing_reference_share_pct(cal, cfg),
		},
		.time_base = cal->base_unit, .time_base_ghz = cal->base_per_ns,
		.boundary_core_cycles = cal->batch_boundary_core,
		.reading_boundary_core_cycles = cal->ref_boundary_core,
		.calibration_ghz = cal->ghz, .pmu_cycles_per_op = cal->pmu_op_cycles,
	};
}

json_t *record_core_cycles_config(const struct timing_calibration *cal,
				  const struct timing_config *cfg)
{
	struct core_cycles_settings c;

	record_core_cycles(cal, cfg, &c);
	return core_cycles_json(&c);
}

json_t *record_quality(const struct run_quality *q, const struct system_report *sys)
{
	json_t *j = quality_to_json(q);

	if (sys)
		json_object_set_new(j, "system", system_to_json(sys));
	return j;
}

void record_bench_cells(struct stored_run *out, const struct bench_run *b)
{
	for (size_t i = 0; i < b->ncells; i++)
		bench_cell(b, &b->cells[i], out);
	out->config = bench_config(b);
	out->quality = record_quality(&b->quality, &b->system);
}

void record_from_bench(const struct bench_run *b, const struct store_options *o,
		       struct stored_run *out)
{
	record_begin(out, "bench", o, &b->env, &b->started);
	record_bench_cells(out, b);
	record_finish(out, b->elapsed_s, b->interrupted);
}
