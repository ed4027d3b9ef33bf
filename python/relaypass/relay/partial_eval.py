"""relay.transform.PartialEvaluate: TVM v0.13's partial evaluator (module pass "PartialEval",
opt_level 1, no required passes), written here in Python over the public API (as gradient.py).

Each global function is first put in A-normal form (ToANormalForm), then evaluated with what is
known statically: constants, tuples, references (a store of cells), function literals, global
functions, constructor values. What is known is folded:

* an operator call whose arguments are all constants is computed by the evaluator (as
  FoldConstant: a call the evaluator refuses stays);
* a field of a known tuple is that field; an ``if`` on a constant takes its branch; a ``match``
  on a known constructor value takes the first clause that matches (a clause that may or may not
  match leaves the match residual);
* a reference read from a cell whose content is known is that content;
* a call of a known function (a function literal or a global function) is inlined with fresh
  variables. Termination (TVM's "fuel"): a function is inlined inside its own inlining only when
  one of its arguments is a statically known constructor value smaller than the same argument's
  smallest size so far, or a known int32 / int64 scalar smaller than its smallest value so far
  (so ``loop(x) = loop(x)`` stays a call, ``map`` over a static list unrolls, a countdown on a
  constant counter unrolls); at most _MAX_INLINE_DEPTH nested inlinings and _MAX_INLINES per
  function.

Everything else is residual: it is let-bound (the result is in A-normal form, as TVM's) and the
store forgets every cell where code it did not follow could write one (a call of an unknown
function, a write through an unknown reference, after a residual ``if`` or ``match``). Every
binding of the input stays (bound to its folded value): DeadCodeElimination, which TVM's users
run after the pass, removes those no longer used.

Nesting (branches, clauses, function bodies, inlinings) is followed up to _MAX_NESTING levels;
deeper code is kept as it is (correct, only not simplified). Let chains are walked with a loop,
so their length is not limited.
"""
import itertools

from .. import _core
from .adt import Clause, Match, PatternConstructor, PatternTuple, PatternVar, PatternWildcard
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

_MAX_INLINE_DEPTH = 64
_MAX_INLINES = 4096
_MAX_NESTING = 48


class _Const:
    """A constant tensor (the residual atom is the Constant itself)."""


class _STuple:
    def __init__(self, fields):
        self.fields = fields  # [_PS]


class _SRef:
    def __init__(self, cell):
        self.cell = cell


class _SFunc:
    def __init__(self, func, key):
        self.func = func  # the A-normal-form function literal or global function
        self.key = key  # what fuel is counted by: ("global", name) or ("fn", number)


class _SCtor:
    def __init__(self, constructor, fields):
        self.constructor = constructor
        self.fields = fields  # [_PS]


class _PS:
    """A partially static value: what is known of it (None: nothing) and the atom (a variable,
    constant, global or constructor) that holds it in the residual program."""

    __slots__ = ("static", "dyn")

    def __init__(self, static, dyn):
        self.static = static
        self.dyn = dyn


_CONST = _Const()
_UNIT = _STuple([])


def _is_constructor(expr):
    return type(expr).__name__ == "Constructor"


def _int_value(ps):
    """TVM's FTValue: a known int32 / int64 scalar's value (0 if negative), else 0."""
    if not isinstance(ps.static, _Const):
        return 0
    data = ps.dyn.data
    if data.dtype not in ("int32", "int64") or len(data.shape) != 0:
        return 0
    return max(0, int(data.numpy()))


def _size(ps):
    """The number of constructor nodes statically known in a value (the fuel's measure)."""
    total, stack = 0, [ps]
    while stack:
        s = stack.pop().static
        if isinstance(s, _SCtor):
            total += 1
            stack.extend(s.fields)
        elif isinstance(s, _STuple):
            stack.extend(s.fields)
    return total


