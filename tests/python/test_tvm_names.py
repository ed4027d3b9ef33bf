"""Names of TVM's Python API that scripts and TVM's own tests reach for at import time: devices
by name, tvm.tir.IntImm/FloatImm, tvm.target.VirtualDevice and codegen, tvm.contrib.cudnn.
Expected values are TVM v0.13's documented behaviour (python/tvm/runtime/ndarray.py device(),
python/tvm/tir/expr.py IntImm, python/tvm/target/virtual_device.py)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def test_devices_are_named_as_tvm_names_them_but_only_the_cpu_runs():
    gpu = tvm.device("cuda", 1)
    assert (gpu.device_type, gpu.device_id, gpu.exist) == (2, 1, False)
    assert gpu == tvm.cuda(1) and tvm.device("llvm") == tvm.cpu(0)
    assert tvm.opencl().device_type == 4 and tvm.vulkan().device_type == 7
    with pytest.raises(ValueError, match="Unknown device type woof"):
        tvm.device("woof")
    x = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([x], x))
    lib = relay.build(mod, "llvm")
    # No silent CPU fallback: a device other than the CPU is refused wherever it is given.
    for use in (lambda: lib["default"](tvm.cuda()),
                lambda: relay.create_executor("graph", mod, tvm.cuda()),
                lambda: tvm.runtime.vm.VirtualMachine(relay.vm.compile(mod, "llvm"), tvm.cuda()),
                lambda: tvm.nd.array(np.zeros(2), tvm.cuda())):
        with pytest.raises(tvm.TVMError, match="CPU only"):
            use()


def test_int_imm_and_float_imm_are_made_as_in_tvm():
    i = tvm.tir.IntImm("int64", 3)
    assert (i, i.value, i.dtype) == (3, 3, "int64") and isinstance(i, tvm.tir.IntImm)
    f = tvm.tir.FloatImm("float64", 0.5)
    assert (f, f.value, f.dtype) == (0.5, 0.5, "float64")
    x = relay.var("x", shape=(2,))
    func = relay.Function([x], x).with_attr("Inline", tvm.tir.IntImm("int32", 1))
    assert func.attrs["Inline"] == 1


def test_virtual_device_holds_device_target_and_scope():
    cpu = tvm.target.Target("llvm")
    a = tvm.target.VirtualDevice(tvm.cpu(0), cpu, memory_scope="global")
    assert (a.device_type_int, a.virtual_device_id, a.memory_scope) == (1, 0, "global")
    assert a == tvm.target.VirtualDevice(tvm.cpu(0), tvm.target.Target("llvm"), "global")
    assert a != tvm.target.VirtualDevice(tvm.cpu(1), cpu, "global")
    # TVM's constructor checks the device type against the target's (an ICHECK).
    with pytest.raises(tvm.error.InternalError):
        tvm.target.VirtualDevice(tvm.cuda(0), cpu, "global")
    assert tvm.target.VirtualDevice().device_type_int == -1  # TVM's kInvalidDeviceType


def test_codegen_and_cudnn_answer_what_relaypass_is():
    assert tvm.target.codegen.llvm_version_major() == 14
    assert tvm.contrib.cudnn.exists() is False
    with pytest.raises(tvm.error.OpNotImplemented):
        tvm.contrib.cudnn.conv_forward()


def test_ffi_base_error_and_op_const():
    # TVM's tests catch tvm._ffi.base.TVMError; relay.op.const is relay.const.
    assert tvm._ffi.base.TVMError is tvm.TVMError
    assert relay.op.const(1, dtype="int8").data.numpy().dtype == np.int8
    with pytest.raises(tvm.error.OpNotImplemented):
        tvm._ffi.register_object("f")  # relaypass's objects are its own C++ classes


def test_frontend_common_infer_type_and_shape():
    from relaypass.relay.frontend.common import infer_shape, infer_type

    x = relay.var("x", shape=(2, 3))
    y = relay.nn.relu(x)
    # As TVM's: an expression comes back as main's typed body, a Function typed itself, and a
    # given module receives main.
    assert infer_type(y).checked_type == relay.TensorType((2, 3), "float32")
    assert infer_shape(y) == (2, 3)
    assert isinstance(infer_type(relay.Function([x], y)), relay.Function)
    mod = tvm.IRModule()
    infer_type(y, mod)
    assert [g.name_hint for g in mod.get_global_vars()] == ["main"]


def test_global_functions_are_registered_and_found_by_name():
    # TVM's tvm._ffi.registry: register_func as decorator or call, get_global_func by name;
    # a missing name is TVM's ValueError unless allow_missing.
    @tvm.register_func("relaypass_test.double")
    def double(x):
        return 2 * x

    assert tvm.get_global_func("relaypass_test.double")(21) == 42
    with pytest.raises(tvm.TVMError, match="already registered"):
        tvm.register_func("relaypass_test.double", lambda x: x)
    tvm.register_func("relaypass_test.double", lambda x: 3 * x, override=True)
    assert tvm._ffi.get_global_func("relaypass_test.double")(2) == 6
    assert tvm.get_global_func("relaypass_test.nothing", allow_missing=True) is None
    with pytest.raises(ValueError, match="Cannot find global function relaypass_test.nothing"):
        tvm.get_global_func("relaypass_test.nothing")
    tvm._ffi.registry.remove_global_func("relaypass_test.double")
    assert "relaypass_test.double" not in tvm._ffi.registry.list_global_func_names()


def test_diagnostic_renderer_is_the_default_one_and_cannot_be_replaced():
    from relaypass.ir import diagnostics

    renderer = diagnostics.get_renderer()
    assert isinstance(renderer, diagnostics.DiagnosticRenderer)
    diagnostics.override_renderer(None)  # keeps the default
    assert diagnostics.get_renderer() is renderer
    with pytest.raises(tvm.error.OpNotImplemented, match="override_renderer is not available"):
        diagnostics.override_renderer(lambda ctx: None)


def test_runtime_object_is_the_base_of_relaypass_objects():
    assert isinstance(relay.var("x"), tvm.runtime.Object)
    assert isinstance(tvm.nd.array(np.zeros(2, "float32")), tvm.runtime.Object)
    assert not isinstance(3, tvm.runtime.Object)
    # Names TVM's test utilities import that relaypass does not have fail when used.
    with pytest.raises(tvm.error.OpNotImplemented, match="AnnotateSpans is not available"):
        relay.transform.AnnotateSpans()
    with pytest.raises(tvm.error.OpNotImplemented, match="SpanCheck is not available"):
        relay.SpanCheck()
    # check_grad exists (docs/gradient.md); with no parameter there is nothing to check (TVM's
    # assertion).
    with pytest.raises(AssertionError, match="at least one gradient"):
        relay.testing.check_grad(relay.Function([], relay.const(1.0)))
    assert relay.testing.enabled_targets() == tvm.testing.enabled_targets()


def test_tir_const_infers_the_dtype_as_tvm():
    # TVM v0.13's tir.const / _scalar_type_inference (python/tvm/runtime/object_generic.py):
    # bool, int32 (int64 past int32's range), float32 (float64 past float32's range).
    cases = [((2.0, "float64"), tvm.tir.FloatImm, "float64"), ((3,), tvm.tir.IntImm, "int32"),
             ((2 ** 40,), tvm.tir.IntImm, "int64"), ((0.5,), tvm.tir.FloatImm, "float32"),
             ((1e300,), tvm.tir.FloatImm, "float64"), ((True,), tvm.tir.IntImm, "bool"),
             ((7, "uint8"), tvm.tir.IntImm, "uint8")]
    for args, cls, dtype in cases:
        c = tvm.tir.const(*args)
        assert isinstance(c, cls) and c.dtype == dtype and c.value == args[0], args


def test_relay_op_debug_is_the_function():
    from relaypass.relay.op import debug

    assert debug is relay.debug  # the function, as TVM's `from .debug import *` makes it
    assert debug(relay.var("x", shape=()), debug_func=print).op.name == "debug"


def test_ndarray_equality_is_identity_as_in_tvm():
    # TVM v0.13's NDArray.__eq__ is same_as (python/tvm/runtime/ndarray.py): the same array, not
    # equal values; a NumPy operand is still compared elementwise by NumPy.
    a = tvm.nd.array(np.arange(3, dtype="float32"))
    data = relay.Constant(a).data
    assert a == data and not (a != data) and hash(a) == hash(data)
    assert {a: "x"}[data] == "x"
    assert a != tvm.nd.array(np.arange(3, dtype="float32"))
    assert (np.arange(3, dtype="float32") == a).all()


def test_subclassing_a_missing_part_of_tvm_names_it():
    # TVM's tests subclass autotvm.FallbackContext; relaypass has no AutoTVM.
    with pytest.raises(tvm.error.OpNotImplemented, match="tvm.autotvm.FallbackContext"):
        class Fallback(tvm.autotvm.FallbackContext):  # noqa: F841
            pass


def test_relay_parse_expr():
    # TVM v0.13 exports parse_expr from tvm.relay as well as tvm.parser
    f = relay.parse_expr("fn (%x: Tensor[(2), float32]) { add(%x, %x) }")
    assert isinstance(f, relay.Function) and relay.parse_expr is tvm.parser.parse_expr
