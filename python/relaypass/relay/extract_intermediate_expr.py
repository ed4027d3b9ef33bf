"""relay.analysis.extract_intermdeiate_expr (TVM's spelling): the module whose main computes
only the expression numbered ``expr_id`` of the module's main."""
from .._errors import InternalError
from ..ir import IRModule
from .expr import Call, Tuple, TupleGetItem
from .expr_functor import _children


def _numbered(root):
    """The calls, tuples and tuple projections under ``root`` in post-order (children first,
    in TVM's visiting order, each node once): the order of the ``%N`` numbers of the text
    format. Iterative, for deep graphs."""
    out = []
    seen = set()
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            if isinstance(node, (Call, Tuple, TupleGetItem)):
                out.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(_children(node)))
    return out


def extract_intermdeiate_expr(mod, expr_id):
    """The expression ``%expr_id`` of ``mod["main"]`` (numbered as print(mod["main"]) numbers
    it) as the body of a new module's main, its free variables becoming the parameters.
    An id outside the numbered expressions is an InternalError, as TVM's check."""
    nodes = _numbered(mod["main"])
    if not 0 <= expr_id < len(nodes):
        raise InternalError(
            "Check failed: (target_expr_id_ >= 0 && target_expr_id_ < counter_) is false: "
            "expr_id {} is not one of main's {} numbered expressions".format(expr_id, len(nodes)))
    return IRModule.from_expr(nodes[expr_id])
