// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/interleave.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/order.h"
#include "basic/progress.h"
#include "basic/util.h"
#include "results/quality.h"
#include "report/quality-text.h"
#include "results/record.h"

const char *const interleave_side_names[INTERLEAVE_SIDES] = { "host", "timens" };

/* ---- offsets -------------------------------------------------------- */

#define SEC_PER_DAY 86400LL
#define MAX_OFFSET_S (36500LL * SEC_PER_DAY)	/* 100 years */

bool timens_parse_offset(const char *s, int64_t *ns)
{
	static const struct { char unit; long long seconds; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', SEC_PER_DAY },
	};
	long long scale = 1, v = 0;
	bool negative = false;
	const char *p = s;

	if (!s || !*s)
		return false;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v > MAX_OFFSET_S)
			return false;
	}
	if (*p) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(units) && units[i].unit != *p; i++)
			;
		if (i == ARRAY_SIZE(units) || p[1])
			return false;
		scale = units[i].seconds;
	}
	if (v > MAX_OFFSET_S / scale)
		return false;
	*ns = (negative ? -v : v) * scale * NSEC_PER_SEC_I64;
	return true;
}

void timens_format_offset(int64_t ns, char *buf, size_t len)
{
	static const struct { char unit; long long seconds; } units[] = {
		{ 'd', SEC_PER_DAY }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 },
	};
	long long a = ns < 0 ? -(long long)ns : (long long)ns;
	char sign = ns < 0 ? '-' : '+';

	if (ns == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (a % NSEC_PER_SEC_I64 == 0) {
		long long s = a / NSEC_PER_SEC_I64;

		for (size_t i = 0; i < ARRAY_SIZE(units); i++)
			if (s % units[i].seconds == 0) {
				snprintf(buf, len, "%c%lld%c", sign,
					 s / units[i].seconds, units[i].unit);
				return;
			}
	}
	snprintf(buf, len, "%c%.9fs", sign, (double)a / 1e9);
}

/* ---- reading and writing, with deadlines ---------------------------- */

/*
 * Read exactly len bytes before the deadline, with the reason in err. A
 * signal (^C) does not cut a read short: the caller stops between
 * repetitions, not inside one.
 */
static int read_full(int fd, void *buf, size_t len, int timeout_ms,
		     struct strbuf *err)
{
	if (fd_read_all(fd, buf, len, timeout_ms) == 0)
		return 0;
	if (errno == ETIMEDOUT)
		strbuf_setf(err, "no answer within %d s", timeout_ms / 1000);
	else if (errno == EPIPE)
		strbuf_setf(err, "the child closed its pipe early (it died, or "
			    "sent a truncated message)");
	else
		strbuf_setf(err, "read: %s", strerror(errno));
	return -1;
}

/* ---- the parent's checks -------------------------------------------- */

int interleave_read_hello(int fd, size_t ncells, struct interleave_hello *h, int timeout_ms,
		  struct strbuf *err)
{
	if (read_full(fd, h, sizeof(*h), timeout_ms, err) != 0)
		return -1;
	if (h->magic != INTERLEAVE_MAGIC || h->version != INTERLEAVE_VERSION) {
		strbuf_setf(err, "bad hello: magic %#x version %u",
			    h->magic, h->version);
		return -1;
	}
	if (h->ncells != ncells) {
		strbuf_setf(err, "bad hello: %u cells, expected %zu",
			    h->ncells, ncells);
		return -1;
	}
	if (!isfinite(h->boundary_ns) || h->boundary_ns < 0 || h->pid <= 0 ||
	    h->core_source > CORE_PERF) {
		strbuf_setf(err, "bad hello: boundary %g ns, pid %d, core "
			    "cycles from %u", h->boundary_ns, h->pid, h->core_source);
		return -1;
	}
	h->ref.readings = NULL;
	if (h->core_source == CORE_REFERENCE &&
	    (!isfinite(h->ref.base_boundary) || !(h->ref.reading_core > 0) ||
	     !isfinite(h->ref.batch_boundary_core))) {
		strbuf_setf(err, "bad hello: a reading of %g core cycles, a "
			    "boundary of %g core cycles", h->ref.reading_core,
			    h->ref.batch_boundary_core);
		return -1;
	}
	h->cycles_unit[sizeof(h->cycles_unit) - 1] = '\0';
	h->warmup.cell[sizeof(h->warmup.cell) - 1] = '\0';
	return 0;
}

