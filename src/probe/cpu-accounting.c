// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/cpu-accounting.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/json.h"
#include "basic/strbuf.h"
#include "basic/util.h"

extern char **environ;

#define CONFIG_MAX (8u << 20)	/* a kernel config is some 300 kB */

static const char *const mode_names[] = {
	[ACCT_UNKNOWN] = "unknown",
	[ACCT_TICK] = "tick",
	[ACCT_VIRT_GEN] = "virt-gen",
	[ACCT_VIRT_NATIVE] = "virt-native",
};

static const char *const mode_configs[] = {
	[ACCT_UNKNOWN] = "",
	[ACCT_TICK] = "CONFIG_TICK_CPU_ACCOUNTING",
	[ACCT_VIRT_GEN] = "CONFIG_VIRT_CPU_ACCOUNTING_GEN",
	[ACCT_VIRT_NATIVE] = "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE",
};

const char *kernel_config_value(const char *config, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = config; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return p + n + 1;
	return NULL;
}

bool cpu_accounting_from_config(const char *config, const char *source,
				struct cpu_accounting *a)
{
	const char *hz = kernel_config_value(config, "CONFIG_HZ");
	bool found = false;

	for (int m = ACCT_TICK; m <= ACCT_VIRT_NATIVE; m++) {
		const char *v = kernel_config_value(config, mode_configs[m]);

		if (v && *v == 'y') {
			a->mode = (enum cpu_accounting_mode)m;
			a->mode_inferred = false;
			snprintf(a->mode_source, sizeof(a->mode_source), "%s", source);
			found = true;
		}
	}
	if (hz && atol(hz) > 0) {
		a->hz = atol(hz);
		a->hz_inferred = false;
		snprintf(a->hz_source, sizeof(a->hz_source), "CONFIG_HZ in %s", source);
		found = true;
	}
	return found;
}

