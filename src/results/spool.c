// SPDX-License-Identifier: GPL-2.0-or-later
/* The spool of runs a store could not take (results/spool.h). */
#include "results/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/util.h"
#include "basic/text.h"
#include "config.h"
#include "results/export-file.h"

static void set_err(char *err, size_t errlen, const char *fmt, ...) _printf_(3, 4);
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

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
	snprintf(state, slen, "%s/clockbench/spool/%016llx", home,
		 (unsigned long long)fnv1a(abs));
}

/* ---- writing -------------------------------------------------------- */

/* mkdir -p, private: runs can say much about a machine. */
static int make_dirs(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = strchr(dir + 1, '/'); ; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
		if (!p)
			return 0;
		*p = '/';
	}
}

/* The export file of run, synced: 0, or -1 with errno set. */
static int write_export(int fd, const char *db, const struct stored_run *run)
{
	json_t *j = stored_run_to_json(run);
	json_t *store = json_string(db);
	FILE *f = fdopen(dup(fd), "w");
	int rc;

	if (!f) {
		json_decref(j);
		json_decref(store);
		return -1;
	}
	fprintf(f, "{\"clockbench_export\":%d,\"tool\":\"clockbench %s\",\"store\":",
		STORE_EXPORT_VERSION, CLOCKBENCH_VERSION);
	json_dumpf(store ? store : json_null(), f, JSON_ENCODE_ANY);
	fputs(",\"runs\":[\n", f);
	json_dumpf(j, f, JSON_COMPACT);
	fputs("\n]}\n", f);
	rc = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0 ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	json_decref(j);
	json_decref(store);
	return rc;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * UUID.json in dir, via UUID.json.tmp: 0, or -1 with errno set. Only the
 * state directory's parents are created: beside a store whose directory
 * is missing there is no place.
 */
static int write_in(const char *dir, bool parents, const char *db,
		    const struct stored_run *run, char *file, size_t len)
{
	char tmp[PATH_MAX + 64];
	int fd, saved;

	if (parents ? make_dirs(dir) : mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	snprintf(file, len, "%s/%s.json", dir, run->uuid);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* Held while written: spool_import() removes a .tmp nobody holds. */
	flock(fd, LOCK_EX);
	if (write_export(fd, db, run) || rename(tmp, file)) {
		saved = errno;
		unlink(tmp);
		close(fd);
		errno = saved ? saved : EIO;
		return -1;
	}
	close(fd);
	sync_dir(dir);
	return 0;
}

int spool_write(const char *db, const struct stored_run *run, char *file,
		size_t len, char *err, size_t errlen)
{
	char beside[PATH_MAX], state[PATH_MAX], abs[PATH_MAX];
	int first;

	spool_dirs(db, beside, sizeof(beside), state, sizeof(state));
	absolute_path(db, abs, sizeof(abs));
	errno = ENOENT;
	if (*beside && write_in(beside, false, abs, run, file, len) == 0)
		return 0;
	first = errno;
	if (write_in(state, true, abs, run, file, len) == 0)
		return 0;
	set_err(err, errlen, "cannot write to %s (%s) nor to %s (%s)", beside,
		strerror(first), state, strerror(errno));
	return -1;
}

/* ---- importing ------------------------------------------------------ */

/* A .tmp whose writer is gone (killed while writing): not a run. */
static void remove_if_abandoned(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		unlink(path);
	close(fd);
}

/* The runs of one spooled file: checked whole, then stored. */
static int import_file(struct store *st, const char *path)
{
	char err[PATH_MAX + 512];
	struct export_file *f = export_file_open(path, err, sizeof(err));
	struct stored_run run;
	int rc, n = 0;

	if (!f) {
		warn_msg("%s; left in the spool", err);
		return 0;
	}
	while ((rc = export_file_next(f, &run, err, sizeof(err))) == 1)
		stored_run_free(&run);
	if (rc < 0 || export_file_rewind(f, err, sizeof(err))) {
		warn_msg("%s; left in the spool", err);
		export_file_close(f);
		return 0;
	}
	while ((rc = export_file_next(f, &run, err, sizeof(err))) == 1) {
		rc = store_import_run(st, &run, err, sizeof(err));
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
		error_msg("%s; %s stays in the spool", err, path);
		return -1;
	}
	unlink(path);
	return n;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && streq(s + n - k, suffix);
}

/* One file of a spool directory, locked against another importer. */
static int import_entry(struct store *st, const char *dir, const char *name)
{
	char path[PATH_MAX + 256];
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (has_suffix(name, ".json.tmp")) {
		remove_if_abandoned(path);
		return 0;
	}
	if (!has_suffix(name, ".json"))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return 0;	/* another command is importing it */
	}
	n = access(path, F_OK) == 0 ? import_file(st, path) : 0;
	close(fd);
	return n;
}

static int import_dir(struct store *st, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int total = 0, n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n >= 0) {
		n = import_entry(st, dir, e->d_name);
		total += n > 0 ? n : 0;
	}
	closedir(d);
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
