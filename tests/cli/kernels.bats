#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# clockbench kernels: Debian's 6.1 and 6.12 kernels booted in qemu (TCG
# here) with the static clockbench as init, boots interleaved and stored,
# and what a boot that fails, hangs or is interrupted leaves behind.
#
# `make check` and `make check-sanitize` build the guests (CLOCKBENCH_GUEST,
# CLOCKBENCH_HOSTILE_GUEST) and fetch the kernels (CLOCKBENCH_TEST_KERNELS,
# scripts/test-kernels); other runs of the suite (i386, the emulated
# architectures) skip the boots, saying why.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	T="$BATS_TEST_TMPDIR"
	private_store "$T"
	# The boot's files are unnamed: nothing may appear in TMPDIR.
	export TMPDIR="$T/tmp"
	mkdir -p "$TMPDIR"
}

# A clockbench a failed test left in the background goes with it (its
# qemu follows by the parent-death signal).
teardown() {
	if [ -n "${pid:-}" ]; then
		kill -KILL "$pid" 2>/dev/null || true
	fi
}

# Skip unless the boots can run; fail when make check could not fetch.
# CLOCKBENCH_TEST_BOOTS=hostile (make check-sanitize) boots only what reads
# a guest's result: the sanitized host against the hostile guest.
need_boots() {
	[ -n "${CLOCKBENCH_TEST_KERNELS:-}" ] ||
		skip "no kernels to boot (make check fetches them: scripts/test-kernels)"
	[ "${CLOCKBENCH_TEST_BOOTS:-all}" != hostile ] || [ "${HOSTILE:-}" = yes ] ||
		skip "this run boots the hostile guest only (make check boots the rest)"
	[ "$CLOCKBENCH_TEST_KERNELS" != unavailable ] || {
		echo "scripts/test-kernels could not fetch Debian's kernels"
		return 1
	}
	[ -x "${CLOCKBENCH_GUEST:-}" ] || skip "no guest payload (make guest)"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"
	K61=$(ls "$CLOCKBENCH_TEST_KERNELS"/vmlinuz-6.1.0-* | sort -V | tail -n 1)
	K612=$(ls "$CLOCKBENCH_TEST_KERNELS"/vmlinuz-6.12.* | sort -V | tail -n 1)
	R61=${K61##*/vmlinuz-}
	R612=${K612##*/vmlinuz-}
}

# A guest kernel can panic or hang under qemu's TCG by chance: 6.12
# panicked once here in some hundreds of boots ("Fatal exception in
# interrupt" 2 s into its boot), 6.1 hung once right after switching to
# hpet (1.0 s into its boot, nothing more for 300 s), both before clockbench
# ran: the emulation's or the guest kernel's, not what these tests test. A
# command that failed with a guest's panic on the console, or with a boot
# that never started clockbench, runs again once, in a fresh store, and
# says so.
#   run_boots [run's flags] cb kernels ...
run_boots() {
	local attempt
	for attempt in 1 2; do
		run "$@"
		[ "$status" -ne 0 ] || return 0
		[[ "$output ${stderr:-}" == *"Kernel panic - not syncing"* ||
			"$output ${stderr:-}" == *"(the kernel never started clockbench as its init)"* ]] ||
			return 0
		[ "$attempt" -eq 1 ] || return 0
		# What the first attempt saw stays in the test's output.
		echo "first attempt (status $status):"
		echo "${stderr:-$output}"
		echo "# a guest kernel panicked or hung before clockbench ran: $(grep -m1 -E ': boot [0-9]+ failed after|Kernel panic' <<<"${stderr:-$output}"); the command again in a fresh store" >&3
		mkdir -p "$T/again"
		private_store "$T/again"
	done
}

# The qemu processes of this test's clockbench (of any, without a pid):
# qemu is named after the clockbench that started it. Another test or user
# may boot kernels meanwhile: a qemu is this test's when it inherited the
# test's own TMPDIR (setup).
our_qemu() {
	local p
	for p in $(pgrep -f "qemu-system-x86_64 .*-name clockbench-${1:-[0-9]}"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "TMPDIR=$TMPDIR" &&
			return 0
	done
	return 1
}

# Wait until no qemu of this test is left: a condition, bounded at 20 s
# (a qemu of 1 GB killed by its parent-death signal takes a moment to go).
no_qemu_left() {
	local i
	for i in $(seq 200); do
		our_qemu "$@" || return 0
		sleep 0.1
	done
	return 1
}

@test "usage errors: no kernel, no command, a command that cannot run inside, bad names" {
	usage_error "no --kernel NAME=IMAGE given" kernels -- bench
	usage_error "no command to run in the guest" kernels --kernel a=/x
	usage_error "'compare' cannot run in the guest" kernels --kernel a=/x -- compare a b
	usage_error "expected NAME=IMAGE" kernels --kernel /boot/vmlinuz -- bench
	usage_error "--kernel '12=/x': a label cannot be a number: that reads as a run id (the name is its runs' label)" \
		kernels --kernel 12=/x -- bench
	# A name names files (the kept consoles): never a path.
	for name in ../escaped a/b . ..; do
		usage_error "--kernel '$name=/x': a name cannot hold '/' or be '.' or '..': its consoles are files named after it" \
			kernels --kernel "$name=/x" -- bench
	done
	usage_error "given twice" kernels --kernel a=/x --kernel a=/y -- bench
	usage_error "invalid --boots" kernels --kernel a=/x --boots 0 -- bench
	usage_error "--kernel-append 'b=x': expected NAME=ARGS after the --kernel" \
		kernels --kernel a=/x --kernel-append b=x -- bench
	usage_error "unknown accel 'xen' (auto, kvm, tcg)" kernels --kernel a=/x --accel xen -- bench
	# A newline in a command line was found only after every boot.
	usage_error "--append: a control character (byte 10): the kernel command line is one line of text" \
		kernels --kernel a=/x --append $'tsc=stable\nx' -- bench
	usage_error "--kernel-append a: a control character (byte 1): the kernel command line" \
		kernels --kernel a=/x --kernel-append $'a=x\ty' -- bench
	# More vCPUs than the host runs at once stall in the boot.
	local cpus=$(($(getconf _NPROCESSORS_ONLN) + 1))
	[ "$cpus" -gt 64 ] ||
		usage_error "--cpus $cpus: the host has $((cpus - 1)) online CPUs" \
			kernels --kernel a=/x --cpus "$cpus" -- bench
}

@test "the guests' command is checked on the host before any boot; what only a guest can tell is left to it" {
	local cmd
	# Each a usage error of the command itself: nothing booted, exit 2.
	for cmd in "bench --api getpid" "bench --quick extra" "timens --bogus" \
		"verify --check" "exec -L" "doctor --nope" "vdso --x" "scale --threads 0" \
		"hotplug --cycles 0"; do
		run --separate-stderr cb kernels --kernel a=/nonexistent -- $cmd
		[ "$status" -eq 2 ] || { echo "$cmd: $status $stderr"; return 1; }
		[[ "$stderr" == *"the command for the guests is a usage error (above): nothing booted"* ]]
	done
	run --separate-stderr cb kernels --kernel a=/nonexistent -- bench --api getpid
	[[ "$stderr" == *"unknown api 'getpid' in --api"* ]]
	# Sound commands pass on to the images (here: none), among them what
	# the host cannot judge for a guest: exec's program is the guest's
	# /init, hotplug's CPU the guest's.
	for cmd in "bench --quick" "timens --quick" "verify" "exec -- /init vdso" "doctor" \
		"vdso" "scale --threads 1" "hotplug --cpu 1"; do
		run --separate-stderr cb kernels --kernel a=/nonexistent -- $cmd
		[ "$status" -eq 1 ] || { echo "$cmd: $status $stderr"; return 1; }
		[[ "$stderr" == *"a: /nonexistent: cannot open"* ]]
	done
	# A guest of one's own may be another version: its command is its own.
	run --separate-stderr cb kernels --kernel a=/nonexistent --guest /nonexistent-guest \
		-- bench --api getpid
	[ "$status" -eq 1 ]
	[[ "$stderr" != *"nothing booted"* ]]
}

@test "--accel kvm where there is no usable /dev/kvm is refused before any boot" {
	[ ! -w /dev/kvm ] || skip "this machine has a usable /dev/kvm"
	run --separate-stderr cb kernels --kernel a=/x --accel kvm -- bench
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"--accel kvm: /dev/kvm: "*"; this machine boots guests under TCG only"* ]]
}

# An x86 boot header and nothing else: taken for a bzImage before any boot.
fake_bzimage() {
	python3 -c 'import sys
b = bytearray(4096); b[0x1fe:0x200] = b"\x55\xaa"; b[0x202:0x206] = b"HdrS"
sys.stdout.buffer.write(b)' >"$1"
}

@test "scale under TCG without --calls: told before the boots that its default is sized for hardware" {
	[ -x "${CLOCKBENCH_GUEST:-}" ] || skip "no guest payload (make guest)"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"
	# A boot header and nothing else: qemu refuses it at once.
	fake_bzimage "$T/bz"
	run --separate-stderr cb kernels --kernel a="$T/bz" --accel tcg --boots 1 \
		--timeout 10 -- scale --threads 2
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"note: scale makes 5,000,000 calls a run by default, sized for hardware: under TCG"* ]]
	[[ "$output" == *"a (?): 1 boot, 1 failed; runs none"* ]]
	run --separate-stderr cb kernels --kernel a="$T/bz" --accel tcg --boots 1 \
		--timeout 10 -- scale --calls 8000
	[ "$status" -eq 1 ]
	[[ "$stderr" != *"note: scale"* ]]
}

