"""Hostile calls into relay.build, the executors and the runtime files: each is a Python
exception with a clear message, never a crash or a silently wrong result."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import graph_executor


def _add_module():
    x = relay.var("x", shape=(2, 2))
    w = relay.var("w", shape=(2, 2))
    return tvm.IRModule.from_expr(relay.Function([x, w], relay.add(x, w)))


def test_build_refuses_params_that_do_not_fit():
    mod = _add_module()
    with pytest.raises(tvm.TVMError, match="Incompatible broadcast"):
        relay.build(mod, "llvm", params={"w": np.ones((3, 3), "float32")})
    with pytest.raises(tvm.TVMError, match="do not match"):
        relay.build(mod, "llvm", params={"w": np.ones((2, 2), "int8")})
    with pytest.raises(TypeError):
        relay.build(mod, "llvm", params=[1])
    with pytest.raises(ValueError, match="has no value"):
        relay.build(mod, "llvm -mcpu")


@pytest.mark.parametrize(
    "key, value, error",
    [
        ("x", None, TypeError),
        ("x", "abc", TypeError),
        ("x", object(), TypeError),
        (1.5, np.ones((2, 2)), TypeError),
        (-1, np.ones((2, 2)), tvm.TVMError),
        (10 ** 20, np.ones((2, 2)), tvm.TVMError),
        ("p0", np.ones((2, 2)), RuntimeError),  # nothing was bound: no p0
    ],
)
def test_set_input_rejects_what_does_not_fit(key, value, error):
    lib = relay.build(_add_module(), "llvm")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    with pytest.raises(error):
        m.set_input(key, value)


def test_files_that_are_not_modules():
    with pytest.raises(tvm.TVMError, match="is a directory"):
        tvm.runtime.load_module("/")
    with pytest.raises(tvm.TVMError, match="No such file"):
        tvm.runtime.load_module("/nonexistent/lib.so")
    lib = relay.build(_add_module(), "llvm")
    with pytest.raises(tvm.TVMError, match="No such file"):
        lib.export_library("/nonexistent/dir/lib.so")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    with pytest.raises(tvm.TVMError, match="truncated"):
        m.load_params(b"junk")


def test_executors_check_their_arguments():
    mod = _add_module()
    bad, good = np.ones((3, 3), "float32"), np.ones((2, 2), "float32")
    vm = tvm.runtime.vm.VirtualMachine(relay.vm.compile(mod), tvm.cpu())
    with pytest.raises(ValueError, match="main declares Tensor"):
        vm.invoke("main", bad, good)
    with pytest.raises(TypeError, match="without changing kind"):
        vm.invoke("main", good.astype("complex64"), good)
    f = relay.create_executor(mod=mod).evaluate()
    with pytest.raises(ValueError, match="main declares Tensor"):
        f(bad, good)
    # float64 NumPy arrays convert to the declared float32, as the graph executor's set_input
    # does; the sum is exact (2 everywhere).
    np.testing.assert_array_equal(f(np.ones((2, 2)), np.ones((2, 2))).numpy(), np.full((2, 2), 2.0))
    # Floats into an integer input: only whole numbers in range, which convert exactly (TVM's
    # copyfrom would truncate 2.5 to 2, a silent change; relaypass refuses it).
    x = relay.var("x", shape=(), dtype="int32")
    twice = relay.create_executor(mod=tvm.IRModule.from_expr(relay.Function([x], x + x))).evaluate()
    assert twice(2.0).numpy() == 4
    for bad_value in (2.5, float("nan"), 1e12):
        with pytest.raises(TypeError, match="without changing kind"):
            twice(bad_value)
    with pytest.raises(RuntimeError, match="unknown execution strategy"):
        relay.create_executor("woof")
    # As TVM: another device can be named (it does not exist here), an unknown name cannot, and
    # using a device other than the CPU is an error.
    assert not tvm.device("cuda").exist and tvm.device("cuda") == tvm.cuda(0)
    with pytest.raises(ValueError, match="Unknown device type"):
        tvm.device("woof")
    with pytest.raises(tvm.TVMError, match="CPU only"):
        tvm.nd.array(np.zeros(2), tvm.device("cuda"))
