// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/text.h"
#include "basic/util.h"

/* ---- what an interrupting signal undoes ------------------------------- */

/*
 * Set before the signals that read them are unblocked, read by the
 * handler only: a path is complete before its flag says so.
 */
static char staging_dir[PATH_MAX];
static char temp_path[PATH_MAX];
static volatile sig_atomic_t staging_set, temp_set, child_pid;

static const int interrupting[] = { SIGTERM, SIGINT, SIGHUP };
static struct sigaction saved_actions[ARRAY_SIZE(interrupting)];
static unsigned guard_depth;

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Empty dir (files only: a staging directory holds nothing else) and
 * remove it. Async-signal-safe: getdents64 and unlinkat, no opendir().
 */
static void remove_dir_files(const char *dir)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
				unlinkat(fd, d->d_name, 0);
			off += d->d_reclen;
		}
	}
	close(fd);
	rmdir(dir);
}

static void stop_child(void)
{
	pid_t pid = (pid_t)child_pid;

	if (pid <= 0)
		return;
	/* Its own process group: gnuplot and anything it started. */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
}

static void on_interrupt(int sig)
{
	stop_child();
	if (temp_set)
		unlink(temp_path);
	if (staging_set)
		remove_dir_files(staging_dir);
	/* 128 + the signal, as an interrupted measuring command exits (cli/measure.c). */
	_exit(128 + sig);
}

static void block_interrupts(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(interrupting); i++)
		sigaddset(&set, interrupting[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void guard_enter(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };

	if (guard_depth++)
		return;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(interrupting); i++)
		sigaddset(&sa.sa_mask, interrupting[i]);
	for (size_t i = 0; i < ARRAY_SIZE(interrupting); i++) {
		sigaction(interrupting[i], NULL, &saved_actions[i]);
		/* A signal the caller ignores (nohup) stays ignored. */
		if (saved_actions[i].sa_handler != SIG_IGN)
			sigaction(interrupting[i], &sa, NULL);
	}
}

static void guard_leave(void)
{
	if (!guard_depth || --guard_depth)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(interrupting); i++)
		sigaction(interrupting[i], &saved_actions[i], NULL);
}

int outfile_staging_create(char *dir, size_t len, struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	sigset_t old;
	int rc = 0;

	if (!tmp || *tmp != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(staging_dir, sizeof(staging_dir), "%s/clockbench-XXXXXX",
			     tmp) >= sizeof(staging_dir) || strlen(staging_dir) >= len) {
		strbuf_addf(err, "cannot make a directory in %s: %s", tmp,
			    strerror(ENAMETOOLONG));
		return -1;
	}
	guard_enter();
	block_interrupts(&old);
	if (mkdtemp(staging_dir)) {
		staging_set = 1;
		memcpy(dir, staging_dir, strlen(staging_dir) + 1);
	} else {
		strbuf_addf(err, "cannot make a directory in %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc)
		guard_leave();
	return rc;
}

void outfile_staging_remove(const char *dir)
{
	sigset_t old;

	block_interrupts(&old);
	remove_dir_files(dir);
	staging_set = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	guard_leave();
}

void outfile_staging_child(pid_t pid)
{
	child_pid = pid;
}

/* ---- names -------------------------------------------------------------- */

int outfile_check_name(const char *option, const char *path, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf shown = STRBUF_INIT;

	/* What text escaping would change cannot be shown, nor put in a script. */
	strbuf_add_text(&shown, path, TEXT_MESSAGE_MAX);
	if (streq(shown.buf, path))
		return 0;
	strbuf_addf(err, "%s '%s': the name holds a control or invisible character; "
		    "choose another", option, shown.buf);
	return -1;
}

/* ---- writing ------------------------------------------------------------ */

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;	/* a write that makes no progress */
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fail(struct strbuf *err, const char *path, const char *reason)
{
	strbuf_addf(err, "cannot write %s: %s", path, reason);
	return -1;
}

/* A device or FIFO: written through, opened without O_CREAT or O_TRUNC. */
static int write_through(const char *path, bool via_link, const char *data,
			 size_t len, struct strbuf *err)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (via_link ? 0 : O_NOFOLLOW));
	struct stat st;
	int saved;

	if (fd < 0)
		return fail(err, path, strerror(errno));
	/* Swapped for something else since lstat(): write nothing into it. */
	if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		return fail(err, path, "changed while being opened");
	}
	if (write_all(fd, data, len) != 0) {
		saved = errno;
		close(fd);
		return fail(err, path, strerror(saved));
	}
	if (close(fd) != 0)
		return fail(err, path, strerror(errno));
	return 0;
}

/* ".NAME.XXXXXX" beside NAME, as a template in temp_path. */
static int temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	/* A 255-byte name still leaves room for ".", ".XXXXXX". */
	int namelen = strlen(name) > 200 ? 200 : (int)strlen(name);

	return (size_t)snprintf(temp_path, sizeof(temp_path), "%.*s.%.*s.XXXXXX",
				dirlen, path, namelen, name) < sizeof(temp_path) ? 0 : -1;
}

/* A new name or a regular file: a whole new file renamed over it. */
static int replace_atomically(const char *path, const char *data, size_t len,
			      struct strbuf *err)
{
	mode_t mask = umask(0);
	sigset_t old;
	int fd, saved = 0;

