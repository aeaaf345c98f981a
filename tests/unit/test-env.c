// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Environment fingerprint: each field is checked against an independent
 * source (uname, sysfs read directly, readlink, confstr) rather than against
 * the code under test, and the parsers against synthetic /proc/cpuinfo text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/env.h"
#include "basic/util.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0/"

/* Exit statuses of the time-namespace child. */
enum {
	NS_CHILD_IN_NEW_NS = 0,
	NS_CHILD_IN_ROOT_NS = 1,
	NS_CHILD_UNKNOWN = 2,
	NS_CHILD_SKIP = 77,
	NS_CHILD_ERROR = 78,
};

/* First line of a file without the newline and trailing blanks, or "". */
static void read_first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t len;

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	len = strcspn(buf, "\n");
	while (len && buf[len - 1] == ' ')
		len--;
	buf[len] = '\0';
}

static bool has_word(const char *line, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word)) {
		bool starts = p == line || p[-1] == ' ' || p[-1] == '\t';
		bool ends = p[wl] == '\0' || p[wl] == ' ' || p[wl] == '\n';

		if (starts && ends)
			return true;
	}
	return false;
}

static void test_kernel_release_matches_uname(void **state)
{
	struct env_info env;
	struct utsname uts;

	(void)state;
	assert_int_equal(uname(&uts), 0);
	env_collect(&env, NULL, "test", -1);
	assert_string_equal(env.kernel_release, uts.release);
	assert_string_equal(env.kernel_version, uts.version);
	assert_string_equal(env.machine, uts.machine);
	assert_string_equal(env.hostname, uts.nodename);
	env_free(&env);
}

static void test_clocksource_matches_sysfs(void **state)
{
	char current[256], available[256];
	struct env_info env;

	(void)state;
	read_first_line(CLOCKSOURCE_DIR "current_clocksource", current,
			sizeof(current));
	read_first_line(CLOCKSOURCE_DIR "available_clocksource", available,
			sizeof(available));
	env_collect(&env, NULL, "test", -1);
	assert_string_equal(env.clocksource, current);
	assert_string_equal(env.clocksources, available);
	/* The current clocksource is always one of the available ones. */
	if (current[0])
		assert_true(has_word(env.clocksources, env.clocksource));
	env_free(&env);
}

/* Whether readlink says this process is outside the root time namespace. */
static bool readlink_says_non_root(void)
{
	char link[64], expect[64];
	ssize_t n = readlink("/proc/self/ns/time", link, sizeof(link) - 1);

	assert_true(n > 0);
	link[n] = '\0';
	snprintf(expect, sizeof(expect), "time:[%u]", ROOT_TIME_NS_INO);
	return strcmp(link, expect) != 0;
}

static void test_time_namespace_of_this_process(void **state)
{
	struct env_info env;

	(void)state;
	env_collect(&env, NULL, "test", -1);
	assert_true(env.time_ns_known);
	assert_int_equal(env.in_time_namespace, readlink_says_non_root());
	env_free(&env);
}

/* Runs in a process that is already in the new time namespace. */
_noreturn_ static void report_time_namespace(void)
{
	struct env_info env;
	int code;

	env_collect(&env, NULL, "test", -1);
	if (!env.time_ns_known)
		code = NS_CHILD_UNKNOWN;
	else
		code = env.in_time_namespace ? NS_CHILD_IN_NEW_NS :
					       NS_CHILD_IN_ROOT_NS;
	env_free(&env);
	_exit(code);
}

/* unshare() moves only future children into the new namespace. */
_noreturn_ static void enter_time_namespace(void)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWTIME) < 0)
		_exit(errno == EPERM || errno == EINVAL ? NS_CHILD_SKIP :
							  NS_CHILD_ERROR);
	pid = fork();
	if (pid < 0)
		_exit(NS_CHILD_ERROR);
	if (pid == 0)
		report_time_namespace();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		_exit(NS_CHILD_ERROR);
	_exit(WEXITSTATUS(status));
}

static void test_new_time_namespace_is_detected(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		enter_time_namespace();
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == NS_CHILD_SKIP)
		skip();
	assert_int_equal(WEXITSTATUS(status), NS_CHILD_IN_NEW_NS);
}

