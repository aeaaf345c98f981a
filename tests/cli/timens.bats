#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench timens: host against a new time namespace (seed 000), two saved
# runs, the skip without root or inside a namespace, and bad input.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	private_store
}

needs_timens() {
	[ "$(id -u)" -eq 0 ] || skip "creating a time namespace needs root"
	[ -e /proc/self/ns/time ] || skip "this kernel has no time namespaces"
}

# A short run of two vDSO cells: enough repetitions for a verdict.
quick() { "$CLOCKBENCH" timens --quick --clock monotonic,monotonic-coarse --path vdso "$@"; }

@test "help says what it needs and how it interleaves" {
	run "$CLOCKBENCH" timens --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: clockbench timens"* ]]
	[[ "$output" == *"Needs root"* ]]
	[[ "$output" == *"host, timens, timens,"* ]]
	[[ "$output" == *"--allow-nested"* ]]
	run "$CLOCKBENCH" help timens
	[ "$status" -eq 0 ]
}

@test "--list: the hres and coarse clocks through vdso and syscall" {
	run "$CLOCKBENCH" timens --list
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 14 ]
	[ "$(grep -c ' vdso ' <<<"$output")" -eq 7 ]
	[ "$(grep -c ' syscall ' <<<"$output")" -eq 7 ]
	[[ "$output" =~ clock-gettime-monotonic-coarse\ +vdso\ +runs ]]
	[[ "$output" =~ clock-gettime-boottime\ +syscall\ +runs ]]
}

@test "without root it skips (exit 4) and says why" {
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "setpriv not installed"
		nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
		$nobody test -x "$CLOCKBENCH" || skip "the build directory is not readable by nobody"
		run $nobody "$CLOCKBENCH" timens --no-save
	else
		run "$CLOCKBENCH" timens --no-save
	fi
	[ "$status" -eq 4 ]
	[[ "$output" == *"skip: cannot create a time namespace: "*"EPERM"*"CAP_SYS_ADMIN"* ]]
}

@test "a run prints seed 000's summary with a verdict and saves host and timens" {
	needs_timens
	run quick
	[ "$status" -eq 0 ]
	[[ "$output" == *"namespace offsets: monotonic +10d, boottime +20d"* ]]
	[[ "$output" == *"clock-gettime-monotonic vdso"* ]]
	grep -qE '^ +\| host +\| timens +$' <<<"$output"
	grep -qE '^centre +\| +[0-9.]+ \| +[0-9.]+ $' <<<"$output"
	grep -qE '^diff % +\| +100\.0 \| +[0-9.]+ $' <<<"$output"
	grep -qE '^rCV % +\| +[0-9.]+ \| +[0-9.]+ $' <<<"$output"
	grep -qE '^mde % +\| +- \| +[0-9.]+ $' <<<"$output"
	grep -qE '^verdict +\| base +\| (worse|better|~|noisy) +$' <<<"$output"
	# Judged in core cycles, the difference in ns beside.
	[[ "$output" == *"# at a glance: core cycles per call, centre: median"* ]]
	grep -qE '^clock-gettime-monotonic +vdso +[0-9.]+ +[0-9.]+ +[-+][0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%  (worse|better|~|noisy|few) +[-+][0-9.]+%$' <<<"$output"
	grep -qE '^# host warm-up: (steady|not steady) after [0-9]+ windows' <<<"$output"
	grep -qE '^# timens quality: .*rounds? ran' <<<"$output"
	# Both tables give each side the same spread: compare's robust CV.
	summary=$(awk '/^clock-gettime-monotonic vdso$/ { f = 1 } f && /^rCV %/ { print $4, $6; exit }' <<<"$output")
	glance=$(awk '$1 == "clock-gettime-monotonic" && $2 == "vdso" && NF == 10 { sub("%", "", $6); sub("%", "", $7); print $6, $7 }' <<<"$output")
	[ -n "$summary" ] && [ "$summary" = "$glance" ]
	[ "$(grep -c '^saved run ' <<<"$output")" -eq 2 ]
	# The default labels name this invocation, and the line to compare them.
	grep -qE '^# saved as timens-[0-9a-f]{8}-host, timens-[0-9a-f]{8}-timens: clockbench compare timens-[0-9a-f]{8}-host timens-[0-9a-f]{8}-timens$' <<<"$output"
	read -r host ns < <(sed -n 's/^# saved as \([^,]*\), \([^:]*\):.*/\1 \2/p' <<<"$output")
	[ "${host%-host}" = "${ns%-timens}" ]

	run "$CLOCKBENCH" export "$host"
	[ "$status" -eq 0 ]
	jq -e '.runs | length == 1' <<<"$output"
	jq -e --arg l "$host" '.runs[0] | .command == "timens" and .label == $l
		and .config.side == "host" and .environment.time_namespace.non_root == false' <<<"$output"
	jq -e '[.runs[0].cells[] | .unit == "ns" and .path == "vdso"
		and (.samples_round | min == 0 and max == 19)
		and (.samples_core_cycles | length) == (.samples | length)] | all' <<<"$output"
	jq -e '.runs[0].quality | (.rounds | length == 20) and .warmup.windows >= 1' <<<"$output"
	run "$CLOCKBENCH" export "$ns"
	[ "$status" -eq 0 ]
	jq -e --arg l "$ns" '.runs[0] | .command == "timens" and .label == $l and .config.side == "timens"
		and .environment.time_namespace.non_root == true
		and .environment.time_namespace.offsets.monotonic_s == 864000
		and .environment.time_namespace.offsets.boottime_s == 1728000' <<<"$output"
}

