#!/usr/bin/env python3
"""Side-by-side timing of two builds of a Google Benchmark binary (e.g. passes_bench of an older
commit and of this one), to tell a real slowdown from a different machine or a loaded one.

Runs OLD and NEW alternately, ROUNDS times each, on the same benchmarks, and prints a Markdown
table of each benchmark's best CPU time (the `best_cpu_ms` counter of bench/passes_bench.cc, or
the reported cpu_time) in both, and their ratio. Alternating rounds spread any change in the
machine's load over both builds.

  bench/compare_builds.py --old OLD/build-bench/bench/passes_bench \\
      --new build-bench/bench/passes_bench --filter '^pass/resnet-50/' --rounds 3
"""
import argparse
import json
import subprocess
import sys


def run(binary, bench_filter):
    out = subprocess.run([binary, "--benchmark_filter=" + bench_filter, "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b["name"].replace("/min_time:0.300", "").replace("/manual_time", "")
        ms = b.get("best_cpu_ms")
        if ms is None:  # a benchmark without the counter: its mean CPU time per iteration
            scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
            ms = b["cpu_time"] * scale
        times[name] = ms
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--filter", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for which in ("old", "new"):
            for name, ms in run(getattr(args, which), args.filter).items():
                best[which][name] = min(ms, best[which].get(name, float("inf")))
    print("| benchmark | old (best CPU ms) | new (best CPU ms) | new / old |")
    print("|---|---|---|---|")
    for name in best["new"]:
        if name not in best["old"]:
            continue
        old, new = best["old"][name], best["new"][name]
        ratio = "%.2f" % (new / old) if old > 0 else "n/a"
        print("| %s | %.4g | %.4g | %s |" % (name, old, new, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
