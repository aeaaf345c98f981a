// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench verify: correctness and ABI checks of every time API, clock
 * id and path, in kselftest's TAP (or JSON).
 */
#include <fcntl.h>
#include <string.h>

#include "basic/options.h"
#include "basic/strbuf.h"
#include "builtin/builtin.h"
#include "basic/util.h"
#include "verify/verify.h"

static const struct command_usage verify_usage = {
	.name = "verify",
	.description =
	"Check every time API, clock id and path (vdso, libc, syscall): vDSO and\n"
	"libc reads between raw-syscall reads, monotonicity on one thread and\n"
	"across CPUs, resolution, consistency between APIs, getcpu on every CPU,\n"
	"the ABI for invalid clock ids and bad pointers (in forked children),\n"
	"time namespaces (root only) and the vDSO getrandom. Nothing that changes\n"
	"machine-wide state runs without --destructive.",
	.footer =
	"Output follows kselftest: 'TAP version 13', a plan, one 'ok'/'not ok' line\n"
	"per check with what was expected and seen, '# ' lines with the offending\n"
	"values before a failure, and '# Totals: pass:P fail:F xfail:0 xpass:0\n"
	"skip:S error:E'.\n"
	"\n"
	"Exit status: 0 when every check passed (skips allowed), 1 when one failed\n"
	"or could not run, 2 on a usage error, 4 when every check was skipped.",
};

static const char *const verify_formats[] = { "tap", "json", NULL };

static int patterns_option(const struct option_def *opt, const char *arg,
			   struct strbuf *err)
{
	struct verify_options *o = opt->value;
	_cleanup_free_ char **items = NULL;
	size_t n, cap = o->npatterns;

	items = split_list(arg, &n);
	if (!n) {
		strbuf_adds(err, "empty --check pattern");
		return -1;
	}
	grow_array((void **)&o->patterns, &cap, o->npatterns + n, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		o->patterns[o->npatterns++] = xstrdup(items[i]);
	return 0;
}

static int duration_option(const struct option_def *opt, const char *arg,
			   struct strbuf *err)
{
	double s;

	if (!parse_duration(arg, &s) || s > VERIFY_MAX_DURATION) {
		strbuf_addf(err, "invalid --duration '%s': expected a positive "
			    "duration of at most 1h, such as 2, 500ms or 10s", arg);
		return -1;
	}
	*(double *)opt->value = s;
	return 0;
}

static void free_patterns(struct verify_options *o)
{
	for (size_t i = 0; i < o->npatterns; i++)
		free(o->patterns[i]);
	free(o->patterns);
}

int cmd_verify(int argc, char **argv)
{
	struct verify_options o = { .duration_s = VERIFY_DEFAULT_DURATION };
	int probe_fds[2] = { -1, -1 }, format = 0, n, rc;
	struct option_def options[] = {
		OPT_CALLBACK(0, "check", "PATTERN", &o, patterns_option,
			     "run only the checks whose name matches the glob (or\n"
			     "starts with PATTERN/); repeat or comma-separate"),
		OPT_CALLBACK(0, "duration", "TIME", &o.duration_s, duration_option,
			     "time shared by the time-based checks (bracket,\n"
			     "monotonic, cross-cpu, resolution/step, the\n"
			     "clocksource and frequency checks), e.g. 2 or 500ms\n"
			     "(default 20s; at most 1h)"),
		OPT_BOOL(0, "long", &o.long_run,
			 "watch each clock as long as the kernel's\n"
			 "inconsistency-check does: 10 s per monotonic,\n"
			 "cross-cpu, clocksource-switch and raw-skew check"),
		OPT_BOOL(0, "destructive", &o.destructive,
			 "also run the checks that change machine-wide state\n"
			 "(clocksource-switch switches the clocksource,\n"
			 "freq-step steps the adjtimex frequency; both put it\n"
			 "back); without it they are skipped"),
		OPT_FORMAT(0, &format, verify_formats,
			   "tap or json (default tap)"),
		OPT_BOOL(0, "list", &o.list, "print the name of every check, then exit"),
		/* How verify re-executes itself inside a time namespace. */
		{ .type = OPTION_CALLBACK, .long_name = "timens-probe",
		  .arg_name = "IN,OUT", .value = probe_fds,
		  .callback = options_descriptor_pair, .flags = OPTION_HIDDEN },
		OPT_END(),
	};

	n = parse_options(argc, argv, &verify_usage, options, OPTIONS_NO_ARGS);
	if (n < 0) {
		free_patterns(&o);
		return parse_options_status(n);
	}
	if (options_checking()) {
		free_patterns(&o);
		return 0;
	}
	if (probe_fds[0] >= 0) {
		free_patterns(&o);
		return verify_timens_probe(probe_fds[0], probe_fds[1]);
	}
	o.format = format == FORMAT_JSON ? VERIFY_JSON : VERIFY_TAP;
	rc = verify_main(&o);
	free_patterns(&o);
	return rc;
}
