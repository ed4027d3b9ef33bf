"""relay.qnn.transform.Legalize under a Hexagon target (TVM v0.13's
python/tvm/relay/qnn/op/legalizations.py, "Hexagon legalizations"): NCHW / OIHW int8 qnn.conv2d
gets its input channels padded to a multiple of 4 and its output channels to a multiple of 32,
qnn.dense its units to a multiple of 32, with a strided_slice back to the original shape. The
expected graphs are built by hand from those rules; the numbers must not change (the padded
channels are zeros), checked against the graph before legalization on the evaluator."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _legalize(expr, target):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    with tvm.target.Target(target):
        return mod, relay.qnn.transform.Legalize()(mod)


def _run(mod, *args):
    return relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()


def test_hexagon_target_form():
    t = tvm.target.hexagon("v68")
    assert t.kind.name == "hexagon"
    assert list(t.keys) == ["hexagon", "cpu"]  # TVM's default keys for the kind
    text = str(t)
    for part in ("-mcpu=hexagonv68", "-mtriple=hexagon", "+hvxv68", "+hvx-length128b",
                 "+hvx-qfloat", "-hvx-ieee-fp", "-num-cores=4", "-vtcm-capacity=4194304"):
        assert part in text, text
    assert "-mcpu=hexagonv66" in str(tvm.target.hexagon("v66", hvx=64))
    with pytest.raises(ValueError):
        tvm.target.hexagon("v60")


@pytest.mark.parametrize("data_zp", [0, 3])
def test_conv2d_channels_padded_and_sliced_back(data_zp):
    data = relay.var("data", shape=(1, 6, 9, 9), dtype="uint8")
    weight = relay.var("weight", shape=(40, 6, 3, 3), dtype="int8")
    kzp = relay.const(np.arange(40) % 3, "int32")
    kscale = relay.const(np.full(40, 0.25, "float32"))
    conv = relay.qnn.op.conv2d(data, weight, relay.const(data_zp), kzp, relay.const(0.5), kscale,
                               kernel_size=(3, 3), channels=40)
    before, after = _legalize(conv, tvm.target.hexagon("v68"))

    # By hand: 6 -> 8 input channels, 40 -> 64 output channels. The padded input channels hold
    # 0 as TVM's rule writes them when that is exact (a zero input zero point), else the input
    # zero point: TVM's 0 would add (0 - 3) * (0 - kzp) per padded channel and tap.
    w0 = relay.nn.pad(weight, pad_width=[[0, 0], [0, 2], [0, 0], [0, 0]])
    d0 = relay.nn.pad(data, pad_width=[[0, 0], [0, 2], [0, 0], [0, 0]],
                      pad_value=relay.const(data_zp) if data_zp else 0)
    w1 = relay.nn.pad(w0, pad_width=[[0, 24], [0, 0], [0, 0], [0, 0]])
    padded = relay.qnn.op.conv2d(
        d0, w1, relay.const(data_zp), relay.const(np.concatenate([np.arange(40) % 3, [0] * 24]), "int32"),
        relay.const(0.5), relay.const(np.concatenate([np.full(40, 0.25), [1.0] * 24]), "float32"),
        kernel_size=(3, 3), channels=64)
    expected = relay.strided_slice(padded, begin=[0, 0, 0, 0], end=[1, 40, 7, 7], strides=[1])
    expected = relay.transform.InferType()(tvm.IRModule.from_expr(expected))
    tvm.ir.assert_structural_equal(after, expected)

    rng = np.random.RandomState(0)
    x = rng.randint(0, 255, size=(1, 6, 9, 9)).astype("uint8")
    w = rng.randint(-127, 127, size=(40, 6, 3, 3)).astype("int8")
    np.testing.assert_array_equal(_run(after, x, w), _run(before, x, w))


def test_dense_units_padded_and_sliced_back():
    data = relay.var("data", shape=(3, 8), dtype="int8")
    weight = relay.var("weight", shape=(33, 8), dtype="int8")
    dense = relay.qnn.op.dense(data, weight, relay.const(1), relay.const(0), relay.const(0.5),
                               relay.const(0.25), units=33)
    before, after = _legalize(dense, tvm.target.hexagon("v68"))
    # 33 -> 64 units; scalar zero point and scale stay as they are.
    text = after.astext()
    assert "units=64" in text and "strided_slice" in text and "nn.pad" in text
    rng = np.random.RandomState(1)
    x = rng.randint(-128, 127, size=(3, 8)).astype("int8")
    w = rng.randint(-127, 127, size=(33, 8)).astype("int8")
    np.testing.assert_array_equal(_run(after, x, w), _run(before, x, w))


def test_aligned_or_other_layouts_are_kept():
    data = relay.var("data", shape=(1, 8, 5, 5), dtype="uint8")
    weight = relay.var("weight", shape=(32, 8, 1, 1), dtype="int8")
    conv = relay.qnn.op.conv2d(data, weight, relay.const(0), relay.const(0), relay.const(1.0),
                               relay.const(1.0), kernel_size=(1, 1), channels=32)
    before, after = _legalize(conv, tvm.target.hexagon("v68"))
    tvm.ir.assert_structural_equal(before, after)  # channels already aligned
    nhwc = relay.qnn.op.conv2d(
        relay.var("d", shape=(1, 5, 5, 6), dtype="uint8"),
        relay.var("w", shape=(1, 1, 6, 40), dtype="int8"), relay.const(0), relay.const(0),
        relay.const(1.0), relay.const(1.0), kernel_size=(1, 1), channels=40,
        data_layout="NHWC", kernel_layout="HWIO")
    before, after = _legalize(nhwc, tvm.target.hexagon("v68"))
    tvm.ir.assert_structural_equal(before, after)  # not NCHW / OIHW
