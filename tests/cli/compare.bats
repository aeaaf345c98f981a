#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench compare: stored runs, styles, formats, replicates and bad input.

load helpers

setup_file() {
	private_store "$BATS_FILE_TMPDIR"
	local cells=(--quick --api clock_gettime,time --clock monotonic,monotonic-coarse --path vdso,syscall)
	"$CLOCKBENCH" bench "${cells[@]}" --label A >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label A >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label B >/dev/null 2>&1
	"$CLOCKBENCH" bench "${cells[@]}" --label B >/dev/null 2>&1
}

setup() {
	private_store "$BATS_FILE_TMPDIR"
}

@test "two runs compare: a row per cell, the rule stated, a geomean row" {
	run "$CLOCKBENCH" compare 1 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"# metric: core cycles, lower is better"* ]]
	[[ "$output" == *"ns-change: the same change in ns"* ]]
	[[ "$output" =~ verdict\ +ns-change ]]
	[[ "$output" == *"statistics over each run's round medians"* ]]
	[[ "$output" == *"noisy: a side's rCV (robust CV, 100 * 1.4826 MAD / median) above 5%"* ]]
	[[ "$output" == *"# value: median; +-: half its 95% CI"*"change: the ratio of the two values"* ]]
	[[ "$output" =~ cell\ +A#1\ +B#3\ +change\ \[95%\ CI\]\ +diff\ +p\ +test\ +delta\ +mde\ +verdict ]]
	[[ "$output" == *"diff: the other's value minus the base's, in core cycles"* ]]
	# Rounds: the median of 5 round medians is short of 95 %.
	grep -qE '^clock-gettime-monotonic-vdso +[0-9.]+ ±[0-9.]+% \(94%\) ' <<<"$output"
	[[ "$output" =~ clock-gettime-monotonic-vdso\ +[0-9.]+ ]]
	[[ "$output" =~ time-syscall\ +[0-9.]+ ]]
	[[ "$output" == *"geomean"* ]]
	# Issue 20: one run against one, no history of runs like the base
	# (run 2 alone; runs 3 and 4 are labelled as the other side): the
	# change is shown, no p, no CI, no verdict, and the commands that
	# would give one are named.
	grep -qE '^time-syscall .* [-+][0-9.]+% +(0|[-+][0-9.]+) +- +- +[-+][0-9.]+ +-  few +[-+][0-9.]+%$' <<<"$output"
	[[ "$output" == *"# one run against one, with no history of runs like the base (1 of the 4 needed): how far whole runs move on this machine is unknown"* ]]
	[[ "$output" == *"clockbench bench --label L"*"clockbench ab"*"clockbench kernels"* ]]
	[[ "$output" != *"Mann-Whitney"* ]]
	# Single runs measured in rounds: the statistics use round medians.
	run "$CLOCKBENCH" compare 1 3 --format json
	jq -e '.cells | length == 6' <<<"$output"
	jq -e '.cells[0].groups[0].n == 5' <<<"$output"
	jq -e '[.cells[].vs_base[0] | .verdict == "few" and .spread_unknown and .test == "none"
		and .p == null and .change_ci95_pct == [null, null] and .mde_pct == null
		and (.change_pct | type == "number")] | all' <<<"$output"
	jq -e '.rule.history_runs == 1 and (.rule.no_verdict | test("clockbench ab"))' <<<"$output"
	# --quick measures 5 rounds: the median's CI covers 93.75 % and is not
	# called a 95 % CI.
	jq -e '[.cells[].groups[] | .center_ci95 == null and .center_coverage == 0.9375
		and (.center_range | length == 2) and (.samples | length == 5)] | all' <<<"$output"
}

@test "a label naming several runs makes them replicates" {
	run "$CLOCKBENCH" compare A B --format json
	[ "$status" -eq 0 ]
	jq -e '.replicates == true' <<<"$output"
	jq -e '.groups[0].runs == [1, 2] and .groups[1].runs == [3, 4]' <<<"$output"
	jq -e '.groups | map(.machine_shift | type == "boolean") | all' <<<"$output"
	jq -e '.cells[0].groups[0].n == 2' <<<"$output"
	# Two runs against two: Student's t on the logs of the runs' values,
	# which can reach a verdict (Mann-Whitney could not go below 0.33).
	jq -e '[.cells[].vs_base[0] | .test == "student-t-log" and .df == 2
		and (.mde_pct | type == "number") and .verdict != "few"] | all' <<<"$output"
	jq -e '[.cells[].groups[] | (.samples | length == 2) and (.center_ci95 | length == 2)
		and .center_coverage == 0.95] | all' <<<"$output"
	# Each run's own precision, from its rounds (0, hence null, when over
	# half of a run's round medians are equal).
	jq -e '[.cells[].groups[] | .within_run_rse_pct > 0] | any' <<<"$output"
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
	[[ "$output" == *"median  |"* ]]
	[[ "$output" == *"diff %  |       100.0 |"* ]]
	[[ "$output" == *"rCV %   |"* ]]
	# One run against others, no history: no verdict, so no mde either.
	[[ "$output" =~ mde\ %\ +\|\ +-\ \|\ +-\ \|\ +-\  ]]
	run "$CLOCKBENCH" compare --style summary A B
	[ "$status" -eq 0 ]
	[[ "$output" == *"gmean   |"* ]]
	[[ "$output" == *"# gmean: geometric mean of the runs' values;"* ]]
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
	[[ "${lines[0]}" == *",verdict,ns_median,ns_change_pct,diff" ]]
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
	# Asked for core cycles, which the base never recorded: nothing in
	# common, an error (it was a table of '-' and exit 0).
	run "$CLOCKBENCH" compare --metric core-cycles old 3
	[ "$status" -eq 1 ]
	[[ "$output" == *"no cell is measured in the base and another group in the metric 'core-cycles': nothing to compare"* ]]
	run "$CLOCKBENCH" compare --metric core-cycles 3 1
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
	# A label near one of the store's is suggested, and the labels listed.
	run "$CLOCKBENCH" compare A Bb
	[ "$status" -eq 1 ]
	[[ "$output" == *"no run or label 'Bb' in "*"; did you mean 'B'? (labels here: A, B"* ]]
	# The same runs on both sides: compared, and said.
	run --separate-stderr "$CLOCKBENCH" compare A 1
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: run 1 is on both sides (A and 1): it is compared with itself"* ]]
}

