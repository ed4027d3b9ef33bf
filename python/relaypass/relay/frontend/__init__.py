"""tvm.relay.frontend: model importers (ONNX) and their common helpers."""
from . import common  # noqa: F401
from .onnx import from_onnx  # noqa: F401
