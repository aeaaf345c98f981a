#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Issue 15's campaign, bounded and seeded, as a test of the sanitizer suite.

  campaign.py cli [CASES]     mutated command lines of every safe command
  campaign.py import [CASES]  mutated export files, imported, then shown,
                              compared, exported, reported and plotted

Every run of clockbench must exit 0, 1, 2, 3 or 4 (130 only when the
campaign itself stopped a slow run with SIGINT), print no sanitizer report
and not be killed by a signal; a usage error (2) is one line on stderr.
Output: TAP, one line per command (cli) or per kind of mutation (import),
failures as diagnostics with the case's argv, so that it can be run again.

$CLOCKBENCH is the binary (the sanitizer build in CI); $CLOCKBENCH_TEST_DATA
the test data; $CLOCKBENCH_FUZZ_SEED (default 15) and $CLOCKBENCH_FUZZ_CASES
change the cases. Commands that change the machine (hotplug, verify's
checks, ab --clocksource) or run other commands (exec --prepare and
--shell, ab --env and --prefix) are left out, or cut to --list.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SANITIZER = re.compile(rb"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|"
                       rb"SUMMARY: UndefinedBehaviorSanitizer")
ALLOWED = {0, 1, 2, 3, 4}
TIMEOUT_S = 60          # a case slower than this is stopped with SIGINT
STOPPED = 130           # 128 + SIGINT: what a stopped measuring command exits

# Values a hostile user (or a typo) gives, for any option or argument.
HOSTILE = [
    "", "0", "1", "-1", "2", "3", "7", "99", "1000000", "4294967295",
    "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "1e308", "1e-308", "-0", "nan", "inf", "-inf",
    "0x10", "010", " 1", "1 ", "1,2", ",", ",,", "1,,2", "a,b", "1-3", "3-1",
    "0-0", "*", "?", "[", "[!a-", "\\", "'", '"', "%s%n%x%p", "\x1b]0;owned\x07",
    "\x1b[2J", "\r", "\n", "\t", "\udcff\udcfe", "é", "\u202e", "-", "--", "-h",
    "=", "a=b", "x" * 4096, "y" * 100000, "1ms", "0ms", "0.5", "2s", "1h",
    "1e9s", "999999999999999999999s", "-1s", "1ns", "1us", "2026-01-01",
    "2026-13-45", "2026-01-01T25:61", "9999-12-31T23:59:59", "00000000-0000-4000-8000-000000000001",
]
# Words the commands know, so that lines get past the first check.
WORDS = [
    "table", "json", "csv", "tap", "text", "markdown", "mail", "html", "mmtests",
    "ratio", "summary", "ministat", "ns", "s", "core-cycles", "cycles", "holm",
    "bh", "none", "worse", "better", "change", "auto", "perf", "arch", "cells",
    "distribution", "rounds", "compare", "scale", "hotplug", "timens", "vdso",
    "libc", "syscall", "clock_gettime", "time", "getcpu", "gettimeofday",
    "clock_getres", "getrandom", "times", "getrusage", "monotonic", "realtime",
    "boottime", "tai", "monotonic-raw", "realtime-coarse", "process-cputime",
    "800x600", "10x10", "0x0", "100000x100000", "time/libc", "wall", "*vdso*",
]
# Values of the right kind, by the argument's name in --help.
VALID = {
    "N": ["1", "2", "3", "5", "10"], "K": ["1", "2"], "TIME": ["1ms", "2ms", "0.001", "5ms"],
    "PCT": ["1", "5", "0.5", "50"], "A": ["0.05", "0.01", "0.2"], "LABEL": ["lab", "b1", "x-y"],
    "PATTERN": ["*", "b*", "ex", "vm", "6.*", "bench", "[a-z]*"],
    "DATE": ["2020-01-01", "2026-01-01T00:00", "2099-12-31T23:59:59"],
    "GLOB": ["*", "time*", "*/vdso", "wall"], "WxH": ["800x600", "320x200", "10x10"],
    "A,B": ["0,1", "1,0", "0"], "IN,OUT": ["0,1"],
}
RUNS = ["1", "2", "3", "4", "5", "6", "99", "0", "-1", "b1", "b2", "ex", "sc", "nolabel"]

