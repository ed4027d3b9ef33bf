"""Elementwise and broadcast operators (tvm.relay.op.tensor), by TVM's names and signatures."""
from ._make import call
from .dyn import _make as _dyn_make


def _binary(name):
    def op(lhs, rhs):
        return call(name, [lhs, rhs])

    op.__name__ = name
    op.__doc__ = "Elementwise {} with NumPy-style broadcasting.".format(name)
    return op


def _unary(name):
    def op(data):
        return call(name, [data])

    op.__name__ = name
    op.__doc__ = "Elementwise {}.".format(name)
    return op


add = _binary("add")
subtract = _binary("subtract")
multiply = _binary("multiply")
divide = _binary("divide")
power = _binary("power")
maximum = _binary("maximum")
minimum = _binary("minimum")
equal = _binary("equal")
not_equal = _binary("not_equal")
less = _binary("less")
less_equal = _binary("less_equal")
greater = _binary("greater")
greater_equal = _binary("greater_equal")

negative = _unary("negative")
abs = _unary("abs")  # noqa: A001 (TVM's name)
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")  # noqa: A001
trunc = _unary("trunc")
sin = _unary("sin")
cos = _unary("cos")
erf = _unary("erf")
exp = _unary("exp")
log = _unary("log")
sqrt = _unary("sqrt")
rsqrt = _unary("rsqrt")
sigmoid = _unary("sigmoid")
tanh = _unary("tanh")


def clip(a, a_min, a_max):
    """Clip the elements of ``a`` to [a_min, a_max]."""
    return call("clip", [a], a_min=a_min, a_max=a_max)


def cast(data, dtype):
    """Cast ``data`` to ``dtype``."""
    return call("cast", [data], dtype=str(dtype))


floor_mod = _binary("floor_mod")
mod = _binary("mod")
logical_and = _binary("logical_and")
logical_or = _binary("logical_or")
logical_xor = _binary("logical_xor")
right_shift = _binary("right_shift")
left_shift = _binary("left_shift")
trunc_mod = _binary("trunc_mod")
floor_divide = _binary("floor_divide")
bitwise_and = _binary("bitwise_and")
bitwise_or = _binary("bitwise_or")
bitwise_xor = _binary("bitwise_xor")
bitwise_not = _unary("bitwise_not")
log2 = _unary("log2")
log10 = _unary("log10")


def copy(data):
    """A copy of ``data`` (TVM's relay.copy)."""
    return call("copy", [data])

tan = _unary("tan")
sinh = _unary("sinh")
cosh = _unary("cosh")
asin = _unary("asin")
acos = _unary("acos")
atan = _unary("atan")
asinh = _unary("asinh")
acosh = _unary("acosh")
atanh = _unary("atanh")
sign = _unary("sign")
logical_not = _unary("logical_not")
isnan = _unary("isnan")
isinf = _unary("isinf")
isfinite = _unary("isfinite")
zeros_like = _unary("zeros_like")
ones_like = _unary("ones_like")


def _shape_list(shape):
    if isinstance(shape, int):
        return [shape]
    return [int(d) for d in shape]


def full_like(data, fill_value):
    """``fill_value`` (a scalar expression) in ``data``'s shape and dtype."""
    from ..expr import RelayExpr, const

    if not isinstance(fill_value, RelayExpr):
        fill_value = const(fill_value)
    return call("full_like", [data, fill_value])


def full(fill_value, shape=None, dtype=""):
    """``fill_value`` (a scalar expression) broadcast to the static ``shape``."""
    from ..expr import RelayExpr, const

    if not isinstance(fill_value, RelayExpr):
        fill_value = const(fill_value)
    shape = _shape_or_expr(shape)
    if isinstance(shape, RelayExpr):
        return _dyn_make.full(fill_value, shape, dtype)
    return call("full", [fill_value], shape=_shape_list(shape), dtype=dtype)


def _shape_or_expr(shape):
    """A Constant shape as its values (the static op); another expression as it is (dyn)."""
    from ..expr import Constant

    if isinstance(shape, Constant):
        return [int(v) for v in shape.data.numpy().reshape(-1)]
    return shape


def zeros(shape, dtype):
    from ..expr import RelayExpr

    shape = _shape_or_expr(shape)
    if isinstance(shape, RelayExpr):
        return _dyn_make.zeros(shape, dtype)
    return call("zeros", [], shape=_shape_list(shape), dtype=dtype)


def ones(shape, dtype):
    from ..expr import RelayExpr

    shape = _shape_or_expr(shape)
    if isinstance(shape, RelayExpr):
        return _dyn_make.ones(shape, dtype)
    return call("ones", [], shape=_shape_list(shape), dtype=dtype)


def where(condition, x, y):
    """x where condition is true, else y; the three broadcast together."""
    return call("where", [condition, x, y])


def shape_of(data, dtype="int32"):
    """The shape of ``data`` as a 1-D tensor of ``dtype``."""
    return call("shape_of", [data], dtype=dtype)


def ndarray_size(data, dtype="int32"):
    """The number of elements of ``data`` as a scalar of ``dtype``."""
    return call("ndarray_size", [data], dtype=dtype)


def device_copy(data, src_device, dst_device):
    """TVM's device_copy: ``data`` copied from ``src_device`` to ``dst_device`` (Devices, device
    names or VirtualDevices; relaypass runs both on the CPU, so the value is unchanged)."""
    from .annotation import _make_virtual_device

    return call("device_copy", [data], src_virtual_device=_make_virtual_device(src_device),
                dst_virtual_device=_make_virtual_device(dst_device))