@test "json: medians, robust CV of each side and compare's verdict per cell" {
	needs_timens
	run --separate-stderr quick --format json --monotonic-offset 1h --boottime-offset -60s
	[ "$status" -eq 0 ]
	jq -e '.command == "timens" and .repetitions == 20 and .nested == false
		and .offsets.monotonic_s == 3600 and .offsets.boottime_s == -60
		and .significance_from_compare and .runs.host > 0 and .runs.timens > .runs.host' <<<"$output"
	jq -e '.cells | length == 2' <<<"$output"
	jq -e '.metric == "core-cycles" and (.quality.host.rounds | length == 20)' <<<"$output"
	jq -e '[.cells[] | .host.median_ns > 0 and .timens.median_ns > 0
		and .host.center > 0 and .timens.center > 0 and .host.median > 0
		and (.host.round_robust_cv_pct | type == "number") and (.timens.round_robust_cv_pct | type == "number")
		and (.host.median_ci95 | length == 2) and .host.median_ci_coverage >= 0.95
		and .mde_pct > .floor_pct and .floor_pct >= 1
		and (.host.round_medians_ns | length == 20) and .timens.repetitions == 20
		and (.p_adjusted | type == "number")
		and (.verdict | IN("worse", "better", "~", "noisy", "few"))] | all' <<<"$output"
}

# Issue 20: median_core_cycles was printed beside diff_pct, which is the
# ratio of other figures (the paired Hodges-Lehmann estimate).
@test "--format tap: a point per cell with its change and verdict, the measurement as diagnostics" {
	needs_timens
	run --separate-stderr quick --no-save --format tap --repetitions 6
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "TAP version 13" ]
	[ "${lines[1]}" = "1..2" ]
	# Each point: the two sides' values, the change, its CI, the
	# difference in the unit and the verdict in words.
	for n in 1 2; do
		grep -qE "^ok $n clock-gettime-monotonic(-coarse)?-vdso: [0-9.]+ -> [0-9.]+ [a-z ]+, [-+][0-9.]+ % \[95 % CI [-+][0-9.]+, [-+][0-9.]+\], (0|[-+][0-9.]+) [a-z ]+: (worse|better|no significant change|noisy|few) \\(.+\\)$" <<<"$output" ||
			{ echo "$output"; false; }
	done
	grep -qE '^# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0$' <<<"$output"
	[[ "$output" == *"# namespace offsets: monotonic +10d, boottime +20d"* ]]
	# Every line is TAP: a plan, a point, or a diagnostic.
	! grep -vqE '^(TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ .*|#.*)$' <<<"$output"
}

