// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/exec-report.h"

#include <math.h>
#include <string.h>

#include "basic/error.h"
#include "basic/figure.h"
#include "basic/json.h"
#include "basic/stats.h"
#include "basic/text.h"
#include "basic/util.h"
#include "report/compare-format.h"
#include "report/exec-table.h"
#include "report/summary-figures.h"
#include "report/quality-text.h"

/* ---- the header -------------------------------------------------------- */

/* What the harness costs, in the table's unit; and what user/sys are worth. */
static void print_harness(FILE *f, const struct exec_report *e, const char *unit,
			  double k)
{
	char note[1024];
	struct summary h;

	if (e->harness_n) {
		stats_summarize_copy(e->harness_wall, e->harness_n, &h);
		fprintf(f, "# harness: %.3f %s a run, rCV %.1f%% (median of %zu runs of %s, "
			"started and reaped as the command is; not subtracted)\n",
			h.median * k, unit, h.robust_cv_pct, h.n, e->harness_what);
	} else {
		fputs("# harness: not measured\n", f);
	}
	cpu_accounting_note(e->acct, note, sizeof(note));
	fprintf(f, "# %s\n", note);
}

/* "# disturbance: ..." and the runs disturbed far beyond the others. */
static void print_disturbance(FILE *f, const struct exec_report *e)
{
	const struct exec_report_disturbance *d = &e->disturbance;

	quality_text_disturbance(f, "run", d->involuntary, d->wait_ms, d->runnable,
				 d->steal_ms);
	fprintf(f, "; %zu of %zu runs disturbed far beyond the others%s", d->marked,
		d->runs, d->marked ? ":" : "");
	for (size_t i = 0; i < d->nnamed; i++) {
		const struct exec_report_disturbed *r = &d->named[i];

		fprintf(f, "%s run %zu%s%s (%ld switches, %.1f ms waiting, %ld "
			"runnable, %.0f ms stolen)", i ? "," : "", r->run,
			r->label ? " of " : "", r->label ? r->label : "",
			r->involuntary, isfinite(r->wait_ms) ? r->wait_ms : 0,
			r->runnable, isfinite(r->steal_ms) ? r->steal_ms : 0);
	}
	fprintf(f, "%s\n", d->marked > d->nnamed ? ", ..." : "");
}

static const char *common_header(FILE *f, const struct exec_report *e,
				 const struct stored_run *first, double *k)
{
	const char *unit = exec_table_unit(exec_table_wall_median(first), k);

	print_harness(f, e, unit, *k);
	print_disturbance(f, e);
	fprintf(f, "# [95%% CI] of the median, with its real coverage when the runs are "
		"too few for 95%%; rCV: robust CV, 100 * 1.4826 MAD / median\n");
	return unit;
}

void exec_report_print_command(FILE *f, const struct exec_report *e,
			       const struct stored_run *run)
{
	const struct exec_report_command *c = &e->cmds[0];
	const char *unit;
	double k;

	fputs("# clockbench exec: ", f);
	text_put(f, c->text, TEXT_LINE_MAX);
	fputc('\n', f);
	fprintf(f, "# %zu runs (%ld warm-up)%s%s, output %s; ", c->n, e->warmup,
		e->shell ? ", through /bin/sh -c" : ", no shell",
		c->prepare ? ", with --prepare" : "",
		e->show_output ? "shown" : "discarded");
	text_put(f, c->program, TEXT_LINE_MAX);
	fputs(" found once, started by posix_spawn\n", f);
	unit = common_header(f, e, run, &k);
	exec_table_print_command(f, run, unit, k);
}

void exec_report_print_commands(FILE *f, const struct exec_report *e,
				const struct stored_run *runs)
{
	_cleanup_free_ const char **labels = xcalloc(e->ncmds, sizeof(*labels));
	_cleanup_free_ const char **values = xcalloc(e->ncmds, sizeof(*values));
	const char *unit;
	double k;

	fprintf(f, "# clockbench exec: %zu commands, %zu of %ld runs each (%ld warm-up), "
		"alternated %s", e->ncmds, e->done, e->runs, e->warmup,
		e->random ? "in a shuffled order, seed " :
		e->sequence ? "in the order given (A B, A B, ...)" : "A B B A ...");
	if (e->random)
		fprintf(f, "%llu", e->seed);
	fprintf(f, "%s, output %s\n", e->shell ? ", through /bin/sh -c" : ", no shell",
		e->show_output ? "shown" : "discarded");
	for (size_t i = 0; i < e->ncmds; i++) {
		const struct exec_report_command *c = &e->cmds[i];

		fprintf(f, "# %s: ", c->label);
		text_put(f, c->text, TEXT_LINE_MAX);
		fprintf(f, "%s\n", c->prepare ? " (with --prepare)" : "");
		labels[i] = c->label;
		values[i] = c->value;
	}
	unit = common_header(f, e, &runs[0], &k);
	exec_table_print_commands(f, runs, e->ncmds, labels, e->param, values,
				  unit, k);
}

/* ---- warnings ---------------------------------------------------------- */

/*
 * The unit a warning's times read in, as the table above it: chosen by
 * the smallest of them (a median of 7.8 ms, not "0.00782 s").
 */
static double warning_unit(double smallest, const char **unit)
{
	double scale;

	*unit = figure_seconds_unit(smallest, &scale);
	return scale;
}

