#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The command dispatcher: version, help, and usage errors.

load helpers

@test "--version names the tool and version" {
	run "$CLOCKBENCH" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^clockbench\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "--help lists every command" {
	run "$CLOCKBENCH" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"bench "* ]]
	[[ "$output" == *"vdso "* ]]
	[[ "$output" == *"help "* ]]
}

@test "no command is a usage error" {
	run "$CLOCKBENCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: clockbench"* ]]
}

@test "an unknown command exits 2 and names it" {
	run "$CLOCKBENCH" frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'frobnicate'"* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "help COMMAND prints that command's --help" {
	for cmd in bench vdso help; do
		run "$CLOCKBENCH" help "$cmd"
		[ "$status" -eq 0 ]
		help_text="$output"
		run "$CLOCKBENCH" "$cmd" --help
		[ "$status" -eq 0 ]
		[ "$output" = "$help_text" ]
		[[ "$output" == "usage: clockbench $cmd"* ]]
	done
}

@test "help of an unknown command exits 2" {
	run "$CLOCKBENCH" help nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'nosuch'"* ]]
}

@test "every command has a man page, listed in clockbench(1)" {
	man="$BATS_TEST_DIRNAME/../../man"
	cmds=$("$CLOCKBENCH" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
	[ -n "$cmds" ]
	for cmd in $cmds; do
		[ "$cmd" = help ] && continue
		[ -f "$man/clockbench-$cmd.1" ]
		grep -q "^\.BR clockbench-$cmd (1)" "$man/clockbench.1"
		grep -q "'clockbench-$cmd.1'" "$man/meson.build"
	done
}

@test "every command answers --help with its usage" {
	cmds=$("$CLOCKBENCH" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
	for cmd in $cmds; do
		run "$CLOCKBENCH" "$cmd" --help
		[ "$status" -eq 0 ]
		[[ "${lines[0]}" == "usage: clockbench $cmd"* ]]
	done
}

@test "no help, message, man page or README speaks of the seed tables by number" {
	# "seed 000" is the project's shorthand for a mailing-list thread: a
	# reader is told which thread (the time-namespace series, the CPU
	# hotplug latency thread), not a number that means nothing to them.
	local src="$BATS_TEST_DIRNAME/../.."
	cmds=$("$CLOCKBENCH" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
	for cmd in $cmds; do
		run "$CLOCKBENCH" "$cmd" --help
		[[ "$output" != *"seed 0"[0-9][0-9]* ]] || { echo "$cmd --help: $output"; return 1; }
	done
	# Every message the binary can print, help or not.
	run grep -ac 'seed 0[0-9][0-9]' "$CLOCKBENCH"
	[ "$output" = 0 ]
	run grep -Eil 'seeds? 0[0-9][0-9]|\(seed:|seed thread' "$src"/man/*.1 "$src/README.md"
	[ "$output" = "" ]
}

@test "every option a command takes is in its man page" {
	man="$BATS_TEST_DIRNAME/../../man"
	cmds=$("$CLOCKBENCH" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
	for cmd in $cmds; do
		[ "$cmd" = help ] && continue
		run "$CLOCKBENCH" "$cmd" --list-options
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -gt 0 ]
		for opt in "${lines[@]}"; do
			# groff escapes every '-' of an option name: \-\-no\-save.
			grep -qF -- "${opt//-/\\-}" "$man/clockbench-$cmd.1" ||
				{ echo "$cmd: $opt is not in clockbench-$cmd.1"; return 1; }
		done
	done
}

@test "a usage error is one line naming the option, exit 2, for every command" {
	cmds=$("$CLOCKBENCH" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
	for cmd in $cmds; do
		usage_error "unknown option '--no-such-option' (see 'clockbench $cmd --help')" \
			"$cmd" --no-such-option
	done
	usage_error "option '--db' needs a value" runs --db
	usage_error "option '--list' takes no value" bench --list=yes
	usage_error "unknown option '-Z'" rm -Z 1
}

# Issue 30: a mistyped name gets the nearest valid one, as git suggests.
@test "a mistyped option, choice, api, clock or path is answered with the nearest name" {
	usage_error "unknown option '--rouns'; did you mean '--rounds'?" bench --rouns 5
	usage_error "unknown style 'mmtest' (table, mmtests, ratio, summary, ministat, changes); did you mean 'mmtests'?" \
		compare --style mmtest 1 2
	usage_error "unknown api 'clock_gettim' in --api; did you mean 'clock_gettime'?" bench --api clock_gettim
	usage_error "unknown clock 'monotnic' in --clock; did you mean 'monotonic'?" bench --clock monotnic
	usage_error "unknown path 'vsdo' in --path (vdso, libc, syscall); did you mean 'vdso'?" bench --path vsdo
	usage_error "unknown format 'jsn' (table, json, csv, tap); did you mean 'json'?" bench --format jsn
	# Nothing near: no guess.
	run cb bench --frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" != *"did you mean"* ]]
}

@test "a mistyped command is answered with the nearest one, in help too" {
	usage_error "unknown command 'bnech'; did you mean 'bench'? (see 'clockbench --help')" bnech
	usage_error "unknown command 'compar'; did you mean 'compare'?" help compar
	run cb xyz
	[ "$status" -eq 2 ]
	[[ "$output" != *"did you mean"* ]]
}
