#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench doctor: the verdicts this machine must get, the causes, a real
# fallback caught through LD_PRELOAD, the output forms and bad input.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	private_store
}

# The verdicts only: saving the run is the last test's business.
doctor_json() { "$CLOCKBENCH" doctor --no-save --format json "$@"; }

# The verdict (or another field) of one cell: json name path [field]
cell() {
	jq -r --arg n "$2" --arg p "$3" --arg f "${4:-verdict}" \
		'.cells[] | select(.name == $n and .path == $p) | .[$f]' <<<"$1"
}

hres_coarse='["realtime", "monotonic", "monotonic-raw", "boottime", "tai",
	"realtime-coarse", "monotonic-coarse"]'

@test "this machine: hres and coarse clocks through vdso and libc are userspace" {
	needs_vdso_clocksource
	run doctor_json
	[ "$status" -eq 0 ]
	jq -e --argjson clocks "$hres_coarse" '[.cells[]
		| select(.api == "clock_gettime" and (.clock as $c | $clocks | index($c))
			 and .path != "syscall")
		| .verdict == "userspace" and .kernel_entries == 0] | length == 14 and all' <<<"$output"
	jq -e '[.cells[] | select((.name == "gettimeofday" or .name == "time")
		and .path != "syscall") | .verdict == "userspace"] | length == 4 and all' <<<"$output"
	jq -e '.healthy == true and .exit_status == 0 and .summary.problems == 0' <<<"$output"
}

@test "every syscall path enters the kernel through its own system call" {
	run doctor_json
	[ "$status" -eq 0 ]
	jq -e '[.cells[] | select(.path == "syscall" and .verdict != "unsupported")
		| .verdict == "kernel" and .cause == "syscall-path" and .kernel_entries > 0]
		| length >= 20 and all' <<<"$output"
	[ "$(cell "$output" clock-gettime-monotonic syscall syscalls | jq -r '.[0]')" = clock_gettime ]
	[ "$(cell "$output" getrandom syscall syscalls | jq -r '.[0]')" = getrandom ]
}

@test "CPU-time clocks are kernel with the cause no vDSO path" {
	run doctor_json
	[ "$status" -eq 0 ]
	jq -e '[.cells[] | select((.clock == "process-cputime" or .clock == "thread-cputime")
		and (.api == "clock_gettime" or .api == "clock_getres") and .path != "syscall")
		| .verdict == "kernel" and .cause == "no-vdso-path" and .severity == "finding"]
		| length == 8 and all' <<<"$output"
	jq -e '[.findings[] | select(.name == "clock-gettime-process-cputime" and .path == "libc")
		| .cause_label == "no vDSO path" and (.evidence | contains("CLOCK_PROCESS_CPUTIME_ID"))
		and .ns_per_call > 0] | length == 1 and all' <<<"$output"
}

@test "getrandom through libc is kernel with the libc cause; the vdso path is userspace" {
	run doctor_json --api getrandom
	[ "$status" -eq 0 ]
	[ "$(cell "$output" getrandom libc)" = kernel ]
	libc=$(jq -r '.facts.libc | "\(.name) \(.version)"' <<<"$output")
	if [ "$(cell "$output" getrandom vdso)" = userspace ]; then
		[ "$(cell "$output" getrandom libc cause)" = libc-no-vdso ]
		# The cost next to the userspace equivalent: the syscall costs more.
		jq -e '.findings[] | select(.name == "getrandom" and .path == "libc")
			| .userspace_equivalent.path == "vdso"
			and .userspace_equivalent.ns_per_call > 0
			and .ns_per_call > .userspace_equivalent.ns_per_call
			and (.advice | contains("2.41"))' <<<"$output"
	else
		skip "this vDSO has no getrandom ($libc)"
	fi
}

@test "n/a paths and rejected clocks are unsupported with the reason" {
	run doctor_json --api times,clock_gettime --clock realtime-alarm
	[ "$status" -eq 0 ]
	[ "$(cell "$output" times vdso)" = unsupported ]
	[[ "$(cell "$output" times vdso reason)" == *"no times()"* ]]
	if [ -z "$(ls /sys/class/rtc 2>/dev/null)" ]; then
		[ "$(cell "$output" clock-gettime-realtime-alarm libc)" = unsupported ]
		[[ "$(cell "$output" clock-gettime-realtime-alarm libc reason)" == *EINVAL* ]]
	fi
}

