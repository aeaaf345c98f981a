#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The results store end to end: runs, show, rm, export and import on
# databases built by import (and by bench once it saves), and bad input:
# unknown runs, bad dates, missing or invalid files, databases that are not
# ours, which must be left byte for byte as they were. With
# CLOCKBENCH_TEST_STORE=pg every test runs again on PostgreSQL, $DB a
# database of its own (helpers.bash: store_db), but those of a file's bytes,
# directory or mode.

bats_require_minimum_version 1.5.0

U1=11111111-1111-4111-8111-111111111111
U2=22222222-2222-4222-8222-222222222222
U3=33333333-3333-4333-8333-333333333333

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	DB=$(store_db results)
	# Never the user's own database, nor its spool.
	export XDG_DATA_HOME="$T/xdg"
	export XDG_STATE_HOME="$T/state"
	unset CLOCKBENCH_DB
}

# One teardown for the file (a second definition would replace this one:
# the fake servers were left running after every run of the suite).
teardown() {
	[ -z "${FAKE_PID:-}" ] || kill "$FAKE_PID" 2>/dev/null || true
	if [ -n "${P:-}" ]; then
		chmod -R u+w "$P"
		rm -rf "$P"
	fi
}

# A misbehaving PostgreSQL server on 127.0.0.1 (tests/cli/fake-pg MODE):
# its port in FAKE_PORT (waited for 30 s at most: a python3 starting on a
# loaded machine), its process FAKE_PID (killed by teardown).
fake_pg() {
	rm -f "$T/port"
	"$BATS_TEST_DIRNAME/fake-pg" "$1" "$T/port" 3>&- &
	FAKE_PID=$!
	for _ in $(seq 600); do [ -s "$T/port" ] && break; sleep 0.05; done
	FAKE_PORT=$(cat "$T/port")
}

# An export file with one run: run_file FILE UUID LABEL STARTED [KERNEL] [HOST]
run_file() {
	jq -n --arg uuid "$2" --arg lab "$3" --arg started "$4" \
		--arg kernel "${5:-6.18.44}" --arg host "${6:-vm1}" '{
		clockbench_export: 1,
		runs: [{
			uuid: $uuid, command: "bench", "label": $lab, host: $host,
			kernel: $kernel, started: $started, elapsed_s: 1.5,
			status: "complete",
			environment: { kernel_release: $kernel, clocksource: "kvm-clock",
				       cpu_flags: { constant_tsc: true, rdtscp: false } },
			config: { method: { budget_s: 0.05 } },
			quality: { top_ghz: 4.4, rounds: [{ round: 0, core_ghz: 4.4 },
							  { round: 1, core_ghz: 3.1 }] },
			cells: [
				{ name: "clock-gettime-monotonic", path: "vdso",
				  api: "clock_gettime", clock: "monotonic", status: "ok",
				  unit: "ns", batch_calls: 800,
				  samples: [20, 21, 19, 22, 20.5],
				  samples_cycles: [50, 52, 49, 55, 51],
				  samples_round: [0, 0, 1, 1, 1],
				  samples_core_cycles: [88, 92.5, 86, 96, 90],
				  cycles_unit: "TSC ticks" },
				{ name: "clock-gettime-monotonic", path: "syscall",
				  api: "clock_gettime", clock: "monotonic", status: "ok",
				  unit: "ns", batch_calls: 64, samples: [300, 310.25, 305] },
				{ name: "times", path: "vdso", api: "times", status: "n/a",
				  reason: "the kernel vDSO has no times()", unit: "ns",
				  samples: [] }
			]
		}]
	}' >"$1"
}

# Three runs: 1 before (6.18, vm1), 2 after (6.19, vm1), 3 after (6.19, box).
populate() {
	run_file "$T/1.json" $U1 before 2026-11-28T23:59:59Z
	run_file "$T/2.json" $U2 after 2026-11-29T00:00:00Z 6.19.0-rc1
	run_file "$T/3.json" $U3 after 2026-11-30T08:00:00Z 6.19.0-rc1 box
	cb import --db "$DB" "$T/1.json" "$T/2.json" "$T/3.json" 2>/dev/null
}

count_runs() { cb runs --db "$1" --format json | jq length; }

# The database's user_version is the 4 big-endian bytes at offset 60.
set_user_version() {
	printf "\\x00\\x00\\x00\\x$(printf %02x "$2")" |
		dd of="$1" bs=1 seek=60 conv=notrunc status=none
}

@test "import stores a run and says so; importing it again is a no-op" {
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	run cb import --db "$DB" "$T/run.json"
	[ "$status" -eq 0 ]
	[ "$output" = "imported run $U1 from $T/run.json as run 1" ]
	run cb import --db "$DB" "$T/run.json"
	[ "$status" -eq 0 ]
	[ "$output" = "run $U1 from $T/run.json is already stored as run 1: nothing to do" ]
	[ "$(count_runs "$DB")" -eq 1 ]
}

@test "import reads standard input" {
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	run cb import --db "$DB" - <"$T/run.json"
	[ "$status" -eq 0 ]
	[[ "$output" == "imported run $U1 from - as run 1" ]]
}

@test "runs lists every run in an aligned table, oldest first" {
	populate
	run cb runs --db "$DB"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" =~ ^id\ +started\ \(UTC\)\ +command\ +label\ +host\ +kernel\ +status\ +cells$ ]]
	[[ "${lines[1]}" =~ ^\ 1\ +2026-11-28\ 23:59:59\ +bench\ +before\ +vm1\ +6\.18\.44\ +complete\ +2/3$ ]]
	[[ "${lines[3]}" =~ ^\ 3\ +2026-11-30\ 08:00:00\ +bench\ +after\ +box\ +6\.19\.0-rc1\ +complete\ +2/3$ ]]
	# Every column starts where its heading does.
	for col in command label host kernel status; do
		at=$(awk -v h="$col" 'NR == 1 { print index($0, h) }' <<<"$output")
		bad=$(awk -v at="$at" 'NR > 1 && substr($0, at - 2, 2) != "  " { print }' <<<"$output")
		[ -z "$bad" ]
	done
}

@test "runs filters by label, kernel, host, command and date" {
	populate
	n() { cb runs --db "$DB" --format json "$@" | jq length; }
	[ "$(n)" -eq 3 ]
	[ "$(n --label after)" -eq 2 ]
	[ "$(n --label after --host box)" -eq 1 ]
	[ "$(n --kernel 6.18.44)" -eq 1 ]
	[ "$(n --kernel '6.19*')" -eq 2 ]
	[ "$(n --command bench)" -eq 3 ]
	[ "$(n --command scale)" -eq 0 ]
	[ "$(n --since 2026-11-29)" -eq 2 ]
	[ "$(n --until 2026-11-29)" -eq 2 ]
	[ "$(n --since 2026-11-29 --until 2026-11-29)" -eq 1 ]
	[ "$(n --since '2026-11-30 08:00:01')" -eq 0 ]
	[ "$(n --until 2026-11-28T23:59:59Z)" -eq 1 ]
}

@test "runs --format json carries each run's fields" {
	populate
	run cb runs --db "$DB" --format json
	[ "$status" -eq 0 ]
	jq -e --arg u "$U2" '.[1] | .id == 2 and .uuid == $u and .label == "after"
		and .host == "vm1" and .kernel == "6.19.0-rc1" and .command == "bench"
		and .started == "2026-11-29T00:00:00Z" and .status == "complete"
		and .elapsed_s == 1.5 and .cells_total == 3 and .cells_ok == 2
		and (has("environment") | not)' <<<"$output"
}

@test "runs on an empty database prints nothing and says so on stderr" {
	echo '{"clockbench_export": 1, "runs": []}' >"$T/empty.json"
	run cb import --db "$DB" "$T/empty.json"
	[ "$status" -eq 0 ]
	[ "$output" = "$T/empty.json holds no runs" ]
	cb runs --db "$DB" >"$T/out" 2>"$T/err"
	[ ! -s "$T/out" ]
	[ "$(cat "$T/err")" = "no runs in $DB" ]
	[ "$(cb runs --db "$DB" --format json)" = "[]" ]
}

