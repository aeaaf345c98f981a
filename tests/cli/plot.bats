#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench plot: every kind drawn by gnuplot from real runs made here
# (bench, scale, exec, timens and hotplug as root), the SVG parsed by
# xmllint and holding its series, the PNG a valid PNG of the size asked
# for, the script and data that draw it again; and bad input, each a
# one-line error with nothing left at the output path.

bats_require_minimum_version 1.5.0

load helpers

SYS=/sys/devices/system/cpu

setup_file() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
	cb bench --quick --api clock_gettime,time --clock monotonic,realtime-coarse \
		--label before >/dev/null 2>&1
	cb bench --quick --api clock_gettime,time --clock monotonic,realtime-coarse \
		--label after >/dev/null 2>&1
	cb scale --threads 2,4,8 --calls 20000 --repetitions 3 --label sc >/dev/null 2>&1
	cb exec -n 6 --label ex -- true >/dev/null 2>&1
	if [ "$(id -u)" -eq 0 ]; then
		cb timens --quick --clock monotonic,monotonic-coarse \
			--host-label host --timens-label timens >/dev/null 2>&1 || true
	fi
}

setup() {
	T="$BATS_TEST_TMPDIR"
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
}

teardown() {
	if [ -n "${HOTPLUG_LOCKED:-}" ]; then
		if [ -w "$SYS/cpu1/online" ] && [ "$(cat "$SYS/cpu1/online")" = 0 ]; then
			echo 1 >"$SYS/cpu1/online"
		fi
		machine_unlock
	fi
}

# The text of every <text> element of an SVG, one per line.
svg_texts() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
for e in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text"):
    t = "".join(e.itertext()).strip()
    if t:
        print(t)' "$1"
}

# How many series (plot clauses that drew something) an SVG holds.
svg_series() {
	xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')])" "$1"
}

# "WIDTH HEIGHT" of a PNG, or nothing when it is not one.
png_size() {
	python3 - "$1" <<-'EOF'
	import struct, sys, zlib
	data = open(sys.argv[1], 'rb').read()
	if data[:8] != b'\x89PNG\r\n\x1a\n' or data[12:16] != b'IHDR':
	    sys.exit(1)
	length, = struct.unpack('>I', data[8:12])
	if zlib.crc32(data[12:16 + length]) != struct.unpack('>I', data[16 + length:20 + length])[0]:
	    sys.exit(1)
	if b'IEND' not in data[-12:]:
	    sys.exit(1)
	print(*struct.unpack('>II', data[16:24]))
	EOF
}

# draw KIND OUT RUN...: plot, which must succeed and say what it wrote.
draw() {
	local kind=$1 out=$2
	shift 2
	run cb plot --kind "$kind" -o "$out" "$@"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; return 1; }
	[ "$output" = "wrote $out; to draw it again: cd $(dirname "$out") && gnuplot ./$(basename "${out%.*}").gp" ]
	xmllint --noout "$out"
}

# Every line of "want" must be one of the SVG's texts.
has_texts() {
	local svg=$1 want
	shift
	svg_texts "$svg" >"$svg.texts"
	for want in "$@"; do
		grep -qxF -- "$want" "$svg.texts" || { echo "no text '$want' in $svg"; return 1; }
	done
}

@test "cells: one bar per path with CI whiskers, ns and cycles panels, titled with kernel, host and label" {
	draw cells "$T/cells.svg" before
	kernel=$(uname -r)
	has_texts "$T/cells.svg" vdso libc syscall clock-gettime-monotonic \
		clock-gettime-realtime-coarse time
	grep -q "kernel $kernel" "$T/cells.svg.texts"
	grep -q "label before" "$T/cells.svg.texts"
	grep -q "ns per call (log scale)" "$T/cells.svg.texts"
	grep -q "TSC ticks per call\|cycles per call" "$T/cells.svg.texts"
	# Per panel and path: bars, whiskers, values.
	[ "$(svg_series "$T/cells.svg")" -ge 12 ]
	[ -s "$T/cells.gp" ] && [ -s "$T/cells.dat" ]
}

