"""Reductions (tvm.relay.op.reduce), by TVM's names and signatures."""
from ._make import call


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