@test "show recomputes the statistics from the samples" {
	populate
	run cb show --db "$DB" 1 --format json
	[ "$status" -eq 0 ]
	jq -e --arg u "$U1" '(.runs | length == 1) and .runs[0].uuid == $u and .runs[0].label == "before"
		and .runs[0].environment.clocksource == "kvm-clock"
		and .runs[0].config.method.budget_s == 0.05' <<<"$output"
	jq -e '.runs[0].cells[0] | .n == 5 and .summary.n == 5 and .summary.median == 20.5
		and .summary.min == 19 and .summary.max == 22
		and .summary.median_ci95 == null and .summary.median_ci_coverage == 0.9375
		and .round_robust_cv_pct >= 0
		and .cycles.median == 51 and .cycles.unit == "TSC ticks" and .rounds == 2
		and (has("samples") | not) and (has("samples_round") | not)' <<<"$output"
	jq -e '.runs[0].cells[1].summary.median == 305 and .runs[0].cells[1].summary.mean == 305.0833333333333
		and (.runs[0].cells[1] | has("cycles") | not)' <<<"$output"
	jq -e '.runs[0].cells[2] | .status == "n/a" and .n == 0 and (has("summary") | not)' <<<"$output"
}

@test "show prints metadata, environment and a table" {
	populate
	run cb show --db "$DB" before
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "# run 1: bench, 2026-11-28 23:59:59 UTC, 1.5 s, complete" ]]
	[[ "$output" == *"# uuid: $U1"* ]]
	[[ "$output" == *"# label: before"* ]]
	[[ "$output" == *"#   clocksource: kvm-clock"* ]]
	[[ "$output" == *"#   cpu_flags: constant_tsc"* ]]
	[[ "$output" == *"#   method.budget_s: 0.05"* ]]
	# bench's table: ns/call, no unit column, no outliers (in the JSON).
	[[ "$output" =~ $'\n'name\ +path\ +ns/call\ +ci95-lo ]]
	[[ "$output" =~ clock-gettime-monotonic\ +vdso\ +20\.50\ .*\ 51\.0\ +90\.0\ +5$'\n' ]]
	[[ "$output" =~ clock-gettime-monotonic\ +syscall\ +305\.00\ .*\ -\ +-\ +3$'\n' ]]
	[[ "$output" =~ times\ +vdso\ +n/a:\ the\ kernel\ vDSO\ has\ no\ times\(\) ]]
}

# Issue 30: show printed every hotplug cell as 0.00 s through bench's table,
# with cycles and core columns that mean nothing there.
@test "show of a hotplug run: hotplug's tables in ms or us, no cycles columns" {
	hotplug_file "$T/hp.json" $U1 hp-ms 1
	hotplug_file "$T/hp-us.json" $U2 hp-us 0.1
	cb import --db "$DB" "$T/hp.json" "$T/hp-us.json" 2>/dev/null
	run cb show --db "$DB" hp-ms
	[ "$status" -eq 0 ]
	[[ "$output" =~ $'\n'transition\ \(ms\)\ +n\ +min\ +median\ +\[95%\ CI\]\ +mean\ +rCV\ +max\ +outl$'\n' ]]
	[[ "$output" =~ $'\n'offline\ +6\ +1\.670\ +2\.615\ +\[1\.670,\ 4\.640\]\ +2\.757\  ]]
	[[ "$output" =~ $'\n'online\ +6\ +1\.330\ +5\.000\ +\[1\.330,\ 9\.790\]\ +5\.137\  ]]
	[[ "$output" =~ $'\n'\ \ offline\ sys\ +6\ +0\.043\ +0\.091\  ]]
	[[ "$output" =~ $'\n'\ \ online\ user\ +6\ +0\.000\  ]]
	# The user/sys note of the run's machine, as hotplug marks its estimates.
	[[ "$output" == *"# user and sys come from tick sampling (CONFIG_TICK_CPU_ACCOUNTING, /proc/config.gz; HZ 250, CONFIG_HZ): below 4 ms of CPU time the split between them is an estimate"* ]]
	# The stored states, largest mean first, named as stored.
	[[ "$output" == *$'\n'"offline: time per hotplug state (self time per cycle, ms; the top 2, as the run stored them)"$'\n'* ]]
	[[ "$output" =~ $'\n'name\ +median\ +mean\ +share$'\n'cpu:teardown\ +1\.230\ +1\.233\ +44\.7%$'\n'sched:active\ +0\.100\ +0\.400\ +14\.5%$'\n' ]]
	[[ "$output" =~ $'\n'cpu:bringup\ +2\.400\ +3\.117\ +60\.7%$'\n'x86/cpuid:online\ +0\.140\ +0\.697\ +13\.6%$'\n' ]]
	[[ "$output" == *"these 2: 1.633 ms of 2.757 ms mean wall time (59%)"* ]]
	# Nothing of bench's table: no 0.00 s, no cycles or core columns.
	[[ "$output" != *cycles\ \ core* && "$output" != *" 0.00 "* && "$output" != *ns/call* ]]
	! grep -Eq '^(name|offline|online) .* s ' <<<"$output"

	run cb show --db "$DB" hp-us
	[ "$status" -eq 0 ]
	[[ "$output" =~ $'\n'transition\ \(us\)\ +n\  ]]
	[[ "$output" =~ $'\n'offline\ +6\ +167\.000\ +261\.500\  ]]
	[[ "$output" == *"(self time per cycle, us; the top 2, as the run stored them)"* ]]

	# The JSON is export's, in seconds; csv and tap stay bench's alone.
	run cb show --db "$DB" hp-ms --format json
	[ "$status" -eq 0 ]
	jq -e '.runs[0].cells[0] | .name == "offline" and .unit == "s" and .summary.median == 0.002615' <<<"$output"
	run cb show --db "$DB" hp-ms --format csv
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 1 is from hotplug (its formats: table, json)"* ]]
}

@test "show by label or uuid shows every run it names" {
	populate
	run cb show --db "$DB" after --format json
	[ "$status" -eq 0 ]
	jq -e '.runs | map(.id) == [2, 3]' <<<"$output"
	run cb show --db "$DB" $U3 1 --format json
	jq -e '.runs | map(.id) == [3, 1]' <<<"$output"
	run cb show --db "$DB" 1 --format json --samples
	jq -e '.runs[0].cells[0].samples == [20, 21, 19, 22, 20.5]
		and .runs[0].cells[0].samples_cycles == [50, 52, 49, 55, 51]
		and .runs[0].cells[0].samples_round == [0, 0, 1, 1, 1]' <<<"$output"
}

@test "export json imports into another database unchanged" {
	populate
	run cb export --db "$DB" --all
	[ "$status" -eq 0 ]
	jq -e '.clockbench_export == 1 and (.runs | length == 3)
		and (.tool | startswith("clockbench "))' <<<"$output"
	echo "$output" >"$T/all.json"
	run cb import --db "$T/other.db" "$T/all.json"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	cb export --db "$T/other.db" --all >"$T/again.json"
	diff <(jq -S '.runs | map(del(.id))' "$T/all.json") \
	     <(jq -S '.runs | map(del(.id))' "$T/again.json")
	# Samples are written with every digit they need to read back exactly.
	cb show --db "$DB" 1 --format json --samples | jq -e '.runs[0].cells[1].samples[1] == 310.25'
	# Core cycles and the run's quality travel with it.
	jq -e '.runs[0] | (.cells[0].samples_core_cycles | length == 5)
		and .cells[0].samples_core_cycles[1] == 92.5
		and (.cells[1] | has("samples_core_cycles") | not)
		and .quality.rounds[1].core_ghz == 3.1' "$T/again.json"
	cb show --db "$T/other.db" 1 --format json |
		jq -e '.runs[0].cells[0].core_cycles.median == 90
			and (.runs[0].cells[0] | has("samples_core_cycles") | not)'
}

@test "a run exported before core cycles existed imports without them" {
	run_file "$T/old.json" $U1 before 2026-11-30T13:50:02Z
	jq 'del(.runs[0].quality) | del(.runs[0].cells[0].samples_core_cycles)' \
		"$T/old.json" >"$T/older.json"
	run cb import --db "$DB" "$T/older.json"
	[ "$status" -eq 0 ]
	cb export --db "$DB" --all | jq -e '.runs[0].quality == null
		and (.runs[0].cells[0] | has("samples_core_cycles") | not)'
}

