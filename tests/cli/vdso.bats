#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench vdso: listing, JSON, --dump, --file and the error paths.
# $CLOCKBENCH is the binary under test.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	: "${CLOCKBENCH:?set CLOCKBENCH to the clockbench binary}"
	DATA="${CLOCKBENCH_TEST_DATA:-$BATS_TEST_DIRNAME/../data}"
	unset CLOCKBENCH_NO_VDSO
}

# The length of this shell's [vdso] mapping; the same for every process.
vdso_mapping_length() {
	local range lo hi
	range=$(grep '\[vdso\]' /proc/self/maps | cut -d' ' -f1)
	lo=${range%-*}
	hi=${range#*-}
	echo $((16#$hi - 16#$lo))
}

has_vdso() {
	grep -q '\[vdso\]' /proc/self/maps
}

@test "vdso lists __vdso_clock_gettime with version LINUX_2.6 on x86_64 and i386" {
	has_vdso || skip "no vDSO in this process"
	run -0 "$CLOCKBENCH" vdso
	[[ "$output" =~ __vdso_clock_gettime\ +LINUX_2\.6\ +0x[0-9a-f]+\ +[0-9]+\ +func ]]
	[[ "$output" =~ Expected\ names\ for\ (x86_64|i386)\ \(version\ LINUX_2\.6\) ]]
	[[ "$output" =~ __vdso_clock_gettime\ +resolves ]]
}

@test "vdso --file reads every architecture's image, whatever the build's" {
	for spec in x86_64:__vdso_clock_gettime@LINUX_2.6 i386:__vdso_clock_gettime64@LINUX_2.6 \
		    arm64:__kernel_clock_gettime@LINUX_2.6.39 armhf:__vdso_clock_gettime64@LINUX_2.6 \
		    s390x:__kernel_clock_gettime@LINUX_2.6.29 riscv64:__vdso_clock_gettime@LINUX_4.15 \
		    ppc64el:__kernel_clock_gettime@LINUX_2.6.15 powerpc:__kernel_clock_gettime64@LINUX_2.6.15; do
		arch=${spec%%:*} sym=${spec#*:}
		run -0 "$CLOCKBENCH" vdso --file "$DATA/vdso-$arch.so"
		[[ "$output" =~ ${sym%@*}\ +${sym#*@}\ +0x[0-9a-f]+\ +[0-9]+\ +func ]]
	done
}

@test "vdso --dump writes exactly the [vdso] mapping and --file reads it back" {
	has_vdso || skip "no vDSO in this process"
	local dump="$BATS_TEST_TMPDIR/vdso.so"
	run -0 "$CLOCKBENCH" vdso --dump "$dump"
	[ -z "$output" ]
	[ "$(stat -c %s "$dump")" -eq "$(vdso_mapping_length)" ]
	head -c 4 "$dump" | od -An -c | grep -q 'E   L   F'
	run -0 "$CLOCKBENCH" vdso --file "$dump"
	[[ "$output" == "$dump: $(stat -c %s "$dump") bytes"* ]]
	# The live listing and the dump's list the same symbols.
	diff <("$CLOCKBENCH" vdso | sed -n '/^SYMBOL/,/^$/p') \
	     <("$CLOCKBENCH" vdso --file "$dump" | sed -n '/^SYMBOL/,/^$/p')
}

@test "vdso --file reads the x86_64 fixture" {
	run -0 "$CLOCKBENCH" vdso --file "$DATA/vdso-x86_64.so"
	[[ "$output" =~ __vdso_getrandom\ +LINUX_2\.6\ +0xf40\ +947\ +func ]]
	[[ "$output" =~ clock_gettime\ +LINUX_2\.6\ +0xaf0\ +902\ +func\ \(weak\) ]]
}

@test "vdso --format json is valid JSON with base, length, arch and symbols" {
	has_vdso || skip "no vDSO in this process"
	run -0 "$CLOCKBENCH" vdso --format json
	echo "$output" | python3 -m json.tool >/dev/null
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["base"].startswith("0x"), d["base"]
assert d["length"] > 0 and d["length"] % 4096 == 0, d["length"]
assert d["arch"], d
assert d["symbols"] and all({"name", "version", "offset", "size", "type"} <= s.keys() for s in d["symbols"])
assert all(e["resolves"] in (True, False) for e in d["expected"])
'
}

@test "vdso --format json --file on the fixture names the x86_64 symbols" {
	run -0 "$CLOCKBENCH" vdso --format json --file "$DATA/vdso-x86_64.so"
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["base"] is None and d["length"] == 8192 and d["arch"] == "x86_64", d
names = {s["name"]: s for s in d["symbols"]}
assert names["__vdso_clock_gettime"]["offset"] == 0xaf0, names
assert names["__vdso_clock_gettime"]["version"] == "LINUX_2.6"
assert all(e["resolves"] for e in d["expected"]), d["expected"]
'
}

@test "vdso with an unknown option exits 2 naming it" {
	run -2 --separate-stderr "$CLOCKBENCH" vdso --bogus
	[[ "$stderr" == *"unknown option '--bogus'"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
}

@test "vdso with an unknown format or an extra argument exits 2" {
	run -2 --separate-stderr "$CLOCKBENCH" vdso --format xml
	[[ "$stderr" == *"unknown format 'xml'"* ]]
	run -2 --separate-stderr "$CLOCKBENCH" vdso extra
	[[ "$stderr" == *"unexpected argument 'extra'"* ]]
	run -2 --separate-stderr "$CLOCKBENCH" vdso --file
	[[ "$stderr" == *"'--file' needs a value"* ]]
}

@test "vdso --help prints the usage and exits 0" {
	run -0 "$CLOCKBENCH" vdso --help
	[[ "$output" == "usage: clockbench vdso"* ]]
	[[ "$output" == *"--dump FILE"* ]]
}

@test "vdso --file /etc/passwd fails naming the problem" {
	run -1 --separate-stderr "$CLOCKBENCH" vdso --file /etc/passwd
	[[ "$stderr" == *"/etc/passwd: not an ELF image: bad magic"* ]]
	[ -z "$output" ]
}

@test "vdso --file on a truncated dump fails naming the truncation" {
	head -c 4000 "$DATA/vdso-x86_64.so" >"$BATS_TEST_TMPDIR/cut.so"
	run -1 --separate-stderr "$CLOCKBENCH" vdso --file "$BATS_TEST_TMPDIR/cut.so"
	[[ "$stderr" == *"truncated: section header table ends at 0x1a40, image is 0xfa0 bytes"* ]]
}

@test "vdso --file on a missing file fails with the system's reason" {
	run -1 --separate-stderr "$CLOCKBENCH" vdso --file "$BATS_TEST_TMPDIR/none.so"
	[[ "$stderr" == *"none.so: No such file or directory"* ]]
}

@test "CLOCKBENCH_NO_VDSO=1 makes vdso fail with the reason" {
	CLOCKBENCH_NO_VDSO=1 run -1 --separate-stderr "$CLOCKBENCH" vdso
	[[ "$stderr" == *"no vDSO: disabled by CLOCKBENCH_NO_VDSO"* ]]
	CLOCKBENCH_NO_VDSO=1 run -1 --separate-stderr "$CLOCKBENCH" vdso --dump "$BATS_TEST_TMPDIR/x.so"
	[[ "$stderr" == *"cannot dump: no vDSO: disabled by CLOCKBENCH_NO_VDSO"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x.so" ]
	# --file does not need a vDSO.
	CLOCKBENCH_NO_VDSO=1 run -0 "$CLOCKBENCH" vdso --file "$DATA/vdso-x86_64.so"
}

@test "vdso --dump into a missing directory fails cleanly" {
	has_vdso || skip "no vDSO in this process"
	run -1 --separate-stderr "$CLOCKBENCH" vdso --dump /nonexistent/dir/x
	[[ "$stderr" == *"cannot write /nonexistent/dir/x: No such file or directory"* ]]
	[ -z "$output" ]
}

@test "vdso --dump still writes an image that does not parse, with a warning" {
	head -c 4000 "$DATA/vdso-x86_64.so" >"$BATS_TEST_TMPDIR/cut.so"
	run -0 --separate-stderr "$CLOCKBENCH" vdso --file "$BATS_TEST_TMPDIR/cut.so" \
		--dump "$BATS_TEST_TMPDIR/copy.so"
	[[ "$stderr" == *"warning: "*"truncated"*"writing it anyway"* ]]
	cmp "$BATS_TEST_TMPDIR/cut.so" "$BATS_TEST_TMPDIR/copy.so"
}
