"""tvm.relay.op.op: Op.get and the registration functions (also in relay.op)."""
from .registry import (  # noqa: F401
    OpPattern,
    get,
    list_op_names,
    register,
    register_pattern,
    register_stateful,
    register_alter_op_layout,
    register_legalize,
    register_mixed_precision_conversion,
)
from .gradient_registry import register_gradient  # noqa: F401
