"""relaypass: TVM's Relay IR and pass infrastructure, standalone and fast, with TVM's Python API.

``import relaypass as tvm`` gives the names a TVM script uses (``tvm.IRModule``,
``tvm.transform``, ``tvm.relay``, ``tvm.instrument``, ``tvm.target``, ``tvm.nd``); run an
unchanged TVM script with ``python3 -m relaypass.tvm_compat SCRIPT``. See docs/python.md.
"""
from . import _core
from ._errors import TVMError, DiagnosticError
from . import error
from . import nd
from .nd import cpu, device, NDArray  # noqa: F401
from .nd import cuda, gpu, cl, opencl, vulkan, metal, rocm, ext_dev, hexagon, webgpu  # noqa: F401
from . import ir
from .ir import IRModule
from . import instrument
from . import transform
from . import target
from . import parser
from . import relay
from . import runtime
from . import contrib
from . import topi
from . import _ffi
from ._ffi.registry import register_func, get_global_func  # noqa: F401
from ._unsupported import te, tir, autotvm, auto_scheduler, meta_schedule, rpc

__version__ = "0.13.0"  # the TVM version whose API and behaviour relaypass follows
