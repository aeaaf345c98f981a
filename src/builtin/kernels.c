// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench kernels: each kernel image booted several times in a virtual
 * machine with a static clockbench as its init, the boots interleaved
 * (A B B A ...), every boot's runs stored under the kernel's name, and the
 * kernels compared with the boots as replicates. The boots are the
 * campaign's (vm/campaign.h); this is its options, the comparison and
 * what is printed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "basic/text.h"
#include "basic/util.h"
#include "builtin/builtin.h"
#include "report/compare-format.h"
#include "report/kernels-matrix.h"
#include "results/compare-session.h"
#include "results/record.h"
#include "results/store.h"
#include "vm/campaign.h"

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

struct kernels_cli {
	struct campaign c;	/* the settings of the boots */
	bool judge_emulated;
	int style;
	int fail_on;
	struct store_options store;
};

static int kernel_option(const struct option_def *opt, const char *arg,
			 struct strbuf *err)
{
	struct campaign *c = opt->value;
	const char *eq = strchr(arg, '=');
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	char *name;

	if (!eq || eq == arg || !eq[1]) {
		strbuf_addf(err, "--kernel '%s': expected NAME=IMAGE", arg);
		return -1;
	}
	if (c->nkernels == KERNELS_MAX) {
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
	for (size_t i = 0; i < c->nkernels; i++)
		if (streq(c->kernels[i].name, name)) {
			strbuf_addf(err, "--kernel: the name '%s' is given twice", name);
			free(name);
			return -1;
		}
	campaign_add_kernel(c, name, eq + 1);
	return 0;
}

/* --kernel-append NAME=ARGS: after the --kernel that named NAME. */
static int kernel_append_option(const struct option_def *opt, const char *arg,
				struct strbuf *err)
{
	struct campaign *c = opt->value;
	const char *eq = strchr(arg, '=');

