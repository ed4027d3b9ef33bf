"""tvm.relay.op.dyn.image: the dynamic image operators' constructors (``_make``)."""
from . import _make  # noqa: F401
