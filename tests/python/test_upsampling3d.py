"""nn.upsampling3d and dyn.nn.upsampling3d (TVM v0.13's UpSampling3DAttrs, UpSampling3DRel and
topi.nn.upsampling3d). Expected values: NumPy's np.repeat for nearest-neighbour integer scales,
and hand-computed trilinear interpolation with align_corners coordinates
(x_in = x_out * (in - 1) / (out - 1))."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_infer_type


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    return relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()


def test_type_relation_scales_and_rounds_d_h_w():
    # TVM: round(extent * scale) per spatial axis; a `?` extent stays `?`.
    x = relay.var("x", shape=(1, 2, 3, 5, 7))
    y = run_infer_type(relay.nn.upsampling3d(x, 2, 1.5, 0.5))
    assert y.checked_type == relay.TensorType((1, 2, 6, 8, 4), "float32")
    x = relay.var("x", shape=(1, 3, relay.Any(), 4, 2))
    y = run_infer_type(relay.nn.upsampling3d(x, 2, 2, 3, layout="NDHWC"))
    assert y.checked_type == relay.TensorType((1, 6, relay.Any(), 12, 2), "float32")


def test_attrs_and_printed_text_are_tvms():
    x = relay.var("x", shape=(1, 1, 1, 1, 1))
    y = relay.nn.upsampling3d(x, 2, 3, 4)
    assert y.attrs.coordinate_transformation_mode == "half_pixel"
    assert y.attrs.layout == "NCDHW" and y.attrs.method == "nearest_neighbor"
    text = y.astext()
    assert "nn.upsampling3d(%x, scale_d=2f, scale_h=3f, scale_w=4f)" in text


@pytest.mark.parametrize("layout", ["NCDHW", "NDHWC"])
def test_nearest_integer_scales_repeat_each_element(layout):
    data = np.arange(2 * 3 * 2 * 2, dtype="float32").reshape(1, 2, 3, 2, 2)
    axes = (2, 3, 4)
    if layout == "NDHWC":
        data = data.transpose(0, 2, 3, 4, 1).copy()
        axes = (1, 2, 3)
    x = relay.var("x", shape=data.shape)
    f = relay.Function([x], relay.nn.upsampling3d(x, 2, 3, 1, layout=layout,
                                                  coordinate_transformation_mode="asymmetric"))
    expected = data.repeat(2, axis=axes[0]).repeat(3, axis=axes[1])
    np.testing.assert_array_equal(run(f, data), expected)


def test_trilinear_align_corners_by_hand():
    # in 2 -> out 3 on each axis: positions 0, 0.5, 1, so the middle is the mean of the ends.
    data = np.array([0, 8, 2, 10, 4, 12, 6, 14], dtype="float32").reshape(1, 1, 2, 2, 2)
    x = relay.var("x", shape=data.shape)
    f = relay.Function([x], relay.nn.upsampling3d(x, 1.5, 1.5, 1.5, method="trilinear",
                                                  coordinate_transformation_mode="align_corners"))
    out = run(f, data)
    assert out.shape == (1, 1, 3, 3, 3)
    assert out[0, 0, 1, 1, 1] == pytest.approx(data.mean())
    assert out[0, 0, 0, 0, 1] == pytest.approx(4.0)  # between data[0,0,0] = 0 and data[0,0,1] = 8
    assert out[0, 0, 2, 2, 2] == 14


def test_bad_method_and_layout_are_type_errors():
    x = relay.var("x", shape=(1, 1, 2, 2, 2))
    for kwargs in [{"method": "bicubic"}, {"layout": "NCHW"},
                   {"coordinate_transformation_mode": "tf_crop_and_resize"}]:
        with pytest.raises(tvm.TVMError):
            run_infer_type(relay.nn.upsampling3d(x, 2, 2, 2, **kwargs))


def test_dyn_upsampling3d_takes_scales_at_run_time():
    data = np.arange(8, dtype="float32").reshape(1, 1, 2, 2, 2)
    x = relay.var("x", shape=data.shape)
    d = relay.var("d", shape=(), dtype="float32")
    y = relay.nn.upsampling3d(x, d, 2.0, 1.0, coordinate_transformation_mode="asymmetric")
    assert y.op.name == "dyn.nn.upsampling3d"
    assert run_infer_type(y).checked_type == relay.TensorType(
        (1, 1, relay.Any(), relay.Any(), relay.Any()), "float32")
    out = run(relay.Function([x, d], y), data, np.float32(3))
    np.testing.assert_array_equal(out, data.repeat(3, axis=2).repeat(2, axis=3))
