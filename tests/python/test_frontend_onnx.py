"""relay.frontend.from_onnx: an onnx.ModelProto or a path in, (mod, params) out."""
import os

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from relaypass import relay  # noqa: E402
from relaypass.relay import frontend  # noqa: E402


def _conv_model():
    w = numpy_helper.from_array(np.full((4, 3, 3, 3), 0.1, dtype="float32"), name="w")
    conv = helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1])
    relu = helper.make_node("Relu", ["c"], ["y"])
    graph = helper.make_graph(
        [conv, relu], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 8, 8])],
        initializer=[w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_from_onnx_model_proto_with_shape():
    mod, params = relay.frontend.from_onnx(_conv_model(), shape={"x": (1, 3, 8, 8)})
    text = mod.astext(False) if hasattr(mod, "astext") else str(mod)
    assert "nn.conv2d" in text and "nn.relu" in text
    assert params == {}


def test_from_onnx_unfrozen_params_and_path(tmp_path):
    path = os.path.join(tmp_path, "m.onnx")
    onnx.save(_conv_model(), path)
    mod, params = frontend.from_onnx(path, shape={"x": [1, 3, 8, 8]}, freeze_params=False)
    assert list(params) == ["w"]
    assert params["w"].numpy().shape == (4, 3, 3, 3)


def test_from_onnx_dynamic_dim_is_any():
    # TVM's from_onnx leaves a dim_param dimension Any (`?`); the module runs at the input's
    # real batch. Expected: each output is relu(0.1 * 27) = 2.7 inside, less at the zero-padded
    # border (numpy: a 3x3x3 window of ones, times 0.1), hand-computed for the corner: 0.1 * 12.
    mod, params = relay.frontend.from_onnx(_conv_model())
    text = mod.astext(False) if hasattr(mod, "astext") else str(mod)
    assert "Tensor[(?, 3, 8, 8), float32]" in text
    x = np.ones((2, 3, 8, 8), dtype="float32")
    out = relay.create_executor("debug", mod=mod).evaluate()(x).numpy()
    assert out.shape == (2, 4, 8, 8)
    np.testing.assert_allclose(out[1, 0, 4, 4], 2.7, rtol=1e-5)
    np.testing.assert_allclose(out[0, 3, 0, 0], 1.2, rtol=1e-5)
