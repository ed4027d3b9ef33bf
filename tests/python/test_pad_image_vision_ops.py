"""nn.mirror_pad, nn.dilate, image.crop_and_resize, image.affine_grid and the vision NMS
operators (TVM v0.13's attrs, relations and topi semantics). Expected values come from NumPy
(np.pad's symmetric/reflect modes, strided assignment) and from hand computation of the boxes'
overlaps, as TVM's test_any.py and topi.testing reference functions compute them."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_infer_type


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    result = relay.create_executor("debug", mod=mod).evaluate()(*args)
    if isinstance(result, tvm.runtime.container.ADT):
        return [r.numpy() for r in result]
    return result.numpy()


@pytest.mark.parametrize("mode,np_mode", [("SYMMETRIC", "symmetric"), ("REFLECT", "reflect")])
def test_mirror_pad_is_numpys_one_fold_mirror(mode, np_mode):
    data = np.arange(12, dtype="float32").reshape(3, 4)
    pads = ((2, 1), (0, 3))
    x = relay.var("x", shape=(relay.Any(), 4))
    y = relay.nn.mirror_pad(x, pads, mode)
    assert run_infer_type(y).checked_type == relay.TensorType((relay.Any(), 7), "float32")
    out = run(relay.Function([x], y), data)
    np.testing.assert_array_equal(out, np.pad(data, pads, mode=np_mode))


def test_mirror_pad_attrs_text_and_bad_widths():
    x = relay.var("x", shape=(2, 3))
    y = relay.nn.mirror_pad(x, ((1, 1), (0, 2)))
    # TVM's printer leaves out attributes at their defaults (mode SYMMETRIC)
    assert 'nn.mirror_pad(%x, pad_width=[[1, 1], [0, 2]])' in y.astext()
    assert 'mode="REFLECT"' in relay.nn.mirror_pad(x, ((1, 1), (0, 2)), "REFLECT").astext()
    for pads, mode in [(((0, 0), (0, 4)), "SYMMETRIC"), (((0, 0), (3, 0)), "REFLECT"),
                       (((0, 0), (-1, 0)), "SYMMETRIC"), (((0, 0),), "SYMMETRIC")]:
        with pytest.raises(tvm.TVMError):
            run_infer_type(relay.nn.mirror_pad(x, pads, mode))


@pytest.mark.parametrize("value", [None, 1.5])
def test_dilate_inserts_dilation_value(value):
    data = np.arange(6, dtype="float32").reshape(2, 3)
    strides = (3, 2)
    x = relay.var("x", shape=(relay.Any(), relay.Any()))
    y = relay.nn.dilate(x, strides) if value is None else relay.nn.dilate(x, strides, value)
    out = run(relay.Function([x], y), data)
    expected = np.full((4, 5), 0.0 if value is None else value, "float32")
    expected[::3, ::2] = data
    np.testing.assert_array_equal(out, expected)
    x = relay.var("x", shape=(2, 3))
    assert run_infer_type(relay.nn.dilate(x, strides)).checked_type == relay.TensorType(
        (4, 5), "float32")
    with pytest.raises(tvm.TVMError):
        run_infer_type(relay.nn.dilate(x, (0, 1)))


def test_crop_and_resize_by_hand():
    # One 1x1x3x3 image; box [0, 0, 1, 1] of a 3x3 crop is the image itself, box [0, 0, 0.5, 0.5]
    # resized to 2x2 samples rows/columns 0 and 1; a box reaching 2.0 extrapolates beyond the
    # image (tf_crop_and_resize coordinates: y = y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (h - 1)).
    image = np.arange(9, dtype="float32").reshape(1, 1, 3, 3)
    boxes = np.array([[0, 0, 1, 1], [0, 0, 0.5, 0.5], [0, 0, 2, 2]], "float32")
    data = relay.var("data", shape=(1, 1, 3, 3))
    b = relay.var("b", shape=(relay.Any(), 4))
    i = relay.var("i", shape=(relay.Any(),), dtype="int32")
    full = run(relay.Function([data, b, i], relay.image.crop_and_resize(
        data, b, i, (3, 3), "NCHW", extrapolation_value=-1)), image, boxes, np.zeros(3, "int32"))
    assert full.shape == (3, 1, 3, 3)
    np.testing.assert_allclose(full[0, 0], image[0, 0])
    np.testing.assert_allclose(full[2, 0], [[0, 2, -1], [6, 8, -1], [-1, -1, -1]])
    small = run(relay.Function([data, b, i], relay.image.crop_and_resize(
        data, b, i, (2, 2), "NCHW")), image, boxes[1:2], np.zeros(1, "int32"))
    np.testing.assert_allclose(small[0, 0], [[0, 1], [3, 4]])
    with pytest.raises(tvm.TVMError, match="box_indices"):
        run(relay.Function([data, b, i], relay.image.crop_and_resize(data, b, i, (2, 2), "NCHW")),
            image, boxes[1:2], np.array([1], "int32"))


def test_affine_grid_is_the_transformed_unit_grid():
    # topi.testing.affine_grid_python: theta @ [x, y, 1] over x, y = linspace(-1, 1).
    theta = np.array([[[1.0, 0.5, 0.25], [0.0, 2.0, -1.0]]], "float32")
    x = relay.var("x", shape=(relay.Any(), 2, 3))
    out = run(relay.Function([x], relay.image.affine_grid(x, (3, 5))), theta)
    ys, xs = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 5), indexing="ij")
    grid = np.stack([xs, ys, np.ones_like(xs)]).reshape(3, -1)
    np.testing.assert_allclose(out, (theta[0] @ grid).reshape(1, 2, 3, 5), rtol=1e-6)
    with pytest.raises(tvm.TVMError):
        run_infer_type(relay.image.affine_grid(relay.var("y", shape=(1, 3, 3)), (2, 2)))


def test_get_valid_counts_moves_valid_boxes_up():
    data = np.array([[[0, 0.9, 1, 1, 2, 2], [1, 0.1, 0, 0, 1, 1], [-1, 0.8, 0, 0, 1, 1],
                      [2, 0.7, 3, 3, 4, 4]]], "float32")
    x = relay.var("x", shape=(1, relay.Any(), 6))
    z = relay.vision.get_valid_counts(x, 0.5)
    count, out, indices = run(relay.Function([x], z.astuple()), data)
    # rows 0 and 3 (row 1 scores 0.1; row 2 has class id -1)
    np.testing.assert_array_equal(count, [2])
    np.testing.assert_array_equal(out[0, :2], data[0, [0, 3]])
    np.testing.assert_array_equal(out[0, 2:], -np.ones((2, 6)))
    np.testing.assert_array_equal(indices, [[0, 3, -1, -1]])


def _nms_data():
    return np.array([[[0, 0.8, 1, 20, 25, 45], [1, 0.7, 30, 60, 50, 80], [0, 0.4, 4, 21, 19, 40],
                      [2, 0.9, 35, 61, 52, 79], [1, 0.5, 100, 60, 70, 110]]], "float32")


def test_non_max_suppression_returns_kept_indices():
    # Sorted by score: 3 (0.9), 0 (0.8), 1 (0.7), 2 (0.4). IoU(3, 1) = 15 * 18 / (17 * 18 +
    # 20 * 20 - 270) = 0.62 and IoU(0, 2) = 15 * 19 / (24 * 25 + 15 * 19 - 285) = 0.475.
    data = _nms_data()
    x = relay.var("x", shape=(1, relay.Any(), 6))
    vc = relay.var("vc", shape=(1,), dtype="int32")
    idx = relay.var("idx", shape=(1, relay.Any()), dtype="int32")
    args = (data, np.array([4], "int32"), np.array([[0, 1, 3, 4, -1]], "int32"))
    z = relay.vision.non_max_suppression(x, vc, idx, iou_threshold=0.5, force_suppress=True)
    kept, count = run(relay.Function([x, vc, idx], z.astuple()), *args)
    # 1 is suppressed by 3; indices maps sorted rows 3, 0, 2 to 4, 0, 3
    np.testing.assert_array_equal(kept, [[4, 0, 3, -1, -1]])
    np.testing.assert_array_equal(count, [[3]])
    # Without force_suppress only boxes of one class suppress each other: 1 (class 1) stays.
    z = relay.vision.non_max_suppression(x, vc, idx, iou_threshold=0.5)
    kept, count = run(relay.Function([x, vc, idx], z.astuple()), *args)
    np.testing.assert_array_equal(kept, [[4, 0, 1, 3, -1]])
    # top_k=2 keeps the two best, as TVM's test_any.py::test_non_max_suppression expects
    z = relay.vision.non_max_suppression(x, vc, idx, force_suppress=True, top_k=2)
    kept, count = run(relay.Function([x, vc, idx], z.astuple()), *args)
    np.testing.assert_array_equal(kept, [[4, 0, -1, -1, -1]])
    np.testing.assert_array_equal(count, [[2]])


def test_non_max_suppression_data_output():
    data = _nms_data()
    x = relay.var("x", shape=data.shape)
    vc = relay.var("vc", shape=(1,), dtype="int32")
    idx = relay.var("idx", shape=(1, 5), dtype="int32")
    z = relay.vision.non_max_suppression(x, vc, idx, iou_threshold=0.5, force_suppress=True,
                                         return_indices=False, invalid_to_bottom=True)
    assert run_infer_type(z).checked_type == relay.TensorType((1, 5, 6), "float32")
    out = run(relay.Function([x, vc, idx], z), data, np.array([4], "int32"),
              np.array([[0, 1, 2, 3, 4]], "int32"))
    np.testing.assert_allclose(out[0, :3], data[0, [3, 0, 2]])
    np.testing.assert_array_equal(out[0, 3:], -np.ones((2, 6)))


def test_all_class_nms_formats():
    # TVM's test_any.py::test_all_class_non_max_suppression data; the boxes kept per class by
    # hand (score above 0.4, IoU below 0.8 with the kept ones, at most 2).
    boxes = np.array([[[0.0, 0.0, 0.3, 0.3], [0.5, 0.5, 0.4, 0.4], [0.0, 0.0, 0.5, 0.5],
                       [0.5, 0.5, 0.9, 0.9], [0.5, 0.5, 1.0, 1.0]]], "float32")
    scores = np.array([[[0.1, 0.2, 0.6, 0.3, 0.9], [0.8, 0.2, 0.6, 0.3, 0.9]]], "float32")
    b = relay.var("b", shape=(1, relay.Any(), 4))
    s = relay.var("s", shape=(1, 2, relay.Any()))
    onnx = relay.vision.all_class_non_max_suppression(b, s, 2, 0.8, 0.4)
    assert run_infer_type(onnx.astuple()).checked_type == relay.TupleType(
        [relay.TensorType((relay.Any(), 3), "int64"), relay.TensorType((1,), "int64")])
    selected, count = run(relay.Function([b, s], onnx.astuple()), boxes, scores)
    np.testing.assert_array_equal(count, [4])
    np.testing.assert_array_equal(selected[:4], [[0, 0, 4], [0, 0, 2], [0, 1, 4], [0, 1, 0]])
    tf = relay.vision.all_class_non_max_suppression(b, s, 2, 0.8, 0.4, "tensorflow")
    indices, kept_scores, counts = run(relay.Function([b, s], tf.astuple()), boxes, scores)
    np.testing.assert_array_equal(indices[0, :4], [[0, 4], [0, 2], [1, 4], [1, 0]])
    np.testing.assert_allclose(kept_scores[0, :4], [0.9, 0.6, 0.9, 0.8])
    np.testing.assert_array_equal(counts, [4])


def test_nms_fields_must_fit_the_rows():
    x = relay.var("x", shape=(1, 4, 5))
    vc = relay.var("vc", shape=(1,), dtype="int32")
    idx = relay.var("idx", shape=(1, 4), dtype="int32")
    with pytest.raises(tvm.TVMError, match="coord_start"):
        run_infer_type(relay.vision.non_max_suppression(x, vc, idx).astuple())
    with pytest.raises(tvm.TVMError, match="score_index"):
        run_infer_type(relay.vision.get_valid_counts(x, 0.5, score_index=5).astuple())


def test_affine_grid_one_point_axis_is_nan():
    # TVM computes y = -1 + 0 * 2 / (1 - 1): 0 / 0, NaN, on a one-row grid; every output takes
    # theta[k, 1] * y (0 * NaN is NaN too).
    theta = np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], "float32")
    x = relay.var("x", shape=(1, 2, 3))
    out = run(relay.Function([x], relay.image.affine_grid(x, (1, 2))), theta)
    assert out.shape == (1, 2, 1, 2) and np.isnan(out).all()
