// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/measure.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/table.h"
#include "basic/text.h"
#include "basic/util.h"
#include "probe/guard.h"
#include "report/output.h"

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

bool measure_stopped(void)
{
	return stop_signal != 0;
}

volatile sig_atomic_t *measure_stop_flag(void)
{
	return &stop_signal;
}

/* What asks a measurement to stop: ^C, kill, a hang-up, ^\\. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSTOP ARRAY_SIZE(stop_signals)

/*
 * No SA_RESTART: a wait for a child (exec, hotplug) returns EINTR, so the
 * command sees the stop at once instead of after the child's end. The flag
 * is not cleared: a stop that came before measure_run() still counts.
 */
static void install_stop_handlers(struct sigaction old[NSTOP])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, &old[i]);
}

static void restore_stop_handlers(const struct sigaction old[NSTOP])
{
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

/* The runs the command records, as the store will keep them. */
static void record_runs(struct measure *m)
{
	size_t cap = 0;

	if (!m->ops->record)
		return;
	for (;;) {
		struct stored_run run;

		record_begin(&run, m->ops->command, &m->store, &m->env, &m->started);
		if (!m->ops->record(m, m->nruns, &run)) {
			stored_run_free(&run);
			return;
		}
		record_finish(&run, m->elapsed_s, m->stop_signal != 0);
		/* Its uuid now: what is printed names the run that is saved. */
		stored_run_fill_defaults(&run);
		grow_array((void **)&m->runs, &cap, m->nruns + 1, sizeof(run));
		m->runs[m->nruns++] = run;
	}
}

/* Each run saved (unless --no-save): 0, or -1 when one could not be. */
static int save_runs(struct measure *m)
{
	int rc = 0;

	if (m->store.no_save)
		return 0;
	for (size_t k = 0; k < m->nruns; k++)
		if (record_save(&m->store, &m->runs[k]) != 0)
			rc = -1;
	return rc;
}

static void free_runs(struct measure *m)
{
	for (size_t k = 0; k < m->nruns; k++)
		stored_run_free(&m->runs[k]);
	free(m->runs);
	m->runs = NULL;
	m->nruns = 0;
}

static int print_results(struct measure *m)
{
	int rc;

	if (!m->ops->print)
		return 0;
	errno = 0;
	rc = m->ops->print(m, stdout);
	/*
	 * Here and not only in main: a guarded measurement prints in a child
	 * that ends with _exit(), which writes no buffer; and right after the
	 * printer, whose failed flush left the reason in errno.
	 */
	if (output_flush_stdout() != 0)
		return -1;
	return rc;
}

/*
 * The store the runs go to is checked (and created) before anything is
 * measured: a measurement is not thrown away for want of a place to keep
 * it. A store that is merely locked is fine: a refused save is spooled.
 */
static bool store_unusable(const struct measure *m)
{
	return m->ops->record && !m->store.no_save && record_check(&m->store) != 0;
}

int measure_run(struct measure *m)
{
	struct sigaction old[NSTOP];
	uint64_t start;
	int rc;

	if (store_unusable(m)) {
		/* timens and ab collect the environment before: it is ours. */
		if (m->have_env)
			env_free(&m->env);
		return 1;
	}
	install_stop_handlers(old);
	clock_gettime(CLOCK_REALTIME, &m->started);
	start = now_ns();
	rc = m->ops->measure(m);
	m->elapsed_s = (double)(now_ns() - start) / 1e9;
	m->stop_signal = (int)stop_signal;
	restore_stop_handlers(old);
	if (rc == 0) {
		if (!m->have_env) {
			env_collect(&m->env, NULL, "not looked up", -1);
			m->have_env = true;
		}
		record_runs(m);
		if (save_runs(m) != 0)
			rc = -1;
		if (print_results(m) != 0)
			rc = -1;
		free_runs(m);
	}
	if (m->have_env)
		env_free(&m->env);
	if (m->stop_signal)
		return 128 + m->stop_signal;
	return rc ? 1 : m->status;
}

/* The lock of r's piece of machine state, waiting up to 30 s: fd or -1. */
static int take_lock(const struct guarded_run *r)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int fd = guard_lock(r->lock, r->changing, 30, &err);

	if (fd < 0)
		error_msg("%s", err.buf);
	return fd;
}

