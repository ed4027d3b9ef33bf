"""Symbolic dimensions: TVM's tir.Var / tir.SizeVar (``te.var``, ``te.size_var``) in shapes.

A variable used in a shape becomes one of the library's symbolic dimensions (ir/type.h): types
print its name, relations that copy a dimension keep it, and ``TensorType.shape`` gives back this
same Python object, so ``checked_type == relay.TensorType((n, 3))`` holds as in TVM.

Integer arithmetic on them (``n + 2``, ``d2 * d3``, ``h // 2``, ``h % 2``, ``-n``) gives TVM's
tir.Add / Sub / Mul / FloorDiv / FloorMod expressions (SymbolicExpr): the library's dimension
expressions (ir/dim_expr.h), interned and folded as TVM's operators fold constants, so an
expression in a shape compares as TVM's structural equality does. Other TIR (``/``, casts,
floats, comparisons) is not available: it raises OpNotImplemented."""
import numbers

from ._errors import OpNotImplemented

_ADD, _SUB, _MUL, _FLOORDIV, _FLOORMOD, _MIN, _MAX = range(7)

# The library's dimension value of each variable used in a shape, to the variable itself.
_vars_by_dim = {}


class SymbolicVar:
    """tvm.tir.Var: a named integer variable, here only a dimension of a shape."""

    def __init__(self, name="v", dtype="int32", kind="tvm.tir.Var", span=None):
        self.name = str(name)
        self.dtype = dtype
        self._kind = kind
        self._dim = None

    @property
    def _relaypass_symbolic_dim(self):
        """The library's dimension for this variable, made the first time a shape uses it."""
        if self._dim is None:
            from . import _core

            self._dim = _core.new_symbolic_dim(self.name)
            _vars_by_dim[self._dim] = self
        return self._dim

    def __index__(self):
        raise OpNotImplemented(
            "symbolic dimension '{}' ({}) used as a number: relaypass takes a symbolic variable "
            "as a shape dimension only".format(self.name, self._kind)
        )

    __int__ = __index__

    def _arith(self, *args):
        raise OpNotImplemented(
            "this arithmetic on the symbolic dimension '{}' ({}) is TIR, which relaypass does "
            "not implement (it has +, -, *, // and % with integers and other symbolic "
            "dimensions)".format(self, self._kind)
        )

    __truediv__ = __rtruediv__ = __rmod__ = __pow__ = __rpow__ = _arith

    def __add__(self, other):
        return _combine(_ADD, self, other)

    def __radd__(self, other):
        return _combine(_ADD, other, self)

    def __sub__(self, other):
        return _combine(_SUB, self, other)

    def __rsub__(self, other):
        return _combine(_SUB, other, self)

    def __mul__(self, other):
        return _combine(_MUL, self, other)

    def __rmul__(self, other):
        return _combine(_MUL, other, self)

    def __floordiv__(self, other):
        return _combine(_FLOORDIV, self, other)

    def __rfloordiv__(self, other):
        return _combine(_FLOORDIV, other, self)

    def __mod__(self, other):
        return _combine(_FLOORMOD, self, other)

    def __neg__(self):
        # TVM's PrimExpr.__neg__: self * -1.
        return _combine(_MUL, self, -1)

    def __repr__(self):
        return self.name

    __str__ = __repr__


class SymbolicSizeVar(SymbolicVar):
    """tvm.tir.SizeVar: a SymbolicVar known to be non-negative."""


class SymbolicExpr(SymbolicVar):
    """TVM's tir.Add, Sub, Mul, FloorDiv, FloorMod of symbolic dimensions and integers (``a``
    and ``b`` as TVM's fields: SymbolicVar / SymbolicExpr or IntImm)."""

    def __init__(self, dim):
        from . import _core

        op, a_const, a, b_const, b = _core.dim_expr_parts(dim)
        super().__init__(_core.symbolic_dim_name(dim), "int32", _EXPR_KINDS[op])
        self._dim = dim
        self.a = _operand_value(a_const, a)
        self.b = _operand_value(b_const, b)


_EXPR_KINDS = ("tvm.tir.Add", "tvm.tir.Sub", "tvm.tir.Mul", "tvm.tir.FloorDiv",
               "tvm.tir.FloorMod", "tvm.tir.Min", "tvm.tir.Max")


def dim_min(a, b):
    """TVM's tir.Min of two dimensions (integers or symbolic), folded as TVM folds it."""
    return _combine(_MIN, a, b)


def dim_max(a, b):
    """TVM's tir.Max of two dimensions (integers or symbolic), folded as TVM folds it."""
    return _combine(_MAX, a, b)


def _operand_value(is_const, value):
    if is_const:
        from ._values import IntImm

        return IntImm(value)
    return var_for_dim(value)


def _operand(x):
    """(is_const, value) of an operand, or None if it is not an integer or symbolic dimension."""
    if isinstance(x, SymbolicVar):
        return False, x._relaypass_symbolic_dim
    if isinstance(x, bool):
        return None
    if isinstance(x, numbers.Integral):
        return True, int(x)
    value = getattr(x, "value", None)  # IntImm
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and (
            "int" in str(getattr(x, "dtype", "int"))):
        return True, int(value)
    return None


def _combine(op, lhs, rhs):
    from . import _core

    a, b = _operand(lhs), _operand(rhs)
    if a is None or b is None:
        var = lhs if isinstance(lhs, SymbolicVar) else rhs
        if not isinstance(var, SymbolicVar):
            raise OpNotImplemented("dimension arithmetic takes integers and symbolic dimensions, "
                                   "got {!r} and {!r}".format(lhs, rhs))
        return var._arith()
    dim = _core.make_dim_expr(op, a[0], a[1], b[0], b[1])
    if dim >= 0:
        from ._values import IntImm

        return IntImm(dim)
    return var_for_dim(dim)


def var_for_dim(dim):
    """The variable of symbolic dimension ``dim`` (one made from the library's name if Python
    never saw it)."""
    var = _vars_by_dim.get(dim)
    if var is None:
        from . import _core

        if _core.dim_expr_parts(dim) is not None:
            var = SymbolicExpr(dim)
        else:
            var = SymbolicVar(_core.symbolic_dim_name(dim))
            var._dim = dim
        _vars_by_dim[dim] = var
    return var