# What each command may be given, and what ends its line: the tail keeps a
# measuring command short (it comes last, so it wins over the mutations).
COMMANDS = {
    "runs": ([], []), "show": (RUNS, []), "compare": (RUNS, []),
    "export": (RUNS, []), "rm": (RUNS, []), "plot": (RUNS, []),
    "report": (RUNS, []), "import": (None, []), "vdso": ([], []),
    "help": (list(["bench", "exec", "x", ""]), []),
    "bench": ([], ["--budget", "1ms", "--rounds", "1"]),
    "scale": ([], ["--calls", "2000", "--repetitions", "1"]),
    "timens": ([], ["--budget", "1ms", "--repetitions", "2"]),
    "ab": ([], ["--budget", "1ms", "--repetitions", "2"]),
    "doctor": ([], ["--no-cost"]),
    "verify": ([], ["--list"]),
    "exec": ([], ["--runs", "2", "--", "true"]),
}
EXCLUDED = {"--prepare", "--shell", "--clocksource", "--env", "--prefix", "--pidfile",
            "--long", "--duration"}


def encode(word):
    return word.encode("utf-8", "surrogateescape")


class Result:
    def __init__(self, status, out, err, stopped, seconds):
        self.status, self.out, self.err = status, out, err
        self.stopped, self.seconds = stopped, seconds