@test "a guest that is not a static clockbench of the kernels' architecture is refused, naming why" {
	fake_bzimage "$T/bz"
	run cb kernels --kernel a="$T/bz" --guest /bin/true -- bench
	[ "$status" -eq 1 ]
	[[ "$output" == *"/bin/true: dynamically linked"* ]]
	run cb kernels --kernel a="$T/bz" --guest "$T/none" -- bench
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/none: No such file"* ]]
	# An arm64 kernel's guest must be an arm64 program.
	python3 -c 'import sys
b = bytearray(4096); b[0x38:0x3c] = b"ARM\x64"; b[0x100:0x120] = b"Linux version 6.1.0-57-arm64 (x)"
sys.stdout.buffer.write(b)' >"$T/Image"
	run cb kernels --kernel a="$T/Image" --guest "${CLOCKBENCH_GUEST:-/bin/true}" -- bench
	[ "$status" -eq 1 ]
	[[ "$output" == *"a: $T/Image, arm64 Image 6.1.0-57-arm64 (arm64)"* ]]
	[[ "$output" == *"not an arm64 ELF executable (the kernels are arm64)"* ||
		"$output" == *"qemu-system-aarch64 not found in PATH: install it (Debian: apt-get install qemu-system-arm)"* ]]
	# Kernels of two architectures are two machines: never one campaign.
	run cb kernels --kernel a="$T/Image" --kernel b="$T/bz" -- bench
	[ "$status" -eq 1 ]
	[[ "$output" == *"a is an arm64 kernel and b an x86_64 one: kernels of two architectures are never compared as one machine; boot them in two invocations"* ]]
}

