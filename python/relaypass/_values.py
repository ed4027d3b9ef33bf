"""Scalars as TVM's Python API hands them out: a shape dimension or an integer attribute is an
IntImm (an int with ``.value`` and ``.dtype``), a float attribute a FloatImm. They are real
ints and floats, so ``int(d)``, ``d == 3`` and NumPy all work as with plain numbers."""


class IntImm(int):
    """An integer constant (tvm.tir.IntImm): ``.value`` is the int itself."""

    dtype = "int32"

    @property
    def value(self):
        return int(self)


class IntImm64(IntImm):
    dtype = "int64"


class FloatImm(float):
    """A float constant (tvm.tir.FloatImm)."""

    dtype = "float32"

    @property
    def value(self):
        return float(self)
