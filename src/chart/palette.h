/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The colours of the charts: Okabe and Ito's palette, which readers with
 * any common colour-vision deficiency tell apart, in an order whose
 * neighbours also differ in lightness, so that a greyscale print keeps
 * them apart. Every series also gets its own dash and point shape, and
 * every verdict its own shape: colour is never the only carrier.
 */
#ifndef CLOCKBENCH_PALETTE_H
#define CLOCKBENCH_PALETTE_H

#include <stddef.h>

/* "#RRGGBB" of series i (cycles through the palette). */
const char *palette_series(size_t i);
/* gnuplot dash type and point type of series i. */
int palette_dash(size_t i);
int palette_point(size_t i);
/* How many series have distinct colours. */
size_t palette_size(void);

/* A path's colour: vdso, libc and syscall far apart in lightness. */
const char *palette_path(const char *path);
/* A verdict's colour and gnuplot point type ("worse": a triangle up). */
const char *palette_verdict(const char *verdict);
int palette_verdict_point(const char *verdict);

/*
 * colour at strength share (0..1) over white, into buf ("#RRGGBB"): an
 * opaque tint, cheaper to print and display than a transparent fill.
 */
void palette_tint(const char *colour, double share, char buf[8]);

/* CIE L* lightness (0 black .. 100 white) of "#RRGGBB"; -1 if malformed. */
double palette_lightness(const char *hex);

#endif