class _Renamer:
    """A copy of a function with fresh variables for every variable it binds (parameters, lets,
    pattern variables, nested functions' parameters), so an inlined copy binds no variable
    twice. A type annotation that names one of the function's type parameters is dropped (type
    inference gives it again at the inlined instance); the others are kept."""

    def __init__(self, type_params=()):
        self.map = {}
        self.type_params = list(type_params)

    def fresh(self, var):
        ty = var.type_annotation
        if ty is not None and any(
            tv.same_as(p) for tv in _core.free_type_vars(ty) for p in self.type_params
        ):
            ty = None
        new = Var(var.name_hint, ty)
        self.map[var] = new
        return new

    def pattern(self, pat):
        if isinstance(pat, PatternVar):
            return PatternVar(self.fresh(pat.var))
        if isinstance(pat, PatternConstructor):
            return PatternConstructor(pat.constructor, [self.pattern(p) for p in pat.patterns])
        if isinstance(pat, PatternTuple):
            return PatternTuple([self.pattern(p) for p in pat.patterns])
        return PatternWildcard()

    def copy(self, expr):
        # Let chains by a loop; other nesting follows the program's own nesting.
        lets = []
        while isinstance(expr, Let):
            lets.append((self.fresh(expr.var), self.copy(expr.value)))
            expr = expr.body
        out = self._copy_node(expr)
        for var, value in reversed(lets):
            out = Let(var, value, out)
        return out

    def _copy_node(self, e):
        if isinstance(e, Var):
            return self.map.get(e, e)
        if isinstance(e, Call):
            return _core.call_with_fields(e, self.copy(e.op), [self.copy(a) for a in e.args])
        if isinstance(e, Tuple):
            return Tuple([self.copy(f) for f in e.fields])
        if isinstance(e, TupleGetItem):
            return TupleGetItem(self.copy(e.tuple_value), e.index)
        if isinstance(e, Function):
            # A nested polymorphic function keeps its own type parameters (other TypeVars than
            # the inlined function's).
            params = [self.fresh(p) for p in e.params]
            return Function(params, self.copy(e.body), None, list(e.type_params), e.attrs)
        if isinstance(e, If):
            return If(self.copy(e.cond), self.copy(e.true_branch), self.copy(e.false_branch))
        if isinstance(e, RefCreate):
            return RefCreate(self.copy(e.value))
        if isinstance(e, RefRead):
            return RefRead(self.copy(e.ref))
        if isinstance(e, RefWrite):
            return RefWrite(self.copy(e.ref), self.copy(e.value))
        if isinstance(e, Match):
            data = self.copy(e.data)
            clauses = [Clause(self.pattern(c.lhs), self.copy(c.rhs)) for c in e.clauses]
            return Match(data, clauses, complete=e.complete)
        return e


