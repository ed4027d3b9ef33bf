"""tvm.ir.op: the Op class (``isinstance(x, tvm.ir.op.Op)``, as TVM's tests write it)."""
from .._core import Op  # noqa: F401
