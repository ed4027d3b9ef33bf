"""relaypass.topi.testing (tvm.topi.testing): each NumPy reference function against an independent
computation: a small case worked out by hand, a naive loop over the definition, or a different
formula (e.g. a transposed convolution as the adjoint of a convolution). Each test says which."""
import itertools

import numpy as np
import pytest

import relaypass
from relaypass._errors import OpNotImplemented
from relaypass.topi import testing as tt

RNG = np.random.default_rng(7)


def rand(*shape, dtype="float32"):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


# --------------------------------------------------------------------------- the package


def test_topi_is_a_package_whose_other_names_are_placeholders():
    assert relaypass.topi.testing is tt
    for missing in (relaypass.topi.nn, relaypass.topi.cuda.schedule_x, tt.get_injective_schedule):
        with pytest.raises(OpNotImplemented):
            missing()


# ---------------------------------------------------------------------------- convolutions


def naive_conv(data, weight, stride, pad_before, dilation=None, out_size=None, groups=1):
    """Channel-first N-d convolution by loops over every output element (the definition)."""
    n_sp = data.ndim - 2
    dilation = dilation or (1,) * n_sp
    out_c = weight.shape[0]
    cg, og = data.shape[1] // groups, out_c // groups
    out = np.zeros((data.shape[0], out_c) + tuple(out_size))
    for n, f in itertools.product(range(data.shape[0]), range(out_c)):
        g = f // og
        for pos in itertools.product(*[range(o) for o in out_size]):
            acc = 0.0
            for c in range(cg):
                for tap in itertools.product(*[range(k) for k in weight.shape[2:]]):
                    idx = [p * s + t * d - b for p, s, t, d, b in
                           zip(pos, stride, tap, dilation, pad_before)]
                    if all(0 <= i < size for i, size in zip(idx, data.shape[2:])):
                        acc += data[(n, g * cg + c) + tuple(idx)] * weight[(f, c) + tap]
            out[(n, f) + pos] = acc
    return out


def test_conv2d_nchw_hand_case():
    # 3x3 input 0..8, a 2x2 kernel of ones, no padding: each output is a window sum, by hand
    # [[0+1+3+4, 1+2+4+5], [3+4+6+7, 4+5+7+8]].
    a = np.arange(9, dtype="int32").reshape(1, 1, 3, 3)
    w = np.ones((1, 1, 2, 2), dtype="int32")
    out = tt.conv2d_nchw_python(a, w, 1, 0)
    np.testing.assert_array_equal(out[0, 0], [[8, 12], [20, 24]])
    assert out.dtype == np.int32