# Runs of export-small.json: label, emulated or not, samples scaled. The
# emulated ones stand as measured together (one interleaved invocation):
# two separate single runs would get no verdict at all without a history.
import_as() {
	jq --arg l "$1" --arg u "$(cat /proc/sys/kernel/random/uuid)" --argjson emu "$2" \
		--argjson k "$3" '.runs |= [.[0] | .label = $l | .uuid = $u
		| (if $emu then .environment.vm = {accel: "tcg", emulated: true}
			| .config.interleave = "emulated-pair" else . end)
		| .cells |= map(.samples |= map(. * $k))]' \
		"$CLOCKBENCH_TEST_DATA/export-small.json" >"$T/$1.json"
	cb import "$T/$1.json" >/dev/null
}

@test "emulated timings are marked, never judged against hardware, and --fail-on passes over them unless --judge-emulated" {
	import_as hw false 1
	import_as emu true 3
	import_as emu2 true 9
	run -0 cb compare hw emu
	[[ "$output" == *"# EMULATED timings (qemu TCG) in emu: they compare code paths on one emulator, not hardware costs; never judged against the timings from hardware (n/a)"* ]]
	grep -qE '^wall .* n/a' <<<"$output" || { echo "$output"; false; }
	run -0 cb compare --format json hw emu
	jq -e '(.groups | map(.emulated)) == [false, true]
		and all(.cells[] | select(.vs_base[0] != null) | .vs_base[0]; .significant == false and .verdict == "n/a" and .emulated)' <<<"$output"
	# Emulated against emulated: judged, shown, but no gate unless asked.
	run -0 --separate-stderr cb compare --fail-on worse emu emu2
	[[ "$stderr" == *"--fail-on worse passed over "*" of emulated timings (--judge-emulated judges them)"* ]]
	run -3 --separate-stderr cb compare --fail-on worse --judge-emulated emu emu2
	[[ "$stderr" == *"wall : +"*"against emu in emu2 (worse)"* ]]
	run -0 cb show emu
	[[ "$output" == *"# EMULATED timings: booted by clockbench kernels under qemu's TCG"* ]]
	# runs says it on each row, without parsing any run's JSON for it.
	run -0 cb runs
	grep -qE '^ *[0-9]+ .* hw .* native$' <<<"$output" || { echo "$output"; false; }
	[ "$(grep -cE ' emu2? .* EMULATED$' <<<"$output")" -eq 2 ]
	[[ "$output" == *"# EMULATED: timings of a kernel booted by clockbench kernels under qemu's TCG"* ]]
	run -0 cb runs --format json
	jq -e 'map({(.label): .emulated}) | add == {hw: false, emu: true, emu2: true}' <<<"$output"
	run -0 cb runs --label hw
	[[ "$output" != *"EMULATED"* && "$output" != *"timings"* ]]
	# Only a JSON true marks a run: a string "true" is no mark, as run_facts reads it.
	jq --arg u "$(cat /proc/sys/kernel/random/uuid)" '.runs |= [.[0] | .label = "fake"
		| .uuid = $u | .environment.vm = {emulated: "true"}]' \
		"$CLOCKBENCH_TEST_DATA/export-small.json" >"$T/fake.json"
	cb import "$T/fake.json" >/dev/null
	run -0 cb runs --format json
	jq -e 'map(select(.label == "fake")) | .[0].emulated == false' <<<"$output"
	run -0 cb show hw
	[[ "$output" != *"EMULATED"* ]]
	# Issue 30: the mail says so above the verdicts and names what differs;
	# a boot's command ran on the host, not on the guest's kernel.
	run -0 cb report --format mail emu emu2
	# Both sides emulated: both named, not the other side alone.
	[[ "$(tr -s ' \n' ' ' <<<"$output")" == *"EMULATED: both sides, emu"*" and emu2"*", ran under qemu's TCG emulator: their timings"* ]]
	[[ "$output" == *"booted by this command on the host"* ]]
	run -0 cb report -o "$T/emu.html" emu emu2
	grep -q "<b>EMULATED:</b> both sides, emu.* and emu2.*, ran under" "$T/emu.html"
	run -0 cb report --format mail hw emu
	[[ "$output" == *"Different between the sides: timings not emulated against EMULATED"* ]]
}

