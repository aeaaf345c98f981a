// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernels campaign (vm/campaign.h): the machine and its accelerator,
 * the images, one boot and what it brought back, and the boots in order.
 */
#include "vm/campaign.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "basic/order.h"
#include "basic/util.h"
#include "results/export-file.h"
#include "results/run-facts.h"
#include "results/tap.h"
#include "vm/boot-files.h"
#include "vm/frame.h"
#include "vm/payload.h"
#include "vm/result.h"
#include "vm/vmlinux.h"

/* Console lines shown of a boot that failed. */
#define CONSOLE_TAIL_LINES 12
/* qemu's log's lines shown with them. */
#define QEMU_LOG_TAIL_LINES 4
/* The most a data port may hold: a frame and what the guest printed before. */
#define DATA_MAX_BYTES (FRAME_MAX_BYTES + (1u << 20))
/* The results of checks a boot of `-- verify` may bring: verify has 1,416. */
#define GUEST_CHECKS_MAX KERNELS_CHECKS_MAX
/* A probe boot's limit: KVM boots a kernel in seconds. */
#define KVM_PROBE_TIMEOUT_S 120.0

volatile sig_atomic_t campaign_stop_signal;

/* One line to the command's tell(), formatted. */
static void tell(const struct campaign *c, enum campaign_tone tone, const char *fmt, ...)
	_printf_(3, 4);
static void tell(const struct campaign *c, enum campaign_tone tone, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	va_list ap;

	if (!c->tell)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&line, fmt, ap);
	va_end(ap);
	c->tell(c->tell_ctx, tone, line.buf);
}

struct campaign_kernel *campaign_add_kernel(struct campaign *c, char *name,
					    const char *path)
{
	struct campaign_kernel *k = &c->kernels[c->nkernels++];

	k->vmlinux = -1;
	k->name = name;
	k->path = xstrdup(path);
	return k;
}

/* ---- the machine --------------------------------------------------------- */