@test "bad options exit 2 with one line" {
	for args in "--style fancy 1 3" "--format yaml 1 3" "--metric joules 1 3" \
		    "--alpha 0 1 3" "--alpha 1.5 1 3" "--threshold -1 1 3" \
		    "--correction sidak 1 3" "1" "--bogus 1 3" "--history -1 1 3" \
		    "--history 1001 1 3" "--history many 1 3"; do
		run "$CLOCKBENCH" compare $args
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
	done
	run "$CLOCKBENCH" compare --history many 1 3
	[[ "$output" == *"invalid --history 'many': expected a number from 0 to 1000"* ]]
}

@test "a damaged run of the history is left out with a warning, not fatal" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/damaged.db"
	cp "$BATS_FILE_TMPDIR/results.db" "$CLOCKBENCH_DB"
	python3 -c 'import sqlite3, sys
sqlite3.connect(sys.argv[1]).executescript("UPDATE runs SET env = \x27{\x27 WHERE id = 2")' "$CLOCKBENCH_DB"
	run --separate-stderr "$CLOCKBENCH" compare 1 3 --format json
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"run 2: "*"not valid JSON"*"; left out of the history"* ]]
	jq -e '.cells | length == 6' <<<"$output"
}

@test "a missing database is an error and is not created" {
	run "$CLOCKBENCH" compare --db "$BATS_TEST_TMPDIR/none.db" 1 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"no results database at"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none.db" ]
}

# Every series of samples a cell has (ns, core cycles, cycles) times $f.
scale_samples='.cells |= map(reduce ("samples", "samples_core_cycles", "samples_cycles") as $s
	(.; if .[$s] then .[$s] |= map(. * $f) else . end))'

# Run 1 again with every sample 20 % slower, as a run of its own.
import_slower_copy() { # label
	"$CLOCKBENCH" export 1 | jq --arg l "$1" --argjson f 1.2 '.runs[0] |= (.uuid = "00000000-0000-4000-8000-00000000002a"
		| .label = $l | '"$scale_samples"')' \
		>"$BATS_TEST_TMPDIR/slow.json"
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/slow.json" 2>/dev/null
}

# Four copies of run 1 within 0.2 % of it, labelled hist: a history of
# runs like it, so that one run against one gets a verdict.
import_history_copies() {
	local k
	for k in 1 2 3 4; do
		"$CLOCKBENCH" export 1 | jq --argjson k "$k" \
			'(1 + ($k - 2.5) / 1000) as $f | .runs[0] |= (.uuid = "00000000-0000-4000-8000-00000000010\($k)" | .label = "hist" | '"$scale_samples"')' \
			>"$BATS_TEST_TMPDIR/hist.json"
		"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/hist.json" >/dev/null 2>&1
	done
}

# The base is synthetic (steady rounds, seeded): on a loaded machine a
# real run's rounds can spread by 20 % and reach the slower copy, and then
# no statistics may call the change (rounds_reach()), which is right for
# the run but not what this test is about: the gate.
@test "--fail-on: exit 3 when the gate catches a change, 0 when it does not" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/gate.db"
	synth base 25.0 0 0 41 1
	import_slower_copy slow
	# One run against one gets no verdict, so nothing to fail on...
	run "$CLOCKBENCH" compare 1 slow --fail-on worse
	[ "$status" -eq 0 ]
	# ... until a history of runs like the base gives the spread between runs.
	import_history_copies
	run --separate-stderr "$CLOCKBENCH" compare 1 slow --fail-on worse
	echo "$stderr" >&2
	[ "$status" -eq 3 ]
	# The one cell is exactly 20 % slower.
	[[ "$stderr" == *"clock-gettime-monotonic vdso: +20.00 % against "*" in slow (worse)"* ]]
	[[ "$stderr" =~ --fail-on\ worse:\ 1\ cell$ ]]
	run "$CLOCKBENCH" compare 1 slow --fail-on change
	[ "$status" -eq 3 ]
	run "$CLOCKBENCH" compare 1 slow --fail-on better
	[ "$status" -eq 0 ]
	run "$CLOCKBENCH" compare 1 slow
	[ "$status" -eq 0 ]
	# Seen from the slow run, the base is better, never worse.
	run "$CLOCKBENCH" compare slow 1 --fail-on worse
	[ "$status" -eq 0 ]
	run "$CLOCKBENCH" compare slow 1 --fail-on better
	[ "$status" -eq 3 ]
	usage_error "unknown fail-on 'regression' (none, worse, better, change)" \
		compare 1 slow --fail-on regression
}

