#!/usr/bin/env python3
"""The Python package's costs (issue 14), side by side with C++ in one process:

1. Each built-in pass on resnet-50 (parameters bound, InferType run) called from Python,
   ``pass_(mod)``, against the same pass on the same module in a loop timed inside C++
   (relaypass._core._bench_run_pass). Best of REPEATS each, runs interleaved.
2. A Python relay.ExprMutator that rebuilds every node of resnet-50's main, against the C++
   ExprMutator doing the same (relaypass._core._bench_rebuild_all): cost per node.

Writes a Markdown section (for bench/report.py --python) to the path given as argv[1].
Run with PYTHONPATH=<build>/python.
"""
import sys
import time

import relaypass as tvm
from relaypass import _core, relay
from relaypass.relay.testing import resnet

REPEATS = 15

PASSES = [
    ("InferType", lambda: relay.transform.InferType()),
    ("FoldConstant", lambda: relay.transform.FoldConstant()),
    ("SimplifyInference", lambda: relay.transform.SimplifyInference()),
    ("EliminateCommonSubexpr", lambda: relay.transform.EliminateCommonSubexpr()),
    ("FoldScaleAxis", lambda: relay.transform.FoldScaleAxis()),
    ("CanonicalizeOps", lambda: relay.transform.CanonicalizeOps()),
    ("ConvertLayout", lambda: relay.transform.ConvertLayout({"nn.conv2d": ["NHWC", "default"]})),
    ("FuseOps", lambda: relay.transform.FuseOps()),
    ("ToANormalForm", lambda: relay.transform.ToANormalForm()),
    ("DeadCodeElimination", lambda: relay.transform.DeadCodeElimination()),
]


class RebuildAll(relay.ExprMutator):
    """Rebuilds every call, tuple, get-item and function, as TVM users' mutators do."""

    def visit_call(self, call):
        new_fn = self.visit(call.op)
        new_args = [self.visit(arg) for arg in call.args]
        return relay.Call(new_fn, new_args, call.attrs, call.type_args, call.span)

    def visit_tuple(self, tup):
        return relay.Tuple([self.visit(f) for f in tup.fields])

    def visit_tuple_getitem(self, op):
        return relay.TupleGetItem(self.visit(op.tuple_value), op.index)

    def visit_function(self, fn):
        params = [self.visit(p) for p in fn.params]
        return relay.Function(params, self.visit(fn.body), fn.ret_type, None, fn.attrs)


def workload():
    """resnet-50, bound and type-checked, with InferType's "already checked" mark cleared (the
    function replaced by a shallow copy), so that every pass does its full work (the
    `re-checked` inputs of the C++ benchmarks)."""
    mod, params = resnet.get_workload(num_layers=50, batch_size=1)
    mod["main"] = relay.build_module.bind_params_by_name(mod["main"], params)
    mod = relay.transform.InferType()(mod)
    main = mod["main"]
    mod["main"] = _core.function_with_fields(main, list(main.params), main.body)
    return mod


def time_python(p, mod):
    """One call, its result destroyed outside the timed region (as the C++ loop does)."""
    start = time.perf_counter()
    result = p(mod)
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def main():
    out_path = sys.argv[1]
    mod = workload()
    ctx = tvm.transform.PassContext(opt_level=3)
    rows = []
    with ctx:
        for name, make in PASSES:
            p = make()
            py_times, cpp_times = [], []
            for _ in range(REPEATS):
                py_times.append(time_python(p, mod))
                cpp_times.extend(_core._bench_run_pass(p, mod, ctx, 1))
            rows.append((name, min(py_times) * 1e3, min(cpp_times) * 1e3))

    main_fn = mod["main"]
    nodes = _core._count_nodes(main_fn)
    py_mut = []
    for _ in range(3):
        start = time.perf_counter()
        RebuildAll().visit(main_fn)
        py_mut.append(time.perf_counter() - start)
    cpp_mut = _core._bench_rebuild_all(main_fn, 5)

    lines = ["## Python: calls from Python against the same work in C++ (this run)", ""]
    lines.append("`bench/python_bench.py`: resnet-50, parameters bound, InferType run (then its mark "
                 "cleared, as the re-checked inputs above: every pass does its full work), under "
                 "`PassContext(opt_level=3)`; best of {} interleaved runs each. The C++ column "
                 "times the same pass object on the same module in a loop inside C++; the "
                 "difference is what the Python call adds (argument conversion, releasing and "
                 "taking the GIL, wrapping the result).".format(REPEATS))
    lines.append("")
    lines.append("| pass | from Python (ms) | from C++ (ms) | Python overhead |")
    lines.append("|---|---|---|---|")
    worst = 0.0
    for name, py_ms, cpp_ms in rows:
        overhead = (py_ms / cpp_ms - 1.0) * 100.0
        worst = max(worst, overhead)
        lines.append("| {} | {:.3f} | {:.3f} | {:+.1f} % |".format(name, py_ms, cpp_ms, overhead))
    lines.append("")
    lines.append("Largest overhead: {:+.1f} % (target: at most 5 %). Negative values are run-to-run "
                 "noise: the two columns run the same C++ code.".format(worst))
    lines.append("")
    lines.append("A mutator that rebuilds every node of resnet-50's `main` ({} nodes):".format(nodes))
    lines.append("")
    lines.append("| mutator | best (ms) | per node (us) |")
    lines.append("|---|---|---|")
    lines.append("| Python `relay.ExprMutator` subclass | {:.1f} | {:.2f} |".format(
        min(py_mut) * 1e3, min(py_mut) * 1e6 / nodes))
    lines.append("| C++ `ir::ExprMutator` | {:.2f} | {:.3f} |".format(
        min(cpp_mut) * 1e3, min(cpp_mut) * 1e6 / nodes))
    lines.append("")
    lines.append("The Python mutator costs {:.0f}x the C++ one per node: each node is a Python "
                 "method dispatch, a memo-table lookup and a constructor call across the binding."
                 .format(min(py_mut) / min(cpp_mut)))
    lines.append("")
    with open(out_path, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
