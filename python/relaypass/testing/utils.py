"""tvm.testing's helpers for writing tests (TVM v0.13's python/tvm/testing/utils.py, by its
behaviour): tolerant comparison, numerical gradients, the targets a test runs on, the
``requires_*`` / ``uses_*`` markers, and parametrized fixtures.

What this "build of TVM" has: the CPU targets "llvm" and "c", run on relaypass's evaluator
(tvm.support.libinfo() reports USE_LLVM on and every other option off). Every other target
kind (cuda, nvptx, vulkan, opencl, metal, rocm, hexagon, ...) is neither enabled nor runnable, so
a test parametrized over it is collected and skipped with the reason TVM gives on a machine
without that device ("Run-time support for gpu not present", "Missing environment variable
ANDROID_SERIAL_NUMBER.", ...). TVM_TEST_TARGETS ("llvm;cuda", ...) chooses the targets as in
TVM. Markers are worked out when a test module is imported, as in TVM.
"""
import copy
import copyreg
import ctypes
import functools
import inspect
import itertools
import logging
import os
import pickle
import platform
import sys
import time

import numpy as np
import pytest

from .. import support as _support
from .._errors import TVMError

SKIP_SLOW_TESTS = os.getenv("SKIP_SLOW_TESTS", "").lower() in {"true", "1", "yes"}
IS_IN_CI = os.getenv("CI", "") == "true"

skip_if_wheel_test = pytest.mark.skipif(
    os.getenv("WHEEL_TEST", "").lower() in {"true", "1", "yes"},
    reason="Test not supported in wheel.",
)


# ---- comparisons ----


def assert_allclose(actual, desired, rtol=1e-7, atol=1e-7):
    """np.testing.assert_allclose with TVM's defaults (rtol = atol = 1e-7), after checking
    that the shapes agree. Not symmetric: ``|actual - desired| <= atol + rtol * |desired|``."""
    actual = np.asanyarray(actual)
    desired = np.asanyarray(desired)
    # The shapes first, so that broadcasting cannot hide a wrong shape.
    np.testing.assert_allclose(actual.shape, desired.shape)
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, verbose=True)


def check_numerical_grads(
    function, input_values, grad_values, function_value=None, delta=1e-3, atol=1e-2, rtol=0.1
):
    """Checks analytical gradients ``grad_values`` of the scalar ``function`` at
    ``input_values`` (a dict of name -> array, or a list for positional arguments) against
    finite differences: a forward difference first, then a central one, then a five-point
    estimate for the positions that still disagree. Fails when the distance between the two
    gradients exceeds ``atol * sqrt(n) + rtol * |numerical gradient|``."""
    if not isinstance(input_values, dict):
        count = len(input_values)
        positional = function

        def function(**kwargs):  # pylint: disable=function-redefined
            return positional(*(kwargs[str(i)] for i in range(count)))

        input_values = {str(i): value for i, value in enumerate(input_values)}
        grad_values = {str(i): value for i, value in enumerate(grad_values)}

    if function_value is None:
        function_value = function(**input_values)

    def shifted(name, index, step):
        """``function`` with element ``index`` of input ``name`` moved by ``step``, minus its
        value at the point, over ``step``."""
        values = {}
        for key, value in input_values.items():
            if key == name:
                value = value.copy()
                value.reshape(-1)[index] += step
            values[key] = value
        return (function(**values) - function_value) / step

    def agrees(index, numerical, grad):
        return np.abs(numerical - grad.reshape(-1)[index]) < atol + rtol * np.abs(numerical)

    for name, grad in grad_values.items():
        if grad.shape != input_values[name].shape:
            raise AssertionError(
                "Gradient wrt '{}' has unexpected shape {}, expected {} ".format(
                    name, grad.shape, input_values[name].shape
                )
            )
        numerical_grad = np.zeros_like(grad)
        wrong = []
        for index in range(int(np.prod(grad.shape))):
            estimate = shifted(name, index, delta)
            if not agrees(index, estimate, grad):
                estimate = (shifted(name, index, -delta) + estimate) / 2
                if not agrees(index, estimate, grad):
                    half = (shifted(name, index, delta / 2) + shifted(name, index, -delta / 2)) / 2
                    estimate = (4 * half - estimate) / 3
            if not agrees(index, estimate, grad):
                wrong.append(np.unravel_index(index, grad.shape))
            numerical_grad.reshape(-1)[index] = estimate

        wrong_percentage = int(100 * len(wrong) / np.prod(grad.shape))
        dist = np.sqrt(np.sum((numerical_grad - grad) ** 2))
        grad_norm = np.sqrt(np.sum(numerical_grad**2))
        if not (np.isfinite(dist) and np.isfinite(grad_norm)):
            raise ValueError(
                "NaN or infinity detected during numerical gradient checking wrt '{}'\n"
                "analytical grad = {}\n numerical grad = {}\n".format(name, grad, numerical_grad)
            )
        sqrt_n = np.sqrt(float(np.prod(grad.shape)))
        if dist > atol * sqrt_n + rtol * grad_norm:
            raise AssertionError(
                "Analytical and numerical grads wrt '{}' differ too much\n"
                "analytical grad = {}\n numerical grad = {}\n"
                "{}% of elements differ, first 10 of wrong positions: {}\n"
                "distance > atol*sqrt(n) + rtol*grad_norm\n"
                "distance {} > {}*{} + {}*{}".format(
                    name, grad, numerical_grad, wrong_percentage, wrong[:10],
                    dist, atol, sqrt_n, rtol, grad_norm,
                )
            )
        logging.info(
            "Numerical grad test wrt '%s' of shape %s passes, "
            "dist = %f, max_diff = %f, avg_diff = %f",
            name, grad.shape, dist,
            np.max(np.abs(numerical_grad - grad)), np.mean(np.abs(numerical_grad - grad)),
        )


