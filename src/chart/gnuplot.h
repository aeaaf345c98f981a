/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Charts drawn by gnuplot: a script and one data file, written beside the
 * pictures so that a user can edit the script and render it again
 * (`gnuplot NAME.gp` in that directory), and the run of gnuplot itself.
 *
 *	struct gp gp;
 *	gp_init(&gp, "cells");
 *	gp_chart(&gp, "cells.svg", GP_SVG, 1200, 600);
 *	unsigned k = gp_block(&gp, "vdso");	(rows follow: gp_row)
 *	gp_cmd(&gp, "plot cb_data index %u using 2:1 with points title %s", k, label);
 *	rc = gp_render(&gp, dir, GP_KEEP_SOURCES, &err);
 *
 * The script names its data file and outputs through variables (cb_data,
 * cb_out1, ...) with the final names as defaults. gnuplot runs in a
 * private directory; clockbench checks each picture and writes it into
 * place itself: an output path never holds half a picture.
 */
#ifndef CLOCKBENCH_GNUPLOT_H
#define CLOCKBENCH_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

enum gp_format {
	GP_SVG,
	GP_PNG,
};

/* The format a file name asks for by its extension: GP_SVG, GP_PNG or -1. */
int gp_format_of(const char *path);

struct gp {
	char *base;		/* "cells": cells.gp and cells.dat */
	struct strbuf script;
	struct strbuf data;
	unsigned nblocks;	/* data blocks (gnuplot's "index") so far */
	size_t block_rows;	/* data lines of the current block */
	char **outputs;		/* each chart's output, relative to the directory */
	size_t ncharts;
};

void gp_init(struct gp *gp, const char *base);
void gp_release(struct gp *gp);

/*
 * Script text. Every byte of the script comes from gp_cmd(), gp_addf()
 * or gp_chart(), whose formats are printf's but for one thing: a %s
 * argument is never pasted into the script, it becomes a gnuplot string
 * literal (gp_quote()). So a label, a cell name, a unit or a path cannot
 * become gnuplot code, however a caller spells its format: write
 * `title %s`, never `title '%s'` (which would show the quotes). Keywords
 * that vary are chosen by the caller's code (two formats), not passed as
 * %s. Numbers (%d, %zu, %.4g ...) are printf's; %c, %p, %n and %s with a
 * width, precision or flag are refused (fatal: a bug).
 */
void gp_cmd(struct gp *gp, const char *fmt, ...) _printf_(2, 3);

/*
 * A command written in pieces (one clause per series of a plot command,
 * while the data blocks are added), filled only by gp_addf(), then made a
 * line of the script by gp_cmd_clause(), which also releases it.
 */
struct gp_clause {
	struct strbuf text;
};
#define GP_CLAUSE_INIT { STRBUF_INIT }
void gp_addf(struct gp_clause *c, const char *fmt, ...) _printf_(2, 3);
void gp_cmd_clause(struct gp *gp, struct gp_clause *c);
void gp_clause_release(struct gp_clause *c);

/*
 * s as a gnuplot string literal: double quotes, with \ " ` @, newlines and
 * control characters as escapes, so that gnuplot reads back exactly s and
 * runs nothing (no `...` command, no @macro). The one way text reaches a
 * script; gp_cmd()'s %s calls it.
 */
void gp_quote(struct strbuf *sb, const char *s);
/* s as a string field of a data line ("..", without double quotes). */
void gp_data_string(struct strbuf *sb, const char *s);

/*
 * Start a chart: reset, terminal, size in pixels, output. output is a file
 * name in the directory gp_render() writes to.
 */
void gp_chart(struct gp *gp, const char *output, enum gp_format format,
	      int width, int height);

/* Start data block (returned: its index), with a comment naming it. */
unsigned gp_block(struct gp *gp, const char *fmt, ...) _printf_(2, 3);
/* A data line of the current block. */
void gp_row(struct gp *gp, const char *fmt, ...) _printf_(2, 3);

/*
 * The gnuplot to run: "gnuplot" found in PATH, into buf. false when there
 * is none.
 */
bool gp_find(char *buf, size_t len);

/*
 * "out/cells.svg" as its directory ("out", "." when none) and file name
 * ("cells.svg"), both malloc'd.
 */
void gp_split_path(const char *path, char **dir, char **name);

/*
 * Whether dir is a directory this process can create files in: 0, or -1
 * with "cannot write in DIR: reason" in err.
 */
int gp_check_dir(const char *dir, struct strbuf *err);

/*
 * BASE.gp as gnuplot's command-line argument: "./BASE.gp", always. gnuplot
 * reads a file argument as `load` does, and `load` takes a name that
 * starts with '<' for a command to run; '-' would be an option.
 */
void gp_script_arg(struct strbuf *sb, const char *base);

/* What to say when gnuplot is missing. */
#define GP_MISSING "gnuplot not found in PATH: install it (Debian: apt-get install gnuplot-nox)"

/*
 * Run gnuplot on the script and data in a private staging directory
 * (removed before returning, and by SIGTERM, SIGINT or SIGHUP, which
 * also stop gnuplot) and read back each chart's picture into pictures[i]
 * (gp->ncharts strbufs, initialised), each checked whole. 0, or -1 with
 * one line in err.
 */
int gp_draw(struct gp *gp, struct strbuf *pictures, struct strbuf *err);

/* Whether a picture is whole: a PNG ends in its IEND chunk, an SVG in </svg>. */
bool gp_picture_whole(const struct strbuf *pic, enum gp_format format);

enum {
	GP_KEEP_SOURCES = 1 << 0,	/* also write BASE.gp and BASE.dat in dir */
	GP_REPLACE_SOURCES = 1 << 1,	/* even over files clockbench did not write */
};

/*
 * gp_draw(), then every picture and (GP_KEEP_SOURCES) the script and data
 * written into dir as basic/outfile.h writes files: an existing BASE.gp
 * or BASE.dat that clockbench did not write is refused unless
 * GP_REPLACE_SOURCES. 0, or -1 with one line in err; a refusal comes
 * before anything is written.
 */
int gp_render(struct gp *gp, const char *dir, unsigned flags, struct strbuf *err);

/* gp_render() in parts: whether it would write every file, and the writing. */
int gp_check_render(struct gp *gp, const char *dir, unsigned flags, struct strbuf *err);
int gp_write(struct gp *gp, const char *dir, const struct strbuf *pictures,
	     unsigned flags, struct strbuf *err);

#endif
