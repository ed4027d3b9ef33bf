"""Reading a TorchScript graph: the JIT passes TVM runs first, TVM's renaming of node outputs
(`aten::relu_3_0`: the op kind, its index among nodes of that kind, the output's index), the
nodes to convert, the constants they carry. Every walk is iterative (explicit stacks), so a
deep graph or deeply nested blocks cannot exhaust Python's recursion limit."""
import re

import numpy as np

from ... import expr as _expr

PRIM_WITH_BLOCKS = ("prim::If", "prim::Loop")


def run_jit_passes(graph, lower_all_tuples=True):
    """Inlines prim::CallMethod (TVM runs torch's ONNX function substitution, an inline pass with
    special cases for ops like aten::__interpolate) and, unless the graph takes tuples or lists,
    flattens tuples."""
    import torch

    torch._C._jit_pass_onnx_function_substitution(graph)  # pylint: disable=protected-access
    if lower_all_tuples:
        torch._C._jit_pass_lower_all_tuples(graph)  # pylint: disable=protected-access


def input_names(node_or_graph):
    return [value.debugName() for value in node_or_graph.inputs()]


def output_names(node):
    return [value.debugName() for value in node.outputs()]


def output_type_kind(node):
    return node.output().type().kind()


def users(node):
    """The nodes that use any output of ``node``."""
    return [use.user for output in node.outputs() for use in output.uses()]


def all_nodes(block):
    """Every node of ``block`` and of the blocks nested in it, parents before children."""
    found = []
    stack = [iter(block.nodes())]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        found.append(node)
        blocks = list(node.blocks())
        for inner in reversed(blocks):
            stack.append(iter(inner.nodes()))
    return found


def all_op_names(graph):
    """The kinds of every node in the graph, nested blocks included."""
    return {node.kind() for node in all_nodes(graph)}


class SourceNames:
    """TVM's renaming: each node (but prim::GetAttr) gets the source name KIND_INDEX, counted per
    kind in graph order (the nodes of a prim::If/prim::Loop block before the node itself), and its
    outputs are renamed SOURCE_OUTPUTINDEX. Parameter names and spans derive from these names."""

    def __init__(self, graph, use_parser_friendly_name=False):
        self.by_node = {}
        self._count = {}
        self._friendly = use_parser_friendly_name
        self._rename_all(graph)

    def __getitem__(self, node):
        return self.by_node[node]

    def _rename(self, node):
        if node.kind() == "prim::GetAttr":
            return
        index = self._count.get(node.kind(), -1) + 1
        self._count[node.kind()] = index
        source = "{}_{}".format(node.kind(), index)
        for i, output in enumerate(node.outputs()):
            output.setDebugName("{}_{}".format(source, i))
        if self._friendly:
            source = re.sub(r":|\.", "_", source)
        self.by_node[node] = source

    def _rename_all(self, graph):
        # Post-order over blocks: a node with blocks is renamed after the nodes inside them.
        stack = [(iter(graph.nodes()), None)]
        while stack:
            nodes, owner = stack[-1]
            node = next(nodes, None)
            if node is None:
                stack.pop()
                if owner is not None:
                    self._rename(owner)
                continue
            if node.outputsSize() == 0:
                continue
            if node.kind() in PRIM_WITH_BLOCKS:
                blocks = list(node.blocks())
                # The owner is renamed when its last block is done.
                stack.append((iter(()), node))
                for block in reversed(blocks):
                    stack.append((iter(block.nodes()), None))
                continue
            self._rename(node)


def operator_nodes(nodes):
    """(name, node) for each node to convert: nodes with outputs, but not prim::GetAttr (those are
    parameters). A node with several outputs is named by its outputs joined with '_'."""
    ops = []
    for node in nodes:
        if node.outputsSize() == 0 or node.kind() == "prim::GetAttr":
            continue
        ops.append(("_".join(output_names(node)), node))
    return ops


def constant_value(node):
    """The Python value of a prim::Constant node: int, bool, float, str, a Relay constant for a
    tensor (a Python number for a 0-d tensor), or None."""
    names = node.attributeNames()
    if not names:
        return None
    name = names[0]
    kind = output_type_kind(node)
    if kind == "IntType":
        return node.i(name)
    if kind == "BoolType":
        return bool(node.i(name))
    if kind in ("FloatType", "LongType"):
        return node.f(name)
    if kind in ("TensorType", "CompleteTensorType"):
        tensor = node.t(name).cpu()
        if len(tensor.shape) == 0:
            return tensor.item()
        return _expr.const(np.array(tensor.numpy()))
    if kind in ("DeviceObjType", "StringType"):
        return node.s(name)
    if kind == "FunctionType":
        return None
    raise NotImplementedError("Unsupported type: {}".format(kind))


def getattr_chains(root):
    """The chains of prim::GetAttr nodes starting at ``root`` (self.block.0.weight is the chain
    block, 0, weight): followed through users while the next user is a prim::GetAttr."""
    chains = []
    stack = [[root]]
    while stack:
        chain = stack.pop()
        next_users = users(chain[-1])
        if not [user for user in next_users if user.kind() == "prim::GetAttr"]:
            chains.append(chain)
            continue
        for user in reversed(next_users):
            stack.append(chain + [user])
    return chains


def getattr_name(node):
    names = node.attributeNames()
    assert len(names) == 1
    return node.s(names[0])


def free_names_of_block(block):
    """Names a block uses but neither takes as inputs nor defines."""
    bound = set(input_names(block))
    free = []
    for node in block.nodes():
        for name in input_names(node):
            if name not in bound and name not in free:
                free.append(name)
        bound.update(output_names(node))
    return free
