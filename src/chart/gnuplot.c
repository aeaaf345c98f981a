// SPDX-License-Identifier: GPL-2.0-or-later
#include "chart/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/util.h"
#include "basic/outfile.h"

int gp_format_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (strcasecmp(dot, ".svg") == 0)
		return GP_SVG;
	if (strcasecmp(dot, ".png") == 0)
		return GP_PNG;
	return -1;
}

/*
 * name as gnuplot should open it: a file name that starts with '<' is a
 * command to read from, with '|' a command to write to; "./" keeps it a
 * file. gp_render() passes temporary names ('.'), the script keeps these.
 */
static void file_name(struct strbuf *sb, const char *name)
{
	strbuf_addf(sb, "%s%s", *name == '<' || *name == '|' ? "./" : "", name);
}

void gp_init(struct gp *gp, const char *base)
{
	_cleanup_strbuf_ struct strbuf dat = STRBUF_INIT;

	memset(gp, 0, sizeof(*gp));
	gp->base = xstrdup(base);
	strbuf_init(&gp->script);
	strbuf_init(&gp->data);
	/* No names in comments: a comment ending in \ swallows the next line. */
	strbuf_adds(&gp->script, "# Drawn by clockbench; edit it and render it again with "
		    "gnuplot in this directory.\n");
	file_name(&dat, base);
	strbuf_adds(&dat, ".dat");
	gp_cmd(gp, "if (!exists(\"cb_data\")) cb_data = %s", dat.buf);
	gp_cmd(gp, "set encoding utf8");
	strbuf_adds(&gp->data, "# clockbench data for its script: blocks separated by "
		    "two blank lines (gnuplot's index)\n");
}

void gp_release(struct gp *gp)
{
	for (size_t i = 0; i < gp->ncharts; i++)
		free(gp->outputs[i]);
	free(gp->outputs);
	free(gp->base);
	strbuf_release(&gp->script);
	strbuf_release(&gp->data);
	memset(gp, 0, sizeof(*gp));
}

/* ---- script text ------------------------------------------------------ */

/*
 * gnuplot reads a script line by line and, before parsing it, runs every
 * `...` outside single quotes as a shell command and expands @name
 * outside quotes; within "...", \ starts an escape. A double-quoted
 * literal that holds none of ` @ " \ nor a control character as itself
 * is therefore inert text, whatever it says (checked against gnuplot 5.4:
 * tests/unit/test-plot.c reads every byte back through gnuplot's print).
 */
void gp_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			strbuf_adds(sb, "\\n");
		else if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c == '`' || c == '@' || c < ' ' || c == 0x7f)
			strbuf_addf(sb, "\\%03o", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
}

/* The conversion at fmt (just after a '%'): its length, up to its letter. */
static size_t conversion_len(const char *fmt)
{
	size_t n = strspn(fmt, "-+ #0");

	n += strspn(fmt + n, "0123456789");
	if (fmt[n] == '.')
		n += 1 + strspn(fmt + n + 1, "0123456789");
	n += strspn(fmt + n, "hlLzjt");
	return fmt[n] ? n + 1 : n;
}

/* One numeric conversion spec ("%.4g", "%zu") of the next argument. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void add_number(struct strbuf *sb, const char *spec, size_t len, va_list *ap)
{
	char conv = spec[len - 1];
	const char *mod = spec + 1 + strspn(spec + 1, "-+ #0123456789.");

	if (strchr("di", conv)) {
		if (*mod == 'z')
			strbuf_addf(sb, spec, va_arg(*ap, ssize_t));
		else if (mod[0] == 'l' && mod[1] == 'l')
			strbuf_addf(sb, spec, va_arg(*ap, long long));
		else if (*mod == 'l')
			strbuf_addf(sb, spec, va_arg(*ap, long));
		else if (*mod == 'j' || *mod == 't' || *mod == 'L')
			fatal("gnuplot script format %s: not supported", spec);
		else
			strbuf_addf(sb, spec, va_arg(*ap, int));
	} else if (strchr("uxXo", conv)) {
		if (*mod == 'z')
			strbuf_addf(sb, spec, va_arg(*ap, size_t));
		else if (mod[0] == 'l' && mod[1] == 'l')
			strbuf_addf(sb, spec, va_arg(*ap, unsigned long long));
		else if (*mod == 'l')
			strbuf_addf(sb, spec, va_arg(*ap, unsigned long));
		else if (*mod == 'j' || *mod == 't' || *mod == 'L')
			fatal("gnuplot script format %s: not supported", spec);
		else
			strbuf_addf(sb, spec, va_arg(*ap, unsigned));
	} else if (strchr("fFeEgGaA", conv) && *mod != 'L') {
		strbuf_addf(sb, spec, va_arg(*ap, double));
	} else {
		fatal("gnuplot script format %s: not supported", spec);
	}
}
#pragma GCC diagnostic pop

/*
 * The quote a format's literal text leaves open after len bytes, given the
 * one open before them (0: none): a %s there would be text inside a
 * literal, where its quotes and letters would be code again.
 */