/* Unknown figures are NAN or -1; nothing else may be negative. */
static bool plausible(const struct round_quality *q)
{
	return !(q->ghz <= 0) && !(q->elapsed_s < 0) && q->involuntary >= 0 &&
	       q->voluntary >= 0 && !(q->steal_ms < 0) && q->migrations >= -1;
}

int interleave_read_tail(int fd, uint32_t round, struct round_quality *q, int timeout_ms,
		 struct strbuf *err)
{
	struct interleave_tail t;

	if (read_full(fd, &t, sizeof(t), timeout_ms, err) != 0)
		return -1;
	if (t.magic != INTERLEAVE_MAGIC || t.round != round) {
		strbuf_setf(err, "bad round tail: magic %#x, round %u, expected %u",
			    t.magic, t.round, round);
		return -1;
	}
	if (!plausible(&t.quality)) {
		strbuf_setf(err, "round %u: implausible figures (%g GHz, %ld "
			    "switches)", round, t.quality.ghz, t.quality.involuntary);
		return -1;
	}
	*q = t.quality;
	return 0;
}

static int check_frame(const struct interleave_frame *f, uint32_t cell, uint32_t round,
		       const struct cell_result *r, struct strbuf *err)
{
	if (f->magic != INTERLEAVE_MAGIC) {
		strbuf_setf(err, "bad frame for cell %u: magic %#x", cell,
			    f->magic);
		return -1;
	}
	if (f->cell != cell || f->round != round) {
		strbuf_setf(err, "frame for cell %u round %u, expected cell %u "
			    "round %u", f->cell, f->round, cell, round);
		return -1;
	}
	if (f->n == 0 || f->n > INTERLEAVE_MAX_SAMPLES || f->has_cycles > 1 ||
	    f->has_core > 1 || f->has_readings > f->has_core) {
		strbuf_setf(err, "bad frame for cell %u: %llu samples, "
			    "cycles flag %u, core flag %u, readings flag %u", cell,
			    (unsigned long long)f->n, f->has_cycles, f->has_core,
			    f->has_readings);
		return -1;
	}
	if (r->n && ((f->has_cycles != 0) != (r->cycles != NULL) ||
		     (f->has_core != 0) != (r->core != NULL) ||
		     (f->has_readings != 0) != (r->readings != NULL))) {
		strbuf_setf(err, "cell %u: cycles came and went between rounds",
			    cell);
		return -1;
	}
	return 0;
}

static int read_values(int fd, double *x, size_t n, int timeout_ms,
		       const char *what, struct strbuf *err)
{
	if (read_full(fd, x, n * sizeof(double), timeout_ms, err) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] < 0) {
			strbuf_setf(err, "%s sample %zu is %g", what, i, x[i]);
			return -1;
		}
	return 0;
}

/* Make room for n more samples in r's arrays (kept the same length). */
static void reserve(struct cell_result *r, size_t n, const struct interleave_frame *f)
{
	size_t need = r->n + n;
	bool cycles = f->has_cycles, core = f->has_core, readings = f->has_readings;

	if (need <= r->cap && (!cycles || r->cycles) && (!core || r->core) &&
	    (!readings || r->readings))
		return;
	if (need > r->cap)
		r->cap = need > 2 * r->cap ? need : 2 * r->cap;
	r->ns = xrealloc(r->ns, r->cap * sizeof(double));
	r->rounds = xrealloc(r->rounds, r->cap * sizeof(uint32_t));
	if (cycles)
		r->cycles = xrealloc(r->cycles, r->cap * sizeof(double));
	if (core)
		r->core = xrealloc(r->core, r->cap * sizeof(double));
	if (readings)
		r->readings = xrealloc(r->readings, r->cap * sizeof(double));
}

