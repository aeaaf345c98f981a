#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The readers at size (issue 18: 12): runs lists a store of thousands of
# runs whole and right from one statement; plot and report read a bounded
# number of runs with their samples and refuse more with exit 2 and what
# to do instead, while compare's forest and the mail's comparison, which
# read digests, take any number. No timing here: bench/store-scale gives
# the figures.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	DB="$T/results.db"
	export XDG_DATA_HOME="$T/xdg"
	export XDG_STATE_HOME="$T/state"
	unset CLOCKBENCH_DB
}

# An export of runs: runs_file FILE LABEL:COUNT... Run k of the file
# starts k minutes after 2026-11-01T00:00:00Z (labels in the order given),
# on host h(k % 7); its second cell is n/a, so each lists "2/3" cells.
runs_file() {
	python3 - "$@" <<-'EOF'
	import json, sys
	path, groups = sys.argv[1], [g.split(':') for g in sys.argv[2:]]
	def run(k, label):
	    cell = lambda name, status, samples: {
	        'name': name, 'path': 'vdso', 'api': 'clock_gettime',
	        'clock': 'monotonic', 'status': status, 'unit': 'ns',
	        'batch_calls': 100, 'samples': samples,
	        'reason': '' if status == 'ok' else 'not here',
	        'samples_round': [i % 5 for i in range(len(samples))]}
	    values = [20 + (k % 3) + 0.01 * ((7 * i) % 11) for i in range(50)]
	    return {'uuid': '%08x-0000-4000-8000-%012x' % (0x5e1, k),
	            'command': 'bench', 'label': label, 'host': 'h%d' % (k % 7),
	            'kernel': '6.18.44', 'elapsed_s': 1.0, 'status': 'complete',
	            'started': '2026-11-%02dT%02d:%02d:00Z' % (1 + k // 1440,
	                                                     k // 60 % 24, k % 60),
	            'environment': {'clocksource': 'tsc'}, 'config': None,
	            'cells': [cell('a', 'ok', values), cell('b', 'n/a', []),
	                      cell('c', 'ok', [v * 2 for v in values])]}
	runs, k = [], 0
	for label, count in groups:
	    for _ in range(int(count)):
	        runs.append(run(k, label))
	        k += 1
	json.dump({'clockbench_export': 1, 'runs': runs}, open(path, 'w'))
	EOF
}

@test "runs lists each of 3,000 runs once, oldest first, its cells counted (issue 18: 12)" {
	runs_file "$T/runs.json" early:1000 late:2000
	cb import --db "$DB" "$T/runs.json" >/dev/null 2>&1
	cb runs --db "$DB" >"$T/table"
	[ "$(wc -l <"$T/table")" -eq 3001 ]
	# Ids in start order, each once, every one with 2 of 3 cells measured.
	awk 'NR > 1 { if ($1 != NR - 1) { print "line " NR ": " $0; exit 1 } }' "$T/table"
	[ "$(awk 'NR > 1 && $NF == "2/3"' "$T/table" | wc -l)" -eq 3000 ]
	[ "$(awk 'NR > 1 { print $5 }' "$T/table" | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "1000 2000 " ]
	cb runs --db "$DB" --format json >"$T/json"
	jq -e 'length == 3000 and (map(.id) == [range(1; 3001)])
		and all(.cells_total == 3 and .cells_ok == 2)
		and (map(.uuid) | unique | length == 3000)' "$T/json"
	[ "$(cb runs --db "$DB" --label late --host h3 --format json | jq length)" -eq 286 ]
	[ "$(cb runs --db "$DB" --since 2026-11-02 --format json | jq 'map(.id) | first, length')" = "1441
1560" ]
}

@test "runs --format json gives the fields runs(1) lists, not the runs' cells (issue 18: 12)" {
	runs_file "$T/runs.json" a:2
	cb import --db "$DB" "$T/runs.json" >/dev/null 2>&1
	run cb runs --db "$DB" --format json
	[ "$status" -eq 0 ]
	jq -e 'map(keys) == [range(2)
		| ["cells_ok", "cells_total", "command", "elapsed_s", "emulated", "host", "id",
		   "kernel", "label", "started", "status", "uuid"]]' <<<"$output"
}

@test "runs --problems keeps the newest doctor run of each of many hosts (issue 18: 12)" {
	runs_file "$T/runs.json" d:700
	# Made doctor runs, each host's newest one with a problem.
	python3 - "$T/runs.json" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for k, r in enumerate(d['runs']):
	    newest = k >= len(d['runs']) - 7
	    r['command'] = 'doctor'
	    r['config'] = {'verdict': 'problems' if newest else 'healthy',
	                   'clocksource': 'tsc', 'problems': []}
	json.dump(d, open(sys.argv[1], 'w'))
	EOF
	cb import --db "$DB" "$T/runs.json" >/dev/null 2>&1
	run cb runs --db "$DB" --problems --format json
	[ "$status" -eq 0 ]
	jq -e 'map(.id) == [694, 695, 696, 697, 698, 699, 700]
		and (map(.host) | sort == ["h0", "h1", "h2", "h3", "h4", "h5", "h6"])' <<<"$output"
	[ "$(cb runs --db "$DB" --verdict healthy --format json | jq length)" -eq 693 ]
}

@test "report and plot refuse more runs than they read with samples: exit 2, the limit, what to do (issue 18: 12)" {
	runs_file "$T/runs.json" x:15 y:6
	cb import --db "$DB" "$T/runs.json" >/dev/null 2>&1
	usage_error "21 runs given, at most 20 are read with their samples: name fewer runs, or write --format mail or use clockbench compare, which read any number" \
		report --db "$DB" x y -o "$T/r.html"
	[ ! -e "$T/r.html" ]
	usage_error "21 runs given, at most 20 are read with their samples: name fewer runs, or draw --kind compare, which reads any number" \
		plot --db "$DB" --kind rounds x y -o "$T/p.svg"
	usage_error "at most 20" plot --db "$DB" --kind cells x 1 2 3 4 5 6 -o "$T/p.svg"
	[ -z "$(ls "$T" | grep -v '^runs.json$\|^results.db\|^xdg$\|^state$')" ]
	# The figures of a single group in the mail need the samples too.
	usage_error "21 runs given, at most 20" report --db "$DB" --format mail 'host=h*'
	# At the limit, it reads them.
	run cb report --db "$DB" --format mail x 1 2 3 4 5
	[ "$status" -eq 0 ]
}

@test "compare's forest and the mail's comparison read digests: 60 x 60 runs (issue 18: 12)" {
	runs_file "$T/runs.json" x:60 y:60
	cb import --db "$DB" "$T/runs.json" >/dev/null 2>&1
	run cb report --db "$DB" --format mail x y
	[ "$status" -eq 0 ]
	[[ "$output" == *"y (60 runs) against x (60 runs), ns per call"* ]]
	[[ "$output" == *"all 2 cells: no change beyond 1 %"* ]]
	command -v gnuplot >/dev/null || skip "gnuplot not installed"
	run cb plot --db "$DB" x y -o "$T/f.svg"
	[ "$status" -eq 0 ]
	[ -s "$T/f.svg" ]
	run cb plot --db "$DB" --kind compare x y -o "$T/g.svg"
	[ "$status" -eq 0 ]
	cmp <(tail -n +2 "$T/f.dat") <(tail -n +2 "$T/g.dat")
}