/* The warnings hyperfine users know: outliers and a slow first run. */
static void warn_noise(const struct exec_report_warnings *w, const char *which)
{
	const char *unit;
	double scale;

	if (w->outliers)
		warn_msg("%s%zu of %zu wall times are statistical outliers (more than "
			 "%.1f MAD from the median): the machine was not quiet. "
			 "Consider more runs, --warmup or --prepare.", which, w->outliers,
			 w->n, w->outlier_mads);
	if (!w->slow_first)
		return;
	scale = warning_unit(w->rest_median_s, &unit);
	/* Cold caches, unless the run's own record shows another cause. */
	if (w->first_disturbed)
		warn_msg("%sthe first run took %.3g %s, far more than the others "
			 "(median %.3g %s), disturbed: %ld involuntary switches, "
			 "%.0f ms waiting for a CPU", which, w->first_s * scale, unit,
			 w->rest_median_s * scale, unit, w->first_involuntary,
			 isfinite(w->first_wait_ms) ? w->first_wait_ms : 0);
	else
		warn_msg("%sthe first run took %.3g %s, far more than the others "
			 "(median %.3g %s): caches were probably cold; consider "
			 "--warmup", which, w->first_s * scale, unit,
			 w->rest_median_s * scale, unit);
}

/* Which command ran just before each run decides its time. */
static void warn_order(const struct exec_report_warnings *w)
{
	const char *unit;
	double scale = warning_unit(fmin(w->after_self_median_s,
					 w->after_other_median_s), &unit);

	warn_msg("%s: its runs depend on the order: %zu after itself take %.3g %s "
		 "(median), %zu after another command %.3g %s: one command may "
		 "undo or repeat what the other did (a CPU offlined twice is "
		 "offline already); run them in order (--order sequence) or "
		 "restore the state before each (--prepare)", w->label, w->after_self,
		 w->after_self_median_s * scale, unit, w->after_other,
		 w->after_other_median_s * scale, unit);
}

static void warn_two_groups(const struct exec_report_warnings *w)
{
	const char *unit;
	double scale = warning_unit(w->low_min_s, &unit);

	warn_msg("%s%sthe wall times fall into two groups, %zu from %.3g to %.3g %s "
		 "and %zu from %.3g to %.3g %s: one summary of them describes neither. "
		 "A run that undoes or repeats a state change (CPU offline, then "
		 "offline again) is a different operation: run such commands in "
		 "order (--order sequence) or restore the state before each "
		 "(--prepare)", w->label ? w->label : "", w->label ? ": " : "",
		 w->low_n, w->low_min_s * scale, w->low_max_s * scale, unit, w->high_n,
		 w->high_min_s * scale, w->high_max_s * scale, unit);
}

void exec_report_warn(const struct exec_report_warnings *w)
{
	char which[160] = "";

	if (w->label)
		snprintf(which, sizeof(which), "%s: ", w->label);
	warn_noise(w, which);
	if (w->order_effect)
		warn_order(w);
	else if (w->low_n)
		warn_two_groups(w);
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *harness_json(const struct exec_report *e)
{
	struct summary s;

	stats_summarize_copy(e->harness_wall, e->harness_n, &s);
	return json_pack("{s:s, s:s, s:o, s:o}", "program", e->harness_program,
			 "what", e->harness_what, "wall", summary_to_json(&s),
			 "times", json_numbers(e->harness_wall, e->harness_n));
}

/* One command's figures, as exec --format json has always given them. */
static json_t *command_json(const struct exec_report *e,
			    const struct exec_report_command *c)
{
	struct summary w, u, y;
	json_t *j;

	stats_summarize_copy(c->wall, c->n, &w);
	stats_summarize_copy(c->user, c->n, &u);
	stats_summarize_copy(c->sys, c->n, &y);
	j = json_pack("{s:O, s:I, s:b, s:s, s:o, s:o, s:o, s:I, s:{s:o, s:o, s:o}}",
		      "config", c->config, "completed", (json_int_t)c->n,
		      "interrupted", e->interrupted, "unit", "s",
		      "wall", summary_to_json(&w), "user", summary_to_json(&u),
		      "sys", summary_to_json(&y), "hyperfine_outliers",
		      (json_int_t)c->outliers, "times",
		      "wall", json_numbers(c->wall, c->n),
		      "user", json_numbers(c->user, c->n),
		      "sys", json_numbers(c->sys, c->n));
	if (e->ncmds > 1)
		json_object_set_new(j, "label", json_string(c->label));
	json_object_set_new(j, "harness", e->harness_n ? harness_json(e) : json_null());
	json_object_set_new(j, "cpu_accounting", cpu_accounting_to_json(e->acct));
	json_object_set(j, "disturbance", c->disturbance);
	return j;
}

/* compare's JSON of cr, as a value to embed. */
static json_t *comparison_json(const struct compare_result *cr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	json_t *j = NULL;

	if (!mem)
		return json_null();
	if (compare_print(mem, cr, STYLE_TABLE, FORMAT_JSON) == 0 && fflush(mem) == 0)
		j = json_loadb(buf, len, 0, NULL);
	fclose(mem);
	free(buf);
	return j ? j : json_null();
}

void exec_report_json_print(FILE *f, const struct exec_report *e,
			    const struct compare_result *cr)
{
	json_t *j;

	if (!cr) {
		j = command_json(e, &e->cmds[0]);
	} else {
		json_t *cmds = json_array();

		for (size_t i = 0; i < e->ncmds; i++)
			json_array_append_new(cmds, command_json(e, &e->cmds[i]));
		j = json_pack("{s:o, s:o}", "commands", cmds,
			      "comparison", comparison_json(cr));
	}
	json_print(f, j);
	json_decref(j);
}
