"""FoldExplicitPadding on what TVM v0.13's SimplifyExplicitPad folds besides 2-D/3-D convolutions
and pools (src/relay/transforms/fold_explicit_padding.cc): nn.conv1d, the 1-D pools and
qnn.conv2d (a pad of its input zero point). Expected graphs follow TVM's rule (the spatial pad
widths added to the op's padding, before values then after values); each folded program must
compute what the original does (evaluated here)."""
import numpy as np

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_opt_pass


def _fold(expr):
    return run_opt_pass(expr, relay.transform.FoldExplicitPadding())


def _same_results(before, after, *arrays):
    run = lambda e: relay.create_executor(  # noqa: E731
        "debug", mod=tvm.IRModule.from_expr(e)).evaluate()(*arrays).numpy()
    np.testing.assert_allclose(run(before), run(after), rtol=1e-5, atol=1e-5)


def test_conv1d_folds_a_zero_pad_and_keeps_the_free_variables():
    x = relay.var("x", shape=[1, 3, 10], dtype="float32")
    w = relay.var("w", shape=[8, 3, 3], dtype="float32")
    before = relay.nn.conv1d(relay.nn.pad(x, [[0, 0], [0, 0], [1, 2]]), w, padding=[2, 0])
    folded = _fold(before)
    # TVM's test compares run_opt_pass bodies: x and w are the same free variables on both sides.
    expected = run_opt_pass(relay.nn.conv1d(x, w, padding=[3, 2]), relay.transform.InferType())
    assert tvm.ir.structural_equal(folded, expected)
    rng = np.random.default_rng(0)
    _same_results(before, folded, rng.random((1, 3, 10), "float32"),
                  rng.random((8, 3, 3), "float32"))


def test_pool1d_folds_as_the_2d_pools_do():
    x = relay.var("x", shape=[1, 3, 10], dtype="float32")
    lowest = np.finfo("float32").min
    max_pool = relay.nn.max_pool1d(relay.nn.pad(x, [[0, 0], [0, 0], [1, 1]], lowest), pool_size=2)
    expected = run_opt_pass(relay.nn.max_pool1d(x, pool_size=2, padding=[1, 1]),
                            relay.transform.InferType())
    assert tvm.ir.structural_equal(_fold(max_pool), expected)
    # An average pool that does not count padding folds only by counting it (TVM turns
    # count_include_pad on when the pool pads nothing itself).
    avg_pool = relay.nn.avg_pool1d(relay.nn.pad(x, [[0, 0], [0, 0], [1, 1]]), pool_size=2)
    folded = _fold(avg_pool)
    assert folded.op.name == "nn.avg_pool1d" and bool(folded.attrs.count_include_pad)
    _same_results(avg_pool, folded, np.random.default_rng(1).random((1, 3, 10), "float32"))


def test_qnn_conv2d_folds_a_pad_of_its_input_zero_point_only():
    x = relay.var("x", shape=[1, 3, 8, 8], dtype="int8")
    w = relay.var("w", shape=[4, 3, 3, 3], dtype="int8")

    def qconv(data, padding=(0, 0, 0, 0)):
        return relay.qnn.op.conv2d(data, w, relay.const(5), relay.const(0), relay.const(0.5),
                                   relay.const(0.25), kernel_size=(3, 3), channels=4,
                                   padding=padding)

    pad_width = [[0, 0], [0, 0], [1, 1], [1, 1]]
    folded = _fold(qconv(relay.nn.pad(x, pad_width, relay.const(5, "int8"))))
    expected = run_opt_pass(qconv(x, (1, 1, 1, 1)), relay.transform.InferType())
    assert tvm.ir.structural_equal(folded, expected)
    # Another pad value is not the zero point: not folded.
    kept = _fold(qconv(relay.nn.pad(x, pad_width, relay.const(0, "int8"))))
    assert kept.args[0].op.name == "nn.pad"
