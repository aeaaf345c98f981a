// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clockbench verify: correctness and ABI checks of every time API, clock
 * id and path, in kselftest's TAP (or JSON).
 */
#include <getopt.h>
#include <string.h>

#include "builtin/builtin.h"
#include "basic/util.h"
#include "verify/verify.h"

void usage_verify(FILE *f)
{
	fputs("usage: clockbench verify [<options>]\n"
	      "\n"
	      "Check every time API, clock id and path (vdso, libc, syscall): vDSO and\n"
	      "libc reads between raw-syscall reads, monotonicity on one thread and\n"
	      "across CPUs, resolution, consistency between APIs, getcpu on every CPU,\n"
	      "the ABI for invalid clock ids and bad pointers (in forked children),\n"
	      "time namespaces (root only) and the vDSO getrandom.\n"
	      "\n"
	      "  --check PATTERN   run only the checks whose name matches the glob (or\n"
	      "                    starts with PATTERN/); repeat or comma-separate\n"
	      "  --duration TIME   time shared by the time-based checks (bracket,\n"
	      "                    monotonic, cross-cpu, resolution/step, the\n"
	      "                    clocksource and frequency checks), e.g. 2 or 500ms\n"
	      "                    (default 20s; at most 1h)\n"
	      "  --long            watch each clock as long as the kernel's\n"
	      "                    inconsistency-check does: 10 s per monotonic,\n"
	      "                    cross-cpu, clocksource-switch and raw-skew check\n"
	      "  --format FMT      tap or json (default tap)\n"
	      "  --list            print the name of every check, then exit\n"
	      "  -h, --help        this text\n"
	      "\n"
	      "Output follows kselftest: 'TAP version 13', a plan, one 'ok'/'not ok' line\n"
	      "per check with what was expected and seen, '# ' lines with the offending\n"
	      "values before a failure, and '# Totals: pass:P fail:F xfail:0 xpass:0\n"
	      "skip:S error:E'.\n"
	      "\n"
	      "Exit status: 0 when every check passed (skips allowed), 1 when one failed\n"
	      "or could not run, 2 on a usage error, 4 when every check was skipped.\n", f);
}

enum {
	OPT_CHECK = 256, OPT_DURATION, OPT_FORMAT, OPT_LIST, OPT_LONG, OPT_TIMENS_PROBE,
};

static const struct option verify_longopts[] = {
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "long", no_argument, NULL, OPT_LONG },
	/* Internal: how verify re-executes itself inside a time namespace. */
	{ "timens-probe", required_argument, NULL, OPT_TIMENS_PROBE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void add_patterns(struct verify_options *o, const char *arg)
{
	_cleanup_free_ char **items = NULL;
	size_t n, cap = o->npatterns;

	items = split_list(arg, &n);
	if (!n)
		usage_error("empty --check pattern");
	grow_array((void **)&o->patterns, &cap, o->npatterns + n, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		o->patterns[o->npatterns++] = xstrdup(items[i]);
}

static void parse_duration_arg(const char *arg, double *out)
{
	double s;

	if (!parse_duration(arg, &s) || s > VERIFY_MAX_DURATION)
		usage_error("invalid --duration '%s': expected a positive duration of "
			    "at most 1h, such as 2, 500ms or 10s", arg);
	*out = s;
}

/* "IN,OUT": two descriptor numbers. */
static void parse_probe_fds(const char *arg, int fds[2])
{
	_cleanup_free_ char **items = NULL;
	size_t n;
	long v;

	items = split_list(arg, &n);
	for (size_t i = 0; i < 2; i++) {
		if (n != 2 || !parse_int(items[i], 0, 1 << 20, &v))
			usage_error("invalid --timens-probe '%s'", arg);
		fds[i] = (int)v;
	}
}

int cmd_verify(int argc, char **argv)
{
	struct verify_options o;
	int opt, probe_fds[2] = { -1, -1 }, rc;

	memset(&o, 0, sizeof(o));
	o.duration_s = VERIFY_DEFAULT_DURATION;
	o.format = VERIFY_TAP;
	while ((opt = getopt_long(argc, argv, ":h", verify_longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_CHECK:
			add_patterns(&o, optarg);
			break;
		case OPT_DURATION:
			parse_duration_arg(optarg, &o.duration_s);
			break;
		case OPT_FORMAT:
			if (streq(optarg, "tap"))
				o.format = VERIFY_TAP;
			else if (streq(optarg, "json"))
				o.format = VERIFY_JSON;
			else
				usage_error("unknown format '%s' (tap, json)", optarg);
			break;
		case OPT_LIST:
			o.list = true;
			break;
		case OPT_LONG:
			o.long_run = true;
			break;
		case OPT_TIMENS_PROBE:
			parse_probe_fds(optarg, probe_fds);
			break;
		case 'h':
			usage_verify(stdout);
			exit(0);
		default:
			usage_bad_option(opt, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (probe_fds[0] >= 0)
		return verify_timens_probe(probe_fds[0], probe_fds[1]);
	rc = verify_main(&o);
	for (size_t i = 0; i < o.npatterns; i++)
		free(o.patterns[i]);
	free(o.patterns);
	return rc;
}
