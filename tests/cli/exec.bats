#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench exec: timing whole commands, saving and comparing the runs,
# the shell only when asked, --prepare, failures and bad input; several
# commands and parameter lists alternated and compared paired, and every
# run's disturbance.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store "$T"
}

@test "exec -n 20 -- true: wall, user and sys with statistics, saved" {
	run cb exec -n 20 -- true
	[ "$status" -eq 0 ]
	[[ "$output" == *"# clockbench exec: true"* ]]
	[[ "$output" =~ wall\ +20\ +[0-9]+\.[0-9]+\ +[0-9]+\.[0-9]+\ +\[ ]]
	[[ "$output" =~ user\ +20\  ]]
	[[ "$output" =~ sys\ +20\  ]]
	[[ "$output" == *"saved run 1 to $CLOCKBENCH_DB"* ]]
	run --separate-stderr cb export --format json 1
	[ "$status" -eq 0 ]
	jq -e '.runs[0] | .command == "exec" and (.cells | map(.name) == ["wall", "user", "sys"])
		and (.cells | all(.unit == "s" and (.samples | length) == 20))
		and .config.command == ["true"] and .config.shell == false' <<<"$output"
}

@test "exec and show print a saved run's table line for line (issue 20)" {
	run --separate-stderr cb exec -n 7 -- true
	[ "$status" -eq 0 ]
	table=$(sed -n '/^time (/,$p' <<<"$output")
	[ "$(wc -l <<<"$table")" -eq 4 ]
	run cb show 1
	[ "$status" -eq 0 ]
	diff <(echo "$table") <(sed -n '/^time (/,$p' <<<"$output")
}

@test "json: the figures, every run's times and the command line" {
	run --separate-stderr cb exec -n 5 --warmup 2 --format json --no-save -- sleep 0.01
	[ "$status" -eq 0 ]
	jq -e '.completed == 5 and .unit == "s" and .wall.n == 5
		and (.times.wall | length) == 5
		and .wall.min >= 0.01 and .wall.median >= .wall.min
		and .config.command == ["sleep", "0.01"] and .config.warmup == 2' <<<"$output"
}

@test "-n 3: the median's interval says its real coverage, and JSON gives no 95 % CI" {
	run --separate-stderr cb exec -n 3 --no-save -- true
	[ "$status" -eq 0 ]
	grep -qE '^wall +3 +[0-9.]+ +[0-9.]+  \[[0-9.]+, [0-9.]+\] 75% ' <<<"$output"
	run --separate-stderr cb exec -n 3 --no-save --format json -- true
	[ "$status" -eq 0 ]
	jq -e '.wall.median_ci95 == null and .wall.median_ci_coverage == 0.75' <<<"$output"
	run --separate-stderr cb exec -n 6 --no-save -- true
	grep -qE '^wall +6 +[0-9.]+ +[0-9.]+  \[[0-9.]+, [0-9.]+\] +[0-9.]+ ' <<<"$output"
}

@test "3 runs against 3 measured together: Student's t on the logs reaches a verdict where ranks cannot" {
	# The times are set, not measured: on a busy machine one `sleep 0.01`
	# took 0.4 s (waiting for a CPU), and 3 against 3 then had no verdict
	# about one run in twenty. What is tested is compare's choice on an
	# exec run's three samples: the run is exec's own, its figures given,
	# both sides named as one invocation's (as `exec -c A -c B` does).
	cb exec -n 3 --label measured -- true 2>/dev/null >/dev/null
	cb export --format json measured >"$T/run.json"
	for side in fast3:0.010,0.011,0.012:1 slow3:0.100,0.104,0.108:2; do
		IFS=: read -r label samples n <<<"$side"
		jq --arg l "$label" --argjson x "[$samples]" --arg u "0b7c3f1e-0000-4000-8000-00000000000$n" \
			'.runs[0] |= (.uuid = $u | .label = $l | .config.interleave = "i3"
				| .cells |= map(.samples = $x))' \
			"$T/run.json" >"$T/$label.json"
		cb import "$T/$label.json" >/dev/null 2>&1
	done
	run --separate-stderr cb compare --format json fast3 slow3
	[ "$status" -eq 0 ]
	jq -e '.cells[] | select(.name == "wall") | .vs_base[0]
		| .test == "student-t-log" and .df == 4 and .verdict == "worse"' <<<"$output"
}

