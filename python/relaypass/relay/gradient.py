"""relay.transform.gradient: reverse-mode automatic differentiation of a Relay function.

The result has TVM's signature: the same parameters, returning
``Tuple(result, Tuple(gradient of each parameter))``. How it works (one algorithm for TVM's two
modes; see docs/gradient.md):

1. The function is flattened into a graph of nodes (parameters, constants, operator calls,
   tuples, projections, ifs), walking its body in post-order with an explicit stack. Calls to
   functions (function literals, let-bound functions, non-recursive global functions) are
   inlined; references used in straight-line code are replaced by the values they hold (store
   elimination), so a RefRead is the value last written.
2. The forward pass is one ``let`` per node. The backward pass visits the nodes in reverse,
   sums the adjoints each node received and calls its operator's registered gradient rule
   (``tvm.relay.op.register_gradient``) to give adjoints to its arguments.

What it refuses (tvm.error.OpNotImplemented): operators without a gradient rule, recursive
functions, functions used as values (returned, stored in tuples), references used under an If,
and If whose result is a tuple. As in TVM, higher_order mode refuses parameters that are not
tensors (TVM's "top-level tuple arguments"); first_order mode accepts tuple parameters.
Both branches of an If are computed in the forward pass (their values are pure); the If picks
one, and in the backward pass only the chosen branch receives the adjoint.
"""
from .._errors import OpNotImplemented, TVMError
from ..ir import IRModule, Op
from .expr import (
    Call,
    Constant,
    Function,
    GlobalVar,
    If,
    Let,
    RefCreate,
    RefRead,
    RefWrite,
    Tuple,
    TupleGetItem,
    Var,
)
from .expr_functor import ExprMutator
from .op.gradient_registry import get_gradient
from .op.tensor import add, ones_like, zeros_like
from .ty import TupleType


class _Partial:
    """The adjoint of a tuple value, field by field: {index: [contributions]}."""

    def __init__(self, fields):
        self.fields = fields


class _Node:
    __slots__ = ("kind", "expr", "ty", "args", "extra", "var")

    def __init__(self, kind, expr, ty, args=(), extra=None):
        self.kind = kind  # param free const call tuple tgi if closure unit
        self.expr = expr  # the original expression (typed)
        self.ty = ty
        self.args = list(args)
        self.extra = extra
        self.var = None  # the forward value's variable (or expression)


def _type_of(expr):
    try:
        return expr.checked_type
    except Exception:  # noqa: BLE001 (not type-checked: the caller infers types first)
        return None


