"""relay.expr: expression classes (the C++ nodes themselves, so isinstance works on anything a
pass returns), the operators Python gives them, and var/const/bind."""
import numbers

import numpy as _np

from .. import _core
from .. import nd as _nd
from .._core import (  # noqa: F401
    RelayExpr,
    Var,
    GlobalVar,
    Constant,
    Call,
    Tuple,
    TupleGetItem,
    Let,
    If,
    RefCreate,
    RefRead,
    RefWrite,
    Function,
    TensorType,
    TupleType,
    FuncType,
    RefType,
    IncompleteType,
    Type,
)

Expr = RelayExpr
ExprWithOp = RelayExpr


def _binary(op_name, swap=False):
    def method(self, other):
        if isinstance(other, RelayExpr):
            lhs, rhs = (other, self) if swap else (self, other)
            return _core.make_op_call(op_name, [lhs, rhs], {})
        if isinstance(other, numbers.Number):
            raise TypeError('convert "%s" with `const` first' % str(other))
        raise TypeError("type %s not supported" % str(type(other)))

    return method


def _install_operators():
    ops = {
        "__add__": ("add", False),
        "__radd__": ("add", True),
        "__sub__": ("subtract", False),
        "__rsub__": ("subtract", True),
        "__mul__": ("multiply", False),
        "__rmul__": ("multiply", True),
        "__truediv__": ("divide", False),
        "__rtruediv__": ("divide", True),
        "__div__": ("divide", False),
        "__lt__": ("less", False),
        "__gt__": ("greater", False),
        "__ge__": ("greater_equal", False),
        "__le__": ("less_equal", False),
    }
    for name, (op_name, swap) in ops.items():
        setattr(RelayExpr, name, _binary(op_name, swap))
    RelayExpr.__neg__ = lambda self: _core.make_op_call("negative", [self], {})
    RelayExpr.astype = lambda self, dtype: _core.make_op_call("cast", [self], {"dtype": dtype})
    RelayExpr.__call__ = lambda self, *args: Call(self, list(args), None)
    RelayExpr.equal = lambda self, other: _core.make_op_call("equal", [self, other], {})
    RelayExpr.not_equal = lambda self, other: _core.make_op_call("not_equal", [self, other], {})
    RelayExpr.__repr__ = lambda self: str(self)
    # A Var compared by name in TVM's str(); its vid is itself here.
    Var.vid = property(lambda self: self)


_install_operators()


class TupleWrapper:
    """What relay.split and relay.nn.batch_norm return: indexable like the tuple they make."""

    def __init__(self, tuple_value, size):
        self.tuple_value = tuple_value
        self.size = size

    def astuple(self):
        return self.tuple_value

    def astext(self):
        return self.tuple_value.astext()

    def __getitem__(self, index):
        if index >= len(self):
            raise IndexError("Tuple index out of range")
        return TupleGetItem(self.tuple_value, index)

    def __len__(self):
        return self.size

    def __repr__(self):
        return "TupleWrapper(" + repr(self.tuple_value) + ", " + str(self.size) + ")"

    def astype(self, _):
        raise TypeError("astype cannot be used on tuple")


def var(name_hint, type_annotation=None, shape=None, dtype="float32", span=None):
    """A variable (relay.var): ``var("x", shape=(1, 3))``, ``var("x", TensorType(...))``,
    ``var("x", "float32")`` (a scalar)."""
    if type_annotation is not None and shape is not None:
        raise ValueError("Can only specify either type_annotation or shape.")
    if shape is not None:
        type_annotation = TensorType(shape, dtype)
    elif isinstance(type_annotation, str):
        type_annotation = TensorType((), type_annotation)
    return Var(name_hint, type_annotation)


def const(value, dtype=None, span=None):
    """A constant (relay.const) from a Python scalar, list, NumPy array or NDArray. Without a
    dtype, Python ints are int32 and floats float32 (as TVM)."""
    if isinstance(value, (numbers.Number, bool, list, _np.generic)) and not isinstance(
        value, _np.ndarray
    ):
        value = _np.array(value, dtype=dtype)
    if not dtype:
        dtype = {_np.dtype("int64"): _np.int32, _np.dtype("float64"): _np.float32}.get(
            getattr(value, "dtype", None), None
        )
    if isinstance(value, (_np.ndarray, _np.generic)):
        if dtype is not None:
            value = value.astype(dtype)
        value = _nd.array(value)
    if not isinstance(value, _nd.NDArray):
        raise ValueError("value has to be scalar or NDArray")
    return Constant(value)


def bind(expr, binds):
    """TVM's relay.bind: replace free variables of ``expr`` by expressions; for a Function, the
    bound parameters leave its parameter list (ir::BindAsRelay)."""
    return _core.bind(expr, list(dict(binds).items()))


class Any:
    """relay.Any(): a dimension known only at run time (printed `?`). Shapes take it where they
    take an int; relaypass holds it as the dimension -1."""

    def __index__(self):
        return -1

    __int__ = __index__

    def __repr__(self):
        return "?"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Any) or other == -1

    def __hash__(self):
        return hash(-1)