@test "user and system time are the command's own" {
	run --separate-stderr cb exec -n 3 --format json --no-save -- sh -c \
		'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
	[ "$status" -eq 0 ]
	# A busy shell loop: CPU time, nearly all of its wall time. The bound is
	# on sums over the runs, never on medians: the median of user plus the
	# median of sys is no run's CPU time (one run's tick falls to user, the
	# next run's to sys), and that sum of medians exceeded the median wall
	# time about one run in ten. What the kernel guarantees is per run:
	# user + sys is the child's sum_exec_runtime split by cputime_adjust(),
	# which cannot exceed the time between the spawn and the reap.
	jq -e '([.times.user, .times.sys] | transpose | map(add)) as $cpu
		| ($cpu | add) > 0.03
		and ($cpu | add) <= (.times.wall | add) * 1.05
		and ($cpu | length) == 3' <<<"$output"
}

# Issue 30: two separate `exec -n 30 true` runs, judged on their samples by
# Mann-Whitney, came out worse (+6 %) or better (-31 %) in 2 A/A trials of
# 10: the drift between runs is in neither run's samples. One run against
# one is judged by a history of runs like the base, as bench's are.
@test "two separate exec runs: the change, a verdict only with a history of the same command" {
	cb exec -n 15 --label fast -- true 2>/dev/null >/dev/null
	# sleep 0.1 lasts 0.1 s or more; `true` would have to take more than
	# 0.05 s in half of its runs for the change to fall below +100 %.
	cb exec -n 15 --label slow -- sleep 0.1 2>/dev/null >/dev/null
	run cb compare fast slow
	[ "$status" -eq 0 ]
	# Seconds, shown in the unit that reads (JSON keeps seconds).
	[[ "$output" =~ metric:\ (s|ms|us), ]]
	[[ "$output" =~ wall\  ]]
	[[ "$output" == *"clockbench exec -c A -c B"* ]]
	run --separate-stderr cb compare --format json fast slow
	[ "$status" -eq 0 ]
	jq -e '.metric == "seconds" and (.cells | map(.name) | index("wall") != null)' <<<"$output"
	jq -e '.cells[] | select(.name == "wall") | .vs_base[0]
		| (.significant | not) and .verdict == "few" and .change_pct > 100
		  and .spread_unknown and .change_ci95_pct[0] == null
		  and (.reason | startswith("one run against one"))' <<<"$output"
	# Runs of another command are no history for `true`: still none.
	for i in 1 2 3 4; do cb exec -n 5 -- sleep 0 2>/dev/null >/dev/null; done
	run --separate-stderr cb compare --format json fast slow
	jq -e '.cells[] | select(.name == "wall") | .vs_base[0].verdict == "few"' <<<"$output"
	# Four more runs of `true`: the spread between runs is known.
	for i in 1 2 3 4; do cb exec -n 15 -- true 2>/dev/null >/dev/null; done
	run --separate-stderr cb compare --format json fast slow
	[ "$status" -eq 0 ]
	jq -e '.cells[] | select(.name == "wall") | .vs_base[0]
		| .test == "student-t-history" and .significant and .verdict == "worse"
		  and .change_pct > 100 and (.reason | test("^adjusted p .*, below 0.05, and its 95 % CI clears the 1 % floor$"))' <<<"$output"
}

