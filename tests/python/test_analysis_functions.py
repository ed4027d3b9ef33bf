"""relay.analysis (detect_feature, well_formed, check_basic_block_normal_form, count_layers,
list_op_freqs, get_total_mac_number, extract_fused_functions, search_fc_transpose, the type
variable functions), relay.TypeFunctor/TypeVisitor/TypeMutator and tvm.runtime.convert.

Where expected values come from: each test says. "TVM's rules" means the behaviour of TVM
v0.13's C++ analysis named in the test (feature.cc's FeatureDetector, well_formed.cc's
WellFormedChecker, mac_count.cc's per-operator formulas, ...), applied by hand to the small
program built here."""
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.analysis import Feature, detect_feature


def _mod(expr):
    return relay.transform.InferType()(tvm.IRModule.from_expr(expr))


# detect_feature ---------------------------------------------------------------------------------


def test_detect_feature_of_a_small_function():
    # FeatureDetector adds one feature per node kind reached: fn, var, call, op, constant.
    x = relay.var("x", shape=(2,))
    f = relay.Function([x], relay.add(x, relay.const(1.0)))
    assert detect_feature(f) == {
        Feature.fFunction, Feature.fVar, Feature.fCall, Feature.fOp, Feature.fConstant}


def test_detect_feature_graph_only_for_shared_non_atomic_nodes():
    # TVM's rule: fGraph when a node that is not atomic (Var, Op, GlobalVar, Constant) is
    # reached a second time. A variable used twice is atomic; a call used twice is not.
    x = relay.var("x", shape=(2,))
    assert Feature.fGraph not in detect_feature(relay.add(x, x))
    shared = relay.exp(x)
    assert Feature.fGraph in detect_feature(relay.add(shared, shared))
    t = relay.Tuple([x])
    assert Feature.fGraph in detect_feature(relay.Tuple([t, t]))


def test_detect_feature_let_if_refs_tuples_letrec():
    # One feature per kind present (FeatureDetector); fLetRec when the let's variable is free in
    # its own value (feature.cc's Let case).
    x = relay.var("x", shape=())
    c = relay.var("c", shape=(), dtype="bool")
    r = relay.var("r")
    body = relay.If(c, relay.TupleGetItem(relay.Tuple([x]), 0), x)
    e = relay.Let(r, relay.RefCreate(x), relay.Tuple([relay.RefWrite(r, body), relay.RefRead(r)]))
    assert detect_feature(e) == {
        Feature.fLet, Feature.fVar, Feature.fRefCreate, Feature.fTuple, Feature.fRefWrite,
        Feature.fIf, Feature.fTupleGetItem, Feature.fRefRead}
    f = relay.var("f")
    rec = relay.Let(f, relay.Function([x], relay.Call(f, [x])), f)
    assert Feature.fLetRec in detect_feature(rec)
    assert Feature.fLetRec not in detect_feature(e)


def test_detect_feature_constructors_and_matches():
    # feature.cc's FeatureDetector has fConstructor and fMatch cases; a constructor is atomic
    # (IsAtomic), so using one twice is not fGraph. Patterns are not expressions: a pattern's
    # constructor alone adds nothing (here Cons also appears as an expression).
    mod = tvm.IRModule()
    p = relay.prelude.Prelude(mod)
    _, cons, nil = p.mod.get_type("List")
    x = relay.var("x", shape=())
    lst = relay.Call(cons, [x, relay.Call(cons, [x, relay.Call(nil, [])])])
    assert detect_feature(lst) == {Feature.fConstructor, Feature.fCall, Feature.fVar}
    h = relay.var("h")
    m = relay.Match(lst, [
        relay.Clause(relay.PatternConstructor(cons, [relay.PatternVar(h), relay.PatternWildcard()]), h),
        relay.Clause(relay.PatternWildcard(), x)])
    assert detect_feature(m) == {
        Feature.fMatch, Feature.fConstructor, Feature.fCall, Feature.fVar}


def test_detect_feature_of_a_module_is_the_union_over_its_functions():
    # TVM's DetectFeature(IRModule) unions its functions' sets; either argument may be the module
    # (python/tvm/relay/analysis/analysis.py swaps them).
    x = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.Tuple([x])))
    y = relay.var("y", shape=(2,))
    expr = relay.If(relay.const(True), y, y)
    expected_mod = {Feature.fFunction, Feature.fVar, Feature.fTuple}
    assert detect_feature(mod) == expected_mod
    both = expected_mod | {Feature.fIf, Feature.fVar, Feature.fConstant}
    assert detect_feature(expr, mod) == both
    assert detect_feature(mod, expr) == both


