"""Converting a list of TorchScript nodes: the prim:: nodes the importer handles itself
(constants, lists, tuples, control flow) and every other node through the converter table."""
import logging

from ... import expr as _expr
from . import lists
from .context import wrap_const
from .dtypes import node_input_types
from .graph import constant_value, input_names, operator_nodes, output_names

logger = logging.getLogger("relaypass.frontend.pytorch")


def _as_list(value):
    """A TupleWrapper (what relay.split returns) as a Python list of its items."""
    if isinstance(value, _expr.TupleWrapper):
        return [value[i] for i in range(len(value))]
    return value


def _unpack(ctx, value):
    value = _as_list(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, _expr.Tuple):
        return list(value.fields)
    if isinstance(value, _expr.Expr):  # a tuple-typed variable or call (a list's element)
        ty = ctx.infer_type(value)
        if isinstance(ty, _expr.TupleType):
            return [_expr.TupleGetItem(value, i) for i in range(len(ty.fields))]
    raise NotImplementedError("cannot unpack {} (a tuple built at run time)".format(type(value)))


def _to_tuple(values):
    """A (possibly nested) Python list of expressions as a Relay tuple (TVM's TupleConstruct)."""
    values = _as_list(values)
    if not isinstance(values, (list, tuple)):
        return values
    # Iterative: each frame is (items, converted so far).
    stack = [(list(values), [])]
    while True:
        items, done = stack[-1]
        if len(done) == len(items):
            stack.pop()
            built = _expr.Tuple(done)
            if not stack:
                return built
            stack[-1][1].append(built)
            continue
        item = _as_list(items[len(done)])
        if isinstance(item, (list, tuple)):
            stack.append((list(item), []))
        else:
            assert isinstance(item, _expr.Expr), "a tuple of non-tensors: {}".format(item)
            done.append(item)


class NodeConverter:
    """Converts nodes in order, filling ``outputs`` ({TorchScript value name: converted value})."""

    def __init__(self, ctx, convert_map):
        self.ctx = ctx
        self.convert_map = convert_map
        self._warned_inplace = set()

    def convert_nodes(self, nodes, outputs, return_names):
        for name, node in operator_nodes(nodes):
            self._convert_node(name, node, outputs)
        return [wrap_const(outputs[name]) for name in return_names]

    def _convert_node(self, name, node, outputs):
        kind = node.kind()
        inputs = [outputs[n] for n in input_names(node)]
        self.ctx.current_kind = kind
        if kind == "prim::Constant":
            outputs[name] = constant_value(node)
        elif kind == "prim::ListConstruct":
            # A list that changes at run time is the Prelude's List ADT (TVM's rule).
            outputs[name] = lists.to_list_adt(self.ctx, inputs) \
                if lists.should_construct_dynamic_list(node) else inputs
        elif kind == "prim::TupleConstruct":
            outputs[name] = _to_tuple(inputs)
        elif kind in ("prim::ListUnpack", "prim::TupleUnpack"):
            assert len(inputs) == 1
            outputs.update(zip(output_names(node), _unpack(self.ctx, inputs[0])))
        elif kind == "prim::RaiseException":
            logger.warning("raising exceptions is ignored")
            outputs[name] = None
        elif kind == "prim::If":
            from .control_flow import convert_if

            outputs[name] = convert_if(self, node, outputs)
        elif kind == "prim::Loop":
            from .control_flow import convert_loop

            outputs.update(zip(output_names(node), convert_loop(self, node, outputs)))
        else:
            self._convert_op(name, node, kind, inputs, outputs)

    def _convert_op(self, name, node, kind, inputs, outputs):
        fn = self.convert_map.get(kind)
        if fn is None:  # in-place variants (aten::relu_) convert as the op itself
            if kind not in self._warned_inplace:  # TVM warns per node; once per kind here
                self._warned_inplace.add(kind)
                logger.warning(
                    "An in-place op %s found, the result will not be correct if the model "
                    "depends on side-effects by this op.", kind)
            fn = self.convert_map[kind[:-1]]
        types = node_input_types(node, outputs, self.ctx.default_dtype)
        result = fn(inputs, types)
        if isinstance(result, _expr.TupleWrapper) and node.outputsSize() == 1:
            result = _as_list(result)  # a List[Tensor] output
        if isinstance(result, tuple):
            outputs.update(zip(output_names(node), result))
        else:
            assert node.outputsSize() == 1
            outputs[name] = result