# ---- what this build has ----

# Target kinds relaypass runs (on the CPU evaluator); tvm.device() of these is the CPU.
_CPU_TARGET_KINDS = frozenset(["llvm", "c"])
# Device names whose tvm.device(...).exist is true here.
_EXISTING_DEVICES = frozenset(["llvm", "c", "cpu", "stackvm", "ext_dev", "hybrid", "test"])


def _target_kind(target):
    """The kind of a target given as a string ("llvm -mcpu=x" -> "llvm") or a Target."""
    if isinstance(target, str):
        words = target.split()
        return words[0] if words else ""
    kind = getattr(target, "kind", None)
    return getattr(kind, "name", kind)


def _target_libs(target):
    """The -libs=... of a target (["cudnn", "cublas"])."""
    if isinstance(target, str):
        for word in target.split()[1:]:
            if word.startswith("-libs="):
                return [lib for lib in word[len("-libs="):].split(",") if lib]
        return []
    attrs = getattr(target, "attrs", None) or {}
    try:
        return list(attrs.get("libs", []))
    except AttributeError:
        return []


def _runtime_enabled(kind):
    """tvm.runtime.enabled(kind): whether this build can run programs for the target kind."""
    return kind in _CPU_TARGET_KINDS


def _device_exists(kind):
    """tvm.device(kind).exist (kind: a target or device name, possibly with options)."""
    words = str(kind).split()
    return bool(words) and words[0] in _EXISTING_DEVICES


def _device(target):
    from .. import nd

    return nd.device(target)


def _cmake_flag_enabled(flag):
    # As TVM: a flag counts as on unless it is explicitly off (many hold library paths).
    value = _support.libinfo().get(flag, "OFF")
    return value.lower() not in ["off", "false", "0"]


DEFAULT_TEST_TARGETS = [
    "llvm",
    "cuda",
    "nvptx",
    "vulkan -from_device=0",
    "opencl",
    "opencl -device=mali,aocl_sw_emu",
    "opencl -device=intel_graphics",
    "metal",
    "rocm",
    "hexagon",
]


def _tvm_test_targets():
    """The targets named by TVM_TEST_TARGETS (";"-separated, duplicates dropped, order kept),
    or DEFAULT_TEST_TARGETS when it is unset or empty."""
    text = os.environ.get("TVM_TEST_TARGETS", "").strip()
    if text:
        return list(dict.fromkeys(part.strip() for part in text.split(";") if part.strip()))
    return DEFAULT_TEST_TARGETS