@test "a real fallback is caught: libc clock_gettime through the raw syscall exits 3" {
	needs_vdso_clocksource
	[ -f "$CLOCKBENCH_PRELOAD_LIB" ] || skip "CLOCKBENCH_PRELOAD_LIB not built"
	# A sanitizer runtime wants to be first in the library list.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	LD_PRELOAD="$CLOCKBENCH_PRELOAD_LIB" run doctor_json --api clock_gettime
	[ "$status" -eq 3 ]
	[ "$(cell "$output" clock-gettime-monotonic libc)" = kernel ]
	[ "$(cell "$output" clock-gettime-monotonic libc cause)" = interposed ]
	[ "$(cell "$output" clock-gettime-monotonic libc severity)" = problem ]
	# The vDSO itself is still fine, and the finding says where the call went.
	[ "$(cell "$output" clock-gettime-monotonic vdso)" = userspace ]
	jq -e '.healthy == false and .exit_status == 3 and .summary.problems == 7' <<<"$output"
	jq -e --arg lib "$CLOCKBENCH_PRELOAD_LIB" '.findings[]
		| select(.name == "clock-gettime-monotonic" and .path == "libc")
		| (.evidence | contains($lib)) and .userspace_equivalent.path == "vdso"
		and .ns_per_call > 2 * .userspace_equivalent.ns_per_call' <<<"$output"
}

@test "--quiet prints only the problems" {
	needs_vdso_clocksource
	run "$CLOCKBENCH" doctor --no-save --quiet
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ -f "$CLOCKBENCH_PRELOAD_LIB" ] || skip "CLOCKBENCH_PRELOAD_LIB not built"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	LD_PRELOAD="$CLOCKBENCH_PRELOAD_LIB" run "$CLOCKBENCH" doctor --no-save -q --api clock_gettime,getrandom
	[ "$status" -eq 3 ]
	[ "${#lines[@]}" -eq 7 ]
	for line in "${lines[@]}"; do
		[[ "$line" =~ ^\ *[0-9.]+\ ns\ +problem\ +clock-gettime-[a-z-]+\ +libc\ +kernel ]]
	done
}

@test "the table: summary first, one line per finding, costliest first" {
	needs_vdso_clocksource
	run "$CLOCKBENCH" doctor --no-save
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "clockbench doctor: healthy: "* ]]
	# 84 cells on x86_64; 32-bit builds add the time64 calls.
	n=$(doctor_json | jq '.cells | length')
	[[ "${lines[1]}" =~ ^$n\ calls\ checked:\ [0-9]+\ userspace ]]
	[ "${lines[2]}" = "findings, costliest first:" ]
	# The finding lines, until the blank line before the details.
	costs=$(sed -n '/^findings, costliest first:/,/^$/p' <<<"$output" | sed -n 's/^ *\([0-9.]*\) ns .*/\1/p')
	[ "$(wc -l <<<"$costs")" -ge 10 ]
	sort -rn -c <<<"$costs"
	if vdso_exports getrandom; then
		[[ "$output" =~ $'\n'\ *[0-9.]+\ ns\ +[a-z]+\ +getrandom\ +libc\ +kernel\ +libc\ does\ not\ use\ the\ vDSO ]]
	else
		[[ "$output" =~ $'\n'\ *[0-9.]+\ ns\ +[a-z]+\ +getrandom\ +libc\ +kernel\ +the\ vDSO\ does\ not\ export\ the\ symbol ]]
	fi
	[[ "$output" == *"advice: "* ]]
	[[ "$output" == *"# kernel: $(uname -r)"* ]]
	[[ "$output" == *"# clocksource vDSO-capable: "* ]]
}

@test "json carries the facts and the environment fingerprint" {
	run doctor_json --api time
	[ "$status" -eq 0 ]
	[ "$(jq -r .environment.kernel_release <<<"$output")" = "$(uname -r)" ]
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	jq -e --arg cs "$cs" '.facts.clocksource == $cs and .environment.clocksource == $cs
		and (.facts.clocksource_vdso | IN("yes", "conditional", "no", "unknown"))
		and .facts.vdso.exports.clock_gettime == true
		and .facts.static_binary == false and (.elapsed_s | type == "number")' <<<"$output"
}

@test "filters select cells like bench" {
	run doctor_json --api clock_gettime --clock monotonic,CLOCK_TAI --path libc
	[ "$status" -eq 0 ]
	jq -e '[.cells[].name] == ["clock-gettime-monotonic", "clock-gettime-tai"]' <<<"$output"
	run doctor_json --path syscall
	[ "$status" -eq 0 ]
	jq -e '(.findings | length) == 0 and .summary.userspace == 0' <<<"$output"
}

