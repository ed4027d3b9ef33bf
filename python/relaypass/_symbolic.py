"""Symbolic dimensions: TVM's tir.Var / tir.SizeVar (``te.var``, ``te.size_var``) in shapes.

A variable used in a shape becomes one of the library's symbolic dimensions (ir/type.h): types
print its name, relations that copy a dimension keep it, and ``TensorType.shape`` gives back this
same Python object, so ``checked_type == relay.TensorType((n, 3))`` holds as in TVM. Arithmetic
on the variables (``n * 2``) is TIR, which relaypass does not have: it raises."""
from ._errors import OpNotImplemented

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
            "arithmetic on the symbolic dimension '{}' ({}) is TIR, which relaypass does not "
            "implement".format(self.name, self._kind)
        )

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _arith
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __neg__ = _arith

    def __repr__(self):
        return self.name

    __str__ = __repr__


class SymbolicSizeVar(SymbolicVar):
    """tvm.tir.SizeVar: a SymbolicVar known to be non-negative."""


def var_for_dim(dim):
    """The variable of symbolic dimension ``dim`` (one made from the library's name if Python
    never saw it)."""
    var = _vars_by_dim.get(dim)
    if var is None:
        from . import _core

        var = SymbolicVar(_core.symbolic_dim_name(dim))
        var._dim = dim
        _vars_by_dim[dim] = var
    return var
