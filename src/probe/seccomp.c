// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/seccomp.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The audit architecture of this build's system call ABI. */
#if defined(__x86_64__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_X86_64
#define PROBE_NR_MASK (~0x40000000u)	/* x32 calls set __X32_SYSCALL_BIT */
#elif defined(__i386__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__) && !defined(__ARMEB__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_PPC64
#elif defined(__powerpc__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_PPC
#elif defined(__riscv) && __riscv_xlen == 64
#define PROBE_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__riscv) && __riscv_xlen == 32
#define PROBE_AUDIT_ARCH AUDIT_ARCH_RISCV32
#elif defined(__s390x__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_S390X
#elif defined(__s390__)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_S390
#elif defined(__loongarch64) && defined(AUDIT_ARCH_LOONGARCH64)
#define PROBE_AUDIT_ARCH AUDIT_ARCH_LOONGARCH64
#endif

#ifndef PROBE_NR_MASK
#define PROBE_NR_MASK (~0u)
#endif

#define DEFAULT_TIMEOUT_S 10

/* Shared between the child, which fills it, and the parent, which reads it. */
struct probe_shared {
	long syscalls[SECCOMP_PROBE_MAX];
	size_t nsyscalls;
	unsigned long hits[SECCOMP_PROBE_MAX];
	unsigned long foreign;
	int fn_status;
	int done;		/* fn returned */
	int setup_errno;	/* the filter could not be installed */
	char setup_step[48];
};

/* The child's shared page, for the SIGSYS handler. */
static struct probe_shared *child_shared;

bool seccomp_probe_supported(void)
{
#ifdef PROBE_AUDIT_ARCH
	return true;
#else
	return false;
#endif
}

/*
 * Make the trapped call fail with EPERM, as a seccomp policy would, so that
 * the caller takes its error path instead of using whatever the rolled-back
 * registers hold. Not ENOSYS: glibc answers ENOSYS from the vDSO by making
 * the system call again, which would count one call twice. Architectures
 * not listed keep the registers: the probe only counts.
 */
static void fail_trapped_call(void *ucv)
{
	ucontext_t *uc = ucv;

#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__i386__)
	uc->uc_mcontext.gregs[REG_EAX] = -EPERM;
#elif defined(__aarch64__)
	uc->uc_mcontext.regs[0] = (unsigned long)-EPERM;
#elif defined(__arm__)
	uc->uc_mcontext.arm_r0 = (unsigned long)-EPERM;
#else
	(void)uc;
#endif
}

/* Async-signal-safe: atomics and plain reads of the shared page only. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	struct probe_shared *sh = child_shared;
	unsigned int nr = (unsigned int)si->si_syscall & PROBE_NR_MASK;

	(void)sig;
#ifdef PROBE_AUDIT_ARCH
	if (si->si_arch != PROBE_AUDIT_ARCH) {
		__atomic_fetch_add(&sh->foreign, 1, __ATOMIC_RELAXED);
		fail_trapped_call(uc);
		return;
	}
#endif
	for (size_t i = 0; i < sh->nsyscalls; i++) {
		if ((unsigned int)sh->syscalls[i] == nr)
			__atomic_fetch_add(&sh->hits[i], 1, __ATOMIC_RELAXED);
	}
	fail_trapped_call(uc);
}

#ifdef PROBE_AUDIT_ARCH
/*
 * A foreign ABI (int 0x80 from x86_64, say) is trapped whatever its number:
 * its numbers mean other calls, and no C library uses one by accident.
 * Then each listed number jumps to TRAP; anything else is allowed.
 */
static size_t build_filter(struct sock_filter *f, const long *nrs, size_t n)
{
	size_t k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					      PROBE_AUDIT_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	if (PROBE_NR_MASK != ~0u)
		f[k++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
						      PROBE_NR_MASK);
	for (size_t i = 0; i < n; i++)
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned int)nrs[i],
						      (unsigned char)(n - i), 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	return k;
}
#endif

static int child_setup_failed(struct probe_shared *sh, const char *step)
{
	sh->setup_errno = errno ? errno : EINVAL;
	snprintf(sh->setup_step, sizeof(sh->setup_step), "%s", step);
	return -1;
}

static int install_trap(struct probe_shared *sh)
{
#ifdef PROBE_AUDIT_ARCH
	struct sock_filter filter[SECCOMP_PROBE_MAX + 8];
	struct sock_fprog prog;
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return child_setup_failed(sh, "sigaction(SIGSYS)");
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);

	prog.len = (unsigned short)build_filter(filter, sh->syscalls, sh->nsyscalls);
	prog.filter = filter;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return child_setup_failed(sh, "prctl(PR_SET_NO_NEW_PRIVS)");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		return child_setup_failed(sh, "prctl(PR_SET_SECCOMP)");
	return 0;
#else
	errno = ENOSYS;
	return child_setup_failed(sh, "no seccomp audit arch for this build");
#endif
}

static void run_child(const struct seccomp_probe *p, struct probe_shared *sh)
{
	child_shared = sh;
	signal(SIGALRM, SIG_DFL);
	alarm(p->timeout_s ? p->timeout_s : DEFAULT_TIMEOUT_S);
	if (p->prepare)
		p->prepare(p->ctx);
	if (install_trap(sh) != 0)
		_exit(1);
	sh->fn_status = p->fn(p->ctx);
	__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
	/* exit_group is never trapped; _exit skips the parent's atexit work. */
	_exit(0);
}

static void describe_failure(const struct seccomp_probe *p,
			     const struct probe_shared *sh, int status,
			     struct seccomp_report *r)
{
	unsigned int timeout = p->timeout_s ? p->timeout_s : DEFAULT_TIMEOUT_S;

	if (sh->setup_errno)
		snprintf(r->error, sizeof(r->error), "%s: %s", sh->setup_step,
			 strerror(sh->setup_errno));
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(r->error, sizeof(r->error), "timed out after %u s", timeout);
	else if (WIFSIGNALED(status))
		snprintf(r->error, sizeof(r->error), "the child died of signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(r->error, sizeof(r->error),
			 "the child exited with status %d before finishing",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void copy_report(const struct probe_shared *sh, struct seccomp_report *r)
{
	for (size_t i = 0; i < sh->nsyscalls; i++) {
		r->hits[i] = sh->hits[i];
		r->total += sh->hits[i];
	}
	r->foreign = sh->foreign;
	r->total += sh->foreign;
	r->fn_status = sh->fn_status;
}

int seccomp_probe_run(const struct seccomp_probe *p, struct seccomp_report *r)
{
	struct probe_shared *sh;
	int status = 0, rc = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (p->nsyscalls > SECCOMP_PROBE_MAX || !p->fn) {
		snprintf(r->error, sizeof(r->error), "bad probe: %zu system calls "
			 "(at most %d) or no function", p->nsyscalls, SECCOMP_PROBE_MAX);
		return -1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(r->error, sizeof(r->error), "mmap: %s", strerror(errno));
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	memcpy(sh->syscalls, p->syscalls, p->nsyscalls * sizeof(long));
	sh->nsyscalls = p->nsyscalls;

	pid = fork();
	if (pid < 0) {
		snprintf(r->error, sizeof(r->error), "fork: %s", strerror(errno));
	} else if (pid == 0) {
		run_child(p, sh);
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		    __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE)) {
			copy_report(sh, r);
			rc = 0;
		} else {
			describe_failure(p, sh, status, r);
		}
	}
	munmap(sh, sizeof(*sh));
	return rc;
}
