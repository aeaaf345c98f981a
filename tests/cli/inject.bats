#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 18, 1 and 2: data is never code. Runs are imported with every text
# field (label, host, kernel, cell names, paths, api, clock, unit, cycle
# unit, hotplug state names, environment) set to one hostile payload per
# test: quotes of both kinds, backslashes, backquotes, @ macros,
# system(...), load, set output, set print, a gnuplot system command and
# newlines (the last through the store, import refuses control
# characters). Every chart kind and the report then draw them: each
# succeeds, shows the text as it is, gnuplot runs nothing (no canary file
# appears, the victim file keeps its bytes), only the expected files are
# written, and the kept NAME.gp is as harmless when run again. The report
# holds a Content-Security-Policy and no script, and Chromium runs none.
#
# The payloads reach the canary directory through $CBC (the shell that
# gnuplot's system() starts expands it) or getenv("CBC"): absolute paths
# short enough for a label (64 bytes), wherever gnuplot runs.

bats_require_minimum_version 1.5.0

load helpers

FIXTURE="$CLOCKBENCH_TEST_DATA/plot-kinds.json"

# Every chart kind with the runs that it draws (tests/cli/hostile-export):
# run 7 first, so that distribution labels its axis with the hostile unit.
KINDS=("cells 1 8" "distribution 7 1" "rounds 1 5" "scale 2" "compare 1 5"
	"hotplug 6" "timens 3 4")

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store "$T"
	export CBC="$T/canary"
	mkdir -p "$CBC" "$T/cwd" "$T/out"
	printf 'system "touch %s/loaded"\n' "$CBC" >"$CBC/evil.gp"
	printf 'victim\n' >"$CBC/victim"
	cd "$T/cwd"
}

# import_hostile PAYLOAD: the fixture's runs, every text field PAYLOAD.
import_hostile() {
	"$BATS_TEST_DIRNAME/hostile-export" "$FIXTURE" "$1" >"$T/hostile.json"
	run cb import "$T/hostile.json"
	[ "$status" -eq 0 ] || { echo "import: $output"; return 1; }
}

# Fails when gnuplot ran anything: a file in the canary directory but the
# two planted ones, the victim changed, or any file in the working
# directory.
nothing_ran() {
	local extra
	extra=$(cd "$CBC" && ls -A | grep -vxF -e evil.gp -e victim || true)
	[ -z "$extra" ] || { echo "gnuplot ran a payload: $extra"; return 1; }
	[ "$(cat "$CBC/victim")" = victim ] || { echo "the victim was overwritten"; return 1; }
	[ -z "$(ls -A "$T/cwd")" ] || { echo "files in the cwd: $(ls -A "$T/cwd")"; return 1; }
}

# The text of every <text> and <title> element of an SVG, one per line.
svg_texts() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
for e in ET.parse(sys.argv[1]).iter():
    if e.tag in ("{http://www.w3.org/2000/svg}text", "{http://www.w3.org/2000/svg}title"):
        print("".join(e.itertext()))' "$1"
}

# draw_all PAYLOAD: every kind into its own directory, each holding then
# only its picture, script and data, the picture showing PAYLOAD as text;
# the kept script run again by gnuplot draws the same and runs nothing.
draw_all() {
	local p=$1 spec kind dir
	for spec in "${KINDS[@]}"; do
		set -- $spec
		kind=$1
		shift
		dir="$T/out/$kind"
		mkdir -p "$dir"
		run cb plot --kind "$kind" -o "$dir/$kind.svg" "$@"
		[ "$status" -eq 0 ] || { echo "plot --kind $kind: $output"; return 1; }
		nothing_ran || { echo "(plot --kind $kind)"; return 1; }
		[ "$(cd "$dir" && ls -A | sort | tr '\n' ' ')" = "$kind.dat $kind.gp $kind.svg " ] ||
			{ echo "$kind wrote: $(ls -A "$dir")"; return 1; }
		svg_texts "$dir/$kind.svg" | grep -F -- "$p" >/dev/null ||
			{ echo "$kind: no text holds the payload"; return 1; }
		(cd "$dir" && gnuplot "$kind.gp") || { echo "gnuplot $kind.gp failed"; return 1; }
		nothing_ran || { echo "(gnuplot $kind.gp)"; return 1; }
		[ "$(ls -A "$dir" | wc -l)" -eq 3 ] || { echo "$kind.gp wrote: $(ls -A "$dir")"; return 1; }
	done
}

