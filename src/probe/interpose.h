/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbol interposition: which object a call of a C library function by
 * name really reaches. A program's call binds to the first definition in
 * the global scope: an LD_PRELOAD library (libfaketime), a library linked
 * before libc, a sanitizer's interceptor come before libc itself. doctor
 * reports them; verify names them when the libc path fails.
 */
#ifndef CLOCKBENCH_INTERPOSE_H
#define CLOCKBENCH_INTERPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/catalog.h"

/*
 * Whether the definition of name that a call binds to lives outside the C
 * library and outside the vDSO (glibc's IFUNCs resolve time() and
 * gettimeofday() straight into it): then the file that defines it goes to
 * owner and true is returned. A static program, or a symbol nobody
 * defines, gives false.
 */
bool interposer_of(const char *name, const struct catalog *cat, char *owner,
		   size_t len);

/*
 * The C library's own definition of name, looked up in libc.so itself and
 * so bypassing any interposer, or NULL when libc cannot be opened (a
 * static program, a libc that is not glibc).
 */
void *libc_own_symbol(const char *name);

#endif
