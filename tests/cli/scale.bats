#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench scale: thread scaling (seed 001), idle threads, saved runs that
# compare renders as mmtests does, and bad input.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	private_store
}

# A point's figure from the JSON: cell name, thread count, jq path.
point() { # json name threads path
	jq -r --arg n "$2" --argjson t "$3" \
		".cells[] | select(.name == \$n) | .points[] | select(.threads == \$t) | $4" <<<"$1"
}

idle_point() { # json name idle-threads path
	jq -r --arg n "$2" --argjson t "$3" \
		".cells[] | select(.name == \$n) | .points[] | select(.idle_threads == \$t) | $4" <<<"$1"
}


@test "help names the mmtests series and the options" {
	run "$CLOCKBENCH" scale --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench scale"* ]]
	[[ "$output" == *"large-stride"* ]]
	[[ "$output" == *"--idle-threads"* ]]
	run "$CLOCKBENCH" help scale
	[ "$status" -eq 0 ]
	[[ "$output" == *"--repetitions N"* ]]
}

@test "--list: poundtime's two calls through libc by default" {
	run "$CLOCKBENCH" scale --list
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^clock-gettime-process-cputime\ +libc\ +runs$ ]]
	[[ "${lines[1]}" =~ ^times\ +libc\ +runs$ ]]
}

@test "--list: a cell bench runs but threads cannot share says why, as bench's list says" {
	vdso_exports getrandom || skip "this vDSO has no getrandom"
	run "$CLOCKBENCH" scale --list --api getrandom --path vdso,libc
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^getrandom\ +vdso\ +n/a:\ the\ vDSO\ getrandom\ state\ is\ per\ thread$ ]]
	[[ "${lines[1]}" =~ ^getrandom\ +libc\ +runs$ ]]
}

@test "a small run: a table per api with a row per thread count" {
	run "$CLOCKBENCH" scale --threads 1,2,4 --calls 200000 --repetitions 2 --no-save
	[ "$status" -eq 0 ]
	[[ "$output" == *"200000 calls of each cell shared by N threads, 2 repetitions; threads: 1 2 4"* ]]
	[[ "$output" == *"times (libc)"* ]]
	[[ "$output" == *"clock-gettime-process-cputime (libc)"* ]]
	# Six figures and n = 2 on each of the three rows of each table; two
	# repetitions allow no 95 % CI of the median, so none is printed.
	[ "$(grep -cE '^ +[124] +[0-9.]+ +- +- +[0-9.]+ +[-+][0-9.]+% +[0-9.]+ +[0-9.]+ +[0-9.]+ +2$' <<<"$output")" -eq 6 ]
	[[ "$output" == *"its 95% CI ('-' when too few for 95%); rCV%: their robust CV"* ]]
}

# Issue 15, 8: what the threads' user and sys figures are worth.
@test "scale says whether user-s and sys-s are tick-sampled, in the table, JSON and run" {
	run "$CLOCKBENCH" scale --threads 1,2 --calls 20000 --repetitions 2 --no-save
	[ "$status" -eq 0 ]
	grep -qE '^# user-s, sys-s \(the threads. sums\): user and sys (probably )?(come from tick sampling|are (probably )?measured)' <<<"$output"
	run "$CLOCKBENCH" scale --threads 1,2 --calls 20000 --repetitions 2 --no-save --format json
	jq -e '.cpu_accounting | (.mode | IN("tick", "virt-gen", "virt-native")) and .hz > 0' <<<"$output"
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/r.db"
	"$CLOCKBENCH" scale --threads 1,2 --calls 20000 --repetitions 2 >/dev/null 2>&1
	run "$CLOCKBENCH" show --format json 1
	jq -e '.runs[0].config.cpu_accounting.hz > 0' <<<"$output"
}

