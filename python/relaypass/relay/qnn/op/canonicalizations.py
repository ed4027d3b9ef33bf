"""Integer lookup tables for unary functions of quantized tensors (TVM's
relay.qnn.op.canonicalizations: create_integer_lookup_table, create_integer_lookup_op).

The table maps every bit pattern of the input dtype to the quantized value of the function of its
dequantized value; the op gathers from it. TVM's graph reinterprets the input as unsigned and
gathers; here the index is the input cast to int32 taken modulo 2^bits (the same bit pattern's
position), and `take` keeps the input's shape."""
from typing import Callable

import numpy as np

from .... import IRModule
from ... import op as _op
from ...build_module import create_executor
from ...expr import const
from . import qnn as _qnn


def run_const_expr(expr):
    """The value of a closed expression as a NumPy array."""
    mod = IRModule.from_expr(expr)
    return create_executor("vm", mod=mod).evaluate()().numpy()


def _check_integer(in_dtype, out_dtype):
    if not np.issubdtype(np.dtype(in_dtype), np.integer) or not np.issubdtype(
            np.dtype(out_dtype), np.integer):
        raise ValueError(
            f"Only integer dtypes allowed got {in_dtype} and {out_dtype} for in and out dtypes.")


def create_integer_lookup_table(
    floating_point_func: Callable[[np.ndarray], np.ndarray],
    input_scale,
    input_zero_point,
    output_scale,
    output_zero_point,
    in_axis: int = -1,
    out_axis: int = -1,
    in_dtype: str = "uint8",
    out_dtype: str = "uint8",
) -> np.ndarray:
    """The quantized value of ``floating_point_func`` for each bit pattern of ``in_dtype``, in
    the order of the patterns read as unsigned integers (0 .. 2^bits - 1)."""
    _check_integer(in_dtype, out_dtype)
    bits = np.iinfo(in_dtype).bits
    patterns = np.arange(0, 2**bits, dtype=f"uint{bits}").view(in_dtype)
    dequantized = run_const_expr(
        _qnn.dequantize(const(patterns, dtype=in_dtype), input_scale, input_zero_point,
                        axis=in_axis))
    results = const(floating_point_func(dequantized))
    return run_const_expr(
        _qnn.quantize(results, output_scale, output_zero_point, axis=out_axis,
                      out_dtype=out_dtype))


def create_integer_lookup_op(
    input_arg,
    floating_point_func: Callable[[np.ndarray], np.ndarray],
    in_scale,
    in_zero_point,
    out_scale,
    out_zero_point,
    in_axis: int = -1,
    out_axis: int = -1,
    in_dtype: str = "uint8",
    out_dtype: str = "uint8",
):
    """``input_arg`` mapped through the lookup table of ``floating_point_func`` (per-tensor
    constant scales and zero points)."""
    in_scale = in_scale.data.numpy().item()
    in_zero_point = in_zero_point.data.numpy().item()
    out_scale = out_scale.data.numpy().item()
    out_zero_point = out_zero_point.data.numpy().item()
    table = create_integer_lookup_table(
        floating_point_func,
        const(in_scale, "float32"),
        const(in_zero_point, dtype="int32"),
        const(out_scale, "float32"),
        const(out_zero_point, dtype="int32"),
        in_axis=in_axis,
        out_axis=out_axis,
        in_dtype=in_dtype,
        out_dtype=out_dtype,
    )
    bits = np.iinfo(in_dtype).bits
    index = _op.cast(input_arg, "int32")
    if np.issubdtype(np.dtype(in_dtype), np.signedinteger):
        index = _op.floor_mod(index, const(2**bits, "int32"))
    return _op.take(const(table), index)
