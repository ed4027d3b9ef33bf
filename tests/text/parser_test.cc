// Tests of the Relay text parser: every construct of relay_semantics.md 1.9, sharing of %N,
// metadata, error messages with their line:col, and scale (a million bindings).
#include <gtest/gtest.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"
#include "relaypass/text/parser.h"

namespace relaypass::text {
namespace {

using namespace ir;  // NOLINT: the tests read node fields a lot

ParseOptions NoInfer() {
  ParseOptions options;
  options.infer_types = false;
  return options;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The body of @main of `text` (parsed without type inference).
Expr MainBody(const std::string& text, const ParseOptions& options = NoInfer()) {
  return ParseModule(text, options).Lookup("main")->body;
}

const CallNode* AsCall(const Expr& e) {
  const CallNode* call = e.as<CallNode>();
  EXPECT_NE(call, nullptr);
  return call;
}

std::string OpName(const Expr& call) {
  const CallNode* c = call.as<CallNode>();
  if (!c || !c->op_node()) return "<not an op call>";
  return c->op_node()->name;
}

Constant ZerosF32(std::vector<int64_t> shape) {
  return MakeConstant(NDArray::Empty(shape, DataType::Float32()));
}

// Runs `parse` and checks it throws a ParseError at line:col whose message starts with
// `message` (the message then continues with the source line and a caret).
template <typename F>
void ExpectError(F&& parse, int line, int column, const std::string& message) {
  try {
    parse();
    ADD_FAILURE() << "no error; expected " << line << ":" << column << ": " << message;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.span().line, line) << e.what();
    EXPECT_EQ(e.span().column, column) << e.what();
    EXPECT_EQ(e.message().substr(0, message.size()), message) << e.what();
  }
}

void ExpectModuleError(const std::string& text, int line, int column, const std::string& message,
                       const ParseOptions& options = NoInfer()) {
  ExpectError([&] { ParseModule(text, options); }, line, column, message);
}

void ExpectExprError(const std::string& text, int line, int column, const std::string& message) {
  ExpectError([&] { ParseExpr(text, NoInfer()); }, line, column, message);
}

// ---------------------------------------------------------------------------------------------
// Whole modules

TEST(ParserTest, ParsesEveryTutorialModule) {
  std::filesystem::path dir = std::filesystem::path(RELAYPASS_TEST_DATA) / "parser";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("seed_", 0) != 0) continue;
    SCOPED_TRACE(entry.path().filename().string());
    ParseOptions options = NoInfer();
    // The modules printed in the pass infra and pass instrument tutorials. Some reference constants
    // without a type comment; supply them.
    options.constants = {ZerosF32({1, 64, 54, 54}), ZerosF32({1, 64, 54, 54})};
    IRModule mod = ParseModule(ReadFile(entry.path()), options);
    EXPECT_TRUE(mod.Contains("main"));
    ++count;
  }
  EXPECT_EQ(count, 19);
}

TEST(ParserTest, ParsesFunctionSignature) {
  IRModule mod = ParseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 3, ?, 224i64), float32], %y: int32, %t: (float32, Tensor[(2), "
      "int8]), %f: fn (float32) -> bool, %u: _, %v) -> (float32,) {\n"
      "  (%y,)\n"
      "}\n",
      NoInfer());
  Function f = mod.Lookup("main");
  ASSERT_EQ(f->params.size(), 6u);
  EXPECT_EQ(f->params[0]->name_hint, "x");
  EXPECT_EQ(TypeToString(f->params[0]->type_annotation), "Tensor[(1, 3, ?, 224), float32]");
  EXPECT_EQ(TypeToString(f->params[1]->type_annotation), "int32");
  EXPECT_EQ(TypeToString(f->params[2]->type_annotation), "(float32, Tensor[(2), int8])");
  EXPECT_EQ(TypeToString(f->params[3]->type_annotation), "fn (float32) -> bool");
  EXPECT_NE(f->params[4]->type_annotation.as<IncompleteTypeNode>(), nullptr);
  EXPECT_FALSE(f->params[5]->type_annotation.defined());
  EXPECT_EQ(TypeToString(f->ret_type), "(float32,)");
  // `(T)` is a one-field tuple type, as in TVM.
  Function g = ParseModule("def @main(%x: (float32)) { %x }", NoInfer()).Lookup("main");
  EXPECT_EQ(TypeToString(g->params[0]->type_annotation), "(float32,)");
}

TEST(ParserTest, ParsesSeveralDefinitionsAndGlobalReferences) {
  IRModule mod = ParseModule(
      "def @main(%x: float32) -> float32 {\n"
      "  @helper(%x)\n"  // a forward reference
      "}\n"
      "\n"
      "def @helper(%y: float32) -> float32 {\n"
      "  add(%y, %y)\n"
      "}\n",
      NoInfer());
  ASSERT_EQ(mod.size(), 2u);
  const CallNode* call = AsCall(mod.Lookup("main")->body);
  ASSERT_NE(call->op.as<GlobalVarNode>(), nullptr);
  EXPECT_TRUE(call->op.same_as(Expr(mod.GetGlobalVar("helper"))));
}

