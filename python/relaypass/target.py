"""tvm.target: Target as a ``with`` context, which AlterOpLayout hooks see as Target.current()."""
from . import _core

Target = _core.Target


def create(target):
    """tvm.target.create (older TVM)."""
    return Target(target)