static int read_frame(int fd, uint32_t cell, uint32_t round, struct cell_result *r,
		      int timeout_ms, struct strbuf *err)
{
	struct interleave_frame f;
	size_t n;

	if (read_full(fd, &f, sizeof(f), timeout_ms, err) != 0 ||
	    check_frame(&f, cell, round, r, err) != 0)
		return -1;
	n = (size_t)f.n;
	reserve(r, n, &f);
	if (read_values(fd, r->ns + r->n, n, timeout_ms, "ns", err) != 0)
		return -1;
	if (f.has_cycles &&
	    read_values(fd, r->cycles + r->n, n, timeout_ms, "cycles", err) != 0)
		return -1;
	if (f.has_core &&
	    read_values(fd, r->core + r->n, n, timeout_ms, "core cycles", err) != 0)
		return -1;
	if (f.has_readings &&
	    read_values(fd, r->readings + r->n, n, timeout_ms, "readings", err) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		r->rounds[r->n + i] = round;
	r->n += n;
	if (round + 1 > r->nrounds)
		r->nrounds = round + 1;
	return 0;
}

int interleave_read_round(int fd, uint32_t round, struct cell_result *res,
		  size_t ncells, int timeout_ms, struct strbuf *err)
{
	for (size_t i = 0; i < ncells; i++)
		if (read_frame(fd, (uint32_t)i, round, &res[i], timeout_ms, err) != 0)
			return -1;
	return 0;
}

/* ---- the child ------------------------------------------------------ */

enum { CMD_ROUND = 1, CMD_QUIT = 2 };

struct interleave_cmd {
	uint32_t magic;
	uint32_t op;
	uint32_t round;
	uint32_t reserved;
};

/* Exit statuses of a child that gave up. */
enum {
	CHILD_BAD_COMMAND = 3, CHILD_WRITE_FAILED = 4, CHILD_NO_CPU = 5,
	CHILD_BAD_SETUP = 6, CHILD_EXEC_FAILED = 127,
};

struct child_args {
	const struct interleave_bench *b;
	int cmd_fd, data_fd;
	int cpu;		/* pin here first; -1: stay */
};

static void close_range_fds(unsigned lo, unsigned hi)
{
	if (lo > hi)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0U) == 0)
		return;
#endif
	for (unsigned fd = lo; fd <= hi && fd < 4096; fd++)
		close((int)fd);
}

/*
 * Keep only stdio and the two pipes: the other side's pipe ends, inherited
 * at fork, would keep that side from seeing the parent go away.
 */
static void close_fds_except(int a, int b)
{
	unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);

	close_range_fds(3, lo - 1);
	close_range_fds(lo + 1, hi - 1);
	close_range_fds(hi + 1, ~0U);
}

static int send_hello(int fd, size_t ncells, const struct timing_calibration *cal,
		      const struct cycle_counter *cc, const struct warmup_report *w)
{
	struct interleave_hello h;

	memset(&h, 0, sizeof(h));
	h.magic = INTERLEAVE_MAGIC;
	h.version = INTERLEAVE_VERSION;
	h.ncells = (uint32_t)ncells;
	h.pid = (int32_t)getpid();
	h.boundary_ns = cal->boundary_ns;
	h.core_source = cal->core_source;
	h.warmup = *w;
	h.ref = record_reference_figures(cal);
	if (cc->source != CYCLES_NONE)
		snprintf(h.cycles_unit, sizeof(h.cycles_unit), "%s", cc->unit);
	return fd_write_all(fd, &h, sizeof(h));
}

static int send_round(int fd, uint32_t round, const struct cell_result *res,
		      const size_t *first, size_t ncells)
{
	for (size_t i = 0; i < ncells; i++) {
		const struct cell_result *r = &res[i];
		size_t n = r->n - first[i];
		struct interleave_frame f = {
			.magic = INTERLEAVE_MAGIC, .cell = (uint32_t)i, .round = round,
			.has_cycles = r->cycles != NULL, .has_core = r->core != NULL,
			.has_readings = r->readings != NULL, .n = n,
		};

		if (fd_write_all(fd, &f, sizeof(f)) != 0 ||
		    fd_write_all(fd, r->ns + first[i], n * sizeof(double)) != 0 ||
		    (r->cycles &&
		     fd_write_all(fd, r->cycles + first[i], n * sizeof(double)) != 0) ||
		    (r->core &&
		     fd_write_all(fd, r->core + first[i], n * sizeof(double)) != 0) ||
		    (r->readings &&
		     fd_write_all(fd, r->readings + first[i], n * sizeof(double)) != 0))
			return -1;
	}
	return 0;
}

static int send_tail(int fd, uint32_t round, const struct round_quality *q)
{
	struct interleave_tail t = { .magic = INTERLEAVE_MAGIC, .round = round, .quality = *q };

	return fd_write_all(fd, &t, sizeof(t));
}

