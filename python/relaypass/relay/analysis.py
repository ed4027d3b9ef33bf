"""relay.analysis: traversals over the C++ graph, with TVM v0.13's names and results.

Every function walks the graph with an explicit stack (or the C++ post_order_visit), never by
Python recursion over it: graphs of any depth are fine.
"""
from enum import IntEnum

from .. import _core
from .._errors import InternalError, TVMError
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
    Type,
    Var,
)
from .adt import Constructor, Match
from .expr_functor import _children


def post_order_visit(expr, fvisit):
    """Call ``fvisit(node)`` on every node reachable from ``expr``, children first, each once
    (operators included, as TVM)."""
    _core.post_order_visit(expr, fvisit)


def free_vars(expr):
    """The free variables of ``expr`` in post-order of first occurrence."""
    return _core.free_vars(expr)


def all_vars(expr):
    """Every variable of ``expr`` (free and bound) in post-order."""
    out = []
    seen = set()

    def visit(node):
        if isinstance(node, Var) and node not in seen:
            seen.add(node)
            out.append(node)

    _core.post_order_visit(expr, visit)
    return out


def bound_vars(expr):
    """The variables bound in ``expr`` (function parameters and let variables)."""
    free = set(free_vars(expr))
    return [v for v in all_vars(expr) if v not in free]


# Type variables (TVM's TypeVarEVisitor / TypeVarTVisitor): the C++ analysis
# (include/relaypass/ir/type_vars.h) says which and in what order.


def _check_expr_or_type(expr, name):
    if not isinstance(expr, (_core.RelayExpr, Type)):
        raise TypeError(
            "{}: expected a relay expression or type, got {}".format(name, type(expr).__name__))


def free_type_vars(expr, mod=None):
    """The free type variables of an expression or type, in order of first appearance."""
    _check_expr_or_type(expr, "free_type_vars")
    return list(_core.free_type_vars(expr))


def bound_type_vars(expr, mod=None):
    """The type variables bound (as type parameters) in an expression or type."""
    _check_expr_or_type(expr, "bound_type_vars")
    return list(_core.bound_type_vars(expr))


def all_type_vars(expr, mod=None):
    """Every type variable of an expression or type, in order of first appearance."""
    _check_expr_or_type(expr, "all_type_vars")
    return list(_core.all_type_vars(expr))


def check_kind(t, mod=None):
    """TVM's kind checker: the kind of type ``t`` (a TypeKind), checking that tuple fields,
    function argument and result types, reference contents and type call arguments are types,
    and that a type call names an ADT of ``mod`` with as many arguments as it has type
    variables. A wrong kind is a DiagnosticError (a TVMError)."""
    from .._errors import DiagnosticError
    from ..ir.type_kind import TypeKind
    from .ty import GlobalTypeVar, TypeCall, TypeData, TypeVar

    def fail(message):
        raise DiagnosticError("check_kind: " + message)

    def expect_type(sub, what):
        kind = kind_of(sub)
        if kind != TypeKind.Type:
            fail("{} {} has kind {}, expected Type".format(what, sub, kind.name))

    def kind_of(ty):
        # Types nest only as deep as written: recursion follows that nesting.
        if isinstance(ty, (TypeVar, GlobalTypeVar)):
            return ty.kind
        if isinstance(ty, (_core.TensorType, _core.IncompleteType)):
            return TypeKind.Type
        if isinstance(ty, _core.TupleType):
            for field in ty.fields:
                expect_type(field, "tuple field")
            return TypeKind.Type
        if isinstance(ty, _core.FuncType):
            for arg in ty.arg_types:
                expect_type(arg, "argument type")
            expect_type(ty.ret_type, "result type")
            return TypeKind.Type
        if isinstance(ty, _core.RefType):
            expect_type(ty.value, "reference content")
            return TypeKind.Type
        if isinstance(ty, TypeCall):
            if not isinstance(ty.func, GlobalTypeVar):
                fail("the function of type call {} is not a global type variable".format(ty))
            if mod is None:
                fail("type call {} needs the module that defines {}".format(ty, ty.func))
            data = mod[ty.func]
            if len(data.type_vars) != len(ty.args):
                fail("type call {} has {} arguments but {} takes {}".format(
                    ty, len(ty.args), ty.func, len(data.type_vars)))
            for arg in ty.args:
                expect_type(arg, "type call argument")
            return TypeKind.Type
        if isinstance(ty, TypeData):
            for tv in ty.type_vars:
                if kind_of(tv) != TypeKind.Type:
                    fail("type variable {} of {} is not of kind Type".format(tv, ty.header))
            for ctor in ty.constructors:
                for inp in ctor.inputs:
                    expect_type(inp, "constructor input")
            return TypeKind.TypeData
        fail("unknown type {}".format(type(ty).__name__))

    return kind_of(t)


