#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench verify's checks that change machine state (the clocksource,
# the adjtimex frequency): they pass here, fail when a step is injected,
# say what they changed and restored, and leave the machine as they found
# it, also when the measuring process or verify itself is killed.

load helpers

v() { "$CLOCKBENCH" verify "$@"; }

CS=/sys/devices/system/clocksource/clocksource0
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

need_switchable() {
	[ "$(id -u)" -eq 0 ] || skip "switching the clocksource needs root"
	[ "$(wc -w <"$CS/available_clocksource")" -ge 2 ] || skip "one clocksource only"
}

# The adjtimex frequency (scaled ppm), tick and status, one line.
adjtimex_state() {
	python3 -c '
import ctypes
class T(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("sec", ctypes.c_long), ("usec", ctypes.c_long), ("tick", ctypes.c_long), ("pad", ctypes.c_byte * 256)]
t = T()
ctypes.CDLL(None).adjtimex(ctypes.byref(t))
print(t.freq, t.tick, t.status)'
}

# A process that has exited (gone, or a zombie nobody reaped yet).
gone() { ! [ -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }

# No live process whose command line has $1.
none_running() {
	local p
	for p in $(pgrep -f -- "$1"); do
		gone "$p" || return 1
	done
}

# Wait (at most 60 s: a deadline, far beyond the second or so each takes
# under ASan on a loaded machine) for a condition, polling.
wait_for() {
	local deadline=$((SECONDS + 60))
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
	done
}

# The measuring child of the verify process $1, once it exists.
child_of() { pgrep -P "$1" | head -1 | grep .; }

need_root() { [ "$(id -u)" -eq 0 ] || skip "stepping the adjtimex frequency needs root"; }

# Watch the clocksource and the adjtimex frequency every 2 ms in the
# background until stopped (stop_watching); then $1 holds the number of
# polls, the clocksources seen and the frequencies seen, one line each.
start_watching() {
	python3 -c '
import ctypes, signal, sys, time
class T(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("sec", ctypes.c_long), ("usec", ctypes.c_long), ("tick", ctypes.c_long), ("pad", ctypes.c_byte * 256)]
adjtimex = ctypes.CDLL(None).adjtimex
stop = []
signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
polls, sources, freqs = 0, set(), set()
while not stop:
    with open(sys.argv[1]) as f:
        sources.add(f.read().strip())
    t = T()		# modes 0: read only
    adjtimex(ctypes.byref(t))
    freqs.add(t.freq)
    polls += 1
    if polls == 1:
        open(sys.argv[3], "w").close()
    time.sleep(0.002)
with open(sys.argv[2], "w") as out:
    print(polls, file=out)
    print(" ".join(sorted(sources)), file=out)
    print(" ".join(str(f) for f in sorted(freqs)), file=out)
' "$CS/current_clocksource" "$1" "$1.ready" &
	watcher=$!
	wait_for test -e "$1.ready"
}

stop_watching() {
	kill -TERM "$watcher"
	wait "$watcher"
	watcher=
}

# The frequency has been stepped away from the one found.
freq_stepped() { [ "$(adjtimex_state)" != "$orig_tx" ]; }

setup() {
	# These tests switch the clocksource and step the frequency: the other
	# tests that watch the clocks (verify.bats) must not run meanwhile.
	machine_lock
	orig_cs=$(cat "$CS/current_clocksource")
	orig_tx=$(adjtimex_state)
}

teardown() {
	[ -z "${watcher:-}" ] || { kill -TERM "$watcher"; wait "$watcher" || true; }
	# A verify a failed test left behind: stop it, and let it restore.
	if [ -n "${verify:-}" ] && kill -0 "$verify" 2>/dev/null; then
		kill -TERM "$verify"
		wait "$verify" || true
	fi
	# Belt and braces for the machine's other users: never leave it changed.
	[ "$(id -u)" -eq 0 ] && echo "$orig_cs" >"$CS/current_clocksource" || true
	[ "$(adjtimex_state)" = "$orig_tx" ] || echo "# adjtimex left changed: $(adjtimex_state), was $orig_tx" >&3
	machine_unlock
}

@test "a whole verify as root without --destructive leaves the clocksource and the adjtimex frequency alone" {
	need_switchable
	start_watching "$BATS_TEST_TMPDIR/seen"
	run v
	stop_watching
	grep -E '^(not ok|# [0-9]+ checks that change)| (clocksource-switch|freq-step)/' <<<"$output" || true
	cat "$BATS_TEST_TMPDIR/seen"
	{ read -r polls; read -r sources; read -r freqs; } <"$BATS_TEST_TMPDIR/seen"
	# Watched throughout (a default run takes about 20 s).
	[ "$polls" -ge 100 ]
	# One clocksource, the one found, seen the whole time.
	[ "$sources" = "$orig_cs" ]
	# One frequency, unless an NTP daemon steers it (STA_PLL or STA_FLL).
	read -r freq tick st <<<"$orig_tx"
	if (( (st & 0x9) == 0 )); then
		[ "$freqs" = "$freq" ]
	fi
	# The checks that would have changed them say why they did not run.
	[ "$(grep -cE '^ok [0-9]+ (clocksource-switch|freq-step)/[^ ]+ # SKIP changes machine-wide state: run with --destructive$' <<<"$output")" -eq 12 ]
	! grep -qE '^(not )?ok [0-9]+ (clocksource-switch|freq-step)/[^ ]+:' <<<"$output"
	grep -qx '# 12 checks that change machine-wide state (the clocksource, the adjtimex frequency) are skipped: run with --destructive' <<<"$output"
}

@test "--destructive runs the checks that switch the clocksource and step the frequency" {
	need_switchable
	start_watching "$BATS_TEST_TMPDIR/seen"
	run v --destructive --check 'clocksource-switch/clock-gettime-monotonic/syscall' \
		--check 'freq-step/*/syscall' --duration 1
	stop_watching
	echo "$output"
	cat "$BATS_TEST_TMPDIR/seen"
	[ "$status" -eq 0 ]
	grep -qx '# --destructive: the checks that change machine-wide state run, and put it back' <<<"$output"
	[[ "$output" == *"ok 1 clocksource-switch/clock-gettime-monotonic/syscall: "*"; restored current_clocksource $orig_cs"* ]]
	[[ "$output" == *"ok 2 freq-step/clock-gettime-monotonic/syscall: "*"; restored adjtimex"* ]]
	# Seen to change, and put back.
	{ read -r polls; read -r sources; read -r freqs; } <"$BATS_TEST_TMPDIR/seen"
	[ "$(wc -w <<<"$sources")" -ge 2 ]
	[ "$(wc -w <<<"$freqs")" -ge 2 ]
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
	[ "$(adjtimex_state)" = "$orig_tx" ]
}

@test "clocksource-switch: monotonic across every CPU while the clocksource flips, restored after" {
	need_switchable
	run v --destructive --check 'clocksource-switch/clock-gettime-monotonic/*' --duration 1.5
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
	# What was changed, how often, and what was put back.
	[[ "$output" =~ ok\ 1\ clocksource-switch/clock-gettime-monotonic/vdso:\ [0-9]+\ reads\ handed\ round\ [0-9]+\ CPUs\ over\ [0-9.]+\ s,\ largest\ backward\ step\ 0\ ns,\ while\ current_clocksource\ went\ $orig_cs\ -\>\ [a-z-]+.*\ -\>\ $orig_cs\ ([0-9]+)\ times\ \(([0-9]+)\ switches\)\;\ restored\ current_clocksource\ $orig_cs ]]
	# At least one round trip: how many fit in the check's time is the
	# load's business (each switch is a stop_machine on every CPU).
	[ "${BASH_REMATCH[1]}" -ge 1 ]
	[[ "$output" == *"ok 3 clocksource-switch/clock-gettime-monotonic/syscall: "*"restored current_clocksource $orig_cs"* ]]
}

@test "clocksource-switch: a step injected into the vDSO fails it, with the step and the CPUs" {
	need_switchable
	CLOCKBENCH_FAULT=vdso-clock-back-1ms-every-1000 run v --destructive --check 'clocksource-switch/clock-gettime-monotonic/*' --duration 1
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" =~ not\ ok\ 1\ clocksource-switch/clock-gettime-monotonic/vdso:\ largest\ backward\ step\ ([0-9]+)\ ns,\ from\ CPU\ [0-9]+\'s\ read\ to\ CPU\ [0-9]+\'s\ at\ exchange\ [0-9]+.*restored\ current_clocksource\ $orig_cs ]]
	in_range "${BASH_REMATCH[1]}" 1 1000000	# 1 ms back, less a hand-over between CPUs
	[[ "$output" == *"ok 2 clocksource-switch/clock-gettime-monotonic/libc: "*"largest backward step 0 ns"* ]]
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
}

@test "clocksource-switch: it starts from the clocksource it finds and puts that one back" {
	need_switchable
	other=$(tr ' ' '\n' <"$CS/available_clocksource" | grep -vx "$orig_cs" | grep . | head -1)
	echo "$other" >"$CS/current_clocksource"
	run v --destructive --check 'clocksource-switch/clock-gettime-monotonic/syscall' --duration 0.5
	now=$(cat "$CS/current_clocksource")
	echo "$orig_cs" >"$CS/current_clocksource"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$now" = "$other" ]
	[[ "$output" == *"went $other -> "*" -> $other "*"; restored current_clocksource $other"* ]]
}

@test "clocksource-switch: SIGKILL of the measuring process: verify restores and reports it" {
	need_switchable
	"$CLOCKBENCH" verify --destructive --check 'clocksource-switch/clock-gettime-monotonic/vdso' --duration 60 >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
	verify=$!
	wait_for child_of "$verify" >/dev/null
	child=$(child_of "$verify")
	# Kill it while the clocksource is switched away.
	wait_for grep -qvx "$orig_cs" "$CS/current_clocksource"
	kill -KILL "$child"
	wait "$verify" || status=$?
	cat "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 1 ]
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
	grep -q "^not ok 1 clocksource-switch/clock-gettime-monotonic/vdso: error: the measuring process was killed by signal 9 (Killed); restored current_clocksource $orig_cs" "$BATS_TEST_TMPDIR/out"
}

@test "clocksource-switch: SIGKILL of verify itself: the measuring process restores and exits" {
	need_switchable
	# A duration of its own, to tell its processes from any other verify's.
	dur=59.$$
	"$CLOCKBENCH" verify --destructive --check 'clocksource-switch/clock-gettime-monotonic/vdso' --duration "$dur" >/dev/null 2>&1 3>&- &
	verify=$!
	wait_for child_of "$verify" >/dev/null
	child=$(child_of "$verify")
	wait_for grep -qvx "$orig_cs" "$CS/current_clocksource"
	kill -KILL "$verify"
	wait "$verify" || true
	# The child notices its supervisor died, leaves, and a restorer puts
	# the clocksource back once every thread of it is gone.
	wait_for gone "$child"
	wait_for grep -qx "$orig_cs" "$CS/current_clocksource"
	# Nothing of it is left running (the restorer included), and the
	# clocksource is the one it found.
	wait_for none_running "clocksource-switch/clock-gettime-monotonic/vdso --duration $dur"
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
}

@test "freq-step: MONOTONIC follows +-250 ppm steps and never goes back; adjtimex restored" {
	need_root
	run v --destructive --check freq-step --duration 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(adjtimex_state)" = "$orig_tx" ]
	read -r freq tick st <<<"$orig_tx"
	for p in vdso libc syscall; do
		[[ "$output" =~ ok\ [0-9]+\ freq-step/clock-gettime-monotonic/$p:\ MONOTONIC\'s\ rate\ against\ MONOTONIC_RAW\ moved\ \+2[45][0-9.]+\ ppm\ for\ a\ \+250\ ppm\ step,\ -2[45][0-9.]+\ ppm\ for\ a\ -250\ ppm\ step\ \(error\ at\ most\ 0\.[0-9]+\ ppm,\ limit\ 1\ ppm\)\;\ [0-9]+\ reads\ during\ the\ steps,\ largest\ backward\ step\ 0\ ns\;\ changed\ the\ adjtimex\ frequency\ .*\ and\ back\;\ restored\ adjtimex\ frequency\ .*\ tick\ $tick\ us ]]
	done
}

@test "freq-step: a step injected into the vDSO fails it" {
	need_root
	CLOCKBENCH_FAULT=vdso-clock-back-1ms-every-1000 run v --destructive --check 'freq-step/*/vdso' --duration 1
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" =~ not\ ok\ 1\ freq-step/clock-gettime-monotonic/vdso:\ .*went\ backwards\ by\ up\ to\ 9[0-9]{5}\ ns\;\ changed\ the\ adjtimex\ frequency\ and\ back\;\ restored\ adjtimex ]]
	[ "$(adjtimex_state)" = "$orig_tx" ]
}

@test "freq-step: SIGKILL of the measuring process, then of verify: adjtimex restored both times" {
	need_root
	dur=6.1$$
	"$CLOCKBENCH" verify --destructive --check 'freq-step/*/syscall' --duration "$dur" >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
	verify=$!
	wait_for child_of "$verify" >/dev/null
	child=$(child_of "$verify")
	wait_for freq_stepped
	kill -KILL "$child"
	wait "$verify" || status=$?
	cat "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 1 ]
	[ "$(adjtimex_state)" = "$orig_tx" ]
	grep -q "^not ok 1 freq-step/clock-gettime-monotonic/syscall: error: the measuring process was killed by signal 9 (Killed); restored adjtimex frequency .* (found +250.000 ppm, tick .*, put back)" "$BATS_TEST_TMPDIR/out"

	dur=6.2$$
	"$CLOCKBENCH" verify --destructive --check 'freq-step/*/syscall' --duration "$dur" >/dev/null 2>&1 3>&- &
	verify=$!
	wait_for child_of "$verify" >/dev/null
	child=$(child_of "$verify")
	wait_for freq_stepped
	kill -KILL "$verify"
	wait "$verify" || true
	wait_for gone "$child"
	wait_for none_running "freq-step/\*/syscall --duration $dur"
	[ "$(adjtimex_state)" = "$orig_tx" ]
}

@test "clocksource-switch and freq-step skip with the reason when unprivileged, with --destructive or without" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv(1) not installed"
	"${NOBODY[@]}" test -x "$CLOCKBENCH" || skip "the build directory is not reachable by nobody"
	run "${NOBODY[@]}" "$CLOCKBENCH" verify --check clocksource-switch --check freq-step
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"ok 1 clocksource-switch/clock-gettime-monotonic/vdso # SKIP changes machine-wide state: run with --destructive"* ]]
	run "${NOBODY[@]}" "$CLOCKBENCH" verify --destructive --check clocksource-switch --check freq-step
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"ok 1 clocksource-switch/clock-gettime-monotonic/vdso # SKIP switching the clocksource needs root ($CS/current_clocksource: EACCES)"* ]]
	[[ "$output" == *"ok 10 freq-step/clock-gettime-monotonic/vdso # SKIP stepping the adjtimex frequency needs root (CAP_SYS_TIME): EPERM"* ]]
	[ "$(cat "$CS/current_clocksource")" = "$orig_cs" ]
	[ "$(adjtimex_state)" = "$orig_tx" ]
}