@test "a command that does not exist: exit 2, nothing saved" {
	run cb exec -n 3 -- clockbench-no-such-command --flag
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"command not found: clockbench-no-such-command"* ]]
	[ ! -e "$CLOCKBENCH_DB" ]
	run cb exec -- /nonexistent/dir/prog
	[ "$status" -eq 2 ]
	[[ "$output" == *"command not found: /nonexistent/dir/prog"* ]]
}

@test "a file that cannot be executed: exit 2" {
	printf '#!/bin/sh\n' >"$T/script"
	chmod 644 "$T/script"
	run cb exec -- "$T/script"
	[ "$status" -eq 2 ]
	[[ "$output" == *"command not executable: $T/script"* ]]
}

@test "no shell unless asked: --shell runs one /bin/sh -c line" {
	run cb exec -n 2 --show-output --no-save -- echo 'a|b' '$HOME'
	[ "$status" -eq 0 ]
	[ "$(grep -c '^a|b \$HOME$' <<<"$output")" -eq 2 ]
	run cb exec -n 3 --shell --show-output --no-save -- 'echo hi | tr h H'
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Hi$' <<<"$output")" -eq 3 ]
	[[ "$output" == *"through /bin/sh -c"* ]]
}

@test "the command's output is discarded by default" {
	run cb exec -n 2 --no-save -- sh -c 'echo visible-out; echo visible-err >&2'
	[ "$status" -eq 0 ]
	# Only the command line in the header shows the words.
	[ "$(grep -c visible <<<"$output")" -eq 1 ]
	[[ "${lines[0]}" == "# clockbench exec: sh -c 'echo visible-out; echo visible-err >&2'" ]]
}

@test "--prepare runs before every run, warm-ups included, untimed" {
	run cb exec -n 4 --warmup 2 --no-save --prepare "echo x >> '$T/prep'" -- true
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/prep")" -eq 6 ]
	# A slow --prepare is not in the times. Timed, it would put every run at
	# 0.2 s or more (sleep's guarantee): the bound is on the fastest run, so
	# one slow `true` on a busy machine cannot fail it, only all three.
	run --separate-stderr cb exec -n 3 --no-save --format json --prepare 'sleep 0.2' -- true
	[ "$status" -eq 0 ]
	jq -e '.wall.min < 0.2' <<<"$output"
}

@test "a failing --prepare stops the run with its status" {
	run cb exec -n 3 --no-save --prepare 'exit 7' -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"the --prepare command 'exit 7' exited with status 7"* ]]
}

@test "a failing command names its status; --ignore-failure times it" {
	run cb exec -n 3 -- false
	[ "$status" -eq 1 ]
	[[ "$output" == *"the command exited with status 1 in run 1; use --ignore-failure"* ]]
	[ ! -e "$CLOCKBENCH_DB" ]
	run cb exec -n 3 --warmup 1 -- sh -c 'kill -9 $$'
	[ "$status" -eq 1 ]
	[[ "$output" == *"was killed by signal 9 (Killed) in warm-up run 1"* ]]
	run cb exec -n 3 -i --no-save -- false
	[ "$status" -eq 0 ]
	[[ "$output" =~ wall\ +3\  ]]
}

@test "SIGTERM stops the runs; the finished ones are reported and saved" {
	# Directly, not through a function: $! must be clockbench itself. fd 3
	# closed, or bats waits for it.
	"$CLOCKBENCH" exec -n 100000 --prepare "echo x >> '$T/count'" -- sleep 0.02 \
		>"$T/out" 2>"$T/err" 3>&- &
	pid=$!
	for _ in $(seq 1000); do
		[ "$(wc -l <"$T/count" 2>/dev/null || echo 0)" -ge 3 ] && break
		sleep 0.01
	done
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	grep -q '^wall ' "$T/out"
	run cb runs
	[[ "$output" == *"exec"*"interrupted"* ]]
}

