// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpuhp trace events as data: pairing enters with exits, charging each
 * hotplug state its time, and the per-state table over the cycles of a
 * run. No system access here.
 */
#include "scenario/hotplug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/stats.h"
#include "basic/util.h"

/* ---- time per state ------------------------------------------------- */

struct interval {
	int pid, step;
	const char *fn;
	uint64_t start, end;
	bool closed, failed;
	double self_s;
};

/* The latest open interval of pid for step, or NULL. */
static struct interval *open_interval(struct interval *iv, size_t n, int pid,
				      int step)
{
	for (size_t i = n; i-- > 0;)
		if (!iv[i].closed && iv[i].pid == pid && iv[i].step == step)
			return &iv[i];
	return NULL;
}

static size_t pair_events(const struct cpuhp_event *ev, size_t n,
			  struct interval *iv)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct interval *o;

		if (ev[i].kind != CPUHP_EXIT) {
			iv[k++] = (struct interval){ .pid = ev[i].pid,
				.step = ev[i].step, .fn = ev[i].fn,
				.start = ev[i].ts_ns };
			continue;
		}
		o = open_interval(iv, k, ev[i].pid, ev[i].step);
		if (!o || ev[i].ts_ns < o->start)
			continue;
		o->end = ev[i].ts_ns;
		o->closed = true;
		o->failed = ev[i].ret != 0;
	}
	return k;
}

static double duration_s(const struct interval *iv)
{
	return (double)(iv->end - iv->start) / 1e9;
}

/*
 * The innermost closed interval of another task that encloses j: the one
 * waiting for it. NULL when j ran on its own.
 */
static struct interval *enclosing(struct interval *iv, size_t n,
				  const struct interval *j)
{
	struct interval *best = NULL;

	for (size_t i = 0; i < n; i++) {
		struct interval *c = &iv[i];

		if (!c->closed || c->pid == j->pid || c->start > j->start ||
		    c->end < j->end)
			continue;
		if (!best || c->end - c->start < best->end - best->start)
			best = c;
	}
	return best;
}

static struct cpuhp_step *step_slot(struct cpuhp_step **s, size_t *n,
				    size_t *cap, const struct interval *iv)
{
	struct cpuhp_step *slot;

	for (size_t i = 0; i < *n; i++)
		if ((*s)[i].step == iv->step)
			return &(*s)[i];
	grow_array((void **)s, cap, *n + 1, sizeof(**s));
	slot = &(*s)[(*n)++];
	memset(slot, 0, sizeof(*slot));
	slot->step = iv->step;
	snprintf(slot->fn, sizeof(slot->fn), "%s", iv->fn);
	return slot;
}

static int cmp_step(const void *a, const void *b)
{
	const struct cpuhp_step *x = a, *y = b;

	return (x->step > y->step) - (x->step < y->step);
}

size_t cpuhp_step_times(const struct cpuhp_event *ev, size_t n,
			struct cpuhp_step **out)
{
	_cleanup_free_ struct interval *iv = xcalloc(n ? n : 1, sizeof(*iv));
	struct cpuhp_step *steps = NULL;
	size_t k = pair_events(ev, n, iv), nsteps = 0, cap = 0;

	for (size_t i = 0; i < k; i++)
		iv[i].self_s = iv[i].closed ? duration_s(&iv[i]) : 0;
	for (size_t i = 0; i < k; i++) {
		struct interval *parent;

		if (!iv[i].closed)
			continue;
		parent = enclosing(iv, k, &iv[i]);
		if (parent)
			parent->self_s -= duration_s(&iv[i]);
	}
	for (size_t i = 0; i < k; i++) {
		struct cpuhp_step *s;

		if (!iv[i].closed)
			continue;
		s = step_slot(&steps, &nsteps, &cap, &iv[i]);
		/* Microsecond timestamps can make a parent's rest negative. */
		s->self_s += iv[i].self_s > 0 ? iv[i].self_s : 0;
		s->total_s += duration_s(&iv[i]);
		s->calls++;
		s->failed |= iv[i].failed;
	}
	if (nsteps)
		qsort(steps, nsteps, sizeof(*steps), cmp_step);
	*out = steps;
	return nsteps;
}

/* ---- state names ---------------------------------------------------- */

void hotplug_states_parse(const char *text, struct hotplug_states *s)
{
	const char *line = text, *nl;

	memset(s, 0, sizeof(*s));
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		char name[128];
		int step, used = 0;

		nl = strchr(line, '\n');
		if (sscanf(line, " %d: %n", &step, &used) != 1 || used == 0 ||
		    step < 0 || step > 100000)
			continue;
		if (sscanf(line + used, "%127[^\n]", name) != 1)
			continue;
		if ((size_t)step >= s->count) {
			s->names = xrealloc(s->names, ((size_t)step + 1) * sizeof(char *));
			memset(s->names + s->count, 0,
			       ((size_t)step + 1 - s->count) * sizeof(char *));
			s->count = (size_t)step + 1;
		}
		free(s->names[step]);
		s->names[step] = xstrdup(name);
	}
}

const char *hotplug_state_name(const struct hotplug_states *s, int step)
{
	if (step < 0 || (size_t)step >= s->count || !s->names[step])
		return "?";
	return s->names[step];
}

void hotplug_states_free(struct hotplug_states *s)
{
	for (size_t i = 0; i < s->count; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

/* ---- the per-state table -------------------------------------------- */

static struct state_row *table_row(struct state_table *t,
				   const struct cpuhp_step *s)
{
	struct state_row *r;

	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].step == s->step)
			return &t->rows[i];
	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
	r = &t->rows[t->nrows++];
	memset(r, 0, sizeof(*r));
	r->step = s->step;
	snprintf(r->fn, sizeof(r->fn), "%s", s->fn);
	r->values = xcalloc(t->cap ? t->cap : 1, sizeof(double));
	return r;
}

static void grow_rows(struct state_table *t, size_t need)
{
	size_t cap = t->cap ? t->cap : 8;

	if (need <= t->cap)
		return;
	while (cap < need)
		cap *= 2;
	for (size_t i = 0; i < t->nrows; i++) {
		t->rows[i].values = xrealloc(t->rows[i].values, cap * sizeof(double));
		memset(t->rows[i].values + t->cap, 0, (cap - t->cap) * sizeof(double));
	}
	t->cap = cap;
}

void state_table_add_cycle(struct state_table *t, const struct cpuhp_step *s,
			   size_t n)
{
	size_t cycle = t->ncycles;

	grow_rows(t, cycle + 1);
	for (size_t i = 0; i < n; i++) {
		struct state_row *r = table_row(t, &s[i]);

		r->values[cycle] = s[i].self_s;
		r->failed |= s[i].failed;
	}
	t->ncycles = cycle + 1;
}

double state_row_mean(const struct state_table *t, const struct state_row *r)
{
	double sum = 0;

	if (!t->ncycles)
		return 0;
	for (size_t i = 0; i < t->ncycles; i++)
		sum += r->values[i];
	return sum / (double)t->ncycles;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct state_row *x = a, *y = b;

	if (x->mean_s != y->mean_s)
		return x->mean_s < y->mean_s ? 1 : -1;
	return (x->step > y->step) - (x->step < y->step);
}

void state_table_rank(struct state_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		t->rows[i].mean_s = state_row_mean(t, &t->rows[i]);
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), cmp_rows);
}

void state_table_free(struct state_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		free(t->rows[i].values);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
