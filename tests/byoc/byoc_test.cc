// The BYOC passes on hand-written graphs. The expected graphs are derived by hand from TVM v0.13's
// algorithms (annotate_target.cc, annotated_region_set.cc, merge_compiler_regions.cc,
// partition_graph.cc) as described in each test; printed text is TVM's format (function attribute
// order is the order PartitionGraph sets them: global_symbol, Primitive, Compiler, Inline).
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
namespace relay = relaypass::relay;

// Registers target.<name> for the given ops for the duration of a test.
class TargetOps {
 public:
  TargetOps(std::string target, std::vector<std::string> ops)
      : attr_("target." + std::move(target)), ops_(std::move(ops)) {
    for (const std::string& op : ops_) {
      RegisterOpTargetAttr(op, attr_, [](const Expr&) { return true; });
    }
  }
  ~TargetOps() {
    for (const std::string& op : ops_) ResetOpTargetAttr(op, attr_);
  }

 private:
  std::string attr_;
  std::vector<std::string> ops_;
};

ir::IRModule Module(const std::vector<ir::Var>& params, const Expr& body) {
  return ir::InferTypes(ir::IRModule::FromExpr(ir::MakeFunction(params, body)));
}

// relu(add(x, y)) with `test` taking add: add's arguments get begin("test"); relu (default)
// gets end("test") then begin("default") on its argument; the body ends with end("default").
TEST(AnnotateTargetTest, CallsAndDefault) {
  TargetOps ops("test", {"add"});
  ir::Var x = relay::var("x", {10, 10}), y = relay::var("y", {10, 10});
  ir::IRModule mod = Module({x, y}, relay::nn::relu(relay::add(x, y)));
  ir::IRModule out = AnnotateTarget({"test"})(mod);

  Expr add = relay::add(CompilerBegin(x, "test"), CompilerBegin(y, "test"));
  Expr relu = relay::nn::relu(CompilerBegin(CompilerEnd(add, "test"), "default"));
  ir::IRModule expected = Module({x, y}, CompilerEnd(relu, "default"));
  EXPECT_TRUE(ir::StructuralEqual(out, expected)) << text::PrettyPrint(out);

  // Partitioned: the default annotations go, the add becomes @tvmgen_default_test_main_0 (region
  // 0 is begin(x)'s; begin(y)'s region 1 merged into it at the add).
  ir::IRModule parts = PartitionGraph()(MergeCompilerRegions()(out));
  EXPECT_EQ(text::PrettyPrint(parts),
            "def @main(%x: Tensor[(10, 10), float32] /* ty=Tensor[(10, 10), float32] */, "
            "%y: Tensor[(10, 10), float32] /* ty=Tensor[(10, 10), float32] */) -> "
            "Tensor[(10, 10), float32] {\n"
            "  %0 = @tvmgen_default_test_main_0(%x, %y) /* ty=Tensor[(10, 10), float32] */;\n"
            "  nn.relu(%0) /* ty=Tensor[(10, 10), float32] */\n"
            "}\n"
            "\n"
            "def @tvmgen_default_test_main_0(%test_0_i0: Tensor[(10, 10), float32] /* "
            "ty=Tensor[(10, 10), float32] */, %test_0_i1: Tensor[(10, 10), float32] /* "
            "ty=Tensor[(10, 10), float32] */, global_symbol=\"tvmgen_default_test_main_0\", "
            "Primitive=1, Compiler=\"test\", Inline=1) -> Tensor[(10, 10), float32] {\n"
            "  add(%test_0_i0, %test_0_i1) /* ty=Tensor[(10, 10), float32] */\n"
            "}\n");
}

size_t CountGlobals(const ir::IRModule& mod, const std::string& compiler) {
  size_t n = 0;
  for (const auto& [gv, fn] : mod.functions()) {
    const ir::AttrValue* c = fn->attrs.find("Compiler");
    n += c && c->as_string() == compiler;
  }
  return n;
}

size_t CountAnnotations(const ir::IRModule& mod) {
  size_t n = 0;
  for (const auto& [gv, fn] : mod.functions()) {
    ir::post_order_visit(fn, [&](const Expr& e) {
      n += CompilerBeginTarget(e) != nullptr || CompilerEndTarget(e) != nullptr;
    });
  }
  return n;
}