# Synthetic runs, imported: run 1 as the template, one cell, 10 rounds of
# 20 batches; each run drifts as a whole (sd drift_pct), one round in ten
# (round 6) is 40 % slow when asked. Deterministic: Python's seeded
# Mersenne Twister.
synth() {	# label mean drift_pct slow_round(0/1) seed nruns
	"$CLOCKBENCH" export --db "$BATS_FILE_TMPDIR/results.db" 1 >"$BATS_TEST_TMPDIR/template.json"
	python3 - "$BATS_TEST_TMPDIR/template.json" "$@" >"$BATS_TEST_TMPDIR/synth.json" <<'PY'
import json, random, sys, uuid
path, label, mean, drift, slow, seed, nruns = sys.argv[1:8]
rng = random.Random(int(seed))
tpl = json.load(open(path))["runs"][0]
runs = []
for _ in range(int(nruns)):
    run = dict(tpl, label=label, uuid=str(uuid.UUID(int=rng.getrandbits(128))))
    offset = rng.gauss(0, float(drift) / 100)
    values, rounds = [], []
    for k in range(10):
        f = (1 + offset) * (1 + rng.gauss(0, 0.0005))
        f *= 1.4 if slow == "1" and k == 6 else 1
        for _ in range(20):
            values.append(float(mean) * f * (1 + rng.gauss(0, 0.01)))
            rounds.append(k)
    cell = dict(tpl["cells"][0], samples=values, samples_round=rounds,
                samples_cycles=[2 * v for v in values])
    cell.pop("samples_core_cycles", None)
    cell.pop("reference", None)
    run["cells"] = [cell]
    runs.append(run)
json.dump({"clockbench_export": 1, "runs": runs}, sys.stdout)
PY
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/synth.json" >/dev/null
}

@test "replicates: +4 % in 3 runs against 3 is worse, with the t-test's fields" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/synth.db"
	cp "$BATS_FILE_TMPDIR/results.db" "$CLOCKBENCH_DB"
	synth S-base 25.0 0.5 1 11 3
	synth S-slow 26.0 0.5 1 12 3
	run "$CLOCKBENCH" compare S-base S-slow --format json
	[ "$status" -eq 0 ]
	jq -e '.replicates and .rule.spread == "robust CV: 100 * 1.4826 MAD / median"
		and .rule.ci_level == 0.95 and .rule.mde_power == 0.8' <<<"$output"
	jq -e '.cells[0].vs_base[0] | .verdict == "worse" and .significant
		and .test == "student-t-log" and .df == 4
		and .change_ci95_pct[0] < 4 and .change_ci95_pct[1] > 4
		and .mde_pct > 1 and .mde_pct < 4' <<<"$output"
	jq -e '.cells[0].groups | map(.n == 3 and (.samples | length == 3)
		and (.center_ci95 | length == 2)) | all' <<<"$output"
	run "$CLOCKBENCH" compare S-base S-slow
	[ "$status" -eq 0 ]
	[[ "$output" == *"statistics over one value per run, the median of its round medians (replicates)"* ]]
	grep -qE '^clock-gettime-monotonic-vdso .* t +[-+][0-9.]+ +[0-9.]+%  worse$' <<<"$output"
	run "$CLOCKBENCH" compare S-base S-slow --format csv
	[ "${lines[0]}" = "cell,path,group,n,center,center_lo,center_hi,center_coverage,median,stddev_pct,robust_cv_pct,change_pct,change_ci95_lo_pct,change_ci95_hi_pct,p,p_adjusted,test,cliffs_delta,mde_pct,verdict,ns_median,ns_change_pct,diff" ]
	[[ "${lines[2]}" == *",student-t-log,"*",worse,"* ]]
	run "$CLOCKBENCH" compare S-base S-slow --format markdown
	[[ "${lines[0]}" == "| cell | path | S-base | S-slow | change | diff | mde | verdict |" ]]
}

@test "replicates: A/A with between-run drift is ~, not few" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/synth.db"
	cp "$BATS_FILE_TMPDIR/results.db" "$CLOCKBENCH_DB"
	synth S-a 25.0 1.0 1 21 3
	synth S-b 25.0 1.0 1 22 3
	run "$CLOCKBENCH" compare S-a S-b --format json
	[ "$status" -eq 0 ]
	jq -e '.cells[0].vs_base[0] | .verdict == "~" and (.significant | not)
		and .test == "student-t-log" and (.spread_floored | not)' <<<"$output"
}

@test "single runs: one slow round of ten does not make +4.6 % noisy" {
	# A store of these runs alone: the real runs are no history of them.
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/synth.db"
	synth S-host 25.0 0 1 31 1
	synth S-ns 26.15 0 0 32 1
	# The two runs alone: the real runs beside them are no history of these.
	run "$CLOCKBENCH" compare S-host S-ns --format json
	[ "$status" -eq 0 ]
	# Alone, one run against one has no verdict: the change is shown.
	jq -e '.replicates == false and .cells[0].vs_base[0].verdict == "few"
		and .cells[0].vs_base[0].spread_unknown
		and .cells[0].vs_base[0].change_pct > 4.3 and .cells[0].vs_base[0].change_pct < 4.9' <<<"$output"
	# The classical CV of the base's rounds is far above the noise gate;
	# the robust one, which the gate uses, is not.
	jq -e '.cells[0].groups[0] | .stddev_pct > 5 and .robust_cv_pct < 0.5 and (.noisy | not)' <<<"$output"
	# With 4 runs like the base, drifting 0.3 %, as its history.
	synth S-hist 25.0 0.3 0 33 4
	run "$CLOCKBENCH" compare S-host S-ns --format json
	[ "$status" -eq 0 ]
	jq -e '.cells[0].vs_base[0] | .verdict == "worse" and .floor_pct == 1
		and .test == "student-t-history" and .history_runs == 4' <<<"$output"
}

