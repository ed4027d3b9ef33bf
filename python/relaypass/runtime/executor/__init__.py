"""tvm.runtime.executor: the AOT executor's Python wrapper (AotModule)."""
from .aot_executor import AotModule  # noqa: F401
