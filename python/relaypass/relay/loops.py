"""tvm.relay.loops: while_loop, TVM's recursive let-bound function (python/tvm/relay/loops.py):
``let %while_loop = fn (vars) { if (cond(vars)) %while_loop(body(vars)) else (vars) }``."""
from . import expr as _expr
from .scope_builder import ScopeBuilder


def while_loop(cond, loop_vars, loop_bodies):
    """A function of the loop variables that runs ``loop_bodies`` while ``cond`` holds and
    returns the tuple of their final values. ``cond`` and ``loop_bodies`` take the loop variables
    (fresh ones, typed as ``loop_vars``); ``loop_bodies`` returns their next values."""
    sb = ScopeBuilder()
    loop = _expr.Var("while_loop")
    fresh_vars = []
    for i, loop_var in enumerate(loop_vars):
        name = loop_var.name_hint if isinstance(loop_var, _expr.Var) else "arg{}".format(i)
        annotation = (loop_var.type_annotation if isinstance(loop_var, _expr.Var)
                      else sb.type_of(loop_var))
        fresh_vars.append(_expr.var(name, type_annotation=annotation))
    with sb.if_scope(cond(*fresh_vars)):
        sb.ret(loop(*loop_bodies(*fresh_vars)))
    with sb.else_scope():
        sb.ret(_expr.Tuple(fresh_vars))
    func = _expr.Function(fresh_vars, sb.get())
    return _expr.Let(loop, func, loop)