def unmatched_cases(match, mod=None):
    """TVM's unmatched_cases: the patterns of the values no clause of ``match`` matches (empty
    when it is complete), refined with the ADT definitions of ``mod``."""
    return _core.unmatched_cases(match, mod)


class Feature(IntEnum):
    """The features a program might contain (TVM's relay.analysis.Feature, same values)."""

    fVar = 0
    fGlobalVar = 1
    fConstant = 2
    fTuple = 3
    fTupleGetItem = 4
    fFunction = 5
    fOp = 6
    fCall = 7
    fLet = 8
    fIf = 9
    fRefCreate = 10
    fRefRead = 11
    fRefWrite = 12
    fConstructor = 13
    fMatch = 14
    # Whether any non-atom fragment of the program is shared, making the program a graph.
    fGraph = 15
    # Whether there is local fixpoint in the program.
    fLetRec = 16


_FEATURE_OF = (
    (Var, Feature.fVar),
    (GlobalVar, Feature.fGlobalVar),
    (Constant, Feature.fConstant),
    (Tuple, Feature.fTuple),
    (TupleGetItem, Feature.fTupleGetItem),
    (Function, Feature.fFunction),
    (Op, Feature.fOp),
    (Call, Feature.fCall),
    (Let, Feature.fLet),
    (If, Feature.fIf),
    (RefCreate, Feature.fRefCreate),
    (RefRead, Feature.fRefRead),
    (RefWrite, Feature.fRefWrite),
    (Constructor, Feature.fConstructor),
    (Match, Feature.fMatch),
)

# TVM's IsAtomic: sharing these does not make a program a graph.
_ATOMIC = (Var, Op, Constructor, GlobalVar, Constant)


def _is_primitive(func):
    value = func.attrs.get("Primitive") if func.attrs else None
    return value is not None and int(value) != 0


def _detect_feature_expr(expr, out):
    """TVM's FeatureDetector: each node's feature; fGraph when a non-atomic node is reached a
    second time; a let whose variable is free in its value is fLetRec; the bodies of primitive
    (fused) functions are not entered."""
    visited = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node in visited:
            if not isinstance(node, _ATOMIC):
                out.add(Feature.fGraph)
            continue
        visited.add(node)
        for cls, feature in _FEATURE_OF:
            if isinstance(node, cls):
                out.add(feature)
                break
        if isinstance(node, Function) and _is_primitive(node):
            continue
        if isinstance(node, Let) and node.var in set(_core.free_vars(node.value)):
            out.add(Feature.fLetRec)
        stack.extend(reversed(_children(node)))


def detect_feature(a, b=None):
    """The set of Features used in an expression and/or a module (either argument may be the
    IRModule; for a module, the union over its functions)."""
    if isinstance(a, IRModule):
        a, b = b, a
    out = set()
    if a is not None:
        _detect_feature_expr(a, out)
    if b is not None:
        for func in b.functions.values():
            _detect_feature_expr(func, out)
    return out


