// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both backends of the store (store-sqlite.c, store-pg.c) build
 * their schema from: the views of the metrics, written once for both.
 */
#include "results/store-backend.h"

#include "basic/strbuf.h"
#include "basic/util.h"

/*
 * One read-only view per metric, one row per run and measured cell: what
 * Grafana or any SQL client charts (clockbench-runs(1)). started is the
 * backend's expression of runs.started (a timestamp on PostgreSQL).
 */
char *store_views_sql(const char *started)
{
	static const struct {
		const char *name, *prefix, *unit, *where;
	} views[] = {
		{ "metric_ns", "value", "c.unit", "c.unit = 'ns'" },
		{ "metric_seconds", "value", "c.unit", "c.unit = 's'" },
		{ "metric_cycles", "cycles", "c.cycles_unit", "c.cycles_median IS NOT NULL" },
		{ "metric_core_cycles", "core", "'core cycles'", "c.core_median IS NOT NULL" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(views); i++)
		strbuf_addf(&sb, "CREATE VIEW %s AS SELECT r.id AS run_id, r.uuid,"
			    " r.host, r.kernel, r.command, r.label, %s AS started,"
			    " c.name AS cell, c.path, c.%s_median AS median, c.%s_lo AS"
			    " ci_lo, c.%s_hi AS ci_hi, %s AS unit FROM runs r JOIN cells c"
			    " ON c.run_id = r.id WHERE c.status = 'ok' AND %s AND"
			    " c.%s_median IS NOT NULL;", views[i].name, started,
			    views[i].prefix, views[i].prefix, views[i].prefix,
			    views[i].unit, views[i].where, views[i].prefix);
	return strbuf_detach(&sb);
}
