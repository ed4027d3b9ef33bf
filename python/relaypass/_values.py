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


def const(value, dtype=None, span=None):
    """tvm.tir.const: an IntImm or FloatImm of ``dtype`` (default, as TVM infers it: bool for a
    bool, int32 for an int (int64 outside int32's range), float32 for a float (float64 outside
    float32's range))."""
    if dtype is None:
        if isinstance(value, bool):
            dtype = "bool"
        elif isinstance(value, int):
            dtype = "int32" if -2 ** 31 <= value < 2 ** 31 else "int64"
        elif isinstance(value, float):
            dtype = "float32" if -3.40282347e38 <= value <= 3.40282347e38 else "float64"
        else:
            raise TypeError("tvm.tir.const: cannot make a constant of {!r} without a dtype"
                            .format(value))
    dtype = str(dtype)
    if dtype.startswith("float") or dtype.startswith("bfloat"):
        return FloatImm(dtype, value)
    if dtype == "bool" or dtype.startswith("int") or dtype.startswith("uint"):
        return IntImm(dtype, int(value))
    raise TypeError("tvm.tir.const: unsupported dtype {!r}".format(dtype))
