// SPDX-License-Identifier: GPL-2.0-or-later
#include "scenario/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/stats.h"
#include "basic/util.h"
#include "probe/disturb.h"

extern char **environ;

/* ---- finding the program -------------------------------------------- */

/*
 * 0 when path is an executable regular file, -EACCES when it is there but
 * cannot run, else -ENOENT (also behind a directory we may not search: a
 * PATH entry of another user's is no reason to call a missing command
 * "not executable").
 */
static int check_executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -ENOENT;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return -EACCES;
	return 0;
}

int exec_lookup(const char *name, const char *path_env, char *out, size_t len)
{
	char defpath[256], dir[PATH_MAX];
	const char *p, *end;
	int best = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return check_executable(name);
	}
	if (!path_env) {
		if (!confstr(_CS_PATH, defpath, sizeof(defpath)))
			snprintf(defpath, sizeof(defpath), "/bin:/usr/bin");
		path_env = defpath;
	}
	for (p = path_env; ; p = end + 1) {
		int rc;

		end = strchrnul(p, ':');
		/* An empty entry means the current directory, as for execvp. */
		snprintf(dir, sizeof(dir), "%.*s", (int)(end - p), p);
		snprintf(out, len, "%s/%s", *dir ? dir : ".", name);
		rc = check_executable(out);
		if (rc == 0)
			return 0;
		if (rc == -EACCES)
			best = -EACCES;
		if (!*end)
			break;
	}
	return best;
}

/* ---- showing it ----------------------------------------------------- */

static bool shell_safe(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./=:,+@%-", *w))
			return false;
	return true;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	grow_array((void **)buf, cap, *len + n + 1, 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static void append_quoted(char **buf, size_t *len, size_t *cap, const char *w)
{
	append(buf, len, cap, "'", 1);
	for (; *w; w++) {
		if (*w == '\'')
			append(buf, len, cap, "'\\''", 4);
		else
			append(buf, len, cap, w, 1);
	}
	append(buf, len, cap, "'", 1);
}

char *exec_shell_quote(const char *w)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (shell_safe(w))
		return xstrdup(w);
	append_quoted(&buf, &len, &cap, w);
	return buf;
}

char *exec_join_argv(char *const *argv, bool quote)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	append(&buf, &len, &cap, "", 0);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			append(&buf, &len, &cap, " ", 1);
		_cleanup_free_ char *w = quote ? exec_shell_quote(argv[i]) : NULL;

		append(&buf, &len, &cap, w ? w : argv[i], strlen(w ? w : argv[i]));
	}
	return buf;
}

/* ---- splitting a command line ------------------------------------------ */

struct words {
	char **v;
	size_t n, cap;
	char *cur;		/* the word under way, or NULL between words */
	size_t len, wcap;
};

static void word_add_char(struct words *w, char c)
{
	append(&w->cur, &w->len, &w->wcap, &c, 1);
}

/* An empty quoted word ('') is a word too. */
static void word_open(struct words *w)
{
	if (!w->cur)
		append(&w->cur, &w->len, &w->wcap, "", 0);
}

static void word_end(struct words *w)
{
	if (!w->cur)
		return;
	grow_array((void **)&w->v, &w->cap, w->n + 2, sizeof(char *));
	w->v[w->n++] = w->cur;
	w->v[w->n] = NULL;
	w->cur = NULL;
	w->len = w->wcap = 0;
}

/*
 * Inside "...", the word extended: where it stopped, at the closing quote,
 * at the end of the line (unterminated), or at a $ or ` only a shell expands.
 */
static const char *double_quoted(struct words *w, const char *p)
{
	word_open(w);
	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1] && strchr("\\\"$`\n", p[1])) {
			if (p[1] != '\n')
				word_add_char(w, p[1]);
			p++;
		} else if (*p == '$' || *p == '`') {
			return p;	/* the caller reports it */
		} else {
			word_add_char(w, *p);
		}
	}
	return p;
}

static const char *const shell_only = "|&;<>()$`*?";

