"""Batched matrix multiplication as TOPI's NumPy reference computes it."""
import numpy as np


def batch_matmul(x, y, out_dtype=None, trans_x=False, trans_y=True):
    """x [batch, M, K] (or [batch, K, M] with trans_x) times y [batch, N, K] (trans_y, the
    default) or [batch, K, N]; a batch of 1 broadcasts. Both are cast to out_dtype (default:
    x's dtype) before multiplying. Returns out_dtype [batch, M, N]."""
    dtype = np.dtype(x.dtype if out_dtype is None else out_dtype)
    xx = np.asarray(x).astype(dtype)
    yy = np.asarray(y).astype(dtype)
    if trans_x:
        xx = np.swapaxes(xx, 1, 2)
    if trans_y:
        yy = np.swapaxes(yy, 1, 2)
    if xx.shape[0] != yy.shape[0] and 1 not in (xx.shape[0], yy.shape[0]):
        raise ValueError("batch sizes {} and {} do not broadcast".format(xx.shape[0], yy.shape[0]))
    return np.matmul(xx, yy).astype(dtype)
