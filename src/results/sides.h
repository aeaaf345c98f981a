/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the runs' own records say about the machine each side of a
 * comparison ran on, as far as it decides a time: whether the timings
 * were emulated, the clocksource, the hypervisor, the CPU model, whether
 * the runs were inside a time namespace, whether hotplug traced, the
 * kernel's time options on its command line, the C library. Every fact
 * that differs between the base and another group is named above the
 * verdicts (issue 30: 6.1 on hpet against 6.12 on tsc read as "-94.89 %
 * better" with nothing said).
 */
#ifndef CLOCKBENCH_SIDES_H
#define CLOCKBENCH_SIDES_H

#include <stdbool.h>
#include <stddef.h>

#include "results/store.h"

struct compare_group;

/* One fact with another value on the other side: "clocksource", "hpet", "tsc". */
struct side_difference {
	const char *fact;
	char *base, *other;
};

struct side_differences {
	struct side_difference *items;
	size_t n;
	/*
	 * When one difference alone can explain a change of the vDSO's cells
	 * (a clocksource the vDSO cannot read, on one side only), a sentence
	 * ("The clocksource hpet is read by the kernel..."); else NULL.
	 */
	char *explains;
};

/*
 * The facts of group other that differ from base's (a group's fact is its
 * runs' when they agree, "mixed: a, b" when not; unknown facts are never
 * called different).
 */
void sides_differ(const struct compare_group *base, const struct compare_group *other,
		  struct side_differences *out);
void side_differences_free(struct side_differences *d);

/*
 * Whether the vDSO reads clocksource cs itself (tsc, kvm-clock, the arm64
 * counter...): false for those the kernel reads (hpet, acpi_pm, jiffies);
 * unknown ones count as read by the vDSO, so that no claim is made of them.
 */
bool clocksource_read_by_vdso(const char *cs);

#endif