class _Builder:
    """Flattens a function body into nodes (step 1 above)."""

    def __init__(self, mod):
        self.mod = mod
        self.nodes = []
        self.env = {}  # (instance, var) -> node id
        self.memo = {}  # (instance, expr) -> node id
        self.parent = {0: None}
        self.active = {0: frozenset()}  # the global functions being inlined at an instance
        self.next_inst = 1
        self.store = {}  # reference node id -> the node id it holds
        self.saw_ref = False
        self.saw_if = False

    def add(self, node):
        self.nodes.append(node)
        return len(self.nodes) - 1

    def lookup(self, var, inst):
        while inst is not None:
            key = (inst, var)
            if key in self.env:
                return self.env[key]
            inst = self.parent[inst]
        node = self.add(_Node("free", var, _type_of(var)))
        self.env[(0, var)] = node
        return node

    def build(self, root, inst):
        memo = self.memo
        stack = [("eval", root, inst)]
        while stack:
            task = stack.pop()
            kind = task[0]
            if kind == "bind":
                _, var, value, ins = task
                self.env[(ins, var)] = memo[(ins, value)]
                continue
            if kind == "alias":
                _, expr, ins, target, target_ins = task
                memo[(ins, expr)] = memo[(target_ins, target)]
                continue
            if kind == "finish":
                self._finish(task[1], task[2], stack)
                continue
            _, expr, ins = task
            if (ins, expr) in memo:
                continue
            if isinstance(expr, Var):
                memo[(ins, expr)] = self.lookup(expr, ins)
            elif isinstance(expr, Constant):
                memo[(ins, expr)] = self.add(_Node("const", expr, _type_of(expr)))
            elif isinstance(expr, Op):
                continue
            elif isinstance(expr, GlobalVar):
                memo[(ins, expr)] = self.add(_Node("closure", expr, None, extra=(expr, 0)))
            elif isinstance(expr, Function):
                memo[(ins, expr)] = self.add(_Node("closure", expr, None, extra=(None, ins)))
            elif isinstance(expr, Let):
                stack.append(("alias", expr, ins, expr.body, ins))
                stack.append(("eval", expr.body, ins))
                stack.append(("bind", expr.var, expr.value, ins))
                stack.append(("eval", expr.value, ins))
            else:
                if isinstance(expr, If):
                    children = [expr.cond, expr.true_branch, expr.false_branch]
                elif isinstance(expr, Call):
                    children = [expr.op] + list(expr.args)
                elif isinstance(expr, Tuple):
                    children = list(expr.fields)
                elif isinstance(expr, TupleGetItem):
                    children = [expr.tuple_value]
                elif isinstance(expr, RefCreate):
                    children = [expr.value]
                elif isinstance(expr, RefRead):
                    children = [expr.ref]
                elif isinstance(expr, RefWrite):
                    children = [expr.ref, expr.value]
                else:
                    raise OpNotImplemented("relay.transform.gradient: {} is not supported"
                                           .format(type(expr).__name__))
                stack.append(("finish", expr, ins))
                for child in reversed(children):
                    stack.append(("eval", child, ins))
        return memo[(inst, root)]

    def _finish(self, expr, ins, stack):
        memo = self.memo
        ty = _type_of(expr)
        if isinstance(expr, If):
            self.saw_if = True
            args = [memo[(ins, e)] for e in (expr.cond, expr.true_branch, expr.false_branch)]
            memo[(ins, expr)] = self.add(_Node("if", expr, ty, args))
        elif isinstance(expr, Tuple):
            args = [memo[(ins, e)] for e in expr.fields]
            memo[(ins, expr)] = self.add(_Node("tuple", expr, ty, args))
        elif isinstance(expr, TupleGetItem):
            src = memo[(ins, expr.tuple_value)]
            node = self.nodes[src]
            if node.kind == "tuple":  # a projection of a tuple built here: that field's node
                memo[(ins, expr)] = node.args[expr.index]
            else:
                memo[(ins, expr)] = self.add(_Node("tgi", expr, ty, [src], expr.index))
        elif isinstance(expr, RefCreate):
            self.saw_ref = True
            ref = self.add(_Node("unit", expr, ty))
            self.store[ref] = memo[(ins, expr.value)]
            memo[(ins, expr)] = ref
        elif isinstance(expr, RefRead):
            memo[(ins, expr)] = self.store[self._ref(memo[(ins, expr.ref)])]
        elif isinstance(expr, RefWrite):
            self.store[self._ref(memo[(ins, expr.ref)])] = memo[(ins, expr.value)]
            memo[(ins, expr)] = self.add(_Node("unit", expr, ty))
        elif isinstance(expr.op, Op):
            args = [memo[(ins, e)] for e in expr.args]
            memo[(ins, expr)] = self.add(_Node("call", expr, ty, args))
        else:
            self._inline(expr, ins, stack)

    def _ref(self, index):
        if index not in self.store:
            raise OpNotImplemented("relay.transform.gradient: a reference that is not created "
                                   "in the function (a parameter, or from a tuple) is not "
                                   "supported")
        return index

    def _inline(self, call, ins, stack):
        callee = self.nodes[self.memo[(ins, call.op)]]
        if callee.kind != "closure":
            raise OpNotImplemented("relay.transform.gradient: calling {} is not supported"
                                   .format(type(call.op).__name__))
        gvar, env = callee.extra
        active = self.active[ins]
        if gvar is not None:
            if gvar in active:
                raise OpNotImplemented("relay.transform.gradient: recursive function {} is not "
                                       "supported".format(gvar.name_hint))
            if self.mod is None:
                raise TVMError("relay.transform.gradient: {} needs the module (mod=)"
                               .format(gvar.name_hint))
            func = self.mod[gvar]
            active = active | {gvar}
        else:
            func = callee.expr
        new = self.next_inst
        self.next_inst += 1
        self.parent[new] = env
        self.active[new] = active
        for param, arg in zip(func.params, call.args):
            self.env[(new, param)] = self.memo[(ins, arg)]
        stack.append(("alias", call, ins, func.body, new))
        stack.append(("eval", func.body, new))