@test "distribution: a histogram per cell with the tail bar and the median marked" {
	draw distribution "$T/dist.svg" before --cell 'clock-gettime-monotonic/*'
	has_texts "$T/dist.svg" "clock-gettime-monotonic vdso" "clock-gettime-monotonic libc" \
		"clock-gettime-monotonic syscall" ">p99" "samples (log)"
	[ "$(grep -c "realtime-coarse" "$T/dist.svg.texts")" -eq 0 ]
	# The median with its CI, then the share above p99: one line, or two
	# where the panel is narrow.
	grep -qE "^median [0-9.e+-]+ \[[0-9.e+-]+, [0-9.e+-]+\]" "$T/dist.svg.texts"
	grep -qE "(^| · )[0-9.]+ % > [0-9.e+-]+, max " "$T/dist.svg.texts"
	# Histogram and tail of each of the three cells.
	[ "$(svg_series "$T/dist.svg")" -eq 6 ]
}

@test "distribution: several runs share the bins, one outline each" {
	draw distribution "$T/dist2.svg" before after --cell 'time/vdso'
	svg_texts "$T/dist2.svg" >"$T/texts"
	# Each run by its label (one run each), not by its id in the store.
	grep -qx "before" "$T/texts"
	grep -qx "after" "$T/texts"
	run grep -c "#[0-9]" "$T/texts"
	[ "$output" = 0 ]
	[ "$(svg_series "$T/dist2.svg")" -eq 4 ]
}

@test "rounds: each cell's round medians, the median of the cells, one panel per run" {
	draw rounds "$T/rounds.svg" before after
	has_texts "$T/rounds.svg" "median of the cells" vdso libc syscall
	[ "$(svg_texts "$T/rounds.svg" | grep -c ": 9 cells, 5 rounds$")" -eq 2 ]
	grep -q "round median against the cell median (%)" "$T/rounds.svg.texts"
}

@test "rounds: a scale run is drawn by repetition; exec keeps no rounds" {
	draw rounds "$T/reps.svg" sc
	svg_texts "$T/reps.svg" | grep -q ": 6 cells, 3 rounds$"
	usage_error "cannot draw kind rounds: run" plot --kind rounds -o "$T/x.svg" ex
}

@test "scale: seconds against threads, one line per run, a panel per API" {
	draw scale "$T/scale.svg" sc
	has_texts "$T/scale.svg" "times(), libc" "clock_gettime(process-cputime), libc" \
		"threads sharing the calls" 2 4 8
	grep -q "seconds for 20000 calls" "$T/scale.svg.texts"
	# Band and line per panel.
	[ "$(svg_series "$T/scale.svg")" -eq 4 ]
}

@test "compare: a forest plot, a panel per other group, verdicts in the key" {
	draw compare "$T/forest.svg" before after
	has_texts "$T/forest.svg" "noise floor" "clock-gettime-monotonic vdso" "time libc"
	grep -q "against before (1 run), kernel .*: geomean [-+]" "$T/forest.svg.texts"
	grep -q "change (%), 95 % CI; lower is faster" "$T/forest.svg.texts"
	grep -qxE "~|worse|better|noisy|few" "$T/forest.svg.texts"
}

@test "timens: host against namespace, and the change; one side is enough" {
	[ "$(id -u)" -eq 0 ] || skip "clockbench timens needs root"
	run cb runs --label host --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq length)" -ge 1 ] || skip "timens did not run here"
	draw timens "$T/timens.svg" host
	has_texts "$T/timens.svg" host "time namespace" "noise floor" \
		"clock-gettime-monotonic vdso" "clock-gettime-monotonic-coarse syscall" \
		"in the namespace: change per call"
	# Without --kind, a timens run draws its own kind.
	run cb plot -o "$T/own.svg" timens
	[ "$status" -eq 0 ]
	has_texts "$T/own.svg" "in the namespace: change per call" "time namespace"
}

@test "hotplug: latency per cycle and the states as numbered stacked bars" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to take a CPU offline"
	[ -w "$SYS/cpu1/online" ] || skip "CPU 1 is not hot-pluggable here"
	machine_lock
	HOTPLUG_LOCKED=1
	[ "$(cat "$SYS/cpu1/online")" = 1 ] || skip "CPU 1 is offline"
	run cb hotplug --cpu 1 --cycles 3 --label hp
	[ "$status" -eq 0 ]
	draw hotplug "$T/hotplug.svg" hp
	has_texts "$T/hotplug.svg" "offline hp" \
		"latency of each transition, in cycle order" "ms (wall)" "cycle"
	svg_texts "$T/hotplug.svg" | grep -qx "offline, hp"
	svg_texts "$T/hotplug.svg" | grep -qx "online, hp"
}

