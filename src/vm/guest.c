// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "probe/vdso.h"
#include "basic/json.h"
#include "basic/text.h"
#include "vm/arch.h"
#include "vm/frame.h"
#include "vm/guest.h"
#include "vm/result.h"

#define GUEST_OUTPUT "/tmp/output"
#define GUEST_EXPORT "/tmp/export.json"
#define GUEST_ARGS_MAX (64u << 10)
/* syslog(2)'s SYSLOG_ACTION_CONSOLE_LEVEL, which glibc does not name. */
#define KLOG_CONSOLE_LEVEL 8

static void say(const char *fmt, ...) _printf_(1, 2);
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs(GUEST_SAYS, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void mount_one(const char *type, const char *dir, bool needed)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, MS_NOSUID, NULL) != 0 && errno != EBUSY &&
	    needed)
		say("cannot mount %s on %s: %s", type, dir, strerror(errno));
}

/* The console on fds 0-2, also when the kernel found no /dev/console. */
static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

static void mount_all(void)
{
	mount_one("proc", "/proc", true);
	mount_one("sysfs", "/sys", true);
	mount_one("devtmpfs", "/dev", true);
	open_console();
	mount_one("tmpfs", "/tmp", true);
	/* hotplug's per-state timing; absent from some kernels. */
	mount_one("tracefs", "/sys/kernel/tracing", false);
}

/* GUEST_ARGS as an argv of "clockbench" and the arguments; NULL if none. */
static char **read_args(void)
{
	size_t len, n = 1, cap = 0;
	char **argv = NULL;
	struct stat st;
	char *buf;
	int fd = open(GUEST_ARGS, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || st.st_size <= 0 ||
	    (size_t)st.st_size > GUEST_ARGS_MAX) {
		close(fd);
		return NULL;
	}
	len = (size_t)st.st_size;
	buf = xmalloc(len + 1);
	if (fd_read_all(fd, buf, len, -1) != 0) {
		close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	buf[len] = '\0';
	grow_array((void **)&argv, &cap, 2, sizeof(*argv));
	argv[0] = xstrdup("clockbench");
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
		grow_array((void **)&argv, &cap, n + 2, sizeof(*argv));
		argv[n++] = xstrdup(buf + i);
	}
	argv[n] = NULL;
	free(buf);
	return argv;
}

