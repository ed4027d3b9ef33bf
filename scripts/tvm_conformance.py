#!/usr/bin/python3
"""TVM v0.13's own Relay tests on relaypass: a table of outcomes and a regression check.

    tvm_conformance.py --package BUILD/python [--tests DIR] [--groups api,run,...]
                       [--expected FILE [--update-expected]]

Runs the test files of DIR (default: ../shared/tvm_tests next to this checkout; its README says
what they are) through DIR/run.sh with pytest's -rA, so that every test gets an outcome line, and
prints per group and per test file: the tests passed, failed, skipped, expected to fail (xfail,
whether they failed or passed) and in error here, the tests TVM itself passes (DIR/tvm_results.txt,
its PASSED lines), how many of those pass here and that as a percentage. Tests that pass here but
fail or error in TVM are listed (they may pass by accident, on a stub).

--expected FILE: the test ids (one a line) that are known to pass here; the run fails (exit 1)
and names each one that no longer passes. With --update-expected the file is rewritten to the
tests that pass now (ids of groups not run are kept).

Exit status: 0 when no expected test regressed, 1 otherwise, 2 for a bad argument (such as a
--package without relaypass/__init__.py) or when run.sh does not end with pytest's summary,
77 (CTest: skipped) when DIR does not exist.
Python 3 standard library only.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TESTS = os.path.join(HERE, "..", "..", "shared", "tvm_tests")
# pytest -rA's outcome words; SKIPPED lines are folded ("SKIPPED [N] file.py:LINE: reason").
WORDS = ("PASSED", "FAILED", "ERROR", "XFAIL", "XPASS")
SKIP_LINE = re.compile(r"^SKIPPED \[(\d+)\] ([^:]+):")
SUMMARY_LINE = re.compile(r"^=* ?(\d+ \w+|no tests ran).* in [\d.]+s")


def read_groups(tests_dir):
    """groups.txt: 'GROUP file file ...' lines -> {group: [file, ...]} in file order."""
    groups = {}
    with open(os.path.join(tests_dir, "groups.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, *files = line.split()
                groups[name] = files
    return groups


def test_id(rest, sep):
    """The test id at the start of REST, before SEP and a message. Ids may hold spaces and
    ' - ' (parameters such as 'llvm -mcpu=x'): cut at the first SEP with balanced brackets."""
    start = 0
    while True:
        at = rest.find(sep, start)
        if at < 0:
            return rest.rstrip()
        if rest.count("[", 0, at) == rest.count("]", 0, at):
            return rest[:at]
        start = at + 1


def parse(lines):
    """-rA lines -> ({test id: [outcome words]}, {file: skipped count})."""
    outcomes = collections.defaultdict(list)
    skipped = collections.Counter()
    for line in lines:
        line = line.rstrip("\n")
        m = SKIP_LINE.match(line)
        if m:
            skipped[m.group(2)] += int(m.group(1))
            continue
        word, _, rest = line.partition(" ")
        if word in WORDS and rest:
            outcomes[test_id(rest, " " if word == "XPASS" else " - ")].append(word)
    return outcomes, skipped


def file_of(test):
    return test.split("::", 1)[0]


def run_tests(tests_dir, package, groups):
    cmd = [os.path.join(tests_dir, "run.sh"), package, *groups, "--", "-rA", "--rootdir=."]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = proc.stdout.splitlines()
    if not any(SUMMARY_LINE.match(line) for line in lines[-3:]):
        sys.stdout.write(proc.stdout)
        sys.exit(f"tvm_conformance: {' '.join(cmd)} did not end with pytest's summary "
                 f"(exit {proc.returncode})")
    return lines


def row(name, c):
    pct = f"{100.0 * c['both'] / c['tvm']:5.1f}%" if c["tvm"] else "     -"
    return (f"{name:<44} {c['pass']:>5} {c['fail']:>5} {c['skip']:>5} {c['xfail']:>5} "
            f"{c['error']:>5} {c['tvm']:>6} {c['both']:>5} {pct}")


def report(groups, selected, outcomes, skipped, tvm_outcomes):
    """Prints the table; returns the ids that pass here but fail or error in TVM."""
    header = (f"{'file':<44} {'pass':>5} {'fail':>5} {'skip':>5} {'xfail':>5} {'error':>5} "
              f"{'TVM':>6} {'both':>5}      %")
    tvm_passed = {t for t, w in tvm_outcomes.items() if "PASSED" in w}
    by_file = collections.defaultdict(list)
    for t in set(outcomes) | tvm_passed:
        by_file[file_of(t)].append(t)
    totals = collections.OrderedDict()
    for group in selected:
        print(f"\n== {group}\n{header}")
        total = collections.Counter()
        for name in groups[group]:
            c = collections.Counter(skip=skipped.get(name, 0))
            for t in by_file.get(name, ()):
                words = outcomes.get(t, ())
                c["pass"] += words.count("PASSED")
                c["fail"] += words.count("FAILED")
                c["error"] += words.count("ERROR")
                c["xfail"] += words.count("XFAIL") + words.count("XPASS")
                c["tvm"] += t in tvm_passed
                c["both"] += t in tvm_passed and "PASSED" in words
            print(row(name, c))
            total.update(c)
        print(row(f"{group} total", total))
        totals[group] = total
    print(f"\n== all groups\n{header}")
    for group, total in totals.items():
        print(row(group, total))
    print(row("total", sum(totals.values(), collections.Counter())))
    known = {f for g in selected for f in groups[g]}
    elsewhere = sum(n for f, n in skipped.items() if f not in known)
    if elsewhere:
        print(f"({elsewhere} skips reported at a location outside the test files, not counted above)")
    return sorted(t for t, w in outcomes.items() if "PASSED" in w and file_of(t) in known
                  and ({"FAILED", "ERROR"} & set(tvm_outcomes.get(t, ()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--package", required=True, help="the folder holding the relaypass package")
    ap.add_argument("--tests", default=DEFAULT_TESTS, help="TVM's test folder (../shared/tvm_tests)")
    ap.add_argument("--groups", default="", help="comma-separated groups (default: all)")
    ap.add_argument("--expected", help="file of test ids that must pass")
    ap.add_argument("--update-expected", action="store_true", help="rewrite --expected")
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.tests, "run.sh")):
        print(f"skipped: {args.tests} not found (a checkout without ../shared)")
        return 77
    if not os.path.isfile(os.path.join(args.package, "relaypass", "__init__.py")):
        # run.sh would take the folder for a test file and use build/python instead
        ap.error(f"{args.package} holds no relaypass package (relaypass/__init__.py)")
    groups = read_groups(args.tests)
    selected = [g for g in args.groups.split(",") if g] or list(groups)
    unknown = [g for g in selected if g not in groups]
    if unknown:
        ap.error(f"unknown group(s) {', '.join(unknown)}; groups.txt has {', '.join(groups)}")
    outcomes, skipped = parse(run_tests(args.tests, os.path.abspath(args.package), selected))
    results = os.path.join(args.tests, "tvm_results.txt")
    tvm_outcomes = {}
    if os.path.isfile(results):
        with open(results) as f:
            tvm_outcomes = parse(f)[0]
    accidental = report(groups, selected, outcomes, skipped, tvm_outcomes)
    print(f"\npassed here but failed or errored in TVM: {len(accidental)}")
    for t in accidental:
        print(f"  {t}  (TVM: {', '.join(tvm_outcomes[t])})")
    if not args.expected:
        return 0
    known = {f for g in selected for f in groups[g]}
    passed = {t for t, w in outcomes.items() if "PASSED" in w and file_of(t) in known}
    expected = set()
    if os.path.isfile(args.expected):
        with open(args.expected) as f:
            expected = {line.rstrip("\n") for line in f if line.strip()}
    in_scope = {t for t in expected if file_of(t) in known}
    if args.update_expected:
        os.makedirs(os.path.dirname(os.path.abspath(args.expected)), exist_ok=True)
        with open(args.expected, "w") as f:
            f.writelines(t + "\n" for t in sorted((expected - in_scope) | passed))
        print(f"wrote {args.expected}: {len(passed)} passing tests of {', '.join(selected)}")
        return 0
    lost = sorted(in_scope - passed)
    for t in lost:
        print(f"REGRESSION: {t} ({', '.join(outcomes.get(t, ['not run']))})")
    print(f"expected to pass: {len(in_scope)}; still passing: {len(in_scope) - len(lost)}; "
          f"newly passing: {len(passed - in_scope)}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
