"""tvm.testing (relaypass.testing): its helpers and its pytest plugin.

Where the expected values come from (TVM v0.13, read by hand):
- python/tvm/testing/utils.py: assert_allclose (rtol = atol = 1e-7, the shapes compared
  first, the tolerance taken relative to `desired`); DEFAULT_TEST_TARGETS and TVM_TEST_TARGETS
  (";"-separated; llvm alone, with a warning, when none of them can run); device_enabled and
  enabled_targets (runnable targets only); the Feature skip reasons ("Run-time support for
  <long name> not present", "<long name> support not enabled.  Set <FLAG> in config.cmake to
  enable.") and their order (run-time checks first, parent features first); uses_gpu only
  marking; parameter/parameters/fixture(cache_return_value=True);
- python/tvm/contrib/hexagon/_ci_env_check.py: "Missing environment variable
  ANDROID_SERIAL_NUMBER.";
- python/tvm/testing/plugin.py: target/dev parametrization, the requirement marks per target
  value, exclude_targets, known_failing_targets ('Known failing test for target "llvm"'), the
  correlated parametrization of tvm.testing.parameters;
- ../shared/tvm_tests/tvm_results.txt (TVM itself on this kind of machine): a test using
  `target` runs as [llvm], and is skipped 8 times "Run-time support for gpu not present" and
  once "Missing environment variable ANDROID_SERIAL_NUMBER."; ids such as
  "float16-ceil-llvm" (parameter, then the parameters group, then the target).
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import relaypass
from relaypass import testing
from relaypass.testing import plugin, utils


# The features' marks (pytest.mark.cuda, ...) are registered by the plugin, which this test
# suite does not load.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")


def _skip_reasons(marks):
    return [m.kwargs["reason"] for m in marks if m.name == "skipif" and m.args[0]]


# ---- assert_allclose ----


def test_assert_allclose_defaults_are_1e_7():
    testing.assert_allclose(np.float32(1.0), 1.0 + 5e-8)
    testing.assert_allclose([0.0, 1.0], [9e-8, 1.0])
    with pytest.raises(AssertionError):
        testing.assert_allclose([1.0], [1.0 + 1e-6])
    with pytest.raises(AssertionError):
        testing.assert_allclose([0.0], [1e-6])
    testing.assert_allclose([1.0], [1.01], rtol=0.02)
    testing.assert_allclose([0.0], [0.01], atol=0.02)


def test_assert_allclose_checks_the_shape_before_broadcasting():
    with pytest.raises(AssertionError):
        testing.assert_allclose(np.ones((1, 3)), np.ones(3))
    with pytest.raises(AssertionError):
        testing.assert_allclose(np.ones(3), 1.0)


def test_assert_allclose_tolerance_is_relative_to_desired():
    # |actual - desired| <= atol + rtol * |desired|: 0 vs 1 passes with rtol=1, 1 vs 0 does not.
    testing.assert_allclose([0.0], [1.0], rtol=1.0, atol=0)
    with pytest.raises(AssertionError):
        testing.assert_allclose([1.0], [0.0], rtol=1.0, atol=0)


def test_assert_allclose_takes_ndarrays():
    arr = relaypass.nd.array(np.arange(4, dtype="float32"))
    testing.assert_allclose(arr.numpy(), np.arange(4))


def test_check_numerical_grads():
    x = np.array([1.0, 2.0, 3.0])
    testing.check_numerical_grads(lambda a: np.sum(a**2), [x], [2 * x])
    testing.check_numerical_grads(lambda a, b: np.sum(a * b), {"a": x, "b": x}, {"a": x, "b": x})
    with pytest.raises(AssertionError, match="differ too much"):
        testing.check_numerical_grads(lambda a: np.sum(a**2), [x], [3 * x])
    with pytest.raises(AssertionError, match="unexpected shape"):
        testing.check_numerical_grads(lambda a: np.sum(a), [x], [np.ones(2)])


# ---- targets ----


@pytest.fixture
def no_test_targets(monkeypatch):
    monkeypatch.delenv("TVM_TEST_TARGETS", raising=False)


def test_default_targets_and_what_runs_here(no_test_targets):
    assert utils.DEFAULT_TEST_TARGETS[0] == "llvm" and len(utils.DEFAULT_TEST_TARGETS) == 10
    targets = testing._get_targets()
    assert [t["target"] for t in targets] == utils.DEFAULT_TEST_TARGETS
    assert [t["target"] for t in targets if t["is_runnable"]] == ["llvm"]
    assert {t["target_kind"] for t in targets if not t["is_enabled"]} == {
        "cuda", "nvptx", "vulkan", "opencl", "metal", "rocm", "hexagon"}
    assert testing.enabled_targets() == [("llvm", relaypass.cpu(0))]


def test_device_enabled(no_test_targets):
    assert testing.device_enabled("llvm")
    assert testing.device_enabled("llvm -mcpu=skylake-avx512")
    for target in ["cuda", "vulkan", "opencl -device=mali", "metal", "rocm", "hexagon", "c"]:
        assert not testing.device_enabled(target), target
    with pytest.raises(AssertionError):
        testing.device_enabled(relaypass.target.Target("llvm"))


def test_tvm_test_targets_environment_variable(monkeypatch, caplog):
    monkeypatch.setenv("TVM_TEST_TARGETS", " c ; llvm -mcpu=core-avx2;cuda;c ")
    assert [t["target"] for t in testing._get_targets()] == ["c", "llvm -mcpu=core-avx2", "cuda"]
    assert [t for t, _ in testing.enabled_targets()] == ["c", "llvm -mcpu=core-avx2"]
    assert testing.device_enabled("c") and not testing.device_enabled("cuda")

    monkeypatch.setenv("TVM_TEST_TARGETS", "cuda;vulkan")
    assert [t["target"] for t in testing._get_targets()] == ["llvm"]
    assert "Defaulting to llvm" in caplog.text


def test_libinfo():
    info = relaypass.support.libinfo()
    assert info["USE_LLVM"] == "ON"
    assert info["USE_CUDA"] == info["USE_HEXAGON"] == info["USE_CUDNN"] == "OFF"
    assert testing._cmake_flag_enabled("USE_LLVM")
    assert not testing._cmake_flag_enabled("USE_VULKAN")


# ---- features ----


def test_requirement_skip_reasons_in_tvm_order(no_test_targets, monkeypatch):
    assert _skip_reasons(testing.requires_llvm.marks()) == []
    assert _skip_reasons(testing.requires_cuda.marks()) == [
        "Run-time support for gpu not present",
        "No device exists for target cuda",
        "CUDA support not enabled.  Set USE_CUDA in config.cmake to enable.",
    ]
    gpu = "Run-time support for gpu not present"
    assert _skip_reasons(testing.requires_cudnn.marks())[0] == gpu
    monkeypatch.delenv("ANDROID_SERIAL_NUMBER", raising=False)
    assert _skip_reasons(testing.requires_hexagon.marks())[0] == (
        "Missing environment variable ANDROID_SERIAL_NUMBER.")
    assert _skip_reasons(testing.requires_vulkan.marks())[0] == gpu
    assert _skip_reasons(testing.requires_ethosn.marks()) == [
        "Arm(R) Ethos(TM)-N support not enabled.  Set USE_ETHOSN in config.cmake to enable."]


def test_requirement_marks_name_the_features():
    names = [m.name for m in testing.requires_cuda.marks()]
    assert names[-2:] == ["gpu", "cuda"]
    assert [m.name for m in testing.requires_gpu.marks(support_required="optional")] == ["gpu"]
    with pytest.raises(ValueError):
        testing.requires_cuda.marks(support_required="sometimes")

    def test_x():
        pass

    marked = testing.uses_gpu(test_x)
    assert [m.name for m in marked.pytestmark] == ["gpu"]
    assert testing.Feature.require("llvm") is not None


def test_llvm_disabled_by_tvm_test_targets(monkeypatch):
    monkeypatch.setenv("TVM_TEST_TARGETS", "c")
    assert _skip_reasons(testing.requires_llvm.marks()) == [
        "llvm tests disabled by TVM_TEST_TARGETS environment variable"]


def _marks_of(decorator):
    def test_function():
        pass

    return decorator(test_function).pytestmark


def test_other_markers():
    assert _skip_reasons(testing.requires_arm_dot.marks()) in (
        [], ["Run-time support for ARM dot product not present"])
    # These apply their marks through _compose, innermost last: the cmake flag's reason comes
    # first on the function, as in TVM.
    reasons = _skip_reasons(_marks_of(testing.requires_cuda_compute_version(8)))
    assert reasons[0] == "CUDA support not enabled.  Set USE_CUDA in config.cmake to enable."
    assert reasons[-1] == "Requires CUDA compute >= 8.0, but have 0.0"
    reasons = _skip_reasons(_marks_of(testing.requires_nvcc_version(11, 2)))
    assert reasons[-1] == "Requires NVCC >= 11.2.0"
    assert _skip_reasons(_marks_of(testing.requires_package("no_such_package_xyz"))) == [
        "Cannot import 'no_such_package_xyz'"]
    assert testing.skip_if_32bit(reason="x")(len) is len  # a 64-bit Python


def test_parametrize_targets_and_target_decorators():
    mark = testing.parametrize_targets("llvm", "cuda")
    assert mark.mark.name == "parametrize" and mark.mark.args == ("target", ["llvm", "cuda"])
    assert mark.mark.kwargs == {"scope": "session"}

    def f(target):
        pass

    assert testing.parametrize_targets(f) is f
    assert testing.exclude_targets("cuda")(f).tvm_excluded_targets == ("cuda",)
    assert testing.known_failing_targets("vulkan")(f).tvm_known_failing_targets == ("vulkan",)


def test_placeholders_for_what_relaypass_lacks():
    with pytest.raises(NotImplementedError, match="tvm.testing.assert_prim_expr_equal"):
        testing.assert_prim_expr_equal(1, 1)
    with pytest.raises(AttributeError):
        testing.no_such_helper


def test_is_ampere_or_newer_has_no_gpu():
    with pytest.raises(ValueError, match="No CUDA architecture"):
        testing.is_ampere_or_newer()


def test_span_filling_contexts():
    with testing.enable_span_filling():
        assert relaypass.transform.PassContext.current() is not None
    with testing.disable_span_filling():
        pass


# ---- the plugin, on a generated test directory ----

CONFTEST = 'pytest_plugins = ["tvm.testing.plugin"]\n'

TESTS = '''
import pytest
import tvm
import tvm.testing

dtype = tvm.testing.parameter("float16", "float32")
size, name = tvm.testing.parameters((1, "one"), (2, "two"), ids=["first", "second"])
calls = []


@tvm.testing.fixture(cache_return_value=True)
def expensive(size):
    calls.append(size)
    return [size]


def test_target_and_dev(target, dev):
    assert target == "llvm" and dev == tvm.cpu(0)


def test_dev_only(dev):
    assert dev == tvm.cpu(0)


def test_ids(dtype, size, name, target):
    assert (size, name) in [(1, "one"), (2, "two")]


@tvm.testing.parametrize_targets("llvm", "cuda -libs=cudnn", "c")
def test_chosen(target):
    pass


@tvm.testing.exclude_targets("cuda", "vulkan", "opencl", "metal", "rocm", "nvptx", "hexagon")
def test_excluded(target):
    pass


@tvm.testing.known_failing_targets("llvm")
def test_known_failing(target):
    assert False


@tvm.testing.requires_cuda
def test_needs_cuda():
    pass


@tvm.testing.requires_llvm
def test_needs_llvm():
    pass


def test_cached_a(expensive, size):
    expensive.append(0)
    assert expensive == [size, 0]


def test_cached_b(expensive, size):
    assert expensive == [size]
    assert calls.count(size) == 1


def test_no_global_fixtures():
    assert "expensive" not in globals() and "dtype" not in globals()


@tvm.testing.xfail_parameterizations("float16", reason="no fp16")
def test_xfail_param(request, dtype):
    assert dtype == "float32"
'''


@pytest.fixture(scope="module")
def plugin_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_generated.py").write_text(textwrap.dedent(TESTS))
    (folder / "_run.py").write_text(
        "import sys\nimport pytest\nsys.exit(pytest.main(sys.argv[1:]))\n")
    env = dict(os.environ)
    env.pop("TVM_TEST_TARGETS", None)
    env.pop("ANDROID_SERIAL_NUMBER", None)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(relaypass.__file__))
    result = subprocess.run(
        [sys.executable, "-m", "relaypass.tvm_compat", "_run.py", "-rA", "-p", "no:cacheprovider",
         "test_generated.py"],
        cwd=folder, capture_output=True, text=True, env=env, timeout=300)
    return result


def _outcomes(output):
    found = {}
    for line in output.splitlines():
        parts = line.split(" ", 1)
        if parts[0] in ("PASSED", "FAILED", "XFAIL", "XPASS", "ERROR") and len(parts) == 2:
            found[parts[1].split(" - ")[0].strip()] = parts[0]
    return found


def test_plugin_runs_the_generated_tests(plugin_run):
    out = plugin_run.stdout
    assert plugin_run.returncode == 0, out + plugin_run.stderr
    assert "enabled targets: llvm" in out
    outcomes = _outcomes(out)
    prefix = "test_generated.py::"
    assert outcomes[prefix + "test_target_and_dev[llvm]"] == "PASSED"
    assert outcomes[prefix + "test_dev_only[llvm]"] == "PASSED"
    # parameter first, then the parameters group (with its ids), then the target
    for dtype in ("float16", "float32"):
        for group in ("first", "second"):
            assert outcomes[prefix + "test_ids[{}-{}-llvm]".format(dtype, group)] == "PASSED"
    assert outcomes[prefix + "test_chosen[llvm]"] == "PASSED"
    assert outcomes[prefix + "test_chosen[c]"] == "PASSED"
    assert outcomes[prefix + "test_excluded[llvm]"] == "PASSED"
    assert outcomes[prefix + "test_known_failing[llvm]"] == "XFAIL"
    assert outcomes[prefix + "test_needs_llvm"] == "PASSED"
    for size in ("first", "second"):
        assert outcomes[prefix + "test_cached_a[{}]".format(size)] == "PASSED"
        assert outcomes[prefix + "test_cached_b[{}]".format(size)] == "PASSED"
    assert outcomes[prefix + "test_no_global_fixtures"] == "PASSED"
    assert outcomes[prefix + "test_xfail_param[float16]"] == "XFAIL"
    assert outcomes[prefix + "test_xfail_param[float32]"] == "PASSED"
    assert not any(outcome in ("FAILED", "ERROR") for outcome in outcomes.values()), outcomes


def test_plugin_skips_targets_as_tvm_does(plugin_run):
    out = plugin_run.stdout
    skipped = [line for line in out.splitlines() if line.startswith("SKIPPED")]

    def count(test_line, reason):
        for line in skipped:
            if line.endswith(reason) and ":{}:".format(test_line) in line:
                return int(line.split("[")[1].split("]")[0])
        return 0

    lines = textwrap.dedent(TESTS).splitlines()
    line_of = {l.split("(")[0][4:]: i + 1 for i, l in enumerate(lines) if l.startswith("def test_")}
    gpu, hexagon = "Run-time support for gpu not present", \
        "Missing environment variable ANDROID_SERIAL_NUMBER."
    # 10 default targets: llvm runs; cuda, nvptx, vulkan, 3 x opencl, metal, rocm skip for the
    # missing GPU, hexagon for the missing device serial number (tvm_results.txt).
    assert count(line_of["test_target_and_dev"], gpu) == 8
    assert count(line_of["test_target_and_dev"], hexagon) == 1
    assert count(line_of["test_dev_only"], gpu) == 8
    assert count(line_of["test_ids"], gpu) == 8 * 4
    # cuda -libs=cudnn: requires_cudnn, whose parent is cuda, whose parent is gpu
    assert count(line_of["test_chosen"] - 1, gpu) == 1
    assert count(line_of["test_known_failing"] - 1, gpu) == 8
    assert count(line_of["test_needs_cuda"] - 1, gpu) == 1
    assert not any(":{}:".format(line_of["test_excluded"] - 1) in line for line in skipped)


def test_target_to_requirement():
    assert _skip_reasons(plugin._target_to_requirement("llvm -mcpu=skylake-avx512")) == []
    assert plugin._target_to_requirement("c") == []
    assert _skip_reasons(plugin._target_to_requirement("vulkan -from_device=0"))[0] == (
        "Run-time support for gpu not present")
    names = [m.name for m in plugin._target_to_requirement("cuda -libs=cudnn")]
    assert names[-3:] == ["gpu", "cuda", "cudnn"]