# Run 'before' again under label $1, its samples times $2, as a run of its own.
relabelled_copy() {
	cb export before | jq --arg l "$1" --argjson f "$2" --arg u "$(python3 -c 'import uuid; print(uuid.uuid4())')" \
		'.runs[0] |= (.uuid = $u | .label = $l
		| .cells |= map(if .samples then .samples |= map(. * $f) else . end))' \
		>"$T/copy.json"
	cb import "$T/copy.json" >/dev/null
}

@test "long labels: letters in the panels, each label named once in full, every line inside the picture" {
	export CLOCKBENCH_DB="$T/long.db"
	cb bench --quick --api clock_gettime,time --clock monotonic --label before >/dev/null 2>&1
	a=debian-6.1.0-57-cloud-amd64-hpet-clocksource-boot
	b=debian-6.12.38-cloud-amd64-tsc-clocksource-boot-of-the-fix
	relabelled_copy "$a" 1.0
	relabelled_copy "$a" 1.01
	relabelled_copy "$b" 0.9
	for kind in compare cells distribution rounds; do
		draw "$kind" "$T/$kind.svg" "$a" "$b"
		svg_texts "$T/$kind.svg" >"$T/$kind.texts"
		grep -qx "A: $a (2 runs)" "$T/$kind.texts"
		grep -qx "B: $b" "$T/$kind.texts"
		# Once each: the legend; no panel title, key or tic repeats them.
		[ "$(grep -c -- "$a" "$T/$kind.texts")" -eq 1 ]
		[ "$(grep -c -- "$b" "$T/$kind.texts")" -eq 1 ]
		# At 1200 px, no line of text past 131 characters (13 points).
		[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/$kind.texts")" -le 131 ]
	done
	grep -q "^B (1 run), kernel .* against A (2 runs), kernel .*: geomean [-+]" "$T/compare.texts"
	grep -qx "A (2 runs)" "$T/distribution.texts"
}

@test "PNG output is a valid PNG of the size asked for" {
	run cb plot --kind cells --size 900x700 -o "$T/cells.png" before
	[ "$status" -eq 0 ]
	[ "$(png_size "$T/cells.png")" = "900 700" ]
	run cb plot --kind scale -o "$T/scale.png" sc
	[ "$status" -eq 0 ]
	size=$(png_size "$T/scale.png")
	[ "${size% *}" -eq 1200 ]
	[ "${size#* }" -gt 300 ]
}

@test "the script and data left beside the picture draw it again" {
	draw compare "$T/again.svg" before after
	mv "$T/again.svg" "$T/first.svg"
	(cd "$T" && gnuplot again.gp)
	cmp "$T/first.svg" "$T/again.svg"
	grep -q '^if (!exists("cb_data")) cb_data = "again.dat"$' "$T/again.gp"
	grep -q "^# index 0: " "$T/again.dat"
}

@test "without --kind: a bench run gets cells, two groups compare, scale its curves" {
	cd "$T"
	id=$(cb runs --label before --format json | jq '.[0].id')
	run cb plot before
	[ "$status" -eq 0 ]
	[ -s "clockbench-cells-$id.svg" ]
	run cb plot before after
	[ "$status" -eq 0 ]
	[ -s "clockbench-compare-$id.svg" ]
	run cb plot sc
	[ "$status" -eq 0 ]
	ls clockbench-scale-*.svg
}

# Nothing at all in directory $1: no picture, script, data or temporary file.
empty_dir() {
	[ -z "$(ls -A "$1")" ] || { ls -la "$1"; return 1; }
}

@test "a kind the run cannot give: exit 2, one line saying why, nothing written" {
	mkdir "$T/out"
	usage_error "cannot draw kind hotplug: run" plot --kind hotplug -o "$T/out/x.svg" before
	[[ "$output" == *"is a bench run: kind hotplug draws clockbench hotplug runs"* ]]
	usage_error "cannot draw kind scale" plot --kind scale -o "$T/out/x.svg" before
	usage_error "cannot draw kind compare: it compares BASE with OTHER" plot --kind compare \
		-o "$T/out/x.svg" before
	usage_error "cannot draw kind timens" plot --kind timens -o "$T/out/x.svg" before
	usage_error "cannot draw kind cells: run" plot --kind cells -o "$T/out/x.svg" sc
	usage_error "no matching cells" plot --kind cells --cell 'nothing*' -o "$T/out/x.svg" before
	empty_dir "$T/out"
}