TEST(ParserTest, ParsesFunctionAttributesInOrder) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = fn (%p0: float32, Primitive=1, Compiler=\"cublas\", global_symbol=\"f\") -> "
      "float32 {\n"
      "    nn.relu(%p0)\n"
      "  };\n"
      "  %0(%x)\n"
      "}\n");
  const CallNode* call = AsCall(body);
  const FunctionNode* fn = call->op.as<FunctionNode>();
  ASSERT_NE(fn, nullptr);
  EXPECT_TRUE(fn->is_primitive());
  ASSERT_EQ(fn->attrs.entries().size(), 3u);
  EXPECT_EQ(fn->attrs.entries()[0].first, "Primitive");
  EXPECT_EQ(fn->attrs.entries()[0].second, AttrValue::Int(1));
  EXPECT_EQ(fn->attrs.entries()[1].first, "Compiler");
  EXPECT_EQ(fn->attrs.entries()[1].second, AttrValue::Str("cublas"));
  EXPECT_EQ(fn->attrs.entries()[2].first, "global_symbol");
  EXPECT_EQ(TypeToString(fn->ret_type), "float32");
  EXPECT_EQ(fn->params[0]->name_hint, "p0");
  EXPECT_EQ(OpName(fn->body), "nn.relu");
  EXPECT_TRUE(AsCall(fn->body)->args[0].same_as(Expr(fn->params[0])));
}

// Function attributes keep the literal as TVM's parser makes it: a FloatImm keeps its suffix's
// dtype, True/False are int32 IntImm 1/0 (only an op's bool field turns them back into bools).
TEST(ParserTest, FunctionAttributeLiteralsKeepTVMsTypes) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = fn (%p0: float32, D=0.5f64, E=1f16, F=2.5f, Flag=False, Z=True) {\n"
      "    nn.relu(%p0)\n"
      "  };\n"
      "  %0(%x)\n"
      "}\n");
  const FunctionNode* fn = AsCall(body)->op.as<FunctionNode>();
  ASSERT_NE(fn, nullptr);
  ASSERT_EQ(fn->attrs.entries().size(), 5u);
  std::vector<std::string> printed;
  for (const auto& [key, value] : fn->attrs.entries()) printed.push_back(value.ToString());
  EXPECT_EQ(printed, (std::vector<std::string>{"0.5f64", "1f16", "2.5f", "0", "1"}));
  EXPECT_NE(fn->attrs.entries()[0].second, AttrValue::Double(0.5));  // float64 vs float32
}

TEST(ParserTest, ParsesStandaloneExpression) {
  Expr e = ParseExpr("fn (%x: float32) { add(%x, %x) }", NoInfer());
  const FunctionNode* fn = e.as<FunctionNode>();
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(OpName(fn->body), "add");

  Expr with_free = ParseExpr("free_var %a: float32;\n%0 = nn.relu(%a);\nadd(%0, %0)", NoInfer());
  const CallNode* add = AsCall(with_free);
  EXPECT_TRUE(add->args[0].same_as(add->args[1]));
  EXPECT_EQ(AsCall(add->args[0])->args[0].as<VarNode>()->name_hint, "a");
}

// ---------------------------------------------------------------------------------------------
// Bindings, lets, scopes

TEST(ParserTest, GraphBindingsShareNodes) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = add(%x, %x);\n"
      "  %1 = multiply(%0, %0);\n"
      "  add(%1, %0)\n"
      "}\n");
  const CallNode* result = AsCall(body);
  const CallNode* mul = AsCall(result->args[0]);
  EXPECT_TRUE(mul->args[0].same_as(mul->args[1]));
  EXPECT_TRUE(result->args[1].same_as(mul->args[0]));
  EXPECT_TRUE(AsCall(mul->args[0])->args[0].same_as(AsCall(mul->args[0])->args[1]));
}

TEST(ParserTest, GraphBindingsAreGlobalToTheParse) {
  // As printed after FuseOps: temps inside closures continue the numbering.
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %1 = fn (%p0: float32) {\n"
      "    %0 = nn.relu(%p0);\n"
      "    add(%0, %0)\n"
      "  };\n"
      "  %2 = %1(%x);\n"
      "  %1(%2)\n"
      "}\n");
  const CallNode* outer = AsCall(body);
  const CallNode* inner = AsCall(outer->args[0]);
  EXPECT_TRUE(outer->op.same_as(inner->op));
}

TEST(ParserTest, ParsesLetsSequencesAndFreeVars) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  let %a: float32 = add(%x, %x);\n"
      "  free_var %z: float32;\n"
      "  nn.relu(%a);\n"
      "  let %a = multiply(%z, %z);\n"  // shadows the first %a
      "  %a\n"
      "}\n");
  const LetNode* let1 = body.as<LetNode>();
  ASSERT_NE(let1, nullptr);
  EXPECT_EQ(let1->var->name_hint, "a");
  EXPECT_EQ(TypeToString(let1->var->type_annotation), "float32");
  EXPECT_EQ(OpName(let1->value), "add");
  const LetNode* seq = let1->body.as<LetNode>();
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->var->name_hint, "");  // `e1; e2`
  EXPECT_EQ(OpName(seq->value), "nn.relu");
  const LetNode* let2 = seq->body.as<LetNode>();
  ASSERT_NE(let2, nullptr);
  const CallNode* mul = AsCall(let2->value);
  EXPECT_EQ(mul->args[0].as<VarNode>()->name_hint, "z");
  EXPECT_TRUE(AsCall(seq->value)->args[0].same_as(Expr(let1->var)));
  EXPECT_TRUE(let2->body.same_as(Expr(let2->var)));
  EXPECT_FALSE(let2->var.same_as(let1->var));
}

