// SPDX-License-Identifier: GPL-2.0-or-later
/* The spool of runs a store could not take (results/spool.h). */
#include "results/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/json.h"
#include "basic/util.h"
#include "basic/text.h"
#include "config.h"
#include "results/export-file.h"

/* ---- where ---------------------------------------------------------- */

/*
 * db as an absolute path, its directory resolved (the file itself may not
 * exist), so that every spelling of one store finds one spool.
 */
static void absolute_path(const char *db, char *out, size_t len)
{
	const char *slash = strrchr(db, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	if (store_is_url(db)) {
		snprintf(out, len, "%s", db);
		return;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == db ? 1 : (int)(slash - db),
			 db);
	if (realpath(dir, real)) {
		int n = snprintf(out, len, "%s/%s", streq(real, "/") ? "" : real,
				 slash ? slash + 1 : db);

		if (n > 0 && (size_t)n < len)
			return;
	}
	snprintf(out, len, "%s", db);
}

/* FNV-1a: a short stable name for a path, not a secret. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static void state_home(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	struct passwd *pw;

	if (xdg && xdg[0] == '/') {
		snprintf(buf, len, "%s", xdg);
		return;
	}
	if (!home || home[0] != '/') {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : "/";
	}
	snprintf(buf, len, "%s/.local/state", home);
}

void spool_dirs(const char *db, char *beside, size_t blen, char *state,
		size_t slen)
{
	char abs[PATH_MAX], home[PATH_MAX];

	absolute_path(db, abs, sizeof(abs));
	/* A server has no directory beside it: the state directory only. */
	snprintf(beside, blen, "%s", store_is_url(db) ? "" : abs);
	if (*beside)
		snprintf(beside, blen, "%s-spool", abs);
	state_home(home, sizeof(home));
	/* A server's key is of its name without the password: never a hash of it. */
	if (store_is_url(db)) {
		char *shown = store_display_name(db);

		snprintf(abs, sizeof(abs), "%s", shown);
		free(shown);
	}
	snprintf(state, slen, "%s/clockbench/spool/%016llx", home,
		 (unsigned long long)fnv1a(abs));
}

/* ---- a directory of this user's alone --------------------------------- */

/*
 * The spool's directory, opened: a real directory (not a symlink), owned
 * by this user, that no one else may write or read (mode 0700, as
 * clockbench makes it). Another user could plant runs in, or point at, a
 * directory it made at the predictable STORE-spool, beside a store in a
 * shared directory: such a directory is refused, not used. -1 with errno
 * (ENOENT: there is none), and why in err for one that is not ours.
 */
