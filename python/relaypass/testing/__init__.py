"""tvm.testing: the helpers TVM's own tests are written with (TVM v0.13's python/tvm/testing).

``tvm.testing.utils`` (all of it is here too): assert_allclose, check_numerical_grads, the test
targets (enabled_targets, device_enabled, DEFAULT_TEST_TARGETS, TVM_TEST_TARGETS), Feature and
the requires_*/uses_* markers, parametrize_targets / exclude_targets / known_failing_targets,
parameter / parameters / fixture, xfail_parameterizations, main(), span filling.
``tvm.testing.plugin`` is the pytest plugin that makes the target and dev fixtures work.

Names of TVM's tvm.testing that need parts of TVM relaypass does not have (TIR and arith
checks, the FFI test hooks, the popen-pool helpers, TVMC model loading, the AOT/USMP/TIR helper
modules) are placeholders: using one raises tvm.error.OpNotImplemented naming it.
"""
from .utils import *  # noqa: F401,F403
from .utils import (  # noqa: F401 (names with a leading underscore, used by TVM's tests)
    _get_targets,
    _tvm_test_targets,
    _compose,
    _fixture_cache,
    _DeepCopyAllowedClasses,
    _mark_parameterizations,
    _any_gpu_exists,
    _cmake_flag_enabled,
)

# What TVM's tvm.testing also offers, which relaypass cannot: placeholders that say so.
_UNAVAILABLE = frozenset(
    [
        # utils.py (need tvm.tir / tvm.arith / tvmc)
        "assert_prim_expr_equal",
        "check_bool_expr_is_true",
        "check_int_constraints_trans_consistency",
        "fetch_model_from_url",
        "CompareBeforeAfter",
        # _ffi_api (C++ test hooks)
        "nop",
        "echo",
        "device_test",
        "run_check_signal",
        "object_use_count",
        "test_wrap_callback",
        "test_raise_error_callback",
        "test_check_eq_callback",
        "ErrorTest",
        "FrontendTestModule",
        "identity_cpp",
        # popen_pool
        "initializer",
        "after_initializer",
        "register_ffi",
        "call_cpp_ffi",
        "call_py_ffi",
        "call_cpp_py_ffi",
        "fast_summation",
        "slow_summation",
        "timeout_job",
        # submodules
        "aot",
        "auto_scheduler",
        "autotvm",
        "tir",
        "usmp",
        "popen_pool",
        "runner",
        "rpc_run",
        "micro",
    ]
)


def __getattr__(name):
    if name in _UNAVAILABLE:
        from .._unsupported import _Missing

        return _Missing("tvm.testing." + name)
    raise AttributeError("module 'tvm.testing' has no attribute '{}'".format(name))