@test "--no-cost classifies without measuring" {
	run doctor_json --no-cost --api getrusage
	[ "$status" -eq 0 ]
	jq -e '.findings | length == 1 and (.[0].ns_per_call == null)' <<<"$output"
}

@test "the static probe reports what a static libc does" {
	probe="$(dirname "$CLOCKBENCH")/clockbench-static-probe"
	run doctor_json --api time
	if [ ! -x "$probe" ]; then
		jq -e '.static_probe.ran == false and (.static_probe.skip_reason | contains("not installed"))' <<<"$output"
		skip "no static helper in this build (sanitizers or no static libc)"
	fi
	jq -e '.static_probe.ran == true and (.static_probe.results | length == 5)
		and ([.static_probe.results[] | .ns_per_call > 0] | all)' <<<"$output"
	# glibc's static build uses the vDSO: userspace for the coarse clock anywhere.
	jq -e '.static_probe.results[] | select(.name == "clock-gettime-monotonic-coarse")
		| .verdict == "userspace"' <<<"$output"
	CLOCKBENCH_STATIC_PROBE=/nonexistent run doctor_json --api time
	jq -e '.static_probe.ran == false and (.static_probe.skip_reason | contains("/nonexistent is not installed"))' <<<"$output"
	CLOCKBENCH_STATIC_PROBE= run doctor_json --api time
	jq -e '.static_probe.skip_reason | contains("disabled")' <<<"$output"
}

@test "CLOCKBENCH_STATIC_PROBE runs only a program that no one else can write" {
	T=$BATS_TEST_TMPDIR
	# A program that leaves a mark if it ever runs.
	printf '#!/bin/sh\ntouch %s/ran\n' "$T" >"$T/probe"
	chmod 0777 "$T/probe"
	CLOCKBENCH_STATIC_PROBE="$T/probe" run doctor_json --api time
	jq -e --arg p "$T/probe" '.static_probe.ran == false and .static_probe.skip_reason
		== "CLOCKBENCH_STATIC_PROBE=\($p) is not run: writable by others"' <<<"$output"
	chmod 0775 "$T/probe"
	CLOCKBENCH_STATIC_PROBE="$T/probe" run doctor_json --api time
	jq -e '.static_probe.skip_reason | endswith("is not run: writable by its group")' <<<"$output"
	if [ "$(id -u)" -eq 0 ]; then
		chmod 0755 "$T/probe"
		chown 65534 "$T/probe"
		CLOCKBENCH_STATIC_PROBE="$T/probe" run doctor_json --api time
		jq -e '.static_probe.skip_reason | endswith("is not run: owned by uid 65534, neither root nor this user")' <<<"$output"
	fi
	[ ! -e "$T/ran" ]
}

@test "without a vDSO in clockbench's catalog the vdso path is unsupported, libc still userspace" {
	CLOCKBENCH_NO_VDSO=1 run doctor_json --api clock_gettime --clock monotonic
	[ "$status" -eq 0 ]
	[ "$(cell "$output" clock-gettime-monotonic vdso)" = unsupported ]
	[[ "$(cell "$output" clock-gettime-monotonic vdso reason)" == *"no vDSO in this process"* ]]
	[ "$(cell "$output" clock-gettime-monotonic libc)" = userspace ]
}

@test "inside a time namespace: a note, still userspace and healthy" {
	needs_vdso_clocksource
	[ "$(id -u)" -eq 0 ] || skip "a time namespace needs root"
	unshare --time --fork true 2>/dev/null || skip "unshare --time is not available"
	run unshare --time --fork "$CLOCKBENCH" doctor --no-save --format json --api clock_gettime --clock monotonic
	[ "$status" -eq 0 ]
	jq -e '.facts.time_namespace == true' <<<"$output"
	jq -e '.findings[] | select(.cause == "time-namespace") | .severity == "note"
		and .verdict == "userspace" and .path == "vdso"' <<<"$output"
	[ "$(cell "$output" clock-gettime-monotonic vdso)" = userspace ]
}

