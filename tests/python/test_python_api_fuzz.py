"""The Python-API fuzzer's kept cases and a short seeded sweep (fuzz/python_api_fuzzer.py).

Each kept case (tests/bad_input/python_fuzz_cases/*.json, the fuzzer's PRELUDE of oracles + the
case's "body") runs in its own subprocess (sys.executable) and must end cleanly: a result or a
Python Exception, never a signal, a hang, or an oracle's Mismatch. The expected numbers inside
each case come from NumPy or from the agreement of the executors (debug, graph, vm, relay.build,
relay.vm.compile) and the case's code says which. The sweep runs fixed seeds and case counts, so
it is deterministic: the same cases every run.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

# Under ASan (make test-asan preloads libasan) the instrumented code runs several times slower.
SLOW = 5 if os.environ.get("RELAYPASS_UNDER_ASAN") else 1
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZER = os.path.join(ROOT, "fuzz", "python_api_fuzzer.py")
CASES = sorted(glob.glob(os.path.join(ROOT, "tests", "bad_input", "python_fuzz_cases", "*.json")))


def _env():
    env = dict(os.environ)
    # the package this pytest run imports is the one the children import
    import relaypass

    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(relaypass.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([pkg_parent, env.get("PYTHONPATH", "")])
    return env


def test_there_are_kept_cases():
    assert CASES, "tests/bad_input/python_fuzz_cases/ has no case files"
    for path in CASES:
        with open(path) as f:
            case = json.load(f)
        assert case.get("what") and case.get("body"), path


@pytest.mark.parametrize("path", CASES, ids=[os.path.basename(p)[:-5] for p in CASES])
def test_kept_case_ends_cleanly(path):
    with open(path) as f:
        what = json.load(f)["what"]
    try:
        proc = subprocess.run([sys.executable, FUZZER, "--replay", path], capture_output=True,
                              text=True, timeout=60 * SLOW, env=_env())
    except subprocess.TimeoutExpired:
        pytest.fail("hang (over %d s): %s" % (60 * SLOW, what))
    assert proc.returncode >= 0, "killed by signal %d: %s\n%s" % (
        -proc.returncode, what, proc.stderr[-2000:])
    assert proc.returncode == 0, "finding (%s): %s\n%s" % (
        proc.stdout.strip()[-1500:], what, proc.stderr[-1500:])
    outcome = json.loads(proc.stdout.strip().splitlines()[-1])
    assert outcome["status"] in ("ok", "exception"), outcome


# (seed, first case, number of cases): about 10 s each on the 2-core machine
SWEEPS = [(101, 0, 150), (202, 0, 150), (303, 0, 150)]


@pytest.mark.parametrize("seed,start,count", SWEEPS)
def test_seeded_sweep_has_no_finding(seed, start, count, tmp_path):
    proc = subprocess.run(
        [sys.executable, FUZZER, "--seed", str(seed), "--start", str(start), "--count",
         str(count), "--findings", str(tmp_path), "--timeout", str(20 * SLOW)],
        capture_output=True, text=True, timeout=300 * SLOW, env=_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(tmp_path / ("stats-%d.json" % seed)) as f:
        stats = json.load(f)["stats"]
    assert stats["cases"] == count, stats
    # the oracles ran: most cases end in a result, not an exception before any comparison
    assert stats["ok"] > count // 3, stats
    findings = sorted(p.name for p in tmp_path.glob("*.py"))
    details = [json.load(open(str(p)[:-3] + ".json"))["detail"] for p in tmp_path.glob("*.py")]
    assert stats["findings"] == 0 and not findings, "\n".join(
        "%s: %s" % (n, d) for n, d in zip(findings, details))
