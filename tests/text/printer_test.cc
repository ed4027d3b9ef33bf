// The printer's rules one at a time: names, numbering, inlining, scopes, constants, attributes,
// the AsText header and footer, and graphs far deeper than the native stack.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "../../src/text/meta_table.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::text {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Type;
using ir::Var;

Type F32() {
  return ir::ScalarType(DataType::Float32());
}
Type F32(std::vector<int64_t> shape) {
  return ir::TensorType(std::move(shape), DataType::Float32());
}

std::string PrintMain(const Expr& main) {
  return PrettyPrint(ir::IRModule::FromExpr(main));
}

Expr ScalarConst(DataType dtype, const void* bytes) {
  ir::NDArray data = ir::NDArray::Empty({}, dtype);
  std::memcpy(data.mutable_raw_data(), bytes, dtype.bytes());
  return relay::const_(data);
}

TEST(PrinterTest, ScalarConstantsPrintInline) {
  EXPECT_EQ(PrettyPrint(relay::const_(2.0f)), "2f");
  EXPECT_EQ(PrettyPrint(relay::const_(1e-5f)), "1e-05f");
  EXPECT_EQ(PrettyPrint(relay::const_(1.0f / 3)), "0.333333f");
  EXPECT_EQ(PrettyPrint(relay::const_(1e6f)), "1e+06f");
  EXPECT_EQ(PrettyPrint(relay::const_(-1.0f)), "-1f");
  EXPECT_EQ(PrettyPrint(relay::const_(INFINITY)), "inff");
  EXPECT_EQ(PrettyPrint(relay::const_(3)), "3");
  EXPECT_EQ(PrettyPrint(relay::const_(3, "int64")), "3i64");
  EXPECT_EQ(PrettyPrint(relay::const_(3, "int16")), "3i16");
  EXPECT_EQ(PrettyPrint(relay::const_(2, "float64")), "2f64");
  EXPECT_EQ(PrettyPrint(relay::const_(1, "bool")), "True");
  EXPECT_EQ(PrettyPrint(relay::const_(0, "bool")), "False");
  uint16_t half_two = 0x4000;
  EXPECT_EQ(PrettyPrint(ScalarConst(DataType::Float(16), &half_two)), "2f16");
  uint16_t half_third = 0x3555;  // 0.333251953125
  EXPECT_EQ(PrettyPrint(ScalarConst(DataType::Float(16), &half_third)), "0.333252f16");
}

TEST(PrinterTest, OtherConstantsAreMetaReferences) {
  // An int8 scalar is not "simple"; tensors never are. PrettyPrint adds one newline for them.
  EXPECT_EQ(PrettyPrint(relay::const_(7, "int8")), "meta[relay.Constant][0]\n");
  Expr a = relay::const_(ir::NDArray::Empty({2}, DataType::Float32()));
  Expr b = relay::const_(ir::NDArray::Empty({3}, DataType::Float32()));
  EXPECT_EQ(PrettyPrint(relay::add(relay::add(b, a), b)),
            "%0 = add(meta[relay.Constant][0], meta[relay.Constant][1]);\n"
            "add(%0, meta[relay.Constant][0])\n");
}

TEST(PrinterTest, TypeCommentsAndScalarConstant) {
  Expr c = ir::WithCheckedType(relay::const_(1.0f), F32());
  EXPECT_EQ(PrettyPrint(c), "1f /* ty=float32 */");
}

TEST(PrinterTest, SpansAreNotPrinted) {
  // Nodes read from text carry their place for diagnostics; unlike TVM we do not print it, so
  // print -> parse -> print is stable.
  Var x = relay::var("x", F32());
  Expr call = ir::CopyNode(relay::add(x, x));
  auto* node = const_cast<ir::ExprNode*>(call.get());  // fresh, not yet shared
  node->span = Span{std::make_shared<const std::string>("model.relay"), 3, 7};
  EXPECT_EQ(PrettyPrint(call), "free_var %x: float32;\nadd(%x, %x)");
  node->checked_type = F32();
  EXPECT_EQ(PrettyPrint(call), "free_var %x: float32;\nadd(%x, %x) /* ty=float32 */");
}

TEST(PrinterTest, VariableNamesAreUniqueAcrossThePrint) {
  Var a = relay::var("x", F32());
  Var b = relay::var("x", F32());
  Var c = relay::var("", F32());
  Var d = relay::var("0", F32());
  Var e = relay::var("x1", F32());
  Expr body = relay::tuple({a, b, c, d, e});
  EXPECT_EQ(PrettyPrint(relay::function({a, b, c, d, e}, body)),
            "fn (%x: float32, %x1: float32, %v: float32, %v0: float32, %x11: float32) {\n"
            "  (%x, %x1, %v, %v0, %x11)\n"
            "}");
}

