// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the report's pieces: the mail's wrapping and figures, the
 * HTML's escaping and the inlining of gnuplot's SVG (ids made unique per
 * chart), the report's sections, and files written whole or not at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "basic/util.h"
#include "chart/gnuplot.h"
#include "document/html.h"
#include "document/mail.h"
#include "basic/outfile.h"
#include "results/compare.h"
#include "results/run-facts.h"

static void test_wrap(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_wrap(&sb, "one two three four", 9, "> ", "    ");
	assert_string_equal(sb.buf, "> one two\n    three\n    four\n");
	strbuf_reset(&sb);
	/* A word longer than the line (a host name) is cut to fit it. */
	mail_wrap(&sb, "a verylongwordindeed b", 8, "", "  ");
	assert_string_equal(sb.buf, "a\n  verylo\n  ngword\n  indeed\n  b\n");
	strbuf_reset(&sb);
	mail_wrap(&sb, "exactly ten", 11, "", "");
	assert_string_equal(sb.buf, "exactly ten\n");
	strbuf_reset(&sb);
	/* A figure and its unit stay together, printed with a space. */
	mail_wrap(&sb, "x (+33.2" MAIL_GLUE "%, ok)", 10, "", "");
	assert_string_equal(sb.buf, "x\n(+33.2 %,\nok)\n");
	strbuf_reset(&sb);
	/* Columns are characters, not bytes. */
	mail_wrap(&sb, "\u00e9 \u00e9 \u00e9", 3, "", "");
	assert_string_equal(sb.buf, "\u00e9 \u00e9\n\u00e9\n");
	strbuf_release(&sb);
}

static void test_figures(void **state)
{
	const double v[] = { 26.1, 1127.33, 146.78, 2.034, 0.01234, -3.5 };
	const char *want[] = { "26.10", "1127", "146.8", "2.03", "0.0123", "-3.50" };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		strbuf_reset(&sb);
		mail_figure(&sb, v[i]);
		assert_string_equal(sb.buf, want[i]);
	}
	strbuf_release(&sb);
}

static void test_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	html_escape(&sb, "<a href=\"x\">it's & that</a>");
	assert_string_equal(sb.buf, "&lt;a href=&quot;x&quot;&gt;it&#39;s &amp; that&lt;/a&gt;");
	strbuf_release(&sb);
}

/* Two charts define gpPt0: inline, each gets its own, and refers to it. */
static void test_inline_svg(void **state)
{
	static const char svg[] =
		"<?xml version=\"1.0\"?>\n<svg \n viewBox=\"0 0 10 10\">\n"
		"<title>Gnuplot</title>\n<g id=\"gnuplot_canvas\">\n"
		"\t<path id='gpPt0' d='M0,0'/>\n<use xlink:href='#gpPt0'/>\n"
		"<rect fill=\"url(#gpPat1)\"/>\n<text>id='x' stays</text>\n</g></svg>\n";
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	(void)state;
	assert_true(html_inline_svg(&sb, svg, "c2", "Cost <per> call", &why));
	assert_true(strncmp(sb.buf, "<svg", 4) == 0);
	assert_non_null(strstr(sb.buf, "<title>Cost &lt;per&gt; call</title>"));
	assert_non_null(strstr(sb.buf, "<g id=\"c2-gnuplot_canvas\">"));
	assert_non_null(strstr(sb.buf, "\t<path id='c2-gpPt0'"));
	assert_non_null(strstr(sb.buf, "xlink:href='#c2-gpPt0'"));
	assert_non_null(strstr(sb.buf, "url(#c2-gpPat1)"));
	assert_non_null(strstr(sb.buf, "<text>id='x' stays</text>"));
	assert_null(strstr(sb.buf, "<?xml"));
	assert_false(html_inline_svg(&sb, "<html/>", "c1", "x", &why));
	assert_string_equal(why.buf, "no <svg> element");
	strbuf_release(&sb);
	strbuf_release(&why);
}

