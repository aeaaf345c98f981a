// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Observing: each cell's call under a seccomp trap, and the static helper
 * that does the same from a statically linked binary.
 */
#include "doctor/doctor.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/seccomp.h"
#include "probe/timesys.h"
#include "basic/strbuf.h"
#include "basic/util.h"

#define STATIC_OUTPUT_MAX 16384

static int run_cell_calls(void *ctx)
{
	const struct cell *c = ctx;

	c->loop(c, DOCTOR_PROBE_CALLS);
	return 0;
}

static void append_name(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? "," : "", name);
}

static void name_attempts(const long *nrs, size_t n,
			  const struct seccomp_report *rep, char *buf, size_t len)
{
	char other[32];

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *name = timesys_name(nrs[i]);

		if (!rep->hits[i])
			continue;
		if (!name) {
			snprintf(other, sizeof(other), "syscall %ld", nrs[i]);
			name = other;
		}
		append_name(buf, len, name);
	}
	if (rep->foreign)
		append_name(buf, len, "foreign-abi");
}

void doctor_probe_cell(const struct cell *c, struct doctor_probe *out)
{
	long nrs[SECCOMP_PROBE_MAX];
	struct seccomp_probe probe = {
		.syscalls = nrs,
		/* Warm up first: lazy binding, a fresh vgetrandom state. */
		.prepare = run_cell_calls,
		.fn = run_cell_calls,
		.ctx = (void *)c,
	};
	struct seccomp_report rep;

	memset(out, 0, sizeof(*out));
	if (c->status != CELL_OK) {
		out->verdict = VERDICT_UNSUPPORTED;
		snprintf(out->error, sizeof(out->error), "%s", c->why);
		return;
	}
	probe.nsyscalls = timesys_for_api(c->api, nrs, ARRAY_SIZE(nrs));
	if (seccomp_probe_run(&probe, &rep) != 0) {
		out->verdict = VERDICT_UNKNOWN;
		snprintf(out->error, sizeof(out->error), "%s", rep.error);
		return;
	}
	out->calls = DOCTOR_PROBE_CALLS;
	out->entries = rep.total;
	name_attempts(nrs, probe.nsyscalls, &rep, out->syscalls, sizeof(out->syscalls));
	out->verdict = rep.total ? VERDICT_KERNEL : VERDICT_USERSPACE;
}

/* ---- the static helper ---------------------------------------------- */

static enum doctor_verdict verdict_by_name(const char *name)
{
	for (int v = VERDICT_USERSPACE; v <= VERDICT_UNKNOWN; v++) {
		if (streq(name, doctor_verdict_name(v)))
			return v;
	}
	return VERDICT_UNKNOWN;
}

bool doctor_parse_static_line(const char *line, struct doctor_static_result *r)
{
	char verdict[16];

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "%63s %15s %lf %63s", r->name, verdict, &r->ns,
		   r->syscalls) != 4)
		return false;
	r->verdict = verdict_by_name(verdict);
	return r->verdict != VERDICT_UNKNOWN || streq(verdict, "unknown");
}

/*
 * Whether a program named from outside (an environment variable) may be
 * run: a regular file owned by root or by this user, that neither group
 * nor others may write (else anyone who can write it runs code as the
 * user, root included). false with why ("writable by others").
 */
static bool program_trusted(const char *path, struct strbuf *why)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		strbuf_setf(why, "%s", strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_setf(why, "not a regular file");
		return false;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		strbuf_setf(why, "owned by uid %u, neither root nor this user",
			    (unsigned)st.st_uid);
		return false;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf_setf(why, "writable by %s", st.st_mode & S_IWOTH ? "others" :
			    "its group");
		return false;
	}
	return true;
}

/* Next to the running binary, unless CLOCKBENCH_STATIC_PROBE says otherwise. */
static bool locate_static_probe(struct doctor_static *s)
{
	const char *env = getenv("CLOCKBENCH_STATIC_PROBE");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && !*env) {
		snprintf(s->skip_reason, sizeof(s->skip_reason),
			 "disabled by an empty CLOCKBENCH_STATIC_PROBE");
		return false;
	}
	if (env) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		snprintf(s->path, sizeof(s->path), "%s", env);
		if (access(s->path, F_OK) == 0 && !program_trusted(s->path, &why)) {
			snprintf(s->skip_reason, sizeof(s->skip_reason),
				 "CLOCKBENCH_STATIC_PROBE=%.300s is not run: %s", s->path,
				 why.buf);
			return false;
		}
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n < 0) {
			snprintf(s->skip_reason, sizeof(s->skip_reason),
				 "cannot find the clockbench binary: %s", strerror(errno));
			return false;
		}
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(s->path, sizeof(s->path), "%s/%s", exe, DOCTOR_STATIC_PROBE);
	}
	if (access(s->path, X_OK) != 0) {
		snprintf(s->skip_reason, sizeof(s->skip_reason),
			 "%.300s is not installed (it is built only when the toolchain "
			 "links static binaries, without sanitizers)", s->path);
		return false;
	}
	return true;
}

/* Run the helper and return its standard output (malloc'd), or NULL. */
static char *capture_output(struct doctor_static *s)
{
	char *out = xcalloc(1, STATIC_OUTPUT_MAX);
	size_t used = 0;
	int fds[2], status = 0;
	pid_t pid;
	ssize_t n;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		snprintf(s->skip_reason, sizeof(s->skip_reason),
			 "cannot start %.300s: %s", s->path, strerror(errno));
		free(out);
		return NULL;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(s->path, s->path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (used < STATIC_OUTPUT_MAX - 1 &&
	       ((n = read(fds[0], out + used, STATIC_OUTPUT_MAX - 1 - used)) > 0 ||
		(n < 0 && errno == EINTR)))
		used += n > 0 ? (size_t)n : 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(s->skip_reason, sizeof(s->skip_reason),
			 "%.300s failed (wait status %#x)", s->path, (unsigned int)status);
		free(out);
		return NULL;
	}
	return out;
}

static void parse_static_output(struct doctor_static *s, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "libc ", 5) == 0)
			snprintf(s->libc, sizeof(s->libc), "%s", line + 5);
		else if (strncmp(line, "vdso ", 5) == 0)
			s->vdso = streq(line + 5, "yes");
		else if (s->n < DOCTOR_STATIC_MAX &&
			 doctor_parse_static_line(line, &s->results[s->n]))
			s->n++;
	}
}

void doctor_run_static_probe(struct doctor_static *s)
{
	_cleanup_free_ char *out = NULL;

	memset(s, 0, sizeof(*s));
	if (!locate_static_probe(s))
		return;
	out = capture_output(s);
	if (!out)
		return;
	parse_static_output(s, out);
	if (!s->n) {
		snprintf(s->skip_reason, sizeof(s->skip_reason),
			 "%.300s printed no results", s->path);
		return;
	}
	s->ran = true;
}