def _get_targets(target_names=None):
    """One dict per target to test: {"target", "target_kind", "is_enabled", "is_runnable"}.
    When none is runnable, llvm alone (with a warning), as TVM does."""
    if target_names is None:
        target_names = _tvm_test_targets()
    if not target_names:
        target_names = DEFAULT_TEST_TARGETS

    targets = []
    for target in target_names:
        kind = target.split()[0]
        if kind == "cuda" and "cudnn" in _target_libs(target):
            enabled = _cmake_flag_enabled("USE_CUDNN")
            runnable = False  # no cuDNN library without CUDA
        elif kind == "hexagon":
            enabled = _cmake_flag_enabled("USE_HEXAGON")
            runnable = enabled and "ANDROID_SERIAL_NUMBER" in os.environ
        else:
            enabled = _runtime_enabled(kind)
            runnable = enabled and _device_exists(kind)
        targets.append(
            {"target": target, "target_kind": kind, "is_enabled": enabled, "is_runnable": runnable}
        )

    if not any(t["is_runnable"] for t in targets):
        if _runtime_enabled("llvm"):
            logging.warning(
                "None of the following targets are supported by this build of TVM: %s."
                " Try setting TVM_TEST_TARGETS to a supported target. Defaulting to llvm.",
                target_names,
            )
            return _get_targets(["llvm"])
        raise TVMError(
            "None of the following targets are supported by this build of TVM: %s."
            " Try setting TVM_TEST_TARGETS to a supported target."
            " Cannot default to llvm, as it is not enabled." % target_names
        )
    return targets


def device_enabled(target):
    """Whether tests should use the target (a string; its options are ignored): its kind is
    among the test targets and runnable here."""
    assert isinstance(target, str), "device_enabled requires a target as a string"
    kind = target.split(" ")[0]
    return any(t["target_kind"] == kind for t in _get_targets() if t["is_runnable"])


def enabled_targets():
    """[(target, device)] for every test target runnable here: [("llvm", cpu(0))] by default."""
    return [(t["target"], _device(t["target"])) for t in _get_targets() if t["is_runnable"]]


# ---- features and the requires_* markers ----


class Feature:
    """Something a test may need: a build option (``cmake_flag``), a target kind among the test
    targets (``target_kind_enabled``), a compile-time or run-time check (a callable giving True,
    False or a message), a device (``target_kind_hardware``), and parent features whose checks
    it inherits (except their ``target_kind_enabled``).

    ``feature(func)`` / ``feature(support_required=...)`` marks a test: with
    "compile-and-run" (default) it is skipped unless every run-time and compile-time check
    passes; "compile-only" checks compile-time support only; "optional" only adds the marks
    (pytest -m <name>). The skip marks are listed run-time first, parents first, so the reason a
    test is skipped with is the first failing check, as in TVM."""

    _all_features = {}

    def __init__(
        self,
        name,
        long_name=None,
        cmake_flag=None,
        target_kind_enabled=None,
        compile_time_check=None,
        target_kind_hardware=None,
        run_time_check=None,
        parent_features=None,
    ):
        self.name = name
        self.long_name = long_name or name
        self.cmake_flag = cmake_flag
        self.target_kind_enabled = target_kind_enabled
        self.compile_time_check = compile_time_check
        self.target_kind_hardware = target_kind_hardware
        self.run_time_check = run_time_check
        if parent_features is None:
            self.parent_features = []
        elif isinstance(parent_features, str):
            self.parent_features = [parent_features]
        else:
            self.parent_features = list(parent_features)
        Feature._all_features[name] = self

    def _parents(self):
        return [Feature._all_features[parent] for parent in self.parent_features]

    def _register_marker(self, config):
        config.addinivalue_line("markers", f"{self.name}: Mark a test as using {self.long_name}")

    @staticmethod
    def _check_mark(check, default_reason):
        result = check()
        if isinstance(result, str):
            return pytest.mark.skipif(True, reason=result)
        return pytest.mark.skipif(not result, reason=default_reason)

    def _uses_marks(self):
        for parent in self._parents():
            yield from parent._uses_marks()
        yield getattr(pytest.mark, self.name)

    def _compile_only_marks(self):
        for parent in self._parents():
            yield from parent._compile_only_marks()
        if self.compile_time_check is not None:
            yield self._check_mark(
                self.compile_time_check, f"Compile-time support for {self.long_name} not present"
            )
        if self.target_kind_enabled is not None:
            kind = self.target_kind_enabled.split()[0]
            yield pytest.mark.skipif(
                all(enabled.split()[0] != kind for enabled in _tvm_test_targets()),
                reason=(
                    f"{self.target_kind_enabled} tests disabled "
                    f"by TVM_TEST_TARGETS environment variable"
                ),
            )
        if self.cmake_flag is not None:
            yield pytest.mark.skipif(
                not _cmake_flag_enabled(self.cmake_flag),
                reason=(
                    f"{self.long_name} support not enabled.  "
                    f"Set {self.cmake_flag} in config.cmake to enable."
                ),
            )

    def _run_only_marks(self):
        for parent in self._parents():
            yield from parent._run_only_marks()
        if self.run_time_check is not None:
            yield self._check_mark(
                self.run_time_check, f"Run-time support for {self.long_name} not present"
            )
        if self.target_kind_hardware is not None:
            yield pytest.mark.skipif(
                not _device_exists(self.target_kind_hardware),
                reason=f"No device exists for target {self.target_kind_hardware}",
            )

    def marks(self, support_required="compile-and-run"):
        """The list of marks for a test needing this feature (see the class docstring)."""
        if support_required == "compile-and-run":
            parts = (self._run_only_marks(), self._compile_only_marks(), self._uses_marks())
        elif support_required == "compile-only":
            parts = (self._compile_only_marks(), self._uses_marks())
        elif support_required == "optional":
            parts = (self._uses_marks(),)
        else:
            raise ValueError(f"Unknown feature support type: {support_required}")
        return list(itertools.chain(*parts))

    def __call__(self, func=None, *, support_required="compile-and-run"):
        if support_required not in ["compile-and-run", "compile-only", "optional"]:
            raise ValueError(f"Unknown feature support type: {support_required}")

        def apply(func):
            for mark in self.marks(support_required=support_required):
                func = mark(func)
            return func

        return apply if func is None else apply(func)

    @classmethod
    def require(cls, name, support_required="compile-and-run"):
        """The decorator marking a test as needing the feature called ``name``."""
        return cls._all_features[name](support_required=support_required)


