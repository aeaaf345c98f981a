// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench kernels: each kernel image booted several times in a virtual
 * machine with a static clockbench as its init, the boots interleaved
 * (A B B A ...), every boot's runs stored under the kernel's name, and the
 * kernels compared with the boots as replicates.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "basic/order.h"
#include "basic/options.h"
#include "basic/json.h"
#include "basic/text.h"
#include "basic/util.h"
#include "builtin/builtin.h"
#include "results/compare-session.h"
#include "results/run-facts.h"
#include "report/compare-format.h"
#include "report/kernels-matrix.h"
#include "results/export-file.h"
#include "results/record.h"
#include "results/store.h"
#include "results/tap.h"
#include "vm/boot-files.h"
#include "vm/frame.h"
#include "vm/guest.h"
#include "vm/image.h"
#include "vm/payload.h"
#include "vm/qemu.h"
#include "vm/result.h"
#include "vm/vmlinux.h"

#define BOOTS_MAX 100
/* Console lines shown of a boot that failed. */
#define CONSOLE_TAIL_LINES 12
/* The most a data port may hold: a frame and what the guest printed before. */
#define DATA_MAX_BYTES (FRAME_MAX_BYTES + (1u << 20))
/* The results of checks a boot of `-- verify` may bring: verify has 1,416. */
#define GUEST_CHECKS_MAX KERNELS_CHECKS_MAX

static const struct command_usage kernels_usage = {
	.name = "kernels",
	.synopsis = "--kernel NAME=IMAGE [--kernel NAME=IMAGE...] [<options>] -- COMMAND [ARGS]",
	.description =
	"Boot each kernel image several times in a qemu virtual machine whose\n"
	"init is a static clockbench, run 'clockbench COMMAND ARGS' inside, and\n"
	"bring its result back over a second serial port. The boots are\n"
	"interleaved (A B B A ...), so that a machine that drifts weighs on\n"
	"every kernel alike; each boot's runs are stored labelled NAME, with the\n"
	"guest's kernel and the virtual machine's facts in their environment,\n"
	"and the kernels are compared with the boots as replicates (the first\n"
	"--kernel is the base). COMMAND is bench, scale, timens, hotplug, exec,\n"
	"doctor, verify or vdso.\n"
	"\n"
	"Under TCG (software emulation: every machine without KVM for ordinary\n"
	"guests) the timings are emulated: they compare kernels' code paths on\n"
	"one emulator, not hardware costs. Functional results are exact.",
	.footer =
	"The guest is a static clockbench: 'make guest' builds one.\n"
	"\n"
	"Exit status: 0 on success; 1 when a boot failed; 2 on a usage error;\n"
	"with --fail-on, git bisect run's convention: 1 when the gate caught a\n"
	"change, 125 when a kernel could not be booted or measured.",
};

static const char *const accel_names[] = { "auto", "kvm", "tcg", NULL };
/* The commands that make sense inside the guest. */
static const char *const guest_commands[] = {
	"bench", "scale", "timens", "hotplug", "exec", "doctor", "verify",
	"vdso", NULL,
};

struct kernel {
	char *name;
	char *path;
	char *append;		/* --kernel-append of this kernel, or NULL */
	struct kernel_image image;
	int vmlinux;		/* the bzImage's kernel unpacked, or -1 */
	char booted_as[64];	/* "bzImage", "vmlinux", "vmlinux (lz4 bzImage)" */
	bool bootable;
	char *why;		/* why it cannot be booted, or NULL */
	int64_t *runs;		/* the stored runs of its boots */
	char **labels;		/* each run's label: the name, or name-side */
	size_t nruns, cap, labcap;
	unsigned failed;	/* boots that brought no result */
	unsigned problems;	/* doctor's boots that found a problem (exit 3) */
	char **vdso;		/* the functions its vDSO exports (first boot's) */
	size_t noutputs;	/* a checking command's boots that reported */
};

struct kernels_cli {
	struct kernel kernels[KERNELS_MAX];
	size_t nkernels;
	long boots;
	int accel;
	double timeout_s;
	long cpus, memory_mb;
	const char *append;
	const char *guest;
	const char *logs;
	bool no_unpack;
	bool judge_emulated;
	bool exact;		/* --exact: icount, instructions per call */
	int style;
	int fail_on;
	struct store_options store;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int kernel_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	struct kernels_cli *o = opt->value;
	const char *eq = strchr(arg, '=');
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	struct kernel *k;
	char *name;