/*
 * Issue 18, 2: gnuplot's SVG is code in a browser. What its terminal draws
 * with passes; a script, a handler, an element it never writes or a
 * reference outside the chart is refused, and nothing of it is inlined.
 */
static void test_svg_inert(void **state)
{
	static const char *const refused[][2] = {
		{ "<svg><script>alert(1)</script></svg>", "(<script)" },
		{ "<svg><SCRIPT xlink:href='x.js'/></svg>", "(<SCRIPT)" },
		{ "<svg onload='alert(1)'></svg>", "an event handler (onload)" },
		{ "<svg><g\nONclick=\"x()\"/></svg>", "an event handler (ONclick)" },
		{ "<svg><use xlink:href='http://x/y.svg#a'/></svg>", "outside the chart (xlink:href)" },
		{ "<svg><use href=\"data:image/svg+xml,x\"/></svg>", "outside the chart (href)" },
		{ "<svg><rect fill='url( \"http://x/\")'/></svg>", "outside the chart (fill)" },
		{ "<svg><rect style='fill:url(#a);background:url(//x)'/></svg>", "outside the chart (style)" },
		{ "<svg><rect style='b:u\\72l(//x)'/></svg>", "an escape in attribute style" },
		{ "<svg><use xlink:href='&#106;avascript:x'/></svg>", "outside the chart" },
		{ "<svg><a href='#x'>x</a></svg>", "(<a)" },
		{ "<svg><set attributeName='href' to='javascript:x'/></svg>", "(<set)" },
		{ "<svg><foreignObject><iframe/></foreignObject></svg>", "(<foreignObject)" },
		{ "<svg><image href='#a'/></svg>", "(<image)" },
		{ "<svg><style>@import url(x)</style></svg>", "(<style)" },
		{ "<svg><![CDATA[x]]></svg>", "(<!)" },
		{ "<svg><!--><script>x()</script><!-- --></svg>", "(<!)" },
		{ "<svg><g id=x/></svg>", "an attribute gnuplot does not write" },
		{ "<svg><g\fonload='x()'/></svg>", "an event handler (onload)" },
		{ "<svg><g \x01onload='x()'/></svg>", "an attribute gnuplot does not write" },
		{ "<svg/onload='x()'></svg>", "an event handler (onload)" },
		{ "<svg><g id='x/></svg>", "left open" },
	};
	static const char ok[] =
		"<svg width='10' xmlns='http://www.w3.org/2000/svg' "
		"xmlns:xlink='http://www.w3.org/1999/xlink'>\n"
		"<title>a &lt;b> c</title><defs><pattern id='p'><path d='M0,0'/></pattern>"
		"<filter id='f'><feFlood flood-color='#fff'/><feComposite in='SourceGraphic'/>"
		"</filter></defs><g fill='url(#p)' style='stroke:url(#f)'><use xlink:href='#p'/>"
		"<text>x &amp; onload='y' <tspan>z</tspan></text></g></svg>\n";
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	(void)state;
	assert_true(html_svg_inert(ok, &why));
	assert_string_equal(why.buf, "");
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		strbuf_reset(&why);
		assert_false(html_inline_svg(&sb, refused[i][0], "c1", "t", &why));
		if (!strstr(why.buf, refused[i][1]))
			fail_msg("%s: %s", refused[i][0], why.buf);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
	strbuf_release(&why);
}

