// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpuhp events through libtracefs and libtraceevent: tracefs found or
 * mounted, a private instance with the events on, the per-CPU ring
 * buffers read raw and each record decoded by the event formats the
 * kernel publishes (so no text is parsed), and the instances of dead runs
 * removed.
 */
#include "scenario/hotplug.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include <event-parse.h>
#include <tracefs.h>

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/util.h"

struct hotplug_trace {
	struct tracefs_instance *instance;
	struct tep_handle *tep;
	struct tep_handle *symbols;	/* a kallsyms file's alone, or NULL */
	struct tep_event *enter, *multi_enter, *exit;
	cpu_set_t *cpus;		/* the CPUs the instance has buffers of */
	size_t cpus_size;
	bool created;			/* the instance is ours to remove */
	char unmount[PATH_MAX];		/* where this process mounted tracefs */
};

bool hotplug_tracing_built(void)
{
	return true;
}

/*
 * libtracefs's tracefs_tracing_dir_is_mounted() hands out a path the
 * caller must not free (1.6 allocates one per call): kept here, reachable.
 */
static const char *found_dir, *mounted_dir;

void hotplug_tracing_where(char *dir, size_t len, bool *mounted)
{
	*mounted = tracefs_tracing_dir_is_mounted(false, &found_dir) == 1 && found_dir;
	snprintf(dir, len, "%s", *mounted ? found_dir : HOTPLUG_TRACEFS);
}

/* ---- instances of dead runs ----------------------------------------- */

/* Whether process pid is a clockbench (its pid may have been reused). */
static bool is_clockbench(long pid)
{
	char path[64], comm[32];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	return !read_line_file(path, comm, sizeof(comm)) || streq(comm, "clockbench");
}

/*
 * The pid of "clockbench-hotplug-PID" when that process is gone, or is no
 * clockbench any more. (A live run holds the hotplug lock that the caller
 * holds now, so none can be running.)
 */
static bool owner_gone(const char *name, long *pid)
{
	size_t plen = strlen(HOTPLUG_INSTANCE_PREFIX);

	if (strncmp(name, HOTPLUG_INSTANCE_PREFIX, plen) != 0 ||
	    !parse_int(name + plen, 1, INT_MAX, pid))
		return false;
	if (kill((pid_t)*pid, 0) != 0)
		return errno == ESRCH;
	return !is_clockbench(*pid);
}

static int remove_instance_named(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int rc = inst ? tracefs_instance_destroy(inst) : -1;
	int e = errno;

	tracefs_instance_free(inst);
	errno = e;
	return rc;
}

int hotplug_remove_stale_instances(const char *dir, struct strbuf *report)
{
	char **names;
	int removed = 0;

	if (tracefs_set_tracing_dir((char *)dir) != 0)
		return -1;
	/* All of them: libtracefs 1.6 does not free a compiled regex. */
	names = tracefs_instances(NULL);
	if (!names)
		return -1;
	for (char **p = names; *p; p++) {
		long pid;

		if (!owner_gone(*p, &pid))
			continue;
		if (remove_instance_named(*p) == 0) {
			strbuf_addf(report, "removed the tracing instance %s, left "
				    "by clockbench process %ld, which is gone\n", *p, pid);
			removed++;
		} else {
			strbuf_addf(report, "cannot remove the tracing instance %s, "
				    "left by clockbench process %ld: %s\n", *p, pid,
				    strerror(errno));
		}
	}
	tracefs_list_free(names);
	return removed;
}

/* ---- reading -------------------------------------------------------- */

/* The CPUs with a per_cpu/cpuN directory in the instance. */
static int find_cpus(struct hotplug_trace *p, const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	long cpu;

	snprintf(path, sizeof(path), "%s/instances/%s/per_cpu", dir, name);
	dp = opendir(path);
	if (!dp)
		return -1;
	p->cpus_size = CPU_ALLOC_SIZE(CPU_SETSIZE);
	p->cpus = CPU_ALLOC(CPU_SETSIZE);
	CPU_ZERO_S(p->cpus_size, p->cpus);
	while ((d = readdir(dp)))
		if (strncmp(d->d_name, "cpu", 3) == 0 &&
		    parse_int(d->d_name + 3, 0, CPU_SETSIZE - 1, &cpu))
			CPU_SET_S((size_t)cpu, p->cpus_size, p->cpus);
	closedir(dp);
	return 0;
}

