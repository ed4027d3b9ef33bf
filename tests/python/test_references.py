"""Relay references from Python: relay.RefCreate / RefRead / RefWrite and relay.RefType, their
text, type errors, the interpreter's cells (RefValue) and the Python visitors. Expected values
come from TVM v0.13: the text from its RelayTextPrinter (src/relay/printer/relay_text_printer.cc:
`ref(...)`, `ref_read(...)`, `ref_write(r, v)`, no type comment on the three, `ref(T)` for the
type), the types from its type inferencer (type_infer.cc), the values from the semantics its
interpreter implements (test_backend_interpreter.py::test_ref expects 3)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.backend.interpreter import RefValue


def _three_with_ref():
    # TVM's test_ref: let %i = ref(1); let %iv = ref_read(%i); ref_write(%i, 2); %iv + ref_read(%i)
    i, iv, u, uv = relay.Var("i"), relay.Var("iv"), relay.Var("u"), relay.Var("uv")
    body = relay.add(iv, uv)
    body = relay.Let(uv, relay.RefRead(i), body)
    body = relay.Let(u, relay.RefWrite(i, relay.const(2)), body)
    body = relay.Let(iv, relay.RefRead(i), body)
    body = relay.Let(i, relay.RefCreate(relay.const(1)), body)
    return relay.Function([], body)


def test_nodes_and_attributes():
    x = relay.var("x", shape=(2,))
    r = relay.RefCreate(x)
    read = relay.RefRead(r)
    write = relay.RefWrite(r, x)
    assert r.value.same_as(x)
    assert read.ref.same_as(r)
    assert write.ref.same_as(r) and write.value.same_as(x)
    t = relay.RefType(relay.TensorType((2,), "float32"))
    assert str(t) == "ref(Tensor[(2), float32])"
    assert t == relay.RefType(relay.TensorType((2,), "float32"))
    assert str(t.value) == "Tensor[(2), float32]"


def test_text_and_round_trip():
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(_three_with_ref()))
    text = mod.astext()
    expected = """#[version = "0.0.5"]
def @main() -> int32 {
  let %i: ref(int32) /* ty=ref(int32) */ = ref(1 /* ty=int32 */);
  let %iv: int32 /* ty=int32 */ = ref_read(%i);
  let %u: () /* ty=() */ = ref_write(%i, 2 /* ty=int32 */);
  let %uv: int32 /* ty=int32 */ = ref_read(%i);
  add(%iv, %uv) /* ty=int32 */
}
"""
    assert text == expected
    again = tvm.parser.parse(text)
    tvm.ir.assert_structural_equal(again, mod)


def test_types():
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(_three_with_ref()))
    let = mod["main"].body
    assert let.value.checked_type == relay.RefType(relay.TensorType((), "int32"))
    write = let.body.body.value
    assert isinstance(write, relay.RefWrite)
    assert write.checked_type == relay.TupleType([])


def test_type_errors():
    x = relay.var("x", shape=(2,))
    # The message names the operation and the mismatching types (TVM reports a unification
    # failure between the argument's type and ref(_)).
    with pytest.raises(tvm.error.DiagnosticError, match=r"ref_read of a non-reference: "
                       r"Tensor\[\(2\), float32\] and ref\(_\) do not match"):
        relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([x], relay.RefRead(x))))
    r = relay.RefCreate(relay.const(1))
    bad = relay.RefWrite(r, relay.const(1.0))
    with pytest.raises(tvm.error.DiagnosticError, match="float32 and int32 do not match"):
        relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([], bad)))


def test_evaluation_write_then_read():
    mod = tvm.IRModule.from_expr(_three_with_ref())
    result = relay.create_executor(mod=mod).evaluate()()
    assert result.numpy() == 3  # 1 read before the write, 2 after


def test_result_is_a_ref_value():
    value = relay.create_executor().evaluate(relay.RefCreate(relay.const(3.0)))
    assert isinstance(value, RefValue)
    np.testing.assert_equal(value.value.numpy(), 3.0)


def test_two_calls_make_two_cells():
    # f = fn () { ref(0) }; let %a = f(); let %b = f(); ref_write(%a, 5); ref_read(%b) is 0:
    # each call of f evaluates its ref_create again.
    f = relay.Var("f")
    a, b, u = relay.Var("a"), relay.Var("b"), relay.Var("u")
    body = relay.RefRead(b)
    body = relay.Let(u, relay.RefWrite(a, relay.const(5)), body)
    body = relay.Let(b, relay.Call(f, []), body)
    body = relay.Let(a, relay.Call(f, []), body)
    body = relay.Let(f, relay.Function([], relay.RefCreate(relay.const(0))), body)
    result = relay.create_executor().evaluate(body)
    assert result.numpy() == 0


def test_visitors():
    func = _three_with_ref()
    seen = []

    class Collect(relay.ExprVisitor):
        def visit_ref_create(self, r):
            seen.append("create")
            super().visit_ref_create(r)

        def visit_ref_read(self, r):
            seen.append("read")
            super().visit_ref_read(r)

        def visit_ref_write(self, r):
            seen.append("write")
            super().visit_ref_write(r)

    Collect().visit(func)
    assert sorted(seen) == ["create", "read", "read", "write"]

    class Double(relay.ExprMutator):
        def visit_constant(self, c):
            return relay.const(int(c.data.numpy()) * 2)

    doubled = Double().visit(func)
    # ref(2); read 2; write 4; 2 + 4
    assert relay.create_executor().evaluate(relay.Call(doubled, [])).numpy() == 6
    assert Double().visit(func.body.value).value.data.numpy() == 2


def test_dead_code_keeps_the_write():
    # TVM's dead_code.cc: ref_write and ref_read are impure, so their bindings stay even unused.
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(_three_with_ref()))
    out = relay.transform.DeadCodeElimination()(mod)
    assert "ref_write(%i, 2" in out.astext()
