// EtaExpand and Inline. Expected modules: TVM v0.13's tests/python/relay/test_pass_eta_expand.py
// (test_eta_expand_global_var) and test_pass_inline.py (test_call_chain_inline_leaf,
// test_entry_with_inline), written in the text format / built with the same calls and compared
// by printed text.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/eta_expand.h"
#include "relaypass/passes/inline.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using testing::Print;

ir::IRModule Parse(const std::string& text) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + text));
}

TEST(EtaExpand, GlobalVarBecomesAClosure) {
  ir::IRModule mod = Parse(
      "def @aux(%x: Tensor[(), int32]) -> Tensor[(), int32] {\n"
      "  %x\n"
      "}\n"
      "def @main() -> fn (Tensor[(), int32]) -> Tensor[(), int32] {\n"
      "  @aux\n"
      "}\n");
  ir::IRModule expected = Parse(
      "def @aux(%x: Tensor[(), int32]) -> Tensor[(), int32] {\n"
      "  %x\n"
      "}\n"
      "def @main() -> fn (Tensor[(), int32]) -> Tensor[(), int32] {\n"
      "  fn (%eta_expand_param: Tensor[(), int32]) -> Tensor[(), int32] {\n"
      "    @aux(%eta_expand_param)\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(Print(ir::InferTypes(EtaExpand(false, true)(mod))), Print(expected));
  // Without expand_global_var nothing changes.
  EXPECT_EQ(Print(EtaExpand()(mod)), Print(mod));
}

ir::Function WithInline(ir::Function f) {
  return ir::MakeFunction(f->params, f->body, f->ret_type, {{"Inline", ir::AttrValue::Int(1)}});
}

TEST(Inline, CallChainInlineLeaf) {
  ir::IRModule mod;
  auto x11 = relay::var("x11", {3, 5});
  mod.Add("g11", WithInline(relay::function({x11}, x11)));
  ir::GlobalVar g11 = mod.GetGlobalVar("g11");
  auto x1 = relay::var("x1", {3, 5});
  auto y1 = relay::var("y1", {3, 5});
  mod.Add("g1", relay::function({x1, y1}, relay::add(relay::add(x1, y1), ir::MakeCall(g11, {x1}))));
  auto x2 = relay::var("x2", {3, 5});
  auto y2 = relay::var("y2", {3, 5});
  mod.Add("g2", WithInline(relay::function({x2, y2}, relay::subtract(x2, y2))));
  auto p0 = relay::var("p0", {3, 5});
  auto p1 = relay::var("p1", {3, 5});
  auto p2 = relay::var("p2", {3, 5});
  auto p3 = relay::var("p3", {3, 5});
  mod.Add("main", relay::function({p0, p1, p2, p3},
                                  relay::multiply(ir::MakeCall(mod.GetGlobalVar("g1"), {p0, p1}),
                                                  ir::MakeCall(mod.GetGlobalVar("g2"), {p2, p3}))));
  ir::IRModule out = ir::InferTypes(Inline()(ir::InferTypes(mod)));

  ir::IRModule expected;
  expected.Add("g1", relay::function({x1, y1}, relay::add(relay::add(x1, y1), x1)));
  expected.Add("main",
               relay::function({p0, p1, p2, p3},
                               relay::multiply(ir::MakeCall(expected.GetGlobalVar("g1"), {p0, p1}),
                                               relay::subtract(p2, p3))));
  EXPECT_EQ(Print(out), Print(ir::InferTypes(expected)));
}

// An entry function (referenced by nothing) stays even if it is marked Inline.
TEST(Inline, EntryWithInlineStays) {
  ir::IRModule mod;
  auto x = relay::var("x", {3, 5});
  auto y = relay::var("y", {3, 5});
  mod.Add("g1", WithInline(relay::function({x, y}, relay::add(x, y))));
  mod.Add("g2", WithInline(relay::function({x, y}, relay::add(x, y))));
  ir::IRModule typed = ir::InferTypes(mod);
  EXPECT_EQ(Print(Inline()(typed)), Print(typed));
}

}  // namespace
}  // namespace relaypass::passes