static json_t *expect_member(json_t *obj, const char *key, json_type type)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		fail_msg("missing key \"%s\"", key);
	if (json_typeof(v) != type)
		fail_msg("key \"%s\" has type %d, expected %d", key,
			 (int)json_typeof(v), (int)type);
	return v;
}

static void check_json_strings(json_t *obj, const struct env_info *env)
{
	static const char *const keys[] = {
		"hostname", "kernel_release", "kernel_version", "machine",
		"cmdline", "clocksource", "cpu_model", "hypervisor",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		expect_member(obj, keys[i], JSON_STRING);
	assert_string_equal(json_string_value(json_object_get(obj, "kernel_release")),
			    env->kernel_release);
	assert_string_equal(json_string_value(json_object_get(obj, "clocksource")),
			    env->clocksource);
}

static void check_json_clocksources(json_t *obj, const struct env_info *env)
{
	json_t *arr = expect_member(obj, "available_clocksources", JSON_ARRAY);
	char joined[256] = "";
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		assert_true(json_is_string(v));
		assert_true(strlen(joined) + strlen(json_string_value(v)) + 2 <
			    sizeof(joined));
		if (i)
			strcat(joined, " ");
		strcat(joined, json_string_value(v));
	}
	assert_string_equal(joined, env->clocksources);
}

static void check_json_flags(json_t *obj, const struct env_info *env)
{
	json_t *flags = expect_member(obj, "cpu_flags", JSON_OBJECT);
	const struct {
		const char *name;
		bool value;
	} expect[] = {
		{ "constant_tsc", env->constant_tsc },
		{ "nonstop_tsc", env->nonstop_tsc },
		{ "rdtscp", env->rdtscp },
		{ "rdpid", env->rdpid },
		{ "tsc_known_freq", env->tsc_known_freq },
		{ "tsc_reliable", env->tsc_reliable },
	};

	assert_int_equal(json_object_size(flags), ARRAY_SIZE(expect));
	for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
		json_t *v = json_object_get(flags, expect[i].name);

		assert_non_null(v);
		assert_true(json_is_boolean(v));
		assert_int_equal(json_is_true(v), expect[i].value);
	}
}

static void check_json_runtime(json_t *obj, const struct env_info *env)
{
	json_t *libc = expect_member(obj, "libc", JSON_OBJECT);
	json_t *ns = expect_member(obj, "time_namespace", JSON_OBJECT);
	json_t *vdso = expect_member(obj, "vdso", JSON_OBJECT);
	json_t *name = expect_member(libc, "name", JSON_STRING);

	assert_string_equal(json_string_value(name), env->libc_name);
	expect_member(libc, "version", JSON_STRING);
	assert_int_equal(json_integer_value(expect_member(obj, "ncpus_online",
							  JSON_INTEGER)),
			 env->ncpus_online);
	assert_true(json_is_boolean(json_object_get(ns, "known")));
	assert_true(json_is_boolean(json_object_get(ns, "non_root")));
	assert_int_equal(json_is_true(json_object_get(ns, "known")),
			 env->time_ns_known);
	assert_int_equal(json_integer_value(expect_member(obj, "cpu", JSON_INTEGER)),
			 env->cpu);
	assert_true(json_is_boolean(json_object_get(vdso, "available")));
	expect_member(vdso, "error", JSON_STRING);
	expect_member(vdso, "symbols", JSON_ARRAY);
}

/* The counter's step, measured: at least one unit, the clock's in ns too. */
static void check_json_counter_step(json_t *obj)
{
	json_t *step = expect_member(obj, "counter_step", JSON_OBJECT);

	assert_true(json_number_value(expect_member(step, "step", JSON_REAL)) >= 1);
	expect_member(step, "unit", JSON_STRING);
	assert_true(json_number_value(expect_member(step, "clock_step_ns",
						    JSON_REAL)) >= 1);
}