class _PartialEvaluator:
    def __init__(self, mod):
        self.mod = mod
        self.globals = {gv.name_hint: gv for gv in mod.get_global_vars()}
        self.env = {}  # Var -> _PS (variables are bound once, so one map serves every scope)
        self.cells = itertools.count()
        self.fuel = {}  # key -> [size of each argument]: the inlinings in progress
        self.literal_ids = {}  # Function literal -> its number in fuel keys
        self.depth = 0  # inlinings in progress
        self.inlines = 0
        self.nesting = 0
        self.bindings = None  # the let-bindings of the scope being built: [(Var, Expr)]

    # -- scopes -------------------------------------------------------------------------------
    def function(self, func):
        """The residual of one function: its body evaluated with its parameters unknown."""
        for p in func.params:
            self.env[p] = _PS(None, p)
        body = self.scope(func.body, {})
        return _core.function_with_fields(func, list(func.params), body)

    def scope(self, expr, store):
        """The residual of ``expr`` evaluated in a new scope with ``store`` (modified in place)."""
        if self.nesting >= _MAX_NESTING:
            store.clear()
            return expr
        saved = self.bindings
        self.bindings = []
        self.nesting += 1
        try:
            result = self.eval(expr, store)
            out = result.dyn
            for var, value in reversed(self.bindings):
                out = Let(var, value, out)
            return out
        finally:
            self.nesting -= 1
            self.bindings = saved

    def emit(self, value, name=None):
        var = name if name is not None else Var("x")
        self.bindings.append((var, value))
        return var

    # -- expressions --------------------------------------------------------------------------
    def eval(self, expr, store, name=None):
        """Evaluates ``expr`` into the current scope's bindings; returns its _PS."""
        while isinstance(expr, Let):
            ps = self.eval(expr.value, store, expr.var)
            if not ps.dyn.same_as(expr.var):
                # The variable stays bound: code kept as it is may still name it.
                self.emit(ps.dyn, expr.var)
            self.env[expr.var] = ps
            expr = expr.body
        return self._eval_node(expr, store, name)

    def _eval_node(self, e, store, name):
        if isinstance(e, Var):
            return self.env.get(e) or _PS(None, e)
        if isinstance(e, Constant):
            return _PS(_CONST, e)
        if isinstance(e, GlobalVar):
            func = self.mod[e] if e.name_hint in self.globals else None
            # Fuel is counted by name: two GlobalVar nodes of one name are one function.
            return _PS(_SFunc(func, ("global", e.name_hint)) if func is not None else None, e)
        if isinstance(e, Tuple):
            fields = [self.eval(f, store) for f in e.fields]
            return _PS(_STuple(fields), self.emit(Tuple([f.dyn for f in fields]), name))
        if isinstance(e, TupleGetItem):
            tup = self.eval(e.tuple_value, store)
            if isinstance(tup.static, _STuple) and 0 <= e.index < len(tup.static.fields):
                return tup.static.fields[e.index]
            return _PS(None, self.emit(TupleGetItem(tup.dyn, e.index), name))
        if isinstance(e, Function):
            return self._function_literal(e, name)
        if isinstance(e, If):
            return self._if(e, store, name)
        if isinstance(e, Match):
            return self._match(e, store, name)
        if isinstance(e, RefCreate):
            value = self.eval(e.value, store)
            cell = next(self.cells)
            store[cell] = value
            return _PS(_SRef(cell), self.emit(RefCreate(value.dyn), name))
        if isinstance(e, RefRead):
            ref = self.eval(e.ref, store)
            if isinstance(ref.static, _SRef) and ref.static.cell in store:
                return store[ref.static.cell]
            return _PS(None, self.emit(RefRead(ref.dyn), name))
        if isinstance(e, RefWrite):
            ref = self.eval(e.ref, store)
            value = self.eval(e.value, store)
            if isinstance(ref.static, _SRef):
                store[ref.static.cell] = value
            else:
                store.clear()  # it may be any cell
            return _PS(_UNIT, self.emit(RefWrite(ref.dyn, value.dyn), name))
        if isinstance(e, Call):
            return self._call(e, store, name)
        return _PS(None, e)  # operators and constructors as values

    def _function_literal(self, func, name):
        if _is_opaque(func):
            return _PS(None, self.emit(func, name))
        for p in func.params:
            self.env[p] = _PS(None, p)
        # The body may run whenever the function is called: nothing is known of the store.
        body = self.scope(func.body, {})
        var = self.emit(_core.function_with_fields(func, list(func.params), body), name)
        key = ("fn", self.literal_ids.setdefault(func, len(self.literal_ids)))
        return _PS(_SFunc(func, key), var)

    def _if(self, e, store, name):
        cond = self.eval(e.cond, store)
        if isinstance(cond.static, _Const) and self.nesting < _MAX_NESTING:
            taken = bool(cond.dyn.data.numpy())
            return self.eval(e.true_branch if taken else e.false_branch, store, name)
        true_branch = self.scope(e.true_branch, dict(store))
        false_branch = self.scope(e.false_branch, dict(store))
        store.clear()  # either branch may have written
        return _PS(None, self.emit(If(cond.dyn, true_branch, false_branch), name))

    def _match(self, e, store, name):
        data = self.eval(e.data, store)
        for clause in e.clauses if self.nesting < _MAX_NESTING else []:
            binds = []
            status = _match_pattern(clause.lhs, data, binds)
            if status is None:
                break  # unknown: the match stays
            if status:
                for var, ps in binds:
                    self.emit(ps.dyn, var)
                    self.env[var] = ps
                return self.eval(clause.rhs, store, name)
        clauses = []
        for clause in e.clauses:
            for var in _pattern_vars(clause.lhs):
                self.env[var] = _PS(None, var)
            clauses.append(Clause(clause.lhs, self.scope(clause.rhs, dict(store))))
        store.clear()
        return _PS(None, self.emit(Match(data.dyn, clauses, complete=e.complete), name))

    def _call(self, e, store, name):
        callee = e.op
        args = [self.eval(a, store) for a in e.args]
        if type(callee).__name__ == "Op":
            return self._op_call(e, args, name)
        if _is_constructor(callee):
            residual = _core.call_with_fields(e, callee, [a.dyn for a in args])
            return _PS(_SCtor(callee, args), self.emit(residual, name))
        fn = self.eval(callee, store)
        if (
            isinstance(fn.static, _SFunc)
            and len(fn.static.func.params) == len(args)
            and not _is_opaque(fn.static.func)
        ):
            result = self._inline(fn.static, args, store, name)
            if result is not None:
                return result
        store.clear()  # an unknown function may write any cell
        return _PS(None, self.emit(_core.call_with_fields(e, fn.dyn, [a.dyn for a in args]), name))

    def _op_call(self, e, args, name):
        residual = _core.call_with_fields(e, e.op, [a.dyn for a in args])
        try:
            literals = [_constant_literal(a) for a in args]
        except RecursionError:
            literals = [None]  # tuples nested too deeply: the call stays
        if args and all(lit is not None for lit in literals):
            folded = _fold(_core.call_with_fields(e, e.op, literals))
            if folded is not None:
                return _PS(_CONST, folded)
        return _PS(None, self.emit(residual, name))

    def _inline(self, sfunc, args, store, name):
        # TVM's fuel: per key, the smallest measures of each argument among the inlinings in
        # progress (its constructor size and, as TVM's FTValue, its value if it is a known int32
        # or int64 scalar, else 0); an inner call is inlined only when one got smaller still.
        sizes = [n for a in args for n in (_size(a), _int_value(a))]
        previous = self.fuel.get(sfunc.key)
        if previous is not None:
            if not any(n < old for n, old in zip(sizes, previous)):
                return None
            sizes = [min(n, old) for n, old in zip(sizes, previous)]
        if self.depth >= _MAX_INLINE_DEPTH or self.inlines >= _MAX_INLINES:
            return None
        if self.nesting >= _MAX_NESTING:
            return None
        try:
            copy = _Renamer(sfunc.func.type_params).copy(sfunc.func)
        except RecursionError:
            return None  # nested too deeply to copy: the call stays
        self.inlines += 1
        for param, arg in zip(copy.params, args):
            self.emit(arg.dyn, param)
            self.env[param] = arg
        self.fuel[sfunc.key] = sizes
        self.depth += 1
        self.nesting += 1
        try:
            return self.eval(copy.body, store, name)
        finally:
            self.nesting -= 1
            self.depth -= 1
            if previous is None:
                del self.fuel[sfunc.key]
            else:
                self.fuel[sfunc.key] = previous


