// SPDX-License-Identifier: GPL-2.0-or-later
#include "chart/palette.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basic/util.h"

/*
 * Okabe-Ito, reordered: black, orange, blue, yellow, vermillion, sky blue,
 * then bluish green and reddish purple. Each of the first six differs from
 * its neighbour by at least 15 in L* (the unit test holds that), so
 * neighbouring series stay apart in greyscale even before dashes and
 * shapes.
 */
static const char *const series[] = {
	"#000000", "#E69F00", "#0072B2", "#F0E442",
	"#D55E00", "#56B4E9", "#009E73", "#CC79A7",
};

/* gnuplot point types: filled circle, triangle, square, diamond, ... */
static const int points[] = { 7, 9, 5, 13, 11, 6, 8, 4 };

size_t palette_size(void)
{
	return ARRAY_SIZE(series);
}

const char *palette_series(size_t i)
{
	return series[i % ARRAY_SIZE(series)];
}

int palette_dash(size_t i)
{
	return (int)(i % 5) + 1;
}

int palette_point(size_t i)
{
	return points[i % ARRAY_SIZE(points)];
}

const char *palette_path(const char *path)
{
	if (streq(path, "vdso"))
		return "#0072B2";	/* blue, L* 46 */
	if (streq(path, "libc"))
		return "#E69F00";	/* orange, L* 73 */
	if (streq(path, "syscall"))
		return "#000000";	/* black, L* 0 */
	return "#009E73";
}

struct verdict_style {
	const char *verdict;
	const char *colour;
	int point;
};

/*
 * Blue against vermillion is the pair every colour vision tells apart;
 * worse points up, better points down, the rest are open shapes.
 */
static const struct verdict_style verdicts[] = {
	{ "worse", "#D55E00", 9 },	/* vermillion, filled triangle up */
	{ "better", "#0072B2", 11 },	/* blue, filled triangle down */
	{ "~", "#999999", 6 },		/* grey, open circle */
	{ "noisy", "#E69F00", 2 },	/* orange, cross */
	{ "same", "#009E73", 12 },	/* bluish green, open diamond: counts equal */
	{ "few", "#CC79A7", 4 },	/* reddish purple, open square */
};

static const struct verdict_style *verdict_style(const char *verdict)
{
	for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++)
		if (streq(verdict, verdicts[i].verdict))
			return &verdicts[i];
	return &verdicts[2];
}

const char *palette_verdict(const char *verdict)
{
	return verdict_style(verdict)->colour;
}

int palette_verdict_point(const char *verdict)
{
	return verdict_style(verdict)->point;
}

static double linear(unsigned v)
{
	double c = v / 255.0;

	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double palette_lightness(const char *hex)
{
	unsigned r, g, b;
	double y;

	if (!hex || strlen(hex) != 7 || hex[0] != '#' ||
	    sscanf(hex + 1, "%2x%2x%2x", &r, &g, &b) != 3)
		return -1;
	y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
	return y > 216.0 / 24389 ? 116 * cbrt(y) - 16 : y * 24389.0 / 27;
}

void palette_tint(const char *colour, double share, char buf[8])
{
	unsigned rgb[3];

	if (strlen(colour) != 7 || sscanf(colour + 1, "%2x%2x%2x", &rgb[0], &rgb[1],
					  &rgb[2]) != 3) {
		snprintf(buf, 8, "#cccccc");
		return;
	}
	for (int i = 0; i < 3; i++)
		rgb[i] = 255 - (unsigned)lround((255 - rgb[i]) * share);
	snprintf(buf, 8, "#%02X%02X%02X", rgb[0] & 255, rgb[1] & 255, rgb[2] & 255);
}