def _any_gpu_exists():
    return any(_device_exists(kind) for kind in ("cuda", "rocm", "opencl", "metal", "vulkan"))


def _multi_gpu_exists():
    return False  # no GPU at all


def _cpu_flags():
    """The CPU's feature flags as /proc/cpuinfo names them (Linux), or an empty set."""
    try:
        with open("/proc/cpuinfo", "r") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return set(value.split())
    except OSError:
        pass
    return set()


def _has_cpu_features(*names):
    """Whether the host CPU has every feature (LLVM's names, as TVM's _has_cpu_feat asks LLVM
    about the host: "avx512vnni" is cpuinfo's "avx512_vnni")."""
    flags = _cpu_flags()
    spelled = {"avx512vnni": "avx512_vnni", "avxvnni": "avx_vnni", "amx-int8": "amx_int8",
               "dotprod": "asimddp"}
    return bool(flags) and all(spelled.get(name, name) in flags for name in names)


def _hexagon_compile_time_check():
    # TVM's tvm.contrib.hexagon._ci_env_check (relaypass has no LLVM whose version to check).
    if "HEXAGON_TOOLCHAIN" not in os.environ:
        return "Missing environment variable HEXAGON_TOOLCHAIN."
    return True


def _hexagon_run_time_check():
    if "ANDROID_SERIAL_NUMBER" not in os.environ:
        return "Missing environment variable ANDROID_SERIAL_NUMBER."
    return True


def _no_cuda():
    return False  # nvcc / CUDA devices: none in relaypass


_SKYLAKE_AVX512 = ("avx512bw", "avx512cd", "avx512dq", "avx512vl", "avx512f")

