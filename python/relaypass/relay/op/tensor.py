"""Elementwise and broadcast operators (tvm.relay.op.tensor), by TVM's names and signatures."""
from ._make import call


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