TEST(ParserTest, ParenthesizedLetBlock) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = (\n"
      "    let %y = add(%x, %x);\n"
      "    %y\n"
      "  );\n"
      "  (nn.relu(%0); %0)\n"
      "}\n");
  const LetNode* seq = body.as<LetNode>();
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(OpName(seq->value), "nn.relu");
  EXPECT_NE(seq->body.as<LetNode>(), nullptr);
}

TEST(ParserTest, LetVariablesAreScopedToTheirBlock) {
  ExpectModuleError(
      "def @main(%x: float32) {\n"
      "  %0 = (let %y = %x; %y);\n"
      "  %y\n"
      "}\n",
      3, 3, "undefined variable %y");
  // As in TVM, a let variable is in scope in its own value; only a function may use it there.
  ExpectModuleError("def @main() { let %y = %y; %y }", 1, 24,
                    "%y is used in its own definition; only a function");
}

// ---------------------------------------------------------------------------------------------
// Expressions

TEST(ParserTest, ParsesCallsWithAttributes) {
  Expr body = MainBody(
      "def @main(%x: Tensor[(1, 3, 224, 224), float32], %w) {\n"
      "  nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, "
      "kernel_size=[7, 7], out_dtype=\"float32\")\n"
      "}\n");
  const CallNode* call = AsCall(body);
  EXPECT_EQ(OpName(body), "nn.conv2d");
  ASSERT_TRUE(call->attrs.defined());
  EXPECT_EQ(call->attrs->get_ints("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(call->attrs->get_ints("padding"), (std::vector<int64_t>{3, 3, 3, 3}));
  EXPECT_EQ(call->attrs->get_ints("dilation"), (std::vector<int64_t>{1, 1}));  // default
  EXPECT_EQ(call->attrs->get_int("channels"), 64);
  EXPECT_EQ(call->attrs->get_string("data_layout"), "NCHW");
  EXPECT_EQ(call->attrs->get_string("out_dtype"), "float32");
}

TEST(ParserTest, AttributeValueKinds) {
  Expr body = MainBody(
      "def @main(%x: Tensor[(1, 3, 4, 4), float32], %g, %b, %m, %v, %w) {\n"
      "  %0 = nn.batch_norm(%x, %g, %b, %m, %v, axis=1, epsilon=2e-05f, scale=False);\n"
      "  %1 = nn.pad(%0.0, 0, pad_width=[[0, 0], [0, 0], [1, 1], [1i64, 1]]);\n"
      "  %2 = nn.dense(%1, %w, units=None);\n"
      "  %3 = clip(%2, a_min=0, a_max=6f);\n"
      "  %4 = transpose(%3, axes=None);\n"
      "  layout_transform(%4, src_layout=\"N\\\"C\\\\H\\tW\\x41\\n\\r\", dst_layout=\"NHWC\")\n"
      "}\n");
  const CallNode* layout = AsCall(body);
  EXPECT_EQ(layout->attrs->get_string("src_layout"), "N\"C\\H\tWA\n\r");
  const CallNode* transpose = AsCall(layout->args[0]);
  EXPECT_TRUE(transpose->attrs->get("axes").is_null());
  const CallNode* clip = AsCall(transpose->args[0]);
  EXPECT_EQ(clip->attrs->get("a_min"), AttrValue::Double(0));  // int converted for a double
  EXPECT_EQ(clip->attrs->get("a_max"), AttrValue::Double(6));
  const CallNode* dense = AsCall(clip->args[0]);
  EXPECT_TRUE(dense->attrs->get("units").is_null());
  const CallNode* pad = AsCall(dense->args[0]);
  const AttrValue& pad_width = pad->attrs->get("pad_width");
  ASSERT_EQ(pad_width.as_array().size(), 4u);
  EXPECT_EQ(pad_width.as_array()[3].as_array()[0], AttrValue::Int(1, DataType::Int64()));
  EXPECT_EQ(pad_width.as_array()[2], AttrValue::Ints({1, 1}));
  const ConstantNode* pad_value = pad->args[1].as<ConstantNode>();
  ASSERT_NE(pad_value, nullptr);
  EXPECT_EQ(pad_value->data.dtype(), DataType::Int32());
  const TupleGetItemNode* item = pad->args[0].as<TupleGetItemNode>();
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->index, 0);
  const CallNode* bn = AsCall(item->tuple);
  EXPECT_EQ(bn->attrs->get("epsilon"), AttrValue::Double(2e-05));
  EXPECT_EQ(bn->attrs->get("scale"), AttrValue::Bool(false));
  EXPECT_EQ(bn->attrs->get("center"), AttrValue::Bool(true));
}

TEST(ParserTest, OpWithoutAttributeArgumentsGetsDefaults) {
  Expr body = MainBody("def @main(%x: Tensor[(1, 10), float32]) { nn.softmax(%x) }");
  EXPECT_EQ(AsCall(body)->attrs->get_int("axis"), -1);
  Expr relu = MainBody("def @main(%x: float32) { nn.relu(%x) }");
  EXPECT_FALSE(AsCall(relu)->attrs.defined());
}

TEST(ParserTest, ParsesTuplesGroupingAndGetItem) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = ();\n"
      "  %1 = (%x,);\n"
      "  %2 = (%x, %0, %1);\n"
      "  %3 = (%2);\n"
      "  %4 = %3.2;\n"
      "  (%4.0, %2.1)\n"
      "}\n");
  const TupleNode* result = body.as<TupleNode>();
  ASSERT_NE(result, nullptr);
  ASSERT_EQ(result->fields.size(), 2u);
  const TupleGetItemNode* first = result->fields[0].as<TupleGetItemNode>();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->index, 0);
  const TupleGetItemNode* inner = first->tuple.as<TupleGetItemNode>();
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->index, 2);
  const TupleNode* triple = inner->tuple.as<TupleNode>();  // grouping adds no node
  ASSERT_NE(triple, nullptr);
  ASSERT_EQ(triple->fields.size(), 3u);
  EXPECT_EQ(triple->fields[1].as<TupleNode>()->fields.size(), 0u);
  EXPECT_EQ(triple->fields[2].as<TupleNode>()->fields.size(), 1u);
  EXPECT_TRUE(result->fields[1].as<TupleGetItemNode>()->tuple.same_as(inner->tuple));
}