@test "6.1 and 6.12, 2 boots each, interleaved: a run per boot, the kernels' own releases, getrandom's vDSO on 6.12 only" {
	need_boots
	ln -s "$K61" "$T/k61"
	ln -s "$K612" "$T/k612"
	run_boots --separate-stderr cb kernels --kernel v61="$T/k61" --kernel v612="$T/k612" \
		--boots 2 --timeout 120 -- bench --quick --api clock_gettime,getrandom \
		--clock monotonic
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"accelerator: "* ]]
	# With a /dev/kvm to open, KVM was probed with a boot, whatever came of it.
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		[[ "$stderr" == *"a probe boot of v61 under KVM "* ]]
	fi
	# Debian packs 6.1 with lz4 and 6.12 with zstd: both unpacked here.
	[ "$(grep -c '  booted as its vmlinux, unpacked' <<<"$stderr")" -eq 2 ]
	[[ "$output" == *"v61 ($R61): 2 boots, 0 failed"* ]]
	[[ "$output" == *"v612 ($R612): 2 boots, 0 failed"* ]]
	# The comparison of the kernels, with the boots as replicates; the
	# boots interleaved, so cells moving together are the kernels' doing,
	# not "the machine itself may have changed".
	[[ "$output" == *"clock-gettime-monotonic-vdso"* ]]
	[[ "$output" != *"may have changed"* ]]
	# A cell one kernel lacks says why (its run's status), not "-".
	grep -qE '^getrandom-vdso +n/a +[0-9]' <<<"$output"
	run --separate-stderr cb export --all
	[ "$status" -eq 0 ]
	# A B B A: the boots' order, each stored under its kernel's name.
	jq -e --arg a "$R61" --arg b "$R612" --arg t "$T" '.runs | length == 4
		and map(.label) == ["v61", "v612", "v612", "v61"]
		and map(.kernel) == [$a, $b, $b, $a]
		and map(.environment.vm.position) == [1, 2, 1, 2]
		and map(.environment.vm.boot) == [1, 1, 2, 2]
		and (map(.environment.vm.campaign) | unique | length == 1 and (.[0] | length == 36))
		and all(.environment.argv[0:4] == ["kernels", "--kernel", "v61=\($t)/k61", "--kernel"]
			and .environment.vm.guest_argv[0:2] == ["bench", "--quick"])
		and map(.environment.vm.guest.vdso_functions | any(.[]; . == "__vdso_getrandom"))
			== [false, true, true, false]
		and all(.environment.vm | .accel != null and (.qemu | startswith("QEMU"))
			and (.accel_reason | length > 0)
			and (.booted_as | test("^vmlinux \\(from a (lz4|zstd|xz|gzip) bzImage\\)$"))
			and .guest.release != null and .cpus == 2)' <<<"$output"
	# 6.1 exports no __vdso_getrandom; 6.12 does.
	jq -e '.runs[] | select(.label == "v61") | .cells[]
		| select(.name == "getrandom" and .path == "vdso") | .status != "ok"' <<<"$output"
	jq -e '.runs[] | select(.label == "v612") | .cells[]
		| select(.name == "getrandom" and .path == "vdso") | .status == "ok"' <<<"$output"
	# The mail reproduces the boots by the kernels command that made them.
	run -0 cb report --format mail v61 v612
	[[ "$output" == *"  clockbench kernels --kernel "* ]]
	[ -z "$(ls -A "$TMPDIR")" ]
}

@test "verify on 6.1 and 6.12: a matrix of the checks that differ, each explained; known kernel behaviour is no failure" {
	need_boots
	run_boots --separate-stderr cb kernels --kernel v61="$K61" --kernel v612="$K612" \
		--boots 1 --timeout 120 -- verify --check 'timens/vfork-exec/monotonic/*' \
		--check 'abi/getrandom/buf-null/*' --check 'monotonic/clock-gettime-monotonic/*'
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# checks by kernel: 9 checks, 5 alike on every kernel and boot, 4 differ"* ]]
	grep -qE '^abi/getrandom/buf-null/vdso +skip +pass' <<<"$output"
	grep -qF '    v61: the vDSO does not export __vdso_getrandom' <<<"$output"
	# 6.1's refusal of vfork into a time namespace is known behaviour.
	grep -qE '^timens/vfork-exec/monotonic/vdso +xfail +pass' <<<"$output"
	grep -qF '    v61: this kernel refuses vfork() into a new time namespace (EINVAL' <<<"$output"
	[[ "$output" == *"v61, 1 boot: pass 5, fail 0, skip 1, xfail 3"* ]]
	[[ "$output" == *"v612, 1 boot: pass 9, fail 0, skip 0, xfail 0"* ]]
	# Stored: nothing (verify saves no run); an expected failure is no
	# bad kernel for git bisect run.
	run_boots cb kernels --kernel v61="$K61" --boots 1 --fail-on worse --timeout 120 \
		-- verify --check 'timens/vfork-exec/monotonic/vdso'
	[ "$status" -eq 0 ]
}