/* What a child keeps between rounds. */
struct child_state {
	struct cycle_counter cc;
	struct timing_calibration cal;
	struct disturb_tracker disturb;
	struct cell_result *res;
	size_t *first;
};

/* The whole repetition is measured before anything is written. */
static int child_round(const struct interleave_bench *b, int fd, uint32_t round,
		       struct child_state *cs)
{
	disturb_round_begin(&cs->disturb);
	for (size_t i = 0; i < b->ncells; i++) {
		cs->first[i] = cs->res[i].n;
		timing_round(&b->cells[i], &cs->cc, &b->cfg, &cs->cal, &cs->res[i]);
		disturb_note(&cs->disturb, &cs->res[i]);
	}
	disturb_round_end(&cs->disturb);
	if (send_round(fd, round, cs->res, cs->first, b->ncells) != 0)
		return -1;
	return send_tail(fd, round, &cs->disturb.rounds[cs->disturb.nrounds - 1]);
}

static void child_setup(const struct interleave_bench *b, struct child_state *cs,
			struct warmup_report *w)
{
	memset(cs, 0, sizeof(*cs));
	cycles_open(&cs->cc, b->counter);
	timing_calibrate(&cs->cc, &cs->cal);
	memset(w, 0, sizeof(*w));
	if (b->ncells)
		timing_warm_up(&b->cells[0], &cs->cc, &b->cfg, &cs->cal, w);
	disturb_tracker_init(&cs->disturb, sched_getcpu());
	cs->res = xcalloc(b->ncells ? b->ncells : 1, sizeof(*cs->res));
	cs->first = xcalloc(b->ncells ? b->ncells : 1, sizeof(*cs->first));
	for (size_t i = 0; i < b->ncells; i++)
		cs->res[i].batch_calls = b->batch_calls[i];
}

static int child_main(void *arg)
{
	const struct child_args *a = arg;
	const struct interleave_bench *b = a->b;
	struct warmup_report warmup;
	struct child_state cs;
	struct interleave_cmd cmd;
	int rc = 0;

	close_fds_except(a->cmd_fd, a->data_fd);
	/* ^C reaches the whole process group; the parent decides when to stop. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	if (a->cpu >= 0 && timing_pin_cpu(a->cpu) != 0)
		return CHILD_NO_CPU;
	child_setup(b, &cs, &warmup);
	if (send_hello(a->data_fd, b->ncells, &cs.cal, &cs.cc, &warmup) != 0)
		return CHILD_WRITE_FAILED;
	for (;;) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		/* EOF: the parent is gone or done. */
		if (read_full(a->cmd_fd, &cmd, sizeof(cmd), 24 * 3600 * 1000, &why) != 0)
			break;
		if (cmd.magic != INTERLEAVE_MAGIC || (cmd.op != CMD_ROUND && cmd.op != CMD_QUIT)) {
			rc = CHILD_BAD_COMMAND;
			break;
		}
		if (cmd.op == CMD_QUIT)
			break;
		if (child_round(b, a->data_fd, cmd.round, &cs) != 0) {
			rc = CHILD_WRITE_FAILED;
			break;
		}
	}
	for (size_t i = 0; i < b->ncells; i++)
		cell_result_free(&cs.res[i]);
	free(cs.res);
	free(cs.first);
	disturb_tracker_free(&cs.disturb);
	cycles_close(&cs.cc);
	return rc;
}

/* ---- exec'd workers (INTERLEAVE_EXEC) ---------------------------------------- */

/* What a worker cannot inherit: its settings, then one record per cell. */
struct interleave_setup {
	uint32_t magic;
	uint32_t version;
	uint32_t ncells;
	uint32_t counter;
	int32_t cpu;
	uint32_t reserved;
	struct timing_config cfg;
};

struct interleave_setup_cell {
	uint32_t path;
	uint32_t reserved;
	uint64_t batch_calls;
	char name[64];
};

/* More cells than the catalog has: a bound on what a worker reads. */
#define INTERLEAVE_MAX_CELLS 4096

static int send_setup(const struct interleave_bench *b, const struct interleave_side *side)
{
	struct interleave_setup h = {
		.magic = INTERLEAVE_MAGIC, .version = INTERLEAVE_VERSION, .ncells = (uint32_t)b->ncells,
		.counter = (uint32_t)b->counter, .cpu = side->spec.cpu, .cfg = b->cfg,
	};

	if (fd_write_all(side->cmd_fd, &h, sizeof(h)) != 0)
		return -1;
	for (size_t i = 0; i < b->ncells; i++) {
		struct interleave_setup_cell c = {
			.path = (uint32_t)b->cells[i].path,
			.batch_calls = b->batch_calls[i],
		};

		snprintf(c.name, sizeof(c.name), "%s", b->cells[i].name);
		if (fd_write_all(side->cmd_fd, &c, sizeof(c)) != 0)
			return -1;
	}
	return 0;
}

