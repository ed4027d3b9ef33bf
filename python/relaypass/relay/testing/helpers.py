"""Small helpers of TVM's relay.testing used by gradient tests: rand, count_ops, and
make_nat_expr (which needs TVM's Prelude; relaypass has no ADTs, so it raises)."""
import numpy as np

from ..._errors import OpNotImplemented


def rand(dtype, *shape):
    """A tvm.nd array of uniform random numbers in [0, 1) with ``shape`` and ``dtype``."""
    from ... import nd

    return nd.array(np.random.rand(*shape).astype(dtype))


def count_ops(expr):
    """{operator name: number of calls to it} in ``expr`` (shared calls count once)."""
    from ..expr_functor import ExprVisitor
    from ...ir import Op

    counts = {}

    class _Counter(ExprVisitor):
        def visit_call(self, call):
            if isinstance(call.op, Op):
                counts[call.op.name] = counts.get(call.op.name, 0) + 1
            super().visit_call(call)

    _Counter().visit(expr)
    return counts


def make_nat_expr(prelude, n):
    """TVM's Peano-number expression for ``n``: it needs the Prelude's nat ADT."""
    raise OpNotImplemented("relay.testing.make_nat_expr needs TVM's Prelude (the nat algebraic "
                           "data type); relaypass has no ADTs")
