// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/util.h"
#include "vm/qemu.h"

/* How often the wait looks at the stop flag. */
#define VM_POLL_MS 100

const char *vm_accel_name(enum vm_accel accel)
{
	switch (accel) {
	case VM_ACCEL_KVM:
		return "kvm";
	case VM_ACCEL_TCG:
		return "tcg";
	default:
		return "auto";
	}
}

struct argv_builder {
	char **v;
	size_t n, cap;
};

static void arg(struct argv_builder *a, const char *fmt, ...) _printf_(2, 3);
static void arg(struct argv_builder *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	grow_array((void **)&a->v, &a->cap, a->n + 2, sizeof(*a->v));
	a->v[a->n++] = strbuf_detach(&sb);
	a->v[a->n] = NULL;
}

char **vm_qemu_argv(const struct vm_machine *m, const struct vm_boot *b)
{
	struct argv_builder a = { 0 };

	arg(&a, "%s", m->qemu);
	/* No default devices, no config file, no monitor: only what we name. */
	arg(&a, "-nodefaults");
	arg(&a, "-no-user-config");
	arg(&a, "-display");
	arg(&a, "none");
	arg(&a, "-no-reboot");
	/* Whose qemu this is, for ps and pgrep: no path, no user's text. */
	arg(&a, "-name");
	arg(&a, "clockbench-%ld", (long)getpid());
	arg(&a, "-accel");
	arg(&a, "%s", m->accel == VM_ACCEL_KVM ? "kvm" : "tcg");
	if (m->exact) {
		arg(&a, "-icount");
		arg(&a, "%s", VM_ICOUNT);
	}
	for (const char *const *p = vm_arch_info(m->arch)->machine; *p; p++)
		arg(&a, "%s", *p);
	if (m->arch == VM_ARCH_X86_64) {
		arg(&a, "-cpu");
		arg(&a, "%s", m->accel == VM_ACCEL_KVM ? "host" : "max");
	}
	arg(&a, "-smp");
	arg(&a, "%u", m->cpus);
	arg(&a, "-m");
	arg(&a, "%u", m->memory_mb);
	arg(&a, "-kernel");
	if (b->kernel_fd >= 0)
		arg(&a, "/dev/fd/%d", VM_FD_KERNEL);
	else
		arg(&a, "%s", b->kernel);
	arg(&a, "-initrd");
	arg(&a, "/dev/fd/%d", VM_FD_INITRD);
	arg(&a, "-append");
	arg(&a, "%s", b->append);
	arg(&a, "-chardev");
	arg(&a, "file,id=console,path=/dev/fd/%d", VM_FD_CONSOLE);
	arg(&a, "-serial");
	arg(&a, "chardev:console");
	/* One UART (arm64's virt): the result comes on the console (vm/arch.h). */
	if (!vm_arch_info(m->arch)->data_on_console) {
		arg(&a, "-chardev");
		arg(&a, "file,id=data,path=/dev/fd/%d", VM_FD_DATA);
		arg(&a, "-serial");
		arg(&a, "chardev:data");
	}
	return a.v;
}

void vm_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/* fd at a number of its own above the ones the child gives out. */
static int lift(int fd)
{
	return fcntl(fd, F_DUPFD_CLOEXEC, 64);
}

/*
 * In the child: its own process group (a signal to the group reaches
 * anything qemu starts), killed when clockbench dies, stdin from
 * /dev/null, stdout and stderr to the log, the boot's files at
 * VM_FD_INITRD... Never returns.
 */