TEST(ParserTest, NestedGetItemAfterGraphVariable) {
  Expr body = MainBody("def @main(%t: ((float32, float32),)) { %0 = %t; %0.0.1 }");
  const TupleGetItemNode* outer = body.as<TupleGetItemNode>();
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->index, 1);
  EXPECT_EQ(outer->tuple.as<TupleGetItemNode>()->index, 0);
}

TEST(ParserTest, ParsesIfElse) {
  Expr body = MainBody(
      "def @main(%c: bool, %x: float32) {\n"
      "  if (%c) {\n"
      "    let %y = add(%x, %x);\n"
      "    %y\n"
      "  } else {\n"
      "    %x\n"
      "  }\n"
      "}\n");
  const IfNode* node = body.as<IfNode>();
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->cond.as<VarNode>()->name_hint, "c");
  EXPECT_NE(node->true_branch.as<LetNode>(), nullptr);
  EXPECT_EQ(node->false_branch.as<VarNode>()->name_hint, "x");
}

TEST(ParserTest, ParsesSeveralCallLists) {
  Expr body = MainBody(
      "def @main(%x: float32) {\n"
      "  %0 = fn (%a: float32) { fn (%b: float32) { add(%a, %b) } };\n"
      "  %0(%x)(%x)\n"
      "}\n");
  const CallNode* outer = AsCall(body);
  const CallNode* inner = AsCall(outer->op);
  EXPECT_NE(inner->op.as<FunctionNode>(), nullptr);
  EXPECT_EQ(outer->args.size(), 1u);
}

TEST(ParserTest, InfixOperatorsFollowTvmPrecedence) {
  // a + b * c - d / e  ==  subtract(add(a, multiply(b, c)), divide(d, e))
  Expr body = MainBody(
      "def @main(%a: float32, %b: float32, %c: float32, %d: float32, %e: float32) {\n"
      "  %a + %b * %c - %d / %e\n"
      "}\n");
  EXPECT_EQ(OpName(body), "subtract");
  const CallNode* sub = AsCall(body);
  EXPECT_EQ(OpName(sub->args[0]), "add");
  EXPECT_EQ(OpName(AsCall(sub->args[0])->args[1]), "multiply");
  EXPECT_EQ(OpName(sub->args[1]), "divide");
  EXPECT_FALSE(sub->attrs.defined());
  // Left associativity, grouping, and `-` before a literal after an operand.
  Expr chain = MainBody("def @main(%a: float32) { (%a - %a -1f) * (%a + 2f) }");
  EXPECT_EQ(OpName(chain), "multiply");
  const CallNode* lhs = AsCall(AsCall(chain)->args[0]);
  EXPECT_EQ(lhs->op_node()->name, "subtract");
  EXPECT_EQ(OpName(lhs->args[0]), "subtract");
  EXPECT_EQ(lhs->args[1].as<ConstantNode>()->data.GetAsDouble(0), 1.0);
}

