"""Scalars as TVM's Python API hands them out: a shape dimension or an integer attribute is an
IntImm (an int with ``.value`` and ``.dtype``), a float attribute a FloatImm. They are real
ints and floats, so ``int(d)``, ``d == 3`` and NumPy all work as with plain numbers."""


def _make_imm(cls, base, args):
    """An IntImm/FloatImm from TVM's (dtype, value) or from the number alone (the class's
    dtype)."""
    if len(args) == 2 and isinstance(args[0], str):
        dtype, value = args
        obj = base.__new__(cls, base(value))
        if dtype != cls.dtype:
            obj.dtype = dtype
        return obj
    return base.__new__(cls, *args)


class IntImm(int):
    """An integer constant (tvm.tir.IntImm): ``.value`` is the int itself. Made as TVM makes
    one, ``IntImm("int32", 1)``, or from an int alone (dtype int32)."""

    dtype = "int32"

    def __new__(cls, *args, span=None):
        return _make_imm(cls, int, args)

    @property
    def value(self):
        return int(self)


class IntImm64(IntImm):
    dtype = "int64"


class FloatImm(float):
    """A float constant (tvm.tir.FloatImm), made as ``FloatImm("float32", 0.5)`` or from a
    float alone (dtype float32)."""

    dtype = "float32"

    def __new__(cls, *args, span=None):
        return _make_imm(cls, float, args)

    @property
    def value(self):
        return float(self)
