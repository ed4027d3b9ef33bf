"""The dyn.* operators from Python: TVM's wrappers (relay.reshape, broadcast_to, zeros, full,
strided_slice, tile, topk, nn.pad, nn.upsampling, image.resize2d, ...) make the dyn op when a shape
argument is a non-constant expression and the static op for a constant, as TVM's
python/tvm/relay/op wrappers do; results are NumPy's for the same arguments."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def run(func, *args, kind="debug"):
    mod = tvm.IRModule.from_expr(func)
    return relay.create_executor(kind, mod=mod).evaluate()(*args)


def op_name(expr):
    return expr.op.name


def test_an_expression_shape_makes_the_dyn_op_and_a_constant_the_static_one():
    x = relay.var("x", shape=(2, 3, 4))
    s = relay.var("s", shape=(2,), dtype="int64")
    assert op_name(relay.reshape(x, s)) == "dyn.reshape"
    assert op_name(relay.reshape(x, relay.const([4, 6]))) == "reshape"
    assert op_name(relay.broadcast_to(x, s)) == "dyn.broadcast_to"
    assert op_name(relay.zeros(s, "float32")) == "dyn.zeros"
    assert op_name(relay.ones(relay.const([2]), "float32")) == "ones"
    assert op_name(relay.full(relay.const(1.0), s, "float32")) == "dyn.full"
    assert op_name(relay.tile(x, s)) == "dyn.tile"
    assert op_name(relay.squeeze(x, s)) == "dyn.squeeze"
    assert op_name(relay.expand_dims(x, relay.var("a", shape=(), dtype="int32"))) == \
        "dyn.expand_dims"
    assert op_name(relay.nn.pad(x, relay.var("w", shape=(3, 2), dtype="int64"))) == "dyn.nn.pad"
    assert relay.topk(x, relay.var("k", shape=(), dtype="int32")).astuple().op.name == "dyn.topk"


@pytest.mark.parametrize("kind", ["debug", "vm"])
def test_dyn_ops_compute_their_shapes_from_values(kind):
    x = relay.var("x", shape=(2, 3, 4))
    s = relay.var("s", shape=(3,), dtype="int64")
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    func = relay.Function([x, s], relay.reshape(x, s))
    ir = tvm.relay.transform.InferType()(tvm.IRModule.from_expr(func))
    assert ir["main"].body.checked_type == relay.TensorType((relay.Any(),) * 3, "float32")
    np.testing.assert_array_equal(run(func, data, np.array([4, 3, 2]), kind=kind).numpy(),
                                  data.reshape(4, 3, 2))

    b = relay.var("b", shape=(3,), dtype="int64")
    e = relay.var("e", shape=(3,), dtype="int64")
    st = relay.var("st", shape=(3,), dtype="int64")
    sliced = relay.Function([x, b, e, st], relay.strided_slice(x, b, e, st))
    # The wrapper makes a negative begin count from the end, as TVM's: -1 is the last row.
    out = run(sliced, data, np.array([0, -1, 0]), np.array([2, 3, 4]), np.array([1, 1, 2]),
              kind=kind)
    np.testing.assert_array_equal(out.numpy(), data[0:2, 2:3, 0:4:2])

    reps = relay.var("reps", shape=(2,), dtype="float32")
    tiled = relay.Function([x, reps], relay.tile(x, reps))
    np.testing.assert_array_equal(run(tiled, data, np.array([2, 1], "float32"), kind=kind).numpy(),
                                  np.tile(data, (2, 1)))

    shape = relay.var("shape", shape=(2,), dtype="int32")
    fill = relay.Function([shape], relay.full(relay.const(2.5), shape, "float32"))
    np.testing.assert_array_equal(run(fill, np.array([3, 1], "int32"), kind=kind).numpy(),
                                  np.full((3, 1), 2.5, "float32"))


def test_dyn_pad_upsampling_and_resize_take_their_arguments_at_run_time():
    x = relay.var("x", shape=(1, 1, 2, 2))
    w = relay.var("w", shape=(4, 2), dtype="int64")
    data = np.arange(4, dtype="float32").reshape(1, 1, 2, 2)
    widths = np.array([[0, 0], [0, 0], [1, 0], [0, 2]])
    out = run(relay.Function([x, w], relay.nn.pad(x, w, 5.0)), data, widths)
    np.testing.assert_array_equal(out.numpy(), np.pad(data, widths, constant_values=5.0))

    h = relay.var("h", shape=(), dtype="float64")
    up = relay.Function([x, h], relay.nn.upsampling(x, h, 2.0))
    np.testing.assert_array_equal(run(up, data, np.float64(2)).numpy(),
                                  data.repeat(2, axis=2).repeat(2, axis=3))

    size = relay.var("size", shape=(2,), dtype="int64")
    y = relay.var("y", shape=(1, 2, 2, 1))
    nhwc = data.reshape(1, 2, 2, 1)
    resized = relay.image.resize2d(y, size, None, "NHWC", "nearest_neighbor",
                                   coordinate_transformation_mode="asymmetric")
    assert resized.op.name == "dyn.image.resize2d"
    out = run(relay.Function([y, size], resized), nhwc, np.array([4, 2]))
    np.testing.assert_array_equal(out.numpy(), nhwc.repeat(2, axis=1))


def test_a_bad_run_time_shape_is_an_error_naming_the_dyn_op():
    x = relay.var("x", shape=(2, 3))
    s = relay.var("s", shape=(2,), dtype="int64")
    func = relay.Function([x, s], relay.reshape(x, s))
    with pytest.raises(tvm.TVMError, match="dyn.reshape"):
        run(func, np.zeros((2, 3), "float32"), np.array([4, 4]))
    with pytest.raises(tvm.TVMError, match="dyn.reshape.*-2 is not valid"):
        run(func, np.zeros((2, 3), "float32"), np.array([-2, 1]))


def test_te_compiler_cache_is_empty_and_lowering_is_not_available():
    compiler = tvm.relay.backend.te_compiler.get()
    compiler.clear()
    assert compiler.items() == []
    with pytest.raises(tvm.error.OpNotImplemented, match="te_compiler"):
        compiler.lower(None)


@pytest.mark.parametrize("kind", ["debug", "vm"])
def test_a_partly_dynamic_parameter_checks_its_static_extents(kind):
    # A `?` extent takes any size; the rank and the static extents must match, a TVMError (and a
    # ValueError) otherwise, as TVM's executors refuse such inputs.
    x = relay.var("x", shape=(relay.Any(), 2))
    func = relay.Function([x], relay.copy(x))
    data = np.arange(10, dtype="float32").reshape(5, 2)
    np.testing.assert_array_equal(run(func, data, kind=kind).numpy(), data)
    for bad in (np.zeros((1, 3), "float32"), np.zeros((2,), "float32")):
        with pytest.raises(tvm.TVMError, match="main declares"):
            run(func, bad, kind=kind)
        with pytest.raises(ValueError):
            run(func, bad, kind=kind)


def test_sparse_fill_empty_rows_casts_as_tvm_wrapper_does():
    i = relay.var("i", shape=(relay.Any(), relay.Any()), dtype="int32")
    v = relay.var("v", shape=(relay.Any(),), dtype="int32")
    s = relay.var("s", shape=(relay.Any(),), dtype="int32")
    d = relay.var("d", shape=(relay.Any(),), dtype="int32")
    out = relay.sparse_fill_empty_rows(i, v, s, d)
    typed = tvm.relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([i, v, s, d], out)))
    assert [f.dtype for f in typed["main"].ret_type.fields] == ["int32", "int32", "bool"]
    res = run(relay.Function([i, v, s, d], out), np.array([[1, 0]], "int32"),
              np.array([5], "int32"), np.array([3, 2], "int32"), np.array([9], "int32"))
    # rows 0 and 2 are empty: (0, 0) = 9 and (2, 0) = 9 around the entry (1, 0) = 5
    np.testing.assert_array_equal(res[0].numpy(), [[0, 0], [1, 0], [2, 0]])
    np.testing.assert_array_equal(res[1].numpy(), [9, 5, 9])
    np.testing.assert_array_equal(res[2].numpy(), [True, False, True])


def test_dynamic_to_static_makes_constant_shaped_dyn_ops_static():
    # TVM's DynamicToStatic: constants folded first (shape_of of a static tensor is its shape, as
    # TVM's FoldConstant), then each dyn op with constant shape arguments becomes the static op.
    x = relay.var("x", shape=(2, 3, 4))
    y = relay.var("y", shape=(6, 4))
    body = relay.Tuple([relay.reshape(x, relay.shape_of(y)),
                        relay.tile(x, relay.const(np.array([1, 2]))),
                        relay.zeros(relay.shape_of(x, "int64"), "float32"),
                        relay.reshape(x, relay.var("s", shape=(2,), dtype="int64"))])
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(body), body))
    out = relay.transform.DynamicToStatic()(mod)
    ops = [f.op.name for f in out["main"].body.fields[:2] + out["main"].body.fields[3:]]
    assert ops == ["reshape", "tile", "dyn.reshape"]
    assert isinstance(out["main"].body.fields[2], relay.Constant)  # zeros of a constant shape
    assert out["main"].body.fields[0].checked_type == relay.TensorType((6, 4), "float32")
    assert out["main"].ret_type.fields[1] == relay.TensorType((2, 3, 8), "float32")
