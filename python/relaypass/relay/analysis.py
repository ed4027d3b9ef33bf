"""relay.analysis: traversals over the C++ graph (iterative: deep graphs are fine)."""
from .. import _core
from .expr import Var


def post_order_visit(expr, fvisit):
    """Call ``fvisit(node)`` on every node reachable from ``expr``, children first, each once
    (operators included, as TVM)."""
    _core.post_order_visit(expr, fvisit)


def free_vars(expr):
    """The free variables of ``expr`` in post-order of first occurrence."""
    return _core.free_vars(expr)


def all_vars(expr):
    """Every variable of ``expr`` (free and bound) in post-order."""
    out = []
    seen = set()

    def visit(node):
        if isinstance(node, Var) and node not in seen:
            seen.add(node)
            out.append(node)

    _core.post_order_visit(expr, visit)
    return out


def bound_vars(expr):
    """The variables bound in ``expr`` (function parameters and let variables)."""
    free = set(free_vars(expr))
    return [v for v in all_vars(expr) if v not in free]
