#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Output lost is an error: every command writing to a full device (/dev/full
# fails every write with ENOSPC) exits non-zero and says so, whatever its
# format. main checks stdout once after every command (as git does).

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[ -w /dev/full ] || skip "no /dev/full"
	private_store
	"$CLOCKBENCH" import "$CLOCKBENCH_TEST_DATA/export-small.json" >/dev/null 2>&1
}

# The command's stdout on /dev/full: a non-zero exit and the reason on
# stderr.  run_devfull ARGS...
run_devfull() {
	run --separate-stderr bash -c '"$@" >/dev/full' devfull "$CLOCKBENCH" "$@"
	[ "$status" -ne 0 ] || { echo "exit 0: $stderr"; return 1; }
	[[ "$stderr" == *"No space left on device"* ]] || { echo "status $status: $stderr"; return 1; }
}

@test "--version, --help and help: a write error" {
	run_devfull --version
	run_devfull --help
	run_devfull help bench
	run_devfull bench --help
}

@test "doctor, table and json: a write error, not exit 0" {
	run_devfull doctor --no-save
	run_devfull doctor --no-save --format json
}

@test "vdso, table and json: a write error" {
	run_devfull vdso
	run_devfull vdso --format json
}

@test "bench in every format: a write error" {
	for fmt in table json csv tap; do
		run_devfull bench --no-save --quick --api time --path libc --format "$fmt"
	done
}

@test "verify: a write error" {
	run_devfull verify --check bracket/clock-gettime-monotonic/vdso
	run_devfull verify --check bracket/clock-gettime-monotonic/vdso --format json
}

@test "runs, show, export, compare, report: a write error" {
	run_devfull runs
	run_devfull runs --format json
	run_devfull show 2
	run_devfull show --format json 2
	run_devfull export 2
	run_devfull export --format csv 2
	run_devfull compare 2 2
	run_devfull report --format mail 2
}

@test "exec, scale and ab: a write error" {
	run_devfull exec --no-save -n 2 true
	run_devfull exec --no-save -n 2 --format json true
	run_devfull scale --no-save --threads 2 --calls 1000 --repetitions 2
	run_devfull ab --no-save --cpus 0,1 --quick --api time --path libc --repetitions 2
}

@test "a command that also fails keeps its own status" {
	# A usage error prints nothing on stdout: still 2, no write error.
	run --separate-stderr bash -c '"$@" >/dev/full' devfull "$CLOCKBENCH" show --no-such-option
	[ "$status" -eq 2 ]
	[[ "$stderr" != *"No space left"* ]]
}

@test "stdout closed from the start: no error where nothing was written, one where it was" {
	run --separate-stderr bash -c '"$1" import "$2" >&-' _ "$CLOCKBENCH" \
		"$CLOCKBENCH_TEST_DATA/export-small.json"
	[ "$status" -eq 0 ] || { echo "status $status: $stderr"; return 1; }
	run --separate-stderr bash -c '"$1" --version >&-' _ "$CLOCKBENCH"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"write error on standard output"* ]]
}
