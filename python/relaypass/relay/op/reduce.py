"""Reductions (tvm.relay.op.reduce), by TVM's names and signatures."""
from ..expr import Tuple, TupleWrapper
from ._make import call
from .tensor import exp, log, sqrt
from .transform import squeeze


def _reduce(name):
    def op(data, axis=None, keepdims=False, exclude=False):
        if isinstance(axis, int):
            axis = [axis]
        elif axis is not None:
            axis = list(axis)
        return call(name, [data], axis=axis, keepdims=keepdims, exclude=exclude)

    op.__name__ = name
    op.__doc__ = "Reduce ``data`` with {} over ``axis`` (all axes if None).".format(name)
    return op


sum = _reduce("sum")  # noqa: A001 (TVM's name)
mean = _reduce("mean")
max = _reduce("max")  # noqa: A001
min = _reduce("min")  # noqa: A001
prod = _reduce("prod")
all = _reduce("all")  # noqa: A001 (TVM's name)
any = _reduce("any")  # noqa: A001


def _axes(axis):
    return [axis] if isinstance(axis, int) else axis


def _variance(data, m, axis, keepdims, exclude, unbiased):
    return call("variance", [data, m], axis=axis, keepdims=keepdims, exclude=exclude,
                unbiased=unbiased)


def variance(data, axis=None, keepdims=False, exclude=False, unbiased=False):
    """TVM's relay.variance: the `variance` operator on ``data`` and its mean over ``axis``,
    divided by count - 1 when ``unbiased``."""
    axis = _axes(axis)
    return _variance(data, mean(data, axis, True, exclude), axis, keepdims, exclude, unbiased)


def std(data, axis=None, keepdims=False, exclude=False, unbiased=False):
    """TVM's relay.std: sqrt of variance."""
    return sqrt(variance(data, axis, keepdims, exclude, unbiased))


def mean_variance(data, axis=None, keepdims=False, exclude=False, unbiased=False):
    """TVM's relay.mean_variance: (mean, variance) as a tuple."""
    axis = _axes(axis)
    m = mean(data, axis, True, exclude)
    var = _variance(data, m, axis, keepdims, exclude, unbiased)
    if not keepdims:
        m = squeeze(m, axis=axis)
    return TupleWrapper(Tuple((m, var)), 2)


def mean_std(data, axis=None, keepdims=False, exclude=False):
    """TVM's relay.mean_std: (mean, standard deviation) as a tuple. As TVM v0.13's, the mean
    without keepdims is squeezed on every axis of extent 1, not only the reduced ones."""
    axis = _axes(axis)
    m = mean(data, axis, True, exclude)
    s = sqrt(_variance(data, m, axis, keepdims, exclude, False))
    if not keepdims:
        m = squeeze(m)
    return TupleWrapper(Tuple((m, s)), 2)


def logsumexp(data, axis=None, keepdims=False):
    """TVM's relay.logsumexp: max + log(sum(exp(data - max))) over ``axis``; without keepdims
    the result is squeezed as TVM squeezes it (``axis=None`` squeezes every axis of extent 1)."""
    axis = _axes(axis)
    max_x = max(data, axis, True)
    out_x = log(sum(exp(data - max_x), axis, True)) + max_x
    if not keepdims:
        out_x = squeeze(out_x, axis)
    return out_x


def _arg_reduce(name):
    def op(data, axis=None, keepdims=False, exclude=False, select_last_index=False):
        if isinstance(axis, int):
            axis = [axis]
        elif axis is not None:
            axis = list(axis)
        return call(name, [data], axis=axis, keepdims=keepdims,
                    select_last_index=select_last_index, exclude=exclude)

    op.__name__ = name
    op.__doc__ = "The int32 index of the {} over ``axis``.".format(name[3:])
    return op


argmax = _arg_reduce("argmax")
argmin = _arg_reduce("argmin")
