"""Helpers shared by the reference functions: reading stride/padding arguments the way TOPI's
reference functions accept them, and the accumulation dtype."""
import numbers

import numpy as np


def as_tuple(value, n, what="value"):
    """An int or a sequence of n ints as a tuple of n ints."""
    if isinstance(value, numbers.Integral):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1 and n > 1:
        value = value * n
    if len(value) != n:
        raise ValueError("{} must be an int or {} ints, got {}".format(what, n, value))
    return value


def pad_before_after(padding, kernel):
    """TOPI's padding conventions (topi.nn.get_pad_tuple, get_pad_tuple3d, get_pad_tuple1d) for
    len(kernel) spatial axes, as (before, after) lists:

    - an int p: p on both sides of every axis;
    - len(kernel) ints: padding[i] on both sides of axis i;
    - 2 * len(kernel) ints: every axis's before-padding, then every axis's after-padding
      (2-D: top, left, bottom, right);
    - "VALID": none; "SAME": kernel - 1 in all, the larger half (when odd) before.
    """
    n = len(kernel)
    if isinstance(padding, str):
        if padding == "VALID":
            total = [0] * n
        elif padding == "SAME":
            total = [k - 1 for k in kernel]
        else:
            raise ValueError("Unknown padding option {}".format(padding))
    elif isinstance(padding, numbers.Integral):
        total = [2 * int(padding)] * n
    else:
        padding = [int(p) for p in padding]
        if len(padding) == 2 * n:
            return padding[:n], padding[n:]
        if len(padding) != n:
            raise ValueError(
                "Size of padding can only be {} or {}, got {}".format(n, 2 * n, len(padding))
            )
        total = [2 * p for p in padding]
    before = [(t + 1) // 2 for t in total]
    return before, [t - b for t, b in zip(total, before)]


def wide_dtype(dtype):
    """The dtype sums are accumulated in: float64 for floats, int64 / uint64 for integers."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iub":
        return np.dtype(np.uint64 if dtype.kind == "u" else np.int64)
    if dtype.kind == "c":
        return np.dtype(np.complex128)
    return np.dtype(np.float64)
