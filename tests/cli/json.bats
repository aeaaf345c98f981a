#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One JSON writer (basic/json.h): every figure to the last bit, whatever
# command prints it; `bench --format json --samples | clockbench import` is
# the run that export gives, sample for sample, byte for byte.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store
}

# The number tokens of each cell's sample arrays as written (not parsed),
# one line per cell and array: a file that bench, show or export wrote.
sample_tokens() {
	python3 - "$1" <<-'EOF'
	import json, sys
	doc = json.load(open(sys.argv[1]), parse_float=str, parse_int=str)
	runs = doc['runs'] if isinstance(doc, dict) and 'runs' in doc else \
	    doc if isinstance(doc, list) else [doc]
	for run in runs:
	    for c in run['cells']:
	        for k in ('samples', 'samples_cycles', 'samples_core_cycles', 'samples_round'):
	            if k in c:
	                print(c['name'], c['path'], k, ' '.join(map(str, c[k])))
	EOF
}

# Whether some number in a JSON document has at least 10 significant digits:
# nothing rounded it to a table's precision.
full_precision() {
	python3 -c '
import json, re, sys
tokens = []
json.loads(sys.stdin.read(), parse_float=tokens.append)
digits = [len(re.sub(r"[-.]|e.*|^[-0.]+", "", t.lower())) for t in tokens]
sys.exit(0 if digits and max(digits) >= 10 else 1)'
}

@test "bench --format json --samples | import: the run export gives, byte for byte" {
	local other="$T/other.db"

	cb bench --quick --api clock_gettime,time --clock monotonic --path vdso,libc \
		--format json --samples >"$T/bench.json"
	cb export 1 >"$T/export.json"
	CLOCKBENCH_DB=$other cb import - <"$T/bench.json"
	CLOCKBENCH_DB=$other cb export 1 >"$T/imported.json"
	sample_tokens "$T/export.json" >"$T/a"
	sample_tokens "$T/bench.json" >"$T/b"
	sample_tokens "$T/imported.json" >"$T/c"
	[ "$(wc -l <"$T/a")" -ge 4 ]
	cmp "$T/a" "$T/b"
	cmp "$T/a" "$T/c"
	# And show prints the same numbers.
	cb show --format json --samples 1 >"$T/show.json"
	sample_tokens "$T/show.json" >"$T/d"
	cmp "$T/a" "$T/d"
}

@test "compare, scale, doctor and verify write JSON at full precision" {
	cb import "$CLOCKBENCH_TEST_DATA/export-small.json" 2>/dev/null
	cb compare --format json 2 2 | full_precision
	cb scale --no-save --threads 2 --calls 8000 --repetitions 3 --format json |
		full_precision
	cb doctor --no-save --format json | full_precision
	cb verify --check bracket/clock-gettime-monotonic/vdso --format json |
		full_precision
}

@test "compare's JSON median is the median show gives, to the bit" {
	cb import "$CLOCKBENCH_TEST_DATA/export-small.json" 2>/dev/null
	cb compare --metric ns --format json 2 2 >"$T/compare.json"
	cb show --format json 2 >"$T/show.json"
	python3 - "$T/compare.json" "$T/show.json" <<-'EOF'
	import json, sys
	cmp, show = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))['runs'][0]
	median = {(c['name'], c['path']): c['summary']['median']
	          for c in show['cells'] if 'summary' in c}
	seen = 0
	for c in cmp['cells']:
	    got = c['groups'][0]['median']
	    want = median[(c['name'], c['path'])]
	    assert got == want, (c['name'], got, want)
	    seen += 1
	assert seen >= 1
	EOF
}