@test "vdso: the functions of each kernel's vDSO side by side; timens: its two runs stored apart and compared" {
	need_boots
	run_boots --separate-stderr cb kernels --kernel v61="$K61" --kernel v612="$K612" \
		--boots 1 --timeout 120 -- vdso
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# vDSO functions by kernel: "*" not"* ]]
	grep -qE '^__vdso_getrandom +- +yes *$' <<<"$output"
	grep -qE '^__vdso_clock_gettime +yes +yes *$' <<<"$output"
	# TCG asked for: under KVM the timings are not emulated.
	run_boots --separate-stderr cb kernels --kernel v612="$K612" --boots 1 --timeout 120 \
		--accel tcg -- timens --quick --clock monotonic --path vdso
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# EMULATED timings (qemu TCG) in v612-host, v612-timens"* ]]
	grep -qE '^clock-gettime-monotonic-vdso ' <<<"$output"
	run cb runs --format json
	jq -e 'map(.label) | sort == ["v612-host", "v612-timens"]' <<<"$output"
}

@test "doctor on 6.1 with and without tsc=reliable: the hpet fallback found and named (bad for --fail-on), a kernel's own command line" {
	need_boots
	# TCG asked for: 6.1 falls back to hpet for TCG's unsynchronized TSCs.
	run_boots --separate-stderr cb kernels --kernel hpet="$K61" --kernel tsc="$K61" \
		--kernel-append tsc=tsc=reliable --boots 1 --timeout 120 --fail-on worse \
		--accel tcg -- doctor
	echo "$stderr"
	# A problem doctor found is a bad kernel for git bisect run.
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"hpet: clockbench doctor: "*" problems: hres or coarse clock reads enter the kernel"* ]]
	[[ "$stderr" == *"tsc: clockbench doctor: healthy"* ]]
	# The exit status 1 has its line, as a worse cell's has.
	[[ "$stderr" == *"--fail-on worse: 1 boot where doctor found a problem (hpet)"* ]]
	run --separate-stderr cb export --all
	jq -e '.runs | length == 2
		and (.[0] | .label == "hpet" and .environment.clocksource == "hpet"
			and .environment.vm.kernel_append == ""
			and any(.config.problems[]; .cause == "clocksource"))
		and (.[1] | .label == "tsc" and .environment.clocksource == "tsc"
			and .environment.vm.guest.clocksource == "tsc"
			and (.environment.vm.guest.clocksource_wait_s | type == "number")
			and (.environment.cmdline | endswith(" tsc=reliable"))
			and .config.verdict == "healthy")' <<<"$output"
}

@test "a file that is no kernel is named; the other kernel's boot is stored" {
	need_boots
	head -c 4096 /dev/urandom >"$T/junk"
	run_boots --separate-stderr cb kernels --kernel junk="$T/junk" --kernel v612="$K612" \
		--boots 1 --timeout 120 -- bench --quick --api time
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"junk: $T/junk: not a kernel image"* ]]
	[[ "$output" == *"junk: not booted: not a kernel image"* ]]
	[[ "$output" == *"v612 ($R612): 1 boot, 0 failed; runs 1"* ]]
	run cb runs --format json
	jq -e 'length == 1 and .[0].label == "v612"' <<<"$output"
}

@test "a boot that does not power off in time is stopped; its console is kept" {
	need_boots
	ln -s "$K612" "$T/k612"
	run --separate-stderr cb kernels --no-unpack --kernel v612="$T/k612" --boots 1 --timeout 3 -- bench
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"v612: boot 1 failed after "*"no power-off within 3 s: stopped ("* ]]
	[[ "$stderr" == *"all of it in $T/state/clockbench/boots/v612-boot1-"* ]]
	ls "$T"/state/clockbench/boots/v612-boot1-*.log
	no_qemu_left
	run cb runs --format json
	[ "$output" = "[]" ]
	# Stopped in the command, not in the kernel's boot: said apart (a
	# kernel that hangs before its init is another finding). verify --long
	# watches each clock 10 s: minutes.
	run_boots --separate-stderr cb kernels --kernel v612="$T/k612" --boots 1 --timeout 30 \
		-- verify --long
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"v612: boot 1 failed after "*"no power-off within 30 s: stopped (the command was running)"* ]]
	no_qemu_left
}

@test "a kernel that panics is said to have panicked, with the panic's own line" {
	need_boots
	# No /init to run: the kernel's own panic, whatever the call trace after.
	run --separate-stderr cb kernels --kernel v612="$K612" --boots 1 --timeout 120 \
		--append rdinit=/nonexistent -- vdso
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"v612: boot 1 failed after "*"s: the kernel panicked: Kernel panic - not syncing: "* ]]
	# panic=0: the kernel stays in its panic; the boot is stopped at the
	# panic's line, not at the timeout.
	run --separate-stderr cb kernels --kernel v612="$K612" --boots 1 --timeout 300 \
		--append 'rdinit=/nonexistent panic=0' -- vdso
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"v612: boot 1 failed after "*"s: the kernel panicked: Kernel panic - not syncing: "* ]]
	[[ "$stderr" != *"no power-off within"* ]]
	no_qemu_left
}

@test "SIGINT and SIGKILL mid-boot leave no qemu and no files" {
	need_boots
	ln -s "$K612" "$T/k612"
	for sig in INT KILL; do
		# clockbench itself in the background, not a shell around it.
		"$CLOCKBENCH" kernels --kernel v612="$T/k612" --boots 2 --accel tcg -- bench \
			3>&- 2>"$T/err" &
		pid=$!
		# Until a boot's qemu runs (not the KVM probe's, which comes and
		# goes before the first boot is announced): a condition, bounded.
		booting() { grep -q '^boot 1/2: ' "$T/err" && our_qemu "$pid"; }
		for i in $(seq 3000); do booting && break; sleep 0.1; done
		booting
		kill -s "$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		no_qemu_left "$pid"
		pid=
		if [ "$sig" = INT ]; then
			[ "$rc" -eq 130 ]
			grep -q "stopped by signal 2" "$T/err"
		else
			[ "$rc" -eq 137 ]
		fi
		[ -z "$(ls -A "$TMPDIR")" ]
	done
}