# The test aid preloaded: libc's clock_gettime slower by a busy loop
# calibrated against the real call when the library loads, the vDSO path
# untouched. Runs alternate so that a drifting machine touches both labels
# alike. 25 %, not the library's default 4 %: this shared VM's speed moves
# by 5 % between runs now and then (whole runs in a slow phase), and 3 v 3
# replicates rightly call a 4 % change within such noise `~`; bench/run-all
# shows the 4 % case on ns, in 3 v 3 and in single runs.
# 5 v 5, not 3 v 3: a whole run of this VM's libc cell now and then costs
# 13 % more in core cycles too (a busy sibling hyperthread on the host, which
# no frequency normalisation removes), and with 3 runs such a run hides 25 %.
@test "libc clock_gettime made slower: worse in 5 v 5 (the vDSO cell not); single runs judged by their history" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/slow.db"
	local cells=(--api clock_gettime --clock monotonic --path vdso,libc)
	# A sanitizer runtime wants to be first in the library list.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	for _ in 1 2 3 4 5; do
		"$CLOCKBENCH" bench "${cells[@]}" --label plain >/dev/null 2>&1
		CLOCKBENCH_SLOWDOWN_PCT=50 CLOCKBENCH_SLOWDOWN_VERBOSE=1 LD_PRELOAD="$CLOCKBENCH_SLOW_CLOCK_LIB" \
			"$CLOCKBENCH" bench "${cells[@]}" --label slowed 2>&1 >/dev/null | grep preload-slow-clock >&2
	done
	run "$CLOCKBENCH" compare plain slowed --format json
	[ "$status" -eq 0 ]
	# Shown when the test fails: path, verdict, change, its CI, the samples.
	jq -c '.cells[] | [.path] + (.vs_base[0] | [.verdict, .change_pct,
		.change_ci95_pct]) + [.groups[].samples]' <<<"$output" >&2
	jq -e '.cells[] | select(.path == "libc") | .vs_base[0]
		| .verdict == "worse" and .test == "student-t-log" and .df == 8
		and .change_pct > 10' <<<"$output"
	# The preloaded library moves the process's memory about, which can
	# move a vDSO call by a few percent (7 % seen on i386 with two test
	# suites running beside it): bounded by what is guaranteed, that the
	# vDSO cell moved far less than the libc cell the library slows.
	jq -e '[.cells[] | {(.path): .vs_base[0].change_pct}] | add
		| (if .vdso < 0 then -.vdso else .vdso end) < .libc / 2' <<<"$output"
	# One run against one: the libc cell too. (Not the vDSO cell's `~`:
	# between two single runs the machine itself moves by up to 4 % here,
	# which no statistics on those two runs can tell from a change.)
	# The 4 other plain runs are its history: the spread between runs,
	# which a busy neighbour on the host's other hyperthread has taken to
	# 5 % (the vDSO cell's runs at 86 and 96 core cycles): with 3 degrees
	# of freedom it takes a change well beyond 25 % to be sure of.
	run "$CLOCKBENCH" compare 1 2 --format json
	[ "$status" -eq 0 ]
	jq -c '.cells[] | [.path] + (.vs_base[0] | [.verdict, .test, .change_pct])' <<<"$output" >&2
	# The verdict is not asserted: one history run of the five that a
	# neighbour slowed by 20 % (seen on i386) leaves +47 % short of sure
	# with 3 degrees of freedom. The test chosen and the change are.
	jq -e '.cells[] | select(.path == "libc") | .vs_base[0]
		| .test == "student-t-history" and .history_runs == 4 and .df == 3
		  and .change_pct > 10' <<<"$output"
	# Without the history: the change shown, no verdict.
	run "$CLOCKBENCH" compare 1 2 --history 0 --format json
	[ "$status" -eq 0 ]
	jq -e '.cells[] | select(.path == "libc") | .vs_base[0]
		| .verdict == "few" and .spread_unknown and .change_pct > 10' <<<"$output"
}

# Issue 15, 8: exec's sys of a short command is 0 under tick accounting;
# the geomean row printed 0 for every group.
@test "the geomean leaves out a cell at 0 and says so" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/zero.db"
	"$CLOCKBENCH" exec -n 5 -- true >/dev/null 2>&1
	"$CLOCKBENCH" export 1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
runs = []
for k, scale in enumerate((1.0, 1.1)):
    run = dict(d["runs"][0], uuid="00000000-0000-4000-8000-00000000000%d" % k)
    run["cells"] = [dict(c, samples=[0.0 if c["name"] == "sys" else
                                     scale * (0.001 + 1e-6 * i) for i in range(5)])
                    for c in run["cells"]]
    runs.append(run)
