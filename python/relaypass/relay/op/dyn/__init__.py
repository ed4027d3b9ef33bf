"""tvm.relay.op.dyn: the dynamic operators (shape arguments given as tensors). The wrappers of
relay.op (reshape, broadcast_to, zeros, ..., nn.pad, image.resize2d) make them when such an
argument is a non-constant expression, as TVM's do; ``_make`` has TVM's constructors."""
from . import _make  # noqa: F401
from . import nn  # noqa: F401
from . import image  # noqa: F401
