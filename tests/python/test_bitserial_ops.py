"""nn.bitpack, nn.bitserial_conv2d and nn.bitserial_dense: TVM v0.13's attrs, Python signatures
and relations (src/relay/op/nn/bitserial.cc; expected types from its test_op_level1/2.py and
hand computation with those relations). relaypass has no bitserial kernels: running one is a
clear error."""
import pytest

import relaypass as tvm
from relaypass import relay, te


def _type(expr):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    return mod["main"].body.checked_type


def test_bitpack_types():
    x = relay.var("x", relay.TensorType((32, 32, 128, 128), "int16"))
    # pack axis 1 divided by the pack type's 16 bits; a bits axis appended (bit_axis == rank).
    y = relay.nn.bitpack(x, bit_axis=4, pack_axis=1, pack_type="uint16", bits=1)
    assert _type(y) == relay.TensorType((32, 2, 128, 128, 1), "uint16")
    # TVM's Python default bit_axis=2: a `bits` axis before axis 2; uint32 words.
    assert _type(relay.nn.bitpack(x, bits=2)) == relay.TensorType((32, 1, 2, 128, 128), "uint32")
    n = te.size_var("n")
    z = relay.var("z", relay.TensorType((4, n), "int16"))
    assert _type(relay.nn.bitpack(z, pack_axis=1, bit_axis=2)) == relay.TensorType(
        (4, n // 32, 1), "uint32")


def test_bitserial_conv2d_and_dense_types():
    n = te.size_var("n")
    x = relay.var("x", relay.TensorType((n, 32, 224, 224), "int16"))
    w = relay.var("w", relay.TensorType((32, 32, 3, 3), "int16"))
    y = relay.nn.bitserial_conv2d(x, w, kernel_size=(3, 3), padding=(1, 1), strides=(2, 2),
                                  channels=16)
    # (224 + 2 - 3) / 2 + 1 = 112
    assert _type(y) == relay.TensorType((n, 16, 112, 112), "int16")
    xh = relay.var("xh", relay.TensorType((1, 10, 10, 8), "int16"))
    wh = relay.var("wh", relay.TensorType((3, 3, 8, 4), "int16"))
    yh = relay.nn.bitserial_conv2d(xh, wh, channels=4, data_layout="NHWC", kernel_layout="HWIO",
                                   out_dtype="int32")
    assert _type(yh) == relay.TensorType((1, 8, 8, 4), "int32")
    m, k = te.size_var("m"), te.size_var("k")
    d = relay.var("d", relay.TensorType((m, k), "int16"))
    dw = relay.var("dw", relay.TensorType((k, 32), "int16"))
    dense = relay.nn.bitserial_dense(d, dw, units=32)
    assert _type(dense) == relay.TensorType((m, 32), "int16")
    assert "units=32" in dense.astext()
    assert relay.op.get("nn.bitserial_dense").support_level == 1
    assert relay.op.get("nn.bitpack").support_level == 2


def test_bad_calls_and_running_are_errors():
    x = relay.var("x", relay.TensorType((1, 4, 8, 8), "int16"))
    w = relay.var("w", relay.TensorType((4, 4, 3, 3), "int16"))
    with pytest.raises(tvm.error.RelayTypeError, match="channels must be set"):
        _type(relay.nn.bitserial_conv2d(x, w))
    with pytest.raises(tvm.error.RelayTypeError, match="units must be set"):
        _type(relay.nn.bitserial_dense(relay.var("d", shape=(2, 3)), relay.var("e", shape=(3, 3))))
    f = relay.Function([x], relay.nn.bitpack(x))
    with pytest.raises(tvm.TVMError, match="nn.bitpack has no kernel"):
        relay.create_executor("debug").evaluate(f)(
            __import__("numpy").zeros((1, 4, 8, 8), "int16"))
