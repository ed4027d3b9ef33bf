"""prim::If and prim::Loop (torch.jit.script modules) as Relay control flow: an If whose branches
are the converted blocks, and TVM's while loop, a let-bound recursive function over the loop
counter (or condition) and the loop-carried values. Both run on the VM and the debug
executor; the graph executor, as TVM's, takes no control flow.

Nested blocks are converted by recursion on their nesting depth in the source program (a block
inside an If inside a Loop is three calls deep), never on the number of nodes."""
import sys

from ... import expr as _expr
from ... import op as _op
from ...function import Function
from .context import wrap_const
from .graph import constant_value, free_names_of_block, input_names


def convert_block(converter, block, outputs):
    return converter.convert_nodes(block.nodes(), outputs, input_names(block.returnNode()))


def convert_if(converter, node, outputs):
    cond = wrap_const(outputs[node.inputsAt(0).debugName()])
    then_block, else_block = list(node.blocks())
    then_values = convert_block(converter, then_block, outputs)
    else_values = convert_block(converter, else_block, outputs)
    assert len(then_values) == 1 and len(else_values) == 1
    return _expr.If(cond, then_values[0], else_values[0])


def _loop_var(converter, name, value):
    if converter.ctx.maybe_prelude is not None and _is_empty_list(converter.ctx, value):
        # An empty run-time list (Nil) says nothing of its elements: the variable is left
        # unannotated and type inference takes the element type from the loop body.
        return _expr.var(name)
    return _expr.var(name, type_annotation=converter.ctx.infer_type(value))


def _is_empty_list(ctx, value):
    return isinstance(value, _expr.Call) and value.op.same_as(ctx.prelude.nil) \
        if hasattr(value, "op") else False


def convert_loop(converter, node, outputs):
    """The values the loop carries out, as TupleGetItems of one recursive call."""
    ctx = converter.ctx

    def loop_input(index):
        value = node.inputsAt(index)
        if value.node().kind() == "prim::Constant":
            return _expr.const(constant_value(value.node()))
        return wrap_const(outputs[value.debugName()])

    max_trips = loop_input(0)
    init_cond = loop_input(1)
    num_carried = len(list(node.inputs())) - 2
    init_values = [loop_input(i + 2) for i in range(num_carried)]
    # torch writes a while loop as a loop whose trip count is INT64_MAX
    is_while = node.inputsAt(0).node().kind() == "prim::Constant" and \
        constant_value(node.inputsAt(0).node()) == sys.maxsize
    if is_while:
        init_iter = init_cond if not isinstance(init_cond, _expr.Constant) else \
            _op.cast(init_cond, "bool")
        iter_dtype = "bool"
    else:
        init_iter = _expr.const(0, dtype="int32")
        iter_dtype = "int32"

    body = list(node.blocks())[0]
    block_inputs = input_names(body)
    iter_var = _expr.var(block_inputs[0], shape=(), dtype=iter_dtype)
    carried_vars = [_loop_var(converter, name, value)
                    for name, value in zip(block_inputs[1:], init_values)]
    # Values computed before the loop and used inside it become loop variables too (as in TVM):
    # otherwise each iteration would recompute them.
    free = [name for name in free_names_of_block(body)
            if name in outputs and isinstance(outputs[name], _expr.Expr)
            and not isinstance(outputs[name], _expr.Constant)]
    saved = {name: outputs[name] for name in free}
    free_vars = [_loop_var(converter, name, outputs[name]) for name in free]

    params = [iter_var] + carried_vars + free_vars
    for name, var in zip(block_inputs + free, params):
        outputs[name] = var
    results = convert_block(converter, body, outputs)  # [condition, new carried values...]
    results += [outputs[name] for name in free]
    if is_while:
        next_iter = _op.cast(results[0], "bool") if ctx.infer_dtype(results[0]) != "bool" \
            else results[0]
        keep_going = _op.equal(iter_var, _expr.const(True, "bool"))
    else:
        next_iter = iter_var + _expr.const(1, dtype="int32")
        keep_going = _op.less(iter_var, _op.cast(max_trips, "int32"))
    outputs.update(saved)

    loop = _expr.var("while_loop")
    step = loop(*([next_iter] + [wrap_const(v) for v in results[1:]]))
    func = Function(params, _expr.If(keep_going, step, _expr.Tuple(params)))
    call = _expr.Let(loop, func, loop)(*([init_iter] + init_values + list(saved.values())))
    return [_expr.TupleGetItem(call, i + 1) for i in range(num_carried)]
