// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol interposition, found through the dynamic linker: dlsym() with
 * RTLD_DEFAULT is the lookup a call by name makes, and dladdr() names the
 * object that answered.
 */
#include "probe/interpose.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <gnu/lib-names.h>
#include <gnu/libc-version.h>
#endif

#include "basic/util.h"

/* The shared object that defines addr, or NULL. */
static const char *object_of(const void *addr)
{
	Dl_info info;

	if (!addr || !dladdr(addr, &info) || !info.dli_fname)
		return NULL;
	return info.dli_fname;
}

/* A function only the C library defines: where libc itself lives. */
static const void *libc_anchor(void)
{
#ifdef __GLIBC__
	return (const void *)gnu_get_libc_version;
#else
	return (const void *)getppid;
#endif
}

static bool in_vdso(const struct catalog *cat, const void *addr)
{
	const unsigned char *p = addr;

	return cat && cat->have_vdso && p >= cat->vdso.base &&
	       p < cat->vdso.base + cat->vdso.len;
}

bool interposer_of(const char *name, const struct catalog *cat, char *owner,
		   size_t len)
{
	const char *libc = object_of(libc_anchor());
	const void *addr = dlsym(RTLD_DEFAULT, name);
	const char *file = object_of(addr);

	if (!libc || !file || streq(file, libc) || in_vdso(cat, addr))
		return false;
	snprintf(owner, len, "%s", file);
	return true;
}

void *libc_own_symbol(const char *name)
{
#ifdef LIBC_SO
	void *h = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
	void *sym;

	if (!h)
		return NULL;
	sym = dlsym(h, name);
	/* libc stays loaded: the program links it, NOLOAD took a reference. */
	dlclose(h);
	return sym;
#else
	(void)name;
	return NULL;
#endif
}
