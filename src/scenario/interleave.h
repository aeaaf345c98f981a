/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interleaving engine, behind ab and timens: the same cells measured
 * by several child processes (sides), one repetition at a time, the
 * sides' repetitions interleaved (in the order of basic/order.h, which
 * exec runs its commands in without the engine). Its first use was
 * timens's:
 *
 * Benchmarking inside a time namespace (seed 000): the same cells measured
 * by two child processes that differ only in their time namespace, one
 * repetition at a time, so that host and namespace repetitions interleave
 * and a drift of the machine touches both sides alike.
 *
 * Both sides are children, forked from the same parent after the cells
 * and batch sizes were chosen: same code, same heap, same page-table
 * history, same batch size per cell. Only the namespace differs. (Had the
 * parent measured the host side itself, its longer history and the
 * children's copy-on-write faults would be part of the difference.) Each
 * child opens its own cycle counter and calibrates its own clock-read
 * overhead, since reading the clock costs more inside a namespace.
 *
 * The protocol, over two pipes per child (all integers in host order, the
 * child being a fork of the parent):
 *
 *   child -> parent  hello: magic, version, ncells, pid, boundary ns,
 *                    cycles unit, where core cycles come from, its warm-up,
 *                    the figures that make its core cycles again
 *   parent -> child  command: magic, ROUND k | QUIT
 *   child -> parent  per cell, after the whole round was measured (so the
 *                    parent never wakes during a measurement): frame header
 *                    (magic, cell, round, has cycles, has core cycles, has
 *                    readings, n), n doubles of ns per call, then n doubles
 *                    of cycles, of core cycles and of the reference's
 *                    readings, those present; then the round's tail:
 *                    magic, round, what disturbed the round
 *
 * The parent checks every header and value it reads, and gives up on a
 * child that sends nonsense, dies or stays silent past a deadline.
 */
#ifndef CLOCKBENCH_INTERLEAVE_H
#define CLOCKBENCH_INTERLEAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "basic/strbuf.h"
#include "probe/catalog.h"
#include "probe/cycles.h"
#include "probe/disturb.h"
#include "probe/timens.h"
#include "probe/timing.h"
#include "results/store.h"

/*
 * A namespace offset from the command line: an optional sign, an integer
 * and an optional unit s, m, h or d (seconds without one): "+10d", "-3600",
 * "90m". At most 100 years either way. Returns false when s is not one.
 */
bool timens_parse_offset(const char *s, int64_t *ns);

/* "+10d", "-1h 30m"-like short form of an offset, for headers. */
void timens_format_offset(int64_t ns, char *buf, size_t len);

/* timens's two sides; ab has up to INTERLEAVE_MAX_SIDES of its own. */
enum interleave_side_id {
	INTERLEAVE_HOST,
	INTERLEAVE_TIMENS,
	INTERLEAVE_SIDES,
};

extern const char *const interleave_side_names[INTERLEAVE_SIDES];

#define INTERLEAVE_MAX_SIDES 8

/* How a side's measuring process comes to be. */
enum interleave_spawn {
	INTERLEAVE_FORK,	/* a fork of the parent */
	INTERLEAVE_IN_TIMENS,	/* a fork inside a new time namespace (off) */
	/*
	 * A fork that executes argv (a command prefix, then clockbench
	 * itself), with env added to the environment; it gets its cells and
	 * batch sizes over the pipe (interleave_worker()). For what only a new
	 * process image can change: another LD_PRELOAD, another C library.
	 */
	INTERLEAVE_EXEC,
};

struct interleave_side_spec {
	const char *name;		/* "host", "tsc", "cpu0", ... */
	enum interleave_spawn how;
	int cpu;			/* pin the child here; -1: the parent's CPU */
	char *const *argv;		/* INTERLEAVE_EXEC: NULL-terminated */
	char *const *env;		/* INTERLEAVE_EXEC: "VAR=value" added, or NULL */
};

struct interleave_side {
	struct interleave_side_spec spec;	/* borrowed strings */
	struct cell_result *res;	/* one per cell: ns, cycles, rounds */
	double boundary_ns;		/* the child's clock-read overhead */
	char cycles_unit[32];		/* "" when the child has no counter */
	enum core_source core_source;	/* the child's */
	struct stored_reference ref;	/* its figures, readings NULL */
	struct warmup_report warmup;	/* the child's, before its first round */
	struct round_quality *rounds;	/* what disturbed each round, by round */
	unsigned nrounds;
	pid_t pid;			/* the child (or the timens helper) */
	pid_t child;			/* the measuring process itself */
	int cmd_fd, data_fd;		/* -1 when closed */
	bool started;
};

struct interleave_bench {
	const struct cell *cells;
	size_t ncells;
	struct timing_config cfg;	/* cfg.rounds: the repetitions */
	unsigned long *batch_calls;	/* per cell, chosen by the parent */
	enum cycle_request counter;
	struct timens_offsets off;
	struct interleave_side side[INTERLEAVE_MAX_SIDES];
	size_t nsides;
};

/*
 * Set up b for cells (borrowed) and choose each cell's batch size in the
 * calling process, which should already be pinned to the CPU the
 * children will use. The sides are timens's host and timens.
 */
void interleave_init(struct interleave_bench *b, const struct cell *cells, size_t ncells,
		 const struct timing_config *cfg, const struct timens_offsets *off,
		 enum cycle_request counter);

/* The same with sides of the caller's own (1 to INTERLEAVE_MAX_SIDES, borrowed). */
void interleave_init_sides(struct interleave_bench *b, const struct cell *cells,
		       size_t ncells, const struct timing_config *cfg,
		       const struct interleave_side_spec *sides, size_t nsides,
		       enum cycle_request counter);

/*
 * The INTERLEAVE_EXEC side's process: read the cells and settings from cmd_fd,
 * find the cells in this process's catalog, then answer rounds like a
 * forked side. Returns the exit status (0 when told to quit).
 */
int interleave_worker(int cmd_fd, int data_fd);

/*
 * Start one side's child (INTERLEAVE_TIMENS through timens_spawn()) and read its
 * hello. 0, or -1 with the reason in err (errno EPERM from timens_spawn
 * when not privileged).
 */
int interleave_start(struct interleave_bench *b, size_t s, struct strbuf *err);

/* One repetition of every cell on side s; its samples get round number k. */
int interleave_round(struct interleave_bench *b, size_t s, unsigned k, struct strbuf *err);

/* The order of the sides in each repetition: basic/order.h (A B B A ...). */

struct interleave_hooks {
	/*
	 * Before side s measures repetition k (ab switches the clocksource
	 * there): 0, or -1 with the reason in err. May be NULL.
	 */
	int (*before_round)(void *ctx, size_t s, unsigned k, struct strbuf *err);
	bool (*stopped)(void);	/* asked to stop: no next repetition */
	void *ctx;
};

/*
 * cfg.rounds repetitions of every started side, interleaved, with a
 * progress line on a terminal; *done gets the complete repetitions.
 * 0, or -1 with the reason in err.
 */
int interleave_run(struct interleave_bench *b, const struct interleave_hooks *h,
	       unsigned *done, struct strbuf *err);

/*
 * Tell the children to quit and wait for them; a child that does not
 * quit within a few seconds is killed. 0 when every started child exited
 * cleanly, -1 with the first problem in err.
 */
int interleave_stop(struct interleave_bench *b, struct strbuf *err);

struct stored_run;
/*
 * Side s's cells (ns, cycles, core cycles and rounds of every batch) and
 * quality into a begun stored run.
 */
void interleave_record_side(const struct interleave_bench *b, size_t s,
			struct stored_run *run);

struct run_quality;
/* Side s's quality (borrowing its rounds and warm-up), summarised. */
void interleave_side_quality(const struct interleave_bench *b, size_t s,
			 struct run_quality *q);
/* "# host warm-up: ..." and "# host quality: ..." for each side that ran. */
void interleave_print_quality(FILE *f, const struct interleave_bench *b);

/* Summaries of every side's cells; call after the last round. */
void interleave_summarize(struct interleave_bench *b);
void interleave_free(struct interleave_bench *b);

/* ---- the wire format, exposed for tests ------------------------------ */

#define INTERLEAVE_MAGIC 0x43424e53u	/* "SNBC" */
#define INTERLEAVE_VERSION 3
/* More batches than a round can produce: a bound on what the parent reads. */
#define INTERLEAVE_MAX_SAMPLES (1u << 22)

struct interleave_hello {
	uint32_t magic;
	uint32_t version;
	uint32_t ncells;
	int32_t pid;
	double boundary_ns;
	char cycles_unit[32];
	uint32_t core_source;		/* enum core_source */
	uint32_t reserved;
	struct warmup_report warmup;
	struct stored_reference ref;	/* readings: not a pointer here */
};

struct interleave_frame {
	uint32_t magic;
	uint32_t cell;
	uint32_t round;
	uint32_t has_cycles;
	uint32_t has_core;
	uint32_t has_readings;
	uint64_t n;
};

struct interleave_tail {
	uint32_t magic;
	uint32_t round;
	struct round_quality quality;
};

/*
 * Read one round's frames (ncells of them) from fd into res, with a
 * deadline of timeout_ms per read. Checks every header against the
 * expected cell and round and every value (finite, >= 0). Returns 0, or
 * -1 with the reason in err.
 */
int interleave_read_round(int fd, uint32_t round, struct cell_result *res,
		  size_t ncells, int timeout_ms, struct strbuf *err);

/*
 * Read a round's tail: checks magic and round and that the figures are
 * plausible (none negative but the unknowns). 0, or -1 with err.
 */
int interleave_read_tail(int fd, uint32_t round, struct round_quality *q, int timeout_ms,
		 struct strbuf *err);

/* Read the hello; checks magic, version and ncells. 0 or -1 with err. */
int interleave_read_hello(int fd, size_t ncells, struct interleave_hello *h, int timeout_ms,
		  struct strbuf *err);

#endif