class _Subst(ExprMutator):
    """Replaces the original arguments (and the call itself) in a rule's result by the
    forward pass's variables."""

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping

    def visit(self, expr):
        if expr in self.mapping:
            return self.mapping[expr]
        return super().visit(expr)


def _sum(exprs):
    total = exprs[0]
    for e in exprs[1:]:
        total = add(total, e)
    return total


class _Differentiator:
    def __init__(self, builder):
        self.b = builder
        self.bindings = []  # (var, value) of the let chain
        self.counter = 0

    def bind(self, value, hint="v"):
        if isinstance(value, (Var, Constant)):
            return value
        self.counter += 1
        var = Var("{}{}".format(hint, self.counter))
        self.bindings.append((var, value))
        return var

    def forward(self):
        for node in self.b.nodes:
            kind = node.kind
            if kind in ("param", "free"):
                node.var = node.expr
            elif kind == "const":
                node.var = node.expr
            elif kind in ("closure", "unit"):
                node.var = None
            else:
                args = [self._value(a) for a in node.args]
                if kind == "call":
                    e = node.expr
                    value = Call(e.op, args, e.attrs, e.type_args)
                elif kind == "tuple":
                    value = Tuple(args)
                elif kind == "tgi":
                    value = TupleGetItem(args[0], node.extra)
                else:
                    value = If(args[0], args[1], args[2])
                node.var = self.bind(value)

    def _value(self, index):
        node = self.b.nodes[index]
        if node.var is None:
            what = "a function" if node.kind == "closure" else "a reference"
            raise OpNotImplemented("relay.transform.gradient: {} used as a value is not "
                                   "supported".format(what))
        return node.var

    def combine(self, items, ty, fwd):
        """One adjoint from the contributions ``items`` to a value of type ``ty``: an
        expression for a tensor, a _Partial for a tuple; None when there are none."""
        if not items:
            return None
        if not isinstance(ty, TupleType):
            return self.bind(_sum(items), "g")
        fields = {}
        for item in items:
            if isinstance(item, _Partial):
                for i, lst in item.fields.items():
                    fields.setdefault(i, []).extend(lst)
            else:
                for i in range(len(ty.fields)):
                    fields.setdefault(i, []).append(TupleGetItem(item, i))
        out = {}
        for i, lst in fields.items():
            c = self.combine(lst, ty.fields[i], TupleGetItem(fwd, i))
            if c is not None:
                out[i] = [c]
        return _Partial(out)

    def materialize(self, adj, ty, fwd):
        """The adjoint as an expression (zeros where nothing flowed)."""
        if not isinstance(ty, TupleType):
            return zeros_like(fwd) if adj is None else adj
        fields = {} if adj is None else adj.fields
        return Tuple([self.materialize(fields[i][0] if i in fields else None, t,
                                       TupleGetItem(fwd, i))
                      for i, t in enumerate(ty.fields)])

    def backward(self, out_index):
        nodes = self.b.nodes
        contrib = {}
        out = nodes[out_index]
        contrib[out_index] = [self._seed(out.ty, self._value(out_index))]
        adjoints = {}
        for index in range(len(nodes) - 1, -1, -1):
            items = contrib.pop(index, None)
            node = nodes[index]
            if node.kind in ("param",):
                adjoints[index] = items
                continue
            if not items or node.kind in ("free", "const", "closure", "unit"):
                continue
            adj = self.combine(items, node.ty, node.var)
            if adj is None:
                continue
            if node.kind == "tuple":
                for i, arg in enumerate(node.args):
                    if i in adj.fields:
                        contrib.setdefault(arg, []).extend(adj.fields[i])
            elif node.kind == "tgi":
                contrib.setdefault(node.args[0], []).append(_Partial({node.extra: [adj]}))
            elif node.kind == "if":
                if isinstance(node.ty, TupleType):
                    raise OpNotImplemented("relay.transform.gradient: an If whose result is a "
                                           "tuple is not supported")
                cond = self._value(node.args[0])
                zero = zeros_like(adj)
                contrib.setdefault(node.args[1], []).append(self.bind(If(cond, adj, zero)))
                contrib.setdefault(node.args[2], []).append(self.bind(If(cond, zero, adj)))
            else:
                self._call(node, adj, contrib)
        return adjoints

    def _seed(self, ty, fwd):
        # As TVM: ones for a tensor result; for a tuple, the first field's seed (recursively).
        if isinstance(ty, TupleType):
            if not ty.fields:
                raise OpNotImplemented("relay.transform.gradient: an empty tuple result")
            return _Partial({0: [self._seed(ty.fields[0], TupleGetItem(fwd, 0))]})
        return self.bind(ones_like(fwd), "g")

    def _call(self, node, adj, contrib):
        call = node.expr
        rule = get_gradient(call.op.name)
        if rule is None:
            raise OpNotImplemented("relay.transform.gradient: operator {} has no gradient rule "
                                   "(tvm.relay.op.register_gradient)".format(call.op.name))
        grad = self.materialize(adj, node.ty, node.var)
        grads = rule(call, grad)
        if len(grads) != len(call.args):
            raise TVMError("the gradient rule of {} gave {} adjoints for {} arguments"
                           .format(call.op.name, len(grads), len(call.args)))
        mapping = {call: node.var}
        for arg, index in zip(call.args, node.args):
            value = self.b.nodes[index].var
            if value is not None:
                mapping[arg] = value
        subst = _Subst(mapping)
        for g, index in zip(grads, node.args):
            if self.b.nodes[index].kind in ("free", "const", "closure", "unit"):
                continue
            contrib.setdefault(index, []).append(self.bind(subst.visit(g), "d"))