static void test_json_has_stable_keys_and_types(void **state)
{
	struct env_info env;
	json_t *obj;
	char *text;

	(void)state;
	env_collect(&env, NULL, "test", 3);
	obj = env_to_json(&env);
	assert_non_null(obj);
	assert_int_equal(json_object_size(obj), 16);
	check_json_counter_step(obj);
	check_json_strings(obj, &env);
	check_json_clocksources(obj, &env);
	check_json_flags(obj, &env);
	check_json_runtime(obj, &env);
	text = json_dumps(obj, 0);
	assert_non_null(text);
	free(text);
	json_decref(obj);
	env_free(&env);
}

static void test_json_replaces_invalid_utf8(void **state)
{
	struct env_info env;
	json_t *obj;
	char *text;

	(void)state;
	env_collect(&env, NULL, "test", -1);
	snprintf(env.hostname, sizeof(env.hostname), "bad\xff" "host");
	obj = env_to_json(&env);
	assert_string_equal(json_string_value(json_object_get(obj, "hostname")),
			    "bad?host");
	text = json_dumps(obj, 0);
	assert_non_null(text);
	free(text);
	json_decref(obj);
	env_free(&env);
}

/* env_to_json() read back by env_from_json(): the fields env_print()
 * shows, a control character in a text escaped; the namespace timens made
 * recorded as non-root with its offsets. */
static void test_json_read_back(void **state)
{
	const struct timens_offsets off = { 864000LL * 1000000000, 0 };
	struct env_info env, back;
	json_t *obj, *ns;

	(void)state;
	env_collect(&env, NULL, "test", 1);
	snprintf(env.cpu_model, sizeof(env.cpu_model), "CPU\x1b[31m red");
	obj = env_to_json(&env);
	env_from_json(obj, &back);
	assert_string_equal(back.kernel_release, env.kernel_release);
	assert_string_equal(back.machine, env.machine);
	assert_string_equal(back.clocksource, env.clocksource);
	assert_string_equal(back.clocksources, env.clocksources);
	assert_null(strchr(back.cpu_model, '\x1b'));
	assert_non_null(strstr(back.cpu_model, "red"));
	assert_int_equal(back.ncpus_online, env.ncpus_online);
	assert_int_equal(back.cpu, 1);
	assert_int_equal(back.constant_tsc, env.constant_tsc);
	assert_int_equal(back.in_time_namespace, env.in_time_namespace);
	assert_int_equal(back.nvdso_symbols, env.nvdso_symbols);
	json_decref(obj);
	env.time_namespace_offsets = &off;
	obj = env_to_json(&env);
	ns = json_object_get(obj, "time_namespace");
	assert_true(json_is_true(json_object_get(ns, "non_root")));
	assert_true(json_number_value(json_object_get(json_object_get(ns, "offsets"),
						      "monotonic_s")) == 864000);
	env_from_json(obj, &back);
	assert_true(back.in_time_namespace && back.time_ns_known);
	json_decref(obj);
	/* Nothing there: every text empty, nothing made up. */
	env_from_json(NULL, &back);
	assert_string_equal(back.kernel_release, "");
	assert_int_equal(back.cpu, -1);
	env_free(&env);
}

static void test_cpu_flags_match_whole_words(void **state)
{
	struct env_info env;

	(void)state;
	memset(&env, 0, sizeof(env));
	env_parse_cpu_flags(&env, "fpu constant_tsc_x xnonstop_tsc rdtscp\t"
				  "tsc_reliable rdpid_ tsc_known_fre");
	assert_false(env.constant_tsc);
	assert_false(env.nonstop_tsc);
	assert_true(env.rdtscp);
	assert_true(env.tsc_reliable);
	assert_false(env.rdpid);
	assert_false(env.tsc_known_freq);

	env_parse_cpu_flags(&env, "constant_tsc nonstop_tsc rdpid tsc_known_freq");
	assert_true(env.constant_tsc);
	assert_true(env.nonstop_tsc);
	assert_true(env.rdpid);
	assert_true(env.tsc_known_freq);
	/* A new line replaces, not accumulates. */
	assert_false(env.rdtscp);
	assert_false(env.tsc_reliable);
}

