"""relay.testing workloads, tvm_compat's module aliasing and placeholders, and reference
counting across the boundary (no leak over 1,000 pass round trips, measured by RSS)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import mobilenet, resnet


def test_resnet_workload_matches_tvms_structure():
    mod, params = resnet.get_workload(num_layers=18, batch_size=1)
    text = mod.astext(show_meta_data=False)
    # TVM v0.13 prints resnet-18's main with these first parameters (the tutorial's output).
    assert text.startswith('#[version = "0.0.5"]\ndef @main(%data: Tensor[(1, 3, 224, 224), '
                           'float32] /* ty=Tensor[(1, 3, 224, 224), float32] */, '
                           '%bn_data_gamma: Tensor[(3), float32]')
    assert len(params) == len(mod["main"].params) - 1
    # relay.testing's initializer: gamma and moving_var are ones, beta and moving_mean zeros.
    np.testing.assert_array_equal(params["bn_data_gamma"].numpy(), np.ones(3, "float32"))
    np.testing.assert_array_equal(params["bn_data_moving_mean"].numpy(), np.zeros(3, "float32"))
    assert params["conv0_weight"].shape == (64, 3, 7, 7)


def test_mobilenet_workload_runs_on_the_evaluator():
    mod, params = mobilenet.get_workload(batch_size=1, image_shape=(3, 32, 32), num_classes=10)
    data = np.random.RandomState(0).rand(1, 3, 32, 32).astype("float32")
    out = relay.create_executor(mod=mod, params=params).evaluate()(data)
    probs = out.numpy()
    assert probs.shape == (1, 10)
    np.testing.assert_allclose(probs.sum(), 1.0, rtol=1e-5)  # the net ends with softmax


def run_compat(code, tmp_path):
    script = tmp_path / "script.py"
    script.write_text(code)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(tvm.__file__))
    return subprocess.run([sys.executable, "-m", "relaypass.tvm_compat", str(script), "arg1"],
                          capture_output=True, text=True, env=env, timeout=120)


def test_tvm_compat_aliases_and_placeholders(tmp_path):
    result = run_compat(
        "import sys\n"
        "import tvm\n"
        "from tvm import relay, te, tir\n"
        "import tvm.relay as relay2\n"
        "from tvm.relay.testing import resnet\n"
        "from tvm.ir.instrument import pass_instrument, PassTimingInstrument\n"
        "from tvm.relay.build_module import bind_params_by_name\n"
        "from tvm.contrib.download import download_testdata\n"
        "from tvm.te import placeholder\n"
        "assert relay is relay2 and tvm.ir.instrument is tvm.instrument\n"
        "print(sys.argv[1:], __name__)\n"
        "try:\n"
        "    te.placeholder((1,), name='x')\n"
        "except NotImplementedError as e:\n"
        "    print('missing:', e)\n",
        tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "['arg1'] __main__"
    assert lines[1].startswith("missing: tvm.te.placeholder is not available")


def test_tvm_compat_reports_the_scripts_own_exception(tmp_path):
    result = run_compat("raise SystemExit(3)\n", tmp_path)
    assert result.returncode == 3


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def test_no_leak_over_1000_round_trips_through_cpp_passes():
    def build():
        x = relay.var("x", shape=(1, 64))
        y = x
        for _ in range(20):
            y = relay.nn.relu(relay.add(y, relay.const(np.ones((1, 64), "float32"))))
        return tvm.IRModule.from_expr(relay.Function([x], y))

    class Touch(relay.ExprMutator):
        def visit_constant(self, c):
            return relay.const(c.data.numpy() * 1.0)

    seq = tvm.transform.Sequential([relay.transform.FoldConstant(),
                                    relay.transform.FuseOps(fuse_opt_level=2)])

    def round_trip():
        mod = build()
        mod["main"] = Touch().visit(mod["main"])
        with tvm.transform.PassContext(opt_level=3):
            mod = seq(mod)
        return str(mod)

    for _ in range(100):  # warm up allocator pools and caches
        round_trip()
    before = rss_kib()
    for _ in range(1000):
        round_trip()
    growth = rss_kib() - before
    # Each round trip allocates ~100 nodes and 20 x 256-byte tensors (~60 KiB): a leak of one
    # round trip per iteration would grow RSS by ~60 MiB. Allow allocator noise only.
    assert growth < 8 * 1024, "RSS grew by {} KiB over 1,000 round trips".format(growth)
