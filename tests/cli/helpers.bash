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

# An export file with one hotplug run as hotplug stores it (store.bats,
# escape.bats): hotplug_file FILE UUID LABEL SCALE, its times those of a
# run on a VM times SCALE (1: ms, 0.1: us).
hotplug_file() {
	jq -n --arg uuid "$2" --arg lab "$3" --argjson k "$4" '
	def cell($name; $x): { name: $name, status: "ok", unit: "s",
			       samples: ($x | map(. * $k)) };
	{
		clockbench_export: 1,
		runs: [{
			uuid: $uuid, command: "hotplug", label: $lab, host: "vm1",
			kernel: "6.18.44", started: "2026-12-01T10:00:00Z",
			elapsed_s: 0.2, status: "complete",
			environment: { kernel_release: "6.18.44", clocksource: "tsc" },
			config: { cpu: 1, cycles: 6, trace: true,
				  cpu_accounting: { mode: "tick", mode_inferred: false,
					mode_source: "/proc/config.gz", hz: 250,
					hz_inferred: false, hz_source: "CONFIG_HZ",
					sampled: true, estimate_below_s: 0.004 } },
			cells: [
				cell("offline"; [0.00243, 0.00167, 0.00464, 0.00210, 0.00290, 0.00280]),
				cell("offline-user"; [0, 0, 0.00007, 0, 0, 0]),
				cell("offline-sys"; [0.000092, 0.000043, 0.000106, 0.00009, 0.0001, 0.00008]),
				cell("online"; [0.0051, 0.00133, 0.00979, 0.0045, 0.0052, 0.0049]),
				cell("online-user"; [0, 0, 0, 0, 0, 0]),
				cell("online-sys"; [0.00056, 0.00038, 0.00137, 0.0006, 0.0005, 0.0007]),
				cell("state:sched:active:offline"; [0.0001, 0.0019, 0.0001, 0.0001, 0.0001, 0.0001]),
				cell("state:cpu:teardown:offline"; [0.00122, 0.00123, 0.00125, 0.00123, 0.00124, 0.00123]),
				cell("state:x86/cpuid:online:online"; [0.00014, 0.0035, 0.00013, 0.00014, 0.00014, 0.00013]),
				cell("state:cpu:bringup:online"; [0.0024, 0.0012, 0.0079, 0.0023, 0.0025, 0.0024])
			]
		}]
	}' >"$1"
}
