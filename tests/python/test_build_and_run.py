"""relay.build, the graph executor, export_library / load_module, the VM and create_executor as a
TVM user calls them. Expected numbers come from NumPy on the same inputs (or from the same
module run another way, as each test says)."""
import os
import warnings

import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import graph_executor, utils


def _dense_relu():
    x = relay.var("x", shape=(2, 8), dtype="float32")
    w = relay.var("w", shape=(4, 8), dtype="float32")
    b = relay.var("b", shape=(4,), dtype="float32")
    out = relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, w), b))
    mod = tvm.IRModule.from_expr(relay.Function([x, w, b], out))
    rng = np.random.default_rng(0)
    params = {
        "w": rng.standard_normal((4, 8)).astype("float32"),
        "b": rng.standard_normal(4).astype("float32"),
    }
    return mod, params


def _numpy_dense_relu(x, params):
    return np.maximum(x @ params["w"].T + params["b"], 0)


@pytest.mark.parametrize("opt_level", [0, 2, 3])
def test_build_and_run_matches_numpy(opt_level):
    mod, params = _dense_relu()
    with tvm.transform.PassContext(opt_level=opt_level):
        lib = relay.build(mod, target="llvm", params=params)
    x = np.random.default_rng(1).standard_normal((2, 8)).astype("float32")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    m.set_input("x", x)
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _numpy_dense_relu(x, params), rtol=1e-5)
    assert m.get_num_outputs() == 1
    shapes, dtypes = m.get_input_info()
    assert shapes == {"x": (2, 8)} and dtypes == {"x": "float32"}
    out = tvm.nd.empty((2, 4))
    assert m.get_output(0, out) is out
    np.testing.assert_allclose(out.numpy(), _numpy_dense_relu(x, params), rtol=1e-5)


def test_graph_json_and_params_have_tvms_form():
    mod, params = _dense_relu()
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, "llvm", params=params)
    import json

    graph = json.loads(lib.get_graph_json())
    assert set(graph) == {"nodes", "arg_nodes", "heads", "attrs", "node_row_ptr"}
    assert graph["nodes"][0] == {"op": "null", "name": "x", "inputs": []}
    names = [n["name"] for n in graph["nodes"]]
    assert sorted(lib.get_params()) == [n for n in names if n.startswith("p")]
    assert lib.get_executor_config() == lib.get_graph_json()
    ops = [n for n in graph["nodes"] if n["op"] == "tvm_op"]
    # FuseOps makes dense + bias_add + relu one function (TVM's fusion rules).
    assert [n["attrs"]["func_name"] for n in ops] == ["tvmgen_default_fused_nn_dense_add_nn_relu"]


def test_export_library_and_load_module_in_a_new_module(tmp_path):
    mod, params = _dense_relu()
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, "llvm", params=params)
    x = np.ones((2, 8), "float32")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    m.run(x=x)
    expected = m.get_output(0).numpy()
    for name in ("deploy.so", "deploy.tar"):
        path = str(tmp_path / name)
        lib.export_library(path)
        loaded = tvm.runtime.load_module(path)
        m2 = graph_executor.GraphModule(loaded["default"](tvm.cpu()))
        m2.set_input("x", x)
        m2.run()
        # The same optimized module on the same input: the same bits.
        np.testing.assert_array_equal(m2.get_output(0).numpy(), expected)


def test_damaged_artifacts_are_tvm_errors(tmp_path):
    mod, params = _dense_relu()
    lib = relay.build(mod, "llvm", params=params)
    path = str(tmp_path / "lib.so")
    lib.export_library(path)
    data = open(path, "rb").read()
    for cut in (0, 5, len(data) // 2, len(data) - 1):
        bad = tmp_path / "cut{}.so".format(cut)
        bad.write_bytes(data[:cut])
        with pytest.raises(tvm.TVMError):
            tvm.runtime.load_module(str(bad))
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 0xFF
    (tmp_path / "flip.so").write_bytes(bytes(flipped))
    try:
        loaded = tvm.runtime.load_module(str(tmp_path / "flip.so"))
    except tvm.TVMError:
        return  # refused: fine
    # A flip inside a weight's bytes still loads; it must then run without crashing.
    m = graph_executor.GraphModule(loaded["default"](tvm.cpu()))
    m.run(x=np.ones((2, 8), "float32"))
    (tmp_path / "text.so").write_text("not a module")
    with pytest.raises(tvm.TVMError):
        tvm.runtime.load_module(str(tmp_path / "text.so"))


def test_legacy_unpacking_warns_and_create_runs():
    mod, params = _dense_relu()
    with pytest.warns(DeprecationWarning):
        graph, lib, built_params = relay.build(mod, "llvm", params=params)
    m = graph_executor.create(graph, lib, tvm.cpu(0))
    m.set_input(**built_params)
    x = np.full((2, 8), 0.5, "float32")
    m.set_input("x", x)
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _numpy_dense_relu(x, params), rtol=1e-5)


