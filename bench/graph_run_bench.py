#!/usr/bin/env python3
"""The graph executor's cost from Python (issue 37), side by side in one process:

1. GraphModule.run() on relay.build's module of resnet-50 and mobilenet (opt_level 3), against
   the same executor's Run timed inside C++ (relaypass._core._bench_graph_run): best and median
   of REPEATS each, the two interleaved.
2. The per-call cost of run() on a one-op module (relu on 1x3x224x224, the smallest graph the
   ONNX Runtime harness feeds), next to ONNX Runtime's time for the same one-op model when
   onnxruntime-node is installed (NODE_PATH) and `node` is on PATH.

Writes a Markdown section (appended to python_bench.md by make bench) to argv[1].
Run with PYTHONPATH=<build>/python.
"""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import relaypass as tvm
from relaypass import _core, relay
from relaypass.contrib import graph_executor
from relaypass.relay.testing import mobilenet, resnet

REPEATS = 60


def build(mod, params):
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm", params=params)
    gmod = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    return gmod, gmod.module["_executor"].ex


def compare(gmod, core, repeats=REPEATS):
    gmod.run()  # warm-up (both share the executor)
    py_times, cpp_times = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        gmod.run()
        py_times.append(time.perf_counter() - start)
        cpp_times.append(_core._bench_graph_run(core, 1)[0])
    return py_times, cpp_times


def ort_time(onnx_path):
    node = shutil.which("node")
    if not node or not os.environ.get("NODE_PATH"):
        return None
    out = onnx_path + ".ort.json"
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([node, os.path.join(here, "ort_bench.js"), onnx_path, out, "200", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)["runs"][0]["best_ms"]


def one_op_onnx(path):
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["input"], ["output"])], "one_op",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 3, 224, 224])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    out_path = sys.argv[1]
    lines = ["## The graph executor from Python", ""]
    lines.append(
        "`bench/graph_run_bench.py`: `relay.build` at opt_level 3, then `GraphModule.run()` "
        "timed in Python against the same executor's `Run` timed in C++, interleaved, "
        "%d runs each, on %s (%s). Target: Python within 2%% of C++." % (
            REPEATS, platform.processor() or platform.machine(), os.cpu_count()))
    lines += ["", "| model | C++ Run best / median (ms) | GraphModule.run() best / median (ms) | "
              "ratio of medians |", "|---|---|---|---|"]
    data = np.random.default_rng(0).uniform(-1, 1, (1, 3, 224, 224)).astype("float32")
    for name, (mod, params) in [
        ("resnet-50", resnet.get_workload(num_layers=50)),
        ("mobilenet", mobilenet.get_workload()),
    ]:
        gmod, core = build(mod, params)
        gmod.set_input("data", data)
        py_t, cpp_t = compare(gmod, core)
        lines.append("| %s | %.2f / %.2f | %.2f / %.2f | %.3f |" % (
            name, min(cpp_t) * 1e3, statistics.median(cpp_t) * 1e3, min(py_t) * 1e3,
            statistics.median(py_t) * 1e3, statistics.median(py_t) / statistics.median(cpp_t)))

    tmp = tempfile.mkdtemp()
    onnx_path = os.path.join(tmp, "one_op.onnx")
    one_op_onnx(onnx_path)
    import onnx

    mod, params = relay.frontend.from_onnx(onnx.load(onnx_path), {"input": (1, 3, 224, 224)})
    gmod, core = build(mod, params)
    gmod.set_input("input", data)
    py_t, cpp_t = compare(gmod, core, 200)
    ort = ort_time(onnx_path)
    lines += ["", "One-op module (relu on 1x3x224x224), best of 200 runs:", ""]
    lines.append("| GraphModule.run() (us) | C++ Run (us) | run()'s own cost (us) | ONNX Runtime "
                 "session.run (us) |")
    lines.append("|---|---|---|---|")
    lines.append("| %.1f | %.1f | %.1f | %s |" % (
        min(py_t) * 1e6, min(cpp_t) * 1e6, (min(py_t) - min(cpp_t)) * 1e6,
        "%.1f" % (ort * 1e3) if ort is not None else "not measured (no onnxruntime-node)"))
    lines.append("")
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