TEST(ParserTest, ScalarLiterals) {
  struct Case {
    const char* text;
    DataType dtype;
    double value;
  };
  const Case cases[] = {
      {"2f", DataType::Float32(), 2},
      {"2f32", DataType::Float32(), 2},
      {"2f64", DataType::Float(64), 2},
      {"1e-05f", DataType::Float32(), 1e-05f},
      {"-1f", DataType::Float32(), -1},
      {"0.333333f", DataType::Float32(), 0.333333f},
      {"1e+06f", DataType::Float32(), 1e6},
      {"3", DataType::Int32(), 3},
      {"-3", DataType::Int32(), -3},
      {"3i64", DataType::Int64(), 3},
      {"3i16", DataType::Int(16), 3},
      {"2147483648", DataType::Int64(), 2147483648.0},
      {"-2147483648", DataType::Int32(), -2147483648.0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Expr e = ParseExpr(c.text, NoInfer());
    const ConstantNode* constant = e.as<ConstantNode>();
    ASSERT_NE(constant, nullptr);
    EXPECT_TRUE(constant->is_scalar());
    EXPECT_EQ(constant->data.dtype(), c.dtype);
    EXPECT_EQ(constant->data.GetAsDouble(0), c.value);
  }
  auto data = [](const char* text) { return ParseExpr(text, NoInfer()).as<ConstantNode>()->data; };
  EXPECT_EQ(data("2f16").dtype(), DataType::Float(16));
  EXPECT_EQ(*data("2f16").data<uint16_t>(), 0x4000);
  EXPECT_EQ(*data("-0.5f16").data<uint16_t>(), 0xB800);
  EXPECT_EQ(*data("-inff").data<float>(), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(*data("inff64").data<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(data("True").dtype(), DataType::Bool());
  EXPECT_EQ(*data("True").data<uint8_t>(), 1);
  EXPECT_EQ(*data("False").data<uint8_t>(), 0);
}

TEST(ParserTest, CommentsAreSkipped) {
  Expr body = MainBody(
      "// leading comment\n"
      "def @main(%x: float32 /* ty=float32 */) -> float32 { /* a /* nested */ comment */\n"
      "  add(%x, %x) /* ty=float32 */ // trailing\r\n"
      "}\n");
  EXPECT_EQ(OpName(body), "add");
}

TEST(ParserTest, VersionHeader) {
  const std::string def = "def @main(%x: float32) { %x }\n";
  ParseOptions strict = NoInfer();
  strict.require_version = true;
  EXPECT_NO_THROW(ParseModule("#[version = \"0.0.5\"]\n" + def, strict));
  EXPECT_NO_THROW(ParseModule(def, NoInfer()));
  ExpectModuleError(def, 1, 1, "missing version header #[version = \"0.0.5\"]", strict);
  ExpectModuleError("#[version = \"0.0.4\"]\n" + def, 1, 1,
                    "unsupported text format version \"0.0.4\" (expected \"0.0.5\")");
  ExpectModuleError(def + "#[version = \"0.0.5\"]\n", 2, 1,
                    "the version header must be the first line");
}

TEST(ParserTest, SetsSpansOnNodes) {
  ParseOptions options = NoInfer();
  options.source_name = "model.relay";
  Function f = ParseModule(
                   "def @main(%x: float32) {\n"
                   "  %0 = nn.relu(%x);\n"
                   "  (%0, 1f)\n"
                   "}\n",
                   options)
                   .Lookup("main");
  EXPECT_EQ(f->span.ToString(), "model.relay:1:1");
  EXPECT_EQ(f->params[0]->span.ToString(), "model.relay:1:11");
  const TupleNode* tuple = f->body.as<TupleNode>();
  EXPECT_EQ(tuple->span.ToString(), "model.relay:3:3");
  EXPECT_EQ(tuple->fields[0]->span.ToString(), "model.relay:2:8");
  EXPECT_EQ(tuple->fields[1]->span.ToString(), "model.relay:3:8");
}

// ---------------------------------------------------------------------------------------------
// Type inference after parsing

TEST(ParserTest, InfersTypesOfEveryTutorialModule) {
  std::filesystem::path dir = std::filesystem::path(RELAYPASS_TEST_DATA) / "parser";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("seed_", 0) != 0) continue;
    SCOPED_TRACE(entry.path().filename().string());
    ParseOptions options;
    options.constants = {ZerosF32({1, 64, 54, 54}), ZerosF32({1, 64, 54, 54})};
    Function main = ParseModule(ReadFile(entry.path()), options).Lookup("main");
    ASSERT_TRUE(main->body->checked_type.defined());
    EXPECT_TRUE(IsComplete(main->body->checked_type));
    EXPECT_TRUE(main->ret_type.defined());
  }
}

TEST(ParserTest, InfersTypesOfUntypedInputs) {
  IRModule mod = ParseModule(
      "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w) {\n"
      "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3])\n"
      "}\n");
  Function main = mod.Lookup("main");
  EXPECT_EQ(TypeToString(main->ret_type), "Tensor[(1, 4, 8, 8), float32]");
  EXPECT_EQ(TypeToString(main->params[1]->type_annotation), "Tensor[(4, 3, 3, 3), float32]");
}

TEST(ParserTest, TypeErrorsShowTheSourceLine) {
  ParseOptions options;
  options.source_name = "bad.relay";
  try {
    ParseModule(
        "def @main(%x: Tensor[(1, 3), float32]) {\n"
        "  %0 = (%x, %x);\n"
        "  %0.2\n"
        "}\n",
        options);
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_EQ(e.span().ToString(), "bad.relay:3:5");
    std::string what = e.what();
    EXPECT_EQ(what.substr(0, what.find('\n')).rfind("bad.relay:3:5: ", 0), 0u) << what;
    EXPECT_NE(what.find("\n  %0.2\n    ^"), std::string::npos) << what;
  }
}

// ---------------------------------------------------------------------------------------------
// Constants from metadata

TEST(ParserTest, ConstantsFromMetadataSection) {
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = add(%x, meta[relay.Constant][0] /* ty=Tensor[(2), float32] */);\n"
      "  %1 = add(%0, meta[relay.Constant][0]);\n"
      "  %2 = cast(meta[relay.Constant][1], dtype=\"float32\");\n"
      "  add(%1, %2)\n"
      "}\n"
      "\n"
      "#[metadata]\n"
      "{\n"
      "  \"relay.Constant\": [\n"
      "    {\"dtype\": \"float32\", \"shape\": [2], \"data\": \"AACAPwAAAEA=\"},\n"
      "    {\"dtype\": \"int32\", \"shape\": [3], \"data\": \"BwAAAAgAAAAJAAAA\"}\n"
      "  ]\n"
      "}\n";
  Expr body = MainBody(text);
  const CallNode* add2 = AsCall(body);
  const CallNode* add1 = AsCall(add2->args[0]);
  const CallNode* add0 = AsCall(add1->args[0]);
  const ConstantNode* c0 = add0->args[1].as<ConstantNode>();
  ASSERT_NE(c0, nullptr);
  EXPECT_TRUE(add1->args[1].same_as(add0->args[1]));  // same index, same node
  EXPECT_EQ(c0->data.shape(), (Shape{2}));
  EXPECT_EQ(c0->data.GetAsDouble(0), 1.0);
  EXPECT_EQ(c0->data.GetAsDouble(1), 2.0);
  const ConstantNode* c1 = AsCall(add2->args[1])->args[0].as<ConstantNode>();
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ(c1->data.dtype(), DataType::Int32());
  EXPECT_EQ(c1->data.GetAsDouble(2), 9.0);
  ExpectModuleError(
      "def @main() { meta[relay.Constant][2] }\n#[metadata]\n"
      "{\"relay.Constant\": [{\"dtype\": \"int32\", \"shape\": [], \"data\": \"BwAAAA==\"}]}\n",
      1, 15, "meta[relay.Constant][2] is out of range: the metadata section has 1 constant");
  ExpectModuleError("def @main() { 1f }\n#[metadata]\n{\"relay.Constant\": [{]}\n", 2, 1,
                    "malformed metadata section: ");
}

TEST(ParserTest, StandaloneExpressionWithMetadata) {
  Expr e = ParseExpr(
      "#[version = \"0.0.5\"]\n"
      "add(meta[relay.Constant][0], 1f)\n"
      "#[metadata]\n"
      "{\"relay.Constant\": [{\"dtype\": \"float32\", \"shape\": [2], \"data\": "
      "\"AACAPwAAAEA=\"}]}\n",
      NoInfer());
  const ConstantNode* c = AsCall(e)->args[0].as<ConstantNode>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->data.GetAsDouble(1), 2.0);
}

