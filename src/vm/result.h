/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a guest sends back, decoded once and bounded before it is parsed.
 * A kernel image is someone else's build and its guest may be anyone's
 * program, so its result is as untrusted as an imported file:
 *
 *	frame (vm/frame.h) -> at most GUEST_RESULT_MAX bytes inflated, into
 *	an unnamed file -> MANIFEST '\0' EXPORT
 *
 * MANIFEST is a small JSON object (the guest's facts, the command's exit
 * and output), refused above GUEST_MANIFEST_MAX bytes or
 * GUEST_MANIFEST_VALUES values before jansson sees it, then checked field
 * by field into struct guest_result: unknown members are dropped, every
 * text is bounded and free of control characters, every list bounded.
 * EXPORT is what `clockbench export --all` wrote in the guest, left in the
 * file for the streamed export reader (results/export-file.h), which holds
 * one run at a time and passes each through the import gate.
 */
#ifndef CLOCKBENCH_VM_RESULT_H
#define CLOCKBENCH_VM_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "basic/strbuf.h"
#include "results/store.h"

/* The result's format (the manifest's "clockbench_guest"). */
#define GUEST_MANIFEST_VERSION 2

/*
 * The most a result may be inflated. The largest honest one measured is a
 * default `bench` with its samples: 37 MB of export (660,000 samples);
 * this is 3.5 times that.
 */
#define GUEST_RESULT_MAX (128u << 20)
/* The manifest: the output (GUEST_OUTPUT_MAX, each newline escaped in two
 * bytes) and the facts. */
#define GUEST_MANIFEST_MAX (5u << 20)
/* Values in the manifest: some 20 facts and up to GUEST_NAMES_MAX names. */
#define GUEST_MANIFEST_VALUES 4096
#define GUEST_MANIFEST_DEPTH 4
/* What of the command's own output travels with the result. */
#define GUEST_OUTPUT_MAX (2u << 20)
/* Functions a vDSO exports: 6 to 12 on the architectures known. */
#define GUEST_NAMES_MAX 256
/* A vDSO symbol's name: "__vdso_clock_gettime64" is 22. */
#define GUEST_NAME_MAX 64
/* Runs one boot may store: exec's most commands (32). */
#define GUEST_RUNS_MAX 32

/* What the guest reported of its kernel and its boot. */
struct guest_facts {
	char *release, *version, *cmdline;
	char *clocksource, *available_clocksources;
	double init_reached_s, clocksource_wait_s;
	int cpus;
	char **vdso_functions;	/* NULL-terminated, in the vDSO's order */
	size_t nvdso;
};

struct guest_result {
	struct guest_facts facts;
	char *error;		/* what the guest itself said failed, or NULL */
	bool ran;		/* the command ran: exit_code or signal below */
	int exit_code;		/* -1 when killed */
	int signal;		/* 0 unless killed */
	double command_s;
	char *output;		/* the command's output (text), or NULL */
	int fd;			/* the inflated result, or -1 */
	off_t export_at;	/* where EXPORT starts in fd */
	bool has_export;	/* the command stored runs */
};

/*
 * The result in data (the data port's capture): frame, size limits,
 * manifest. 0 with r filled (free with guest_result_free()), or -1 with
 * what was wrong in err, naming the field ("guest.vdso_functions[0]: not a
 * string").
 */
int guest_result_decode(const char *data, size_t len, struct guest_result *r,
			struct strbuf *err);

void guest_result_free(struct guest_result *r);

/*
 * A run measured under icount (kernels --exact), made what it counts: each
 * cell's figures become guest instructions per call (unit
 * "instructions") from its counter's ticks, since under icount the
 * counter bench reads ticks once an instruction: x86's TSC, arm64's
 * CNTVCT and powerpc's timebase alike, whatever frequency the guest was
 * told (measured here by the ruler, below: 64 nops read 64 ticks on all
 * three). The ns of its clock go (they come from that frequency, or from
 * a calibration a part in a million off), and so do the core cycles (the
 * reference loop is counted in instructions too). The harness's empty
 * call and its ruler (CATALOG_RULER_NOPS nops more) become
 * config.harness_overhead.instructions_per_call and .ruler. 0, or -1 with
 * the cell named when a measured cell has no counter figures.
 */
int guest_run_count_instructions(struct stored_run *run, struct strbuf *err);

/* The facts as the runs' environment keeps them (vm.guest). */
json_t *guest_facts_json(const struct guest_facts *f);

/*
 * The facts of a manifest (the guest's side: guest_init() reads them,
 * guest_facts_json() writes them): 0, or -1 with the field named in err.
 */
int guest_facts_from_json(const json_t *j, struct guest_facts *f,
			  struct strbuf *err);

#endif