static bool setup_plausible(const struct interleave_setup *h)
{
	const struct timing_config *c = &h->cfg;

	return h->magic == INTERLEAVE_MAGIC && h->version == INTERLEAVE_VERSION &&
	       h->ncells <= INTERLEAVE_MAX_CELLS && h->counter <= CYCLES_REQ_NONE &&
	       c->rounds >= 1 && c->rounds <= 100000 && c->budget_s > 0 &&
	       c->budget_s < 3600 && c->target_batch_ns > 0 &&
	       c->max_samples <= INTERLEAVE_MAX_SAMPLES;
}

/* The worker's own catalog cell for a setup record, or NULL. */
static const struct cell *find_worker_cell(const struct catalog *cat,
					   const struct interleave_setup_cell *c)
{
	for (size_t i = 0; i < cat->ncells; i++)
		if (cat->cells[i].status == CELL_OK &&
		    (uint32_t)cat->cells[i].path == c->path &&
		    strncmp(cat->cells[i].name, c->name, sizeof(c->name)) == 0)
			return &cat->cells[i];
	return NULL;
}

/* Read the setup into b (cells copied into *cells): 0 or -1. */
static int read_setup(int fd, struct interleave_bench *b, const struct catalog *cat,
		      struct cell **cells, int *cpu)
{
	struct interleave_setup h;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (read_full(fd, &h, sizeof(h), 30000, &why) != 0 ||
	    !setup_plausible(&h))
		return -1;
	memset(b, 0, sizeof(*b));
	b->ncells = h.ncells;
	b->cfg = h.cfg;
	b->counter = (enum cycle_request)h.counter;
	*cpu = h.cpu;
	*cells = xcalloc(h.ncells ? h.ncells : 1, sizeof(**cells));
	b->batch_calls = xcalloc(h.ncells ? h.ncells : 1, sizeof(*b->batch_calls));
	for (size_t i = 0; i < h.ncells; i++) {
		struct interleave_setup_cell c;
		const struct cell *found;

		if (read_full(fd, &c, sizeof(c), 30000, &why) != 0)
			return -1;
		c.name[sizeof(c.name) - 1] = '\0';
		found = find_worker_cell(cat, &c);
		if (!found || c.batch_calls == 0 || c.batch_calls > (1u << 30))
			return -1;
		(*cells)[i] = *found;
		b->batch_calls[i] = (unsigned long)c.batch_calls;
	}
	b->cells = *cells;
	return 0;
}

int interleave_worker(int cmd_fd, int data_fd)
{
	struct catalog_filter all;
	struct catalog cat;
	struct interleave_bench b;
	struct cell *cells = NULL;
	struct child_args args = { .b = &b, .cmd_fd = cmd_fd, .data_fd = data_fd };
	int rc;

	catalog_filter_all(&all);
	catalog_build(&cat, &all);
	rc = read_setup(cmd_fd, &b, &cat, &cells, &args.cpu) == 0 ?
	     child_main(&args) : CHILD_BAD_SETUP;
	free(cells);
	free(b.batch_calls);
	catalog_free(&cat);
	return rc;
}

/* ---- the parent ----------------------------------------------------- */

void interleave_init_sides(struct interleave_bench *b, const struct cell *cells,
		       size_t ncells, const struct timing_config *cfg,
		       const struct interleave_side_spec *sides, size_t nsides,
		       enum cycle_request counter)
{
	struct cycle_counter cc;
	struct timing_calibration cal;

