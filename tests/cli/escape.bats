#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15, 3: text from a stored run or the command line never drives the
# terminal. A store written behind clockbench's back (sqlite3, an older
# clockbench) holds a window-title sequence, a screen clear, a hidden-text
# switch, a carriage return and a backquoted shell command in its host,
# kernel, label, cell names, reason and exec command line; every command
# that prints them shows them escaped, tables cut a huge value, and plot's
# gnuplot runs no command from them.

bats_require_minimum_version 1.5.0

load helpers

# Python's repr of the raw bytes of stdin: what a test prints on failure.
show_bytes() { python3 -c 'import sys; print(repr(sys.stdin.buffer.read()[:2000]))'; }

# Fails naming the byte when $output holds ESC, BEL, CR, a C1 CSI or a
# right-to-left override.
no_raw_controls() {
	local bad
	for bad in $'\e' $'\a' $'\r' $'\xc2\x9b' $'\xe2\x80\xae'; do
		if [[ "$output" == *"$bad"* ]]; then
			echo "raw control character in the output:"
			printf '%s' "$output" | show_bytes
			return 1
		fi
	done
}

# hostile DB: edit the text of runs 1 and 2 in place, as sqlite3 would.
hostile() {
	python3 - "$1" "${2:-0}" <<'PY'
import json, sqlite3, sys
db, huge = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db)
host = "h\x1b]0;owned\x07" + ("H" * huge)
c.execute("UPDATE runs SET host = ?, kernel = ?, label = ?",
          (host, "k\x1b[2J`touch pwned-kernel`", "lab\rX\u202e"))
c.execute("UPDATE cells SET name = name || ?", ("\x1b[31m`touch pwned-cell`",))
c.execute("UPDATE cells SET reason = ? WHERE status != 'ok'",
          ("r\x1b[8mhidden\x9b",))
# Run 2's clocksource: named where compare says what differs between sides.
env = json.loads(c.execute("SELECT env FROM runs WHERE id = 2").fetchone()[0])
env["clocksource"] = "cs\x1b[2J<b>&"
c.execute("UPDATE runs SET env = ? WHERE id = 2", (json.dumps(env),))
for rid, cfg in c.execute("SELECT id, config FROM runs").fetchall():
    cfg = json.loads(cfg)
    cfg["command_line"] = "true\x1b]2;title\x07"
    c.execute("UPDATE runs SET config = ? WHERE id = ?", (json.dumps(cfg), rid))
c.commit()
PY
}

# Two exec runs and one with an unmeasured cell (its reason), made as
# clockbench makes them, then edited.
setup_file() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/clean.db"
	cb exec -n 5 -- true >/dev/null 2>&1
	cb exec -n 5 -- true >/dev/null 2>&1
	cb export 1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
run = d["runs"][0]
run["uuid"] = "00000000-0000-4000-8000-000000000003"
cell = dict(run["cells"][0], name="skipped", status="unsupported",
            reason="not here", samples=[])
cell.pop("samples_round", None)
run["cells"].append(cell)
json.dump(d, sys.stdout)' >"$BATS_FILE_TMPDIR/third.json"
	cb import "$BATS_FILE_TMPDIR/third.json" >/dev/null 2>&1
	cp "$CLOCKBENCH_DB" "$BATS_FILE_TMPDIR/results.db"
	hostile "$BATS_FILE_TMPDIR/results.db"
}

setup() {
	export CLOCKBENCH_DB="$BATS_FILE_TMPDIR/results.db"
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
	cd "$BATS_TEST_TMPDIR"
}

@test "the test store does hold raw control characters" {
	run python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
		"SELECT host FROM runs WHERE id = 1").fetchone()[0])' "$CLOCKBENCH_DB"
	[[ "$output" == *$'\e]0;owned\a'* ]]
}

@test "runs escapes every field, in every format it prints as text" {
	local fmt
	for fmt in table csv markdown; do
		run cb runs --format "$fmt"
		[ "$status" -eq 0 ]
		no_raw_controls
		[[ "$output" == *'h\e]0;owned\x07'* ]]
		[[ "$output" == *'k\e[2J'* ]]
		[[ "$output" == *'lab\rX\u202e'* ]]
	done
	# JSON keeps the text whole, its controls escaped as JSON escapes them.
	run cb runs --format json
	[[ "$output" != *$'\e'* && "$output" != *$'\a'* && "$output" != *$'\r'* ]]
	[ "$(jq -r '.[0].host' <<<"$output")" = $'h\e]0;owned\a' ]
}