# ---- a hostile guest ---------------------------------------------------
#
# tests/hostile-guest.c boots as /init in place of clockbench and sends
# what a hostile or broken kernel image could (issue 27's red team): each
# result is refused whole, naming the field, and nothing of it is stored.

need_hostile() {
	HOSTILE=yes need_boots
	[ -x "${CLOCKBENCH_HOSTILE_GUEST:-}" ] ||
		skip "no hostile guest (it is built static, without sanitizers)"
}

hex() { xxd -p | tr -d '\n'; }

# A manifest as the guest writes it, with jq's filter $1 applied.
manifest() {
	jq -nc "{clockbench_guest: 2, guest: {release: \"6.12\", version: \"#1\",
		cmdline: \"console=ttyS0\", clocksource: \"tsc\",
		available_clocksources: \"tsc hpet\", init_reached_s: 1.5,
		clocksource_wait_s: 0, cpus: 2, vdso_functions: [\"__vdso_time\"]},
		status: {exit: 0}, command_s: 1, output: \"\"} | ${1:-.}"
}

# One boot of the hostile guest with the words after `-- vdso`; the store
# must be empty afterwards, and no qemu left.
#   hostile WORD...
hostile() {
	run_boots --separate-stderr cb kernels --guest "$CLOCKBENCH_HOSTILE_GUEST" \
		--kernel h="$K612" --boots 1 --timeout 120 -- vdso "$@"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ "$output" == *"h ($R612): 1 boot, 1 failed; runs none"* ]]
	no_qemu_left
	[ "$(cb runs --format json)" = "[]" ]
}

@test "a hostile guest: a wrong type, 200,000 names, a deep manifest: refused, field named, nothing stored" {
	need_hostile
	# Before: SIGSEGV in the vDSO matrix (strlen of a NULL name).
	hostile build "$(manifest '.guest.vdso_functions = [1]' | hex)" 0 - 0
	[[ "$stderr" == *"h: boot 1 failed after "*"s: the guest's result: guest.vdso_functions[0]: not a string"* ]]
	# Before: the matrix's de-duplication ran for minutes, deaf to signals.
	hostile build "$(manifest '.guest.vdso_functions = ["@NAMES@"]' | sed 's/"@NAMES@"/@NAMES@/' | hex)" 200000 - 0
	[[ "$stderr" == *"the guest's result: its manifest holds more than 4096 values"* ]]
	hostile build "$(manifest '.output = [[[[[["deep"]]]]]]' | hex)" 0 - 0
	[[ "$stderr" == *"the guest's result: its manifest is nested more than 4 deep"* ]]
	hostile build "$(manifest '.guest.cmdline = "a\u001b]0;x\u0007"' | hex)" 0 - 0
	[[ "$stderr" == *"the guest's result: guest.cmdline: contains a control character (byte 1)"* ]]
}

@test "a hostile guest: a frame that inflates to 255 MiB is refused from its header" {
	need_hostile
	# 24.6 KB that inflated whole and went to json_loadb: 7.7 GB resident.
	m=$(manifest)
	frame=$("$CLOCKBENCH_HOSTILE_GUEST" bomb-hex "$(printf %s "$m" | hex)" $((255 << 20)))
	[ "${#frame}" -lt 65536 ]
	hostile raw "$frame"
	# The manifest, its NUL and the bomb.
	[[ "$stderr" == *"the result is $((${#m} + 1 + (255 << 20))) bytes inflated, more than the 134217728 accepted"* ]]
}

# A real run of this machine as the guest would export it, its uuid made
# the copy's number (@N@) and its label $1.
run_template() {
	cb bench --quick --api time --path vdso --no-save --format json --samples |
		jq -c --arg l "$1" '.runs[0] | .uuid = "00000000-0000-4000-8000-@N@" | .label = $l'
}

@test "a hostile guest: 2,000 runs in a boot are refused, none stored" {
	need_hostile
	# Before: one boot stored 20,000 runs (92 MB) and then could not compare them.
	hostile build "$(manifest | hex)" 0 "$(run_template h | hex)" 2000
	[[ "$stderr" == *"the guest's result holds more than 32 runs"* ]]
}

