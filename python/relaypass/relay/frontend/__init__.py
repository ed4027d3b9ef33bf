"""tvm.relay.frontend: model importers (ONNX, PyTorch) and their common helpers."""
from . import common  # noqa: F401
from .onnx import from_onnx  # noqa: F401
from .pytorch import from_pytorch  # noqa: F401