@test "export csv has one row per sample" {
	populate
	run cb export --db "$DB" before 3 --format csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "run_uuid,run_id,label,cell,path,unit,index,value,cycles,round,core_cycles" ]
	[ "${#lines[@]}" -eq 17 ]
	[ "${lines[1]}" = "$U1,1,before,clock-gettime-monotonic,vdso,ns,0,20,50,0,88" ]
	[ "${lines[5]}" = "$U1,1,before,clock-gettime-monotonic,vdso,ns,4,20.5,51,1,90" ]
	[ "${lines[7]}" = "$U1,1,before,clock-gettime-monotonic,syscall,ns,1,310.25,,," ]
	[ "${lines[9]%%,*}" = "$U3" ]
}

@test "rm removes runs; an unknown run removes nothing" {
	populate
	run cb rm --db "$DB" 2 nope
	[ "$status" -eq 1 ]
	[[ "$output" == *"no run or label 'nope'"* ]]
	[ "$(count_runs "$DB")" -eq 3 ]
	run cb rm --db "$DB" --dry-run after
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "would remove run 2 (bench, label after, 2026-11-29T00:00:00Z)" ]]
	[ "$(count_runs "$DB")" -eq 3 ]
	run cb rm --db "$DB" 1
	[ "$status" -eq 0 ]
	[ "$output" = "removed run 1 (bench, label before, 2026-11-28T23:59:59Z)" ]
	run cb rm --db "$DB" after
	[ "$status" -eq 0 ]
	[ "$(count_runs "$DB")" -eq 0 ]
	# Its samples went with it: exporting everything finds nothing.
	[ "$(cb export --db "$DB" --all | jq '.runs | length')" -eq 0 ]
	run cb show --db "$DB" 1
	[ "$status" -eq 1 ]
}

@test "an unknown run is an error naming it" {
	populate
	for cmd in show export rm; do
		run cb $cmd --db "$DB" 99
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench $cmd: error: no run or label '99' in $DB" ]
	done
}

@test "an error is never cut short: a long run or label is named whole, then the store" {
	populate
	long=$(printf 'n%.0s' $(seq 600))
	# compare's, plot's and report's went through 512 bytes (cut after the
	# spec); show's through PATH_MAX + 256.
	for cmd in "compare" "plot -o $T/x.svg" "report -o $T/x.html" "show"; do
		run cb $cmd --db "$DB" "$long" 1
		[ "$status" -eq 1 ]
		[[ "$output" == "clockbench ${cmd%% *}: error: no run or label '$long' in $DB (labels here: "* ]]
	done
}

@test "bad dates, formats and arguments are usage errors on one line" {
	populate
	for args in "runs --since 2026-13-01" "runs --until yesterday" \
		    "runs --since 2026-11-30T25:00" "runs --format tap" "runs extra" \
		    "show" "show 1 --format xml" "show 1 2 --format csv" "show 1 --samples" "rm" "export" \
		    "export --all 1" "export 1 --format xml" "import" "runs --bogus" \
		    "import --label 12 x.json"; do
		run cb $args --db "$DB"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "clockbench "*": error: "* ]]
	done
	run cb runs --db "$DB" --label
	[ "$status" -eq 2 ]
	[ "$output" = "clockbench runs: error: option '--label' needs a value" ]
	run cb runs --db "$DB" --since 2026-02-30
	[ "$output" = "clockbench runs: error: invalid --since '2026-02-30': expected a UTC date YYYY-MM-DD, optionally with THH:MM or THH:MM:SS" ]
}

@test "a missing database is an error and is not created" {
	for args in runs "show 1" "export 1" "rm 1"; do
		run cb $args --db "$T/none.db"
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench ${args%% *}: error: no results database at $T/none.db" ]
		[ ! -e "$T/none.db" ]
	done
	run cb runs
	[ "$status" -eq 1 ]
	[[ "$output" == *"no results database at $T/xdg/clockbench/results.db" ]]
	[ ! -e "$T/xdg" ]
}

@test "import names the problem in a bad file and imports nothing" {
	run cb import --db "$DB" "$T/missing.json"
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench import: error: cannot read $T/missing.json: No such file or directory" ]

	printf '{"clockbench_export": 1, "runs": [\n  {"uuid": }\n]}\n' >"$T/broken.json"
	run cb import --db "$DB" "$T/broken.json"
	[ "$status" -eq 1 ]
	[[ "$output" == "clockbench import: error: $T/broken.json:2:12: not valid JSON: "* ]]

	run_file "$T/good.json" $U1 before 2026-11-30T13:50:02Z
	jq '.runs[0].cells[0].samples[2] = "19"' "$T/good.json" >"$T/type.json"
	run cb import --db "$DB" "$T/good.json" "$T/type.json"
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench import: error: $T/type.json: runs[0].cells[0].samples[2]: expected a number, got a string" ]

	jq '.runs[0].status = "done"' "$T/good.json" >"$T/status.json"
	run cb import --db "$DB" "$T/status.json"
	[ "$output" = "clockbench import: error: $T/status.json: runs[0].status: 'done' is neither complete nor interrupted" ]

	jq 'del(.runs[0].environment)' "$T/good.json" >"$T/env.json"
	run cb import --db "$DB" "$T/env.json"
	[ "$output" = "clockbench import: error: $T/env.json: runs[0].environment: missing" ]

	jq '.clockbench_export = 2' "$T/good.json" >"$T/v2.json"
	run cb import --db "$DB" "$T/v2.json"
	[ "$output" = "clockbench import: error: $T/v2.json: clockbench_export: format 2 is newer than this clockbench reads (1)" ]

	echo '{"tool": "clockbench"}' >"$T/tool.json"
	run cb import --db "$DB" "$T/tool.json"
	[[ "$output" == *"clockbench_export: missing (not a file written by 'clockbench export')" ]]
	# Any other object is read as one run, and the error says so.
	echo '{"cells": []}' >"$T/bench.json"
	run cb import --db "$DB" "$T/bench.json"
	[ "$output" = "clockbench import: error: $T/bench.json: runs[0].uuid: missing (read as one run, as 'bench --format json --samples' writes it)" ]

	# The good file given with a bad one was not imported either.
	[ ! -e "$DB" ]
}

@test "import refuses values clockbench never writes, naming the field (issue 15: 2)" {
	run_file "$T/good.json" $U1 before 2026-11-30T13:50:02Z
	for round in 4294967295 2147483648 1000; do
		jq ".runs[0].cells[0].samples_round[4] = $round" "$T/good.json" >"$T/r.json"
		run cb import --db "$DB" "$T/r.json"
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench import: error: $T/r.json: runs[0].cells[0].samples_round[4]: round $round is out of range (clockbench numbers rounds 0 to 999)" ]
	done
	for field in host kernel command; do
		jq --arg f "$field" '.runs[0][$f] = "x\u001b]0;owned\u0007"' "$T/good.json" >"$T/c.json"
		run cb import --db "$DB" "$T/c.json"
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench import: error: $T/c.json: runs[0].$field: contains a control character (byte 1)" ]
	done
	for field in name reason unit; do
		jq --arg f "$field" '.runs[0].cells[2][$f] = "\rfake"' "$T/good.json" >"$T/c.json"
		run cb import --db "$DB" "$T/c.json"
		[ "$output" = "clockbench import: error: $T/c.json: runs[0].cells[2].$field: contains a control character (byte 0)" ]
	done
	[ ! -e "$DB" ]
}