	if (!eq || eq == arg || !eq[1]) {
		strbuf_addf(err, "--kernel '%s': expected NAME=IMAGE", arg);
		return -1;
	}
	if (o->nkernels == KERNELS_MAX) {
		strbuf_addf(err, "more than %d --kernel", KERNELS_MAX);
		return -1;
	}
	name = strndup(arg, (size_t)(eq - arg));
	if (!store_label_valid(name, &why)) {
		strbuf_addf(err, "--kernel '%s': %s (the name is its runs' label)",
			    arg, why.buf);
		free(name);
		return -1;
	}
	/* Its boots' consoles are files named after it, in one directory. */
	if (strchr(name, '/') || streq(name, ".") || streq(name, "..")) {
		strbuf_addf(err, "--kernel '%s': a name cannot hold '/' or be '.' or "
			    "'..': its consoles are files named after it", arg);
		free(name);
		return -1;
	}
	for (size_t i = 0; i < o->nkernels; i++)
		if (streq(o->kernels[i].name, name)) {
			strbuf_addf(err, "--kernel: the name '%s' is given twice", name);
			free(name);
			return -1;
		}
	k = &o->kernels[o->nkernels++];
	k->vmlinux = -1;
	k->name = name;
	k->path = xstrdup(eq + 1);
	return 0;
}

/* --kernel-append NAME=ARGS: after the --kernel that named NAME. */
static int kernel_append_option(const struct option_def *opt, const char *arg,
				struct strbuf *err)
{
	struct kernels_cli *o = opt->value;
	const char *eq = strchr(arg, '=');

	for (size_t i = 0; eq && i < o->nkernels; i++) {
		struct kernel *k = &o->kernels[i];

		if (strlen(k->name) != (size_t)(eq - arg) ||
		    strncmp(k->name, arg, (size_t)(eq - arg)))
			continue;
		if (k->append) {
			strbuf_addf(err, "--kernel-append: '%s' given twice", k->name);
			return -1;
		}
		k->append = xstrdup(eq + 1);
		return 0;
	}
	strbuf_addf(err, "--kernel-append '%s': expected NAME=ARGS after the "
		    "--kernel NAME=IMAGE it belongs to", arg);
	return -1;
}

/*
 * --exact: what it can count. icount runs the guest's vCPUs one after the
 * other in one host thread, and Debian's 6.1 hangs bringing up a second
 * one under it ("smp: Bringing up secondary CPUs"): exact boots one vCPU,
 * and the commands that need two, or whose figures are not per call,
 * are refused here, before any boot.
 */
static int check_exact(struct kernels_cli *o, const char *command)
{
	if (o->accel == VM_ACCEL_KVM)
		return options_fail("--exact counts instructions under TCG: not with "
				    "--accel kvm");
	if (o->cpus > 1)
		return options_fail("--exact boots one vCPU (a second hangs some "
				    "kernels under icount): not with --cpus %ld", o->cpus);
	if (streq(command, "hotplug") || streq(command, "scale") || streq(command, "exec"))
		return options_fail("--exact counts instructions per call: '%s' %s",
				    command, streq(command, "hotplug") ?
				    "takes a CPU offline, and exact boots one vCPU" :
				    streq(command, "scale") ? "times threads sharing CPUs, "
				    "and exact boots one vCPU" : "times whole processes, "
				    "not calls");
	o->cpus = 1;
	return 0;
}

/*
 * Each vCPU is a host thread: a guest with more CPUs than can run at once
 * stalls in its boot (64 vCPUs on a 2-CPU host never reached their init
 * in 600 s), so it is refused rather than timed out boot after boot.
 */
static bool cpus_bad(const struct kernels_cli *o)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online > 0 && o->cpus > online) {
		options_fail("--cpus %ld: the host has %ld online CPUs, and a guest "
			     "whose vCPUs cannot all run stalls in its boot", o->cpus,
			     online);
		return true;
	}
	return false;
}

/*
 * A kernel command line is one line of text: a control character in
 * --append would reach every boot and make every run's environment fail
 * the store's gate after the boot (each boot wasted, then dropped).
 */
static bool command_line_bad(const struct kernels_cli *o)
{
	const char *p;

	if (o->append && (p = text_find_control(o->append))) {
		options_fail("--append: a control character (byte %zu): the kernel "
			     "command line is one line of text", (size_t)(p - o->append));
		return true;
	}
	for (size_t i = 0; i < o->nkernels; i++)
		if (o->kernels[i].append && (p = text_find_control(o->kernels[i].append))) {
			options_fail("--kernel-append %s: a control character (byte %zu): "
				     "the kernel command line is one line of text",
				     o->kernels[i].name, (size_t)(p - o->kernels[i].append));
			return true;
		}
	return false;
}

