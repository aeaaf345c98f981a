#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 20: the mail's "To reproduce" lines run, and make the same cells.
# Runs are made with bench (with --api, --clock and --path), ab (with
# --env arms), timens (root), scale and exec; each line the mail prints is
# read by the shell as a reader who pastes it would, then run twice: with
# --no-save added after the command (it must succeed), and into a store
# of its own, whose run must hold the cells of the original, no more, no
# fewer. The mail itself: 72 columns at most on every line, no figure cut
# from its sign or unit at a line's end, no id of the store, ns per call
# beside core cycles, and --all-cells for a line per cell.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store "$T"
	cd "$T"
}

# The commands of the "To reproduce:" lines of mail file $1, read by the
# shell: clockbench is a function that writes its argv, one NUL-ended word
# each, to argv.N (in $T); nothing else runs.
eval_reproduce() {
	{
		printf '%s\n' 'n=0; clockbench() { n=$((n + 1)); printf "%s\0" "$@" >"argv.$n"; }'
		sed -n '/^To reproduce:$/,$p' "$1" | tail -n +2
	} >"$T/eval.sh"
	sh -n "$T/eval.sh"
	(cd "$T" && sh "$T/eval.sh")
}

# The sorted "name path" of every cell of the runs that spec names.
cells_of() {
	cb export "$@" | jq -r '.runs[].cells[] | "\(.name) \(.path)"' | sort -u
}

# Every line of file $1 within 72 columns (characters, not bytes).
within_72() {
	python3 - "$1" <<-'EOF'
	import sys
	bad = [l for l in open(sys.argv[1], encoding='utf-8').read().split('\n') if len(l) > 72]
	for l in bad:
	    print('over 72 (%d): %s' % (len(l), l))
	sys.exit(1 if bad else 0)
	EOF
}

