// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the project read in the kernel's history about behaviour verify
 * observes: background that a line may cite beside what it saw, marked as
 * such. verify tests none of it (no kernel version, no source), so a line
 * never gives it as a finding or as the cause of what it saw.
 */
#include "verify/verify.h"

static const struct verify_background backgrounds[] = {
	{
		.topic = "vdso-getres-aux",
		.commit = "cd3557a7618b",
		.subject = "vdso/gettimeofday: Add support for auxiliary clocks",
		.release = "v6.17",
		.what = "the vDSO's clock_getres answers auxiliary clock ids itself, "
			"1 ns, without checking that the kernel has them "
			"(CONFIG_POSIX_AUX_CLOCKS)",
	},
};

const struct verify_background *verify_background(const char *topic)
{
	for (size_t i = 0; i < ARRAY_SIZE(backgrounds); i++)
		if (streq(backgrounds[i].topic, topic))
			return &backgrounds[i];
	return NULL;
}

void verify_background_text(const char *topic, struct strbuf *out)
{
	const struct verify_background *b = verify_background(topic);

	if (!b)
		return;
	strbuf_addf(out, "background, not tested by verify: since kernel commit %s "
		    "(\"%s\", %s), %s", b->commit, b->subject, b->release, b->what);
}