def _typed_function(expr, mod):
    if isinstance(expr, GlobalVar):
        if mod is None:
            raise TVMError("relay.transform.gradient: a GlobalVar needs mod")
        expr = mod[expr]
    if not isinstance(expr, Function):
        raise TVMError("relay.transform.gradient expects a Function, not {}"
                       .format(type(expr).__name__))
    if _type_of(expr) is None:
        from .transform import InferType

        tmp = IRModule.from_expr(expr)
        expr = InferType()(tmp)["main"]
    return expr


def gradient(expr, mod=None, mode="higher_order"):
    """Transform ``expr`` (a type-checked Function, or a GlobalVar of ``mod``) into a function
    returning ``Tuple(result, Tuple(gradients of the parameters))``. ``mode`` is TVM's
    "higher_order" (the default) or "first_order"."""
    if mode not in ("higher_order", "first_order"):
        raise TVMError("unknown mode {!r}: use 'higher_order' or 'first_order'".format(mode))
    func = _typed_function(expr, mod)
    builder = _Builder(mod)
    params = []
    for param in func.params:
        ty = _type_of(param)
        if mode == "higher_order" and isinstance(ty, TupleType):
            raise TVMError("relay.transform.gradient: higher-order AD of top-level tuple "
                           "arguments is not supported (as in TVM); use mode='first_order'")
        index = builder.add(_Node("param", param, ty))
        builder.env[(0, param)] = index
        params.append(index)
    out_index = builder.build(func.body, 0)
    if builder.saw_ref and builder.saw_if:
        raise OpNotImplemented("relay.transform.gradient: references together with If are not "
                               "supported")
    diff = _Differentiator(builder)
    diff.forward()
    adjoints = diff.backward(out_index)
    grads = []
    for index in params:
        node = builder.nodes[index]
        adj = diff.combine(adjoints.get(index) or [], node.ty, node.var)
        grads.append(diff.materialize(adj, node.ty, node.var))
    body = Tuple([diff._value(out_index), Tuple(grads)])
    for var, value in reversed(diff.bindings):
        body = Let(var, value, body)
    return Function(list(func.params), body, None, func.type_params)