@test "bad -n, --warmup and other usage errors exit 2 with one line" {
	for bad in 0 -1 abc 1.5 ""; do
		run cb exec -n "$bad" -- true
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"invalid --runs '$bad'"* ]]
	done
	run cb exec --runs 1000001 -- true
	[ "$status" -eq 2 ]
	run cb exec --warmup -1 -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --warmup '-1'"* ]]
	run cb exec -n 3
	[ "$status" -eq 2 ]
	[[ "$output" == *"no command given"* ]]
	run cb exec --bogus -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown option '--bogus'"* ]]
	run cb exec --format xml -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown format 'xml'"* ]]
	run cb exec -n
	[ "$status" -eq 2 ]
	[[ "$output" == *"needs a value"* ]]
	[ ! -e "$CLOCKBENCH_DB" ]
}

@test "options after the command belong to the command" {
	run cb exec -n 2 --show-output --no-save echo -n --label x
	[ "$status" -eq 0 ]
	[[ "$output" == *"--label x--label x"* ]]
}

@test "--help and 'clockbench help exec' print the usage" {
	run cb exec --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench exec"* ]]
	[[ "$output" == *"--prepare"* ]]
	run cb help exec
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench exec"* ]]
}

# Issue 15, 8: the kernel's CPU accounting, as its own config says.
kernel_config() {
	local boot="/boot/config-$(uname -r)"
	if [ -r "$boot" ]; then cat "$boot"
	elif [ -r /proc/config.gz ]; then gzip -dc /proc/config.gz
	fi
}

@test "exec says whether user and sys are tick-sampled, and below which time" {
	local config hz
	config=$(kernel_config)
	run --separate-stderr cb exec -n 3 --no-save -- true
	[ "$status" -eq 0 ]
	if grep -qx 'CONFIG_TICK_CPU_ACCOUNTING=y' <<<"$config"; then
		hz=$(sed -n 's/^CONFIG_HZ=//p' <<<"$config")
		[[ "$output" == *"# user and sys come from tick sampling (CONFIG_TICK_CPU_ACCOUNTING, "*"HZ $hz, CONFIG_HZ in "*"): below "*" of CPU time the split between them is an estimate"* ]]
		run --separate-stderr cb exec -n 3 --no-save --format json -- true
		jq -e --argjson hz "$hz" '.cpu_accounting | .mode == "tick" and .hz == $hz
			and .sampled and (.estimate_below_s - 1 / $hz | fabs) < 1e-9
			and (.mode_inferred | not)' <<<"$output"
	elif [ -z "$config" ]; then
		[[ "$output" == *"# user and sys are probably"* || "$output" == *"# user and sys probably"* ]]
	else
		[[ "$output" == *"# user and sys"* ]]
	fi
	# And it is stored with the run, for show and compare.
	cb exec -n 2 -- true 2>/dev/null >/dev/null
	run cb show --format json 1
	jq -e '.runs[0].config.cpu_accounting.mode != null' <<<"$output"
}

@test "exec times its own harness with an empty static program, started the same way" {
	run --separate-stderr cb exec -n 10 --no-save --format json -- true
	[ "$status" -eq 0 ]
	jq -e '.harness.program | endswith("/clockbench-empty")' <<<"$output"
	jq -e '.harness.what == "clockbench-empty (static, does nothing)" and .harness.wall.n == 10
		and .harness.wall.median > 0 and (.harness.times | length) == 10
		and .config.harness_wall_median_s == .harness.wall.median' <<<"$output"
	run --separate-stderr cb exec -n 2 --no-save -- true
	[[ "$output" == *"# harness: "*" a run, rCV "*"(median of 5 runs of clockbench-empty (static, does nothing), started and reaped as the command is; not subtracted)"* ]]
	# Without it, /bin/true stands in, and says so.
	mkdir "$T/bin"
	cp "$CLOCKBENCH" "$T/bin/clockbench"
	run --separate-stderr "$T/bin/clockbench" exec -n 2 --no-save --format json -- true
	jq -e '.harness.program == "/bin/true" and (.harness.what | contains("not installed"))' <<<"$output"
}

