#!/usr/bin/env python3
"""The Python package's costs (issue 14), side by side with C++ in one process:

1. Each built-in pass on resnet-50 (parameters bound, InferType run) called from Python,
   ``pass_(mod)``, against the same pass on the same module in a loop timed inside C++
   (relaypass._core._bench_run_pass). Best of REPEATS each, runs interleaved.
2. A Python relay.ExprMutator that rebuilds every node of resnet-50's main, against the C++
   ExprMutator doing the same (relaypass._core._bench_rebuild_all): cost per node.
3. Issue 35: a 100,000-node graph (workloads::Chain's add/relu chain) built through the Python
   API against the C++ builder API (_bench_build_chain), and visited by a Python
   relay.ExprVisitor against the C++ post-order visit (_bench_visit_all).
4. Issue 35: the time each relay.testing workload takes to build (get_workload), which users
   and TVM's tests call everywhere.

Writes a Markdown section (for bench/report.py --python) to the path given as argv[1].
Run with PYTHONPATH=<build>/python.
"""
import sys
import time
import numpy as np

import relaypass as tvm
from relaypass import _core, relay
from relaypass.relay.testing import resnet

REPEATS = 15
CHAIN_NODES = 100000

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


class CountAll(relay.ExprVisitor):
    """Visits every node (the base class's traversal), counting the calls."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def visit_call(self, call):
        self.calls += 1
        super().visit_call(call)


def python_chain(n):
    """workloads::Chain(n) through the Python API: x (1, 16) through n ops alternating
    add(y, 1f) and nn.relu."""
    x = relay.var("x", shape=(1, 16))
    y = x
    one = relay.const(1.0)
    for i in range(n):
        y = relay.add(y, one) if i % 2 == 0 else relay.nn.relu(y)
    return relay.Function([x], y)


def best_of(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def chain_rows():
    """(build Python s, build C++ s, visit Python s, visit C++ s) for CHAIN_NODES."""
    build_py = best_of(lambda: python_chain(CHAIN_NODES), 3)
    build_cpp = min(_core._bench_build_chain(CHAIN_NODES, 3))
    chain = python_chain(CHAIN_NODES)

    def visit():
        counter = CountAll()
        counter.visit(chain)
        assert counter.calls == CHAIN_NODES

    visit_py = best_of(visit, 3)
    visit_cpp = min(_core._bench_visit_all(chain, 3))
    return build_py, build_cpp, visit_py, visit_cpp


def workload_rows():
    """(name, best seconds of get_workload, best seconds of the type-checked graph alone or None,
    millions of parameter values) for each relay.testing workload. The graph alone is the
    network's get_net (densenet: _make_dense_net) through InferType, without the parameter draws
    (NumPy's, as TVM's create_workload); resnet and mobilenet are built in C++ in one call."""
    import importlib

    from relaypass.relay import testing

    for name in ("mlp", "resnet", "resnet_3d", "mobilenet", "inception_v3", "squeezenet", "vgg",
                 "densenet", "dcgan", "dqn", "lstm", "synthetic"):
        importlib.import_module("relaypass.relay.testing." + name)

    def typed(make_net):
        return lambda: relay.transform.InferType()(tvm.IRModule.from_expr(make_net()))

    cases = [
        ("mlp", lambda: testing.mlp.get_workload(batch_size=1),
         typed(lambda: testing.mlp.get_net(1))),
        ("resnet-18", lambda: testing.resnet.get_workload(num_layers=18), None),
        ("resnet-50", lambda: testing.resnet.get_workload(num_layers=50), None),
        ("resnet3d-18", lambda: testing.resnet_3d.get_workload(num_layers=18),
         typed(lambda: testing.resnet_3d.get_net(1, 1000, num_layers=18))),
        ("mobilenet", lambda: testing.mobilenet.get_workload(), None),
        ("inception_v3", lambda: testing.inception_v3.get_workload(),
         typed(lambda: testing.inception_v3.get_net(1, 1000, (3, 299, 299), "float32"))),
        ("squeezenet1.0", lambda: testing.squeezenet.get_workload(),
         typed(lambda: testing.squeezenet.get_net(1, (3, 224, 224), 1000, "1.0", "float32"))),
        ("vgg-16", lambda: testing.vgg.get_workload(batch_size=1, num_layers=16),
         typed(lambda: testing.vgg.get_net(1, (3, 224, 224), 1000, "float32", 16))),
        ("densenet-121", lambda: testing.densenet.get_workload(),
         typed(lambda: testing.densenet._make_dense_net(64, 32, [6, 12, 24, 16],
                                                        (4, 3, 224, 224), "float32", 4, 1000))),
        ("dcgan", lambda: testing.dcgan.get_workload(batch_size=1),
         typed(lambda: testing.dcgan.get_net(1))),
        ("dqn", lambda: testing.dqn.get_workload(batch_size=1),
         typed(lambda: testing.dqn.get_net(1))),
        ("lstm", lambda: testing.lstm.get_workload(iterations=10, num_hidden=128),
         typed(lambda: testing.lstm.get_net(10, 128))),
        ("synthetic", lambda: testing.synthetic.get_workload(),
         typed(lambda: testing.synthetic.get_net())),
    ]
    rows = []
    for name, make, graph in cases:
        values = sum(int(np.prod(v.shape)) for v in make()[1].values()) / 1e6
        rows.append((name, best_of(make, 2), best_of(graph, 2) if graph else None, values))
    return rows


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
    build_py, build_cpp, visit_py, visit_cpp = chain_rows()
    lines.append("A {:,}-node graph (x through add(y, 1f) and nn.relu alternately, as the chain "
                 "benchmarks above) built and visited; best of 3:".format(CHAIN_NODES))
    lines.append("")
    lines.append("| work | Python API (ms) | C++ API (ms) | Python / C++ | Python per node (us) |")
    lines.append("|---|---|---|---|---|")
    for work, py_s, cpp_s in (("build (relay.add / relay.nn.relu calls)", build_py, build_cpp),
                              ("visit every node (relay.ExprVisitor subclass)", visit_py,
                               visit_cpp)):
        lines.append("| {} | {:.1f} | {:.2f} | {:.0f}x | {:.2f} |".format(
            work, py_s * 1e3, cpp_s * 1e3, py_s / cpp_s, py_s * 1e6 / CHAIN_NODES))
    lines.append("")
    lines.append("Each Python node costs an operator-builder call (argument checks, attribute "
                 "construction) or a visitor method dispatch across the binding; the C++ columns "
                 "are the same builder calls and the post-order visit without Python.")
    lines.append("")
    rows = workload_rows()
    lines.append("`relay.testing` workloads: `get_workload()` with its default arguments (vgg: "
                 "16 layers; lstm: 10 iterations of 128 hidden units), parameters initialised as "
                 "TVM's; the graph alone is the type-checked network without its parameters; "
                 "best of 2 (target: well under a second each):")
    lines.append("")
    lines.append("| workload | build (ms) | graph alone (ms) | parameters (M values) |")
    lines.append("|---|---|---|---|")
    for name, seconds, graph, values in rows:
        lines.append("| {} | {:.1f} | {} | {:.2f} |".format(
            name, seconds * 1e3, "{:.1f}".format(graph * 1e3) if graph else "(C++)", values))
    lines.append("")
    lines.append("Slowest: {} at {:.0f} ms.".format(*max(((r[0], r[1] * 1e3) for r in rows),
                                                         key=lambda r: r[1])))
    lines.append("")
    with open(out_path, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