def test_detect_feature_does_not_enter_primitive_functions():
    # feature.cc: a function with a nonzero Primitive attribute counts as fFunction, its body is
    # not visited.
    x = relay.var("x", shape=())
    inner = relay.Function([x], relay.If(relay.const(True), x, x)).with_attr("Primitive", 1)
    assert detect_feature(inner) == {Feature.fFunction}
    assert Feature.fIf in detect_feature(relay.Function([x], relay.If(relay.const(True), x, x)))


def test_feature_values_are_tvms():
    # python/tvm/relay/analysis/feature.py numbers them 0..16 in this order.
    names = ["fVar", "fGlobalVar", "fConstant", "fTuple", "fTupleGetItem", "fFunction", "fOp",
             "fCall", "fLet", "fIf", "fRefCreate", "fRefRead", "fRefWrite", "fConstructor",
             "fMatch", "fGraph", "fLetRec"]
    assert [Feature[n].value for n in names] == list(range(17))


# Deep graphs ------------------------------------------------------------------------------------


def test_deep_chain_through_every_analysis():
    # 100,000 nested adds: every analysis walks with an explicit stack (a Python recursion would
    # stop near 1,000). Expected values by hand: one add per level, no shared non-atomic node,
    # no conv/dense, no type variables in relaypass's IR.
    n = 100000
    x = relay.var("x", shape=(2,))
    y = x
    one = relay.const(1.0)
    for _ in range(n):
        y = relay.add(y, one)
    f = relay.Function([x], y)
    assert detect_feature(f) == {
        Feature.fFunction, Feature.fVar, Feature.fCall, Feature.fOp, Feature.fConstant}
    assert relay.analysis.free_type_vars(f) == []
    assert relay.analysis.all_type_vars(f) == []
    assert relay.analysis.well_formed(f)
    assert relay.analysis.count_layers(f, ["add"]) == n
    assert relay.analysis.list_op_freqs(tvm.IRModule.from_expr(f)) == {"add": n}
    assert relay.analysis.check_basic_block_normal_form(f) is True
    assert relay.analysis.search_fc_transpose(f) == []
    assert relay.analysis.get_total_mac_number(f) == 0


# well_formed -----------------------------------------------------------------------------------


def test_well_formed_rejects_a_variable_bound_twice():
    # TVM's doc comment on WellFormed (include/tvm/relay/analysis.h): "let x = 1 in let x = 2
    # in 3" binds x twice; "let f = (x -> x) in let g = (x -> x + 1) in f(g(2))" also binds x
    # twice, although x is not shadowed.
    x = relay.var("x", shape=())
    one, two, three = relay.const(1.0), relay.const(2.0), relay.const(3.0)
    assert not relay.analysis.well_formed(relay.Let(x, one, relay.Let(x, two, three)))
    f, g = relay.var("f"), relay.var("g")
    prog = relay.Let(f, relay.Function([x], x),
                     relay.Let(g, relay.Function([x], relay.add(x, one)),
                               relay.Call(f, [relay.Call(g, [two])])))
    assert not relay.analysis.well_formed(prog)
    y = relay.var("y", shape=())
    ok = relay.Let(f, relay.Function([x], x),
                   relay.Let(g, relay.Function([y], relay.add(y, one)),
                             relay.Call(f, [relay.Call(g, [two])])))
    assert relay.analysis.well_formed(ok)


def test_well_formed_free_use_and_use_out_of_scope():
    # WellFormedChecker: a variable used free and then bound, or used after the scope binding
    # it, is ill-formed; a free variable alone is fine; a shared node is checked once.
    x = relay.var("x", shape=())
    one = relay.const(1.0)
    assert relay.analysis.well_formed(relay.add(x, x))
    assert not relay.analysis.well_formed(relay.Tuple([x, relay.Let(x, one, x)]))
    assert not relay.analysis.well_formed(relay.Tuple([relay.Let(x, one, x), x]))
    f = relay.Function([x], x)
    assert relay.analysis.well_formed(relay.Tuple([f, f]))


# check_basic_block_normal_form ----------------------------------------------------------------


