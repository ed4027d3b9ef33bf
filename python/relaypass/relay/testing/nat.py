"""tvm.relay.testing.nat: Peano numbers over the nat ADT of nat.rly (import it with
``prelude.mod.import_from_std("nat.rly")``), as TVM's helpers."""
from ..backend.interpreter import ConstructorValue


def count(prelude, n):
    """The Python int a nat ConstructorValue stands for (iterative: nats are deep)."""
    assert isinstance(n, ConstructorValue)
    _, z, s = prelude.mod.get_type("nat")
    total = 0
    while n.tag != z.tag:
        assert n.tag == s.tag
        total += 1
        n = n.fields[0]
    return total


def make_nat_value(prelude, n):
    """The ConstructorValue of nat ``n``."""
    _, z, s = prelude.mod.get_type("nat")
    value = ConstructorValue(z.tag, [], z)
    for _ in range(n):
        value = ConstructorValue(s.tag, [value], s)
    return value


def make_nat_expr(prelude, n):
    """The expression succ(succ(...zero)) of nat ``n``."""
    assert n >= 0
    _, z, s = prelude.mod.get_type("nat")
    ret = z()
    for _ in range(n):
        ret = s(ret)
    return ret