@test "exec finds the program once, not in every run: a PATH change mid-way runs the same file" {
	mkdir "$T/early" "$T/late"
	printf '#!/bin/sh\nexit 0\n' >"$T/late/prog"
	chmod +x "$T/late/prog"
	# Before each run, an earlier PATH entry gets a prog that fails: a
	# PATH walk per run (execvp) would run it.
	PATH="$T/early:$T/late:$PATH" run cb exec -n 3 --no-save \
		--prepare "printf '#!/bin/sh\\nexit 3\\n' >$T/early/prog; chmod +x $T/early/prog" -- prog
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"# 3 runs (0 warm-up), no shell, with --prepare, output discarded; $T/late/prog found once, started by posix_spawn"* ]]
}

# ---- several commands ----------------------------------------------------

@test "-c twice: the runs alternate A B B A, each command saved with its rounds, compared paired" {
	run cb exec -n 3 -c "sh -c 'echo a >> $T/log'" -c "sh -c 'echo b >> $T/log'"
	[ "$status" -eq 0 ]
	[ "$(tr '\n' ' ' <"$T/log")" = "a b b a a b " ]
	[[ "$output" == *"# clockbench exec: 2 commands, 3 of 3 runs each"*"alternated A B B A"* ]]
	[[ "$output" == *"paired round by round (interleaved)"* ]]
	[[ "$output" == *"saved run 1 to"*"saved run 2 to"* ]]
	run --separate-stderr cb export --format json 1 2
	[ "$status" -eq 0 ]
	# Each run its own label, made from one id of this invocation; every
	# cell's samples are the runs in repetition order.
	jq -e '(.runs | map(.label)) as $l
		| ($l[0] | test("^exec-[0-9a-f]{8}-1$")) and $l[1] == ($l[0] | sub("-1$"; "-2"))
		and (.runs | map(.config.interleave) | unique | length) == 1
		and (.runs | all(.cells | map(.name) == ["wall", "user", "sys"]))
		and (.runs | all(.cells | all(.samples_round == [0, 1, 2])))
		and .runs[0].config.command == ["sh", "-c", "echo a >> '"$T"'/log"]' <<<"$output"
	# compare pairs them again: the same interleave id.
	run --separate-stderr cb compare --format json 1 2
	[ "$status" -eq 0 ]
	jq -e '.cells[] | select(.name == "wall") | .vs_base[0].test == "signed-rank-paired"' <<<"$output"
}

@test "two invocations' default labels differ: their runs never pool as replicates" {
	cb exec -n 2 -c true -c 'sleep 0.001' >/dev/null 2>&1
	cb exec -n 2 -c true -c 'sleep 0.001' >/dev/null 2>&1
	run --separate-stderr cb export --format json --all
	[ "$status" -eq 0 ]
	jq -e '(.runs | length) == 4 and (.runs | map(.label) | unique | length) == 4' <<<"$output"
	run cb exec -n 2 --no-save --labels old,new -c true -c 'sleep 0.001'
	[ "$status" -eq 0 ]
	[[ "$output" == *"# old: true"*"# new: sleep 0.001"* ]]
}

@test "a command that is always slower is worse, paired, and --fail-on worse exits 3" {
	# The only chance here: sleep 0.2 lasts 0.2 s or more (guaranteed),
	# so the pair goes the other way only when `true` takes longer than
	# that. Ten pairs all one way give p = 2/1024, far below 0.05 after
	# the correction over three cells, and one pair the other way still
	# would.
	run --separate-stderr cb exec -n 10 --no-save --format json --fail-on worse \
		--labels fast,slow -c true -c 'sleep 0.2'
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"wall"*"slow"*"(worse)"* ]]
	jq -e '.commands | length == 2 and (map(.label) == ["fast", "slow"])
		and (map(.completed) == [10, 10])' <<<"$output"
	jq -e '.comparison.cells[] | select(.name == "wall") | .vs_base[0]
		| .verdict == "worse" and .significant and .change_ci95_pct[0] > 0' <<<"$output"
	# Without --fail-on, the same finding is no failure.
	run --separate-stderr cb exec -n 3 --no-save --labels fast,slow -c true -c 'sleep 0.05'
	[ "$status" -eq 0 ]
}