static bool find_in_path(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin");
	char *save = NULL;

	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", *dir ? dir : ".", prog);
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

/*
 * Whether to try KVM: asked for, or (auto) a /dev/kvm this user can open.
 * Whether it runs ordinary guests only a boot can tell (probe_kvm()): a
 * KVM provided by kvm_pvm (a machine that is itself a PVM guest) runs
 * only kernels built for PVM, and a CPU without vmx or svm exposes none
 * of the real kind. What is known goes to why.
 */
static enum vm_accel choose_accel(int asked, enum vm_arch arch, bool exact,
				  struct strbuf *why)
{
	_cleanup_free_ char *cpuinfo = NULL;

	if (exact) {
		strbuf_setf(why, "--exact: icount counts under TCG");
		return VM_ACCEL_TCG;
	}
	if (asked == VM_ACCEL_KVM || asked == VM_ACCEL_TCG) {
		strbuf_setf(why, "asked for");
		return (enum vm_accel)asked;
	}
	if (arch != vm_arch_host()) {
		strbuf_setf(why, "%s kernels on an %s machine", vm_arch_info(arch)->name,
			    vm_arch_info(vm_arch_host())->name);
		return VM_ACCEL_TCG;
	}
	if (access("/dev/kvm", R_OK | W_OK) != 0) {
		strbuf_setf(why, "no usable /dev/kvm");
		return VM_ACCEL_TCG;
	}
	cpuinfo = read_text_file("/proc/cpuinfo", 1u << 20);
	if (access("/sys/module/kvm_pvm", F_OK) == 0)
		strbuf_setf(why, "/dev/kvm is kvm_pvm's: this machine is a PVM "
			    "guest, whose KVM runs only PVM kernels");
	else if (cpuinfo && (strstr(cpuinfo, " vmx") || strstr(cpuinfo, " svm")))
		strbuf_setf(why, "/dev/kvm on a CPU with %s",
			    strstr(cpuinfo, " vmx") ? "vmx" : "svm");
	else
		strbuf_setf(why, "/dev/kvm, but the CPU shows neither vmx nor svm");
	return VM_ACCEL_KVM;
}

int campaign_check(const struct campaign *c, struct strbuf *err)
{
	struct stat st;

	/* --accel kvm where there is no KVM would fail every boot, then print nothing. */
	if (c->accel == VM_ACCEL_KVM && access("/dev/kvm", R_OK | W_OK) != 0) {
		strbuf_setf(err, "--accel kvm: /dev/kvm: %s; this machine boots guests "
			    "under TCG only (--accel tcg, or auto)", strerror(errno));
		return -1;
	}
	/* --logs: a directory that exists or can be made, before the first boot. */
	if (!c->logs)
		return 0;
	if (mkdir_p_private(c->logs) == 0 && stat(c->logs, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		return 0;
	if (errno == EEXIST)
		errno = ENOTDIR;
	strbuf_setf(err, "--logs %s: cannot make it a directory: %s", c->logs,
		    strerror(errno));
	return -1;
}

/* ---- what a boot brought back -------------------------------------------- */

/* The boot as its runs record it (the guest's facts: guest's, borrowed). */
static struct run_boot boot_record(const struct campaign *c, const struct campaign_kernel *k,
				   unsigned boot, unsigned position,
				   const struct vm_outcome *out, const json_t *guest)
{
	const struct vm_machine *m = &c->machine;

	return (struct run_boot){
		.campaign = c->id, .kernel_name = k->name, .image = k->path,
		.booted_as = k->booted_as, .arch = vm_arch_info(m->arch)->name,
		.accel = vm_accel_name(m->accel), .accel_reason = m->accel_reason,
		.qemu = m->version, .cpus = m->cpus, .memory_mb = m->memory_mb,
		.boot_wall_s = out->wall_s, .boot = boot, .position = position,
		.emulated = m->accel != VM_ACCEL_KVM, .exact = m->exact,
		.icount = m->exact ? VM_ICOUNT : NULL,
		.append = c->append, .kernel_append = k->append, .guest = guest,
	};
}

/*
 * What a default label (store_invocation_label(): "timens-1a2b3c4d-host")
 * says after the invocation's id, which the run's config names: host. Any
 * other label as it is.
 */
static const char *label_past_invocation(const struct stored_run *r)
{
	const char *id = run_facts(r)->interleave;
	const char *dash = strchr(r->label, '-');

	if (!id || strlen(id) < 8 || !dash || strncmp(dash + 1, id, 8) != 0 ||
	    dash[9] != '-' || !dash[10])
		return r->label;
	return dash + 10;
}

/*
 * The label of a run the guest stored: the kernel's name, or when the
 * command stores several runs (timens: the host's and the namespace's),
 * the name and the run's own label, so that they stay apart. Without the
 * guest invocation's id: the boots of one kernel are its replicates.
 */
static char *boot_run_label(const struct campaign_kernel *k, const struct stored_run *r,
			    size_t runs_in_boot)
{
	struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	strbuf_adds(&sb, k->name);
	if (runs_in_boot > 1 && r->label && *r->label) {
		strbuf_addf(&sb, "-%s", label_past_invocation(r));
		if (!store_label_valid(sb.buf, &why)) {
			strbuf_reset(&sb);
			strbuf_adds(&sb, k->name);
		}
	}
	return strbuf_detach(&sb);
}

/* The runs of a boot, read from its export and relabelled, for the store. */
struct boot_runs {
	struct export_file *f;
	struct campaign_kernel *k;
	const struct store_options *store;
	struct run_boot boot;		/* the machine's facts */
	bool exact;			/* --exact: count instructions */
	size_t runs_in_boot;
	char *labels[GUEST_RUNS_MAX];	/* each run's label, as stored */
	size_t nlabels;
};

/* store_run_source: the next run of the boot, as the store keeps it. */
static int next_boot_run(void *ctx, struct stored_run *r, struct strbuf *err)
{
	struct boot_runs *b = ctx;
	int rc;

	if (campaign_stop_signal) {
		strbuf_setf(err, "stopped by signal %d", (int)campaign_stop_signal);
		return -1;
	}
	rc = export_file_next(b->f, r, err);
	if (rc != 1)
		return rc;
	if (b->nlabels == GUEST_RUNS_MAX) {
		stored_run_free(r);
		strbuf_setf(err, "the guest's result holds more than %d runs", GUEST_RUNS_MAX);
		return -1;
	}
	char *label = boot_run_label(b->k, r, b->runs_in_boot);

	free(r->label);
	r->label = label;
	b->labels[b->nlabels++] = xstrdup(label);
	if (!json_is_object(r->env)) {
		json_decref(r->env);
		r->env = json_object();
	}
	/* Made by this command line: the guest's own ("bench --quick") is kept
	 * with the machine's facts. */
	struct run_boot boot = b->boot;

	boot.guest_argv = run_facts(r)->argv;
	json_object_set_new(r->env, "vm", run_boot_json(&boot));
	record_add_command_line(r->env, b->store);
	run_facts_forget(r);	/* the environment is the boot's now */
	if (b->exact && guest_run_count_instructions(r, err)) {
		stored_run_free(r);
		return -1;
	}
	return 1;
}

/*
 * The runs of a boot's export (the guest's result from r.export_at) into
 * the store, all of them or none: read through once to check them and
 * count them (a file is valid only once read whole), then imported in one
 * transaction. How many, or -1 with err.
 */
static int store_boot_runs(const struct campaign *c, const struct guest_result *res,
			   struct campaign_kernel *k, const struct run_boot *boot,
			   struct strbuf *err)
{
	struct boot_runs b = {
		.k = k, .store = c->store, .boot = *boot, .exact = c->machine.exact,
	};
	struct stored_run r;
	int64_t ids[GUEST_RUNS_MAX];
	size_t n = 0;
	int rc;

	if (lseek(res->fd, res->export_at, SEEK_SET) < 0) {
		strbuf_setf(err, "cannot read the guest's result: %s", strerror(errno));
		return -1;
	}
	b.f = export_file_open_fd(res->fd, "the guest's export", err);
	if (!b.f)
		return -1;
	while ((rc = export_file_next(b.f, &r, err)) == 1) {
		stored_run_free(&r);
		if (export_file_runs(b.f) > GUEST_RUNS_MAX || campaign_stop_signal) {
			strbuf_setf(err, campaign_stop_signal ? "stopped by signal %d" :
				    "the guest's result holds more than %d runs",
				    campaign_stop_signal ? (int)campaign_stop_signal :
							   GUEST_RUNS_MAX);
			rc = -1;
			break;
		}
	}
	b.runs_in_boot = export_file_runs(b.f);
	if (rc == 0)
		rc = export_file_rewind(b.f, err);
	if (rc == 0)
		rc = store_import_batch(c->st, next_boot_run, &b, ids, GUEST_RUNS_MAX, &n,
					err);
	export_file_close(b.f);
	for (size_t i = 0; i < b.nlabels; i++) {
		if (rc == 0) {
			grow_array((void **)&k->runs, &k->cap, k->nruns + 1, sizeof(*k->runs));
			grow_array((void **)&k->labels, &k->labcap, k->nruns + 1,
				   sizeof(*k->labels));
			k->labels[k->nruns] = b.labels[i];
			k->runs[k->nruns++] = ids[i];
		} else {
			free(b.labels[i]);
		}
	}
	return rc < 0 ? -1 : (int)n;
}

/*
 * What the guest's result says of the command: 0 when it ran (a failing
 * check of verify or a problem doctor found is a result, not a broken
 * boot), -1 with why otherwise; *usage when the command line itself was
 * refused, which every boot would repeat.
 */
static int guest_status(const struct guest_result *r, bool *usage, struct strbuf *err)
{
	if (r->error) {
		strbuf_setf(err, "in the guest: %s", r->error);
		return -1;
	}
	if (!r->ran) {
		strbuf_setf(err, "the guest's result says nothing of the command");
		return -1;
	}
	if (r->signal) {
		strbuf_setf(err, "the command was killed by signal %d in the guest",
			    r->signal);
		return -1;
	}
	*usage = r->exit_code == EXIT_USAGE;
	if (r->exit_code == EXIT_USAGE || r->exit_code >= 126) {
		strbuf_setf(err, "the command exited %d in the guest%s", r->exit_code,
			    r->exit_code == EXIT_USAGE ? " (a usage error)" : "");
		return -1;
	}
	return 0;
}


/* The first line of what the command printed, when it failed. */
static void say_output(const struct campaign *c, const struct guest_result *r)
{
	if (r->output && *r->output)
		tell(c, CAMPAIGN_SAY, "  the command said: %.*s",
		     (int)strcspn(r->output, "\n"), r->output);
}

/* The result of a command that stores nothing: its output. */
static int take_output(struct campaign *c, struct campaign_kernel *k,
		       const struct guest_result *r, struct strbuf *err)
{
	if (streq(c->cmd[0], "verify")) {
		struct tap_point *p;
		size_t n = tap_parse(r->output ? r->output : "", &p);

		tap_points_free(p, n);
		if (n > GUEST_CHECKS_MAX) {
			strbuf_setf(err, "the guest's result holds %zu check results, more "
				    "than %d", n, GUEST_CHECKS_MAX);
			return -1;
		}
		kernels_checks_add(&c->checks, (size_t)(k - c->kernels),
				   r->output ? r->output : "");
	}
	k->noutputs++;
	return 0;
}

/* The result the guest sent, stored: 0, or -1 with why in err. */
static int take_result(struct campaign *c, const struct boot_files *f,
		       struct campaign_kernel *k, unsigned boot, unsigned position,
		       const struct vm_outcome *out, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	struct guest_result r;
	int rc = -1;

	if (vm_file_read(boot_result_port(&c->machine, f), DATA_MAX_BYTES, &data) != 0) {
		strbuf_setf(err, "cannot read the data port: %s", strerror(errno));
		strbuf_release(&data);
		return -1;
	}
	rc = guest_result_decode(data.buf, data.len, &r, err);
	strbuf_release(&data);
	if (rc)
		return -1;
	rc = guest_status(&r, &c->usage_error, err);
	if (rc) {
		say_output(c, &r);
		goto out;
	}
	/* doctor's verdict is its first line: what the boot found. */
	if (streq(c->cmd[0], "doctor") && r.output)
		tell(c, CAMPAIGN_SAY, "  %s: %.*s", k->name, (int)strcspn(r.output, "\n"),
		     r.output);
	if (!r.has_export) {
		rc = take_output(c, k, &r, err);
	} else {
		json_t *guest = guest_facts_json(&r.facts);
		struct run_boot rb = boot_record(c, k, boot, position, out, guest);

		rc = store_boot_runs(c, &r, k, &rb, err) < 0 ? -1 : 0;
		json_decref(guest);
	}
	if (rc == 0) {
		/* Counted once the boot's result is taken whole. */
		if (streq(c->cmd[0], "doctor") && r.exit_code == EXIT_PROBLEM)
			k->problems++;
		if (!k->vdso) {
			k->vdso = xcalloc(r.facts.nvdso + 1, sizeof(char *));
			for (size_t i = 0; i < r.facts.nvdso; i++)
				k->vdso[i] = xstrdup(r.facts.vdso_functions[i]);
		}
	}
out:
	guest_result_free(&r);
	return rc;
}

/* ---- a boot -------------------------------------------------------------- */

/* The lines of a tail (boot_text_tail()), each prefixed. */
static void tell_tail(const struct campaign *c, const struct strbuf *lines)
{
	for (const char *l = lines->buf, *nl; (nl = strchr(l, '\n')); l = nl + 1)
		tell(c, CAMPAIGN_SAY, "    | %.*s", (int)(nl - l), l);
}

/* A boot that brought no result: why, its console kept, its last lines. */
static void tell_failure(const struct campaign *c, const struct boot_files *f,
			 const struct campaign_kernel *k, unsigned boot, double wall_s,
			 const char *why)
{
	struct boot_failure bf;

	boot_failure_read(&bf, f, c->logs, k->name, boot, CONSOLE_TAIL_LINES,
			  QEMU_LOG_TAIL_LINES);
	if (bf.keep_err.len)
		tell(c, CAMPAIGN_WARNING, "%s", bf.keep_err.buf);
	/*
	 * A panic is the cause, however the boot then ended (panic=-1 powers
	 * off, with no result; panic=0 is stopped at the panic), and its own
	 * line says more than the call trace after it, which is all the tail
	 * below may show.
	 */
	if (bf.panic.len)
		tell(c, CAMPAIGN_SAY, "  %s: boot %u failed after %.1f s: the kernel "
		     "panicked: %s", k->name, boot, wall_s, bf.panic.buf);
	else
		tell(c, CAMPAIGN_SAY, "  %s: boot %u failed after %.1f s: %s", k->name,
		     boot, wall_s, why);
	tell(c, CAMPAIGN_SAY, "  the console's last lines%s%s%s:",
	     bf.kept[0] ? " (all of it in " : "", bf.kept, bf.kept[0] ? ")" : "");
	tell_tail(c, &bf.console_tail);
	tell_tail(c, &bf.log_tail);
	boot_failure_release(&bf);
}

/* The kernel command line of k's boots. */
static void kernel_cmdline(const struct campaign *c, const struct campaign_kernel *k,
			   struct strbuf *append)
{
	/* panic=-1: a kernel that panics reboots, and -no-reboot ends qemu. */
	strbuf_addf(append, "console=%s panic=-1 rdinit=/init",
		    vm_arch_info(c->machine.arch)->console);
	if (c->append)
		strbuf_addf(append, " %s", c->append);
	if (k->append)
		strbuf_addf(append, " %s", k->append);
}

/* One boot of k: 0 when its result was stored, -1 when the boot failed. */
static int boot_once(struct campaign *c, struct campaign_kernel *k, unsigned boot,
		     unsigned position, unsigned index, unsigned total)
{
	struct strbuf initrd = STRBUF_INIT, append = STRBUF_INIT;
	struct boot_files files = BOOT_FILES_INIT;
	struct vm_outcome out;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	char kept[PATH_MAX + 64];
	const char *reason;
	int rc = -1;

	if (boot_files_open(&files) != 0 ||
	    payload_initramfs(c->payload, c->cmd, c->ncmd, &initrd, &err) ||
	    fd_write_all(files.initrd, initrd.buf, initrd.len)) {
		tell(c, CAMPAIGN_ERROR, "cannot prepare the boot: %s",
		     err.len ? err.buf : strerror(errno));
		goto out;
	}
	kernel_cmdline(c, k, &append);
	struct vm_boot b = {
		.kernel = k->path, .kernel_fd = k->vmlinux,
		.append = append.buf, .initrd = files.initrd,
		.console = files.console, .data = files.data, .log = files.log,
	};
	tell(c, CAMPAIGN_SAY, "boot %u/%u: %s (%s), %u of %ld", index, total, k->name,
	     k->image.release[0] ? k->image.release : "?", boot, c->boots);
	if (vm_run(&c->machine, &b, &campaign_stop_signal, &out, &err)) {
		tell(c, CAMPAIGN_ERROR, "%s", err.buf);
		goto out;
	}
	reason = boot_end_reason(&out, files.console, &why);
	if (!reason && take_result(c, &files, k, boot, position, &out, &err) == 0) {
		tell(c, CAMPAIGN_SAY, "  %s: done in %.1f s", k->name, out.wall_s);
		if (c->logs && boot_console_keep(files.console, c->logs, k->name, boot,
						 kept, sizeof(kept), &err))
			tell(c, CAMPAIGN_WARNING, "%s", err.buf);
		rc = 0;
	} else if (out.end != VM_INTERRUPTED) {
		tell_failure(c, &files, k, boot, out.wall_s, reason ? reason : err.buf);
	}
out:
	boot_files_close(&files);
	strbuf_release(&initrd);
	strbuf_release(&append);
	if (rc)
		k->failed++;
	return rc;
}

/* ---- the accelerator ----------------------------------------------------- */

/*
 * Whether KVM runs ordinary guests here: one boot of k under KVM with the
 * cheapest command (vdso) that must reach the guest's init and bring its
 * result back. What happened goes to why.
 */
static bool probe_kvm(const struct campaign *c, const struct campaign_kernel *k,
		      struct strbuf *why)
{
	static char *const probe_cmd[] = { (char *)"vdso", NULL };
	struct vm_machine m = c->machine;
	struct boot_files files = BOOT_FILES_INIT;
	struct strbuf initrd = STRBUF_INIT, append = STRBUF_INIT;
	struct strbuf data = STRBUF_INIT;
	struct guest_result result;
	struct vm_outcome out = { 0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, end = STRBUF_INIT;
	char said[256];
	const char *reason = NULL;

	m.accel = VM_ACCEL_KVM;
	if (m.timeout_s > KVM_PROBE_TIMEOUT_S)
		m.timeout_s = KVM_PROBE_TIMEOUT_S;
	kernel_cmdline(c, k, &append);
	struct vm_boot b = {
		.kernel = k->path, .kernel_fd = k->vmlinux, .append = append.buf,
	};
	if (boot_files_open(&files) != 0 ||
	    payload_initramfs(c->payload, probe_cmd, 1, &initrd, &err) ||
	    fd_write_all(files.initrd, initrd.buf, initrd.len)) {
		reason = err.len ? err.buf : strerror(errno);
	} else {
		b.initrd = files.initrd, b.console = files.console;
		b.data = files.data, b.log = files.log;
		if (vm_run(&m, &b, &campaign_stop_signal, &out, &err))
			reason = err.buf;
		else if (!(reason = boot_end_reason(&out, files.console, &end)) &&
			 (vm_file_read(boot_result_port(&m, &files), DATA_MAX_BYTES, &data) != 0 ||
			  guest_result_decode(data.buf, data.len, &result, &err) != 0))
			reason = err.len ? err.buf : "no result came back";
		else if (!reason)
			guest_result_free(&result);
	}
	if (reason) {
		boot_qemu_complaint(files.log, said, sizeof(said));
		strbuf_setf(why, "a probe boot of %s under KVM failed after %.1f s: "
			    "%s%s%s", k->name, out.wall_s, reason, said[0] ? ": " : "",
			    said);
	} else {
		strbuf_setf(why, "a probe boot of %s under KVM reached its init and "
			    "came back in %.1f s", k->name, out.wall_s);
	}
	boot_files_close(&files);
	strbuf_release(&initrd);
	strbuf_release(&append);
	strbuf_release(&data);
	return !reason;
}

/*
 * The accelerator of every boot, as chosen (choose_accel(), why), unless
 * auto chose KVM and a probe boot of the first bootable kernel under it
 * does not come back: TCG then. Told with the reason; every run records
 * it.
 */
static void settle_accel(struct campaign *c, struct strbuf *why)
{
	struct vm_machine *m = &c->machine;
	_cleanup_strbuf_ struct strbuf probe = STRBUF_INIT;

	if (c->accel == VM_ACCEL_AUTO && m->accel == VM_ACCEL_KVM) {
		for (size_t i = 0; i < c->nkernels; i++) {
			if (!c->kernels[i].bootable)
				continue;
			if (!probe_kvm(c, &c->kernels[i], &probe))
				m->accel = VM_ACCEL_TCG;
			strbuf_addf(why, "; %s", probe.buf);
			break;
		}
	}
	m->accel_reason = why->buf;
	tell(c, CAMPAIGN_SAY, "accelerator: %s (%s)%s", vm_accel_name(m->accel), why->buf,
	     m->accel == VM_ACCEL_TCG ? "; timings are emulated" : "");
}

/*
 * scale's default work is sized for hardware: 5,000,000 calls a run, for
 * every thread count, API and repetition. Under TCG a boot of it took
 * 434 s on a 2-CPU cloud VM (Debian 6.12, make check beside it), against
 * 600 s of --timeout by default. Said before the boots when no --calls
 * is given (long options are never abbreviated: "--calls" is the word).
 */
static void note_scale_under_tcg(const struct campaign *c)
{
	char *const *cmd = c->cmd;

	if (c->machine.accel != VM_ACCEL_TCG || !streq(cmd[0], "scale"))
		return;
	for (size_t i = 1; i < c->ncmd && !streq(cmd[i], "--"); i++)
		if (streq(cmd[i], "--calls") || !strncmp(cmd[i], "--calls=", 8) ||
		    streq(cmd[i], "--idle-threads") || !strncmp(cmd[i], "--idle-threads=", 15))
			return;
	tell(c, CAMPAIGN_SAY, "note: scale makes 5,000,000 calls a run by default, sized "
	     "for hardware: under TCG a boot of it takes minutes (434 s on a "
	     "2-CPU cloud VM); --calls 500000 takes a tenth, and --timeout "
	     "bounds each boot");
}

/* ---- the images ---------------------------------------------------------- */

/*
 * A bzImage boots as the vmlinux inside it where that can be had: under
 * TCG the guest's decompressor alone takes seconds of every boot.
 */
static void unpack_image(const struct campaign *c, struct campaign_kernel *k)
{
	struct vmlinux_extract x;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	snprintf(k->booted_as, sizeof(k->booted_as), "%s",
		 kernel_image_kind_name(k->image.kind));
	if (k->image.kind != IMAGE_BZIMAGE || c->no_unpack)
		return;
	k->vmlinux = vmlinux_extract(k->path, &x, &err);
	if (k->vmlinux < 0) {
		tell(c, CAMPAIGN_SAY, "  booted as the bzImage: its kernel cannot be "
		     "unpacked: %s", err.buf);
		return;
	}
	snprintf(k->booted_as, sizeof(k->booted_as), "vmlinux (from a %s bzImage)",
		 x.method);
	tell(c, CAMPAIGN_SAY, "  booted as its vmlinux, unpacked (%s, %.1f MB)", x.method,
	     (double)x.bytes / 1e6);
}

size_t campaign_read_images(struct campaign *c)
{
	size_t bootable = 0;

	for (size_t i = 0; i < c->nkernels; i++) {
		struct campaign_kernel *k = &c->kernels[i];
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		k->bootable = kernel_image_read(k->path, &k->image, &err) == 0;
		if (!k->bootable) {
			tell(c, CAMPAIGN_ERROR, "%s: %s: %s", k->name, k->path, err.buf);
			k->why = strbuf_detach(&err);
			continue;
		}
		bootable++;
		tell(c, CAMPAIGN_SAY, "%s: %s, %s %s (%s)", k->name, k->path,
		     kernel_image_kind_name(k->image.kind),
		     k->image.release[0] ? k->image.release : "(release not found)",
		     vm_arch_info(k->image.arch)->name);
		unpack_image(c, k);
	}
	return bootable;
}

/*
 * The architecture of the campaign: its bootable kernels' one. Kernels of
 * two architectures run on two machines, and are never compared as if
 * they were one: boot them in two invocations.
 */
static int campaign_arch(const struct campaign *c, enum vm_arch *arch,
			 struct strbuf *err)
{
	const struct campaign_kernel *first = NULL;

	for (size_t i = 0; i < c->nkernels; i++) {
		const struct campaign_kernel *k = &c->kernels[i];

		if (!k->bootable)
			continue;
		if (!first) {
			first = k;
			*arch = k->image.arch;
		} else if (k->image.arch != *arch) {
			strbuf_setf(err, "%s is an %s kernel and %s an %s one: kernels of "
				    "two architectures are never compared as one machine; "
				    "boot them in two invocations", first->name,
				    vm_arch_info(first->image.arch)->name, k->name,
				    vm_arch_info(k->image.arch)->name);
			return -1;
		}
	}
	return 0;
}

int campaign_find_machine(struct campaign *c, struct strbuf *err)
{
	enum vm_arch arch = VM_ARCH_X86_64;

	if (campaign_arch(c, &arch, err) != 0)
		return -1;
	if (!find_in_path(vm_arch_info(arch)->qemu, c->qemu, sizeof(c->qemu))) {
		strbuf_setf(err, "%s not found in PATH: install it (Debian: apt-get "
			    "install %s)", vm_arch_info(arch)->qemu,
			    vm_arch_info(arch)->package);
		return -1;
	}
	if (payload_find(c->guest, arch, c->payload, sizeof(c->payload), err))
		return -1;
	c->machine.arch = arch;
	return 0;
}

/* ---- the boots ----------------------------------------------------------- */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP ARRAY_SIZE(stop_signals)

static void on_stop(int sig)
{
	campaign_stop_signal = sig;
}

/*
 * The stop signals end the running boot, as they stop the measuring
 * commands (cli/measure.c); what was there before goes to old.
 */
static void install_stop(struct sigaction old[NSTOP], bool installed[NSTOP])
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		installed[i] = sigaction(stop_signals[i], &sa, &old[i]) == 0;
}

static void restore_stop(const struct sigaction old[NSTOP], bool installed[NSTOP])
{
	for (size_t i = 0; i < NSTOP; i++)
		if (installed[i])
			installed[i] = sigaction(stop_signals[i], &old[i], NULL) != 0;
}

static int run_boots(struct campaign *c)
{
	unsigned index = 0, total = 0;

	for (size_t i = 0; i < c->nkernels; i++)
		total += c->kernels[i].bootable ? (unsigned)c->boots : 0;
	for (long r = 0; r < c->boots; r++) {
		for (size_t i = 0; i < c->nkernels; i++) {
			/* A B, B A, ...: each kernel takes each position as often. */
			struct campaign_kernel *k =
				&c->kernels[balanced_order_at(c->nkernels, (unsigned)r, i, 0)];

			if (!k->bootable)
				continue;
			boot_once(c, k, (unsigned)r + 1, (unsigned)i + 1, ++index, total);
			if (campaign_stop_signal || c->usage_error)
				return -1;
		}
	}
	return 0;
}

int campaign_run(struct campaign *c, struct store *st, struct strbuf *err)
{
	struct vm_machine *m = &c->machine;
	struct sigaction old[NSTOP];
	bool installed[NSTOP] = { false };
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	int rc;

	c->st = st;
	m->qemu = c->qemu;
	m->version = vm_qemu_version(c->qemu, c->qemu_version, sizeof(c->qemu_version));
	m->accel = choose_accel(c->accel, m->arch, c->exact, &why);
	m->cpus = (unsigned)c->cpus;
	m->memory_mb = (unsigned)c->memory_mb;
	m->timeout_s = c->timeout_s;
	m->exact = c->exact;
	store_new_uuid(c->id);
	campaign_stop_signal = 0;
	install_stop(old, installed);
	settle_accel(c, &why);
	note_scale_under_tcg(c);
	/* A boot's files are memfds and /dev/fd: nothing to clean up on disk. */
	rc = run_boots(c);
	/*
	 * What follows reads what the boots stored: bounded by the limits on
	 * a guest's result, and stopped by a signal's default action, as any
	 * reading command is.
	 */
	restore_stop(old, installed);
	m->accel_reason = NULL;	/* why's, gone with it */
	if (rc == 0)
		return 0;
	if (c->usage_error)
		strbuf_setf(err, "the guest refused the command line: no more boots");
	else
		strbuf_setf(err, "stopped by signal %d: the boots done so far are stored",
			    (int)campaign_stop_signal);
	return -1;
}

void campaign_columns(const struct campaign *c, struct kernels_column cols[KERNELS_MAX])
{
	for (size_t i = 0; i < c->nkernels; i++) {
		const struct campaign_kernel *k = &c->kernels[i];

		cols[i] = (struct kernels_column){
			.name = k->name, .bootable = k->bootable, .why = k->why,
			.release = k->image.release, .failed = k->failed,
			.runs = k->runs, .nruns = k->nruns,
			.noutputs = k->noutputs,
			.vdso = (const char *const *)k->vdso,
		};
	}
}

void campaign_free(struct campaign *c)
{
	for (size_t i = 0; i < c->nkernels; i++) {
		struct campaign_kernel *k = &c->kernels[i];

		free(k->name);
		free(k->path);
		free(k->append);
		free(k->why);
		for (size_t r = 0; r < k->nruns; r++)
			free(k->labels[r]);
		free(k->labels);
		free(k->runs);
		if (k->vmlinux >= 0)
			close(k->vmlinux);
		for (char **v = k->vdso; v && *v; v++)
			free(*v);
		free(k->vdso);
	}
	kernels_checks_free(&c->checks);
}
