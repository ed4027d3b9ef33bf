// What any pass makes prints as text that reads back: for every registered pass (with its default
// options) on every built-in workload (small sizes, parameters bound and unbound), the printed
// module parses back to a structurally equal module, in both printed forms: mod.astext() with its
// #[metadata] section, and print(mod) with the constants handed to the parser as TVM's
// init_meta_table does. Expected values: TVM's parser reads back what TVM's printer writes
// (relay_semantics.md 1.9), so parse(print(m)) == m structurally.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "../../src/text/meta_table.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass {
namespace {

struct Case {
  std::string name;
  ir::IRModule mod;
};

// The workloads at their smallest: every name WorkloadNames lists, resnet at its smallest depth
// (the others differ only in block counts), chain-N at N = 20; each unbound and, when it has
// parameters, bound.
std::vector<Case> Workloads() {
  std::vector<Case> cases;
  for (const std::string& listed : workloads::WorkloadNames()) {
    std::string name = listed;
    if (name == "chain-N") name = "chain-20";
    if (name.rfind("resnet-", 0) == 0 && name != "resnet-18") continue;
    const workloads::Workload w = workloads::GetWorkload(name);
    cases.push_back({name, ir::InferTypes(w.mod)});
    if (w.params.empty()) continue;
    ir::IRModule bound = w.mod;
    bound.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
    cases.push_back({name + " bound", ir::InferTypes(bound)});
  }
  return cases;
}

// The registered passes that can be made without options.
std::vector<transform::Pass> Passes() {
  std::vector<transform::Pass> passes;
  for (const std::string& name : transform::PassRegistry::Global().Names()) {
    try {
      passes.push_back(transform::CreatePass(name));
    } catch (const PassError&) {
      // An option without a default: not creatable with default options.
    }
  }
  return passes;
}

// The metadata section's constants, in meta index order.
std::vector<ir::Constant> MetaConstants(const std::string& astext) {
  const std::string marker = "#[metadata]";
  const size_t at = astext.find(marker);
  if (at == std::string::npos) return {};
  return text::ParseMetaSection(std::string_view(astext).substr(at + marker.size()));
}

// Why `text` does not read back as `mod`, or "".
std::string ReadsBack(const ir::IRModule& mod, const std::string& text,
                      const std::vector<ir::Constant>& constants) {
  text::ParseOptions options;
  options.constants = constants;
  try {
    const ir::IRModule parsed = text::ParseModule(text, options);
    // The parser type-checks as TVM's does: a module left untyped by its pass (ToANormalForm's
    // new lets) reads back as InferType would type it (let variables annotated).
    if (!ir::StructuralEqual(parsed, mod) && !ir::StructuralEqual(parsed, ir::InferTypes(mod))) {
      return "parses to a different module";
    }
  } catch (const Error& e) {
    return std::string("does not parse: ") + e.what();
  }
  return "";
}

TEST(PassRoundTripTest, EveryPassOnEveryWorkloadReadsBack) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<transform::Pass> passes = Passes();
  ASSERT_GE(passes.size(), 10u);
  int checked = 0;
  for (const Case& c : Workloads()) {
    for (const transform::Pass& pass : passes) {
      const std::string where = pass.info().name + " on " + c.name;
      ir::IRModule out;
      try {
        testing::internal::CaptureStderr();  // PrintIR's output
        out = pass(c.mod);
        testing::internal::GetCapturedStderr();
      } catch (const Error& e) {
        testing::internal::GetCapturedStderr();
        ADD_FAILURE() << where << ": the pass failed: " << e.what();
        continue;
      }
      const std::string astext = text::AsText(out);
      const std::string with_meta = ReadsBack(out, astext, {});
      EXPECT_EQ(with_meta, "") << where << ": mod.astext()";
      const std::string printed = text::PrettyPrint(out);
      const std::string without_meta = ReadsBack(out, printed, MetaConstants(astext));
      EXPECT_EQ(without_meta, "") << where << ": print(mod)";
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
  // Kept quick (about 10 s on the development machine): resnet-18 stands for every resnet depth.
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("seconds", std::to_string(seconds));
}

// The reshape-only function FuseOps makes carries `relay.reshape_only=1`; TVM's parser reads
// dotted attribute keys (relay_semantics.md 1.9), and so does this one.
TEST(PassRoundTripTest, DottedFunctionAttributeKeys) {
  const std::string text =
      "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(6), float32] {\n"
      "  %0 = fn (%p0: Tensor[(2, 3), float32], Primitive=1, relay.reshape_only=1) -> "
      "Tensor[(6), float32] {\n"
      "    reshape(%p0, newshape=[6])\n"
      "  };\n"
      "  %0(%x)\n"
      "}\n";
  const ir::IRModule mod = text::ParseModule(text);
  const auto* call = mod.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_NE(call, nullptr);
  const auto* fn = call->op.as<ir::FunctionNode>();
  ASSERT_NE(fn, nullptr);
  ASSERT_NE(fn->attrs.find("relay.reshape_only"), nullptr);
  EXPECT_EQ(fn->attrs.find("relay.reshape_only")->as_int(), 1);
  const std::string printed = text::PrettyPrint(mod);
  EXPECT_NE(printed.find("Primitive=1, relay.reshape_only=1) -> "), std::string::npos) << printed;
}

// A key that is not dotted identifiers prints quoted, and reads back.
TEST(PassRoundTripTest, OtherAttributeKeysAreQuoted) {
  const ir::IRModule mod = text::ParseModule(
      "def @main(%x: float32, \"my key-1\"=\"v\", a.b.c=2) -> float32 {\n  %x\n}\n");
  const ir::Function main = mod.Lookup("main");
  ASSERT_NE(main->attrs.find("my key-1"), nullptr);
  ASSERT_NE(main->attrs.find("a.b.c"), nullptr);
  const std::string printed = text::PrettyPrint(mod);
  EXPECT_NE(printed.find("\"my key-1\"=\"v\", a.b.c=2"), std::string::npos) << printed;
  EXPECT_TRUE(ir::StructuralEqual(text::ParseModule(printed), mod));
}

}  // namespace
}  // namespace relaypass