@test "pull passes a foreign store's runs through import's gate, naming the field (issue 18: 9)" {
	# A store file anyone could have written: what no export file may hold.
	run_file "$T/1.json" $U1 one 2026-11-28T23:59:59Z
	run_file "$T/2.json" $U2 two 2026-11-29T00:00:00Z
	run_file "$T/3.json" $U3 three 2026-11-30T08:00:00Z
	run_file "$T/4.json" 44444444-4444-4444-8444-444444444444 good 2026-12-01T00:00:00Z
	run_file "$T/5.json" 55555555-5555-4555-8555-555555555555 five 2026-12-01T00:00:00Z
	run_file "$T/6.json" 66666666-6666-4666-8666-666666666666 six 2026-12-01T00:00:00Z
	cb import --db "$T/src.db" "$T"/[1-6].json 2>/dev/null
	sqlite3 "$T/src.db" "UPDATE runs SET label = '1' WHERE id = 1;
		UPDATE runs SET uuid = 'not-a-uuid' WHERE id = 2;
		UPDATE runs SET host = hex(zeroblob(50000)) WHERE id = 3;
		UPDATE runs SET kernel = 'x' || char(27) || ']0;owned' || char(7) WHERE id = 5;
		UPDATE runs SET env = (WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL
			SELECT i + 1 FROM s WHERE i < 1200) SELECT json_group_object('k' || i,
			hex(zeroblob(500))) FROM s) WHERE id = 6;"
	run --separate-stderr cb pull --from "$T/src.db" --db "$DB"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "clockbench pull: error: $T/src.db: run 1: label: '1': a label cannot be a number: that reads as a run id; not pulled" ]
	[ "${stderr_lines[1]}" = "clockbench pull: error: $T/src.db: run 2: uuid: 'not-a-uuid' is not a uuid; not pulled" ]
	[ "${stderr_lines[2]}" = "clockbench pull: error: $T/src.db: run 3: host: 100000 bytes, more than clockbench writes (255); not pulled" ]
	[ "${stderr_lines[3]}" = "clockbench pull: error: $T/src.db: run 5: kernel: contains a control character (byte 1); not pulled" ]
	[ "${stderr_lines[4]}" = "clockbench pull: error: $T/src.db: run 6: its environment, configuration or quality is larger than clockbench writes (1048576 bytes); not pulled" ]
	[ "${stderr_lines[6]}" = "clockbench pull: error: 5 runs refused" ]
	[ "$output" = "pulled run 4 (44444444-4444-4444-8444-444444444444) as run 1" ]
	# Only the good run came, and the store exports into one that imports.
	[ "$(count_runs "$DB")" -eq 1 ]
	cb export --db "$DB" --all >"$T/all.json"
	run cb import --db "$T/again.db" "$T/all.json"
	[ "$status" -eq 0 ]
}

@test "a store file read as it is: an environment over 1 MiB is not even parsed, the run named (issue 18: 9)" {
	sqlite_only
	run_file "$T/1.json" $U1 one 2026-11-28T23:59:59Z
	run_file "$T/2.json" $U2 two 2026-11-29T00:00:00Z
	cb import --db "$DB" "$T"/[1-2].json 2>/dev/null
	sqlite3 "$DB" "UPDATE runs SET env = (WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL
		SELECT i + 1 FROM s WHERE i < 1200) SELECT json_group_object('k' || i,
		hex(zeroblob(500))) FROM s) WHERE id = 1;"
	run --separate-stderr cb runs --db "$DB" --format json
	[ "$status" -eq 0 ]
	[ "$(jq -r 'map(.label) | join(",")' <<<"$output")" = two ]
	[ "$stderr" = "clockbench runs: warning: $DB: run 1: its environment, configuration or quality is larger than clockbench writes (1048576 bytes); not listed" ]
	# Such a run can still be removed.
	run cb rm --db "$DB" 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed run 1 (damaged)"* ]]
}

@test "import refuses an environment over 1 MiB, naming it (issue 18: 9)" {
	run_file "$T/good.json" $U1 before 2026-11-30T13:50:02Z
	jq '.runs[0].environment.big = ([range(1200)] | map({key: "k\(.)",
		value: ("x" * 1000)}) | from_entries)' "$T/good.json" >"$T/big.json"
	run cb import --db "$DB" "$T/big.json"
	[ "$status" -eq 1 ]
	[[ "$output" == "clockbench import: error: $T/big.json:"*"runs[0].environment: larger than a run's environment, config or quality clockbench writes (over 524288 values or 1048576 bytes)" ]]
	[ "$(cb runs --db "$DB" --format json 2>/dev/null | jq length)" != 1 ]
	# Just under the limit, a big environment still imports.
	jq '.runs[0].environment.big = ([range(900)] | map({key: "k\(.)",
		value: ("x" * 1000)}) | from_entries)' "$T/good.json" >"$T/ok.json"
	run cb import --db "$DB" "$T/ok.json"
	[ "$status" -eq 0 ]
}

@test "a password never shows, however the server is spelt (issue 18: 10)" {
	"$CLOCKBENCH" runs --db postgresql://x@127.0.0.1:1/db 2>&1 |
		grep -q "without PostgreSQL" && skip "built without libpq"
	# Port 1 of the loopback refuses at once: each fails connecting, named.
	local -A shown=(
		['postgresql://u@127.0.0.1:1/db?%70assword=XSECRET']='postgresql://u@127.0.0.1:1/db?%70assword=***'
		['POSTGRESQL://u:XSECRET@127.0.0.1:1/db']='postgresql://u@127.0.0.1:1/db'
		['postgres://u@127.0.0.1:1/db?sslpassword=XSECRET']='postgres://u@127.0.0.1:1/db?sslpassword=***'
		['host=127.0.0.1 port=1 password=XSECRET dbname=db']='password=*** dbname=db host=127.0.0.1 port=1'
		["host=127.0.0.1 port=1 password='XSE CRET' dbname=db"]='password=*** dbname=db host=127.0.0.1 port=1'
	)
	for db in "${!shown[@]}"; do
		run cb runs --db "$db"
		[ "$status" -eq 1 ]
		[[ "$output" == "clockbench runs: error: ${shown[$db]}: cannot connect: "* ]] ||
			{ echo "$db: $output"; false; }
		[[ "$output" != *XSE* ]]
	done
	# A raw '%' in the password: libpq's complaint would quote it.
	run cb runs --db 'postgresql://u:XSE%zzCRET@127.0.0.1:1/db'
	[ "$status" -eq 2 ]
	[[ "$output" != *XSE* ]]
	# A saving command takes a connection string for a server, not a file.
	cd "$T"
	run cb exec -n 2 --db 'host=127.0.0.1 port=1 password=XSECRET' -- true
	[ "$status" -eq 1 ]
	[[ "$output" != *XSE* ]]
	[ -z "$(ls "$T")" ]
}

@test "a server that goes silent cannot hang a command: timeouts, named without the password (issue 18: 7)" {
	"$CLOCKBENCH" runs --db postgresql://x@127.0.0.1:1/db 2>&1 |
		grep -q "without PostgreSQL" && skip "built without libpq"
	export CLOCKBENCH_PG_TIMEOUT=1 CLOCKBENCH_PG_CONNECT_TIMEOUT=1
	# Accepts and never answers; answers the handshake only; announces a
	# 1.9 GB message and sends nothing more. Each fails after about 2 s
	# (libpq's least connect timeout, or the statement's 1 s + 1 s): the
	# 30 s of timeout(1) only stop the command that would hang.
	for mode in silent handshake huge; do
		fake_pg $mode
		run timeout 30 "$CLOCKBENCH" runs --db "postgresql://u:XSECRET@127.0.0.1:$FAKE_PORT/db"
		kill "$FAKE_PID"
		[ "$status" -eq 1 ] || { echo "$mode: status $status: $output"; false; }
		[ "${#lines[@]}" -eq 1 ]
		if [ $mode = silent ]; then
			[[ "$output" == "clockbench runs: error: postgresql://u@127.0.0.1:$FAKE_PORT/db: cannot connect: "*"timeout expired" ]]
		else
			[ "$output" = "clockbench runs: error: postgresql://u@127.0.0.1:$FAKE_PORT/db: setting up the connection: no complete answer from the server within 2 s (CLOCKBENCH_PG_TIMEOUT, CLOCKBENCH_PG_CONNECT_TIMEOUT)" ]
		fi
	done
	# A saving command: refused before measuring, as any store that fails.
	fake_pg handshake
	run timeout 30 "$CLOCKBENCH" exec -n 2 --db "postgresql://u@127.0.0.1:$FAKE_PORT/db" -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"no complete answer from the server within 2 s"* ]]
}

