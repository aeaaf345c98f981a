#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench hotplug: real offline/online cycles of CPU 1 as root, the
# per-state table from the cpuhp events, and the guard's promise: CPU 1
# online and tracing as it was afterwards, whichever of the supervisor and
# the measuring process is killed or stopped by a signal mid-run; the
# instances of dead runs removed. Bad input and running unprivileged.

SYS=/sys/devices/system/cpu
TRACEFS=/sys/kernel/tracing

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store "$T"
	machine_lock
}

# A failed assertion must not leave a frozen run behind with CPU 1 offline:
# thaw and stop it, and let its supervisor restore the machine.
teardown() {
	if [ -n "${SUP:-}" ] && kill -0 "$SUP" 2>/dev/null; then
		[ -n "${CHILD:-}" ] && kill -CONT "$CHILD" 2>/dev/null
		kill -TERM "$SUP" 2>/dev/null
		wait "$SUP" 2>/dev/null || true
	fi
	if [ "$(id -u)" -eq 0 ] && [ -w "$SYS/cpu1/online" ] &&
	   [ "$(cat "$SYS/cpu1/online")" = 0 ]; then
		echo 1 >"$SYS/cpu1/online"
	fi
	[ "$(id -u)" -ne 0 ] || in_tracefs "rmdir clockbench-test-other 2>/dev/null" || true
	machine_unlock
}

need_cpu1() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to take a CPU offline"
	[ -w "$SYS/cpu1/online" ] || skip "CPU 1 is not hot-pluggable here"
	[ "$(cat "$SYS/cpu1/online")" = 1 ] || skip "CPU 1 is offline"
}

tracefs_state() {
	if mountpoint -q "$TRACEFS"; then
		echo "mounted $(cat "$TRACEFS/events/cpuhp/enable" 2>/dev/null)"
	else
		echo "not mounted"
	fi
}

# The clockbench tracing instances, whether tracefs is mounted or not (an
# instance outlives an unmount: look in a mount namespace of our own).
instances() {
	if mountpoint -q "$TRACEFS"; then
		ls "$TRACEFS/instances"
	else
		unshare -m sh -c "mount -t tracefs nodev $TRACEFS && ls $TRACEFS/instances"
	fi | grep '^clockbench-hotplug-' || true
}

# No tracing instance of clockbench is left behind.
no_instance_left() {
	local left
	left=$(instances)
	[ -z "$left" ] || { echo "instances left: $left"; return 1; }
}

# The lock a run holds until the machine is restored, by whichever process.
HOTPLUG_LOCK=$([ -w /run/lock ] && echo /run/lock || echo /tmp)/clockbench-hotplug.lock
wait_restored() {
	flock -w 60 "$HOTPLUG_LOCK" true
}

# Start a long run in the background (fd 3 closed, or bats waits for it)
# and wait until it has taken CPU 1 offline; then freeze the measuring
# process while CPU 1 is offline, so that the kill lands at that point.
start_and_freeze_offline() {
	"$CLOCKBENCH" hotplug --cpu 1 --cycles 100000 --pause 50ms \
		--pidfile "$T/pid" "$@" >"$T/out" 2>"$T/err" 3>&- &
	SUP=$!
	for _ in $(seq 3000); do
		if [ -s "$T/pid" ] && [ "$(cat "$SYS/cpu1/online")" = 0 ]; then
			CHILD=$(cat "$T/pid")
			kill -STOP "$CHILD"
			# Frozen mid-write it still finishes the write: look again.
			[ "$(cat "$SYS/cpu1/online")" = 0 ] && return 0
			kill -CONT "$CHILD"
		fi
		sleep 0.01
	done
	kill -TERM "$SUP"
	return 1
}