@test "the number shown is the number used: diff is the ratio of the printed centres, json and table" {
	needs_timens
	run --separate-stderr quick --no-save --format json --repetitions 6 --path vdso,syscall
	[ "$status" -eq 0 ]
	jq -e '.unit == "core cycles" and (.center | startswith("median; other sides: the base'"'"'s median times the paired Hodges-Lehmann"))' <<<"$output"
	jq -e '(.cells | length == 4) and ([.cells[] | 100 * (.timens.center / .host.center - 1) - .diff_pct
		| fabs < 1e-9] | all)' <<<"$output"
	jq -e '[.cells[] | 100 * (.timens.median_ns / .host.median_ns - 1) - .ns_diff_pct | fabs < 1e-9] | all' <<<"$output"
	# The host's centre is its median; the namespace's is not its own median.
	jq -e '[.cells[] | .host.center == .host.median and .timens.center_ci95 == null] | all' <<<"$output"
	# The table: diff within the rounding of the two centres it prints.
	run --separate-stderr quick --no-save --repetitions 6 --path vdso,syscall
	[ "$status" -eq 0 ]
	[[ "$output" == *"# at a glance: core cycles per call, centre: median; other sides:"*"diff: the ratio of the two centres"* ]]
	awk '$2 ~ /^(vdso|syscall)$/ && NF == 10 { n++; sub("%", "", $5)
		want = 100 * ($4 / $3 - 1); slack = 100 * $4 / $3 * (0.005 / $3 + 0.005 / $4) + 0.005
		if ((want - $5 > slack) || ($5 - want > slack)) { print "off:", $0; bad = 1 } }
		END { exit bad || n != 4 }' <<<"$output"
}

# Issue 20: two timens with the default labels, then `compare host timens`,
# pooled the runs of both invocations as replicates.
@test "two invocations get disjoint default labels; one invocation's pair is compared paired, not pooled" {
	needs_timens
	run --separate-stderr quick --repetitions 3 --format json
	[ "$status" -eq 0 ]
	first=$(jq -c '.labels' <<<"$output")
	run --separate-stderr quick --repetitions 3 --format json
	[ "$status" -eq 0 ]
	second=$(jq -c '.labels' <<<"$output")
	jq -e -n --argjson a "$first" --argjson b "$second" '
		($a.host | test("^timens-[0-9a-f]{8}-host$")) and ($a.timens | test("^timens-[0-9a-f]{8}-timens$"))
		and ([$a[]] - [$b[]] | length == 2)'
	# The stored runs carry them; each label names one run.
	run "$CLOCKBENCH" runs --format json
	jq -e --argjson a "$first" --argjson b "$second" \
		'map(.label) == [$a.host, $a.timens, $b.host, $b.timens]' <<<"$output"
	run "$CLOCKBENCH" compare --format json "$(jq -r .host <<<"$second")" "$(jq -r .timens <<<"$second")"
	[ "$status" -eq 0 ]
	jq -e '.paired and (.replicates | not) and (.groups | map(.pooled_invocations) == [false, false])
		and (.groups | map(.runs | length) == [1, 1])' <<<"$output"
}

# Issue 20: timens's batches were 10 us whatever the counter's step; bench
# lengthens them so that a reading of the reference (at least 300 steps)
# takes a tenth of a batch at most: 30 us where the clock steps by 10 ns.
@test "batches sized by the counter's step, as bench sizes them" {
	needs_timens
	"$CLOCKBENCH" bench --quick --api clock_gettime --clock monotonic --path vdso >/dev/null 2>&1
	quick --repetitions 2 --clock monotonic --path vdso >/dev/null 2>&1
	run "$CLOCKBENCH" export --all
	[ "$status" -eq 0 ]
	# Two calibrations: the same sizing, to the reference's own precision.
	jq -e '.runs | length == 3 and (.[0].config.method.target_batch_ns as $bench
		| .[1:] | all(.config.target_batch_ns > $bench / 2))' <<<"$output"
	jq -e '.runs[0].config.method.target_batch_ns as $bench | [.runs[1:][] | .cells[]
		| .batch_calls * (.samples | sort | .[length / 2 | floor]) > 0.4 * $bench] | all' <<<"$output"
}