# report_all LABEL: the report of every run (all are labelled LABEL: one
# group, every kind but compare) and of runs 1 and 5 (compare), one HTML
# file each and nothing else, with the policy and no script in it.
report_all() {
	local set i=0
	for set in "$1" "1 5"; do
		i=$((i + 1))
		mkdir -p "$T/report$i"
		if [ "$i" -eq 1 ]; then
			run cb report -o "$T/report$i/r.html" "$set"
		else
			run cb report -o "$T/report$i/r.html" $set
		fi
		[ "$status" -eq 0 ] || { echo "report $set: $output"; return 1; }
		[[ "$output" != *"left out"* ]] || { echo "report $set: $output"; return 1; }
		nothing_ran || { echo "(report $set)"; return 1; }
		[ "$(ls -A "$T/report$i")" = r.html ] ||
			{ echo "report $set wrote: $(ls -A "$T/report$i")"; return 1; }
		grep -qF "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:;" \
			"$T/report$i/r.html" || { echo "report $set: no policy"; return 1; }
		! grep -qi '<script\|<foreignObject\|<[^>]* on[a-z]* *=' "$T/report$i/r.html" ||
			{ echo "report $set holds script"; return 1; }
	done
}

# matrix PAYLOAD: the whole check for one payload.
matrix() {
	import_hostile "$1"
	draw_all "$1"
	report_all "$1"
}

@test "a plain apostrophe (o'brien) is drawn and reported as it is" {
	matrix "o'brien"
}

@test "single quote: x' . system(\"touch F\") . ' runs nothing" {
	matrix "x' . system(\"touch \$CBC/sq\") . '"
}

@test "double quote: x\" . system(\"touch F\") . \" runs nothing" {
	matrix "x\" . system(\"touch \$CBC/dq\") . \""
}

@test "a backslash before a single quote runs nothing" {
	matrix "x\\' . system(\"touch \$CBC/bsq\") . '\\"
}

@test "backslashes before a double quote run nothing" {
	matrix "x\\\\\" . system(\"touch \$CBC/bdq\") . \"\\"
}

@test "backquotes run no shell command" {
	matrix "x\`touch \$CBC/bq\`y '\`touch \$CBC/bq2\`' \"\`touch \$CBC/bq3\`\""
}

@test "@ macros expand nothing" {
	matrix "x'; m = \"system('touch \$CBC/at')\"; @m; @cb_data '"
}

@test "load runs no other file" {
	matrix "x'; load getenv(\"CBC\").\"/evil.gp\"; \" '"
}

@test "set output overwrites no file" {
	matrix "x'; set output getenv(\"CBC\").\"/victim\"; plot 1; '"
}

@test "print and set print write nothing" {
	matrix "x\"; set print getenv(\"CBC\").\"/printed\"; print 1; \"'"
}

@test "a gnuplot system command in a title runs nothing" {
	matrix "x'; system \"touch \$CBC/sys\"; \"; system \"touch \$CBC/sys2\"; '"
}

# Import refuses control characters; a store written behind clockbench's
# back (sqlite3, an older clockbench) can still hold them.
@test "newlines in a store's text end no line of the script" {
	sqlite_only
	import_hostile "plain"
	python3 - "$CLOCKBENCH_DB" <<-'EOF'
	import sqlite3, sys
	c = sqlite3.connect(sys.argv[1])
	nl = '\nsystem "touch $CBC/nl"\n'
	c.execute("UPDATE runs SET label = ?, host = ?, kernel = ?",
	          ("n" + nl + "l'", "h" + nl, "k\\" + nl))
	c.execute("UPDATE cells SET name = replace(name, 'plain', ?), "
	          "path = replace(path, 'plain', ?), api = ?, clock = ?",
	          ("\n'" + nl + "'", "\\" + nl, nl, nl))
	c.commit()
	EOF
	for spec in "${KINDS[@]}"; do
		set -- $spec
		run cb plot --kind "$1" -o "$T/out/$1.svg" "${@:2}"
		[ "$status" -eq 0 ] || { echo "plot --kind $1: $output"; return 1; }
		nothing_ran
	done
	report_all $'n\nsystem "touch $CBC/nl"\nl\''
}