def _pattern_vars(pattern):
    """The variables a match pattern binds, left to right."""
    out, stack = [], [pattern]
    while stack:
        p = stack.pop()
        if isinstance(p, _core.PatternVar):
            out.append(p.var)
        elif isinstance(p, (_core.PatternConstructor, _core.PatternTuple)):
            stack.extend(reversed(list(p.patterns)))
    return out


def well_formed(expr):
    """Whether every variable is bound at most once, and used only inside the scope of its
    binding when bound (TVM's WellFormedChecker: a variable used free and also bound, bound
    twice, or used after its scope ends makes the program ill-formed). As TVM's checker, each
    node is examined once however many times it is shared."""
    visited = set()
    current = set()
    total = set()
    free = set()
    scopes = []
    ok = True

    def bound(v):
        nonlocal ok
        if v in current or v in total or v in free:
            ok = False
        scopes[-1].append(v)
        current.add(v)
        total.add(v)

    def use(v):
        nonlocal ok
        if v not in current:
            if v in total:
                ok = False
            else:
                free.add(v)

    # Tasks, run last-pushed first: ("visit", e) is TVM's memoized VisitExpr; ("check", e) its
    # CheckWellFormed (a variable is examined without the memo); scope pushes and pops; binds.
    stack = [("check", expr)]
    while stack:
        task, node = stack.pop()
        if task == "check":
            if isinstance(node, Var):
                use(node)
                continue
            task = "visit"
        if task == "visit":
            if node in visited:
                continue
            visited.add(node)
            todo = []
            if isinstance(node, Var):
                use(node)
            elif isinstance(node, Let):
                depth = 0
                while isinstance(node, Let):
                    todo += [("push", None), ("bound", node.var), ("check", node.value)]
                    depth += 1
                    node = node.body
                todo.append(("check", node))
                todo += [("pop", None)] * depth
            elif isinstance(node, Function):
                todo.append(("push", None))
                todo += [("bound", p) for p in node.params]
                todo += [("check", node.body), ("pop", None)]
            elif isinstance(node, _core.Match):
                # Each clause is a scope binding its pattern's variables (TVM's VisitClause).
                todo.append(("check", node.data))
                for clause in node.clauses:
                    todo.append(("push", None))
                    todo += [("bound", v) for v in _pattern_vars(clause.lhs)]
                    todo += [("check", clause.rhs), ("pop", None)]
            else:
                todo = [("visit", c) for c in _children(node)]
            stack.extend(reversed(todo))
        elif task == "bound":
            bound(node)
        elif task == "push":
            scopes.append([])
        elif task == "pop":
            for v in scopes.pop():
                current.discard(v)
    return ok


def check_basic_block_normal_form(expr):
    """Whether ``expr`` is in basic block normal form: True, or (as TVM) an InternalError (a
    TVMError) naming the first expression whose scope should be lifted, i.e. one used from more
    than one scope (if branches, function bodies) without being bound in a scope enclosing them
    all."""
    violations = _core.basic_block_normal_form_violations(expr)
    if violations:
        raise InternalError(
            "The expression below violates the basic block normal form in that its scope "
            "should be lifted:\n{}".format(violations[0].astext(False)))
    return True


def count_layers(expr, valid_ops):
    """The number of layers of the ops named in ``valid_ops`` (e.g. ``["nn.conv2d",
    "nn.dense"]``) along the deepest chain of the graph (``expr``: an expression, a function or
    an IRModule, whose "main" is counted). Parallel ops count as one layer. TVM's LayerCounter:
    a memoized visit from the output, each node counted along the path it is first reached by."""
    if isinstance(expr, IRModule):
        expr = expr["main"]
    valid = {Op.get(name) for name in valid_ops}
    visited = set()
    depth = 0
    deepest = 0
    stack = [("visit", expr)]
    while stack:
        task, item = stack.pop()
        if task == "set":
            depth = item
            continue
        if item in visited:
            continue
        visited.add(item)
        if isinstance(item, Call):
            if item.op in valid:
                depth += 1
            current = depth
            deepest = max(deepest, current)
            todo = []
            for arg in item.args:
                todo += [("visit", arg), ("set", current)]
            stack.extend(reversed(todo))
        else:
            stack.extend(("visit", c) for c in reversed(_children(item)))
    return deepest