char **exec_split_words(const char *line, struct strbuf *err)
{
	struct words w = { 0 };
	const char *p;

	for (p = line; *p; p++) {
		if (*p == '\n') {
			/* A shell runs what follows as a command of its own. */
			strbuf_setf(err, "a newline separates commands in a shell: "
				    "give one -c per command");
			goto fail;
		} else if (strchr(" \t", *p)) {
			word_end(&w);
		} else if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end) {
				strbuf_setf(err, "unterminated ' quote");
				goto fail;
			}
			word_open(&w);
			for (p++; p < end; p++)
				word_add_char(&w, *p);
		} else if (*p == '"') {
			p = double_quoted(&w, p + 1);
			if (*p != '"') {
				if (*p)
					strbuf_setf(err, "'%c' inside \"...\" needs a shell",
						    *p);
				else
					strbuf_setf(err, "unterminated \" quote");
				goto fail;
			}
		} else if (*p == '\\') {
			if (p[1] && p[1] != '\n')
				word_add_char(&w, p[1]);
			if (p[1])
				p++;
		} else if (strchr(shell_only, *p) || (*p == '~' && !w.cur)) {
			strbuf_setf(err, "'%c' needs a shell: quote it", *p);
			goto fail;
		} else {
			word_add_char(&w, *p);
		}
	}
	word_end(&w);
	if (w.n == 0) {
		strbuf_setf(err, "empty command");
		goto fail;
	}
	return w.v;
fail:
	free(w.cur);
	exec_free_words(w.v);
	return NULL;
}

void exec_free_words(char **words)
{
	for (char **p = words; p && *p; p++)
		free(*p);
	free(words);
}

size_t exec_count_words(char *const *words)
{
	size_t n = 0;

	while (words[n])
		n++;
	return n;
}

char *exec_substitute(const char *s, const char *name, const char *value,
		      size_t *hits)
{
	size_t nlen = strlen(name), len = 0, cap = 0;
	char *buf = NULL;

	*hits = 0;
	append(&buf, &len, &cap, "", 0);
	while (*s) {
		if (s[0] == '{' && strncmp(s + 1, name, nlen) == 0 && s[1 + nlen] == '}') {
			append(&buf, &len, &cap, value, strlen(value));
			s += nlen + 2;
			(*hits)++;
		} else {
			append(&buf, &len, &cap, s, 1);
			s++;
		}
	}
	return buf;
}

/* ---- the machine between runs ---------------------------------------- */

long long exec_parse_total_steal(const char *text)
{
	unsigned long long f[8];

	if (!text || strncmp(text, "cpu ", 4) != 0 ||
	    sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) != 8)
		return -1;
	return (long long)f[7];
}

long exec_parse_runnable(const char *text)
{
	double l1, l5, l15;
	long running, total;

	if (!text || sscanf(text, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &running,
			    &total) != 5 || running < 0)
		return -1;
	return running;
}

void exec_machine_take(struct exec_machine *m)
{
	char *text = read_text_file("/proc/loadavg", 4096);
	long running = exec_parse_runnable(text);

	free(text);
	/* clockbench itself is running as it reads the file. */
	m->runnable = running > 0 ? running - 1 : running;
	text = read_text_file("/proc/stat", 1 << 20);
	m->steal_ticks = exec_parse_total_steal(text);
	free(text);
}

/* ---- what disturbed the runs ------------------------------------------- */

static double median_of(double *x, size_t n)
{
	if (!n)
		return NAN;
	stats_sort(x, n);
	return stats_quantile_sorted(x, n, 0.5);
}

static double online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (double)n : 1;
}

/* Steal is counted in ticks of every CPU: one tick is no disturbance. */
static double tick_ms(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1000.0 / (double)hz : 10;
}

void exec_disturb_fill(struct exec_disturb *d, const struct exec_result *r,
		       const struct exec_machine *before,
		       const struct exec_machine *after)
{
	long hz = sysconf(_SC_CLK_TCK);

	d->wall_s = r->wall_s;
	d->involuntary = r->involuntary;
	d->voluntary = r->voluntary;
	d->migrations = r->migrations;
	d->wait_ms = 1000.0 * r->wait_s;
	d->runnable = before->runnable;
	d->steal_ms = before->steal_ticks >= 0 && after->steal_ticks >= before->steal_ticks &&
		      hz > 0 ? 1000.0 * (double)(after->steal_ticks - before->steal_ticks) /
		      (double)hz : NAN;
	d->disturbed = false;
}

void exec_disturb_medians(const struct exec_disturb *runs, size_t n,
			  struct exec_disturb_medians *d)
{
	size_t cap = n ? n : 1, nl = 0, ns = 0, nw = 0;
	_cleanup_free_ double *ivcsw = xmalloc(cap * sizeof(double));
	_cleanup_free_ double *load = xmalloc(cap * sizeof(double));
	_cleanup_free_ double *steal = xmalloc(cap * sizeof(double));
	_cleanup_free_ double *wait = xmalloc(cap * sizeof(double));