@pytest.mark.parametrize("stride,padding,groups,pads", [
    (1, 1, 1, ((1, 1), (1, 1))),
    (2, (1, 0), 2, ((1, 0), (1, 0))),
    ((2, 1), (0, 1, 2, 1), 1, ((0, 1), (2, 1))),
    (1, "SAME", 2, ((1, 1), (1, 1))),
])
def test_conv2d_nchw_and_nhwc_against_loops(stride, padding, groups, pads):
    a = rand(2, 4, 5, 6)
    w = rand(6, 4 // groups, 3, 3)
    s = (stride, stride) if isinstance(stride, int) else stride
    (top, left), (bottom, right) = pads
    out_size = ((5 + top + bottom - 3) // s[0] + 1, (6 + left + right - 3) // s[1] + 1)
    ref = naive_conv(a.astype(np.float64), w.astype(np.float64), s, (top, left),
                     out_size=out_size, groups=groups)
    out = tt.conv2d_nchw_python(a, w, stride, padding, groups=groups)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    nhwc = tt.conv2d_nhwc_python(a.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), stride,
                                 padding, groups=groups)
    assert nhwc.dtype == np.float64
    np.testing.assert_allclose(nhwc, ref.transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_conv1d_ncw_with_dilation_against_loops():
    a = rand(1, 2, 9)
    w = rand(3, 2, 3)
    out = tt.conv1d_ncw_python(a, w, 2, (1, 2), 2)
    ref = naive_conv(a, w, (2,), (1,), dilation=(2,), out_size=((9 + 3 - 5) // 2 + 1,))
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)
    # "SAME" pads for the dilated kernel (extent 5): 2 on each side, 9 outputs at stride 1.
    assert tt.conv1d_ncw_python(a, w, 1, "SAME", 2).shape == (1, 3, 9)


def test_conv3d_ncdhw_and_ndhwc_against_loops():
    a = rand(1, 2, 4, 3, 4)
    w = rand(4, 1, 2, 2, 3)
    out = tt.conv3d_ncdhw_python(a, w, (1, 2, 1), 1, groups=2)
    ref = naive_conv(a, w, (1, 2, 1), (1, 1, 1), out_size=(5, 2, 4), groups=2)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    w_dhwio = w.transpose(2, 3, 4, 1, 0)
    nd = tt.conv3d_ndhwc_python(a.transpose(0, 2, 3, 4, 1), w_dhwio, (1, 2, 1), 1, groups=2)
    assert nd.dtype == np.float32
    np.testing.assert_allclose(nd, ref.transpose(0, 2, 3, 4, 1), rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    # <conv_transpose(x, w), y> == <x, conv2d(y, w)> with w read as OIHW: a different formula.
    x = rand(2, 3, 4, 5).astype(np.float64)
    w = rand(3, 2, 3, 3).astype(np.float64)  # [in_channel, num_filter, kh, kw]
    out = tt.conv2d_transpose_nchw_python(x, w, 2, 1, 0)
    assert out.shape == (2, 2, 7, 9)  # (in - 1) * 2 + 3 - 2
    y = rand(*out.shape).astype(np.float64)
    lhs = np.sum(out * y)
    rhs = np.sum(x * tt.conv2d_nchw_python(y, w, 2, 1))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)


def test_conv_transpose_hand_case_and_layouts():
    # One input pixel of value 1 at (0, 0), stride 2, a 2x2 kernel: the kernel copied at the top
    # left; the second pixel (0, 1) copies it 2 columns further right (by hand).
    x = np.array([[[[1.0, 2.0]]]])
    w = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    out = tt.conv2d_transpose_nchw_python(x, w, 2, 0, 1)
    np.testing.assert_array_equal(out[0, 0], [[1, 2, 2, 4, 0], [3, 4, 6, 8, 0], [0, 0, 0, 0, 0]])
    # NHWC with each weight format gives the same, laid out NHWC.
    xh = x.transpose(0, 2, 3, 1)
    for fmt, perm in (("IOHW", (0, 1, 2, 3)), ("OIHW", (1, 0, 2, 3)), ("HWIO", (2, 3, 0, 1)),
                      ("HWOI", (2, 3, 1, 0))):
        got = tt.conv2d_transpose_nhwc_python(xh, w.transpose(perm), fmt, 2, 0, (1, 1))
        np.testing.assert_array_equal(got, out.transpose(0, 2, 3, 1))


def test_conv1d_and_conv3d_transpose_as_scatter_loops():
    # By the definition: input element i reaches output i * stride + tap - pad_before.
    x = rand(1, 2, 4)
    w = rand(2, 3, 3)
    out = tt.conv1d_transpose_ncw_python(x, w, 2, 1, (1,))
    ref = np.zeros((1, 3, (4 - 1) * 2 + 3 + 1 - 2))
    for c, f, i, t in itertools.product(range(2), range(3), range(4), range(3)):
        o = i * 2 + t - 1
        if 0 <= o < ref.shape[2]:
            ref[0, f, o] += x[0, c, i] * w[c, f, t]
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)

    x3 = rand(1, 2, 2, 3, 2)
    w3 = rand(2, 1, 2, 2, 2)
    out3 = tt.conv3d_transpose_ncdhw_python(x3, w3, 1, 0, 0, groups=2)
    ref3 = np.zeros((1, 2, 3, 4, 3))
    for c, i, j, k, a, b, d in itertools.product(range(2), range(2), range(3), range(2),
                                                 range(2), range(2), range(2)):
        ref3[0, c, i + a, j + b, k + d] += x3[0, c, i, j, k] * w3[c, 0, a, b, d]
    np.testing.assert_allclose(out3, ref3, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("groups", [1, 4])
def test_conv2d_backward_weight_is_the_gradient(groups):
    # conv2d is linear in its weight, so <dy, conv2d(x, w)> == <dw, w> for every w.
    x = rand(2, 4, 6, 5).astype(np.float64)
    w = rand(4, 4 // groups, 3, 3).astype(np.float64)
    y = tt.conv2d_nchw_python(x, w, (2, 1), (1, 1), groups=groups)
    dy = rand(*y.shape).astype(np.float64)
    dw = tt.conv2d_backward_weight_python(dy, x, (3, 3), (2, 1), (1, 1), groups=groups, channels=4)
    assert dw.shape == w.shape
    np.testing.assert_allclose(np.sum(dy * y), np.sum(dw * w), rtol=1e-10)
    nhwc = tt.conv2d_backward_weight_python(dy.transpose(0, 2, 3, 1), x.transpose(0, 2, 3, 1),
                                            (3, 3), (2, 1), (1, 1), "NHWC", groups, 4)
    np.testing.assert_allclose(nhwc, dw.transpose(0, 2, 3, 1), rtol=1e-12)


def test_correlation_against_loops_and_hand_case():
    # kernel 1, no displacement: the channel mean of the product (by hand).
    d1 = np.array([[[[1.0, 2.0]], [[3.0, 4.0]]]])
    d2 = np.array([[[[5.0, 6.0]], [[7.0, 8.0]]]])
    out = tt.correlation_nchw_python(d1, d2, 1, 0, 1, 1, 0, True)
    np.testing.assert_allclose(out, [[[[(5 + 21) / 2, (12 + 32) / 2]]]])
    # A naive loop over the stated definition, subtraction variant, with padding and strides.
    a, b = rand(1, 2, 6, 7), rand(1, 2, 6, 7)
    k, md, s1, s2, pad = 3, 2, 1, 2, 2
    got = tt.correlation_nchw_python(a, b, k, md, s1, s2, pad, False)
    pa = np.pad(a, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    pb = np.pad(b, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    border = md + (k - 1) // 2
    oh, ow = (6 + 2 * pad - 2 * border) // s1, (7 + 2 * pad - 2 * border) // s1
    r = md // s2
    ref = np.zeros((1, (2 * r + 1) ** 2, oh, ow))
    for i, j, dy, dx in itertools.product(range(oh), range(ow), range(-r, r + 1), range(-r, r + 1)):
        q = (dy + r) * (2 * r + 1) + (dx + r)
        y1, x1 = i * s1 + md, j * s1 + md
        p1 = pa[0, :, y1:y1 + k, x1:x1 + k]
        p2 = pb[0, :, y1 + dy * s2:y1 + dy * s2 + k, x1 + dx * s2:x1 + dx * s2 + k]
        ref[0, q, i, j] = np.abs(p1 - p2).sum() / (k * k * 2)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-7)


# ------------------------------------------------------------------------------- pooling


def test_poolnd_hand_cases():
    x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    # 2x2 windows at stride 2, by hand.
    mx = tt.poolnd_python(x, (2, 2), (2, 2), (1, 1), (0, 0), (0, 0), "max")
    np.testing.assert_array_equal(mx[0, 0], [[5, 7], [13, 15]])
    av = tt.poolnd_python(x, (2, 2), (2, 2), (1, 1), (0, 0), (0, 0), "avg")
    np.testing.assert_array_equal(av[0, 0], [[2.5, 4.5], [10.5, 12.5]])
    # Padding 1 before: the top-left window holds only x[0, 0] = 0 of the data; averaged over 4
    # with count_include_pad, over 1 without.
    v = np.ones((1, 1, 2, 2), dtype="float32")
    inc = tt.poolnd_python(v, (2, 2), (2, 2), (1, 1), (1, 1), (1, 1), "avg", True)
    exc = tt.poolnd_python(v, (2, 2), (2, 2), (1, 1), (1, 1), (1, 1), "avg", False)
    np.testing.assert_array_equal(inc[0, 0], [[0.25, 0.25], [0.25, 0.25]])
    np.testing.assert_array_equal(exc[0, 0], [[1, 1], [1, 1]])
    # Max over negative data: padding counts as 0 with count_include_pad, is ignored without.
    neg = -v
    np.testing.assert_array_equal(
        tt.poolnd_python(neg, (2, 2), (2, 2), (1, 1), (1, 1), (1, 1), "max", True)[0, 0], 0)
    np.testing.assert_array_equal(
        tt.poolnd_python(neg, (2, 2), (2, 2), (1, 1), (1, 1), (1, 1), "max", False)[0, 0], -1)


def test_poolnd_ceil_mode_dilation_and_layout():
    # 1-D, 5 elements, kernel 2 at stride 2: floor gives 2 windows, ceil a third holding only
    # x[4] (by hand).
    x = np.array([[[1.0, 2.0, 3.0, 4.0, 5.0]]], dtype="float32")
    np.testing.assert_array_equal(
        tt.poolnd_python(x, [2], [2], [1], [0], [0], "avg", ceil_mode=True)[0, 0], [1.5, 3.5, 5])
    assert tt.poolnd_python(x, [2], [2], [1], [0], [0], "avg").shape == (1, 1, 2)
    # Dilation 2: windows {0, 2}, {1, 3}, {2, 4}.
    np.testing.assert_array_equal(
        tt.poolnd_python(x, [2], [1], [2], [0], [0], "max")[0, 0], [3, 4, 5])
    # NDHWC data gives the NCDHW answer, transposed.
    d = rand(1, 2, 4, 5, 3)
    ncdhw = tt.poolnd_python(d, [2, 2, 2], [1, 2, 1], [1, 1, 1], [0, 1, 0], [1, 0, 1], "max",
                             count_include_pad=False)
    ndhwc = tt.poolnd_python(d.transpose(0, 2, 3, 4, 1), [2, 2, 2], [1, 2, 1], [1, 1, 1],
                             [0, 1, 0], [1, 0, 1], "max", count_include_pad=False, layout="NDHWC")
    np.testing.assert_array_equal(ndhwc, ncdhw.transpose(0, 2, 3, 4, 1))


def test_poolnd_against_loops():
    # The definition, window by window, for 2-D max and avg with padding and strides.
    x = rand(2, 3, 7, 6)
    k, s, pb, pa = (3, 2), (2, 1), (1, 0), (1, 1)
    oh, ow = (7 + 2 - 3) // 2 + 1, (6 + 1 - 2) // 1 + 1
    for pool_type in ("max", "avg"):
        got = tt.poolnd_python(x, k, s, (1, 1), pb, pa, pool_type, count_include_pad=False)
        ref = np.zeros((2, 3, oh, ow), dtype="float32")
        for i, j in itertools.product(range(oh), range(ow)):
            rows = [r for r in range(i * s[0] - pb[0], i * s[0] - pb[0] + k[0]) if 0 <= r < 7]
            cols = [c for c in range(j * s[1] - pb[1], j * s[1] - pb[1] + k[1]) if 0 <= c < 6]
            win = x[:, :, rows][:, :, :, cols]
            ref[:, :, i, j] = win.max(axis=(2, 3)) if pool_type == "max" else win.mean(axis=(2, 3))
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_pool_grad_nchw():
    x = np.array([[[[1.0, 5.0, 2.0, 0.0],
                    [3.0, 4.0, 9.0, 1.0],
                    [0.0, 2.0, 1.0, 1.0],
                    [7.0, 1.0, 3.0, 8.0]]]])
    og = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    # max: each window's gradient lands on its largest element (5, 9, 7, 8), by hand.
    mx = tt.pool_grad_nchw(x, og, (2, 2), (2, 2), (0, 0, 0, 0), "max", False)
    expect = np.zeros((4, 4))
    expect[0, 1], expect[1, 2], expect[3, 0], expect[3, 3] = 1, 2, 3, 4
    np.testing.assert_array_equal(mx[0, 0], expect)
    # avg: spread evenly over the window's 4 elements.
    av = tt.pool_grad_nchw(x, og, (2, 2), (2, 2), (0, 0, 0, 0), "avg", False)
    np.testing.assert_array_equal(av[0, 0], np.kron(og[0, 0] / 4, np.ones((2, 2))))
    # With padding 1 on top/left and a 2x2 window at stride 2 over a 2x2 input, window (0, 0)
    # holds only x[0, 0]: all of its gradient (excluding pads) or a quarter (including them).
    ones = np.ones((1, 1, 2, 2))
    og2 = np.ones((1, 1, 2, 2))
    exc = tt.pool_grad_nchw(ones, og2, (2, 2), (2, 2), (1, 1, 1, 1), "avg", False, False)
    inc = tt.pool_grad_nchw(ones, og2, (2, 2), (2, 2), (1, 1, 1, 1), "avg", False, True)
    np.testing.assert_array_equal(exc[0, 0], np.ones((2, 2)))
    np.testing.assert_array_equal(inc[0, 0], np.full((2, 2), 0.25))
    assert mx.dtype == np.float64


def test_adaptive_pool():
    # 5 -> 3: windows [0, 2), [1, 4), [3, 5) (floor(o * 5 / 3) to ceil((o + 1) * 5 / 3)).
    x = np.array([[[1.0, 2.0, 3.0, 4.0, 5.0]]], dtype="float32")
    np.testing.assert_allclose(tt.adaptive_pool(x, 3, "avg", "NCW")[0, 0], [1.5, 3, 4.5])
    np.testing.assert_allclose(tt.adaptive_pool(x, (3,), "max", "NCW")[0, 0], [2, 4, 5])
    # Output size 1 is global pooling; the input's size is the identity.
    d = rand(2, 3, 4, 5)
    np.testing.assert_allclose(tt.adaptive_pool(d, (1, 1), "avg", "NCHW"),
                               d.mean(axis=(2, 3), keepdims=True), rtol=1e-6)
    np.testing.assert_array_equal(tt.adaptive_pool(d, (4, 5), "max", "NCHW"), d)
    last = tt.adaptive_pool(d.transpose(0, 2, 3, 1), (3, 2), "max", "NHWC")
    np.testing.assert_array_equal(last, tt.adaptive_pool(d, (3, 2), "max", "NCHW")
                                  .transpose(0, 2, 3, 1))
    d3 = rand(1, 2, 3, 4, 5)
    np.testing.assert_allclose(tt.adaptive_pool(d3, (1, 1, 1), "max", "NCDHW"),
                               d3.max(axis=(2, 3, 4), keepdims=True))


# -------------------------------------------------------------------------------- resize


def test_resize2d_nearest_and_linear_hand_cases():
    x = np.array([[[[0.0, 1.0], [2.0, 3.0]]]], dtype="float32")
    # nearest, asymmetric, scale 2: every pixel doubled (by hand).
    near = tt.resize2d_python(x, (2, 2), "NCHW", "nearest_neighbor", "asymmetric")
    np.testing.assert_array_equal(near[0, 0], np.kron(x[0, 0], np.ones((2, 2))))
    # linear, align_corners, 2 -> 3: the corners kept, the middles averaged.
    lin = tt.resize2d_python(x, (1.5, 1.5), "NCHW", "linear", "align_corners")
    np.testing.assert_allclose(lin[0, 0], [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]])
    # half_pixel, 2 -> 4 along width only: sources -0.25, 0.25, 0.75, 1.25, clamped at the ends.
    hp = tt.resize2d_python(x, (1, 2), "NCHW", "linear", "half_pixel")
    np.testing.assert_allclose(hp[0, 0, 0], [0, 0.25, 0.75, 1])
    # NHWC gives the NCHW answer transposed.
    d = rand(1, 3, 4, 5)
    ref = tt.resize2d_python(d, (2, 1.5), "NCHW", "linear", "half_pixel")
    got = tt.resize2d_python(d.transpose(0, 2, 3, 1), (2, 1.5), "NHWC", "linear", "half_pixel")
    np.testing.assert_allclose(got, ref.transpose(0, 2, 3, 1), rtol=1e-6)
    assert got.dtype == np.float32 and got.shape == (1, 8, 8, 3)


def test_resize_against_per_pixel_formula():
    # Bilinear by the per-pixel formula (4 neighbours, weights from the fractional parts).
    d = rand(1, 2, 3, 4)
    got = tt.resize2d_python(d, (2, 1.5), "NCHW", "linear", "asymmetric")
    ref = np.zeros((1, 2, 6, 6))
    for i, j in itertools.product(range(6), range(6)):
        y, x = i * 3 / 6, j * 4 / 6
        y0, x0 = int(np.floor(y)), int(np.floor(x))
        y1, x1 = min(y0 + 1, 2), min(x0 + 1, 3)
        fy, fx = y - y0, x - x0
        ref[..., i, j] = ((1 - fy) * ((1 - fx) * d[..., y0, x0] + fx * d[..., y0, x1])
                          + fy * ((1 - fx) * d[..., y1, x0] + fx * d[..., y1, x1]))
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_resize_cubic_reproduces_constants_and_ramps():
    # Keys' cubic weights sum to 1 and reproduce a linear ramp (away from the clamped border).
    const = np.full((1, 1, 4, 4), 3.0)
    np.testing.assert_allclose(tt.resize2d_python(const, (2, 2), "NCHW", "cubic", "half_pixel"),
                               3.0, rtol=1e-12)
    ramp = np.arange(8, dtype=np.float64).reshape(1, 1, 1, 8)
    out = tt.resize2d_python(ramp, (1, 2), "NCHW", "cubic", "asymmetric")
    np.testing.assert_allclose(out[0, 0, 0, 2:12], np.arange(2, 12) / 2, rtol=1e-12)


def test_resize3d_and_resize1d():
    # Depth scale 1 leaves every depth slice resized as in 2-D.
    d = rand(1, 2, 3, 4, 5)
    got = tt.resize3d_python(d, (1, 2, 0.6), "NCDHW", "linear", "align_corners")
    for z in range(3):
        np.testing.assert_allclose(
            got[:, :, z], tt.resize2d_python(d[:, :, z], (2, 0.6), "NCHW", "linear",
                                             "align_corners"), rtol=1e-6)
    nd = tt.resize3d_python(d.transpose(0, 2, 3, 4, 1), (1, 2, 0.6), "NDHWC", "linear",
                            "align_corners")
    np.testing.assert_allclose(nd, got.transpose(0, 2, 3, 4, 1), rtol=1e-6)
    # nearest, align_corners rounds half up: 3 -> 5 maps outputs to sources 0, .5, 1, 1.5, 2.
    x = np.array([[[10.0, 20.0, 30.0]]])
    np.testing.assert_array_equal(
        tt.resize1d_python(x, (5 / 3,), "NCW", "nearest_neighbor", "align_corners")[0, 0],
        [10, 20, 20, 30, 30])


# ------------------------------------------------------------------- softmax and friends


def test_softmax_and_log_softmax():
    x = np.array([[0.0, np.log(2.0)], [1.0, 1.0]])
    np.testing.assert_allclose(tt.softmax_python(x), [[1 / 3, 2 / 3], [0.5, 0.5]])
    np.testing.assert_allclose(tt.log_softmax_python(x), np.log([[1 / 3, 2 / 3], [0.5, 0.5]]))
    d = rand(2, 3, 4)
    e = np.exp(d.astype(np.float64))
    np.testing.assert_allclose(tt.softmax_python(d, axis=2), e / e.sum(axis=2, keepdims=True),
                               rtol=1e-5)
    np.testing.assert_allclose(tt.log_softmax_python(d, axis=0),
                               np.log(e / e.sum(axis=0, keepdims=True)), rtol=1e-5, atol=1e-6)


def test_lrn_against_loops():
    a = rand(2, 5, 3, 3)
    size, bias, alpha, beta = 3, 2.0, 1e-1, 0.75
    ref = np.zeros_like(a)
    for n, c, h, w in itertools.product(*[range(s) for s in a.shape]):
        window = a[n, max(0, c - 1):min(5, c + 2), h, w]
        ref[n, c, h, w] = a[n, c, h, w] / (bias + alpha * np.sum(window ** 2) / size) ** beta
    np.testing.assert_allclose(tt.lrn_python(a, size, 1, bias, alpha, beta), ref, rtol=1e-5)
    nhwc = tt.lrn_python(a.transpose(0, 2, 3, 1), size, 3, bias, alpha, beta)
    np.testing.assert_allclose(nhwc, ref.transpose(0, 2, 3, 1), rtol=1e-5)


def test_l2_normalize():
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    # Row norms 5 and 0 (eps 1 then keeps the zero row zero), by hand.
    np.testing.assert_allclose(tt.l2_normalize_python(x, 1.0, axis=[1]), [[0.6, 0.8], [0, 0]])
    np.testing.assert_allclose(tt.l2_normalize_python(x, 1e-12), x / 5.0)


def test_nll_loss():
    pred = np.log(np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]))
    targets = np.array([2, 0])
    weights = np.array([1.0, 2.0, 3.0])
    losses = [-np.log(0.5) * 3, -np.log(0.6) * 1]
    np.testing.assert_allclose(tt.nll_loss(pred, targets, weights, "none"), losses)
    np.testing.assert_allclose(tt.nll_loss(pred, targets, weights, "sum"), sum(losses))
    np.testing.assert_allclose(tt.nll_loss(pred, targets, weights, "mean"), sum(losses) / 4)
    # An ignored target contributes neither loss nor weight.
    np.testing.assert_allclose(tt.nll_loss(pred, np.array([2, 1]), weights, "mean", 1),
                               losses[0] / 3)
    # Spatial: predictions [N, C, d], targets [N, d].
    p = rand(2, 3, 4).astype(np.float64)
    t = RNG.integers(0, 3, size=(2, 4))
    ref = np.array([[-p[n, t[n, i], i] * weights[t[n, i]] for i in range(4)] for n in range(2)])
    np.testing.assert_allclose(tt.nll_loss(p, t, weights, "none"), ref)


# -------------------------------------------------------------------- indexing and layout


def test_strided_slice_and_set():
    x = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(tt.strided_slice_python(x, [1, 0], [2, 3], [1, 2]),
                                  x[1:2, 0:3:2, :])
    np.testing.assert_array_equal(tt.strided_slice_python(x, [0, 2, 3], [2, 0, 0], [1, -1, -2]),
                                  x[0:2, 2:0:-1, 3:0:-2])
    # size mode: end is a length (-1: to the end), strides are ignored.
    np.testing.assert_array_equal(
        tt.strided_slice_python(x, [1, 1, 0], [1, -1, 2], [2, 2, 2], slice_mode="size"),
        x[1:2, 1:, 0:2])
    # axes: begin/end/strides apply to the listed axes only.
    np.testing.assert_array_equal(tt.strided_slice_python(x, [1], [4], [2], axes=[2]),
                                  x[:, :, 1:4:2])
    out = tt.strided_set_python(x, np.zeros((2, 2, 4)), [0, 1], [2, 3], None)
    expect = x.copy()
    expect[:, 1:3] = 0
    np.testing.assert_array_equal(out, expect)
    assert x[0, 1, 0] == 4  # the input is not changed


def test_gather_one_hot_dilate():
    data = np.array([[1, 2], [3, 4]])
    # gather along axis 1 picks per row, by hand.
    np.testing.assert_array_equal(tt.gather_python(data, 1, np.array([[0, 0], [1, 0]])),
                                  [[1, 1], [4, 3]])
    wide = np.array([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(tt.gather_python(wide, 0, np.array([[1, 0, 1]])), [[4, 2, 6]])
    oh = tt.one_hot(np.array([0, 2, 5]), 1.0, 0.0, 3, -1, "float32")
    np.testing.assert_array_equal(oh, [[1, 0, 0], [0, 0, 1], [0, 0, 0]])
    assert oh.dtype == np.float32
    np.testing.assert_array_equal(tt.one_hot(np.array([1, 0]), 5, -1, 3, 0, "int32"),
                                  [[-1, 5], [5, -1], [-1, -1]])
    dil = tt.dilate_python(np.array([[1, 2], [3, 4]], dtype="int8"), (1, 3), 9)
    np.testing.assert_array_equal(dil, [[1, 9, 9, 2], [3, 9, 9, 4]])
    assert dil.dtype == np.int8


def test_sequence_mask():
    data = np.ones((3, 2, 1), dtype="float32")  # [MAX_LENGTH, batch, 1]
    out = tt.sequence_mask(data, np.array([1, 3]), -5.0, 0)
    np.testing.assert_array_equal(out[:, :, 0], [[1, 1], [-5, 1], [-5, 1]])
    out1 = tt.sequence_mask(data.transpose(1, 0, 2), np.array([2, 0]), 0.0, 1)
    np.testing.assert_array_equal(out1[:, :, 0], [[1, 1, 0], [0, 0, 0]])


def test_matrix_set_diag():
    x = np.zeros((3, 3), dtype="int32")
    np.testing.assert_array_equal(tt.matrix_set_diag(x, np.array([1, 2])),
                                  [[1, 0, 0], [0, 2, 0], [0, 0, 0]])
    np.testing.assert_array_equal(tt.matrix_set_diag(x, np.array([7, 8]), k=-1),
                                  [[0, 0, 0], [7, 0, 0], [0, 8, 0]])
    # Band k = (-1, 1), rows of `diag` from the highest diagonal down. RIGHT_LEFT: the
    # superdiagonal (length 2) right-aligned, the subdiagonal left-aligned (by hand).
    diag = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 0]])
    np.testing.assert_array_equal(tt.matrix_set_diag(x, diag, k=(-1, 1)),
                                  [[3, 1, 0], [6, 4, 2], [0, 7, 5]])
    left = np.array([[1, 2, 0], [3, 4, 5], [0, 6, 7]])
    np.testing.assert_array_equal(tt.matrix_set_diag(x, left, k=(-1, 1), align="LEFT_RIGHT"),
                                  [[3, 1, 0], [6, 4, 2], [0, 7, 5]])


def test_batch_matmul():
    x = rand(3, 2, 4)
    y = rand(3, 5, 4)
    # The default trans_y=True: y is [batch, N, K]; compared with an einsum.
    np.testing.assert_allclose(tt.batch_matmul(x, y), np.einsum("bmk,bnk->bmn", x, y), rtol=1e-5)
    y1 = rand(1, 4, 5)
    np.testing.assert_allclose(tt.batch_matmul(x, y1, trans_y=False),
                               np.einsum("bmk,kn->bmn", x, y1[0]), rtol=1e-5)
    xt = rand(1, 4, 2)
    np.testing.assert_allclose(tt.batch_matmul(xt, y, trans_x=True),
                               np.einsum("km,bnk->bmn", xt[0], y), rtol=1e-5)
    a = np.full((1, 1, 3), 100, dtype="int8")
    out = tt.batch_matmul(a, a, out_dtype="int32")  # cast before multiplying: no int8 overflow
    assert out.dtype == np.int32 and out[0, 0, 0] == 30000


# --------------------------------------------------------------------------- searchsorted


def test_searchsorted_ref_by_hand_and_by_loop():
    # by hand: [1, 3, 3, 5]; 3 goes before the 3s (left) or after them (right)
    seq = np.array([1.0, 3.0, 3.0, 5.0], "float32")
    vals = np.array([[0.0, 3.0, 6.0], [3.0, 1.0, 4.0]], "float32")  # a 1-D sequence serves every row
    left = tt.searchsorted_ref(seq, vals, False, "int32")
    np.testing.assert_array_equal(left, [[0, 1, 4], [1, 0, 3]])
    assert left.dtype == np.int32
    right = tt.searchsorted_ref(seq, vals, True, "int64")
    np.testing.assert_array_equal(right, [[0, 3, 4], [3, 1, 3]])
    assert right.dtype == np.int64
    # N-D: row i of the values searches row i of the sequence (a naive count)
    seqs = np.sort(rand(2, 3, 6), axis=-1)
    vals = rand(2, 3, 4)
    got = tt.searchsorted_ref(seqs, vals, False, "int32")
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert got[i, j, k] == np.sum(seqs[i, j] < vals[i, j, k])
