"""Normalizations and losses: softmax, log_softmax, lrn, l2_normalize, nll_loss and the optical
flow correlation layer, as TOPI's NumPy reference functions compute them."""
import numpy as np


def softmax_python(a_np, axis=1):
    """exp(a - max) / sum(exp(a - max)) along axis; a_np's dtype."""
    shifted = a_np - np.max(a_np, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax_python(a_np, axis=1):
    """a - max - log(sum(exp(a - max))) along axis; a_np's dtype."""
    shifted = a_np - np.max(a_np, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def lrn_python(a_np, size, axis, bias, alpha, beta):
    """Local response normalization across channels: a / (bias + alpha * s / size) ** beta, s the
    sum of squares over the channels c - size // 2 .. c + size // 2 (cut at the ends) of axis
    `axis` (1 for NCHW, 3 for NHWC). The squares are summed in a_np's dtype."""
    a_np = np.asarray(a_np)
    radius = size // 2
    squares = np.moveaxis(a_np * a_np, axis, 0)
    n = squares.shape[0]
    sums = np.zeros_like(squares)
    for c in range(n):
        sums[c] = squares[max(0, c - radius):min(n, c + radius + 1)].sum(axis=0)
    sums = np.moveaxis(sums, 0, axis)
    return a_np / np.power(bias + alpha * sums / size, beta)


def l2_normalize_python(a_np, eps, axis=None):
    """a / sqrt(max(sum(a ** 2 over axis), eps)); axis a list of axes (None: all)."""
    a_np = np.asarray(a_np)
    axis = None if axis is None else tuple(axis) if not isinstance(axis, int) else axis
    sq = np.sum(np.power(a_np, 2.0), axis=axis, keepdims=True)
    return a_np / np.sqrt(np.maximum(sq, eps))


def nll_loss(predictions, targets, weights, reduction="mean", ignore_index=-100):
    """Negative log likelihood loss. predictions [N, C, d_1, ..., d_k], targets [N, d_1, ..., d_k]
    (class ids), weights [C]. Each element's loss is -predictions[n, t, ...] * weights[t] for its
    target t, 0 where t == ignore_index. reduction "none": those losses (float64, targets's
    shape); "sum": their sum; "mean": their sum over the sum of the weights of the targets not
    ignored."""
    predictions = np.asarray(predictions)
    targets = np.asarray(targets)
    weights = np.asarray(weights)
    kept = targets != ignore_index
    safe = np.where(kept, targets, 0)
    picked = np.take_along_axis(predictions, np.expand_dims(safe, 1), axis=1)[:, 0]
    w = np.where(kept, weights[safe], 0)
    losses = np.where(kept, -picked.astype(np.float64) * w, 0.0)
    if reduction == "mean":
        return np.sum(losses) / np.sum(w.astype(np.float64))
    if reduction == "sum":
        return np.sum(losses)
    return losses


def correlation_nchw_python(
    data1, data2, kernel_size, max_displacement, stride1, stride2, padding, is_multiply
):
    """The correlation layer of FlowNet, NCHW, as TOPI's reference computes it.

    Both inputs are zero-padded by `padding` on every side. Output (i, j) compares the
    kernel_size x kernel_size patch of data1 whose top-left corner is (i * stride1 +
    max_displacement, j * stride1 + max_displacement) with the patch of data2 displaced from it
    by (dy, dx) * stride2, dy and dx from -r to r (r = max_displacement // stride2); output
    channel q = (dy + r) * (2r + 1) + (dx + r). The comparison is the product (is_multiply) or
    the absolute difference, summed over the patch and the channels and divided by
    kernel_size ** 2 * channels. Output extent: (padded - 2 * (max_displacement +
    (kernel_size - 1) // 2)) // stride1. Returns float64."""
    data1 = np.asarray(data1, dtype=np.float64)
    data2 = np.asarray(data2, dtype=np.float64)
    batch, channels, height, width = data1.shape
    pad = [(0, 0), (0, 0), (padding, padding), (padding, padding)]
    p1, p2 = np.pad(data1, pad), np.pad(data2, pad)
    border = max_displacement + (kernel_size - 1) // 2
    out_h = (height + 2 * padding - 2 * border) // stride1
    out_w = (width + 2 * padding - 2 * border) // stride1
    radius = max_displacement // stride2
    grid = 2 * radius + 1
    out = np.zeros((batch, grid * grid, out_h, out_w))

    def window(arr, top, left):
        return arr[:, :, top:top + (out_h - 1) * stride1 + 1:stride1,
                   left:left + (out_w - 1) * stride1 + 1:stride1]

    for q in range(grid * grid):
        dy = (q // grid - radius) * stride2
        dx = (q % grid - radius) * stride2
        for h in range(kernel_size):
            for w in range(kernel_size):
                a = window(p1, max_displacement + h, max_displacement + w)
                b = window(p2, max_displacement + dy + h, max_displacement + dx + w)
                term = a * b if is_multiply else np.abs(a - b)
                out[:, q] += term.sum(axis=1)
    return out / float(kernel_size * kernel_size * channels)