@test "a run bench saved exports and imports into another store unchanged" {
	cb bench --quick --api time --path vdso --db "$DB" --label rt >/dev/null 2>&1
	cb export --db "$DB" rt >"$T/rt.json"
	run cb import --db "$T/other.db" "$T/rt.json"
	[ "$status" -eq 0 ]
	diff <(jq -S '.runs | map(del(.id))' "$T/rt.json") \
	     <(cb export --db "$T/other.db" --all | jq -S '.runs | map(del(.id))')
}

# One number from a query on a database: sql_value DB QUERY
sql_value() {
	case "$1" in
	postgres*) psql "$1" -qXtA -c "$2" ;;
	*) python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@" ;;
	esac
}

@test "bench's samples are stored compactly and come back bit for bit (issue 15: 9)" {
	cb bench --quick --api clock_gettime,time --db "$DB" >/dev/null 2>&1
	# Core cycles are kept as the reference's readings (or as themselves).
	values=$(sql_value "$DB" "SELECT sum(n * (
		CASE WHEN samples IS NULL THEN 0 ELSE 1 END +
		CASE WHEN cycles IS NULL THEN 0 ELSE 1 END +
		CASE WHEN core_cycles IS NULL AND reference IS NULL THEN 0 ELSE 1 END))
		FROM cells")
	bytes=$(sql_value "$DB" "SELECT sum(coalesce(length(samples), 0) +
		coalesce(length(cycles), 0) + coalesce(length(core_cycles), 0) +
		coalesce(length(reference), 0)) FROM cells")
	echo "$values values in $bytes bytes"
	measured=$(sql_value "$DB" "SELECT count(*) FROM cells WHERE status = 'ok'")
	# --quick takes at least 30 samples a cell (how many more depends on
	# the machine's load: 9537 values in all seen at load 30), each kept
	# three ways.
	[ "$measured" -gt 10 ]
	[ "$values" -ge $(( measured * 3 * 30 )) ]
	# 8 bytes a value as raw doubles. How few a real run takes follows the
	# machine's noise (the spread of each cell's ticks): 1.6-1.9 here under
	# load and ASan, with 2 a hair away; half of raw is what is sure. The
	# codec's size on known ticks is test-codec's and test-core-replay's.
	[ "$bytes" -lt $(( values * 4 )) ]
	[ "$(sql_value "$DB" "SELECT count(*) FROM cells WHERE encoding != 1")" -eq 0 ]
	replayed=$(sql_value "$DB" "SELECT count(*) FROM cells WHERE reference IS NOT NULL")
	echo "$replayed of $measured cells kept as readings"
	[ "$replayed" -eq "$measured" ]
	# Through JSON (every double at 17 digits) to a second store and back,
	# where the core cycles are kept as readings again.
	cb export --db "$DB" --all >"$T/a.json"
	cb import --db "$T/b.db" "$T/a.json" 2>/dev/null
	cmp "$T/a.json" <(cb export --db "$T/b.db" --all)
	[ "$(sql_value "$T/b.db" "SELECT count(*) FROM cells WHERE reference IS NOT NULL")" \
		-eq "$measured" ]
}

@test "import takes a cell's readings only when they give its core cycles back" {
	cb bench --quick --api time --path vdso --db "$DB" >/dev/null 2>&1
	cb export --db "$DB" --all >"$T/a.json"
	# One core figure changed: the readings no longer explain them.
	jq '.runs[0].cells[0].samples_core_cycles[3] += 1' "$T/a.json" >"$T/b.json"
	cb import --db "$T/b.db" "$T/b.json" 2>/dev/null
	[ "$(sql_value "$T/b.db" "SELECT count(*) FROM cells WHERE reference IS NULL
		AND core_cycles IS NOT NULL")" -eq 1 ]
	# The file's core cycles are kept, its readings (which do not give
	# them) are not.
	diff <(jq -S 'del(.runs[].cells[].reference)' "$T/b.json") \
	     <(cb export --db "$T/b.db" --all | jq -S .)
	# Readings that are not a reference's: named, nothing imported.
	jq '.runs[0].uuid = "44444444-4444-4444-8444-444444444444" |
		.runs[0].cells[0].reference.readings |= .[1:]' "$T/a.json" >"$T/c.json"
	run --separate-stderr cb import --db "$T/b.db" "$T/c.json"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"cells[0].reference.readings: "*" values for "*" samples"* ]]
	jq '.runs[0].cells[0].reference.base = "ticks"' "$T/a.json" >"$T/c.json"
	run --separate-stderr cb import --db "$T/b.db" "$T/c.json"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"cells[0].reference.base: expected \"cycles\" or \"values\""* ]]
	jq '.runs[0].cells[0].reference |= del(.reading_core_cycles)' "$T/a.json" >"$T/c.json"
	run --separate-stderr cb import --db "$T/b.db" "$T/c.json"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"cells[0].reference.reading_core_cycles: expected a finite number, got nothing"* ]]
	[ "$(sql_value "$T/b.db" "SELECT count(*) FROM runs")" -eq 1 ]
}

@test "compare reads the cells' digests, not their samples (issue 15: 9)" {
	cb bench --quick --api clock_gettime --path vdso --db "$DB" >/dev/null 2>&1
	cb bench --quick --api clock_gettime --path vdso --db "$DB" >/dev/null 2>&1
	cb compare --db "$DB" 1 2 --format json >"$T/before.json"
	# Samples damaged wherever there is a digest: compare does not notice.
	sql "$DB" "UPDATE cells SET samples = x'01', cycles = x'01', core_cycles = x'01'
		   WHERE digest IS NOT NULL"
	cb compare --db "$DB" 1 2 --format json >"$T/after.json"
	cmp "$T/before.json" "$T/after.json"
	run cb show --db "$DB" 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"run 1: the samples of cell clock-gettime-"*" do not match their count (the database is damaged)"* ]]
}

# An export of RUNS runs of CELLS cells of N samples: big_export FILE RUNS CELLS N
big_export() {
	python3 - "$@" <<'PY'
import json, sys
path, runs, cells, n = sys.argv[1], *map(int, sys.argv[2:])
samples = ",".join("%.17g" % (20 + i % 97 / 7) for i in range(n))
rounds = ",".join(str(i * 10 // n) for i in range(n))
cell = ('{"name":"c%d","path":"vdso","api":"time","clock":"","status":"ok",'
        '"reason":"","unit":"ns","batch_calls":800,"samples":[' + samples +
        '],"samples_cycles":[' + samples + '],"cycles_unit":"TSC ticks",'
        '"samples_round":[' + rounds + ']}')
with open(path, "w") as f:
    f.write('{"clockbench_export":1,"runs":[')
    for r in range(runs):
        head = {"uuid": "00000000-0000-4000-8000-%012d" % (r + 1),
                "command": "bench", "label": "big", "host": "vm1",
                "kernel": "6.18.44", "started": "2026-11-30T13:50:02Z",
                "elapsed_s": 20.5, "status": "complete", "environment": {},
                "config": None}
        f.write(("," if r else "") + json.dumps(head)[:-1] + ',"cells":[' +
                ",".join(cell % c for c in range(cells)) + "]}")
    f.write("]}\n")
PY
}

# The peak resident memory of a command, in MB.
peak_mb() {
	python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
sys.exit(rc)' "$@"
}

@test "import streams a large file in a fraction of its size (issue 15: 9)" {
	ldd "$CLOCKBENCH" | grep -q libasan && skip "the sanitizers' own memory"
	# 8 runs of 600,000 samples: held whole, 3.9 times the file (660 MB);
	# streamed, one run's samples and one cell's JSON (about 35 MB).
	big_export "$T/big.json" 8 6 100000
	size=$(( $(stat -c %s "$T/big.json") / 1048576 ))
	[ "$size" -ge 160 ]
	mb=$(peak_mb "$CLOCKBENCH" import --db "$DB" "$T/big.json")
	echo "import of $size MB: peak $mb MB"
	[ "$mb" -lt $(( size / 3 )) ]
	[ "$(count_runs "$DB")" -eq 8 ]
	[ "$(cb show --db "$DB" 8 --format json | jq '.runs[0].cells[5] | .n, .rounds')" = "100000
10" ]
}

@test "import reads standard input from a pipe" {
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	run bash -c "cat '$T/run.json' | '$CLOCKBENCH' import --db '$DB' -"
	[ "$status" -eq 0 ]
	[ "$output" = "imported run $U1 from - as run 1" ]
	jq '.runs[0].cells[1].samples[1] = true' "$T/run.json" >"$T/bad.json"
	run bash -c "cat '$T/bad.json' | '$CLOCKBENCH' import --db '$T/other.db' -"
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench import: error: -: runs[0].cells[1].samples[1]: expected a number, got a boolean" ]
	[ ! -e "$T/other.db" ]
}

@test "a newer schema, a non-SQLite file and a corrupt file are refused untouched" {
	sqlite_only
	populate
	cp "$DB" "$T/newer.db"
	set_user_version "$T/newer.db" 99
	printf 'name,path,ns\nclock-gettime,vdso,20\n' >"$T/text.db"
	cp "$DB" "$T/corrupt.db"
	dd if=/dev/zero of="$T/corrupt.db" bs=512 seek=8 count=1 conv=notrunc status=none
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z

	for f in newer text corrupt; do
		cp "$T/$f.db" "$T/$f.orig"
		for args in runs "show 1" "export 1" "rm 1" "import $T/run.json"; do
			run cb $args --db "$T/$f.db"
			[ "$status" -eq 1 ]
			case $f in
			newer)	[[ "$output" == *"$T/newer.db: database schema version 99 is newer than this clockbench supports (5); use a newer clockbench" ]] ;;
			text)	[[ "$output" == *"$T/text.db: not an SQLite database (file is not a database)" ]] ;;
			corrupt) [[ "$output" == *"$T/corrupt.db: the database is corrupt"* ]] ;;
			esac
			cmp "$T/$f.db" "$T/$f.orig"
		done
		[ ! -e "$T/$f.db-wal" ] && [ ! -e "$T/$f.db-journal" ]
	done
}