@test "show escapes the header, the environment, the config, cell names and reasons" {
	run cb show 1 3
	[ "$status" -eq 0 ]
	no_raw_controls
	[[ "$output" == *'# host: h\e]0;owned\x07'* ]]
	[[ "$output" == *'command_line: true\e]2;title\x07'* ]]
	[[ "$output" == *'wall\e[31m`touch pwned-cell`'* ]]
	[[ "$output" == *'unsupported: r\e[8mhidden\u009b'* ]]
	run cb show --histogram 1
	no_raw_controls
}

@test "compare escapes in every style and format" {
	local style format
	for style in table mmtests ratio summary ministat; do
		run cb compare --style "$style" 1 2
		[ "$status" -eq 0 ] || { echo "$style: $status $output"; return 1; }
		no_raw_controls || { echo "style $style"; return 1; }
		[[ "$output" == *'\e[31m'* ]] || { echo "$style: $output"; return 1; }
		# The sides' difference names the stored clocksource, escaped.
		[[ "$output" == *"DIFFERENT between"*'clocksource '*' against cs\e[2J<b>&'* ]] ||
			{ echo "$style: $output"; return 1; }
	done
	for format in csv markdown json tap; do
		run cb compare --format "$format" 1 2
		[ "$status" -eq 0 ] || { echo "$format: $status $output"; return 1; }
		no_raw_controls || { echo "format $format"; return 1; }
	done
	run cb compare --style table 1 2
	[[ "$output" == *'host h\e]0;owned\x07'* ]]
}

@test "compare --format csv quotes a name with a comma; markdown escapes a pipe" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/c.db"
	cp "$BATS_FILE_TMPDIR/clean.db" "$CLOCKBENCH_DB"
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE cells SET name = ? WHERE name = ?", ("wa,l\"l|x", "wall")); c.commit()' \
		"$CLOCKBENCH_DB"
	run cb compare --format csv 1 2
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n"wa,l""l|x",,run 1,5,'* ]] || { echo "$output"; return 1; }
	run cb compare --format markdown 1 2
	[[ "$output" == *'| wa,l"l\|x |'* ]] || { echo "$output"; return 1; }
}

@test "export --format csv: fields escaped and quoted, JSON escaped its own way" {
	run --separate-stderr cb export --format csv 1
	[ "$status" -eq 0 ]
	no_raw_controls
	[[ "$output" == *',lab\rX\u202e,wall\e[31m`touch pwned-cell`,,s,0,'* ]] || { echo "$output" | head -3; return 1; }
	# JSON escapes C0 controls as \u001b; it keeps other characters as they are.
	run --separate-stderr cb export 1
	[ "$status" -eq 0 ]
	[[ "$output" != *$'\e'* && "$output" != *$'\a'* && "$output" != *$'\r'* ]]
	[[ "${output,,}" == *'"host":"h\u001b]0;owned\u0007'* ]]
}

@test "report: the mail and the HTML escape the text, the HTML its markup too" {
	run cb report --format mail 1 2
	[ "$status" -eq 0 ]
	no_raw_controls
	[[ "$output" == *'h\e]0;owned\x07'* ]]
	[[ "$output" == *'against cs\e[2J<b>&'* ]]
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET host = ?", ("<b>h&\"x\x1b[2J</b>",)); c.commit()' "$CLOCKBENCH_DB"
	run cb report -o r.html 1 2
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	output=$(cat r.html)
	no_raw_controls
	[[ "$output" != *'<b>h'* ]]
	[[ "$output" == *'&lt;b&gt;h&amp;&quot;x\e[2J&lt;/b&gt;'* ]]
	[[ "$output" == *'<p class="warning"><b>Different between the sides:</b> clocksource '*' against cs\e[2J&lt;b&gt;&amp;'* ]]
	[ ! -e pwned-kernel ] && [ ! -e pwned-cell ]
}

@test "plot: no backquoted command runs, the script holds no raw control" {
	run cb plot -o p.svg 1 2
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	no_raw_controls
	[ ! -e pwned-kernel ] || { echo "gnuplot ran the kernel's backquotes"; return 1; }
	[ ! -e pwned-cell ] || { echo "gnuplot ran a cell name's backquotes"; return 1; }
	output=$(cat p.gp)
	no_raw_controls
	[[ "$output" == *'\140touch pwned-kernel\140'* ]]
	# The forest names run 2's clocksource as what differs: escaped as the
	# run was loaded (ESC as \e), then quoted for gnuplot (the \ doubled).
	run cb plot --kind compare -o f.svg 1 2
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	no_raw_controls
	[ ! -e pwned-kernel ] || { echo "gnuplot ran the kernel's backquotes"; return 1; }
	output=$(cat f.gp)
	no_raw_controls
	[[ "$output" == *'set title "'*'\nDIFFERENT: clocksource '*' against cs\\e[2J<b>&"'* ]] ||
		{ grep -n DIFFERENT f.gp; return 1; }
}

