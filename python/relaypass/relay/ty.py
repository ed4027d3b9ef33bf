"""tvm.relay.ty: Relay's types."""
from .expr import TensorType, TupleType, FuncType, IncompleteType, Type  # noqa: F401
