#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One --format vocabulary: table, json, csv, tap, markdown (and report's
# html, mail), the same word for the same form in every command; "text",
# the old name of table in ab, compare and timens, still read.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	private_store
	cb import "$CLOCKBENCH_TEST_DATA/export-small.json" >/dev/null 2>&1
}

# Every command with a --format and the formats its help lists.
commands_with_format() {
	local c
	for c in bench verify doctor runs show export compare report scale timens \
		hotplug exec ab vdso; do
		cb "$c" --list-options | grep -qx -- --format && echo "$c"
	done
}

@test "compare --format table is compare's text, and text is still read" {
	run cb compare --format table 2 2
	[ "$status" -eq 0 ]
	table=$output
	run cb compare --format text 2 2
	[ "$status" -eq 0 ]
	[ "$output" = "$table" ]
	run cb compare 2 2
	[ "$output" = "$table" ]
}

@test "ab and timens take --format table (a bad value names the vocabulary's words)" {
	usage_error "unknown format 'pdf' (table, json)" ab --cpus 0,1 --format pdf
	usage_error "unknown format 'pdf' (table, json, tap)" timens --format pdf
	usage_error "unknown format 'pdf' (table, json, csv, markdown, tap)" compare --format pdf 2 2
}

@test "every --format help names only words of the vocabulary, table not text" {
	local c line n=0
	for c in $(commands_with_format); do
		line=$(cb "$c" --help | grep -- '--format FMT')
		[[ ! "$line" =~ FMT\ +text ]] || { echo "$c: $line"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 14 ]
}

@test "the man pages say table, not text, for --format" {
	local man="$CLOCKBENCH_TEST_DATA/../../man"
	[ -d "$man" ] || skip "no man pages beside the tests"
	run grep -A1 -- '-format " fmt"' "$man"/clockbench-*.1
	[[ "$output" != *"text (default"* ]]
}

@test "text is read as table only where table is a format" {
	usage_error "unknown format 'text' (json, csv)" export --format text 2
	run cb show --format text 2
	[ "$status" -eq 0 ]
	[ "$output" = "$(cb show --format table 2)" ]
}