static char open_quote(const char *text, size_t len, char quote)
{
	for (size_t i = 0; i < len; i++) {
		if (quote == '"' && text[i] == '\\' && i + 1 < len)
			i++;
		else if (quote && text[i] == quote)
			quote = 0;
		else if (!quote && (text[i] == '\'' || text[i] == '"'))
			quote = text[i];
	}
	return quote;
}

/*
 * printf's formatting, but a %s argument becomes a string literal
 * (gp_quote()): nothing a caller passes as text is pasted into the script.
 * A %s inside a literal of the format ('%s', "x %s") is a bug, refused.
 */
static void script_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	const char *whole = fmt;
	char quote = 0;
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		size_t plain = strcspn(fmt, "%"), n;
		char spec[32];

		strbuf_add(sb, fmt, plain);
		quote = open_quote(fmt, plain, quote);
		fmt += plain;
		if (!*fmt)
			break;
		if (fmt[1] == '%') {
			strbuf_addch(sb, '%');
			fmt += 2;
			continue;
		}
		n = conversion_len(fmt + 1);
		if (n == 0 || n + 2 > sizeof(spec))
			fatal("gnuplot script format \"%s\": bad conversion", whole);
		snprintf(spec, sizeof(spec), "%%%.*s", (int)n, fmt + 1);
		fmt += 1 + n;
		if (streq(spec, "%s") && quote)
			fatal("gnuplot script format \"%s\": %%s inside a quoted string", whole);
		if (streq(spec, "%s"))
			gp_quote(sb, va_arg(args, const char *));
		else
			add_number(sb, spec, n + 1, &args);
	}
	va_end(args);
}

void gp_cmd(struct gp *gp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	script_vaddf(&gp->script, fmt, ap);
	va_end(ap);
	strbuf_addch(&gp->script, '\n');
}

void gp_addf(struct gp_clause *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	script_vaddf(&c->text, fmt, ap);
	va_end(ap);
}

void gp_cmd_clause(struct gp *gp, struct gp_clause *c)
{
	strbuf_add(&gp->script, c->text.buf, c->text.len);
	strbuf_addch(&gp->script, '\n');
	gp_clause_release(c);
}

void gp_clause_release(struct gp_clause *c)
{
	strbuf_release(&c->text);
}

void gp_data_string(struct strbuf *sb, const char *s)
{
	/* gnuplot's data files know no escapes: a " would end the field. */
	strbuf_addch(sb, '"');
	for (; *s; s++)
		strbuf_addch(sb, *s == '"' ? '\'' : (unsigned char)*s < ' ' ? ' ' : *s);
	strbuf_addch(sb, '"');
}

void gp_chart(struct gp *gp, const char *output, enum gp_format format,
	      int width, int height)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	size_t k = ++gp->ncharts;

	gp->outputs = xrealloc(gp->outputs, k * sizeof(char *));
	gp->outputs[k - 1] = xstrdup(output);
	strbuf_addf(&gp->script, "\n# ---- chart %zu\n", k);
	gp_cmd(gp, "reset");
	file_name(&out, output);
	gp_cmd(gp, "if (!exists(\"cb_out%zu\")) cb_out%zu = %s", k, k, out.buf);
	if (format == GP_PNG)
		gp_cmd(gp, "set terminal pngcairo size %d,%d noenhanced font %s "
		       "background %s", width, height, "sans,10", "#ffffff");
	else
		gp_cmd(gp, "set terminal svg size %d,%d dynamic noenhanced "
		       "font %s background %s", width, height, "sans-serif,12", "#ffffff");
	gp_cmd(gp, "set output cb_out%zu", k);
}

