// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Core cycles made again from a cell's readings (core-replay.h). A default
 * bench run's core cycles took 1.66 MB of its 2.76 MB in the store; their
 * readings take a fraction of that.
 *
 * The blob: a format byte, the base byte (0: the batches' durations are
 * in the cycles, 1: in the values), the three figures of the calibration
 * as little-endian doubles, then the readings in the codec's encoding.
 */
#include "results/core-replay.h"

#include <math.h>
#include <string.h>

#include "basic/util.h"
#include "probe/timing.h"
#include "results/codec.h"

enum { REPLAY_FORMAT = 1, REPLAY_HEADER = 2 + 3 * 8 };

/* The calibration the readings were turned into speeds with. */
static struct timing_calibration replay_calibration(const struct stored_reference *ref)
{
	/* 1 x reading_core + 0: the very reading length the run divided by. */
	return (struct timing_calibration){
		.core_source = CORE_REFERENCE,
		.ref_ops = 1,
		.ref_op_cycles = ref->reading_core,
		.ref_boundary_core = 0,
		.batch_boundary_core = ref->batch_boundary_core,
		.base_per_ns = 1,
	};
}

/* Each batch's duration in whole time-base units, from its per-call figure. */
static bool batch_durations(const struct stored_cell *c, double *bases)
{
	const double *per_call = c->ref.base_is_values ? c->values : c->cycles;
	double calls = (double)c->batch_calls;

	if (!per_call)
		return false;
	for (size_t i = 0; i < c->n; i++) {
		int64_t k;

		if (!codec_tick_of(per_call[i], c->ref.base_boundary, calls, &k))
			return false;
		bases[i] = (double)k;
	}
	return true;
}

/* Past the last sample of the round that sample i is in. */
static size_t round_end(const struct stored_cell *c, size_t i)
{
	size_t k = i + 1;

	if (!c->rounds)
		return c->n;
	while (k < c->n && c->rounds[k] == c->rounds[i])
		k++;
	return k;
}

int core_replay(const struct stored_cell *c, double *core)
{
	struct timing_calibration cal = replay_calibration(&c->ref);
	double *bases;
	int rc = -1;

	if (!c->ref.readings || !c->n || !c->batch_calls ||
	    !(c->ref.reading_core > 0))
		return -1;
	bases = xmalloc(c->n * sizeof(double));
	if (!batch_durations(c, bases))
		goto out;
	/* Round by round, as timing_round() derived them. */
	for (size_t i = 0, end; i < c->n; i = end) {
		end = round_end(c, i);
		timing_derive_round(&cal, (unsigned long)c->batch_calls,
				    c->ref.readings + i, bases + i, end - i, core + i);
	}
	rc = 0;
out:
	free(bases);
	return rc;
}

static void put_double(unsigned char *p, double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	for (int b = 0; b < 8; b++)
		p[b] = (unsigned char)(u >> (8 * b));
}

static double get_double(const unsigned char *p)
{
	uint64_t u = 0;
	double x;

	for (int b = 0; b < 8; b++)
		u |= (uint64_t)p[b] << (8 * b);
	memcpy(&x, &u, sizeof(x));
	return x;
}

static bool replays_exactly(const struct stored_cell *c)
{
	double *core = xmalloc(c->n * sizeof(double));
	bool same = core_replay(c, core) == 0 &&
		    memcmp(core, c->core_cycles, c->n * sizeof(double)) == 0;

	free(core);
	return same;
}

void *core_replay_encode(const struct stored_cell *c, size_t *bytes)
{
	unsigned char *blob;
	void *readings;
	size_t len;

	*bytes = 0;
	if (!c->ref.readings || !c->core_cycles || !c->n || !replays_exactly(c))
		return NULL;
	readings = codec_encode(c->ref.readings, c->n, 1, &len);
	blob = xmalloc(REPLAY_HEADER + len);
	blob[0] = REPLAY_FORMAT;
	blob[1] = c->ref.base_is_values;
	put_double(blob + 2, c->ref.base_boundary);
	put_double(blob + 10, c->ref.reading_core);
	put_double(blob + 18, c->ref.batch_boundary_core);
	memcpy(blob + REPLAY_HEADER, readings, len);
	free(readings);
	*bytes = REPLAY_HEADER + len;
	return blob;
}

int core_replay_decode(const void *blob, size_t bytes, struct stored_cell *c)
{
	const unsigned char *p = blob;
	struct stored_reference ref;
	double *core;

	if (bytes <= REPLAY_HEADER || p[0] != REPLAY_FORMAT || p[1] > 1 || !c->n)
		return -1;
	ref = (struct stored_reference){
		.base_is_values = p[1],
		.base_boundary = get_double(p + 2),
		.reading_core = get_double(p + 10),
		.batch_boundary_core = get_double(p + 18),
	};
	if (!isfinite(ref.base_boundary) || !isfinite(ref.reading_core) ||
	    !isfinite(ref.batch_boundary_core) ||
	    codec_decode(p + REPLAY_HEADER, bytes - REPLAY_HEADER, c->n, &ref.readings))
		return -1;
	core = xmalloc(c->n * sizeof(double));
	c->ref = ref;
	if (core_replay(c, core)) {
		free(core);
		free(c->ref.readings);
		memset(&c->ref, 0, sizeof(c->ref));
		return -1;
	}
	free(c->core_cycles);
	c->core_cycles = core;
	return 0;
}