# The features of TVM v0.13 (name, long name, checks), one requires_* each.
requires_llvm = Feature(
    "llvm", "LLVM", cmake_flag="USE_LLVM", target_kind_enabled="llvm", target_kind_hardware="llvm"
)
requires_gpu = Feature("gpu", run_time_check=_any_gpu_exists)
uses_gpu = requires_gpu(support_required="optional")
requires_multi_gpu = Feature("multi_gpu", run_time_check=_multi_gpu_exists)
uses_multi_gpu = requires_multi_gpu(support_required="optional")
requires_x86 = Feature(
    "x86", "x86 Architecture", run_time_check=lambda: platform.machine() == "x86_64"
)
requires_cuda = Feature(
    "cuda",
    "CUDA",
    cmake_flag="USE_CUDA",
    target_kind_enabled="cuda",
    target_kind_hardware="cuda",
    parent_features="gpu",
)
requires_tensorcore = Feature(
    "tensorcore", "NVIDIA Tensor Core", run_time_check=_no_cuda, parent_features="cuda"
)
requires_cudnn = Feature("cudnn", "cuDNN", cmake_flag="USE_CUDNN", parent_features="cuda")
requires_cublas = Feature("cublas", "cuBLAS", cmake_flag="USE_CUBLAS", parent_features="cuda")
requires_nvptx = Feature(
    "nvptx",
    "NVPTX",
    target_kind_enabled="nvptx",
    target_kind_hardware="nvptx",
    parent_features=["llvm", "cuda"],
)
requires_cudagraph = Feature(
    "cudagraph",
    "CUDA Graph",
    target_kind_enabled="cuda",
    compile_time_check=_no_cuda,
    parent_features="cuda",
)
requires_opencl = Feature(
    "opencl",
    "OpenCL",
    cmake_flag="USE_OPENCL",
    target_kind_enabled="opencl",
    target_kind_hardware="opencl" if "RPC_TARGET" not in os.environ else None,
    parent_features="gpu" if "RPC_TARGET" not in os.environ else None,
)
requires_rocm = Feature(
    "rocm",
    "ROCm",
    cmake_flag="USE_ROCM",
    target_kind_enabled="rocm",
    target_kind_hardware="rocm",
    parent_features="gpu",
)
requires_matrixcore = Feature(
    "matrixcore", "AMD Matrix Core", run_time_check=lambda: False, parent_features="rocm"
)
requires_metal = Feature(
    "metal",
    "Metal",
    cmake_flag="USE_METAL",
    target_kind_enabled="metal",
    target_kind_hardware="metal",
    parent_features="gpu",
)
requires_vulkan = Feature(
    "vulkan",
    "Vulkan",
    cmake_flag="USE_VULKAN",
    target_kind_enabled="vulkan",
    target_kind_hardware="vulkan",
    parent_features="gpu",
)
requires_openclml = Feature("OpenCLML", "CLML", cmake_flag="USE_CLML", target_kind_enabled="opencl")
requires_micro = Feature("micro", "MicroTVM", cmake_flag="USE_MICRO")
requires_cutlass = Feature("cutlass", "CUTLASS", cmake_flag="USE_CUTLASS")
requires_rpc = Feature("rpc", "RPC", cmake_flag="USE_RPC")
requires_ethosn = Feature("ethosn", "Arm(R) Ethos(TM)-N", cmake_flag="USE_ETHOSN")
requires_ethosu = Feature("ethosu", "Arm(R) Ethos(TM)-U", cmake_flag="USE_ETHOSU")
requires_libtorch = Feature("libtorch", "LibTorch", cmake_flag="USE_LIBTORCH")
requires_hexagon = Feature(
    "hexagon",
    "Hexagon",
    cmake_flag="USE_HEXAGON",
    target_kind_enabled="hexagon",
    compile_time_check=_hexagon_compile_time_check,
    run_time_check=_hexagon_run_time_check,
    parent_features="llvm",
)
requires_cmsisnn = Feature("cmsisnn", "CMSIS NN", cmake_flag="USE_CMSISNN")


def _corstone300_compile_time_check():
    import shutil

    if shutil.which("arm-none-eabi-gcc") is None:
        return "ARM embedded toolchain unavailable"
    return True