TEST(ParserTest, ConstantsFromOptions) {
  ParseOptions options = NoInfer();
  Constant given = ZerosF32({3});
  options.constants = {given};
  Expr body =
      MainBody("def @main() { (meta[relay.Constant][0], meta[relay.Constant][0]) }", options);
  const TupleNode* tuple = body.as<TupleNode>();
  EXPECT_TRUE(tuple->fields[0].same_as(Expr(given)));
  EXPECT_TRUE(tuple->fields[1].same_as(Expr(given)));
  ExpectModuleError("def @main() { meta[relay.Constant][1] }", 1, 15,
                    "meta[relay.Constant][1] is out of range: ParseOptions::constants has 1 "
                    "constant",
                    options);
}

TEST(ParserTest, ConstantsFromTypeCommentsAreZerosWithAWarning) {
  testing::internal::CaptureStderr();
  Expr body = MainBody(
      "def @main(%x: Tensor[(1, 2), float32]) {\n"
      "  %0 = add(%x, meta[relay.Constant][0] /* ty=Tensor[(1, 2), float32] span=a.py:1:2 */);\n"
      "  add(%0, meta[relay.Constant][0] /* ty=Tensor[(1, 2), float32] */)\n"
      "}\n");
  std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(warnings,
            "warning: 2:16: no metadata for meta[relay.Constant][0]; using zeros of type "
            "Tensor[(1, 2), float32]\n");
  const CallNode* outer = AsCall(body);
  const ConstantNode* c = outer->args[1].as<ConstantNode>();
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(AsCall(outer->args[0])->args[1].same_as(outer->args[1]));
  EXPECT_EQ(c->data.shape(), (Shape{1, 2}));
  EXPECT_EQ(c->data.GetAsDouble(1), 0.0);
}

TEST(ParserTest, MissingMetadataIsAnError) {
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, meta[relay.Constant][0])\n}\n", 2, 11,
                    "no metadata for meta[relay.Constant][0]");
  ExpectModuleError("def @main() { meta[relay.Constant][0] /* ty=Tensor[(?), float32] */ }", 1, 45,
                    "no metadata for meta[relay.Constant][0], and its type");
  ExpectModuleError("def @main() { meta[relay.Constant][0] /* ty=Tensor[(2), flot32] */ }", 1, 57,
                    "expected a dtype such as float32 but found 'flot32'");
  ExpectModuleError(
      "def @main() { meta[relay.Constant][0] /* ty=Tensor[(100000, 100000, 100), float32] */ }", 1,
      45,
      "no metadata for meta[relay.Constant][0], and Tensor[(100000, 100000, 100), float32] "
      "is too large to fill with zeros");
  ExpectModuleError("def @main() { meta[relay.Attrs][0] }", 1, 15,
                    "unsupported meta reference meta[relay.Attrs][0]");
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST(ParserErrorTest, MessageEndsWithSourceLineAndCaret) {
  ParseOptions options = NoInfer();
  options.source_name = "net.relay";
  try {
    ParseModule(
        "def @main(%x: float32) {\n"
        "  %0 = add(%x, %x);\n"
        "  %1 = add(%0, 1f;\n"
        "  %1\n"
        "}\n",
        options);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(),
                 "net.relay:3:18: expected ')' but found ';'\n"
                 "  %1 = add(%0, 1f;\n"
                 "                 ^");
    EXPECT_EQ(e.span().ToString(), "net.relay:3:18");
  }
}