/* The measurement, in the guard's child: measure_run() as usual. */
static int run_measure(void *ctx)
{
	return measure_run(ctx);
}

static int run_under_guard(struct measure *m, const struct guarded_run *r,
			   struct guard *g)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char line[1024];
	int rc;

	guard_init(g);
	g->graceful = true;
	g->pidfile = r->pidfile;
	rc = r->record(m, g);
	if (rc)
		return rc;
	rc = guard_run(g, run_measure, m, &err);
	if (rc < 0)
		error_msg("%s", err.buf);
	else if (g->child_signal)
		error_msg("the measuring process was killed by signal %d (%s)",
			  g->child_signal, strsignal(g->child_signal));
	guard_describe(g, line, sizeof(line));
	fprintf(stderr, "%s: restored %s\n", program_context(), line);
	if (rc < 0)
		return 1;
	for (size_t i = 0; i < g->n; i++)
		if (g->items[i].error && rc == 0)
			rc = 1;
	return rc;
}

int measure_run_guarded(struct measure *m, const struct guarded_run *r)
{
	struct guard g;
	int lock = take_lock(r), rc;

	if (lock < 0)
		return 1;
	rc = run_under_guard(m, r, &g);
	close(lock);
	return rc;
}

void timing_options_apply(const struct timing_options *t,
			  struct timing_config *cfg)
{
	if (t->quick)
		timing_config_quick(cfg);
	else
		timing_config_default(cfg);
	if (t->budget_s > 0)
		cfg->budget_s = t->budget_s;
	if (cfg->min_time_s > cfg->budget_s)
		cfg->min_time_s = cfg->budget_s;
	if (t->precision_pct > 0)
		cfg->rel_ci = t->precision_pct / 100;
	if (t->rounds > 0)
		cfg->rounds = (unsigned)t->rounds;
}

/* "runs", "n/a: why", "unsupported: why". */
static void add_cell_state(struct table *t, const struct cell *c,
			   const char *(*why_not)(const struct cell *))
{
	_cleanup_strbuf_ struct strbuf state = STRBUF_INIT;
	const char *why = c->status == CELL_OK && why_not ? why_not(c) : NULL;

	if (c->status != CELL_OK)
		strbuf_addf(&state, "%s: %s", c->status == CELL_NA ? "n/a" : "unsupported",
			    c->why);
	else if (why)
		strbuf_addf(&state, "n/a: %s", why);
	else
		strbuf_adds(&state, "runs");
	table_add_text(t, state.buf);
}

void measure_print_cell_list(const struct catalog *cat,
			     const char *(*why_not)(const struct cell *))
{
	struct table *t = table_new();

	table_add_text_columns(t, "name", "path", "state", NULL);
	/* One line a cell, for a script as much as for a reader. */
	table_set_titles(t, false);
	for (size_t i = 0; i < cat->ncells; i++) {
		table_add_text(t, cat->cells[i].name);
		table_add_text(t, catalog_paths[cat->cells[i].path]);
		add_cell_state(t, &cat->cells[i], why_not);
	}
	table_print(stdout, t, FORMAT_TABLE);
	table_free(t);
}

bool measure_enough_repetitions(size_t done)
{
	if (done >= 2)
		return true;
	error_msg("stopped after %zu repetition%s: too few to compare", done,
		  done == 1 ? "" : "s");
	return false;
}

void measure_print_labels(FILE *f, const struct measure *m)
{
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	bool quoted = true;

	strbuf_adds(&line, "clockbench compare");
	for (size_t k = 0; k < m->nruns; k++) {
		strbuf_addf(&names, "%s%s", k ? ", " : "", m->runs[k].label);
		strbuf_addch(&line, ' ');
		if (strbuf_add_sh_word(&line, m->runs[k].label) < 0)
			quoted = false;
	}
	if (m->store.no_save)
		text_line(f, "# labels %s (not saved)", names.buf);
	else if (quoted)
		text_line(f, "# saved as %s: %s", names.buf, line.buf);
	else
		text_line(f, "# saved as %s", names.buf);
}
