"""Elementwise arithmetic, comparisons, unary math and logical/bitwise ops (TVM's make_elemwise,
make_unary and their special cases)."""
import numpy as np

from ... import expr as _expr
from ... import op as _op
from . import lists
from .context import wrap_const
from .registry import converter


def _relay_op(name):
    return getattr(_op, name)


def binary(name):
    """inputs[0] OP inputs[1] after PyTorch's type promotion (TVM's make_elemwise)."""

    def convert(ctx, inputs, input_types):
        lhs, rhs = ctx.promote(inputs[:2], input_types[:2])
        return _relay_op(name)(lhs, rhs)

    return convert


def unary(name):
    """OP(inputs[0]), a Python scalar first made a constant (TVM's make_unary)."""

    def convert(ctx, inputs, input_types):
        (data,) = ctx.promote(inputs[:1], input_types[:1])
        return _relay_op(name)(data)

    return convert


_BINARY = {
    "aten::mul": "multiply",
    "aten::pow": "power",
    "aten::floor_divide": "floor_divide",
    "aten::fmod": "trunc_mod",
    "aten::remainder": "floor_mod",
    "aten::lt": "less",
    "aten::gt": "greater",
    "aten::le": "less_equal",
    "aten::ge": "greater_equal",
    "aten::ne": "not_equal",
    "aten::eq": "equal",
    "aten::__ior__": "bitwise_or",
    "aten::__iand__": "bitwise_and",
    "aten::__ixor__": "bitwise_xor",
    "aten::__lshift__": "left_shift",
    "aten::__rshift__": "right_shift",
}
for _kind, _name in _BINARY.items():
    converter(_kind, needs=(_name,))(binary(_name))

_UNARY = {
    "aten::abs": "abs",
    "aten::neg": "negative",
    "aten::cos": "cos",
    "aten::cosh": "cosh",
    "aten::sin": "sin",
    "aten::sinh": "sinh",
    "aten::tan": "tan",
    "aten::tanh": "tanh",
    "aten::acos": "acos",
    "aten::asin": "asin",
    "aten::atan": "atan",
    "aten::log": "log",
    "aten::log2": "log2",
    "aten::log10": "log10",
    "aten::exp": "exp",
    "aten::erf": "erf",
    "aten::trunc": "trunc",
    "aten::sign": "sign",
    "aten::sqrt": "sqrt",
    "aten::rsqrt": "rsqrt",
    "aten::ceil": "ceil",
    "aten::floor": "floor",
    "aten::round": "round",
    "aten::isfinite": "isfinite",
    "aten::isinf": "isinf",
    "aten::isnan": "isnan",
}
for _kind, _name in _UNARY.items():
    converter(_kind, needs=(_name,))(unary(_name))


@converter("aten::add")
def add(ctx, inputs, input_types):
    if input_types[0] == "ListType":
        if lists.is_adt_list(inputs[0]) or lists.is_adt_list(inputs[1]):
            return lists.concat(ctx, inputs[0], inputs[1])  # a list built at run time
        return list(inputs[0]) + list(inputs[1])
    if len(inputs) > 2 and inputs[2] not in (None, 1):
        lhs, rhs, alpha = ctx.promote(inputs[:3], input_types[:3])
        return _op.add(lhs, alpha * rhs)
    return binary("add")(ctx, inputs, input_types)


@converter("aten::sub")
def sub(ctx, inputs, input_types):
    if len(inputs) == 3:
        lhs, rhs, alpha = ctx.promote(inputs, input_types)
        return _op.subtract(lhs, alpha * rhs)
    lhs, rhs = ctx.promote(inputs, input_types)
    return _op.subtract(lhs, rhs)


@converter("aten::rsub")
def rsub(ctx, inputs, input_types):
    lhs, rhs, alpha = ctx.promote(inputs, input_types)
    return _op.subtract(rhs, alpha * lhs)


def _divide(ctx, inputs, input_types):
    # torch.div without rounding_mode divides integers as floats
    if all("int" in t for t in input_types[:2]):
        input_types = ["float32", "float32"] + list(input_types[2:])
        inputs = [
            _expr.const(v, dtype="float32") if np.isscalar(v) else _op.cast(v, "float32")
            for v in inputs[:2]] + list(inputs[2:])
    lhs, rhs = ctx.promote(inputs[:2], input_types[:2])
    return _op.divide(lhs, rhs)


