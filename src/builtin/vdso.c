// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench vdso: list what the vDSO exports, check the names this
 * architecture should have, dump the image, or inspect a dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/error.h"
#include "basic/options.h"
#include "builtin/builtin.h"
#include "basic/util.h"
#include "probe/vdso.h"
#include "basic/outfile.h"
#include "report/vdso-table.h"

/* A dump is a few pages; refuse to slurp anything absurd by mistake. */
#define MAX_IMAGE_FILE (64u << 20)


static const char *const vdso_formats[] = { "table", "json", NULL };

struct vdso_opts {
	int format;		/* enum output_format */
	const char *dump;	/* --dump FILE */
	const char *file;	/* --file FILE */
};

static const struct command_usage vdso_usage = {
	.name = "vdso",
	.synopsis = "[--format table|json] [--file FILE] [--dump FILE]",
	.description =
	"List the symbols the vDSO of this process exports (symbol, version,\n"
	"offset, size, type), then whether each name this architecture should\n"
	"export resolves.",
	.footer =
	"Environment:\n"
	"  CLOCKBENCH_NO_VDSO  when non-empty, behave as if there were no vDSO",
};

/* 0, or OPTIONS_HELP or OPTIONS_ERROR (already printed). */
static int parse_vdso_options(int argc, char **argv, struct vdso_opts *o)
{
	struct option_def options[] = {
		OPT_FORMAT('F', &o->format, vdso_formats,
			   "output format: table (default) or json"),
		OPT_STRING('f', "file", "FILE", &o->file,
			   "read the image from FILE (e.g. a dump) instead of\n"
			   "this process's vDSO"),
		OPT_STRING('d', "dump", "FILE", &o->dump,
			   "write the image, exactly as mapped, to FILE and\n"
			   "print nothing else"),
		OPT_END(),
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int n = parse_options(argc, argv, &vdso_usage, options, OPTIONS_NO_ARGS);

	if (n < 0)
		return n;
	if (o->dump && outfile_check_name("--dump", o->dump, &err) != 0)
		return options_fail("%s", err.buf);
	return 0;
}

/* ---- the image ------------------------------------------------------- */

static unsigned char *read_image_file(const char *path, size_t *len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	unsigned char *buf;
	struct stat st;
	size_t n;

	if (!f || fstat(fileno(f), &st) < 0) {
		error_msg("cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		error_msg("%s: not a regular file", path);
		return NULL;
	}
	if ((uint64_t)st.st_size > MAX_IMAGE_FILE) {
		error_msg("%s: %jd bytes is too large for a vDSO image (limit %u)",
			  path, (intmax_t)st.st_size, MAX_IMAGE_FILE);
		return NULL;
	}
	/* Exactly st_size bytes, so that an overread is a sanitizer error. */
	buf = xmalloc((size_t)st.st_size);
	n = fread(buf, 1, (size_t)st.st_size, f);
	if (n != (size_t)st.st_size) {
		error_msg("cannot read %s: %s", path,
			  ferror(f) ? strerror(errno) : "file shrank while reading");
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The image through the output-file policy (basic/outfile.h). */
static int write_image(const struct vdso_image *img, const char *path)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (outfile_write(path, (const char *)img->base, img->len, &err) != 0) {
		error_msg("%s", err.buf);
		return 1;
	}
	return 0;
}

/* ---- the command ----------------------------------------------------- */

int cmd_vdso(int argc, char **argv)
{
	struct vdso_opts o = { .format = FORMAT_TABLE };
	_cleanup_free_ unsigned char *buf = NULL;
	struct vdso_image img;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	size_t len = 0;
	int rc;

	rc = parse_vdso_options(argc, argv, &o);
	if (rc < 0)
		return parse_options_status(rc);
	if (options_checking())
		return 0;
	if (o.file) {
		buf = read_image_file(o.file, &len);
		if (!buf)
			return 1;
		rc = vdso_parse(&img, buf, len, &err);
	} else {
		rc = vdso_self(&img, &err);
	}
	if (rc < 0 && !img.base) {
		error_msg("%sno vDSO: %s", o.dump ? "cannot dump: " : "", err.buf);
		return 1;
	}
	if (rc < 0 && o.dump) {
		/* A broken image is exactly what one wants to send to someone. */
		warn_msg("%s: %s; writing it anyway", o.file ? o.file : "vDSO", err.buf);
		return write_image(&img, o.dump);
	}
	if (rc < 0) {
		error_msg("%s: %s", o.file ? o.file : "vDSO", err.buf);
		return 1;
	}
	if (o.dump)
		return write_image(&img, o.dump);
	if (o.format == FORMAT_JSON)
		return vdso_json_print(stdout, &img, o.file) ? 1 : 0;
	vdso_table_print(stdout, &img, o.file);
	return 0;
}
