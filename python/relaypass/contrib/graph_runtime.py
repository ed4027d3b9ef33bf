"""tvm.contrib.graph_runtime: the older name of tvm.contrib.graph_executor."""
from .graph_executor import GraphModule, create  # noqa: F401