def test_basic_block_normal_form():
    # TVM: an expression used from both branches of an if without being bound above it must be
    # lifted, so the check raises a TVMError (to_basic_block_normal_form.cc); binding it with a
    # let (or running ToBasicBlockNormalForm, whose output is in that form by definition) passes.
    x = relay.var("x", shape=())
    c = relay.var("c", shape=(), dtype="bool")
    shared = relay.add(x, relay.const(1.0))
    body = relay.If(c, relay.multiply(shared, relay.const(2.0)),
                    relay.multiply(shared, relay.const(3.0)))
    f = relay.Function([x, c], body)
    with pytest.raises(tvm.error.TVMError, match="violates the basic block normal form"):
        relay.analysis.check_basic_block_normal_form(f)
    converted = relay.transform.ToBasicBlockNormalForm()(tvm.IRModule.from_expr(f))["main"]
    assert relay.analysis.check_basic_block_normal_form(converted) is True
    assert relay.analysis.check_basic_block_normal_form(relay.add(shared, shared)) is True


# count_layers ----------------------------------------------------------------------------------


def test_count_layers_counts_the_deepest_chain():
    # By hand: conv -> relu -> conv -> dense is 3 layers of {conv2d, dense}; a conv beside the
    # chain (parallel) adds none; an IRModule counts its main.
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(3, 3, 3, 3))
    a = relay.nn.relu(relay.nn.conv2d(x, w, kernel_size=(3, 3), padding=(1, 1)))
    b = relay.nn.conv2d(a, w, kernel_size=(3, 3), padding=(1, 1))
    d = relay.nn.dense(relay.nn.batch_flatten(b), relay.var("wd", shape=(10, 192)))
    side = relay.nn.conv2d(x, w, kernel_size=(3, 3), padding=(1, 1))
    f = relay.Function(relay.analysis.free_vars(relay.Tuple([d, side])), relay.Tuple([d, side]))
    assert relay.analysis.count_layers(f, ["nn.conv2d", "nn.dense"]) == 3
    assert relay.analysis.count_layers(f, ["nn.conv2d"]) == 2
    assert relay.analysis.count_layers(tvm.IRModule.from_expr(f), ["nn.relu"]) == 1


# list_op_freqs ---------------------------------------------------------------------------------


def test_list_op_freqs():
    # By hand: two add calls and one multiply; a call shared twice is one call (TVM's
    # ExtractOperators visits each node once); fused functions are entered.
    x = relay.var("x", shape=(2,))
    s = relay.add(x, x)
    f = relay.Function([x], relay.multiply(relay.add(s, s), s))
    mod = _mod(f)
    assert relay.analysis.list_op_freqs(mod) == {"add": 2, "multiply": 1}
    fused = relay.transform.FuseOps(3)(mod)
    assert relay.analysis.list_op_freqs(fused) == {"add": 2, "multiply": 1}


# get_total_mac_number --------------------------------------------------------------------------


def test_mac_count_formulas():
    # mac_count.cc's formulas, computed by hand:
    # dense: data (4, 8), weight (3, 8) -> 4 * 8 * 3 = 96
    # batch_matmul: x (2, 3, 4), y (2, 5, 4) -> batch * M * K * N = 2 * 3 * 4 * 5 = 120
    # conv2d NHWC: out (1, 6, 6, 5) = 180 points, kernel 3x3, 4 input channels -> 180 * 9 * 4
    # = 6480; with groups=2 (weight HWIO (3, 3, 2, 6), out (1, 6, 6, 6) = 216): 216 * 9 * 2
    # = 3888.
    d = relay.nn.dense(relay.var("a", shape=(4, 8)), relay.var("b", shape=(3, 8)))
    assert relay.analysis.get_total_mac_number(_mod(d)["main"]) == 96
    bm = relay.nn.batch_matmul(relay.var("p", shape=(2, 3, 4)), relay.var("q", shape=(2, 5, 4)))
    assert relay.analysis.get_total_mac_number(_mod(bm)["main"]) == 120
    x = relay.var("x", shape=(1, 8, 8, 4))
    conv = relay.nn.conv2d(x, relay.var("w", shape=(3, 3, 4, 5)), kernel_size=(3, 3),
                           channels=5, data_layout="NHWC", kernel_layout="HWIO")
    assert relay.analysis.get_total_mac_number(_mod(conv)["main"]) == 6480
    grouped = relay.nn.conv2d(x, relay.var("w", shape=(3, 3, 2, 6)), kernel_size=(3, 3),
                              channels=6, groups=2, data_layout="NHWC", kernel_layout="HWIO")
    assert relay.analysis.get_total_mac_number(_mod(grouped)["main"]) == 3888


