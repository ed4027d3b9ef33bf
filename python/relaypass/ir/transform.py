"""tvm.ir.transform: the same module as relaypass.transform."""
from ..transform import *  # noqa: F401,F403
from ..transform import (  # noqa: F401
    Pass,
    ModulePass,
    Sequential,
    PassInfo,
    PassContext,
    module_pass,
    PrintIR,
    ApplyPassToFunction,
)