@test "--db into a missing directory creates nothing" {
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	run cb import --db "$T/no/such/dir/r.db" "$T/run.json"
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench import: error: cannot create $T/no/such/dir/r.db: directory $T/no/such/dir does not exist" ]
	[ ! -e "$T/no" ]
	CLOCKBENCH_DB="$T/no/r.db" run cb import "$T/run.json"
	[ "$status" -eq 1 ]
	[ ! -e "$T/no" ]
}

@test "the default database is under XDG_DATA_HOME unless CLOCKBENCH_DB is set" {
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	run cb import "$T/run.json"
	[ "$status" -eq 0 ]
	[ -f "$T/xdg/clockbench/results.db" ]
	[ "$(stat -c %a "$T/xdg/clockbench")" = 700 ]
	[ "$(cb runs --format json | jq length)" -eq 1 ]

	CLOCKBENCH_DB="$T/env.db" run cb import "$T/run.json"
	[ "$status" -eq 0 ]
	[ -f "$T/env.db" ]
	[ "$(CLOCKBENCH_DB="$T/env.db" cb runs --format json | jq length)" -eq 1 ]

	unset XDG_DATA_HOME
	HOME="$T/home" run cb import "$T/run.json"
	[ "$status" -eq 0 ]
	[ -f "$T/home/.local/share/clockbench/results.db" ]
}

@test "help COMMAND prints each store command's --help" {
	for cmd in runs show rm export import; do
		run cb help "$cmd"
		[ "$status" -eq 0 ]
		help_text="$output"
		run cb "$cmd" --help
		[ "$status" -eq 0 ]
		[ "$output" = "$help_text" ]
		[[ "$output" == "usage: clockbench $cmd"* ]]
		[[ "$output" == *"--db PATH"* ]]
	done
}

@test "a database this user cannot read is a clear error" {
	sqlite_only
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	populate
	chmod 700 "$T"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$CLOCKBENCH" runs --db "$DB"
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench runs: error: cannot access $DB: Permission denied" ]
}

@test "read commands never create or migrate a store (issue 15: 6)" {
	sqlite_only
	: >"$T/empty.db"
	for args in runs "show 1" "export 1" "compare 1 2" "rm --dry-run 1"; do
		run cb $args --db "$T/empty.db"
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench ${args%% *}: error: no results database at $T/empty.db (the file is empty)" ]
		[ ! -s "$T/empty.db" ]
		[ ! -e "$T/empty.db-wal" ] && [ ! -e "$T/empty.db-journal" ]
	done
	# An SQLite file without the schema is read, not given one.
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA page_size = 4096"); c.execute("VACUUM")' "$T/v0.db"
	cp "$T/v0.db" "$T/v0.orig"
	for args in runs "show 1" "export --all" "compare 1 2"; do
		run cb $args --db "$T/v0.db"
		[ "$status" -eq 1 ]
		[ "$output" = "clockbench ${args%% *}: error: no results database at $T/v0.db (an SQLite file without clockbench's tables)" ]
		cmp "$T/v0.db" "$T/v0.orig"
	done
}

# As an unprivileged user: as_nobody COMMAND...
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# A directory nobody can reach ($BATS_TEST_TMPDIR's parent is private): $P
# (removed by teardown).
need_nobody() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	P=$(mktemp -d "${TMPDIR:-/tmp}/clockbench-store.XXXXXX")
	chmod 755 "$P"
}

@test "a store on read-only storage, or someone else's 0444 file, is readable (issue 15: 5)" {
	sqlite_only
	need_nobody
	populate
	mkdir "$P/ro" "$P/shared"
	cp "$DB" "$P/ro/r.db"
	cp "$DB" "$P/shared/r.db"
	chmod 444 "$P/ro/r.db" "$P/shared/r.db"
	chmod 555 "$P/ro"		# nobody can create r.db-shm here
	chmod 1777 "$P/shared"		# here nobody can, beside root's file
	for db in "$P/ro/r.db" "$P/shared/r.db"; do
		run as_nobody "$CLOCKBENCH" runs --db "$db"
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 4 ]
		run as_nobody "$CLOCKBENCH" show --db "$db" before --format json
		[ "$status" -eq 0 ]
		jq -e '.runs[0].cells[0].summary.median == 20.5' <<<"$output"
		run as_nobody "$CLOCKBENCH" export --db "$db" --all
		[ "$status" -eq 0 ]
		jq -e '.runs | length == 3' <<<"$output"
		run as_nobody "$CLOCKBENCH" compare --db "$db" before after
		[ "$status" -eq 0 ]
		cmp "$db" "$DB"
	done
	# Writing to it says why it cannot.
	run as_nobody "$CLOCKBENCH" rm --db "$P/shared/r.db" 1
	[ "$status" -eq 1 ]
	[ "$output" = "clockbench rm: error: $P/shared/r.db: cannot write to it: Permission denied" ]
}

@test "a read-only store whose log cannot be read is read, with a warning" {
	sqlite_only
	need_nobody
	populate
	mkdir "$P/ro"
	cp "$DB" "$P/ro/r.db"
	# A run committed to the log only: its writer died before a checkpoint.
	python3 - "$P/ro/r.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE runs SET label = 'late' WHERE id = 3")
os._exit(0)
PY
	[ -s "$P/ro/r.db-wal" ]
	rm "$P/ro/r.db-shm"
	chmod 555 "$P/ro"
	as_nobody "$CLOCKBENCH" runs --db "$P/ro/r.db" --label after --format json \
		>"$T/out" 2>"$T/err"
	[ "$(jq length "$T/out")" -eq 2 ]
	[ "$(cat "$T/err")" = "clockbench runs: warning: $P/ro/r.db: read without $P/ro/r.db-wal, which cannot be opened here: the latest runs may be missing" ]
	# Where it can be, the log is read.
	chmod 755 "$P/ro"
	[ "$(cb runs --db "$P/ro/r.db" --label late --format json | jq length)" -eq 1 ]
}

