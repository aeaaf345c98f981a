/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The campaign behind `clockbench kernels`: each kernel image booted
 * several times in qemu with a static clockbench as its init, the boots
 * interleaved in basic/order.h's order (A B B A ...) so that a machine
 * that drifts weighs on every kernel alike, and every boot's runs stored
 * under the kernel's name, whole or not at all.
 *
 * A guest is untrusted (the image is someone else's build, the payload
 * may be anyone's program): what it sends is bounded before it is read
 * (vm/result.h), counted before it is stored (at most GUEST_RUNS_MAX runs,
 * KERNELS_CHECKS_MAX check results a boot), and its runs pass the store's
 * import gate in one transaction.
 *
 * The command fills the settings and the kernels from its options, then
 * calls campaign_check(), campaign_read_images(), campaign_find_machine()
 * and campaign_run() in that order; what the boots left (each kernel's
 * runs and labels, failures, vDSO, a checking command's results) is
 * there to compare and print. The campaign prints nothing itself: its
 * progress, a boot's failure and the problems that do not stop it go to
 * the command's tell(), errors that stop it to err.
 */
#ifndef CLOCKBENCH_VM_CAMPAIGN_H
#define CLOCKBENCH_VM_CAMPAIGN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "report/kernels-matrix.h"
#include "results/record.h"
#include "results/store.h"
#include "vm/image.h"
#include "vm/qemu.h"

/* Boots of each kernel, at most. */
#define CAMPAIGN_BOOTS_MAX 100

/*
 * What the campaign tells as it goes: a line for a person ("boot 2/6:
 * ...", a failed boot's console), a warning (a console not kept) or an
 * error that does not stop the campaign (a boot that could not be
 * prepared: the next one may be). Lines quote consoles and image names:
 * the command escapes them (basic/text.h).
 */
enum campaign_tone {
	CAMPAIGN_SAY,
	CAMPAIGN_WARNING,
	CAMPAIGN_ERROR,
};
typedef void (*campaign_tell_fn)(void *ctx, enum campaign_tone tone,
				 const char *line);

/* One kernel of the campaign: given by the command, then what its boots left. */
struct campaign_kernel {
	char *name;		/* its runs' label; its consoles' files are named after it */
	char *path;
	char *append;		/* more command line for this kernel alone, or NULL */
	/* Found by campaign_read_images(). */
	struct kernel_image image;
	int vmlinux;		/* the bzImage's kernel unpacked, or -1 */
	char booted_as[64];	/* "bzImage", "vmlinux", "vmlinux (lz4 bzImage)" */
	bool bootable;
	char *why;		/* why it cannot be booted, or NULL */
	/* Left by its boots. */
	int64_t *runs;		/* the stored runs of its boots */
	char **labels;		/* each run's label: the name, or name-side */
	size_t nruns, cap, labcap;
	unsigned failed;	/* boots that brought no result */
	unsigned problems;	/* doctor's boots that found a problem (exit 3) */
	char **vdso;		/* the functions its vDSO exports (first boot's) */
	size_t noutputs;	/* a checking command's boots that reported */
};

struct campaign {
	/* The settings, from the command's options (the defaults are its). */
	struct campaign_kernel kernels[KERNELS_MAX];	/* campaign_add_kernel() */
	size_t nkernels;
	long boots;		/* of each kernel, at most CAMPAIGN_BOOTS_MAX */
	int accel;		/* enum vm_accel: AUTO, KVM or TCG */
	double timeout_s;	/* a boot's limit, from start to power-off */
	long cpus, memory_mb;
	const char *append;	/* more command line for every kernel, or NULL */
	const char *guest;	/* the payload (payload_find()'s given), or NULL */
	const char *logs;	/* keep every boot's console there, or NULL */
	bool no_unpack;		/* boot a bzImage as it is */
	bool exact;		/* count instructions (struct vm_machine's exact) */
	char *const *cmd;	/* the command the guests run: "bench", ... */
	size_t ncmd;
	const struct store_options *store;	/* the runs' command line */
	campaign_tell_fn tell;	/* NULL: nothing is told */
	void *tell_ctx;

	/* The campaign's own, filled as it goes. */
	struct vm_machine machine;
	char qemu[PATH_MAX], payload[PATH_MAX], qemu_version[128];
	struct store *st;
	char id[37];		/* this invocation's uuid: its boots interleave */
	bool usage_error;	/* a guest refused the command line */
	struct kernels_checks checks;	/* `-- verify`: its boots' results */
};

/*
 * The stop signal (SIGINT, SIGTERM, SIGHUP) that ended campaign_run(),
 * or 0. Its handler is campaign_run()'s alone: it ends the running boot
 * as the measuring commands stop (cli/measure.c), and no boot follows.
 */
extern volatile sig_atomic_t campaign_stop_signal;

/*
 * The kernel name (taken: malloc'd) booted from the image at path; the
 * command checked both (a name is a store label and holds no '/'), and
 * that there are fewer than KERNELS_MAX.
 */
struct campaign_kernel *campaign_add_kernel(struct campaign *c, char *name,
					    const char *path);

/*
 * What would fail every boot, refused before the first: --accel kvm
 * where /dev/kvm cannot be opened, logs that cannot be made a directory.
 * 0, or -1 with why in err.
 */
int campaign_check(const struct campaign *c, struct strbuf *err);

/*
 * Each kernel's image read and told (its kind, release and architecture),
 * or, when it cannot be booted, told as an error with the reason kept in
 * its why: the other kernels still boot. A bzImage boots as the vmlinux
 * unpacked from it (unless no_unpack): under TCG the guest's decompressor
 * alone takes seconds of every boot. How many kernels can be booted.
 */
size_t campaign_read_images(struct campaign *c);

/*
 * The machine of the bootable kernels: their one architecture (kernels of
 * two run on two machines and are never compared as one), its qemu in
 * PATH and a guest payload of that architecture (payload_find()).
 * 0, or -1 with why in err.
 */
int campaign_find_machine(struct campaign *c, struct strbuf *err);

/*
 * The boots, into st: the accelerator settled and told (TCG, KVM when
 * asked for, or with auto KVM when a probe boot under it comes back),
 * then c->boots rounds of every bootable kernel in basic/order.h's
 * order, each boot's result taken (its runs stored whole or not at all,
 * its output kept) or its failure told and counted. The stop signals
 * end the running boot while it runs. 0 when every boot was made (some
 * may have failed: each kernel's failed); -1 with err when the boots
 * stopped early: a stop signal (campaign_stop_signal; the boots done are
 * stored) or a command line a guest refused (usage_error: every boot
 * would repeat it).
 */
int campaign_run(struct campaign *c, struct store *st, struct strbuf *err);

/*
 * The kernels as report/kernels-matrix.h prints them, a column each
 * (borrowing their names and runs: valid until campaign_free()).
 */
void campaign_columns(const struct campaign *c, struct kernels_column cols[KERNELS_MAX]);

/* The kernels and what their boots left; the store is the caller's. */
void campaign_free(struct campaign *c);

#endif