@test "--order random --seed: every command once per repetition, the same order again" {
	for i in 1 2; do
		cb exec -n 6 --no-save --order random --seed 7 -c "sh -c 'echo a >> $T/log$i'" \
			-c "sh -c 'echo b >> $T/log$i'" -c "sh -c 'echo c >> $T/log$i'" >/dev/null 2>&1
	done
	cmp "$T/log1" "$T/log2"
	# Balanced: each repetition (three lines) holds a, b and c.
	[ "$(paste -d '' - - - <"$T/log1" | grep -cvE '^(abc|acb|bac|bca|cab|cba)$')" -eq 0 ]
	[ "$(wc -l <"$T/log1")" -eq 18 ]
	# Not the A B B A order of ab (with 6 repetitions, a shuffle giving it
	# exactly would be a 1 in 6^6 coincidence of seed 7; the order is fixed).
	[ "$(paste -d '' - - - <"$T/log1" | tr '\n' ' ')" != "abc cba abc cba abc cba " ]
	run cb exec -n 2 --no-save --order random --seed 7 -c true -c false -i
	[[ "$output" == *"in a shuffled order, seed 7"* ]]
}

@test "-c splits as sh would and runs without a shell; what needs one is refused" {
	run cb exec -n 2 --no-save --show-output -c "printf '<%s>' 'a b' \"c \\\"d\\\"\" e\\ f" -c true
	[ "$status" -eq 0 ]
	[[ "$output" == *'<a b><c "d"><e f><a b><c "d"><e f>'* ]]
	usage_error "cannot split -c 'ls | wc': '|' needs a shell" exec -c 'ls | wc' -c true
	usage_error "unterminated ' quote" exec -c "echo 'x" -c true
	usage_error "command not found: clockbench-no-such" exec -c true -c 'clockbench-no-such x'
	usage_error "give the command after -- or with -c, not both" exec -c true -- true
	usage_error "--labels names 1 commands, there are 2" exec --labels a -c true -c false
	usage_error "--label names one run" exec --label a -c true -c false
	usage_error "two commands are labelled 'a'" exec --labels a,a -c true -c false
	usage_error "2 --prepare commands for 3 commands" exec -p true -p true -c true -c true -c true
	usage_error "--command: the command is empty" exec -c true -c ''
	usage_error "--prepare: the command is empty" exec -p '' -c true -c false
	usage_error "--fail-on compares several commands" exec --fail-on worse -- true
	usage_error "at most 1000 runs of each" exec -n 1001 -c true -c false
	usage_error "-n 1: several commands are compared over 2 runs each at least" \
		exec -n 1 -c true -c false
}

@test "--prepare per command, and the failing command named by its label" {
	run cb exec -n 2 --no-save -p "echo A >> '$T/p'" -p "echo B >> '$T/p'" -c true -c true
	[ "$status" -eq 0 ]
	[ "$(tr '\n' ' ' <"$T/p")" = "A B B A " ]
	run cb exec -n 2 --no-save --labels ok,bad -c true -c false
	[ "$status" -eq 1 ]
	[[ "$output" == *"the command (bad) exited with status 1 in run 1"* ]]
}

# ---- parameter lists -------------------------------------------------------