// A chain relu -> add -> relu, all `test`: three regions before merging, one after; the
// end/begin pairs between them disappear.
TEST(MergeCompilerRegionsTest, ChainBecomesOneRegion) {
  TargetOps ops("test", {"add", "nn.relu"});
  ir::Var x = relay::var("x", {4}), y = relay::var("y", {4});
  ir::IRModule mod = Module({x, y}, relay::nn::relu(relay::add(relay::nn::relu(x), y)));
  ir::IRModule annotated = AnnotateTarget({"test"})(mod);
  // Begins on x, end(relu), y, end(add); ends after relu, add and the outer relu.
  EXPECT_EQ(CountAnnotations(annotated), 7u);
  ir::IRModule merged = MergeCompilerRegions()(annotated);
  // begin(x), begin(y) and the outer end remain.
  EXPECT_EQ(CountAnnotations(merged), 3u);
  ir::IRModule parts = PartitionGraph()(merged);
  EXPECT_EQ(CountGlobals(parts, "test"), 1u);
  EXPECT_EQ(CountAnnotations(parts), 0u);
}

// relu (test) feeds tanh (default) and an add (test) that also reads the tanh: merging the relu
// region into the add's would put the default tanh both after and before the merged region, so
// TVM's restrictions keep them apart: two test functions.
TEST(MergeCompilerRegionsTest, RestrictionKeepsRegionsApart) {
  TargetOps ops("test", {"add", "nn.relu"});
  ir::Var x = relay::var("x", {4});
  Expr relu = relay::nn::relu(x);
  ir::IRModule mod = Module({x}, relay::add(relu, relay::tanh(relu)));
  ir::IRModule parts = PartitionGraph()(MergeCompilerRegions()(AnnotateTarget({"test"})(mod)));
  EXPECT_EQ(CountGlobals(parts, "test"), 2u);
  EXPECT_EQ(CountAnnotations(parts), 0u);
}

// MergeComposite with the dnnl table on conv2d + bias add + relu, then the rest of the flow: the
// composite call is offloaded as a whole (its Composite name starts with "dnnl.").
TEST(MergeCompositeTest, ConvBiasReluThroughTheFlow) {
  ir::Var x = relay::var("x", {1, 3, 8, 8});
  ir::Var w = relay::var("w", {4, 3, 3, 3});
  ir::Var b = relay::var("b", {4, 1, 1});
  ir::IRModule mod = Module({x, w, b}, relay::nn::relu(relay::add(relay::nn::conv2d(x, w), b)));
  ir::IRModule composite = MergeComposite(GetPatternTable("dnnl"))(mod);
  const ir::Function main = composite.Lookup("main");
  auto* call = main->body.as<ir::CallNode>();
  ASSERT_TRUE(call);
  auto* fn = call->op.as<ir::FunctionNode>();
  ASSERT_TRUE(fn);
  EXPECT_EQ(fn->attrs.find("Composite")->as_string(), "dnnl.conv2d_bias_relu");
  EXPECT_EQ(fn->attrs.find("PartitionedFromPattern")->as_string(), "nn.conv2d_add_nn.relu_");
  EXPECT_EQ(fn->params.size(), 3u);

  ir::IRModule parts =
      PartitionGraph()(MergeCompilerRegions()(AnnotateTarget({"dnnl"})(composite)));
  EXPECT_EQ(CountGlobals(parts, "dnnl"), 1u);
  const std::string text = text::PrettyPrint(parts);
  EXPECT_NE(text.find("def @tvmgen_default_dnnl_main_0(%dnnl_0_i0"), std::string::npos) << text;
  EXPECT_NE(text.find("Composite=\"dnnl.conv2d_bias_relu\""), std::string::npos) << text;
  EXPECT_NE(text.find("@tvmgen_default_dnnl_main_0(%x, %w, %b)"), std::string::npos) << text;
}

TEST(ByocRegistryTest, PassesAreRegistered) {
  auto& registry = transform::PassRegistry::Global();
  for (const char* name :
       {"MergeComposite", "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph"}) {
    EXPECT_NE(registry.Find(name), nullptr) << name;
  }
  using transform::OptionValue;
  transform::Pass p = registry.Create(
      "AnnotateTarget", {{"targets", OptionValue::Array({OptionValue::Str("dnnl")})}});
  EXPECT_EQ(p.info().name, "AnnotateTarget");
  EXPECT_EQ(
      registry.Create("MergeComposite", {{"pattern_table", OptionValue::Str("dnnl")}}).info().name,
      "MergeComposite");
  EXPECT_THROW(registry.Create("MergeComposite", {{"pattern_table", OptionValue::Str("nope")}}),
               PassError);
}

}  // namespace
}  // namespace relaypass::passes