class Runner:
    """Runs clockbench in a scratch directory, with a private store."""

    def __init__(self, work):
        self.cb = os.environ["CLOCKBENCH"]
        self.work = work
        self.env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"),
                        XDG_DATA_HOME=os.path.join(work, "data"),
                        CLOCKBENCH_BUSY_TIMEOUT="2",
                        ASAN_OPTIONS="detect_leaks=1:exitcode=86:abort_on_error=0",
                        UBSAN_OPTIONS="halt_on_error=1:exitcode=87:print_stacktrace=1")

    def run(self, argv, db):
        env = dict(self.env, CLOCKBENCH_DB=db)
        start = time.monotonic()
        p = subprocess.Popen([encode(self.cb)] + [encode(a) for a in argv], cwd=self.work,
                             env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        stopped = False
        try:
            out, err = p.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            stopped = True
            os.killpg(p.pid, signal.SIGINT)
            try:
                out, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                out, err = p.communicate()
        return Result(p.returncode, out, err, stopped, time.monotonic() - start)


def problem(r):
    """What is wrong with a run's end, or None."""
    if SANITIZER.search(r.err):
        return "a sanitizer report"
    if r.status < 0:
        return "killed by signal %d" % -r.status
    if r.stopped and r.status != STOPPED:
        return "stopped after %d s with SIGINT, then exit %d" % (TIMEOUT_S, r.status)
    if not r.stopped and r.status not in ALLOWED:
        return "exit %d" % r.status
    if r.status == 2:
        lines = r.err.splitlines()
        if len(lines) != 1 or b"error:" not in lines[0]:
            return "a usage error in %d lines, not one" % len(lines)
    return None


def show(argv):
    return " ".join(repr(a) if not re.fullmatch(r"[-\w.,=/:*]+", a) else a for a in argv)


def diagnose(argv, r, why):
    tail = r.err[-600:].decode("utf-8", "replace").replace("\n", "\n#     ")
    return "#   %s: clockbench %s\n#     stderr: %s" % (why, show(argv)[:400], tail)


# ---- the store the cases run against ------------------------------------

def make_store(runner, db, data):
    """Runs of every kind, as the commands make them: bench, exec, scale, import."""
    steps = [
        ["bench", "--api", "time,clock_gettime", "--clock", "monotonic", "--path",
         "vdso,syscall", "--budget", "5ms", "--rounds", "2", "--label", "b1"],
        ["bench", "--api", "time,clock_gettime", "--clock", "monotonic", "--path",
         "vdso,syscall", "--budget", "5ms", "--rounds", "2", "--label", "b2"],
        ["exec", "-n", "3", "--label", "ex", "--", "true"],
        ["scale", "--threads", "1,2", "--calls", "2000", "--repetitions", "2",
         "--label", "sc"],
        ["import", os.path.join(data, "export-small.json")],
    ]
    for argv in steps:
        r = runner.run(argv, db)
        if r.status != 0:
            sys.exit("campaign: cannot make the store: clockbench %s: exit %d: %s"
                     % (show(argv), r.status, r.err.decode("utf-8", "replace")))


def scratch_files(work, data):
    """
    Paths a case may name, every one inside the scratch directory (a case
    may write to any of them: vdso --dump, plot -o): real and broken
    stores, copies of the test data, a directory, and names of nothing.
    """
    export = open(os.path.join(data, "export-small.json"), "rb").read()
    vdso = open(os.path.join(data, "vdso-x86_64.so"), "rb").read()
    files = {
        "notadb.txt": b"this is not a database\n", "empty.db": b"",
        "export.json": export, "truncated.json": export[:3000],
        "vdso.so": vdso, "vdso-cut.so": vdso[:1500],
    }
    for name, content in files.items():
        with open(os.path.join(work, name), "wb") as f:
            f.write(content)
    os.makedirs(os.path.join(work, "adir"), exist_ok=True)
    return [os.path.join(work, n) for n in list(files) + ["adir", "out.svg", "out.png",
            "out.html", "out.json", "dump.so"]] + [
        os.path.join(work, "no-such-dir", "x"), "", "-"]


# ---- command lines ------------------------------------------------------

OPTION = re.compile(r"^  (?:-(\w), )?--([a-z][a-z0-9-]*)(?: ([A-Z][^ ]*))?")


def options_of(runner, cmd):
    """(long, short, argument name or None) of each option, from --help."""
    r = runner.run([cmd, "--help"], os.path.join(runner.work, "none.db"))
    found = []
    for line in r.out.decode("utf-8", "replace").splitlines():
        m = OPTION.match(line)
        if m and "--" + m.group(2) not in EXCLUDED and m.group(2) != "help":
            found.append((m.group(2), m.group(1), m.group(3)))
    return found


def value_for(rng, arg, paths):
    if arg in ("PATH", "FILE", "DIR|FILE") and rng.random() < 0.7:
        return rng.choice(paths)
    if arg in VALID and rng.random() < 0.6:
        return rng.choice(VALID[arg])
    return rng.choice(WORDS if rng.random() < 0.5 else HOSTILE)


def option_tokens(rng, opt, paths):
    long_name, short, arg = opt
    name = "-" + short if short and rng.random() < 0.3 else "--" + long_name
    if not arg:
        return [name]
    value = value_for(rng, arg, paths)
    if name.startswith("--") and rng.random() < 0.3:
        return [name + "=" + value]
    if short and name.startswith("-") and not name.startswith("--") and rng.random() < 0.3:
        return [name + value]
    return [name, value]


def mutate(rng, tokens):
    """Drop, repeat, swap or insert a token, or cut one short."""
    if not tokens or rng.random() < 0.5:
        return tokens + [rng.choice(HOSTILE + ["--frobnicate", "-Z", "--help"])]
    i = rng.randrange(len(tokens))
    how = rng.randrange(4)
    if how == 0:
        return tokens[:i] + tokens[i + 1:]
    if how == 1:
        return tokens[:i] + [tokens[i]] + tokens[i:]
    if how == 2:
        j = rng.randrange(len(tokens))
        tokens = list(tokens)
        tokens[i], tokens[j] = tokens[j], tokens[i]
        return tokens
    return tokens[:i] + [tokens[i][:rng.randrange(len(tokens[i]) + 1)]] + tokens[i + 1:]


def command_line(rng, cmd, options, paths):
    positionals, tail = COMMANDS[cmd]
    tokens = []
    for _ in range(rng.randrange(5)):
        if options:
            tokens += option_tokens(rng, rng.choice(options), paths)
    pool = paths if positionals is None else positionals
    for _ in range(rng.randrange(3) if pool else 0):
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(pool + HOSTILE[:12]))
    if rng.random() < 0.3:
        tokens = mutate(rng, tokens)
    if cmd == "exec":       # no word of the line may become the command run
        tokens = [t for t in tokens if t.startswith("-")]
    return [cmd] + tokens + tail


