# SPDX-License-Identifier: GPL-2.0-or-later
# What the command-line tests share: load it with `load helpers`.

: "${CLOCKBENCH:?set CLOCKBENCH to the clockbench binary}"

cb() { "$CLOCKBENCH" "$@"; }

# A results database of the test's own: never the user's (nor its spool).
private_store() {
	export CLOCKBENCH_DB="${1:-$BATS_TEST_TMPDIR}/results.db"
	export XDG_STATE_HOME="${1:-$BATS_TEST_TMPDIR}/state"
}

# a > b, for decimal figures.
greater() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# A usage error: exit 2, one line, naming what is wrong.
#   usage_error "invalid --threads '0'" scale --threads 0
usage_error() {
	local want="$1"
	shift
	run "$CLOCKBENCH" "$@"
	[ "$status" -eq 2 ] || { echo "status $status: $output"; return 1; }
	[ "${#lines[@]}" -eq 1 ] || { echo "more than one line: $output"; return 1; }
	[[ "$output" == *"$want"* ]] || { echo "got: $output"; return 1; }
}

# Tests that take a CPU offline or switch the clocksource hold this lock,
# so that test suites run side by side (x86_64 and i386 builds, two
# checkouts) never see each other's machine changes.
machine_lock() {
	exec {MACHINE_LOCK_FD}>"${TMPDIR:-/tmp}/clockbench-machine.lock"
	flock -w 900 "$MACHINE_LOCK_FD"
}

machine_unlock() {
	[ -n "${MACHINE_LOCK_FD:-}" ] && exec {MACHINE_LOCK_FD}>&-
	MACHINE_LOCK_FD=
}

# True when this process's vDSO exports the entry point of API ("getrandom"),
# as `clockbench vdso` reports it for the architecture of the build.
vdso_exports() {
	"$CLOCKBENCH" vdso | grep -qE "^  [_a-z0-9]*_$1 +resolves"
}

# The store a test works on, its --db: a file in the test's directory, or,
# with CLOCKBENCH_TEST_STORE=pg, a database of its own on the PostgreSQL
# cluster of $CLOCKBENCH_TEST_PG (scripts/with-postgresql).
#   DB=$(store_db results)
store_db() {
	if [ "${CLOCKBENCH_TEST_STORE:-}" = pg ]; then
		pg_db "$1"
	else
		echo "$BATS_TEST_TMPDIR/$1.db"
	fi
}

# A new database NAME on the cluster of URL (default $CLOCKBENCH_TEST_PG),
# its URL printed: pg_db NAME [URL]
pg_db() {
	local url=${2:-$CLOCKBENCH_TEST_PG} base query db
	base=${url%%\?*} query=${url#*\?}
	db="t$$_${BATS_TEST_NUMBER}_$1"
	psql "$url" -qXc "CREATE DATABASE $db" >/dev/null || return 1
	echo "${base%/*}/$db?$query"
}

# A test of what only a file has (its bytes, its directory, its mode).
sqlite_only() {
	[ "${CLOCKBENCH_TEST_STORE:-}" != pg ] || skip "a property of SQLite files"
}

# A test of the PostgreSQL store: skipped without a cluster.
needs_postgresql() {
	[ -n "${CLOCKBENCH_TEST_PG:-}" ] || skip "no PostgreSQL cluster (scripts/with-postgresql)"
}

# The tests that expect a healthy machine: its clocksource must be one the
# vDSO reads. kvm-clock is, only when the host marks the TSC stable (doctor
# calls it "conditional"); a tsc found unstable, hpet or acpi_pm are not,
# and there doctor rightly finds a problem instead.
needs_vdso_clocksource() {
	local facts
	facts=$("$CLOCKBENCH" doctor --no-save --format json --api clock_gettime \
		--clock monotonic --no-cost 2>/dev/null |
		jq -r '"\(.facts.clocksource) \(.facts.vdso_monotonic)"')
	[ "${facts#* }" = userspace ] ||
		skip "the clocksource ${facts%% *} is not read by the vDSO here (monotonic: ${facts#* }): doctor rightly reports it"
}

# lo <= x <= hi, for decimal figures: a measured figure is bounded by what
# is guaranteed, never matched digit for digit (a loaded machine moves it).
in_range() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x >= lo && x <= hi) }' ||
		{ echo "$1 is not within [$2, $3]"; return 1; }
}