@test "json: every point with its repetitions and statistics" {
	run "$CLOCKBENCH" scale --threads 1,2,4 --calls 200000 --repetitions 2 --no-save --format json
	[ "$status" -eq 0 ]
	jq -e '.command == "scale" and .mode == "threads" and .calls == 200000
		and .repetitions == 2 and .threads == [1, 2, 4] and .ncpus >= 1
		and (.environment.kernel_release | length > 0)' <<<"$output"
	jq -e '.cells | length == 2' <<<"$output"
	jq -e '[.cells[].points[] | .n == 2 and (.samples | length == 2)
		and .elapsed_s.median > 0 and .ns_per_call.median > 0
		and (.user_s.median + .sys_s.median) > 0
		and .elapsed_s.median_ci95 == null and .elapsed_s.median_ci_coverage == 0.5
		and (.elapsed_s.robust_cv_pct | type == "number")] | all' <<<"$output"
	[ "$(point "$output" times 4 .calls_per_thread)" -eq 50000 ]
	[ "$(point "$output" times 1 .calls_per_thread)" -eq 200000 ]
}

@test "the process CPU clock and times() cost more with more threads" {
	# 512 threads make every call walk 256 times more threads than 2 do
	# (5 to 25 ns each on the machines seen): several times the CPU per
	# call (256 threads made it only 2.5 times here: too near the bound).
	# Not the wall time: on a loaded machine the many threads take a larger
	# share of the CPUs than 2 do, and finished first with 4 CPU hogs beside.
	run "$CLOCKBENCH" scale --threads 2,512 --calls 100000 --repetitions 3 --no-save --format json
	[ "$status" -eq 0 ]
	for cell in times clock-gettime-process-cputime; do
		few=$(point "$output" "$cell" 2 .ns_per_call.median)
		many=$(point "$output" "$cell" 512 .ns_per_call.median)
		greater "$many" "$(awk -v x="$few" 'BEGIN { print 2 * x }')"
	done
}

@test "csv: a row per cell and thread count" {
	run "$CLOCKBENCH" scale --threads 2,3 --calls 80000 --repetitions 1 --no-save --format csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "name,api,clock,path,threads,n,elapsed_s_median,elapsed_s_ci95_lo,elapsed_s_ci95_hi,elapsed_robust_cv_pct,ns_per_call_median,user_s_median,sys_s_median" ]
	[ "${#lines[@]}" -eq 5 ]
	[[ "${lines[1]}" == clock-gettime-process-cputime,clock_gettime,process-cputime,libc,2,1,* ]]
	[[ "${lines[4]}" == times,times,,libc,3,1,* ]]
}

@test "any catalog cell: --api, --clock and --path as bench takes them" {
	run "$CLOCKBENCH" scale --api clock_gettime --clock monotonic --path vdso,syscall \
		--threads 2 --calls 80000 --repetitions 1 --no-save --format json
	[ "$status" -eq 0 ]
	jq -e '[.cells[] | .name + " " + .path] == ["clock-gettime-monotonic vdso", "clock-gettime-monotonic syscall"]' <<<"$output"
}

@test "the saved run: elapsed seconds per repetition, with rounds" {
	run "$CLOCKBENCH" scale --threads 2,4 --calls 80000 --repetitions 3 --label poundtime --format json
	[ "$status" -eq 0 ]
	run "$CLOCKBENCH" export poundtime
	[ "$status" -eq 0 ]
	jq -e '.runs | length == 1' <<<"$output"
	jq -e '.runs[0].command == "scale" and .runs[0].label == "poundtime"' <<<"$output"
	jq -e '[.runs[0].cells[].name] == ["clock-gettime-process-cputime-threads-2",
		"clock-gettime-process-cputime-threads-4", "times-threads-2", "times-threads-4"]' <<<"$output"
	jq -e '[.runs[0].cells[] | .unit == "s" and .path == "libc" and (.samples | length == 3)
		and .samples_round == [0, 1, 2] and .batch_calls == 80000] | all' <<<"$output"
	jq -e '.runs[0].config.calls == 80000 and .runs[0].config.repetitions == 3
		and (.runs[0].config.cpu_time | length == 4)' <<<"$output"
}

