"""tvm.relay.ty: Relay's types.

relaypass's IR has no type variables, type relations or algebraic data types: TypeVar,
GlobalTypeVar, TypeRelation and TypeCall exist so that code naming them imports, but constructing
one raises tvm.error.OpNotImplemented (a NotImplementedError) saying so."""
from .expr import TensorType, TupleType, FuncType, RefType, IncompleteType, Type  # noqa: F401


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


TypeVar = _unavailable("TypeVar", "type variables (polymorphic types)")
GlobalTypeVar = _unavailable("GlobalTypeVar", "global type variables (algebraic data types)")
TypeRelation = _unavailable("TypeRelation", "type relations as type nodes")
TypeCall = _unavailable("TypeCall", "type calls (algebraic data types)")
