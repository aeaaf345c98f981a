// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/disturb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "basic/stats.h"
#include "basic/util.h"

/* "16264 0 6795 32933 182 0 17 25 0 0": steal is the 8th figure. */
static long long steal_of_line(const char *p)
{
	unsigned long long f[8];

	if (sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) != 8)
		return -1;
	return (long long)f[7];
}

long long disturb_parse_steal(const char *text, int cpu)
{
	char want[32];
	size_t len = (size_t)snprintf(want, sizeof(want), "cpu%d ", cpu);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, want, len) == 0)
			return steal_of_line(p + len);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

/* "se.nr_migrations                             :                    1" */
long long disturb_parse_migrations(const char *text)
{
	const char *p = text ? strstr(text, "se.nr_migrations") : NULL;
	long long v;

	if (!p || !(p = strchr(p, ':')) || sscanf(p + 1, "%lld", &v) != 1)
		return -1;
	return v;
}

static long long read_figure(const char *path, int cpu, bool steal)
{
	char *text = read_text_file(path, 1 << 20);
	long long v;

	if (!text)
		return -1;
	v = steal ? disturb_parse_steal(text, cpu) : disturb_parse_migrations(text);
	free(text);
	return v;
}

void disturb_take(struct disturb_snap *s, int cpu)
{
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	s->ns = now_ns();
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		s->involuntary = ru.ru_nivcsw;
		s->voluntary = ru.ru_nvcsw;
	}
	s->steal_ticks = cpu >= 0 ? read_figure("/proc/stat", cpu, true) : -1;
	s->migrations = read_figure("/proc/thread-self/sched", cpu, false);
}

void disturb_diff(const struct disturb_snap *a, const struct disturb_snap *b,
		  struct round_quality *q)
{
	long hz = sysconf(_SC_CLK_TCK);

	q->elapsed_s = (double)(b->ns - a->ns) / 1e9;
	q->involuntary = b->involuntary - a->involuntary;
	q->voluntary = b->voluntary - a->voluntary;
	q->steal_ms = a->steal_ticks >= 0 && b->steal_ticks >= a->steal_ticks && hz > 0 ?
		      1000.0 * (double)(b->steal_ticks - a->steal_ticks) / (double)hz : NAN;
	q->migrations = a->migrations >= 0 && b->migrations >= a->migrations ?
			b->migrations - a->migrations : -1;
}

void disturb_tracker_init(struct disturb_tracker *t, int cpu)
{
	memset(t, 0, sizeof(*t));
	t->cpu = cpu;
}

void disturb_round_begin(struct disturb_tracker *t)
{
	t->nghz = 0;
	disturb_take(&t->start, t->cpu);
}

void disturb_note(struct disturb_tracker *t, const struct cell_result *r)
{
	double ghz;

	if (!r->round_ghz || !r->nrounds)
		return;
	ghz = r->round_ghz[r->nrounds - 1];
	if (!isfinite(ghz))
		return;
	grow_array((void **)&t->ghz, &t->cap, t->nghz + 1, sizeof(double));
	t->ghz[t->nghz++] = ghz;
}

void disturb_round_end(struct disturb_tracker *t)
{
	struct disturb_snap end;
	struct round_quality *q;

	disturb_take(&end, t->cpu);
	t->rounds = xrealloc(t->rounds, (t->nrounds + 1) * sizeof(*t->rounds));
	q = &t->rounds[t->nrounds++];
	disturb_diff(&t->start, &end, q);
	stats_sort(t->ghz, t->nghz);
	q->ghz = t->nghz ? stats_quantile_sorted(t->ghz, t->nghz, 0.5) : NAN;
}

void disturb_tracker_free(struct disturb_tracker *t)
{
	free(t->ghz);
	free(t->rounds);
	memset(t, 0, sizeof(*t));
}