static _noreturn_ void exec_qemu(char **argv, const struct vm_boot *b, pid_t parent)
{
	int initrd = lift(b->initrd), console = lift(b->console);
	int data = lift(b->data), log = lift(b->log);
	int kernel = b->kernel_fd >= 0 ? lift(b->kernel_fd) : -2;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	/* dup2 clears close-on-exec on the copies: only these reach qemu. */
	if (initrd < 0 || console < 0 || data < 0 || log < 0 || null < 0 ||
	    dup2(null, STDIN_FILENO) < 0 || dup2(log, STDOUT_FILENO) < 0 ||
	    dup2(log, STDERR_FILENO) < 0 || dup2(initrd, VM_FD_INITRD) < 0 ||
	    dup2(console, VM_FD_CONSOLE) < 0 || dup2(data, VM_FD_DATA) < 0 ||
	    kernel == -1 || (kernel >= 0 && dup2(kernel, VM_FD_KERNEL) < 0))
		_exit(127);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

const char *vm_qemu_version(const char *qemu, char *buf, size_t len)
{
	struct strbuf out = STRBUF_INIT;
	int fd = vm_file_new("qemu-version"), status;
	pid_t pid;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
		    dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		execlp(qemu, qemu, "-version", (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (vm_file_read(fd, 4096, &out) == 0 && out.len)
			snprintf(buf, len, "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
	}
	close(fd);
	strbuf_release(&out);
	return buf;
}

int vm_file_new(const char *name)
{
	return memfd_create(name, MFD_CLOEXEC);
}

int vm_file_read(int fd, size_t max, struct strbuf *sb)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;

	strbuf_reset(sb);
	while ((size_t)off < max &&
	       (n = pread(fd, buf, sizeof(buf) < max - (size_t)off ?
			  sizeof(buf) : max - (size_t)off, off)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		strbuf_add(sb, buf, (size_t)n);
		off += n;
	}
	return 0;
}

static int pidfd_open_pid(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/*
 * The console, read as it grows for the line a panicking kernel prints:
 * with panic=0 (or a delay) on its command line a kernel that panicked
 * sits there until the timeout, 600 s, where the line came at 3 s. What
 * is read is what qemu wrote to the file; each look reads at most
 * PANIC_SCAN_MAX of it, so a console that floods costs bounded work.
 */
#define PANIC_SCAN_MAX (1u << 20)
static const char panic_text[] = "Kernel panic - not syncing";

struct panic_watch {
	int fd;
	off_t off;			/* read up to here */
	char carry[sizeof(panic_text)];	/* the end of what was read */
	size_t ncarry;
};

static bool console_panicked(struct panic_watch *w)
{
	char buf[sizeof(w->carry) + 4096];
	size_t scanned = 0;

	while (w->fd >= 0 && scanned < PANIC_SCAN_MAX) {
		ssize_t n;
		size_t len;

		memcpy(buf, w->carry, w->ncarry);
		n = pread(w->fd, buf + w->ncarry, sizeof(buf) - w->ncarry, w->off);
		if (n <= 0)
			return false;
		len = w->ncarry + (size_t)n;
		w->off += n;
		scanned += (size_t)n;
		if (memmem(buf, len, panic_text, sizeof(panic_text) - 1))
			return true;
		w->ncarry = len < sizeof(w->carry) ? len : sizeof(w->carry);
		memcpy(w->carry, buf + len - w->ncarry, w->ncarry);
	}
	return false;
}

/* Wait for pid until the deadline, *stop or a panic: how it ended. */
static enum vm_end wait_qemu(pid_t pid, double deadline_ns, int console,
			     const volatile sig_atomic_t *stop, int *status)
{
	struct panic_watch panic = { .fd = console };
	int pfd = pidfd_open_pid(pid);
	enum vm_end end = VM_POWERED_OFF;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		bool panicked = false;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			*status = 0;
			end = VM_QEMU_FAILED;
			break;
		}
		if ((stop && *stop) || (double)now_ns() >= deadline_ns ||
		    (panicked = console_panicked(&panic))) {
			end = stop && *stop ? VM_INTERRUPTED :
			      panicked ? VM_PANICKED : VM_TIMED_OUT;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if (pfd >= 0) {
			struct pollfd p = { .fd = pfd, .events = POLLIN };

			poll(&p, 1, VM_POLL_MS);
		} else {
			usleep(VM_POLL_MS * 1000);
		}
	}
	if (pfd >= 0)
		close(pfd);
	if (end == VM_POWERED_OFF &&
	    !(WIFEXITED(*status) && WEXITSTATUS(*status) == 0))
		end = VM_QEMU_FAILED;
	return end;
}

int vm_run(const struct vm_machine *m, const struct vm_boot *b,
	   const volatile sig_atomic_t *stop, struct vm_outcome *out,
	   struct strbuf *err)
{
	char **argv = vm_qemu_argv(m, b);
	pid_t parent = getpid(), pid;
	uint64_t t0 = now_ns();

	memset(out, 0, sizeof(*out));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		strbuf_setf(err, "cannot start %s: %s", m->qemu, strerror(errno));
		vm_argv_free(argv);
		return -1;
	}
	if (pid == 0)
		exec_qemu(argv, b, parent);
	vm_argv_free(argv);
	/* The parent sets the group too: no signal can race the child's own. */
	setpgid(pid, pid);
	out->end = wait_qemu(pid, (double)t0 + m->timeout_s * 1e9, b->console, stop,
			     &out->status);
	out->wall_s = (double)(now_ns() - t0) / 1e9;
	return 0;
}