TEST(ParserErrorTest, UnbalancedAndTruncatedInput) {
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, %x\n}\n", 3, 1,
                    "expected ')' but found '}'");
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, %x)\n", 3, 1,
                    "expected ';' or '}' but found end of input");
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, %x))\n}\n", 2, 14,
                    "expected ';' or '}' but found ')'");
  ExpectModuleError("def @main(%x: Tensor[(1, 3", 1, 27, "expected ')' but found end of input");
  ExpectModuleError("def @main(%x: float32) { %x }\n}\n", 2, 1, "expected 'def' but found '}'");
  ExpectModuleError("def @main(%x: float32) {\n  %0 = add(%x, %x);\n}\n", 3, 1,
                    "expected an expression but found '}'");
  ExpectModuleError("def @main() { /* never closed\n", 1, 15, "unterminated comment");
  ExpectModuleError("def @main() { cast(1f, dtype=\"float32) }", 1, 30,
                    "unterminated string literal");
  EXPECT_EQ(ParseModule("", NoInfer()).size(), 0u);  // an empty file is an empty module
  ExpectExprError("", 1, 1, "expected an expression but found end of input");
}

TEST(ParserErrorTest, UnknownOperatorsAndAttributes) {
  ExpectModuleError("def @main(%x: float32) {\n  nn.foo(%x)\n}\n", 2, 3, "unknown operator nn.foo");
  ExpectModuleError("def @main(%x: float32) {\n  nn.softmax(%x, axes=1)\n}\n", 2, 18,
                    "unknown attribute 'axes' for nn.softmax (valid: axis)");
  ExpectModuleError("def @main(%x: float32) {\n  nn.softmax(%x, axis=\"1\")\n}\n", 2, 23,
                    "nn.softmax: attribute 'axis' expects an integer, got str \"1\"");
  ExpectModuleError("def @main(%x: float32) {\n  nn.max_pool2d(%x, strides=[1, 1])\n}\n", 2, 3,
                    "nn.max_pool2d: attribute 'pool_size' of relay.attrs.MaxPool2DAttrs is "
                    "required");
  ExpectModuleError("def @main(%x: float32) {\n  nn.softmax(%x, axis=1, axis=2)\n}\n", 2, 26,
                    "attribute 'axis' given twice");
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, %x, axis=1)\n}\n", 2, 15,
                    "operator add takes no attributes");
  ExpectModuleError("def @main(%x: float32) {\n  nn.softmax(axis=1, %x)\n}\n", 2, 22,
                    "positional argument after attributes");
  ExpectModuleError("def @main(%x: float32) {\n  add(%x)\n}\n", 2, 9,
                    "add expects 2 arguments, got 1");
  ExpectModuleError("def @main(%x: float32) {\n  %0 = fn () { %x };\n  %0(a=1)\n}\n", 3, 6,
                    "attributes are only allowed in operator calls");
}

TEST(ParserErrorTest, UndefinedAndRedefinedNames) {
  ExpectModuleError("def @main(%x: float32) {\n  %0 = add(%x, %x);\n  add(%0, %5)\n}\n", 3, 11,
                    "use of undefined %5");
  ExpectModuleError("def @main(%x: float32) {\n  %0 = add(%x, %x);\n  %0 = add(%0, %x);\n  %0\n}\n",
                    3, 3, "redefinition of %0 (first defined at 2:3)");
  ExpectModuleError("def @main(%x: float32) {\n  add(%x, %y)\n}\n", 2, 11, "undefined variable %y");
  ExpectModuleError("def @main(%x: float32) {\n  @f(%x)\n}\n", 2, 3, "undefined global @f");
  ExpectModuleError("def @f() { 1f }\ndef @f() { 2f }\n", 2, 5, "redefinition of @f");
  ExpectModuleError("def @f(%x, %x) { 1f }\n", 1, 12, "duplicate parameter %x");
}

TEST(ParserErrorTest, BadNumbers) {
  ExpectExprError("add(2.5, 1f)", 1, 5,
                  "float literal '2.5' needs a type suffix, e.g. '2.5f' for float32");
  ExpectExprError("2f8", 1, 1, "invalid float literal '2f8': the width must be 16, 32 or 64");
  ExpectExprError("3i7", 1, 1, "invalid integer literal '3i7': the width must be 8, 16, 32 or 64");
  ExpectExprError("99999999999999999999", 1, 1,
                  "integer literal '99999999999999999999' is out of range for int64");
  ExpectExprError("40000i16", 1, 1, "integer literal '40000i16' is out of range for int16");
  ExpectExprError("1e39f", 1, 1, "float literal '1e39' is out of range for float32");
  ExpectExprError("12abc", 1, 1, "invalid number literal '12abc'");
  ExpectExprError("1.5i64", 1, 1, "invalid integer literal '1.5i64': it has a fraction");
  ExpectExprError("nan", 1, 1, "unknown operator nan");
}

