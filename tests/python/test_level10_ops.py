"""TVM v0.13's level-10 operators added to relaypass: collapse_sum_like / collapse_sum_to,
contrib_reverse_reshape (relay.reverse_reshape), sequence_mask, matrix_set_diag, shape_of,
ndarray_size and slice_like, and the level-6 sort, argsort and searchsorted, on every executor.
Expected values come from NumPy (np.sum over the collapsed axes, np.reshape to the shape TVM's
reverse_reshape documentation gives, slicing, np.sort / np.argsort(kind="stable") /
np.searchsorted) or are written out by hand (sequence_mask, matrix_set_diag), as each test
says."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay

EXECUTORS = ["debug", "graph", "vm"]
RNG = np.random.default_rng(10)


def _run(kind, params, body, *args):
    return relay.create_executor(kind).evaluate(relay.Function(params, body))(*args)


def _infer(expr):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    return mod["main"].body.checked_type


# collapse_sum_like / collapse_sum_to: np.sum over the leading axes and the stretched 1s.
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("shape,target,dtype", [
    ((3, 4, 5, 6), (4, 5, 6), "float32"),
    ((2, 3, 4), (2, 1, 4), "float32"),
    ((2, 3, 4), (1, 4), "int32"),
    ((2, 3), (2, 3), "float64"),
])
def test_collapse_sum_matches_numpy(kind, shape, target, dtype):
    data = RNG.integers(-5, 5, size=shape).astype(dtype)
    lead = len(shape) - len(target)
    expected = data.sum(axis=tuple(range(lead)))
    expected = expected.sum(
        axis=tuple(i for i, t in enumerate(target) if t == 1 and shape[lead + i] != 1),
        keepdims=True).reshape(target).astype(dtype)
    x = relay.var("x", shape=shape, dtype=dtype)
    y = relay.var("y", shape=target, dtype=dtype)
    like = _run(kind, [x, y], relay.collapse_sum_like(x, y), data, np.zeros(target, dtype))
    np.testing.assert_allclose(like.numpy(), expected, rtol=1e-5)
    to = _run(kind, [x], relay.collapse_sum_to(x, target), data)
    assert to.numpy().dtype == np.dtype(dtype)
    np.testing.assert_allclose(to.numpy(), expected, rtol=1e-5)


def test_collapse_sum_types_text_and_simplify_expr():
    x = relay.var("x", shape=(3, 4, 5))
    y = relay.var("y", shape=(4, 1))
    assert _infer(relay.collapse_sum_like(x, y)) == relay.TensorType((4, 1), "float32")
    to = relay.collapse_sum_to(x, (1, 5))
    assert _infer(to) == relay.TensorType((1, 5), "float32")
    # TVM's MakeCollapseSumTo keeps a constant shape in the InitOpAttrs `shape` field.
    assert "collapse_sum_to(%x, meta[relay.Constant][0], shape=[1, 5])" in relay.Function(
        [x], to).astext()
    # SimplifyExpr's ConcretizeCollapseSumLike: a static result becomes collapse_sum_to.
    mod = tvm.IRModule.from_expr(relay.Function([x, y], relay.collapse_sum_like(x, y)))
    mod = relay.transform.SimplifyExpr()(relay.transform.InferType()(mod))
    text = mod.astext()
    assert "collapse_sum_like" not in text
    assert "collapse_sum_to(%x, meta[relay.Constant][0] /* ty=Tensor[(2), int32] */, shape=[4, 1])" \
        in text
    with pytest.raises(Exception, match="collapse_sum_like"):
        _infer(relay.collapse_sum_like(x, relay.var("z", shape=(3, 5))))


# reverse_reshape: the shapes are the examples of TVM's relay.reverse_reshape documentation and
# test (newshape's special values taken from the right); the data is np.reshape'd to them.
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("shape,newshape,oshape", [
    ((2, 3, 4), (4, 0, 2), (4, 3, 2)),
    ((2, 3, 4), (2, 0, 0), (2, 3, 4)),
    ((2, 3, 4), (0, -1), (3, 8)),
    ((2, 3, 4), (-1, 0), (6, 4)),
    ((2, 3, 4), (0, -3), (2, 12)),
    ((10, 5, 4), (-1, 0), (50, 4)),
])
def test_reverse_reshape(kind, shape, newshape, oshape):
    data = RNG.uniform(size=shape).astype("float32")
    x = relay.var("x", shape=shape)
    z = relay.reverse_reshape(x, newshape)
    assert _infer(z) == relay.TensorType(oshape, "float32")
    text = relay.Function([x], z).astext()
    assert "contrib_reverse_reshape(%x, newshape=[" + ", ".join(map(str, newshape)) + "])" in text
    np.testing.assert_array_equal(_run(kind, [x], z, data).numpy(), data.reshape(oshape))


def test_reverse_reshape_pairs_simplify_to_one_reshape():
    x = relay.var("x", shape=(2, 3, 4))
    z = relay.reshape(relay.reverse_reshape(x, (0, -1)), (24,))
    mod = relay.transform.SimplifyExpr()(relay.transform.InferType()(tvm.IRModule.from_expr(z)))
    text = mod.astext()
    assert "contrib_reverse_reshape" not in text
    assert "reshape(%x, newshape=[24])" in text


# sequence_mask: out[t, b, ...] = mask_value where t >= valid_length[b] (axis 0; axis 1 swaps t
# and b), the expected arrays written with np.where over the position index.
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("shape,axis,dtype,itype,mask_value", [
    ((5, 3), 0, "float32", "int32", 0.0),
    ((3, 5, 2), 1, "float32", "int64", -1.5),
    ((4, 3, 2), 0, "float64", "float32", 0.1),
    ((4, 2), 0, "int32", "int32", 7),
])
def test_sequence_mask(kind, shape, axis, dtype, itype, mask_value):
    data = RNG.uniform(1, 2, size=shape).astype(dtype)
    nbatch = shape[1 - axis]
    lengths = np.array([0, 2, shape[axis]][:nbatch], dtype=itype)
    pos = np.arange(shape[axis]).reshape((-1, 1) if axis == 0 else (1, -1))
    pos = pos.reshape(pos.shape + (1,) * (len(shape) - 2))
    lens = lengths.reshape((1, -1) if axis == 0 else (-1, 1))
    lens = lens.reshape(lens.shape + (1,) * (len(shape) - 2))
    expected = np.where(pos >= lens, np.array(mask_value).astype(dtype), data)
    x = relay.var("x", shape=shape, dtype=dtype)
    v = relay.var("v", shape=(nbatch,), dtype=itype)
    z = relay.sequence_mask(x, v, mask_value, axis)
    assert _infer(z) == relay.TensorType(shape, dtype)
    np.testing.assert_array_equal(_run(kind, [x, v], z, data, lengths).numpy(), expected)


def test_sequence_mask_text_and_type_errors():
    x = relay.var("x", shape=(4, 3))
    v = relay.var("v", shape=(3,), dtype="int32")
    text = relay.Function([x, v], relay.sequence_mask(x, v, 1.0, 0)).astext()
    assert "sequence_mask(%x, %v, mask_value=1f)" in text
    with pytest.raises(Exception, match="axis must be 0 or 1"):
        _infer(relay.sequence_mask(x, v, 0.0, 2))
    with pytest.raises(Exception, match="valid_length"):
        _infer(relay.sequence_mask(x, relay.var("w", shape=(4,), dtype="int32"), 0.0, 0))


# matrix_set_diag: the expected matrices are written out by hand from TensorFlow's
# MatrixSetDiagV3 definition (diagonal d = j - i, row k2 - d of the diagonal tensor; RIGHT
# alignment pads a short diagonal on the left).
@pytest.mark.parametrize("kind", EXECUTORS)
def test_matrix_set_diag_single_diagonals(kind):
    data = np.arange(12, dtype="float32").reshape(3, 4)
    x = relay.var("x", shape=(3, 4))
    d = relay.var("d", shape=(3,))
    diag = np.array([-1, -2, -3], dtype="float32")
    main = _run(kind, [x, d], relay.matrix_set_diag(x, d), data, diag).numpy()
    np.testing.assert_array_equal(main, [[-1, 1, 2, 3], [4, -2, 6, 7], [8, 9, -3, 11]])
    upper = _run(kind, [x, d], relay.matrix_set_diag(x, d, 1), data, diag).numpy()
    np.testing.assert_array_equal(upper, [[0, -1, 2, 3], [4, 5, -2, 7], [8, 9, 10, -3]])
    d2 = relay.var("d2", shape=(2,))
    lower = _run(kind, [x, d2], relay.matrix_set_diag(x, d2, -1), data,
                 np.array([-1, -2], dtype="float32")).numpy()
    np.testing.assert_array_equal(lower, [[0, 1, 2, 3], [-1, 5, 6, 7], [8, -2, 10, 11]])


@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("align,expected", [
    # rows of the diagonal tensor: d=1 [a0 a1 a2], d=0 [b0 b1 b2], d=-1 [c0 c1 c2]; the short
    # diagonals (length 2) take [1:] when right-aligned, [:2] when left-aligned.
    ("RIGHT_LEFT", [[20, 11, 0], [30, 21, 12], [0, 31, 22]]),
    ("LEFT_RIGHT", [[20, 10, 0], [31, 21, 11], [0, 32, 22]]),
    ("LEFT_LEFT", [[20, 10, 0], [30, 21, 11], [0, 31, 22]]),
    ("RIGHT_RIGHT", [[20, 11, 0], [31, 21, 12], [0, 32, 22]]),
])
def test_matrix_set_diag_band(kind, align, expected):
    data = np.zeros((1, 3, 3), dtype="int32")
    diag = np.array([[[10, 11, 12], [20, 21, 22], [30, 31, 32]]], dtype="int32")
    x = relay.var("x", shape=(1, 3, 3), dtype="int32")
    d = relay.var("d", shape=(1, 3, 3), dtype="int32")
    z = relay.matrix_set_diag(x, d, (-1, 1), align)
    assert _infer(z) == relay.TensorType((1, 3, 3), "int32")
    np.testing.assert_array_equal(_run(kind, [x, d], z, data, diag).numpy()[0], expected)


def test_matrix_set_diag_attrs_and_shape_check():
    x = relay.var("x", shape=(2, 3, 4))
    text = relay.Function([x], relay.matrix_set_diag(x, relay.const(np.zeros((2, 4, 3), "float32")),
                                                     (-1, 2), "LEFT_RIGHT")).astext()
    assert "k1=-1, k2=2, super_diag_right_align=False, sub_diag_right_align=True" in text
    with pytest.raises(Exception, match="matrix_set_diag: diagonal"):
        _infer(relay.matrix_set_diag(x, relay.var("d", shape=(2, 4))))


# shape_of / ndarray_size: the data's shape and element count.
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_shape_of_and_ndarray_size(kind, dtype):
    data = np.zeros((2, 3, 5), dtype="float32")
    x = relay.var("x", shape=data.shape)
    shape = _run(kind, [x], relay.shape_of(x, dtype), data).numpy()
    assert shape.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(shape, [2, 3, 5])
    size = _run(kind, [x], relay.op.ndarray_size(x, dtype), data).numpy()
    assert size.dtype == np.dtype(dtype) and size.shape == ()
    assert int(size) == 30
    assert _infer(relay.shape_of(x)) == relay.TensorType((3,), "int32")
    assert _infer(relay.op.ndarray_size(x)) == relay.TensorType((), "int32")


# slice_like: data[:like.shape[0], :like.shape[1], ...] on the given axes (NumPy slicing).
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("shape,like,axes,oshape", [
    ((3, 4, 5), (1, 2, 3), None, (1, 2, 3)),
    ((3, 4, 5), (1, 2), None, (1, 2, 5)),
    ((3, 4, 5), (1, 2, 3), (1, 2), (3, 2, 3)),
    ((3, 4, 5), (1, 2, 3), (-1, -3), (1, 4, 3)),
])
def test_slice_like(kind, shape, like, axes, oshape):
    data = RNG.uniform(size=shape).astype("float32")
    x = relay.var("x", shape=shape)
    y = relay.var("y", shape=like)
    z = relay.slice_like(x, y, axes)
    assert _infer(z) == relay.TensorType(oshape, "float32")
    if axes:
        assert "axes=[%s]" % ", ".join(map(str, axes)) in relay.Function([x, y], z).astext()
    out = _run(kind, [x, y], z, data, np.zeros(like, "float32")).numpy()
    np.testing.assert_array_equal(out, data[tuple(slice(0, n) for n in oshape)])


def test_slice_like_larger_than_data_is_a_type_error():
    x = relay.var("x", shape=(2, 3))
    with pytest.raises(Exception, match="slice_like: end index of axis 1"):
        _infer(relay.slice_like(x, relay.var("y", shape=(2, 4))))


# sort / argsort: np.sort and np.argsort(kind="stable") (descending: of the negated data, which
# keeps equal elements in order, as TVM's argsort); ties are forced with small integers.
@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("shape,axis,is_ascend,dtype", [
    ((2, 3, 4), 0, False, "int32"),
    ((1, 4, 6), 1, True, "int64"),
    ((3, 5, 6), -1, False, "float32"),
    ((4, 7), -1, True, "float64"),
])
def test_sort_and_argsort_match_numpy(kind, shape, axis, is_ascend, dtype):
    in_dtype = "float32"
    data = RNG.integers(0, 3, size=shape).astype(in_dtype)
    x = relay.var("x", shape=shape, dtype=in_dtype)
    order = np.argsort(data if is_ascend else -data, axis=axis, kind="stable")
    got = _run(kind, [x], relay.argsort(x, axis=axis, is_ascend=is_ascend, dtype=dtype), data)
    assert got.numpy().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), order.astype(dtype))
    values = _run(kind, [x], relay.sort(x, axis=axis, is_ascend=is_ascend), data).numpy()
    expected = np.sort(data, axis=axis) if is_ascend else -np.sort(-data, axis=axis)
    np.testing.assert_array_equal(values, expected)


def test_sort_family_types_and_text():
    x = relay.var("x", shape=(3, 4), dtype="float16")
    assert _infer(relay.sort(x)) == relay.TensorType((3, 4), "float16")
    assert _infer(relay.argsort(x, dtype="int64")) == relay.TensorType((3, 4), "int64")
    text = relay.Function([x], relay.argsort(x, axis=0, is_ascend=False)).astext()
    assert 'argsort(%x, axis=0, is_ascend=False, dtype="int32")' in text
    assert "sort(%x)" in relay.Function([x], relay.sort(x)).astext()
    data = np.array([[3, 1, 2, 0], [1, 1, 0, 2], [5, 4, 4, 3]], dtype="float16")
    out = _run("debug", [x], relay.sort(x, axis=1), data).numpy()
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.sort(data, axis=1))
    with pytest.raises(Exception, match="argsort: axis"):
        _infer(relay.argsort(x, axis=2))


@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("right,dtype", [(False, "int32"), (True, "int64")])
def test_searchsorted_matches_numpy(kind, right, dtype):
    side = "right" if right else "left"
    seq = np.sort(RNG.integers(0, 6, size=(3, 4, 8)), axis=-1).astype("float32")
    values = RNG.integers(-1, 7, size=(3, 4, 5)).astype("float32")
    s = relay.var("s", shape=seq.shape)
    v = relay.var("v", shape=values.shape)
    z = relay.searchsorted(s, v, right, dtype)
    assert _infer(z) == relay.TensorType(values.shape, dtype)
    expected = np.zeros(values.shape, dtype=dtype)
    for i in np.ndindex(values.shape[:-1]):
        expected[i] = np.searchsorted(seq[i], values[i], side=side)
    got = _run(kind, [s, v], z, seq, values).numpy()
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, expected)
    # A 1-D sequence serves every value.
    s1 = relay.var("s1", shape=(8,))
    got1 = _run(kind, [s1, v], relay.searchsorted(s1, v, right, dtype), seq[0, 0], values).numpy()
    np.testing.assert_array_equal(got1, np.searchsorted(seq[0, 0], values, side=side))


def test_searchsorted_leading_dims_must_match():
    s = relay.var("s", shape=(2, 5))
    with pytest.raises(Exception, match="searchsorted: sorted_sequence"):
        _infer(relay.searchsorted(s, relay.var("v", shape=(3, 4))))