# Raw SQL on a database, bypassing clockbench: sql DB STATEMENT (SQLite's
# blob literals x'..' become PostgreSQL's '\x..'::bytea on a server).
sql() {
	case "$1" in
	postgres*) psql "$1" -qX -v ON_ERROR_STOP=1 -c \
		"$(sed "s/x'\([0-9a-fA-F]*\)'/'\\\\x\1'::bytea/g" <<<"$2")" >/dev/null ;;
	*) python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.executescript(sys.argv[2])' "$@" ;;
	esac
}

@test "runs skips a damaged run with a warning naming it (issue 15: 7)" {
	sqlite_only
	populate
	sql "$DB" "UPDATE runs SET env = '{\"clocksource\": tsc' WHERE id = 2"
	cb runs --db "$DB" >"$T/out" 2>"$T/err"
	[ "$(wc -l <"$T/out")" -eq 3 ]
	[[ "$(sed -n 2p "$T/out")" == " 1 "* ]]
	[[ "$(sed -n 3p "$T/out")" == " 3 "* ]]
	[ "$(cat "$T/err")" = "clockbench runs: warning: $DB: run 2: its environment, configuration or quality is not valid JSON (the database is damaged); not listed" ]
	[ "$(cb runs --db "$DB" --format json 2>/dev/null | jq -c 'map(.id)')" = "[1,3]" ]
	# Asked for by name, it is an error.
	run cb show --db "$DB" 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"run 2: its environment, configuration or quality is not valid JSON"* ]]
}

@test "a full disk is 'no space left on device', and reading still works (issue 15: 7)" {
	sqlite_only
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	command -v unshare >/dev/null || skip "unshare not installed"
	populate
	run_file "$T/run.json" $U1 before 2026-11-30T13:50:02Z
	mkdir "$T/full"
	# A private mount namespace: the tmpfs goes away with the shell.
	unshare -m sh -ec '
		mount -t tmpfs -o size=256k tmpfs "$1/full"
		cp "$1/results.db" "$1/full/r.db"
		dd if=/dev/zero of="$1/full/fill" bs=4k 2>/dev/null || true
		"$2" runs --db "$1/full/r.db" >"$1/runs.out" 2>&1 || echo "status $?" >>"$1/runs.out"
		"$2" rm --db "$1/full/r.db" 1 >"$1/rm.out" 2>&1 || echo "status $?" >>"$1/rm.out"
	' sh "$T" "$CLOCKBENCH"
	[ "$(wc -l <"$T/runs.out")" -eq 4 ]
	[ "$(head -1 "$T/rm.out")" = "clockbench rm: error: $T/full/r.db: reading the database: no space left on device" ]
	[ "$(tail -1 "$T/rm.out")" = "status 1" ]
}

# ---- with bench saving its runs ------------------------------------------


@test "bench saves its run with its label, samples and environment" {
	# --budget 1s: at least 30 samples, which --quick's 8 ms a round do
	# not promise when a wait for the CPU cuts a round short.
	run cb bench --quick --budget 1s --api time --db "$DB" --label host --format json
	[ "$status" -eq 0 ]
	[[ "$output" == *"saved run 1 to $DB"* ]]
	run cb show --db "$DB" host --format json --samples
	[ "$status" -eq 0 ]
	jq -e --arg k "$(uname -r)" '.runs[0] | .command == "bench" and .label == "host"
		and .kernel == $k and .status == "complete" and (.cells | length == 3)
		and .environment.kernel_release == $k' <<<"$output"
	jq -e '.runs[0].cells[] | select(.path == "vdso") | .status == "ok"
		and .unit == "ns" and (.samples | length) == .n and .n >= 30
		and (.samples_round | length) == .n and .rounds >= 1
		and (.samples_core_cycles | length) == .n and .core_cycles.median > 0
		and .summary.median > 0' <<<"$output"
	cb show --db "$DB" host | grep -qE '^# quality: .*rounds? ran'
	jq -e '.runs[0].quality | (.rounds | length == 5) and (.summary | length > 0)
		and (.rounds | all(.core_ghz > 0 and .involuntary_switches >= 0))
		and .warmup.windows >= 1 and (.system.warnings | type == "array")' <<<"$output"
	run cb bench --quick --api time --db "$T/nosave.db" --no-save
	[ "$status" -eq 0 ]
	[ ! -e "$T/nosave.db" ]
}

# Hold DB's write lock (BEGIN EXCLUSIVE) in another process until
# release_lock; returns once the lock is held.
hold_lock() {
	mkfifo "$T/hold" "$T/held"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
c.execute("ROLLBACK")' "$1" <"$T/hold" >"$T/held" &
	LOCKER=$!
	exec {HOLD}>"$T/hold"
	read -r _ <"$T/held"
}

release_lock() {
	exec {HOLD}>&-
	wait "$LOCKER"
}