@test "a hostile guest: a boot whose sixth run is bad stores none of the five before it" {
	need_hostile
	tpl=$(run_template h)
	{
		printf '{"clockbench_export": 1, "runs": ['
		for i in 1 2 3 4 5; do printf '%s,' "${tpl//@N@/00000000000$i}"; done
		jq -c '.label = "bad\u0007label"' <<<"${tpl//@N@/000000000006}"
		printf ']}'
	} >"$T/export.json"
	jq -e '.runs | length == 6' "$T/export.json"
	hostile raw "$("$CLOCKBENCH_HOSTILE_GUEST" file-hex "$(manifest | hex)" "$T/export.json")"
	[[ "$stderr" == *"runs[5].label: contains a control character"* ]]
	# The same export with a good sixth run is stored whole: six runs, one
	# transaction, labelled after the kernel.
	sed 's/bad\\u0007label/good/' "$T/export.json" >"$T/good.json"
	run_boots --separate-stderr cb kernels --guest "$CLOCKBENCH_HOSTILE_GUEST" --kernel h="$K612" \
		--boots 1 --timeout 120 -- vdso raw \
		"$("$CLOCKBENCH_HOSTILE_GUEST" file-hex "$(manifest | hex)" "$T/good.json")"
	echo "$stderr"
	[ "$status" -eq 0 ]
	run cb runs --format json
	jq -e 'length == 6 and all(.label | startswith("h"))' <<<"$output"
}

@test "--logs: made when missing, refused when it is a file; a console is kept inside it" {
	need_hostile
	touch "$T/file"
	for logs in "$T/file" "$T/file/x"; do
		run --separate-stderr cb kernels --kernel h="$K612" --logs "$logs" -- vdso
		[ "$status" -eq 1 ]
		[[ "$stderr" == *"--logs $logs: cannot make it a directory: Not a directory"* ]]
	done
	run_boots --separate-stderr cb kernels --guest "$CLOCKBENCH_HOSTILE_GUEST" \
		--kernel h="$K612" --boots 1 --timeout 120 --logs "$T/new/logs" -- vdso raw 00
	[ "$status" -eq 1 ]
	ls "$T"/new/logs/h-boot1-*.log
	[ "$(ls "$T/new" | wc -l)" -eq 1 ]
}

# ---- exact: instructions counted under qemu's icount ---------------------

@test "--exact A/A: one image under two names counts the same at every boot; the ruler reads 64 nops as 64 instructions" {
	need_boots
	run_boots --separate-stderr cb kernels --exact --kernel a="$K612" --kernel b="$K612" \
		--boots 2 --timeout 300 -- bench --quick --api clock_gettime,time --clock monotonic
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# instructions: guest instructions retired per call, counted under qemu's icount"* ]]
	run -0 cb compare --format json a b
	# No verdict from a count that differs; what repeated is "same".
	jq -e '.metric == "instructions" and ([.cells[].vs_base[0].verdict] | all(. != "better" and . != "worse"))
		and ([.cells[] | select(.path == "vdso") | .vs_base[0].verdict] | all(. == "same"))' <<<"$output"
	run -0 cb export --all
	# Counted, never timed: each cell in instructions, no cycles, no core cycles;
	# the harness's ruler exactly 64 instructions over its empty call.
	jq -e '.runs | length == 4 and all(.environment.vm.exact == true
		and .environment.vm.cpus == 1 and .environment.vm.icount == "shift=0,sleep=off"
		and (.config.harness_overhead | .ruler.nops == 64
			and ((.ruler.instructions_per_call - .instructions_per_call) - 64 | fabs < 1e-6))
		and all(.cells[] | select(.status == "ok"); .unit == "instructions"
			and .samples_cycles == null and .samples_core_cycles == null))' <<<"$output"
	run -0 cb show a
	[[ "$output" == *"# EXACT counts: booted by clockbench kernels --exact under qemu's icount"* ]]
	[[ "$output" == *"# the instrument's check: the same loop through a function of 64 nops more counted 64.00 instructions more per call"* ]]
	grep -qE '^name +path +instr/call ' <<<"$output"
	# A count is never compared with a time.
	run -0 cb bench --quick --api time --label timed
	run cb compare a timed
	[ "$status" -eq 1 ]
	[[ "$output" == *"a counts instructions (kernels --exact) and timed is timed"* ]]
}

@test "--exact: 6.1 against 6.12, each kernel's count repeated, judged by the counts; timens adds instructions to the vDSO only" {
	need_boots
	run_boots --separate-stderr cb kernels --exact --kernel v61="$K61" --kernel v612="$K612" \
		--boots 2 --timeout 300 -- bench --quick --api clock_gettime,time --clock monotonic
	echo "$stderr"
	[ "$status" -eq 0 ]
	run -0 cb compare --format json v61 v612
	echo "$output" | jq -c '.cells[] | [.name, .path, .vs_base[0].verdict, .vs_base[0].shift]'
	# The vDSO counts repeat at every boot: an exact verdict with its size.
	jq -e '[.cells[] | select(.path == "vdso") | .vs_base[0]
		| .test == "exact-count" and (.verdict | IN("same", "better", "worse"))]
		| length == 2 and all' <<<"$output"
	# The table gives the difference in instructions beside the change.
	run -0 cb compare v61 v612
	grep -qE '^clock-gettime-monotonic-vdso .*% .* (0|[+-][0-9.]+) +- += .*(same|better|worse)$' <<<"$output"
	# ... and so does the HTML report, which says how counts are judged
	# (no p where the counts were compared themselves).
	run -0 cb report -o "$T/exact.html" v61 v612
	grep -qF '<th>diff</th>' "$T/exact.html"
	grep -qF 'is compared by the counts themselves (test exact-count)' "$T/exact.html"
	! grep -qF '<td>nan</td>' "$T/exact.html"
	# Seed 000 exactly: inside a time namespace each vDSO read counts more
	# instructions; the syscalls do not change.
	run_boots --separate-stderr cb kernels --exact --kernel v612="$K612" --boots 2 \
		--timeout 300 -- timens --quick --clock monotonic,boottime
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output" != *"different interleaved invocations"* ]]
	run -0 cb compare --format json v612-host v612-timens
	jq -e '[.cells[] | select(.path == "vdso") | .vs_base[0] | .verdict == "worse" and .shift > 0]
		| length == 2 and all' <<<"$output"
	jq -e '[.cells[] | select(.path == "syscall") | .vs_base[0].verdict] | all(. != "better" and . != "worse")' <<<"$output"
	# What exact cannot count is refused before any boot.
	usage_error "--exact counts instructions per call: 'hotplug' takes a CPU offline" \
		kernels --exact --kernel a="$K612" -- hotplug
	usage_error "--exact boots one vCPU" kernels --exact --cpus 2 --kernel a="$K612" -- bench
	usage_error "--exact counts instructions under TCG: not with --accel kvm" \
		kernels --exact --accel kvm --kernel a="$K612" -- bench
}