static int open_own_dir(const char *dir, struct strbuf *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat sb;

	strbuf_reset(err);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			strbuf_setf(err, "%s is not a directory (a symlink?)", dir);
		return -1;
	}
	if (fstat(fd, &sb) != 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 077)) {
		strbuf_setf(err, "%s is not this user's own directory (owner uid %u, "
			"mode %04o; clockbench makes it 0700)", dir, (unsigned)sb.st_uid,
			(unsigned)(sb.st_mode & 07777));
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* ---- writing -------------------------------------------------------- */

/*
 * The export file of run, synced: 0, or -1 with errno set. It names its
 * store as messages do: a server's URL without the password.
 */
static int write_export(int fd, const char *db, const struct stored_run *run)
{
	json_t *j = stored_run_to_json(run);
	char *shown = store_display_name(db);
	json_t *store = json_string(shown);
	FILE *f = fdopen(dup(fd), "w");
	int rc;

	free(shown);
	if (!f) {
		json_decref(j);
		json_decref(store);
		return -1;
	}
	fprintf(f, "{\"clockbench_export\":%d,\"tool\":\"clockbench %s\",\"store\":",
		STORE_EXPORT_VERSION, CLOCKBENCH_VERSION);
	json_write(f, store ? store : json_null(), JSON_ENCODE_ANY);
	fputs(",\"runs\":[\n", f);
	json_write(f, j, JSON_COMPACT);
	fputs("\n]}\n", f);
	rc = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0 ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	json_decref(j);
	json_decref(store);
	return rc;
}

/*
 * UUID.json in dir, via UUID.json.tmp: 0, or -1 with errno set (and err,
 * for a directory that is not ours). Only the state directory's parents
 * are created: beside a store whose directory is missing there is no
 * place.
 */
static int write_in(const char *dir, bool parents, const char *db,
		    const struct stored_run *run, char *file, size_t len,
		    struct strbuf *err)
{
	char name[64], tmp[80];
	int dfd, fd, saved;

	if (parents ? mkdir_p_private(dir) : mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	dfd = open_own_dir(dir, err);
	if (dfd < 0)
		return -1;
	snprintf(file, len, "%s/%s.json", dir, run->uuid);
	snprintf(name, sizeof(name), "%s.json", run->uuid);
	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0) {
		saved = errno;
		close(dfd);
		errno = saved;
		return -1;
	}
	/* Held while written: spool_import() removes a .tmp nobody holds. */
	flock(fd, LOCK_EX);
	if (write_export(fd, db, run) || renameat(dfd, tmp, dfd, name)) {
		saved = errno;
		unlinkat(dfd, tmp, 0);
		close(fd);
		close(dfd);
		errno = saved ? saved : EIO;
		return -1;
	}
	close(fd);
	fsync(dfd);
	close(dfd);
	return 0;
}

int spool_write(const char *db, const struct stored_run *run, char *file,
		size_t len, struct strbuf *err)
{
	char beside[PATH_MAX], state[PATH_MAX], abs[PATH_MAX];
	_cleanup_strbuf_ struct strbuf why1 = STRBUF_INIT, why2 = STRBUF_INIT;
	int first;

	spool_dirs(db, beside, sizeof(beside), state, sizeof(state));
	absolute_path(db, abs, sizeof(abs));
	errno = ENOENT;
	if (*beside && write_in(beside, false, abs, run, file, len, &why1) == 0)
		return 0;
	first = errno;
	if (write_in(state, true, abs, run, file, len, &why2) == 0)
		return 0;
	strbuf_setf(err, "cannot write to %s (%s) nor to %s (%s)", beside,
		why1.len ? why1.buf : strerror(first), state,
		    why2.len ? why2.buf : strerror(errno));
	return -1;
}

/* ---- importing ------------------------------------------------------ */

/* The most a spooled run takes: one run, samples and all. */
#define SPOOL_FILE_MAX (256ll << 20)

/*
 * A spool entry that is not a run clockbench wrote, moved to rejected/
 * in the spool, with a warning: never imported, and never read again.
 */
static void reject(int dfd, const char *dir, const char *name,
		   const char *reason)
{
	int rfd;

	if (mkdirat(dfd, "rejected", 0700) != 0 && errno != EEXIST)
		rfd = -1;
	else
		rfd = openat(dfd, "rejected", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
	if (rfd >= 0 && renameat(dfd, name, rfd, name) == 0)
		warn_msg("%s/%s: %s; not imported, moved to %s/rejected/", dir, name,
			 reason, dir);
	else
		warn_msg("%s/%s: %s; not imported (cannot move it aside: %m)", dir,
			 name, reason);
	if (rfd >= 0)
		close(rfd);
}

/* A .tmp whose writer is gone (killed while writing): not a run. */
static void remove_if_abandoned(int dfd, const char *dir, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat sb = { 0 };

	if (fd < 0 && errno != ENOENT) {
		reject(dfd, dir, name, "not a regular file");
		return;
	}
	if (fd < 0)
		return;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		reject(dfd, dir, name, "not a regular file");
	else if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		unlinkat(dfd, name, 0);
	close(fd);
}

/*
 * The runs of one spooled file, fd: checked whole (every run through
 * import's gate), then stored. A file that is not valid is moved aside.
 */
static int import_file(struct store *st, int dfd, const char *dir,
		       const char *name, int fd)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char path[PATH_MAX + 256];
	struct export_file *f;
	struct stored_run run;
	int rc, n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = export_file_open_fd(fd, path, &err);
	if (!f) {
		reject(dfd, dir, name, err.buf);
		return 0;
	}
	while ((rc = export_file_next(f, &run, &err)) == 1)
		stored_run_free(&run);
	if (rc < 0 || export_file_rewind(f, &err)) {
		export_file_close(f);
		/* err begins with the path: say what is wrong after it. */
		reject(dfd, dir, name, strncmp(err.buf, path, strlen(path)) ? err.buf :
		       err.buf + strlen(path) + (err.buf[strlen(path)] == ':' ? 2 : 0));
		return 0;
	}
	while ((rc = export_file_next(f, &run, &err)) == 1) {
		rc = store_import_run(st, &run, &err);
		if (rc >= 0)
			text_line(stderr, rc == 0 ? "imported run %s spooled in %s as run "
				"%lld" : "run %s spooled in %s was already stored as "
				"run %lld", run.uuid, path, (long long)run.id);
		n += rc == 0;
		stored_run_free(&run);
		if (rc < 0)
			break;
	}
	export_file_close(f);
	if (rc < 0) {
		error_msg("%s; %s stays in the spool", err.buf, path);
		return -1;
	}
	unlinkat(dfd, name, 0);
	return n;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && streq(s + n - k, suffix);
}

/*
 * One entry of a spool directory, locked against another importer. It is
 * opened without following a symlink or waiting on a FIFO, and read only
 * when it is a regular file of this user's of a run's size at most.
 */
static int import_entry(struct store *st, int dfd, const char *dir,
			const char *name)
{
	struct stat sb = { 0 };
	int fd, n;

	if (has_suffix(name, ".json.tmp")) {
		remove_if_abandoned(dfd, dir, name);
		return 0;
	}
	if (!has_suffix(name, ".json"))
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			reject(dfd, dir, name, errno == ELOOP ? "a symlink" :
			       "cannot be opened");
		return 0;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    sb.st_size > SPOOL_FILE_MAX) {
		reject(dfd, dir, name, !S_ISREG(sb.st_mode) ? "not a regular file" :
		       sb.st_uid != geteuid() ? "owned by another user" :
		       "larger than a run clockbench spools");
		close(fd);
		return 0;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return 0;	/* another command is importing it */
	}
	/* Gone meanwhile: another importer took it. */
	n = fstat(fd, &sb) == 0 && sb.st_nlink > 0 ?
	    import_file(st, dfd, dir, name, fd) : 0;
	close(fd);
	return n;
}

static int import_dir(struct store *st, const char *dir)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	int dfd = open_own_dir(dir, &why), fd, total = 0, n = 0;
	struct dirent *e;
	DIR *d;

	if (dfd < 0) {
		if (why.len)
			warn_msg("runs spooled in %s not imported: %s", dir, why.buf);
		return 0;
	}
	fd = dup(dfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		close(dfd);
		return 0;
	}
	while ((e = readdir(d)) && n >= 0) {
		n = import_entry(st, dfd, dir, e->d_name);
		total += n > 0 ? n : 0;
	}
	closedir(d);
	close(dfd);
	rmdir(dir);	/* only when empty */
	return n < 0 ? -1 : total;
}

int spool_import(struct store *st, const char *db)
{
	char beside[PATH_MAX], state[PATH_MAX];
	int a, b;

	spool_dirs(db, beside, sizeof(beside), state, sizeof(state));
	a = *beside ? import_dir(st, beside) : 0;
	if (a < 0)
		return -1;
	b = import_dir(st, state);
	return b < 0 ? -1 : a + b;
}