json.dump(dict(d, runs=runs), sys.stdout)' >"$BATS_TEST_TMPDIR/zero.json"
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/zero.json" >/dev/null 2>&1
	run "$CLOCKBENCH" compare 2 3
	[ "$status" -eq 0 ]
	# Seconds below one read in ms (issue 30: hotplug's 7.177e-05 s).
	[[ "$output" == *"# metric: ms, lower is better"* ]]
	grep -qE '^geomean +1\.0[0-9]* +1\.1[0-9]* +\+10\.00%$' <<<"$output" || { echo "$output"; return 1; }
	# user at 1 ms is below a tick: an estimate, left out too.
	[[ "$output" == *"# geomean: over 1 of 3 cells; left out, a value not above 0 (no geometric mean holds one): sys; a tick-sampled estimate, not judged: user"* ]]
	run "$CLOCKBENCH" compare --format json 2 3
	jq -e '([.cells[] | select(.in_geomean | not) | .name] == ["user", "sys"])
		and (.groups[0].geomean > 0) and (.groups[1].geomean_change_pct - 10 | fabs) < 0.01' <<<"$output"
}

# Issue 20's property over the command line: stored runs of every kind
# (one run against one with and without a history, raw repetitions,
# replicates, interleaved rounds), their cells quantised as a counter
# that steps by 2 % of the value makes them (medians tie, the tests'
# estimators do not). Each run's kernel names its kind, so that only the
# runs meant as history are history.
kinds_store() {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/kinds.db"
	python3 - "$BATS_TEST_TMPDIR/kinds.json" <<-'EOF'
	import json, random, sys
	rng = random.Random(20)
	CELLS = (('cell-a', 22.24), ('cell-b', 0.41), ('cell-c', 143.7))
	def run(n, label, kernel, factor, rounds=10, per_round=20, interleave=None):
	    cells = []
	    for name, mean in CELLS:
	        step, values, rnd = mean * 0.02, [], []
	        for k in range(rounds or 1):
	            f = 1 + rng.gauss(0, 0.03)
	            for _ in range(per_round):
	                v = mean * factor * f * (1 + rng.gauss(0, 0.02))
	                values.append(max(step, step * round(v / step)))
	                rnd.append(k)
	        cell = {'name': name, 'path': 'vdso', 'api': 'clock_gettime', 'clock': 'monotonic',
	                'status': 'ok', 'unit': 'ns', 'batch_calls': 100, 'samples': values}
	        if rounds:
	            cell['samples_round'] = rnd
	        cells.append(cell)
	    config = {'method': {'rounds': rounds}}
	    if interleave:
	        config['interleave'] = interleave
	    return {'uuid': '%08d-0000-4000-8000-%012d' % (n, n), 'command': 'bench', 'label': label,
	            'host': 'box', 'kernel': kernel, 'started': '2026-12-01T10:00:%02dZ' % n,
	            'elapsed_s': 1, 'status': 'complete', 'cells': cells,
	            'environment': {'machine': 'x86_64', 'cpu_model': 'Test CPU', 'ncpus_online': 4,
	                            'clocksource': 'tsc', 'libc': {'name': 'glibc', 'version': '2.36'}},
	            'config': config}
	runs, n = [], 0
	def add(*a, **k):
	    global n
	    n += 1
	    runs.append(run(n, *a, **k))
	for k in range(4):
	    add('H-hist', 'history', 1 + rng.gauss(0, 0.01))
	add('H-base', 'history', 1.0); add('H-other', 'history', 1.06)
	add('N-base', 'single', 1.0); add('N-other', 'single', 1.06)
	add('X-base', 'raw', 1.0, rounds=0, per_round=3, interleave='x-1')
	add('X-other', 'raw', 1.06, rounds=0, per_round=3, interleave='x-1')
	for k in range(3):
	    add('R-base', 'replicates', 1.0); add('R-other', 'replicates', 1.06)
	add('P-base', 'paired', 1.0, interleave='p-1'); add('P-other', 'paired', 1.06, interleave='p-1')
	json.dump({'clockbench_export': 1, 'runs': runs}, open(sys.argv[1], 'w'))
	EOF
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/kinds.json" >/dev/null 2>&1
}

