// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/stored-runs.h"

#include "basic/error.h"
#include "basic/strbuf.h"
#include "basic/util.h"

int session_open_status(struct compare_session *s, struct store *st,
			const struct run_selection *sel, const char *instead)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int rc = compare_session_open(s, st, sel, NULL, COMPARE_HISTORY_DEFAULT, &err);

	if (rc == RUN_GROUPS_TOO_MANY)
		return usage_fail("%s: %s", err.buf, instead);
	if (rc)
		error_msg("%s", err.buf);
	return rc ? 1 : 0;
}