@test "labels can be changed, and compare reads the two runs" {
	needs_timens
	run quick --host-label outside --timens-label inside --style table
	[ "$status" -eq 0 ]
	# One door (issue 29): compare's rows of the two stored sides are
	# timens's own, figure for figure and verdict for verdict.
	local judged="$output"
	run "$CLOCKBENCH" compare outside inside
	[ "$status" -eq 0 ]
	# (the rows of the table; timens's glance below it names the path apart)
	diff <(grep -E '^clock-[a-z0-9-]+ +[0-9]' <<<"$judged") \
		<(grep -E '^clock-[a-z0-9-]+ +[0-9]' <<<"$output")
	[ "$(grep -cE '^clock-[a-z0-9-]+ +[0-9]' <<<"$output")" -eq 2 ]
	run "$CLOCKBENCH" compare --style ratio outside inside
	[ "$status" -eq 0 ]
	[[ "$output" == *"time on inside / time on outside"* ]]
	[[ "$output" == *"clock-gettime-monotonic-coarse-vdso:"* ]]
	# The two runs were interleaved: compare pairs their rounds.
	run "$CLOCKBENCH" compare --format json outside inside
	[ "$status" -eq 0 ]
	jq -e '.paired and ([.cells[].vs_base[0].test] | all(. == "signed-rank-paired"))' <<<"$output"
	jq -e '[.cells[].vs_base[0].floor_pct] | all(. == 1)' <<<"$output"
}

@test "inside a non-root time namespace it refuses, unless --allow-nested" {
	needs_timens
	unshare --time --fork true 2>/dev/null || skip "unshare --time is not available"
	run unshare --time --fork "$CLOCKBENCH" timens --no-save
	[ "$status" -eq 4 ]
	[[ "$output" == *"skip: clockbench runs inside a non-root time namespace"* ]]
	run unshare --time --fork "$CLOCKBENCH" timens --no-save --quick --allow-nested \
		--clock monotonic --path vdso --repetitions 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: running inside a non-root time namespace"* ]]
}

@test "an offset that takes a clock below zero is the kernel's error, explained" {
	needs_timens
	run quick --no-save --monotonic-offset -36500d
	[ "$status" -eq 1 ]
	[[ "$output" == *"ERANGE"*"must not take the namespace's MONOTONIC or BOOTTIME below zero"* ]]
}

bad() { # expected-message args...
	local want="$1"
	shift
	usage_error "$want" timens --no-save "$@"
}

@test "bad input is a usage error naming the value" {
	bad "invalid --monotonic-offset '10x'" --monotonic-offset 10x
	bad "invalid --monotonic-offset '1.5d'" --monotonic-offset 1.5d
	bad "invalid --boottime-offset ''" --boottime-offset ''
	bad "invalid --boottime-offset '36501d'" --boottime-offset 36501d
	bad "invalid --repetitions '1': expected a number from 2 to 1000" --repetitions 1
	bad "invalid --budget 'soon'" --budget soon
	bad "--host-label and --timens-label must differ ('x')" --host-label x --timens-label x
	bad "invalid --host-label '7'" --host-label 7
	bad "name them with --host-label and --timens-label, not --label" --label x
	bad "unknown style 'fancy'" --style fancy
	bad "unknown format 'csv' (table, json, tap)" --format csv
	bad "unknown clock 'nope' in --clock" --clock nope
	bad "CPU 9999 is not in this process's affinity mask" --cpu 9999
	bad "unexpected argument 'now'" now
}

# Found by the campaign (tests/fuzz/campaign.py): the environment timens
# collects before the store is checked leaked when the store was unusable.
@test "an unusable store: exit 1 with the reason, nothing measured, nothing leaked" {
	needs_timens
	echo "not a database" >"$BATS_TEST_TMPDIR/not.db"
	run --separate-stderr quick --db "$BATS_TEST_TMPDIR/not.db"
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
	[ -z "$output" ]
	[[ "$stderr" == *"not an SQLite database"*"nothing measured"* ]]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
}