requires_corstone300 = Feature(
    "corstone300",
    "Corstone-300",
    compile_time_check=_corstone300_compile_time_check,
    parent_features="cmsisnn",
)
requires_vitis_ai = Feature("vitis_ai", "Vitis AI", cmake_flag="USE_VITIS_AI")
requires_arm_dot = Feature(
    "arm_dot",
    "ARM dot product",
    run_time_check=lambda: platform.machine() in ("arm64", "aarch64")
    and _has_cpu_features("dotprod"),
)
requires_aarch64_sve = Feature(
    "arm_sve",
    "AArch64 SVE",
    run_time_check=lambda: platform.machine() in ("arm64", "aarch64") and _has_cpu_features("sve"),
)
requires_cascadelake = Feature(
    "cascadelake", "x86 CascadeLake", run_time_check=lambda: _has_cpu_features("avx512vnni")
)
requires_skylake_avx512 = Feature(
    "skylake_avx512",
    "x86 SkyLake AVX512",
    run_time_check=lambda: _has_cpu_features(*_SKYLAKE_AVX512),
)
requires_x86_vnni = Feature(
    "x86_vnni",
    "x86 VNNI Extensions",
    run_time_check=lambda: _has_cpu_features("avx512vnni") or _has_cpu_features("avxvnni"),
)
requires_x86_avx512 = Feature(
    "x86_avx512",
    "x86 AVX512 Extensions",
    run_time_check=lambda: _has_cpu_features(*_SKYLAKE_AVX512),
)
requires_x86_amx = Feature(
    "x86_amx", "x86 AMX Extensions", run_time_check=lambda: _has_cpu_features("amx-int8")
)


def _compose(args, decorators):
    """Applies ``decorators`` (the first outermost) to args[0], or returns them when there
    is no function (a decorator called with no arguments)."""
    if not args:
        return decorators
    func = args[0]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


slow = pytest.mark.skipif(
    SKIP_SLOW_TESTS,
    reason="Skipping slow test since the SKIP_SLOW_TESTS environment variable is 'true'",
)


def requires_nvcc_version(major_version, minor_version=0, release_version=0):
    """Marks a test as needing nvcc >= (major, minor, release) and CUDA: relaypass has no nvcc
    (version 0.0.0), so such a test is skipped."""
    minimum = (major_version, minor_version, release_version)
    text = ".".join(str(v) for v in minimum)
    marks = [
        pytest.mark.skipif((0, 0, 0) < minimum, reason=f"Requires NVCC >= {text}"),
        *requires_cuda.marks(),
    ]
    return lambda func: _compose([func], marks)


def requires_cuda_compute_version(major_version, minor_version=0):
    """Marks a test as needing a CUDA GPU of compute capability >= (major, minor) and CUDA:
    there is none here (compute version 0.0)."""
    minimum = (major_version, minor_version)
    marks = [
        pytest.mark.skipif(
            (0, 0) < minimum,
            reason="Requires CUDA compute >= {}, but have 0.0".format(
                ".".join(str(v) for v in minimum)
            ),
        ),
        *requires_cuda.marks(),
    ]
    return lambda func: _compose([func], marks)


def skip_if_32bit(reason):
    """Skips the test (with ``reason``) on a 32-bit Python."""

    def decorator(*args):
        if "32bit" in platform.architecture()[0]:
            return _compose(args, [pytest.mark.skip(reason=reason)])
        return _compose(args, [])

    return decorator


def requires_package(*packages):
    """Skips the test unless every Python package imports ("Cannot import 'name'")."""

    def importable(name):
        try:
            __import__(name)
        except ImportError:
            return False
        return True

    marks = [
        pytest.mark.skipif(not importable(name), reason=f"Cannot import '{name}'")
        for name in packages
    ]

    def wrapper(func):
        for mark in marks:
            func = mark(func)
        return func

    return wrapper


# ---- targets and parameters ----


def parametrize_targets(*args):
    """``@parametrize_targets("llvm", "cuda")``: run the test on exactly these targets (those
    not runnable here are skipped by the plugin). Bare ``@parametrize_targets`` leaves the
    function as it is: the plugin parametrizes every test using ``target`` over the test
    targets anyway."""
    if len(args) == 1 and callable(args[0]):
        return args[0]
    return pytest.mark.parametrize("target", list(args), scope="session")


def exclude_targets(*args):
    """Leave these target kinds out of the test's automatic target parametrization."""

    def wraps(func):
        func.tvm_excluded_targets = args
        return func

    return wraps


def known_failing_targets(*args):
    """Expect the test to fail (xfail) on these target kinds."""

    def wraps(func):
        func.tvm_known_failing_targets = args
        return func

    return wraps