	memset(b, 0, sizeof(*b));
	b->cells = cells;
	b->ncells = ncells;
	b->cfg = *cfg;
	b->counter = counter;
	b->nsides = nsides < INTERLEAVE_MAX_SIDES ? nsides : INTERLEAVE_MAX_SIDES;
	b->batch_calls = xcalloc(ncells ? ncells : 1, sizeof(*b->batch_calls));
	for (size_t s = 0; s < b->nsides; s++) {
		b->side[s].spec = sides[s];
		b->side[s].res = xcalloc(ncells ? ncells : 1, sizeof(struct cell_result));
		b->side[s].cmd_fd = b->side[s].data_fd = -1;
	}
	/* A child that died must not kill the parent with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	cycles_open(&cc, counter);
	timing_spin(0.02);
	/* Batches as long as bench's for the clock's step; the sides get b->cfg. */
	timing_calibrate_batches(&cc, &cal, &b->cfg);
	for (size_t i = 0; i < ncells; i++) {
		struct cell_result r;

		memset(&r, 0, sizeof(r));
		timing_prepare(&cells[i], &cc, &b->cfg, &r);
		b->batch_calls[i] = r.batch_calls;
		for (size_t s = 0; s < b->nsides; s++)
			b->side[s].res[i].batch_calls = r.batch_calls;
	}
	cycles_close(&cc);
}

void interleave_init(struct interleave_bench *b, const struct cell *cells, size_t ncells,
		 const struct timing_config *cfg, const struct timens_offsets *off,
		 enum cycle_request counter)
{
	const struct interleave_side_spec sides[INTERLEAVE_SIDES] = {
		[INTERLEAVE_HOST] = { .name = interleave_side_names[INTERLEAVE_HOST], .how = INTERLEAVE_FORK, .cpu = -1 },
		[INTERLEAVE_TIMENS] = { .name = interleave_side_names[INTERLEAVE_TIMENS], .how = INTERLEAVE_IN_TIMENS,
				.cpu = -1 },
	};

	interleave_init_sides(b, cells, ncells, cfg, sides, INTERLEAVE_SIDES, counter);
	b->off = *off;
}

