"""searchsorted_ref: NumPy's searchsorted row by row, the reference of relay.searchsorted."""
import numpy as np


def searchsorted_ref(sorted_sequence, values, right, out_dtype):
    """For each row of ``values`` (its last axis), the insertion indices into the matching row
    of ``sorted_sequence`` (or into ``sorted_sequence`` itself when it is 1-D): the first index
    whose element is >= the value, or > it when ``right``; shaped as ``values``, in
    ``out_dtype``."""
    sorted_sequence = np.asarray(sorted_sequence)
    values = np.asarray(values)
    side = "right" if right else "left"
    value_rows = values.reshape(-1, values.shape[-1]) if values.ndim else values.reshape(1, 1)
    if sorted_sequence.ndim == 1:
        seq_rows = [sorted_sequence] * value_rows.shape[0]
    else:
        seq_rows = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    out = np.empty(value_rows.shape, dtype=out_dtype)
    for i, row in enumerate(value_rows):
        out[i] = np.searchsorted(seq_rows[i], row, side=side)
    return out.reshape(values.shape)