@test "unprivileged: the same verdicts without root" {
	needs_vdso_clocksource
	[ "$(id -u)" -eq 0 ] || skip "already unprivileged: the other tests cover it"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	$nobody test -x "$CLOCKBENCH" || skip "the build directory is not readable by nobody"
	run $nobody "$CLOCKBENCH" doctor --no-save --format json
	[ "$status" -eq 0 ]
	[ "$(cell "$output" clock-gettime-monotonic libc)" = userspace ]
	[ "$(cell "$output" clock-gettime-process-cputime libc cause)" = no-vdso-path ]
	[ "$(cell "$output" getrandom libc)" = kernel ]
}

@test "help documents the exit statuses" {
	run "$CLOCKBENCH" doctor --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Exit status: 0 when every hres and coarse clock"* ]]
	[[ "$output" == *"3 when one enters the kernel"* ]]
	run "$CLOCKBENCH" help doctor
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench doctor"* ]]
}

@test "bad input exits 2 with one line naming it" {
	for args in "--api clock_gettimes" "--clock monotonic,bogus" "--path vdso,kernel" \
		    "--format csv" "--api ," "--frobnicate" "extra"; do
		run "$CLOCKBENCH" doctor $args
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "clockbench doctor: error: "* ]]
	done
	run "$CLOCKBENCH" doctor --api bogus
	[[ "$output" == *"unknown api 'bogus' in --api"* ]]
	run "$CLOCKBENCH" doctor --clock bogus
	[[ "$output" == *"unknown clock 'bogus' in --clock"* ]]
	run "$CLOCKBENCH" doctor --path kernel
	[[ "$output" == *"unknown path 'kernel' in --path (vdso, libc, syscall)"* ]]
	run "$CLOCKBENCH" doctor --format yaml
	[[ "$output" == *"unknown format 'yaml' (table, json)"* ]]
}

@test "doctor saves its verdicts; runs --problems lists the hosts whose newest run found any" {
	needs_vdso_clocksource
	[ -f "$CLOCKBENCH_PRELOAD_LIB" ] || skip "CLOCKBENCH_PRELOAD_LIB not built"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	run --separate-stderr "$CLOCKBENCH" doctor --api clock_gettime --no-cost
	[ "$status" -eq 0 ]
	[ "$stderr" = "saved run 1 to $CLOCKBENCH_DB" ]
	run cb runs --command doctor --problems
	[ "$status" -eq 0 ]
	[ "$output" = "no host with problems in $CLOCKBENCH_DB" ]
	# The same host falls back: its newest run is the one listed.
	LD_PRELOAD="$CLOCKBENCH_PRELOAD_LIB" run "$CLOCKBENCH" doctor --api clock_gettime --no-cost
	[ "$status" -eq 3 ]
	run --separate-stderr cb runs --problems
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "$(uname -n)  $(uname -r)  run 2, "*"  clocksource "*": clock-gettime-realtime libc: interposed; "* ]]
	run cb runs --verdict problems --format json
	[ "$(jq -c 'map(.id)' <<<"$output")" = "[2]" ]
	# Another host's healthy run does not hide this one; its problem shows.
	cb export 2 | jq '.runs[0] |= (.uuid = "00000000-0000-4000-8000-0000000000d0"
		| .host = "other")' >"$BATS_TEST_TMPDIR/other.json"
	cb import "$BATS_TEST_TMPDIR/other.json" >/dev/null 2>&1
	run cb runs --problems --format json
	[ "$(jq -c 'map(.host) | sort' <<<"$output")" = "[\"other\",\"$(uname -n)\"]" ]
	jq -e '.[0].problems | length == 7 and all(.cause == "interposed")' <<<"$output"
	# Healthy again here: only the other host is left.
	run "$CLOCKBENCH" doctor --api clock_gettime --no-cost
	[ "$status" -eq 0 ]
	run cb runs --problems --format json
	[ "$(jq -c 'map(.host)' <<<"$output")" = '["other"]' ]
	# And with --no-save nothing is saved.
	run "$CLOCKBENCH" doctor --api clock_gettime --no-cost --no-save
	[ "$(cb runs --command doctor --format json | jq length)" -eq 4 ]
	# A host name from a store written behind clockbench's back (import
	# refuses it): its line shows it escaped (it was printed raw).
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET host = ? WHERE host = ?", ("evil\x1b]0;owned\x07", "other"))
c.commit()' "$CLOCKBENCH_DB"
	run cb runs --problems
	[[ "$output" == *'evil\e]0;owned\x07  '* ]]
	[[ "$output" != *$'\e'* ]]
	usage_error "--problems prints a table or json, not csv" runs --problems --format csv
}
