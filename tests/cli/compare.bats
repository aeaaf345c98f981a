#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench compare: stored runs, styles, formats, replicates and bad input.

setup_file() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
	local cells=(--quick --api clock_gettime,time --clock monotonic,monotonic-coarse --path vdso,syscall)
	"$CLOCKBENCH" bench "${cells[@]}" --label A >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label A >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label B >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label B >/dev/null 2>&1
}

setup() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
}

@test "two runs compare: a row per cell, the rule stated, a geomean row" {
	run "$CLOCKBENCH" compare 1 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"# metric: core cycles, lower is better"* ]]
	[[ "$output" == *"ns-change: the same change in ns"* ]]
	[[ "$output" =~ verdict\ +ns-change ]]
	[[ "$output" == *"Benjamini-Hochberg-adjusted Mann-Whitney p < 0.05 and the 95% CI of the change beyond +-1%"* ]]
	[[ "$output" == *"statistics over each run's round medians"* ]]
	[[ "$output" =~ clock-gettime-monotonic-vdso\ +[0-9.]+ ]]
	[[ "$output" =~ time-syscall\ +[0-9.]+ ]]
	[[ "$output" == *"geomean"* ]]
	# Single runs measured in rounds: the statistics use round medians.
	run "$CLOCKBENCH" compare 1 3 --format json
	jq -e '.cells | length == 6' <<<"$output"
	jq -e '.cells[0].groups[0].n == 5' <<<"$output"
	jq -e '[.cells[].vs_base[0].verdict] | all(IN("better", "worse", "~", "noisy", "few"))' <<<"$output"
}

@test "a label naming several runs makes them replicates" {
	run "$CLOCKBENCH" compare A B --format json
	[ "$status" -eq 0 ]
	jq -e '.replicates == true' <<<"$output"
	jq -e '.groups[0].runs == [1, 2] and .groups[1].runs == [3, 4]' <<<"$output"
	jq -e '.groups | map(.machine_shift | type == "boolean") | all' <<<"$output"
	jq -e '.cells[0].groups[0].n == 2' <<<"$output"
	# Two runs against two cannot reach any p-value below 0.33.
	jq -e '[.cells[].vs_base[0].verdict] | all(. == "few")' <<<"$output"
}

@test "every style renders" {
	run "$CLOCKBENCH" compare --style mmtests 1 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"Percentages refer to A#1, negative = worse"* ]]
	[[ "$output" =~ [0-9.]+\ \(\ +0\.00%\) ]]
	run "$CLOCKBENCH" compare --style ratio 1 3
	[ "$status" -eq 0 ]
	[[ "$output" =~ clock-gettime-monotonic-vdso:\ +[0-9]+\ % ]]
	run "$CLOCKBENCH" compare --style summary 1 3 4
	[ "$status" -eq 0 ]
	[[ "$output" == *"avg     |"* ]]
	[[ "$output" == *"diff %  |       100.0 |"* ]]
	[[ "$output" == *"stdev % |"* ]]
	run "$CLOCKBENCH" compare --style ministat 1 3
	[ "$status" -eq 0 ]
	[[ "$output" =~ N\ +Min\ +Max\ +Median\ +Avg\ +Stddev ]]
	[[ "$output" == *"95.0% confidence"* ]]
}

@test "json, csv and markdown formats" {
	run "$CLOCKBENCH" compare --format json 1 3
	[ "$status" -eq 0 ]
	jq -e '.metric == "core-cycles" and .unit == "core cycles"
		and .rule.correction == "Benjamini-Hochberg"
		and (.cells[0].vs_base[0] | has("p_adjusted") and has("ns_change_pct"))
		and .cells[0].groups[0].ns_median > 0' <<<"$output"
	run "$CLOCKBENCH" compare --format csv 1 3
	[ "${lines[0]%%,*}" = "cell" ]
	[[ "${lines[0]}" == *",verdict,ns_median,ns_change_pct" ]]
	[ "${#lines[@]}" -eq 13 ]
	run "$CLOCKBENCH" compare --format markdown 1 3
	[[ "${lines[0]}" == "| cell | path |"* ]]
}

@test "metric ns judges in ns, without an ns column beside" {
	run "$CLOCKBENCH" compare --metric ns --format json 1 3
	[ "$status" -eq 0 ]
	jq -e '.metric == "ns" and .unit == "ns"
		and (.cells[0].vs_base[0] | has("ns_change_pct") | not)' <<<"$output"
	run "$CLOCKBENCH" compare --metric core-cycles 1 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"# metric: core cycles"* ]]
}

@test "a run from before core cycles makes the comparison fall back to ns" {
	"$CLOCKBENCH" export 1 | jq '.runs[0] |= (.uuid = "44444444-4444-4444-8444-444444444444"
		| .label = "old" | .cells |= map(del(.samples_core_cycles)))' \
		>"$BATS_TEST_TMPDIR/old.json"
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/old.json" 2>/dev/null
	run "$CLOCKBENCH" compare --format json old 3
	[ "$status" -eq 0 ]
	jq -e '.metric == "ns"' <<<"$output"
	run "$CLOCKBENCH" compare --metric core-cycles old 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"# metric: core cycles"* ]]
}

@test "metric cycles uses the recorded unit" {
	run "$CLOCKBENCH" compare --metric cycles --format json 1 3
	[ "$status" -eq 0 ]
	jq -e '.unit | test("ticks|cycles")' <<<"$output"
	run "$CLOCKBENCH" compare --metric seconds 1 3
	[ "$status" -eq 1 ]
	[[ "$output" == *"no measured cell has the metric 'seconds'"* ]]
}

@test "an unknown run or label exits 1 and names it" {
	run "$CLOCKBENCH" compare 1 nosuchlabel
	[ "$status" -eq 1 ]
	[[ "$output" == *"'nosuchlabel'"* ]]
}

@test "bad options exit 2 with one line" {
	for args in "--style fancy 1 3" "--format yaml 1 3" "--metric joules 1 3" \
		    "--alpha 0 1 3" "--alpha 1.5 1 3" "--threshold -1 1 3" \
		    "--correction sidak 1 3" "1" "--bogus 1 3"; do
		run "$CLOCKBENCH" compare $args
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
	done
}

@test "a missing database is an error and is not created" {
	run "$CLOCKBENCH" compare --db "$BATS_TEST_TMPDIR/none.db" 1 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"no results database at"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none.db" ]
}
