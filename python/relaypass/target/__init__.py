"""tvm.target: Target (TVM's kinds, options and string form) and its helpers, VirtualDevice,
codegen."""
from . import target  # noqa: F401
from . import codegen  # noqa: F401
from .virtual_device import VirtualDevice  # noqa: F401
from .compilation_config import CompilationConfig, make_compilation_config  # noqa: F401
from .target import (  # noqa: F401
    Target,
    TargetKind,
    create,
    cuda,
    rocm,
    mali,
    intel_graphics,
    arm_cpu,
    rasp,
    bifrost,
    hexagon,
)
