"""tvm.ir: IRModule, structural equality and hashing, Op, types, and (as submodules) the pass
infrastructure (tvm.ir.transform) and instruments (tvm.ir.instrument)."""
from .. import _core
from .._core import (  # noqa: F401
    IRModule,
    Op,
    GlobalVar,
    RelayExpr,
    Type,
    TensorType,
    TupleType,
    FuncType,
    IncompleteType,
    Attrs,
    structural_equal,
    structural_hash,
    assert_structural_equal,
)
from . import instrument  # noqa: F401
from . import transform  # noqa: F401

BaseExpr = RelayExpr
DictAttrs = dict


def save_json(node):
    from .._errors import OpNotImplemented

    raise OpNotImplemented("tvm.ir.save_json is not available in relaypass; use mod.astext()")
