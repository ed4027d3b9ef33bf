"""tvm.relay.frontend.pytorch: TorchScript modules as Relay modules (docs/pytorch.md).

graph.py reads TorchScript graphs, inputs.py and params.py make main's parameters, convert.py
and control_flow.py walk the nodes, context.py is what converters see, and one file per area
(elementwise, activations, nn, matmul, shape_ops, reduce, creation, indexing, misc) registers
the converters table.py assembles."""
from .importer import from_pytorch  # noqa: F401

__all__ = ["from_pytorch"]