def parameter(*values, ids=None, by_dict=None):
    """A parametrized fixture: ``size = tvm.testing.parameter(1, 10, 100)`` runs every test
    taking ``size`` once per value (the name is the variable's). ``ids`` names the values;
    ``by_dict={"small": (5, 10), ...}`` gives ids and values together."""
    if by_dict is not None:
        if values or ids:
            raise RuntimeError(
                "Use of the by_dict parameter cannot be used alongside positional arguments"
            )
        ids, values = zip(*by_dict.items())

    # *_cls: the instance, when the parameter is defined in a test class.
    @pytest.fixture(params=values, ids=ids)
    def as_fixture(*_cls, request):
        return request.param

    return as_fixture


_parametrize_group = 0


def parameters(*value_sets, ids=None):
    """Several parametrized fixtures that vary together: ``size, dtype =
    tvm.testing.parameters((16, "float32"), (512, "float16"))`` runs a test once per tuple,
    not once per combination. The plugin's pytest_generate_tests does the parametrization."""
    global _parametrize_group
    group = _parametrize_group
    _parametrize_group += 1

    fixtures = []
    for column in zip(*value_sets):

        def fixture_func(*_cls, request):
            return request.param

        fixture_func.parametrize_group = group
        fixture_func.parametrize_values = column
        fixture_func.parametrize_ids = ids
        fixtures.append(pytest.fixture(fixture_func))
    return fixtures


def fixture(func=None, *, cache_return_value=False):
    """A pytest fixture (function scope). With ``cache_return_value=True`` the function runs
    once per distinct set of arguments and each test gets a deep copy of its value; the cache is
    dropped after the last test using the fixture (counted by the plugin).
    TVM_TEST_DISABLE_CACHE=1 turns caching off."""
    force_disable_cache = bool(int(os.environ.get("TVM_TEST_DISABLE_CACHE", "0")))
    cache_return_value = cache_return_value and not force_disable_cache

    def wraps(func):
        if cache_return_value:
            func = _fixture_cache(func)
        return pytest.fixture(func, scope="function")

    return wraps if func is None else wraps(func)


class _DeepCopyAllowedClasses(dict):
    """A deepcopy memo that refuses to copy objects that only have object's default
    __reduce__/__reduce_ex__ (a copy that may silently share or lose state), unless their class
    is listed as safe."""

    def __init__(self, allowed_class_list):
        super().__init__()
        self.allowed_class_list = allowed_class_list

    def get(self, key, *args, **kwargs):
        # copy.deepcopy asks the memo for id(obj) before copying obj.
        obj = ctypes.cast(key, ctypes.py_object).value
        cls = type(obj)
        copyable = (
            cls in copy._deepcopy_dispatch  # pylint: disable=protected-access
            or issubclass(cls, type)
            or getattr(obj, "__deepcopy__", None)
            or copyreg.dispatch_table.get(cls)
            or cls.__reduce__ is not object.__reduce__
            or cls.__reduce_ex__ is not object.__reduce_ex__
            or cls in self.allowed_class_list
        )
        if not copyable:
            rfc = (
                "https://github.com/apache/tvm-rfcs/blob/main/rfcs/"
                "0007-parametrized-unit-tests.md"
            )
            raise TypeError(
                f"Cannot copy fixture of type {cls.__name__}.  TVM fixture caching "
                "is limited to objects that explicitly provide the ability "
                "to be copied (e.g. through __deepcopy__, __getstate__, or __setstate__),"
                "and forbids the use of the default `object.__reduce__` and "
                "`object.__reduce_ex__`.  For third-party classes that are "
                "safe to use with copy.deepcopy, please add the class to "
                "the arguments of _DeepCopyAllowedClasses in tvm.testing._fixture_cache.\n"
                "\n"
                f"For discussion on this restriction, please see {rfc}."
            )
        return super().get(key, *args, **kwargs)