TEST(PrinterTest, ModuleFunctionsShareNumberingAndNames) {
  // Functions print sorted by name; temps and names continue from one function to the next.
  Var x = relay::var("x", F32());
  Expr f_body = relay::multiply(relay::add(x, x), relay::add(x, x));
  Var x2 = relay::var("x", F32());
  Expr m = relay::add(x2, x2);
  ir::IRModule mod;
  mod.Add("main", relay::function({x2}, relay::multiply(m, m)));
  mod.Add("f", relay::function({x}, f_body));
  EXPECT_EQ(PrettyPrint(mod),
            "def @f(%x: float32) {\n"
            "  %0 = add(%x, %x);\n"
            "  %1 = add(%x, %x);\n"
            "  multiply(%0, %1)\n"
            "}\n"
            "\n"
            "def @main(%x1: float32) {\n"
            "  %2 = add(%x1, %x1);\n"
            "  multiply(%2, %2)\n"
            "}\n");
}

TEST(PrinterTest, ClosureCalleeVisitedFirstBoundAfterArguments) {
  // Inner temps are numbered when the closure is visited (before the call's arguments), the
  // closure itself is bound after the arguments.
  Var p0 = relay::var("p0", F32({1, 4}));
  Var p1 = relay::var("p1", F32({4}));
  Expr inner = relay::nn::relu(relay::nn::bias_add(relay::nn::relu(p0), p1, 1));
  ir::Function fused = ir::MakeFunction({p0, p1}, inner, nullptr,
                                        ir::DictAttrs{{"Primitive", ir::AttrValue::Int(1)}});
  Var x = relay::var("x", F32({1, 4}));
  Var b = relay::var("b", F32({4}));
  Expr call = ir::MakeCall(fused, {relay::negative(x), b});
  EXPECT_EQ(PrintMain(relay::function({x, b}, call)),
            "def @main(%x: Tensor[(1, 4), float32], %b: Tensor[(4), float32]) {\n"
            "  %2 = negative(%x);\n"
            "  %3 = fn (%p0: Tensor[(1, 4), float32], %p1: Tensor[(4), float32], Primitive=1) {\n"
            "    %0 = nn.relu(%p0);\n"
            "    %1 = nn.bias_add(%0, %p1);\n"
            "    nn.relu(%1)\n"
            "  };\n"
            "  %3(%2, %b)\n"
            "}\n");
}

TEST(PrinterTest, TuplesAndGetItems) {
  Var a = relay::var("a", F32());
  Var b = relay::var("b", F32());
  Expr t = relay::tuple({a, b});
  EXPECT_EQ(PrettyPrint(relay::add(relay::get_item(t, 0), relay::get_item(t, 1))),
            "free_var %a: float32;\n"
            "free_var %b: float32;\n"
            "%0 = (%a, %b);\n"
            "%1 = %0.0;\n"
            "%2 = %0.1;\n"
            "add(%1, %2)");
  EXPECT_EQ(PrettyPrint(relay::tuple({a})), "free_var %a: float32;\n(%a,)");
  EXPECT_EQ(PrettyPrint(relay::tuple({})), "()");
  EXPECT_EQ(PrettyPrint(Expr()), "(nullptr)");
}

TEST(PrinterTest, LetIfAndFreeVars) {
  Var a = relay::var("a", F32());
  Var c = relay::var("c", ir::ScalarType(DataType::Bool()));
  Var x = relay::var("x", nullptr);
  Expr body = ir::MakeIf(c, relay::multiply(x, x), x);
  EXPECT_EQ(PrettyPrint(ir::MakeLet(x, relay::add(a, a), body)),
            "free_var %a: float32;\n"
            "let %x = add(%a, %a);\n"
            "free_var %c: bool;\n"
            "if (%c) {\n"
            "  multiply(%x, %x)\n"
            "} else {\n"
            "  %x\n"
            "}");
}