/* Run /init (this program, as a command) with argv, output to path. */
static int run_child(char **argv, const char *path, int *status)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		if (!streq(path, GUEST_EXPORT) && dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		setenv("CLOCKBENCH_DB", "/tmp/results.db", 1);
		setenv("XDG_STATE_HOME", "/tmp/state", 1);
		setenv("HOME", "/tmp", 1);
		setenv("PATH", "/", 1);
		execv("/init", argv);
		_exit(127);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static json_t *status_json(int status)
{
	if (WIFEXITED(status))
		return json_pack("{s:i}", "exit", WEXITSTATUS(status));
	return json_pack("{s:i}", "signal", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/*
 * A text file as a JSON string the host accepts (vm/result.h): control
 * characters but newlines and tabs become '?', and so does every byte
 * when the text is not UTF-8.
 */
static json_t *file_string(const char *path, size_t max)
{
	char *s = read_text_file(path, max);
	json_t *j;

	if (!s)
		return json_null();
	for (char *p = s; (p = (char *)text_find_control(p)); p++) {
		if (*p == '\n' || *p == '\t')
			continue;
		if ((unsigned char)*p == 0xc2)
			*p++ = '?';	/* a C1 control: both of its bytes */
		*p = '?';
	}
	j = json_string(s);
	if (!j) {
		for (char *p = s; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		j = json_string(s);
	}
	free(s);
	return j ? j : json_null();
}

static double boottime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Each function name once, as many as the host takes (vm/result.h). */
static int add_vdso_function(const struct vdso_symbol *sym, void *ctx)
{
	struct guest_facts *f = ctx;

	if (!sym->is_func || f->nvdso == GUEST_NAMES_MAX ||
	    strlen(sym->name) > GUEST_NAME_MAX)
		return 0;
	for (size_t i = 0; i < f->nvdso; i++)
		if (streq(f->vdso_functions[i], sym->name))
			return 0;
	f->vdso_functions[f->nvdso++] = xstrdup(sym->name);
	return 0;
}

/* The functions the guest kernel's vDSO exports, whatever the command. */
static void vdso_functions(struct guest_facts *f)
{
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	f->vdso_functions = xcalloc(GUEST_NAMES_MAX + 1, sizeof(char *));
	if (vdso_self(&img, &err) == 0)
		vdso_foreach_symbol(&img, add_vdso_function, f);
}

#define GUEST_CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
/* How long the guest waits for its kernel to leave a stand-in clocksource. */
#define GUEST_SETTLE_S 10.0

static bool clocksource_is_stand_in(void)
{
	char cs[128] = "";

	read_line_file(GUEST_CLOCKSOURCE, cs, sizeof(cs));
	return str_endswith(cs, "-early");
}

/*
 * x86 kernels boot on "tsc-early" and replace it about a second after the
 * TSC registers, from a work item that refines its calibration: by "tsc",
 * or, when the TSC is found unstable, by the next best clocksource. Under
 * qemu's TCG /init can be reached before that: a command started then
 * measures across the switch and records a clocksource the kernel is about
 * to drop (doctor saw "tsc-early" on a 6.1 booted with tsc=reliable). So
 * the command waits for the kernel's own choice, up to GUEST_SETTLE_S;
 * how long it waited is one of the guest's facts.
 */
static double wait_clocksource_settled(void)
{
	const struct timespec poll = { .tv_nsec = 10 * 1000 * 1000 };
	double t0 = boottime_s(), waited = 0;

	while (clocksource_is_stand_in() && waited < GUEST_SETTLE_S) {
		nanosleep(&poll, NULL);
		waited = boottime_s() - t0;
	}
	if (clocksource_is_stand_in())
		say("the clocksource is still a stand-in after %.0f s: measuring on it",
		    GUEST_SETTLE_S);
	return waited;
}

/* A line of a file, as a fact: "" when it cannot be read. */
static char *fact_line(const char *path, size_t max)
{
	char *buf = xcalloc(1, max + 1);

	read_line_file(path, buf, max + 1);
	return buf;
}

/* What the host records of the guest: its kernel and how it booted. */
static json_t *guest_facts(double booted_s, double settle_s)
{
	struct guest_facts f = {
		.init_reached_s = booted_s, .clocksource_wait_s = settle_s,
		.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN),
	};
	struct utsname u;
	json_t *j;

	uname(&u);
	f.release = xstrdup(u.release);
	f.version = xstrdup(u.version);
	f.clocksource = fact_line(GUEST_CLOCKSOURCE, 127);
	f.available_clocksources = fact_line(
		"/sys/devices/system/clocksource/clocksource0/available_clocksource", 511);
	f.cmdline = fact_line("/proc/cmdline", 4095);
	vdso_functions(&f);
	j = guest_facts_json(&f);
	free(f.release);
	free(f.version);
	free(f.clocksource);
	free(f.available_clocksources);
	free(f.cmdline);
	for (size_t i = 0; i < f.nvdso; i++)
		free(f.vdso_functions[i]);
	free(f.vdso_functions);
	return j;
}

/*
 * The command's stored runs, as `clockbench export --all` wrote them, into
 * out as they are: the host reads the file with its export reader.
 */
static void exported_runs(struct strbuf *out, json_t *manifest)
{
	static char arg0[] = "clockbench", arg1[] = "export", arg2[] = "--format",
		    arg3[] = "json", arg4[] = "--all";
	char *argv[] = { arg0, arg1, arg2, arg3, arg4, NULL };
	struct stat st;
	char *text;
	int status;

	if (access("/tmp/results.db", F_OK) != 0)
		return;
	if (run_child(argv, GUEST_EXPORT, &status) != 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		say("export of the stored runs failed");
		json_object_set_new(manifest, "error",
				    json_string("the export of the stored runs failed"));
		return;
	}
	if (stat(GUEST_EXPORT, &st) != 0 ||
	    (size_t)st.st_size > GUEST_RESULT_MAX - GUEST_MANIFEST_MAX) {
		say("the stored runs are too large to send");
		json_object_set_new(manifest, "error", json_string("the stored "
				    "runs are more than the host accepts: take fewer "
				    "samples (--budget, --rounds)"));
		return;
	}
	text = read_text_file(GUEST_EXPORT, (size_t)st.st_size);
	if (text)
		strbuf_adds(out, text);
	free(text);
}

/* MANIFEST '\0' EXPORT, as one frame on the data port. */
static void send_frame(json_t *manifest, const struct strbuf *export)
{
	const struct vm_arch_info *arch = vm_arch_info(vm_arch_host());
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, payload = STRBUF_INIT;
	struct strbuf frame = STRBUF_INIT;
	char *text = json_encode(manifest, JSON_COMPACT);
	struct termios t;
	int fd;

	if (!text) {
		say("cannot encode the result: out of memory");
		return;
	}
	strbuf_adds(&payload, text);
	strbuf_addch(&payload, '\0');
	strbuf_add(&payload, export->buf, export->len);
	free(text);
	if (frame_encode(payload.buf, payload.len, &frame, &err)) {
		say("cannot encode the result: %s", err.buf);
		return;
	}
	/* One UART: the kernel's messages must not cut into the frame. */
	if (arch->data_on_console)
		klogctl(KLOG_CONSOLE_LEVEL, NULL, 1);
	fd = open(arch->data_port, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		say("cannot open %s: %s", arch->data_port, strerror(errno));
		strbuf_release(&frame);
		return;
	}
	/* Raw: no newline translation, every byte as it is. */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	say("sending %zu bytes", frame.len);
	if (fd_write_all(fd, frame.buf, frame.len) != 0)
		say("cannot write %s: %s", arch->data_port, strerror(errno));
	tcdrain(fd);
	close(fd);
	strbuf_release(&frame);
}

void guest_init(void)
{
	_cleanup_strbuf_ struct strbuf export = STRBUF_INIT;
	double booted_s = boottime_s(), settle_s;
	json_t *manifest;
	char **argv;
	int status = 0;

	mount_all();
	settle_s = wait_clocksource_settled();
	argv = read_args();
	manifest = json_pack("{s:i}", "clockbench_guest", GUEST_MANIFEST_VERSION);
	json_object_set_new(manifest, "guest", guest_facts(booted_s, settle_s));
	if (!argv) {
		say("no command in %s", GUEST_ARGS);
		json_object_set_new(manifest, "error",
				    json_string("no command in " GUEST_ARGS));
	} else {
		fprintf(stderr, GUEST_RUNNING "%s\n", argv[1] ? argv[1] : "");
		double t0 = boottime_s();

		if (run_child(argv, GUEST_OUTPUT, &status) != 0) {
			json_object_set_new(manifest, "error",
					    json_string("cannot start the command"));
		} else {
			json_object_set_new(manifest, "status", status_json(status));
			json_object_set_new(manifest, "command_s",
					    json_real(boottime_s() - t0));
			json_object_set_new(manifest, "output",
					    file_string(GUEST_OUTPUT, GUEST_OUTPUT_MAX));
			exported_runs(&export, manifest);
		}
	}
	send_frame(manifest, &export);
	json_decref(manifest);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
