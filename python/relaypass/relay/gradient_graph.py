"""The gradient pass's first step: a Relay function's body flattened into nodes (parameters,
constants, operator calls, tuples, projections, ifs), walking it in post-order with an explicit
stack. Calls to functions (literals, let-bound, non-recursive globals) are inlined; references
are replaced by the values they hold (after an If, by the If's: each branch returns the values
of the references made before it with its result). Each If records the node ranges of its two
branches (their nodes are computed only in the branch taken). See gradient.py."""
from .._errors import OpNotImplemented, TVMError
from ..ir import Op
from .ty import TupleType
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


class _Node:
    __slots__ = ("kind", "expr", "ty", "args", "extra", "var")

    def __init__(self, kind, expr, ty, args=(), extra=None):
        self.kind = kind  # param free const call tuple tgi if closure ref
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
        self.branch_start = {}
        self.branch_results = {}
        self.memo_log = []
        self.branches = {}  # (if expr, instance, branch expr) -> (first node, end)

    def add(self, node):
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _set(self, key, value):
        self.memo[key] = value
        self.memo_log.append(key)

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
                self._set((ins, expr), memo[(target_ins, target)])
                continue
            if kind == "finish":
                self._finish(task[1], task[2], stack)
                continue
            if kind == "begin":
                self.branch_start[task[1:]] = (len(self.nodes), len(self.memo_log),
                                               dict(self.store))
                continue
            if kind == "end":
                # The branch's expressions are its own: forget them (an expression shared with
                # the other branch or later code is built again there), keep its result.
                # References: the branch returns the values of those made before the If with its
                # result; the store is the one before the If again for the other branch.
                start, logged, before = self.branch_start.pop(task[1:])
                _, if_expr, ins, branch = task
                result = memo[(ins, branch)]
                if before:
                    values = [result] + [self.store[r] for r in sorted(before)]
                    ty = TupleType([self.nodes[v].ty for v in values])
                    result = self.add(_Node("tuple", None, ty, values))
                self.store = before
                self.branches[task[1:]] = (start, len(self.nodes))
                for key in self.memo_log[logged:]:
                    memo.pop(key, None)
                del self.memo_log[logged:]
                self.branch_results[task[1:]] = result
                continue
            _, expr, ins = task
            if (ins, expr) in memo:
                continue
            if isinstance(expr, Var):
                self._set((ins, expr), self.lookup(expr, ins))
            elif isinstance(expr, Constant):
                self._set((ins, expr), self.add(_Node("const", expr, _type_of(expr))))
            elif isinstance(expr, Op):
                continue
            elif isinstance(expr, GlobalVar):
                self._set((ins, expr), self.add(_Node("closure", expr, None, extra=(expr, 0))))
            elif isinstance(expr, Function):
                self._set((ins, expr), self.add(_Node("closure", expr, None, extra=(None, ins))))
            elif isinstance(expr, Let):
                stack.append(("alias", expr, ins, expr.body, ins))
                stack.append(("eval", expr.body, ins))
                stack.append(("bind", expr.var, expr.value, ins))
                stack.append(("eval", expr.value, ins))
            elif isinstance(expr, If):
                stack.append(("finish", expr, ins))
                for branch in (expr.false_branch, expr.true_branch):
                    stack.append(("end", expr, ins, branch))
                    stack.append(("eval", branch, ins))
                    stack.append(("begin", expr, ins, branch))
                stack.append(("eval", expr.cond, ins))
            else:
                if isinstance(expr, Call):
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
            args = [memo[(ins, expr.cond)]]
            args += [self.branch_results.pop((expr, ins, b))
                     for b in (expr.true_branch, expr.false_branch)]
            ranges = (self.branches.pop((expr, ins, expr.true_branch)),
                      self.branches.pop((expr, ins, expr.false_branch)))
            if not self.store:
                self._set((ins, expr), self.add(_Node("if", expr, ty, args, ranges)))
                return
            # (value, the references' values): the references hold their fields afterwards
            tuple_ty = self.nodes[args[1]].ty
            node = self.add(_Node("if", expr, tuple_ty, args, ranges))
            self._set((ins, expr), self.add(_Node("tgi", None, ty, [node], 0)))
            for k, ref in enumerate(sorted(self.store)):
                self.store[ref] = self.add(_Node("tgi", None, tuple_ty.fields[k + 1], [node],
                                                 k + 1))
        elif isinstance(expr, Tuple):
            args = [memo[(ins, e)] for e in expr.fields]
            self._set((ins, expr), self.add(_Node("tuple", expr, ty, args)))
        elif isinstance(expr, TupleGetItem):
            src = memo[(ins, expr.tuple_value)]
            node = self.nodes[src]
            if node.kind == "tuple":  # a projection of a tuple built here: that field's node
                self._set((ins, expr), node.args[expr.index])
            else:
                self._set((ins, expr), self.add(_Node("tgi", expr, ty, [src], expr.index)))
        elif isinstance(expr, RefCreate):
            ref = self.add(_Node("ref", expr, ty))
            self.store[ref] = memo[(ins, expr.value)]
            self._set((ins, expr), ref)
        elif isinstance(expr, RefRead):
            self._set((ins, expr), self.store[self._ref(memo[(ins, expr.ref)])])
        elif isinstance(expr, RefWrite):
            self.store[self._ref(memo[(ins, expr.ref)])] = memo[(ins, expr.value)]
            self._set((ins, expr), self.add(_Node("tuple", expr, ty)))  # ()
        elif isinstance(expr.op, Op):
            args = [memo[(ins, e)] for e in expr.args]
            self._set((ins, expr), self.add(_Node("call", expr, ty, args)))
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

    def regions(self):
        """The nodes computed at the function's top level, and for each If node the nodes of
        each branch (those not inside a nested If's branch), in order: (top, {if node index:
        (true nodes, false nodes)}). Refuses a node of a branch used outside it."""
        nodes = self.nodes
        owner = [None] * len(nodes)  # (if index, 0 or 1) of the innermost branch
        events = []
        for index, node in enumerate(nodes):
            if node.kind == "if":
                for side, (start, end) in enumerate(node.extra):
                    events.append((start, -end, index, side))
        events.sort()
        active = []
        pos = 0
        for i in range(len(nodes)):
            while active and active[-1][0] <= i:
                active.pop()
            while pos < len(events) and events[pos][0] == i:
                start, neg_end, index, side = events[pos]
                pos += 1
                if -neg_end > start:
                    active.append((-neg_end, (index, side)))
            owner[i] = active[-1][1] if active else None
        top = []
        parts = {i: ([], []) for i, n in enumerate(nodes) if n.kind == "if"}
        for i, o in enumerate(owner):
            (top if o is None else parts[o[0]][o[1]]).append(i)
        for i, node in enumerate(nodes):
            args = node.args[:1] if node.kind == "if" else node.args
            for a in args:
                if nodes[a].kind in _PLACELESS:
                    continue
                if owner[a] is not None and not _inside(owner, nodes, i, owner[a]):
                    raise OpNotImplemented("relay.transform.gradient: an expression computed in "
                                           "an If branch and used outside it is not supported")
        return top, parts


# Nodes that compute nothing: their value (a variable, a constant) is valid anywhere.
_PLACELESS = ("param", "free", "const", "closure")


def _inside(owner, nodes, index, branch):
    """Whether node ``index`` is inside ``branch`` (an (if index, side) pair)."""
    o = owner[index]
    while o is not None:
        if o == branch:
            return True
        o = owner[o[0]]
    return False