@test "an output name with quotes, backquotes and @ is only a name" {
	import_hostile "plain"
	# No slash in a name: the canary is $CBC's sibling "canaryo".
	name="it's \"q\" \`touch \${CBC}o\` @cb_data \\"
	run cb plot --kind cells -o "$T/out/$name.svg" 1
	[ "$status" -eq 0 ]
	nothing_ran
	[ ! -e "${CBC}o" ]
	[ -s "$T/out/$name.svg" ]
	(cd "$T/out" && gnuplot "$name.gp")
	nothing_ran
	[ ! -e "${CBC}o" ]
	[ "$(ls -A "$T/out" | wc -l)" -eq 3 ]
}

# gnuplot opens a file name that starts with < or | as a command: the
# kept script names its data and picture so that they stay files.
@test "an output name starting with < or | runs nothing when its script is drawn again" {
	import_hostile "plain"
	for name in "|touch \${CBC}p" "<touch \${CBC}d"; do
		run cb plot --kind cells -o "$T/out/$name.svg" 1
		[ "$status" -eq 0 ]
		(cd "$T/out" && gnuplot "./$name.gp")
		nothing_ran
		[ ! -e "${CBC}p.svg" ] && [ ! -e "${CBC}d.dat" ]
	done
	[ "$(ls -A "$T/out" | wc -l)" -eq 6 ]
}

# The report's SVGs once carried gnuplot's `mouse` script: a state name
# that switched the terminal to svg mouse jsdir "data:,...". Chromium runs
# nothing from a hostile report: the title stays, no script element, no
# handler, no console output (browser-check fails on any).
@test "Chromium runs no script from a hostile report" {
	command -v chromium || skip "chromium is not installed (scripts/install-deps browser)"
	p="X';unset multi;se te svg mouse jsdir \"data:,document.title='P'//\";se ou cb_out1;p 1 t '"
	import_hostile '<script>document.title="P"</script><b onclick=x>'
	jq --arg p "$p" '.runs = [.runs[5] | .uuid = "18181818-0000-4000-8000-00000000000a"
		| .label = "jsdir" | .cells[6].name = ("state:" + $p + ":offline")]' \
		"$T/hostile.json" >"$T/mouse.json"
	cb import "$T/mouse.json"
	cb report -o "$T/hostile.html" 6 9
	nothing_ran
	run "$BATS_TEST_DIRNAME/browser-check" "$T/hostile.html" 1280 900 "$T/shot.png" 3
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e '.title | startswith("clockbench report: 2 hotplug runs, ")' <<<"${lines[-1]}"
	jq -e '.any_scripts == 0 and .handlers == 0' <<<"${lines[-1]}"
	jq -e ".csp | startswith(\"default-src 'none'\")" <<<"${lines[-1]}"
}