@test "a run the locked store cannot take is spooled, and the next save imports it (issue 15: 4)" {
	sqlite_only
	populate
	hold_lock "$DB"
	CLOCKBENCH_BUSY_TIMEOUT=200ms run --separate-stderr cb bench --quick --api time \
		--path vdso --db "$DB" --label spooled
	release_lock
	[ "$status" -eq 1 ]
	[[ "$output" =~ time\ +vdso ]]		# the results were printed
	spooled=$(echo "$DB-spool"/*.json)
	[ -f "$spooled" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ "${stderr_lines[0]}" = "clockbench bench: warning: $DB: another process holds it locked: measuring anyway; the run is spooled if it stays locked" ]
	[ "${stderr_lines[1]}" = "clockbench bench: error: run not saved: $DB: starting to save: another process holds it locked (waited 0.2 s); it is kept in $spooled: 'clockbench import --db $DB $spooled' adds it, as will the next command that saves to $DB" ]
	uuid=$(jq -r '.runs[0].uuid' "$spooled")
	jq -e '.runs[0].label == "spooled" and (.runs[0].cells | length == 1)
		and (.runs[0].cells[0].samples | length > 0)' "$spooled"
	[ "$(count_runs "$DB")" -eq 3 ]

	# The next command that saves to the store brings it in, and says so.
	run_file "$T/4.json" 44444444-4444-4444-8444-444444444444 four 2026-12-01T00:00:00Z
	run cb import --db "$DB" "$T/4.json"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "imported run $uuid spooled in $spooled as run 5" ]
	[ ! -e "$DB-spool" ]
	run cb show --db "$DB" spooled --format json
	jq -e '.runs[0].command == "bench" and .runs[0].status == "complete"
		and .runs[0].cells[0].n > 0' <<<"$output"
}

@test "a spool directory that is not this user's alone is never imported from (issue 18: 8)" {
	sqlite_only
	populate
	# Planted beside a store in a shared directory: world-writable (as root:
	# someone else's too), holding a valid run.
	mkdir -m 0777 "$DB-spool"
	[ "$(id -u)" -ne 0 ] || chown nobody "$DB-spool"
	run_file "$DB-spool/$U1.json" 44444444-4444-4444-8444-444444444444 planted 2026-12-01T00:00:00Z
	run_file "$T/5.json" 55555555-5555-4555-8555-555555555555 five 2026-12-01T00:00:00Z
	run --separate-stderr cb import --db "$DB" "$T/5.json"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: runs spooled in $DB-spool not imported: $DB-spool is not this user's own directory (owner uid "*", mode 0777; clockbench makes it 0700)"* ]]
	run cb runs --db "$DB" --label planted
	[[ "$output" != *planted* ]]
	[ "$(count_runs "$DB")" -eq 4 ]
	# A symlink in its place is not followed either.
	rm -rf "$DB-spool"
	mkdir -m 0700 "$T/elsewhere"
	run_file "$T/elsewhere/$U1.json" 44444444-4444-4444-8444-444444444444 planted 2026-12-01T00:00:00Z
	ln -s "$T/elsewhere" "$DB-spool"
	run --separate-stderr cb import --db "$DB" "$T/5.json"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: runs spooled in $DB-spool not imported: $DB-spool is not a directory (a symlink?)"* ]]
	[ "$(count_runs "$DB")" -eq 4 ]
}

@test "a --db that is a symbolic link is followed only to a store that is there (issue 27: 8)" {
	sqlite_only
	cd "$T"
	ln -s created.db link.db
	run --separate-stderr cb bench --quick --api time --db link.db
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"link.db is a symbolic link to a file that does not exist: a store is read through a link only when one is there (give the path itself); nothing measured"* ]]
	[ ! -e created.db ] && [ ! -e link.db-spool ]
	: >empty.db
	ln -s empty.db link2.db
	run --separate-stderr cb bench --quick --api time --db link2.db
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"link2.db is a symbolic link to an empty file"* ]]
	[ ! -s empty.db ]
	# To a store: read and written through, as before.
	run -0 cb bench --quick --api time --db real.db
	ln -s real.db link3.db
	run -0 cb bench --quick --api time --db link3.db
	[ "$(cb runs --db link3.db --format json | jq length)" -eq 2 ]
}

@test "a FIFO, a symlink or a bad run in the spool is moved aside, never read or imported (issue 18: 8)" {
	sqlite_only
	populate
	mkdir -m 0700 "$DB-spool"
	S="$DB-spool"
	mkfifo "$S/fifo.json"
	ln -s /dev/zero "$S/zero.json"
	printf 'root:XSECRETTOKEN:19000:0:99999:7:::\n' >"$T/shadow"
	ln -s "$T/shadow" "$S/shadow.json"
	run_file "$S/label.json" 44444444-4444-4444-8444-444444444444 x 2026-12-01T00:00:00Z
	jq '.runs[0].label = "1"' "$S/label.json" >"$S/label.json.new"
	mv "$S/label.json.new" "$S/label.json"
	run_file "$S/good.json" 55555555-5555-4555-8555-555555555555 good 2026-12-01T00:00:00Z
	run_file "$T/6.json" 66666666-6666-4666-8666-666666666666 six 2026-12-01T00:00:00Z
	# timeout(1) only stops a save that would hang on the FIFO.
	run --separate-stderr timeout 20 "$CLOCKBENCH" import --db "$DB" "$T/6.json"
	[ "$status" -eq 0 ] || { echo "status $status: $stderr"; false; }
	[[ "$stderr" != *XSECRET* ]]
	grep -qxF "clockbench import: warning: $S/fifo.json: not a regular file; not imported, moved to $S/rejected/" <<<"$stderr"
	grep -qxF "clockbench import: warning: $S/zero.json: a symlink; not imported, moved to $S/rejected/" <<<"$stderr"
	grep -qxF "clockbench import: warning: $S/shadow.json: a symlink; not imported, moved to $S/rejected/" <<<"$stderr"
	grep -qxF "clockbench import: warning: $S/label.json: runs[0].label: '1': a label cannot be a number: that reads as a run id; not imported, moved to $S/rejected/" <<<"$stderr"
	grep -qF "imported run 55555555-5555-4555-8555-555555555555 spooled in $S/good.json" <<<"$stderr"
	[ "$(count_runs "$DB")" -eq 5 ]
	[ "$(ls "$S/rejected" | sort | tr '\n' ' ')" = "fifo.json label.json shadow.json zero.json " ]
	[ "$(ls "$S" | tr '\n' ' ')" = "rejected " ]
	# What was set aside is not looked at again.
	run_file "$T/7.json" 77777777-7777-4777-8777-777777777777 seven 2026-12-01T00:00:00Z
	run --separate-stderr cb import --db "$DB" "$T/7.json"
	[ "$status" -eq 0 ]
	[[ "$stderr" != *warning* ]]
}

@test "a spooled run imported by hand is not imported twice" {
	sqlite_only
	populate
	hold_lock "$DB"
	CLOCKBENCH_BUSY_TIMEOUT=0 cb bench --quick --api time --path vdso --db "$DB" \
		>/dev/null 2>&1 || true
	release_lock
	spooled=$(echo "$DB-spool"/*.json)
	uuid=$(jq -r '.runs[0].uuid' "$spooled")
	run cb import --db "$DB" "$spooled"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "imported run $uuid from $spooled as run 4" ]
	# import saves too: it finds the spooled run stored, and drops the file.
	[ "${lines[1]}" = "run $uuid spooled in $spooled was already stored as run 4" ]
	[ ! -e "$spooled" ]
	[ "$(count_runs "$DB")" -eq 4 ]
}

@test "a store that cannot take the run fails before measuring (issue 15: 4)" {
	printf 'name,ns\nclock,20\n' >"$T/text.db"
	run --separate-stderr cb bench --quick --db "$T/text.db"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "clockbench bench: error: $T/text.db: not an SQLite database (file is not a database); nothing measured (--no-save measures without saving)" ]
	run --separate-stderr cb exec -n 2 --db "$T/no/such/r.db" -- true
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "clockbench exec: error: cannot create $T/no/such/r.db: directory $T/no/such does not exist; nothing measured (--no-save measures without saving)" ]
	# A store that does not exist yet is not created by the check alone.
	run cb exec -n 2 --db "$T/new.db" -- false
	[ "$status" -eq 1 ]
	[ ! -e "$T/new.db" ]
	[ ! -e "$T/new.db-spool" ]
}

@test "eight concurrent bench runs into one database all land" {
	pids=()
	for i in 1 2 3 4 5 6 7 8; do
		cb bench --quick --api time --path libc --db "$DB" --label "c$i" \
			>/dev/null 2>"$T/err.$i" &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || { cat "$T/err.$((i + 1))"; false; }
	done
	[ "$(count_runs "$DB")" -eq 8 ]
	for i in 1 2 3 4 5 6 7 8; do
		grep -q "^saved run [0-9]* to $DB$" "$T/err.$i"
		[ "$(cb runs --db "$DB" --label "c$i" --format json | jq length)" -eq 1 ]
	done
}

@test "an interrupted bench is saved as interrupted with the samples it took" {
	command -v timeout >/dev/null || skip "timeout(1) not installed"
	# Every cell runs its whole budget (the precision is never reached), so
	# the catalog takes 70 x 250ms of CPU: SIGINT once it has had 3 s of
	# CPU (a condition, not a fixed sleep: calibration comes first, and a
	# loaded machine gives it the CPU later) stops it part-way.
	start=$(date +%s.%N)
	"$CLOCKBENCH" bench --budget 250ms --precision 0.0001 --db "$DB" --label cut \
		--format json >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 6000); do
		[ "$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)" -ge 300 ] && break
		sleep 0.05
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
	[ "$rc" -eq 130 ] || { cat "$T/err"; false; }
	run cb show --db "$DB" cut --format json
	[ "$status" -eq 0 ]
	# Its time is what passed (no more than this test saw, however long a
	# loaded machine made it), and it stopped before its cells' last rounds.
	jq -e --argjson wall "$wall" '.runs[0].status == "interrupted"
		and .runs[0].elapsed_s > 0 and .runs[0].elapsed_s <= $wall
		and ([.runs[0].cells[] | select(.status == "ok") | .rounds] | min < 10)
		and ([.runs[0].cells[] | select(.status == "ok")] | length > 0)
		and ([.runs[0].cells[] | select(.status == "ok") | .n > 0 and .n == .summary.n]
		     | all)' <<<"$output"
}

@test "import reads a run as bench and show print it, with --samples" {
	run --separate-stderr cb bench --quick --api clock_gettime --clock monotonic \
		--path vdso --format json --samples --no-save
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$T/one.json"
	uuid=$(jq -r '.runs[0].uuid' "$T/one.json")
	run cb import --db "$DB" "$T/one.json"
	[ "$status" -eq 0 ]
	[[ "$output" == "imported run $uuid from $T/one.json as run 1" ]]
	# The same schema back out: show prints what bench printed.
	run cb show --db "$DB" --format json --samples "$uuid"
	jq -e --slurpfile b "$T/one.json" '.runs[0] | .uuid == $b[0].runs[0].uuid
		and .cells[0].samples == $b[0].runs[0].cells[0].samples
		and .cells[0].summary.median == $b[0].runs[0].cells[0].summary.median
		and .config == $b[0].runs[0].config and .quality == $b[0].runs[0].quality' <<<"$output"
	# Without the samples there is nothing to import, and it says why.
	cb bench --quick --api time --path vdso --format json --no-save >"$T/bare.json" 2>/dev/null
	run cb import --db "$DB" "$T/bare.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"runs[0].cells[0].samples: missing (bench and show write them with --format json --samples)"* ]]
}