TEST(ParserErrorTest, BadCharacters) {
  ExpectModuleError("def @main() {\r  1f\n}\n", 1, 14,
                    "lone carriage return ('\\r' not followed by '\\n')");
  ExpectModuleError(std::string("def @main() {\n  1f \x01\x02\xff\0 }\n", 24), 2, 6,
                    "unexpected character byte 0x01");
  ExpectModuleError("def @main() {\n  1f $\n}\n", 2, 6, "unexpected character '$'");
  ExpectModuleError("def @main() { cast(1f, dtype=\"a\\qb\") }", 1, 32,
                    "invalid escape sequence '\\q' in string literal");
  ExpectModuleError("def @main() { % }", 1, 15, "expected a name after '%' but found ' '");
  ExpectModuleError("def @main() { %1x }", 1, 15, "invalid variable name '%1x...'");
  ExpectModuleError("def @main() { meta[relay.Constant] }", 1, 15, "malformed meta reference");
  ExpectModuleError("#[versio = \"0.0.5\"]", 1, 1, "malformed attribute");
}

TEST(ParserErrorTest, BinaryGarbageNeverCrashes) {
  // Any byte string either parses or gives a ParseError; never a crash or another exception.
  uint32_t state = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int length = static_cast<int>(state % 64);
    for (int i = 0; i < length; ++i) {
      state = state * 1664525u + 1013904223u;
      text += static_cast<char>(state >> 24);
    }
    state = state * 1664525u + 1013904223u;
    try {
      ParseModule(text, NoInfer());
      ParseExpr(text, NoInfer());
    } catch (const ParseError& e) {
      EXPECT_TRUE(e.span().defined()) << e.what();
    }
  }
}

TEST(ParserErrorTest, MutatedModulesNeverCrash) {
  // Single-byte edits of a real module (closures, attributes, meta references): each result
  // parses or gives a ParseError with a location.
  const std::string original = ReadFile(std::filesystem::path(RELAYPASS_TEST_DATA) / "parser" /
                                        "seed_04_pass_infra_tutorial.relay");
  const std::string alphabet = "(){}[],;:=.%@\"/*-+0123456789fi_ \nabcdefmeta";
  uint32_t state = 2024;
  auto next = [&state](uint32_t bound) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % bound;
  };
  for (int round = 0; round < 1500; ++round) {
    std::string text = original;
    size_t at = next(static_cast<uint32_t>(text.size()));
    switch (next(3)) {
      case 0:
        text.erase(at, 1);
        break;
      case 1:
        text.insert(at, 1, alphabet[next(static_cast<uint32_t>(alphabet.size()))]);
        break;
      default:
        text[at] = alphabet[next(static_cast<uint32_t>(alphabet.size()))];
        break;
    }
    ParseOptions options = NoInfer();
    options.constants = {ZerosF32({1, 64, 54, 54}), ZerosF32({1, 64, 54, 54})};
    try {
      ParseModule(text, options);
    } catch (const ParseError& e) {
      EXPECT_TRUE(e.span().defined()) << e.what();
    }
  }
}

TEST(ParserErrorTest, NestingIsBounded) {
  auto nested = [](int depth, const std::string& open, const std::string& inner,
                   const std::string& close) {
    std::string text;
    for (int i = 0; i < depth; ++i) text += open;
    text += inner;
    for (int i = 0; i < depth; ++i) text += close;
    return text;
  };
  // 10,000 levels parse, on any caller stack (the parser runs on a stack of its own); the
  // error points at the first token nested one level too deep.
  EXPECT_NO_THROW(ParseExpr(nested(10000, "(", "1f", ")"), NoInfer()));
  EXPECT_NO_THROW(ParseExpr(nested(10000, "nn.relu(", "1f", ")"), NoInfer()));
  EXPECT_NO_THROW(ParseExpr(nested(10000, "fn () { ", "1f", " }"), NoInfer()));
  ExpectExprError(nested(10001, "(", "1f", ")"), 1, 10002,
                  "nesting too deep (more than 10000 levels)");
  ExpectExprError(nested(1000000, "(", "1f", ")"), 1, 10002, "nesting too deep");
  ExpectExprError("nn.softmax(1f, axis=" + nested(20000, "[", "1", "]") + ")", 1, 10021,
                  "nesting too deep");
  ExpectModuleError("def @main(%x: " + nested(20000, "(", "float32", ")") + ") { %x }", 1, 10016,
                    "nesting too deep");
  ExpectExprError(nested(20000, "fn () { ", "1f", " }"), 1, 80009, "nesting too deep");
}

// ---------------------------------------------------------------------------------------------
// Scale

TEST(ParserTest, MillionBindingChainParsesInLinearTime) {
  constexpr int kBindings = 1000000;
  std::string text = "def @main(%x: Tensor[(1, 16), float32]) {\n";
  text.reserve(kBindings * 32);
  for (int i = 0; i < kBindings; i += 2) {
    std::string prev = i == 0 ? "%x" : "%" + std::to_string(i - 1);
    text += "  %" + std::to_string(i) + " = add(" + prev + ", 1f);\n";
    text += "  %" + std::to_string(i + 1) + " = nn.relu(%" + std::to_string(i) + ");\n";
  }
  text += "  %" + std::to_string(kBindings - 1) + "\n}\n";

  // CPU time, not wall time: the machine running the tests may be busy.
  std::clock_t start = std::clock();
  IRModule mod = ParseModule(text, NoInfer());
  double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  EXPECT_LT(seconds, 20.0);  // about a second in a release build; quadratic would be hours

  Expr e = mod.Lookup("main")->body;
  int calls = 0;
  while (const CallNode* call = e.as<CallNode>()) {
    ++calls;
    e = call->args[0];
  }
  EXPECT_EQ(calls, kBindings);
  EXPECT_NE(e.as<VarNode>(), nullptr);
}
}  // namespace
}  // namespace relaypass::text