static void test_cpuinfo_x86(void **state)
{
	static const char text[] =
		"processor\t: 0\n"
		"cpu family\t: 25\n"
		"model name\t: AMD EPYC 7B13  \n"
		"vmx flags\t: constant_tsc\n"
		"flags\t\t: fpu tsc constant_tsc nonstop_tsc_x rdtscp\n"
		"\n"
		"processor\t: 1\n"
		"model name\t: Other\n"
		"flags\t\t: nonstop_tsc\n";
	struct env_info env;

	(void)state;
	memset(&env, 0, sizeof(env));
	env_parse_cpuinfo(&env, text);
	assert_string_equal(env.cpu_model, "AMD EPYC 7B13");
	assert_true(env.constant_tsc);
	assert_true(env.rdtscp);
	assert_false(env.nonstop_tsc);
}

static void test_cpuinfo_other_architectures(void **state)
{
	struct env_info env;

	(void)state;
	memset(&env, 0, sizeof(env));
	env_parse_cpuinfo(&env, "processor\t: 0\nBogoMIPS\t: 50.00\n"
				"CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n");
	assert_string_equal(env.cpu_model, "implementer 0x41 part 0xd0c");
	assert_false(env.constant_tsc);

	env_parse_cpuinfo(&env, "processor\t: 0\n"
				"cpu\t\t: POWER9 (architected), altivec supported\n");
	assert_string_equal(env.cpu_model,
			    "POWER9 (architected), altivec supported");

	env_parse_cpuinfo(&env, "processor\t: 0\nisa\t\t: rv64imafdc\n"
				"uarch\t\t: sifive,u74-mc\n");
	assert_string_equal(env.cpu_model, "sifive,u74-mc");

	/* "cpu family" and "cpu MHz" are not the powerpc "cpu" key. */
	env_parse_cpuinfo(&env, "cpu family\t: 6\ncpu MHz\t\t: 2000.000\n");
	assert_string_equal(env.cpu_model, "");

	env_parse_cpuinfo(&env, NULL);
	assert_string_equal(env.cpu_model, "");
}