/*
 * gnuplot does not count a block without a data line as one: every later
 * index would point at the wrong block. An empty block gets a line of
 * NaN, which draws nothing.
 */
static void end_block(struct gp *gp)
{
	if (gp->nblocks && !gp->block_rows)
		strbuf_adds(&gp->data, "NaN\n");
	gp->block_rows = 0;
}

unsigned gp_block(struct gp *gp, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf comment = STRBUF_INIT;
	va_list ap;

	end_block(gp);
	if (gp->nblocks)
		strbuf_adds(&gp->data, "\n\n");
	strbuf_addf(&gp->data, "# index %u: ", gp->nblocks);
	va_start(ap, fmt);
	strbuf_vaddf(&comment, fmt, ap);
	va_end(ap);
	/* The comment names cells and runs: one line, whatever they hold. */
	for (char *p = comment.buf; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	strbuf_add(&gp->data, comment.buf, comment.len);
	strbuf_addch(&gp->data, '\n');
	return gp->nblocks++;
}

void gp_row(struct gp *gp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&gp->data, fmt, ap);
	va_end(ap);
	strbuf_addch(&gp->data, '\n');
	gp->block_rows++;
}

bool gp_find(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX];

	if (!path || !*path)
		return false;
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n)
			snprintf(dir, sizeof(dir), "%.*s", (int)n, path);
		else
			snprintf(dir, sizeof(dir), ".");
		snprintf(buf, len, "%s/gnuplot", dir);
		if (access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

void gp_split_path(const char *path, char **dir, char **name)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*dir = xstrdup(".");
		*name = xstrdup(path);
	} else {
		*dir = slash == path ? xstrdup("/") :
		       strndup(path, (size_t)(slash - path));
		if (!*dir)
			fatal("out of memory");
		*name = xstrdup(slash + 1);
	}
}

int gp_check_dir(const char *dir, struct strbuf *err)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		strbuf_addf(err, "cannot write in %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "cannot write in %s: not a directory", dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		strbuf_addf(err, "cannot write in %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- rendering ------------------------------------------------------- */

/*
 * gnuplot runs in a private staging directory (outfile.h) on the script
 * and data written there under their final names; clockbench reads the
 * pictures back, checks that each is whole, and writes every file to its
 * destination itself: gnuplot ignores a failed write, clockbench does not.
 */

static void path_in(struct strbuf *sb, const char *dir, const char *name)
{
	strbuf_setf(sb, "%s/%s", dir, name);
}

/* A new file in the staging directory. */
static int write_new(const char *path, const struct strbuf *sb, struct strbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	const char *p = sb->buf;
	size_t left = sb->len;

	if (fd < 0)
		goto fail;
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			close(fd);
			goto fail;
		}
		p += n;
		left -= (size_t)n;
	}
	if (close(fd) == 0)
		return 0;
fail:
	strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	return -1;
}

/* The last non-empty line gnuplot wrote: where its error is. */
static void last_line(const char *text, struct strbuf *out)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	strbuf_add(out, start, (size_t)(end - start));
}

static void exec_gnuplot(const char *gnuplot, const char *dir, const char *script,
			 int errfd, const sigset_t *mask, pid_t parent)
{
	int null = open("/dev/null", O_RDWR);

	/* A process group of its own: an interrupted clockbench kills it whole. */
	setpgid(0, 0);
	/* And a clockbench killed outright (SIGKILL) takes it along. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (null < 0 || chdir(dir) != 0)
		_exit(127);
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	/* -d: no ~/.gnuplot, so the picture is the script's alone. */
	execl(gnuplot, "gnuplot", "-d", script, (char *)NULL);
	_exit(127);
}