# Reads compare's outputs of one pair back: every printed change against
# the printed values, to their printed precision.
check_printed() {	# dir
	python3 - "$1" <<-'EOF'
	import csv, io, json, re, sys
	d = sys.argv[1]
	def half(s):
	    m = re.match(r'^[-+]?(\d+)(?:\.(\d*))?(?:e([-+]?\d+))?$', s)
	    assert m, s
	    return 0.5 * 10 ** (int(m.group(3) or 0) - len(m.group(2) or ''))
	def rel(kind, r):
	    return {'change': 100 * (r - 1), 'ratio': 100 * r, 'mmtests': 100 - 100 * r}[kind]
	n = 0
	def check(where, b, o, p, kind):
	    global n
	    vb, vo, vp = float(b), float(o), float(p)
	    lo, hi = sorted((rel(kind, (vo - half(o)) / (vb + half(b))),
	                     rel(kind, (vo + half(o)) / (vb - half(b)))))
	    if vp + half(p) < lo - 1e-9 or vp - half(p) > hi + 1e-9:
	        sys.exit('%s: %s against %s printed as %s (the values allow %.4f..%.4f)'
	                 % (where, o, b, p, lo, hi))
	    n += 1
	num = r'[-+]?\d+(?:\.\d+)?(?:e[-+]\d+)?'
	text = open(d + '/table').read()
	ci = r'(?: ±\S+)?(?: \(\d+%\))?'
	for m in re.finditer(r'^(\S+) +(' + num + ')' + ci + ' +(' + num + ')' + ci + ' +(' + num + ')%',
	                     text, re.M):
	    check('table ' + m.group(1), m.group(2), m.group(3), m.group(4), 'change')
	text = open(d + '/mmtests').read()
	for m in re.finditer(r'^(\S+) +(' + num + r') \( *0\.00%\) +(' + num + r') (?:\( *|\* +)(' + num + ')%',
	                     text, re.M):
	    check('mmtests ' + m.group(1), m.group(2), m.group(3), m.group(4), 'mmtests')
	text = open(d + '/summary').read()
	for m in re.finditer(r'^\w+ +\| +(' + num + r') \| +(' + num + r') \n-+\ndiff % +\| +100\.0 \| +('
	                     + num + ') ', text, re.M):
	    check('summary', m.group(1), m.group(2), m.group(3), 'ratio')
	for line in open(d + '/markdown'):
	    f = [x.strip() for x in line.split('|')]
	    if len(f) > 5 and re.fullmatch(num, f[3] or 'x') and f[5].endswith('%'):
	        check('markdown ' + f[1], f[3], f[4], f[5][:-1], 'change')
	rows = list(csv.reader(open(d + '/csv')))
	for base, other in zip(rows[1::2], rows[2::2]):
	    check('csv ' + base[0], base[4], other[4], other[11], 'change')
	j = json.load(open(d + '/json'))
	for c in j['cells']:
	    b, o, v = c['groups'][0], c['groups'][1], c['vs_base'][0]
	    check('json ' + c['name'], '%.6g' % b['center'], '%.6g' % o['center'],
	          '%.6g' % v['change_pct'], 'change')
	assert n >= 3 * 6 - 1, n   # every style read back, the cells of each
	print(n)
	EOF
}

@test "every style prints changes that are the ratio of the values it prints, for every kind of run" {
	kinds_store
	for kind in H N X R P; do
		dir="$BATS_TEST_TMPDIR/$kind"
		mkdir "$dir"
		"$CLOCKBENCH" compare "$kind-base" "$kind-other" >"$dir/table"
		for style in mmtests summary ratio ministat; do
			"$CLOCKBENCH" compare --style "$style" "$kind-base" "$kind-other" >"$dir/$style"
		done
		for format in markdown csv json; do
			"$CLOCKBENCH" compare --format "$format" "$kind-base" "$kind-other" >"$dir/$format"
		done
		echo "$kind" >&2
		check_printed "$dir"
	done
	# The kinds are what they are meant to be, each judged by its own test.
	run "$CLOCKBENCH" compare H-base H-other --format json
	jq -e '[.cells[].vs_base[0].test] | unique == ["student-t-history"]' <<<"$output"
	run "$CLOCKBENCH" compare N-base N-other --format json
	jq -e '[.cells[].vs_base[0].test] | unique == ["none"]' <<<"$output"
	run "$CLOCKBENCH" compare X-base X-other --format json
	jq -e '[.cells[].vs_base[0].test] | unique == ["student-t-log"]' <<<"$output"
	jq -e '.rule.center | test("geometric mean of the samples")' <<<"$output"
	run "$CLOCKBENCH" compare R-base R-other --format json
	jq -e '.replicates and ([.cells[].vs_base[0].test] | unique == ["student-t-log"])' <<<"$output"
	run "$CLOCKBENCH" compare P-base P-other --format json
	jq -e '.paired and ([.cells[].vs_base[0].test] | unique == ["signed-rank-paired"])' <<<"$output"
	jq -e '.rule.center | test("paired Hodges-Lehmann")' <<<"$output"
	# The test named is the test used: no Mann-Whitney where none ran.
	run "$CLOCKBENCH" compare P-base P-other
	[[ "$output" == *"(Wilcoxon signed-rank on the log ratios of the interleaved rounds, paired)"* ]]
	[[ "$output" != *"Mann-Whitney"* ]]
}