/* A callback's name and start in the kallsyms file's symbols alone. */
static char *resolve_in_file(void *priv, unsigned long long *addr, char **mod)
{
	struct tep_handle *symbols = priv;
	const char *name = tep_find_function(symbols, *addr);

	if (!name)
		return NULL;
	*addr = tep_find_function_address(symbols, *addr);
	*mod = NULL;
	return (char *)name;
}

/*
 * Function names from a file in /proc/kallsyms format (a capture's), and
 * from it alone: this machine's /proc/kallsyms (another kernel, another
 * KASLR offset) can have a symbol between a capture's and its callback,
 * which would name the wrong function.
 */
static int load_kallsyms(struct hotplug_trace *p, const char *path)
{
	_cleanup_free_ char *text = read_text_file(path, 64u << 20);

	if (!text)
		return -1;
	p->symbols = tep_alloc();
	if (!p->symbols || tep_parse_kallsyms(p->symbols, text) != 0)
		return -1;
	return tep_set_function_resolver(p->tep, resolve_in_file, p->symbols);
}

/*
 * This machine's function names, for the callbacks', best effort (as
 * libtracefs does: without them a callback is its address). Read here, not
 * by tracefs_local_events_system(), which reallocs its buffer for the 5 MB
 * of /proc/kallsyms at every 8 KiB read: the sanitizers' realloc copies
 * each time (test-hotplug took 81 s, cli-hotplug 5.3 minutes of CI).
 */
static void load_machine_kallsyms(struct hotplug_trace *p)
{
	_cleanup_free_ char *text = read_text_file("/proc/kallsyms", 64u << 20);

	if (text)
		tep_parse_kallsyms(p->tep, text);
}

/* cpuhp's event NAME, parsed from its format file under dir, or NULL. */
static struct tep_event *parse_cpuhp_event(struct tep_handle *tep, const char *dir,
					   const char *name)
{
	char path[PATH_MAX];
	_cleanup_free_ char *format = NULL;

	snprintf(path, sizeof(path), "%s/events/cpuhp/%s/format", dir, name);
	format = read_text_file(path, 1u << 20);
	if (!format || tep_parse_event(tep, format, strlen(format), "cpuhp") != 0)
		return NULL;
	return tep_find_event_by_name(tep, "cpuhp", name);
}

/* The ring buffers' layout, the three cpuhp events, the names. */
static int open_events(struct hotplug_tracing *t, const char *dir,
		       const char *kallsyms)
{
	struct hotplug_trace *p = t->trace;
	int ncpus = 0;
	char path[PATH_MAX];
	_cleanup_free_ char *header = NULL;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	header = read_text_file(path, 1u << 20);
	p->tep = tep_alloc();
	if (!header || !p->tep ||
	    tep_parse_header_page(p->tep, header, (unsigned long)strlen(header),
				  sizeof(long)) != 0) {
		snprintf(t->note, sizeof(t->note), "cannot read %.900s", path);
		return -1;
	}
	tep_set_long_size(p->tep, tep_get_header_page_size(p->tep));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET_S((size_t)cpu, p->cpus_size, p->cpus))
			ncpus = cpu + 1;
	tep_set_cpus(p->tep, ncpus);
	p->enter = parse_cpuhp_event(p->tep, dir, "cpuhp_enter");
	p->multi_enter = parse_cpuhp_event(p->tep, dir, "cpuhp_multi_enter");
	p->exit = parse_cpuhp_event(p->tep, dir, "cpuhp_exit");
	if (!p->enter || !p->multi_enter || !p->exit) {
		snprintf(t->note, sizeof(t->note), "the kernel has no cpuhp trace "
			 "events (none in %s/events/cpuhp)", dir);
		return -1;
	}
	if (!kallsyms) {
		load_machine_kallsyms(p);
	} else if (load_kallsyms(p, kallsyms) != 0) {
		snprintf(t->note, sizeof(t->note), "cannot read %s", kallsyms);
		return -1;
	}
	return 0;
}

