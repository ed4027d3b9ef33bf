"""relay.transform.recast: TVM's hard-casting pass (python/tvm/relay/transform/recast.py), for
timing operators at another dtype. Each call to one of ``ops`` gets its inputs cast to ``dtype``,
its ``out_dtype`` attribute (when it has one) set to ``out_dtype``, and its result cast back to
its original dtype. ``skip_layers`` names layers to leave alone, numbered as TVM numbers them."""
from .. import _core
from ..ir import IRModule, Op
from .analysis import count_layers
from .expr import Call, Tuple
from .expr_functor import ExprMutator, _children
from .op.tensor import cast


def _layer_numbers(expr, valid_ops, layer_count):
    """{call: layer} for the calls to ``valid_ops``, as TVM's RecastMutator numbers them while
    it visits (memoized, from the output): a call first reached at depth d (the number of valid
    calls above it on that path) is layer ``layer_count - d - 1``. TVM raises the depth for the
    call's operator and its first argument only (it restores it after each argument), so later
    arguments are reached at the call's own depth; the numbering keeps that. Iterative, so deep
    graphs do not reach Python's recursion limit."""
    layers = {}
    visited = set()
    depth = 0
    stack = [("visit", expr)]
    while stack:
        task, item = stack.pop()
        if task == "set":
            depth = item
            continue
        if item in visited:
            continue
        visited.add(item)
        if isinstance(item, Call):
            entry = depth
            valid = item.op in valid_ops
            if valid:
                layers[item] = layer_count - entry - 1
            todo = [("set", entry + 1 if valid else entry), ("visit", item.op)]
            for arg in item.args:
                todo += [("visit", arg), ("set", entry)]
            stack.extend(reversed(todo))
        else:
            stack.extend(("visit", c) for c in reversed(_children(item)))
    return layers


def _original_dtype(call):
    """The dtype of ``call``'s result: its out_dtype attribute when set, else inferred."""
    attrs = call.attrs
    if attrs is not None and "out_dtype" in attrs.keys() and str(attrs["out_dtype"]) != "":
        return str(attrs["out_dtype"])
    from .transform import InferType

    mod = InferType()(IRModule.from_expr(call))
    return mod["main"].body.checked_type.dtype


class _RecastMutator(ExprMutator):
    def __init__(self, dtype, out_dtype, layers, skip):
        super().__init__()
        self.dtype = dtype
        self.out_dtype = out_dtype
        self.layers = layers
        self.skip = skip

    def _unchanged(self, call):
        # ExprMutator.visit_call in fewer Python frames (no super(), no comprehension), so the
        # base class's depth limit still keeps deep graphs under the recursion limit.
        new_op = self.visit(call.op)
        new_args = []
        for arg in call.args:
            new_args.append(self.visit(arg))
        if new_op == call.op and new_args == list(call.args):
            return call
        return _core.call_with_fields(call, new_op, new_args)

    def visit_call(self, call):
        layer = self.layers.get(call)
        if layer is None or layer in self.skip:
            return self._unchanged(call)
        new_op = self.visit(call.op)
        if call.op == Op.get("concatenate"):
            # TVM casts the tuple's fields, and leaves any other form of concatenate as it is.
            if len(call.args) != 1 or not isinstance(call.args[0], Tuple):
                return self._unchanged(call)
            fields = [cast(self.visit(f), self.dtype) for f in call.args[0].fields]
            new_args = [Tuple(fields)]
        else:
            new_args = [cast(self.visit(a), self.dtype) for a in call.args]
        attrs = call.attrs
        if attrs is not None and "out_dtype" in attrs.keys():
            values = dict(attrs.items())
            values["out_dtype"] = self.out_dtype
            attrs = _core.make_op_attrs(call.op.name, values)
        return cast(Call(new_op, new_args, attrs), _original_dtype(call))


def recast(expr, dtype, out_dtype, ops=None, skip_layers=None):
    """Convert the dtypes of the calls to ``ops`` (default ``["nn.conv2d"]``) in ``expr`` (an
    expression, a function or an IRModule, whose "main" is converted; an IRModule gives an
    IRModule) to ``dtype``, their ``out_dtype`` attribute to ``out_dtype``, casting their results
    back. ``skip_layers``: layers left unchanged, counted from the first valid operation (0)
    toward the output; negative numbers count from the last. Only useful to time operators at
    another dtype: the hard casts change the model's results."""
    return_mod = isinstance(expr, IRModule)
    if return_mod:
        expr = expr["main"]
    ops = ["nn.conv2d"] if ops is None else list(ops)
    count = count_layers(expr, ops)
    skip = {layer + count if layer < 0 else layer for layer in (skip_layers or [])}
    layers = _layer_numbers(expr, {Op.get(name) for name in ops}, count)
    result = _RecastMutator(dtype, out_dtype, layers, skip).visit(expr)
    if return_mod:
        return IRModule.from_expr(result)
    return result

