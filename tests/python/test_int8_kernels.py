"""The int8 products (uint8/int8 nn.conv2d, nn.dense, nn.batch_matmul with out_dtype int32) on the
evaluator's int8 GEMM: the variant relay.build picks from the target (TVM v0.13's
topi/x86/utils.py tables), lib.get_source("asm") (the assembly of the kernel functions the build
calls, whose instructions are those TVM's tests look for in TVM's own code for the target), and
results equal to NumPy's int32 arithmetic exactly, on every variant this processor runs."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import _core, relay
from relaypass.contrib import graph_executor

# The ISAs in the order of relaypass::op::Int8Isa, with a target that selects each.
TARGETS = {
    "sse2": "llvm -mcpu=x86-64",
    "ssse3": "llvm -mcpu=nehalem",
    "avx2": "llvm -mcpu=core-avx2",
    "avx512bw": "llvm -mcpu=skylake-avx512",
    "avx512vnni": "llvm -mcpu=cascadelake",
}
ORDER = list(TARGETS)
HOST = _core.host_int8_isa()
RUNNABLE = [isa for isa in ORDER if ORDER.index(isa) <= ORDER.index(HOST)]


def _build(expr, target, params=None):
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    with tvm.transform.PassContext(opt_level=3):
        return relay.build(mod, target=target, params=params)


def _run(lib, **inputs):
    m = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    for name, value in inputs.items():
        m.set_input(name, value)
    m.run()
    return m.get_output(0).numpy()


def _conv(data_dtype, weight_dtype, shape=(1, 17, 12, 11), channels=29, padding=(1, 1)):
    x = relay.var("x", shape=shape, dtype=data_dtype)
    w = relay.var("w", shape=(channels, shape[1], 3, 3), dtype=weight_dtype)
    return relay.nn.conv2d(x, w, kernel_size=(3, 3), channels=channels, padding=padding,
                           out_dtype="int32")


def _numpy_conv(x, w, pad):
    """NCHW / OIHW, stride 1, in int64 (exact), then int32."""
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    out = np.zeros((n, o, h - kh + 1, wd - kw + 1), np.int64)
    for r in range(kh):
        for s in range(kw):
            patch = x[:, :, r:r + out.shape[2], s:s + out.shape[3]]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, r, s].astype(np.int64))
    return out.astype(np.int32)


def _extremes(shape, dtype, rng):
    lo, hi = (-128, 127) if dtype == "int8" else (0, 255)
    return rng.choice(np.array([lo, hi, hi, 0]), size=shape).astype(dtype)


@pytest.mark.parametrize(
    "target, isa",
    [("llvm", "sse2"), ("c", "sse2")] + [(t, isa) for isa, t in TARGETS.items()]
    + [("llvm -mcpu=icelake-server", "avx512vnni"), ("llvm -mcpu=haswell", "avx2"),
       ("llvm -mattr=+avx512bw,+avx512vnni", "avx512vnni"), ("llvm -mcpu=alderlake", "avx2")],
)
def test_target_decides_the_variant(target, isa):
    # TVM v0.13 topi/x86/utils.py: target_has_vnni / _avx512 / _avx2 / _sse42.
    lib = _build(_conv("uint8", "int8"), target)
    assert lib.lib.get_source("asm").count("relaypass_int8_gemm_u8s8_" + isa + ":") == 1


@pytest.mark.parametrize("isa", ORDER)
def test_asm_holds_the_targets_int8_instructions(isa):
    # What TVM's test_op_level2.py / test_op_level1.py look for in TVM's code for these targets.
    wanted = {
        "sse2": ["pmaddwd", "paddd"],
        "ssse3": ["pmaddubsw", "pmaddwd", "paddd"],
        "avx2": ["vpmaddubsw", "vpmaddwd", "vpaddd"],
        "avx512bw": ["vpmaddubsw", "vpmaddwd", "vpaddd", "zmm"],
        "avx512vnni": ["vpdpbusd", "zmm"],
    }[isa]
    for data_dtype in ["uint8", "int8"]:
        asm = _build(_conv(data_dtype, "int8"), TARGETS[isa]).lib.get_source("asm")
        for instruction in wanted:
            assert instruction in asm, (isa, data_dtype, instruction)
    # uint8 x uint8: no byte-product instruction exists; the widening kernel only.
    asm = _build(_conv("uint8", "uint8"), TARGETS[isa]).get_lib().get_source("asm")
    assert "pmaddubs" not in asm and "vpdpbusd" not in asm
    assert "relaypass_int8_gemm_u8u8_" + isa + ":" in asm
    assert "relaypass_int8_gemm_u8s8_" not in asm


def test_asm_lists_each_kernel_once_and_names_the_operators():
    x = relay.var("x", shape=(4, 32), dtype="uint8")
    w1 = relay.var("w1", shape=(16, 32), dtype="int8")
    w2 = relay.var("w2", shape=(8, 16), dtype="uint8")
    y = relay.nn.dense(x, w1, out_dtype="int32")
    y = relay.nn.dense(relay.cast(relay.clip(y, 0, 255), "uint8"), w2, out_dtype="int32")
    lib = _build(y, "llvm -mcpu=cascadelake")
    asm = lib.lib.get_source("asm")
    assert asm.count(".globl\trelaypass_int8_gemm_u8s8_avx512vnni\n") == 1
    assert asm.count(".globl\trelaypass_int8_gemm_u8u8_avx512vnni\n") == 1
    assert "nn.dense (uint8 x int8 -> int32)" in asm
    assert "nn.dense (uint8 x uint8 -> int32)" in asm
    # The same text through the deprecated tuple and the imported module.
    _, tuple_lib, _ = _build_tuple(y, "llvm -mcpu=cascadelake")
    assert tuple_lib.get_source("asm") == asm
    assert lib.module.imported_modules[0].get_source("asm") == asm


def _build_tuple(expr, target):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        graph, lib, params = _build(expr, target)
    return graph, lib, params


def test_module_without_int8_products_says_no_code_is_generated():
    x = relay.var("x", shape=(2, 3), dtype="float32")
    lib = _build(relay.nn.relu(x), "llvm -mcpu=cascadelake")
    text = lib.lib.get_source("asm")
    assert text.startswith("#") and "generates no code" in text
    # int8 operands with an int8 result are not int8 GEMM products either (reference loop).
    a = relay.var("a", shape=(2, 3), dtype="int8")
    b = relay.var("b", shape=(4, 3), dtype="int8")
    assert "generates no code" in _build(relay.nn.dense(a, b), "llvm").lib.get_source("asm")
    # Formats without real text keep the error (TVM's TVMError type).
    for fmt in ["ll", "c", ""]:
        with pytest.raises(tvm.TVMError):
            lib.lib.get_source(fmt)


@pytest.mark.parametrize("isa", RUNNABLE)
@pytest.mark.parametrize("dtypes", [("uint8", "int8"), ("int8", "int8"), ("uint8", "uint8"),
                                    ("int8", "uint8")])
def test_conv2d_matches_numpy_exactly(isa, dtypes):
    rng = np.random.default_rng(0)
    x = _extremes((1, 17, 12, 11), dtypes[0], rng)
    w = _extremes((29, 17, 3, 3), dtypes[1], rng)
    lib = _build(_conv(*dtypes), TARGETS[isa], params={"w": w})
    np.testing.assert_array_equal(_run(lib, x=x), _numpy_conv(x, w, 1))


@pytest.mark.parametrize("isa", RUNNABLE)
def test_dense_and_batch_matmul_match_numpy_exactly(isa):
    rng = np.random.default_rng(1)
    for k in [1, 7, 97, 130]:
        x = _extremes((5, k), "uint8", rng)
        w = _extremes((13, k), "int8", rng)
        lib = _build(relay.nn.dense(relay.var("x", shape=(5, k), dtype="uint8"),
                                    relay.var("w", shape=(13, k), dtype="int8"),
                                    out_dtype="int32"), TARGETS[isa])
        np.testing.assert_array_equal(_run(lib, x=x, w=w),
                                      x.astype(np.int32) @ w.astype(np.int32).T)
        a = _extremes((3, 4, k), "int8", rng)
        b = _extremes((1, 6, k), "int8", rng)  # a batch of 1 broadcasts
        lib = _build(relay.nn.batch_matmul(relay.var("a", shape=(3, 4, k), dtype="int8"),
                                           relay.var("b", shape=(1, 6, k), dtype="int8"),
                                           out_dtype="int32"), TARGETS[isa])
        np.testing.assert_array_equal(
            _run(lib, a=a, b=b), np.matmul(a.astype(np.int32), b.astype(np.int32).transpose(0, 2, 1)))


def test_nhwc_and_grouped_conv2d_match_numpy():
    rng = np.random.default_rng(2)
    x = _extremes((1, 8, 9, 10), "int8", rng)
    w = _extremes((6, 4, 3, 3), "int8", rng)  # groups=2: 4 input channels each
    y = relay.nn.conv2d(relay.var("x", shape=(1, 9, 10, 8), dtype="int8"),
                        relay.var("w", shape=(3, 3, 4, 6), dtype="int8"), kernel_size=(3, 3),
                        channels=6, groups=2, padding=(1, 1), data_layout="NHWC",
                        kernel_layout="HWIO", out_dtype="int32")
    lib = _build(y, "llvm -mcpu=cascadelake" if "avx512vnni" in RUNNABLE else "llvm")
    got = _run(lib, x=x.transpose(0, 2, 3, 1), w=w.transpose(2, 3, 1, 0)).transpose(0, 3, 1, 2)
    want = np.concatenate([_numpy_conv(x[:, 4 * g:4 * g + 4], w[3 * g:3 * g + 3], 1)
                           for g in range(2)], axis=1)
    np.testing.assert_array_equal(got, want)


def test_export_keeps_the_variant(tmp_path):
    lib = _build(_conv("uint8", "int8"), "llvm -mcpu=nehalem")
    path = str(tmp_path / "lib.so")
    lib.export_library(path)
    loaded = tvm.runtime.load_module(path)
    assert "relaypass_int8_gemm_u8s8_ssse3:" in loaded.imported_modules[0].get_source("asm")


def test_a_variant_the_processor_lacks_is_an_error(tmp_path):
    # RELAYPASS_INT8_ISA=ssse3 makes relaypass take this processor as one without AVX2 and
    # AVX-512 (a new process: it is read once). TVM's code would stop on an illegal instruction.
    import subprocess
    import sys

    script = tmp_path / "run.py"
    script.write_text(
        "import numpy as np\n"
        "import relaypass as tvm\n"
        "from relaypass import relay\n"
        "from relaypass.contrib import graph_executor\n"
        "x = relay.var('x', shape=(2, 8), dtype='uint8')\n"
        "w = relay.var('w', shape=(4, 8), dtype='int8')\n"
        "mod = tvm.IRModule.from_expr(relay.nn.dense(x, w, out_dtype='int32'))\n"
        "for target in ['llvm -mcpu=nehalem', 'llvm -mcpu=cascadelake']:\n"
        "    m = graph_executor.GraphModule(relay.build(mod, target)['default'](tvm.cpu(0)))\n"
        "    m.set_input('x', np.full((2, 8), 255, 'uint8'))\n"
        "    m.set_input('w', np.full((4, 8), -128, 'int8'))\n"
        "    try:\n"
        "        m.run()\n"
        "        print(target, 'ran', m.get_output(0).numpy()[0, 0])\n"
        "    except tvm.TVMError as e:\n"
        "        print(target, 'error', str(e).splitlines()[0])\n"
    )
    import os

    env = dict(os.environ, RELAYPASS_INT8_ISA="ssse3")
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "llvm -mcpu=nehalem ran {}".format(255 * -128 * 8)
    assert out[1].startswith("llvm -mcpu=cascadelake error")
    assert "AVX-512 VNNI" in out[1]