/* Generous: a repetition takes about ncells * budget / repetitions. */
static int round_timeout_ms(const struct interleave_bench *b)
{
	double round_s = (double)b->ncells * (b->cfg.budget_s + b->cfg.warmup_s) /
			 (b->cfg.rounds ? b->cfg.rounds : 1);

	return (int)(30000 + 10 * 1000 * round_s);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static pid_t fork_child(struct child_args *args, struct strbuf *err)
{
	pid_t pid;

	fflush(NULL);	/* the child must not repeat buffered output */
	pid = fork();
	if (pid < 0) {
		strbuf_setf(err, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(child_main(args) & 0xff);
	return pid;
}

/* Wait up to a few seconds, polling, then kill; the exit status or -1. */
static int reap(pid_t pid, pid_t also_kill)
{
	int status;

	for (int i = 0; i < 500; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
			       128 + WTERMSIG(status);
		if (r < 0 && errno != EINTR)
			return -1;
		usleep(10000);
	}
	if (also_kill > 0)
		kill(also_kill, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 128 + SIGKILL;
}

static void abandon(struct interleave_side *side)
{
	close_fd(&side->cmd_fd);
	close_fd(&side->data_fd);
	if (side->pid > 0)
		reap(side->pid, side->child);
	side->pid = 0;
	side->started = false;
}

/* A descriptor that survives execve. */
static int keep_across_exec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
}

/* In the forked child: become the worker the side's argv names. */
static _noreturn_ void exec_worker(const struct interleave_side_spec *spec,
				   const struct child_args *a)
{
	char **argv, worker[64];
	size_t n = 0;

	while (spec->argv[n])
		n++;
	argv = xcalloc(n + 2, sizeof(char *));
	memcpy(argv, spec->argv, n * sizeof(char *));
	snprintf(worker, sizeof(worker), "--worker=%d,%d", a->cmd_fd, a->data_fd);
	argv[n] = worker;
	for (char *const *e = spec->env; e && *e; e++)
		putenv(*e);
	if (keep_across_exec(a->cmd_fd) == 0 && keep_across_exec(a->data_fd) == 0)
		execvp(argv[0], argv);
	_exit(CHILD_EXEC_FAILED);
}

static pid_t fork_exec_worker(const struct interleave_side_spec *spec,
			      const struct child_args *a, struct strbuf *err)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		strbuf_setf(err, "fork: %s", strerror(errno));
	else if (pid == 0)
		exec_worker(spec, a);
	return pid;
}

static int spawn_side(struct interleave_bench *b, size_t s, struct child_args *args,
		      struct strbuf *err)
{
	struct interleave_side *side = &b->side[s];

	switch (side->spec.how) {
	case INTERLEAVE_FORK:
		side->pid = fork_child(args, err);
		return side->pid > 0 ? 0 : -1;
	case INTERLEAVE_EXEC:
		side->pid = fork_exec_worker(&side->spec, args, err);
		return side->pid > 0 ? 0 : -1;
	case INTERLEAVE_IN_TIMENS:
		break;
	}
	return timens_spawn(&b->off, child_main, args, &side->pid, err);
}

int interleave_start(struct interleave_bench *b, size_t s, struct strbuf *err)
{
	struct interleave_side *side = &b->side[s];
	struct child_args args = { .b = b, .cpu = side->spec.cpu };
	int cmd[2], data[2];
	struct interleave_hello h;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (pipe2(cmd, O_CLOEXEC) != 0) {
		strbuf_setf(err, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(data, O_CLOEXEC) != 0) {
		strbuf_setf(err, "pipe: %s", strerror(errno));
		close(cmd[0]);
		close(cmd[1]);
		return -1;
	}
	args.cmd_fd = cmd[0];
	args.data_fd = data[1];
	if (spawn_side(b, s, &args, err) != 0) {
		int e = errno;

		close(cmd[0]);
		close(cmd[1]);
		close(data[0]);
		close(data[1]);
		errno = e;
		return -1;
	}
	close(cmd[0]);
	close(data[1]);
	side->cmd_fd = cmd[1];
	side->data_fd = data[0];
	side->started = true;
	if (side->spec.how == INTERLEAVE_EXEC && send_setup(b, side) != 0) {
		strbuf_setf(err, "the %s side did not start: cannot send its "
			    "cells: %s", side->spec.name, strerror(errno));
		abandon(side);
		errno = EIO;
		return -1;
	}
	if (interleave_read_hello(side->data_fd, b->ncells, &h, 30000, &why) != 0) {
		strbuf_setf(err, "the %s side did not start: %s",
			    side->spec.name, why.buf);
		abandon(side);
		errno = EIO;
		return -1;
	}
	side->child = h.pid;
	side->boundary_ns = h.boundary_ns;
	side->core_source = (enum core_source)h.core_source;
	side->ref = h.ref;
	side->warmup = h.warmup;
	snprintf(side->cycles_unit, sizeof(side->cycles_unit), "%s", h.cycles_unit);
	return 0;
}

static int send_cmd(struct interleave_side *side, uint32_t op, uint32_t round)
{
	struct interleave_cmd cmd = { .magic = INTERLEAVE_MAGIC, .op = op, .round = round };

	return fd_write_all(side->cmd_fd, &cmd, sizeof(cmd));
}

int interleave_round(struct interleave_bench *b, size_t s, unsigned k, struct strbuf *err)
{
	struct interleave_side *side = &b->side[s];
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!side->started) {
		strbuf_setf(err, "the %s side is not running", b->side[s].spec.name);
		return -1;
	}
	if (send_cmd(side, CMD_ROUND, k) != 0) {
		strbuf_setf(err, "the %s side is gone: %s", b->side[s].spec.name,
			    strerror(errno));
		abandon(side);
		return -1;
	}
	side->rounds = xrealloc(side->rounds, (side->nrounds + 1) * sizeof(*side->rounds));
	if (interleave_read_round(side->data_fd, k, side->res, b->ncells,
			  round_timeout_ms(b), &why) != 0 ||
	    interleave_read_tail(side->data_fd, k, &side->rounds[side->nrounds],
			 round_timeout_ms(b), &why) != 0) {
		strbuf_setf(err, "the %s side, repetition %u: %s",
			    b->side[s].spec.name, k + 1, why.buf);
		abandon(side);
		return -1;
	}
	side->nrounds++;
	return 0;
}

int interleave_run(struct interleave_bench *b, const struct interleave_hooks *h,
	       unsigned *done, struct strbuf *err)
{
	unsigned reps = b->cfg.rounds;
	struct progress prog;
	char what[96];
	int rc = 0;

	progress_init(&prog, b->nsides * reps);
	*done = 0;
	for (unsigned k = 0; k < reps && !rc && !(h->stopped && h->stopped()); k++) {
		for (size_t j = 0; j < b->nsides && !rc; j++) {
			size_t s = balanced_order_at(b->nsides, k, j, 0);

			snprintf(what, sizeof(what), "repetition %u/%u, %s", k + 1,
				 reps, b->side[s].spec.name);
			progress_update(&prog, b->nsides * k + j, what);
			if (h->before_round)
				rc = h->before_round(h->ctx, s, k, err);
			if (!rc)
				rc = interleave_round(b, s, k, err);
		}
		if (!rc)
			(*done)++;
	}
	progress_done(&prog);
	return rc;
}

static void set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = xstrdup(s ? s : "");
}

static double *copy_doubles(const double *x, size_t n)
{
	double *c = xmalloc(n * sizeof(double));

	memcpy(c, x, n * sizeof(double));
	return c;
}

static void record_cell(struct stored_run *run, const struct cell *c,
			const struct cell_result *r, const struct interleave_side *side)
{
	const char *cycles_unit = side->cycles_unit;
	struct stored_cell *sc = record_add_cell(run, c->name, "ns", r->ns, r->n);

	set_str(&sc->path, catalog_paths[c->path]);
	set_str(&sc->api, catalog_apis[c->api].name);
	set_str(&sc->clock, c->clock ? c->clock->name : "");
	sc->batch_calls = r->batch_calls;
	if (!r->n) {
		set_str(&sc->status, "not reached");
		set_str(&sc->reason, "the run was interrupted");
		return;
	}
	sc->rounds = xmalloc(r->n * sizeof(uint32_t));
	memcpy(sc->rounds, r->rounds, r->n * sizeof(uint32_t));
	sc->nrounds = r->nrounds;
	if (r->cycles && *cycles_unit) {
		sc->cycles = copy_doubles(r->cycles, r->n);
		set_str(&sc->cycles_unit, cycles_unit);
	}
	if (r->core)
		sc->core_cycles = copy_doubles(r->core, r->n);
	if (r->readings)
		record_reference(sc, r, &side->ref);
}

void interleave_record_side(const struct interleave_bench *b, size_t s,
			struct stored_run *run)
{
	struct run_quality q;

	for (size_t i = 0; i < b->ncells; i++)
		record_cell(run, &b->cells[i], &b->side[s].res[i], &b->side[s]);
	interleave_side_quality(b, s, &q);
	run->quality = record_quality(&q, NULL);
}

int interleave_stop(struct interleave_bench *b, struct strbuf *err)
{
	int rc = 0;

	for (size_t s = 0; s < b->nsides; s++) {
		struct interleave_side *side = &b->side[s];
		int status;

		if (!side->started)
			continue;
		send_cmd(side, CMD_QUIT, 0);
		close_fd(&side->cmd_fd);
		close_fd(&side->data_fd);
		status = reap(side->pid, side->child);
		side->started = false;
		if (status != 0 && rc == 0) {
			strbuf_setf(err, "the %s side exited with status %d",
				    b->side[s].spec.name, status);
			rc = -1;
		}
	}
	return rc;
}

void interleave_side_quality(const struct interleave_bench *b, size_t s,
			 struct run_quality *q)
{
	const struct interleave_side *side = &b->side[s];

	memset(q, 0, sizeof(*q));
	q->core_source = side->core_source;
	q->warmup = side->warmup.windows ? &side->warmup : NULL;
	q->rounds = side->rounds;
	q->nrounds = side->nrounds;
	q->ref_vs_pmu_pct = NAN;
	quality_summarize(q);
}

void interleave_print_quality(FILE *f, const struct interleave_bench *b)
{
	for (size_t s = 0; s < b->nsides; s++) {
		struct run_quality q;

		if (!b->side[s].nrounds)
			continue;
		interleave_side_quality(b, (enum interleave_side_id)s, &q);
		quality_text_print(f, b->side[s].spec.name, &q, b->cfg.steady_tol);
	}
}

void interleave_summarize(struct interleave_bench *b)
{
	for (size_t s = 0; s < b->nsides; s++)
		for (size_t i = 0; i < b->ncells; i++)
			if (b->side[s].res[i].n)
				timing_summarize(&b->side[s].res[i]);
}

void interleave_free(struct interleave_bench *b)
{
	for (size_t s = 0; s < b->nsides; s++) {
		if (b->side[s].started)
			abandon(&b->side[s]);
		for (size_t i = 0; b->side[s].res && i < b->ncells; i++)
			cell_result_free(&b->side[s].res[i]);
		free(b->side[s].res);
		free(b->side[s].rounds);
	}
	free(b->batch_calls);
	memset(b, 0, sizeof(*b));
}