static char *print_to_string(const struct env_info *env, const char *prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	env_print(env, f, prefix);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_print_shows_kernel_and_prefix(void **state)
{
	struct env_info env;
	char *out, *save = NULL, expect[300];
	int lines = 0;

	(void)state;
	env_collect(&env, NULL, "test", 1);
	out = print_to_string(&env, "# ");
	assert_non_null(strstr(out, env.kernel_release));
	snprintf(expect, sizeof(expect), "# clocksource: %s",
		 env.clocksource[0] ? env.clocksource : "unknown");
	assert_non_null(strstr(out, expect));
	assert_non_null(strstr(out, "measured on cpu 1\n"));
	assert_non_null(strstr(out, "vdso: none (test)"));
	for (char *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		assert_true(strncmp(l, "# ", 2) == 0);
		lines++;
	}
	assert_int_equal(lines, 4);
	free(out);
	env_free(&env);
}

static bool list_has(const struct env_info *env, const char *entry)
{
	for (size_t i = 0; i < env->nvdso_symbols; i++) {
		if (strcmp(env->vdso_symbols[i], entry) == 0)
			return true;
	}
	return false;
}

/* Objects the image exports, which the function list must leave out. */
static int check_not_listed(const struct vdso_symbol *sym, void *ctx)
{
	const struct env_info *env = ctx;
	char entry[256];

	snprintf(entry, sizeof(entry), "%s@%s", sym->name, sym->version);
	if (!sym->is_func && list_has(env, entry))
		fail_msg("object symbol %s listed as a function", entry);
	return 0;
}

/* "name@version" of this architecture's vDSO entry point, in buf. */
static const char *versioned(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s@%s", name, vdso_arch_names()->version);
	return buf;
}

static void test_vdso_symbols_from_real_image(void **state)
{
	const struct vdso_names *names = vdso_arch_names();
	struct vdso_image img;
	struct env_info env;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char want[128];

	(void)state;
	/* No image to pass: disabled on purpose, hidden (valgrind), or qemu-user. */
	if ((getenv("CLOCKBENCH_NO_VDSO") && *getenv("CLOCKBENCH_NO_VDSO")) ||
	    !getauxval(AT_SYSINFO_EHDR))
		skip();
	if (vdso_self(&img, &err) < 0)
		fail_msg("vdso_self: %s", err.buf);
	env_collect(&env, &img, "ignored", -1);
	assert_true(env.have_vdso);
	assert_string_equal(env.vdso_error, "");
	assert_true(list_has(&env, versioned(want, sizeof(want), names->clock_gettime)));
	if (names->gettimeofday)
		assert_true(list_has(&env, versioned(want, sizeof(want), names->gettimeofday)));
	assert_null(env.vdso_symbols[env.nvdso_symbols]);
	vdso_foreach_symbol(&img, check_not_listed, &env);
	env_free(&env);
	assert_null(env.vdso_symbols);
	assert_int_equal(env.nvdso_symbols, 0);
	env_free(&env);
}

static void test_no_vdso_keeps_error(void **state)
{
	struct env_info env;
	json_t *obj, *vdso;

	(void)state;
	env_collect(&env, NULL, "disabled by CLOCKBENCH_NO_VDSO", -1);
	assert_false(env.have_vdso);
	assert_string_equal(env.vdso_error, "disabled by CLOCKBENCH_NO_VDSO");
	assert_int_equal(env.nvdso_symbols, 0);
	obj = env_to_json(&env);
	vdso = json_object_get(obj, "vdso");
	assert_true(json_is_false(json_object_get(vdso, "available")));
	assert_string_equal(json_string_value(json_object_get(vdso, "error")),
			    "disabled by CLOCKBENCH_NO_VDSO");
	assert_int_equal(json_array_size(json_object_get(vdso, "symbols")), 0);
	json_decref(obj);
	env_free(&env);
}

/* The x86 "hypervisor" flag and the CPUID bit env.c reads are the same bit. */
static void test_hypervisor_follows_cpuid_flag(void **state)
{
#if defined(__x86_64__) || defined(__i386__)
	char line[8192], sys_type[64];
	bool flagged = false;
	struct env_info env;
	FILE *f;

	(void)state;
	f = fopen("/proc/cpuinfo", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) == 0) {
			flagged = has_word(line, "hypervisor");
			break;
		}
	}
	fclose(f);
	read_first_line("/sys/hypervisor/type", sys_type, sizeof(sys_type));
	env_collect(&env, NULL, "test", -1);
	if (flagged)
		assert_true(env.hypervisor[0] != '\0');
	else
		assert_string_equal(env.hypervisor, sys_type);
	env_free(&env);
#else
	(void)state;
	skip();
#endif
}

static void test_libc_matches_confstr(void **state)
{
	struct env_info env;
	char expect[64], got[80];

	(void)state;
	env_collect(&env, NULL, "test", -1);
#ifdef __GLIBC__
	/* confstr answers "glibc 2.36", independently of gnu_get_libc_version. */
	assert_true(confstr(_CS_GNU_LIBC_VERSION, expect, sizeof(expect)) > 0);
	snprintf(got, sizeof(got), "%s %s", env.libc_name, env.libc_version);
	assert_string_equal(got, expect);
#else
	(void)expect;
	(void)got;
	assert_string_equal(env.libc_name, "unknown");
#endif
	assert_true(env.ncpus_online >= 1);
	env_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_release_matches_uname),
		cmocka_unit_test(test_clocksource_matches_sysfs),
		cmocka_unit_test(test_time_namespace_of_this_process),
		cmocka_unit_test(test_new_time_namespace_is_detected),
		cmocka_unit_test(test_json_has_stable_keys_and_types),
		cmocka_unit_test(test_json_replaces_invalid_utf8),
		cmocka_unit_test(test_json_read_back),
		cmocka_unit_test(test_cpu_flags_match_whole_words),
		cmocka_unit_test(test_cpuinfo_x86),
		cmocka_unit_test(test_cpuinfo_other_architectures),
		cmocka_unit_test(test_print_shows_kernel_and_prefix),
		cmocka_unit_test(test_vdso_symbols_from_real_image),
		cmocka_unit_test(test_no_vdso_keeps_error),
		cmocka_unit_test(test_hypervisor_follows_cpuid_flag),
		cmocka_unit_test(test_libc_matches_confstr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