@test "-L: one command per value, substituted for {NAME}, with its table" {
	run cb exec -n 2 -L v=1,2,3 -c "sh -c 'echo {v} >> $T/log'"
	[ "$status" -eq 0 ]
	[ "$(sort -u "$T/log" | tr '\n' ' ')" = "1 2 3 " ]
	[ "$(wc -l <"$T/log")" -eq 6 ]
	grep -qE '^wall \(.*\) +v +n +min +median' <<<"$output"
	grep -qE '^exec-[0-9a-f]{8}-v=2 +2 +2 ' <<<"$output"
	run --separate-stderr cb export --format json --all
	jq -e '.runs | map(.config.value) == ["1", "2", "3"] and all(.config.parameter == "v")' <<<"$output"
	usage_error "no {n} in the command 'true'" exec -L n=1,2 -c true
	usage_error "invalid -L 'x': expected NAME=V1,V2" exec -L x -c true
	usage_error "one -L or -P per run" exec -L a=1 -P b=1..2 -c 'echo {a}'
	usage_error "a value cannot hold control characters" exec -L "a=1,$(printf 'x\033[2J')" \
		-c 'echo {a}'
}

@test "-P NAME=LO..HI..STEP: the integers, and a value is data, never shell code" {
	run cb exec -n 2 --no-save -P n=1..5..2 -c "sh -c 'echo {n} >> $T/log'"
	[ "$status" -eq 0 ]
	[ "$(tr '\n' ' ' <"$T/log")" = "1 3 5 5 3 1 " ]
	usage_error "invalid -P 'n=3..1'" exec -P n=3..1 -c 'echo {n}'
	usage_error "invalid -P 'n=1..4..0'" exec -P n=1..4..0 -c 'echo {n}'
}

@test "a value stays data wherever {v} stands: a literal word without a shell, refused in a shell line" {
	cd "$T"
	values=('$(touch pwned)' '`touch pwned`' "'; touch pwned; '" '"; touch pwned; "'
		'a b' 'x;touch pwned' '*' '\' '~' '#x' 'a|touch pwned' '$HOME')
	templates=('printf %s {v}' "printf %s '{v}'" 'printf %s "{v}"' 'printf %s x{v}y')
	for v in "${values[@]}"; do
		for t in "${templates[@]}"; do
			# No shell: one literal word, printed as given.
			run cb exec -n 1 --no-save --show-output -L "v=$v" -c "$t"
			if [ "$status" -eq 0 ]; then
				[[ "$output" == *"$v"* ]] || { echo "$t | $v: $output"; false; }
			else
				# The template itself needs a shell (a quote the value
				# closed is no concern of a literal word): a usage error.
				[ "$status" -eq 2 ]
			fi
			# A shell line, the command's or the prepare's: refused, naming it.
			for where in --shell -p; do
				if [ "$where" = -p ]; then
					args=(-p "$t" -c "true {v}")
				else
					args=(--shell -c "$t")
				fi
				run cb exec -n 1 --no-save -L "v=$v" "${args[@]}"
				[ "$status" -eq 2 ] || { echo "$where $t | $v: $status $output"; false; }
				[[ "$output" == *"the value '"*"' holds '"*"', which a shell reads as code or a blank: in ${where/-p/--prepare} a value is pasted into the line as it is"* ]]
			done
		done
	done
	[ ! -e pwned ]
	# A plain word works in every place, quoted or not.
	for t in "${templates[@]}"; do
		run cb exec -n 2 --no-save --show-output --shell -L 'v=a-1.5,b_2/x' -c "$t"
		[ "$status" -eq 0 ]
		[[ "$output" == *"a-1.5"* && "$output" == *"b_2/x"* ]]
	done
	# A newline ends a command in a shell: without one it is refused.
	usage_error "a newline separates commands in a shell: give one -c per command" \
		exec -n 2 -c $'echo a\ntouch pwned' -c true
	[ ! -e pwned ]
}

# ---- disturbance -------------------------------------------------------------

@test "every run's disturbance is kept, printed and saved" {
	run --separate-stderr cb exec -n 4 --format json -- true
	[ "$status" -eq 0 ]
	jq -e '.disturbance.runs | (.involuntary | length) == 4
		and (.voluntary | length) == 4 and (.runnable | length) == 4
		and (.runnable | all(. == null or . >= 0))
		and (.involuntary | all(. >= 0)) and (.wait_ms | length) == 4
		and (.wait_ms | all(. == null or . >= 0))' <<<"$output"
	run cb exec -n 4 -- true
	[[ "$output" == *"# disturbance, median run: "*" of 4 runs disturbed far beyond the others"* ]]
	run --separate-stderr cb export --format json 2
	jq -e '.runs[0].quality.machine | has("runnable_median") and has("steal_pct")
		and has("wait_pct")' <<<"$output"
}

@test "compare says when the runs' machines differed, whatever the number of cells" {
	cb exec -n 3 --label quiet -- true >/dev/null 2>&1
	cb export --format json quiet >"$T/one.json"
	# The same run on a machine with twice the runnable tasks and three
	# more: another uuid and label, the rest as measured.
	jq '.runs[0] |= (.uuid = "0b7c3f1e-0000-4000-8000-000000000001" | .label = "busy"
		| .quality.machine.runnable_median |= . * 2 + 3)' \
		"$T/one.json" >"$T/busy.json"
	cb import "$T/busy.json" >/dev/null 2>&1
	run cb compare quiet busy
	[ "$status" -eq 0 ]
	[[ "$output" == *"WARNING: the machine differed between the base and busy (load "* ]]
	run --separate-stderr cb compare --format json quiet busy
	jq -e '.groups[1].machine_difference | test("^load ")' <<<"$output"
}

