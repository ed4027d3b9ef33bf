"""relay.transform.gradient: reverse-mode automatic differentiation of a Relay function.

The result has TVM's signature: the same parameters, returning
``Tuple(result, Tuple(gradient of each parameter))``. How it works (one algorithm for TVM's two
modes; see docs/gradient.md):

1. gradient_graph.py flattens the function into nodes (functions inlined, references
   replaced by the values they hold); each If's branches are node regions of their own.
2. The forward pass is one ``let`` per node; an If computes only the branch taken.
3. The backward pass visits the nodes in reverse, sums the adjoints each node received and calls
   its operator's registered gradient rule (``tvm.relay.op.register_gradient``) to give
   adjoints to its arguments. An If's adjoint goes to the branch taken: the branch recomputes
   its nodes (with fresh variables), propagates the adjoint through them and returns the
   contributions to the outside nodes it uses.

What it refuses (tvm.error.OpNotImplemented): operators without a gradient rule, recursive
functions, functions or references used as values (returned, stored in tuples), Ifs nested
more than 100 deep. As in TVM, higher_order mode refuses parameters that are
not tensors (TVM's "top-level tuple arguments"); first_order mode accepts tuple parameters.
"""
from .._errors import OpNotImplemented, TVMError
from ..ir import IRModule
from .expr import (
    Call,
    Constant,
    Function,
    GlobalVar,
    If,
    Let,
    Tuple,
    TupleGetItem,
    Var,
)
from .expr_functor import ExprMutator
from .gradient_graph import _Builder, _Node, _type_of
from .op.gradient_registry import get_gradient
from .op.tensor import add, ones_like, zeros_like
from .ty import TupleType


class _Partial:
    """The adjoint of a tuple value, field by field: {index: [contributions]}."""

    def __init__(self, fields):
        self.fields = fields


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


_MAX_IF_DEPTH = 100  # nested Ifs are emitted recursively
_NO_ADJOINT = ("free", "const", "closure", "ref")


def _data_args(node):
    """The arguments an adjoint can flow to (not an If's condition; its branch results are
    inside it)."""
    return [] if node.kind == "if" else node.args


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
        self.depth = 0
        self.top, self.parts = builder.regions()

    def bind(self, value, hint="v"):
        if isinstance(value, (Var, Constant)):
            return value
        self.counter += 1
        var = Var("{}{}".format(hint, self.counter))
        self.bindings.append((var, value))
        return var

    def forward(self, region):
        """Emit the forward computation of the nodes ``region`` (indices, in order)."""
        for index in region:
            node = self.b.nodes[index]
            kind = node.kind
            if kind in ("param", "free", "const"):
                node.var = node.expr
            elif kind in ("closure", "ref"):
                node.var = None
            elif kind == "if":
                true_nodes, false_nodes = self.parts[index]
                value = If(self._value(node.args[0]),
                           self._scoped(true_nodes, lambda: self._value(node.args[1])),
                           self._scoped(false_nodes, lambda: self._value(node.args[2])))
                node.var = self.bind(value)
            else:
                args = [self._value(a) for a in node.args]
                if kind == "call":
                    e = node.expr
                    value = Call(e.op, args, e.attrs, e.type_args)
                elif kind == "tuple":
                    value = Tuple(args)
                else:
                    value = TupleGetItem(args[0], node.extra)
                node.var = self.bind(value)

    def _scoped(self, region, result, backward=None):
        """A branch: ``region``'s forward computation (fresh variables), then ``backward()``
        when given, as a let chain ending in ``result()``."""
        saved = self.bindings
        self.bindings = []
        self.depth += 1
        if self.depth > _MAX_IF_DEPTH:
            raise OpNotImplemented("relay.transform.gradient: If nested more than {} deep"
                                   .format(_MAX_IF_DEPTH))
        try:
            self.forward(region)
            if backward is not None:
                backward()
            body = result()
            for var, value in reversed(self.bindings):
                body = Let(var, value, body)
            return body
        finally:
            self.bindings = saved
            self.depth -= 1

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

    def backward(self, region, contrib):
        """Propagate the adjoints ``contrib`` ({node: [contributions]}) back through
        ``region``; returns the contributions left for nodes outside it (parameters
        included)."""
        nodes = self.b.nodes
        for index in reversed(region):
            node = nodes[index]
            if node.kind == "param":
                continue
            items = contrib.pop(index, None)
            if not items or node.kind in _NO_ADJOINT:
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
                self._if(index, node, adj, contrib)
            else:
                self._call(node, adj, contrib)
        return contrib

    def _all_nodes(self, region):
        """``region``'s nodes and those of the branches of its Ifs, at any depth."""
        out = []
        stack = [region]
        while stack:
            nodes = stack.pop()
            out.extend(nodes)
            for i in nodes:
                if i in self.parts:
                    stack.extend(self.parts[i])
        return out

    def _if(self, index, node, adj, contrib):
        """An If's adjoint goes to the branch taken: each branch recomputes its nodes and
        returns the contributions to the outside nodes it uses (zeros for the others)."""
        if isinstance(node.ty, TupleType):  # the branches take the whole tuple's adjoint
            adj = self.bind(self.materialize(adj, node.ty, node.var), "g")
        nodes = self.b.nodes
        sides = []
        outer = []
        for side, region in enumerate(self.parts[index]):
            result = node.args[1 + side]
            inside = self._all_nodes(region)
            used = [a for i in inside for a in _data_args(nodes[i])] + [result]
            inside = set(inside)
            for a in used:
                if a not in inside and a not in outer and nodes[a].kind not in _NO_ADJOINT:
                    outer.append(a)
            sides.append((region, result))

        def branch(region, result):
            left = {}

            def back():
                left.update(self.backward(region, {result: [adj]}))

            def fields():
                out = []
                for a in outer:
                    n = nodes[a]
                    out.append(self.materialize(self.combine(left.get(a, []), n.ty, n.var),
                                                n.ty, n.var))
                return Tuple(out)

            return self._scoped(region, fields, back)

        cond = self._value(node.args[0])
        res = self.bind(If(cond, branch(*sides[0]), branch(*sides[1])), "b")
        for k, a in enumerate(outer):
            contrib.setdefault(a, []).append(self.bind(TupleGetItem(res, k), "d"))

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
            if self.b.nodes[index].kind in _NO_ADJOINT:
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
    diff = _Differentiator(builder)
    if out_index not in diff.top and builder.nodes[out_index].kind not in ("param", "free",
                                                                            "const"):
        raise OpNotImplemented("relay.transform.gradient: the result is computed in an If "
                               "branch and used outside it")
    diff.forward(diff.top)
    out = builder.nodes[out_index]
    adjoints = diff.backward(diff.top, {out_index: [diff._seed(out.ty, diff._value(out_index))]})
    grads = []
    for index in params:
        node = builder.nodes[index]
        adj = diff.combine(adjoints.get(index) or [], node.ty, node.var)
        grads.append(diff.materialize(adj, node.ty, node.var))
    body = Tuple([diff._value(out_index), Tuple(grads)])
    for var, value in reversed(diff.bindings):
        body = Let(var, value, body)
    return Function(list(func.params), body, None, func.type_params)