int hotplug_tracing_open(struct hotplug_tracing *t, const char *dir,
			 const char *name, const char *kallsyms)
{
	struct hotplug_trace *p;

	if (!t->trace)
		t->trace = xcalloc(1, sizeof(*t->trace));
	p = t->trace;
	/* Every path libtracefs makes, the per-CPU reader's too, under dir. */
	if (tracefs_set_tracing_dir((char *)dir) != 0)
		return -1;
	if (!p->instance)
		p->instance = tracefs_instance_alloc(dir, name);
	if (!p->instance || find_cpus(p, dir, name) != 0) {
		snprintf(t->note, sizeof(t->note), "no tracing instance %s/instances/%s",
			 dir, name);
		return -1;
	}
	if (open_events(t, dir, kallsyms) != 0)
		return -1;
	t->active = true;
	return 0;
}

int hotplug_trace_clear(struct hotplug_tracing *t)
{
	return tracefs_instance_file_clear(t->trace->instance, "trace");
}

struct collected {
	struct hotplug_trace *p;
	unsigned int cpu;
	struct cpuhp_event *ev;
	size_t n, cap;
	uint64_t lost;
};

static bool field(struct tep_event *e, struct tep_record *r, const char *name,
		  unsigned long long *v)
{
	return tep_get_field_val(NULL, e, name, r, v, 0) == 0;
}

static void function_name(struct tep_handle *tep, unsigned long long addr,
			  char *buf, size_t len)
{
	const char *fn = tep_find_function(tep, addr);

	if (fn)
		snprintf(buf, len, "%s", fn);
	else
		snprintf(buf, len, "0x%llx", addr);
}

/* One record as an event; false when it is none of the cpuhp events. */
static bool decode(struct hotplug_trace *p, struct tep_event *e,
		   struct tep_record *r, struct cpuhp_event *ev)
{
	unsigned long long cpu, target, step, last;
	bool exit = e == p->exit;

	memset(ev, 0, sizeof(*ev));
	if (e != p->enter && e != p->multi_enter && !exit)
		return false;
	ev->kind = exit ? CPUHP_EXIT : e == p->enter ? CPUHP_ENTER : CPUHP_MULTI_ENTER;
	if (!field(e, r, "cpu", &cpu) || !field(e, r, exit ? "state" : "target", &target) ||
	    !field(e, r, "idx", &step) || !field(e, r, exit ? "ret" : "fun", &last))
		return false;
	ev->cpu = (unsigned int)cpu;
	/* 32-bit fields come unextended: the casts give their signs back. */
	ev->target = (int)target;
	ev->step = (int)step;
	if (exit)
		ev->ret = (int)last;
	else
		function_name(p->tep, last, ev->fn, sizeof(ev->fn));
	ev->pid = tep_data_pid(p->tep, r);
	ev->ts_ns = r->ts;
	return true;
}

static int on_record(struct tep_event *e, struct tep_record *r, int cpu, void *arg)
{
	struct collected *c = arg;
	struct cpuhp_event ev;

	/* -1: events were lost, how many is unknown. */
	if (r->missed_events)
		c->lost += r->missed_events > 0 ? (uint64_t)r->missed_events : 1;
	if (!decode(c->p, e, r, &ev) || ev.cpu != c->cpu)
		return 0;
	grow_array((void **)&c->ev, &c->cap, c->n + 1, sizeof(*c->ev));
	c->ev[c->n++] = ev;
	return 0;
}

ssize_t hotplug_trace_read(struct hotplug_tracing *t, unsigned int cpu,
			   struct cpuhp_event **out)
{
	struct hotplug_trace *p = t->trace;
	struct collected c = { .p = p, .cpu = cpu };

	*out = NULL;
	/* In timestamp order across the CPUs' buffers. */
	if (tracefs_iterate_raw_events(p->tep, p->instance, p->cpus, (int)p->cpus_size,
				       on_record, &c) != 0) {
		free(c.ev);
		return -1;
	}
	t->lost += c.lost;
	*out = c.ev;
	return (ssize_t)c.n;
}

