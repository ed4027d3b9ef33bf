"""Shape and layout operators (tvm.relay.op.transform), by TVM's names and signatures."""
from ..expr import Tuple, TupleWrapper
from ._make import call


def expand_dims(data, axis, num_newaxis=1):
    return call("expand_dims", [data], axis=int(axis), num_newaxis=int(num_newaxis))


def squeeze(data, axis=None):
    if isinstance(axis, int):
        axis = [axis]
    return call("squeeze", [data], axis=axis)


def reshape(data, newshape, allowzero=False):
    if isinstance(newshape, int):
        newshape = [newshape]
    return call("reshape", [data], newshape=list(newshape), allowzero=allowzero)


def transpose(data, axes=None):
    if axes is not None:
        axes = list(axes)
    return call("transpose", [data], axes=axes)


def concatenate(data, axis):
    data = list(data)
    if not data:
        raise ValueError("relay.concatenate requires data to be non-empty.")
    if not isinstance(axis, int):
        raise ValueError("For now, we only support integer axis")
    return call("concatenate", [Tuple(data)], axis=axis)


def split(data, indices_or_sections, axis=0):
    """Split ``data`` into equal sections or at indices; returns a TupleWrapper."""
    if isinstance(indices_or_sections, int):
        ret_size = indices_or_sections
    else:
        indices_or_sections = list(indices_or_sections)
        ret_size = len(indices_or_sections) + 1
    return TupleWrapper(
        call("split", [data], indices_or_sections=indices_or_sections, axis=axis), ret_size
    )


def layout_transform(data, src_layout, dst_layout):
    return call("layout_transform", [data], src_layout=src_layout, dst_layout=dst_layout)


def repeat(data, repeats, axis):
    return call("repeat", [data], repeats=int(repeats), axis=axis)