def _attr(func, name):
    try:
        return func.attrs[name]
    except (KeyError, TypeError, IndexError, AttributeError):
        return None


def _is_opaque(func):
    """Functions the pass neither enters nor inlines: fused (Primitive) functions and those an
    external compiler takes (Compiler, Extern), as the function passes skip them."""
    for name in ("Primitive", "Extern"):
        value = _attr(func, name)
        if value is not None and str(value) not in ("0", "False"):
            return True
    return _attr(func, "Compiler") is not None


def _constant_literal(ps):
    """The constant, or the tuple of constants (nested), a value is statically; None if it is
    not one (FoldConstant's complex constants: what an operator call is folded on)."""
    if isinstance(ps.static, _Const):
        return ps.dyn
    if isinstance(ps.static, _STuple):
        fields = [_constant_literal(f) for f in ps.static.fields]
        if all(f is not None for f in fields):
            return Tuple(fields)
    return None


def _fold(call):
    """The constant an operator call on constants gives, or None. As FoldConstant: qnn.* calls
    stay, and so does a call the evaluator refuses (a broken precondition of the API, an
    InternalError, still propagates)."""
    from .._errors import InternalError, TVMError
    from ..ir import IRModule

    name = call.op.name
    if name.startswith("qnn.") or name.startswith("random.") or name in _KEPT_OPS:
        return None
    try:
        value = _core.evaluate_expr(call, IRModule())
    except InternalError:
        raise
    except (TVMError, ValueError, TypeError, MemoryError):
        return None
    if type(value).__name__ != "NDArray":
        return None  # a tuple result stays a call
    return Constant(value)


# Calls that stay even when their arguments are known: annotations and device placement.
_KEPT_OPS = frozenset(["annotation.checkpoint", "on_device", "device_copy"])


def _match_pattern(pat, ps, binds):
    """True (matches; variables appended to binds), False (does not), None (unknown)."""
    stack = [(pat, ps)]
    unknown = False
    while stack:
        p, v = stack.pop()
        if isinstance(p, PatternWildcard):
            continue
        if isinstance(p, PatternVar):
            binds.append((p.var, v))
            continue
        if isinstance(p, PatternConstructor):
            if not isinstance(v.static, _SCtor):
                unknown = True
                continue
            if not v.static.constructor.same_as(p.constructor):
                return False
            stack.extend(zip(p.patterns, v.static.fields))
            continue
        if isinstance(p, PatternTuple):
            if not isinstance(v.static, _STuple):
                unknown = True
                continue
            stack.extend(zip(p.patterns, v.static.fields))
            continue
        unknown = True
    return None if unknown else True


def _pattern_vars(pat):
    out, stack = [], [pat]
    while stack:
        p = stack.pop()
        if isinstance(p, PatternVar):
            out.append(p.var)
        elif isinstance(p, (PatternConstructor, PatternTuple)):
            stack.extend(p.patterns)
    return out


def partial_evaluate_module(mod):
    """The module with each global function partially evaluated (its input is not changed)."""
    from .transform import ToANormalForm

    anf = ToANormalForm()(mod)
    out = anf.copy()
    for gv, func in list(anf.functions.items()):
        if not isinstance(func, Function) or _is_opaque(func):
            continue
        out.update_func(gv, _PartialEvaluator(anf).function(func))
    return out