/* ---- setting up and taking down --------------------------------------- */

static bool mount_tracefs(struct hotplug_tracing *t, const char *dir)
{
	int was = tracefs_tracing_dir_is_mounted(true, &mounted_dir);

	if (was < 0 || !mounted_dir) {
		snprintf(t->note, sizeof(t->note), "cannot mount tracefs at %s", dir);
		return false;
	}
	if (was == 0)
		snprintf(t->trace->unmount, sizeof(t->trace->unmount), "%s", mounted_dir);
	/* The supervisor's guard watches dir, and only dir. */
	if (!streq(mounted_dir, dir)) {
		snprintf(t->note, sizeof(t->note), "tracefs is at %s, not at %s "
			 "where it was expected", mounted_dir, dir);
		return false;
	}
	return true;
}

static bool make_instance(struct hotplug_tracing *t, const char *dir,
			  const char *name)
{
	struct hotplug_trace *p = t->trace;

	tracefs_set_tracing_dir((char *)dir);
	p->instance = tracefs_instance_create(name);
	if (!p->instance || !tracefs_instance_is_new(p->instance)) {
		snprintf(t->note, sizeof(t->note), "cannot create the tracing "
			 "instance %s/instances/%s: %s", dir, name,
			 p->instance ? "it exists" : strerror(errno));
		return false;
	}
	p->created = true;
	return true;
}

static bool enable_events(struct hotplug_tracing *t, const char *dir)
{
	struct hotplug_trace *p = t->trace;

	if (!tracefs_dir_exists(p->instance, "events/cpuhp")) {
		snprintf(t->note, sizeof(t->note), "the kernel has no cpuhp trace "
			 "events (no events/cpuhp in %s)", dir);
		return false;
	}
	if (tracefs_event_enable(p->instance, "cpuhp", NULL) != 0 ||
	    tracefs_trace_on(p->instance) != 0) {
		snprintf(t->note, sizeof(t->note), "cannot enable the cpuhp events: %s",
			 strerror(errno));
		return false;
	}
	return true;
}

void hotplug_tracing_start(struct hotplug_tracing *t, const char *dir,
			   const char *name, struct strbuf *stale)
{
	bool mono;

	memset(t, 0, sizeof(*t));
	t->trace = xcalloc(1, sizeof(*t->trace));
	if (!mount_tracefs(t, dir)) {
		hotplug_tracing_stop(t);
		return;
	}
	hotplug_remove_stale_instances(dir, stale);
	if (!make_instance(t, dir, name) || !enable_events(t, dir)) {
		hotplug_tracing_stop(t);
		return;
	}
	/* "mono" orders events of different CPUs; "local" may not. */
	mono = tracefs_instance_file_write(t->trace->instance, "trace_clock", "mono") > 0;
	if (hotplug_tracing_open(t, dir, name, NULL) != 0) {
		hotplug_tracing_stop(t);
		return;
	}
	snprintf(t->note, sizeof(t->note), "cpuhp events in tracefs instance "
		 "%s/instances/%s, clock %s", dir, name,
		 mono ? "mono" : "local (mono unavailable)");
}

static void remove_own_instance(struct hotplug_trace *p)
{
	const char *name = tracefs_instance_get_name(p->instance);

	tracefs_trace_off(p->instance);
	tracefs_event_disable(p->instance, "cpuhp", NULL);
	if (tracefs_instance_destroy(p->instance) != 0)
		warn_msg("cannot remove the tracing instance %s: %m", name);
}

void hotplug_tracing_stop(struct hotplug_tracing *t)
{
	struct hotplug_trace *p = t->trace;

	t->active = false;
	if (!p)
		return;
	if (p->instance && p->created)
		remove_own_instance(p);
	tracefs_instance_free(p->instance);
	tep_free(p->tep);
	tep_free(p->symbols);
	if (p->cpus)
		CPU_FREE(p->cpus);
	/* Lazily: a submount or a late reader does not keep it mounted. */
	if (p->unmount[0] && umount2(p->unmount, MNT_DETACH) != 0)
		warn_msg("cannot unmount tracefs at %s: %m", p->unmount);
	free(p);
	t->trace = NULL;
}
