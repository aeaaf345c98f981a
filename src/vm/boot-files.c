// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A boot's files and what they say once qemu has ended (vm/boot-files.h).
 */
#include "vm/boot-files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/util.h"
#include "vm/arch.h"
#include "vm/guest.h"

void boot_files_close(struct boot_files *f)
{
	int *fds[] = { &f->initrd, &f->console, &f->data, &f->log };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

int boot_files_open(struct boot_files *f)
{
	f->initrd = vm_file_new("initrd");
	f->console = vm_file_new("console");
	f->data = vm_file_new("data");
	f->log = vm_file_new("qemu-log");
	if (f->initrd < 0 || f->console < 0 || f->data < 0 || f->log < 0) {
		boot_files_close(f);
		return -1;
	}
	return 0;
}

int boot_result_port(const struct vm_machine *m, const struct boot_files *f)
{
	return vm_arch_info(m->arch)->data_on_console ? f->console : f->data;
}

/* Whether the guest said on the console that it runs the command. */
static bool guest_reached(int console)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	return vm_file_read(console, BOOT_FILE_READ_MAX, &text) == 0 && text.len &&
	       strstr(text.buf, GUEST_RUNNING);
}

const char *boot_end_reason(const struct vm_outcome *out, int console,
			    struct strbuf *why)
{
	switch (out->end) {
	case VM_TIMED_OUT:
		if (guest_reached(console))
			strbuf_setf(why, "no power-off within %.0f s: stopped "
				    "(the command was running)", out->wall_s);
		else
			strbuf_setf(why, "no power-off within %.0f s: stopped "
				    "(the kernel never started clockbench as its init)",
				    out->wall_s);
		return why->buf;
	case VM_INTERRUPTED:
		return "interrupted";
	case VM_PANICKED:
		return "the kernel panicked";
	case VM_QEMU_FAILED:
		strbuf_setf(why, "qemu failed (%s %d)",
			    WIFEXITED(out->status) ? "exit" : "signal",
			    WIFEXITED(out->status) ? WEXITSTATUS(out->status) :
						     WTERMSIG(out->status));
		return why->buf;
	default:
		return NULL;
	}
}

void boot_qemu_complaint(int log, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line;

	buf[0] = '\0';
	if (vm_file_read(log, 1u << 20, &sb) == 0 && sb.len) {
		line = strcasestr(sb.buf, "error");
		while (line && line > sb.buf && line[-1] != '\n')
			line--;
		if (!line)
			line = sb.buf;
		snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"), line);
	}
	strbuf_release(&sb);
}

void boot_logs_dir(const char *logs, char *dir, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	dir[0] = '\0';
	if (logs)
		snprintf(dir, len, "%s", logs);
	else if (state && *state)
		snprintf(dir, len, "%s/clockbench/boots", state);
	else if (home && *home)
		snprintf(dir, len, "%s/.local/state/clockbench/boots", home);
}

int boot_console_keep(int console, const char *logs, const char *name,
		      unsigned boot, char *out, size_t len, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char dir[PATH_MAX], file[NAME_MAX + 1];
	int dfd = -1, fd = -1, rc = 0;

	out[0] = '\0';
	boot_logs_dir(logs, dir, sizeof(dir));
	if (!dir[0] || vm_file_read(console, BOOT_FILE_READ_MAX, &text) != 0)
		return 0;
	snprintf(file, sizeof(file), "%s-boot%u-%ld.log", name, boot, (long)getpid());
	if (mkdir_p_private(dir) != 0 ||
	    (dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (fd = openat(dfd, file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			 0600)) < 0 ||
	    fd_write_all(fd, text.buf, text.len) != 0) {
		strbuf_setf(err, "cannot keep the console of %s's boot %u in %s: %s",
			    name, boot, dir, strerror(errno));
		rc = -1;
	} else {
		snprintf(out, len, "%s/%s", dir, file);
	}
	if (fd >= 0 && close(fd) != 0 && out[0]) {
		strbuf_setf(err, "cannot keep the console in %s: %s", out, strerror(errno));
		out[0] = '\0';
		rc = -1;
	}
	if (dfd >= 0)
		close(dfd);
	return rc;
}

const char *boot_console_panic(const char *console)
{
	return strstr(console, "Kernel panic - not syncing");
}

void boot_text_tail(const char *text, size_t len, unsigned n, struct strbuf *lines)
{
	const char *end = text + len, *p, *q;
	unsigned found = 0;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	p = end;
	while (p > text && found < n)
		if (*--p == '\n')
			found++;
	if (p < end && *p == '\n')
		p++;
	while (p < end && *p) {
		const char *cr;

		for (q = p; q < end && *q && *q != '\n'; q++)
			;
		cr = memchr(p, '\r', (size_t)(q - p));
		strbuf_add(lines, p, (size_t)((cr ? cr : q) - p));
		strbuf_addch(lines, '\n');
		if (q == end || *q != '\n')
			break;
		p = q + 1;
	}
}

void boot_failure_read(struct boot_failure *bf, const struct boot_files *f,
		       const char *logs, const char *name, unsigned boot,
		       unsigned console_lines, unsigned log_lines)
{
	struct strbuf text = STRBUF_INIT;
	const char *panic;

	*bf = (struct boot_failure){
		.keep_err = STRBUF_INIT, .panic = STRBUF_INIT,
		.console_tail = STRBUF_INIT, .log_tail = STRBUF_INIT,
	};
	boot_console_keep(f->console, logs, name, boot, bf->kept, sizeof(bf->kept),
			  &bf->keep_err);
	if (vm_file_read(f->console, BOOT_FILE_READ_MAX, &text) == 0 && text.len) {
		if ((panic = boot_console_panic(text.buf)))
			strbuf_add(&bf->panic, panic, strcspn(panic, "\r\n"));
		boot_text_tail(text.buf, text.len, console_lines, &bf->console_tail);
	}
	if (vm_file_read(f->log, BOOT_FILE_READ_MAX, &text) == 0 && text.len)
		boot_text_tail(text.buf, text.len, log_lines, &bf->log_tail);
	strbuf_release(&text);
}

void boot_failure_release(struct boot_failure *bf)
{
	strbuf_release(&bf->keep_err);
	strbuf_release(&bf->panic);
	strbuf_release(&bf->console_tail);
	strbuf_release(&bf->log_tail);
}