# Issue 20: report (HTML and mail) and plot judged runs without the
# history compare used, and named another test. For the same stored runs,
# every cell's verdict, change and test agree across the four.
@test "compare, report (HTML and mail) and plot give the same verdict, change and test for every cell" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	kinds_store
	for kind in H N X R P; do
		dir="$BATS_TEST_TMPDIR/same-$kind"
		mkdir "$dir"
		"$CLOCKBENCH" compare --format json "$kind-base" "$kind-other" >"$dir/compare.json"
		"$CLOCKBENCH" compare "$kind-base" "$kind-other" >"$dir/compare.txt"
		"$CLOCKBENCH" report -o "$dir/report.html" "$kind-base" "$kind-other" >/dev/null
		"$CLOCKBENCH" report --format mail "$kind-base" "$kind-other" >"$dir/mail.txt"
		"$CLOCKBENCH" plot --kind compare -o "$dir/forest.svg" "$kind-base" "$kind-other" >/dev/null
		echo "$kind" >&2
		python3 - "$dir" <<-'EOF'
		import html.parser, json, re, sys
		d = sys.argv[1]
		j = json.load(open(d + '/compare.json'))
		want = {(c['name'], c['path']): c['vs_base'][0] for c in j['cells']}
		# The HTML's comparison table: cell, path, base, other, change, p, test, delta, verdict.
		class P(html.parser.HTMLParser):
		    rows, row, cell = [], None, None
		    def handle_starttag(self, tag, attrs):
		        if tag == 'tr': self.row = []
		        if tag in ('td', 'th') and self.row is not None: self.cell = ''
		    def handle_endtag(self, tag):
		        if tag in ('td', 'th') and self.cell is not None:
		            self.row.append(self.cell.strip()); self.cell = None
		        if tag == 'tr' and self.row is not None:
		            self.rows.append(self.row); self.row = None
		    def handle_data(self, data):
		        if self.cell is not None: self.cell += data
		page = open(d + '/report.html').read()
		# ministat's tab, shown as a literal \t in the HTML (issue 20).
		assert '\\t' not in page
		p = P(); p.feed(page)
		seen = 0
		for r in p.rows:
		    # cell, path, base, other, change [CI], diff, p, test, delta, verdict
		    if len(r) == 10 and (r[0], r[1]) in want:
		        w = want[(r[0], r[1])]
		        assert r[9] == w['verdict'], (r, w['verdict'])
		        assert r[7] == w['test'], (r, w['test'])
		        assert r[4].split('%')[0] == '%+.2f' % w['change_pct'], (r, w['change_pct'])
		        # diff: other - base, each within half its last printed place
		        fig = [x.split()[0] for x in (r[2], r[3], r[5])]
		        ulp = sum(0.5 * 10 ** -len(x.split('.')[1]) if '.' in x else 0.5 for x in fig)
		        assert abs(float(fig[2]) - float(fig[1]) + float(fig[0])) <= ulp + 1e-9, r
		        seen += 1
		assert seen == len(want), (seen, len(want))
		# The mail: the changed cells, as compare judged them, and its tests named.
		mail = open(d + '/mail.txt').read()
		flat = ' '.join(mail.split())
		for (name, path), w in want.items():
		    line = re.search(re.escape('%s %s [' % (name, path)) + r'([^]]*)\]: \S+ -> \S+ \S+ \(([-+][0-9.]+) %', flat)
		    # Every changed cell, and those that moved as far without a verdict.
		    assert bool(line) or not w['significant'], (name, w['verdict'], line)
		    if line:
		        said = 'not significant' if w['verdict'] == '~' else w['verdict']
		        assert line.group(1) == said, (name, line.group(1), w['verdict'])
		        assert line.group(2) == '%+.1f' % w['change_pct'], (line.group(2), w['change_pct'])
		text = ' '.join(open(d + '/compare.txt').read().split())
		rule = re.search(r'# significant: \S+ p < \S+ \((.*?)\) and the 95% CI', text)
		if rule:
		    assert '(' + rule.group(1) + ')' in flat, (rule.group(1), flat)
		# The forest's data: per verdict, y (the cells in compare's order) and the change.
		data, verdict = open(d + '/forest.dat').read(), None
		got = {}
		cells = list(want)
		for line in data.splitlines():
		    m = re.match(r'# index \d+: group 1, verdict (\S+):', line)
		    if m: verdict = m.group(1); continue
		    if line.startswith('#') or not line.strip(): verdict = verdict if line.strip() else None; continue
		    if verdict and line.split()[0] != 'NaN':
		        y, change = line.split()[:2]
		        got[cells[int(y)]] = (verdict, float(change))
		for cell, w in want.items():
		    assert got[cell][0] == w['verdict'], (cell, got[cell], w['verdict'])
		    assert abs(got[cell][1] - w['change_pct']) <= 1e-5 * max(1, abs(w['change_pct'])), (cell, got[cell], w['change_pct'])
		print(len(want), 'cells agree')
		EOF
	done
}

# Issue 20: timens run twice with its default labels, then `compare host
# timens`: the runs of two invocations were pooled as replicates, silently.
@test "runs of different interleaved invocations under one label are pooled only with a note" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/twice.db"
	"$CLOCKBENCH" import "$CLOCKBENCH_TEST_DATA/plot-kinds.json" >/dev/null 2>&1
	# The same timens pair again, as a second invocation (another interleave id).
	"$CLOCKBENCH" export --format json host timens | jq '.runs |= map(.uuid |= sub("^.{8}"; "99999999")
		| .config.interleave = "second-invocation")' >"$BATS_TEST_TMPDIR/again.json"
	"$CLOCKBENCH" import "$BATS_TEST_TMPDIR/again.json" >/dev/null 2>&1
	run "$CLOCKBENCH" compare host timens
	[ "$status" -eq 0 ]
	[[ "$output" == *"# NOTE: the 2 runs of host come from different interleaved invocations (timens or ab run more than once under one label): pooled here as replicates"* ]]
	run "$CLOCKBENCH" compare host timens --format json
	jq -e '.replicates and (.groups | map(.pooled_invocations) == [true, true])' <<<"$output"
	# One invocation's two runs, by id: paired, no note.
	run "$CLOCKBENCH" compare 3 4
	[[ "$output" != *"NOTE"* ]]
	[[ "$output" == *"paired round by round"* ]]
}

