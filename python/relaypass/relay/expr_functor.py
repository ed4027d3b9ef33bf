"""relay.ExprFunctor, ExprVisitor and ExprMutator, subclassable as in TVM: override
visit_call, visit_constant, ... and call self.visit(child) or super().visit_x(node).

Each node is visited once (memo_map). Unlike TVM's, deep graphs do not exhaust Python's
recursion limit: when visiting goes deeper than _DEPTH_LIMIT, the node's unvisited descendants
are first visited bottom-up with an explicit stack, so the nested visit calls then find them in
memo_map. (Shallow graphs are visited in exactly TVM's order.)
"""
from .. import _core
from ..ir import Op
from .adt import Clause, Constructor, Match
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

_DEPTH_LIMIT = 200


def _children(expr):
    """The expressions visit_* visits for ``expr``, in TVM's order."""
    if isinstance(expr, Call):
        return [expr.op] + list(expr.args)
    if isinstance(expr, Tuple):
        return list(expr.fields)
    if isinstance(expr, TupleGetItem):
        return [expr.tuple_value]
    if isinstance(expr, Function):
        return list(expr.params) + [expr.body]
    if isinstance(expr, Let):
        return [expr.var, expr.value, expr.body]
    if isinstance(expr, If):
        return [expr.cond, expr.true_branch, expr.false_branch]
    if isinstance(expr, RefCreate):
        return [expr.value]
    if isinstance(expr, RefRead):
        return [expr.ref]
    if isinstance(expr, RefWrite):
        return [expr.ref, expr.value]
    if isinstance(expr, Match):
        return [expr.data] + [c.rhs for c in expr.clauses]
    return []


class ExprFunctor:
    """Dispatches on the expression's class and memoizes results."""

    def __init__(self):
        self.memo_map = {}
        self._depth = 0

    def visit(self, expr):
        """Apply the visitor to an expression."""
        memo = self.__dict__.setdefault("memo_map", {})
        if expr in memo:
            return memo[expr]
        depth = self.__dict__.get("_depth", 0)
        if depth > _DEPTH_LIMIT:
            self._visit_descendants_first(expr, memo)
        self._depth = depth + 1
        try:
            res = self._dispatch(expr)
        finally:
            self._depth = depth
        memo[expr] = res
        return res

    def _visit_descendants_first(self, root, memo):
        """Visits root's unvisited descendants children-first, with an explicit stack."""
        stack = [(root, False)]
        seen = set()
        while stack:
            node, expanded = stack.pop()
            if expanded:
                if node != root and node not in memo:
                    memo[node] = self._dispatch(node)
                continue
            if node in memo or node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for child in reversed(_children(node)):
                if child not in memo:
                    stack.append((child, False))

    def _dispatch(self, expr):
        if isinstance(expr, Function):
            return self.visit_function(expr)
        if isinstance(expr, Call):
            return self.visit_call(expr)
        if isinstance(expr, Let):
            return self.visit_let(expr)
        if isinstance(expr, Var):
            return self.visit_var(expr)
        if isinstance(expr, GlobalVar):
            return self.visit_global_var(expr)
        if isinstance(expr, If):
            return self.visit_if(expr)
        if isinstance(expr, Tuple):
            return self.visit_tuple(expr)
        if isinstance(expr, TupleGetItem):
            return self.visit_tuple_getitem(expr)
        if isinstance(expr, Constant):
            return self.visit_constant(expr)
        if isinstance(expr, Op):
            return self.visit_op(expr)
        if isinstance(expr, RefCreate):
            return self.visit_ref_create(expr)
        if isinstance(expr, RefRead):
            return self.visit_ref_read(expr)
        if isinstance(expr, RefWrite):
            return self.visit_ref_write(expr)
        if isinstance(expr, Constructor):
            return self.visit_constructor(expr)
        if isinstance(expr, Match):
            return self.visit_match(expr)
        raise Exception("warning unhandled case: {0}".format(type(expr)))

    def visit_function(self, _):
        raise NotImplementedError()

    def visit_let(self, _):
        raise NotImplementedError()

    def visit_call(self, _):
        raise NotImplementedError()

    def visit_var(self, _):
        raise NotImplementedError()

    def visit_type(self, typ):
        return typ

    def visit_if(self, _):
        raise NotImplementedError()

    def visit_tuple(self, _):
        raise NotImplementedError()

    def visit_tuple_getitem(self, _):
        raise NotImplementedError()

    def visit_global_var(self, _):
        raise NotImplementedError()

    def visit_op(self, _):
        raise NotImplementedError()

    def visit_constant(self, _):
        raise NotImplementedError()

    def visit_ref_create(self, _):
        raise NotImplementedError()

    def visit_ref_write(self, _):
        raise NotImplementedError()

    def visit_ref_read(self, _):
        raise NotImplementedError()

    def visit_constructor(self, _):
        raise NotImplementedError()

    def visit_match(self, _):
        raise NotImplementedError()


