"""tvm.support: ``libinfo()``, the build options of this "TVM build" as TVM reports its
config.cmake flags.

relaypass runs programs for the CPU targets ("llvm", "c") on its own evaluator, so it reports
``USE_LLVM`` as ``"ON"``; every other option (CUDA, cuDNN, OpenCL, Vulkan, Hexagon, microTVM,
RPC, the BYOC libraries, ...) is ``"OFF"``: relaypass has no code generator, runtime or device
for them. tvm.testing's ``requires_*`` markers read these flags as TVM's do."""

# Every flag TVM's tvm.testing consults (the cmake_flag of its Features) and the BYOC options
# of TVM v0.13's cmake/config.cmake that test files check.
_OPTIONS = (
    "USE_CUDA", "USE_CUDNN", "USE_CUBLAS", "USE_NCCL", "USE_CUTLASS",
    "USE_OPENCL", "USE_CLML", "USE_ROCM", "USE_METAL", "USE_VULKAN",
    "USE_HEXAGON", "USE_MICRO", "USE_RPC", "USE_ETHOSN", "USE_ETHOSU", "USE_CMSISNN",
    "USE_VITIS_AI", "USE_LIBTORCH", "USE_MRVL", "USE_DNNL", "USE_TENSORRT_CODEGEN",
    "USE_TENSORRT_RUNTIME", "USE_ARM_COMPUTE_LIB", "USE_BNNS", "USE_COREML", "USE_UMA",
)


def libinfo():
    """The build options, {"USE_xxx": "ON"/"OFF"}, as tvm.support.libinfo() gives them."""
    info = {name: "OFF" for name in _OPTIONS}
    info["USE_LLVM"] = "ON"
    return info