	for (size_t k = 0; k < n; k++) {
		const struct exec_disturb *r = &runs[k];

		ivcsw[k] = (double)r->involuntary;
		if (r->runnable >= 0)
			load[nl++] = (double)r->runnable;
		if (isfinite(r->steal_ms))
			steal[ns++] = r->steal_ms;
		if (isfinite(r->wait_ms))
			wait[nw++] = r->wait_ms;
	}
	d->runs = n;
	d->involuntary = median_of(ivcsw, n);
	d->runnable = median_of(load, nl);
	d->steal_ms = median_of(steal, ns);
	d->wait_ms = median_of(wait, nw);
}

static bool far_beyond(const struct exec_disturb *r, const struct exec_disturb_medians *d,
		       double tick, double ncpu)
{
	double wall_ms = 1000.0 * r->wall_s;

	return (double)r->involuntary > EXEC_DISTURB_SWITCH_FACTOR * d->involuntary +
					EXEC_DISTURB_SWITCH_EXTRA ||
	       (isfinite(r->steal_ms) && r->steal_ms > tick &&
		r->steal_ms > EXEC_DISTURB_STEAL_SHARE * wall_ms * ncpu) ||
	       (r->runnable >= 0 && isfinite(d->runnable) &&
		(double)r->runnable > 2 * d->runnable + ncpu) ||
	       (isfinite(r->wait_ms) && isfinite(d->wait_ms) &&
		r->wait_ms > EXEC_DISTURB_WAIT_SHARE * wall_ms &&
		r->wait_ms > EXEC_DISTURB_SWITCH_FACTOR * d->wait_ms +
			     EXEC_DISTURB_WAIT_EXTRA_MS);
}

size_t exec_mark_disturbed(struct exec_disturb *runs, size_t n,
			   const struct exec_disturb_medians *d)
{
	double tick = tick_ms(), ncpu = online_cpus();
	size_t marked = 0;

	for (size_t k = 0; k < n; k++) {
		runs[k].disturbed = far_beyond(&runs[k], d, tick, ncpu);
		marked += runs[k].disturbed;
	}
	return marked;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *exec_disturb_json(const struct exec_disturb *runs, size_t n)
{
	json_t *inv = json_array(), *vol = json_array(), *mig = json_array();
	json_t *steal = json_array(), *load = json_array(), *marked = json_array();
	json_t *wait = json_array();
	size_t cap = n ? n : 1, nl = 0, nw = 0;
	_cleanup_free_ double *lv = xmalloc(cap * sizeof(double));
	_cleanup_free_ double *wv = xmalloc(cap * sizeof(double));
	double steal_ms = 0, wall_s = 0;
	bool steal_known = n > 0;

	for (size_t k = 0; k < n; k++) {
		const struct exec_disturb *r = &runs[k];

		json_array_append_new(inv, json_integer(r->involuntary));
		json_array_append_new(vol, json_integer(r->voluntary));
		json_array_append_new(mig, r->migrations >= 0 ?
				      json_integer(r->migrations) : json_null());
		json_array_append_new(wait, real_or_null(r->wait_ms));
		json_array_append_new(steal, real_or_null(r->steal_ms));
		json_array_append_new(load, r->runnable >= 0 ?
				      json_integer(r->runnable) : json_null());
		if (r->disturbed)
			json_array_append_new(marked, json_integer((json_int_t)k + 1));
		if (r->runnable >= 0)
			lv[nl++] = (double)r->runnable;
		/* The share of each run, so that one long wait does not decide. */
		if (isfinite(r->wait_ms) && r->wall_s > 0)
			wv[nw++] = 100.0 * r->wait_ms / (1000.0 * r->wall_s);
		steal_known &= isfinite(r->steal_ms);
		steal_ms += isfinite(r->steal_ms) ? r->steal_ms : 0;
		wall_s += r->wall_s;
	}
	return json_pack("{s:{s:o, s:o, s:o, s:o, s:o, s:o}, s:o, s:{s:o, s:o, s:o}}",
			 "runs", "involuntary", inv, "voluntary", vol,
			 "migrations", mig, "wait_ms", wait, "steal_ms", steal,
			 "runnable", load, "disturbed", marked,
			 "machine", "runnable_median", real_or_null(median_of(lv, nl)),
			 "steal_pct", real_or_null(steal_known && wall_s > 0 ?
					100.0 * steal_ms / (1000.0 * wall_s * online_cpus()) :
					NAN),
			 "wait_pct", real_or_null(median_of(wv, nw)));
}

/* ---- outliers ------------------------------------------------------- */

size_t exec_outliers(const double *x, size_t n)
{
	_cleanup_free_ double *dev = xmalloc((n ? n : 1) * sizeof(double));
	double median, mad;
	size_t count = 0;

	if (n == 0)
		return 0;
	memcpy(dev, x, n * sizeof(double));
	stats_sort(dev, n);
	median = stats_quantile_sorted(dev, n, 0.5);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - median);
	stats_sort(dev, n);
	mad = stats_quantile_sorted(dev, n, 0.5);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(x[i] - median);

		if (mad > 0 ? d / mad > EXEC_OUTLIER_MADS : d > 0)
			count++;
	}
	return count;
}