@test "--cpu 1 --cycles 20: offline/online statistics and the per-state table" {
	need_cpu1
	before=$(tracefs_state)
	run cb hotplug --cpu 1 --cycles 20
	[ "$status" -eq 0 ]
	[[ "$output" == *"# clockbench hotplug: CPU 1, 20 of 20 cycles"* ]]
	[[ "$output" =~ offline\ +20\ +[0-9]+\.[0-9]+\ +[0-9]+\.[0-9]+\ +\[ ]]
	[[ "$output" =~ online\ +20\ +[0-9]+\.[0-9]+ ]]
	[[ "$output" =~ offline\ sys\ +20 ]]
	[[ "$output" == *"# user and sys "*"tick"*"user + sys is exact"* || "$output" == *"# user and sys "*"measured"* ]]
	[[ "$output" == *"offline: time per hotplug state"* ]]
	[[ "$output" == *"online: time per hotplug state"* ]]
	# The step that takes the CPU down, by name, from the states file.
	[[ "$output" =~ 1[0-9][0-9]\ +cpu:teardown\ +takedown_cpu ]]
	[[ "$output" == *"saved run 1 to"* ]]
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
}

# Issue 30: show printed every cell as 0.00 s with cycles and core columns.
@test "show of a stored run prints hotplug's own tables, in ms or us" {
	need_cpu1
	run --separate-stderr cb hotplug --cpu 1 --cycles 6 --top 3 --label hp
	[ "$status" -eq 0 ]
	local live="$output"
	run cb show hp
	[ "$status" -eq 0 ]
	[[ "$output" =~ $'\n'transition\ \((ms|us)\)\ +n\ +min\ +median ]]
	# Non-zero figures, in a unit that reads (not 0.000 s).
	[[ "$output" =~ $'\n'offline\ +6\ +[0-9.]+\ +([0-9]+\.[0-9]{3})\  ]]
	greater "${BASH_REMATCH[1]}" 0
	[[ "$output" =~ $'\n'online\ +6\ +[0-9.]+\ +([0-9]+\.[0-9]{3})\  ]]
	greater "${BASH_REMATCH[1]}" 0
	[[ "$output" =~ $'\n'\ \ offline\ sys\ +6\  ]]
	[[ "$output" == *"# user and sys "* ]]
	[[ "$output" == *"offline: time per hotplug state (self time per cycle, "*"; the top 3, as the run stored them)"* ]]
	[[ "$output" =~ $'\n'cpu:teardown\ +[0-9]+\.[0-9]{3}\  ]]
	[[ "$output" != *cycles\ \ core* && "$output" != *" 0.00 "* ]]
	# The transitions are the very lines hotplug printed.
	diff <(sed -n '/^transition (/,/^  online sys/p' <<<"$live") \
	     <(sed -n '/^transition (/,/^  online sys/p' <<<"$output")
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
}

@test "json: latency statistics and the top states, in seconds" {
	need_cpu1
	run --separate-stderr cb hotplug --cpu 1 --cycles 5 --top 3 --format json --no-save
	[ "$status" -eq 0 ]
	jq -e '.cpu == 1 and .completed == 5 and .interrupted == false
		and .offline.wall.n == 5 and .online.wall.n == 5
		and .offline.wall.median > 0 and .online.wall.min > 0
		and .tracing.active and .tracing.lost_events == 0
		and (.offline.states | length) == 3 and (.online.states | length) == 3
		and (.offline.states | map(.mean_s) | . == (sort | reverse))
		and (.offline.states[0] | .name != "?" and .function != "" and .share_pct > 0)' <<<"$output"
	# The largest states are a fair part of the transition, not all of it.
	jq -e '.offline.states | map(.share_pct) | add <= 100.5' <<<"$output"
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
}

@test "two hotplug runs are saved with their cells and compare" {
	need_cpu1
	cb hotplug --cpu 1 --cycles 4 --label a >/dev/null 2>&1
	cb hotplug --cpu 1 --cycles 4 --no-trace --label b >/dev/null 2>&1
	run --separate-stderr cb export --format json 1
	[ "$status" -eq 0 ]
	jq -e '.runs[0] | .command == "hotplug" and .label == "a"
		and (.cells | map(.name) | index("offline") != null and index("online") != null)
		and (.cells[] | select(.name == "offline") | .unit == "s" and (.samples | length) == 4)
		and (.cells | map(.name) | any(startswith("state:cpu:teardown:offline")))' <<<"$output"
	run cb compare a b
	[ "$status" -eq 0 ]
	# Hotplug's seconds read in ms or us (issue 30: 7.177e-05 s); no
	# interval of a change past -100 % (it was -120.25 %).
	[[ "$output" =~ metric:\ (ms|us), ]]
	local table="$output"
	run grep -E '\[ *-(10[1-9]|1[1-9][0-9]|[2-9][0-9][0-9]|[0-9]{4,})\.' <<<"$table"
	[ "$status" -eq 1 ]
	[[ "$table" =~ offline\  ]]
	[[ "$table" =~ online\  ]]
}

@test "kill -9 of the measuring process mid-run: CPU 1 back online, tracing restored" {
	need_cpu1
	before=$(tracefs_state)
	start_and_freeze_offline
	# The measuring process froze with CPU 1 offline and its instance on.
	[ "$(cat "$SYS/cpu1/online")" = 0 ]
	ls "$TRACEFS/instances" | grep -q "^clockbench-hotplug-$SUP\$"
	kill -KILL "$CHILD"
	status=0
	wait "$SUP" || status=$?
	[ "$status" -eq 137 ]
	grep -q "the measuring process was killed by signal 9" "$T/err"
	grep -q "restored cpu1/online 1 (found 0, put back); no tracing instance clockbench-hotplug-$SUP (done)" "$T/err"
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
}

@test "kill -9 of the supervisor mid-run: the measuring process restores CPU 1 and tracing" {
	need_cpu1
	before=$(tracefs_state)
	start_and_freeze_offline
	ls "$TRACEFS/instances" | grep -q "^clockbench-hotplug-$SUP\$"
	kill -KILL "$SUP"
	status=0
	wait "$SUP" || status=$?
	[ "$status" -eq 137 ]
	# Orphaned, it gets SIGTERM: it brings the CPU back and cleans up.
	kill -CONT "$CHILD"
	wait_restored
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
	# It stopped as on SIGTERM: the cycles it made are reported.
	grep -q "(interrupted)" "$T/out"
}

@test "a second run waits for the first to put CPU 1 back, then runs" {
	need_cpu1
	start_and_freeze_offline
	cb hotplug --cpu 1 --cycles 1 --no-save >"$T/out2" 2>"$T/err2" 3>&- &
	second=$!
	for _ in $(seq 1000); do
		grep -q "waiting for another clockbench to finish taking a CPU offline" \
			"$T/err2" && break
		sleep 0.01
	done
	grep -q "waiting for another clockbench" "$T/err2"
	# CPU 1 is still offline: the second run has not looked at it yet.
	[ "$(cat "$SYS/cpu1/online")" = 0 ]
	kill -KILL "$CHILD"
	status=0
	wait "$second" || status=$?
	[ "$status" -eq 0 ]
	grep -q "# clockbench hotplug: CPU 1, 1 of 1 cycles" "$T/out2"
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	no_instance_left
}

@test "SIGTERM mid-run: the run stops, is reported and saved, CPU 1 online" {
	need_cpu1
	before=$(tracefs_state)
	start_and_freeze_offline
	kill -TERM "$SUP"	# forwarded to the frozen measuring process
	kill -CONT "$CHILD"
	status=0
	wait "$SUP" || status=$?
	[ "$status" -eq 143 ]
	grep -q "(interrupted)" "$T/out"
	grep -q '^offline ' "$T/out"
	# It put the CPU back itself: the supervisor had nothing to repair.
	grep -q "restored cpu1/online 1; no tracing instance clockbench-hotplug-$SUP" "$T/err"
	run grep -cE "put back|\(done\)" "$T/err"
	[ "$output" = 0 ]
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
	run cb runs
	[[ "$output" == *"hotplug"*"interrupted"* ]]
}

@test "SIGINT mid-run: CPU 1 online, tracing restored" {
	need_cpu1
	before=$(tracefs_state)
	"$CLOCKBENCH" hotplug --cpu 1 --cycles 100000 --pause 20ms --no-save \
		--pidfile "$T/pid" >"$T/out" 2>"$T/err" 3>&- &
	sup=$!
	# Measuring: the pid file is written and CPU 1 went offline once.
	for _ in $(seq 3000); do
		[ -s "$T/pid" ] && [ "$(cat "$SYS/cpu1/online")" = 0 ] && break
		sleep 0.01
	done
	kill -INT "$sup"
	status=0
	wait "$sup" || status=$?
	[ "$status" -eq 130 ]
	grep -q "(interrupted)" "$T/out"
	[ "$(cat "$SYS/cpu1/online")" = 1 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
}

# In tracefs, mounted or not, without changing the mounts: sh -c SCRIPT.
in_tracefs() {
	unshare -m sh -c "mountpoint -q $TRACEFS || mount -t tracefs nodev $TRACEFS; cd $TRACEFS/instances && $1"
}

@test "a new run removes the instances of dead runs and says so; other instances stay" {
	need_cpu1
	before=$(tracefs_state)
	# 999999999 is above any pid_max: that clockbench is gone.
	in_tracefs "mkdir clockbench-hotplug-999999999 clockbench-test-other"
	run --separate-stderr cb hotplug --cpu 1 --cycles 1 --no-save
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"removed the tracing instance clockbench-hotplug-999999999, left by clockbench process 999999999, which is gone"* ]]
	run in_tracefs "rmdir clockbench-test-other"
	[ "$status" -eq 0 ]
	# Nothing stale now: nothing said.
	run --separate-stderr cb hotplug --cpu 1 --cycles 1 --no-save
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"removed the tracing instance"* ]]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
}

