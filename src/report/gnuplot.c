// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/util.h"

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

/* One file gp_render() writes: a temporary name until gnuplot succeeded. */
struct staged {
	const char *name;	/* final name in the directory */
	char *tmp;		/* full path of the temporary file */
};

static char *stage(const char *dir, const char *name, struct strbuf *err)
{
	char *path = xmalloc(strlen(dir) + strlen(name) + 16);
	int fd;

	sprintf(path, "%s/.%s.XXXXXX", dir, name);
	fd = mkstemp(path);
	if (fd < 0) {
		strbuf_addf(err, "cannot write in %s: %s", dir, strerror(errno));
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

static int write_file(const char *path, const struct strbuf *sb,
		      struct strbuf *err)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	ok = fwrite(sb->buf, 1, sb->len, f) == sb->len;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	return ok ? 0 : -1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
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

static void exec_gnuplot(const char *gnuplot, const char *dir, const char *vars,
			 const char *script, int errfd)
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || chdir(dir) != 0)
		_exit(127);
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	/* -d: no ~/.gnuplot, so the picture is the script's alone. */
	execl(gnuplot, "gnuplot", "-d", "-e", vars, script, (char *)NULL);
	_exit(127);
}

/* Run gnuplot on script (a name in dir) with vars set: 0, or -1 and why. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *vars,
		       const char *script, struct strbuf *err)
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
	pid = fork();
	if (pid == 0)
		exec_gnuplot(gnuplot, dir, vars, script, fds[1]);
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && out.len < 65536)
			strbuf_add(&out, buf, (size_t)n);
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
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

/* The -e argument: every variable pointing at its temporary file. */
static void staged_vars(const struct staged *files, size_t ncharts,
			struct strbuf *vars)
{
	strbuf_adds(vars, "cb_data = ");
	gp_quote(vars, base_name(files[0].tmp));
	for (size_t i = 0; i < ncharts; i++) {
		strbuf_addf(vars, "; cb_out%zu = ", i + 1);
		gp_quote(vars, base_name(files[2 + i].tmp));
	}
}

/* An output gnuplot left empty (it failed to open or draw): an error. */
static int check_outputs(const struct staged *files, size_t n, struct strbuf *err)
{
	struct stat st;

	for (size_t i = 2; i < n; i++)
		if (stat(files[i].tmp, &st) != 0 || st.st_size == 0) {
			strbuf_addf(err, "gnuplot drew nothing for %s", files[i].name);
			return -1;
		}
	return 0;
}

/* mkstemp() makes 0600 files; pictures get what the umask allows. */
static int publish(struct staged *f, const char *dir, struct strbuf *err)
{
	char *final = xmalloc(strlen(dir) + strlen(f->name) + 2);
	mode_t mask = umask(0);
	int rc = 0;

	umask(mask);
	sprintf(final, "%s/%s", dir, f->name);
	if (chmod(f->tmp, 0666 & ~mask) != 0 || rename(f->tmp, final) != 0) {
		strbuf_addf(err, "cannot write %s: %s", final, strerror(errno));
		rc = -1;
	} else {
		free(f->tmp);
		f->tmp = NULL;
	}
	free(final);
	return rc;
}

static void unstage(struct staged *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (files[i].tmp) {
			unlink(files[i].tmp);
			free(files[i].tmp);
			files[i].tmp = NULL;
		}
}

/* Files: [0] the data, [1] the script, [2..] the outputs. */
static int stage_all(struct gp *gp, const char *dir, struct staged *files,
		     size_t n, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf dat = STRBUF_INIT, gpname = STRBUF_INIT;

	strbuf_addf(&dat, "%s.dat", gp->base);
	strbuf_addf(&gpname, "%s.gp", gp->base);
	files[0].name = strbuf_detach(&dat);
	files[1].name = strbuf_detach(&gpname);
	for (size_t i = 0; i < gp->ncharts; i++)
		files[2 + i].name = gp->outputs[i];
	for (size_t i = 0; i < n; i++)
		if (!(files[i].tmp = stage(dir, files[i].name, err)))
			return -1;
	if (write_file(files[0].tmp, &gp->data, err) ||
	    write_file(files[1].tmp, &gp->script, err))
		return -1;
	return 0;
}

int gp_render(struct gp *gp, const char *dir, bool keep_sources,
	      struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf vars = STRBUF_INIT;
	size_t n = 2 + gp->ncharts;
	struct staged *files = xcalloc(n, sizeof(*files));
	char gnuplot[PATH_MAX];
	int rc = -1;

	if (!gp_find(gnuplot, sizeof(gnuplot))) {
		strbuf_adds(err, GP_MISSING);
		goto out;
	}
	end_block(gp);
	if (stage_all(gp, dir, files, n, err))
		goto out;
	staged_vars(files, gp->ncharts, &vars);
	if (run_gnuplot(gnuplot, dir, vars.buf, base_name(files[1].tmp), err) ||
	    check_outputs(files, n, err))
		goto out;
	/* The pictures first: a failure then leaves no script without them. */
	for (size_t i = 2; i < n; i++)
		if (publish(&files[i], dir, err))
			goto out;
	for (size_t i = 0; keep_sources && i < 2; i++)
		if (publish(&files[i], dir, err))
			goto out;
	rc = 0;
out:
	unstage(files, n);
	free((char *)files[0].name);
	free((char *)files[1].name);
	free(files);
	return rc;
}