def run_cli(runner, base_db, cases, rng, paths):
    commands = sorted(COMMANDS)
    options = {c: options_of(runner, c) for c in commands}
    per = {c: [0, {}, []] for c in commands + ["main"]}
    for k in range(cases):
        cmd = commands[k % len(commands)] if k < cases - 20 else "main"
        argv = (command_line(rng, cmd, options[cmd], paths) if cmd != "main" else
                [rng.choice(HOSTILE + ["--version", "--help", "bogus"])])
        db = copy_store(base_db, runner.work)
        r = runner.run(argv, db)
        tally(per[cmd], argv, r)
    return report(per)


def copy_store(base_db, work):
    db = os.path.join(work, "case.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
        if os.path.exists(base_db + suffix):
            shutil.copyfile(base_db + suffix, db + suffix)
    return db


def tally(entry, argv, r):
    entry[0] += 1
    entry[1][r.status] = entry[1].get(r.status, 0) + 1
    why = problem(r)
    if why:
        entry[2].append(diagnose(argv, r, why))


def report(per):
    failed = 0
    total = sum(e[0] for e in per.values())
    print("1..%d" % len([k for k in per if per[k][0]]))
    n = 0
    for name, (count, statuses, problems) in per.items():
        if not count:
            continue
        n += 1
        exits = ", ".join("%d: %d" % kv for kv in sorted(statuses.items()))
        print("%s %d %s: %d cases (exit %s)" % ("not ok" if problems else "ok", n,
                                              name, count, exits))
        for p in problems[:10]:
            print(p)
        failed += bool(problems)
    print("# %d cases" % total)
    return 1 if failed else 0


# ---- export files -------------------------------------------------------

def hostile_value(rng):
    return rng.choice([
        None, True, -1, 0, 2 ** 31, 2 ** 32 - 1, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 1e308,
        -1e308, 1e-320, "", "x" * 300, "x" * 70000, "\x1b]0;owned\x07", "nan", [], {},
        [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]], [0.5] * 2000, {"a": {"b": {"c": []}}},
        "00000000-0000-4000-8000-00000000000f", "complete", "ok", "ns",
    ])


def paths_in(j, at=()):
    yield at
    if isinstance(j, dict):
        for k, v in j.items():
            yield from paths_in(v, at + (k,))
    elif isinstance(j, list):
        for i, v in enumerate(j[:40]):
            yield from paths_in(v, at + (i,))


def json_mutation(rng, doc):
    """One change at a random place of the tree: a value, a key, a list."""
    places = [p for p in paths_in(doc) if p]
    at = rng.choice(places)
    parent = doc
    for step in at[:-1]:
        parent = parent[step]
    how = rng.randrange(5)
    if how == 0:
        parent[at[-1]] = hostile_value(rng)
    elif how == 1 and isinstance(parent, dict):
        del parent[at[-1]]
    elif how == 2 and isinstance(parent[at[-1]], list) and parent[at[-1]]:
        parent[at[-1]] = parent[at[-1]] * rng.choice([2, 50]) if rng.random() < 0.5 \
            else parent[at[-1]][:rng.randrange(len(parent[at[-1]]))]
    elif how == 3 and isinstance(parent, dict):
        parent[rng.choice(["extra", "\x00", "é", "samples", "uuid"])] = hostile_value(rng)
    else:
        parent[at[-1]] = rng.choice([4294967295, 2147483648, 16777216, 999, 1000, -1]) \
            if isinstance(parent[at[-1]], int) else hostile_value(rng)
    return "json:" + ["value", "key dropped", "list resized", "key added",
                      "number"][how]


