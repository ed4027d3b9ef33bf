"""tvm.ir.TypeKind: the kind of a type variable, with TVM's values. TypeVar.kind and
GlobalTypeVar.kind give it (relaypass._core keeps the kind as its number)."""
from enum import IntEnum

from .. import _core


class TypeKind(IntEnum):
    """TVM's tvm.ir.TypeKind."""

    Type = 0
    ShapeVar = 1
    BaseType = 2
    Constraint = 4
    AdtHandle = 5
    TypeData = 6


def _kind_as_enum(cls):
    number = cls.kind
    cls.kind = property(lambda self: TypeKind(number.__get__(self)),
                        doc="The kind of the type variable (a TypeKind).")


if not getattr(_core, "_relaypass_kind_as_enum", False):
    _core._relaypass_kind_as_enum = True
    _kind_as_enum(_core.TypeVar)
    _kind_as_enum(_core.GlobalTypeVar)
    # TVM's GlobalTypeVar.__call__: the type call of the ADT on the arguments (`List(a)`).
    _core.GlobalTypeVar.__call__ = lambda self, *args: _core.TypeCall(self, list(args))