static void make_run(struct stored_run *r, int64_t id, const char *label, double base)
{
	struct stored_cell *c;

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->command = xstrdup("bench");
	r->label = xstrdup(label);
	r->host = xstrdup("vm1");
	r->kernel = xstrdup("6.18");
	r->status = xstrdup("complete");
	snprintf(r->uuid, sizeof(r->uuid), "u%lld", (long long)id);
	r->env = json_pack("{s:s, s:{s:s}}", "clocksource", "tsc", "libc", "name", "glibc");
	r->ncells = 2;
	r->cells = xcalloc(2, sizeof(*r->cells));
	for (size_t k = 0; k < 2; k++) {
		c = &r->cells[k];
		c->name = xstrdup(k ? "times" : "clock-gettime-monotonic");
		c->path = xstrdup(k ? "syscall" : "vdso");
		c->api = xstrdup(k ? "times" : "clock_gettime");
		c->clock = xstrdup("");
		c->status = xstrdup(k ? "n/a" : "ok");
		c->reason = xstrdup(k ? "no such <call>" : "");
		c->unit = xstrdup("ns");
		c->cycles_unit = xstrdup("");
		if (k)
			continue;
		c->n = 50;
		c->values = xmalloc(50 * sizeof(double));
		for (size_t i = 0; i < 50; i++)
			c->values[i] = base + 0.01 * (double)(i % 5);
	}
}

