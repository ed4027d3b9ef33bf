"""Small helpers of TVM's relay.testing used by gradient tests: rand and count_ops (the nat
helpers are in nat.py)."""
import numpy as np



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