/* ---- running it ----------------------------------------------------- */

/*
 * The child's stdin from /dev/null, its stdout and stderr too unless they
 * are shown: the only work done between the spawn and the exec.
 */
static int child_io(posix_spawn_file_actions_t *fa, const struct exec_io *io)
{
	int rc = posix_spawn_file_actions_init(fa);

	if (rc)
		return rc;
	rc = posix_spawn_file_actions_adddup2(fa, io->devnull, STDIN_FILENO);
	if (!rc && !io->show_output)
		rc = posix_spawn_file_actions_adddup2(fa, io->devnull, STDOUT_FILENO);
	if (!rc && !io->show_output)
		rc = posix_spawn_file_actions_adddup2(fa, io->devnull, STDERR_FILENO);
	if (rc)
		posix_spawn_file_actions_destroy(fa);
	return rc;
}

double exec_parse_run_delay(const char *text)
{
	unsigned long long runtime, delay;

	if (!text || sscanf(text, "%llu %llu", &runtime, &delay) != 2)
		return NAN;
	return (double)delay / 1e9;
}

/* The child's migrations and wait for a CPU, read while it is a zombie. */
static void child_sched(pid_t pid, struct exec_result *r)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	text = read_text_file(path, 1 << 16);
	r->migrations = text ? disturb_parse_migrations(text) : -1;
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	text = read_text_file(path, 4096);
	r->wait_s = exec_parse_run_delay(text);
	free(text);
}

/*
 * Wait for the child to end, leaving it a zombie (WNOWAIT): *t1 is taken
 * then, before its /proc/PID/sched and schedstat are read; then reap it
 * for its rusage.
 */
static int reap(pid_t pid, const volatile sig_atomic_t *forward, double *t1,
		struct exec_result *r, struct rusage *ru)
{
	bool forwarded = false;
	siginfo_t si;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR)
			return -1;
		if (forward && *forward && !forwarded) {
			kill(pid, *forward);
			forwarded = true;
		}
	}
	*t1 = monotonic_s();
	child_sched(pid, r);
	while (wait4(pid, &r->status, 0, ru) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int exec_run(const char *program, char *const *argv, const struct exec_io *io,
	     const volatile sig_atomic_t *forward, struct exec_result *r)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int rc;

	memset(r, 0, sizeof(*r));
	r->migrations = -1;
	r->wait_s = NAN;
	rc = child_io(&fa, io);
	if (rc) {
		errno = rc;
		return -1;
	}
	t0 = monotonic_s();
	/*
	 * glibc's posix_spawn is clone(CLONE_VM | CLONE_VFORK): no copy of our
	 * address space, and an exec that fails comes back as its errno (the
	 * child already reaped).
	 */
	rc = posix_spawn(&pid, program, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		r->exec_errno = rc;
		r->status = 127 << 8;
		return 0;
	}
	if (reap(pid, forward, &t1, r, &ru) != 0)
		return -1;
	r->wall_s = t1 - t0;
	r->involuntary = ru.ru_nivcsw;
	r->voluntary = ru.ru_nvcsw;
	r->user_s = timeval_s(&ru.ru_utime);
	r->sys_s = timeval_s(&ru.ru_stime);
	return 0;
}

#define EMPTY_PROGRAM "clockbench-empty"
#ifdef CLOCKBENCH_EMPTY_STATIC
#define EMPTY_KIND "static, does nothing"
#else
#define EMPTY_KIND "dynamically linked, does nothing"
#endif

const char *exec_empty_program(char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, len, "%s/" EMPTY_PROGRAM, exe);
		if (check_executable(path) == 0)
			return EMPTY_PROGRAM " (" EMPTY_KIND ")";
	}
	snprintf(path, len, "/bin/true");
	return "/bin/true (" EMPTY_PROGRAM " is not installed)";
}

void exec_describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
}
