"""tvm.relay.frontend: model importers (ONNX)."""
from .onnx import from_onnx  # noqa: F401