def test_mac_count_without_types_is_zero():
    # mac_count.cc: a call without a checked type counts 0 (TVM logs "The infer type pass should
    # be called before the mac count pass").
    d = relay.nn.dense(relay.var("a", shape=(4, 8)), relay.var("b", shape=(3, 8)))
    assert relay.analysis.get_total_mac_number(d) == 0


# extract_fused_functions ----------------------------------------------------------------------


def test_extract_fused_functions():
    # TVM's ExtractFusedFunctions runs SimplifyInference and FuseOps(3) and returns the primitive
    # functions keyed by a GlobalVar named by the structural hash. conv2d and max_pool2d are both
    # out-elementwise-fusable, so FuseOps keeps them in two groups; relu fuses into the pool's.
    x = relay.var("x", shape=(1, 3, 8, 8))
    conv = relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3)), kernel_size=(3, 3))
    out = relay.nn.relu(relay.nn.max_pool2d(conv, pool_size=(2, 2)))
    items = relay.analysis.extract_fused_functions(_mod(relay.Function([x], out)))
    assert len(items) == 2
    ops = []
    for key, func in items.items():
        assert isinstance(key, relay.GlobalVar)
        assert key.name_hint == str(tvm.ir.structural_hash(func))
        assert int(func.attrs["Primitive"]) == 1
        ops.append(sorted(set(relay.analysis.list_op_freqs(tvm.IRModule.from_expr(func)))))
    assert sorted(ops) == [["nn.conv2d"], ["nn.max_pool2d", "nn.relu"]]


# search_fc_transpose ---------------------------------------------------------------------------


def test_search_fc_transpose():
    # simplify_fc_transpose.cc: the names of variables w in dense(x, transpose(w)), each once.
    x = relay.var("x", shape=(1, 4))
    w = relay.var("w", shape=(4, 3))
    v = relay.var("v", shape=(4, 4))
    y = relay.nn.dense(x, relay.transpose(w, [1, 0]))
    z = relay.nn.dense(relay.nn.dense(x, relay.transpose(v, [1, 0])),
                       relay.transpose(v, [1, 0]))
    assert relay.analysis.search_fc_transpose(y) == ["w"]
    assert relay.analysis.search_fc_transpose(relay.Tuple([y, z])) == ["w", "v"]
    assert relay.analysis.search_fc_transpose(relay.nn.dense(x, relay.var("u", shape=(3, 4)))) == []


# Types -----------------------------------------------------------------------------------------


def test_type_functor_visitor_and_mutator():
    # TVM's python/tvm/relay/type_functor.py contract: TypeFunctor's visit_* raise
    # NotImplementedError; TypeVisitor visits every component; TypeMutator rebuilds an equal type.
    t = relay.FuncType([relay.TensorType((2, 3), "float32"),
                        relay.TupleType([relay.RefType(relay.scalar_type("int32"))])],
                       relay.TensorType((), "bool"))
    with pytest.raises(NotImplementedError):
        relay.TypeFunctor().visit(t)

    class Dtypes(relay.TypeVisitor):
        def __init__(self):
            super().__init__()
            self.seen = []

        def visit_tensor_type(self, tt):
            self.seen.append(tt.dtype)

    v = Dtypes()
    v.visit(t)
    assert v.seen == ["float32", "int32", "bool"]
    tvm.ir.assert_structural_equal(relay.TypeMutator().visit(t), t)


def test_type_variables():
    # TVM's TypeVarEVisitor / TypeVarTVisitor: none in a program without type variables; a
    # function's type parameters are bound, the others free (test_pass_vars.py's cases).
    x = relay.var("x", relay.TupleType([relay.TensorType((), "int32")]))
    for fn in (relay.analysis.free_type_vars, relay.analysis.bound_type_vars,
               relay.analysis.all_type_vars):
        assert fn(relay.Let(x, relay.Tuple([relay.const(1)]), x)) == []
        assert fn(x.type_annotation) == []
    a, b = relay.TypeVar("a"), relay.TypeVar("b")
    f = relay.Function([relay.var("y", a)], relay.Tuple([]), b, [a])
    assert [t.name_hint for t in relay.analysis.all_type_vars(f)] == ["a", "b"]
    assert [t.name_hint for t in relay.analysis.bound_type_vars(f)] == ["a"]
    assert [t.name_hint for t in relay.analysis.free_type_vars(f)] == ["b"]
    with pytest.raises(TypeError):
        relay.analysis.free_type_vars("not an expression")