# Issue 30: seed 003's shape, offline then online, timed by exec. Alternated
# A B B A, half the runs found the state already changed (no-ops): said.
# In order (--order sequence) every run changes the state. A file stands in
# for the CPU: no CPU is taken offline here.
@test "commands that change a state: the order dependence is named, --order sequence runs them in order" {
	local state="$BATS_TEST_TMPDIR/offline"
	local off="if [ ! -e '$state' ]; then sleep 0.05; touch '$state'; fi"
	local on="if [ -e '$state' ]; then sleep 0.05; rm '$state'; fi"
	run --separate-stderr cb exec --no-save -n 10 --shell -c "$off" -c "$on" --labels off,on
	[ "$status" -eq 0 ]
	echo "$stderr"
	[[ "$stderr" == *"its runs depend on the order"*"--order sequence"* ||
	   "$stderr" == *"the wall times fall into two groups"*"--order sequence"* ]]
	rm -f "$state"
	run --separate-stderr cb exec --no-save -n 10 --shell -c "$off" -c "$on" --labels off,on \
		--order sequence
	[ "$status" -eq 0 ]
	[[ "$output" == *"alternated in the order given (A B, A B, ...)"* ]]
	[[ "$stderr" != *"depend on the order"* ]]
	usage_error "unknown order 'sequnce' (abba, random, sequence); did you mean 'sequence'?" \
		exec --order sequnce -- true
	# One command that undoes itself every other run: two groups, named.
	# The sleep keeps the groups apart on a loaded machine: a run of rm
	# took 7-21 ms beside 66-87 ms for sleep 0.05 with two builds running.
	rm -f "$state"
	run --separate-stderr cb exec --no-save -n 10 --shell -- \
		"if [ -e '$state' ]; then rm '$state'; else sleep 0.3; touch '$state'; fi"
	[ "$status" -eq 0 ]
	echo "$stderr"
	# Five runs of each, but where the groups part is the machine's: a
	# loaded one has slowed an rm into the sleeps' group (4 and 6 seen).
	[[ "$stderr" =~ the\ wall\ times\ fall\ into\ two\ groups,\ ([0-9]+)\ from\ [^\ ]+\ to\ [^\ ]+\ ms\ and\ ([0-9]+)\ from\ [^\ ]+\ to\ [^\ ]+\ ms:\ one\ summary ]]
	# In the unit of the table above it, not "0.00782 s".
	[ $((BASH_REMATCH[1] + BASH_REMATCH[2])) -eq 10 ]
}
