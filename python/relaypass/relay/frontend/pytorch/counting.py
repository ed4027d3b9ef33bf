"""Unique values and counts: aten::_unique2 (Relay's unique, sliced to the number of unique
values) and aten::bincount (a scatter-add into zeros as long as the largest value + 1), as TVM's
converters build them."""
import logging

from ... import expr as _expr
from ... import op as _op
from .registry import converter

logger = logging.getLogger("relaypass.frontend.pytorch")


@converter("aten::_unique2", needs=("unique",))
def unique(ctx, inputs, input_types):
    assert len(inputs) == 4, "aten::_unique2 takes 4 inputs, got {}".format(len(inputs))
    data, is_sorted, _return_inverse, return_counts = inputs
    if not is_sorted:
        logger.warning("TVM always assumes sorted=True for torch.unique")
    if return_counts:
        values, _, inverse, num_unique, counts = _op.unique(data, is_sorted=True,
                                                            return_counts=True)
        values = _op.strided_slice(values, begin=[0], end=num_unique, slice_mode="size")
        counts = _op.strided_slice(counts, begin=[0], end=num_unique, slice_mode="size")
        return (values, inverse, counts)
    values, _, inverse, num_unique = _op.unique(data, is_sorted=True, return_counts=False)
    values = _op.strided_slice(values, begin=[0], end=num_unique, slice_mode="size")
    return (values, inverse, None)


@converter("aten::bincount")
def bincount(ctx, inputs, input_types):
    data, weights = inputs[0], inputs[1]
    input_type = ctx.infer_dtype(data)
    extent = _op.max(data) + _expr.const(1, dtype=input_type)
    if weights is not None:
        out_dtype = ctx.infer_dtype(weights)
        updates = weights
    else:
        out_dtype = "int64"
        updates = _op.ones_like(data)
    counts = _op.zeros(_op.reshape(extent, [1]), out_dtype)
    out = _op.scatter_elements(counts, data, updates, axis=0, reduction="add")
    if input_type == "int32":  # torch's bincount is int64
        return _op.cast(out, "int64")
    return out
