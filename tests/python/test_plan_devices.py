"""tvm.target.VirtualDevice, make_compilation_config, on_device / device_copy and
relay.transform.PlanDevices(config). Expected values: TVM v0.13's rules (src/target/
virtual_device.cc, compilation_config.cc, src/relay/transforms/device_planner.cc) applied by
hand to small programs; evaluation: NumPy (relaypass runs every device on the CPU)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay

CPU_TARGET = tvm.target.Target("llvm")
GPU_TARGET = tvm.target.Target("cuda").with_host(CPU_TARGET)
CPU = tvm.target.VirtualDevice(tvm.cpu(0), CPU_TARGET.with_host(CPU_TARGET))
GPU = tvm.target.VirtualDevice(tvm.cuda(0), GPU_TARGET)
META = {"VirtualDevice": [CPU, GPU]}


def config(fallback=2):
    ctxt = tvm.transform.PassContext(config={"relay.fallback_device_type": fallback})
    return tvm.target.make_compilation_config(ctxt, [CPU_TARGET, GPU_TARGET])


def plan(text, cfg=None):
    mod = tvm.relay.parse(text, "from_string", None, META)
    mod = relay.transform.InferType()(mod)
    mod = relay.transform.PlanDevices(cfg or config())(mod)
    return relay.transform.InferType()(mod)


def test_virtual_device_fields():
    assert CPU.device_type_int == 1 and CPU.device_type == 1
    assert GPU.device_type_int == 2 and GPU.virtual_device_id == 0
    assert GPU.target == GPU_TARGET and GPU.memory_scope == ""
    # A target alone gives its device type; no device gives TVM's open fields (-1).
    only_target = tvm.target.VirtualDevice(None, GPU_TARGET)
    assert only_target.device_type_int == 2 and only_target.virtual_device_id == -1
    empty = tvm.target.VirtualDevice()
    assert empty.device_type_int == -1 and empty.target is None
    assert empty.is_fully_unconstrained()
    scoped = tvm.target.VirtualDevice(tvm.cpu(0), CPU_TARGET, memory_scope="global")
    assert scoped.memory_scope == "global" and scoped.is_fully_constrained()


def test_virtual_device_equality_is_structural():
    again = tvm.target.VirtualDevice(tvm.cuda(0), tvm.target.Target("cuda").with_host("llvm"))
    assert again == GPU and hash(again) == hash(GPU)
    assert CPU != GPU
    with pytest.raises(TypeError):
        tvm.target.VirtualDevice("cpu")


def test_compilation_config():
    cfg = config()
    # The GPU target's host is the host target (rule A); the fallback option picks the GPU.
    assert str(cfg.host_target) == str(CPU_TARGET)
    assert cfg.default_primitive_virtual_device == GPU
    assert cfg.host_virtual_device == tvm.target.VirtualDevice(tvm.cpu(0), CPU_TARGET)
    # Without the option and with two device types: the CPU (rule F).
    plain = tvm.target.make_compilation_config(tvm.transform.PassContext(),
                                               [CPU_TARGET, GPU_TARGET])
    assert plain.default_primitive_virtual_device.device_type_int == 1
    # One device type: that one (rule E).
    only_gpu = tvm.target.make_compilation_config(tvm.transform.PassContext(), GPU_TARGET)
    assert only_gpu.default_primitive_virtual_device.device_type_int == 2


def test_on_device_and_device_copy_calls():
    x = relay.var("x", shape=(2,))
    call = relay.annotation.on_device(x, tvm.cpu(0), constrain_result=True)
    assert call.op.name == "on_device"
    assert call.attrs.virtual_device.device_type_int == 1
    assert bool(call.attrs.constrain_result) and bool(call.attrs.constrain_body)
    copy = relay.device_copy(x, "cpu", GPU)
    assert copy.attrs.src_virtual_device.device_type_int == 1
    assert copy.attrs.dst_virtual_device == GPU
    with pytest.raises(ValueError):
        relay.annotation.on_device(x, 3)
    # Both are the identity when evaluated (every device is the CPU here).
    f = relay.Function([x], relay.add(copy, call))
    data = np.array([1.0, 2.0], "float32")
    out = relay.create_executor(mod=tvm.IRModule.from_expr(f)).evaluate()(data)
    np.testing.assert_allclose(out.numpy(), data * 2)


def test_parse_and_print_virtual_devices():
    text = """
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32],
              virtual_device=meta[VirtualDevice][1]) {
      on_device(%a, virtual_device=meta[VirtualDevice][0], constrain_result=True)
    }"""
    mod = tvm.relay.parse(text, "from_string", None, META)
    main = mod["main"]
    assert main.params[0].virtual_device_ == CPU and main.virtual_device_ == GPU
    printed = mod.astext()
    assert "%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32]" in printed
    assert "virtual_device=meta[VirtualDevice][1]) -> Tensor[(2), float32] {" in printed
    # The metadata section carries the devices: the printed text reads back equal.
    assert tvm.ir.structural_equal(tvm.relay.parse(printed), mod)
    # A parameter's virtual device takes part in structural equality (TVM's VarNode).
    other = tvm.relay.parse(text.replace("VirtualDevice][0]}", "VirtualDevice][1]}"),
                            "from_string", None, META)
    assert not tvm.ir.structural_equal(other, mod)


def test_plan_devices_copies_between_devices():
    mod = plan("""
    def @main(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) {
      %0 = on_device(negative(%a), virtual_device=meta[VirtualDevice][0]);
      add(%0, %b)
    }""")
    expected = tvm.relay.parse("""
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32],
              %b {virtual_device=meta[VirtualDevice][1]}: Tensor[(2), float32],
              virtual_device=meta[VirtualDevice][1]) {
      %0 = on_device(negative(%a), virtual_device=meta[VirtualDevice][0], constrain_result=True);
      %1 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0],
                       dst_virtual_device=meta[VirtualDevice][1]);
      add(%1, %b)
    }""", "from_string", None, META)
    tvm.ir.assert_structural_equal(mod, expected, True)
    # RecoverVirtualDeviceMap sees negative on the CPU and add on the GPU.
    recover = tvm._ffi.get_global_func("relay.transform.RecoverVirtualDeviceMap")
    devices = recover(mod, mod["main"])
    by_op = {e.op.name: d.device_type for e, d in devices.items()
             if isinstance(e, relay.Call) and hasattr(e.op, "name")}
    assert by_op == {"negative": 1, "on_device": 1, "device_copy": 2, "add": 2}
    # The planned program still computes the same values.
    a, b = np.array([1.0, 2.0], "float32"), np.array([10.0, 20.0], "float32")
    out = relay.create_executor(mod=mod).evaluate()(a, b)
    np.testing.assert_allclose(out.numpy(), -a + b)


def test_plan_devices_without_config_is_the_one_device_no_op():
    mod = relay.transform.InferType()(tvm.relay.parse(
        "def @main(%a: Tensor[(2), float32]) { negative(%a) }"))
    assert tvm.ir.structural_equal(relay.transform.PlanDevices()(mod), mod)


def test_fallback_device_type_option():
    with tvm.transform.PassContext(config={"relay.fallback_device_type": 2}) as ctxt:
        assert int(ctxt.config["relay.fallback_device_type"]) == 2
    with pytest.raises(Exception, match="relay.fallback_device_typo"):
        tvm.transform.PassContext(config={"relay.fallback_device_typo": 2})


def test_core_rly_storage():
    mod = tvm.IRModule()
    mod.import_from_std("core.rly")
    mod.import_from_std("core.rly")  # once only
    assert [v.name_hint for v in mod.get_global_type_vars()] == ["Storage"]