	for (size_t i = 0; eq && i < c->nkernels; i++) {
		struct campaign_kernel *k = &c->kernels[i];

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
static int check_exact(struct campaign *c, const char *command)
{
	if (c->accel == VM_ACCEL_KVM)
		return options_fail("--exact counts instructions under TCG: not with "
				    "--accel kvm");
	if (c->cpus > 1)
		return options_fail("--exact boots one vCPU (a second hangs some "
				    "kernels under icount): not with --cpus %ld", c->cpus);
	if (streq(command, "hotplug") || streq(command, "scale") || streq(command, "exec"))
		return options_fail("--exact counts instructions per call: '%s' %s",
				    command, streq(command, "hotplug") ?
				    "takes a CPU offline, and exact boots one vCPU" :
				    streq(command, "scale") ? "times threads sharing CPUs, "
				    "and exact boots one vCPU" : "times whole processes, "
				    "not calls");
	c->cpus = 1;
	return 0;
}

/*
 * Each vCPU is a host thread: a guest with more CPUs than can run at once
 * stalls in its boot (64 vCPUs on a 2-CPU host never reached their init
 * in 600 s), so it is refused rather than timed out boot after boot.
 */
static bool cpus_bad(const struct campaign *c)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online > 0 && c->cpus > online) {
		options_fail("--cpus %ld: the host has %ld online CPUs, and a guest "
			     "whose vCPUs cannot all run stalls in its boot", c->cpus,
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
static bool command_line_bad(const struct campaign *c)
{
	const char *p;

	if (c->append && (p = text_find_control(c->append))) {
		options_fail("--append: a control character (byte %zu): the kernel "
			     "command line is one line of text", (size_t)(p - c->append));
		return true;
	}
	for (size_t i = 0; i < c->nkernels; i++)
		if (c->kernels[i].append && (p = text_find_control(c->kernels[i].append))) {
			options_fail("--kernel-append %s: a control character (byte %zu): "
				     "the kernel command line is one line of text",
				     c->kernels[i].name, (size_t)(p - c->kernels[i].append));
			return true;
		}
	return false;
}

static int parse_kernels_options(int argc, char **argv, struct kernels_cli *o)
{
	struct campaign *c = &o->c;
	struct option_def options[] = {
		OPT_CALLBACK(0, "kernel", "NAME=IMAGE", c, kernel_option,
			     "a kernel to boot (bzImage, vmlinuz or vmlinux) and the\n"
			     "label of its runs; the first is the base"),
		OPT_INT(0, "boots", "N", &c->boots, 1, CAMPAIGN_BOOTS_MAX,
			"boots of each kernel, interleaved (default 3)"),
		OPT_STRING(0, "append", "ARGS", &c->append,
			   "more kernel command line for every kernel"),
		OPT_CALLBACK(0, "kernel-append", "NAME=ARGS", c, kernel_append_option,
			     "more command line for kernel NAME alone (after its\n"
			     "--kernel), e.g. tsc=reliable"),
		OPT_CHOICE(0, "accel", "A", &c->accel, accel_names,
			   "auto (default: KVM where it runs guests, else TCG),\n"
			   "kvm or tcg"),
		OPT_DURATION(0, "timeout", "TIME", &c->timeout_s,
			     "a boot's limit, from start to power-off (default 600s)"),
		OPT_INT(0, "cpus", "N", &c->cpus, 1, 64,
			"virtual CPUs (default 2; 1 with --exact)"),
		OPT_INT(0, "memory", "MB", &c->memory_mb, 256, 65536,
			"the guest's memory (default 1024)"),
		OPT_STRING(0, "guest", "PATH", &c->guest,
			   "the static clockbench to boot (default: make guest's)"),
		OPT_BOOL(0, "no-unpack", &c->no_unpack,
			 "boot a bzImage as it is (default: the vmlinux inside it,\n"
			 "unpacked on the host, which spares every boot the\n"
			 "guest's own decompression)"),
		OPT_STRING(0, "logs", "DIR", &c->logs,
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
		OPT_BOOL(0, "exact", &c->exact,
			 "count instead of timing: qemu's icount mode (TCG, one\n"
			 "guest instruction a guest nanosecond), one vCPU; every\n"
			 "figure is guest instructions per call, the same at every\n"
			 "boot, on any host"),
		STORE_DB_OPTION(&o->store),
		OPT_END(),
	};
	int n;

	c->boots = 3;
	c->timeout_s = 600;
	c->memory_mb = 1024;
	o->style = STYLE_TABLE;
	n = parse_options(argc, argv, &kernels_usage, options, OPTIONS_STOP_AT_ARG);
	if (n < 0)
		return n;
	if (!c->cpus)
		c->cpus = c->exact ? 1 : 2;
	if (command_line_bad(c) || cpus_bad(c))
		return OPTIONS_ERROR;
	if (c->nkernels == 0)
		return options_fail("no --kernel NAME=IMAGE given");
	if (n == 0)
		return options_fail("no command to run in the guest (-- bench, "
				    "-- verify, ...)");
	for (size_t i = 0; guest_commands[i]; i++)
		if (streq(argv[0], guest_commands[i]))
			return c->exact ? check_exact(c, argv[0]) ? OPTIONS_ERROR : n : n;
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

	if (o->c.guest)
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

/* ---- the comparison ------------------------------------------------------ */

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
		const struct campaign_kernel *k = &o->c.kernels[i];

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
		return compare_labels(o, st, 0, o->c.nkernels, caught);
	for (size_t i = 0; i < o->c.nkernels; i++)
		if (o->c.kernels[i].nruns && compare_labels(o, st, i, i + 1, caught))
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

	for (size_t i = 0; i < o->c.nkernels; i++) {
		const struct campaign_kernel *k = &o->c.kernels[i];

		unmeasured |= !k->bootable || k->failed == (unsigned)o->c.boots;
		failed |= !k->bootable || k->failed > 0;
	}
	if (o->fail_on != GATE_NONE)
		return unmeasured ? 125 : caught ? 1 : 0;
	return failed ? 1 : 0;
}

/* What the campaign tells, on stderr: escaped, as it quotes consoles. */
static void tell(void *ctx, enum campaign_tone tone, const char *line)
{
	(void)ctx;
	if (tone == CAMPAIGN_ERROR)
		error_msg("%s", line);
	else if (tone == CAMPAIGN_WARNING)
		warn_msg("%s", line);
	else
		text_line(stderr, "%s", line);
}

/*
 * What the boots brought, printed: a line per kernel, a checking
 * command's matrix, the comparison. The exit status.
 */
static int print_campaign(struct kernels_cli *o, struct store *st, const char *command)
{
	struct kernels_column cols[KERNELS_MAX];
	size_t n = o->c.nkernels;
	int caught = 0;

	campaign_columns(&o->c, cols);
	kernels_summary_print(stdout, cols, n, o->c.boots);
	/*
	 * A failed check, or a problem doctor found, is a bad kernel for
	 * git bisect run, as a worse cell is.
	 */
	if (streq(command, "verify"))
		caught += print_gate_catch(o, "verify", "check failed", "checks failed",
					   kernels_check_matrix_print(stdout, cols, n,
								      &o->c.checks));
	if (streq(command, "vdso"))
		kernels_vdso_matrix_print(stdout, cols, n);
	for (size_t i = 0; i < n; i++)
		caught += print_gate_catch(o, o->c.kernels[i].name,
					   "boot where doctor found a problem",
					   "boots where doctor found a problem",
					   o->c.kernels[i].problems);
	return compare_kernels(o, st, command, &caught) ? 1 : exit_status(o, caught);
}

int cmd_kernels(int argc, char **argv)
{
	struct kernels_cli o = { 0 };
	char dbpath[PATH_MAX];
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	int n, rc = 1;

	n = parse_kernels_options(argc, argv, &o);
	if (n < 0 || check_guest_command(&o, argv, n) != 0) {
		campaign_free(&o.c);
		return parse_options_status(n < 0 ? n : OPTIONS_ERROR);
	}
	o.c.cmd = argv;
	o.c.ncmd = (size_t)n;
	o.c.store = &o.store;
	o.c.tell = tell;
	if (campaign_check(&o.c, &err) != 0)
		goto fail;
	if (campaign_read_images(&o.c) == 0)
		goto out;	/* each kernel was told why */
	if (campaign_find_machine(&o.c, &err) != 0)
		goto fail;
	st = record_open(&o.store, STORE_WRITE, dbpath, sizeof(dbpath));
	if (!st)
		goto out;
	if (campaign_run(&o.c, st, &err) != 0) {
		rc = o.c.usage_error ? EXIT_USAGE : 128 + campaign_stop_signal;
		goto fail;
	}
	rc = print_campaign(&o, st, argv[0]);
	goto out;
fail:
	error_msg("%s", err.buf);
out:
	store_close(st);
	campaign_free(&o.c);
	return rc;
}
