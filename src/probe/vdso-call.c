// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe/vdso-call.h"

#if defined(__powerpc__)

#define CR0_SO 0x10000000UL	/* summary overflow: the vDSO's error flag */

/*
 * The call made by hand, so that CR0 can be read right after it. r12
 * holds the entry address, as the ELFv2 global entry point expects; the
 * clobbers are the registers the ABI lets a callee change.
 */
long vdso_clock_call(const void *fn, clockid_t id, void *ts)
{
	register long r3 __asm__("r3") = id;
	register long r4 __asm__("r4") = (long)ts;
	register const void *r12 __asm__("r12") = fn;
	unsigned long cr;

	__asm__ __volatile__("mtctr %[fn]\n\t"
			     "bctrl\n\t"
			     "mfcr %[cr]"
			     : "+r"(r3), "+r"(r4), [fn] "+r"(r12), [cr] "=r"(cr)
			     :
			     : "r0", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
			       "ctr", "lr", "xer", "cr0", "cr1", "cr5", "cr6", "cr7",
			       "memory");
	return (cr & CR0_SO) ? -r3 : r3;
}

#else

long vdso_clock_call(const void *fn, clockid_t id, void *ts)
{
	return ((int (*)(clockid_t, void *))fn)(id, ts);
}

#endif