@test "10 SIGKILLs of the supervisor and 10 of the child at random moments: nothing left behind" {
	need_cpu1
	before=$(tracefs_state)
	CLOCKBENCH_MACHINE_LOCK_HELD=1 run "$BATS_TEST_DIRNAME/../../bench/hotplug-kills" \
		"$CLOCKBENCH_BUILD" 10 "${CLOCKBENCH_SEED:-15}" 800
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok .* kill -9 supervisor ' <<<"$output")" -eq 10 ]
	[ "$(grep -c '^ok .* kill -9 child ' <<<"$output")" -eq 10 ]
	[ "$(tracefs_state)" = "$before" ]
	no_instance_left
}

@test "bad input: no such CPU, --cycles 0 and other values exit 2" {
	run cb hotplug --cpu 9999 --cycles 2
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"invalid --cpu 9999: no such CPU 9999 (present: "* ]]
	for bad in 0 -1 x 1.5 100001; do
		run cb hotplug --cpu 1 --cycles "$bad"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"invalid --cycles '$bad'"* ]]
	done
	run cb hotplug --cpu -1
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --cpu '-1'"* ]]
	run cb hotplug --pause soon
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --pause 'soon'"* ]]
	run cb hotplug --top 0
	[ "$status" -eq 2 ]
	run cb hotplug --format xml
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown format 'xml'"* ]]
	run cb hotplug extra
	[ "$status" -eq 2 ]
	[[ "$output" == *"unexpected argument 'extra'"* ]]
	run cb hotplug --bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown option '--bogus'"* ]]
	[ ! -e "$CLOCKBENCH_DB" ]
}

@test "a CPU that is not hot-pluggable is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to reach the check"
	[ -e "$SYS/cpu0" ] || skip "no CPU 0"
	[ ! -e "$SYS/cpu0/online" ] || skip "CPU 0 is hot-pluggable here"
	run cb hotplug --cpu 0 --cycles 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"CPU 0 is not hot-pluggable (no $SYS/cpu0/online)"* ]]
	[ ! -e "$CLOCKBENCH_DB" ]
}

@test "without root: exit 4 (skip) with the reason, nothing changed" {
	command -v setpriv >/dev/null || skip "no setpriv"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges"
	before=$(tracefs_state)
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$CLOCKBENCH" hotplug --cpu 1 --cycles 2 --no-save
	[ "$status" -eq 4 ]
	[[ "$output" == *"skipped: needs root to take a CPU offline"* ]]
	[ "$(tracefs_state)" = "$before" ]
	# Usage errors still come first.
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$CLOCKBENCH" hotplug --cycles 0
	[ "$status" -eq 2 ]
}

@test "--help and 'clockbench help hotplug' print the usage" {
	run cb hotplug --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench hotplug"* ]]
	[[ "$output" == *"--cycles"* ]]
	run cb help hotplug
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench hotplug"* ]]
}
