"""tvm.relay.frontend.onnx: ONNX models as Relay modules (the C++ importer, docs/onnx.md)."""
import os

from ... import _core


def from_onnx(model, shape=None, dtype="float32", opset=None, freeze_params=True, **kwargs):
    """Converts an ONNX model into a Relay module, as TVM's relay.frontend.from_onnx.

    model: an onnx.ModelProto (anything with SerializeToString), its serialized bytes, or the
    path of a .onnx file. shape: {input name: shape} fixing input shapes (required for dynamic
    dimensions). dtype: the dtype of inputs whose type the model does not give. opset: convert
    with this default-domain opset instead of the model's. freeze_params: initializers become
    constants (True) or parameters of main returned in params.

    Returns (mod, params): the typed IRModule and {name: NDArray} of the unfrozen initializers.
    """
    if kwargs:
        unknown = ", ".join(sorted(kwargs))
        raise TypeError(f"from_onnx: unsupported arguments: {unknown}")
    shape = None if shape is None else {str(k): [int(d) for d in v] for k, v in shape.items()}
    if isinstance(model, (str, os.PathLike)):
        return _core.from_onnx_file(os.fspath(model), shape, dtype, opset, freeze_params)
    if isinstance(model, (bytes, bytearray)):
        data = bytes(model)
    elif hasattr(model, "SerializeToString"):
        data = model.SerializeToString()
    else:
        raise TypeError("from_onnx takes an onnx.ModelProto, its bytes or a path")
    return _core.from_onnx_bytes(data, shape, dtype, opset, freeze_params)
