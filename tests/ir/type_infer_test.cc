#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::ir {
namespace {

std::string TypeOf(const Expr& e) {
  return TypeToString(e->checked_type);
}

Function InferMain(const Function& f) {
  return InferTypes(IRModule::FromExpr(f)).Lookup("main");
}

TEST(TypeInferTest, ExampleGetsTheTutorialTypes) {
  Function f = InferMain(workloads::Example());
  EXPECT_EQ(TypeToString(f->ret_type), "Tensor[(1, 64, 54, 54), float32]");
  EXPECT_EQ(TypeOf(f->params[0]), "Tensor[(1, 64, 56, 56), float32]");
  EXPECT_EQ(TypeOf(f->params[1]), "Tensor[(64, 64, 3, 3), float32]");
  EXPECT_EQ(TypeOf(f),
            "fn (Tensor[(1, 64, 56, 56), float32], Tensor[(64, 64, 3, 3), float32]) -> "
            "Tensor[(1, 64, 54, 54), float32]");
  auto* body = f->body.as<CallNode>();
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(TypeOf(f->body), "Tensor[(1, 64, 54, 54), float32]");
}

TEST(TypeInferTest, InputIsNotChanged) {
  Function f = workloads::Example();
  IRModule mod = IRModule::FromExpr(f);
  IRModule typed = InferTypes(mod);
  EXPECT_FALSE(mod.Lookup("main")->checked_type);
  EXPECT_FALSE(mod.Lookup("main")->body->checked_type);
  EXPECT_TRUE(typed.Lookup("main")->body->checked_type);
}

TEST(TypeInferTest, AlreadyTypedModuleIsReused) {
  IRModule typed = InferTypes(IRModule::FromExpr(workloads::Example()));
  IRModule again = InferTypes(typed);
  EXPECT_EQ(again.Lookup("main").get(), typed.Lookup("main").get());
}

TEST(TypeInferTest, UntypedWeightsGetTypesFromTheirUses) {
  Var data = relay::var("data", {1, 3, 224, 224});
  Var w = relay::var("conv0_weight");
  Var gamma = relay::var("bn_gamma"), beta = relay::var("bn_beta");
  Var mean = relay::var("bn_moving_mean"), var = relay::var("bn_moving_var");
  Expr conv = relay::nn::conv2d(
      data, w, {.strides = {2, 2}, .padding = {3, 3}, .channels = 64, .kernel_size = {{7, 7}}});
  Expr bn = relay::get_item(relay::nn::batch_norm(conv, gamma, beta, mean, var), 0);
  Function f = InferMain(relay::function({data, w, gamma, beta, mean, var}, relay::nn::relu(bn)));
  EXPECT_EQ(TypeToString(f->params[1]->type_annotation), "Tensor[(64, 3, 7, 7), float32]");
  EXPECT_EQ(TypeToString(f->params[2]->type_annotation), "Tensor[(64), float32]");
  EXPECT_EQ(TypeToString(f->ret_type), "Tensor[(1, 64, 112, 112), float32]");
}

TEST(TypeInferTest, BroadcastMismatchIsATypeErrorNamingTheOp) {
  Var a = relay::var("a", {1, 3});
  Var b = relay::var("b", {1, 4});
  try {
    InferMain(relay::function({a, b}, relay::add(a, b)));
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("add"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Tensor[(1, 3), float32]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Tensor[(1, 4), float32]"), std::string::npos) << msg;
  }
}

TEST(TypeInferTest, WrongArityIsATypeError) {
  Var a = relay::var("a", {1, 3});
  Expr call = MakeCall(op::GetOp("add"), {a});
  EXPECT_THROW(InferMain(relay::function({a}, call)), TypeError);
}

TEST(TypeInferTest, TupleIndexOutOfRange) {
  Var a = relay::var("a", {1, 3});
  Expr item = relay::get_item(relay::tuple({a, a}), 2);
  try {
    InferMain(relay::function({a}, item));
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
  }
}

TEST(TypeInferTest, UnresolvableVarIsAnError) {
  Var a = relay::var("a");
  EXPECT_THROW(InferMain(relay::function({a}, relay::nn::relu(a))), TypeError);
}

TEST(TypeInferTest, ClosuresLetsAndIfs) {
  Var x = relay::var("x", {2});
  Var p = relay::var("p");
  Function inner = relay::function({p}, relay::nn::relu(p));
  Var v = relay::var("v");
  Var c = relay::var("c", Type(ScalarType(DataType::Bool())));
  Expr body = MakeLet(v, MakeCall(inner, {x}), MakeIf(c, v, x));
  Function f = InferMain(relay::function({x, c}, body));
  EXPECT_EQ(TypeToString(f->ret_type), "Tensor[(2), float32]");
  auto* let = f->body.as<LetNode>();
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(TypeToString(let->var->type_annotation), "Tensor[(2), float32]");
  auto* call = let->value.as<CallNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(TypeOf(call->op), "fn (Tensor[(2), float32]) -> Tensor[(2), float32]");
}

TEST(TypeInferTest, GlobalCallsUseTheCalleeType) {
  IRModule mod;
  Var a = relay::var("a", {3});
  mod.Add("helper", relay::function({a}, relay::nn::relu(a)));
  Var x = relay::var("x", {3});
  mod.Add("main", relay::function({x}, MakeCall(mod.GetGlobalVar("helper"), {x})));
  IRModule typed = InferTypes(mod);
  EXPECT_EQ(TypeToString(typed.Lookup("main")->ret_type), "Tensor[(3), float32]");
}

// The module of GlobalCallsUseTheCalleeType, typed.
IRModule TypedHelperAndMain() {
  IRModule mod;
  Var a = relay::var("a", {3});
  mod.Add("helper", relay::function({a}, relay::nn::relu(a)));
  Var x = relay::var("x", {3});
  mod.Add("main", relay::function({x}, MakeCall(mod.GetGlobalVar("helper"), {x})));
  return InferTypes(mod);
}

TEST(TypeInferTest, ItsOwnOutputIsReturnedUnchecked) {
  IRModule typed = TypedHelperAndMain();
  EXPECT_TRUE(typed.AllTypeInferred());
  EXPECT_TRUE(InferTypes(typed).same_as(typed));
  // Putting back the same function changes nothing.
  IRModule same = typed;
  same.Add("helper", typed.Lookup("helper"));
  EXPECT_TRUE(same.AllTypeInferred());
}

TEST(TypeInferTest, AReplacedFunctionIsCheckedAgain) {
  IRModule mod = TypedHelperAndMain();
  Var a = relay::var("a", {4});
  mod.Add("helper", relay::function({a}, relay::nn::relu(a)));  // now (4) -> (4)
  EXPECT_FALSE(mod.AllTypeInferred());
  // main calls helper with a (3) tensor: the whole module is checked again, and fails.
  EXPECT_THROW(InferTypes(mod), TypeError);
}

TEST(TypeInferTest, ARemovedCalleeIsNoticed) {
  IRModule mod = TypedHelperAndMain();
  mod.Remove("helper");
  EXPECT_FALSE(mod.AllTypeInferred());
  EXPECT_THROW(InferTypes(mod), TypeError);
}

// The parser fuzzer's finding (tests/bad_input/fuzz_crashes/type_solver_resolve_recursion.relay):
// a let-bound closure that returns itself has the type fn (T) -> <its own type>, an infinite
// type. TVM's unifier rejects it with its occurs check ("... occurs in ..., cannot unify"); the
// solver used to bind it and then recurse forever resolving it.
TEST(TypeInferTest, AClosureReturningItselfIsATypeErrorNotAnInfiniteType) {
  Var x = relay::var("x", {2});
  Var self = relay::var("f");
  Var y = relay::var("y", {2});
  Function returns_itself = relay::function({y}, self);
  Var result = relay::var("r");
  Expr body = MakeLet(self, returns_itself, MakeLet(result, MakeCall(self, {x}), result));
  try {
    InferMain(relay::function({x}, body));
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("occurs in"), std::string::npos) << e.what();
  }
}

// A type still holding an unknown can nest as deep as the program: here a closure parameter
// annotated with 200,000 one-field tuples around a hole, called with a complete argument of the
// same depth. Unifying and resolving it must neither recurse per level (that overflowed the stack)
// nor walk the whole type at every level (quadratic).
TEST(TypeInferTest, DeepTypeWithAnUnknownIsResolvedWithoutRecursion) {
  constexpr int kDepth = 200000;
  auto nest = [](Type inner) {
    for (int i = 0; i < kDepth; ++i) inner = TupleType({inner});
    return inner;
  };
  Type tensor = TensorType({3}, DataType::Float(32));
  Var x = relay::var("x", nest(tensor));
  Var p = relay::var("p", nest(IncompleteType()));
  Var closure = relay::var("g");
  Var out = relay::var("out");
  Expr body = MakeLet(closure, relay::function({p}, p), MakeLet(out, MakeCall(closure, {x}), out));
  Function f = InferMain(relay::function({x}, body));
  // Expected by construction: kDepth tuple levels around the argument's tensor type.
  Type t = f->ret_type;
  for (int i = 0; i < kDepth; ++i) {
    auto* tuple = t.as<TupleTypeNode>();
    ASSERT_NE(tuple, nullptr) << "level " << i;
    ASSERT_EQ(tuple->fields.size(), 1u);
    t = tuple->fields[0];
  }
  EXPECT_EQ(TypeToString(t), "Tensor[(3), float32]");
}

TEST(TypeInferTest, MillionNodeChain) {
  IRModule mod = IRModule::FromExpr(workloads::Chain(1000000));
  IRModule typed = InferTypes(mod);
  EXPECT_EQ(TypeToString(typed.Lookup("main")->ret_type), "Tensor[(1, 16), float32]");
}

text::ParseOptions Untyped() {
  text::ParseOptions options;
  options.require_version = true;
  options.infer_types = false;
  return options;
}

// TVM infers a function that calls itself with only its parameters annotated (its return type
// unified with the body's): test_backend_interpreter.py's test_loop. sum_up returns its int32
// accumulator; expected type by hand: fn (int32, int32) -> int32.
TEST(TypeInferTest, SelfRecursionWithoutAReturnTypeIsInferred) {
  const IRModule typed = InferTypes(text::ParseModule(
      "#[version = \"0.0.5\"]\n"
      "def @sum_up(%i: int32, %accum: int32) {\n"
      "  if (equal(%i, 0)) { %accum } else { @sum_up(subtract(%i, 1), add(%accum, %i)) }\n"
      "}\n",
      Untyped()));
  EXPECT_EQ(TypeToString(typed.Lookup("sum_up")->checked_type), "fn (int32, int32) -> int32");
  // Mutual recursion without signatures is still an error that says what to annotate.
  EXPECT_THROW(
      InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n"
                                   "def @a(%x: int32) { @b(%x) }\ndef @b(%x: int32) { @a(%x) }\n",
                                   Untyped())),
      TypeError);
}

}  // namespace
}  // namespace relaypass::ir