/* The output of gzip -dc path, or NULL: gzip is in every Debian system. */
static char *gunzip(const char *path)
{
	char *argv[] = { (char *)"gzip", (char *)"-dc", (char *)path, NULL };
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	posix_spawn_file_actions_t fa;
	int fds[2], status = 0, rc;
	char buf[65536];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "gzip", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while (rc == 0 && out.len < CONFIG_MAX &&
	       ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			strbuf_add(&out, buf, (size_t)n);
	close(fds[0]);
	if (rc != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return NULL;
	return strbuf_detach(&out);
}

/* A config file, gzipped when its name ends in .gz. */
static char *read_config_file(const char *path)
{
	size_t n = strlen(path);

	if (n > 3 && streq(path + n - 3, ".gz"))
		return access(path, R_OK) == 0 ? gunzip(path) : NULL;
	return read_text_file(path, CONFIG_MAX);
}

char *kernel_config_read(char *source, size_t len)
{
	const char *forced = getenv(KERNEL_CONFIG_ENV);
	struct utsname u;
	char boot[128 + sizeof(u.release)] = "/boot/config-?";
	char *text;

	if (forced) {
		snprintf(source, len, "%s", *forced ? forced : "no file (" KERNEL_CONFIG_ENV
			 " is empty)");
		return *forced ? read_config_file(forced) : NULL;
	}
	if (uname(&u) == 0)
		snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	snprintf(source, len, "%s", boot);
	if ((text = read_text_file(boot, CONFIG_MAX)))
		return text;
	snprintf(source, len, "/proc/config.gz");
	if ((text = read_config_file("/proc/config.gz")))
		return text;
	snprintf(source, len, "%s or /proc/config.gz", boot);
	return NULL;
}

static bool read_kernel_config(struct cpu_accounting *a)
{
	struct utsname u;
	char path[128 + sizeof(u.release)];
	char *text = NULL;
	bool found = false;

	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		text = read_text_file(path, CONFIG_MAX);
	}
	if (text)
		found = cpu_accounting_from_config(text, path, a);
	free(text);
	if (found || access("/proc/config.gz", R_OK) != 0)
		return found;
	text = gunzip("/proc/config.gz");
	found = text && cpu_accounting_from_config(text, "/proc/config.gz", a);
	free(text);
	return found;
}

/* Without a config: what the kernel evidently does. */
static void infer_mode(struct cpu_accounting *a)
{
	a->mode_inferred = true;
	if (*a->nohz_full) {
		a->mode = ACCT_VIRT_GEN;
		snprintf(a->mode_source, sizeof(a->mode_source),
			 "no kernel config; nohz_full CPUs %s", a->nohz_full);
		return;
	}
#if defined(__s390x__) || defined(__powerpc64__)
	a->mode = ACCT_VIRT_NATIVE;
	snprintf(a->mode_source, sizeof(a->mode_source),
		 "no kernel config; the default of this architecture");
#else
	a->mode = ACCT_TICK;
	snprintf(a->mode_source, sizeof(a->mode_source),
		 "no kernel config; no nohz_full CPUs");
#endif
}

/* The kernel's jiffies now, from /proc/timer_list (root only), or 0. */
static unsigned long long read_jiffies(void)
{
	_cleanup_free_ char *text = read_text_file("/proc/timer_list", 1u << 20);
	const char *p = text ? strstr(text, "\njiffies: ") : NULL;

	return p ? strtoull(p + 10, NULL, 10) : 0;
}

/* HZ from how fast jiffies run over 100 ms, to the nearest Kconfig choice. */
static void infer_hz(struct cpu_accounting *a)
{
	static const long choices[] = { 100, 250, 300, 1000 };
	unsigned long long j0 = read_jiffies(), j1;
	struct timespec pause = { 0, 100000000 };
	uint64_t t0 = now_ns();
	double rate;

	a->hz_inferred = true;
	nanosleep(&pause, NULL);
	j1 = read_jiffies();
	if (!j0 || j1 <= j0) {
		a->hz = sysconf(_SC_CLK_TCK);
		snprintf(a->hz_source, sizeof(a->hz_source),
			 "USER_HZ (sysconf), the kernel's HZ unknown");
		return;
	}
	rate = (double)(j1 - j0) * 1e9 / (double)(now_ns() - t0);
	a->hz = choices[0];
	for (size_t i = 1; i < ARRAY_SIZE(choices); i++)
		if (fabs(rate - (double)choices[i]) < fabs(rate - (double)a->hz))
			a->hz = choices[i];
	snprintf(a->hz_source, sizeof(a->hz_source),
		 "jiffies in /proc/timer_list, %.0f a second", rate);
}

void cpu_accounting_probe(struct cpu_accounting *a)
{
	memset(a, 0, sizeof(*a));
	if (!read_line_file("/sys/devices/system/cpu/nohz_full", a->nohz_full,
			    sizeof(a->nohz_full)) || streq(a->nohz_full, "(null)"))
		a->nohz_full[0] = '\0';
	read_kernel_config(a);
	if (a->mode == ACCT_UNKNOWN)
		infer_mode(a);
	if (a->hz <= 0)
		infer_hz(a);
}

bool cpu_accounting_sampled(const struct cpu_accounting *a)
{
	return a->mode == ACCT_TICK || a->mode == ACCT_VIRT_GEN;
}

double cpu_accounting_tick_s(const struct cpu_accounting *a)
{
	return a->hz > 0 ? 1.0 / (double)a->hz : NAN;
}

void cpu_accounting_note(const struct cpu_accounting *a, char *buf, size_t len)
{
	const char *probably = a->mode_inferred ? "probably " : "";
	bool gen = a->mode == ACCT_VIRT_GEN && *a->nohz_full;
	char tick[64];

	if (a->hz > 0)
		snprintf(tick, sizeof(tick), "%.3g ms", 1e3 / (double)a->hz);
	else
		snprintf(tick, sizeof(tick), "one tick");
	if (a->mode == ACCT_VIRT_NATIVE) {
		snprintf(buf, len, "user and sys are %smeasured at every user/kernel "
			 "crossing (%s; %s)", probably, mode_configs[a->mode],
			 a->mode_source);
		return;
	}
	snprintf(buf, len, "user and sys %scome from tick sampling%s%s (%s%s%s; HZ %ld, "
		 "%s%s): below %s of CPU time the split between them is an "
		 "estimate (time no tick fell in counts as user); user + sys is exact",
		 probably, gen ? " except on the nohz_full CPUs " : "",
		 gen ? a->nohz_full : "", mode_configs[a->mode],
		 *mode_configs[a->mode] ? ", " : "", a->mode_source, a->hz,
		 a->hz_inferred ? "probably; " : "", a->hz_source, tick);
}

json_t *cpu_accounting_to_json(const struct cpu_accounting *a)
{
	double tick = cpu_accounting_tick_s(a);

	return json_pack("{s:s, s:b, s:s, s:I, s:b, s:s, s:b, s:o}",
			 "mode", mode_names[a->mode], "mode_inferred", a->mode_inferred,
			 "mode_source", a->mode_source, "hz", (json_int_t)a->hz,
			 "hz_inferred", a->hz_inferred, "hz_source", a->hz_source,
			 "sampled", cpu_accounting_sampled(a),
			 "estimate_below_s", cpu_accounting_sampled(a) ?
			 json_number(tick) : json_null());
}

/* The text of key in j into buf, "" when it is not a string. */
static void copy_text(const json_t *j, const char *key, char *buf, size_t len)
{
	const json_t *v = json_object_get(j, key);

	snprintf(buf, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

bool cpu_accounting_from_json(const json_t *j, struct cpu_accounting *a)
{
	const json_t *mode = json_object_get(j, "mode"), *hz = json_object_get(j, "hz");

	memset(a, 0, sizeof(*a));
	for (size_t i = 1; i < ARRAY_SIZE(mode_names) && json_is_string(mode); i++)
		if (streq(json_string_value(mode), mode_names[i]))
			a->mode = (enum cpu_accounting_mode)i;
	if (a->mode == ACCT_UNKNOWN)
		return false;
	a->mode_inferred = json_is_true(json_object_get(j, "mode_inferred"));
	copy_text(j, "mode_source", a->mode_source, sizeof(a->mode_source));
	a->hz = json_is_integer(hz) && json_integer_value(hz) > 0 ?
		(long)json_integer_value(hz) : 0;
	a->hz_inferred = json_is_true(json_object_get(j, "hz_inferred"));
	copy_text(j, "hz_source", a->hz_source, sizeof(a->hz_source));
	return true;
}

void cpu_accounting_print_note(FILE *f, const char *prefix)
{
	struct cpu_accounting a;
	char note[1024];

	cpu_accounting_probe(&a);
	cpu_accounting_note(&a, note, sizeof(note));
	fprintf(f, "%s%s\n", prefix, note);
}