def list_op_freqs(mod):
    """{operator name: number of calls to it} over the module's "main" function, fused
    (primitive) functions included; each call node counts once however often it is shared. An
    operator that appears only uncalled is listed with 0 (TVM's ExtractOperators)."""
    freqs = {}

    def visit(node):
        if isinstance(node, Op):
            freqs.setdefault(node.name, 0)
        elif isinstance(node, Call) and isinstance(node.op, Op):
            freqs[node.op.name] = freqs.get(node.op.name, 0) + 1

    _core.post_order_visit(mod["main"], visit)
    return freqs


def list_fake_quantized_op_freqs(mod):
    """{operator name: count} of the operators inside the module's fake-quantized regions
    (qnn.dequantize -> float ops -> qnn.quantize), the dequantize calls not counted (TVM's
    relay.analysis.list_fake_quantized_op_freqs)."""
    return dict(_core.list_fake_quantized_op_freqs(mod))


def _layout_index(layout, axis):
    """The position of ``axis`` among the axes of a layout string ("NCHW16c": N C H W 16c)."""
    pos = 0
    for ch in layout:
        if ch.isdigit():
            continue
        if ch == axis:
            return pos
        pos += 1
    return -1


def _check(cond, message):
    if not cond:
        raise InternalError(message)


def _prod(values):
    out = 1
    for v in values:
        out *= int(v)
    return out


def _shape(expr):
    return [int(s) for s in expr.checked_type.shape]