def byte_mutation(rng, text):
    data = bytearray(text)
    how = rng.randrange(4)
    if how == 0:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif how == 1:
        del data[rng.randrange(len(data)):]
    elif how == 2:
        i = rng.randrange(len(data))
        data[i:i] = rng.choice([b"{", b"[", b"\"", b"\\u0000", b",", b"\xff", b"]]]]"]) * \
            rng.choice([1, 100, 5000])
    else:
        i, j = sorted(rng.randrange(len(data)) for _ in range(2))
        data[i:i] = data[i:j]
    return bytes(data), "bytes:" + ["flipped", "cut", "inserted", "repeated"][how]


def export_case(rng, base):
    doc = json.loads(base)
    kind = None
    for _ in range(rng.randint(1, 3)):
        kind = json_mutation(rng, doc)
    runs = doc.get("runs") if isinstance(doc, dict) else None
    for run in runs if isinstance(runs, list) else []:
        if isinstance(run, dict):   # new uuids, or every import is "already stored"
            run["uuid"] = "00000000-0000-4000-8000-%012x" % rng.randrange(2 ** 48)
    text = json.dumps(doc).encode()
    if rng.random() < 0.35:
        text, kind = byte_mutation(rng, text)
    return text, kind


FOLLOW_UPS = [
    ["runs"], ["runs", "--format", "json"], ["show", "{id}"], ["show", "--format", "json",
    "--samples", "{id}"], ["show", "--histogram", "{id}"], ["compare", "b1", "{id}"],
    ["compare", "--style", "ministat", "ex", "{id}"], ["compare", "--format", "csv",
    "{id}", "b2"], ["export", "{id}"], ["export", "--format", "csv", "{id}"],
    ["report", "--format", "mail", "b1", "{id}"],
]


def run_import(runner, base_db, cases, rng, data):
    base = open(os.path.join(data, "export-small.json"), "rb").read()
    per = {}
    for _ in range(cases):
        text, kind = export_case(rng, base)
        path = os.path.join(runner.work, "case.json")
        with open(path, "wb") as f:
            f.write(text)
        db = copy_store(base_db, runner.work)
        entry = per.setdefault(kind, [0, {}, []])
        r = runner.run(["import", path], db)
        tally(entry, ["import", "case.json (%d bytes, %s)" % (len(text), kind)], r)
        for run_id in re.findall(rb"as run (\d+)", r.err):
            follow = rng.sample(FOLLOW_UPS, 4) + ([["plot", "-o", "p.svg", "{id}"]]
                                                  if rng.random() < 0.1 else [])
            for argv in follow:
                argv = [a.replace("{id}", run_id.decode()) for a in argv]
                tally(entry, argv, runner.run(argv, db))
    return report(per)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "cli"
    default = {"cli": 1000, "import": 400}[mode]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else \
        int(os.environ.get("CLOCKBENCH_FUZZ_CASES", default))
    seed = int(os.environ.get("CLOCKBENCH_FUZZ_SEED", "15"))
    data = os.environ["CLOCKBENCH_TEST_DATA"]
    work = tempfile.mkdtemp(prefix="clockbench-campaign-")
    try:
        runner = Runner(work)
        base_db = os.path.join(work, "base.db")
        make_store(runner, base_db, data)
        rng = random.Random("%s-%d" % (mode, seed))
        print("# campaign %s: seed %d, %d cases" % (mode, seed, cases))
        if mode == "cli":
            return run_cli(runner, base_db, cases, rng, scratch_files(work, data))
        return run_import(runner, base_db, cases, rng, data)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