/* A run alone: its charts, the summary after them, show's table, the env. */
static void test_report_one_run(void **state)
{
	struct stored_run run;
	struct compare_group g = { .spec = (char *)"7", .nruns = 1 };
	struct plot_input in = { .groups = &g, .ngroups = 1 };
	struct html_chart chart = { PLOT_CELLS, "<svg viewBox='0 0 1 1'><g id='a'/></svg>" };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *charts, *summary;

	(void)state;
	make_run(&run, 7, "before", 20);
	g.runs = &run;
	assert_int_equal(html_report(&out, &in, &chart, 1, &err), 0);
	assert_true(strncmp(out.buf, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
	assert_non_null(strstr(out.buf, "<meta name=\"viewport\" content=\"width=device-width"));
	assert_null(strstr(out.buf, "<script"));
	assert_non_null(strstr(out.buf, "<meta http-equiv=\"Content-Security-Policy\" "
			       "content=\"default-src 'none'; img-src data:; "
			       "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">"));
	assert_null(strstr(out.buf, "id=\"comparison\""));
	charts = strstr(out.buf, "<section id=\"charts\">");
	summary = strstr(out.buf, "<section id=\"summary\">");
	assert_true(charts && summary && charts < summary);
	assert_non_null(strstr(out.buf, "<g id='c1-a'/>"));
	assert_non_null(strstr(out.buf, "<td class=\"l\" colspan=\"11\">n/a: no such &lt;call&gt;</td>"));
	assert_non_null(strstr(out.buf, "<th class=\"l\">libc.name</th><td class=\"l\" colspan=\"1\">glibc</td>"));
	assert_non_null(strstr(out.buf, "before: bench"));
	strbuf_release(&out);
	strbuf_release(&err);
	stored_run_free(&run);
}

/*
 * The range of the changes is theirs: every cell +3 % reads "+3.0 % to
 * +3.0 %", not from +0.0 % (the range started at 0, in the HTML's finding
 * and the mail's line of the unchanged cells).
 */
static void test_range_of_changes_is_the_cells(void **state)
{
	struct stored_run runs[2];
	struct compare_group g[2] = {
		{ .spec = (char *)"before", .runs = &runs[0], .nruns = 1 },
		{ .spec = (char *)"after", .runs = &runs[1], .nruns = 1 },
	};
	struct plot_input in = { .groups = g, .ngroups = 2 };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	make_run(&runs[0], 7, "before", 20);
	make_run(&runs[1], 8, "after", 20.6);
	assert_int_equal(html_report(&out, &in, NULL, 0, &err), 0);
	assert_non_null(strstr(out.buf, "changes from +3.0&#160;% to +3.0&#160;% over 1 cell"));
	strbuf_reset(&out);
	assert_int_equal(mail_summary(&in, &out, &err), 0);
	assert_non_null(strstr(out.buf, "all 1 cell: changes +3.0 %..+3.0 %, no verdict"));
	/* No cell tested: no rule of a test to state ("the p (no test: ...)"). */
	assert_null(strstr(out.buf, "no test"));
	assert_non_null(strstr(out.buf, "\nValues: median. One run against one"));
	strbuf_release(&out);
	strbuf_release(&err);
	stored_run_free(&runs[0]);
	stored_run_free(&runs[1]);
}

/*
 * Issue 30: a cell that moved as far as one called worse, yet was not
 * called so, is listed with its CI and why (timens: clock-gettime-tai
 * vdso at +3.45 % among "the other 9 cells"), not folded into them.
 */
static void test_mail_names_the_cells_a_reader_asks_about(void **state)
{
	struct stored_run runs[2];
	struct compare_group g[2] = {
		{ .spec = (char *)"before", .runs = &runs[0], .nruns = 1 },
		{ .spec = (char *)"after", .runs = &runs[1], .nruns = 1 },
	};
	struct plot_input in = { .groups = g, .ngroups = 2 };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *asked;

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct stored_cell *c;

		make_run(&runs[k], 7 + (int64_t)k, k ? "after" : "before", k ? 21 : 20);
		runs[k].config = json_pack("{s:s}", "interleave", "i1");
		/*
		 * The second cell: measured, moved +3 % beside the first's
		 * +5 % (more than half as far: asked about), spread wide.
		 */
		c = &runs[k].cells[1];
		free(c->status);
		c->status = xstrdup("ok");
		c->n = 50;
		c->values = xmalloc(50 * sizeof(double));
		for (size_t i = 0; i < 50; i++)
			c->values[i] = (k ? 20.6 : 20.0) * (1 + 0.25 * (double)((int)(i % 5) - 2));
	}
	assert_int_equal(mail_summary(&in, &out, &err), 0);
	assert_non_null(strstr(out.buf, "clock-gettime-monotonic vdso [worse]"));
	/* The mail's lines wrapped, as one line of single blanks. */
	for (char *from = out.buf, *to = out.buf; ; from++) {
		if (isspace((unsigned char)*from) && to > out.buf && to[-1] == ' ')
			continue;
		*to++ = isspace((unsigned char)*from) ? ' ' : *from;
		if (!*from)
			break;
	}
	asked = strstr(out.buf, "times syscall [noisy]: 20.00 -> 20.60 ns (+3.0 %");
	assert_non_null(asked);
	assert_non_null(strstr(asked, "; not significant: adjusted p 0.0"));
	assert_null(strstr(out.buf, "the other"));
	strbuf_release(&out);
	strbuf_release(&err);
	stored_run_free(&runs[0]);
	stored_run_free(&runs[1]);
}

/* Two groups: the summary and the comparison lead, then the charts. */
static void test_report_two_groups(void **state)
{
	struct stored_run runs[2];
	struct compare_group g[2] = {
		{ .spec = (char *)"before", .runs = &runs[0], .nruns = 1 },
		{ .spec = (char *)"after", .runs = &runs[1], .nruns = 1 },
	};
	struct plot_input in = { .groups = g, .ngroups = 2 };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *summary, *comparison;

	(void)state;
	make_run(&runs[0], 7, "before", 20);
	make_run(&runs[1], 8, "after", 20);
	/* Separate runs: the change, and no verdict without a history. */
	assert_int_equal(html_report(&out, &in, NULL, 0, &err), 0);
	assert_non_null(strstr(out.buf, "over 1 cell (geometric mean +0.00&#160;%); "
			       "<b>no verdict</b>: one run against one cannot show "
			       "how far whole runs move on this machine; for a verdict"));
	strbuf_reset(&out);
	/* Measured together (interleaved by one command): judged. */
	for (size_t i = 0; i < 2; i++) {
		runs[i].config = json_pack("{s:s}", "interleave", "i1");
		run_facts_forget(&runs[i]);
	}
	assert_int_equal(html_report(&out, &in, NULL, 0, &err), 0);
	summary = strstr(out.buf, "<section id=\"summary\">");
	comparison = strstr(out.buf, "<section id=\"comparison\">");
	assert_true(summary && comparison && summary < comparison);
	assert_null(strstr(out.buf, "id=\"charts\""));
	assert_non_null(strstr(out.buf, "<h3>after against before</h3>"));
	/* First under the Summary heading: what was found. */
	assert_non_null(strstr(out.buf, "<section id=\"summary\">\n<h2>Summary</h2>\n"
			       "<p class=\"finding\"><b>after against before</b>, ns: "
			       "<b>no significant change</b> in its one cell (changes from "
			       "+0.0&#160;% to +0.0&#160;%; not significant, which is not "
			       "the same as no change: see each cell's mde); geometric "
			       "mean +0.00&#160;%.</p>\n"));
	/* compare's text styles come after the comparison's table. */
	assert_true(strstr(out.buf, "As mmtests prints it<") >
		    strstr(out.buf, "<section id=\"comparison\">"));
	assert_non_null(strstr(out.buf, "clockbench compare before after"));
	strbuf_release(&out);
	strbuf_release(&err);
	stored_run_free(&runs[0]);
	stored_run_free(&runs[1]);
}

static void test_outfile(void **state)
{
	char dir[] = "/tmp/clockbench-test-outfile-XXXXXX", path[64];
	struct strbuf err = STRBUF_INIT, back = STRBUF_INIT;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	assert_int_equal(outfile_write(path, "hello", 5, &err), 0);
	assert_int_equal(outfile_read(path, &back), 0);
	assert_string_equal(back.buf, "hello");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~(unsigned)umask(022));
	/* Onto a directory: refused, and no temporary file left. */
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(outfile_write(path, "x", 1, &err), -1);
	assert_non_null(strstr(err.buf, "Is a directory"));
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);	/* empty: nothing else was left */
	strbuf_release(&err);
	strbuf_release(&back);
}

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Devices, FIFOs and links: written through or refused, never replaced. */
static void test_outfile_policy(void **state)
{
	char dir[] = "/tmp/clockbench-test-outfile-XXXXXX", p[128], q[128], buf[16];
	struct strbuf err = STRBUF_INIT, back = STRBUF_INIT;
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A FIFO with a reader (ourselves): written through, still a FIFO. */
	path_in(p, sizeof(p), dir, "fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	fd = open(p, O_RDWR | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(outfile_write(p, "through", 7, &err), 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 7);
	assert_memory_equal(buf, "through", 7);
	close(fd);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(unlink(p), 0);
	/* A link to a device: written through, the link kept. */
	path_in(p, sizeof(p), dir, "null");
	assert_int_equal(symlink("/dev/null", p), 0);
	assert_int_equal(outfile_write(p, "x", 1, &err), 0);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* A full device: the error, errno's words. */
	path_in(p, sizeof(p), dir, "full");
	assert_int_equal(symlink("/dev/full", p), 0);
	assert_int_equal(outfile_write(p, "x", 1, &err), -1);
	assert_non_null(strstr(err.buf, "No space left on device"));
	/* Links to a file or to nothing: refused, the target untouched. */
	path_in(q, sizeof(q), dir, "target");
	assert_int_equal(outfile_write(q, "mine", 4, &err), 0);
	path_in(p, sizeof(p), dir, "link");
	assert_int_equal(symlink(q, p), 0);
	strbuf_reset(&err);
	assert_int_equal(outfile_write(p, "theirs", 6, &err), -1);
	assert_non_null(strstr(err.buf, "a symbolic link"));
	assert_int_equal(outfile_read(q, &back), 0);
	assert_string_equal(back.buf, "mine");
	path_in(p, sizeof(p), dir, "dangling");
	assert_int_equal(symlink("nowhere", p), 0);
	assert_int_equal(outfile_write(p, "x", 1, &err), -1);
	path_in(q, sizeof(q), dir, "nowhere");
	assert_int_equal(access(q, F_OK), -1);
	/* Side files: its own (same first line) replaced, another refused. */
	path_in(p, sizeof(p), dir, "x.gp");
	assert_int_equal(outfile_write_flags(p, "# mine\n1\n", 9, OUTFILE_SIDE, &err), 0);
	assert_int_equal(outfile_write_flags(p, "# mine\n2\n", 9, OUTFILE_SIDE, &err), 0);
	strbuf_reset(&err);
	assert_int_equal(outfile_write_flags(p, "# other\n", 8, OUTFILE_SIDE, &err), -1);
	assert_non_null(strstr(err.buf, "clockbench did not write it"));
	assert_int_equal(outfile_check(p, "# other\n", 8, OUTFILE_SIDE, &err), -1);
	assert_int_equal(outfile_check(p, "# other\n", 8, OUTFILE_SIDE | OUTFILE_FORCE, &err), 0);
	assert_int_equal(outfile_write_flags(p, "# other\n", 8, OUTFILE_SIDE | OUTFILE_FORCE,
					     &err), 0);
	/* Names: control and invisible characters refused. */
	strbuf_reset(&err);
	assert_int_equal(outfile_check_name("-o", "x.svg", &err), 0);
	assert_int_equal(outfile_check_name("-o", "a\nb.svg", &err), -1);
	assert_string_equal(err.buf, "-o 'a\\nb.svg': the name holds a control or invisible "
			    "character; choose another");
	assert_int_equal(outfile_check_name("-o", "a\u2028.svg", &err), -1);
	/* Nothing left but what was named: no temporary file anywhere. */
	{
		const char *names[] = { "null", "full", "target", "link", "dangling", "x.gp" };

		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			path_in(p, sizeof(p), dir, names[i]);
			assert_int_equal(unlink(p), 0);
		}
	}
	assert_int_equal(rmdir(dir), 0);
	strbuf_release(&err);
	strbuf_release(&back);
}

/* The staging directory: private, and removed with all it holds. */
static void test_outfile_staging(void **state)
{
	char stage[4096], p[4200];
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	FILE *f;

	(void)state;
	assert_int_equal(outfile_staging_create(stage, sizeof(stage), &err), 0);
	assert_int_equal(stat(stage, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(p, sizeof(p), "%s/a.svg", stage);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	outfile_staging_remove(stage);
	assert_int_equal(stat(stage, &st), -1);
	strbuf_release(&err);
}

/* A picture is whole when it ends as its format ends: gnuplot never says. */
static void test_picture_whole(void **state)
{
	static const char png_head[] = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR";
	static const char png_end[] = "\0\0\0\0IEND\xae\x42\x60\x82";
	struct strbuf pic = STRBUF_INIT;

	(void)state;
	strbuf_add(&pic, png_head, sizeof(png_head) - 1);
	assert_false(gp_picture_whole(&pic, GP_PNG));
	strbuf_add(&pic, png_end, sizeof(png_end) - 1);
	assert_true(gp_picture_whole(&pic, GP_PNG));
	pic.buf[--pic.len] = '\0';	/* one byte short */
	assert_false(gp_picture_whole(&pic, GP_PNG));
	assert_false(gp_picture_whole(&pic, GP_SVG));
	strbuf_setf(&pic, "<?xml version=\"1.0\"?>\n<svg>\n<g></g>\n</svg>\n\n");
	assert_true(gp_picture_whole(&pic, GP_SVG));
	strbuf_setf(&pic, "<?xml version=\"1.0\"?>\n<svg>\n<g></g>\n</sv");
	assert_false(gp_picture_whole(&pic, GP_SVG));
	strbuf_reset(&pic);
	assert_false(gp_picture_whole(&pic, GP_SVG));
	assert_false(gp_picture_whole(&pic, GP_PNG));
	strbuf_release(&pic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_inline_svg),
		cmocka_unit_test(test_svg_inert),
		cmocka_unit_test(test_report_one_run),
		cmocka_unit_test(test_report_two_groups),
		cmocka_unit_test(test_range_of_changes_is_the_cells),
		cmocka_unit_test(test_mail_names_the_cells_a_reader_asks_about),
		cmocka_unit_test(test_outfile),
		cmocka_unit_test(test_outfile_policy),
		cmocka_unit_test(test_outfile_staging),
		cmocka_unit_test(test_picture_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