def _conv_macs(call, what):
    _check(len(call.args) == 2,
           "The number of input arguments of a {} node should be 2.".format(what))
    data_shape = _shape(call.args[0])
    layout = call.attrs["data_layout"]
    c_outer = _layout_index(layout, "C")
    c_inner = _layout_index(layout, "c")
    _check(c_outer != -1, "There is no input channel dimension.")
    input_channel = data_shape[c_outer]
    if c_inner != -1:
        input_channel *= data_shape[c_inner]
    kernel_size = call.attrs["kernel_size"] or []
    _check(len(kernel_size) == 2, "The dimension of the kernel in {} should be 2.".format(what))
    output = _shape(call)
    _check(len(output) in (4, 5),
           "The dimension of the output tensor in {} should be 4 or 5.".format(what))
    groups = int(call.attrs["groups"])
    _check(input_channel % groups == 0, "The number of input channels is not divisble by groups.")
    return _prod(output) * _prod(kernel_size) * (input_channel // groups)


def _dense_macs(call):
    _check(len(call.args) == 2, "The number of input arguments of a Dense node should be 2.")
    data_shape = _shape(call.args[0])
    weight_shape = _shape(call.args[1])
    _check(len(data_shape) == 2 and len(weight_shape) == 2,
           "The dimension of an input tensor to Dense node should be 2.")
    _check(data_shape[1] == weight_shape[1], "The dimensions of input arguments do not match.")
    return data_shape[0] * data_shape[1] * weight_shape[0]


def _batch_matmul_macs(call):
    _check(len(call.args) == 2, "The number of input arguments of a batch_matmul should be 2.")
    x_shape = _shape(call.args[0])
    y_shape = _shape(call.args[1])
    return x_shape[0] * x_shape[1] * x_shape[2] * y_shape[1]


_MAC_COUNTERS = {
    "nn.conv2d": lambda call: _conv_macs(call, "Conv 2D"),
    "nn.conv2d_transpose": lambda call: _conv_macs(call, "Conv 2D Transpose"),
    "nn.dense": _dense_macs,
    "nn.batch_matmul": _batch_matmul_macs,
}


def get_total_mac_number(expr):
    """The number of multiply-accumulates of the nn.conv2d, nn.conv2d_transpose, nn.dense and
    nn.batch_matmul calls of a type-inferred expression (TVM's per-operator FMacCount formulas;
    batch_matmul counts batch*M*K*N from x's [batch, M, K] and y's second axis). A call without a
    checked type counts 0, as in TVM (which logs a warning). Shared calls count once."""
    total = 0

    def visit(node):
        nonlocal total
        if isinstance(node, Call) and isinstance(node.op, Op):
            counter = _MAC_COUNTERS.get(node.op.name)
            if counter is None:
                return
            try:
                node.checked_type
            except ValueError:
                return
            total += counter(node)

    _core.post_order_visit(expr, visit)
    return total


def extract_fused_functions(mod):
    """Runs SimplifyInference and FuseOps(fuse_opt_level=3) on ``mod``, then returns the
    primitive (fused) functions reachable from its "main": {GlobalVar named by the function's
    structural hash: function}, one entry per structurally distinct function (TVM's
    ExtractFusedFunctions, whose result module is keyed that way)."""
    from ..transform import Sequential
    from . import transform

    fused = Sequential(
        [transform.SimplifyInference(), transform.FuseOps(3)], name="ExtractFusedFunctions")(mod)
    functions = {}
    visited = set()
    stack = [fused["main"]]
    while stack:
        node = stack.pop()
        if node in visited:
            continue
        visited.add(node)
        if isinstance(node, Function) and _is_primitive(node):
            copy = Function(list(node.params), node.body, node.ret_type, attrs=dict(node.attrs))
            functions[str(_core.structural_hash(copy))] = copy
        stack.extend(reversed(_children(node)))
    return {GlobalVar(key): func for key, func in functions.items()}


def search_fc_transpose(expr):
    """The names of the weights ``w`` in the pattern ``nn.dense(x, transpose(w))`` (a variable
    transposed, the transpose's axes not checked, as TVM), each once, in the order found from
    the output (used by relay.data_dep_optimization.simplify_fc_transpose)."""
    dense = Op.get("nn.dense")
    transpose = Op.get("transpose")
    names = []
    visited = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node in visited:
            continue
        visited.add(node)
        if isinstance(node, Call):
            if node.op == dense and len(node.args) > 1:
                weight = node.args[1]
                if (isinstance(weight, Call) and weight.op == transpose
                        and isinstance(weight.args[0], Var)):
                    name = weight.args[0].name_hint
                    if name not in names:
                        names.append(name)
            stack.extend(reversed(list(node.args)))
        else:
            stack.extend(reversed(_children(node)))
    return names


class AnnotatedRegion:
    """One region of an AnnotatedRegionSet: ``id``, ``target`` (the compiler named by its
    annotations), ``func_name``, ``args`` (its compiler_begin calls), ``rets`` (its compiler_end
    calls) and ``nodes`` (every expression in it, annotations included)."""

    def __init__(self, region_id, target, func_name):
        self.id = region_id
        self.target = target
        self.func_name = func_name
        self._nodes = {}  # insertion-ordered set
        self.args = []
        self.rets = []

    @property
    def nodes(self):
        return list(self._nodes)

    def __repr__(self):
        return "AnnotatedRegion(id={}, target={!r})".format(self.id, self.target)


class AnnotatedRegionSet:
    """An expression split into regions by ``region_begin_op`` / ``region_end_op`` annotations
    (annotation.compiler_begin / compiler_end), as TVM's AnnotatedRegionSet: a compiler_begin
    opens a region; an expression joins (and merges) the open regions of its arguments (an
    argument that is a compiler_end closes its region and is not followed); a compiler_end
    closes its argument's region. ``len()`` is the number of regions; ``get_region(expr)`` the
    region holding ``expr``, or None. Built with an explicit stack (any depth)."""

    def __init__(self, expr, region_begin_op, region_end_op, func_name="default"):
        self.regions = []
        self._next_id = 0
        self._begin = region_begin_op
        self._end = region_end_op
        self._func_name = func_name
        self._create(expr)

    def __len__(self):
        return len(self.regions)

    def get_region(self, expr):
        """The region containing ``expr``, or None."""
        for region in self.regions:
            if expr in region._nodes:
                return region
        return None

    def _merge(self, src, dest):
        if src is dest:
            return
        dest._nodes.update(src._nodes)
        dest.args.extend(src.args)
        dest.rets.extend(src.rets)
        # An output of src feeding an input of dest becomes internal to the merged region.
        internal = [begin for begin in dest.args if begin.args[0] in src._nodes]
        for begin in internal:
            end = begin.args[0]
            dest.rets = [r for r in dest.rets if r != end]
        dest.args = [a for a in dest.args if a not in internal]
        self.regions.remove(src)

    def _add_to_region(self, dest, expr):
        src = self.get_region(expr)
        if src is not None:
            self._merge(src, dest)
        else:
            dest._nodes[expr] = None

    def _is_end(self, expr):
        return isinstance(expr, Call) and expr.op == self._end

    def _add_to_arg_region(self, expr, args):
        region = None
        for arg in args:
            if self._is_end(arg):  # a closed region
                continue
            region = self.get_region(arg)
            if region is not None:
                break
        for arg in args:
            if self._is_end(arg):
                continue
            arg_region = self.get_region(arg)
            if (region is None) != (arg_region is None):
                raise InternalError("Arg regions are inconsistent: {}".format(expr.astext(False)))
            if region is not None and region is not arg_region:
                self._merge(arg_region, region)
        if region is not None:
            self._add_to_region(region, expr)

    def _visit_call(self, call):
        is_compiler_annotation = (isinstance(call.op, Op)
                                  and call.op.attrs_type_key == "relay.attrs.CompilerAttrs")
        if not is_compiler_annotation:
            self._add_to_arg_region(call, list(call.args))
            return
        _check(len(call.args) == 1, "A region annotation must have one argument.")
        target = call.attrs["compiler"]
        if call.op == self._begin:
            _check(self.get_region(call) is None, "The region begin is already in a region.")
            region = AnnotatedRegion(self._next_id, target, self._func_name)
            self._next_id += 1
            self.regions.append(region)
            region._nodes[call] = None
            region.args.append(call)
            return
        _check(call.op == self._end, "A CompilerAttrs call that is neither the region begin nor "
                                     "the region end operator.")
        region = self.get_region(call.args[0])
        if region is None:
            raise TVMError("Cannot find the corresponding region for end annotation:\n"
                           + call.astext(False))
        _check(region.target == target, "A region end of target {} closes a region of target {}"
               .format(target, region.target))
        region._nodes[call] = None
        region.rets.append(call)

    def _create(self, expr):
        # TVM's Creator is a MixedModeVisitor: calls, tuples and tuple projections after their
        # children; lets, ifs and references before theirs; each node once.
        visited = set()
        stack = [("visit", expr)]
        while stack:
            task, node = stack.pop()
            if task == "call":
                self._visit_call(node)
                continue
            if task == "tuple":
                self._add_to_arg_region(node, list(node.fields))
                continue
            if task == "getitem":
                self._add_to_arg_region(node, [node.tuple_value])
                continue
            if node in visited:
                continue
            visited.add(node)
            children = _children(node)
            if isinstance(node, Call):
                stack.append(("call", node))
            elif isinstance(node, Tuple):
                stack.append(("tuple", node))
            elif isinstance(node, TupleGetItem):
                stack.append(("getitem", node))
            elif isinstance(node, Let):
                self._add_to_arg_region(node, [node.var, node.value, node.body])
            elif isinstance(node, If):
                self._add_to_arg_region(node, children)
            elif isinstance(node, (RefCreate, RefRead)):
                self._add_to_arg_region(node, children)
            elif isinstance(node, RefWrite):
                self._add_to_arg_region(node, [node.ref])
            stack.extend(("visit", c) for c in reversed(children))


from .extract_intermediate_expr import extract_intermdeiate_expr  # noqa: E402,F401
