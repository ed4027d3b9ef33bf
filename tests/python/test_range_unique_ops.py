"""arange, meshgrid, argwhere, unique, image.resize3d, nn.cross_entropy_with_logits and
scatter_elements' "mean" through TVM's Python names, and the PyTorch converters that emit them
(and 3-D grid_sample, stft, torchvision's roi_align and deform_conv2d).

Expected values: NumPy's functions (numpy.arange, numpy.meshgrid, numpy.argwhere, numpy.unique)
for the operators, and PyTorch itself (the module run eagerly on the same input) for the
converters."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _run(func, *args, kind="graph"):
    mod = tvm.IRModule.from_expr(func)
    out = relay.create_executor(kind, mod=mod).evaluate()(*args)
    if hasattr(out, "fields"):
        return [o.numpy() for o in out.fields]
    if isinstance(out, (list, tuple)):
        return [o.numpy() for o in out]
    return out.numpy()


def _typed(expr):
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    return relay.transform.InferType()(mod)["main"].body.checked_type


def test_arange_static_when_bounds_are_constants():
    out = relay.arange(relay.const(1.0), relay.const(2.5), relay.const(0.5))
    assert _typed(out) == relay.TensorType((3,), "float32")
    np.testing.assert_allclose(_run(relay.Function([], out)), np.arange(1, 2.5, 0.5))
    ints = relay.arange(relay.const(5, "int64"), dtype="int64")
    np.testing.assert_array_equal(_run(relay.Function([], ints)), np.arange(5))


def test_arange_dynamic_when_a_bound_is_a_variable():
    stop = relay.var("stop", shape=(), dtype="int32")
    out = relay.arange(relay.const(0, "int32"), stop, relay.const(3, "int32"), dtype="int32")
    assert str(_typed(out)) == "Tensor[(?), int32]"
    # (The graph executor refuses `?` shapes, as TVM's: the VM and the debug executor run them.)
    for kind in ("debug", "vm"):
        res = _run(relay.Function([stop], out), np.array(10, "int32"), kind=kind)
        np.testing.assert_array_equal(res, np.arange(0, 10, 3))


def test_meshgrid_ij_and_xy():
    x = relay.var("x", shape=(3,), dtype="float32")
    y = relay.var("y", shape=(2,), dtype="float32")
    xs, ys = np.array([1, 2, 3], "float32"), np.array([4, 5], "float32")
    for indexing in ("ij", "xy"):
        grids = relay.meshgrid([x, y], indexing=indexing)
        res = _run(relay.Function([x, y], grids.astuple()), xs, ys)
        for got, want in zip(res, np.meshgrid(xs, ys, indexing=indexing)):
            np.testing.assert_array_equal(got, want)


def test_argwhere_rows_are_known_at_run_time():
    x = relay.var("x", shape=(3, 3), dtype="float32")
    assert str(_typed(relay.argwhere(x))) == "Tensor[(?, 2), int32]"
    data = np.array([[0, 1, 0], [2, 0, 9], [-1, -1, 0]], "float32")
    for kind in ("debug", "vm"):
        got = _run(relay.Function([x], relay.argwhere(x)), data, kind=kind)
        np.testing.assert_array_equal(got, np.argwhere(data))


@pytest.mark.parametrize("is_sorted", [True, False])
def test_unique_matches_numpy(is_sorted):
    x = relay.var("x", shape=(10,), dtype="int64")
    data = np.array([7, 3, 3, 9, 1, 7, 7, 0, 9, 3], "int64")
    out = relay.unique(x, is_sorted=is_sorted, return_counts=True)
    values, first, inverse, num, counts = _run(relay.Function([x], out.astuple()), data)
    want, want_first, want_inverse, want_counts = np.unique(
        data, return_index=True, return_inverse=True, return_counts=True)
    n = int(num[0])
    assert n == len(want)
    order = np.argsort(want_first) if not is_sorted else np.arange(n)  # by first occurrence
    np.testing.assert_array_equal(values[:n], want[order])
    np.testing.assert_array_equal(first[:n], want_first[order])
    np.testing.assert_array_equal(counts[:n], want_counts[order])
    np.testing.assert_array_equal(values[inverse], data)


def test_resize3d_nearest_doubles_each_voxel():
    x = relay.var("x", shape=(1, 1, 2, 2, 2))
    out = relay.image.resize3d(x, (4, 4, 4), None, "NCDHW", "nearest_neighbor", "asymmetric")
    data = np.arange(8, dtype="float32").reshape(1, 1, 2, 2, 2)
    want = data.repeat(2, axis=2).repeat(2, axis=3).repeat(2, axis=4)
    np.testing.assert_array_equal(_run(relay.Function([x], out), data), want)


def test_cross_entropy_with_logits_and_scatter_mean():
    p = relay.var("p", shape=(2, 3))
    t = relay.var("t", shape=(2, 3))
    pv = np.log(np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], "float32"))
    tv = np.array([[0, 0, 1], [1, 0, 0]], "float32")
    got = _run(relay.Function([p, t], relay.nn.cross_entropy_with_logits(p, t)), pv, tv)
    np.testing.assert_allclose(got, -(pv * tv).sum() / 2, rtol=1e-6)
    d = relay.var("d", shape=(4,))
    i = relay.var("i", shape=(2,), dtype="int64")
    u = relay.var("u", shape=(2,))
    out = relay.scatter_elements(d, i, u, axis=0, reduction="mean")
    got = _run(relay.Function([d, i, u], out), np.array([1, 2, 3, 4], "float32"),
               np.array([3, 0], "int64"), np.array([10, 20], "float32"))
    np.testing.assert_allclose(got, [10.5, 2, 3, 7])  # (4 + 10) / 2 and (1 + 20) / 2


# PyTorch converters: the expected values are PyTorch's.

def _torch_check(fn, inputs):
    torch = pytest.importorskip("torch")
    traced = torch.jit.trace(fn, inputs)
    infos = [("input{}".format(k), tuple(x.shape)) for k, x in enumerate(inputs)]
    mod, params = relay.frontend.from_pytorch(traced, infos)
    args = {"input{}".format(k): x.numpy() for k, x in enumerate(inputs)}
    out = relay.create_executor("vm", mod=mod, params=params).evaluate()(**args)
    got = [out.numpy()] if hasattr(out, "numpy") else [o.numpy() for o in out]
    with torch.no_grad():
        want = fn(*inputs)
    want = [w.numpy() for w in want] if isinstance(want, (tuple, list)) else [want.numpy()]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_torch_arange_roll_and_nonzero():
    torch = pytest.importorskip("torch")
    x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
    _torch_check(lambda a: a + torch.arange(3, dtype=torch.float32), [x])
    _torch_check(lambda a: torch.roll(a, shifts=(1, -1), dims=(0, 1)), [x])
    _torch_check(lambda a: torch.nonzero(a), [x])
    _torch_check(lambda a: torch.masked_select(a, a > 0), [x])


def test_torch_unique_and_bincount():
    torch = pytest.importorskip("torch")
    x = torch.tensor([5, 1, 5, 2, 2, 2, 0], dtype=torch.int64)
    _torch_check(lambda a: torch.unique(a, True, True, True), [x])
    _torch_check(lambda a: torch.bincount(a), [x])


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_torch_grid_sample_3d(mode, padding):
    torch = pytest.importorskip("torch")
    rng = np.random.RandomState(3)
    data = torch.from_numpy(rng.uniform(-1, 1, (2, 3, 3, 4, 5)).astype("float32"))
    # points beyond [-1, 1] too, so that the padding modes matter
    grid = torch.from_numpy(rng.uniform(-1.3, 1.3, (2, 4, 3, 2, 3)).astype("float32"))
    for align in (True, False):
        _torch_check(lambda x, g: torch.nn.functional.grid_sample(
            x, g, mode=mode, padding_mode=padding, align_corners=align), [data, grid])


@pytest.mark.parametrize("center,normalized,onesided", [(False, False, True), (True, True, True),
                                                         (True, False, False)])
def test_torch_stft(center, normalized, onesided):
    torch = pytest.importorskip("torch")
    data = torch.from_numpy(np.random.RandomState(4).uniform(-1, 1, (2, 16)).astype("float32"))
    window = torch.tensor([1.0, 2.0, 3.0, 2.0])
    _torch_check(lambda x, w: torch.stft(x, 4, hop_length=2, win_length=4, window=w,
                                         center=center, pad_mode="reflect", normalized=normalized,
                                         onesided=onesided, return_complex=False),
                 [data, window])


def test_torchvision_roi_align():
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    rng = np.random.RandomState(5)
    data = torch.from_numpy(rng.uniform(size=(2, 3, 12, 12)).astype("float32"))
    boxes = rng.uniform(0, 12, size=(6, 4)).astype("float32")
    boxes[:, 2:] += boxes[:, :2] * 0.25
    batch = np.array([[0], [1], [0], [1], [1], [0]], "float32")
    rois = torch.from_numpy(np.concatenate([batch, boxes], axis=1))
    for size, scale, ratio in ((3, 1.0, -1), ((4, 2), 0.5, 2)):
        _torch_check(lambda x, r: torchvision.ops.roi_align(x, r, size, scale, ratio),
                     [data, rois])


def test_torchvision_deform_conv2d():
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    rng = np.random.RandomState(6)
    data = torch.from_numpy(rng.uniform(size=(2, 4, 7, 7)).astype("float32"))
    # offsets in [0, 1) and no padding, as TVM's own test: every sample stays at or inside the
    # data's top and left edges, where TVM's sampling and torchvision's agree
    offset = torch.from_numpy(rng.uniform(size=(2, 2 * 2 * 3 * 3, 5, 5)).astype("float32"))
    weight = torch.from_numpy(rng.uniform(size=(6, 4, 3, 3)).astype("float32"))
    _torch_check(lambda x, o, w: torchvision.ops.deform_conv2d(x, o, w), [data, offset, weight])