@test "plot and report of an imported file: its backquotes stay text" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/imported.db"
	cp "$BATS_FILE_TMPDIR/clean.db" "$CLOCKBENCH_DB"
	cb export 1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
run = d["runs"][0]
run.update(uuid="00000000-0000-4000-8000-000000000009", host="`touch pwned-host`")
json.dump(d, sys.stdout)' >bq.json
	cb import bq.json
	run cb plot -o p.svg 4
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run cb report -o r.html 4
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ ! -e pwned-host ] || { echo "gnuplot ran the host's backquotes"; return 1; }
}

@test "a 10 MB host name: runs prints a cut cell, not 10 MB a row" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/huge.db"
	cp "$BATS_FILE_TMPDIR/clean.db" "$CLOCKBENCH_DB"
	hostile "$CLOCKBENCH_DB" 10000000
	cb runs >runs.txt
	# Three runs and a header: a few hundred bytes each, whatever the host.
	[ "$(wc -c <runs.txt)" -lt 2000 ] || { head -c 600 runs.txt; return 1; }
	[ "$(wc -l <runs.txt)" -eq 4 ]
	grep -q 'h\\e\]0;owned\\x07HHHH*…  k' runs.txt
	cb show 1 >show.txt
	[ "$(wc -c <show.txt)" -lt 200000 ]
	cb compare 1 2 >compare.txt
	[ "$(wc -c <compare.txt)" -lt 20000 ]
}

@test "error messages escape what they echo, in one line" {
	run cb show $'run\e]0;owned\a\nfake: line'
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	no_raw_controls
	[[ "$output" == *'run\e]0;owned\x07\nfake: line'* ]]
	usage_error "unknown option '--x\\e[2J'" runs $'--x\e[2J'
	usage_error "invalid --since 'x\\r'" runs --since $'x\r'
	usage_error "command not found: no\\e]0;x\\x07such" exec -- $'no\e]0;x\asuch'
	run cb runs --db $'/nonexistent/\e[2Jdb'
	[ "$status" -eq 1 ]
	no_raw_controls
	[[ "$output" == *'/nonexistent/\e[2Jdb'* ]]
}

@test "exec's own header escapes the command line it shows" {
	export CLOCKBENCH_DB="$BATS_TEST_TMPDIR/exec.db"
	run cb exec -n 2 --no-save -- /bin/echo $'\e]0;owned\a'
	[ "$status" -eq 0 ]
	no_raw_controls
	[[ "$output" == *"# clockbench exec: /bin/echo '\\e]0;owned\\x07'"* ]]
}

@test "vdso --file: symbol names from the file are shown escaped" {
	python3 - "$CLOCKBENCH_TEST_DATA/vdso-x86_64.so" evil.so <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"__vdso_time\0") == 1
open(sys.argv[2], "wb").write(data.replace(b"__vdso_time\0", b"__vd\x1b[2Jxyz\0"))
PY
	run cb vdso --file evil.so
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	no_raw_controls
	[[ "$output" == *'__vd\e[2Jxyz'* ]]
}

@test "show of a hotplug run escapes its state names and its user/sys note" {
	local db="$BATS_TEST_TMPDIR/hp.db"
	hotplug_file "$BATS_TEST_TMPDIR/hp.json" 00000000-0000-4000-8000-000000000030 hp 1
	cb import --db "$db" "$BATS_TEST_TMPDIR/hp.json" >/dev/null 2>&1
	python3 - "$db" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE cells SET name = ? WHERE name = 'state:cpu:teardown:offline'",
          ("state:cpu\x1b[2J:teardown`touch pwned-state`:offline",))
cfg = json.loads(c.execute("SELECT config FROM runs").fetchone()[0])
cfg["cpu_accounting"]["hz_source"] = "CONFIG_HZ\x1b]0;owned\x07"
c.execute("UPDATE runs SET config = ?", (json.dumps(cfg),))
c.commit()
PY
	run cb show --db "$db" hp
	[ "$status" -eq 0 ]
	no_raw_controls
	[[ "$output" =~ $'\n'cpu\\e\[2J:teardown\`touch\ pwned-state\`\ +1\.230\  ]]
	[[ "$output" == *'HZ 250, CONFIG_HZ\e]0;owned\x07): below 4 ms'* ]]
	[ ! -e pwned-state ]
}
