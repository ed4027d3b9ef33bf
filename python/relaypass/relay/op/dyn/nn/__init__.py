"""tvm.relay.op.dyn.nn: the dynamic nn operators' constructors (``_make``)."""
from . import _make  # noqa: F401