@test "a guest that reports a failure is a failed boot: its error, a signal, a usage error stops the campaign" {
	need_hostile
	hostile build "$(manifest '.error = "boom" | del(.status)' | hex)" 0 - 0
	[[ "$stderr" == *"h: boot 1 failed after "*"s: in the guest: boom"* ]]
	hostile build "$(manifest '.status = {signal: 11}' | hex)" 0 - 0
	[[ "$stderr" == *"the command was killed by signal 11 in the guest"* ]]
	run_boots --separate-stderr cb kernels --guest "$CLOCKBENCH_HOSTILE_GUEST" \
		--kernel h="$K612" --boots 2 --timeout 120 -- vdso build \
		"$(manifest '.status = {exit: 2} | .output = "clockbench vdso: error: bad\n"' | hex)" 0 - 0
	echo "$stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the command exited 2 in the guest (a usage error)"* ]]
	[[ "$stderr" == *"  the command said: clockbench vdso: error: bad"* ]]
	[[ "$stderr" == *"the guest refused the command line: no more boots"* ]]
	[ "$(grep -c '^boot ' <<<"$stderr")" -eq 1 ]
}

# ---- other architectures -------------------------------------------------

# ARCH's guest and its 6.1 and 6.12 (scripts/test-kernels: boot-ARCH).
need_arch() {
	local guest_var="CLOCKBENCH_GUEST_${1^^}" dir qemu
	need_boots
	[ -x "${!guest_var:-}" ] || skip "no $1 guest (make guest-$1)"
	qemu=$([ "$1" = arm64 ] && echo qemu-system-aarch64 || echo qemu-system-ppc64)
	command -v "$qemu" >/dev/null || skip "no $qemu"
	dir=$CLOCKBENCH_TEST_KERNELS/../boot-$1
	A61=$(ls "$dir"/vmlinu[xz]-6.1.0-* 2>/dev/null | sort -V | tail -n 1)
	A612=$(ls "$dir"/vmlinu[xz]-6.12.* 2>/dev/null | sort -V | tail -n 1)
	[ -n "$A61" ] && [ -n "$A612" ] || {
		echo "scripts/test-kernels fetched no $1 kernels into $dir"
		return 1
	}
}

# Exact counts of 6.1 against 6.12, and verify, on ARCH.
arch_campaign() {
	need_arch "$1"
	run_boots --separate-stderr cb kernels --exact --kernel v61="$A61" --kernel v612="$A612" \
		--boots 1 --timeout 300 -- bench --quick --api gettimeofday,clock_getres,clock_gettime \
		--clock realtime
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"accelerator: tcg (--exact: icount counts under TCG)"* ]]
	run -0 cb export --all
	jq -e --arg a "$1" '.runs | length == 2 and all(.environment.vm.arch == $a
		and .environment.vm.exact == true
		and (.config.harness_overhead | (.ruler.instructions_per_call
			- .instructions_per_call) - 64 | fabs < 1e-6)
		and all(.cells[] | select(.status == "ok"); .unit == "instructions"))' <<<"$output"
	# One boot each: the difference in instructions, no verdict but "same".
	run -0 cb compare --format json v61 v612
	jq -e '[.cells[].vs_base[0].verdict] | length == 9 and all(. == "few" or . == "same")' <<<"$output"
	run -0 cb compare --style ratio v61 v612
	# A count is never compared with this machine's times.
	run -0 cb bench --quick --api time --label here
	run cb compare here v61
	[ "$status" -eq 1 ]
	# verify inside (one kernel: the matrix of two is x86's test, and CI's
	# minutes are counted).
	run_boots --separate-stderr cb kernels --kernel v612="$A612" --boots 1 --timeout 300 \
		-- verify --check 'abi/clock-getres/*' --check 'timens/vfork-exec/monotonic/*'
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qE '^# checks by kernel: [0-9]+ checks, ' <<<"$output"
	grep -qE '^v612, 1 boot: pass [0-9]+, fail 0, ' <<<"$output"
}

@test "arm64: 6.1 against 6.12 counted under icount (the ruler exact), and verify inside" {
	arch_campaign arm64
}

@test "ppc64el: 6.1 against 6.12 counted under icount (the ruler exact), and verify inside" {
	arch_campaign ppc64el
}