def _fixture_cache(func):
    """``func`` as a generator fixture caching its results by arguments (hashable ones as they
    are, others pickled), cleared once every test counted as using it has run."""
    cache = {}
    # A list, so that the plugin can set the count on the wrapper (_count_num_fixture_uses).
    num_tests_use_this_fixture = [0]
    uses = [0]

    def cache_key(args, kwargs):
        # By value (pickled), as TVM's in effect: pytest passes the arguments by keyword, so
        # TVM's hash((args, kwargs)) never succeeds. The pickle also makes a fixture defined
        # in a test class hit its cache across the class's instances. Hashable values that do
        # not pickle are keys as they are.
        try:
            return pickle.dumps((args, sorted(kwargs.items())))
        except (TypeError, pickle.PicklingError, AttributeError):
            pass
        key = (args, tuple(sorted(kwargs.items())))
        try:
            hash(key)
        except TypeError as err:
            raise TypeError(
                "TVM caching of fixtures requires arguments to the fixture "
                "to be either hashable or serializable"
            ) from err
        return key

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if num_tests_use_this_fixture[0] == 0:
            raise RuntimeError(
                "Fixture use count is 0.  "
                "This can occur if tvm.testing.plugin isn't registered.  "
                "If using outside of the TVM test directory, "
                "please add `pytest_plugins = ['tvm.testing.plugin']` to your conftest.py"
            )
        try:
            key = cache_key(args, kwargs)
            if key not in cache:
                cache[key] = func(*args, **kwargs)
            yield copy.deepcopy(cache[key], _DeepCopyAllowedClasses(allowed_class_list=[]))
        finally:
            uses[0] += 1
            if uses[0] >= num_tests_use_this_fixture[0]:
                cache.clear()

    wrapper.num_tests_use_this_fixture = num_tests_use_this_fixture
    return wrapper


def _mark_parameterizations(*params, marker_fn, reason):
    """Calls ``marker_fn`` (pytest.xfail / pytest.skip) in a test whose parameter id (the part
    of its name in brackets) is one of ``params``. The test takes ``request`` first."""
    params = set(params)

    def decorator(func):
        @functools.wraps(func)
        def wrapper(request, *args, **kwargs):
            name = request.node.name
            if "[" in name and "]" in name:
                ids = name[len(request.node.originalname) + 1 : -1]
                if ids in params:
                    marker_fn(
                        reason=f"{marker_fn.__name__} on nodeid {request.node.nodeid}: " + reason
                    )
            return func(request, *args, **kwargs)

        return wrapper

    return decorator


def xfail_parameterizations(*xfail_params, reason):
    """Expect failure for the parametrizations with these ids ("float16-llvm", ...)."""
    return _mark_parameterizations(*xfail_params, marker_fn=pytest.xfail, reason=reason)


def skip_parameterizations(*skip_params, reason):
    """Skip the parametrizations with these ids."""
    return _mark_parameterizations(*skip_params, marker_fn=pytest.skip, reason=reason)


# ---- small things ----


def identity_after(x, sleep):
    """``x``, after sleeping ``sleep`` seconds."""
    if sleep:
        time.sleep(sleep)
    return x


def terminate_self():
    """Ends the process (exit status -1)."""
    sys.exit(-1)


def is_ampere_or_newer():
    """Whether the CUDA GPU is an NVIDIA Ampere or newer. There is no CUDA device here, so as
    TVM's nvcc.get_target_compute_version on such a machine, this raises ValueError."""
    raise ValueError(
        "No CUDA architecture was specified or GPU detected."
        "Try specifying it by adding '-arch=sm_xx' to your target."
    )


def install_request_hook(depth):  # pylint: disable=unused-argument
    """TVM's CI hook around urllib downloads; relaypass never downloads, so nothing to do."""
    return None


def main():
    """Runs pytest on the calling test file, with the script's arguments
    (``if __name__ == "__main__": tvm.testing.main()``)."""
    test_file = inspect.getsourcefile(sys._getframe(1))  # pylint: disable=protected-access
    sys.exit(pytest.main([test_file] + sys.argv[1:]))


class _control_span_filling:
    """A PassContext with "relay.frontend.fill_span" set, as TVM's. When this build does not
    register the option (relaypass's frontends keep no spans from the source framework), the
    block runs in a PassContext without it."""

    def __init__(self, on=True):
        from .. import transform

        try:
            self._pass_ctx = transform.PassContext(config={"relay.frontend.fill_span": on})
        except TVMError:
            self._pass_ctx = transform.PassContext()

    def __enter__(self):
        self._pass_ctx.__enter__()

    def __exit__(self, exc_type, exc_val, exc_tb):
        self._pass_ctx.__exit__(exc_type, exc_val, exc_tb)


class enable_span_filling(_control_span_filling):
    """``with tvm.testing.enable_span_filling():`` frontends fill spans."""

    def __init__(self):
        super().__init__()


class disable_span_filling(_control_span_filling):
    """``with tvm.testing.disable_span_filling():`` frontends leave spans empty."""

    def __init__(self):
        super().__init__(on=False)