@test "every repetition's disturbance is kept, printed and saved" {
	run "$CLOCKBENCH" scale --threads 2 --calls 20000 --repetitions 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"# disturbance, median repetition: "*" of 3 repetitions disturbed far beyond the others"* ]]
	run --separate-stderr "$CLOCKBENCH" export --format json 1
	[ "$status" -eq 0 ]
	jq -e '.runs[0].quality | (.runs.involuntary | length) == 3
		and (.runs.runnable | length) == 3 and (.runs.involuntary | all(. >= 0))
		and (.machine | has("runnable_median") and has("steal_pct"))' <<<"$output"
	run --separate-stderr "$CLOCKBENCH" scale --threads 2 --calls 20000 --repetitions 2 \
		--no-save --format json
	jq -e '.disturbance.runs.involuntary | length == 2' <<<"$output"
}

@test "compare --style mmtests prints seed 001's table from two runs" {
	for label in before after; do
		run "$CLOCKBENCH" scale --threads 2,5 --calls 80000 --repetitions 3 --label "$label"
		[ "$status" -eq 0 ]
	done
	run "$CLOCKBENCH" compare --style mmtests before after
	[ "$status" -eq 0 ]
	[[ "$output" == *"Percentages refer to before, negative = worse"* ]]
	# As mmtests prints poundtime: a block per API, a row per thread
	# count, "median  2  2.27 ( 0.00%)  3.73 * -64.71%*" or "( -1.20%)".
	grep -qx 'times libc' <<<"$output"
	grep -qx 'clock-gettime-process-cputime libc' <<<"$output"
	grep -qE '^median +2 +[0-9]+\.[0-9]{2,6} \( +0\.00%\) +[0-9]+\.[0-9]{2,6} (\( *-?[0-9]+\.[0-9]{2}%\)|\* +-?[0-9]+\.[0-9]{2}%\*)$' <<<"$output"
	[ "$(grep -cE '^median +5 ' <<<"$output")" -eq 2 ]
	[[ "$output" != *"-threads-"* ]]
}

# Issue 20: --idle-threads timed 10 us batches whatever the counter's step;
# bench lengthens them for it (30 us where the clock steps by 10 ns).
@test "--idle-threads: batches sized by the counter's step, as bench sizes them" {
	"$CLOCKBENCH" bench --quick --api clock_gettime --clock monotonic --path vdso >/dev/null 2>&1
	"$CLOCKBENCH" scale --idle-threads 0,1 --api clock_gettime --clock monotonic \
		--path vdso --budget 0.05 >/dev/null 2>&1
	run "$CLOCKBENCH" export --all
	[ "$status" -eq 0 ]
	jq -e '.runs | length == 2 and .[0].config.method.target_batch_ns as $bench
		| .[1].config.target_batch_ns > $bench / 2' <<<"$output"
	jq -e '.runs[0].config.method.target_batch_ns as $bench | [.runs[1].cells[]
		| .batch_calls * (.samples | sort | .[length / 2 | floor]) > 0.4 * $bench] | all' <<<"$output"
}

@test "--idle-threads: each idle thread adds to the cost of a call" {
	run --separate-stderr "$CLOCKBENCH" scale --idle-threads 128 --budget 0.1 --format json --label idle
	[ "$status" -eq 0 ]
	[[ "$stderr" == "saved run "* ]]
	jq -e '.mode == "idle" and .idle_threads == [0, 128] and (.cpu | type == "number")' <<<"$output"
	jq -e '([.cells[].points[] | .core_cycles.median > 0] | all)
		and (.quality.rounds | length == 10) and .core_cycles.source != "none"' <<<"$output"
	for cell in times clock-gettime-process-cputime; do
		# 5 to 25 ns per idle thread on the machines seen so far; 1 leaves room
		# for noise and still fails when idle threads cost nothing.
		per_thread=$(idle_point "$output" "$cell" 128 .ns_per_idle_thread)
		greater "$per_thread" 1
		[ "$(idle_point "$output" "$cell" 0 .delta_ns)" = null ]
	done
	run "$CLOCKBENCH" export idle
	jq -e '[.runs[0].cells[].name] == ["clock-gettime-process-cputime-idle-0",
		"clock-gettime-process-cputime-idle-128", "times-idle-0", "times-idle-128"]' <<<"$output"
	jq -e '[.runs[0].cells[] | .unit == "ns" and (.samples_round | max) == 9
		and (.samples_core_cycles | length) == (.samples | length)] | all' <<<"$output"
	jq -e '.runs[0].quality.rounds | length == 10' <<<"$output"
}

