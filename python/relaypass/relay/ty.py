"""tvm.relay.ty: Relay's types, including type variables (polymorphism) and the types of
algebraic data types (GlobalTypeVar, TypeCall, TypeData). TypeRelation exists so that code
naming it imports, but constructing one raises tvm.error.OpNotImplemented (a
NotImplementedError): relaypass's type relations belong to operators, not to types."""
from ..ir.type_kind import TypeKind  # noqa: F401
from .expr import TensorType, TupleType, FuncType, RefType, IncompleteType, Type  # noqa: F401
from .._core import TypeVar as _TypeVar, GlobalTypeVar as _GlobalTypeVar  # noqa: F401
from .._core import TypeCall, TypeData  # noqa: F401


TypeVar = _TypeVar
GlobalTypeVar = _GlobalTypeVar


def scalar_type(dtype):
    """The type of a scalar of ``dtype``: a TensorType of shape ()."""
    return TensorType((), dtype)


def _unavailable(name, what):
    def __new__(cls, *args, **kwargs):
        from .._errors import OpNotImplemented

        raise OpNotImplemented(
            "relay.{} is not available: relaypass's IR has no {}".format(name, what))

    return type(name, (), {"__new__": __new__, "__doc__": "Not available in relaypass: its IR "
                           "has no {}; constructing one raises OpNotImplemented.".format(what),
                           "__module__": __name__})


TypeRelation = _unavailable("TypeRelation", "type relations as type nodes")