class ExprVisitor(ExprFunctor):
    """Visits every node once; override the visit_* of the nodes you care about."""

    def visit_tuple(self, tup):
        for x in tup.fields:
            self.visit(x)

    def visit_call(self, call):
        self.visit(call.op)
        for a in call.args:
            self.visit(a)

    def visit_var(self, v):
        pass

    def visit_let(self, let):
        self.visit(let.var)
        self.visit(let.value)
        self.visit(let.body)

    def visit_function(self, fn):
        for x in fn.params:
            self.visit(x)
        self.visit(fn.body)

    def visit_if(self, i):
        self.visit(i.cond)
        self.visit(i.true_branch)
        self.visit(i.false_branch)

    def visit_global_var(self, gv):
        pass

    def visit_constant(self, const):
        pass

    def visit_op(self, op):
        pass

    def visit_tuple_getitem(self, t):
        self.visit(t.tuple_value)

    def visit_ref_create(self, r):
        self.visit(r.value)

    def visit_ref_read(self, r):
        self.visit(r.ref)

    def visit_ref_write(self, r):
        self.visit(r.ref)
        self.visit(r.value)

    def visit_constructor(self, c):
        return

    def visit_match(self, m):
        self.visit(m.data)
        for c in m.clauses:
            self.visit(c.rhs)


class ExprMutator(ExprFunctor):
    """Rebuilds the expression: a node whose children changed is copied with the new children
    (keeping its checked type, as TVM's *WithFields); unchanged nodes are returned as they are."""

    def visit_function(self, fn):
        new_params = [self.visit(x) for x in fn.params]
        new_body = self.visit(fn.body)
        if new_params == list(fn.params) and new_body == fn.body:
            return fn
        return _core.function_with_fields(fn, list(new_params), new_body)

    def visit_let(self, let):
        new_var = self.visit(let.var)
        new_val = self.visit(let.value)
        new_body = self.visit(let.body)
        if new_var == let.var and new_val == let.value and new_body == let.body:
            return let
        return _core.let_with_fields(let, new_var, new_val, new_body)

    def visit_call(self, call):
        new_fn = self.visit(call.op)
        new_args = [self.visit(arg) for arg in call.args]
        if new_fn == call.op and new_args == list(call.args):
            return call
        return _core.call_with_fields(call, new_fn, new_args)

    def visit_var(self, var):
        return var

    def visit_global_id(self, global_var):
        return global_var

    def visit_if(self, ite):
        new_cond = self.visit(ite.cond)
        new_true = self.visit(ite.true_branch)
        new_false = self.visit(ite.false_branch)
        if (
            new_cond == ite.cond
            and new_true == ite.true_branch
            and new_false == ite.false_branch
        ):
            return ite
        return _core.if_with_fields(ite, new_cond, new_true, new_false)

    def visit_tuple(self, tup):
        new_fields = [self.visit(field) for field in tup.fields]
        if new_fields == list(tup.fields):
            return tup
        return _core.tuple_with_fields(tup, new_fields)

    def visit_tuple_getitem(self, op):
        tuple_value = self.visit(op.tuple_value)
        if not tuple_value.same_as(op.tuple_value):
            return _core.tuple_get_item_with_fields(op, tuple_value)
        return op

    def visit_global_var(self, gvar):
        return gvar

    def visit_op(self, op):
        return op

    def visit_constant(self, const):
        return const

    def visit_ref_create(self, r):
        value = self.visit(r.value)
        return r if value.same_as(r.value) else RefCreate(value)

    def visit_ref_write(self, r):
        ref = self.visit(r.ref)
        value = self.visit(r.value)
        if ref.same_as(r.ref) and value.same_as(r.value):
            return r
        return RefWrite(ref, value)

    def visit_ref_read(self, r):
        ref = self.visit(r.ref)
        return r if ref.same_as(r.ref) else RefRead(ref)

    def visit_constructor(self, con):
        return con

    def visit_match(self, m):
        # As TVM's: the data and each clause's right-hand side, patterns kept.
        return Match(
            self.visit(m.data),
            [Clause(c.lhs, self.visit(c.rhs)) for c in m.clauses],
            complete=m.complete,
        )