# Issue 20: the command line a run recorded (its environment's argv) is
# printed by the mail and the HTML for a reader to paste. A crafted run
# recording hostile words (every payload above, one quoting each way, an
# HTML tag, a word longer than a line) gives them back word for word when
# the mail's lines and the HTML's are read by the shell, and runs nothing.
@test "a hostile recorded command line prints as quoted shell words, in the mail and the HTML" {
	local long
	long="$(printf "it's %.0s" $(seq 1 30))\$(touch \$CBC/long)"
	jq --arg long "$long" '
		.runs = [.runs[0], .runs[4]]
		| .runs[0].environment.argv = ["bench", "--label", "x",
			"o'"'"'brien", "x'"'"' . system(\"touch $CBC/sq\") . '"'"'",
			"`touch $CBC/bq` $(touch $CBC/dollar); touch $CBC/semi",
			"x\\'"'"' \\\\\" \" \\\\", "</pre><script>document.title=1</script>", "@cb_data",
			"--db=postgresql://u:pw@h/d", $long]
		| .runs[1].environment.argv = ["bench", "--label", "b"]' \
		"$FIXTURE" >"$T/argv.json"
	cb import "$T/argv.json"
	want=$(jq -c '.runs[0].environment.argv' "$T/argv.json")
	# The mail: its lines read by sh, clockbench a function keeping its words.
	cb report --format mail a b >"$T/mail.txt"
	! awk 'length > 72' "$T/mail.txt" | grep . || { cat "$T/mail.txt"; return 1; }
	{
		printf '%s\n' 'n=0; clockbench() { n=$((n + 1)); printf "%s\0" "$@" >"$T/argv.$n"; }'
		sed -n '/^To reproduce:$/,$p' "$T/mail.txt" | tail -n +2
	} >"$T/eval.sh"
	T="$T" sh "$T/eval.sh"
	nothing_ran
	got=$(python3 -c 'import json, sys; print(json.dumps(open(sys.argv[1], "rb").read().decode().split("\0")[:-1], separators=(",", ":"), ensure_ascii=False))' "$T/argv.1")
	[ "$got" = "$want" ] ||
		{ echo "want $want"; echo "got  $got"; cat "$T/mail.txt"; return 1; }
	# The HTML: the run's line in a <pre>, as text, the same words again.
	cb report -o "$T/r.html" a b >/dev/null
	nothing_ran
	! grep -qi '<script' "$T/r.html"
	python3 - "$T/r.html" >"$T/html-line.sh" <<-'EOF'
	import html.parser, sys
	class P(html.parser.HTMLParser):
	    def __init__(self):
	        super().__init__()
	        self.made, self.pre, self.text, self.lines = False, False, '', []
	    def handle_starttag(self, tag, attrs):
	        self.pre = tag == 'pre' and self.made
	    def handle_endtag(self, tag):
	        if tag == 'pre' and self.pre:
	            self.lines.append(self.text)
	            self.made = self.pre = False
	            self.text = ''
	    def handle_data(self, data):
	        if data.startswith('Made by'):
	            self.made = True
	        elif self.pre:
	            self.text += data
	p = P()
	p.feed(open(sys.argv[1]).read())
	print(p.lines[0])
	EOF
	rm -f "$T"/argv.*
	{
		printf '%s\n' 'n=0; clockbench() { n=$((n + 1)); printf "%s\0" "$@" >"$T/argv.$n"; }'
		cat "$T/html-line.sh"
	} >"$T/eval.sh"
	T="$T" sh "$T/eval.sh"
	nothing_ran
	got2=$(python3 -c 'import json, sys; print(json.dumps(open(sys.argv[1], "rb").read().decode().split("\0")[:-1], separators=(",", ":"), ensure_ascii=False))' "$T/argv.1")
	[ "$got2" = "$got" ] || { echo "html: $got2"; return 1; }
}

# A cell one side lacks is named in the geomean note, in the HTML as text:
# a hostile cell name is escaped there like everywhere else.
@test "a hostile cell name left out of the geomean is escaped in the HTML note" {
	jq '.runs = [.runs[0], .runs[4]]
		| .runs[0].cells += [.runs[0].cells[0]
			| .name = "x</p><script>document.title=1</script><b onclick=x>"]' \
		"$FIXTURE" >"$T/lone.json"
	cb import "$T/lone.json"
	run cb compare a b
	[ "$status" -eq 0 ]
	[[ "$output" == *"left out, not in every group: x</p><script>document.title=1</script><b onclick=x>-vdso"* ]]
	cb report -o "$T/r.html" a b >/dev/null
	grep -qF '<p>The geomean is over 3 of 4 cells; left out, not in every group: x&lt;/p&gt;&lt;script&gt;document.title=1&lt;/script&gt;&lt;b onclick=x&gt;-vdso.</p>' "$T/r.html"
	[ "$(grep -cF '<script>document.title' "$T/r.html")" -eq 0 ]
	nothing_ran
}