TEST(PrinterTest, LetValueBindingsGoAboveTheirLet) {
  Var a = relay::var("a", F32());
  Var x = relay::var("x", F32());
  Var y = relay::var("y", F32());
  Expr shared = relay::add(a, a);
  Expr let = ir::MakeLet(x, relay::multiply(shared, shared),
                         ir::MakeLet(y, relay::subtract(relay::negative(x), x), y));
  EXPECT_EQ(PrintMain(relay::function({a}, let)),
            "def @main(%a: float32) {\n"
            "  %0 = add(%a, %a);\n"
            "  let %x: float32 = multiply(%0, %0);\n"
            "  %1 = negative(%x);\n"
            "  let %y: float32 = subtract(%1, %x);\n"
            "  %y\n"
            "}\n");
}

TEST(PrinterTest, SharedLetIsBoundInParentheses) {
  Var a = relay::var("a", F32());
  Var y = relay::var("y", F32());
  Expr let = ir::MakeLet(y, a, y);
  EXPECT_EQ(PrintMain(relay::function({a}, relay::add(let, let))),
            "def @main(%a: float32) {\n"
            "  %0 = (\n"
            "    let %y: float32 = %a;\n"
            "    %y\n"
            "  );\n"
            "  add(%0, %0)\n"
            "}\n");
}

TEST(PrinterTest, IfBranchesAreScopes) {
  Var c = relay::var("c", ir::ScalarType(DataType::Bool()));
  Var a = relay::var("a", F32());
  Expr branch = relay::add(relay::negative(a), a);
  Expr cond = ir::MakeIf(c, branch, relay::negative(a));
  EXPECT_EQ(PrintMain(relay::function({c, a}, relay::multiply(cond, cond))),
            "def @main(%c: bool, %a: float32) {\n"
            "  %1 = if (%c) {\n"
            "    %0 = negative(%a);\n"
            "    add(%0, %a)\n"
            "  } else {\n"
            "    negative(%a)\n"
            "  };\n"
            "  multiply(%1, %1)\n"
            "}\n");
}

TEST(PrinterTest, NestedClosuresIndent) {
  Var x = relay::var("x", F32());
  Var y = relay::var("y", F32());
  Expr inner = relay::function({y}, relay::add(y, x));
  Expr outer = relay::function({x}, ir::MakeCall(inner, {relay::negative(x)}));
  EXPECT_EQ(PrettyPrint(outer),
            "fn (%x: float32) {\n"
            "  %0 = negative(%x);\n"
            "  %1 = fn (%y: float32) {\n"
            "    add(%y, %x)\n"
            "  };\n"
            "  %1(%0)\n"
            "}");
}

TEST(PrinterTest, TypedClosureRootGetsItsComment) {
  Var x = ir::WithCheckedType(relay::var("x", F32()), F32()).downcast<ir::VarNode>();
  Expr body = ir::WithCheckedType(relay::negative(x), F32());
  Expr fn = ir::WithCheckedType(ir::MakeFunction({x}, body, F32()), ir::FuncType({F32()}, F32()));
  EXPECT_EQ(PrettyPrint(fn),
            "fn (%x: float32 /* ty=float32 */) -> float32 {\n"
            "  negative(%x) /* ty=float32 */\n"
            "} /* ty=fn (float32) -> float32 */");
}

TEST(PrinterTest, CallAttributesSkipDefaults) {
  Var x = relay::var("x", F32({1, 3, 224, 224}));
  Var w = relay::var("w", F32({64, 3, 7, 7}));
  relay::nn::Conv2DArgs args;
  args.strides = {2, 2};
  args.padding = {3, 3};
  args.channels = 64;
  args.kernel_size = relay::Ints{7, 7};
  Expr conv = relay::nn::conv2d(x, w, args);
  Expr out = relay::nn::bias_add(relay::clip(conv, 0, 6), relay::var("b", F32({64})), -1);
  EXPECT_EQ(PrettyPrint(out),
            "free_var %x: Tensor[(1, 3, 224, 224), float32];\n"
            "free_var %w: Tensor[(64, 3, 7, 7), float32];\n"
            "%0 = nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, "
            "kernel_size=[7, 7]);\n"
            "%1 = clip(%0, a_min=0f, a_max=6f);\n"
            "free_var %b: Tensor[(64), float32];\n"
            "nn.bias_add(%1, %b, axis=-1)");
}

TEST(PrinterTest, FunctionAttributesAfterParams) {
  Var x = relay::var("x", F32());
  ir::DictAttrs attrs{{"Primitive", ir::AttrValue::Int(1)},
                      {"Compiler", ir::AttrValue::Str("cublas")}};
  EXPECT_EQ(PrettyPrint(ir::MakeFunction({x}, x, F32(), attrs)),
            "fn (%x: float32, Primitive=1, Compiler=\"cublas\") -> float32 {\n"
            "  %x\n"
            "}");
}