# reproduces SPEC...: the mail of the runs SPEC names; every measuring
# line in it runs with --no-save and, into a store of its own, makes the
# same cells as the runs it stands for; the comparison line names the
# groups. Sets $MAIL (the file).
reproduces() {
	local n f want got
	MAIL="$T/mail.txt"
	cb report --format mail "$@" >"$MAIL"
	cat "$MAIL"
	rm -f "$T"/argv.*
	eval_reproduce "$MAIL"
	want=$(cells_of "$@")
	[ -n "$want" ]
	n=0
	for f in "$T"/argv.*; do
		mapfile -d '' -t words <"$f"
		[ "${words[0]}" != compare ] || continue
		n=$((n + 1))
		echo "reproducing: ${words[*]}"
		# With --no-save after the command: exec's COMMAND is after "--".
		run "$CLOCKBENCH" "${words[0]}" --no-save "${words[@]:1}"
		[ "$status" -eq 0 ] || { echo "--no-save: status $status: $output"; return 1; }
		AGAIN=$((${AGAIN:-0} + 1))
		run env CLOCKBENCH_DB="$T/again-$AGAIN.db" "$CLOCKBENCH" "${words[@]}"
		[ "$status" -eq 0 ] || { echo "status $status: $output"; return 1; }
		got=$(CLOCKBENCH_DB="$T/again-$AGAIN.db" cells_of --all)
		[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
	done
	[ "$n" -ge 1 ]
	within_72 "$MAIL"
	! grep -E '[a-z]#[0-9]|run [0-9]+\b' "$MAIL" || { echo "a store id in the mail"; return 1; }
}

@test "bench with --api, --clock and --path: the line keeps every filter" {
	cb bench --quick --api clock_gettime,time --clock monotonic,boottime \
		--path vdso,syscall --label filtered >/dev/null 2>&1
	reproduces filtered
	grep -q -- '--path vdso,syscall' "$MAIL"
}

@test "bench replicates: one line, said to have made them all" {
	for i in 1 2; do
		cb bench --quick --api gettimeofday --path libc --label twice >/dev/null 2>&1
	done
	reproduces twice
	[ "$(grep -c '^  clockbench bench' "$MAIL")" -eq 1 ]
	grep -q '^  # twice, on kernel .*, 2 times:$' "$MAIL"
}

@test "ab with --env arms: one line with every arm, runnable" {
	cb ab --env TZ=UTC --env "CB_NOTE=it's a b" --quick --api time --path vdso \
		--repetitions 4 >/dev/null 2>&1
	# Labelled ab-ID-base, ab-ID-env-1, ...: this invocation's.
	read -r base env1 env2 < <(cb runs --format json | jq -r 'map(.label) | join(" ")')
	[[ "$base" =~ ^ab-[0-9a-f]{8}-base$ && "$env2" == "${base%base}env-2" ]]
	reproduces "$base" "$env1" "$env2"
	[ "$(grep -c '^  clockbench ab' "$MAIL")" -eq 1 ]
	grep -q "^  # $base, $env1 and" "$MAIL"
	# ab compared its arms itself: no compare line to add.
	! grep -q 'clockbench compare' "$MAIL"
	grep -qF -- "--env 'CB_NOTE=it'\\''s a b'" "$MAIL"
}

@test "timens with its filters: both sides from one line" {
	[ "$(id -u)" -eq 0 ] || skip "timens needs root"
	cb timens --quick --api clock_gettime --clock monotonic,boottime --path vdso \
		--repetitions 4 --host-label h1 --timens-label n1 >/dev/null 2>&1 ||
		skip "no time namespace here"
	reproduces h1 n1
	[ "$(grep -c '^  clockbench timens' "$MAIL")" -eq 1 ]
}

@test "scale and exec: the lines run as they were given" {
	cb scale --threads 2 --calls 8000 --repetitions 2 --label sc >/dev/null 2>&1
	reproduces sc
	# Each command succeeds only with its last word whole, as given.
	cb exec -n 2 --label ex -- sh -c 'test "$0" = "a b"' 'a b' >/dev/null 2>&1
	cb exec -n 2 --label ex -- sh -c 'test "$0" = "it'"'"'s"' "it's" >/dev/null 2>&1
	reproduces ex
	grep -qF -- "-- sh -c 'test \"\$0\" = \"a b\"' 'a b'" "$MAIL"
}

@test "a run's recorded command line leaves out --db, a store (maybe a password)" {
	cb bench --quick --api time --path vdso --db "$T/other.db" --label a >/dev/null 2>&1
	cb bench --quick --api time --db "$T/overridden.db" --path vdso --db="$T/other.db" \
		--label b >/dev/null 2>&1
	CLOCKBENCH_DB="$T/other.db" cb export a b >"$T/x.json"
	jq -e '[.runs[].environment.argv] ==
		[["bench", "--quick", "--api", "time", "--path", "vdso", "--label", "a"],
		 ["bench", "--quick", "--api", "time", "--path", "vdso", "--label", "b"]]' "$T/x.json"
	# exec's command keeps a --db of its own.
	cb exec -n 1 --label e -- true --db x >/dev/null 2>&1 || true
	cb export e | jq -e '.runs[0].environment.argv ==
		["exec", "-n", "1", "--label", "e", "--", "true", "--db", "x"]'
}

# Runs whose change is known, with cell names of every length: the lines
# wrap at every place, and a figure must never leave its sign or unit.
known_runs() {
	python3 - "$T/known.json" <<-'EOF'
	import json, sys
	def run(uuid, label, slower):
	    cells = []
	    for k in range(40):
	        name = 'c' + 'x' * k
	        base = 26.1 + k
	        values = [base * slower * (1 + 0.001 * ((7 * i) % 11 - 5)) for i in range(100)]
	        cells.append({'name': name, 'path': 'vdso', 'api': 'clock_gettime',
	                      'clock': 'monotonic', 'status': 'ok', 'unit': 'ns',
	                      'batch_calls': 100, 'samples': values,
	                      'samples_core_cycles': [v * 3.1 for v in values],
	                      'samples_round': [i % 10 for i in range(100)]})
	    return {'uuid': uuid, 'command': 'bench', 'label': label, 'host': 'box',
	            'kernel': '6.19.0', 'started': '2026-12-01T10:00:00Z', 'elapsed_s': 1,
	            'status': 'complete', 'cells': cells,
	            'environment': {'argv': ['bench', '--label', label]},
	            'config': {'method': {'budget_s': 0.25, 'rounds': 10}}}
	# Four earlier runs like the base: the history that lets one run be
	# judged against one (compare's policy, issue 20).
	earlier = [run('cccccccc-3333-4333-8333-33333333333%d' % i, 'earlier', f)
	           for i, f in enumerate((1.0, 1.002, 0.998, 1.001))]
	json.dump({'clockbench_export': 1, 'runs': earlier + [
	    run('aaaaaaaa-1111-4111-8111-111111111111', 'old', 1.0),
	    run('bbbbbbbb-2222-4222-8222-222222222222', 'new', 1.332)]},
	    open(sys.argv[1], 'w'))
	EOF
	cb import "$T/known.json" >/dev/null
}

# No line ends with a figure whose sign, unit or count went to the next.
no_cut_figures() {
	python3 - "$1" <<-'EOF'
	import re, sys
	lines = open(sys.argv[1]).read().split('\n')
	bad = []
	for a, b in zip(lines, lines[1:]):
	    if re.search(r'[0-9]$', a) and re.match(r'\s*(%|ns\b|core\b|v\b|rounds|runs|samples|->)', b):
	        bad.append(a + ' / ' + b)
	    if re.search(r'(->| v)$', a) or re.match(r'\s*%', b):
	        bad.append(a + ' / ' + b)
	for x in bad:
	    print('cut:', x)
	sys.exit(1 if bad else 0)
	EOF
}

@test "mail: 72 columns, no figure cut at a line's end, ns beside core cycles" {
	known_runs
	run cb report --format mail old new
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$T/m.txt"
	cat "$T/m.txt"
	within_72 "$T/m.txt"
	no_cut_figures "$T/m.txt"
	# Judged in core cycles, every changed cell says its ns per call too.
	flat=$(tr -s '\n ' '  ' <"$T/m.txt")
	for k in 0 17 39; do
		name=c$(printf 'x%.0s' $(seq 1 $k))
		[[ "$flat" == *"$name vdso [worse]: "*" core cycles (+33.2 %, 95 % CI "*"), "*" ns (+33.2 %); 10 v 10 rounds"* ]] ||
			{ echo "no line for $name"; return 1; }
	done
}

@test "mail --all-cells: a line for every cell, the unchanged too" {
	known_runs
	python3 - "$T/known.json" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for r in d['runs']:
	    r['uuid'] = r['uuid'][:-2] + 'f' + r['uuid'][-1]
	    r['label'] += '2'
	    r['cells'] = r['cells'][:3]
	d['runs'][-1]['cells'][1] = d['runs'][-2]['cells'][1]
	json.dump(d, open(sys.argv[1], 'w'))
	EOF
	# A store of their own: old and new (+33 %) would stand in old2's history.
	export CLOCKBENCH_DB="$T/second.db"
	cb import "$T/known.json" >/dev/null
	run cb report --format mail old2 new2
	[ "$(grep -c '^  cx* vdso' <<<"$output")" -eq 2 ]
	[[ "$output" == *"the other 1 cell"* ]]
	run cb report --format mail --all-cells old2 new2
	[ "$status" -eq 0 ]
	echo "$output"
	[ "$(grep -c '^  cx* vdso' <<<"$output")" -eq 3 ]
	[[ "$output" == *"  cx vdso [not significant]: "* ]]
	[[ "$output" != *"the other"* ]]
	printf '%s\n' "$output" >"$T/m.txt"
	within_72 "$T/m.txt"
	usage_error "--all-cells is for --format mail" report --all-cells old2 new2
}
