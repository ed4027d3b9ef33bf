"""Scripts written for TVM, run unchanged through `python3 -m relaypass.tvm_compat` in a fresh
process (issue 37): the quick start (resnet-18, relay.build, the graph executor, export_library,
load_module) and the "Compile ONNX Models" flow with its files in TVM's test-data cache.

Expected values: the quick start compares the loaded artifact's output with the built module's
(tvm.testing.assert_allclose inside the script); the ONNX flow's output is compared here with a
NumPy computation of the same network (convolutions as sums of shifted products, then the
depth-to-space reshape/transpose the model spells out)."""
import os
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "tvm_scripts")


def _run_script(name, env_extra, tmp_path):
    env = dict(os.environ, **env_extra)
    proc = subprocess.run([sys.executable, "-m", "relaypass.tvm_compat",
                           os.path.join(SCRIPTS, name)], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return proc.stdout


def test_quick_start_script_runs_unchanged(tmp_path):
    out = _run_script("quick_start_llvm.py", {}, tmp_path)
    assert "QUICK_START_OK (1, 1000)" in out
    assert "deploy_lib.tar" in out  # temp.listdir() shows the exported file


def _conv_same(x, w, b):
    """NCHW convolution, stride 1, 'same' zero padding, by shifted products (NumPy)."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    ph, pw = kh // 2, kw // 2
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    y = np.zeros((n, o, h, wd), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return y + b.reshape(1, o, 1, 1)


def _super_resolution_model(rng):
    """The super-resolution network's shape (TVM's tutorial model, with fewer channels):
    conv 5x5 + relu, conv 3x3 + relu, conv 3x3 to 9 channels, depth-to-space by 3."""
    specs = [(1, 8, 5), (8, 8, 3), (8, 9, 3)]
    inits, nodes, weights = [], [], []
    cur = "1"
    for k, (cin, cout, ks) in enumerate(specs):
        w = (rng.standard_normal((cout, cin, ks, ks)) / np.sqrt(cin * ks * ks)).astype("float32")
        b = rng.uniform(-0.1, 0.1, cout).astype("float32")
        weights.append((w, b))
        inits += [numpy_helper.from_array(w, "w%d" % k), numpy_helper.from_array(b, "b%d" % k)]
        nodes.append(helper.make_node("Conv", [cur, "w%d" % k, "b%d" % k], ["c%d" % k],
                                      kernel_shape=[ks, ks], pads=[ks // 2] * 4))
        cur = "c%d" % k
        if k < len(specs) - 1:
            nodes.append(helper.make_node("Relu", [cur], ["r%d" % k]))
            cur = "r%d" % k
    inits += [numpy_helper.from_array(np.array([1, 1, 3, 3, 224, 224], np.int64), "s1"),
              numpy_helper.from_array(np.array([1, 1, 672, 672], np.int64), "s2")]
    nodes += [helper.make_node("Reshape", [cur, "s1"], ["t1"]),
              helper.make_node("Transpose", ["t1"], ["t2"], perm=[0, 1, 4, 2, 5, 3]),
              helper.make_node("Reshape", ["t2", "s2"], ["out"])]
    graph = helper.make_graph(
        nodes, "super_resolution",
        [helper.make_tensor_value_info("1", TensorProto.FLOAT, [1, 1, 224, 224])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 1, 672, 672])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return model, weights


def test_compile_onnx_flow_runs_from_tvms_cache(tmp_path):
    rng = np.random.default_rng(0)
    model, weights = _super_resolution_model(rng)
    cache = tmp_path / "tvm_test_data"
    (cache / "onnx").mkdir(parents=True)
    (cache / "data").mkdir()
    onnx.save(model, str(cache / "onnx" / "super_resolution.onnx"))
    x = rng.integers(0, 256, (1, 1, 224, 224)).astype("uint8")  # a luminance channel
    np.save(str(cache / "data" / "image_y.npy"), x)
    out_path = tmp_path / "out.npy"
    out = _run_script("compile_onnx.py", {"TEST_DATA_ROOT_PATH": str(cache),
                                          "COMPILE_ONNX_OUTPUT": str(out_path)}, tmp_path)
    assert "COMPILE_ONNX_OK (1, 1, 672, 672)" in out

    y = x.astype(np.float64)
    for k, (w, b) in enumerate(weights):
        y = _conv_same(y, w.astype(np.float64), b.astype(np.float64))
        if k < len(weights) - 1:
            y = np.maximum(y, 0)
    expected = y.reshape(1, 1, 3, 3, 224, 224).transpose(0, 1, 4, 2, 5, 3).reshape(1, 1, 672, 672)
    got = np.load(str(out_path))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-3)


def test_compile_onnx_flow_names_the_missing_cache_file(tmp_path):
    cache = tmp_path / "empty_cache"
    cache.mkdir()
    env = dict(os.environ, TEST_DATA_ROOT_PATH=str(cache), COMPILE_ONNX_OUTPUT=str(tmp_path / "o"))
    proc = subprocess.run([sys.executable, "-m", "relaypass.tvm_compat",
                           os.path.join(SCRIPTS, "compile_onnx.py")], capture_output=True,
                          text=True, env=env, cwd=str(tmp_path), timeout=300)
    assert proc.returncode != 0
    assert os.path.join(str(cache), "onnx", "super_resolution.onnx") in proc.stderr


def test_compile_pytorch_models_flow_runs_unchanged(tmp_path):
    # The script compares relaypass's output with PyTorch's on the same input (allclose and the
    # top-1 class) itself.
    pytest.importorskip("torchvision")
    out = _run_script("compile_pytorch.py", {}, tmp_path)
    assert "COMPILE_PYTORCH_OK" in out