ir::IRModule ModuleWithTensorConstant() {
  Var x = relay::var("x", F32({2}));
  ir::NDArray data = ir::NDArray::Empty({2}, DataType::Float32());
  data.mutable_data<float>()[0] = 1.5f;
  data.mutable_data<float>()[1] = -2.0f;
  return ir::IRModule::FromExpr(relay::function({x}, relay::add(x, relay::const_(data))));
}

TEST(PrinterTest, AsTextHeaderAndOmittedMetadata) {
  EXPECT_EQ(AsText(ModuleWithTensorConstant(), false),
            "#[version = \"0.0.5\"]\n"
            "def @main(%x: Tensor[(2), float32]) {\n"
            "  add(%x, meta[relay.Constant][0])\n"
            "}\n"
            "\n"
            "/* For debugging purposes the metadata section has been omitted.\n"
            " * If you would like to see the full metadata section you can set the \n"
            " * option to `True` when invoking `astext`. \n"
            " */");
  Var x = relay::var("x", F32());
  EXPECT_EQ(AsText(ir::IRModule::FromExpr(relay::function({x}, x)), false),
            "#[version = \"0.0.5\"]\n"
            "def @main(%x: float32) {\n"
            "  %x\n"
            "}\n");
}

TEST(PrinterTest, AsTextMetadataSectionRoundTrips) {
  std::string text = AsText(ModuleWithTensorConstant(), true);
  const std::string marker = "}\n\n#[metadata]\n";
  size_t at = text.find(marker);
  ASSERT_NE(at, std::string::npos) << text;
  std::vector<ir::Constant> constants = ParseMetaSection(text.substr(at + marker.size()));
  ASSERT_EQ(constants.size(), 1u);
  EXPECT_EQ(constants[0]->data.shape(), (ir::Shape{2}));
  EXPECT_EQ(constants[0]->data.dtype(), DataType::Float32());
  EXPECT_EQ(constants[0]->data.data<float>()[0], 1.5f);
  EXPECT_EQ(constants[0]->data.data<float>()[1], -2.0f);
}

TEST(PrinterTest, MetaSectionEncodesEveryLength) {
  for (int n = 0; n < 5; ++n) {
    ir::NDArray data = ir::NDArray::Empty({n}, DataType::Int(8));
    for (int i = 0; i < n; ++i) data.mutable_data<int8_t>()[i] = static_cast<int8_t>(-100 + 50 * i);
    MetaTable table;
    Expr c = relay::const_(data);
    table.ConstantIndex(c.as<ir::ConstantNode>());
    std::vector<ir::Constant> back = ParseMetaSection(table.ToJson());
    ASSERT_EQ(back.size(), 1u);
    EXPECT_TRUE(back[0]->data.BitwiseEqual(data)) << table.ToJson();
  }
  EXPECT_THROW(ParseMetaSection("{\"relay.Constant\": [{\"dtype\": \"float32\"}]}"), ParseError);
  EXPECT_THROW(ParseMetaSection("{\"relay.Constant\": [{\"dtype\": \"float32\", \"shape\": [2], "
                                "\"data\": \"AAAA\"}]}"),
               ParseError);
}

TEST(PrinterTest, MillionNodeChainPrintsWithoutRecursion) {
  ir::IRModule mod = ir::IRModule::FromExpr(workloads::Chain(1000000));
  std::string text = PrettyPrint(mod);
  const std::string tail = "  %999998 = add(%999997, 1f);\n  nn.relu(%999998)\n}\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  const std::string head = "def @main(%x: Tensor[(1, 16), float32]) {\n  %0 = add(%x, 1f);\n";
  EXPECT_EQ(text.substr(0, head.size()), head);
}

TEST(PrinterTest, LongLetChainPrintsWithALoop) {
  Var a = relay::var("a", F32());
  std::vector<Var> vars;
  for (int i = 0; i < 100000; ++i) vars.push_back(relay::var("x", nullptr));
  Expr body = vars.back();
  for (int i = 99999; i >= 0; --i) {
    Expr prev = i == 0 ? Expr(a) : Expr(vars[i - 1]);
    body = ir::MakeLet(vars[i], relay::add(prev, prev), body);
  }
  std::string text = PrintMain(relay::function({a}, body));
  const std::string tail = "  let %x99999 = add(%x99998, %x99998);\n  %x99999\n}\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
}

}  // namespace
}  // namespace relaypass::text