	umask(mask);
	guard_enter();
	block_interrupts(&old);
	fd = temp_name(path) == 0 ? mkostemp(temp_path, O_CLOEXEC) : (errno = ENAMETOOLONG, -1);
	if (fd >= 0)
		temp_set = 1;
	else
		saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		guard_leave();
		return fail(err, path, strerror(saved));
	}
	if (write_all(fd, data, len) != 0 || fchmod(fd, 0666 & ~mask) != 0 ||
	    fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && rename(temp_path, path) != 0)
		saved = errno;
	block_interrupts(&old);
	if (saved)
		unlink(temp_path);
	temp_set = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	guard_leave();
	return saved ? fail(err, path, strerror(saved)) : 0;
}

/*
 * A side file clockbench wrote for this output: its first line is the
 * first line of what replaces it ("# Drawn by clockbench; ... NAME.gp").
 */
static bool written_by_us(const char *path, const char *data, size_t len)
{
	const char *nl = memchr(data, '\n', len);
	size_t first = nl ? (size_t)(nl - data) + 1 : len;
	char buf[512];
	ssize_t n;
	int fd;

	if (first > sizeof(buf) || first == 0)
		return false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, first);
	close(fd);
	return n == (ssize_t)first && memcmp(buf, data, first) == 0;
}

/*
 * The descriptor a name of this process's open files stands for
 * ("/dev/stdout", "/dev/fd/N", "/proc/self/fd/N"), following the links
 * that lead to one (/dev/stdout -> /proc/self/fd/1); -1 for any other path.
 */
static int own_fd(const char *path)
{
	char buf[PATH_MAX], pid_prefix[48];
	const char *p = path;
	unsigned hops = 0;

	snprintf(pid_prefix, sizeof(pid_prefix), "/proc/%d/fd/", (int)getpid());
	for (;;) {
		static const char *const prefixes[] = {
			"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
		};
		const char *num = NULL;
		char *end;
		long fd;
		ssize_t n;

		if (streq(p, "/dev/stdout"))
			return STDOUT_FILENO;
		if (streq(p, "/dev/stderr"))
			return STDERR_FILENO;
		for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !num; i++)
			if (!strncmp(p, prefixes[i], strlen(prefixes[i])))
				num = p + strlen(prefixes[i]);
		if (!num && !strncmp(p, pid_prefix, strlen(pid_prefix)))
			num = p + strlen(pid_prefix);
		if (num) {
			errno = 0;
			fd = strtol(num, &end, 10);
			return *num && !*end && !errno && fd >= 0 && (long)(int)fd == fd &&
			       fcntl((int)fd, F_GETFD) >= 0 ? (int)fd : -1;
		}
		/* An absolute link's target only: enough for the names above. */
		if (++hops > 8 || (n = readlink(p, buf, sizeof(buf) - 1)) <= 0 || buf[0] != '/')
			return -1;
		buf[n] = '\0';
		p = buf;
	}
}

static int write_fd(int fd, const char *path, const char *data, size_t len,
		    struct strbuf *err)
{
	return write_all(fd, data, len) == 0 ? 0 : fail(err, path, strerror(errno));
}

/* What writing to path means; -1 with err when it is refused. */
enum action { WRITE_NEW, WRITE_THROUGH, WRITE_THROUGH_LINK, WRITE_OWN_FD };

static int classify(const char *path, const char *data, size_t len, unsigned flags,
		    struct strbuf *err)
{
	struct stat st, target;

	if (own_fd(path) >= 0)
		return WRITE_OWN_FD;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return fail(err, path, strerror(errno));
		return WRITE_NEW;
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &target) == 0 &&
		    (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
			return WRITE_THROUGH_LINK;
		return fail(err, path, "a symbolic link; clockbench writes through "
			    "links only to devices and FIFOs: give the path it leads to");
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return WRITE_THROUGH;
	if (S_ISDIR(st.st_mode))
		return fail(err, path, strerror(EISDIR));
	if (!S_ISREG(st.st_mode))
		return fail(err, path, "not a regular file, a character device or a FIFO");
	if ((flags & OUTFILE_SIDE) && !(flags & OUTFILE_FORCE) &&
	    !written_by_us(path, data, len))
		return fail(err, path, "it exists and clockbench did not write it; "
			    "remove it or use --force to replace it");
	return WRITE_NEW;
}

int outfile_check(const char *path, const char *data, size_t len, unsigned flags,
		  struct strbuf *err)
{
	return classify(path, data, len, flags, err) < 0 ? -1 : 0;
}

int outfile_write_flags(const char *path, const char *data, size_t len,
			unsigned flags, struct strbuf *err)
{
	switch (classify(path, data, len, flags, err)) {
	case WRITE_NEW:
		return replace_atomically(path, data, len, err);
	case WRITE_THROUGH:
		return write_through(path, false, data, len, err);
	case WRITE_THROUGH_LINK:
		return write_through(path, true, data, len, err);
	case WRITE_OWN_FD:
		return write_fd(own_fd(path), path, data, len, err);
	default:
		return -1;
	}
}

int outfile_write(const char *path, const char *data, size_t len, struct strbuf *err)
{
	return outfile_write_flags(path, data, len, 0, err);
}

int outfile_read(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "re");
	char buf[65536];
	size_t n;
	bool ok;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	ok = !ferror(f);
	fclose(f);
	return ok ? 0 : -1;
}