# Issue 29: every command that judges goes through one door
# (results/compare-session.h). Runs with set samples, so the verdicts are
# the data's: a history of 4 runs like the base (run 1 against run 6), and
# replicates (5 runs against 3); monotonic syscall 30 % slower, time vdso
# 20 % faster, the rest unchanged.
door_verdicts() {	# FORMAT FILE: "name path verdict" lines, sorted
	python3 - "$1" "$2" <<'PY'
import html, json, re, sys
fmt, path = sys.argv[1], sys.argv[2]
text = open(path).read()
out = []
if fmt == "json":
    for c in json.loads(text)["cells"]:
        out.append((c["name"], c["path"], c["vs_base"][0]["verdict"]))
elif fmt == "mail":
    for m in re.finditer(r"^  (\S+) (\S+) \[([^]]+)\]:", text, re.M):
        out.append((m[1], m[2], "~" if m[3] == "not significant" else m[3]))
elif fmt == "html":
    for m in re.finditer(r'<tr><td class="l">([^<]*)</td><td class="l">([^<]*)</td>'
                         r'.*?<td class="l v-[^"]*">([^<]*)</td></tr>', text):
        out.append((html.unescape(m[1]), m[2], html.unescape(m[3])))
elif fmt == "plot":
    gp = open(path[:-4] + ".gp").read()
    ytics = re.search(r"set ytics \((.*?)\)\n", gp, re.S)[1]
    names = {int(y): n for n, y in re.findall(r'"([^"]*)" (\d+)', ytics)}
    for block in text.split("\n\n\n"):
        head = re.search(r"group 1, verdict (\S+):", block)
        for row in block.splitlines()[1:] if head else []:
            if row and row[0].isdigit():
                out.append(tuple(names[int(row.split()[0])].split(" ")) + (head[1],))
for row in sorted(out):
    print(" ".join(row))
PY
}

@test "one door: compare's JSON, the mail, the HTML report and plot's data give the same verdicts" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/door.db"
	local T="$BATS_TEST_TMPDIR"
	CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db" "$CLOCKBENCH" export 1 >"$T/one.json"
	python3 - "$T/one.json" >"$T/door.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
slower = {("clock-gettime-monotonic", "syscall"): 1.3, ("time", "vdso"): 0.8}
def run(k, label, change):
    r = copy.deepcopy(d["runs"][0])
    r["uuid"] = "00000000-0000-4000-8000-%012d" % k
    r["label"] = label
    for c in r["cells"]:
        f = change.get((c["name"], c["path"]), 1.0) * (1 + 0.004 * (k % 5 - 2))
        # Every round at the measured median: the verdicts are the data's,
        # not this machine's noise in the run the test starts from.
        for key in ("samples", "samples_cycles", "samples_core_cycles"):
            if isinstance(c.get(key), list):
                m = sorted(c[key])[len(c[key]) // 2]
                c[key] = [m * f for _ in c[key]]
    return r
d["runs"] = [run(k, "base", {}) for k in range(1, 6)] + \
            [run(k, "after", slower) for k in range(6, 9)]
json.dump(d, sys.stdout)
PY
	cb import "$T/door.json" >/dev/null
	set -f	# "--cell */vdso" is the glob of --cell, not of the shell
	for sides in "1 6" "base after" "1 6 --cell */vdso"; do
		# shellcheck disable=SC2086
		cb compare --format json $sides >"$T/c.json"
		# shellcheck disable=SC2086
		cb report --format mail --all-cells $sides >"$T/m.txt"
		# shellcheck disable=SC2086
		cb report -o "$T/r.html" $sides >/dev/null
		# shellcheck disable=SC2086
		cb plot --kind compare -o "$T/f.svg" $sides >/dev/null
		door_verdicts json "$T/c.json" >"$T/v.json"
		cat "$T/v.json" >&2
		grep -qx "time vdso better" "$T/v.json"
		if [[ "$sides" == *--cell* ]]; then
			# Only the vDSO's cells, in every door.
			[ "$(wc -l <"$T/v.json")" -eq 3 ]
			[ "$(grep -c ' vdso ~$' "$T/v.json")" -eq 2 ]
		else
			[ "$(wc -l <"$T/v.json")" -eq 6 ]
			grep -qx "clock-gettime-monotonic syscall worse" "$T/v.json"
			[ "$(grep -c ' ~$' "$T/v.json")" -eq 4 ]
		fi
		for f in "mail m.txt" "html r.html" "plot f.dat"; do
			set -- $f
			door_verdicts "$1" "$T/$2" | diff -u "$T/v.json" - >&2
		done
		rm "$T/r.html" "$T/f.svg" "$T/f.gp" "$T/f.dat"
	done
	# One run against one is judged by the history in every door: the
	# same test named in the JSON and the mail.
	cb compare --format json 1 6 | jq -e '[.cells[].vs_base[0].test] | unique == ["student-t-history"]'
	cb report --format mail 1 6 | grep -q "spread of earlier runs like the base (history)"
	run cb compare --cell 'nope*' 1 6
	[ "$status" -eq 1 ]
	[[ "$output" == *"no measured cell matches --cell 'nope*'"* ]]
	# Cells one side never measured are named, not silently dropped.
	cb export 6 | python3 -c 'import json, sys
d = json.load(sys.stdin); r = d["runs"][0]
r["uuid"] = "00000000-0000-4000-8000-0000000000f6"; r["label"] = "partial"
r["cells"] = [c for c in r["cells"] if c["name"] != "time"]
json.dump(d, sys.stdout)' >"$T/partial.json"
	cb import "$T/partial.json" >/dev/null
	run cb report --format mail base partial
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 cells measured on one side only, not compared: time vdso, time"*"syscall"* ]]
}