def test_bad_inputs_raise_clear_errors():
    mod, params = _dense_relu()
    lib = relay.build(mod, "llvm", params=params)
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    with pytest.raises(tvm.TVMError, match="input 'x' was not set"):
        m.run()
    with pytest.raises(RuntimeError, match="Could not find 'y' in graph's inputs"):
        m.set_input("y", np.ones((2, 8), "float32"))
    with pytest.raises(ValueError, match="array shape do not match"):
        m.set_input("x", np.ones((3, 8), "float32"))
    with pytest.raises(TypeError, match="dtype"):
        m.set_input("x", np.ones((2, 8), "int32").astype("complex64"))
    with pytest.raises(ValueError, match="float32"):
        m.set_input("x", tvm.nd.array(np.ones((2, 8), "float64")))
    m.set_input("x", np.ones((2, 8), "float64"))  # same kind: converted, as TVM's copyfrom
    m.run()
    with pytest.raises(tvm.TVMError, match="output index 1 out of range"):
        m.get_output(1)
    assert m.get_input_index("nope") == -1


def test_load_params_replaces_the_bound_weights():
    mod, params = _dense_relu()
    lib = relay.build(mod, "llvm", params=params)
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    zeros = {k: np.zeros(v.shape, "float32") for k, v in lib.get_params().items()}
    m.load_params(tvm.runtime.save_param_dict(zeros))
    m.run(x=np.ones((2, 8), "float32"))
    np.testing.assert_array_equal(m.get_output(0).numpy(), np.zeros((2, 4), "float32"))


def test_non_cpu_targets_are_refused_by_name():
    mod, params = _dense_relu()
    with pytest.raises(tvm.TVMError, match="target 'cuda' is not available"):
        relay.build(mod, "cuda", params=params)
    with pytest.raises(ValueError, match="Cannot recognize"):
        tvm.target.Target("c -runtime=c")
    assert str(tvm.target.Target("llvm -mcpu=skylake-avx512")) == "llvm -keys=cpu -mcpu=skylake-avx512"
    assert tvm.target.Target("llvm").kind.name == "llvm"


def test_every_executor_kind_agrees_with_numpy():
    mod, params = _dense_relu()
    x = np.random.default_rng(2).standard_normal((2, 8)).astype("float32")
    want = _numpy_dense_relu(x, params)
    for kind in ("debug", "graph", "vm", "aot"):
        with tvm.transform.PassContext(opt_level=3):
            f = relay.create_executor(kind, mod=mod, device=tvm.cpu(), target="llvm",
                                      params=params).evaluate()
        np.testing.assert_allclose(f(x).numpy(), want, rtol=1e-5, err_msg=kind)


def test_vm_runs_control_flow():
    # sum of 1..10 through a recursive global function: 55 (hand computation).
    mod = tvm.IRModule()
    sum_up = relay.GlobalVar("sum_up")
    i = relay.var("i", shape=[], dtype="int32")
    body = relay.If(
        relay.equal(i, relay.const(0)),
        i,
        relay.add(relay.Call(sum_up, [relay.subtract(i, relay.const(1))]), i),
    )
    mod[sum_up] = relay.Function([i], body, ret_type=relay.TensorType([], "int32"))
    n = relay.var("n", shape=[], dtype="int32")
    mod["main"] = relay.Function([n], relay.Call(sum_up, [n]))
    exe = relay.vm.compile(mod, target="llvm")
    vm = tvm.runtime.vm.VirtualMachine(exe, tvm.cpu())
    assert int(vm.invoke("main", np.array(10, "int32")).numpy()) == 55
    vm.set_input("main", np.array(4, "int32"))
    assert int(vm.run().numpy()) == 10
    # The graph executor runs dataflow only: the recursion is refused, naming the VM.
    with pytest.raises(tvm.TVMError, match="is not supported .use the VM"):
        relay.build(mod, "llvm")


def test_benchmark_result_has_tvms_fields_and_text():
    mod, params = _dense_relu()
    lib = relay.build(mod, "llvm", params=params)
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    m.set_input("x", np.ones((2, 8), "float32"))
    result = m.benchmark(tvm.cpu(), repeat=3, number=2)
    assert len(result.results) == 3 and result.min <= result.mean <= result.max
    assert str(result).startswith("Execution time summary:\n mean (ms)   median (ms)")


def test_download_testdata_and_tempdir_as_tvm():
    tmp = utils.tempdir()
    assert os.path.isdir(tmp.temp_dir)
    path = tmp.relpath("a.txt")
    open(path, "w").write("x")
    assert tmp.listdir() == ["a.txt"]


def test_aot_build_runs_behind_aot_module():
    from relaypass.relay.backend import Executor, Runtime

    mod, params = _dense_relu()
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, "llvm", executor=Executor("aot"), runtime=Runtime("cpp"),
                          params=params)
    m = tvm.runtime.executor.AotModule(lib["default"](tvm.cpu()))
    x = np.full((2, 8), 0.25, "float32")
    m.set_input("x", x)
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _numpy_dense_relu(x, params), rtol=1e-5)
    assert m.get_input_name(0) == "x" and m.get_num_outputs() == 1


def test_graph_executor_takes_arguments_by_position_when_names_repeat():
    # TVM's GraphExecutor sets inputs by position: two parameters may share a name (TVM's
    # test_searchsorted does this). Expected values: a - b by hand.
    a = relay.var("x", shape=(2,))
    b = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([a, b], relay.subtract(a, b)))
    run = relay.create_executor("graph", mod=mod, target="llvm").evaluate()
    out = run(np.array([5.0, 7.0], "float32"), np.array([1.0, 2.0], "float32"))
    np.testing.assert_array_equal(out.numpy(), [4.0, 5.0])
