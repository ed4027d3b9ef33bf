"""tvm.relay.ty: Relay's types."""
from .expr import TensorType, TupleType, FuncType, RefType, IncompleteType, Type  # noqa: F401