@test "the idle table shows the cost per idle thread" {
	run "$CLOCKBENCH" scale --idle-threads 0,16 --api times --budget 0.05 --no-save
	[ "$status" -eq 0 ]
	[[ "$output" =~ idle-threads\ +ns/call ]]
	grep -qE '^ +16 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +-?[0-9.]+ +[0-9.]+ +[0-9]+$' <<<"$output"
	[[ "$output" =~ \+ns\ +ns/thread\ +core\ +n$'\n' ]]
	grep -qE '^# warm-up: (steady|not steady) after ' <<<"$output"
	grep -qE '^# quality: .*rounds? ran' <<<"$output"
}

# The cells' blocks: from the first cell's title on (the header above is
# the measurement's, or show's).
blocks_of() { sed -n '/^[a-z][a-z0-9-]* ([a-z]*)$/,$p' <<<"$1"; }

@test "scale and show print a saved run's tables line for line (issue 20)" {
	run "$CLOCKBENCH" scale --threads 1,2 --calls 20000 --repetitions 3 \
		--api times,clock_gettime --clock monotonic
	[ "$status" -eq 0 ]
	scale=$(blocks_of "$output")
	[ "$(grep -c '^times (libc)$' <<<"$scale")" -eq 1 ]
	[ "$(grep -cE '^ +[12] +[0-9.]+ ' <<<"$scale")" -eq 4 ]
	run "$CLOCKBENCH" show 1
	[ "$status" -eq 0 ]
	diff <(echo "$scale") <(blocks_of "$output")
	# Idle threads: intervals widened by the counter's step, kept with the run.
	run "$CLOCKBENCH" scale --idle-threads 0,4 --api clock_gettime --clock monotonic \
		--path vdso,syscall --budget 0.05
	[ "$status" -eq 0 ]
	scale=$(blocks_of "$output")
	[ "$(grep -cE '^ +[04] +[0-9.]+ ' <<<"$scale")" -eq 4 ]
	run "$CLOCKBENCH" show 2
	[ "$status" -eq 0 ]
	diff <(echo "$scale") <(blocks_of "$output")
}

@test "a cell that cannot run is left out with its reason" {
	run "$CLOCKBENCH" scale --api times --path vdso --threads 2 --no-save
	[ "$status" -eq 1 ]
	[[ "$output" == *"times vdso not measured: the kernel's vDSO has no times()"* ]]
	[[ "$output" == *"no cell can run"* ]]
}

bad() { # expected-message args...
	local want="$1"
	shift
	usage_error "$want" scale --no-save "$@"
}

@test "bad input is a usage error naming the value" {
	bad "invalid --threads '0': 0 is out of range (1 to 4096)" --threads 0
	bad "invalid --threads 'abc': 'abc' is not a number" --threads abc
	bad "invalid --threads '16-2': descending range '16-2'" --threads 16-2
	bad "invalid --threads '5000': 5000 is out of range" --threads 5000
	bad "invalid --threads '': empty list" --threads ''
	bad "invalid --repetitions '0'" --repetitions 0
	bad "invalid --repetitions 'x'" --repetitions x
	bad "invalid --calls '0'" --calls 0
	bad "invalid --calls '-5'" --calls -5
	bad "invalid --idle-threads '-1'" --idle-threads -1
	bad "--threads and --idle-threads measure different things" --threads 2 --idle-threads 4
	bad "--cpu and --budget go with --idle-threads" --budget 1
	bad "unknown format 'xml' (table, json, csv)" --format xml
	bad "unknown api 'nope' in --api" --api nope
	bad "unknown clock 'nope' in --clock" --clock nope
	bad "unknown path 'nope' in --path" --path nope
	bad "unknown option '--bogus'" --bogus
	bad "unexpected argument 'extra'" extra
	bad "invalid --label" --label 12
}
