"""relay.ExprVisitor / ExprMutator subclassed in Python, as TVM's: memoized, unchanged nodes
kept, changed nodes rebuilt; deep graphs do not hit Python's recursion limit."""
import relaypass as tvm
from relaypass import relay


def chain(n):
    x = relay.var("x", shape=(1, 4))
    y = x
    for i in range(n):
        y = relay.add(y, relay.const(1.0)) if i % 2 == 0 else relay.nn.relu(y)
    return relay.Function([x], y)


def test_visitor_counts_each_node_once():
    x = relay.var("x", shape=(2,))
    shared = relay.exp(x)
    f = relay.Function([x], relay.add(shared, shared))

    class Count(relay.ExprVisitor):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def visit_call(self, call):
            self.calls += 1
            super().visit_call(call)

    v = Count()
    v.visit(f)
    assert v.calls == 2


def test_mutator_keeps_unchanged_nodes_and_rebuilds_changed_ones():
    f = chain(6)
    same = relay.ExprMutator().visit(f)
    assert same.same_as(f)

    class ReluToSigmoid(relay.ExprMutator):
        def visit_call(self, call):
            new = super().visit_call(call)
            if new.op.name == "nn.relu":
                return relay.sigmoid(new.args[0])
            return new

    out = ReluToSigmoid().visit(f)
    text = str(out)
    assert "nn.relu" not in text and text.count("sigmoid(") == 3


def test_deep_chain_visits_without_recursion_errors():
    f = chain(20000)

    class Double(relay.ExprMutator):
        def visit_constant(self, c):
            return relay.const(2.0)

    out = Double().visit(f)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(out))
    assert str(mod["main"].ret_type) == "Tensor[(1, 4), float32]"
    count = [0]

    class CountAdds(relay.ExprVisitor):
        def visit_call(self, call):
            count[0] += call.op.name == "add"
            super().visit_call(call)

    CountAdds().visit(out)
    assert count[0] == 10000