converter("aten::div", "aten::true_divide")(_divide)


@converter("aten::maximum")
def maximum(ctx, inputs, input_types):
    lhs, rhs = ctx.promote(inputs[:2], input_types[:2])
    return _op.maximum(lhs, rhs)


@converter("aten::minimum")
def minimum(ctx, inputs, input_types):
    lhs, rhs = ctx.promote(inputs[:2], input_types[:2])
    return _op.minimum(lhs, rhs)


@converter("aten::log1p")
def log1p(ctx, inputs, input_types):
    return _op.log(inputs[0] + _expr.const(1, dtype=input_types[0]))


@converter("aten::square")
def square(ctx, inputs, input_types):
    return _op.power(inputs[0], _expr.const(2, input_types[0]))


@converter("aten::reciprocal")
def reciprocal(ctx, inputs, input_types):
    return _expr.const(1.0, dtype=input_types[0]) / inputs[0]


@converter("aten::lerp")
def lerp(ctx, inputs, input_types):
    if len(inputs) != 3:
        raise AssertionError("Wrong number of arguments ({}) to parse.".format(len(inputs)))
    start, end, weight = inputs
    return start + weight * (end - start)


@converter("aten::addcdiv")
def addcdiv(ctx, inputs, input_types):
    data, t1, t2, c = ctx.promote(inputs[:4], input_types[:4])
    return data + (c * (t1 / t2))


@converter("aten::addcmul")
def addcmul(ctx, inputs, input_types):
    data, t1, t2, c = ctx.promote(inputs[:4], input_types[:4])
    return data + (c * (t1 * t2))


@converter("aten::clamp")
def clamp(ctx, inputs, input_types):
    return _clamp(ctx, inputs[0], inputs[1], inputs[2])


@converter("aten::clamp_min")
def clamp_min(ctx, inputs, input_types):
    return _clamp(ctx, inputs[0], inputs[1], None)


@converter("aten::clamp_max")
def clamp_max(ctx, inputs, input_types):
    return _clamp(ctx, inputs[0], None, inputs[1])


def _clamp(ctx, data, low, high):
    dtype = ctx.infer_dtype(data)
    info = np.finfo(dtype) if "float" in dtype else np.iinfo(dtype)

    def bound(value, default):
        if value is None:
            return default
        if isinstance(value, _expr.Expr):
            folded, ok = ctx.try_infer_value(value)
            return float(folded) if ok else default
        return value

    return _op.clip(data, bound(low, info.min), bound(high, info.max))


@converter("aten::logical_not", "aten::__not__")
def logical_not(ctx, inputs, input_types):
    return _op.logical_not(_op.cast(wrap_const(inputs[0]), "bool"))


@converter("aten::logical_xor")
def logical_xor(ctx, inputs, input_types):
    return _op.logical_xor(_op.cast(inputs[0], "bool"), _op.cast(inputs[1], "bool"))


@converter("aten::logical_and", "aten::__and__")
def logical_and(ctx, inputs, input_types):
    return _op.logical_and(_op.cast(inputs[0], "bool"), _op.cast(inputs[1], "bool"))


@converter("aten::bitwise_not")
def bitwise_not(ctx, inputs, input_types):
    if input_types[0] == "bool":
        return _op.logical_not(_op.cast(inputs[0], "bool"))
    ctx.require("bitwise_not")
    return _op.bitwise_not(_op.cast(inputs[0], "int32"))


@converter("aten::bitwise_xor", needs=("bitwise_xor",))
def bitwise_xor(ctx, inputs, input_types):
    lhs, rhs = [
        _op.cast(v, "bool") if t == "bool" else _op.cast(v, "int32")
        for v, t in zip(inputs[:2], input_types[:2])]
    return _op.bitwise_xor(lhs, rhs)


@converter("aten::where")
def where(ctx, inputs, input_types):
    if len(inputs) == 1:
        ctx.require("argwhere")
        from .indexing import nonzero

        return nonzero(ctx, [inputs[0], True], input_types)
    x, y = ctx.promote(inputs[1:3], input_types[1:3])
    return _op.where(inputs[0], x, y)