/* Fork gnuplot, registered as the child an interrupt stops; -1 when fork fails. */
static pid_t start_gnuplot(const char *gnuplot, const char *dir, const char *script,
			   int errfd)
{
	pid_t self = getpid(), pid;
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid == 0)
		exec_gnuplot(gnuplot, dir, script, errfd, &old, self);
	if (pid > 0) {
		setpgid(pid, pid);
		outfile_staging_child(pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/*
 * Wait for gnuplot to end, then reap it with interrupts blocked: the
 * interrupt handler never signals a pid that was reaped (and reused).
 */
static int wait_gnuplot(pid_t pid, int *status)
{
	sigset_t block, old;
	siginfo_t info;
	int rc;

	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0)
		if (errno != EINTR)
			return -1;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	rc = waitpid(pid, status, 0) == pid ? 0 : -1;
	outfile_staging_child(0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Run gnuplot on script (a name in dir): 0, or -1 and why. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script,
		       struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	char buf[4096];
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		strbuf_addf(err, "cannot run gnuplot: %s", strerror(errno));
		return -1;
	}
	pid = start_gnuplot(gnuplot, dir, script, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		strbuf_addf(err, "cannot run gnuplot: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && out.len < 65536)
			strbuf_add(&out, buf, (size_t)n);
	close(fds[0]);
	if (wait_gnuplot(pid, &status) != 0) {
		strbuf_addf(err, "cannot run gnuplot: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	strbuf_adds(err, "gnuplot failed: ");
	if (out.len)
		last_line(out.buf, err);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		strbuf_addf(err, "cannot run %s", gnuplot);
	else
		strbuf_addf(err, "exit status %d", WIFEXITED(status) ?
			    WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return -1;
}

static bool ends_with(const struct strbuf *sb, const char *tail, size_t len)
{
	return sb->len >= len && memcmp(sb->buf + sb->len - len, tail, len) == 0;
}

void gp_script_arg(struct strbuf *sb, const char *base)
{
	strbuf_addf(sb, "./%s.gp", base);
}

bool gp_picture_whole(const struct strbuf *pic, enum gp_format format)
{
	static const char png_signature[8] = "\x89PNG\r\n\x1a\n";
	/* The IEND chunk: no data, its type, its CRC. */
	static const char png_end[12] = "\0\0\0\0IEND\xae\x42\x60\x82";
	size_t len = pic->len;

	if (format == GP_PNG)
		return len >= sizeof(png_signature) + sizeof(png_end) &&
		       memcmp(pic->buf, png_signature, sizeof(png_signature)) == 0 &&
		       ends_with(pic, png_end, sizeof(png_end));
	while (len && strchr(" \t\r\n", pic->buf[len - 1]))
		len--;
	return len >= 6 && memcmp(pic->buf + len - 6, "</svg>", 6) == 0;
}

/* Every chart's picture read back from the staging directory, each whole. */
static int read_pictures(const struct gp *gp, const char *stage,
			 struct strbuf *pictures, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;

	for (size_t i = 0; i < gp->ncharts; i++) {
		int format = gp_format_of(gp->outputs[i]);

		path_in(&path, stage, gp->outputs[i]);
		if (outfile_read(path.buf, &pictures[i]) != 0 || !pictures[i].len) {
			strbuf_addf(err, "gnuplot drew nothing for %s", gp->outputs[i]);
			return -1;
		}
		if (!gp_picture_whole(&pictures[i], format < 0 ? GP_SVG :
				      (enum gp_format)format)) {
			strbuf_addf(err, "gnuplot left %s cut short (a full disk in %s?)",
				    gp->outputs[i], stage);
			return -1;
		}
	}
	return 0;
}

int gp_draw(struct gp *gp, struct strbuf *pictures, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf dat = STRBUF_INIT, script = STRBUF_INIT,
		path = STRBUF_INIT;
	char gnuplot[PATH_MAX], stage[PATH_MAX];
	int rc = -1;

	if (!gp_find(gnuplot, sizeof(gnuplot))) {
		strbuf_adds(err, GP_MISSING);
		return -1;
	}
	end_block(gp);
	if (outfile_staging_create(stage, sizeof(stage), err) != 0)
		return -1;
	strbuf_addf(&dat, "%s.dat", gp->base);
	gp_script_arg(&script, gp->base);
	path_in(&path, stage, dat.buf);
	if (write_new(path.buf, &gp->data, err) != 0)
		goto out;
	path_in(&path, stage, script.buf);
	if (write_new(path.buf, &gp->script, err) != 0 ||
	    run_gnuplot(gnuplot, stage, script.buf, err) != 0 ||
	    read_pictures(gp, stage, pictures, err) != 0)
		goto out;
	rc = 0;
out:
	outfile_staging_remove(stage);
	return rc;
}

/* Each file gp_render() writes in dir, with what goes in it. */
struct gp_file {
	struct strbuf path;
	const char *data;
	size_t len;
	unsigned flags;
};

/* The pictures (their contents when drawn), then the script, then the data. */
static size_t gp_files(const struct gp *gp, const char *dir, const struct strbuf *pictures,
		       unsigned flags, struct gp_file **out)
{
	size_t n = gp->ncharts + ((flags & GP_KEEP_SOURCES) ? 2 : 0);
	struct gp_file *files = xcalloc(n ? n : 1, sizeof(*files));
	unsigned side = OUTFILE_SIDE | ((flags & GP_REPLACE_SOURCES) ? OUTFILE_FORCE : 0);

	for (size_t i = 0; i < n; i++) {
		strbuf_init(&files[i].path);
		if (i < gp->ncharts) {
			path_in(&files[i].path, dir, gp->outputs[i]);
			files[i].data = pictures ? pictures[i].buf : "";
			files[i].len = pictures ? pictures[i].len : 0;
		} else {
			const struct strbuf *sb = i == gp->ncharts ? &gp->script : &gp->data;

			strbuf_setf(&files[i].path, "%s/%s.%s", dir, gp->base,
				    i == gp->ncharts ? "gp" : "dat");
			files[i].data = sb->buf;
			files[i].len = sb->len;
			files[i].flags = side;
		}
	}
	*out = files;
	return n;
}

static void gp_files_free(struct gp_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_release(&files[i].path);
	free(files);
}

int gp_check_render(struct gp *gp, const char *dir, unsigned flags, struct strbuf *err)
{
	struct gp_file *files;
	size_t n;
	int rc = 0;

	n = gp_files(gp, dir, NULL, flags, &files);
	for (size_t i = 0; i < n && !rc; i++)
		rc = outfile_check(files[i].path.buf, files[i].data, files[i].len,
				   files[i].flags, err);
	gp_files_free(files, n);
	return rc;
}

int gp_write(struct gp *gp, const char *dir, const struct strbuf *pictures,
	     unsigned flags, struct strbuf *err)
{
	struct gp_file *files;
	size_t n = gp_files(gp, dir, pictures, flags, &files), done = 0;
	bool *was_new = xcalloc(n ? n : 1, sizeof(*was_new));
	struct stat st;
	int rc = 0;

	for (; done < n && !rc; done++) {
		was_new[done] = lstat(files[done].path.buf, &st) != 0 && errno == ENOENT;
		rc = outfile_write_flags(files[done].path.buf, files[done].data,
					 files[done].len, files[done].flags, err);
	}
	/* A failure (a full disk) takes back the files this call created. */
	for (size_t i = 0; rc && i + 1 < done; i++)
		if (was_new[i])
			unlink(files[i].path.buf);
	free(was_new);
	gp_files_free(files, n);
	return rc;
}

int gp_render(struct gp *gp, const char *dir, unsigned flags, struct strbuf *err)
{
	struct strbuf *pictures = xcalloc(gp->ncharts ? gp->ncharts : 1, sizeof(*pictures));
	int rc;

	for (size_t i = 0; i < gp->ncharts; i++)
		strbuf_init(&pictures[i]);
	rc = gp_check_render(gp, dir, flags, err) || gp_draw(gp, pictures, err) ||
	     gp_write(gp, dir, pictures, flags, err) ? -1 : 0;
	for (size_t i = 0; i < gp->ncharts; i++)
		strbuf_release(&pictures[i]);
	free(pictures);
	return rc;
}
