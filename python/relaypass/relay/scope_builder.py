"""tvm.relay.scope_builder.ScopeBuilder: builds nested let bindings and if/else scopes in
Python's ``with`` blocks (TVM v0.13's API)."""
from . import expr as _expr


class WithScope:
    """A ``with`` block that calls ``exit_cb`` when it ends."""

    def __init__(self, enter_value, exit_cb):
        self._enter_value = enter_value
        self._exit_cb = exit_cb

    def __enter__(self):
        return self._enter_value

    def __exit__(self, ptype, value, trace):
        if value:
            raise value
        self._exit_cb()


class _PartialIf:
    """An if whose else scope is still to come."""

    def __init__(self, cond, true_branch):
        self.cond = cond
        self.true_branch = true_branch


def _make_lets(bindings, ret_value):
    if ret_value is None:
        raise RuntimeError("ret is not called in this scope")
    if isinstance(ret_value, _PartialIf):
        raise RuntimeError("Creating an If expression without else.")
    let_expr = ret_value
    for var, value in reversed(bindings):
        let_expr = _expr.Let(var, value, let_expr)
    return let_expr


class ScopeBuilder:
    """Scope builder: ``let`` bindings, ``if_scope`` / ``else_scope``, ``ret`` and ``get``."""

    def __init__(self):
        self._bindings = [[]]
        self._ret_values = [None]

    def _enter_scope(self):
        self._bindings.append([])
        self._ret_values.append(None)

    def _exit_scope(self):
        return self._bindings.pop(), self._ret_values.pop()

    def let(self, var, value):
        """Binds ``var`` (a Var, a name, or (name, type)) to ``value``; returns the Var."""
        if isinstance(var, (tuple, list)):
            if len(var) > 2:
                raise ValueError("Expect var to be Tuple[str, relay.Type]")
            var = _expr.var(*var)
        elif isinstance(var, str):
            var = _expr.var(var)
        self._bindings[-1].append((var, value))
        return var

    def if_scope(self, cond):
        self._enter_scope()

        def _on_exit():
            bindings, ret_value = self._exit_scope()
            if self._ret_values[-1] is not None:
                raise RuntimeError("result already returned before if scope")
            self._ret_values[-1] = _PartialIf(cond, _make_lets(bindings, ret_value))

        return WithScope(None, _on_exit)

    def else_scope(self):
        if not isinstance(self._ret_values[-1], _PartialIf):
            raise RuntimeError("else_scope must follows")
        self._enter_scope()

        def _on_exit():
            bindings, ret_value = self._exit_scope()
            partial = self._ret_values[-1]
            self._ret_values[-1] = _expr.If(partial.cond, partial.true_branch,
                                            _make_lets(bindings, ret_value))

        return WithScope(None, _on_exit)

    def type_of(self, expr):
        """The type of ``expr`` (inferred in a module of its own)."""
        from ..ir import IRModule
        from . import transform

        mod = transform.InferType()(IRModule.from_expr(expr))
        return mod["main"].body.checked_type

    def ret(self, value):
        if self._ret_values[-1] is not None:
            raise RuntimeError("ret value is already set in this scope.")
        self._ret_values[-1] = value

    def get(self):
        return _make_lets(self._bindings.pop(), self._ret_values.pop())