static int parse_kernels_options(int argc, char **argv, struct kernels_cli *o)
{
	struct option_def options[] = {
		OPT_CALLBACK(0, "kernel", "NAME=IMAGE", o, kernel_option,
			     "a kernel to boot (bzImage, vmlinuz or vmlinux) and the\n"
			     "label of its runs; the first is the base"),
		OPT_INT(0, "boots", "N", &o->boots, 1, BOOTS_MAX,
			"boots of each kernel, interleaved (default 3)"),
		OPT_STRING(0, "append", "ARGS", &o->append,
			   "more kernel command line for every kernel"),
		OPT_CALLBACK(0, "kernel-append", "NAME=ARGS", o, kernel_append_option,
			     "more command line for kernel NAME alone (after its\n"
			     "--kernel), e.g. tsc=reliable"),
		OPT_CHOICE(0, "accel", "A", &o->accel, accel_names,
			   "auto (default: KVM where it runs guests, else TCG),\n"
			   "kvm or tcg"),
		OPT_DURATION(0, "timeout", "TIME", &o->timeout_s,
			     "a boot's limit, from start to power-off (default 600s)"),
		OPT_INT(0, "cpus", "N", &o->cpus, 1, 64,
			"virtual CPUs (default 2; 1 with --exact)"),
		OPT_INT(0, "memory", "MB", &o->memory_mb, 256, 65536,
			"the guest's memory (default 1024)"),
		OPT_STRING(0, "guest", "PATH", &o->guest,
			   "the static clockbench to boot (default: make guest's)"),
		OPT_BOOL(0, "no-unpack", &o->no_unpack,
			 "boot a bzImage as it is (default: the vmlinux inside it,\n"
			 "unpacked on the host, which spares every boot the\n"
			 "guest's own decompression)"),
		OPT_STRING(0, "logs", "DIR", &o->logs,
			   "keep the console of every boot in DIR (a failed boot's\n"
			   "is always kept, in $XDG_STATE_HOME/clockbench/boots)"),
		OPT_CHOICE(0, "style", "STYLE", &o->style, compare_style_names,
			   "the comparison's style: table (default), mmtests,\n"
			   "ratio, summary, ministat"),
		OPT_CHOICE(0, "fail-on", "WHAT", &o->fail_on, compare_gate_names,
			   "exit 1 when a cell is significantly worse, better or\n"
			   "either (change), 125 when a kernel cannot be measured;\n"
			   "emulated timings (TCG) only with --judge-emulated"),
		OPT_BOOL(0, "judge-emulated", &o->judge_emulated,
			 "let --fail-on judge timings measured under TCG"),
		OPT_BOOL(0, "exact", &o->exact,
			 "count instead of timing: qemu's icount mode (TCG, one\n"
			 "guest instruction a guest nanosecond), one vCPU; every\n"
			 "figure is guest instructions per call, the same at every\n"
			 "boot, on any host"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n;

	o->boots = 3;
	o->timeout_s = 600;
	o->memory_mb = 1024;
	o->style = STYLE_TABLE;
	n = parse_options(argc, argv, &kernels_usage, options, OPTIONS_STOP_AT_ARG);
	if (n < 0)
		return n;
	if (!o->cpus)
		o->cpus = o->exact ? 1 : 2;
	if (command_line_bad(o) || cpus_bad(o))
		return OPTIONS_ERROR;
	if (o->nkernels == 0)
		return options_fail("no --kernel NAME=IMAGE given");
	if (n == 0)
		return options_fail("no command to run in the guest (-- bench, "
				    "-- verify, ...)");
	for (size_t i = 0; guest_commands[i]; i++)
		if (streq(argv[0], guest_commands[i]))
			return o->exact ? check_exact(o, argv[0]) ? OPTIONS_ERROR : n : n;
	return options_fail("'%s' cannot run in the guest (bench, scale, timens, "
			    "hotplug, exec, doctor, verify, vdso)", argv[0]);
}

/*
 * The guests run this very program, built static: its parser checks the
 * command they will run here first (a usage error inside the first guest
 * cost a whole boot, 91 s under load), in a child, so that the check's
 * parsing leaves nothing behind in kernels' own process. Only a usage
 * error stops the campaign; what the host cannot tell for the guest (its
 * CPUs, its files) the guest still checks. A --guest of its own may be
 * another version, with other options: its command is its own to check.
 * -1 when the command was refused.
 */
static int check_guest_command(const struct kernels_cli *o, char **cmd, int ncmd)
{
	const struct command *c = find_command(cmd[0]);
	int status;
	pid_t pid;

	if (o->guest)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* the first guest checks it, as before */
	if (pid == 0) {
		options_check_only();
		_exit(c->run(ncmd, cmd));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_USAGE) {
		error_msg("the command for the guests is a usage error (above): "
			  "nothing booted");
		return -1;
	}
	return 0;
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

/* ---- a boot ------------------------------------------------------------ */

/* --logs: a directory that exists or can be made, before the first boot. */
static int check_logs(const struct kernels_cli *o)
{
	struct stat st;

	if (!o->logs)
		return 0;
	if (mkdir_p_private(o->logs) == 0 && stat(o->logs, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		return 0;
	if (errno == EEXIST)
		errno = ENOTDIR;
	error_msg("--logs %s: cannot make it a directory: %s", o->logs, strerror(errno));
	return -1;
}

static json_t *vm_facts(const struct kernels_cli *o, const struct vm_machine *m,
			const struct kernel *k, unsigned boot, unsigned position,
			const struct vm_outcome *out, const struct guest_facts *guest)
{
	json_t *vm = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:i, s:i, s:b}",
			       "kernel_name", k->name, "image", k->path,
			       "accel", vm_accel_name(m->accel), "qemu", m->version,
			       "cpus", (int)m->cpus, "memory_mb", (int)m->memory_mb,
			       "boot_wall_s", out->wall_s, "boot", (int)boot,
			       "position", (int)position,
			       "emulated", m->accel != VM_ACCEL_KVM);

	json_object_set_new(vm, "booted_as", json_string(k->booted_as));
	json_object_set_new(vm, "arch", json_string(vm_arch_info(m->arch)->name));
	json_object_set_new(vm, "accel_reason", json_string(m->accel_reason ?
							    m->accel_reason : ""));
	json_object_set_new(vm, "append", json_string(o->append ? o->append : ""));
	json_object_set_new(vm, "kernel_append", json_string(k->append ? k->append : ""));
	if (m->exact) {
		json_object_set_new(vm, "exact", json_true());
		json_object_set_new(vm, "icount", json_string("shift=0,sleep=off"));
	}
	json_object_set_new(vm, "guest", guest_facts_json(guest));
	return vm;
}

/*
 * What a default label (store_invocation_label(): "timens-1a2b3c4d-host")
 * says after the invocation's id, which the run's config names: host. Any
 * other label as it is.
 */
static const char *label_past_invocation(const struct stored_run *r)
{
	const char *id = r->config ?
			 json_string_value(json_object_get(r->config, "interleave")) : NULL;
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
static char *boot_run_label(const struct kernel *k, const struct stored_run *r,
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
	struct kernel *k;
	const struct store_options *store;
	json_t *vm;			/* the machine's facts */
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

	if (stop_signal) {
		strbuf_setf(err, "stopped by signal %d", (int)stop_signal);
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
	json_t *vm = json_deep_copy(b->vm);

	json_object_set(vm, "guest_argv", json_object_get(r->env, "argv"));
	record_add_command_line(r->env, b->store);
	json_object_set_new(r->env, "vm", vm);
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
static int store_boot_runs(struct store *st, const struct store_options *store,
			   const struct guest_result *res, struct kernel *k, json_t *vm,
			   bool exact, struct strbuf *err)
{
	struct boot_runs b = { .k = k, .store = store, .vm = vm, .exact = exact };
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
		if (export_file_runs(b.f) > GUEST_RUNS_MAX || stop_signal) {
			strbuf_setf(err, stop_signal ? "stopped by signal %d" :
				    "the guest's result holds more than %d runs",
				    stop_signal ? (int)stop_signal : GUEST_RUNS_MAX);
			rc = -1;
			break;
		}
	}
	b.runs_in_boot = export_file_runs(b.f);
	if (rc == 0)
		rc = export_file_rewind(b.f, err);
	if (rc == 0)
		rc = store_import_batch(st, next_boot_run, &b, ids, GUEST_RUNS_MAX, &n, err);
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

struct boot_ctx {
	const struct kernels_cli *o;
	const struct vm_machine *m;
	struct store *st;
	const char *payload;
	char *const *cmd;
	size_t ncmd;
	char campaign[37];	/* this invocation's id: its boots interleave */
	bool usage_error;	/* the guest refused the command line */
	struct kernels_checks checks;	/* `-- verify`: its boots' results */
};

/* The first line of what the command printed, when it failed. */
static void say_output(const struct guest_result *r)
{
	if (r->output && *r->output)
		text_line(stderr, "  the command said: %.*s", (int)strcspn(r->output, "\n"),
			  r->output);
}

/* The result of a command that stores nothing: its output. */
static int take_output(struct boot_ctx *c, struct kernel *k, const struct guest_result *r,
		       struct strbuf *err)
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
		kernels_checks_add(&c->checks, (size_t)(k - c->o->kernels),
				   r->output ? r->output : "");
	}
	k->noutputs++;
	return 0;
}

/* The result the guest sent, stored: 0, or -1 with why in err. */
static int take_result(struct boot_ctx *c, const struct boot_files *f, struct kernel *k,
		       unsigned boot, unsigned position, const struct vm_outcome *out,
		       struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	struct guest_result r;
	json_t *vm;
	int rc = -1;

	if (vm_file_read(boot_result_port(c->m, f), DATA_MAX_BYTES, &data) != 0) {
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
		say_output(&r);
		goto out;
	}
	/* doctor's verdict is its first line: what the boot found. */
	if (streq(c->cmd[0], "doctor") && r.output)
		text_line(stderr, "  %s: %.*s", k->name, (int)strcspn(r.output, "\n"),
			  r.output);
	if (!r.has_export) {
		rc = take_output(c, k, &r, err);
	} else {
		vm = vm_facts(c->o, c->m, k, boot, position, out, &r.facts);
		json_object_set_new(vm, "campaign", json_string(c->campaign));
		rc = store_boot_runs(c->st, &c->o->store, &r, k, vm, c->m->exact, err) < 0 ?
		     -1 : 0;
		json_decref(vm);
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

/* The lines of a tail (boot_text_tail()), each prefixed, on stderr. */
static void print_tail(const struct strbuf *lines)
{
	for (const char *l = lines->buf, *nl; (nl = strchr(l, '\n')); l = nl + 1)
		text_line(stderr, "    | %.*s", (int)(nl - l), l);
}

static void report_failure(const struct kernels_cli *o, const struct boot_files *f,
			   const struct kernel *k, unsigned boot, double wall_s,
			   const char *why)
{
	struct boot_failure bf;

	boot_failure_read(&bf, f, o->logs, k->name, boot, CONSOLE_TAIL_LINES, 4);
	if (bf.keep_err.len)
		warn_msg("%s", bf.keep_err.buf);
	/*
	 * A panic is the cause, however the boot then ended (panic=-1 powers
	 * off, with no result; panic=0 is stopped at the panic), and its own
	 * line says more than the call trace after it, which is all the tail
	 * below may show.
	 */
	if (bf.panic.len)
		text_line(stderr, "  %s: boot %u failed after %.1f s: the kernel "
			  "panicked: %s", k->name, boot, wall_s, bf.panic.buf);
	else
		text_line(stderr, "  %s: boot %u failed after %.1f s: %s", k->name,
			  boot, wall_s, why);
	text_line(stderr, "  the console's last lines%s%s%s:",
		  bf.kept[0] ? " (all of it in " : "", bf.kept, bf.kept[0] ? ")" : "");
	print_tail(&bf.console_tail);
	print_tail(&bf.log_tail);
	boot_failure_release(&bf);
}

/* The kernel command line of k's boots. */
static void kernel_cmdline(const struct kernels_cli *o, const struct vm_machine *m,
			   const struct kernel *k, struct strbuf *append)
{
	/* panic=-1: a kernel that panics reboots, and -no-reboot ends qemu. */
	strbuf_addf(append, "console=%s panic=-1 rdinit=/init",
		    vm_arch_info(m->arch)->console);
	if (o->append)
		strbuf_addf(append, " %s", o->append);
	if (k->append)
		strbuf_addf(append, " %s", k->append);
}

/* One boot of k: 0 when its result was stored, -1 when the boot failed. */
static int boot_once(struct boot_ctx *c, struct kernel *k, unsigned boot,
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
		error_msg("cannot prepare the boot: %s", err.len ? err.buf : strerror(errno));
		goto out;
	}
	kernel_cmdline(c->o, c->m, k, &append);
	struct vm_boot b = {
		.kernel = k->path, .kernel_fd = k->vmlinux,
		.append = append.buf, .initrd = files.initrd,
		.console = files.console, .data = files.data, .log = files.log,
	};
	text_line(stderr, "boot %u/%u: %s (%s), %u of %ld", index, total, k->name,
		  k->image.release[0] ? k->image.release : "?", boot, c->o->boots);
	if (vm_run(c->m, &b, &stop_signal, &out, &err)) {
		error_msg("%s", err.buf);
		goto out;
	}
	reason = boot_end_reason(&out, files.console, &why);
	if (!reason && take_result(c, &files, k, boot, position, &out, &err) == 0) {
		text_line(stderr, "  %s: done in %.1f s", k->name, out.wall_s);
		if (c->o->logs && boot_console_keep(files.console, c->o->logs, k->name, boot,
						    kept, sizeof(kept), &err))
			warn_msg("%s", err.buf);
		rc = 0;
	} else if (out.end != VM_INTERRUPTED) {
		report_failure(c->o, &files, k, boot, out.wall_s, reason ? reason : err.buf);
	}
out:
	boot_files_close(&files);
	strbuf_release(&initrd);
	strbuf_release(&append);
	if (rc)
		k->failed++;
	return rc;
}

/* ---- the accelerator ------------------------------------------------------ */

/* A probe boot's limit: KVM boots a kernel in seconds. */
#define KVM_PROBE_TIMEOUT_S 120.0

/*
 * Whether KVM runs ordinary guests here: one boot of k under KVM with the
 * cheapest command (vdso) that must reach the guest's init and bring its
 * result back. What happened goes to why.
 */
static bool probe_kvm(const struct boot_ctx *c, const struct kernel *k,
		      struct strbuf *why)
{
	static char *const probe_cmd[] = { (char *)"vdso", NULL };
	struct vm_machine m = *c->m;
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
	kernel_cmdline(c->o, c->m, k, &append);
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
		if (vm_run(&m, &b, &stop_signal, &out, &err))
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
 * The accelerator of every boot: TCG, KVM when asked for, or (auto) KVM
 * when a probe boot of the first bootable kernel under it comes back.
 * Printed with the reason; every run records it.
 */
static void settle_accel(const struct kernels_cli *o, struct boot_ctx *c,
			 struct vm_machine *m, struct strbuf *why)
{
	_cleanup_strbuf_ struct strbuf probe = STRBUF_INIT;

	if (o->accel == VM_ACCEL_AUTO && m->accel == VM_ACCEL_KVM) {
		for (size_t i = 0; i < o->nkernels; i++) {
			if (!o->kernels[i].bootable)
				continue;
			if (!probe_kvm(c, &o->kernels[i], &probe))
				m->accel = VM_ACCEL_TCG;
			strbuf_addf(why, "; %s", probe.buf);
			break;
		}
	}
	m->accel_reason = why->buf;
	text_line(stderr, "accelerator: %s (%s)%s", vm_accel_name(m->accel), why->buf,
		  m->accel == VM_ACCEL_TCG ? "; timings are emulated" : "");
}

/*
 * scale's default work is sized for hardware: 5,000,000 calls a run, for
 * every thread count, API and repetition. Under TCG a boot of it took
 * 434 s on a 2-CPU cloud VM (Debian 6.12, make check beside it), against
 * 600 s of --timeout by default. Said before the boots when no --calls
 * is given (long options are never abbreviated: "--calls" is the word).
 */
static void note_scale_under_tcg(const struct vm_machine *m, char *const *cmd,
				 size_t ncmd)
{
	if (m->accel != VM_ACCEL_TCG || !streq(cmd[0], "scale"))
		return;
	for (size_t i = 1; i < ncmd && !streq(cmd[i], "--"); i++)
		if (streq(cmd[i], "--calls") || !strncmp(cmd[i], "--calls=", 8) ||
		    streq(cmd[i], "--idle-threads") || !strncmp(cmd[i], "--idle-threads=", 15))
			return;
	text_line(stderr, "note: scale makes 5,000,000 calls a run by default, sized "
		  "for hardware: under TCG a boot of it takes minutes (434 s on a "
		  "2-CPU cloud VM); --calls 500000 takes a tenth, and --timeout "
		  "bounds each boot");
}

/* ---- what is printed ------------------------------------------------------ */

/* The kernels as report/kernels-matrix.c prints them. */
static void kernels_columns(const struct kernels_cli *o,
			    struct kernels_column cols[KERNELS_MAX])
{
	for (size_t i = 0; i < o->nkernels; i++) {
		const struct kernel *k = &o->kernels[i];

		cols[i] = (struct kernels_column){
			.name = k->name, .bootable = k->bootable, .why = k->why,
			.release = k->image.release, .failed = k->failed,
			.runs = k->runs, .nruns = k->nruns,
			.noutputs = k->noutputs,
			.vdso = (const char *const *)k->vdso,
		};
	}
}

/* ---- the campaign -------------------------------------------------------- */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP ARRAY_SIZE(stop_signals)

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

/*
 * A bzImage boots as the vmlinux inside it where that can be had: under
 * TCG the guest's decompressor alone takes seconds of every boot.
 */
static void unpack_image(const struct kernels_cli *o, struct kernel *k)
{
	struct vmlinux_extract x;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	snprintf(k->booted_as, sizeof(k->booted_as), "%s",
		 kernel_image_kind_name(k->image.kind));
	if (k->image.kind != IMAGE_BZIMAGE || o->no_unpack)
		return;
	k->vmlinux = vmlinux_extract(k->path, &x, &err);
	if (k->vmlinux < 0) {
		text_line(stderr, "  booted as the bzImage: its kernel cannot be "
			  "unpacked: %s", err.buf);
		return;
	}
	snprintf(k->booted_as, sizeof(k->booted_as), "vmlinux (from a %s bzImage)",
		 x.method);
	text_line(stderr, "  booted as its vmlinux, unpacked (%s, %.1f MB)", x.method,
		  (double)x.bytes / 1e6);
}

/*
 * The architecture of the campaign: its bootable kernels' one. Kernels of
 * two architectures run on two machines, and are never compared as if
 * they were one: boot them in two invocations.
 */
static int campaign_arch(const struct kernels_cli *o, enum vm_arch *arch)
{
	const struct kernel *first = NULL;

	for (size_t i = 0; i < o->nkernels; i++) {
		const struct kernel *k = &o->kernels[i];

		if (!k->bootable)
			continue;
		if (!first) {
			first = k;
			*arch = k->image.arch;
		} else if (k->image.arch != *arch) {
			error_msg("%s is an %s kernel and %s an %s one: kernels of two "
				  "architectures are never compared as one machine; boot "
				  "them in two invocations", first->name,
				  vm_arch_info(first->image.arch)->name, k->name,
				  vm_arch_info(k->image.arch)->name);
			return -1;
		}
	}
	return 0;
}

/* --accel kvm where there is no KVM would fail every boot, then print nothing. */
static int check_accel(const struct kernels_cli *o)
{
	if (o->accel != VM_ACCEL_KVM || access("/dev/kvm", R_OK | W_OK) == 0)
		return 0;
	error_msg("--accel kvm: /dev/kvm: %s; this machine boots guests under "
		  "TCG only (--accel tcg, or auto)", strerror(errno));
	return -1;
}

static int check_images(struct kernels_cli *o)
{
	size_t bootable = 0;

	for (size_t i = 0; i < o->nkernels; i++) {
		struct kernel *k = &o->kernels[i];
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		k->bootable = kernel_image_read(k->path, &k->image, &err) == 0;
		if (!k->bootable) {
			error_msg("%s: %s: %s", k->name, k->path, err.buf);
			k->why = strbuf_detach(&err);
			continue;
		}
		bootable++;
		text_line(stderr, "%s: %s, %s %s (%s)", k->name, k->path,
			  kernel_image_kind_name(k->image.kind),
			  k->image.release[0] ? k->image.release : "(release not found)",
			  vm_arch_info(k->image.arch)->name);
		unpack_image(o, k);
	}
	return bootable ? 0 : -1;
}

static int run_boots(struct kernels_cli *o, struct boot_ctx *c)
{
	unsigned index = 0, total = 0;

	for (size_t i = 0; i < o->nkernels; i++)
		total += o->kernels[i].bootable ? (unsigned)o->boots : 0;
	for (long r = 0; r < o->boots; r++) {
		for (size_t i = 0; i < o->nkernels; i++) {
			/* A B, B A, ...: each kernel takes each position as often. */
			struct kernel *k = &o->kernels[balanced_order_at(o->nkernels,
									 (unsigned)r, i, 0)];

			if (!k->bootable)
				continue;
			boot_once(c, k, (unsigned)r + 1, (unsigned)i + 1, ++index, total);
			if (stop_signal || c->usage_error)
				return -1;
		}
	}
	return 0;
}

/* The group of label in groups[0..*n), added when new. */
static struct compare_group *label_group(struct compare_group *groups, size_t *n,
					 size_t max, const char *label)
{
	for (size_t g = 0; g < *n; g++)
		if (streq(groups[g].spec, label))
			return &groups[g];
	if (*n == max)
		return NULL;
	groups[*n].spec = xstrdup(label);
	return &groups[(*n)++];
}

/*
 * The runs of kernels [from, to) compared, a group per label (the
 * kernel's name, or its name and a side of timens), the first one's the
 * base: -1 when they cannot be, and the gate's catch added to *caught.
 */
static int compare_labels(struct kernels_cli *o, struct store *st, size_t from,
			  size_t to, int *caught)
{
	struct compare_group groups[2 * KERNELS_MAX] = { 0 };
	size_t caps[2 * KERNELS_MAX] = { 0 };
	struct compare_options opts;
	struct compare_session session;
	struct compare_result result;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t n = 0;
	int rc = 0;

	strbuf_adds(&err, "too many sides to compare");
	for (size_t i = from; i < to && rc == 0; i++) {
		struct kernel *k = &o->kernels[i];

		for (size_t r = 0; r < k->nruns && rc == 0; r++) {
			struct compare_group *g = label_group(groups, &n, ARRAY_SIZE(groups),
							      k->labels[r]);

			rc = g ? run_group_add(st, k->runs[r], RUNS_DIGEST, false, g,
					       &caps[g - groups], &err) : -1;
		}
	}
	if (rc == 0 && n >= 2) {
		compare_options_default(&opts);
		opts.judge_emulated = o->judge_emulated;
		/* As compare judges these runs: with a history of runs like the base. */
		compare_session_adopt(&session, groups, n, &opts, st,
				      COMPARE_HISTORY_DEFAULT);
		rc = compare_session_build(&session, &result, &err);
		if (rc == 0) {
			putchar('\n');
			rc = compare_print(stdout, &result, (enum compare_style)o->style,
					   FORMAT_TABLE);
			*caught += (int)compare_print_gate(stderr, &result,
							   (enum compare_gate)o->fail_on);
			compare_free(&result);
		}
		compare_session_close(&session);
	}
	if (rc)
		error_msg("cannot compare the kernels: %s", err.buf);
	for (size_t g = 0; g < n; g++)
		compare_group_release(&groups[g]);
	return rc;
}

/*
 * The kernels compared with the boots as replicates; `-- timens` compares
 * each kernel's host against its own namespace, a block per kernel (what
 * a time namespace costs on that kernel), as clockbench-kernels(1) says.
 */
static int compare_kernels(struct kernels_cli *o, struct store *st,
			   const char *command, int *caught)
{
	int rc = 0;

	if (!streq(command, "timens"))
		return compare_labels(o, st, 0, o->nkernels, caught);
	for (size_t i = 0; i < o->nkernels; i++)
		if (o->kernels[i].nruns && compare_labels(o, st, i, i + 1, caught))
			rc = -1;
	return rc;
}

/*
 * What the gate caught besides the comparison (a failed check, a problem
 * doctor found), said as compare_print_gate() says a worse cell: an exit
 * status of 1 is never left without its line. Returns n.
 */
static int print_gate_catch(const struct kernels_cli *o, const char *where,
			    const char *one, const char *many, size_t n)
{
	if (o->fail_on != GATE_NONE && n > 0)
		fprintf(stderr, "%s: --fail-on %s: %zu %s (%s)\n", program_context(),
			compare_gate_names[o->fail_on], n, n == 1 ? one : many, where);
	return (int)n;
}

static int exit_status(const struct kernels_cli *o, int caught)
{
	bool unmeasured = false, failed = false;

	for (size_t i = 0; i < o->nkernels; i++) {
		const struct kernel *k = &o->kernels[i];

		unmeasured |= !k->bootable || k->failed == (unsigned)o->boots;
		failed |= !k->bootable || k->failed > 0;
	}
	if (o->fail_on != GATE_NONE)
		return unmeasured ? 125 : caught ? 1 : 0;
	return failed ? 1 : 0;
}

static void free_kernels(struct kernels_cli *o)
{
	for (size_t i = 0; i < o->nkernels; i++) {
		free(o->kernels[i].name);
		free(o->kernels[i].path);
		free(o->kernels[i].append);
		free(o->kernels[i].why);
		for (size_t r = 0; r < o->kernels[i].nruns; r++)
			free(o->kernels[i].labels[r]);
		free(o->kernels[i].labels);
		free(o->kernels[i].runs);
		if (o->kernels[i].vmlinux >= 0)
			close(o->kernels[i].vmlinux);
		for (char **v = o->kernels[i].vdso; v && *v; v++)
			free(*v);
		free(o->kernels[i].vdso);
	}
}

int cmd_kernels(int argc, char **argv)
{
	struct kernels_cli o = { 0 };
	struct kernels_column cols[KERNELS_MAX];
	struct sigaction old[NSTOP];
	bool installed[NSTOP] = { false };
	char qemu[PATH_MAX], payload[PATH_MAX], dbpath[PATH_MAX], version[128];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct vm_machine m;
	struct store *st = NULL;
	struct boot_ctx c = { 0 };
	enum vm_arch arch = VM_ARCH_X86_64;
	int n, rc = 1, caught = 0;

	n = parse_kernels_options(argc, argv, &o);
	if (n < 0 || check_guest_command(&o, argv, n) != 0) {
		free_kernels(&o);
		return parse_options_status(n < 0 ? n : OPTIONS_ERROR);
	}
	if (check_accel(&o) != 0 || check_logs(&o) != 0 || check_images(&o) != 0 ||
	    campaign_arch(&o, &arch) != 0)
		goto out;
	if (!find_in_path(vm_arch_info(arch)->qemu, qemu, sizeof(qemu))) {
		error_msg("%s not found in PATH: install it (Debian: apt-get install %s)",
			  vm_arch_info(arch)->qemu, vm_arch_info(arch)->package);
		goto out;
	}
	if (payload_find(o.guest, arch, payload, sizeof(payload), &err)) {
		error_msg("%s", err.buf);
		goto out;
	}
	st = record_open(&o.store, STORE_WRITE, dbpath, sizeof(dbpath));
	if (!st)
		goto out;
	m = (struct vm_machine){
		.arch = arch,
		.qemu = qemu, .version = vm_qemu_version(qemu, version, sizeof(version)),
		.accel = choose_accel(o.accel, arch, o.exact, &why),
		.cpus = (unsigned)o.cpus, .memory_mb = (unsigned)o.memory_mb,
		.timeout_s = o.timeout_s, .exact = o.exact,
	};
	c = (struct boot_ctx){
		.o = &o, .m = &m, .st = st, .payload = payload,
		.cmd = argv, .ncmd = (size_t)n,
	};
	store_new_uuid(c.campaign);
	install_stop(old, installed);
	settle_accel(&o, &c, &m, &why);
	note_scale_under_tcg(&m, argv, (size_t)n);
	/* A boot's files are memfds and /dev/fd: nothing to clean up on disk. */
	if (run_boots(&o, &c) != 0) {
		if (c.usage_error) {
			error_msg("the guest refused the command line: no more boots");
			rc = EXIT_USAGE;
		} else {
			error_msg("stopped by signal %d: the boots done so far are stored",
				  (int)stop_signal);
			rc = 128 + stop_signal;
		}
		goto out;
	}
	/*
	 * What follows reads what the boots stored and prints it: bounded by
	 * the limits on a guest's result, and stopped by a signal's default
	 * action, as any reading command is.
	 */
	restore_stop(old, installed);
	kernels_columns(&o, cols);
	kernels_summary_print(stdout, cols, o.nkernels, o.boots);
	/*
	 * A failed check, or a problem doctor found, is a bad kernel for
	 * git bisect run, as a worse cell is.
	 */
	if (streq(argv[0], "verify"))
		caught += print_gate_catch(&o, "verify", "check failed", "checks failed",
					   kernels_check_matrix_print(stdout, cols,
								      o.nkernels, &c.checks));
	if (streq(argv[0], "vdso"))
		kernels_vdso_matrix_print(stdout, cols, o.nkernels);
	for (size_t i = 0; i < o.nkernels; i++)
		caught += print_gate_catch(&o, o.kernels[i].name,
					   "boot where doctor found a problem",
					   "boots where doctor found a problem",
					   o.kernels[i].problems);
	rc = compare_kernels(&o, st, argv[0], &caught) ? 1 : exit_status(&o, caught);
out:
	restore_stop(old, installed);
	kernels_checks_free(&c.checks);
	store_close(st);
	free_kernels(&o);
	return rc;
}
