"""relay.op: operators, Op.get, and registration of AlterOpLayout hooks from Python."""
from ... import _core
from ...ir import Op
from .tensor import *  # noqa: F401,F403
from .transform import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .algorithm import *  # noqa: F401,F403
from . import algorithm  # noqa: F401
from . import nn  # noqa: F401
from . import annotation  # noqa: F401
from . import image  # noqa: F401
from . import random  # noqa: F401
from . import vision  # noqa: F401
from . import contrib  # noqa: F401
from .debug import debug  # noqa: F401 (the function, as in TVM: it hides the submodule)
from . import _make  # noqa: F401
from .gradient_registry import register_gradient  # noqa: F401
from .registry import (  # noqa: F401
    register_alter_op_layout,
    register_legalize,
    register_mixed_precision_conversion,
    get,
    list_op_names,
    OpPattern,
    register_pattern,
    register_stateful,
)
from . import _generic
from . import op  # noqa: F401,E402 (tvm.relay.op.op)

# Operators registered in C++ without a hand-written wrapper above get a generic one.
_generic.install(__name__)


def __getattr__(name):
    # relay.op.qnn.<op>: the qnn operators are relay.qnn.op's (imported late: that package builds
    # on this one).
    if name == "qnn":
        import importlib

        return importlib.import_module("relaypass.relay.qnn.op")
    raise AttributeError("module {!r} has no attribute {!r}".format(__name__, name))

# `from relay.op import *` gives the operators, not this package's submodules (relay.transform
# must stay the pass module).
__all__ = [
    _name
    for _name, _value in list(globals().items())
    if not _name.startswith("_") and not isinstance(_value, type(_core))
]