def test_runtime_convert():
    # tvm.runtime.convert's documented use here: Python containers to the runtime's (relaypass's
    # Array and Map are lists and dicts), elements converted.
    x = relay.var("x")
    assert tvm.runtime.convert((1, [x])) == [1, [x]]
    assert tvm.runtime.convert({"a": (2,)}) == {"a": [2]}
    assert tvm.runtime.convert(x) is x


def test_simplify_fc_transpose_convert():
    # TVM's data_dep_optimization/simplify_fc_transpose.py: each weight search_fc_transpose finds
    # becomes a parameter "<name>.T" holding the weight transposed (hand-computed below), params
    # changes in place; the function computes the same values.
    import numpy as np

    from relaypass.relay.data_dep_optimization import simplify_fc_transpose

    x = relay.var("x", shape=(1, 4))
    w = relay.var("w", shape=(4, 3))
    f = relay.Function([x, w], relay.nn.dense(x, relay.transpose(w, [1, 0])))
    w_np = np.arange(12, dtype="float32").reshape(4, 3)
    params = {"w": tvm.nd.array(w_np)}
    new_f, new_params = simplify_fc_transpose.convert(f, params)
    assert new_params is params and sorted(params) == ["w.T"]
    np.testing.assert_array_equal(params["w.T"].numpy(), [[0, 3, 6, 9], [1, 4, 7, 10],
                                                          [2, 5, 8, 11]])
    assert [p.name_hint for p in new_f.params] == ["x", "w.T"]
    x_np = np.ones((1, 4), "float32")
    out = relay.create_executor(mod=tvm.IRModule.from_expr(new_f)).evaluate()(
        x_np, params["w.T"]).numpy()
    np.testing.assert_allclose(out, x_np @ w_np)


def test_annotated_region_set():
    # TVM's AnnotatedRegionSet rules (annotated_region_set.cc), by hand: each compiler_begin
    # opens a region; a call joins its arguments' open regions, merging them (so add(b1, b2)
    # makes one region with two args); compiler_end closes the region of its argument, and a
    # compiler_end argument does not carry its region into the call using it.
    from relaypass.relay.op.annotation import compiler_begin, compiler_end

    x = relay.var("x", shape=(2,))
    b1, b2 = compiler_begin(x, "t"), compiler_begin(x, "t")
    s = relay.add(b1, b2)
    e1 = compiler_end(s, "t")
    b3 = compiler_begin(e1, "u")
    r = relay.nn.relu(b3)
    e2 = compiler_end(r, "u")
    f = relay.Function([x], e2)
    regions = relay.analysis.AnnotatedRegionSet(
        f, relay.op.get("annotation.compiler_begin"), relay.op.get("annotation.compiler_end"))
    assert len(regions) == 2
    first = regions.get_region(s)
    assert first.target == "t"
    assert set(first.args) == {b1, b2} and set(first.rets) == {e1}
    assert set(first.nodes) == {b1, b2, s, e1}
    second = regions.get_region(r)
    assert second.target == "u" and set(second.nodes) == {b3, r, e2} and second.rets == [e2]
    assert regions.get_region(x) is None


def test_extract_intermdeiate_expr_follows_the_printed_numbers():
    # Expected: expression %k of print(mod["main"]) (the printer's numbering, TVM's definition of
    # expr_id in src/relay/analysis/extract_intermediate_expr.cc) becomes the new main's body.
    import re

    x = relay.var("x", shape=(2, 3))
    y = relay.var("y", shape=(2, 3))
    a = relay.add(x, y)
    t = relay.Tuple([relay.exp(a), relay.log(a)])
    body = relay.multiply(relay.TupleGetItem(t, 0), relay.TupleGetItem(t, 1))
    mod = tvm.IRModule.from_expr(relay.Function([x, y], body))
    text = mod["main"].astext(False)
    numbered = dict(re.findall(r"%(\d+) = ([\w.()%]+)", text))
    assert len(numbered) == 6
    for k in range(6):
        sub = relay.analysis.extract_intermdeiate_expr(mod, k)["main"].body
        printed = numbered[str(k)]
        if printed.startswith("("):
            assert isinstance(sub, relay.Tuple)
        elif printed.startswith("%"):
            assert isinstance(sub, relay.TupleGetItem)
        else:
            assert isinstance(sub, relay.Call) and sub.op.name == printed.split("(")[0], (k, text)
    # the last expression is main's body itself
    last = relay.analysis.extract_intermdeiate_expr(mod, 6)
    assert tvm.ir.structural_equal(last["main"], mod["main"])
    with pytest.raises(tvm.error.InternalError, match="expr_id 7"):
        relay.analysis.extract_intermdeiate_expr(mod, 7)
