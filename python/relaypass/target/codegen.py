"""tvm.target.codegen: what TVM's scripts ask of the code generator. relaypass generates no code:
its "llvm" target runs on the CPU evaluator, in place of TVM v0.13 as built with LLVM 14 (the
build whose results relaypass is measured against). ``llvm_version_major`` gives that version, so
scripts that choose what to run by it choose as they would there; the rest is not available."""
from .._unsupported import _Missing

# The LLVM major version of the TVM v0.13 build relaypass's "llvm" target stands in for.
_REFERENCE_LLVM_MAJOR = 14


def llvm_version_major(allow_none=False):
    """The LLVM major version relaypass's "llvm" target follows (see the module's docstring)."""
    return _REFERENCE_LLVM_MAJOR


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm.target.codegen." + name)