@test "bad options: exit 2, one line" {
	usage_error "-o '$T/x.jpg': the picture must end in .svg or .png" plot -o "$T/x.jpg" before
	usage_error "unknown kind 'pie'" plot --kind pie before
	usage_error "invalid --size '12x'" plot --size 12x before
	usage_error "invalid --size '50x50'" plot --size 50x50 before
	usage_error "no run given" plot
}

@test "no such run: one line, exit 1, nothing written" {
	mkdir "$T/out"
	run cb plot -o "$T/out/x.svg" 99999
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no run or label '99999'"* ]]
	empty_dir "$T/out"
}

@test "an output that cannot be written: one line, exit 1, nothing left behind" {
	run cb plot -o /nonexistent/x.svg before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"cannot write in /nonexistent: No such file or directory"* ]]
	touch "$T/file"
	run cb plot -o "$T/file/x.svg" before
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot write in $T/file: not a directory"* ]]
	mkdir -p "$T/out/x.svg"
	run cb plot -o "$T/out/x.svg" before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"cannot write $T/out/x.svg: Is a directory"* ]]
	[ "$(ls -A "$T/out")" = x.svg ]
	empty_dir "$T/out/x.svg"
}

@test "an existing picture is replaced whole, never truncated by a failed draw" {
	mkdir "$T/out"
	echo keep >"$T/out/x.svg"
	run env PATH=/nonexistent "$CLOCKBENCH" plot -o "$T/out/x.svg" before
	[ "$status" -eq 1 ]
	[ "$(cat "$T/out/x.svg")" = keep ]
	[ "$(ls -A "$T/out")" = x.svg ]
	draw cells "$T/out/x.svg" before
	[ "$(ls -A "$T/out" | tr '\n' ' ')" = "x.dat x.gp x.svg " ]
}

@test "gnuplot missing: one line naming the package, exit 1, nothing written" {
	mkdir "$T/out"
	run env PATH=/nonexistent "$CLOCKBENCH" plot -o "$T/out/x.svg" before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"gnuplot not found in PATH: install it (Debian: apt-get install gnuplot-nox)"* ]]
	empty_dir "$T/out"
}

@test "gnuplot failing: its error in one line, nothing written" {
	mkdir "$T/out" "$T/bin"
	printf '#!/bin/sh\necho "\\"x.gp\\" line 3: something broke" >&2\nexit 1\n' >"$T/bin/gnuplot"
	chmod +x "$T/bin/gnuplot"
	run env PATH="$T/bin" "$CLOCKBENCH" plot -o "$T/out/x.svg" before
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *'gnuplot failed: "x.gp" line 3: something broke'* ]]
	empty_dir "$T/out"
}

@test "show --histogram: ten bins and the tail under every measured cell" {
	run cb show --histogram before
	[ "$status" -eq 0 ]
	cells=$(cb show --format json before | jq '[.runs[0].cells[] | select(.summary)] | length')
	[ "$cells" -ge 6 ]
	[ "$(grep -c ' above p99, to the maximum$' <<<"$output")" -eq "$cells" ]
	[ "$(grep -cE '^ +[0-9.e+]+ \.\. [0-9.e+]+ +\|#* +[0-9]+' <<<"$output")" -eq $((11 * cells)) ]
	# Every sample is counted once per cell.
	n=$(cb show --format json before | jq '.runs[0].cells[0].n')
	sum=$(awk '/^(clock|time)/ { c++ } c == 1 && /\|/ { split($0, a, "|"); split(a[2], b, " "); s += b[2] } END { print s }' <<<"$output")
	[ "$sum" -eq "$n" ]
	usage_error "--histogram goes with the table" show --histogram --format json before
}

@test "compare --style ministat: ministat's plot per cell, legend, A and M" {
	run cb compare --style ministat before after
	[ "$status" -eq 0 ]
	blocks=$(grep -c "^    N " <<<"$output")
	[ "$blocks" -ge 6 ]
	[ "$(grep -c '^x before$' <<<"$output")" -eq "$blocks" ]
	[ "$(grep -c '^+ after$' <<<"$output")" -eq "$blocks" ]
	[ "$(grep -cxE '\+-{74}\+' <<<"$output")" -eq $((2 * blocks)) ]
	# Two spread lines per block, each with its mean (or median over it).
	[ "$(grep -cxE '\|[ _|AM]*[AM][ _|AM]*\|' <<<"$output")" -eq $((2 * blocks)) ]
	[ "$(grep -E '^\|[ x+*]*\|$' <<<"$output" | grep -c '[x+*]')" -ge "$blocks" ]
}
